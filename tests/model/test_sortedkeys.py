"""The persistent sorted set behind a store's order-sensitive indexes (coalg.model.sortedkeys).

Every property is checked against a plain sorted list, with nodes made tiny
(four keys) so that a few dozen updates already split, join and collapse nodes
on several levels, and with every earlier version kept to check persistence.
"""

from __future__ import annotations

from bisect import bisect_left

import pytest
from budget import budget
from hypothesis import given
from hypothesis import strategies as st

from coalg.model import sortedkeys
from coalg.model.sortedkeys import SortedKeys, _Inner

PROPERTY = budget(150)

ops = st.lists(st.tuples(st.booleans(), st.integers(0, 60)), max_size=120)


@pytest.fixture(autouse=True)
def tiny_nodes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sortedkeys, "_MAX", 4)
    monkeypatch.setattr(sortedkeys, "_MIN", 2)  # a node left with one key joins a neighbour


def _check_shape(node: object, depth: int, depths: set[int]) -> None:
    """Keys sorted, ``lows`` exact, every leaf at the same depth."""
    if isinstance(node, _Inner):
        assert len(node.lows) == len(node.kids) > 0
        for low, kid in zip(node.lows, node.kids):
            assert low == sortedkeys._low(kid)
            _check_shape(kid, depth + 1, depths)
        assert list(node.lows) == sorted(node.lows)
    else:
        assert isinstance(node, list) and node == sorted(set(node))
        depths.add(depth)


@PROPERTY
@given(ops, st.integers(-1, 62))
def test_updates_and_queries_agree_with_a_sorted_list(script: list[tuple[bool, int]], q: int) -> None:
    s: SortedKeys[int] = SortedKeys()
    ref: set[int] = set()
    versions = []
    for insert, k in script:
        s = s.insert(k) if insert else s.remove(k)
        (ref.add if insert else ref.discard)(k)
        versions.append((s, sorted(ref)))
        depths: set[int] = set()
        _check_shape(s._root, 0, depths)
        assert len(depths) <= 1
    keys = sorted(ref)
    assert list(s) == keys and len(s) == len(keys)
    assert s.last() == (keys[-1] if keys else None)
    assert s.ceiling(q) == next((k for k in keys if k >= q), None)
    assert s.floor_below(q) == next((k for k in reversed(keys) if k < q), None)
    assert list(s.iter_from(q)) == keys[bisect_left(keys, q) :]
    assert all((k in s) == (k in ref) for k in range(-1, 62))
    for old, expected in versions:  # persistence: no later update changed an earlier version
        assert list(old) == expected


@PROPERTY
@given(st.lists(st.integers(0, 500), max_size=200))
def test_bulk_build_equals_one_by_one(keys: list[int]) -> None:
    one_by_one: SortedKeys[int] = SortedKeys()
    for k in keys:
        one_by_one = one_by_one.insert(k)
    bulk = SortedKeys.of(keys)
    assert bulk == one_by_one and hash(bulk) == hash(one_by_one)
    assert list(bulk) == sorted(set(keys))


def test_updates_that_change_nothing_return_the_same_set() -> None:
    s = SortedKeys.of([1, 2, 3])
    assert s.insert(2) is s and s.remove(9) is s


def test_an_update_copies_one_path_only() -> None:
    """Structure sharing: after one insertion all leaves but one are the very same objects."""
    s = SortedKeys.of(range(0, 400, 2))
    t = s.insert(201)

    def leaves(x: SortedKeys[int]) -> list[object]:
        return list(sortedkeys._leaves(x._root))

    old, new = leaves(s), leaves(t)
    shared = sum(any(a is b for b in old) for a in new)
    assert len(new) - shared <= 2  # the leaf that took 201 (split in two at most)
    assert len(old) > 50


def _sizes(node: object, out: list[int]) -> list[int]:
    if isinstance(node, _Inner):
        out.append(len(node.kids))
        for kid in node.kids:
            _sizes(kid, out)
    else:
        out.append(len(node))  # type: ignore[arg-type]
    return out


