"""Differential testing of the ContextFS model against the released package (``coalg differential``).

The small run here is what CI runs (fixed seed, small N); ``coalg differential
--words 300 --length 6 --seed 1`` is the acceptance run.  The comparison is
shown able to fail: a model with a broken step, θ or fault handling is caught.
Skipped, with the reason, where contextfs 0.2.35 is not installed.
"""

from __future__ import annotations

import json
import random
import sqlite3
import subprocess
import sys
import uuid
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from coalg.contextfs import AVAILABLE, unavailable_reason

pytestmark = pytest.mark.skipif(not AVAILABLE, reason=f"differential tests need contextfs 0.2.35: {unavailable_reason()}")

import coalg.contextfs as cfs
import coalg.contextfs.differential_testing as diff
from coalg.cli import main
from coalg.contextfs.package_run import StepClock, pinned_uuids
from coalg.contextfs.random_words import (
    COVERAGE,
    IdSupply,
    WordStep,
    covers,
    random_step,
    resolved_ids,
)
from coalg.contextfs.word_files import words_from_json, words_to_json
from coalg.model import (
    CONTEXTFS,
    DEFAULT_THETA,
    EMPTY,
    Allocation,
    Call,
    Created,
    Delete,
    Evolve,
    Letter,
    Merge,
    Recall,
    RecallPrefix,
    Record,
    Save,
    Split,
    Store,
    Theta,
    step,
)

ROOT = Path(__file__).resolve().parents[2]


def test_small_run_agrees_and_reports_what_it_compared() -> None:
    report = cfs.differential(60, 6, seed=11, workers=2)
    assert report["words"] == 60 and report["agree"] == 60, report["disagreements"][:1]
    assert report["disagreements"] == [] and report["disagreeing"] == 0
    assert report["steps"] >= 60 and report["faulty_steps"] > 0
    assert set(report["abstractions"]) <= set(cfs.ABSTRACTIONS)
    assert report["package"] == "contextfs 0.2.35" and report["hashseed"] == 0
    text = cfs.format_differential(report)
    assert "60 agree, 0 disagree" in text


def test_another_hash_seed_agrees_too() -> None:
    report = cfs.differential(25, 6, seed=4, hashseed=5, workers=1)
    assert report["agree"] == 25 and report["hashseed"] == 5


