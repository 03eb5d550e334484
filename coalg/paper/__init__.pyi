"""Type stub of the package face: the names it hands on and the module each comes from.

A type checker reads this file; at run time ``lazy_loader.attach_stub`` reads the
same imports and loads a module the first time one of its names is asked for."""

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

__all__ = [
    "NUMBERED",
    "Kind",
    "Nature",
    "NumberedItem",
    "Table2Entry",
    "conventional_test_name",
    "numbered",
    "ITEM_MODULES",
    "ITEMS",
    "PaperItem",
    "get_item",
    "known_items",
    "run_item",
    "Table",
    "code",
    "escape",
    "md_table",
    "TABLE",
    "Row",
    "by_item",
    "resolve",
    "rows",
    "table_json",
    "Verdict",
    "marked_item",
    "paper_item",
]
