"""The bookkeeping of ``bench/house_times.py`` (the timings themselves are not run here): each
measurement lands under its own key with its aim, commit and date, and the other keys are kept."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("bench_house_times", ROOT / "bench" / "house_times.py")
assert _spec is not None and _spec.loader is not None
house = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(house)


def test_a_measurement_keeps_the_other_and_says_its_aim(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "house.json"
    monkeypatch.setattr(house, "OUT", out)
    house.record("book", {"seconds": 70.0, "exit": 0}, "abc1234")
    house.record("ci", {"seconds": 900.5, "exit": 1, "tally": "3 failed, 10 passed"}, "def5678")
    data = json.loads(out.read_text(encoding="utf-8"))
    assert sorted(data) == ["book", "ci"] and not list(tmp_path.glob("*.tmp"))
    assert (data["book"]["seconds"], data["book"]["target_seconds"]) == (70.0, 60.0)
    assert (data["ci"]["exit"], data["ci"]["target_seconds"], data["ci"]["tally"]) == (1, 600.0, "3 failed, 10 passed")
    assert data["ci"]["commit"] == "def5678" and data["ci"]["measured"].endswith("UTC")
    house.record("book", {"seconds": 50.0, "exit": 0}, "abc1234")
    again = json.loads(out.read_text(encoding="utf-8"))
    assert again["book"]["seconds"] == 50.0 and again["ci"] == data["ci"]


def test_the_tally_is_pytest_s_last_summary() -> None:
    log = ("== 3 failed, 2648 passed, 1 skipped in 2506.04s (0:41:46) ==\nrerun\n"
           "================= 2651 passed, 1 skipped in 1214.39s (0:20:14) =================\n")
    assert house.tally(log) == "2651 passed, 1 skipped"
    assert house.tally("== 2 errors in 3.1s ==") == "2 errors" and house.tally("make: *** Error 2") is None


def test_the_verify_summary_is_what_follows_its_heading() -> None:
    log = ("make verify: summary\nstale\n...\n\nmake verify: summary\n"
           "property tests: 5000 examples each, seed 42\n"
           "  coalg laws --length 4, repaired: 8 of 8 law clauses hold, 0 fail; 4 of 4 schema clauses hold.\n"
           "verify: every step passed\n")
    assert house.verify_summary(log) == [
        "property tests: 5000 examples each, seed 42",
        "coalg laws --length 4, repaired: 8 of 8 law clauses hold, 0 fail; 4 of 4 schema clauses hold.",
        "verify: every step passed"]
    assert house.verify_summary("make: *** [verify] Error 1\n") == []
    assert house.TARGETS["verify"] == 1800.0
