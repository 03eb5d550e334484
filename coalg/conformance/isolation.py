"""Running the kit on a layer in a child process, so that the layer cannot end, hang or fake the run.

``coalg conform`` does not load the layer into its own interpreter.  It
starts a child (``python -m coalg.conformance.isolation``) with
``PYTHONHASHSEED=0``, in a process group of its own, with the layer's
standard output sent to standard error (so that ``--json`` stays valid).
The child runs :func:`~coalg.conformance.kit.conform` and writes its result
to a file; the parent reads it.  Every layer call reports its start and end
on a FIFO (:func:`~coalg.conformance.guard.layer_call`), and so do the
child interpreters of L5, which inherit the FIFO's path.  The parent

* stops the whole process group when one layer call runs longer than the
  per-call timeout, or the run longer than the overall timeout;
* accepts the run only when the child wrote a complete, well-formed result:
  a report (exit status 0 or 1 follows from its clauses) or the one-line
  reason the layer cannot be checked;
* otherwise raises :class:`~coalg.conformance.protocol.BadLayer` with one
  line naming what happened: the process exited with status N, was killed
  by signal S, timed out after T s, or its report was malformed.

The child ends with ``os._exit`` once the result is written, so a thread
the layer started cannot keep the run alive.

>>> _check_report({"layer": "m:M", "clauses": {}})
Traceback (most recent call last):
...
coalg.conformance.protocol.BadLayer: the report was malformed: it has clauses [], expected L1, L2, L3, L4i, L4ii, L5, L6, L7, S1, S2, S3, S4
"""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from ..laws import CLAUSES
from .guard import WATCH_ENV
from .protocol import BadLayer
from .quoting import describe

__all__ = ["CALL_TIMEOUT", "TIMEOUT", "run_isolated"]

CALL_TIMEOUT = 30.0
"""Seconds one layer call may take (``--call-timeout``): a first call may import a package and open a
database (the released ContextFS's first ``save`` takes several seconds on a busy machine)."""

TIMEOUT = 1800.0
"""Seconds the whole run may take (``--timeout``)."""

_RESULT_LIMIT = 256 * 1024 * 1024


# =========================================================================== the child


def _child(result: str, request: str) -> None:
    """The child's work: run the kit, write ``{"kind": ..., ...}`` to ``result``, end the process."""
    code = 3
    try:
        req = json.loads(request)  # the factory is imported by the PYTHONPATH run_isolated gives: cwd first
        from .kit import conform

        try:
            got: dict[str, Any] = {"kind": "report", "report": conform(
                req["factory"], length=req["length"], walks=req["walks"], seed=req["seed"])}
        except BadLayer as e:
            got = {"kind": "bad layer", "message": describe(e, 2000).split(": ", 1)[-1]}
        except RecursionError:
            got = {"kind": "bad layer", "message": "the layer's values are nested too deeply to read"}
        except MemoryError:
            got = {"kind": "bad layer", "message": "out of memory while checking the layer"}
        except Exception as e:  # noqa: BLE001 - whatever else the layer made the kit meet
            got = {"kind": "bad layer", "message": f"the check stopped on {describe(e)}"}
        except BaseException as e:  # noqa: BLE001 - raised outside a layer call: importing the layer's module
            got = {"kind": "bad layer", "message": f"loading the layer raised {describe(e)}; a module must "
                                                   "import without ending the interpreter"}
        data = json.dumps(got, ensure_ascii=True, sort_keys=True).encode("ascii")
        tmp = result + ".part"
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, result)
        code = 0
    except BaseException:  # noqa: BLE001 - no report: the parent says what happened
        code = 3
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except BaseException:  # noqa: BLE001, S110 - a layer may have replaced or closed the stream
                pass
        os._exit(code)  # threads the layer started must not keep the process alive


# =========================================================================== the parent


_CHILD = "import sys; from coalg.conformance.isolation import _child; _child(sys.argv[1], sys.argv[2])"
"""What the child interpreter runs: :func:`_child`, imported by its module's own name (not run as
``__main__``, which would be a second copy of this module)."""


def _check_report(report: Any) -> dict[str, Any]:
    """``report`` if it has the shape of a conformance report; :class:`BadLayer` otherwise."""
    if not isinstance(report, dict) or not isinstance(report.get("clauses"), dict):
        raise BadLayer("the report was malformed: it is not a report with clauses")
    clauses = report["clauses"]
    if sorted(clauses) != sorted(CLAUSES):
        raise BadLayer(f"the report was malformed: it has clauses {sorted(clauses)}, expected "
                       f"{', '.join(CLAUSES)}")
    for key, entry in clauses.items():
        if not isinstance(entry, dict) or entry.get("holds") not in (True, False, None) \
                or not isinstance(entry.get("reason"), str):
            raise BadLayer(f"the report was malformed: clause {key} has no verdict")
    if not isinstance(report.get("layer"), str) or not isinstance(report.get("capabilities"), list):
        raise BadLayer("the report was malformed: it does not name the layer and its capabilities")
    return report


