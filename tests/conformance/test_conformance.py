"""The conformance kit on layers that break one law each, on one that keeps them all, and on the paper's own.

Each planted layer (``conform_layers.py``) changes one method of a law-abiding
dict-backed layer; the kit must fail the law it breaks and name that call.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import conform_layers as layers
import pytest
from shared_build import build_law_tables

from coalg.conformance import BadLayer, LawViolation, check_layer, conform
from coalg.conformance.blackbox import BlackBox, Replay
from coalg.conformance.detect import inspect_layer
from coalg.conformance.examples import contextfs, contextfs_model, repaired
from coalg.laws import CLAUSES, law_table, show_call
from coalg.model import (
    CONTEXTFS,
    Allocation,
    Call,
    Created,
    Delete,
    Err,
    Evolve,
    Record,
    Save,
    call_from_json,
)

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
SMALL = {"length": 3, "walks": 20, "orders": False}


def _failing(report: dict) -> set[str]:
    return {k for k, e in report["clauses"].items() if e["holds"] is False}


def _last_call(report: dict, key: str) -> str:
    return show_call(call_from_json(report["clauses"][key]["witness"]["word"][-1]))


@pytest.mark.parametrize(("layer", "key", "call", "also"), [
    (layers.PlantedL1, "L1", "evolve(id0001, 'v2')", {"S1"}),
    (layers.PlantedL2, "L2", "merge(id0001, id0002)", set()),
    (layers.PlantedL3, "L3", "split(id0001, 'p1', 'p2')", set()),
    (layers.PlantedL4i, "L4i", "save('k' in bob)", {"L4ii", "S2"}),
    (layers.PlantedL4ii, "L4ii", "merge(id0001, id0002)", set()),
    (layers.PlantedL4iInText, "L4i", "evolve(id0001, 'v2')", {"L4ii", "S2"}),  # read inside its text
    (layers.PlantedL5Prefix, "L5", "evolve(id000…, 'v2') by prefix", set()),
    (layers.PlantedL6, "L6", "save('new' in alice)", set()),
    (layers.PlantedL7, "L7", "delete(id0001)", set()),
    (layers.PlantedS1, "S1", "split(missing, 'p1', 'p2')", {"S2"}),  # S2: a failing call changes nothing
])
def test_a_planted_violation_is_found_with_its_law_and_call(layer, key, call, also):
    report = conform(layer, **SMALL)
    assert _failing(report) == {key} | also
    entry = report["clauses"][key]
    assert _last_call(report, key) == call
    w = entry["witness"]
    assert w["explanation"] == entry["reason"] and w["calls"] and w["replay"]
    assert w["length"] == len(w["word"]) <= 3  # breadth first: minimal


def test_an_ancestry_edge_out_of_an_old_record_breaks_s4_at_supersede():
    report = conform(layers.PlantedS4, **SMALL)
    assert "S4" in _failing(report)
    assert _last_call(report, "S4") == "supersede(id0001, id0002)"
    assert "out of a pre-existing identifier" in report["clauses"]["S4"]["reason"]


def test_a_merge_type_that_follows_the_hash_seed_breaks_l5_across_interpreters():
    report = conform(layers.PlantedL5, length=3, walks=0)
    assert _failing(report) == {"L5"}
    w = report["clauses"]["L5"]["witness"]
    assert w["kind"] == "hash seed" and set(w["observations"]) == {"PYTHONHASHSEED=0", "PYTHONHASHSEED=1"}
    assert [c["op"] for c in w["word"]] == ["save", "save", "merge"]
    assert "has type" in w["explanation"] and "PYTHONHASHSEED=1" in w["replay"]
    # run as its first line says, twice, the script shows the merged record with two different types
    path = os.pathsep.join([str(HERE), str(ROOT), *(p for p in sys.path if p)])
    shown = [subprocess.run([sys.executable, "-c", w["replay"]], capture_output=True, text=True, timeout=60,
                            env={**os.environ, "PYTHONPATH": path, "PYTHONHASHSEED": h}, check=True).stdout
             for h in ("0", "1")]
    assert shown[0] != shown[1] and all("'type'" in out for out in shown)


def test_a_law_abiding_layer_holds_every_clause_including_l5_across_interpreters():
    report = conform(layers.GoodMemory, length=3, walks=30)
    assert {k: e["holds"] for k, e in report["clauses"].items()} == {k: True for k in CLAUSES}
    assert list(report["clauses"]) == list(CLAUSES)
    assert all(e["explored"] > 0 and e["witness"] is None for e in report["clauses"].values())
    assert report["capabilities"] == ["valid_time"]


def test_a_layer_writing_its_identifiers_inside_text_holds_every_clause():
    report = conform(layers.TextIds, length=3, walks=30)
    assert {k: e["holds"] for k, e in report["clauses"].items()} == {k: True for k in CLAUSES}


def test_a_declared_prefix_rule_is_checked_and_kept():
    report = conform(layers.DeclaredPrefix, **SMALL)
    l5 = report["clauses"]["L5"]
    assert l5["holds"] is None and l5["explored"] > 0 and "refused or resolved by the declared rule" in l5["reason"]
    assert not _failing(report)


def test_the_replay_script_reproduces_the_witness(tmp_path):
    report = conform(layers.PlantedL7, **SMALL)
    script = tmp_path / "replay.py"
    script.write_text(report["clauses"]["L7"]["witness"]["replay"])
    path = os.pathsep.join([str(HERE), str(ROOT), *(p for p in sys.path if p)])  # and what this run imports
    p = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=60,
                       env={**os.environ, "PYTHONPATH": path}, check=False)
    assert p.returncode == 0, p.stderr
    records, edges = p.stdout.strip().splitlines()
    assert "id0002" in records and "id0001" not in records  # the evolved record survives, its parent is gone
    assert "evolved_from" in edges                          # ... and its edge to the parent dangles


def test_check_layer_raises_a_readable_assertion_with_the_witness():
    with pytest.raises(LawViolation) as info:
        check_layer(layers.PlantedL7, length=3, walks=0, orders=False)
    text = str(info.value)
    assert isinstance(info.value, AssertionError)
    assert "breaks L7" in text and "delete(id0001)" in text and "replay:" in text and "m.delete(" in text
    assert check_layer(layers.GoodMemory, length=2, walks=0, orders=False)["clauses"]["L1"]["holds"]


def test_a_law_violation_names_every_failing_clause_then_shows_the_table_then_each_witness_once():
    from coalg.conformance.report import format_report, format_witness

    with pytest.raises(LawViolation) as info:
        check_layer(layers.PlantedS4, length=3, walks=0, orders=False)
    report, text = info.value.report, str(info.value)
    assert [k for k, e in report["clauses"].items() if e["holds"] is False] == ["L1", "S1", "S4"]
    lines = text.splitlines()
    assert lines[0] == "the memory layer conform_layers:PlantedS4 breaks L1, S1, S4" and lines[1] == ""
    table = format_report(report, witnesses=False).splitlines()
    assert lines[2:2 + len(table)] == table  # the table without the witnesses, which follow it once each
    starts = []
    for k in ("L1", "S1", "S4"):
        e = report["clauses"][k]
        title = [n for n, line in enumerate(lines) if line.startswith(f"{k} {e['title']}: ")]
        assert len(title) == 1, k
        starts.append(title[0])
        assert text.count(format_witness(k, e)) == 1, k
    assert starts[0] == 3 + len(table) and lines[2 + len(table)] == ""  # one blank line under the table
    assert sum(line.strip() == "replay:" for line in lines) == 3  # one replay script per failing clause
    assert all(lines[n - 1] == "" for n in starts[1:])  # the others each after one blank line


def test_check_layer_asks_conform_for_its_own_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    """check_layer(f) judges f as conform(f) does with conform's defaults, the hash-seed and order runs included."""
    import inspect

    from coalg.conformance import kit

    asked: dict[str, object] = {}

    def recorded(factory: object, **kwargs: object) -> dict[str, object]:
        asked.update(kwargs)
        return {"clauses": {}}

    monkeypatch.setattr(kit, "conform", recorded)
    check_layer(layers.GoodMemory)
    defaults = {k: p.default for k, p in inspect.signature(conform).parameters.items() if k in asked}
    assert asked == defaults and set(asked) == {"length", "walks", "seed", "orders"}
    assert asked["orders"] is True


