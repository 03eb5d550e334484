"""The paper's numbered items: verdicts, the registry behind ``coalg witness``, the
traceability table, and the tables the book shows them in."""

from typing import TYPE_CHECKING

from .._lazy import attach

__getattr__, __dir__, __all__ = attach(__name__, __file__)

if TYPE_CHECKING:
    from .tables import Table, code, escape, md_table
    from .traceability import (
        TABLE,
        Row,
        by_item,
        conventional_test_name,
        resolve,
        rows,
        table_json,
    )
    from .verdict import (
        ITEM_MODULES,
        ITEMS,
        PaperItem,
        Verdict,
        get_item,
        known_items,
        paper_item,
        run_item,
    )
