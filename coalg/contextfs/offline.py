"""The released ContextFS (PyPI ``contextfs`` 0.2.35 = commit a93035d), imported offline and contained.

This is where the runtime observations of the paper's claims start: whether the
package can be driven here at all (:data:`AVAILABLE`, :func:`require`), and the
private folder every call into it runs in.

Before ``contextfs`` is imported, and around every call into it, the environment
points ``HOME``, ``CONTEXTFS_DATA_DIR``, ``XDG_CACHE_HOME``, ``HF_HOME`` and
``FASTEMBED_CACHE_PATH`` into one private temporary folder (on ``/dev/shm`` when
available), sets ``HF_HUB_OFFLINE=1`` and ``TRANSFORMERS_OFFLINE=1``, and turns
off auto-linking, FalkorDB and startup loading.  The vector backend is
:class:`~coalg.contextfs.live.NullRAG`, so no embedding model is ever loaded
and nothing reaches the network.  The folder is removed when the process exits.
The package's WARNING log lines are captured (:func:`quiet_logs`), never printed.
What depends on this interpreter's string hashing is observed in child
interpreters with a chosen ``PYTHONHASHSEED`` (:func:`run_with_hashseed`).

When the package is not installed, :data:`AVAILABLE` is false and every entry
point raises :class:`ContextFSUnavailable` with the reason (tests skip on it).
Importing this module does not import ``contextfs``.

>>> isinstance(AVAILABLE, bool), CONTEXTFS_VERSION
(True, '0.2.35')
"""

from __future__ import annotations

import atexit
import contextlib
import importlib.util
import logging
import os
import shutil
import subprocess
import sys
import tempfile
import types
import warnings
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path

from ..errors import CoalgError

__all__ = [
    "AVAILABLE",
    "CONTEXTFS_VERSION",
    "ContextFSUnavailable",
    "Sandbox",
    "installed_files",
    "modules",
    "quiet_logs",
    "require",
    "run_with_hashseed",
    "sandbox",
    "unavailable_reason",
]

CONTEXTFS_VERSION = "0.2.35"
"""The released version this adapter drives (byte-identical to commit a93035d)."""


# =========================================================================== availability


class ContextFSUnavailable(CoalgError, RuntimeError):
    """The released ``contextfs`` package is not installed (or is another version)."""


def unavailable_reason() -> str | None:
    """``None`` when contextfs 0.2.35 can be driven here, else why not (one sentence)."""
    spec = importlib.util.find_spec("contextfs")
    if spec is None:
        return ("the released contextfs package is not installed "
                "(`make setup` installs contextfs==0.2.35 minimally from requirements-contextfs.txt)")
    try:
        have = version("contextfs")
    except Exception:  # noqa: BLE001 - a broken install is just "unavailable"
        return "contextfs is importable but has no package metadata"
    if have != CONTEXTFS_VERSION:
        return f"contextfs {have} is installed; this adapter drives {CONTEXTFS_VERSION} (commit a93035d)"
    return None


AVAILABLE: bool = unavailable_reason() is None
"""Whether the released package is installed (checked without importing it)."""


def require() -> None:
    """Raise :class:`ContextFSUnavailable` unless contextfs 0.2.35 is installed."""
    reason = unavailable_reason()
    if reason is not None:
        raise ContextFSUnavailable(reason)


# =========================================================================== the sandbox


_ENV_FIXED = {
    "HF_HUB_OFFLINE": "1",
    "TRANSFORMERS_OFFLINE": "1",
    "ANONYMIZED_TELEMETRY": "False",
    "CONTEXTFS_BACKEND": "sqlite",
    "CONTEXTFS_FALKORDB_ENABLED": "false",
    "CONTEXTFS_AUTO_LINK_ENABLED": "false",
    "CONTEXTFS_AUTO_LOAD_ON_STARTUP": "false",
    "CONTEXTFS_AUTO_INDEX": "false",
}


def _default_base() -> str:
    base = os.environ.get("COALG_CONTEXTFS_TMP")
    if base:
        return base
    shm = Path("/dev/shm")
    if shm.is_dir() and os.access(shm, os.W_OK):
        return str(shm)  # RAM-backed: every ContextFS call opens, commits and closes a connection
    return tempfile.gettempdir()


@dataclass
class Sandbox:
    """One private folder that holds everything ContextFS writes, and the environment that says so."""

    root: Path

    @classmethod
    def create(cls, base: str | None = None) -> Sandbox:
        root = Path(tempfile.mkdtemp(prefix="coalg-contextfs-", dir=base or _default_base()))
        for sub in ("home", "data", "cache", "hf", "fastembed", "stores"):
            (root / sub).mkdir()
        return cls(root)

    def variables(self) -> dict[str, str]:
        """The environment under which ContextFS is imported and called."""
        return {
            "HOME": str(self.root / "home"),
            "CONTEXTFS_DATA_DIR": str(self.root / "data"),
            "XDG_CACHE_HOME": str(self.root / "cache"),
            "HF_HOME": str(self.root / "hf"),
            "FASTEMBED_CACHE_PATH": str(self.root / "fastembed"),
            **_ENV_FIXED,
        }

    @contextlib.contextmanager
    def env(self) -> Iterator[None]:
        """Set :meth:`variables` for the duration of the block, then restore the old values."""
        new = self.variables()
        old = {k: os.environ.get(k) for k in new}
        os.environ.update(new)
        try:
            yield
        finally:
            for k, v in old.items():
                if v is None:
                    os.environ.pop(k, None)
                else:
                    os.environ[k] = v

    def new_path(self, name: str) -> Path:
        """A fresh path for a SQLite file inside the sandbox (any old file of that name removed)."""
        p = self.root / "stores" / name
        for suffix in ("", "-journal", "-wal", "-shm"):
            with contextlib.suppress(FileNotFoundError):
                Path(str(p) + suffix).unlink()
        return p

    def remove(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)


