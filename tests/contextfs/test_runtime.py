"""The released contextfs 0.2.35 driven offline: the adapter, Table 2 observed, the runtime witnesses.

Everything here runs the real package (installed by ``make setup`` from
requirements-contextfs.txt).  Where it is not installed the tests are skipped
with the reason; in this project's environments it is installed, so they run.
"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from shared_build import build_law_tables

from coalg.contextfs import AVAILABLE, unavailable_reason

pytestmark = pytest.mark.skipif(not AVAILABLE, reason=f"runtime tests need contextfs 0.2.35: {unavailable_reason()}")

from coalg import laws
from coalg.laws import SEEDS, start_of
from coalg.model import (
    CONTEXTFS,
    Allocation,
    Created,
    Delete,
    Err,
    Evolve,
    Flag,
    Found,
    Link,
    Merge,
    Nothing,
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
    Wrote,
)

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def cfs():
    import coalg.contextfs

    return coalg.contextfs


@pytest.fixture(scope="module")
def merged_seed(cfs):
    return start_of(cfs.RUNTIME, SEEDS[3]).store


@pytest.fixture()
def no_network(monkeypatch):
    """Any attempt to open a network connection fails the test."""
    attempts: list[object] = []

    def refuse(*args, **kwargs):
        attempts.append(args)
        raise OSError("network access attempted during a runtime test")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    yield attempts
    assert not attempts, f"network connection attempted: {attempts}"


# =========================================================================== the adapter


def test_importing_the_runtime_modules_does_not_import_contextfs() -> None:
    package = ROOT / "coalg" / "contextfs"
    names = sorted(p.stem for p in package.glob("*.py") if p.stem != "__init__")
    assert {"adapter", "auditing", "live", "offline", "runtime"} <= set(names)
    code = ("import sys, importlib, coalg.cli.app\n"
            f"for name in {names!r}: importlib.import_module('coalg.contextfs.' + name)\n"
            "print('contextfs' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


def test_the_installed_package_is_the_papers_version(cfs) -> None:
    assert cfs.modules().package.__version__ == "0.2.35"
    lineage = Path(cfs.modules().lineage.__file__).read_text()
    assert "final_type = max(set(types), key=types.count)" in lineage
    assert "namespace_id=memories[0].namespace_id" in lineage


def test_sandbox_contains_everything_and_restores_the_environment(cfs, no_network) -> None:
    home = os.environ.get("HOME")
    before = set(Path(home).iterdir()) if home and Path(home).is_dir() else set()
    cfs.RUNTIME.step(Store(), Save(Record("x", namespace="alice")), Allocation(("id0001",), 1))
    assert os.environ.get("HOME") == home
    assert "HF_HUB_OFFLINE" not in os.environ or os.environ["HF_HUB_OFFLINE"] == "1"
    sb = cfs.sandbox()
    assert sb.variables()["HF_HUB_OFFLINE"] == "1" and sb.variables()["TRANSFORMERS_OFFLINE"] == "1"
    assert all(v.startswith(str(sb.root)) for k, v in sb.variables().items()
               if k in ("HOME", "CONTEXTFS_DATA_DIR", "HF_HOME", "XDG_CACHE_HOME", "FASTEMBED_CACHE_PATH"))
    after = set(Path(home).iterdir()) if home and Path(home).is_dir() else set()
    ours = {p for p in after - before if any(w in p.name.lower() for w in ("contextfs", "chroma", "fastembed",
                                                                           "huggingface", "onnx"))}
    assert not ours, f"ContextFS wrote into the real HOME: {ours}"
    assert not any(m in sys.modules for m in ("chromadb", "fastembed", "onnxruntime", "torch"))


def test_seeds_agree_with_the_model_except_what_the_package_decides(cfs) -> None:
    for seed in SEEDS[:3]:
        assert start_of(cfs.RUNTIME, seed).store == start_of(CONTEXTFS, seed).store, seed.name
    real, model = start_of(cfs.RUNTIME, SEEDS[3]).store, start_of(CONTEXTFS, SEEDS[3]).store
    assert real.edges == model.edges and real.dom() == model.dom()
    merged = real.records["id0003"]
    assert merged.summary == model.records["id0003"].summary == "Merged from 2 memories"
    assert merged.metadata["merged_from"] == ("id0001", "id0002") and merged.created_at == 3


@pytest.mark.parametrize("letter, alloc", [
    (Evolve("id0003", "v2"), ("id0004",)),
    (Split("id0001", ("p1", "p2")), ("id0004", "id0005")),
    (Supersede("missing", "id0001"), ()),
    (RecallPrefix("id000"), ()),
    (Recall("id0002"), ()),
    (Delete("id0002"), ()),
    (Evolve("id000", "v2", by_prefix=True), ("id0004",)),
    (Link("id0001", Relation.REFERENCES, "id0002"), ()),
    (SaveAt("id0001", Record("replaced", namespace="alice")), ()),
    (Merge(("id0001", "id0002"), type="fact"), ("id0004",)),
    # what a call may add: a summary and tags, merged content, a namespace (refused), an edge both ways
    (Evolve("id0003", "v2", summary="why", tags=frozenset({"t"})), ("id0004",)),
    (Merge(("id0001", "id0002"), content="both", type="fact", summary="one"), ("id0004",)),
    (Merge(("id0001", "id0002"), type="fact", namespace="alice"), ("id0004",)),
    (Link("id0001", Relation.DEPENDS_ON, "id0002", bidirectional=True), ()),
    (Link("id0001", Relation.CONTRADICTS, "missing"), ()),
], ids=lambda x: getattr(x, "kind", str(x)))
def test_steps_agree_with_the_model_on_the_lineage(cfs, merged_seed, letter, alloc, no_network) -> None:
    # a merge names its type: with two types tied, the package picks one by hash order (L5)
    xi = Allocation(alloc, 4)
    out_m, s_m = CONTEXTFS.step(merged_seed, letter, xi)
    out_r, s_r = cfs.RUNTIME.step(merged_seed, letter, xi)
    assert s_r.edges == s_m.edges
    assert s_r.dom() == s_m.dom()
    for i in s_m.dom():  # every field, summary and times included
        assert s_r.records[i] == s_m.records[i], i
    if isinstance(out_m, Err):  # the reasons name the version differently ("a93035d", "0.2.35")
        assert isinstance(out_r, Err) and out_r.reason.split(":")[0] == out_m.reason.split(":")[0] == letter.kind
    else:
        assert out_r == out_m


def test_allocated_uuids_are_renamed_to_the_allocation(cfs, merged_seed) -> None:
    letter, xi = Split("id0003", ("a", "b")), Allocation(("x1", "x2"), 9)
    report = cfs.engine().run(merged_seed, letter, xi)
    out, after = report.output, report.store
    assert isinstance(out, Created) and out.ids == ("x1", "x2")
    mapping = dict(report.allocated)
    assert list(mapping.values()) == ["x1", "x2"] and report.letter == "split"
    assert all(len(k) == 12 and k[8] == "-" for k in mapping)  # str(uuid4())[:12]
    assert after.records["x1"].metadata["split_timestamp"] == 9 and after.records["x2"].created_at == 9
    # the realisation's step is the report's output and store (fresh uuids, the same values after renaming)
    calls = cfs.engine().calls
    assert cfs.RUNTIME.step(merged_seed, letter, xi) == (out, after) and cfs.engine().calls == calls + 1


def test_the_step_report_is_a_value(cfs, merged_seed) -> None:
    report = cfs.engine().run(merged_seed, Recall("id0001"), Allocation((), 4))
    with pytest.raises(AttributeError):
        report.warnings = ("changed",)  # type: ignore[misc]
    assert (report.allocated, report.warnings, report.faults) == ((), (), ())
    assert not hasattr(cfs.engine(), "last")
    refused = cfs.engine().run(merged_seed, Evolve("id0001", "v"), Allocation(("id0001",), 4))
    assert isinstance(refused.output, Err) and refused.store == merged_seed and refused.allocated == ()


def test_outputs_for_missing_records(cfs, merged_seed) -> None:
    xi = Allocation(("id0009",), 4)
    out, after = cfs.RUNTIME.step(merged_seed, Evolve("missing", "v2"), xi)
    assert isinstance(out, Err) and "Memory not found: missing" in out.reason and after == merged_seed
    assert isinstance(cfs.RUNTIME.step(merged_seed, Recall("missing"), Allocation((), 4))[0], Nothing)
    # the router's delete reports True for an unknown id: its vector-store delete does not fail
    assert cfs.RUNTIME.step(merged_seed, Delete("missing"), Allocation((), 4))[0] == Flag(True)
    out, _ = cfs.RUNTIME.step(merged_seed, Merge(("id0001", "missing")), Allocation(("id0009",), 4))
    assert isinstance(out, Err) and "at least 2" in out.reason
    bad = cfs.RUNTIME.step(merged_seed, Evolve("id0001", "v"), Allocation(("id0001",), 4))[0]
    assert isinstance(bad, Err) and "inadmissible" in bad.reason


def test_theta_order_is_the_insertion_order_of_rows(cfs, merged_seed) -> None:
    for first in ("id0001", "id0002", "id0003"):
        out, _ = cfs.RUNTIME.step(merged_seed, RecallPrefix("id000"), Allocation((), 4),
                                  theta=Theta(id_priority=(first,)))
        assert isinstance(out, Found) and out.id == first
    out, _ = cfs.RUNTIME.step(merged_seed, RecallPrefix("id000"), Allocation((), 4), theta=Theta(descending=True))
    assert isinstance(out, Found) and out.id == "id0003"


def test_unknown_types_are_carried_by_unused_memory_types(cfs) -> None:
    s = Store.of({"a": Record("x", type="altered", namespace="n"), "b": Record("y", type="fact", namespace="n")})
    out, after = cfs.RUNTIME.step(s, Merge(("a", "b"), type="altered"), Allocation(("m",), 3))
    assert isinstance(out, Created) and after.records["m"].type == "altered" and after.records["a"].type == "altered"


@pytest.mark.parametrize("letter, faults, expect", [
    (Evolve("id0001", "v"), {1}, {("j", "evolved_from", "id0001")}),
    (Evolve("id0001", "v"), {0}, set()),
    (Merge(("id0001", "id0002"), type="fact"), {2}, {("j", "merged_from", "id0001"), ("id0001", "merged_into", "j")}),
    (Merge(("id0001", "id0002"), type="fact"), {3},
     {("j", "merged_from", "id0001"), ("id0001", "merged_into", "j"), ("j", "merged_from", "id0002")}),
    (Supersede("id0001", "id0002"), {1}, {("id0002", "supersedes", "id0001")}),
])
def test_edge_faults_are_a_trigger_and_match_the_model(cfs, letter, faults, expect) -> None:
    s = start_of(cfs.RUNTIME, SEEDS[1]).store
    alloc = Allocation(("j",) if letter.kind in ("evolve", "merge") else (), 3)
    report = cfs.engine().run(s, letter, alloc, faults=frozenset(faults))
    after = report.store
    assert report.faults == tuple(sorted(faults))
    got = {(e.source, e.relation.value, e.target) for e in after.edges}
    assert got == expect
    _, model_after = CONTEXTFS.step(s, letter, alloc, faults=frozenset(faults))
    assert after.edges == model_after.edges
    # the package as a realisation hands the faults on to the engine
    assert cfs.RUNTIME.step(s, letter, alloc, faults=frozenset(faults))[1].edges == after.edges
    if faults and letter.kind == "evolve":
        assert any("injected edge-write failure" in w for w in report.warnings)


def test_a_merge_into_a_namespace_is_refused_as_the_package_has_no_such_argument(cfs, merged_seed) -> None:
    out, after = cfs.RUNTIME.step(merged_seed, Merge(("id0001", "id0002"), namespace="elsewhere"), Allocation(("j",), 3))
    assert out == Err("merge: ContextFS 0.2.35's merge takes no target namespace") and after == merged_seed


def test_wrote_reports_the_edges_the_package_wrote(cfs) -> None:
    s = start_of(cfs.RUNTIME, SEEDS[1]).store
    out, after = cfs.RUNTIME.step(s, Supersede("id0001", "id0002"), Allocation((), 3))
    assert isinstance(out, Wrote) and len(out.edges) == 2
    again, _ = cfs.RUNTIME.step(after, Supersede("id0001", "id0002"), Allocation((), 4))
    assert again == out  # INSERT OR REPLACE rewrites the same two rows


# =========================================================================== Table 2, observed


@pytest.fixture(scope="module")
def observed():
    from coalg.contextfs import observed_law_table

    return observed_law_table()


def test_observed_table_has_the_papers_verdicts(observed) -> None:
    holds = sorted(k for k, c in observed["clauses"].items() if c["holds"])
    assert holds == ["L1", "L3", "L4i", "S1", "S2", "S3", "S4"]
    assert observed["realisation"] == "contextfs-runtime" and "random walks" in observed["budget"]
    for key, c in observed["clauses"].items():
        assert c["explored"] > 0, key
        if not c["holds"]:
            assert c["witness"]["word"] or key == "L6"


def test_observed_witnesses_replay_on_the_package(observed) -> None:
    from coalg.contextfs import RUNTIME
    from coalg.model import call_from_json, run, store_from_json

    for key in ("L2", "L4ii", "L7"):
        w = observed["clauses"][key]["witness"]
        trace = run(store_from_json(w["start"]), [call_from_json(c) for c in w["word"]], step_fn=RUNTIME.step)
        assert trace.final == store_from_json(w["after"]), key


def test_observed_l5_is_prefix_resolution_and_l3_fault_path_fails(observed) -> None:
    l5 = observed["clauses"]["L5"]["witness"]
    assert l5["word"][-1]["letter"]["op"] in ("evolve", "split", "merge", "recall_prefix", "delete", "link")
    assert observed["clauses"]["L3"]["fault_path"]["holds"] is False
    assert observed["clauses"]["L7"]["strong_form"]["holds"] is False


def test_comparison_with_the_model(observed) -> None:
    import copy

    from coalg.contextfs import DIFFERENCES, GENERAL_DIFFERENCES, compare_tables, format_comparison
    from coalg.laws import law_table
    from coalg.model import CONTEXTFS

    build_law_tables()  # the model's verdicts as this run's book build computed them, if valid
    model = law_table(CONTEXTFS)
    rows = compare_tables(observed=observed)
    assert [r["clause"] for r in rows] == list(laws.CLAUSES)
    assert all(r["agree"] for r in rows)
    assert set(DIFFERENCES) == set(laws.CLAUSES) and len(GENERAL_DIFFERENCES) >= 5
    # each row sets both verdicts side by side, as the two tables give them
    word = {True: "holds", False: "fails"}
    for r in rows:
        m, o = model["clauses"][r["clause"]], observed["clauses"][r["clause"]]
        assert (r["title"], r["model"], r["observed"]) == (m["title"], word[m["holds"]], word[o["holds"]])
        assert (r["model_explored"], r["observed_explored"]) == (m["explored"], o["explored"])
        assert r["why"] == DIFFERENCES[r["clause"]]
        assert bool(r["model_witness"]) == (not m["holds"]) and bool(r["observed_witness"]) == (not o["holds"])
    assert {r["model"] for r in rows} == {"holds", "fails"}  # Table 2 has both verdicts
    by = {r["clause"]: r for r in rows}
    assert by["L5"]["model_witness"].startswith("merge(") and by["L5"]["observed_witness"] != by["L5"]["model_witness"]
    # the two tables given are the ones compared: a change made to each shows in its row
    mine, theirs = copy.deepcopy(model), copy.deepcopy(observed)
    mine["clauses"]["L1"]["title"], theirs["clauses"]["L1"]["explored"] = "a title of this test's own", -1
    first = compare_tables(mine, theirs)[0]
    assert (first["clause"], first["title"], first["observed_explored"]) == ("L1", "a title of this test's own", -1)
    text = format_comparison(rows)
    assert text.splitlines()[0].split() == ["clause", "model", "observed", "model", "witness", "observed", "witness"]
    assert "L4ii" in text


def test_the_comparison_observes_the_package_when_given_no_observed_table(observed, monkeypatch) -> None:
    import coalg.contextfs.observed as module

    calls = []
    monkeypatch.setattr(module, "observed_law_table", lambda: calls.append(1) or observed)
    assert [r["observed"] for r in module.compare_tables()] == [r["observed"] for r in module.compare_tables(
        observed=observed)]
    assert calls == [1]


def test_the_pinned_table_is_observed_in_a_child_with_hash_seed_0(monkeypatch) -> None:
    import coalg.contextfs.observed as module
    from coalg.contextfs import Budget

    asked = {}

    def child(code, arg, *, hashseed, what):
        asked.update(code=code, arg=json.loads(arg), hashseed=hashseed, what=what)
        return json.dumps({"clauses": {}})

    monkeypatch.setattr(module, "run_with_hashseed", child)
    table = module.pinned_law_table(Budget(max_len=1, random_runs=3, l6_max_len=2))
    assert table == {"clauses": {}, "hashseed": 0}
    assert asked["arg"] == {"max_len": 1, "random_runs": 3, "l6_max_len": 2} and asked["hashseed"] == 0
    assert asked["what"] == "observing the package"  # a failed child is reported as "observing the package failed"


def test_the_comparison_prints_as_an_aligned_table() -> None:
    from coalg.contextfs import format_comparison

    rows = [{"clause": "L1", "model": "holds", "observed": "holds", "model_witness": None, "observed_witness": None},
            {"clause": "L4ii", "model": "fails", "observed": "fails", "model_witness": "split(id0001)",
             "observed_witness": "split(ab12cd34ef56, 2)"}]
    text = format_comparison(rows)
    assert text.endswith("\n") and not text.endswith("\n\n")
    head, rule, *body = text.rstrip("\n").split("\n")
    assert len(body) == 2
    # the rule is one run of dashes per column, two spaces apart, each as wide as its column's longest cell
    cells = [["clause", "model", "observed", "model witness", "observed witness"],
             ["L1", "holds", "holds", "\u2014", "\u2014"],
             ["L4ii", "fails", "fails", "split(id0001)", "split(ab12cd34ef56, 2)"]]
    widths = [max(len(r[k]) for r in cells) for k in range(5)]
    assert rule == "  ".join("-" * w for w in widths)
    # every line starts each cell where the rule starts its column: cells are left-aligned
    starts = [0]
    for w in widths[:-1]:
        starts.append(starts[-1] + w + 2)
    for line, row in zip([head, *body], cells):
        for k, (at, cell) in enumerate(zip(starts, row)):
            end = starts[k + 1] - 2 if k + 1 < len(starts) else len(line)
            assert line[at:end].rstrip() == cell, (line, cell)


def test_full_budget_is_described() -> None:
    from coalg.contextfs import FULL, REDUCED

    assert FULL.max_len == 2 and REDUCED.max_len == 1 and "length ≤ 1" in REDUCED.describe()


def test_the_observed_table_spends_the_budget_it_is_given(no_network) -> None:
    from coalg.contextfs import Budget, observed_law_table

    budget = Budget(max_len=0, random_runs=2, l6_max_len=1)
    table = observed_law_table(budget)
    assert table["budget"] == budget.describe()
    # L6 has a length of its own: with it, a one-call witness is found even though max_len is 0
    l6 = table["clauses"]["L6"]
    assert l6["holds"] is False and len(l6["witness"]["word"]) == 1
    for k, e in table["clauses"].items():
        if e["holds"]:  # nothing found: every seed, then exactly the walks asked for
            assert (e["exhaustive_length"], e["random_walks"]) == (0, 2), k
    # and L6 spends no more than its own length and the walks asked for: none of either finds nothing
    l6 = observed_law_table(Budget(max_len=0, random_runs=0, l6_max_len=0))["clauses"]["L6"]
    assert (l6["holds"], l6["exhaustive_length"], l6["random_walks"]) == (True, 0, 0)


# =========================================================================== runtime witnesses (paper items)


def test_item_R5_20(no_network) -> None:
    from coalg.contextfs import check_R5_20

    v = check_R5_20(seeds=range(6))
    assert v.holds and v.kind == "counterexample" and v.explored == 6
    assert v.witness["types_seen"] == ["decision", "fact"]
    by = v.witness["by_seed"]
    # stable for a given seed (the notes' sweep gives the same values for 0..5)
    assert [by[str(s)]["fact_first"] for s in range(6)] == ["fact", "decision", "fact", "fact", "fact", "decision"]


def test_item_R6_3(no_network) -> None:
    from coalg.contextfs import check_R6_3

    v = check_R6_3()
    assert v.holds
    assert v.witness["alone"]["recall"] == ["3f58ead3-359", "tenant-a"]
    assert v.witness["shared"]["recall"] == ["3f587332-5e8", "tenant-b"]
    assert v.witness["recall_vs_delete"]["recall"] != v.witness["recall_vs_delete"]["deleted"][0]


def test_item_R5_18(no_network) -> None:
    from coalg.contextfs import check_R5_18

    v = check_R5_18()
    assert v.holds and v.witness["merged"]["namespace"] == "tenant-a"
    assert v.witness["merged"]["metadata"]["b_secret"] == 42 and "b-only" in v.witness["merged"]["tags"]
    assert v.witness["listed_under_tenant_a"]


def test_item_R5_2(no_network) -> None:
    from coalg.contextfs import check_R5_2

    v = check_R5_2()
    assert v.holds
    w = v.witness
    assert w["ancestry_edges_of_survivor_before"] and w["ancestry_edges_of_survivor_after"] == []
    assert w["get_lineage_after"] == [[w["deleted"], 1]]  # the metadata fallback names the deleted parent
    assert w["save_at"]["metadata_after"] == [] and w["save_at"]["ancestry_edges_after"]


def test_item_R5_14(no_network) -> None:
    from coalg.contextfs import check_R5_14

    v = check_R5_14()
    assert v.holds
    w = v.witness
    assert len(w["evolve_second_edge_refused"]["edges"]) == 1
    assert any("injected edge-write failure" in x for x in w["evolve_second_edge_refused"]["logged"])
    assert w["merge_second_edge_refused"]["ancestry_edges"] == [["merged_from", "x0000000-001"]]
    assert w["every_edge_refused"]["edges"] == []
    assert w["fault_free_inheritance"]["metadata_merged_from"] == ["a0000000-001", "b0000000-002"]


def test_item_R5_30(no_network) -> None:
    from coalg.contextfs import check_R5_30

    v = check_R5_30()
    assert v.holds and v.witness["dangling_endpoints"] == ["4222cb04", "no-such-id"]
    assert v.witness["W2"]["descendants_of_full_id"] == []


def test_item_7_3() -> None:
    from coalg.contextfs import check_7_3

    v = check_7_3()
    assert v.holds and v.kind == "property" and v.explored > 50
    assert v.witness["occurrences"] == {"BiTemporalMemory": [], "RunContext": []}
    # the search itself works: a name that does occur is found
    found = check_7_3(names=("MemoryLineage",))
    assert not found.holds and found.witness["occurrences"]["MemoryLineage"]


def test_runtime_items_are_registered_as_runtime() -> None:
    from coalg.paper import get_item, known_items

    for item in ("R5.20", "R6.3", "R5.18", "R5.2", "R5.14", "R5.30", "7.3"):
        assert item in known_items()
        assert get_item(item).nature == "runtime"


@pytest.mark.parametrize("name", ["prefix-evolve", "metadata-inherited", "soft-delete", "update-drops-edges"])
def test_behaviours_the_paper_does_not_state(name, no_network) -> None:
    from coalg.contextfs import BEHAVIOURS

    v = BEHAVIOURS[name]()
    assert v.holds, v.summary
    assert (v.item, v.kind, v.explored) == (name, "counterexample", 1)
    w = v.witness
    if name == "prefix-evolve":  # both edges name the prefix the call was given
        assert w["original"] == "7d52ac39-b54" and w["descendants_of_original"] == []
        made = [[w["child"], "evolved_from", "7d52ac39"], ["7d52ac39", "evolved_into", w["child"]]]
        assert w["edges"] == sorted(made)
        said = ("evolve('7d52ac39', …) resolved 7d52ac39-b54 but both edges name '7d52ac39'; "
                "get_lineage(7d52ac39-b54) lists no descendant.")
    elif name == "metadata-inherited":  # the part's metadata names its grandparent, its edges only its parent
        assert w["metadata"]["evolved_from"] == "r1000000-001"
        parent = w["metadata"]["split_from"]
        assert w["ancestry_edges"] == [["split_from", parent]]
        said = (f"split part {w['part']} has metadata {{'evolved_from': 'r1000000-001', 'split_from': '{parent}'}} "
                f"but its only ancestry edge is [['split_from', '{parent}']].")
    elif name == "soft-delete":  # evolve twice, delete the middle one: 2 edges to each neighbour
        assert w["recall"] is None and w["edges_still_returned"] == 4
        assert [d for _, d in w["lineage_of_child"]] == [1, 2] and w["lineage_of_child"][0][0] == w["deleted"]
        said = (f"ContextFS.delete({w['deleted']}) (soft, the default) hides it from recall, but get_edges still "
                "returns its 4 edges and get_lineage(CHILD) still walks through it.")
    else:
        parent = "u0000000-001"
        made = [[w["record"], "evolved_from", parent], [parent, "evolved_into", w["record"]]]
        assert w["edges_before"] == sorted(made)
        assert w["edges_after"] == [] and w["metadata_evolved_from"] == parent
        said = (f"router.update({w['record']}, …) deleted and re-saved it: its 2 lineage edges are gone, its "
                "metadata still says evolved_from.")
    # the sentence the chapter prints, written out (the soft-deleted record's child has a random identifier)
    assert re.sub(r"get_lineage\(\w{8}-\w{3}\) still", "get_lineage(CHILD) still", v.summary) == said


@pytest.mark.parametrize("name", ["prefix-evolve", "metadata-inherited", "soft-delete", "update-drops-edges"])
def test_a_behaviour_is_not_seen_where_the_package_does_otherwise(name, monkeypatch, no_network) -> None:
    """Each check is a real test: with the behaviour taken away, it reports that it did not see it."""
    from coalg.contextfs import BEHAVIOURS, LiveStore, behaviours

    if name == "prefix-evolve":  # an evolve that resolves the prefix first
        evolve = LiveStore.evolve
        monkeypatch.setattr(LiveStore, "evolve", lambda self, p, c, **kw: evolve(self, self.recall(p).id, c, **kw))
    elif name == "metadata-inherited":  # records read back without the inherited key
        recall = LiveStore.recall

        def recall_own(self, i):
            r = recall(self, i)
            r.metadata.pop("evolved_from", None)
            return r

        monkeypatch.setattr(LiveStore, "recall", recall_own)
    elif name == "soft-delete":  # a facade whose delete is hard
        facade = behaviours.facade

        def hard(*a):
            ctx = facade(*a)
            delete = ctx.delete
            ctx.delete = lambda i: delete(i, hard_delete=True)
            return ctx

        monkeypatch.setattr(behaviours, "facade", hard)
    else:  # an update that leaves the record alone
        monkeypatch.setattr(LiveStore, "update", lambda self, i, content: self.recall(i))
    assert BEHAVIOURS[name]().holds is False


def test_witness_cli_runs_a_runtime_item() -> None:
    p = subprocess.run([sys.executable, "-m", "coalg", "witness", "R5.30", "--json"], capture_output=True, text=True,
                       cwd=ROOT, check=False)
    assert p.returncode == 0, p.stderr
    assert '"holds": true' in p.stdout and "Traceback" not in p.stderr


def test_without_the_package_every_entry_point_says_why(monkeypatch) -> None:
    import importlib.util

    import coalg.contextfs as ad

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda n, *a: None if n == "contextfs" else real(n, *a))
    assert "not installed" in (ad.unavailable_reason() or "")
    with pytest.raises(ad.ContextFSUnavailable, match="make setup"):
        ad.require()
    code = ("import importlib.util as u; f = u.find_spec; "
            "u.find_spec = lambda n, *a: None if n == 'contextfs' else f(n, *a); "
            "from coalg.cli import main; raise SystemExit(main(['witness', 'R6.3']))")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=False)
    assert p.returncode == 2 and "Traceback" not in p.stderr and "not installed" in p.stderr


# =========================================================================== `coalg laws -r contextfs-runtime`


def test_laws_command_on_the_package_is_reproducible_across_hash_seeds() -> None:
    """The package's merge-type ties follow string hashing; the command pins the seed of the
    observing child, so callers with different seeds print the same bytes."""
    outs = []
    for seed in ("1", "2"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        p = subprocess.run([sys.executable, "-m", "coalg", "laws", "-r", "contextfs-runtime", "--json"],
                           env=env, cwd=ROOT, capture_output=True, text=True, timeout=300, check=False)
        assert p.returncode == 0, p.stderr[-1000:]
        outs.append(p.stdout)
    assert outs[0] == outs[1]
    import json

    table = json.loads(outs[0])
    assert table["realisation"] == "contextfs-runtime" and table["hashseed"] == 0
    assert sorted(k for k, c in table["clauses"].items() if c["holds"]) == ["L1", "L3", "L4i", "S1", "S2", "S3", "S4"]


def test_laws_command_without_the_package(monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    from coalg.cli import main, realisation_law_table
    from coalg.contextfs import ContextFSUnavailable, offline

    monkeypatch.setattr(offline, "unavailable_reason", lambda: "contextfs is not installed (test)")
    with pytest.raises(ContextFSUnavailable, match=r"^contextfs is not installed \(test\)$"):
        realisation_law_table("contextfs-runtime")
    assert main(["laws", "-r", "contextfs-runtime"]) == 2
    assert capsys.readouterr() == ("", "coalg laws: error: contextfs is not installed (test)\n")


@pytest.mark.parametrize("item", ["R5.2", "R5.14", "R5.30"])
def test_runtime_witnesses_read_the_same_on_every_run(item: str, no_network) -> None:
    """The package allocates str(uuid4())[:12]; the witnesses rename those ids to id0001, … in creation order."""
    import re

    from coalg.paper import get_item

    first, second = (json.dumps(get_item(item).check().to_json(), sort_keys=True) for _ in range(2))
    assert first == second
    doc = json.loads(first)
    assert (doc["item"], doc["kind"], doc["holds"]) == (item, "counterexample", True)
    assert doc["explored"] == {"R5.2": 2, "R5.14": 4, "R5.30": 2}[item]  # the observations each item makes
    assert doc["witness"]["renamed"] == ("identifiers the package allocated are renamed id0001, id0002, ... in "
                                         "creation order")
    assert "id0001" in json.dumps(doc["witness"]) and isinstance(doc["summary"], str) and doc["summary"]
    fixed = {"a0000000-001", "r0000000-001", "o0000000-001", "x0000000-001", "y0000000-002", "p0000000-001",
             "b0000000-002", "4222cb04-233"}
    assert set(re.findall(r"\b[0-9a-f]{8}-[0-9a-f]{3}\b", first)) <= fixed
