"""How a letter and a call print in tables, explanations and witnesses: one line each.

The law checks (§5) explain every violation in these terms, and the explorers
show them as the word so far.
"""

from __future__ import annotations

from typing import get_args

from ..model import Call, Letter

__all__ = ["show_call", "show_letter"]


_LETTERS: tuple[type, ...] = get_args(Letter)


def show_letter(a: Letter) -> str:
    """A one-line rendering of a letter, for tables and explanations: ``str(a)``, or ``TypeError``.

    >>> from coalg.model import Evolve, Merge
    >>> show_letter(Merge(("a", "b"))), show_letter(Evolve("id0", "x", by_prefix=True))
    ('merge(a, b)', "evolve(id0…, 'x') by prefix")
    """
    if not isinstance(a, _LETTERS):
        raise TypeError(f"not a letter: {a!r}")
    return str(a)  # each letter class prints itself (coalg.model.alphabet): one way to print a letter


def show_call(c: Call) -> str:
    """A letter rendering plus its injected faults, if any."""
    faults = f" [edge write {', '.join(map(str, sorted(c.faults)))} fails]" if c.faults else ""
    return show_letter(c.letter) + faults