_SANDBOX: Sandbox | None = None


def sandbox() -> Sandbox:
    """The process's sandbox (created on first use, removed at exit)."""
    global _SANDBOX
    if _SANDBOX is None or not _SANDBOX.root.is_dir():
        _SANDBOX = Sandbox.create()
        atexit.register(_SANDBOX.remove)
    return _SANDBOX


@contextlib.contextmanager
def quiet_logs(into: list[str] | None = None) -> Iterator[None]:
    """Capture the WARNING lines of the ``contextfs`` and ``alembic`` loggers (never print them).

    The ``contextfs`` lines are appended to ``into`` (when given) as ``"logger: message"``.
    """

    class _Collect(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            if into is not None and record.name.startswith("contextfs"):
                into.append(f"{record.name}: {record.getMessage()}")

    handler = _Collect(level=logging.WARNING)
    saved = []
    for name in ("contextfs", "alembic"):
        lg = logging.getLogger(name)
        saved.append((lg, lg.propagate, lg.level))
        lg.addHandler(handler)
        lg.propagate = False
        if lg.level == logging.NOTSET or lg.level > logging.WARNING:
            lg.setLevel(logging.WARNING)
    try:
        yield
    finally:
        for lg, prop, level in saved:
            lg.removeHandler(handler)
            lg.propagate = prop
            lg.setLevel(level)


# =========================================================================== the package's modules


_MODULES: types.SimpleNamespace | None = None


def modules() -> types.SimpleNamespace:
    """The contextfs modules the adapter uses, imported inside the sandbox environment.

    ``contextfs.config`` reads ``Path.home()`` at import time, so the import
    happens with ``HOME`` pointing into the sandbox.
    """
    global _MODULES
    if _MODULES is None:
        require()
        # contextfs 0.2.35 declares pydantic models with class-based Config (deprecated since pydantic 2.0):
        # that is the package's business, not a finding, so its DeprecationWarnings are not shown.
        with sandbox().env(), warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            import contextfs  # type: ignore[import-untyped]
            import contextfs.config  # type: ignore[import-untyped]
            import contextfs.core  # type: ignore[import-untyped]
            import contextfs.memory_lineage  # type: ignore[import-untyped]
            import contextfs.migrations.runner  # type: ignore[import-untyped]
            import contextfs.schemas  # type: ignore[import-untyped]
            import contextfs.storage_protocol  # type: ignore[import-untyped]
            import contextfs.storage_router  # type: ignore[import-untyped]

        _MODULES = types.SimpleNamespace(
            package=contextfs,
            config=contextfs.config,
            core=contextfs.core,
            lineage=contextfs.memory_lineage,
            runner=contextfs.migrations.runner,
            schemas=contextfs.schemas,
            protocol=contextfs.storage_protocol,
            router=contextfs.storage_router,
            Memory=contextfs.schemas.Memory,
            MemoryType=contextfs.schemas.MemoryType,
            EdgeRelation=contextfs.storage_protocol.EdgeRelation,
            StorageRouter=contextfs.storage_router.StorageRouter,
            MemoryLineage=contextfs.memory_lineage.MemoryLineage,
            MergeStrategy=contextfs.memory_lineage.MergeStrategy,
            ContextFS=contextfs.core.ContextFS,
        )
    return _MODULES


def installed_files() -> list[Path]:
    """Every file of the installed ``contextfs`` package (sorted), without importing it."""
    require()
    spec = importlib.util.find_spec("contextfs")
    assert spec is not None and spec.submodule_search_locations
    root = Path(next(iter(spec.submodule_search_locations)))
    return sorted(p for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts)


def run_with_hashseed(code: str, *args: str, hashseed: int, what: str, env: Mapping[str, str] | None = None,
                      timeout: float | None = None) -> str:
    """``python -c code *args`` in a child interpreter with ``PYTHONHASHSEED=hashseed``: its standard output.

    The child inherits this environment, updated with ``env``.  Raises
    ``RuntimeError`` saying that ``what`` failed, with the last line the child
    wrote to standard error.
    """
    full = {**os.environ, "PYTHONHASHSEED": str(hashseed), **(env or {})}
    p = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=full,
                       timeout=timeout, check=False)
    if p.returncode != 0:
        raise RuntimeError(f"{what} failed: {p.stderr.strip().splitlines()[-1:]}")
    return p.stdout
