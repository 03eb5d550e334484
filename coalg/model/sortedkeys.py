"""A persistent sorted set: a B⁺-tree whose updates copy one root-to-leaf path.

The record map and the edge set of a store are hash tries (``rpds``): an update
costs O(log n) and shares everything else with the previous store, but a hash
trie has no order.  :class:`SortedKeys` is the order-sensitive index beside
them.  It holds the identifiers of ``dom(m_s)`` in ascending order (sorted
iteration without sorting, and the θ-first match of a prefix in O(log n)) and
the clock readings of the records (the latest one in O(log n)).

A leaf is a list of at most ``_MAX`` keys; an inner node holds its children
and the least key of each.  Insertion and removal rebuild only the nodes on the
path to the key (three lists of up to 128 entries at a million keys) and
return a new set; the old one is unchanged, so every intermediate store of a
run shares all other nodes with its neighbours.

>>> s = SortedKeys.of(["b", "d", "a"])
>>> list(s.insert("c")), list(s), len(s.remove("a"))
(['a', 'b', 'c', 'd'], ['a', 'b', 'd'], 2)
>>> s.ceiling("bb"), s.floor_below("b"), s.last(), list(s.iter_from("b"))
('d', 'a', 'd', ['b', 'd'])
>>> big = SortedKeys.of(range(1000)).remove(500)
>>> big.ceiling(500), 500 in big, 501 in big, len(big)
(501, False, True, 999)
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Iterator
from itertools import chain
from typing import Any, Generic, TypeAlias, TypeVar

__all__ = ["SortedKeys"]

K = TypeVar("K")

_MAX = 128
"""Most keys in a leaf and most children of an inner node."""
_MIN = _MAX // 4
"""A node that shrinks below this is joined with a neighbour."""


class _Inner:
    """An inner node: ``kids`` in key order and ``lows[k]``, the least key under ``kids[k]``."""

    __slots__ = ("lows", "kids")

    def __init__(self, lows: list[Any], kids: list[_Node]) -> None:
        self.lows = lows
        self.kids = kids


# A leaf is a list of keys.  Lists are copied and changed before a node is shared, never after:
# copying a list and inserting into it is a few times faster than rebuilding a tuple.
_Node: TypeAlias = list[Any] | _Inner


def _low(node: _Node) -> Any:
    return node.lows[0] if isinstance(node, _Inner) else node[0]


def _size(node: _Node) -> int:
    return len(node.kids) if isinstance(node, _Inner) else len(node)


def _halves(xs: list[Any], at_end: bool) -> tuple[list[Any], list[Any]]:
    # an append at the right end (ascending identifiers, clock readings) leaves full nodes behind
    h = len(xs) - 1 if at_end else len(xs) // 2
    return xs[:h], xs[h:]


def _insert(node: _Node, key: Any) -> tuple[_Node, ...] | None:
    """The node(s) replacing ``node`` once ``key`` is in it; ``None`` if it already was."""
    if not isinstance(node, _Inner):
        i = bisect_left(node, key)
        if i < len(node) and node[i] == key:
            return None
        keys = node.copy()
        keys.insert(i, key)
        return _halves(keys, i == len(node)) if len(keys) > _MAX else (keys,)
    lows, kids = node.lows, node.kids
    i = max(bisect_right(lows, key) - 1, 0)
    got = _insert(kids[i], key)
    if got is None:
        return None
    new_kids = kids.copy()
    if len(got) == 1:
        new_kids[i] = got[0]
        if i == 0 and key < lows[0]:
            new_lows = lows.copy()
            new_lows[0] = key
            return (_Inner(new_lows, new_kids),)
        return (_Inner(lows, new_kids),)
    new_kids[i : i + 1] = got
    new_lows = lows.copy()
    new_lows[i : i + 1] = [_low(got[0]), _low(got[1])]
    if len(new_kids) <= _MAX:
        return (_Inner(new_lows, new_kids),)
    at_end = i == len(kids) - 1
    (l1, l2), (k1, k2) = _halves(new_lows, at_end), _halves(new_kids, at_end)
    return _Inner(l1, k1), _Inner(l2, k2)


def _join(a: _Node, b: _Node) -> tuple[_Node, ...]:
    """Two neighbouring nodes of one level as one node, or two of about equal size."""
    if isinstance(a, _Inner) and isinstance(b, _Inner):
        lows, kids = a.lows + b.lows, a.kids + b.kids
        if len(kids) <= _MAX:
            return (_Inner(lows, kids),)
        (l1, l2), (k1, k2) = _halves(lows, False), _halves(kids, False)
        return _Inner(l1, k1), _Inner(l2, k2)
    assert not isinstance(a, _Inner) and not isinstance(b, _Inner)  # one level, one kind of node
    keys = a + b
    return (keys,) if len(keys) <= _MAX else _halves(keys, False)


def _remove(node: _Node, key: Any) -> _Node | None:
    """``node`` without ``key`` (possibly under-full or empty); ``None`` if the key is absent."""
    if not isinstance(node, _Inner):
        i = bisect_left(node, key)
        if i == len(node) or node[i] != key:
            return None
        return node[:i] + node[i + 1 :]
    lows, kids = node.lows, node.kids
    i = bisect_right(lows, key) - 1
    if i < 0:
        return None
    got = _remove(kids[i], key)
    if got is None:
        return None
    if _size(got) == 0:
        return _Inner(lows[:i] + lows[i + 1 :], kids[:i] + kids[i + 1 :])
    lo, hi = i, i + 1
    repl: tuple[_Node, ...] = (got,)
    if _size(got) < _MIN and len(kids) > 1:  # join with a neighbour
        lo, hi = (i - 1, i + 1) if i > 0 else (i, i + 2)
        repl = _join(kids[lo], got) if i > 0 else _join(got, kids[i + 1])
    return _Inner(lows[:lo] + [_low(k) for k in repl] + lows[hi:], kids[:lo] + list(repl) + kids[hi:])


def _leaves(node: _Node) -> Iterator[list[Any]]:
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, _Inner):
            stack.extend(reversed(n.kids))
        else:
            yield n


class SortedKeys(Generic[K]):
    """An immutable sorted set of mutually comparable keys with O(log n) updates.

    Equality and hashing are those of the set of keys.
    """

    __slots__ = ("_root", "_n")

    def __init__(self, root: _Node | None = None, n: int = 0) -> None:
        self._root: _Node = [] if root is None else root
        self._n = n

    @classmethod
    def of(cls, keys: Iterable[K]) -> SortedKeys[K]:
        """Built bottom-up from any keys in O(n log n) (sorted once, duplicates dropped)."""
        ordered: list[Any] = sorted(set(keys))
        fill = _MAX * 3 // 4
        level: list[_Node] = [ordered[k : k + fill] for k in range(0, len(ordered), fill)]
        while len(level) > 1:
            level = [
                _Inner([_low(c) for c in level[k : k + fill]], level[k : k + fill])
                for k in range(0, len(level), fill)
            ]
        return cls(level[0] if level else [], len(ordered))

    # -- updates ----------------------------------------------------------------------
    def insert(self, key: K) -> SortedKeys[K]:
        """The set with ``key`` (``self`` if it was there)."""
        # the common case, a leaf with room, without recursion: copy the path bottom-up
        inners: list[_Inner] = []
        at: list[int] = []
        node = self._root
        while type(node) is _Inner:
            i = bisect_right(node.lows, key, 1) - 1  # lo=1: the first child takes keys below all
            inners.append(node)
            at.append(i)
            node = node.kids[i]
        assert type(node) is list
        j = bisect_left(node, key)
        if j < len(node) and node[j] == key:
            return self
        if len(node) < _MAX:
            leaf = node.copy()
            leaf.insert(j, key)
            new: _Node = leaf
            while inners:
                inner, i = inners.pop(), at.pop()
                kids = inner.kids.copy()
                kids[i] = new
                if i or key >= inner.lows[0]:
                    new = _Inner(inner.lows, kids)
                else:
                    new = _Inner([key, *inner.lows[1:]], kids)
            out = object.__new__(SortedKeys)
            out._root, out._n = new, self._n + 1
            return out
        got = _insert(self._root, key)  # a leaf splits: the general, recursive case
        if got is None:
            return self
        root = got[0] if len(got) == 1 else _Inner([_low(k) for k in got], list(got))
        return SortedKeys(root, self._n + 1)

    def remove(self, key: K) -> SortedKeys[K]:
        """The set without ``key`` (``self`` if it was not there)."""
        got = _remove(self._root, key)
        if got is None:
            return self
        while isinstance(got, _Inner) and len(got.kids) == 1:
            got = got.kids[0]
        if isinstance(got, _Inner) and not got.kids:
            got = []
        return SortedKeys(got, self._n - 1)

    # -- queries ----------------------------------------------------------------------
    def __len__(self) -> int:
        return self._n

    def __contains__(self, key: object) -> bool:
        node = self._root
        while isinstance(node, _Inner):
            i = bisect_right(node.lows, key) - 1
            if i < 0:
                return False
            node = node.kids[i]
        i = bisect_left(node, key)
        return i < len(node) and bool(node[i] == key)

    def __iter__(self) -> Iterator[K]:
        return chain.from_iterable(_leaves(self._root))

    def last(self) -> K | None:
        """The greatest key, or ``None`` when empty."""
        node = self._root
        while isinstance(node, _Inner):
            node = node.kids[-1]
        return node[-1] if node else None

    def ceiling(self, key: K) -> K | None:
        """The least key ``≥ key``, or ``None``."""
        return next(self.iter_from(key), None)

    def floor_below(self, key: K) -> K | None:
        """The greatest key ``< key``, or ``None``."""
        node = self._root
        while isinstance(node, _Inner):
            i = bisect_left(node.lows, key) - 1
            if i < 0:
                return None
            node = node.kids[i]  # lows[i] < key: this subtree holds the answer
        i = bisect_left(node, key)
        return node[i - 1] if i else None

    def iter_from(self, key: K) -> Iterator[K]:
        """The keys ``≥ key`` in ascending order; the first costs O(log n), each next O(1) amortised."""
        path: list[tuple[_Inner, int]] = []
        node = self._root
        while isinstance(node, _Inner):
            i = max(bisect_right(node.lows, key) - 1, 0)
            path.append((node, i))
            node = node.kids[i]
        yield from node[bisect_left(node, key) :]
        while path:  # the following leaves, by climbing to the next unvisited sibling
            parent, i = path.pop()
            if i + 1 < len(parent.kids):
                path.append((parent, i + 1))
                node = parent.kids[i + 1]
                while isinstance(node, _Inner):
                    path.append((node, 0))
                    node = node.kids[0]
                yield from node

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SortedKeys):
            return NotImplemented
        return self._n == other._n and all(a == b for a, b in zip(self, other))

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"SortedKeys({list(self)!r})"
