"""The predicates behind the law checks, one by one, on steps small enough to work out by hand.

The law table asks each predicate thousands of questions and reports one
answer; a predicate that answered wrongly in one branch could hide there.  Here
each branch gets a step whose answer is known — the records lost, the edge that
dangles, the θ variants a merge must be tried under, the fields a perturbation
changes, the text of the explanation — so that a change to any branch is seen.
These are also the tests mutation testing (``bench/mutation.py``) runs.
"""

from __future__ import annotations

from itertools import pairwise
from types import SimpleNamespace
from typing import Any

import pytest
from mutants import mutant

from coalg.bisim import ancestry_bisimilar
from coalg.laws import SEEDS, Transition, allocate, explore, fragment_alphabet, theta_variants
from coalg.laws.agreement import (
    L2,
    disagreement,
    history_lineage,
    l2_disagreement,
    record_view,
    router_lineage,
)
from coalg.laws.bitemporality import (
    _HOLDS,
    _READING,
    RANDOM_HISTORY_LENGTH,
    TIMES,
    _psi,
    kappa,
    search_L6,
)
from coalg.laws.common import observation_json
from coalg.laws.foundations import _pool, _union
from coalg.laws.integrity import L7, _at_seed, _kept, _strong_form_details, dangling, l7_strong_form
from coalg.laws.inverse_closure import L3, _fault_path_details, l3_fault_path, one_way_edges
from coalg.laws.locality import (
    L4I,
    L4II,
    _alter,
    _record_diff,
    confinement,
    fibre_of,
    perturbations,
)
from coalg.laws.merge import _first_non_commuting, _idempotent, _order_fields
from coalg.laws.monotonicity import L1, _five_two_case, is_creating_call, monotone
from coalg.laws.resolution import L5, _explain, _merged_type, consults_theta
from coalg.laws.schema import S1, S2, S3, S4, check_schema
from coalg.laws.seeds import derived_ids, seed_named
from coalg.laws.stability import _ac_plus_failure, _stable, _theorem_5_7
from coalg.laws.walks import random_transitions
from coalg.model import (
    CONTEXTFS,
    DEFAULT_THETA,
    EMPTY,
    LINEAGE,
    REPAIRED,
    Allocation,
    Call,
    Created,
    Delete,
    Edge,
    Err,
    Evolve,
    Found,
    Letter,
    Merge,
    Nothing,
    Realisation,
    Recall,
    RecallPrefix,
    Record,
    Relation,
    Save,
    SaveAt,
    Split,
    Store,
    Supersede,
    Theta,
    ancestry,
    beta_minus,
    call_from_json,
    named,
    output_to_json,
    record_to_json,
    restrict,
    store_to_json,
    theta_to_json,
)

R = Relation


def step_of(real: Realisation, s: Store, a: Letter, *, clock: int = 9, faults: frozenset[int] = frozenset(),
            theta: Theta = Theta(), derived: frozenset[str] = frozenset(), seed: str = "empty") -> Transition:
    """The transition of ``a`` at ``s`` with the search's allocation (a start of the given seed's name)."""
    xi = allocate(s, a, clock)
    out, after = real.step(s, a, xi, theta=theta, faults=faults)
    start = seed_named(real, seed)
    return Transition(start, (), s, Call(a, xi, faults), out, after, derived | derived_ids(a, out), theta)


TIE = seed_named(CONTEXTFS, "tie").store              # id0001 fact, id0002 decision, both in alice
TWO = seed_named(CONTEXTFS, "two-namespaces").store   # id0001 in alice, id0002 in bob (tagged secret)
MERGED = seed_named(CONTEXTFS, "merged").store        # TIE and id0003 merged from both


# --------------------------------------------------------------------------- L1, S1: what a step lost


def test_monotone_names_every_loss() -> None:
    before = Store.of({"a": Record("a"), "b": Record("b"), "c": Record("c")},
                      [("c", R.EVOLVED_FROM, "b"), ("b", R.EVOLVED_INTO, "c")])
    after = Store.of({"b": Record("b2"), "c": Record("c"), "d": Record("d")}, [("c", R.EVOLVED_FROM, "b")])
    v = monotone(before, after)
    assert v is not None
    assert v.offending == {"lost_records": ["a"], "changed_records": ["b"],
                           "lost_edges": [["b", "evolved_into", "c"]]}
    assert v.explanation == "removed records [a]; changed records [b]; removed 1 edge(s)"
    only_edges = monotone(before, before.without_edges([Edge("c", R.EVOLVED_FROM, "b")]))
    assert only_edges is not None and only_edges.explanation == "removed 1 edge(s)"
    assert only_edges.offending["lost_records"] == [] and only_edges.offending["changed_records"] == []
    only_lost = monotone(before, before.without_record("a"))
    assert only_lost is not None and only_lost.explanation == "removed records [a]"
    assert monotone(before, before.with_record("z", Record("z"))) is None
    assert monotone(before, before) is None


def test_l1_and_s1_read_only_creating_calls() -> None:
    assert is_creating_call(Save(Record("x"))) and is_creating_call(Evolve("a", "b"))
    assert not is_creating_call(Recall("a")) and not is_creating_call(Delete("a"))
    assert not is_creating_call(Evolve("a", "b", by_prefix=True))
    t = step_of(CONTEXTFS, TIE, Delete("id0001"))
    assert L1.step(CONTEXTFS, t) == (0, None) and S1.step(CONTEXTFS, t) == (0, None)  # type: ignore[misc]
    t = step_of(CONTEXTFS, TIE, Evolve("id0001", "v2"))
    assert L1.step(CONTEXTFS, t) == (1, None)  # type: ignore[misc]
    bad = step_of(mutant("overwrites-parent").realisation, TIE, Evolve("id0001", "v2"))
    n, v = L1.step(CONTEXTFS, bad)  # type: ignore[misc]
    assert n == 1 and v is not None
    assert v.explanation == "evolve(id0001, 'v2') changed records [id0001]: the carrier did not grow monotonically."
    n, v = S1.step(CONTEXTFS, bad)  # type: ignore[misc]
    assert v is not None and v.explanation.endswith(": the call is not additive.")


def test_s1_catches_an_overwrite_at_a_new_identifier() -> None:
    def overwrite(s: Store, a: Letter, xi: Allocation, **kw: Any) -> Any:
        out, s2 = CONTEXTFS.step(s, a, xi, **kw)
        if isinstance(a, Save):  # lands on the first record instead of the allocated identifier
            j = min(s.dom())
            return Created(((j, a.record),)), s.with_record(j, a.record)
        return out, s2

    real = Realisation("overwrite", overwrite, "")
    t = step_of(real, TIE, Save(Record("x", namespace="alice")))
    n, v = S1.step(real, t)  # type: ignore[misc]
    assert n == 1 and v is not None and "changed records [id0001]" in v.explanation
    failed = step_of(CONTEXTFS, TIE, Evolve("missing", "v2"))
    assert S1.step(CONTEXTFS, failed) == (0, None)  # type: ignore[misc]


