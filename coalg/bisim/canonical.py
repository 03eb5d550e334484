"""Canonical forms of stores up to renaming and clock readings (the reduction of the law search).

Two stores that differ only in *which* fresh identifiers the allocator handed
out and in *when* (the clock readings ρ erases, Definition 5.23) behave the same
under every call that names identifiers by equality: the law search need
explore only one of them.  :func:`canonical_form` is a key for that: two stores
get the same key exactly when a bijection of their identifiers carries one onto
the other — records equal after erasing allocation-dependent fields
(:func:`coalg.model.records.erase_allocation`), identifier-valued payload
positions (``evolved_from``, ``merged_from[k]``, ``split_from``) and labelled
edges mapped along, marked identifiers onto marked ones, and the identifiers in
``fixed`` (names a caller's alphabet mentions as constants) kept as they are.
Such stores are allocation-blind bisimilar (s ≈ t) through a bisimulation that
is a bijection, provided the identifiers that only ancestry metadata mentions
are fixed (≈ compares those by equality, the B̂ of Definition 5.23; a search
may rename them, since a step treats them as names and nothing more).  The
converse fails on purpose: ≈ also identifies a store with two equal records
with a store holding one, which a search must keep apart.

The key is computed by the classic individualisation–refinement scheme:

1. **Colour refinement.**  Each identifier starts with the colour of what it
   holds (its erased record as canonical JSON, or ⊥; whether it is marked; its
   name when fixed); a round replaces a colour by the colour together with the
   sorted labelled colours of its successors and predecessors.  Colours are
   numbered by sorting, never by hashing, so the result is the same under every
   ``PYTHONHASHSEED``: a coarsest stable partition, as in
   :mod:`coalg.bisim.partition`, but with the edges read both ways.
2. **Individualisation.**  While a class has several members, each member in
   turn is given a colour of its own and refinement runs again; the key is the
   least encoding over these branches.  Members that are *twins* (same colour,
   same labelled neighbours, not adjacent) are swapped by an automorphism, so
   one of them stands for all.

Stores in the search have a dozen identifiers at most; the refinement settles
almost every identifier and the branching is over twins, so a key costs a few
hundred microseconds.

>>> from coalg.model import EMPTY, Record, Save, Evolve, Allocation, step
>>> s = step(EMPTY, Save(Record("a")), Allocation(("x1",), 1))[1]
>>> s = step(s, Save(Record("b")), Allocation(("x2",), 2))[1]
>>> ab = step(step(s, Evolve("x1", "c"), Allocation(("x3",), 3))[1], Evolve("x2", "c"), Allocation(("x4",), 4))[1]
>>> ba = step(step(s, Evolve("x2", "c"), Allocation(("x3",), 3))[1], Evolve("x1", "c"), Allocation(("x4",), 4))[1]
>>> ab == ba, canonical_form(ab) == canonical_form(ba)
(False, True)
>>> canonical_form(ab) == canonical_form(ab, fixed=["x3"])
False
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from functools import lru_cache

from ..model import ID_POSITIONS, Id, Record, Store, erase_allocation, id_positions, record_to_json

__all__ = ["CanonicalForm", "canonical_form", "canonical_labelling"]

CanonicalForm = tuple[tuple[str, ...], tuple[tuple[int, str, int], ...]]
"""A store up to renaming: the colours of its identifiers in canonical order, and its edges between positions."""

_Arc = tuple[str, int]  # (label, other end)


@lru_cache(maxsize=65536)
def _record_colour(r: Record) -> str:
    """What a record says once clock readings are erased and identifier positions blanked, as canonical JSON."""
    e = erase_allocation(r)
    data = record_to_json(e)
    meta = dict(data["metadata"])
    for key in ID_POSITIONS:
        if key in meta:
            v = meta[key]
            meta[key] = ["<id>"] * len(v) if isinstance(v, list) else "<id>"
    data["metadata"] = meta
    return json.dumps(data, sort_keys=True, ensure_ascii=False, default=str)


class _Graph:
    """A store as a coloured graph on the identifiers it mentions (sorted, so numbering is stable)."""

    __slots__ = ("names", "initial", "out", "inc", "edges")

    def __init__(self, s: Store, marked: frozenset[Id], fixed: frozenset[Id] | None) -> None:
        names = sorted(s.occ() | {y for r in s.records.values() for _, y in id_positions(r)})
        index = {x: k for k, x in enumerate(names)}
        fixed = frozenset(names) if fixed is None else fixed
        self.names = names
        self.initial = [
            json.dumps([_record_colour(s.records[x]) if x in s.records else None, x in marked,
                        x if x in fixed else None], ensure_ascii=False)
            for x in names
        ]
        arcs: list[tuple[int, str, int]] = [(index[e.source], e.relation.value, index[e.target]) for e in s.edges]
        for i, r in s.records.items():
            arcs += [(index[i], "payload:" + pos, index[y]) for pos, y in id_positions(r)]
        self.edges = sorted(set(arcs))
        self.out: list[list[_Arc]] = [[] for _ in names]
        self.inc: list[list[_Arc]] = [[] for _ in names]
        for a, label, b in self.edges:
            self.out[a].append((label, b))
            self.inc[b].append((label, a))


def _rank(keys: Sequence[object]) -> list[int]:
    """Number the distinct keys by their sorted order (keys are tuples of ints and strings)."""
    order = {k: n for n, k in enumerate(sorted(set(keys)))}  # type: ignore[type-var]
    return [order[k] for k in keys]


def _refine(g: _Graph, colour: list[int]) -> list[int]:
    """The coarsest stable refinement of ``colour``, edges read in both directions."""
    classes = len(set(colour))
    while True:
        keys = [(colour[v], tuple(sorted((lab, colour[w]) for lab, w in g.out[v])),
                 tuple(sorted((lab, colour[w]) for lab, w in g.inc[v]))) for v in range(len(colour))]
        new = _rank(keys)
        count = len(set(new))
        if count == classes:
            return new
        colour, classes = new, count


def _twins(g: _Graph, members: list[int]) -> list[int]:
    """One member per group of interchangeable twins (swapping two twins is an automorphism)."""
    reps: list[int] = []
    seen: set[tuple[tuple[_Arc, ...], tuple[_Arc, ...]]] = set()
    for v in members:
        nbrs = {w for _, w in g.out[v]} | {w for _, w in g.inc[v]}
        sig = (tuple(sorted(g.out[v])), tuple(sorted(g.inc[v])))
        if any(w in members for w in nbrs):
            reps.append(v)  # adjacent to its cell: no swap to rely on
        elif sig not in seen:
            reps.append(v)
            seen.add(sig)
    return reps


def _search(g: _Graph, colour: list[int]) -> tuple[CanonicalForm, list[int]]:
    """The least leaf encoding under individualisation–refinement, and the discrete colouring giving it."""
    colour = _refine(g, colour)
    sizes: dict[int, list[int]] = {}
    for v, c in enumerate(colour):
        sizes.setdefault(c, []).append(v)
    cell = next((sizes[c] for c in sorted(sizes) if len(sizes[c]) > 1), None)
    if cell is None:
        order = sorted(range(len(colour)), key=lambda v: colour[v])
        form = (tuple(g.initial[v] for v in order), tuple(sorted((colour[a], lab, colour[b]) for a, lab, b in g.edges)))
        return form, colour
    best: tuple[CanonicalForm, list[int]] | None = None
    for v in _twins(g, cell):
        branch = _rank([(c, 0 if u == v else 1) for u, c in enumerate(colour)])
        leaf = _search(g, branch)
        if best is None or leaf[0] < best[0]:
            best = leaf
    assert best is not None
    return best


def _start(g: _Graph) -> list[int]:
    return _rank(g.initial)


def _graph(s: Store, marked: Iterable[Id], fixed: Iterable[Id] | None) -> _Graph:
    return _Graph(s, frozenset(marked), None if fixed is None else frozenset(fixed))


def canonical_labelling(s: Store, *, marked: Iterable[Id] = (), fixed: Iterable[Id] | None = ()) -> dict[Id, int]:
    """The position of each identifier of ``s`` in its canonical form (a bijection onto 0 … n−1).

    Composing the labelling of ``s`` with the inverse labelling of a ``t`` of the
    same form gives a renaming that carries ``s`` onto ``t``.

    >>> from coalg.model import Record, Store
    >>> canonical_labelling(Store.of({"b": Record("x"), "a": Record("y")}))
    {'a': 1, 'b': 0}
    """
    g = _graph(s, marked, fixed)
    _, colour = _search(g, _start(g))
    return {x: colour[k] for k, x in enumerate(g.names)}


def canonical_form(s: Store, *, marked: Iterable[Id] = (), fixed: Iterable[Id] | None = ()) -> CanonicalForm:
    """A key of ``s`` up to renaming of identifiers and erasure of clock readings.

    Parameters
    ----------
    s : Store
        The store.
    marked : iterable of Id
        Identifiers that carry a mark a renaming must preserve (the search marks
        the records that derivations created).
    fixed : iterable of Id, or None
        Identifiers no renaming may move (constants an alphabet names); ``None``
        fixes every identifier, so only clock readings are erased.

    Returns
    -------
    CanonicalForm
        Equal for two stores exactly when a bijection of their identifiers that
        preserves marks and fixes ``fixed`` maps one onto the other, records
        compared after :func:`~coalg.model.records.erase_allocation`.
    """
    g = _graph(s, marked, fixed)
    return _search(g, _start(g))[0]
