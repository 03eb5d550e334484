"""Verdicts and the registry of executable paper items.

Every law clause and every numbered result of the paper that the library makes
executable returns a :class:`Verdict`: does it hold, what was explored, and —
when it fails, or when the result is itself a counterexample — a replayable
witness as JSON-ready data.

Items register themselves with :func:`paper_item`; ``python -m coalg witness
ITEM`` and the traceability table read the registry.  Each item says which
*kind of claim* it is, the distinction the paper draws (its §1.3):

* ``theorem`` — proved from the definitions; checked here by property tests;
* ``instantiation`` — a reading of the ContextFS source at a93035d, checked on
  the model that encodes that reading;
* ``runtime`` — observed by running the released ``contextfs`` package.

>>> v = Verdict(item="X", kind="property", holds=True, explored=3)
>>> v.to_json()["holds"], v.to_json()["witness"]
(True, None)
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

__all__ = ["Verdict", "PaperItem", "paper_item", "ITEMS", "known_items", "get_item", "run_item", "ITEM_MODULES"]

Kind = Literal["counterexample", "property"]
Nature = Literal["theorem", "instantiation", "runtime", "definition", "proposal"]


@dataclass(frozen=True)
class Verdict:
    """The answer of a check: ``holds``, how much was ``explored``, and a JSON-ready ``witness``."""

    item: str
    kind: Kind
    holds: bool
    explored: int
    witness: Mapping[str, Any] | None = None
    summary: str = ""
    details: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The JSON shape of ``python -m coalg witness ITEM --json``."""
        return {
            "item": self.item,
            "kind": self.kind,
            "holds": self.holds,
            "explored": self.explored,
            "witness": None if self.witness is None else dict(self.witness),
            "summary": self.summary,
        }


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


ITEMS: dict[str, PaperItem] = {}

ITEM_MODULES = (
    "coalg.laws.results",
    "coalg.bitemporal.checks",
    "coalg.composition.checks",
    "coalg.open_problems",
    "coalg.contextfs.runtime",
)
"""Modules whose import registers paper items; absent ones are skipped."""


def paper_item(item: str, title: str, *, kind: Kind, nature: Nature) -> Callable[[Callable[[], Verdict]], Callable[[], Verdict]]:
    """Decorator: register ``check`` as the executable counterpart of paper item ``item``."""

    def deco(check: Callable[[], Verdict]) -> Callable[[], Verdict]:
        ITEMS[item] = PaperItem(item, title, kind, nature, check, check.__module__)
        return check

    return deco


def _load() -> None:
    for name in ITEM_MODULES:
        try:
            importlib.import_module(name)
        except ModuleNotFoundError as e:
            if e.name != name:
                raise


def _sort_key(item: str) -> tuple[int, tuple[int, ...], str]:
    parts = item.split(".")
    if all(p.isdigit() for p in parts):
        return (0, tuple(int(p) for p in parts), "")
    return (1, (), item)


def known_items() -> list[str]:
    """Every registered item, in paper order (numbers first, then OP1…OP6)."""
    _load()
    return sorted(ITEMS, key=_sort_key)


def get_item(item: str) -> PaperItem:
    _load()
    if item not in ITEMS:
        raise KeyError(item)
    return ITEMS[item]


def run_item(item: str) -> Verdict:
    """Run the check of ``item``."""
    return get_item(item).check()
