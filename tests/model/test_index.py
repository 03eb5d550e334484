"""Tests of coalg.model.index: the CSR lineage index answers exactly as coalg.model.lineage does."""

from __future__ import annotations

import random

import pytest
from budget import budget
from hypothesis import given
from hypothesis import strategies as st
from strategies import fragment_stores, records, stores

import coalg.model.index as I
from coalg.model import CSR, LineageIndex, ancestors, descendant_ids


@given(stores())
@budget(150, derandomize=False)
def test_index_equals_lineage_on_stores(s):
    ix = LineageIndex.from_store(s)
    for i in sorted(s.ids()):
        assert ix.ancestor_ids(i) == ancestors(s, i)
        assert ix.descendant_ids(i) == descendant_ids(s, i)


@given(fragment_stores(max_steps=8, record_strategy=records(with_metadata=False)))
@budget(60, derandomize=False)
def test_index_equals_lineage_on_fragment_stores(s):
    ix = LineageIndex.from_store(s)
    for i in sorted(s.ids()):
        assert ix.ancestor_ids(i) == ancestors(s, i)
        assert ix.descendant_ids(i) == descendant_ids(s, i)


def _bfs(n, edges, i):
    adj = [[] for _ in range(n)]
    for a, b in edges:
        adj[a].append(b)
    seen, todo = set(), [i]
    while todo:
        x = todo.pop()
        for y in adj[x]:
            if y not in seen:
                seen.add(y)
                todo.append(y)
    return sorted(seen)


@pytest.mark.parametrize("mode", ["auto", "numpy", "python"])
@given(
    n=st.integers(1, 40),
    edges=st.lists(st.tuples(st.integers(0, 39), st.integers(0, 39)), max_size=120),
    data=st.data(),
)
@budget(80, derandomize=False)
def test_reach_all_phases_agree(mode, n, edges, data):
    """Small, switched-to-SciPy and NumPy-frontier searches all give the reference answer."""
    edges = [(a % n, b % n) for a, b in edges]
    g = CSR(n, [a for a, _ in edges], [b for _, b in edges])
    i = data.draw(st.integers(0, n - 1))
    with pytest.MonkeyPatch.context() as mp:
        if mode == "numpy":  # no SciPy: the NumPy frontier search
            mp.setattr(CSR, "matrix", lambda self: None)
        if mode != "python":  # switch to the compiled phase at once
            mp.setattr(I, "_MIN_SWITCH", -1 if mode == "numpy" else 0)
        assert list(g.reach(i)) == _bfs(n, edges, i)


def test_large_and_deep():
    rng = random.Random(3)
    n = 20_000
    src = list(range(1, n)) + [rng.randrange(1, n) for _ in range(30_000)]
    dst = list(range(n - 1)) + [0] * 0 + [0 for _ in range(30_000)]
    dst[n - 1 :] = [rng.randrange(0, s) for s in src[n - 1 :]]  # a DAG: edges go down
    ix = LineageIndex.from_arrays(n, src, dst)
    deep = ix.ancestors(n - 1)  # the chain: everything below
    assert deep.tolist() == list(range(n - 1))
    assert ix.descendants(0).tolist() == list(range(1, n))
    assert ix.ancestors(0).tolist() == []
    edges = list(zip(src, dst))
    for q in (5, 777, 12_345):
        assert ix.ancestors(q).tolist() == _bfs(n, edges, q)


def test_cycle_includes_query_only_when_on_it():
    ix = LineageIndex.from_arrays(4, [0, 1, 2], [1, 0, 3])
    assert ix.ancestors(0).tolist() == [0, 1]
    assert ix.ancestors(2).tolist() == [3]
    assert ix.descendants(3).tolist() == [2]


def test_bad_inputs():
    with pytest.raises(ValueError):
        CSR(2, [0], [5])
    with pytest.raises(IndexError):
        LineageIndex.from_arrays(2, [0], [1]).ancestors(7)
    assert LineageIndex.from_arrays(2, [0], [1]).ancestor_ids(99) == frozenset()
