"""The lineage coalgebra β_s and the ancestry unfolding (Definitions 3.18, 3.19)."""

from __future__ import annotations

import time

from budget import budget
from hypothesis import given
from strategies import fragment_stores, records, stores

from coalg.model import (
    ANCESTRY,
    DESCENDANT,
    Allocation,
    Evolve,
    Merge,
    Node,
    Observation,
    Record,
    Relation,
    Save,
    Split,
    ancestors,
    ancestry,
    beta,
    beta_minus,
    descendant_ids,
    descendants,
    run,
    step,
    successor_index,
    unfold,
)
from coalg.model.store import EMPTY, Store

R = Relation
A = Allocation
PROPERTY = budget(40)

# id0001 = a, id0002 = b, id0003 = merge(a, b), id0004 = evolve(id0003), id0005/6 = split(id0001)
WORD = [Save(Record("a")), Save(Record("b")), Merge(("id0001", "id0002")), Evolve("id0003", "c"),
        Split("id0001", ("p", "q"))]
S = run(EMPTY, WORD).final


def shape(u) -> list[tuple[int, str | None, str, str]]:  # type: ignore[no-untyped-def]
    return [(n.depth, None if n.via is None else n.via.value, n.id, n.mark) for n in u.nodes]


# --------------------------------------------------------------------------- Definition 3.18


def test_def_3_18_beta_is_record_and_labelled_successors() -> None:
    obs = beta(S, "id0003")
    assert obs.record == S.records["id0003"]
    assert obs.successors == (
        (R.EVOLVED_INTO, "id0004"), (R.MERGED_FROM, "id0001"), (R.MERGED_FROM, "id0002"),
    )


def test_def_3_18_beta_of_an_unmentioned_or_dangling_identifier() -> None:
    assert beta(S, "nowhere") == Observation(None, ())
    s = Store.of({}, [("x", R.SUPERSEDES, "y")])
    assert beta(s, "x") == Observation(None, ((R.SUPERSEDES, "y"),))
    assert beta(s, "y") == Observation(None, ())


def test_def_3_19_beta_minus_keeps_only_ancestry_labels() -> None:
    assert beta_minus(S, "id0003").successors == ((R.MERGED_FROM, "id0001"), (R.MERGED_FROM, "id0002"))
    assert beta_minus(S, "id0001").successors == ()  # only descendant edges leave id0001
    assert beta_minus(S, "id0001").record == S.records["id0001"]
    assert {r for r, _ in beta(S, "id0001").successors} == {R.MERGED_INTO, R.SPLIT_INTO}


@PROPERTY
@given(stores())
def test_def_3_19_beta_minus_is_lambda_after_beta(s: Store) -> None:
    for i in sorted(s.ids()) + ["unmentioned"]:
        b, bm = beta(s, i), beta_minus(s, i)
        assert bm.record == b.record == s.records.get(i)
        assert bm.successors == tuple(x for x in b.successors if x[0] in ANCESTRY)
        assert set(b.successors) == {(e.relation, e.target) for e in s.edges if e.source == i}


def test_successor_index_sorted_adjacency() -> None:
    adj = successor_index(S, ANCESTRY)
    assert adj["id0003"] == [(R.MERGED_FROM, "id0001"), (R.MERGED_FROM, "id0002")]
    assert "id0001" not in adj


# --------------------------------------------------------------------------- unfoldings


def test_ancestry_unfolding_example() -> None:
    u = ancestry(S, "id0004")
    assert shape(u) == [
        (0, None, "id0004", "expanded"),
        (1, "evolved_from", "id0003", "expanded"),
        (2, "merged_from", "id0001", "expanded"),
        (2, "merged_from", "id0002", "expanded"),
    ]
    assert u.root == "id0004" and u.labels == ANCESTRY
    assert u.ids == {"id0001", "id0002", "id0003", "id0004"}
    assert u.edges() == {
        ("id0004", R.EVOLVED_FROM, "id0003"), ("id0003", R.MERGED_FROM, "id0001"), ("id0003", R.MERGED_FROM, "id0002"),
    }
    assert not u.has_cycle
    assert u.nodes[0].record == S.records["id0004"]


def test_descendant_unfolding_example() -> None:
    u = descendants(S, "id0001")
    assert shape(u) == [
        (0, None, "id0001", "expanded"),
        (1, "merged_into", "id0003", "expanded"),
        (2, "evolved_into", "id0004", "expanded"),
        (1, "split_into", "id0005", "expanded"),
        (1, "split_into", "id0006", "expanded"),
    ]
    assert u.labels == DESCENDANT


def test_ancestors_and_descendant_ids() -> None:
    assert ancestors(S, "id0004") == {"id0001", "id0002", "id0003"}
    assert ancestors(S, "id0001") == frozenset()
    assert descendant_ids(S, "id0001") == {"id0003", "id0004", "id0005", "id0006"}
    assert descendant_ids(S, "id0004") == frozenset()


def test_unfolding_of_a_record_without_ancestry_and_of_bottom() -> None:
    assert shape(ancestry(S, "id0002")) == [(0, None, "id0002", "expanded")]
    u = ancestry(S, "nowhere")
    assert shape(u) == [(0, None, "nowhere", "expanded")] and u.nodes[0].record is None


