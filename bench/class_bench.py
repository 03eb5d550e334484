"""A class arriving at once: thirty students open one explorer within a minute (bench).

The server runs as ``make explorers`` runs it for a class (``serve_explorers.voila_command``: a
token, kernels started ahead, the cap), on 127.0.0.1; the students are simulated sessions of
``tools/jupyter/explorers_server.py`` (a page request, then the kernel's websocket held open, as a
browser tab does), arriving at even intervals over ``--within`` seconds, each in its own thread.
For each we record how long the page took to arrive with its live explorer in it; a page without
the explorer (or the busy page) counts as missing.

    python bench/class_bench.py [--students 30] [--within 60] [--pool 2] [--ready 30]
                                [--notebook explore-merge.ipynb] [--out bench/results/class.json]

``--out`` keeps one entry per scenario (``ready_30``, ``pool_2``, …) in the file.

``--ready N`` keeps N kernels ready for the class's explorer (``make explorers`` with
``EXPLORERS_READY=merge=N``), as a teacher who knows the class size does; the default
(``--ready 0``) is the server's default of ``--pool`` kernels per explorer.  The server is given
time to start every kernel ahead before the first student arrives.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools" / "jupyter"))

from explorers_server import running
from serve_explorers import default_max_sessions


def arrive(students: int, within: float, pool: int, notebook: str, max_sessions: int,
           ready: int = 0) -> dict[str, object]:
    """Open ``students`` sessions at even intervals over ``within`` s; the render time of each."""
    times: list[float | None] = [None] * students
    errors: list[str] = []
    with tempfile.TemporaryDirectory() as tmp, running(
            ROOT / "notebooks", idle=600, log=Path(tmp) / "voila.log", token="class-bench",
            pool=pool, max_sessions=max_sessions, ready={notebook: ready} if ready else None) as server:
        started = time.monotonic()
        ahead = 5 * pool + (ready or pool)
        deadline = time.monotonic() + 600
        while len(server.kernels()) < ahead and time.monotonic() < deadline:
            time.sleep(1)  # the teacher starts the server before the class
        while time.monotonic() < deadline:  # … and the kernels have run the notebook: all go quiet
            procs = [psutil.Process(server.process.pid), *server.kernels()]
            for p in procs:
                p.cpu_percent(None)
            time.sleep(3)
            busy = 0.0
            for p in procs:
                try:
                    busy += p.cpu_percent(None)
                except Exception:  # noqa: BLE001, S112 — gone meanwhile
                    continue
            if busy < 10:
                break

        def one(k: int) -> None:
            t = time.monotonic()
            try:
                server.open_session(notebook, timeout=300)
                times[k] = time.monotonic() - t
            except Exception as e:  # noqa: BLE001 — a missing page is a result here
                errors.append(f"{k}: {type(e).__name__}: {str(e)[:120]}")

        warm_up = time.monotonic() - started
        load_before = os.getloadavg()[0]
        threads = []
        start = time.monotonic()
        for k in range(students):
            wait = start + k * within / max(1, students - 1) - time.monotonic()
            if wait > 0:
                time.sleep(wait)
            th = threading.Thread(target=one, args=(k,))
            th.start()
            threads.append(th)
        for th in threads:
            th.join()
        memory = server.memory_mib()
        log = server.log.read_text(errors="replace")
    done = [t for t in times if t is not None]
    return {
        "students": students, "within_s": within, "pool_per_explorer": pool, "ready_for_class": ready,
        "notebook": notebook,
        "cap": max_sessions, "rendered": len(done), "missing": students - len(done),
        "median_s": round(statistics.median(done), 2) if done else None,
        "max_s": round(max(done), 2) if done else None,
        "under_10_s": sum(t < 10 for t in done),
        "times_s": [None if t is None else round(t, 2) for t in times],
        "memory_mib_at_end": round(memory), "errors": errors[:5],
        "iopub_timeouts_in_log": log.count("Timeout waiting for IOPub output"),
        "tracebacks_in_log": log.count("Traceback"),
        "cores": os.cpu_count(), "load_before": load_before, "warm_up_s": round(warm_up),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--students", type=int, default=30)
    ap.add_argument("--within", type=float, default=60.0)
    ap.add_argument("--pool", type=int, default=2)
    ap.add_argument("--ready", type=int, default=0, help="kernels kept ready for the class's explorer")
    ap.add_argument("--notebook", default="explore-merge.ipynb")
    ap.add_argument("--max", type=int, default=-1, help="the cap (default: what memory holds)")
    ap.add_argument("--out", type=Path, default=None)
    a = ap.parse_args()
    result = arrive(a.students, a.within, a.pool, a.notebook,
                    default_max_sessions() if a.max < 0 else a.max, ready=a.ready)
    print(json.dumps({k: v for k, v in result.items() if k != "times_s"}, indent=1))
    if a.out:  # one entry per scenario: the others already in the file are kept
        name = f"ready_{a.ready}" if a.ready else f"pool_{a.pool}"
        old = json.loads(a.out.read_text()) if a.out.exists() else {}
        result["date"] = time.strftime("%Y-%m-%d")
        a.out.write_text(json.dumps({**old, name: result}, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
