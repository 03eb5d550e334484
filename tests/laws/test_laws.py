"""Laws L1–L7 and schema S1–S4 (coalg.laws): Table 2 of the paper, computed, on both realisations.

* one ``test_law_<key>`` per clause: its verdict on the ContextFS model and on REPAIRED;
* every counterexample replays: running its calls from its start store gives its store after,
  and the violation it names is visible there;
* counterexamples are minimal in word length (no violation with a shorter bound);
* ``python -m coalg laws`` output (human and JSON), byte-identical under two PYTHONHASHSEEDs.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from budget import DEEP
from shared_build import build_law_tables

from coalg.cli import UnknownRealisation, main, realisation_law_table
from coalg.laws import (
    CHECKS,
    CLAUSE_TABLE,
    CLAUSES,
    INFO,
    LAW_CLAUSES,
    SEEDS,
    check,
    check_L2,
    check_L5,
    clear_cache,
    explore,
    format_law_table,
    fragment_alphabet,
    get_clause,
    l3_fault_path,
    l7_strong_form,
    law_table,
    start_of,
)
from coalg.model import (
    ANCESTRY,
    CONTEXTFS,
    LINEAGE,
    REPAIRED,
    Allocation,
    Created,
    Letter,
    Merge,
    Realisation,
    Relation,
    Save,
    Store,
    Theta,
    call_from_json,
    creates,
    derived_record,
    get_realisation,
    meta_ancestry,
    named,
    run,
    store_from_json,
    theta_from_json,
)
from coalg.paper import numbered

ROOT = Path(__file__).resolve().parents[2]

EXPECTED_CONTEXTFS = {
    "L1": True, "L2": False, "L3": True, "L4i": True, "L4ii": False, "L5": False, "L6": False, "L7": False,
    "S1": True, "S2": True, "S3": True, "S4": True,
}


@pytest.fixture(scope="module")
def tables() -> dict[str, dict[str, Any]]:
    build_law_tables()  # the verdicts this run's book build computed, when there are valid ones
    return {"contextfs": law_table(CONTEXTFS), "repaired": law_table(REPAIRED)}


def _entry(tables: dict[str, dict[str, Any]], real: str, key: str) -> dict[str, Any]:
    e = tables[real]["clauses"][key]
    assert e["explored"] > 0 and e["verdict"] == ("property" if e["holds"] else "counterexample")
    return e


# --------------------------------------------------------------------------- Table 2, clause by clause


def test_table_2_counts(tables: dict[str, dict[str, Any]]) -> None:
    c, r = tables["contextfs"]["clauses"], tables["repaired"]["clauses"]
    assert sorted(c) == sorted(CLAUSES) == sorted(r)
    assert [k for k in LAW_CLAUSES if c[k]["holds"]] == ["L1", "L3", "L4i"]  # 3 hold, 5 fail
    assert {k: c[k]["holds"] for k in CLAUSES} == EXPECTED_CONTEXTFS
    assert all(r[k]["holds"] for k in CLAUSES)
    assert tables["contextfs"]["realisation"] == "contextfs" and set(tables["contextfs"]) == {"realisation",
                                                                                                "clauses"}


def test_law_L1(tables: dict[str, dict[str, Any]]) -> None:
    c, r = _entry(tables, "contextfs", "L1"), _entry(tables, "repaired", "L1")
    assert c["holds"] and "fault-free" in c["reading"] and c["kind"] == "theorem"
    assert r["holds"] and "failing edge write" in r["reading"]


def test_law_L2(tables: dict[str, dict[str, Any]]) -> None:
    e = _entry(tables, "contextfs", "L2")
    w = e["witness"]
    # Witness B of Prop. 5.14: evolving a merged record inherits merged_from without the edge.
    assert w["seed"] == "merged" and w["length"] == 1
    assert w["word"][0]["letter"]["op"] == "evolve"
    assert w["offending"]["relation"] == "merged_from" and w["offending"]["edge_targets"] == []
    assert w["offending"]["metadata"] == ["id0001", "id0002"]
    assert _entry(tables, "repaired", "L2")["holds"]


def test_law_L3(tables: dict[str, dict[str, Any]]) -> None:
    e = _entry(tables, "contextfs", "L3")
    assert e["holds"] and "fault-free" in e["reading"]
    assert e["fault_path"]["holds"] is False and "but not its inverse" in e["fault_path"]["explanation"]
    assert _entry(tables, "repaired", "L3")["holds"]


def _restrict(s: Store, nu: str) -> Store:
    """π_ν(s) from Definition 3.4: the records of namespace ν and the edges between two of them."""
    fibre = {i for i, r in s.records.items() if r.namespace == nu}
    return Store.of({i: s.records[i] for i in fibre}, [e for e in s.edges if e.source in fibre and e.target in fibre])


def _l4i_cases(real: Realisation) -> list[tuple[Store, Letter, Allocation, str]]:
    """Every fragment call in some A_ν(s), at the seed stores and one call beyond each, strictly fresh."""
    stores = []
    for sd in SEEDS:
        st = start_of(real, sd)
        stores.append((st.store, st.clock))
        for a in fragment_alphabet(st.store):
            xi = Allocation(tuple(f"zz{k}" for k in range(creates(a))), st.clock + 1)
            stores.append((real.step(st.store, a, xi)[1], st.clock + 1))
    cases = []
    for s, clock in stores:
        for a in fragment_alphabet(s):
            if not isinstance(a, Save) and not (named(a) and all(i in s.records for i in named(a))):
                continue  # a ∈ A_ν(s) names records only, all of them in ν
            spaces = {a.record.namespace} if isinstance(a, Save) else {s.records[i].namespace for i in named(a)}
            if len(spaces) == 1:  # zz… is never mentioned by a seed: strictly fresh
                xi = Allocation(tuple(f"zz{k}" for k in range(10, 10 + creates(a))), clock + 1)
                cases.append((s, a, xi, spaces.pop()))
    return cases


def test_law_L4i(tables: dict[str, dict[str, Any]]) -> None:
    """L4(i) recomputed from its definition: π_ν′ is untouched for ν′ ≠ ν, and α(π_ν s)(a) = (o, π_ν s′)."""
    for real in (CONTEXTFS, REPAIRED):
        e = _entry(tables, real.name, "L4i")
        assert e["holds"] and "strictly fresh" in e["reading"]
        cases = _l4i_cases(real)
        assert len(cases) > 200
        for s, a, xi, nu in cases:
            o, s2 = real.step(s, a, xi)
            for other in {r.namespace for r in s.records.values()} | {r.namespace for r in s2.records.values()}:
                if other != nu:
                    assert _restrict(s2, other) == _restrict(s, other), (real.name, s, a, other)
            assert real.step(_restrict(s, nu), a, xi) == (o, _restrict(s2, nu)), (real.name, s, a)


def test_law_L4ii(tables: dict[str, dict[str, Any]]) -> None:
    w = _entry(tables, "contextfs", "L4ii")["witness"]
    assert w["seed"] == "two-namespaces" and w["word"][0]["letter"]["op"] == "merge"
    assert w["offending"]["namespace"] == "alice" and "content" in w["offending"]["differs_in"]
    assert "[Source 2]: k" in w["offending"]["record_after"]["content"]
    # the two stores agree on π_alice
    from coalg.model import restrict

    assert restrict(store_from_json(w["start"]), "alice") == restrict(store_from_json(w["other_before"]), "alice")
    assert _entry(tables, "repaired", "L4ii")["holds"]


def test_law_L5(tables: dict[str, dict[str, Any]]) -> None:
    w = _entry(tables, "contextfs", "L5")["witness"]
    assert w["seed"] == "tie" and w["word"][0]["letter"]["op"] == "merge"
    assert w["offending"]["field"] == "type" and w["offending"]["tied_types"] == ["decision", "fact"]
    assert {w["offending"]["value"], w["offending"]["other_value"]} == {"decision", "fact"}
    assert _entry(tables, "repaired", "L5")["holds"]


def test_law_L6(tables: dict[str, dict[str, Any]]) -> None:
    w = _entry(tables, "contextfs", "L6")["witness"]
    assert w["length"] == 1 and w["word"][0]["letter"]["op"] == "save"
    assert w["offending"]["vt_h"] != w["offending"]["vt_h_prime"]
    assert [c["tt"] for c in w["h"]] == [c["tt"] for c in w["h_prime"]]
    assert _entry(tables, "repaired", "L6")["holds"]


def test_law_L7(tables: dict[str, dict[str, Any]]) -> None:
    e = _entry(tables, "contextfs", "L7")
    w = e["witness"]
    assert "R⁻ ∪ R⁺" in e["labels"] and "prefix" in e["reachable_set"]
    letter = w["word"][-1]["letter"]
    assert letter["op"] == "evolve" and letter["by_prefix"] is True          # W2
    assert w["offending"]["dangling_edges"][0][1] == "evolved_from"
    assert e["strong_form"]["holds"] is False                               # W1 inside S_lin
    r = _entry(tables, "repaired", "L7")
    assert r["holds"] and r["strong_form"]["holds"]


def test_law_S1(tables: dict[str, dict[str, Any]]) -> None:
    assert _entry(tables, "contextfs", "S1")["holds"] and _entry(tables, "repaired", "S1")["holds"]


def test_law_S2(tables: dict[str, dict[str, Any]]) -> None:
    assert _entry(tables, "contextfs", "S2")["holds"] and _entry(tables, "repaired", "S2")["holds"]


def test_law_S3(tables: dict[str, dict[str, Any]]) -> None:
    assert _entry(tables, "contextfs", "S3")["holds"] and _entry(tables, "repaired", "S3")["holds"]


def test_law_S4(tables: dict[str, dict[str, Any]]) -> None:
    assert _entry(tables, "contextfs", "S4")["holds"] and _entry(tables, "repaired", "S4")["holds"]


# --------------------------------------------------------------------------- witnesses replay


def _replay(w: dict[str, Any], real_name: str = "contextfs") -> Any:
    real = get_realisation(real_name)
    calls = [call_from_json(c) for c in w["word"]]
    return run(store_from_json(w["start"]), calls, theta=theta_from_json(w["theta"]), step_fn=real.step)


@pytest.mark.parametrize("key", [k for k, v in EXPECTED_CONTEXTFS.items() if not v])
def test_witness_replays(tables: dict[str, dict[str, Any]], key: str) -> None:
    w = tables["contextfs"]["clauses"][key]["witness"]
    json.dumps(w)
    trace = _replay(w)
    after = store_from_json(w["after"])
    assert trace.final == after
    off = w["offending"]
    if key == "L2":
        rec = after.records[off["record"]]
        edges = {e.target for e in after.edges if e.source == off["record"] and e.relation.value == off["relation"]}
        assert sorted(meta_ancestry(rec, Relation(off["relation"]))) == off["metadata"] and sorted(edges) == []
    elif key == "L4ii":
        other = store_from_json(w["other_before"])
        last = call_from_json(w["word"][-1])
        _, other_after = CONTEXTFS.step(other, last.letter, last.allocation, theta=theta_from_json(w["theta"]))
        assert other_after == store_from_json(w["other_after"])
        j = off["record"]
        assert after.records[j].namespace == off["namespace"] and after.records[j] != other_after.records[j]
    elif key == "L5":
        last = call_from_json(w["word"][-1])
        before = trace.states[-2]
        _, other_after = CONTEXTFS.step(before, last.letter, last.allocation, theta=theta_from_json(w["other_theta"]))
        assert other_after == store_from_json(w["other_after"]) != after
    elif key == "L6":
        assert w["h"] != w["h_prime"]
        for h in (w["h"], w["h_prime"]):
            calls = [call_from_json(c["call"]) for c in h]
            assert run(store_from_json(w["start"]), calls, step_fn=CONTEXTFS.step).final == after
    elif key == "L7":
        assert after.dangling_edges(LINEAGE)
        assert [list(e) for e in sorted(after.dangling_edges(LINEAGE), key=lambda e: (e.relation not in ANCESTRY, e))
                ] == [[e[0], Relation(e[1]), e[2]] for e in off["dangling_edges"]]


def test_fault_path_witnesses_replay() -> None:
    for v in (l3_fault_path(CONTEXTFS), check_L2(CONTEXTFS, faults=True), l7_strong_form(CONTEXTFS)):
        assert not v.holds
        assert _replay(v.witness).final == store_from_json(v.witness["after"])
    w = l3_fault_path(CONTEXTFS).witness
    one_way = w["offending"]["one_way_edges"]
    assert one_way == [[w["word"][0]["allocation"]["ids"][0], "evolved_from", w["word"][0]["letter"]["id"]]]


@pytest.mark.parametrize("key", ["L2", "L4ii", "L5", "L7"])
def test_counterexamples_are_minimal(tables: dict[str, dict[str, Any]], key: str) -> None:
    """No word shorter than the witness violates the clause (max_len = n − 1; 0 checks the seeds alone)."""
    n = tables["contextfs"]["clauses"][key]["witness"]["length"]
    assert n == len(tables["contextfs"]["clauses"][key]["witness"]["word"]) >= 1
    assert CHECKS[key](CONTEXTFS, max_len=n - 1, random_runs=0).holds
    again = CHECKS[key](CONTEXTFS, max_len=n, random_runs=0)
    assert not again.holds and again.witness["length"] == n


def test_l6_minimal_and_repaired_separates() -> None:
    v = CHECKS["L6"](CONTEXTFS, max_len=1, random_runs=0)
    assert not v.holds and v.witness["length"] == 1
    assert CHECKS["L6"](REPAIRED, max_len=2, random_runs=5).holds


def test_l5_witness_theta_really_differs() -> None:
    w = check_L5(CONTEXTFS).witness
    t1, t2 = theta_from_json(w["theta"]), theta_from_json(w["other_theta"])
    start = store_from_json(w["start"])
    letter = call_from_json(w["word"][0])
    assert isinstance(letter.letter, Merge)
    types = {CONTEXTFS.step(start, letter.letter, letter.allocation, theta=t)[0].items[0][1].type for t in (t1, t2)}
    assert types == {"decision", "fact"}
    assert t1 == Theta()


def test_repaired_reads_ancestry_from_edges() -> None:
    """L2 on REPAIRED is not vacuous: the stored records carry no ancestry keys, the view does."""
    t = law_table(REPAIRED)
    assert t["clauses"]["L2"]["explored"] > 100
    w = check_L2(CONTEXTFS).witness
    s = store_from_json(w["start"])
    call = call_from_json(w["word"][0])
    out, after = REPAIRED.step(s, call.letter, call.allocation)
    assert isinstance(out, Created)
    j = out.ids[0]
    assert not any(k in after.records[j].metadata for k in ("evolved_from", "merged_from", "split_from"))
    assert meta_ancestry(derived_record(after, j), Relation.EVOLVED_FROM) == {call.letter.id}


# --------------------------------------------------------------------------- the command


def _laws_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["laws", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_laws_command_human(capsys: pytest.CaptureFixture[str]) -> None:
    code, text, err = _laws_cli(capsys, "--realisation", "contextfs")
    assert code == 0 and err == ""
    assert text == format_law_table(realisation_law_table("contextfs"))
    header = next(line for line in text.splitlines() if line.startswith("clause"))
    assert "kind" in header and "holds" in header and "explored" in header
    assert "3 of 8 law clauses hold, 5 fail; 4 of 4 schema clauses hold." in text
    assert "instantiation" in text and "theorem" in text and "L3 holds in the fault-free reading only" in text
    code, text, _ = _laws_cli(capsys, "-r", "repaired")
    assert code == 0 and "8 of 8 law clauses hold, 0 fail" in text


def test_laws_command_json_and_errors(capsys: pytest.CaptureFixture[str]) -> None:
    code, text, _ = _laws_cli(capsys, "-r", "repaired", "--json")
    d = json.loads(text)
    assert code == 0 and d == law_table(REPAIRED) == realisation_law_table("repaired")
    assert text == json.dumps(d, sort_keys=True, indent=2, ensure_ascii=False) + "\n"
    code, text, err = _laws_cli(capsys, "-r", "nope", "--json")
    assert (code, text) == (2, "")
    assert err == ("coalg laws: error: unknown realisation 'nope'; "
                   "known: contextfs, contextfs-runtime, repaired\n")


def test_realisation_law_table_raises_a_clear_error() -> None:
    with pytest.raises(UnknownRealisation, match="unknown realisation 'nope'; known: contextfs, "):
        realisation_law_table("nope")
    assert realisation_law_table("contextfs") == law_table(CONTEXTFS)


def _coalg(*args: str) -> subprocess.CompletedProcess[str]:
    """``python -m coalg`` in a fresh interpreter (no verdict remembered from this process)."""
    return subprocess.run([sys.executable, "-m", "coalg", *args], cwd=ROOT, capture_output=True, text=True,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)), timeout=300, check=False)


def test_laws_in_several_processes_print_the_same_table_and_say_as_each_search_ends() -> None:
    one = _coalg("laws", "-r", "repaired", "--length", "2", "--json")
    two = _coalg("laws", "-r", "repaired", "--length", "2", "--json", "--jobs", "2")
    assert one.returncode == two.returncode == 0 and one.stderr == ""
    assert two.stdout == one.stdout and json.loads(one.stdout)["realisation"] == "repaired"
    # one line per shared search, naming its clauses; together they name every clause once
    lines = two.stderr.splitlines()
    assert all(line.startswith("repaired: ") and " settled in " in line for line in lines), lines
    named_clauses = [k for line in lines for k in line.removeprefix("repaired: ").split(" settled")[0].split(", ")]
    assert sorted(named_clauses) == sorted(json.loads(one.stdout)["clauses"])
    assert f"({len(lines)} of {len(lines)} searches)" in two.stderr


@pytest.mark.parametrize(("args", "message"), [
    (["-j", "0"], "coalg laws: error: --jobs must be at least 1, not 0\n"),
    (["-r", "contextfs-runtime", "--jobs", "2"],
     ("coalg laws: error: --jobs applies to the models (contextfs, repaired); contextfs-runtime is observed "
      "in one child interpreter\n")),
])
def test_laws_refuses_a_bad_number_of_processes_in_one_line(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    assert _laws_cli(capsys, *args) == (2, "", message)


HASHSEED_LENGTH = [] if DEEP else ["--length", "2"]
"""The tables compared under two hash seeds: to length 2 in the fast profile (every clause, its
random walks and the witnesses of the failing ones); whole under ``make verify``."""

SCRIPT = f"""
from coalg.cli import main
for name in ("contextfs", "repaired"):
    for flags in (["--json"], []):
        main(["laws", "-r", name, *flags, *{HASHSEED_LENGTH!r}])
