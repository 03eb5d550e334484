"""Benchmark (not a test): the law table per realisation, and the exploration with and without its reduction.

Run with ``PYTHONPATH=. python3 bench/laws_bench.py [--repeat N] [--length L] [--out FILE]``.

1. **The default table.**  For each model realisation the cached explorations,
   verdicts and tables are cleared, then ``law_table`` is computed; the time is
   reported as process CPU time (what the machine's other load does not
   inflate much) and wall-clock time, median of ``--repeat`` runs.  Per clause:
   explored cases, exhaustive length, distinct states, random walks.
2. **The reduction.**  For each exploration the table uses, every level up to
   ``--length`` is streamed once with the reduction (stores met once up to
   renaming and clock readings) and once without (exact stores): distinct
   states extended, transitions computed, seconds, states and transitions per
   second.

With ``--out`` the numbers are also written as JSON (``bench/results/laws.json``).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from coalg import laws
from coalg.model import REALISATIONS

GROUPS = [  # (realisation, alphabet, faults): the explorations the default tables search
    ("contextfs", "fragment", False),
    ("repaired", "fragment", False),
    ("repaired", "fragment", True),
    ("repaired", "full", False),
]


def table_bench(name: str, repeat: int) -> dict[str, Any]:
    real = REALISATIONS[name]
    cpu: list[float] = []
    wall: list[float] = []
    table: dict[str, Any] = {}
    for _ in range(repeat):
        laws.clear_cache()
        c0, w0 = time.process_time(), time.perf_counter()
        table = laws.law_table(real)
        cpu.append(time.process_time() - c0)
        wall.append(time.perf_counter() - w0)
    clauses = {k: {f: e[f] for f in ("holds", "explored", "exhaustive_length", "states", "random_walks")}
               for k, e in table["clauses"].items()}
    print(f"realisation {name}: default law table in {statistics.median(cpu):.2f} s CPU, "
          f"{statistics.median(wall):.2f} s wall (median of {repeat})")
    print(f"  {'clause':<6} {'holds':<5} {'explored':>9} {'length':>6} {'states':>7} {'walks':>5}")
    for k, c in clauses.items():
        print(f"  {k:<6} {'yes' if c['holds'] else 'NO':<5} {c['explored']:>9} {c['exhaustive_length']:>6} "
              f"{c['states']:>7} {c['random_walks']:>5}")
    return {"cpu_seconds": statistics.median(cpu), "wall_seconds": statistics.median(wall), "runs_cpu": cpu,
            "runs_wall": wall, "clauses": clauses}


def reduction_bench(name: str, alphabet: str, faults: bool, length: int) -> dict[str, Any]:
    real = REALISATIONS[name]
    out: dict[str, Any] = {}
    for reduce in (True, False):
        laws.clear_cache()
        c0, w0 = time.process_time(), time.perf_counter()
        ex = laws.explore(real, alphabet, faults=faults, max_len=length, reduce=reduce)
        transitions = sum(1 for _ in ex.transitions())
        cpu, wall = time.process_time() - c0, time.perf_counter() - w0
        states = ex.states()
        out["reduced" if reduce else "exact"] = {
            "states": states, "transitions": transitions, "cpu_seconds": cpu, "wall_seconds": wall,
            "states_per_second": states / cpu, "transitions_per_second": transitions / cpu,
        }
    r, e = out["reduced"], out["exact"]
    print(f"{name:<9} {alphabet:<8} faults={faults!s:<5} length {length}: "
          f"states {r['states']:>6} vs {e['states']:>6} exact ({e['states'] / r['states']:.2f}x fewer), "
          f"transitions {r['transitions']:>7} vs {e['transitions']:>7}, "
          f"{r['cpu_seconds']:.1f} s vs {e['cpu_seconds']:.1f} s CPU, "
          f"{r['states_per_second']:.0f} vs {e['states_per_second']:.0f} states/s")
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--length", type=int, default=3, help="exhaustive length of the reduction benchmark")
    ap.add_argument("--realisation", choices=sorted(REALISATIONS), action="append")
    ap.add_argument("--skip-reduction", action="store_true")
    ap.add_argument("--out", type=Path, help="also write the numbers as JSON here")
    args = ap.parse_args()
    names = args.realisation or sorted(REALISATIONS)
    result: dict[str, Any] = {
        "machine": {"cores": os.cpu_count(), "python": platform.python_version(), "platform": platform.platform(),
                    "load_average": os.getloadavg(), "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())},
        "tables": {n: table_bench(n, args.repeat) for n in names},
    }
    if not args.skip_reduction:
        result["reduction"] = [
            {"realisation": n, "alphabet": a, "faults": f, "length": args.length,
             **reduction_bench(n, a, f, args.length)} for n, a, f in GROUPS if n in names]
    result["machine"]["load_average_after"] = os.getloadavg()
    if args.out:
        args.out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
        print(f"written to {args.out}")


if __name__ == "__main__":
    main()
