"""Exact results of single clause steps: counts, explanations and the θ and faults each step re-runs with.

Each case is one call on a seed store, worked out by hand: which records and edges the call
adds, and so what the step must say.
"""

from __future__ import annotations

from laws.test_predicates import TIE, TWO, step_of
from mutants import mutant

from coalg.laws.inverse_closure import l3_fault_path
from coalg.laws.locality import L4II
from coalg.laws.schema import S1, S2, S3
from coalg.model import CONTEXTFS, REPAIRED, Evolve, Merge, Recall, Record, Store, Theta


def test_s1_counts_each_creating_call_once() -> None:
    assert S1.step(CONTEXTFS, step_of(CONTEXTFS, TIE, Evolve("id0001", "v2"))) == (1, None)  # type: ignore[misc]
    assert S1.step(CONTEXTFS, step_of(CONTEXTFS, TIE, Recall("id0001"))) == (0, None)  # type: ignore[misc]


def test_s2_reruns_the_call_under_the_same_theta() -> None:
    """A merge of a fact and a decision takes its type from θ; run locally under another θ it would differ."""
    types = set()
    for theta in (Theta(type_priority=("decision",)), Theta(type_priority=("fact",))):
        t = step_of(CONTEXTFS, TIE, Merge(("id0001", "id0002")), theta=theta)
        types.add(t.output.items[0][1].type)  # type: ignore[union-attr]
        assert S2.step(CONTEXTFS, t) == (1, None)  # type: ignore[misc]
    assert types == {"fact", "decision"}


def test_s2_reruns_the_call_with_the_same_failing_edge_writes() -> None:
    """With its first edge write failing, evolve adds one edge, not two; the local re-run must fail alike."""
    t = step_of(CONTEXTFS, TIE, Evolve("id0001", "v2"), faults=frozenset({1}))
    assert len(t.after.edges - t.before.edges) == 1
    assert S2.step(CONTEXTFS, t) == (1, None)  # type: ignore[misc]


def test_s2_names_a_record_filed_outside_the_named_namespaces() -> None:
    real = mutant("files-in-alice").realisation
    n, v = S2.step(real, step_of(real, TWO, Evolve("id0002", "v2")))  # type: ignore[misc]
    assert n == 1 and v is not None
    assert v.offending == {"record": "id0003", "namespace": "alice", "named_namespaces": ["bob"]}
    assert v.explanation == "evolve(id0002, 'v2') filed id0003 in a namespace no named record has."


def test_s3_names_the_first_edge_outside_the_support() -> None:
    real = mutant("extra-edge").realisation
    n, v = S3.step(real, step_of(real, TIE, Evolve("id0001", "v2")))  # type: ignore[misc]
    assert n == 1 and v is not None
    assert v.offending == {"edges": [["id0002", "related_to", "id0003"], ["id0003", "related_to", "id0002"]],
                           "support": ["id0001", "id0003"]}
    assert v.explanation == "evolve(id0001, 'v2') added (id0002, RELATED_TO, id0003), outside (N ∪ nm(a))²."


def test_the_l3_fault_path_is_searched_to_length_one_without_walks() -> None:
    v = l3_fault_path(REPAIRED)
    assert v.holds and (v.details["exhaustive_length"], v.details["random_walks"]) == (1, 0)
    assert l3_fault_path(REPAIRED, max_len=1).explored == v.explored
    assert not l3_fault_path(CONTEXTFS).holds


def test_l4ii_compares_only_fragment_calls_and_under_the_same_theta() -> None:
    """On TWO, evolving the alice record is compared against two stores with the same alice part
    (the bob record altered, and the alice part alone); the same call by prefix is not a fragment call."""
    assert L4II.step(CONTEXTFS, step_of(CONTEXTFS, TWO, Evolve("id0001", "v2"))) == (2, None)  # type: ignore[misc]
    by_prefix = step_of(CONTEXTFS, TWO, Evolve("id0001", "v2", by_prefix=True))
    assert by_prefix.ok and by_prefix.created == ("id0003",)
    assert L4II.step(CONTEXTFS, by_prefix) == (0, None)  # type: ignore[misc]
    s = Store.of({"a1": Record("a", type="fact", namespace="alice"),
                  "a2": Record("b", type="decision", namespace="alice"), "b1": Record("k", namespace="bob")})
    types = set()
    for theta in (Theta(type_priority=("decision",)), Theta(type_priority=("fact",))):
        t = step_of(CONTEXTFS, s, Merge(("a1", "a2")), theta=theta)
        types.add(t.output.items[0][1].type)  # type: ignore[union-attr]
        assert L4II.step(CONTEXTFS, t) == (2, None)  # type: ignore[misc]
    assert types == {"fact", "decision"}
