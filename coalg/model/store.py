"""Stores, their closure conditions and their unions (paper §3.1 and §6).

A store is a pair ``s = (m, E)`` of a finite partial map from identifiers to
records and a finite set of labelled edges (Definition 3.4).  Stores here are
immutable values: every operation returns a new store.

Examples
--------
>>> s = Store.of({"a": Record("A"), "b": Record("B")},
...              [("b", Relation.EVOLVED_FROM, "a"), ("a", Relation.EVOLVED_INTO, "b")])
>>> sorted(s.ids()), s.is_inverse_closed(), s.is_referentially_closed()
(['a', 'b'], True, True)
>>> t = Store.of({"c": Record("C")}, [("c", Relation.SUPERSEDES, "zzz")])
>>> sorted(t.dangling())
['zzz']
>>> sorted(disjoint_union(s, t).dom())
['a', 'b', 'c']
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import FrozenInstanceError
from html import escape
from typing import Any

from ..errors import CoalgError
from .edgeindex import Edge, EdgeIndex
from .recordmap import RecordMap
from .records import ANCESTRY, LINEAGE, Id, Record, Relation, inverse

__all__ = [
    "Edge",
    "Store",
    "EMPTY",
    "UnionUndefined",
    "disjoint_union",
    "mention_disjoint_union",
    "restrict",
    "fibre",
    "edge_pair",
]


def edge_pair(x: Id, r: Relation, y: Id) -> tuple[Edge, Edge]:
    """The edge ``(x, r, y)`` and its inverse ``(y, r⁻¹, x)``: what a derivation writes.

    >>> [str(e) for e in edge_pair("b", Relation.EVOLVED_FROM, "a")]
    ['(b, EVOLVED_FROM, a)', '(a, EVOLVED_INTO, b)']
    """
    return Edge(x, r, y), Edge(y, inverse(r), x)


def _edge(e: Edge | tuple[Id, Relation | str, Id]) -> Edge:
    src, rel, dst = e
    return Edge(str(src), Relation(rel), str(dst))


def _edges(es: Iterable[Edge | tuple[Id, Relation | str, Id]]) -> Iterator[Edge]:
    for e in es:
        yield e if type(e) is Edge and type(e.relation) is Relation else _edge(e)


class Store:
    """A store ``s = (m_s, E_s)`` (Definition 3.4): an immutable value.

    Neither closure condition (inverse-closed, referentially closed) is imposed:
    both are properties a realisation may or may not maintain.

    ``records`` is a :class:`~coalg.model.recordmap.RecordMap` (iterated in
    ascending identifier order) and ``edges`` a frozenset.  Inside, both are
    persistent and indexed (:mod:`~coalg.model.recordmap`,
    :mod:`~coalg.model.edgeindex`): ``with_record``, ``without_record``,
    ``with_edges`` and ``without_edges`` cost O(log n) per record or edge and
    share everything else with the store they start from.  Equality and hashing
    are by value.
    """

    __slots__ = ("records", "_rm", "_ix", "_hash")

    records: Mapping[Id, Record]
    _rm: RecordMap  # the same object as ``records``, with its index operations typed
    _ix: EdgeIndex
    _hash: int | None

    def __init__(
        self,
        records: Mapping[Id, Record] | None = None,
        edges: Iterable[Edge | tuple[Id, Relation | str, Id]] = (),
    ) -> None:
        rm = records if isinstance(records, RecordMap) else RecordMap.of(records or {})
        _set_records(self, rm)
        _set_rm(self, rm)
        _set_index(self, EdgeIndex.of(_edges(edges)))
        _set_hash(self, None)

    def __setattr__(self, name: str, value: Any) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}: stores are values")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}: stores are values")

    @property
    def edges(self) -> frozenset[Edge]:
        """E_s as a frozenset (built once per edge set; per-step code reads the index)."""
        return self._ix.frozen()

    @property
    def edge_index(self) -> EdgeIndex:
        """E_s filed under both endpoints (O(degree) incident edges, O(log n) updates)."""
        return self._ix

    # -- construction -------------------------------------------------------------------
    @classmethod
    def _make(cls, records: RecordMap, ix: EdgeIndex) -> Store:
        obj = object.__new__(cls)
        _set_records(obj, records)
        _set_rm(obj, records)
        _set_index(obj, ix)
        _set_hash(obj, None)
        return obj

    @classmethod
    def _trusted(cls, records: RecordMap, edges: frozenset[Edge]) -> Store:
        """A store from parts already validated (skips the label check of the constructor)."""
        return cls._make(records, EdgeIndex.of(edges))

    @classmethod
    def of(
        cls,
        records: Mapping[Id, Record] | None = None,
        edges: Iterable[Edge | tuple[Id, Relation | str, Id]] = (),
    ) -> Store:
        """Build a store from a dict of records and an iterable of ``(src, rel, dst)`` triples."""
        return cls(RecordMap.of(records or {}), edges)

    def with_record(self, i: Id, r: Record) -> Store:
        """``(m[i ↦ r], E)``."""
        return Store._make(self._rm.set(i, r), self._ix)

    def without_record(self, i: Id) -> Store:
        """``(m \\ {i}, E)`` (edges untouched)."""
        return Store._make(self._rm.without(i), self._ix)

    def with_edges(self, edges: Iterable[Edge | tuple[Id, Relation | str, Id]]) -> Store:
        """``(m, E ∪ edges)``."""
        ix = self._ix.with_edges(_edges(edges))
        return self if ix is self._ix else Store._make(self._rm, ix)

    def without_edges(self, edges: Iterable[Edge]) -> Store:
        """``(m, E \\ edges)``."""
        ix = self._ix.without(edges)
        return self if ix is self._ix else Store._make(self._rm, ix)

    # -- Definition 3.4 -----------------------------------------------------------------
    def dom(self) -> frozenset[Id]:
        """dom(m_s): the identifiers that hold a record."""
        return frozenset(self.records)

    def ids(self) -> frozenset[Id]:
        """ids(s): identifiers *mentioned* — records and every edge endpoint."""
        return frozenset(self.records) | frozenset(self._ix.endpoints())

    def mentions(self, i: Id) -> bool:
        """``i ∈ ids(s)``, in O(1)."""
        return i in self.records or self._ix.mentions(i)

    def dangling(self) -> frozenset[Id]:
        """Edge endpoints outside dom(m_s)."""
        return frozenset(i for i in self._ix.endpoints() if i not in self.records)

    def dangling_edges(self, labels: Iterable[Relation] | None = None) -> frozenset[Edge]:
        """Edges with an endpoint outside dom(m_s), optionally only those with the given labels."""
        keep = None if labels is None else frozenset(labels)
        return frozenset(
            e
            for i in self.dangling()
            for e in self._ix.incident(i)
            if keep is None or e.relation in keep
        )

    def occ(self) -> frozenset[Id]:
        """occ(s) = ids(s) ∪ the identifiers named in ancestry metadata (Definition 3.8)."""
        return self.ids() | frozenset(self._rm.named_in_metadata())

    def occurs(self, i: Id) -> bool:
        """``i ∈ occ(s)``, in O(1): what a strictly fresh allocation must avoid."""
        return i in self.records or self._ix.mentions(i) or self._rm.names(i)

    def ids_with_prefix(self, p: str) -> Iterator[Id]:
        """The identifiers of dom(m_s) that extend ``p``, ascending (O(log n) to the first)."""
        return self._rm.with_prefix(p)

    def first_with_prefix(self, p: str) -> Id | None:
        """The least identifier of dom(m_s) that extends ``p``, in O(log n)."""
        return self._rm.first_with_prefix(p)

    def latest_clock(self) -> int:
        """The latest ``created_at``/``updated_at`` of any record (0 if none), in O(log n)."""
        return self._rm.latest_clock()

    def namespaces(self) -> tuple[str, ...]:
        """The namespaces that have at least one record, sorted."""
        return tuple(sorted({r.namespace for r in self.records.values()}))

    def out_edges(self, i: Id, labels: Iterable[Relation] | None = None) -> tuple[Edge, ...]:
        """The edges out of ``i``, sorted, optionally restricted to some labels (O(degree))."""
        keep = None if labels is None else frozenset(labels)
        return tuple(sorted(e for e in self._ix.outgoing(i) if keep is None or e.relation in keep))

    def in_edges(self, i: Id, labels: Iterable[Relation] | None = None) -> tuple[Edge, ...]:
        """The edges into ``i``, sorted, optionally restricted to some labels (O(degree))."""
        keep = None if labels is None else frozenset(labels)
        return tuple(sorted(e for e in self._ix.incoming(i) if keep is None or e.relation in keep))

    def incident_edges(self, i: Id) -> frozenset[Edge]:
        """Every edge with ``i`` as an endpoint (what a delete removes), in O(degree)."""
        return frozenset(self._ix.incident(i))

    # -- closure conditions ------------------------------------------------------------
    def is_inverse_closed(self) -> bool:
        """(i, r, j) ∈ E ⇒ (j, r̄, i) ∈ E."""
        return not self.one_way_edges()

    def one_way_edges(self) -> frozenset[Edge]:
        """The edges whose inverse is missing (the violations of inverse closure)."""
        ix = self._ix
        return frozenset(e for e in ix if Edge(e.target, inverse(e.relation), e.source) not in ix)

    def is_referentially_closed(self) -> bool:
        """Every edge endpoint lies in dom(m_s)."""
        return not self.dangling()

    def is_ancestry_closed(self) -> bool:
        """For every (i, r, j) ∈ E with r ∈ R⁻ and i ∈ dom(m_s), also j ∈ dom(m_s)."""
        return all(
            e.target in self.records
            for e in self._ix
            if e.relation in ANCESTRY and e.source in self.records
        )

    def satisfies_ac_plus(self) -> bool:
        """AC⁺: every R⁻ edge has both endpoints in dom(m_s) (the invariant of Prop. 5.9)."""
        return all(
            e.source in self.records and e.target in self.records
            for e in self._ix
            if e.relation in ANCESTRY
        )

    def has_lineage_integrity(self) -> bool:
        """The lineage form of L7: no R⁻ ∪ R⁺ edge dangles."""
        return not self.dangling_edges(LINEAGE)

    # -- values -------------------------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Store):
            return NotImplemented
        return self is other or (self._ix == other._ix and self._rm == other._rm)

    def __hash__(self) -> int:
        h: int | None = self._hash
        if h is None:
            h = hash((self.records, self._ix))
            _set_hash(self, h)
        return h

    def __reduce__(self) -> tuple[Any, ...]:
        return (Store, (dict(self.records), sorted(self.edges)))

    def __repr__(self) -> str:
        es = ", ".join(str(e) for e in sorted(self.edges))
        return f"Store({len(self.records)} records: {list(self.records)}; edges: [{es}])"

    def _repr_html_(self) -> str:
        rows = "".join(
            f"<tr><td><code>{escape(i)}</code></td><td>{escape(r.type)}</td>"
            f"<td>{escape(r.namespace)}</td><td>{escape(r.content[:60])}</td></tr>"
            for i, r in self.records.items()
        )
        edges = "".join(f"<li><code>{escape(str(e))}</code></li>" for e in sorted(self.edges))
        return (
            "<table><tr><th>id</th><th>type</th><th>namespace</th><th>content</th></tr>"
            f"{rows}</table><ul>{edges}</ul>"
        )


# the slots' own setters: construction bypasses the frozen ``__setattr__``
_set_records = Store.__dict__["records"].__set__
_set_rm = Store.__dict__["_rm"].__set__
_set_index = Store.__dict__["_ix"].__set__
_set_hash = Store.__dict__["_hash"].__set__


EMPTY = Store()
"""∅ = (∅, ∅), the empty store."""


# --------------------------------------------------------------------------- namespaces


def fibre(s: Store, nu: str) -> frozenset[Id]:
    """N_ν(s): the identifiers whose record lies in namespace ν."""
    return frozenset(i for i, r in s.records.items() if r.namespace == nu)


def restrict(s: Store, nu: str) -> Store:
    """π_ν(s): the records of the fibre and the edges with both endpoints in it.

    The paper does not say how edges are restricted; our reconstruction keeps
    edges with both endpoints in the fibre (§3.1).  The verdicts of the paper's results
    on the two realisations do not depend on that choice; on a store whose edges dangle
    inside a namespace (a layer that removes a record and keeps its edges) L4(i) does.
    """
    n = fibre(s, nu)
    kept = frozenset(e for e in s.edges if e.source in n and e.target in n)
    if len(n) == len(s.records) and len(kept) == len(s.edges):
        return s  # every record lies in ν and no edge leaves the fibre: π_ν(s) = s
    return Store._trusted(RecordMap.of({i: s.records[i] for i in n}), kept)


# --------------------------------------------------------------------------- unions


class UnionUndefined(CoalgError, ValueError):
    """A union of stores is undefined: the message names the clashing identifiers."""

    def __init__(self, operator: str, clash: Iterable[Id]) -> None:
        self.clash = tuple(sorted(clash))
        shown = ", ".join(self.clash[:10]) + (" …" if len(self.clash) > 10 else "")
        super().__init__(f"{operator} is undefined: both stores {_what(operator)} {shown}")


def _what(operator: str) -> str:
    return "hold records at" if operator.startswith("⊎") else "mention"


def disjoint_union(s: Store, t: Store) -> Store:
    """s ⊎ t (Definition 3.5): defined iff dom(m_s) ∩ dom(m_t) = ∅; no condition on edges.

    >>> disjoint_union(Store.of({"a": Record("x")}), Store.of({"a": Record("y")}))
    Traceback (most recent call last):
    ...
    coalg.model.store.UnionUndefined: ⊎ (domain-disjoint union) is undefined: both stores hold records at a
    """
    # which side is copied into the other is a cost, never a value: the benchmark leaves it alone
    big, small = (s, t) if len(s.records) >= len(t.records) else (t, s)  # pragma: no mutate
    clash = [i for i in small.records if i in big.records]
    if clash:
        raise UnionUndefined("⊎ (domain-disjoint union)", clash)
    # the smaller part is added into the larger: O(small · log big), sharing the rest
    records = big._rm
    for i, r in small.records.items():
        records = records.set(i, r)
    more, fewer = (s._ix, t._ix) if len(s._ix) >= len(t._ix) else (t._ix, s._ix)  # pragma: no mutate
    return Store._make(records, more.with_edges(fewer))


def mention_disjoint_union(s: Store, t: Store) -> Store:
    """s ⊕ t (Definition 6.5): defined iff ids(s) ∩ ids(t) = ∅, and then equal to s ⊎ t.

    >>> a = Store.of({"i": Record("x")}, [("i", Relation.EVOLVED_FROM, "j")])
    >>> mention_disjoint_union(a, Store.of({"j": Record("y")}))
    Traceback (most recent call last):
    ...
    coalg.model.store.UnionUndefined: ⊕ (mention-disjoint union) is undefined: both stores mention j
    """
    # which side is scanned is a cost, never a value (as in disjoint_union)
    big, small = (s, t) if len(s.records) + len(s._ix) >= len(t.records) + len(t._ix) else (t, s)  # pragma: no mutate
    clash = [i for i in small.ids() if big.mentions(i)]
    if clash:
        raise UnionUndefined("⊕ (mention-disjoint union)", clash)
    return disjoint_union(s, t)