@pytest.mark.parametrize("order", ["ascending", "descending", "middle-out", "stride"])
def test_removals_join_under_full_nodes_and_keep_every_bound(order: str) -> None:
    """Removing most keys of a deep tree joins under-full nodes with a neighbour on every level:
    after each removal the keys are exact, every node is within bounds and all leaves share a depth."""
    n = 150
    keys = list(range(n))
    doomed = {
        "ascending": keys[:-5],
        "descending": keys[::-1][:-5],
        "middle-out": sorted(keys, key=lambda k: (abs(k - n // 2), k))[:-5],
        "stride": [k for r in range(7) for k in keys[r::7]][:-5],
    }[order]
    s: SortedKeys[int] = SortedKeys.of(keys)
    assert len(_sizes(s._root, [])) > 60  # several levels of tiny nodes
    ref = set(keys)
    versions = []
    for k in doomed:
        s = s.remove(k)
        ref.discard(k)
        versions.append((s, sorted(ref)))
        depths: set[int] = set()
        _check_shape(s._root, 0, depths)
        assert len(depths) == 1
        sizes = _sizes(s._root, [])
        assert max(sizes) <= 4 and min(sizes[1:], default=2) >= 1
        assert list(s) == sorted(ref) and len(s) == len(ref)
        assert s.last() == max(ref) and s.ceiling(k) == min((j for j in ref if j >= k), default=None)
        assert s.floor_below(k) == max((j for j in ref if j < k), default=None)
        assert k not in s and all(j in s for j in ref)
    assert list(s) == sorted(set(keys) - set(doomed))
    for old, expected in versions:
        assert list(old) == expected


def test_a_join_of_two_inner_nodes_that_overflows_splits_them_evenly() -> None:
    """_join of two neighbours: one node when the keys fit, two halves (the first the smaller) when not."""
    a = _Inner([0, 10], [[0, 1], [10, 11]])
    b = _Inner([20, 30, 40], [[20], [30], [40]])
    one = sortedkeys._join(_Inner([0], [[0, 1]]), _Inner([20, 30], [[20], [30]]))
    assert len(one) == 1 and isinstance(one[0], _Inner)
    assert one[0].lows == [0, 20, 30] and one[0].kids == [[0, 1], [20], [30]]
    two = sortedkeys._join(a, b)
    assert [x.lows for x in two] == [[0, 10], [20, 30, 40]]  # type: ignore[union-attr]
    assert [x.kids for x in two] == [[[0, 1], [10, 11]], [[20], [30], [40]]]  # type: ignore[union-attr]
    assert sortedkeys._join([1, 2], [3, 4]) == ([1, 2, 3, 4],)
    assert sortedkeys._join([1, 2, 3], [4, 5]) == ([1, 2], [3, 4, 5])


def test_repr_lists_the_keys_in_order() -> None:
    assert repr(SortedKeys.of([3, 1, 2])) == "SortedKeys([1, 2, 3])"
    assert repr(SortedKeys()) == "SortedKeys([])"


def test_equality_and_hash_are_those_of_the_keys_in_order() -> None:
    assert SortedKeys.of([1, 2]) != SortedKeys.of([1, 2, 3]) and SortedKeys.of([1, 2, 3]) != SortedKeys.of([1, 2])
    assert SortedKeys.of([1, 3]) != SortedKeys.of([1, 2]) and SortedKeys.of([2, 1]) == SortedKeys.of([1, 2])
    assert hash(SortedKeys.of([2, 1])) == hash((1, 2)) and hash(SortedKeys()) == hash(())
    assert SortedKeys.of([1]).__eq__([1]) is NotImplemented


def _leaf_sizes(s: SortedKeys[int]) -> list[int]:
    return [len(leaf) for leaf in sortedkeys._leaves(s._root)]


@pytest.mark.parametrize("order", ["ascending", "descending", "outside-in", "stride"])
def test_insertions_split_full_nodes_on_every_level_and_keep_every_bound(order: str) -> None:
    n = 120
    keys = {
        "ascending": list(range(n)),
        "descending": list(range(n))[::-1],
        "outside-in": [k for pair in zip(range(n // 2), range(n - 1, n // 2 - 1, -1)) for k in pair],
        "stride": [k for r in range(5) for k in range(r, n, 5)],
    }[order]
    s: SortedKeys[int] = SortedKeys()
    for m, k in enumerate(keys, start=1):
        s = s.insert(k)
        depths: set[int] = set()
        _check_shape(s._root, 0, depths)
        assert len(depths) == 1
        sizes = _sizes(s._root, [])
        assert 1 <= min(sizes) and max(sizes) <= 4  # no empty and no over-full node
        assert len(s) == m and k in s and s.last() == max(keys[:m])
    assert list(s) == list(range(n)) and len(_sizes(s._root, [])) > 40


def test_appending_in_ascending_order_leaves_full_nodes_behind() -> None:
    """An append at the right end splits off only the new key: every leaf but the last holds four keys,
    and every inner node but the rightmost on each level holds four children."""
    s: SortedKeys[int] = SortedKeys()
    for k in range(101):
        s = s.insert(k)
    leaves = _leaf_sizes(s)
    assert leaves[:-1] == [4] * (len(leaves) - 1) and leaves[-1] == 1 and sum(leaves) == 101
    level: list[object] = [s._root]
    while isinstance(level[0], _Inner):
        sizes = [len(x.kids) for x in level]  # type: ignore[attr-defined]
        assert sizes[:-1] == [4] * (len(sizes) - 1), sizes
        level = [kid for x in level for kid in x.kids]  # type: ignore[attr-defined]
    t: SortedKeys[int] = SortedKeys()
    for k in range(100, -1, -1):  # descending: a split of five keys leaves two on the left, three on the right
        t = t.insert(k)
    assert t == s and _leaf_sizes(t) == [2] + [3] * 33


def test_removing_the_one_key_of_the_last_leaf_drops_that_leaf() -> None:
    """An ascending append leaves a last leaf of one key; removing that key empties the leaf, which goes."""
    s: SortedKeys[int] = SortedKeys()
    for k in range(5):
        s = s.insert(k)
    assert _leaf_sizes(s) == [4, 1]
    t = s.remove(4)
    assert list(t) == [0, 1, 2, 3] and len(t) == 4 and _leaf_sizes(t) == [4]
    depths: set[int] = set()
    _check_shape(t._root, 0, depths)
    assert list(s) == [0, 1, 2, 3, 4]  # the earlier version is untouched


def test_removing_the_one_key_of_a_middle_leaf_drops_that_leaf_and_its_bound() -> None:
    """A key appended at the end of a full leaf that has a right neighbour gets a leaf of its own
    between the two; removing it empties that leaf, which goes with its bound, and no other."""
    s: SortedKeys[int] = SortedKeys()
    for k in [0, 1, 2, 3, 10, 11, 12, 13, 5]:
        s = s.insert(k)
    assert _leaf_sizes(s) == [4, 1, 4]
    t = s.remove(5)
    assert list(t) == [0, 1, 2, 3, 10, 11, 12, 13] and _leaf_sizes(t) == [4, 4]
    depths: set[int] = set()
    _check_shape(t._root, 0, depths)
    assert len(depths) == 1 and t.ceiling(4) == 10 and 5 not in t and 10 in t


def test_removing_every_key_of_a_deep_set_leaves_an_empty_set_that_takes_keys_again() -> None:
    s: SortedKeys[int] = SortedKeys()
    for k in range(41):
        s = s.insert(k)
    left = set(range(41))
    for k in [40, *range(40)]:  # the lone key of the last leaf first, then from the left
        s, left = s.remove(k), left - {k}
        depths: set[int] = set()
        _check_shape(s._root, 0, depths)
        assert len(depths) <= 1 and list(s) == sorted(left) and len(s) == len(left)
    assert len(s) == 0 and list(s) == [] and s == SortedKeys() and 3 not in s
    assert list(s.insert(3)) == [3]


def test_the_tree_stays_shallow_and_iterates_from_any_key_across_every_level() -> None:
    """A B⁺-tree of n keys is at most 1 + log_MIN(n) deep; iteration from a key climbs to the next sibling
    on every level (here four-key nodes, so 300 keys make several inner levels)."""
    import math

    grown: SortedKeys[int] = SortedKeys()
    for k in range(300):
        grown = grown.insert(k)
    for s in (grown, SortedKeys.of(range(300))):
        depth, node = 0, s._root
        while isinstance(node, _Inner):
            depth, node = depth + 1, node.kids[0]
        assert 2 <= depth <= 1 + math.log(300, sortedkeys._MIN)
        for k in (-1, 0, 1, 37, 150, 298, 299, 300):
            assert list(s.iter_from(k)) == list(range(max(k, 0), 300))
