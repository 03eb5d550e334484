"""Fresh allocations for an explorer's session (the allocation oracle ξ of paper §3.2).

The store coalgebra takes its fresh identifiers and clock reading from an
allocation; an explorer draws them deterministically from everything its
session has seen, so a session replays from its word and an identifier freed by
a delete is never handed out again.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..model import Allocation, Id, Letter, Store, creates

__all__ = ["next_allocation"]


def next_allocation(stores: Iterable[Store], letter: Letter, clocks: Iterable[int] = (),
                    issued: Iterable[Id] = ()) -> Allocation:
    """A deterministic, strictly fresh allocation for ``letter`` after the stores of a session.

    Identifiers ``id0001, id0002, …`` skipping every identifier any of ``stores``
    mentions and every identifier in ``issued`` (those the session's earlier
    allocations handed out), so an identifier freed by a delete is never handed
    out again, even after the stores that mentioned it are gone from view; the
    clock is one more than every clock reading seen (records' times and ``clocks``).

    >>> from coalg.model import Evolve, preset
    >>> s = preset("meeting notes")
    >>> next_allocation([s], Evolve("id0004", "x")).ids
    ('id0008',)
    >>> next_allocation([s], Evolve("id0004", "x"), issued=["id0008"]).ids
    ('id0009',)
    """
    seen: set[Id] = set(issued)
    top = 0
    for s in stores:
        seen |= s.occ()
        for r in s.records.values():
            for t in (r.created_at, r.updated_at):
                if t is not None:
                    top = max(top, t)
    top = max([top, *clocks])
    out: list[Id] = []
    k = 0
    while len(out) < creates(letter):
        k += 1
        j = f"id{k:04d}"
        if j not in seen:
            out.append(j)
    return Allocation(tuple(out), top + 1)