def test_five_two_case_compares_parent_and_child() -> None:
    c = _five_two_case([Save(Record("r")), Evolve("id0001", "q"), Delete("id0001")], "id0002", "id0001")
    assert c["beta_minus_changes"] and c["ancestry_changes"] and c["ancestry_of_target_changes"] is None
    assert c["survivor"] == "id0002" and c["beta_minus_before"]["successors"] == [["evolved_from", "id0001"]]
    assert c["beta_minus_after"]["successors"] == [] and len(c["word"]) == 3
    c = _five_two_case([Save(Record("r")), Evolve("id0001", "q"), SaveAt("id0001", Record("r2"))], "id0002",
                       "id0001")
    assert c["ancestry_of_target_changes"] is True and not c["beta_minus_changes"] and c["ancestry_changes"]


# --------------------------------------------------------------------------- L2: edges and metadata


def test_l2_reads_the_declared_view_and_stray_keys() -> None:
    t = step_of(CONTEXTFS, MERGED, Evolve("id0003", "v2"), derived=frozenset({"id0003"}), seed="merged")
    found = l2_disagreement(CONTEXTFS, t.after, "id0004")
    assert found is not None
    assert (found["relation"], found["edge_targets"], found["metadata"]) == ("merged_from", [], ["id0001", "id0002"])
    assert found["text"] == ("created id0004 whose metadata says merged_from = [id0001, id0002] but it has no "
                             "merged_from edge.")
    assert l2_disagreement(CONTEXTFS, MERGED, "id0003") is None
    v = disagreement(CONTEXTFS, t.after, ["id0003", "id0004", "nowhere"])
    assert v is not None and v.offending["record"] == "id0004" and "text" not in v.offending
    n, v = L2.step(CONTEXTFS, t)  # type: ignore[misc]
    assert n == 1 and v is not None and v.explanation.startswith("evolve(id0003, 'v2') created id0004")
    same = step_of(CONTEXTFS, MERGED, Recall("id0003"), derived=frozenset({"id0003"}))
    assert L2.step(CONTEXTFS, same) == (0, None)  # type: ignore[misc]
    stray = Store.of({"j": Record("m", metadata={"merged_from": ["a"]}), "a": Record("a"), "b": Record("b")},
                     [("j", R.MERGED_FROM, "a"), ("j", R.MERGED_FROM, "b")])
    found = l2_disagreement(REPAIRED, stray, "j")
    assert found is not None and found["metadata"] == ["a"] and found["edge_targets"] == ["a", "b"]
    assert found["text"] == "created j whose metadata says merged_from = [a] but its merged_from edges go to [a, b]."
    view = record_view(REPAIRED, stray, "j")
    assert view is not None and sorted(view.metadata["merged_from"]) == ["a", "b"]
    assert record_view(CONTEXTFS, stray, "j") == stray.records["j"]


def test_the_two_metadata_fallbacks() -> None:
    s = Store.of({"a": Record("a"), "b": Record("b", metadata={"merged_from": ["a", "z"], "split_from": "q"}),
                  "c": Record("c"), "d": Record("d", metadata={"evolved_from": "c"})},
                 [("d", R.EVOLVED_FROM, "c"), ("c", R.EVOLVED_INTO, "d")])
    assert router_lineage(s, "b") == {"ancestors": [{"id": "a", "relation": "merged_from", "depth": 1},
                                                    {"id": "z", "relation": "merged_from", "depth": 1},
                                                    {"id": "q", "relation": "split_from", "depth": 1}],
                                      "descendants": []}
    assert history_lineage(s, "b") == [{"memory_id": "a", "relation": "merged_from"},
                                       {"memory_id": "z", "relation": "merged_from"}]
    assert router_lineage(s, "c") == {"ancestors": [], "descendants": [{"id": "d", "relation": "evolved_into",
                                                                        "depth": 1}]}
    assert history_lineage(s, "d") == [{"memory_id": "c", "relation": "evolved_from"}]
    assert router_lineage(s, "nowhere") == {"ancestors": [], "descendants": []} and history_lineage(s, "x") == []
    chain = Store.of({k: Record(k) for k in "pqrs"}, [("q", R.EVOLVED_FROM, "p"), ("r", R.EVOLVED_FROM, "q"),
                                                      ("s", R.EVOLVED_FROM, "r")])
    assert [e["id"] for e in router_lineage(chain, "s")["ancestors"]] == ["r", "q", "p"]
    assert [e["depth"] for e in router_lineage(chain, "s", max_depth=2)["ancestors"]] == [1, 2]


# --------------------------------------------------------------------------- L3, L7: edges


def test_one_way_edges_and_the_fault_path() -> None:
    before = Store.of({"a": Record("a")})
    after = before.with_record("b", Record("b")).with_edges([Edge("b", R.EVOLVED_FROM, "a")])
    v = one_way_edges(before, Call(Evolve("a", "b"), Allocation(("b",), 1)), after)
    assert v is not None and v.offending == {"one_way_edges": [["b", "evolved_from", "a"]]}
    assert v.explanation == "evolve(a, 'b') added (b, EVOLVED_FROM, a) but not its inverse (a, EVOLVED_INTO, b)."
    assert one_way_edges(before, Call(Evolve("a", "b")), after.with_edges([Edge("a", R.EVOLVED_INTO, "b")])) is None
    t = step_of(CONTEXTFS, TIE, Evolve("id0001", "v2"), faults=frozenset({1}))
    n, v = L3.step(CONTEXTFS, t)  # type: ignore[misc]
    assert n == 1 and v is not None
    assert L3.step(CONTEXTFS, step_of(CONTEXTFS, TIE, Save(Record("x")))) == (0, None)  # type: ignore[misc]
    fp = l3_fault_path(CONTEXTFS)
    assert not fp.holds and fp.witness["word"][0]["faults"] == [1] and fp.explored > 0
    assert l3_fault_path(REPAIRED).holds
    d = _fault_path_details(CONTEXTFS, False)["fault_path"]
    assert d["holds"] is False and d["explanation"].startswith("evolve(id0001, 'v2') [edge write 1 fails]")
    assert _fault_path_details(CONTEXTFS, True) == {} and _fault_path_details(REPAIRED, False) == {}