def test_the_l6_witness_of_a_layer_without_valid_time_runs_theorem_5_27_on_its_own_two_histories():
    report = conform("layers.no_valid_time:OneClock", length=2, walks=0, orders=False)
    w = report["clauses"]["L6"]["witness"]
    proof = w["theorem_5_27"]
    assert proof["conclusion"] is True
    first = proof["steps"][0]["data"]
    assert first["vt_h"] == [x["vt"] for x in w["h"]] and first["vt_h_prime"] == [x["vt"] for x in w["h_prime"]]
    assert first["vt_h"] != first["vt_h_prime"]
    assert "layers.no_valid_time:OneClock declares no valid-time argument" in proof["steps"][1]["explanation"]


class ClockOnValidTime(layers.GoodMemory):
    """Deterministic until a valid time is given: then save also stamps the wall clock."""

    def save(self, content: str, *, type: str = "fact", namespace: str = "global", tags: Any = (),
             metadata: Any = None, valid_time: Any = None) -> str:
        if valid_time is not None:
            metadata = {**(metadata or {}), "recorded_at": time.perf_counter_ns()}
        return super().save(content, type=type, namespace=namespace, tags=tags, metadata=metadata,
                            valid_time=valid_time)


def test_a_layer_nondeterministic_only_under_valid_time_gets_a_replay_that_passes_it():
    report = conform(ClockOnValidTime, length=2, walks=0, orders=False)
    l5 = report["clauses"]["L5"]
    assert l5["holds"] is False
    assert l5["reason"].endswith("the layer depends on something besides the calls (a clock, randomness, state "
                                 "shared between layers)")
    w = l5["witness"]
    assert any("valid_time" in c["letter"].get("record", {}) and c["letter"]["record"]["valid_time"] is not None
               for c in w["word"])
    assert "valid_time=" in w["replay"] and any("valid_time=" in c for c in w["calls"])


