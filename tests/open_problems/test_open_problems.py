"""The paper's six open problems as executable proposals (``coalg.open_problems``).

For each open problem: the registered item (``test_item_OP<n>``: the verdict holds, its
witness carries every rejected alternative's counterexample, and the JSON is stable),
property tests that the proposal satisfies its law, and one test per rejected
alternative showing its counterexample.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import random
import sqlite3
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from budget import budget
from hypothesis import given
from hypothesis import strategies as st
from strategies import call_sequences, closed_stores, fragment_stores, stores

from coalg.bisim import allocation_blind_bisimilar
from coalg.bitemporal import Timeline, VersionEntry
from coalg.composition import frame_property
from coalg.model import (
    ANCESTRY,
    CONTEXTFS,
    REPAIRED,
    Allocation,
    Call,
    Created,
    Delete,
    Err,
    Evolve,
    Merge,
    Recall,
    RecallPrefix,
    Record,
    Relation,
    Save,
    Split,
    Theta,
    is_tombstone,
    run,
)
from coalg.model.store import EMPTY, Edge, Store, mention_disjoint_union
from coalg.open_problems import (
    PROPOSED,
    SOFT_DELETE,
    check_op1,
    check_op2,
    check_op3,
    check_op4,
    check_op5,
    check_op6,
    op1,
    op2,
    op3,
    op4,
    op5,
    op6,
    reconcile,
    reconcile_database,
)
from coalg.open_problems._common import Runner, random_run
from coalg.open_problems.proposed import canonical_key, merge_valid_time, provenance
from coalg.paper import get_item

ROOT = Path(__file__).resolve().parents[2]
PROPERTY = budget(30)
SEEDS = st.integers(0, 10**6)


def _json_roundtrip(v: object) -> dict:
    text = json.dumps(v, sort_keys=True, ensure_ascii=False)
    return json.loads(text)


def _check_item(item: str, check) -> dict:  # type: ignore[no-untyped-def]
    v = check()
    assert get_item(item).check is check and get_item(item).nature == "proposal"
    assert v.item == item and v.kind == "property" and v.holds, v.summary
    assert v.explored > 0 and v.summary.startswith(f"Open problem {item[2]}")
    data = _json_roundtrip(v.to_json())
    assert {"item", "kind", "holds", "explored", "witness", "summary"} <= set(data)
    assert "failure" not in data["witness"]
    return data["witness"]


# =========================================================================== OP1: valid time of a merge


def test_item_OP1() -> None:
    w = _check_item("OP1", check_op1)
    rejected = w["rejected"]
    assert rejected["earliest"]["clauses_failed"] == ["soundness"]
    assert rejected["interval"]["clauses_failed"] == ["completeness", "soundness"]
    assert rejected["as-given"]["clauses_failed"] == ["soundness"]
    assert w["proposal"]["merged_valid_time"] == 5 and "Err" in w["proposal"]["explicit_earlier_time"]


@PROPERTY
@given(SEEDS, st.integers(2, 10))
def test_op1_proposed_merges_are_sound_and_complete(seed: int, n: int) -> None:
    t = random_run(PROPOSED, random.Random(seed), n, explicit_merge_time=0.3, namespaces=("global", "bob"))
    assert op1.law_violations(t.final, complete_for=op1.default_merges(t)) == []
    for j, srcs in op1.merged_records(t.final).items():  # the rule itself: max of the sources unless given later
        vts = [t.final.records[k].valid_time for k in srcs]
        assert t.final.records[j].valid_time >= max(v for v in vts if v is not None)


@PROPERTY
@given(st.lists(st.integers(0, 9) | st.none(), min_size=2, max_size=4), st.none() | st.integers(0, 12),
       st.integers(0, 20))
def test_op1_rule_is_order_independent_and_never_before_the_evidence(vts: list, explicit: int | None,
                                                                     tau: int) -> None:
    results = {merge_valid_time(explicit, p, tau) for p in itertools.permutations(vts)}
    assert len(results) == 1
    vt, why = results.pop()
    known = [v for v in vts if v is not None]
    if vt is None:
        assert explicit is not None and explicit < max(known) and "before the evidence" in why
    else:
        assert not known or vt >= max(known)
        assert explicit is None or vt == explicit  # a caller's time is stored verbatim (Prop. 7.1 (a))


@pytest.mark.parametrize("rule", ["earliest", "interval"])
def test_op1_rejected_rules_believe_before_the_evidence(rule: str) -> None:
    s = op1.candidate_example(rule)
    v = op1.law_violations(s)[0]
    assert (v["clause"], v["merged"], v["tv"], v["unbelieved_sources"]) == ("soundness", "id0003", 1, ["id0002"])
    assert s.records["id0003"].valid_time == 1


def test_op1_interval_also_withholds_what_the_sources_support() -> None:
    v = [x for x in op1.law_violations(op1.candidate_example("interval"), first_only=False)
         if x["clause"] == "completeness"]
    assert v and all(x["tv"] > 5 for x in v)  # after the span closes, all sources are still believed


def test_op1_unchecked_caller_time_is_unsound_and_the_proposal_refuses_it() -> None:
    s = op1.candidate_example("as-given")  # REPAIRED stores the caller's 0
    assert s.records["id0003"].valid_time == 0 and op1.law_violations(s)[0]["tv"] == 0
    base = run(EMPTY, [Save(Record("a", valid_time=1)), Save(Record("b", valid_time=5))], step_fn=PROPOSED.step).final
    out, after = PROPOSED.step(base, Merge(("id0001", "id0002"), valid_time=0), Allocation(("id0003",), 3))
    assert isinstance(out, Err) and after == base
    out, after = PROPOSED.step(base, Merge(("id0001", "id0002"), valid_time=8), Allocation(("id0003",), 3))
    assert isinstance(out, Created) and after.records["id0003"].valid_time == 8
    assert op1.law_violations(after, complete_for=()) == []  # later than the evidence: still sound


def test_op1_law_is_about_the_asserted_reading() -> None:
    # the library's believed() in "asserted" mode; believed_spans only adds ends of validity
    s = op1.candidate_example("latest")
    assert op1.believed_spans(s, 3, 5).keys() == {"id0001", "id0002", "id0003"}
    assert op1.believed_spans(s, 3, 4).keys() == {"id0001"}


# =========================================================================== OP2: order-blind merge


def test_item_OP2() -> None:
    w = _check_item("OP2", check_op2)
    r = w["rejected"]
    assert r["contextfs"]["order_sensitive_fields"] == ["content", "merged_from"] and not r["contextfs"]["approx"]
    assert r["repaired"]["order_sensitive_fields"] == ["content"] and not r["repaired"]["approx"]
    assert r["id-order"]["s_approx_sigma_s"] and not r["id-order"]["id-order"]["approx"]
    assert r["id-order"]["proposed"]["approx"]


def _case(seed: int) -> tuple[Store, tuple[str, ...], dict[str, str]]:
    rng = random.Random(seed)
    t = random_run(PROPOSED, rng, rng.randint(2, 7))
    live = sorted(i for i, r in t.final.records.items() if not is_tombstone(r))
    ids = tuple(rng.sample(live, min(len(live), rng.randint(2, 3))))
    sigma = dict(zip(live, rng.sample(live, len(live))))
    return t.final, ids, sigma


@PROPERTY
@given(SEEDS)
def test_op2_commutative_up_to_allocation_blind_bisimilarity(seed: int) -> None:
    s, ids, _ = _case(seed)
    assert op2.commutes(PROPOSED, s, ids)


@PROPERTY
@given(SEEDS)
def test_op2_allocation_blind(seed: int) -> None:
    s, ids, sigma = _case(seed)
    assert allocation_blind_bisimilar(s, op2.rename(s, sigma))
    assert op2.renaming_respected(PROPOSED, s, ids, sigma)


@PROPERTY
@given(SEEDS)
def test_op2_idempotent_and_provenance_is_the_edge_set(seed: int) -> None:
    s, ids, _ = _case(seed)
    assert op2.idempotent(PROPOSED, s, ids)
    out, after = PROPOSED.step(s, Merge(ids + ids[:1]), Allocation(("m0001",), 50))  # a repeat counts once
    if isinstance(out, Created):
        assert provenance(after, "m0001") == frozenset(ids)
        assert "merged_from" not in after.records["m0001"].metadata
        _, plain = PROPOSED.step(s, Merge(ids), Allocation(("m0001",), 50))
        assert plain == after


@PROPERTY
@given(st.lists(st.sampled_from(["x", "y", "z"]), min_size=2, max_size=4))
def test_op2_canonical_order_reads_content_not_identifiers(contents: list[str]) -> None:
    recs = {f"id{k:04d}": Record(c) for k, c in enumerate(contents, 1)}
    s = Store.of(recs)
    out, after = PROPOSED.step(s, Merge(tuple(recs)), Allocation(("m0001",), 9))
    assert isinstance(out, Created)
    expected = "\n\n".join(f"[Source {k}]: {c}" for k, c in enumerate(sorted(contents), 1))
    assert after.records["m0001"].content == expected
    assert canonical_key(Record("x", created_at=1)) == canonical_key(Record("x", created_at=9))


@pytest.mark.parametrize("real", [CONTEXTFS, REPAIRED], ids=lambda r: r.name)
def test_op2_current_merges_are_not_commutative(real) -> None:  # type: ignore[no-untyped-def]
    assert not op2.commutes(real, op2.example_store(), ("id0001", "id0002"))


def test_op2_ordering_by_identifier_is_not_allocation_blind() -> None:
    w = op2.id_order_counterexample()
    assert w["s_approx_sigma_s"]
    assert w["id-order"]["content_on_s"] == "[Source 1]: x\n\n[Source 2]: y"
    assert w["id-order"]["content_on_sigma_s"] == "[Source 1]: y\n\n[Source 2]: x"
    assert not w["id-order"]["approx"] and w["proposed"]["approx"]
    assert op2.commutes(op2.ID_ORDER, op2.example_store(), ("id0001", "id0002"))  # commutative, though


# =========================================================================== OP3: reconciliation


def test_item_OP3() -> None:
    w = _check_item("OP3", check_op3)
    runs, ok = w["explored"]["runs"], w["explored"]["single_fault_recoveries"]
    assert runs >= 50 and ok.split("/")[0] == ok.split("/")[1]
    reps = {k: v["report"] for k, v in w["witnesses"].items()}
    assert reps["A_failed_edge_write"]["recovered"] == [["id0003", "evolved_from", "id0001"]]
    assert len(reps["B_inherited_metadata"]["inherited"]) == 2
    assert reps["C_deleted_parent"]["missing"] == [["id0003", "evolved_from", "id0001"]]
    assert reps["merge_ambiguity"]["inherited"] == [["id0004", "merged_from", "id0002"]]
    assert not w["rejected"]["edges_only"]["recovers"] and not w["rejected"]["union"]["faithful"]


@PROPERTY
@given(stores(max_records=6, max_edges=8))
def test_op3_reconciled_store_satisfies_L2_L3_idempotent_conservative(s: Store) -> None:
    assert op3.laws(s) == dict.fromkeys(("R1_L2", "R1_L3", "R2_idempotent", "R3_conservative",
                                         "R4_noop_on_agreement"), True)


@PROPERTY
@given(closed_stores(max_records=5, max_edges=6))
def test_op3_noop_on_stores_that_already_agree(s: Store) -> None:
    agreeing = op3.reconcile_edges_only(s)  # metadata derived from the (inverse-closed) edges
    assert not op3.l2_violations(agreeing) and agreeing.is_inverse_closed()
    out, rep = reconcile(agreeing)
    assert out == agreeing and not rep.changed


@PROPERTY
@given(fragment_stores(max_steps=8))
def test_op3_faithful_on_fault_free_contextfs_stores(s: Store) -> None:
    out, rep = reconcile(s)
    assert {e for e in out.edges if e.relation in ANCESTRY} == {e for e in s.edges if e.relation in ANCESTRY}
    assert rep.recovered == [] and not op3.l2_violations(out)


@PROPERTY
@given(call_sequences(max_size=6, fragment=True), st.data())
def test_op3_recovers_a_single_failed_evolve_or_split_edge_write(calls: tuple[Call, ...], data) -> None:  # type: ignore[no-untyped-def]
    derivs = [k for k, c in enumerate(calls) if c.letter.kind in ("evolve", "split")]
    if not derivs:
        return
    k, fault = data.draw(st.sampled_from(derivs)), data.draw(st.integers(0, 1))
    res = op3.faithful_and_recovers([Call(c.letter, c.allocation) for c in calls], k, fault)
    assert res == {"R5_faithful": True, "R6_recovers": True}


def test_op3_rejected_policies() -> None:
    ws = op3.witness_stores()
    a, b = ws["A_failed_edge_write"], ws["B_inherited_metadata"]
    assert not any(e.relation in ANCESTRY for e in op3.reconcile_edges_only(a).edges)  # A's parent is lost
    invented = {e for e in op3.reconcile_union(b).edges if e.relation in ANCESTRY} - set(b.edges)
    assert Edge("id0004", Relation.MERGED_FROM, "id0001") in invented  # a merge that never happened
    assert {e for e in reconcile(b)[0].edges if e.relation in ANCESTRY} == {e for e in b.edges
                                                                             if e.relation in ANCESTRY}


def test_op3_merge_faults_are_where_the_policy_must_choose() -> None:
    s = op3.witness_stores()["merge_ambiguity"]
    out, rep = reconcile(s)
    assert rep.inherited == [("id0004", "merged_from", "id0002")] and rep.recovered == []
    assert Edge("id0004", Relation.MERGED_FROM, "id0002") not in out.edges  # dropped: R3 before R6


# ---------------------------------------------------------------------------- the database

_MEMORIES = """CREATE TABLE memories (id TEXT NOT NULL, content TEXT NOT NULL, type TEXT NOT NULL, tags TEXT,
 summary TEXT, namespace_id TEXT NOT NULL, source_file TEXT, source_repo TEXT, source_tool TEXT, project TEXT,
 session_id TEXT, created_at TEXT NOT NULL, updated_at TEXT NOT NULL, metadata TEXT, vector_clock TEXT,
 content_hash TEXT, deleted_at TEXT, last_modified_by TEXT, repo_url TEXT, repo_name TEXT, relative_path TEXT,
 structured_data TEXT, authoritative INTEGER DEFAULT 0, PRIMARY KEY (id))"""
_EDGES = """CREATE TABLE memory_edges (from_id TEXT NOT NULL, to_id TEXT NOT NULL, relation TEXT NOT NULL,
 weight FLOAT DEFAULT '1.0' NOT NULL, created_at TEXT NOT NULL, created_by TEXT, metadata TEXT, vector_clock TEXT,
 deleted_at TEXT, last_modified_by TEXT, PRIMARY KEY (from_id, to_id, relation))"""


def _build_db(path: Path) -> None:
    """A ContextFS-schema database (memories, memory_edges as migrations 001–009 create them) with A, B, C."""
    t0 = "2026-01-29T12:00:00"
    rows = [  # id, metadata, deleted_at
        ("a", {}, None), ("b", {}, None),
        ("m", {"merged_from": ["a", "b"], "merge_strategy": "union"}, None),
        ("e", {"merged_from": ["a", "b"], "evolved_from": "m", "owner": "x"}, None),  # B: inherited
        ("f", {"evolved_from": "a"}, None),  # A: its edge write failed
        ("g", {"evolved_from": "gone"}, None),  # C: parent hard-deleted
        ("h", {"evolved_from": "d"}, None), ("d", {}, t0),  # parent soft-deleted
    ]
    edges = [("m", "a", "merged_from"), ("a", "m", "merged_into"), ("m", "b", "merged_from"),
             ("b", "m", "merged_into"), ("e", "m", "evolved_from"), ("m", "e", "evolved_into"),
             ("a", "b", "references")]
    conn = sqlite3.connect(path)
    conn.execute(_MEMORIES)
    conn.execute(_EDGES)
    conn.executemany("INSERT INTO memories (id, content, type, namespace_id, created_at, updated_at, metadata, "
                     "deleted_at) VALUES (?, ?, 'fact', 'global', ?, ?, ?, ?)",
                     [(i, f"content of {i}", t0, t0, json.dumps(m), d) for i, m, d in rows])
    conn.executemany("INSERT INTO memory_edges (from_id, to_id, relation, weight, created_at) VALUES (?,?,?,1.0,?)",
                     [(*e, t0) for e in edges])
    conn.commit()
    conn.close()


def _read_store(path: Path) -> Store:
    conn = sqlite3.connect(path)
    recs = {i: Record(c, metadata=json.loads(m or "{}"))
            for i, c, m in conn.execute("SELECT id, content, metadata FROM memories WHERE deleted_at IS NULL")}
    es = [Edge(a, Relation(r), b) for a, b, r in conn.execute("SELECT from_id, to_id, relation FROM memory_edges")]
    conn.close()
    return Store.of(recs, es)


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_op3_reconcile_database_writes_a_new_file_and_never_touches_the_original(tmp_path: Path) -> None:
    src, dst = tmp_path / "contextfs.db", tmp_path / "reconciled.db"
    _build_db(src)
    before, mtime = _sha(src), src.stat().st_mtime_ns
    rep = reconcile_database(src, dst)
    assert _sha(src) == before and src.stat().st_mtime_ns == mtime  # byte-identical, not even rewritten
    assert rep.recovered == [("f", "evolved_from", "a")]
    assert ("e", "merged_from", "a") in rep.inherited and ("g", "evolved_from", "gone") in rep.missing
    assert ("h", "evolved_from", "d") in rep.missing  # a soft-deleted row is not a record
    out = _read_store(dst)
    assert not op3.l2_violations(out) and out.is_inverse_closed()
    assert out.records["e"].metadata["owner"] == "x"  # other keys untouched
    assert out.records["m"].metadata["merged_from"] == ("a", "b")  # agreeing keys keep their stored order
    conn = sqlite3.connect(dst)
    assert conn.execute("SELECT created_by FROM memory_edges WHERE from_id='f'").fetchone() == ("coalg-reconcile",)
    assert conn.execute("SELECT deleted_at FROM memories WHERE id='d'").fetchone() == ("2026-01-29T12:00:00",)
    conn.close()
    with pytest.raises(FileExistsError):
        reconcile_database(src, dst)
    again = tmp_path / "again.db"
    assert not reconcile_database(dst, again).changed  # idempotent on the database too


def test_op3_reconcile_database_on_the_sample_contextfs_database(tmp_path: Path) -> None:
    sample = ROOT / "data" / "sample-contextfs.db"
    if not sample.exists():
        pytest.skip(f"{sample} has not been generated yet (issue 7)")
    before = _sha(sample)
    rep = reconcile_database(sample, tmp_path / "reconciled.db")
    assert _sha(sample) == before
    out = _read_store(tmp_path / "reconciled.db")
    assert not op3.l2_violations(out) and out.is_inverse_closed()
    assert isinstance(rep.to_json(), dict)


# =========================================================================== OP4: scoped resolution


def test_item_OP4() -> None:
    w = _check_item("OP4", check_op4)
    sh = w["shared_namespace"]
    assert sh["alone"] == "deadbeef-111" and sh["in_union"]["out"] == "err" and not sh["frame_holds"]
    cross = w["cross_namespace_merge"]
    assert not cross["global"]["frame_holds"] and cross["global"]["record_in_nu"]["namespace"] == "nu"
    assert "secret" in cross["global"]["record_in_nu"]["tags"]
    assert cross["global"]["restrictions_to_nu_agree_before"] and cross["global"]["records_in_nu_differ_after"]
    assert cross["scoped"]["frame_holds"] and cross["scoped"]["record_in_nu"] is None


@PROPERTY
@given(SEEDS)
def test_op4_frame_property_for_every_letter_under_full_scoping(seed: int) -> None:
    _, failure = op4.explore_frame(random.Random(seed), 6, "scoped")
    assert failure is None, failure


@PROPERTY
@given(SEEDS)
def test_op4_prefix_scoping_alone_covers_prefixes_and_names_in_s(seed: int) -> None:
    rng = random.Random(seed)
    s, t = op4._tenants(rng, True)
    mine = sorted(s.dom())
    for _ in range(6):
        p = rng.choice(mine)[: rng.randint(1, 12)]
        for a in (RecallPrefix(p), Evolve(p, "v", by_prefix=True), Recall(rng.choice(mine)),
                  Merge(tuple(rng.sample(mine, min(2, len(mine))))), Split(p, ("x", "y"), by_prefix=True)):
            xi = Allocation(tuple(f"new-{k}" for k in range(2 if isinstance(a, Split) else 1 if
                                                            a.kind in ("evolve", "merge") else 0)), 50)
            assert op4.frame_holds(s, t, a, xi, "nu", "global"), a


@PROPERTY
@given(SEEDS)
def test_op4_scoped_prefix_resolution_reads_no_enumeration_order(seed: int) -> None:
    rng = random.Random(seed)
    s, t = op4._tenants(rng, True)
    u = mention_disjoint_union(s, t)
    real = op4.scoped("nu")
    for p in {i[:k] for i in u.dom() for k in range(9)}:
        outs = {repr(real.step(u, RecallPrefix(p), theta=th)[0])
                for th in (Theta(), Theta(descending=True), Theta(id_priority=tuple(sorted(u.dom(), reverse=True))))}
        assert len(outs) == 1


def test_op4_the_exploration_is_not_vacuous() -> None:
    # the same tenants and letters without scoping: ContextFS's prefix recall breaks the frame somewhere
    rng = random.Random(4)
    broken = 0
    for _ in range(60):
        s, t = op4._tenants(rng, True)
        p = min(s.dom())[:8]
        broken += not frame_property(s, t, RecallPrefix(p), union="mention", theta=Theta(descending=True)).holds
    assert broken > 0


def test_op4_shared_namespace_breaks_the_frame_but_not_L5() -> None:
    w = op4.shared_namespace_witness()
    assert w["alone"] == "deadbeef-111" and "ambiguous" in w["in_union"]["reason"]
    assert not w["frame_holds"] and w["same_for_every_theta"]


def test_op4_cross_namespace_merge_has_the_shape_of_prop_5_18() -> None:
    w = op4.cross_namespace_witness()
    g = w["global"]
    assert g["alone"]["out"] == "err" and g["in_union"]["out"] == "created" and not g["frame_holds"]
    assert g["record_in_nu"]["content"].endswith("[Source 2]: T: secret budget 10k")
    assert w["scoped"]["frame_holds"]


def test_op4_scoped_writes_resolve_to_full_identifiers() -> None:
    s = Store.of({"abcd-0001": Record("x", namespace="nu"), "abcd-0002": Record("y", namespace="other")})
    out, after = op4.scoped("nu").step(s, Evolve("abcd", "x2", by_prefix=True), Allocation(("n1",), 1))
    assert isinstance(out, Created) and Edge("n1", Relation.EVOLVED_FROM, "abcd-0001") in after.edges
    out, _ = op4.scoped("nu").step(s, Recall("abcd-0002"))
    assert type(out).__name__ == "Nothing"


# =========================================================================== OP5: version model


def test_item_OP5() -> None:
    w = _check_item("OP5", check_op5)
    cx = w["counterexamples"]
    assert cx["L3_one_way_link"]["laws"]["T1_inconsistent"] == ["id0001"]
    assert cx["L3_failed_inverse_write"]["laws"]["T2_lost"] == ["id0002"]
    assert cx["L1_replaced_first_version"]["laws"]["T1_inconsistent"] == ["id0001"]
    assert cx["L2_metadata_reading"]["laws"]["T1_inconsistent"] == ["id0003", "id0004"]
    assert not any(cx["L2_metadata_reading"]["edges_reading_laws"].values())


@PROPERTY
@given(fragment_stores(max_steps=10))
def test_op5_timelines_of_fault_free_contextfs_stores(s: Store) -> None:
    assert op5.ok(s), op5.laws(s)


@PROPERTY
@given(SEEDS, st.integers(1, 10))
def test_op5_timelines_along_repaired_and_contextfs_runs_are_consistent_and_append_only(seed: int, n: int) -> None:
    for real in (REPAIRED, CONTEXTFS):
        t = random_run(real, random.Random(seed), n, namespaces=("global", "bob"))
        assert op5.check_run(t.states) is None


@PROPERTY
@given(fragment_stores(max_steps=8))
def test_op5_l2_agreement_makes_the_metadata_reading_agree(s: Store) -> None:
    if not op3.l2_violations(s):
        assert op5.timelines(s, memory_id_from="metadata").keys() == op5.timelines(s).keys()
        assert op5.ok(s, memory_id_from="metadata")


def test_op5_is_consistent_is_faithful() -> None:
    t0 = datetime(2026, 1, 29, 12, tzinfo=UTC)

    def e(h: int, v: str, m: str = "m") -> VersionEntry:
        return VersionEntry(t0 + timedelta(hours=h), v, version_id=v, memory_id=m)

    assert Timeline.stored([]).is_consistent("m")
    assert Timeline.stored([e(1, "a"), e(1, "b"), e(2, "c")]).is_consistent("m")
    assert not Timeline.stored([e(2, "a"), e(1, "b")]).is_consistent("m")  # timestamps decrease
    assert not Timeline.stored([e(1, "a"), e(2, "b", "x")]).is_consistent("m")  # two memory ids
    assert not Timeline.stored([e(1, "a"), e(2, "a")]).is_consistent("m")  # a repeated version id
    naive = VersionEntry(datetime(2026, 1, 29, 13), "n", version_id="n", memory_id="m")
    with pytest.raises(TypeError):  # the code compares raw timestamps, as ContextFS's does
        Timeline.stored([e(1, "a"), naive]).is_consistent("m")


def test_op5_is_consistent_agrees_with_the_released_package() -> None:
    from coalg import contextfs

    if not contextfs.AVAILABLE:
        pytest.skip(contextfs.unavailable_reason() or "contextfs is not installed")
    contextfs.modules()
    import importlib

    with contextfs.sandbox().env():
        vmod = importlib.import_module("contextfs.types.versioned")
    rng = random.Random(5)
    t0 = datetime(2026, 1, 29, 12, tzinfo=UTC)
    for _ in range(60):
        rows = [(rng.randint(0, 3), rng.choice("ab"), rng.choice(["v1", "v2", "v3", "v4"]))
                for _ in range(rng.randint(0, 4))]
        ours = Timeline.stored([VersionEntry(t0 + timedelta(hours=h), "c", version_id=v, memory_id=m)
                                for h, m, v in rows])
        vm = vmod.VersionedMem(memory_id="a")
        vm.timeline.entries = [vmod.VersionEntry(memory_id=m, timestamp=t0 + timedelta(hours=h), version_id=v,
                                                 reason=vmod.ChangeReason.OBSERVATION, content={})
                               for h, m, v in rows]
        assert ours.is_consistent("a") == vm.is_consistent(), rows


# =========================================================================== OP6: tombstones


def test_item_OP6() -> None:
    w = _check_item("OP6", check_op6)
    c = w["comparison"]
    assert c["repaired"]["shape_changed_for"] == [] and c["repaired"]["revealing"] == []
    assert "id0003" in c["contextfs"]["shape_changed_for"] and c["contextfs"]["revealing"] == []
    assert c["contextfs-soft-delete"]["shape_changed_for"] == []
    assert {"json_dump", "beta(id0001)", "ancestry(id0003)"} <= set(c["contextfs-soft-delete"]["revealing"])
    assert w["copy_survives"]["quoted_in"] == ["id0003"]


@budget(20)
@given(SEEDS)
def test_op6_tombstone_runs_keep_the_erased_ancestry_shape(seed: int) -> None:
    t, _, _ = op6.erasure_run(REPAIRED, random.Random(seed), merge_secret=True)
    for k in range(len(t.states)):
        assert op6.shape_stable(t.states[k], t.final) == [], k


@budget(20)
@given(SEEDS)
def test_op6_erased_content_is_in_no_observation(seed: int) -> None:
    t, k, cut = op6.erasure_run(REPAIRED, random.Random(seed), secret="SECRET-314")
    assert is_tombstone(t.states[cut].records[k])
    for s in t.states[cut:]:
        assert op6.revealing(s, REPAIRED, "SECRET-314") == []


def test_op6_observations_cover_the_library() -> None:
    s, _ = op6.erased_example(REPAIRED)
    names = {n.split("(")[0] for n in op6.observations(s, REPAIRED)}
    assert {"json_dump", "recall", "recall_prefix", "beta", "beta_minus", "ancestry", "descendants", "believed",
            "believed_current", "as_of", "valid_at", "record_view", "derived_record", "timeline_of",
            "timelines"} <= names
    before = run(EMPTY, [Save(Record("SECRET-7", valid_time=1))], step_fn=REPAIRED.step).final
    assert {"recall(id0001)", "json_dump", "ancestry(id0001)"} <= set(op6.revealing(before, REPAIRED, "SECRET-7"))


def test_op6_contextfs_hard_delete_fails_the_shape_analogue() -> None:
    before = run(EMPTY, [Save(Record("a")), Evolve("id0001", "b")]).final
    after = run(before, [Delete("id0001")]).final
    assert op6.shape_stable(before, after) == ["id0001", "id0002"]  # id0002 survived and lost its ancestor


def test_op6_soft_delete_keeps_the_content_recoverable() -> None:
    s, k = op6.erased_example(SOFT_DELETE)
    assert type(SOFT_DELETE.step(s, Recall(k))[0]).__name__ == "Nothing"  # recall hides it …
    assert "SECRET-7" in s.records[k].content  # … the store keeps it
    assert {"json_dump", f"beta({k})"} <= set(op6.revealing(s, SOFT_DELETE, "SECRET-7"))


def test_op6_a_copy_made_before_the_delete_survives() -> None:
    w = op6.copy_survives_witness()
    assert w["quoted_in"] == ["id0003"] and w["revealing"]


def test_op6_tombstones_refuse_further_use() -> None:
    s, k = op6.erased_example(REPAIRED)
    r = Runner(REPAIRED, s)
    for a in (Evolve(k, "x"), Delete(k), Merge((k, "id0002"))):
        assert isinstance(r.do(a), Err)


# =========================================================================== the command line


@pytest.mark.parametrize("item", [f"OP{n}" for n in range(1, 7)])
def test_witness_command_prints_the_issue_3_json_shape(item: str) -> None:
    p = subprocess.run([sys.executable, "-m", "coalg", "witness", item, "--json"], cwd=ROOT, capture_output=True,
                       text=True, timeout=300, check=False)
    assert p.returncode == 0, p.stderr
    d = json.loads(p.stdout)
    assert d["item"] == item and d["kind"] == "property" and d["holds"] is True and d["explored"] > 0
    assert isinstance(d["witness"], dict) and d["summary"]