def test_dangling_reports_new_dangling_edges_ancestry_first() -> None:
    before = Store.of({"a": Record("a")}, [("a", R.SUPERSEDES, "old")])
    after = before.with_edges([Edge("a", R.RELATED_TO, "x"), Edge("a", R.EVOLVED_FROM, "y")])
    v = dangling(before, after, None)
    assert v is not None
    assert v.offending["dangling_edges"] == [["a", "evolved_from", "y"], ["a", "related_to", "x"]]
    assert v.offending["missing_endpoints"] == ["y"]
    assert v.explanation == "left the edge (a, EVOLVED_FROM, y) whose endpoint y holds no record"
    only = dangling(before, after, LINEAGE)
    assert only is not None and only.offending["dangling_edges"] == [["a", "evolved_from", "y"]]
    both = dangling(before, before.with_edges([Edge("p", R.MERGED_FROM, "q")]), None)
    assert both is not None and both.explanation == "left the edge (p, MERGED_FROM, q) whose endpoints p and q hold no record"
    assert dangling(before, before, None) is None
    assert dangling(before, after.without_edges([Edge("a", R.EVOLVED_FROM, "y")]), LINEAGE) is None
    st = seed_named(CONTEXTFS, "empty")
    bad_seed = type(st)(st.seed, after, 1, frozenset(), ())
    assert _at_seed(None, CONTEXTFS, bad_seed).explanation.endswith("holds no record.")  # type: ignore[union-attr]
    assert _at_seed(LINEAGE, CONTEXTFS, st) is None
    failed = step_of(CONTEXTFS, TIE, Evolve("missing", "v2"))
    assert _kept(None, CONTEXTFS, failed) == (0, None)
    t = step_of(CONTEXTFS, TIE, Supersede(UNKNOWN_ID, "id0001"))
    n, v = _kept(None, CONTEXTFS, t)
    assert n == 1 and v is not None and v.explanation.endswith("holds no record.")
    assert _kept(LINEAGE, CONTEXTFS, t) == (1, None)


UNKNOWN_ID = "missing"


def test_l7_reports_its_strong_form() -> None:
    d = _strong_form_details(CONTEXTFS, False)
    assert d["labels"].startswith("R⁻ ∪ R⁺") and d["reachable_set"].startswith("every store reachable from ∅")
    assert d["strong_form"]["holds"] is False
    assert d["strong_form"]["explanation"].startswith("supersede(missing, id0001)")
    assert _strong_form_details(REPAIRED, False)["strong_form"]["explanation"] is None
    assert l7_strong_form(REPAIRED).holds and not l7_strong_form(CONTEXTFS, alphabet="full", max_len=1).holds
    v = L7.step(CONTEXTFS, step_of(CONTEXTFS, MERGED, Delete("id0001")))  # type: ignore[misc]
    assert v == (1, None)  # ContextFS's delete removes the incident edges too


# --------------------------------------------------------------------------- L4: namespaces


def test_fibre_of() -> None:
    assert fibre_of(TWO, Save(Record("x", namespace="carol"))) == "carol"
    assert fibre_of(TWO, Evolve("id0002", "v")) == "bob"
    assert fibre_of(TWO, Merge(("id0001", "id0002"))) is None
    assert fibre_of(TIE, Merge(("id0001", "id0002"))) == "alice"
    assert fibre_of(TWO, Evolve("missing", "v")) is None
    assert fibre_of(TWO, Delete("id0001")) is None
    assert fibre_of(TWO, Evolve("id000", "v", by_prefix=True)) is None


def test_confinement_both_ways_it_can_fail() -> None:
    bad = mutant("files-in-alice").realisation
    t = step_of(bad, TWO, Evolve("id0002", "v2"), seed="two-namespaces")
    v = confinement(bad, "bob", TWO, t.call, t.output, t.after, t.theta)
    assert v is not None and v.offending["namespace"] == "bob" and "restricted_before" in v.offending
    assert "does not give (o, π_bob(s′))" in v.explanation

    def touches_bob(s: Store, a: Letter, xi: Allocation, **kw: Any) -> Any:
        out, s2 = CONTEXTFS.step(s, a, xi, **kw)
        if isinstance(a, Evolve) and isinstance(out, Created):
            for i in sorted(s2.dom()):
                if s2.records[i].namespace == "bob":
                    s2 = s2.with_record(i, s2.records[i].with_content("touched"))
        return out, s2

    real = Realisation("touches-bob", touches_bob, "")
    t = step_of(real, TWO, Evolve("id0001", "v2"), seed="two-namespaces")
    v = confinement(real, "alice", TWO, t.call, t.output, t.after, t.theta)
    assert v is not None and v.offending == {"namespace": "alice", "changed_namespace": "bob"}
    assert v.explanation == "evolve(id0001, 'v2') names only records of alice but changed namespace bob."
    ok = step_of(CONTEXTFS, TWO, Evolve("id0001", "v2"))
    assert confinement(CONTEXTFS, "alice", TWO, ok.call, ok.output, ok.after, ok.theta) is None
    assert L4I.step(CONTEXTFS, ok) == (1, None)  # type: ignore[misc]
    assert L4I.step(CONTEXTFS, step_of(CONTEXTFS, TWO, Merge(("id0001", "id0002")))) == (0, None)  # type: ignore
    stale = Transition(ok.start, (), TWO, Call(ok.call.letter, Allocation(("id0002",), 9)), ok.output, ok.after,
                       frozenset())
    assert L4I.step(CONTEXTFS, stale) == (0, None)  # type: ignore[misc]  # not strictly fresh


def test_perturbations_alter_every_field_outside_the_namespace() -> None:
    r = Record("c", type="fact", namespace="n", tags={"t"}, metadata={"k": 1}, valid_time=3, summary="s")
    a = _alter(r)
    assert a.content == "c (altered)" and a.type == "decision" and a.tags == {"t", "altered"}
    assert a.summary == "altered" and a.metadata == {"k": 1, "altered": True} and a.valid_time == 103
    assert a.namespace == "n" and _alter(Record("x")).valid_time == 100
    assert _alter(a).type == "fact" and _alter(Record("x", type="episodic")).type == "fact"
    assert _record_diff(r, a) == ["content", "type", "tags", "summary", "valid_time", "metadata.altered"]
    assert _record_diff(r, r) == [] and _record_diff(None, r) == ["presence"] and _record_diff(r, None) == ["presence"]
    assert _record_diff(r, r.evolve(namespace="m", metadata={"k": 2})) == ["namespace", "metadata.k"]
    ps = perturbations(TWO, "alice")
    assert [label for label, _ in ps] == ["record id0002 altered", "the restriction π_alice(s)"]
    assert ps[0][1].records["id0002"] == _alter(TWO.records["id0002"]) and ps[1][1] == restrict(TWO, "alice")
    assert perturbations(TIE, "alice") == []


def test_construction_locality_finds_the_foreign_payload() -> None:
    t = step_of(CONTEXTFS, TWO, Merge(("id0001", "id0002")), seed="two-namespaces")
    n, v = L4II.step(CONTEXTFS, t)  # type: ignore[misc]
    assert n == 1 and v is not None
    assert v.offending["perturbation"] == "record id0002 altered" and v.offending["record"] == "id0003"
    assert v.offending["differs_in"] == ["content", "type", "tags", "metadata.altered"]
    assert v.explanation == ("merge(id0001, id0002) files id0003 in alice, yet with record id0002 altered (π_alice "
                             "unchanged) the record at id0003 differs in content, type, tags, metadata.altered: it "
                             "carries payload from outside alice.")
    assert set(v.extra) == {"other_before", "other_after", "other_output"}
    other = TWO.with_record("id0002", _alter(TWO.records["id0002"]))
    out2, after2 = CONTEXTFS.step(other, t.call.letter, t.call.allocation, theta=t.theta)
    assert v.offending == {"namespace": "alice", "record": "id0003", "differs_in": v.offending["differs_in"],
                           "perturbation": "record id0002 altered",
                           "record_after": record_to_json(t.after.records["id0003"]),
                           "other_record_after": record_to_json(after2.records["id0003"])}
    assert v.extra == {"other_before": store_to_json(other), "other_after": store_to_json(after2),
                       "other_output": output_to_json(out2)}
    assert L4II.step(CONTEXTFS, step_of(CONTEXTFS, TWO, Evolve("id0001", "v2"))) == (2, None)  # type: ignore
    assert L4II.step(CONTEXTFS, step_of(CONTEXTFS, TWO, Recall("id0001"))) == (0, None)  # type: ignore[misc]
    assert L4II.step(REPAIRED, step_of(REPAIRED, TWO, Merge(("id0001", "id0002")))) == (0, None)  # type: ignore


