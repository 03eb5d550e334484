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
from dataclasses import dataclass, field
from html import escape
from typing import NamedTuple

from ..errors import CoalgError
from .records import ANCESTRY, LINEAGE, Id, Record, Relation, inverse, meta_ancestry

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


class Edge(NamedTuple):
    """A labelled edge ``(source, relation, target)`` of E ⊆ Id × R × Id."""

    source: Id
    relation: Relation
    target: Id

    def __str__(self) -> str:
        return f"({self.source}, {self.relation.name}, {self.target})"


def edge_pair(x: Id, r: Relation, y: Id) -> tuple[Edge, Edge]:
    """The edge ``(x, r, y)`` and its inverse ``(y, r⁻¹, x)``: what a derivation writes.

    >>> [str(e) for e in edge_pair("b", Relation.EVOLVED_FROM, "a")]
    ['(b, EVOLVED_FROM, a)', '(a, EVOLVED_INTO, b)']
    """
    return Edge(x, r, y), Edge(y, inverse(r), x)


def _edge(e: Edge | tuple[Id, Relation | str, Id]) -> Edge:
    src, rel, dst = e
    return Edge(str(src), Relation(rel), str(dst))


class _RecordMap(Mapping[Id, Record]):
    """An immutable map Id ⇀ Rec; iteration is in sorted identifier order."""

    __slots__ = ("_d", "_keys", "_hash")

    def __init__(self, d: Mapping[Id, Record]) -> None:
        self._d: dict[Id, Record] = dict(d)
        self._keys: tuple[Id, ...] | None = None
        self._hash: int | None = None

    def __getitem__(self, key: Id) -> Record:
        return self._d[key]

    def __contains__(self, key: object) -> bool:
        return key in self._d

    def __iter__(self) -> Iterator[Id]:
        if self._keys is None:
            self._keys = tuple(sorted(self._d))
        return iter(self._keys)

    def __len__(self) -> int:
        return len(self._d)

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(frozenset(self._d.items()))
        return self._hash

    def __eq__(self, other: object) -> bool:
        if isinstance(other, _RecordMap):
            return self._d == other._d
        if isinstance(other, Mapping):
            return self._d == dict(other)
        return NotImplemented

    def __repr__(self) -> str:
        return "{" + ", ".join(f"{k!r}: {self._d[k]!r}" for k in self) + "}"


