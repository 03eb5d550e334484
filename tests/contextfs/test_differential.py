"""Differential testing of the ContextFS model against the released package (``coalg differential``).

The small run here is what CI runs (fixed seed, small N); ``coalg differential
--words 300 --length 6 --seed 1`` is the acceptance run.  The comparison is
shown able to fail: a model with a broken step, θ or fault handling is caught.
Skipped, with the reason, where contextfs 0.2.35 is not installed.
"""

from __future__ import annotations

import json
import random
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
from coalg.contextfs.random_words import IdSupply, random_step, resolved_ids
from coalg.model import CONTEXTFS, DEFAULT_THETA, EMPTY, Merge, Theta, step

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


@pytest.mark.parametrize("types", [["fact", "decision"], ["decision", "fact"], ["fact", "decision", "procedural"],
                                   ["episodic", "fact", "fact", "decision", "decision"]])
def test_tie_order_is_the_packages_expression(types: list[str]) -> None:
    mt = cfs.modules().MemoryType
    members = [mt(t) for t in types]
    tied = {t for t in types if types.count(t) == max(types.count(x) for x in types)}
    assert Theta(type_priority=diff.tie_order(types)).choose_type(tied) == max(set(members),
                                                                              key=members.count).value


def test_words_are_reproducible_and_name_full_identifiers() -> None:
    def word(seed: str) -> list[str]:
        rng = random.Random(seed)
        supply, s, out = IdSupply(rng), EMPTY, []
        for k in range(1, 30):
            ws = random_step(rng, s, k, supply, [], theta=Theta())
            out.append(str(ws))
            s = CONTEXTFS.step(s, ws.call.letter, ws.call.allocation, faults=ws.call.faults)[1]
            assert all(len(i) == 12 for i in s.records)
        return out

    assert word("x") == word("x") and word("x") != word("y")


def test_the_committed_large_run_is_a_clean_report() -> None:
    """The book's large run (data/differential-10000.json) is a report of this command with every word agreeing."""
    report = json.loads((ROOT / "data" / "differential-10000.json").read_text())
    assert (report["words"], report["length"], report["seed"], report["hashseed"]) == (10_000, 10, 1, 0)
    assert report["agree"] == report["words"] and report["disagreements"] == [] and report["disagreeing"] == 0
    assert report["steps"] > report["words"] and report["faulty_steps"] > 0 and report["ties"]["type"] > 0
    assert set(report["abstractions"]) <= set(cfs.ABSTRACTIONS)