# --------------------------------------------------------------------------- L5: θ


def test_theta_variants_per_kind_of_call() -> None:
    def variants(a: Letter) -> list[Theta]:
        return theta_variants(step_of(CONTEXTFS, TIE, a))

    down = Theta(descending=True)
    assert variants(Merge(("id0001", "id0002"))) == [Theta(type_priority=("decision",)),
                                                     Theta(type_priority=("fact",)), down]
    assert variants(Merge(("id0001", "id0002"), type="fact")) == [down]
    assert variants(Evolve("id0001", "x")) == [down]
    ids = [Theta(id_priority=("id0001",)), Theta(id_priority=("id0002",)), down]
    assert variants(RecallPrefix("id000")) == ids == variants(Evolve("id000", "x", by_prefix=True))


def test_consults_theta_and_independence() -> None:
    merge = step_of(CONTEXTFS, TIE, Merge(("id0001", "id0002")))
    assert consults_theta(CONTEXTFS, merge) and not consults_theta(CONTEXTFS, step_of(CONTEXTFS, TIE, Save(Record("x"))))
    assert not consults_theta(REPAIRED, step_of(REPAIRED, TIE, Merge(("id0001", "id0002"))))
    n, v = L5.step(CONTEXTFS, merge)  # type: ignore[misc]
    assert n == 1 and v is not None and v.offending["tied_types"] == ["decision", "fact"]
    assert v.extra["other_theta"] == {"type_priority": ["fact"], "id_priority": [], "descending": False}
    assert L5.step(REPAIRED, step_of(REPAIRED, TIE, Merge(("id0001", "id0002")))) == (1, None)  # type: ignore
    assert L5.step(CONTEXTFS, step_of(CONTEXTFS, TIE, Evolve("id0001", "x"))) == (1, None)  # type: ignore[misc]

    def identity_sensitive(s: Store, a: Letter, xi: Allocation, *, theta: Theta = Theta(), **kw: Any) -> Any:
        out, s2 = CONTEXTFS.step(s, a, xi, **kw)
        return (out, s2) if theta == Theta() else (out, s)

    real = Realisation("reads-theta-by-equality", identity_sensitive, "")
    assert consults_theta(real, step_of(real, TIE, Save(Record("x"))))


def test_explanations_of_theta_dependence() -> None:
    merge = step_of(CONTEXTFS, TIE, Merge(("id0001", "id0002")))
    other = CONTEXTFS.step(TIE, merge.call.letter, merge.call.allocation, theta=Theta(type_priority=("fact",)))[0]
    offending, text = _explain(merge, other)
    assert offending == {"record": "id0003", "field": "type", "tied_types": ["decision", "fact"],
                         "value": "decision", "other_value": "fact"}
    assert text == ("merge(id0001, id0002): the argument types decision and fact tie, and the undeclared choice c "
                    "decides the merged type — decision under θ, fact under θ′.")
    recall = step_of(CONTEXTFS, TIE, RecallPrefix("id000"))
    offending, text = _explain(recall, Found("id0002", TIE.records["id0002"]))
    assert offending == {"output_id": "id0001", "other_output_id": "id0002"}
    assert text.startswith("recall_prefix(id000…) returns id0001 under θ and id0002 under θ′")
    same_type = CONTEXTFS.step(TIE, merge.call.letter, merge.call.allocation)[0]
    offending, text = _explain(merge, same_type)
    assert set(offending) == {"output", "other_output"} and text.endswith("under θ′ than under θ.")
    assert _merged_type(CONTEXTFS, TIE, merge.call, Theta(type_priority=("fact",))) == "fact"
    assert _merged_type(CONTEXTFS, TIE, Call(Merge(("id0001", "missing")), merge.call.allocation), Theta()) == "err"


# --------------------------------------------------------------------------- L6: histories


def test_kappa_writes_valid_time_where_the_letter_has_room() -> None:
    assert kappa(Save(Record("r")), 5).record.valid_time == 5  # type: ignore[attr-defined]
    for a in (Evolve("i", "c"), Merge(("i", "k")), Split("i", ("p", "q"))):
        assert kappa(a, 7).valid_time == 7  # type: ignore[attr-defined]
    assert kappa(Recall("i"), 7) == Recall("i") and kappa(Delete("i"), 3) == Delete("i")


def test_psi_records_and_says_whether_the_history_records() -> None:
    calls = [Call(Save(Record("r")), Allocation(("id0001",), 1)), Call(Evolve("id0001", "c"), Allocation(("id0002",), 2))]
    s, rec = _psi(REPAIRED, calls, [4, 6])
    assert rec and s.records["id0001"].valid_time == 4 and s.records["id0002"].valid_time == 6
    s, rec = _psi(REPAIRED, calls + [Call(Evolve("missing", "c"), Allocation(("id0003",), 3))], [4, 6, 8])
    assert not rec and set(s.dom()) == {"id0001", "id0002"}
    assert _psi(REPAIRED, [Call(Recall("id0001"), Allocation((), 1))], [1])[1] is False


def test_l6_search_reports_its_histories() -> None:
    v = search_L6(CONTEXTFS, 2, 5, 7)
    assert not v.holds and v.explored == 2
    w = v.witness
    assert w["h"] == [{"call": w["word"][0] | {"letter": {**w["word"][0]["letter"],
                                                          "record": {**w["word"][0]["letter"]["record"],
                                                                     "valid_time": 1}}},
                       "tt": 1, "vt": 1}]
    assert [x["vt"] for x in w["h_prime"]] == [2] and w["offending"] == {"vt_h": [1], "vt_h_prime": [2],
                                                                         "psi_equal": True}
    assert w["explanation"].startswith("the histories save('new' in alice) with valid times [1] and [2]")
    assert v.details["reading"].endswith("this realisation declares no such channel")
    assert (v.details["exhaustive_length"], v.details["states"], v.details["random_walks"]) == (0, 1, 0)
    ok = search_L6(REPAIRED, 2, 3, 7)
    assert ok.holds and not ok.details["reading"].endswith("no such channel")
    assert (ok.details["exhaustive_length"], ok.details["random_walks"]) == (2, 3) and ok.details["states"] > 1
    assert ok.explored > search_L6(REPAIRED, 2, 0, 7).explored
    assert ok.summary.startswith("L6 holds on 'repaired': no two histories")


