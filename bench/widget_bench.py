"""Benchmark (not a test): what a reader waits for in each explorer, and what each Voila session costs.

Run with ``PYTHONPATH=. python3 bench/widget_bench.py [--repeat N] [--records N] [--sessions N]``.

* **Click to update**, per explorer, on a store of ``--records`` records (30 by default;
  :func:`coalg.model.sized_store`, or 3 tenants of 10 records): the front end is built, and each
  timed click goes through the button or control exactly as in the browser — the gesture guard,
  the step, the law checks, every figure redrawn (SVG) and every panel rewritten.  The tenants lab
  builds 3 tenants of 10 records; the refinement stepper refines 30 equal records in chains of 10
  (ten rounds to step through); the bitemporal stepper walks its own two histories.  Target:
  median under 150 ms for every explorer.  The machine may be shared: the load average at the
  start and the CPU time of each click are recorded beside the wall-clock time.
* **Memory per session**: Voila as ``make explorers`` runs it (tools/jupyter/serve_explorers.py)
  on 127.0.0.1, ``--sessions`` simulated tabs (each explorer in turn, the page requested and the
  kernel's websocket kept open); the unique memory of the server and its kernels before and after,
  divided by the sessions.  ``--sessions 0`` skips it.

Results are printed and written to ``bench/results/widgets.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")

from coalg.model import Record, Relation, Store, sized_store
from coalg.widgets import (
    AncestryExplorer,
    BitemporalStepper,
    DerivationPlayground,
    MergeLab,
    RefinementStepper,
    TenantsLab,
)

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results" / "widgets.json"
TARGET_MS = 150.0


def _buttons(root: Any) -> dict[str, Any]:
    import ipywidgets as w

    out, todo = {}, [root]
    while todo:
        x = todo.pop()
        if isinstance(x, w.Button):
            out[x.description] = x
        todo.extend(getattr(x, "children", ()))
    return out


def _ready(ex: Any) -> Any:
    """Build the front end (first figures drawn, caches warm); every click counts as deliberate."""
    ex.GESTURE_S = 0.0
    ex.widget  # noqa: B018
    return ex


def _chains(records: int, length: int = 10) -> Store:
    """``records`` equal records in chains of ``length`` evolves: refinement needs ``length`` rounds."""
    ids = [f"c{k // length}.{k % length}" for k in range(records)]
    edges = [(i, Relation.EVOLVED_FROM, j) for i, j in zip(ids[1:], ids) if i.split(".")[0] == j.split(".")[0]]
    return Store.of({i: Record("x") for i in ids}, edges)


def _clicks(records: int) -> dict[str, tuple[str, Callable[[], Any], Callable[[], Any]]]:
    """Per explorer: what is clicked, the timed click, and what puts it back (not timed)."""
    store = sized_store(records)
    last = max(store.dom())
    pg = _ready(DerivationPlayground(store))
    pg._ui["ids"].value = (last,)
    pg._ui["content"].value = "revised in the benchmark"
    ae = _ready(AncestryExplorer(store, focus=last))
    ml = _ready(MergeLab(store, ids=sorted(store.dom())[:2]))
    tl = _ready(TenantsLab(n=3, records_per_tenant=max(1, min(12, records // 3)), seed=1, prefix_collisions=1,
                           dangling_edges=1))
    rs = _ready(RefinementStepper(_chains(records)))
    bs = _ready(BitemporalStepper())
    b = {name: _buttons(ex.widget) for name, ex in
         (("pg", pg), ("ae", ae), ("rs", rs), ("bs", bs))}
    seed = tl._ui["seed"]
    desc = ml._ui["descending"]
    return {
        "playground": ("evolve", b["pg"]["evolve"].click, b["pg"]["undo"].click),
        "ancestry": ("evolve it", b["ae"]["evolve it"].click, b["ae"]["reset"].click),
        "bitemporal": ("next ▶", b["bs"]["next ▶"].click, b["bs"]["◀ back"].click),
        "merge": ("θ descending", lambda: setattr(desc, "value", not desc.value), lambda: None),
        "tenants": ("seed", lambda: setattr(seed, "value", seed.value + 1), lambda: None),
        "refinement": ("round ▶", b["rs"]["round ▶"].click, b["rs"]["◀ round"].click),
    }


def click_to_update(repeat: int, records: int) -> dict[str, dict[str, Any]]:
    out = {}
    for name, (control, click, undo) in _clicks(records).items():
        times, cpu = [], []
        for _ in range(repeat):
            t0, c0 = time.perf_counter(), time.process_time()
            click()
            times.append(time.perf_counter() - t0)
            cpu.append(time.process_time() - c0)
            undo()
        med = statistics.median(times) * 1000
        out[name] = {"control": control, "median_ms": round(med, 1), "min_ms": round(min(times) * 1000, 1),
                     "max_ms": round(max(times) * 1000, 1), "cpu_median_ms": round(statistics.median(cpu) * 1000, 1),
                     "repeat": repeat, "target_met": med < TARGET_MS}
        print(f"{name:11s} {control!r:16s} median {med:6.1f} ms  (min {min(times) * 1000:6.1f}, "
              f"max {max(times) * 1000:6.1f}; CPU {statistics.median(cpu) * 1000:5.1f} ms; {repeat} clicks)  "
              f"target < {TARGET_MS:.0f} ms: {'met' if med < TARGET_MS else 'NOT met'}", flush=True)
    return out


def memory_per_session(sessions: int) -> dict[str, Any]:
    sys.path.insert(0, str(ROOT / "tools" / "jupyter"))
    from explorers_server import running

    notebooks = sorted(p.name for p in (ROOT / "notebooks").glob("explore-*.ipynb"))
    with tempfile.TemporaryDirectory() as tmp, running(ROOT / "notebooks", idle=600,
                                                       log=Path(tmp) / "voila.log") as server:
        time.sleep(1)
        baseline = server.memory_mib()
        per_explorer = {}
        for k in range(sessions):
            before = server.memory_mib()
            server.open_session(notebooks[k % len(notebooks)])
            time.sleep(0.5)
            per_explorer.setdefault(notebooks[k % len(notebooks)], []).append(server.memory_mib() - before)
        live = server.memory_mib()
    each = (live - baseline) / sessions
    print(f"memory: {baseline:.0f} MiB with no session, {live:.0f} MiB with {sessions} live sessions: "
          f"{each:.0f} MiB per session (unique memory of the server and its kernels)", flush=True)
    return {"sessions": sessions, "baseline_mib": round(baseline, 1), "live_mib": round(live, 1),
            "per_session_mib": round(each, 1),
            "per_explorer_mib": {k: round(statistics.mean(v), 1) for k, v in sorted(per_explorer.items())}}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=15)
    ap.add_argument("--records", type=int, default=30)
    ap.add_argument("--sessions", type=int, default=12)
    args = ap.parse_args()
    result: dict[str, Any] = {
        "machine": {"cores": os.cpu_count(), "python": platform.python_version(),
                    "load_average_at_start": [round(x, 2) for x in os.getloadavg()]},
        "records": args.records,
        "click_to_update": click_to_update(args.repeat, args.records),
    }
    if args.sessions > 0:
        result["memory"] = memory_per_session(args.sessions)
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"written to {RESULTS.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
