"""Benchmark (not a test): how long the full law table takes per realisation, and how much it explores.

Run with ``PYTHONPATH=. python3 bench/laws_bench.py [--repeat N]``.  For each
realisation the cached explorations and law tables are cleared first, so every
repetition pays for its own breadth-first search; the table printed per clause is
from the last run.
"explored" counts what each clause's docstring says (calls, stores, store pairs
or histories).
"""

from __future__ import annotations

import argparse
import statistics
import time

from coalg import laws
from coalg.model import REALISATIONS


def _transitions_computed(real) -> int:
    """Transitions computed by the explorations the clauses of the table searched (each counted once)."""
    seen: dict[int, laws.Exploration] = {}
    for c in laws.CLAUSE_TABLE:
        faults = (not real.edge_faults) if c.faults is None else c.faults
        seeds = laws.SEEDS[:1] if c.key == "L6" else laws.SEEDS
        ex = laws.explore(real, c.alphabet, faults=faults, max_len=c.max_len, seeds=seeds)  # cached: no new work
        seen[id(ex)] = ex
    return sum(ex.computed for ex in seen.values())


def bench(name: str, repeat: int) -> None:
    real = REALISATIONS[name]
    totals: list[float] = []
    per_clause: dict[str, tuple[float, int, bool]] = {}
    transitions = 0
    for _ in range(repeat):
        laws.clear_cache()
        start = time.perf_counter()
        for key in laws.CLAUSES:
            t0 = time.perf_counter()
            v = laws.CHECKS[key](real)
            per_clause[key] = (time.perf_counter() - t0, v.explored, v.holds)
        totals.append(time.perf_counter() - start)
        transitions = _transitions_computed(real)
    print(f"realisation {name}: full law table in {statistics.median(totals):.2f} s "
          f"(median of {repeat}; min {min(totals):.2f} s), {transitions} exhaustive transitions computed")
    print(f"  {'clause':<6} {'holds':<5} {'explored':>9} {'seconds':>8}")
    for key, (sec, n, holds) in per_clause.items():
        print(f"  {key:<6} {'yes' if holds else 'NO':<5} {n:>9} {sec:>8.3f}")
    print(f"  total explored: {sum(n for _, n, _ in per_clause.values())}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--realisation", choices=sorted(REALISATIONS), action="append")
    args = ap.parse_args()
    for name in args.realisation or sorted(REALISATIONS):
        bench(name, args.repeat)


if __name__ == "__main__":
    main()