class StampedTombstones(layers.GoodMemory):
    """Deterministic until a delete: the record stays listed as a tombstone stamped with the wall clock."""

    def delete(self, id: str) -> None:
        r = self._get(id)
        r["metadata"] = {**r["metadata"], "deleted_at": time.perf_counter_ns()}
        r["type"] = "tombstone"


def test_a_nondeterministic_word_with_a_call_that_creates_nothing_replays_as_python():
    report = conform(StampedTombstones, length=3, walks=0, orders=False)
    w = report["clauses"]["L5"]["witness"]
    assert report["clauses"]["L5"]["holds"] is False and "deleted_at" in report["clauses"]["L5"]["reason"]
    ops = [c["letter"]["op"] for c in w["word"]]
    assert "delete" in ops
    line = w["calls"][ops.index("delete")]
    assert line.startswith("m.delete(")  # a plain call: it names no record it made
    compile(w["replay"], "replay.py", "exec")  # and the script is Python


class RefusalLeavesTraces(layers.GoodMemory):
    """A merge across namespaces, refused, after it wrote a draft record with an edge to the first record named."""

    def merge(self, ids: Sequence[str], *, valid_time: Any = None) -> str:
        rs = [self._records.get(i) for i in ids]
        if all(rs) and len({r["namespace"] for r in rs if r}) > 1:
            draft = self._new("draft", "fact", "global", (), {}, None)
            self._edges |= {(draft, "related_to", ids[0])}
        return super().merge(ids, valid_time=valid_time)