def test_l6_random_histories_find_what_short_words_miss() -> None:
    def forgets_on_evolve(s: Store, a: Letter, xi: Allocation, **kw: Any) -> Any:
        """An evolve wipes every valid time in the store: invisible to histories of one call."""
        out, s2 = REPAIRED.step(s, a, xi, **kw)
        if isinstance(a, Evolve) and isinstance(out, Created):
            for j in sorted(s2.dom()):
                s2 = s2.with_record(j, s2.records[j].evolve(valid_time=None))
        return out, s2

    real = Realisation("forgets-on-evolve", forgets_on_evolve, "", declares_valid_time=True)
    assert search_L6(real, 1, 0, 7).holds
    v = search_L6(real, 1, 60, 7)
    assert not v.holds and v.witness["minimality"] == "found by seeded random exploration"
    assert any(c["letter"]["op"] == "evolve" for c in v.witness["word"])


# --------------------------------------------------------------------------- S2–S4: the schema


def test_local_construction_branches() -> None:
    t = step_of(CONTEXTFS, TIE, Evolve("id0001", "v2"))
    assert S2.step(CONTEXTFS, t) == (1, None)  # type: ignore[misc]
    assert S2.step(CONTEXTFS, step_of(CONTEXTFS, TIE, Recall("id0001"))) == (0, None)  # type: ignore[misc]
    assert S2.step(CONTEXTFS, step_of(CONTEXTFS, TIE, Evolve("missing", "v2"))) == (1, None)  # type: ignore[misc]
    reads = mutant("reads-the-store").realisation
    n, v = S2.step(reads, step_of(reads, TIE, Evolve("id0001", "v2")))  # type: ignore[misc]
    assert n == 1 and v is not None and v.explanation.endswith("reads more of the store than the identifiers it names.")
    assert set(v.offending) == {"local_before", "local_output", "output", "new", "local_new"}
    alice = mutant("files-in-alice").realisation
    n, v = S2.step(alice, step_of(alice, TWO, Evolve("id0002", "v2")))  # type: ignore[misc]
    assert v is not None and v.offending == {"record": "id0003", "namespace": "alice", "named_namespaces": ["bob"]}
    save = step_of(alice, TWO, Save(Record("x", namespace="carol")))
    assert S2.step(alice, save) == (1, None)  # type: ignore[misc]

    def points_elsewhere(s: Store, a: Letter, xi: Allocation, **kw: Any) -> Any:
        out, s2 = CONTEXTFS.step(s, a, xi, **kw)
        if isinstance(a, Evolve) and isinstance(out, Created):
            s2 = s2.with_edges([Edge(out.ids[0], R.EVOLVED_FROM, "nowhere")])
        return out, s2

    real = Realisation("points-elsewhere", points_elsewhere, "")
    n, v = S2.step(real, step_of(real, TIE, Evolve("id0001", "v2")))  # type: ignore[misc]
    assert v is not None and v.offending == {"edges": [["id0003", "evolved_from", "nowhere"]]}
    assert v.explanation.endswith("wrote the ancestry edge (id0003, EVOLVED_FROM, nowhere) to an unresolved identifier.")


def test_edge_support_and_ancestry_direction() -> None:
    extra = mutant("extra-edge").realisation
    n, v = S3.step(extra, step_of(extra, TIE, Evolve("id0001", "v2")))  # type: ignore[misc]
    assert n == 1 and v is not None and v.offending["support"] == ["id0001", "id0003"]
    assert ["id0003", "related_to", "elsewhere"] in v.offending["edges"]
    another = mutant("relates-to-another").realisation
    t = step_of(another, TIE, Evolve("id0001", "v2"))
    assert S3.step(another, t) == (1, None)  # type: ignore[misc]  # on s|a it writes no such edge …
    n, v = S1.step(another, t)  # type: ignore[misc]  # … so E′ ≠ E ∪ W
    assert n == 1 and v is not None and ["id0003", "related_to", "id0002"] in v.offending["edges_after"]
    assert ["id0003", "related_to", "id0002"] not in v.offending["written"]
    assert S3.step(CONTEXTFS, step_of(CONTEXTFS, TIE, Evolve("id0001", "v2"))) == (1, None)  # type: ignore[misc]
    assert S3.step(CONTEXTFS, step_of(CONTEXTFS, TIE, Evolve("missing", "v2"))) == (0, None)  # type: ignore[misc]
    old = mutant("ancestry-out-of-old").realisation
    n, v = S4.step(old, step_of(old, TIE, Evolve("id0001", "v2")))  # type: ignore[misc]
    assert v is not None and v.offending == {"edges": [["id0001", "evolved_from", "id0003"]]}
    assert S4.step(CONTEXTFS, step_of(CONTEXTFS, TIE, Merge(("id0001", "id0002")))) == (1, None)  # type: ignore


# --------------------------------------------------------------------------- §5 helpers


def test_stability_at_one_step() -> None:
    bad = step_of(mutant("ancestry-out-of-old").realisation, TIE, Evolve("id0001", "v2"))
    changed = _stable(bad)
    assert changed is not None and changed["id"] == "id0001" and changed["what"] == "β⁻"
    assert changed["after"]["successors"] == [["evolved_from", "id0003"]]
    over = step_of(mutant("overwrites-parent").realisation, MERGED, Evolve("id0001", "v2"))
    changed = _stable(over)
    assert changed is not None and changed["id"] == "id0001" and changed["what"] == "β⁻"
    assert _stable(step_of(CONTEXTFS, MERGED, Evolve("id0003", "v2"))) is None


def test_ac_plus_failures_are_named() -> None:
    assert _ac_plus_failure(MERGED) is None
    assert _ac_plus_failure(Store.of({}, [("k", R.EVOLVED_FROM, "y")])) == "AC⁺"
    assert _ac_plus_failure(Store.of({"k": Record("k")}, [("k", R.EVOLVED_FROM, "y")])) is not None
    one_way = Store.of({"a": Record("a"), "b": Record("b")}, [("b", R.EVOLVED_FROM, "a")])
    assert _ac_plus_failure(one_way) in ("AC⁺", "inverse closure")


def test_merge_helpers() -> None:
    ok, once, twice = _idempotent(CONTEXTFS, Merge(("id0001", "id0002")), TIE, 3)
    assert ok is True and len(twice.dom()) == len(once.dom()) + 1
    assert _idempotent(CONTEXTFS, Merge(("id0001", "missing")), TIE, 3) == (None, TIE, TIE)
    bad = mutant("merge-stamps-clock").realisation
    assert _idempotent(bad, Merge(("id0001", "id0002")), TIE, 3)[0] is False
    a, b = Record("x", metadata={"merge_timestamp": 1}), Record("y", metadata={"merge_timestamp": 2, "k": 1})
    assert _order_fields(a, b) == ["content", "metadata.k"] and _order_fields(a, a) == []
    cfs, n = _first_non_commuting(CONTEXTFS)
    assert n >= 1 and cfs is not None and cfs["seed"] == "tie"
    assert cfs["order_sensitive_fields"] == ["content", "metadata.merged_from"]
    rep, _ = _first_non_commuting(REPAIRED)
    assert rep is not None and rep["order_sensitive_fields"] == ["content"]


