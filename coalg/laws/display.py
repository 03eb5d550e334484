"""How a letter and a call print in tables, explanations and witnesses: one line each.

The law checks (§5) explain every violation in these terms, and the explorers
show them as the word so far.
"""

from __future__ import annotations

from ..model import Call, Letter
from ..model import alphabet as A

__all__ = ["show_call", "show_letter"]


def show_letter(a: Letter) -> str:
    """A one-line rendering of a letter, for tables and explanations.

    >>> from coalg.model import Evolve, Merge
    >>> show_letter(Merge(("a", "b"))), show_letter(Evolve("id0", "x", by_prefix=True))
    ('merge(a, b)', "evolve(id0…, 'x') by prefix")
    """
    pfx = getattr(a, "by_prefix", False)
    dots = "…" if pfx else ""
    tail = " by prefix" if pfx else ""
    match a:
        case A.Save(record=r):
            return f"save({r.content!r} in {r.namespace})"
        case A.SaveAt(id=i, record=r):
            return f"save_at({i}, {r.content!r})"
        case A.Recall(id=i):
            return f"recall({i})"
        case A.RecallPrefix(prefix=p):
            return f"recall_prefix({p}…)"
        case A.Delete(id=i):
            return f"delete({i}{dots}){tail}"
        case A.Evolve(id=i, content=c):
            return f"evolve({i}{dots}, {c!r}){tail}"
        case A.Merge(ids=ids):
            return f"merge({', '.join(i + dots for i in ids)}){tail}"
        case A.Split(id=i, contents=cs):
            return f"split({i}{dots}, {', '.join(map(repr, cs))}){tail}"
        case A.Supersede(old=o, new=n):
            return f"supersede({o}, {n})"
        case A.Link(source=i, relation=r, target=j):
            return f"link({i}, {r.name}, {j})"
    raise TypeError(f"not a letter: {a!r}")


def show_call(c: Call) -> str:
    """A letter rendering plus its injected faults, if any."""
    faults = f" [edge write {', '.join(map(str, sorted(c.faults)))} fails]" if c.faults else ""
    return show_letter(c.letter) + faults
