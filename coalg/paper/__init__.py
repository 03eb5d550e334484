"""The paper's numbered items: one table, verdicts, the witness registry and the traceability table.

The table is :mod:`coalg.paper.items`; ``coalg witness`` reads the registry
(:mod:`coalg.paper.registry`), the book's appendix the traceability table, and the book's
pages show tables through :mod:`coalg.paper.tables`.
"""

from typing import TYPE_CHECKING

from .._lazy import attach

__getattr__, __dir__, __all__ = attach(__name__, __file__)

if TYPE_CHECKING:
    from .items import (
        NUMBERED,
        Kind,
        Nature,
        NumberedItem,
        Table2Entry,
        conventional_test_name,
        numbered,
    )
    from .registry import (
        ITEM_MODULES,
        ITEMS,
        PaperItem,
        get_item,
        known_items,
        run_item,
    )
    from .tables import Table, code, escape, md_table
    from .traceability import (
        TABLE,
        Row,
        by_item,
        resolve,
        rows,
        table_json,
    )
    from .verdict import (
        Verdict,
        marked_item,
        paper_item,
    )