"""


def test_laws_output_identical_under_pythonhashseed(capsys: pytest.CaptureFixture[str]) -> None:
    # another interpreter under a hash seed other than this process's (a fixed one it was given, else random)
    seed = "12345" if os.environ.get("PYTHONHASHSEED") == "0" else "0"
    env = dict(os.environ, PYTHONHASHSEED=seed, PYTHONPATH=str(ROOT))
    p = subprocess.run([sys.executable, "-c", SCRIPT], env=env, cwd=ROOT, capture_output=True, text=True,
                       timeout=300, check=True)
    capsys.readouterr()
    exec(SCRIPT, {})  # noqa: S102 -- the same calls in this process
    here = capsys.readouterr().out
    assert p.stdout == here and '"realisation": "contextfs"' in here


# --------------------------------------------------------------------------- the clause table


def test_one_clause_table_and_its_entry_points() -> None:
    assert tuple(c.key for c in CLAUSE_TABLE) == CLAUSES == tuple(CHECKS)
    for key in CLAUSES:
        assert CHECKS[key].__name__ == f"check_{key}" and get_clause(key).key == key
        assert INFO[key].title == numbered(key).table2.title and INFO[key].kind == numbered(key).nature
    with pytest.raises(KeyError, match="unknown clause 'L8'"):
        get_clause("L8")


@pytest.mark.parametrize("key", ["L1", "L4ii", "S2"])
def test_an_entry_point_is_the_one_check_with_its_clause_fixed(key: str) -> None:
    direct = check(get_clause(key), CONTEXTFS, max_len=1, random_runs=0)
    assert CHECKS[key](CONTEXTFS, max_len=1, random_runs=0) == direct
    assert direct.explored > 0


def test_faults_are_refused_by_a_clause_checked_without_them() -> None:
    with pytest.raises(ValueError, match="S1 is checked without injected faults"):
        CHECKS["S1"](CONTEXTFS, faults=True)
    assert not check(get_clause("L1"), CONTEXTFS, faults=True, max_len=1, random_runs=0).details["reading"].startswith(
        "edge writes succeed")


def test_explorations_share_their_levels() -> None:
    a = explore(CONTEXTFS, max_len=1)
    b = explore(CONTEXTFS, "fragment", max_len=2, seeds=list(SEEDS))  # another bound, same levels
    assert b.level(1) is a.level(1) and a.computed == b.computed
    assert explore(CONTEXTFS, "fragment", max_len=1, faults=True).level(1) is not a.level(1)
    with pytest.raises(ValueError, match="unknown alphabet 'nope'"):
        explore(CONTEXTFS, "nope")
    t = law_table(CONTEXTFS)
    t["clauses"]["L1"]["holds"] = "tampered"
    assert law_table(CONTEXTFS)["clauses"]["L1"]["holds"] is True  # a new table each time
    clear_cache()
    assert explore(CONTEXTFS, max_len=1).level(1) is not a.level(1)


def test_laws_command_length_and_search_columns(capsys: pytest.CaptureFixture[str]) -> None:
    code, text, _ = _laws_cli(capsys, "-r", "contextfs", "--length", "1")
    assert code == 0
    header = next(line for line in text.splitlines() if line.startswith("clause"))
    assert header.split()[4:8] == ["explored", "length", "states", "walks"]
    l1 = next(line for line in text.splitlines() if line.startswith("L1 "))
    assert "≤ 1" in l1 and "length: every word up to this length" in text
    code, text, _ = _laws_cli(capsys, "-r", "contextfs", "--length", "1", "--json")
    d = json.loads(text)
    assert d == law_table(CONTEXTFS, max_len=1) and d["clauses"]["L1"]["exhaustive_length"] == 1
    code, text, err = _laws_cli(capsys, "-r", "contextfs", "--length", "0")
    assert (code, text) == (2, "") and err == "coalg laws: error: --length must be at least 1, not 0\n"
    code, text, err = _laws_cli(capsys, "-r", "contextfs-runtime", "--length", "2")
    assert (code, text) == (2, "") and "keeps its own budget" in err
