"""Exact results of single clause steps: counts, explanations and the θ and faults each step re-runs with.

Each case is one call on a seed store, worked out by hand: which records and edges the call
adds, and so what the step must say.
"""

from __future__ import annotations

from laws.test_predicates import TIE, TWO, step_of
from mutants import mutant

from coalg.laws.integrity import _at_seed, _strong_form_details, l7_strong_form
from coalg.laws.inverse_closure import l3_fault_path
from coalg.laws.locality import L4II
from coalg.laws.resolution import L5, _explain, consults_theta
from coalg.laws.schema import S1, S2, S3
from coalg.laws.seeds import seed_named
from coalg.model import (
    CONTEXTFS,
    LINEAGE,
    REPAIRED,
    Evolve,
    Found,
    Merge,
    Nothing,
    Recall,
    Record,
    Relation,
    Store,
    Theta,
    output_to_json,
    store_to_json,
    theta_to_json,
)


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


# --------------------------------------------------------------------------- L5: resolution independence


def test_l5_names_the_other_theta_and_both_outcomes() -> None:
    """Merging a fact and a decision: the default θ gives decision; θ′ preferring fact gives fact.
    The first variant (decision first) agrees with the default, so θ′ is the second."""
    t = step_of(CONTEXTFS, TIE, Merge(("id0001", "id0002")))
    n, v = L5.step(CONTEXTFS, t)  # type: ignore[misc]
    assert n == 1 and v is not None
    assert v.offending == {"record": "id0003", "field": "type", "tied_types": ["decision", "fact"],
                           "value": "decision", "other_value": "fact"}
    assert v.explanation == ("merge(id0001, id0002): the argument types decision and fact tie, and the undeclared "
                             "choice c decides the merged type — decision under θ, fact under θ′.")
    fact = Theta(type_priority=("fact",))
    out2, after2 = CONTEXTFS.step(TIE, t.call.letter, t.call.allocation, theta=fact)
    assert v.extra == {"other_theta": theta_to_json(fact), "other_after": store_to_json(after2),
                       "output": output_to_json(t.output), "other_output": output_to_json(out2)}


def test_l5_reruns_each_variant_with_the_calls_failing_edge_writes() -> None:
    t = step_of(CONTEXTFS, TIE, Merge(("id0001", "id0002")), faults=frozenset({1}))
    n, v = L5.step(CONTEXTFS, t)  # type: ignore[misc]
    assert n == 1 and v is not None and v.extra["other_theta"] == theta_to_json(Theta(type_priority=("fact",)))


def test_l5_counts_a_call_that_reads_theta_without_depending_on_it() -> None:
    t = step_of(CONTEXTFS, TWO, Merge(("id0001", "id0002")))  # two facts: no tie to break
    assert consults_theta(CONTEXTFS, t)
    assert L5.step(CONTEXTFS, t) == (1, None)  # type: ignore[misc]
    quiet = step_of(CONTEXTFS, TIE, Evolve("id0001", "v2"), faults=frozenset({1}))
    assert not consults_theta(CONTEXTFS, quiet)  # re-run with the same failing edge write


def test_explanations_for_outputs_that_are_not_two_merges_or_two_finds() -> None:
    recall = step_of(CONTEXTFS, TIE, Recall("id0001"))
    assert _explain(recall, Found("id0002", TIE.records["id0002"])) == (
        {"output_id": "id0001", "other_output_id": "id0002"},
        ("recall(id0001) returns id0001 under θ and id0002 under θ′: several identifiers match and the row "
         "order ≺ picks one."))
    offending, text = _explain(recall, Nothing())
    assert offending == {"output": output_to_json(recall.output), "other_output": {"out": "bottom"}}
    assert text == "recall(id0001) gives a different output or store under θ′ than under θ."
    evolve = step_of(CONTEXTFS, TIE, Evolve("id0001", "v2"))
    other = step_of(CONTEXTFS, TIE, Evolve("id0002", "v3")).output  # created too, with another type
    offending, text = _explain(evolve, other)
    assert set(offending) == {"output", "other_output"} and text.endswith("under θ′ than under θ.")


# --------------------------------------------------------------------------- L7's strong form


def test_l7_strong_form_defaults_to_fragment_words_of_length_two() -> None:
    v = l7_strong_form(REPAIRED)
    assert v.holds and (v.details["exhaustive_length"], v.details["random_walks"]) == (2, 0)
    assert v.explored == l7_strong_form(REPAIRED, alphabet="fragment", max_len=2, random_runs=0).explored
    assert v.explored != l7_strong_form(REPAIRED, alphabet="full", max_len=2, random_runs=0).explored


def test_strong_form_details_in_full() -> None:
    strong = l7_strong_form(REPAIRED)
    assert _strong_form_details(REPAIRED, False) == {
        "reachable_set": "every store reachable from ∅ by any call the model accepts (fragment letters, prefix "
                         "naming, recall by prefix, delete, save_at, link), searched from the seeds",
        "labels": "R⁻ ∪ R⁺ (evolved/merged/split from/into): the lineage form",
        "strong_form": {"holds": True, "summary": strong.summary, "explanation": None},
    }


def test_a_seed_with_a_dangling_edge_outside_the_labels_passes() -> None:
    st = seed_named(CONTEXTFS, "empty")
    seed = type(st)(st.seed, Store.of({"k": Record("k")}, [("k", Relation.SUPERSEDES, "zz")]), 1, frozenset(), ())
    assert _at_seed(LINEAGE, CONTEXTFS, seed) is None
    v = _at_seed(None, CONTEXTFS, seed)
    assert v is not None and v.explanation == "left the edge (k, SUPERSEDES, zz) whose endpoint zz holds no record."
