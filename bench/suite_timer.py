#!/usr/bin/env python3
"""Benchmark (not a test): a slice of the test suite, one process against pytest-xdist workers.

``make test`` runs ``pytest -n N --dist loadfile`` (N one more than the cores).  This times the same slice both
ways, so the effect of the workers can be measured without running the whole suite
(the book build and browser checks are left out unless ``--slice`` names them).

Usage: ``.venv/bin/python bench/suite_timer.py [--workers N] [--slice "tests/model tests/paper"]``
"""

from __future__ import annotations

import argparse
import os
import shlex
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def timed(args: list[str]) -> float:
    """Wall seconds of one pytest run of ``args``; exits if the run fails."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:randomly", "-m", "not book", *args],
                          cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        sys.stderr.write(proc.stdout[-3000:])
        raise SystemExit(f"pytest {' '.join(args)} failed (exit {proc.returncode})")
    return wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", default="2", help="pytest-xdist's -n (default 2, the cores here)")
    parser.add_argument("--slice", default="tests/model tests/paper", help="the test paths to time")
    args = parser.parse_args()
    paths = shlex.split(args.slice)
    one = timed(paths)
    many = timed([*paths, "-n", args.workers, "--dist", "loadfile"])
    print(f"{args.slice}: one process {one:.1f} s, -n {args.workers} --dist loadfile {many:.1f} s "
          f"({one / many:.2f}x)")


if __name__ == "__main__":
    main()
