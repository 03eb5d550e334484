"""``coalg conform`` stays in control of a hostile layer: exit 2 with one line, never 0, a traceback or a hang."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hostile_layers import FINISHING, HOSTILE

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
CALL_TIMEOUT = 2


def _conform(spec: str, *args: str, limit: float = 120) -> tuple[subprocess.CompletedProcess[str], float]:
    path = [str(ROOT), str(HERE), os.environ.get("PYTHONPATH", "")]  # and whatever the run itself was given
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in path if p)}
    env.pop("PYTHONHASHSEED", None)
    t0 = time.monotonic()
    p = subprocess.run([sys.executable, "-m", "coalg", "conform", spec, "--length", "2", "--walks", "2",
                        "--call-timeout", str(CALL_TIMEOUT), "--timeout", "90", *args],
                       capture_output=True, text=True, cwd=HERE, env=env, timeout=limit, check=False)
    return p, time.monotonic() - t0


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_a_hostile_layer_makes_conform_exit_2_with_one_line(name):
    p, took = _conform(f"hostile_layers:{name}", "--json")
    assert p.returncode == 2, (p.returncode, p.stdout[-300:], p.stderr[-300:])
    assert p.stdout == ""
    assert p.stderr.count("\n") == 1 and p.stderr.startswith("coalg conform: error: "), p.stderr[-500:]
    assert "Traceback" not in p.stderr
    assert HOSTILE[name] in p.stderr, p.stderr
    assert len(p.stderr) < 1000  # whatever the layer said is quoted in a few hundred characters at most
    assert took < 60


@pytest.mark.parametrize("name", FINISHING)
def test_printing_or_a_thread_left_running_does_not_spoil_the_run(name):
    p, took = _conform(f"hostile_layers:{name}", "--json")
    assert p.returncode == 0, p.stderr[-500:]
    report = json.loads(p.stdout)  # the layer's prints went to stderr: the JSON is intact
    assert report["layer"] == f"hostile_layers:{name}"
    assert all(e["holds"] is not False for e in report["clauses"].values())
    assert took < 60
    if name == "PrintingLayer":
        assert "saving" in p.stderr and "{not json" in p.stderr


def test_the_timeout_of_the_whole_run_is_kept():
    p, took = _conform("hostile_layers:SteadyButSlow", "--timeout", "0.5")
    assert p.returncode == 2
    assert p.stderr == "coalg conform: error: timed out after 0.5 s (--timeout): the run did not finish\n"
    assert took < 30


@pytest.mark.parametrize("value", ["0", "-1", "nan", "inf", "soon"])
def test_timeouts_must_be_positive_numbers(value):
    p, _ = _conform("conform_layers:GoodMemory", "--call-timeout", value)
    assert p.returncode == 2 and p.stderr.count("\n") == 1 and "--call-timeout" in p.stderr


def test_a_module_that_exits_while_imported_is_one_line():
    p, _ = _conform("hostile_import:Memory")
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr == ("coalg conform: error: loading the layer raised SystemExit: 0; a module must import "
                        "without ending the interpreter\n")


def test_a_signal_without_a_name_is_named_by_its_number() -> None:
    """A layer's process may die of a real-time signal, which has no name: the one-line error gives its number."""
    import signal

    from coalg.conformance.isolation import _signal_name

    assert _signal_name(int(signal.SIGKILL)) == f"SIGKILL ({int(signal.SIGKILL)})"
    rt = int(signal.SIGRTMIN) + 3
    assert _signal_name(rt) == str(rt)