def test_the_monoid_pool() -> None:
    pool = _pool()
    assert pool[0] == EMPTY and len(pool) == len(set(pool)) >= 10
    assert any(any(i.startswith("x") for i in s.dom()) for s in pool)
    assert any(s.dangling_edges() for s in pool)
    assert _union(TIE, TIE) is None and _union(TIE, EMPTY) == TIE


def test_seeds_are_what_the_checks_assume() -> None:
    """The tests above name identifiers of the seeds; the seeds are what they say."""
    assert [sd.name for sd in SEEDS] == ["empty", "tie", "two-namespaces", "merged"]
    assert {r.type for r in TIE.records.values()} == {"fact", "decision"}
    assert {r.namespace for r in TWO.records.values()} == {"alice", "bob"}
    assert sorted(MERGED.dom()) == ["id0001", "id0002", "id0003"]


@pytest.mark.parametrize("real", [CONTEXTFS, REPAIRED], ids=lambda r: r.name)
def test_every_predicate_is_quiet_on_a_plain_evolve(real: Realisation) -> None:
    t = step_of(real, TIE, Evolve("id0001", "v2"), seed="tie")
    for clause in (L1, L3, L4I, L4II, S1, S2, S3, S4):
        n, v = clause.step(real, t)  # type: ignore[misc]
        assert v is None and n >= (0 if clause is L4II else 1), clause.key  # no record outside alice to alter


# =========================================================================== the helpers behind witnesses



def _renamed(s: Store) -> Store:
    return Store.of({f"x{i}": r for i, r in s.records.items()},
                    [(f"x{e.source}", e.relation, f"x{e.target}") for e in s.edges])


# --------------------------------------------------------------------------- the monoid pool (3.6)


def test_the_pool_is_the_seeds_some_successors_two_renamed_copies_and_a_dangling_store() -> None:
    pool = _pool()
    assert pool[0] == EMPTY and len(pool) == 13 and len(set(pool)) == 13
    assert pool[1:4] == [TIE, TWO, MERGED]
    renamed = [s for s in pool if any(i.startswith("x") for i in s.dom())]
    assert renamed == pool[-3:-1] == [_renamed(TIE), _renamed(TWO)]
    assert pool[-1] == Store.of({"y1": Record("y")}, [("y1", R.SUPERSEDES, "id0001")])
    # the rest are one fragment step from a seed: stores of one to four records named id000k
    steps = pool[4:-3]
    assert len(steps) == 6 and all(s.dom() and all(i.startswith("id000") for i in s.dom()) for s in steps)
    assert not set(steps) & {TIE, TWO, MERGED}


def test_the_renamed_copies_keep_their_edges() -> None:
    m = _renamed(MERGED)
    assert m.edges and all(e.source.startswith("x") and e.target.startswith("x") for e in m.edges)
    assert len(m.edges) == len(MERGED.edges)


# --------------------------------------------------------------------------- merge order (5.25)


def _sorted_merges(s: Store, a: Letter, xi: Allocation = Allocation(), **kw: Any) -> Any:
    """ContextFS, except that a merge reads its arguments in sorted order: merge commutes."""
    if isinstance(a, Merge):
        a = Merge(tuple(sorted(a.ids)), a.content, a.type, a.summary, a.namespace)
    return CONTEXTFS.step(s, a, xi, **kw)


def test_the_first_non_commuting_merge_is_the_tie_pair_with_the_next_clock() -> None:
    found, tried = _first_non_commuting(CONTEXTFS)
    assert tried == 1 and found is not None and found["seed"] == "tie"
    assert found["store"] == store_to_json(TIE)
    assert found["merge_i_k"]["letter"]["ids"] == ["id0001", "id0002"]
    assert found["merge_k_i"]["letter"]["ids"] == ["id0002", "id0001"]
    assert found["merge_i_k"]["allocation"] == found["merge_k_i"]["allocation"] == {"ids": ["id0003"], "clock": 3}
    assert found["after_i_k"] != found["after_k_i"]


def test_when_every_merge_commutes_each_pair_without_metadata_is_tried_once() -> None:
    """Pairs i < k of records with empty metadata: one in tie, one in two-namespaces, and in merged
    only (id0001, id0002) — id0003 carries merged_from.  The empty seed has none."""
    real = Realisation("sorted-merges", _sorted_merges, "merge reads its arguments sorted")
    assert _first_non_commuting(real) == (None, 3)


# --------------------------------------------------------------------------- Proposition 5.2 cases


def test_five_two_case_reads_the_last_two_states_of_a_longer_word() -> None:
    word = [Save(Record("r")), Save(Record("s")), Evolve("id0001", "q"), Delete("id0001")]
    c = _five_two_case(word, "id0003", "id0001")
    s = EMPTY
    states = [s]
    for clock, (a, new) in enumerate(zip(word, (("id0001",), ("id0002",), ("id0003",), ())), start=1):
        s = CONTEXTFS.step(s, a, Allocation(new, clock))[1]
        states.append(s)
    before, after = states[-2], states[-1]
    assert set(c) == {"start", "word", "before", "after", "survivor", "beta_minus_before", "beta_minus_after",
                      "beta_minus_changes", "ancestry_changes", "ancestry_of_target_changes"}
    assert c["start"] == store_to_json(EMPTY) and len(c["word"]) == 4
    assert c["before"] == store_to_json(before) and c["after"] == store_to_json(after)
    assert "id0001" in before.dom() and "id0001" not in after.dom()
    assert c["beta_minus_after"]["successors"] == [] and beta_minus(after, "id0003").successors == ()
    assert c["ancestry_changes"] is not ancestry_bisimilar(before, "id0003", after, "id0003")


def test_five_two_case_when_nothing_changes() -> None:
    c = _five_two_case([Save(Record("r")), Evolve("id0001", "q"), Save(Record("t"))], "id0002", "id0001")
    assert c["beta_minus_changes"] is False and c["ancestry_changes"] is False
    assert c["ancestry_of_target_changes"] is False
    assert c["beta_minus_before"] == c["beta_minus_after"] and c["beta_minus_after"]["successors"] == [
        ["evolved_from", "id0001"]]


# --------------------------------------------------------------------------- the lineage fallbacks (5.14)