def test_cli_json_and_exit_status(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["differential", "--words", "12", "--length", "4", "--seed", "2", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert {"words", "agree", "disagreements"} <= set(out) and out["words"] == out["agree"] == 12


def test_cli_exit_1_on_a_disagreement(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    def fake(words: int, length: int, seed: int, **_: object) -> dict[str, object]:
        d = {"word": ["save('x' in ns-a) -> a0000000-001"], "index": 0, "step": 1, "what": "output",
             "model": {"out": "bottom"}, "package": {"out": "flag", "value": True}}
        return {"words": words, "agree": words - 1, "disagreements": [d], "disagreeing": 1, "length": length,
                "seed": seed, "hashseed": 0, "faults": True, "package": "contextfs 0.2.35", "steps": 1,
                "faulty_steps": 0, "words_with_ties": 0, "ties": {"type": 0, "prefix": 0},
                "abstractions": {}}

    monkeypatch.setattr(cfs, "differential", fake)
    assert main(["differential", "--words", "3"]) == 1
    assert "2 agree, 1 disagree" in capsys.readouterr().out


def test_cli_exit_2_without_the_package(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from coalg.contextfs import offline

    monkeypatch.setattr(offline, "unavailable_reason", lambda: "the released contextfs package is not installed")
    assert main(["differential", "--words", "3"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("coalg differential: error:") and "not installed" in err and "Traceback" not in err


def test_cli_bad_usage() -> None:
    p = subprocess.run([sys.executable, "-m", "coalg", "differential", "--length", "0"], cwd=ROOT,
                       capture_output=True, text=True, check=False)
    assert p.returncode == 2 and "--length" in p.stderr and "Traceback" not in p.stderr


def test_help_names_the_exit_statuses() -> None:
    p = subprocess.run([sys.executable, "-m", "coalg", "--help"], cwd=ROOT, capture_output=True, text=True,
                       check=True)
    assert "`differential` finds a word" in " ".join(p.stdout.split())


# --------------------------------------------------------------------------- the comparison can fail


def _disagreeing(monkeypatch: pytest.MonkeyPatch, **patches: object) -> list[dict[str, object]]:
    for name, value in patches.items():
        monkeypatch.setattr(diff, name, value)
    return [r["disagreement"] for r in diff.run_words(3, range(150), 6) if not r["agree"]]


def test_in_process_run_agrees() -> None:
    assert all(r["agree"] for r in diff.run_words(3, range(40), 6))


def test_a_model_that_ignores_faults_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    def mutant(s, a, xi, *, theta=DEFAULT_THETA, faults=frozenset()):  # type: ignore[no-untyped-def]
        return step(s, a, xi, theta=theta)

    bad = _disagreeing(monkeypatch, step=mutant)
    assert bad and any(d["what"] == "store" for d in bad)
    shortest = min(bad, key=lambda d: len(d["word"]))
    assert "fails]" in shortest["word"][-1]  # the disagreeing step is one with a fault


def test_a_model_that_files_merges_under_the_last_argument_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    def mutant(s, a, xi, *, theta=DEFAULT_THETA, faults=frozenset()):  # type: ignore[no-untyped-def]
        out, s2 = step(s, a, xi, theta=theta, faults=faults)
        if isinstance(a, Merge) and xi.ids and xi.ids[0] in s2.records:
            last = resolved_ids(s, a, theta)[-1]
            j = xi.ids[0]
            s2 = s2.with_record(j, replace(s2.records[j], namespace=s.records[last].namespace))
        return out, s2

    bad = _disagreeing(monkeypatch, step=mutant)
    assert bad and {d["what"] for d in bad} <= {"output", "store"}
    assert any(d["what"] == "store" for d in bad)
    # where the stores differ, the report shows the merged record on each side, and nothing else
    for d in (d for d in bad if d["what"] == "store"):
        mine, theirs = d["model"], d["package"]
        assert mine["edges"] == theirs["edges"] == [] and list(mine["records"]) == list(theirs["records"])
        (j,) = mine["records"]
        assert {**mine["records"][j], "namespace": None} == {**theirs["records"][j], "namespace": None}
        assert mine["records"][j]["namespace"] != theirs["records"][j]["namespace"]


def test_a_store_difference_names_records_of_one_side_only_and_the_edges_each_side_lacks() -> None:
    a, b, c = Record("a"), Record("b"), Record("c")
    mine = Store.of({"x": a, "y": b}, [("x", "evolved_into", "y")])
    theirs = Store.of({"x": a, "z": c}, [("x", "merged_into", "z")])
    m, p = diff._store_diff(mine, theirs)
    assert m == {"records": {"y": _record(b), "z": None}, "edges": [["x", "evolved_into", "y"]]}
    assert p == {"records": {"y": None, "z": _record(c)}, "edges": [["x", "merged_into", "z"]]}


def _record(r: Record) -> dict[str, object]:
    return {"content": r.content, "type": "fact", "namespace": "global", "tags": [], "summary": None,
            "metadata": {}, "created_at": None, "updated_at": None, "valid_time": None}


def test_theta_must_follow_the_row_order(monkeypatch: pytest.MonkeyPatch) -> None:
    real = diff._theta

    def reversed_rows(s, ws, rows):  # type: ignore[no-untyped-def]
        theta, ties = real(s, ws, rows)
        return replace(theta, id_priority=(), descending=not theta.descending), ties

    bad = _disagreeing(monkeypatch, _theta=reversed_rows)
    assert bad and all("…" in d["word"][-1] for d in bad)  # each time, a call that resolves a prefix


# --------------------------------------------------------------------------- the pins


def test_pinned_uuids_hand_out_the_allocation() -> None:
    ids = ["a0123456-789", "b1fedcba-987"]
    with pinned_uuids(ids) as handed:
        got = [str(uuid.uuid4())[:12] for _ in ids]
        with pytest.raises(RuntimeError):
            uuid.uuid4()
    assert got == ids and handed == ids
    assert str(uuid.uuid4())[:12] not in ids  # restored


def test_step_clock_reads_by_order() -> None:
    clock = StepClock()
    clock.begin()
    inside = datetime.now()
    inside_utc = datetime.now(UTC).isoformat()
    clock.end()
    clock.begin()
    clock.end()
    assert clock.step_of(inside) == 1 and clock.step_of(inside_utc) == 1
    assert clock.step_of(inside - timedelta(days=1)) is None and clock.step_of("not a time") is None
    assert clock.local[0][1] < clock.local[1][0]  # the marks of two steps never coincide


def test_a_merge_type_tie_is_accepted_for_some_theta_only_within_the_modes() -> None:
    s = Store.of({"f": Record("x", type="fact"), "d": Record("y", type="decision"), "u": Record("z", type="user")})
    ws = WordStep(Call(Merge(("f", "d")), Allocation(("m",), 1)))
    theta = Theta(id_priority=("f", "d", "u"))

    def made(ty: str) -> Created:
        return Created((("m", Record("x", type=ty)),))

    chosen = diff._for_some_theta(s, ws, theta, made("fact"))
    assert chosen is not None and step(s, ws.call.letter, ws.call.allocation, theta=chosen)[1].records["m"].type == "fact"
    assert diff._for_some_theta(s, ws, theta, made("user")) is None  # not a mode: no θ allows it
    untied = WordStep(Call(Merge(("f", "d"), type="user"), Allocation(("m",), 1)))
    assert diff._for_some_theta(s, untied, theta, made("user")) is None  # a given type is no tie


def test_a_model_with_a_plain_prefix_test_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    from coalg.model import coalgebra

    monkeypatch.setattr(coalgebra, "like_prefix", lambda p, i: i.startswith(p))
    monkeypatch.setattr(coalgebra, "like_matches", lambda s, p: s.ids_with_prefix(p))
    bad = [r["disagreement"] for r in diff.run_words(5, range(150), 10) if not r["agree"]]
    assert bad and all("…" in d["word"][-1] for d in bad)  # each time, a call that resolves a prefix


def test_a_model_that_accepts_every_type_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    from coalg.model import coalgebra

    monkeypatch.setattr(coalgebra, "is_memory_type", lambda t: True)
    bad = [r["disagreement"] for r in diff.run_words(5, range(150), 10) if not r["agree"]]
    assert bad and all(d["what"] == "output" and d["package"]["out"] == "err" for d in bad)


def test_words_reach_the_whole_input_domain() -> None:
    results = diff.run_words(5, range(120), 10)
    reached = {c for r in results for c in r["covers"]}
    assert reached == set(COVERAGE) and all(r["agree"] for r in results)


def test_covers_is_read_off_the_letters() -> None:
    xi = Allocation((), 1)
    assert covers([WordStep(Call(RecallPrefix("A_"), xi))]) == {"mixed-case prefix", "wildcard prefix"}
    assert covers([WordStep(Call(RecallPrefix("a0"), xi))]) == frozenset()
    assert covers([WordStep(Call(Save(Record("é", type="Fact")), Allocation(("a0000000-001",), 1)))]) == {
        "unicode", "invalid type"}
    assert covers([WordStep(Call(Save(Record("x")), Allocation(("A_",), 1)), explicit_id=True)]) == {
        "odd identifier"}


@pytest.mark.parametrize(("letter", "reached"), [
    (Delete("A0", by_prefix=True), {"mixed-case prefix"}),
    (Evolve("a%", "v2", by_prefix=True), {"wildcard prefix"}),
    (Merge(("a0", "B_"), by_prefix=True), {"mixed-case prefix", "wildcard prefix"}),
    (Merge(("a0", "b_")), set()),  # by equality: what the identifiers hold is no prefix
    (Merge(("a0", "b1"), by_prefix=True), set()),
    (Evolve("a0", "v2", by_prefix=True), set()),
    (Delete("a_"), set()),
    (Merge(("a0", "b1"), type="événement"), {"invalid type", "unicode"}),
    (Merge(("a0", "b1"), type="fact"), set()),
    (RecallPrefix("é"), {"unicode"}),  # LIKE folds ASCII letters only: é is no mixed case
])
def test_covers_reads_every_letter_by_prefix_and_a_merge_s_type(letter: Letter, reached: set[str]) -> None:
    """The parts of the domain a call by prefix reaches are read off its prefix (or prefixes, joined),
    whichever letter it is; a merge's own type counts as a save's does."""
    assert covers([WordStep(Call(letter, Allocation((), 1)))]) == reached


def test_equality_letters_name_identifiers_the_lookup_finds_alone() -> None:
    rng = random.Random("alone")
    supply, s = IdSupply(rng), EMPTY
    for k in range(1, 300):
        ws = random_step(rng, s, k, supply, [], theta=Theta())
        a = ws.call.letter
        if isinstance(a, (Recall, Delete, Evolve, Split)) and not getattr(a, "by_prefix", False):
            hits = [j for j in sorted(s.records) if sqlite_like(j, a.id + "%")]
            assert hits in ([], [a.id]), (str(ws), hits)
        s = CONTEXTFS.step(s, a, ws.call.allocation, faults=ws.call.faults)[1]


def sqlite_like(value: str, pattern: str) -> bool:
    """SQLite's own LIKE (never the model's)."""
    conn = sqlite3.connect(":memory:")
    try:
        return bool(conn.execute("SELECT ? LIKE ?", (value, pattern)).fetchone()[0])
    finally:
        conn.close()


# --------------------------------------------------------------------------- word files


def test_a_disagreement_replays_from_its_json(monkeypatch: pytest.MonkeyPatch) -> None:
    from coalg.model import coalgebra

    monkeypatch.setattr(coalgebra, "is_memory_type", lambda t: True)
    bad = [r["disagreement"] for r in diff.run_words(5, range(60), 10) if not r["agree"]]
    assert bad
    words = words_from_json({"disagreements": bad})
    assert [[str(w) for w in word] for word in words] == [d["word"] for d in bad]
    again = diff.replay_words(words)
    assert [r["disagreement"]["step"] for r in again] == [d["step"] for d in bad]
    monkeypatch.undo()
    assert all(r["agree"] for r in diff.replay_words(words))  # the model as it is agrees on them


def test_cli_replays_a_word_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rng = random.Random("file")
    supply, s, word = IdSupply(rng), EMPTY, []
    for k in range(1, 8):
        ws = random_step(rng, s, k, supply, [], theta=Theta())
        word.append(ws)
        s = CONTEXTFS.step(s, ws.call.letter, ws.call.allocation, faults=ws.call.faults)[1]
    f = tmp_path / "words.json"
    f.write_text(json.dumps(words_to_json([word, word[:3]])))
    assert main(["differential", "--word-file", str(f), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["words"] == out["agree"] == 2 and out["steps"] == 10 and out["word_file"] == str(f)


@pytest.mark.parametrize(("text", "said"), [
    ("not json", "not JSON (Expecting value: line 1 column 1 (char 0))"),
    ("[[{\"letter\": {\"op\": \"recall\", \"id\": NaN}}]]", "not JSON (NaN is not a JSON number)"),
    ("[[{\"allocation\": {\"clock\": -Infinity}}]]", "not JSON (-Infinity is not a JSON number)"),
    ("[]", "holds no word to replay (a report whose words all agree lists none)"),
    ("{\"disagreements\": [{\"word\": []}]}", "disagreements[0]: a disagreement needs its \"calls\" (the steps to "
                                             "replay)"),
    ("[[{\"letter\": {\"op\": \"fly\"}}]]", "[0][0].letter.op: unknown operation 'fly'; known: save, save_at, "
                                           "recall, recall_prefix, delete, evolve, merge, split, supersede, link"),
])
def test_cli_bad_word_file_is_one_line(tmp_path: Path, text: str, said: str) -> None:
    f = tmp_path / "bad.json"
    f.write_text(text)
    p = subprocess.run([sys.executable, "-m", "coalg", "differential", "--word-file", str(f)], cwd=ROOT,
                       capture_output=True, text=True, check=False)
    assert (p.returncode, p.stdout) == (2, "")
    assert p.stderr == f"coalg differential: error: {f}: {said}\n"


def test_words_are_reproducible() -> None:
    def word(seed: str) -> list[str]:
        rng = random.Random(seed)
        supply, s, out = IdSupply(rng), EMPTY, []
        for k in range(1, 30):
            ws = random_step(rng, s, k, supply, [], theta=Theta())
            out.append(str(ws))
            s = CONTEXTFS.step(s, ws.call.letter, ws.call.allocation, faults=ws.call.faults)[1]
        return out

    assert word("x") == word("x") and word("x") != word("y")


def test_the_committed_large_run_is_a_clean_report() -> None:
    """The book's large run (data/differential-10000.json) is a report of this command with every word agreeing."""
    report = json.loads((ROOT / "data" / "differential-10000.json").read_text())
    assert (report["words"], report["length"], report["seed"], report["hashseed"]) == (10_000, 10, 1, 0)
    assert report["agree"] == report["words"] and report["disagreements"] == [] and report["disagreeing"] == 0
    assert report["steps"] > report["words"] and report["faulty_steps"] > 0 and report["ties"]["type"] > 0
    assert set(report["abstractions"]) <= set(cfs.ABSTRACTIONS)
    assert set(report["domain"]) == set(COVERAGE) and all(n > 0 for n in report["domain"].values())


def test_a_step_names_its_identifier_itself_only_as_a_save_of_one_record() -> None:
    from coalg.contextfs.random_words import WordStep
    from coalg.contextfs.word_files import step_from_json
    from coalg.model import Allocation, Call, Evolve, JsonInputError, Record, Save, call_to_json

    saved = Call(Save(Record("x")), Allocation(("a0000000-001",), 1))
    save, evolve = call_to_json(saved), call_to_json(Call(Evolve("a0000000-001", "y"), Allocation(("b",), 2)))
    assert step_from_json(save) == WordStep(saved, False)
    assert step_from_json({**save, "explicit_id": True}) == WordStep(saved, True)
    two = {**save, "allocation": {**save["allocation"], "ids": ["a0000000-001", "c"]}}
    for doc, said in [
        ([[{**save, "explicit_id": "yes"}]], "[0][0].explicit_id: expected true or false"),
        ([[save, {**evolve, "explicit_id": True}]], "[0][1]: explicit_id needs a save with one allocated identifier"),
        ([[{**two, "explicit_id": True}]], "[0][0]: explicit_id needs a save with one allocated identifier"),
        ([[save, {"letter": {"op": "fly"}}]], "[0][1].letter.op: unknown operation 'fly'; known: save, save_at, "
                                               "recall, recall_prefix, delete, evolve, merge, split, supersede, link"),
    ]:
        with pytest.raises(JsonInputError) as e:
            words_from_json(doc, "w.json")
        assert str(e.value) == f"w.json: {said}"