@dataclass(frozen=True, slots=True)
class Store:
    """A store ``s = (m_s, E_s)`` (Definition 3.4).

    Neither closure condition (inverse-closed, referentially closed) is imposed:
    both are properties a realisation may or may not maintain.
    """

    records: Mapping[Id, Record] = field(default_factory=lambda: _RecordMap({}))
    edges: frozenset[Edge] = frozenset()

    def __post_init__(self) -> None:
        if not isinstance(self.records, _RecordMap):
            object.__setattr__(self, "records", _RecordMap(self.records))
        if not isinstance(self.edges, frozenset) or not all(
            isinstance(e, Edge) and isinstance(e.relation, Relation) for e in self.edges
        ):
            object.__setattr__(self, "edges", frozenset(_edge(e) for e in self.edges))

    # -- construction -------------------------------------------------------------------
    @classmethod
    def _trusted(cls, records: _RecordMap, edges: frozenset[Edge]) -> Store:
        """A store from parts already validated (skips the per-edge check of ``__post_init__``)."""
        obj = object.__new__(cls)
        object.__setattr__(obj, "records", records)
        object.__setattr__(obj, "edges", edges)
        return obj

    @classmethod
    def of(
        cls,
        records: Mapping[Id, Record] | None = None,
        edges: Iterable[Edge | tuple[Id, Relation | str, Id]] = (),
    ) -> Store:
        """Build a store from a dict of records and an iterable of ``(src, rel, dst)`` triples."""
        return cls(_RecordMap(records or {}), frozenset(_edge(e) for e in edges))

    def with_record(self, i: Id, r: Record) -> Store:
        """``(m[i ↦ r], E)``."""
        d = dict(self.records)
        d[i] = r
        return Store._trusted(_RecordMap(d), self.edges)

    def without_record(self, i: Id) -> Store:
        """``(m \\ {i}, E)`` (edges untouched)."""
        d = dict(self.records)
        d.pop(i, None)
        return Store._trusted(_RecordMap(d), self.edges)

    def with_edges(self, edges: Iterable[Edge]) -> Store:
        """``(m, E ∪ edges)``."""
        return Store._trusted(self.records, self.edges | frozenset(_edge(e) for e in edges))  # type: ignore[arg-type]

    def without_edges(self, edges: Iterable[Edge]) -> Store:
        """``(m, E \\ edges)``."""
        return Store._trusted(self.records, self.edges - frozenset(edges))  # type: ignore[arg-type]

    # -- Definition 3.4 -----------------------------------------------------------------
    def dom(self) -> frozenset[Id]:
        """dom(m_s): the identifiers that hold a record."""
        return frozenset(self.records)

    def ids(self) -> frozenset[Id]:
        """ids(s): identifiers *mentioned* — records and every edge endpoint."""
        out = set(self.records)
        for e in self.edges:
            out.add(e.source)
            out.add(e.target)
        return frozenset(out)

    def dangling(self) -> frozenset[Id]:
        """Edge endpoints outside dom(m_s)."""
        return self.ids() - self.dom()

    def dangling_edges(self, labels: Iterable[Relation] | None = None) -> frozenset[Edge]:
        """Edges with an endpoint outside dom(m_s), optionally only those with the given labels."""
        keep = None if labels is None else frozenset(labels)
        return frozenset(
            e
            for e in self.edges
            if (keep is None or e.relation in keep)
            and (e.source not in self.records or e.target not in self.records)
        )

    def occ(self) -> frozenset[Id]:
        """occ(s) = ids(s) ∪ the identifiers named in ancestry metadata (Definition 3.8)."""
        named = {j for r in self.records.values() for rel in ANCESTRY for j in meta_ancestry(r, rel)}
        return self.ids() | frozenset(named)

    def namespaces(self) -> tuple[str, ...]:
        """The namespaces that have at least one record, sorted."""
        return tuple(sorted({r.namespace for r in self.records.values()}))

    def out_edges(self, i: Id, labels: Iterable[Relation] | None = None) -> tuple[Edge, ...]:
        """The edges out of ``i``, sorted, optionally restricted to some labels."""
        keep = None if labels is None else frozenset(labels)
        return tuple(
            sorted(e for e in self.edges if e.source == i and (keep is None or e.relation in keep))
        )

    # -- closure conditions ------------------------------------------------------------
    def is_inverse_closed(self) -> bool:
        """(i, r, j) ∈ E ⇒ (j, r̄, i) ∈ E."""
        return not self.one_way_edges()

    def one_way_edges(self) -> frozenset[Edge]:
        """The edges whose inverse is missing (the violations of inverse closure)."""
        return frozenset(e for e in self.edges if Edge(e.target, inverse(e.relation), e.source) not in self.edges)

    def is_referentially_closed(self) -> bool:
        """Every edge endpoint lies in dom(m_s)."""
        return not self.dangling()

    def is_ancestry_closed(self) -> bool:
        """For every (i, r, j) ∈ E with r ∈ R⁻ and i ∈ dom(m_s), also j ∈ dom(m_s)."""
        return all(
            e.target in self.records
            for e in self.edges
            if e.relation in ANCESTRY and e.source in self.records
        )

    def satisfies_ac_plus(self) -> bool:
        """AC⁺: every R⁻ edge has both endpoints in dom(m_s) (the invariant of Prop. 5.9, amended)."""
        return all(
            e.source in self.records and e.target in self.records
            for e in self.edges
            if e.relation in ANCESTRY
        )

    def has_lineage_integrity(self) -> bool:
        """The lineage form of L7: no R⁻ ∪ R⁺ edge dangles."""
        return not self.dangling_edges(LINEAGE)

    def __repr__(self) -> str:
        es = ", ".join(str(e) for e in sorted(self.edges))
        return f"Store({len(self.records)} records: {sorted(self.records)}; edges: [{es}])"

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


EMPTY = Store()
"""∅ = (∅, ∅), the empty store."""


# --------------------------------------------------------------------------- namespaces


def fibre(s: Store, nu: str) -> frozenset[Id]:
    """N_ν(s): the identifiers whose record lies in namespace ν."""
    return frozenset(i for i, r in s.records.items() if r.namespace == nu)


def restrict(s: Store, nu: str) -> Store:
    """π_ν(s): the records of the fibre and the edges with both endpoints in it.

    The paper does not say how edges are restricted; our reconstruction keeps
    edges with both endpoints in the fibre (§3.1), and the results do not depend on it.
    """
    n = fibre(s, nu)
    return Store.of(
        {i: s.records[i] for i in n},
        (e for e in s.edges if e.source in n and e.target in n),
    )


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
    clash = s.dom() & t.dom()
    if clash:
        raise UnionUndefined("⊎ (domain-disjoint union)", clash)
    return Store._trusted(_RecordMap({**s.records, **t.records}), s.edges | t.edges)


def mention_disjoint_union(s: Store, t: Store) -> Store:
    """s ⊕ t (Definition 6.5): defined iff ids(s) ∩ ids(t) = ∅, and then equal to s ⊎ t.

    >>> a = Store.of({"i": Record("x")}, [("i", Relation.EVOLVED_FROM, "j")])
    >>> mention_disjoint_union(a, Store.of({"j": Record("y")}))
    Traceback (most recent call last):
    ...
    coalg.model.store.UnionUndefined: ⊕ (mention-disjoint union) is undefined: both stores mention j
    """
    clash = s.ids() & t.ids()
    if clash:
        raise UnionUndefined("⊕ (mention-disjoint union)", clash)
    return disjoint_union(s, t)