def test_the_edge_walk_lists_a_shared_ancestor_once_at_its_first_depth() -> None:
    s = Store.of({k: Record(k) for k in "abcd"},
                 [("b", R.MERGED_FROM, "a"), ("b", R.MERGED_FROM, "c"), ("a", R.EVOLVED_FROM, "d"),
                  ("c", R.EVOLVED_FROM, "d"), ("d", R.EVOLVED_INTO, "a"), ("d", R.EVOLVED_INTO, "c"),
                  ("a", R.MERGED_INTO, "b"), ("c", R.MERGED_INTO, "b")])
    assert router_lineage(s, "b") == {"ancestors": [{"id": "a", "relation": "merged_from", "depth": 1},
                                                    {"id": "c", "relation": "merged_from", "depth": 1},
                                                    {"id": "d", "relation": "evolved_from", "depth": 2}],
                                      "descendants": []}
    assert router_lineage(s, "d") == {"ancestors": [],
                                      "descendants": [{"id": "a", "relation": "evolved_into", "depth": 1},
                                                      {"id": "c", "relation": "evolved_into", "depth": 1},
                                                      {"id": "b", "relation": "merged_into", "depth": 2}]}
    assert history_lineage(s, "b") == [{"memory_id": "a", "relation": "merged_from"},
                                       {"memory_id": "c", "relation": "merged_from"},
                                       {"memory_id": "d", "relation": "evolved_from"}]
    assert history_lineage(s, "d") == []


def test_the_walks_stop_at_depth_ten_by_default() -> None:
    ids = [f"n{k:02}" for k in range(13)]
    chain = Store.of({i: Record(i) for i in ids}, [(ids[k + 1], R.EVOLVED_FROM, ids[k]) for k in range(12)])
    anc = router_lineage(chain, "n12")["ancestors"]
    assert [e["id"] for e in anc] == ids[11:1:-1] and anc[-1]["depth"] == 10
    assert [e["memory_id"] for e in history_lineage(chain, "n12")] == ids[11:1:-1]
    assert len(history_lineage(chain, "n12", max_depth=3)) == 3


def test_a_metadata_fallback_takes_a_multi_letter_identifier_whole() -> None:
    s = Store.of({"b": Record("b", metadata={"evolved_from": "parent-1"}),
                  "c": Record("c", metadata={"merged_from": ("p1", "p2")})})
    assert router_lineage(s, "b")["ancestors"] == [{"id": "parent-1", "relation": "evolved_from", "depth": 1}]
    assert history_lineage(s, "b") == [{"memory_id": "parent-1", "relation": "evolved_from"}]
    assert history_lineage(s, "c") == [{"memory_id": "p1", "relation": "merged_from"},
                                       {"memory_id": "p2", "relation": "merged_from"}]


# --------------------------------------------------------------------------- the schema (Def. 3.23)


def _refuses(s: Store, a: Letter, xi: Allocation = Allocation(), **kw: Any) -> Any:
    return Err("refused"), s


def test_check_schema_gives_s1_to_s4_in_order() -> None:
    """A realisation that refuses every call meets every clause (nothing is created); the search is tiny."""
    vs = check_schema(Realisation("refuses", _refuses, "every call is refused"))
    assert [v.item for v in vs] == ["S1", "S2", "S3", "S4"] and all(v.holds for v in vs)


def test_ac_plus_failures_by_name() -> None:
    assert _ac_plus_failure(Store.of({"k": Record("k")}, [("k", R.EVOLVED_FROM, "y")])) == "AC⁺"
    one_way = Store.of({"a": Record("a"), "b": Record("b")}, [("b", R.EVOLVED_FROM, "a")])
    assert _ac_plus_failure(one_way) == "inverse closure"
    both = Store.of({"a": Record("a"), "b": Record("b")}, [("b", R.EVOLVED_FROM, "a"), ("a", R.EVOLVED_INTO, "b")])
    assert _ac_plus_failure(both) is None


# --------------------------------------------------------------------------- L6 on recording histories


def test_l6_counts_every_word_under_every_assignment_of_valid_times() -> None:
    """From ∅ the recording words are 1 of length one and 3 of length two (an exact exploration);
    each is recorded under |TIMES|^k valid-time assignments, and each random walk adds two."""
    ex = explore(REPAIRED, "recording", max_len=2, seeds=SEEDS[:1], reduce=False)
    n1, n2 = len(list(ex.nodes(1))), len(list(ex.nodes(2)))
    t = len(TIMES)
    v = search_L6(REPAIRED, 2, 0, 7)
    assert (v.item, v.kind, v.holds, v.witness) == ("L6", "property", True, None)
    assert v.explored == n1 * t + n2 * t * t and v.details == {
        "reading": _READING, "exhaustive_length": 2, "states": n1 + n2, "random_walks": 0}
    assert v.summary == f"L6 holds on 'repaired': {_HOLDS.format(n=v.explored)}"
    assert search_L6(REPAIRED, 2, 3, 7).explored == v.explored + 2 * 3
    assert search_L6(REPAIRED, 2, 1, 7).explored == v.explored + 2


def test_l6_counterexample_in_full() -> None:
    v = search_L6(CONTEXTFS, 2, 5, 7)
    assert (v.item, v.kind, v.holds, v.explored) == ("L6", "counterexample", False, 2)
    text = ("the histories save('new' in alice) with valid times [1] and [2] differ only in valid time yet "
            "record the same store, so no function of the store recovers valid time.")
    assert v.summary == f"L6 fails on 'contextfs': {text}"
    w = v.witness
    assert w is not None and w["explanation"] == text and w["length"] == 1 and w["seed"] == "empty"
    assert set(w) == {"seed", "start", "word", "theta", "after", "h", "h_prime", "offending", "explanation",
                      "length", "minimality"}
    assert w["start"] == store_to_json(EMPTY) and w["theta"] == theta_to_json(DEFAULT_THETA)
    (call,) = [call_from_json(c) for c in w["word"]]
    assert w["after"] == store_to_json(CONTEXTFS.step(EMPTY, call.letter, call.allocation)[1])


def _forgets_on_evolve(s: Store, a: Letter, xi: Allocation = Allocation(), **kw: Any) -> Any:
    """REPAIRED, except that an evolve wipes every valid time: invisible to histories of one call."""
    out, s2 = REPAIRED.step(s, a, xi, **kw)
    if isinstance(a, Evolve) and isinstance(out, Created):
        for j in sorted(s2.dom()):
            s2 = s2.with_record(j, s2.records[j].evolve(valid_time=None))
    return out, s2


def test_l6_random_histories_are_seeded_clocked_and_shift_only_the_first_valid_time() -> None:
    real = Realisation("forgets-on-evolve", _forgets_on_evolve, "", declares_valid_time=True)
    v = search_L6(real, 1, 60, 7)
    assert not v.holds and v.witness is not None and v.details["random_walks"] == 60
    assert search_L6(real, 1, 60, 7).witness == v.witness  # the seed fixes the walk
    w = v.witness
    clocks = [c["allocation"]["clock"] for c in w["word"]]
    assert clocks == sorted(clocks) and clocks[0] >= 1 and all(b > a for a, b in pairwise(clocks))
    assert clocks[-1] <= RANDOM_HISTORY_LENGTH and [h["tt"] for h in w["h"]] == clocks
    vt, vt2 = w["offending"]["vt_h"], w["offending"]["vt_h_prime"]
    assert vt2[1:] == vt[1:] and vt2[0] == TIMES[(TIMES.index(vt[0]) + 1) % len(TIMES)]
    assert v.explored % 2 == 0 and v.explored >= 2 + 2  # one word of length one (two histories), then walks