def test_a_refusal_that_changed_the_store_is_reported_with_everything_it_changed():
    """The witness of a refused call that changed the store lists what changed, each kind under its own key;
    checked against the stores before and after the call that the witness shows."""
    w = conform(RefusalLeavesTraces, length=3, walks=0, orders=False)["clauses"]["S1"]["witness"]
    before, after = w["before"], w["after"]
    key = json.dumps
    edges_before, edges_after = ({key(e, sort_keys=True) for e in s["edges"]} for s in (before, after))
    expected = {
        "lost_records": sorted(set(before["records"]) - set(after["records"])),
        "changed_records": sorted(i for i in set(before["records"]) & set(after["records"])
                                  if before["records"][i] != after["records"][i]),
        "added_records": sorted(set(after["records"]) - set(before["records"])),
        "lost_edges": sorted(edges_before - edges_after),
        "added_edges": sorted(edges_after - edges_before),
    }
    got = {k: sorted(key(e, sort_keys=True) for e in v) if k.endswith("edges") else v
           for k, v in w["offending"].items()}
    assert got == expected
    assert expected["added_records"] and expected["added_edges"]
    assert w["explanation"].startswith(f"{show_call(call_from_json(w['word'][-1]))} was refused (")
    for k in expected:
        if expected[k]:
            assert k.replace("_", " ") in w["explanation"], k


def test_a_layer_that_is_not_deterministic_fails_l5_and_nothing_else_is_judged():
    report = conform(layers.Nondeterministic, length=2, walks=0, orders=False)
    l5 = report["clauses"]["L5"]
    assert (l5["holds"], l5["explored"]) == (False, 1)
    assert "depends on something besides the calls" in l5["reason"]
    for k, e in report["clauses"].items():
        if k != "L5":
            assert (e["holds"], e["explored"], e["witness"]) == (None, 0, None), k
            assert e["reason"].startswith("not judged: the layer showed different stores for the same word"), k
    # the witness: the first word (one save), and the two stores it left, which differ only in the clock stamp
    w = l5["witness"]
    assert [c["letter"]["op"] for c in w["word"]] == ["save"] and w["length"] == 1 == len(w["calls"])
    assert w["calls"][0].startswith('ids["id0001"] = m.save(')
    first, second = w["after"]["records"], w["after_again"]["records"]
    assert list(first) == list(second) == ["id0001"]
    stamps = first["id0001"]["metadata"]["saved_at"], second["id0001"]["metadata"]["saved_at"]
    assert stamps[0] != stamps[1]
    assert {**first["id0001"], "metadata": None} == {**second["id0001"], "metadata": None}
    assert w["offending"] == {"record": "id0001", "field": "metadata",
                              "first": {"saved_at": stamps[0]}, "second": {"saved_at": stamps[1]}}
    assert w["minimality"] == "the first word replayed"
    assert w["explanation"] == l5["reason"] and str(stamps[0]) in l5["reason"] and str(stamps[1]) in l5["reason"]
    # the replay script runs the word on two fresh layers and prints the store each leaves
    assert w["replay"].count("Nondeterministic()") == 2 and "# the same word on another fresh layer" in w["replay"]
    path = os.pathsep.join([str(HERE), str(ROOT), *(p for p in sys.path if p)])
    p = subprocess.run([sys.executable, "-c", w["replay"]], capture_output=True, text=True, timeout=60,
                       env={**os.environ, "PYTHONPATH": path}, check=False)
    assert p.returncode == 0, p.stderr
    assert p.stdout.count("'id0001'") == 2 and p.stdout.count("saved_at") == 2


def test_a_replay_prints_the_records_no_call_returned():
    """A refused merge that leaves a record behind: S1 fails, and the replay shows that record, which no
    call returned (the script prints the records by the kit's names, then the others)."""
    class DraftOnRefusal(layers.GoodMemory):
        def merge(self, ids, *, valid_time=None):  # type: ignore[no-untyped-def]
            if len(set(ids)) < 2 or any(i not in self._records for i in ids):
                self._new("(draft merge)", "fact", "alice", (), {}, None)
            return super().merge(ids, valid_time=valid_time)

    r = conform(DraftOnRefusal, length=2, walks=0, orders=False)
    w = r["clauses"]["S1"]["witness"]
    assert r["clauses"]["S1"]["holds"] is False
    # the factory is local, so the script asks for it: "make_layer = ...  # your factory ..."
    script = "\n".join(x for x in w["replay"].splitlines() if not x.startswith("make_layer = ..."))
    namespace: dict[str, Any] = {"make_layer": DraftOnRefusal}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(script, namespace)
    assert "records no call returned:" in out.getvalue() and "(draft merge)" in out.getvalue()


