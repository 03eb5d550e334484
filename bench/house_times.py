#!/usr/bin/env python3
"""Benchmark (not a test): how long the house takes to check itself and to build its book.

Three measurements, each written to ``bench/results/house.json`` under its own key, with
the commit, the date and the machine, for Appendix E:

* ``ci``   -- ``.ci/run`` on a fresh clone of the committed HEAD, as CI runs it
  (``CI=true``, set-up included): wall seconds, exit status and pytest's tally.  It
  takes as long as CI does (20 minutes or more here); run nothing heavy beside it.
* ``book`` -- a clean build of the web book (``bench/book_build.py``): wall seconds and
  the chapters' execution times summed.
* ``verify`` -- ``make verify`` in this working tree (its ``.venv``): wall seconds, exit
  status and the lines of its summary.

The targets are 600 s for ``.ci/run``, 60 s for the clean build and 1,800 s for ``make
verify``, on two cores.

Usage: ``.venv/bin/python bench/house_times.py ci|book|verify``
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "bench" / "results" / "house.json"
TARGETS = {"ci": 600.0, "book": 60.0, "verify": 1800.0}
"""Seconds on two cores: the aims the measurements are held against."""


def _commit() -> str:
    return subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                          check=True).stdout.strip()


def measure_ci() -> dict[str, Any]:
    """``CI=true bash .ci/run`` in a fresh clone of HEAD; its wall time, exit status and tally."""
    with tempfile.TemporaryDirectory(prefix="house-ci-") as tmp:
        clone = Path(tmp) / "clone"
        subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
        env["CI"] = "true"
        log = Path(tmp) / "ci.log"
        start = time.perf_counter()
        with log.open("w", encoding="utf-8") as f:
            rc = subprocess.run(["bash", ".ci/run"], cwd=clone, env=env, stdin=subprocess.DEVNULL, stdout=f,
                                stderr=subprocess.STDOUT, check=False).returncode
        wall = time.perf_counter() - start
        text = log.read_text(encoding="utf-8", errors="replace")
    if rc != 0:
        sys.stderr.write(text[-3000:])
    return {"seconds": round(wall, 1), "exit": rc, "tally": tally(text)}


def tally(log: str) -> str | None:
    """pytest's last summary (``2651 passed, 1 skipped``) in a log, if it has one."""
    found = re.findall(r"=+ (\d+ (?:passed|failed|errors?)[^=]*?) in [\d.]+s", log)
    return found[-1] if found else None


def measure_book() -> dict[str, Any]:
    """One clean build of the book (as ``bench/book_build.py`` makes it)."""
    sys.path.insert(0, str(ROOT / "bench"))
    from book_build import one_build

    wall, times = one_build()
    return {"seconds": round(wall, 1), "chapters": len(times), "chapters_seconds": round(sum(t for t, _ in times), 1),
            "exit": 0}


def measure_verify() -> dict[str, Any]:
    """``make verify`` here; its wall time, exit status and summary (the lines after its heading)."""
    start = time.perf_counter()
    lines: list[str] = []
    with subprocess.Popen(["make", "verify"], cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True) as p:
        assert p.stdout is not None
        for line in p.stdout:  # shown as it comes: the run takes half an hour
            sys.stdout.write(line)
            lines.append(line)
    wall = time.perf_counter() - start
    return {"seconds": round(wall, 1), "exit": p.returncode, "summary": verify_summary("".join(lines))}


def verify_summary(log: str) -> list[str]:
    """The summary ``make verify`` prints at its end, one entry per line (``[]`` if it printed none)."""
    _, found, rest = log.rpartition("make verify: summary\n")
    return [line.strip() for line in rest.splitlines() if line.strip()] if found else []


def record(key: str, result: dict[str, Any], commit: str) -> dict[str, Any]:
    """Put ``result`` (measured on ``commit``) under ``key`` in ``house.json`` (written whole, then renamed)."""
    data = json.loads(OUT.read_text(encoding="utf-8")) if OUT.exists() else {}
    data[key] = {**result, "target_seconds": TARGETS[key], "commit": commit,
                 "measured": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
                 "machine": f"{os.cpu_count()} cores, {platform.python_implementation()} {platform.python_version()}"}
    tmp = OUT.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    tmp.replace(OUT)
    return data[key]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", choices=sorted(TARGETS),
                    help="ci: .ci/run on a fresh clone; book: a clean book build; verify: make verify here")
    args = ap.parse_args()
    commit = _commit()  # what is measured: HEAD when the measurement starts, not when it ends
    measure = {"ci": measure_ci, "book": measure_book, "verify": measure_verify}[args.what]
    result = record(args.what, measure(), commit)
    met = "met" if result["exit"] == 0 and result["seconds"] < result["target_seconds"] else "not met"
    print(f"{args.what}: {result['seconds']:.0f} s (target {result['target_seconds']:.0f} s: {met}), "
          f"exit {result['exit']}" + (f", {result['tally']}" if result.get("tally") else ""))
    return 0 if result["exit"] == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
