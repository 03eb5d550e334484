"""The edge set E_s of a store, kept as one persistent incidence map.

E ⊆ Id × R × Id is held as a hash trie ``Id ↦ HashTrieSet[Edge]`` (``rpds``)
that files every edge under both of its endpoints, with no entry for an
identifier that no edge touches.  Adding or removing edges costs O(log n) per
endpoint (a call's edges are grouped by endpoint, so the two edges of a
derivation's pair update two entries, not four); the edges incident to an
identifier (what ``delete`` removes) are read in O(degree), the edges out of it
or into it by filtering them; the identifiers that edges mention are the keys
of the map.  The frozenset that :attr:`coalg.model.store.Store.edges` hands out
is built once per edge set, on first use, and shared by every store that has
this edge set.

>>> from coalg.model.records import Relation
>>> e1, e2 = Edge("b", Relation.EVOLVED_FROM, "a"), Edge("a", Relation.EVOLVED_INTO, "b")
>>> ix = EdgeIndex.of([e1, e2])
>>> sorted(map(str, ix.incident("a"))), [str(e) for e in ix.outgoing("a")], len(ix.without([e2]))
(['(a, EVOLVED_INTO, b)', '(b, EVOLVED_FROM, a)'], ['(a, EVOLVED_INTO, b)'], 1)
>>> ix.mentions("c"), ix.with_edges([e1]) is ix
(False, True)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, NamedTuple, TypeAlias

from rpds import HashTrieMap, HashTrieSet

from .records import Id, Relation

__all__ = ["Edge", "EdgeIndex"]


class Edge(NamedTuple):
    """A labelled edge ``(source, relation, target)`` of E ⊆ Id × R × Id."""

    source: Id
    relation: Relation
    target: Id

    def __str__(self) -> str:
        return f"({self.source}, {self.relation.name}, {self.target})"


if TYPE_CHECKING:
    _Inc: TypeAlias = HashTrieMap[Id, HashTrieSet[Edge]]
_NO_EDGES: HashTrieSet[Edge] = HashTrieSet()


def _by_endpoint(edges: Iterable[Edge]) -> dict[Id, list[Edge]]:
    out: dict[Id, list[Edge]] = {}
    for e in edges:
        out.setdefault(e.source, []).append(e)
        if e.target != e.source:
            out.setdefault(e.target, []).append(e)
    return out


class EdgeIndex:
    """An immutable edge set with every edge filed under its source and its target."""

    __slots__ = ("inc", "n", "_frozen", "_hash")

    def __init__(self, inc: _Inc, n: int) -> None:
        self.inc = inc
        self.n = n
        self._frozen: frozenset[Edge] | None = None
        self._hash: int | None = None

    @classmethod
    def of(cls, edges: Iterable[Edge]) -> EdgeIndex:
        """Built from (already normalised) edges in ``O(|E|)``."""
        es = frozenset(edges)
        ix = cls(HashTrieMap((k, HashTrieSet(v)) for k, v in _by_endpoint(es).items()), len(es))
        ix._frozen = es
        return ix

    def with_edges(self, edges: Iterable[Edge]) -> EdgeIndex:
        """E ∪ edges: O(log n) per endpoint; ``self`` when nothing is new."""
        inc = self.inc
        new = {e: None for e in edges if e not in inc.get(e.source, _NO_EDGES)}
        if not new:
            return self
        for k, es in _by_endpoint(new).items():
            inc = inc.insert(k, inc.get(k, _NO_EDGES).update(es))
        return EdgeIndex(inc, self.n + len(new))

    def without(self, edges: Iterable[Edge]) -> EdgeIndex:
        """E \\ edges: O(log n) per endpoint; ``self`` when none was there."""
        inc = self.inc
        gone = {e: None for e in edges if e in inc.get(e.source, _NO_EDGES)}
        if not gone:
            return self
        for k, es in _by_endpoint(gone).items():
            rest = inc[k]
            for e in es:
                rest = rest.remove(e)
            inc = inc.insert(k, rest) if rest else inc.remove(k)
        return EdgeIndex(inc, self.n - len(gone))

    def incident(self, i: Id) -> HashTrieSet[Edge]:
        """Every edge with ``i`` as an endpoint (unordered), in O(1)."""
        return self.inc.get(i, _NO_EDGES)

    def outgoing(self, i: Id) -> Iterator[Edge]:
        """The edges out of ``i`` (unordered), in O(degree)."""
        return (e for e in self.inc.get(i, _NO_EDGES) if e.source == i)

    def incoming(self, i: Id) -> Iterator[Edge]:
        """The edges into ``i`` (unordered), in O(degree)."""
        return (e for e in self.inc.get(i, _NO_EDGES) if e.target == i)

    def mentions(self, i: Id) -> bool:
        """Whether ``i`` is an endpoint of some edge, in O(1)."""
        return i in self.inc

    def endpoints(self) -> Iterator[Id]:
        """Every edge endpoint, each once (unordered)."""
        return iter(self.inc)

    def __contains__(self, e: object) -> bool:
        if not isinstance(e, tuple) or len(e) != 3:
            return False
        return e in self.inc.get(e[0], _NO_EDGES)

    def __iter__(self) -> Iterator[Edge]:
        """The edges, unordered (sort them for anything observable)."""
        for k, es in self.inc.items():
            for e in es:
                if e.source == k:
                    yield e

    def __len__(self) -> int:
        return self.n

    def frozen(self) -> frozenset[Edge]:
        """E as a frozenset, built once for this edge set."""
        if self._frozen is None:
            self._frozen = frozenset(self)
        return self._frozen

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, EdgeIndex):
            return NotImplemented
        return self is other or (self.n == other.n and self.inc == other.inc)

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(self.frozen())
        return self._hash