def test_shared_sub_dag_is_expanded_once_then_marked_shared() -> None:
    """A diamond: d merged from b and c, both evolved from a, and a split from z."""
    s = Store.of(
        {k: Record(k) for k in "abcdz"},
        [("d", R.MERGED_FROM, "b"), ("d", R.MERGED_FROM, "c"), ("b", R.EVOLVED_FROM, "a"),
         ("c", R.EVOLVED_FROM, "a"), ("a", R.SPLIT_FROM, "z")],
    )
    u = ancestry(s, "d")
    assert shape(u) == [
        (0, None, "d", "expanded"),
        (1, "merged_from", "b", "expanded"),
        (2, "evolved_from", "a", "expanded"),
        (3, "split_from", "z", "expanded"),
        (1, "merged_from", "c", "expanded"),
        (2, "evolved_from", "a", "shared"),  # not expanded again: z appears once
    ]
    assert [n.id for n in u.nodes].count("z") == 1
    assert not u.has_cycle
    assert "(shared, shown above)" in u.render()


def test_a_cycle_made_by_a_dangling_edge_and_an_allocation_is_marked_and_terminates() -> None:
    """evolve by prefix leaves (n1, EVOLVED_FROM, "x") dangling; allocating "x" closes a cycle."""
    s0 = Store.of({"x1": Record("orig")})
    _, s1 = step(s0, Evolve("x", "v2", by_prefix=True), A(("n1",), 1))
    assert "x" in s1.dangling()
    _, s2 = step(s1, Evolve("n1", "v3"), A(("x",), 2))  # admissible: "x" is not in dom
    u = ancestry(s2, "x")
    assert shape(u) == [
        (0, None, "x", "expanded"),
        (1, "evolved_from", "n1", "expanded"),
        (2, "evolved_from", "x", "cycle"),
    ]
    assert u.has_cycle
    assert "↺ cycle" in u.render()
    assert ancestors(s2, "x") == {"n1", "x"}  # on a cycle, x is its own ancestor
    assert "x" in descendant_ids(s2, "x")


def test_a_self_loop_from_allocating_the_prefix_itself() -> None:
    s0 = Store.of({"ab": Record("orig")})
    _, s = step(s0, Evolve("a", "v2", by_prefix=True), A(("a",), 1))
    assert shape(ancestry(s, "a")) == [(0, None, "a", "expanded"), (1, "evolved_from", "a", "cycle")]
    assert shape(descendants(s, "a")) == [(0, None, "a", "expanded"), (1, "evolved_into", "a", "cycle")]


def test_longer_cycle_terminates() -> None:
    s = Store.of({k: Record(k) for k in "pqr"},
                 [("p", R.EVOLVED_FROM, "q"), ("q", R.MERGED_FROM, "r"), ("r", R.SPLIT_FROM, "p")])
    u = ancestry(s, "p")
    assert [n.mark for n in u.nodes] == ["expanded", "expanded", "expanded", "cycle"]
    assert ancestors(s, "q") == {"p", "q", "r"}


def test_max_nodes_bounds_the_unfolding() -> None:
    u = unfold(S, "id0004", ANCESTRY, max_nodes=2)
    assert [n.id for n in u.nodes] == ["id0004", "id0003"]


def test_unfold_with_arbitrary_labels() -> None:
    s = Store.of({}, [("a", R.SUPERSEDES, "b"), ("b", R.SUPERSEDES, "c"), ("a", R.EVOLVED_FROM, "z")])
    assert [n.id for n in unfold(s, "a", [R.SUPERSEDES]).nodes] == ["a", "b", "c"]


def test_render_of_the_example() -> None:
    assert ancestry(S, "id0004").render() == (
        "id0004  c\n"
        "└─ evolved_from id0003  [Source 1]: a  [Source …\n"
        "   ├─ merged_from id0001  a\n"
        "   └─ merged_from id0002  b"
    )


def test_deep_chain_of_100k_builds_its_ancestry_unfolding_quickly_without_recursion() -> None:
    n = 100_000
    ids = [f"n{k:06d}" for k in range(n)]
    rec = Record("x")
    s = Store.of({i: rec for i in ids}, [(ids[k + 1], R.EVOLVED_FROM, ids[k]) for k in range(n - 1)])
    t0 = time.process_time()  # CPU time of this process: robust to other load on the machine
    u = ancestry(s, ids[-1])
    elapsed = time.process_time() - t0
    assert len(u.nodes) == n
    assert u.nodes[-1] == Node(n - 1, R.EVOLVED_FROM, ids[0], rec, "expanded")
    assert not u.has_cycle
    assert elapsed < 2.5, f"ancestry unfolding of a {n}-chain took {elapsed:.2f}s of CPU"
    assert len(ancestors(s, ids[-1])) == n - 1


@PROPERTY
@given(stores())
def test_unfolding_reaches_exactly_the_ancestors(s: Store) -> None:
    for i in sorted(s.ids()):
        u = ancestry(s, i)
        assert u.ids == {i} | ancestors(s, i)
        assert u.edges() <= {(e.source, e.relation, e.target) for e in s.edges if e.relation in ANCESTRY}
        expanded = [n.id for n in u.nodes if n.mark == "expanded"]
        assert len(expanded) == len(set(expanded))  # each identifier is expanded once
        assert u.has_cycle == (i in ancestors(s, i) or any(x in ancestors(s, x) for x in u.ids))


@PROPERTY
@given(fragment_stores(max_steps=8, record_strategy=records(with_metadata=False)))
def test_fragment_stores_have_acyclic_ancestry(s: Store) -> None:
    """Spec §2.0 review note (2): every new R⁻ edge points at a pre-existing record."""
    assert s.satisfies_ac_plus()
    for i in s.dom():
        assert not ancestry(s, i).has_cycle
        assert i not in ancestors(s, i)
