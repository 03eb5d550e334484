"""Benchmark (not a test): one derivation step in the playground, redraw included.

Run with ``PYTHONPATH=. python3 bench/widget_bench.py [--repeat N] [--records N]``.
The playground starts from :func:`coalg.model.examples.sized_store` (30 records by
default) with its widget built, so each timed step is what a reader waits for
after pressing "evolve": the step, the five per-step law checks, the new store
graph rendered to PNG and pushed into the ``Image`` widget, the law panel and
the word list.  Between runs the step is undone (not timed).  Target: median
under 150 ms.
"""

from __future__ import annotations

import argparse
import statistics
import time

import matplotlib

matplotlib.use("Agg")

from coalg.model import sized_store
from coalg.widgets import DerivationPlayground

TARGET_MS = 150.0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=15)
    ap.add_argument("--records", type=int, default=30)
    args = ap.parse_args()
    s = sized_store(args.records)
    pg = DerivationPlayground(s)
    pg.widget  # noqa: B018 — build the controls and render once (fonts and caches warm)
    target = max(s.dom())
    times: list[float] = []
    redraw: list[float] = []
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        report = pg.apply("evolve", ids=[target], content="revised in the benchmark")
        times.append(time.perf_counter() - t0)
        assert report is not None, pg.message
        t1 = time.perf_counter()
        pg.figure_png()
        redraw.append(time.perf_counter() - t1)
        pg.undo()  # not timed
    med = statistics.median(times) * 1000
    print(f"playground step on a {len(s.records)}-record store ({len(s.edges)} edges), redraw included: "
          f"median {med:.1f} ms over {args.repeat} runs (min {min(times) * 1000:.1f} ms, "
          f"max {max(times) * 1000:.1f} ms); redraw alone median "
          f"{statistics.median(redraw) * 1000:.1f} ms; target < {TARGET_MS:.0f} ms: "
          f"{'met' if med < TARGET_MS else 'NOT met'}")


if __name__ == "__main__":
    main()
