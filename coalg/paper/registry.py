"""The witness registry behind ``coalg witness``: each numbered item with a witness, and its check.

Read from :mod:`coalg.paper.items`: an item whose row has a ``kind`` has a
witness, the function its ``function`` path names, which must be decorated with
:func:`coalg.paper.verdict.paper_item` for that item.  This module sits above
every checking module (it imports them by path, on demand); none of them imports
it.

>>> known_items()[:4]
['3.6', '3.9', '3.20', '3.22']
>>> get_item("5.7").function, get_item("5.7").kind
('coalg.laws.stability.check_5_7', 'property')
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache

from .items import NUMBERED, Kind, Nature, numbered, witness_items
from .traceability import resolve
from .verdict import Verdict, marked_item

__all__ = ["ITEMS", "ITEM_MODULES", "PaperItem", "get_item", "known_items", "run_item"]


@dataclass(frozen=True)
class PaperItem:
    """A numbered item of the paper (or an open problem) and the function that checks it."""

    item: str
    title: str
    kind: Kind
    nature: Nature
    check: Callable[[], Verdict]
    module: str

    @property
    def function(self) -> str:
        return f"{self.module}.{self.check.__name__}"


def known_items() -> list[str]:
    """Every item with a witness, in paper order (numbers first, then OP1…OP6 and the runtime items)."""
    return witness_items()


@cache
def get_item(item: str) -> PaperItem:
    """The item ``item`` with its check (imported on first use); ``KeyError`` for an item without a witness."""
    row = numbered(item)
    if row.kind is None:
        raise KeyError(item)
    check = resolve(row.function)
    if marked_item(check) != item:
        raise LookupError(f"{row.function} is not decorated with @paper_item({item!r})")
    module = row.function.rsplit(".", 1)[0]
    return PaperItem(row.item, row.title, row.kind, row.nature, check, module)


def run_item(item: str) -> Verdict:
    """Run the check of ``item``."""
    return get_item(item).check()


class _Registry(Mapping[str, PaperItem]):
    """Every item with a witness, by number; a check is imported when its item is looked up."""

    def __getitem__(self, item: str) -> PaperItem:
        return get_item(item)

    def __iter__(self) -> Iterator[str]:
        return iter(known_items())

    def __len__(self) -> int:
        return len(known_items())

    def __repr__(self) -> str:
        return f"<the registry of {len(self)} paper items with a witness>"


ITEMS: Mapping[str, PaperItem] = _Registry()
"""The registry as a read-only mapping, item → :class:`PaperItem`."""

ITEM_MODULES: tuple[str, ...] = tuple(dict.fromkeys(
    row.function.rsplit(".", 1)[0] for row in NUMBERED if row.kind is not None))
"""The modules that hold the witnesses, in paper order of their first item."""
