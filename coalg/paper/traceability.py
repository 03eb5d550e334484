"""Traceability: every numbered item of the paper, the code that makes it executable, and its test.

The table is :data:`coalg.paper.items.NUMBERED` (one row per item of the
paper's index, law and schema clause, runtime observation and open problem);
this module reads it as the traceability table (:data:`TABLE`, :func:`rows`,
:func:`by_item`, :func:`table_json`) and resolves a row's dotted ``function``
path (:func:`resolve`).  The test-name convention is
:func:`coalg.paper.items.conventional_test_name`; a test whose name extends the
conventional one with ``_…`` counts too.

``tests/paper/test_traceability.py`` fails when a ``done`` row's function does not
import, when no test of its name exists under ``tests/``, or when a witness is
not decorated as the item its row names.

>>> row = by_item("5.7")
>>> row.function, row.test, row.nature
('coalg.laws.stability.check_5_7', 'test_item_5_7', 'theorem')
>>> {r.status for r in TABLE} <= {"done", "pending", "planned"}
True
"""

from __future__ import annotations

import importlib
from typing import Any

from .items import NUMBERED, NumberedItem, Status, numbered

__all__ = ["TABLE", "Row", "by_item", "resolve", "rows", "table_json"]

Row = NumberedItem
"""One traceability row: a numbered item (``item``, ``title``, ``nature``, ``function``, ``test``, ``status``)."""

TABLE: tuple[Row, ...] = NUMBERED
"""The traceability table, in paper order."""


def rows(status: Status | None = None) -> list[Row]:
    """The rows of :data:`TABLE`, optionally only those with ``status``."""
    return [r for r in TABLE if status is None or r.status == status]


def by_item(item: str) -> Row:
    """The row of ``item``; ``KeyError`` if the table has none."""
    return numbered(item)


def resolve(path: str) -> Any:
    """Import the object a dotted path names (``coalg.laws.stability.check_5_7``), longest module prefix first.

    >>> resolve("coalg.model.store.Store").__name__
    'Store'
    """
    parts = path.split(".")
    for k in range(len(parts) - 1, 0, -1):
        try:
            obj: Any = importlib.import_module(".".join(parts[:k]))
        except ModuleNotFoundError:
            continue
        for name in parts[k:]:
            obj = getattr(obj, name)
        return obj
    raise ImportError(f"cannot import {path}")


def table_json() -> list[dict[str, str]]:
    """The table as JSON-ready rows (for the book's traceability appendix)."""
    return [{"item": r.item, "title": r.title, "nature": r.nature, "function": r.function, "test": r.test,
             "status": r.status} for r in TABLE]