# =========================================================================== single clause steps, exactly


def test_s1_counts_each_creating_call_once() -> None:
    assert S1.step(CONTEXTFS, step_of(CONTEXTFS, TIE, Evolve("id0001", "v2"))) == (1, None)  # type: ignore[misc]
    assert S1.step(CONTEXTFS, step_of(CONTEXTFS, TIE, Recall("id0001"))) == (0, None)  # type: ignore[misc]


def _merges_under_each_type_order(s: Store, ids: tuple[str, str]) -> list[Transition]:
    """The merge of ``ids`` (a fact and a decision) under θ preferring decision, then fact."""
    return [step_of(CONTEXTFS, s, Merge(ids), theta=Theta(type_priority=(first,))) for first in ("decision", "fact")]


def test_s2_reruns_the_call_under_the_same_theta() -> None:
    """A merge of a fact and a decision takes its type from θ; run locally under another θ it would differ."""
    merges = _merges_under_each_type_order(TIE, ("id0001", "id0002"))
    assert {t.output.items[0][1].type for t in merges} == {"fact", "decision"}  # type: ignore[union-attr]
    for t in merges:
        assert S2.step(CONTEXTFS, t) == (1, None)  # type: ignore[misc]


def _s2_reference(real: Realisation, t: Transition) -> bool:
    """S2 from its definition: on s|a (the named records, no edges) the call has the same output, N and new
    records, and a failing call changes nothing.  Written here, apart from coalg.laws.schema."""
    a = t.call.letter
    local = Store.of({i: t.before.records[i] for i in named(a) if i in t.before.records})
    out, after = real.step(local, a, t.call.allocation, theta=t.theta, faults=t.call.faults)
    new = set(t.after.records) - set(t.before.records)
    same = (out == t.output and set(after.records) - set(local.records) == new
            and all(after.records[j] == t.after.records[j] for j in new))
    return same and (t.ok or t.after == t.before)


def test_s2_reruns_the_call_with_the_same_failing_edge_writes() -> None:
    """S2's verdict equals the reference's on every fragment call at two seeds, under each single failing edge
    write, for ContextFS and for a mutant whose evolve reads the store; the re-run keeps the faults."""
    t = step_of(CONTEXTFS, TIE, Evolve("id0001", "v2"), faults=frozenset({1}))
    assert len(t.after.edges - t.before.edges) == 1  # half a pair: only a re-run with the fault agrees
    verdicts: dict[str, list[bool]] = {}
    for real in (CONTEXTFS, mutant("reads-the-store").realisation):
        for s in (TIE, TWO):
            for a in fragment_alphabet(s):
                if a.kind == "recall":
                    continue
                for faults in (frozenset(), frozenset({0}), frozenset({1})):
                    t = step_of(real, s, a, faults=faults)
                    n, v = S2.step(real, t)  # type: ignore[misc]
                    assert n == 1 and (v is None) == _s2_reference(real, t), (real.name, a, faults)
                    verdicts.setdefault(real.name, []).append(v is None)
    assert all(verdicts["contextfs"]) and not all(verdicts["reads-the-store"])


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
    assert v.offending == {"edges": [["elsewhere", "related_to", "id0003"], ["id0003", "related_to", "elsewhere"]],
                           "support": ["id0001", "id0003"]}
    assert v.explanation == "evolve(id0001, 'v2') wrote (elsewhere, RELATED_TO, id0003), outside (N ∪ nm(a))²."


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
    merges = _merges_under_each_type_order(s, ("a1", "a2"))
    assert {t.output.items[0][1].type for t in merges} == {"fact", "decision"}  # type: ignore[union-attr]
    for t in merges:
        assert L4II.step(CONTEXTFS, t) == (2, None)  # type: ignore[misc]


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


# --------------------------------------------------------------------------- Theorem 5.7, one transition at a time


def test_stable_reports_the_first_old_record_whose_beta_minus_changed_in_full() -> None:
    over = step_of(mutant("overwrites-parent").realisation, MERGED, Evolve("id0001", "v2"))
    assert _stable(over) == {"id": "id0001", "what": "β⁻",
                             "before": observation_json(beta_minus(MERGED, "id0001")),
                             "after": observation_json(beta_minus(over.after, "id0001"))}


def test_stable_reports_an_ancestry_change_below_an_unchanged_record() -> None:
    """b evolved from m, m from z: rewriting z keeps β⁻(b) (same record, same successor m) but not ⟦b⟧⁻."""
    edges = [("b", R.EVOLVED_FROM, "m"), ("m", R.EVOLVED_FROM, "z")]
    before = Store.of({"b": Record("b"), "m": Record("m"), "z": Record("z")}, edges)
    after = Store.of({"b": Record("b"), "m": Record("m"), "z": Record("z2")}, edges)
    step = SimpleNamespace(before=before, after=after)
    assert beta_minus(before, "b") == beta_minus(after, "b")
    assert _stable(step) == {"id": "b", "what": "ancestry unfolding",  # type: ignore[arg-type]
                             "before": ancestry(before, "b").render(), "after": ancestry(after, "b").render()}
    assert ancestry(before, "b").render() != ancestry(after, "b").render()


def test_theorem_5_7_counts_creating_calls_on_ancestry_closed_stores_then_walks() -> None:
    def counted(ts: Any) -> int:
        return sum(1 for t in ts if is_creating_call(t.call.letter) and t.before.is_ancestry_closed())

    exhaustive = counted(explore(CONTEXTFS, "fragment", max_len=1).transitions())
    assert _theorem_5_7(CONTEXTFS, 1, 0, 5) == (exhaustive, None) and exhaustive > 10
    walks = counted(random_transitions(CONTEXTFS, "fragment", runs=2, length=8, seed=5))
    assert walks > 0 and _theorem_5_7(CONTEXTFS, 1, 2, 5) == (exhaustive + walks, None)
    n, found = _theorem_5_7(mutant("overwrites-parent").realisation, 1, 0, 5)
    assert found is not None and found["changed"]["what"] == "β⁻" and 1 <= n <= exhaustive


def test_s2_names_a_failing_call_that_changed_the_store() -> None:
    """S2 says a failing call changes nothing: a split of a missing record that keeps one part breaks it."""
    def keeps_a_part(s: Store, a: Letter, xi: Allocation, **kw: Any) -> Any:
        out, s2 = CONTEXTFS.step(s, a, xi, **kw)
        if isinstance(a, Split) and isinstance(out, Err) and xi.ids:
            s2 = s2.with_record(xi.ids[0], Record(a.contents[0]))
        return out, s2

    real = Realisation("keeps-a-part", keeps_a_part, "")
    t = step_of(real, TIE, Split("missing", ("p", "q")))
    assert not t.ok and t.after != t.before
    n, v = S2.step(real, t)  # type: ignore[misc]
    assert n == 1 and v is not None and v.explanation.endswith("failed but changed the store.")
    assert S2.step(CONTEXTFS, step_of(CONTEXTFS, TIE, Split("missing", ("p", "q")))) == (1, None)  # type: ignore[misc]
