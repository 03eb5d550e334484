#!/usr/bin/env python3
"""Benchmark (not a test): the clean build time of the whole web book.

Copies the sources to a temporary folder (so the working tree's ``_build`` is not
touched), runs the same command as ``make book`` there with ``_build`` absent, and
prints the wall time and the slowest notebooks.  The target is under two minutes
on the 2-core development machine (the aim is one minute).  The chapters run on every core
before Sphinx reads them (``tools/sphinxext/coalg_execute.py``), after the law tables
they share are computed once.

Usage: ``.venv/bin/python bench/book_build.py [--runs N]``
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SKIP = {"_build", ".venv", "node_modules", ".git", "__pycache__", ".hypothesis", ".pytest_cache"}


def copy_tree(dst: Path) -> None:
    for item in ROOT.iterdir():
        if item.name in SKIP:
            continue
        target = dst / item.name
        if item.name == "_vendor":
            target.symlink_to(item)
        elif item.is_dir():
            shutil.copytree(item, target, ignore=shutil.ignore_patterns(*SKIP))
        else:
            shutil.copy2(item, target)


def one_build() -> tuple[float, list[tuple[float, str]]]:
    jb = ROOT / ".venv" / "bin" / "jupyter-book"
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        copy_tree(work)
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        t0 = time.perf_counter()
        p = subprocess.run([str(jb), "build", ".", "-W", "-n", "--keep-going", "--all"], cwd=work,
                           capture_output=True, text=True, env=env)
        wall = time.perf_counter() - t0
        if p.returncode != 0:
            sys.stderr.write(p.stdout[-3000:] + p.stderr[-3000:])
            raise SystemExit(f"the build failed (exit {p.returncode})")
        times = [(float(s), f) for f, s in re.findall(r"(\S+\.(?:md|ipynb)): Executed notebook in ([\d.]+) seconds", p.stdout)]
        ran = re.search(r"notebooks ran in ([\d.]+) s", p.stdout)
        if ran:
            print(f"  the chapters ran side by side in {float(ran.group(1)):.1f} s of it")
    return wall, sorted(times, reverse=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=1, help="clean builds to time (median reported)")
    args = ap.parse_args()
    walls = []
    slowest: list[tuple[float, str]] = []
    for k in range(args.runs):
        wall, slowest = one_build()
        walls.append(wall)
        print(f"run {k + 1}: clean build in {wall:.1f} s")
    print(f"median clean build: {statistics.median(walls):.1f} s on {os.cpu_count()} cores "
          f"(target: under 120 s); notebooks executed: {len(slowest)}, their times summed "
          f"{sum(t for t, _ in slowest):.1f} s")
    for t, f in slowest[:8]:
        print(f"  {t:6.2f} s  {Path(f).relative_to(Path(f).parents[1])}")


if __name__ == "__main__":
    main()