def test_a_tombstone_nothing_shows_is_judged_by_runs_of_the_words_cited():
    """A deleted record stays listed, unmarked, and refuses later calls: the state after "save" and
    after "save, delete" looks alike.  The kit once ran the first order of an L5 reordering on a
    layer that had taken the delete, and failed this correct layer with a witness that did not
    replay."""
    from layers.unmarked_tombstone import UnmarkedTombstones

    report = conform("layers.unmarked_tombstone:UnmarkedTombstones", length=3, walks=200)
    assert report["clauses"]["L5"]["reason"].startswith("the same words showed the same records and edges under "
                                                        "PYTHONHASHSEED=0 and 1 (")
    assert {k: e["holds"] for k, e in report["clauses"].items()} == dict.fromkeys(CLAUSES, True)
    # its identifiers follow the order of creation, so no reordering of its saves is compared, and L5 says so
    assert "; no reordering of fresh saves could be compared" in report["clauses"]["L5"]["reason"]

    bb = BlackBox(UnmarkedTombstones, inspect_layer(UnmarkedTombstones))
    runner = Replay(UnmarkedTombstones, inspect_layer(UnmarkedTombstones))
    save, delete, evolve = Save(Record("a")), Delete("id0001"), Evolve("id0001", "v2")
    one = bb.realisation.step(bb.fresh, save, Allocation(("id0001",), 1))[1]
    assert bb.realisation.step(one, delete)[1] == one  # the delete shows nothing
    # the black box: a store stands for the first word that showed it, here "save"
    assert isinstance(bb.realisation.step(one, evolve, Allocation(("id0002",), 3))[0], Created)
    # the replay: the word itself, delete included
    made = runner.run([Call(save, Allocation(("id0001",), 1)), Call(delete),
                       Call(evolve, Allocation(("id0002",), 3))])
    assert isinstance(made[-1][0], Err) and made[-1][1] == one
    bb.release()
    runner.close()


@pytest.mark.parametrize(("layer", "key", "ops"), [
    (layers.PlantedL7, "L7", ["save", "evolve", "delete"]),  # an evolve's edge left pointing at nothing
    (layers.PlantedL3, "L3", ["save", "split"]),  # a split edge without its inverse
])
def test_a_violation_found_on_a_walk_is_shrunk_to_the_calls_that_show_it(layer, key, ops):
    """Words of one call cannot show these flaws, so a walk of eight finds them; its word is then cut a
    call at a time while the clause still fails, down to the calls each flaw needs."""
    w = conform(layer, length=1, walks=20, orders=False)["clauses"][key]["witness"]
    assert [c["letter"]["op"] for c in w["word"]] == ops and w["length"] == len(ops)
    assert w["minimality"].startswith("found on seeded random walk") and "then shrunk greedily" in w["minimality"]


def test_check_layer_passes_its_budget_on_and_names_a_layer_without_a_name():
    import functools

    report = check_layer(layers.GoodMemory, length=1, walks=2, seed=5, orders=False)
    assert report["budget"] == {"length": 1, "walks": 2, "walk_length": 8, "seed": 5}
    assert "not asked for" in report["clauses"]["L5"]["reason"]  # orders=False reached conform
    assert report["layer"] == "conform_layers:GoodMemory"
    broken = functools.partial(int, "x")  # a factory with no __qualname__ is named by its type
    with pytest.raises(BadLayer, match=r"calling the factory partial\(\) raised ValueError"):
        conform(broken, length=1, walks=0, orders=False)
    import inspect

    assert {k: v.default for k, v in inspect.signature(check_layer).parameters.items() if k != "factory"} == {
        "length": 3, "walks": 200, "seed": 0, "orders": True}


