"""Verdicts, and the decorator that makes a function the witness of a numbered item.

Every law clause and every numbered result of the paper that the library makes
executable returns a :class:`Verdict`: does it hold, what was explored, and —
when it fails, or when the result is itself a counterexample — a replayable
witness as JSON-ready data.

A function becomes the witness of an item with :func:`paper_item`, which checks
the decoration against the item's row in :mod:`coalg.paper.items` (the one table
of numbered items) and marks the function; :mod:`coalg.paper.registry` finds
it through the row's ``function`` path.  Each item says which *kind of claim*
it is, the distinction the paper draws (its §1.3):

* ``theorem`` — proved from the definitions; checked here by property tests;
* ``instantiation`` — a reading of the ContextFS source at a93035d, checked on
  the model that encodes that reading;
* ``runtime`` — observed by running the released ``contextfs`` package.

>>> v = Verdict(item="X", kind="property", holds=True, explored=3)
>>> v.to_json()["holds"], v.to_json()["witness"]
(True, None)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .items import Kind, Nature, numbered

__all__ = ["Kind", "Nature", "Verdict", "paper_item", "marked_item"]

Check = Callable[[], "Verdict"]

_MARK = "__paper_item__"


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


def paper_item(
    item: str, title: str | None = None, *, kind: Kind | None = None, nature: Nature | None = None
) -> Callable[[Check], Check]:
    """Decorator: ``check`` is the witness of paper item ``item`` (a row of :mod:`coalg.paper.items`).

    ``title``, ``kind`` and ``nature``, when given, must be those of the row: a
    decoration that disagrees with the table raises ``ValueError`` at import,
    naming the field.  The function is returned unchanged, marked with its item.

    >>> @paper_item("5.7", "Ancestry is stable", kind="property", nature="theorem")
    ... def check() -> Verdict:
    ...     return Verdict("5.7", "property", True, 0)
    >>> marked_item(check)
    '5.7'
    >>> paper_item("5.7", kind="counterexample")       # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: paper item '5.7': kind is 'property' in coalg.paper.items, not 'counterexample'
    """
    row = numbered(item)
    if row.kind is None:
        raise ValueError(f"paper item {item!r} has no witness in coalg.paper.items (it is a {row.nature})")
    for name, given, want in (("title", title, row.title), ("kind", kind, row.kind), ("nature", nature, row.nature)):
        if given is not None and given != want:
            raise ValueError(f"paper item {item!r}: {name} is {want!r} in coalg.paper.items, not {given!r}")

    def mark(check: Check) -> Check:
        setattr(check, _MARK, item)
        return check

    return mark


def marked_item(check: object) -> str | None:
    """The item ``check`` was decorated as the witness of by :func:`paper_item`, or ``None``."""
    item = getattr(check, _MARK, None)
    return item if isinstance(item, str) else None
