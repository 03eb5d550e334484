"""A class on one server: simulated sessions against `make explorers`, kept while their tabs
are open, and culled after the idle time once they are gone — kernel count and memory come back.

The server runs as `make explorers` runs it (tools/jupyter/serve_explorers.py), on 127.0.0.1
with a short idle time (``IDLE`` seconds, so the test waits seconds, not ten minutes).  Each
session requests an explorer page (a kernel starts and runs the notebook) and keeps the kernel's
websocket open, as a tab does; two sessions open at a time.  Bounded: the sessions must be open
within ``OPEN_BUDGET_S`` and gone within the idle time plus a minute.  ``EXPLORERS_LOAD_SESSIONS``
is the number of sessions: 12 by default (every explorer twice, about half a minute on this 2-core
machine), 30 -- a whole class -- in `make verify`; bench/class_bench.py times thirty arrivals.

Marked ``book`` (it starts a server, like the book's browser checks): `make test` runs it;
``-m "not book"`` leaves it out.  Memory per live session is printed; bench/widget_bench.py
records it under bench/results/.
"""

from __future__ import annotations

import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

pytestmark = pytest.mark.book

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools" / "jupyter"))

from explorers_server import running  # noqa: E402

SESSIONS = int(os.environ.get("EXPLORERS_LOAD_SESSIONS", "12"))
IDLE = 8
OPEN_BUDGET_S = 360
NOTEBOOKS = sorted(p.name for p in (ROOT / "notebooks").glob("explore-*.ipynb"))


def test_a_class_of_sessions_is_held_then_culled(tmp_path: Path) -> None:
    with running(ROOT / "notebooks", idle=IDLE, log=tmp_path / "voila.log") as server:
        time.sleep(1)
        baseline = server.memory_mib()
        assert server.kernels() == []

        start = time.monotonic()
        with ThreadPoolExecutor(2) as pool:
            list(pool.map(lambda k: server.open_session(NOTEBOOKS[k % len(NOTEBOOKS)]), range(SESSIONS)))
        opened = time.monotonic() - start
        assert opened < OPEN_BUDGET_S, f"opening {SESSIONS} sessions took {opened:.0f} s"
        assert len(server.kernels()) == SESSIONS
        live = server.memory_mib()
        per_session = (live - baseline) / SESSIONS

        time.sleep(IDLE + 3)  # reading for longer than the idle time with the tab open …
        assert len(server.kernels()) == SESSIONS  # … keeps the page live

        server.close_sessions()  # the tabs go away without a word
        assert server.wait_for_kernels(0, timeout=IDLE + 60), \
            f"{len(server.kernels())} kernels still alive; log:\n{server.log.read_text()[-3000:]}"
        time.sleep(2)
        after = server.memory_mib()
        print(f"\n{SESSIONS} sessions opened in {opened:.0f} s; memory {baseline:.0f} MiB idle, {live:.0f} MiB "
              f"with {SESSIONS} live sessions ({per_session:.0f} MiB each), {after:.0f} MiB after culling")
        assert "Culling 'idle' kernel" in server.log.read_text()
        # every kernel's memory is returned; the server itself may keep a little of what it served
        assert after - baseline < max(80.0, 0.1 * (live - baseline)), (baseline, live, after)
