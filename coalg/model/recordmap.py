"""The record map m_s of a store, persistent and with the indexes a step needs.

:class:`RecordMap` is the finite partial map Id ⇀ Rec of Definition 3.4 as an
immutable :class:`~collections.abc.Mapping`.  The map itself is a hash trie
(``rpds.HashTrieMap``): ``set`` and ``without`` cost O(log n) and share
structure with the map they came from.  Beside it, each update maintains
three indexes, never rebuilt by scanning:

* the identifiers in ascending order (:class:`~coalg.model.sortedkeys.SortedKeys`):
  iteration is in sorted identifier order under every hash seed, with no sort,
  and the identifiers that extend a prefix are a contiguous range found in
  O(log n) (:meth:`RecordMap.with_prefix`);
* the clock readings ``(t, i)`` of every record's ``created_at`` and
  ``updated_at``: :meth:`RecordMap.latest_clock` is the last one;
* how many records name each identifier in their ancestry metadata
  (``evolved_from``, ``merged_from``, ``split_from``): part of occ(s)
  (Definition 3.8), so an allocation oracle tests freshness in O(1).

Equality is by value (the same identifiers holding equal records); so is the
hash, computed once per map.

>>> m = RecordMap.of({"b": Record("B", created_at=2, updated_at=2)})
>>> m2 = m.set("a", Record("A", created_at=5, updated_at=7, metadata={"evolved_from": "z"}))
>>> list(m2), m2.latest_clock(), m2.names("z"), m.names("z")
(['a', 'b'], 7, True, False)
>>> m2.without("a") == m, list(m2.with_prefix("b")), m2.first_with_prefix("")
(True, ['b'], 'a')
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import TypeVar, overload

from rpds import HashTrieMap

from .records import ANCESTRY, Id, Record, Time, meta_ancestry
from .sortedkeys import SortedKeys

__all__ = ["RecordMap", "named_ids"]


def named_ids(r: Record) -> frozenset[Id]:
    """The identifiers ``r`` names in its ancestry metadata (meta_r for r ∈ R⁻)."""
    if not r.metadata:
        return frozenset()
    return frozenset().union(*(meta_ancestry(r, rel) for rel in ANCESTRY))


def _clocks(i: Id, r: Record) -> tuple[tuple[Time, Id], ...]:
    c, u = r.created_at, r.updated_at
    if c is None:
        return () if u is None else ((u, i),)
    return ((c, i),) if u is None or u == c else ((c, i), (u, i))


T = TypeVar("T")


class RecordMap(Mapping[Id, Record]):
    """An immutable map Id ⇀ Rec; iteration is in ascending identifier order."""

    __slots__ = ("_m", "_keys", "_clocks", "_named", "_hash")

    def __init__(self, d: Mapping[Id, Record] | None = None) -> None:
        built = RecordMap.of(d or {})
        self._m: HashTrieMap[Id, Record] = built._m
        self._keys: SortedKeys[Id] = built._keys
        self._clocks: SortedKeys[tuple[Time, Id]] = built._clocks
        self._named: HashTrieMap[Id, int] = built._named
        self._hash: int | None = None

    @classmethod
    def _make(
        cls,
        m: HashTrieMap[Id, Record],
        keys: SortedKeys[Id],
        clocks: SortedKeys[tuple[Time, Id]],
        named: HashTrieMap[Id, int],
    ) -> RecordMap:
        obj = object.__new__(cls)
        obj._m, obj._keys, obj._clocks, obj._named, obj._hash = m, keys, clocks, named, None
        return obj

    @classmethod
    def of(cls, d: Mapping[Id, Record]) -> RecordMap:
        """Built from any mapping in O(n log n): each index sorted once."""
        items = [(str(i), r) for i, r in d.items()]
        named: dict[Id, int] = {}
        for _, r in items:
            for j in named_ids(r):
                named[j] = named.get(j, 0) + 1
        return cls._make(
            HashTrieMap(items),
            SortedKeys.of(i for i, _ in items),
            SortedKeys.of(c for i, r in items for c in _clocks(i, r)),
            HashTrieMap(named),
        )

    # -- updates: O(log n) each, every index kept in step ---------------------------------
    def set(self, i: Id, r: Record) -> RecordMap:
        """``m[i ↦ r]``."""
        m, keys, clocks, named = self._m, self._keys, self._clocks, self._named
        old = m.get(i)
        if old is None:
            keys = keys.insert(i)
        else:
            for c in _clocks(i, old):
                clocks = clocks.remove(c)
            named = _count(named, named_ids(old), -1)
        for c in _clocks(i, r):
            clocks = clocks.insert(c)
        if r.metadata:
            named = _count(named, named_ids(r), +1)
        return RecordMap._make(m.insert(i, r), keys, clocks, named)

    def without(self, i: Id) -> RecordMap:
        """``m \\ {i}``."""
        old = self._m.get(i)
        if old is None:
            return self
        clocks = self._clocks
        for c in _clocks(i, old):
            clocks = clocks.remove(c)
        named = _count(self._named, named_ids(old), -1)
        return RecordMap._make(self._m.remove(i), self._keys.remove(i), clocks, named)

    # -- the indexes ------------------------------------------------------------------
    def latest_clock(self) -> Time:
        """The latest ``created_at``/``updated_at`` of any record, or 0."""
        last = self._clocks.last()
        return 0 if last is None else last[0]

    def names(self, j: Id) -> bool:
        """Whether some record names ``j`` in its ancestry metadata."""
        return j in self._named

    def named_in_metadata(self) -> Iterator[Id]:
        """Every identifier some record names in its ancestry metadata (unordered)."""
        return iter(self._named)

    def with_prefix(self, p: str) -> Iterator[Id]:
        """The identifiers that extend ``p``, ascending: O(log n) to the first, then one per step."""
        for i in self._keys.iter_from(p):
            if not i.startswith(p):
                return
            yield i

    def first_with_prefix(self, p: str) -> Id | None:
        """The least identifier that extends ``p``."""
        return next(self.with_prefix(p), None)

    # -- Mapping ----------------------------------------------------------------------
    def __getitem__(self, key: Id) -> Record:
        return self._m[key]

    @overload
    def get(self, key: Id, /) -> Record | None: ...
    @overload
    def get(self, key: Id, /, default: Record | T) -> Record | T: ...
    def get(self, key: Id, /, default: object = None) -> object:
        """The record stored under ``key``, or ``default`` (``None``) when there is none."""
        return self._m.get(key, default)

    def __contains__(self, key: object) -> bool:
        return key in self._m

    def __iter__(self) -> Iterator[Id]:
        return iter(self._keys)

    def __len__(self) -> int:
        return len(self._m)

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(frozenset(self._m.items()))
        return self._hash

    def __eq__(self, other: object) -> bool:
        if isinstance(other, RecordMap):
            if self is other or self._m is other._m:
                return True
            return len(self) == len(other) and self._m == other._m
        if isinstance(other, Mapping):
            return len(self) == len(other) and all(
                k in self._m and self._m[k] == v for k, v in other.items()
            )
        return NotImplemented

    def __repr__(self) -> str:
        return "{" + ", ".join(f"{k!r}: {self._m[k]!r}" for k in self) + "}"


def _count(counts: HashTrieMap[Id, int], ids: Iterable[Id], delta: int) -> HashTrieMap[Id, int]:
    for j in ids:
        n = counts.get(j, 0) + delta
        counts = counts.insert(j, n) if n > 0 else counts.discard(j)
    return counts
