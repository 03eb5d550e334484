"""Fuzzing ``coalg conform`` with hostile layers: a fixed seed, a small budget.

Each example is :class:`fuzz_layers.Planned`: ``GoodMemory`` (every law holds)
with one method doing one hostile thing on its n-th call.  Whatever the plan,
the run ends within its timeout with exit 0 and a valid JSON report (the
hostile call never came, or its effect is harmless) or exit 2 and one line
on stderr -- never exit 1, never a traceback.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from fuzz_layers import ACTIONS, METHODS
from hypothesis import given
from hypothesis import strategies as st
from mutate import fuzz

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent


@fuzz(6)
@given(st.sampled_from(METHODS), st.sampled_from(ACTIONS), st.integers(0, 3))
def test_a_planned_hostile_layer_ends_in_exit_0_or_2(method: str, action: str, after: int) -> None:
    plan = {"method": method, "action": action, "after": after}
    env = {**os.environ, "PYTHONPATH": f"{ROOT}{os.pathsep}{HERE}", "FUZZ_LAYER_PLAN": json.dumps(plan)}
    t0 = time.monotonic()
    p = subprocess.run([sys.executable, "-m", "coalg", "conform", "fuzz_layers:Planned", "--length", "2",
                        "--walks", "1", "--call-timeout", "1", "--timeout", "120", "--json"],
                       capture_output=True, text=True, cwd=HERE, env=env, timeout=180, check=False)
    assert time.monotonic() - t0 < 150
    assert p.returncode in (0, 2), (plan, p.returncode, p.stderr[-400:])
    assert "Traceback" not in p.stderr, plan
    if p.returncode == 0:
        report = json.loads(p.stdout)
        assert all(e["holds"] is not False for e in report["clauses"].values()), plan
    else:
        assert p.stdout == "" and p.stderr.count("\n") == 1 and p.stderr.startswith("coalg conform: error: ")
        assert len(p.stderr) < 1000, plan
    if method in ("save", "records", "edges") and after == 0 and action not in ("str_subclass", "huge_id",
                                                                                  "deep_metadata"):
        assert p.returncode == 2, plan  # the first call of these comes on every run