def _read_result(path: Path) -> dict[str, Any]:
    try:
        if path.stat().st_size > _RESULT_LIMIT:
            raise BadLayer("the report was malformed: it is larger than 256 MB")
        got = json.loads(path.read_bytes().decode("ascii"))
    except FileNotFoundError:
        raise BadLayer("the report was malformed: the child wrote none") from None
    except (OSError, ValueError) as e:
        raise BadLayer(f"the report was malformed: {describe(e)}") from None
    if isinstance(got, dict) and got.get("kind") == "bad layer" and isinstance(got.get("message"), str):
        raise BadLayer(" ".join(got["message"].split()) or "the layer cannot be checked")
    if not isinstance(got, dict) or got.get("kind") != "report":
        raise BadLayer("the report was malformed: it is neither a report nor a reason")
    return _check_report(got.get("report"))


class _Watch:
    """The layer calls now running, by process, from the lines on the FIFO."""

    def __init__(self) -> None:
        self.open: dict[int, tuple[float, str]] = {}
        self.last: str | None = None
        self._buf = b""

    def feed(self, data: bytes, now: float) -> None:
        self._buf += data
        *lines, self._buf = self._buf.split(b"\n")
        for raw in lines:
            parts = raw.decode("ascii", "replace").split(" ", 2)
            if len(parts) < 2 or not parts[1].isdigit():
                continue
            pid = int(parts[1])
            if parts[0] == "B" and len(parts) == 3:
                self.open[pid] = (now, parts[2][:40])
                self.last = parts[2][:40]
            elif parts[0] == "E":
                self.open.pop(pid, None)

    def overdue(self, now: float, limit: float) -> str | None:
        for pid, (t0, what) in sorted(self.open.items()):
            if now - t0 <= limit:
                continue
            try:
                os.kill(pid, 0)
            except ProcessLookupError:  # the process is gone: its call ended with it
                del self.open[pid]
                continue
            except OSError:
                pass
            return what
        return None


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except OSError:
        pass


def _signal_name(n: int) -> str:
    try:
        return f"{signal.Signals(n).name} ({n})"
    except ValueError:
        return str(n)


def run_isolated(factory: str, *, length: int, walks: int, seed: int, call_timeout: float = CALL_TIMEOUT,
                 timeout: float = TIMEOUT) -> dict[str, Any]:
    """The conformance report of the layer ``factory`` (``MODULE:ATTR``), computed in a child process.

    Raises :class:`~coalg.conformance.protocol.BadLayer` with one line when
    the layer cannot be checked or the child did not write a complete report.
    """
    request = json.dumps({"factory": factory, "length": length, "walks": walks, "seed": seed})
    with tempfile.TemporaryDirectory(prefix="coalg-conform-") as tmp:
        fifo, result = Path(tmp) / "watch", Path(tmp) / "result.json"
        os.mkfifo(fifo, 0o600)
        rfd = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
        keep = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)  # a writer of our own: no end-of-file between calls
        path = os.pathsep.join(p for p in (os.getcwd(), os.environ.get("PYTHONPATH", "")) if p)
        env = {**os.environ, "PYTHONHASHSEED": "0", WATCH_ENV: str(fifo), "PYTHONPATH": path}
        try:
            proc = subprocess.Popen([sys.executable, "-c", _CHILD, str(result), request],
                                    stdin=subprocess.DEVNULL, stdout=2, env=env, start_new_session=True)
            try:
                why = _supervise(proc, rfd, call_timeout, timeout)
            finally:
                _kill_group(proc)
                proc.wait()
        finally:
            os.close(rfd)
            os.close(keep)
        if why is not None:
            raise BadLayer(why)
        rc = proc.returncode
        if rc < 0:
            raise BadLayer(f"the layer's process was killed by signal {_signal_name(-rc)} before its report was "
                           "complete")
        if rc != 0 or not result.exists():
            raise BadLayer(f"the layer's process exited with status {rc} before its report was complete"
                           + (" (a layer call ended the interpreter)" if rc in (0, 1, 2) else ""))
        return _read_result(result)


def _supervise(proc: subprocess.Popen[bytes], rfd: int, call_timeout: float, timeout: float) -> str | None:
    """Wait for the child; the reason it was stopped, or ``None`` when it ended by itself."""
    watch, start = _Watch(), time.monotonic()
    while proc.poll() is None:
        ready, _, _ = select.select([rfd], [], [], 0.05)
        now = time.monotonic()
        if ready:
            try:
                watch.feed(os.read(rfd, 65536), now)
            except BlockingIOError:
                pass
        if now - start > timeout:
            return f"timed out after {timeout:g} s (--timeout): the run did not finish"
        what = watch.overdue(now, call_timeout)
        if what is not None:
            return (f"timed out: a {what} call of the layer ran for more than {call_timeout:g} s "
                    "(--call-timeout)")
    return None
