"""Verdicts shared between processes through a folder, for builds that run many notebooks.

A clause's verdict is a function of the clause, the realisation, the search's
arguments and the library's code.  :func:`coalg.laws.clause.check` remembers
verdicts for the life of a process; when the environment variable
``COALG_VERDICT_CACHE`` names a folder, verdicts are also written there as JSON
and read back by any later process, so the web book computes each verdict once
per build however many chapters show it.  Nothing is shared when the variable is
unset (the default everywhere but the book build, which sets it to a folder
inside ``_build``).

Only the library's own clauses on registered realisations are shared (a clause
or realisation built by hand may have the same name and other behaviour).  The
files live in a subfolder named by a hash of ``coalg``'s source, the Python
version and the installed packages, so a verdict computed by other code is never
read.  While one process computes a verdict, another that wants the same
verdict waits for it (an advisory lock per verdict, where the platform has
``fcntl``) and then reads it.  A file that cannot be read or does not hold a
verdict is ignored and written again.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import importlib.metadata
import json
import os
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

from ..model import Realisation, get_realisation
from ..paper import Verdict
from ..userfiles import write_atomic

try:
    import fcntl
except ImportError:  # pragma: no cover - not on Linux
    fcntl = None  # type: ignore[assignment]

__all__ = ["ENV", "Shared", "shared"]

ENV = "COALG_VERDICT_CACHE"
"""The environment variable naming the shared folder (unset: nothing is shared)."""

MAX_BYTES = 4 << 20
"""A verdict file larger than this is not read (ours are a few kilobytes)."""

_held: set[str] = set()


@cache
def _code_digest() -> str:
    """A hash of ``coalg``'s source files, the Python version and the installed packages."""
    digest = hashlib.sha256(sys.version.encode() + b"\0")
    # A set: one distribution can be found twice on sys.path (an editable install run from
    # its own folder), and the hash must not depend on how the process was started.
    for dist in sorted({f"{d.metadata['Name']}=={d.version}" for d in importlib.metadata.distributions()}):
        digest.update(dist.encode() + b"\n")
    package = Path(__file__).resolve().parents[1]
    for path in sorted(package.rglob("*.py")):
        digest.update(path.relative_to(package).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def _registered(realisation: Realisation) -> bool:
    try:
        return get_realisation(realisation.name) is realisation
    except KeyError:
        return False


def _file_name(name: str) -> str:
    return hashlib.sha256(name.encode()).hexdigest()[:24]


class Shared:
    """The shared verdicts of one realisation, while the entries asked for are locked (see :func:`shared`)."""

    def __init__(self, folder: Path | None) -> None:
        self.folder = folder

    def _path(self, name: str) -> Path | None:
        if self.folder is None:
            return None
        return self.folder / (_file_name(name) + ".json")

    def load(self, name: str) -> Verdict | None:
        """The verdict stored under ``name``, or ``None`` (absent, unreadable, or not a verdict)."""
        path = self._path(name)
        if path is None:
            return None
        try:
            if not path.is_file() or path.stat().st_size > MAX_BYTES:
                return None
            data = json.loads(path.read_text(encoding="utf-8"))
            if data.get("name") != name:
                return None
            return Verdict(**data["verdict"])
        except (OSError, ValueError, TypeError, KeyError, AttributeError):
            return None

    def save(self, name: str, verdict: Verdict) -> None:
        """Store ``verdict`` under ``name``, unless its JSON would not read back equal to it."""
        path = self._path(name)
        if path is None:
            return
        fields = dataclasses.asdict(verdict)
        text = json.dumps({"name": name, "verdict": fields})  # key order kept: outputs print it
        if json.loads(text)["verdict"] != fields:
            return
        with contextlib.suppress(OSError):
            write_atomic(path, [text.encode()], OSError)


def entry_name(clause_key: str, realisation: Realisation, rest: tuple[Any, ...]) -> str:
    """The name a verdict is stored under: the clause, the realisation and the search's arguments."""
    return json.dumps([clause_key, realisation.name, *rest])


@contextlib.contextmanager
def shared(realisation: Realisation, names: list[str], *, own_clauses: bool) -> Iterator[Shared]:
    """The shared verdicts of ``realisation``, the entries ``names`` locked for this process.

    Yields a :class:`Shared` that stores nothing when no folder is configured,
    when the clauses are not the library's own (``own_clauses`` false) or the
    realisation is not registered, or when the folder cannot be created.  The
    entries are locked one by one in a fixed order, so two processes that want
    some of the same entries never wait for each other in a cycle; a process
    already holding locks (a check inside a check) goes on without taking more.
    """
    root = os.environ.get(ENV)
    if not root or not own_clauses or not _registered(realisation):
        yield Shared(None)
        return
    folder = Path(root) / _code_digest()
    with contextlib.ExitStack() as stack:
        try:
            folder.mkdir(parents=True, exist_ok=True)
            if fcntl is not None and not _held:
                for lock_name in sorted({_file_name(n) for n in names}):
                    lock = stack.enter_context(open(folder / (lock_name + ".lock"), "a"))
                    fcntl.flock(lock, fcntl.LOCK_EX)
                    stack.callback(fcntl.flock, lock, fcntl.LOCK_UN)
                    _held.add(lock_name)
                    stack.callback(_held.discard, lock_name)
        except OSError:
            stack.close()
            yield Shared(None)
            return
        yield Shared(folder)