def test_an_insertion_order_found_on_a_walk_is_shrunk_to_the_saves_that_show_it():
    """Words of one call hold no two saves to swap, so only the walks can reorder; the walk's word is
    cut a call at a time while the two orders still differ (PlantedL5Insertion merges oldest first)."""
    report = conform("conform_layers:PlantedL5Insertion", length=1, walks=30)
    w = report["clauses"]["L5"]["witness"]
    assert (report["clauses"]["L5"]["holds"], w["kind"]) == (False, "insertion order")
    assert w["minimality"].startswith("found on a seeded random walk, then shrunk greedily")
    assert [c["op"] for c in w["word"]] == ["save", "save", "merge"] and w["length"] == 3
    assert (w["offending"]["call"], w["offending"]["field"]) == (3, "content")


def test_an_order_the_records_show_is_not_a_hidden_one():
    """The same merge by creation order, with the order shown as a field of each record ("born"): the
    two orders of the saves leave records that show other fields, which a call may read, so the
    reordering is not judged."""
    class ShownOrder(layers.PlantedL5Insertion):
        def records(self):  # type: ignore[no-untyped-def]
            return {i: {**r, "born": self._born[i]} for i, r in super().records().items()}

    from coalg.conformance.blackbox import Replay
    from coalg.conformance.detect import inspect_layer
    from coalg.conformance.explore import start
    from coalg.conformance.order import reordered
    from coalg.model import Merge, Record, Save

    word = [Save(Record("a", namespace="alice")), Save(Record("b", namespace="alice")), Merge(("id0001", "id0002"))]
    for factory, differs in ((layers.PlantedL5Insertion, True), (ShownOrder, False)):
        runner = Replay(factory, inspect_layer(factory))
        assert (reordered(runner, start(runner.fresh), word) is not None) is differs, factory.__name__
        runner.close()


def test_saves_that_depend_on_one_another_are_not_an_order_dependence():
    """PlantedL4i numbers each save by the size of the whole layer: two saves made in the other order
    leave other records (positions swapped), so L5, which compares one call on one store, is not
    refuted; L4(i), L4(ii) and S2 are."""
    report = conform("conform_layers:PlantedL4i", length=2, walks=10)
    got = {k: e["holds"] for k, e in report["clauses"].items()}
    assert got["L5"] is True and not got["L4i"] and not got["L4ii"] and not got["S2"]


def test_the_contextfs_model_through_the_protocol_gives_table_2():
    report = conform(contextfs_model, length=3, walks=0, orders=False)
    build_law_tables()  # the library's verdicts as this run's book build computed them, if valid
    table = law_table(CONTEXTFS)["clauses"]
    assert {k: e["holds"] for k, e in report["clauses"].items()} == {k: table[k]["holds"] for k in CLAUSES}
    assert report["clauses"]["L5"]["witness"]["kind"] == "ambiguous prefix"
    proof = report["clauses"]["L6"]["witness"]["theorem_5_27"]  # no valid_time: Theorem 5.27, run on the layer
    assert proof["conclusion"] is True and proof["steps"][-1]["title"] == "Hence L6 fails"


def test_the_repaired_realisation_through_the_protocol_holds_everywhere():
    report = conform(repaired, length=3, walks=10)
    assert {e["holds"] for e in report["clauses"].values()} == {True}


@pytest.mark.skipif(not __import__("coalg.contextfs", fromlist=["AVAILABLE"]).AVAILABLE, reason="the released contextfs is not installed")
def test_the_released_contextfs_through_the_protocol_gives_table_2():
    report = conform(contextfs, length=3, walks=0)
    build_law_tables()
    table = law_table(CONTEXTFS)["clauses"]
    assert {k: e["holds"] for k, e in report["clauses"].items()} == {k: table[k]["holds"] for k in CLAUSES}
    assert report["clauses"]["L5"]["witness"]["kind"] == "hash seed"  # Prop. 5.20 on the package


def test_the_report_is_the_same_whatever_the_layer_s_identifiers():
    one = conform(layers.GoodMemory, length=2, walks=5, orders=False)
    two = conform(layers.GoodMemory, length=2, walks=5, orders=False)
    assert json.dumps(one, sort_keys=True) == json.dumps(two, sort_keys=True)
