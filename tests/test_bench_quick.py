"""Smoke test of the benchmark suite itself: ``bench/run.py --quick`` runs every available
peer on tiny inputs and passes its correctness gate (no timing assertions)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_bench_quick(tmp_path):
    out = tmp_path / "quick.json"
    p = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "run.py"), "--quick", "--out", str(out)],
        capture_output=True, text=True, timeout=120, cwd=ROOT,
    )
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-2000:]
    res = json.loads(out.read_text())
    assert res["ok"] is True
    peers = {r["peer"] for r in res["bisim"]}
    assert {"ours", "naive"} <= peers
    assert all(r["agree"] for r in res["bisim"] + res["ancestry"])
    verdicts = {r["input"]: r["answer"] for r in res["bisim"] if r["shape"] == "compare"}
    assert verdicts == {"random vs permuted": True, "random vs perturbed": False}
    assert {r["peer"] for r in res["ancestry"]} >= {"ours", "scipy", "sqlite"}
    assert res["machine"]["cores"] >= 1
    floors = res["startup"]
    assert 0 < floors["python"] < floors["python + import numpy"]


def test_bench_gate_catches_disagreement(monkeypatch, capsys):
    """A peer that answers differently fails the run (exit 1)."""
    sys.path.insert(0, str(ROOT / "bench"))
    import run as bench_run

    real = bench_run.classes_of

    def wrong(peer, out, inp):
        ans = real(peer, out, inp)
        return ans + 1 if peer == "naive" and isinstance(ans, int) else ans

    monkeypatch.setattr(bench_run, "classes_of", wrong)
    rc = bench_run.main(["--quick", "--sizes", "300/900", "--skip", "ancestry"])
    assert rc == 1
    assert "DISAGREEMENT" in capsys.readouterr().err


def test_audit_bench_small(tmp_path):
    """The audit benchmark runs end to end on a small database and writes what the appendix reads."""
    out = tmp_path / "audit.json"
    p = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "audit_bench.py"), "--records", "3000", "--reps", "1",
         "--out", str(out)],
        capture_output=True, text=True, timeout=120, cwd=ROOT,
    )
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-2000:]
    res = json.loads(out.read_text())
    assert res["generated"]["records"] == 3000  # hard-deleted extras leave exactly the rows asked for
    views = {r["view"]: r for r in res["audit"]}
    assert set(views) == {"contextfs", "model"}
    for r in views.values():
        assert r["exit"] == 1 and r["cli_s"] > 0  # the generated store has findings, by design
        assert r["records"] == 3000 - res["generated"]["soft_deleted"]
        assert r["findings"]["L3"] == res["generated"]["one_way"]
