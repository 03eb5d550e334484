"""A running explorers server, for the tests and the benchmark: start it as `make explorers` does,
count its kernels, measure its memory, open simulated sessions, stop it with everything it started.

Everything listens on and connects to 127.0.0.1 only.  A *simulated session* is what a browser
tab does to the server: it requests an explorer page (the server starts a kernel and runs the
notebook) and keeps the kernel's websocket open, answering the server's pings as a browser does
(a socket that leaves them unanswered is closed by the server after a minute and a half, and its
kernel culled: a long-open tab must not look like a closed one); closing the session closes the
websocket, as a tab that goes away without saying goodbye.
"""

from __future__ import annotations

import os
import re
import select
import shutil
import signal
import socket
import subprocess
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil
from serve_explorers import ROOT, kernel_profile, voila_command, voila_env

__all__ = ["Server", "free_port", "running"]


def free_port() -> int:
    """A free TCP port on 127.0.0.1."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Server:
    """A Voila server started by :func:`running`: its URL, its process, its log."""

    url: str
    port: int
    process: subprocess.Popen[bytes]
    log: Path
    sessions: list[Any] = field(default_factory=list)
    token: str = ""
    teacher_key: str = ""
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    _pump: threading.Thread | None = field(default=None, repr=False)

    def _answer(self) -> None:
        """Read every open session's socket, as a tab's browser does: pings get their pongs (the
        websocket library answers them inside ``recv``) and the kernel's messages are drained."""
        while True:
            with self._lock:
                socks = [ws for ws in self.sessions if ws.sock is not None]
            if not socks:
                time.sleep(0.2)
                continue
            try:
                readable, _, _ = select.select(socks, [], [], 0.5)
            except (OSError, ValueError):  # a socket closed under us: take the list again
                continue
            for ws in readable:
                with self._lock:
                    if ws not in self.sessions:
                        continue
                    try:
                        ws.recv_data(control_frame=True)
                    except Exception:  # noqa: BLE001 — the server closed it; the tab shows it as gone
                        self.sessions.remove(ws)

    def kernels(self) -> list[psutil.Process]:
        """The kernel processes alive under the server (zombies excluded)."""
        out = []
        try:
            children = psutil.Process(self.process.pid).children(recursive=True)
        except psutil.Error:
            return []
        for c in children:
            try:
                if c.status() != psutil.STATUS_ZOMBIE and "ipykernel" in " ".join(c.cmdline()):
                    out.append(c)
            except psutil.Error:
                pass
        return out

    def memory_mib(self) -> float:
        """Memory of the server and every process under it: the sum of their unique set sizes (MiB),
        so libraries shared between kernels are not counted thirty times."""
        total = 0
        try:
            procs = [psutil.Process(self.process.pid), *psutil.Process(self.process.pid).children(recursive=True)]
        except psutil.Error:
            return 0.0
        for p in procs:
            try:
                total += p.memory_full_info().uss
            except psutil.Error:
                pass
        return total / 2**20

    def open_session(self, notebook: str, *, timeout: float = 180.0) -> Any:
        """A simulated browser tab on ``notebook``: the page, then the kernel's websocket, kept open."""
        import requests
        import websocket

        query = f"?token={self.token}" if self.token else ""
        r = requests.get(f"{self.url}voila/render/{notebook}{query}", timeout=timeout)
        r.raise_for_status()
        m = re.search(r'"kernelId":\s*"([0-9a-f-]+)"', r.text)
        if m is None or "application/vnd.jupyter.widget-view+json" not in r.text:
            raise RuntimeError(f"{notebook}: the page shows no explorer:\n{r.text[-2000:]}")
        token = f"&token={self.token}" if self.token else ""
        ws = websocket.create_connection(
            f"ws://127.0.0.1:{self.port}/api/kernels/{m.group(1)}/channels?session_id={uuid.uuid4()}{token}",
            timeout=30)
        with self._lock:
            self.sessions.append(ws)
            if self._pump is None:
                self._pump = threading.Thread(target=self._answer, name="tabs", daemon=True)
                self._pump.start()
        return ws

    def close_sessions(self) -> None:
        """Close every simulated tab without a shutdown call (the culler has to find them)."""
        with self._lock:
            for ws in self.sessions:
                try:
                    ws.close()
                except Exception:  # noqa: BLE001, S110 — already closed
                    pass
            self.sessions.clear()

    def wait_for_kernels(self, count: int, *, timeout: float) -> bool:
        """Wait until exactly ``count`` kernels are alive; whether that happened within ``timeout`` s."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if len(self.kernels()) == count:
                return True
            time.sleep(0.5)
        return len(self.kernels()) == count


@contextmanager
def running(target: str | os.PathLike[str] = ROOT / "notebooks", *, idle: int = 600, log: Path,
            start_timeout: float = 90.0, token: str = "", pool: int = 0, max_sessions: int = 0,
            ready: dict[str, int] | None = None, teacher_key: str = "teacher") -> Iterator[Server]:
    """Voila as `make explorers` runs it (this checkout's ``coalg`` first on the path), on a free
    127.0.0.1 port; on exit the whole process group (server and kernels) is stopped.  ``token``,
    ``pool``, ``ready`` and ``max_sessions`` are those of ``serve_explorers.py`` (by default: no token, no
    kernels started ahead, no cap)."""
    port = free_port()
    ipython_dir = kernel_profile()
    env = voila_env({**os.environ, "PYTHONPATH": os.pathsep.join(
        p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)}, ipython_dir=ipython_dir)
    with open(log, "wb") as out:
        cmd = voila_command(target, port=port, idle=idle, token=token, pool=pool, max_sessions=max_sessions,
                            ready=ready, teacher_key=teacher_key, ipython_dir=ipython_dir)
        proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                                start_new_session=True)
    server = Server(f"http://127.0.0.1:{port}/", port, proc, log, token=token, teacher_key=teacher_key)
    try:
        deadline = time.monotonic() + start_timeout
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"voila exited with {proc.returncode}:\n{log.read_text(errors='replace')[-3000:]}")
            try:  # a TCP connect only: a GET of a page would start a kernel of its own
                with socket.create_connection(("127.0.0.1", port), timeout=2):
                    break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"voila did not answer within {start_timeout} s:\n"
                                   f"{log.read_text(errors='replace')[-3000:]}")
            time.sleep(0.5)
        yield server
    finally:
        server.close_sessions()
        try:
            os.killpg(proc.pid, signal.SIGTERM)  # voila and the kernels it started (same session)
            proc.wait(timeout=20)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            proc.wait(timeout=5)
        shutil.rmtree(ipython_dir, ignore_errors=True)
