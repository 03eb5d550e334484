"""The released ContextFS (PyPI ``contextfs`` 0.2.35 = commit a93035d), driven offline.

This module runs the *real* package as a :class:`~coalg.model.realisation.Realisation`
called ``contextfs-runtime``, so that the law checks of :mod:`coalg.laws.clauses` and the
witnesses of :mod:`coalg.contextfs.runtime` can be run against it exactly as against the
model.

How one step α(s)(a, ξ) is run
------------------------------

1. **Materialise** the coalg store ``s`` into a fresh SQLite file with ContextFS's
   own schema (its alembic migrations 001–009, run once per process into a
   template that is then copied).  Records keep their identifiers; rows are
   inserted in the order θ's ≺ prescribes, because the order in which a prefix
   ``LIKE`` query meets rows is rowid order (so θ's ≺ *is* the insertion order).
2. **Run the letter** through the real ``StorageRouter`` and ``MemoryLineage``
   (save, recall, delete, evolve, merge, split, supersede) with a null vector
   backend; ``link`` runs the facade's own ``ContextFS.link`` code on that router.
   Injected edge-write faults are a SQLite ``BEFORE INSERT`` trigger on
   ``memory_edges`` that raises for exactly the writes named by ``faults`` — no
   ContextFS code is modified or patched.
3. **Read back** every live record and every edge with plain SQL into a coalg
   store.  Records the call created got uuid identifiers from the package
   (``str(uuid4())[:12]``; evolve, merge and split cannot be given one); they are
   renamed to the identifiers of ξ in creation order, and the mapping is kept in
   :attr:`ContextFSRuntime.last`.  Their clock readings (``datetime.now()`` and the
   ``*_timestamp`` metadata) are read as ξ's clock.

What is *not* controlled: the merge-type tie-break ``max(set(types), key=types.count)``
follows this interpreter's string hashing (``PYTHONHASHSEED``), not θ's ``c``.
Within one process it is fixed; across processes it varies (Proposition 5.20,
:func:`coalg.contextfs.runtime.check_R5_20`).

Offline and contained
---------------------
Before ``contextfs`` is imported, and around every call into it, the environment
points ``HOME``, ``CONTEXTFS_DATA_DIR``, ``XDG_CACHE_HOME``, ``HF_HOME`` and
``FASTEMBED_CACHE_PATH`` into one private temporary folder (on ``/dev/shm`` when
available), sets ``HF_HUB_OFFLINE=1`` and ``TRANSFORMERS_OFFLINE=1``, and turns
off auto-linking, FalkorDB and startup loading.  The vector backend is
:class:`NullRAG`, so no embedding model is ever loaded and nothing reaches the
network.  The folder is removed when the process exits.

When the package is not installed, :data:`AVAILABLE` is false and every entry
point raises :class:`ContextFSUnavailable` with the reason (tests skip on it).

>>> isinstance(AVAILABLE, bool), RUNTIME.name
(True, 'contextfs-runtime')
"""

from __future__ import annotations

import atexit
import contextlib
import importlib.util
import json
import logging
import os
import shutil
import sqlite3
import tempfile
import types
import warnings
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from ..errors import CoalgError
from ..model import (
    DEFAULT_THETA,
    Allocation,
    Created,
    Delete,
    Edge,
    Err,
    Evolve,
    Flag,
    Found,
    FrozenMap,
    Id,
    Letter,
    Link,
    Merge,
    Nothing,
    Output,
    Realisation,
    Recall,
    RecallPrefix,
    Record,
    Relation,
    Save,
    SaveAt,
    Split,
    Store,
    Supersede,
    Theta,
    Wrote,
    inverse,
    thaw,
)

__all__ = [
    "AVAILABLE",
    "CONTEXTFS_VERSION",
    "RUNTIME",
    "ContextFSRuntime",
    "ContextFSUnavailable",
    "LiveStore",
    "NullRAG",
    "Sandbox",
    "installed_files",
    "modules",
    "read_sqlite_store",
    "require",
    "sandbox",
    "stamp",
    "unavailable_reason",
    "unstamp",
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
        from importlib.metadata import version

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


# =========================================================================== the null vector backend


class _NullCollection:
    """An empty Chroma collection: ``get`` finds nothing, ``delete`` deletes nothing (no error)."""

    def get(self, ids: Sequence[str] | None = None, include: Sequence[str] | None = None,
            limit: int | None = None, **_: Any) -> dict[str, list[Any]]:
        return {"ids": [], "documents": [], "metadatas": []}

    def delete(self, ids: Sequence[str] | None = None, **_: Any) -> None:
        return None

    def query(self, *_: Any, **__: Any) -> dict[str, list[Any]]:
        return {"ids": [[]], "documents": [[]], "metadatas": [[]], "distances": [[]]}

    def count(self) -> int:
        return 0


class NullRAG:
    """A vector backend that stores nothing: ContextFS's ``RAGBackend`` surface, offline.

    ``StorageRouter`` takes its vector backend as a constructor argument
    (``rag_backend=``), so passing this object changes no ContextFS code.
    """

    def __init__(self) -> None:
        self._collection = _NullCollection()

    def _ensure_initialized(self) -> None:
        return None

    def add_memory(self, memory: Any) -> None:
        return None

    def add_memories_batch(self, memories: Sequence[Any]) -> int:
        return 0

    def remove_memory(self, memory_id: str) -> None:
        return None

    def update_memory(self, memory: Any) -> None:
        return None

    def delete_by_namespace(self, namespace_id: str) -> int:
        return 0

    def search(self, *_: Any, **__: Any) -> list[Any]:
        return []

    def get_stats(self) -> dict[str, Any]:
        return {"total_memories": 0, "backend": "null"}

    def needs_rebuild(self) -> bool:
        return False

    def mark_rebuilt(self) -> None:
        return None

    def reset_database(self) -> bool:
        return True

    def close(self) -> None:
        return None


# =========================================================================== clock readings


EPOCH = datetime(2000, 1, 1)
"""Clock reading τ (an integer) is materialised as the naive datetime ``EPOCH + τ seconds``."""

TIMESTAMP_KEYS = ("evolution_timestamp", "merge_timestamp", "split_timestamp")
"""Metadata keys in which the package stamps a derivation's clock reading (UTC ISO strings)."""


def stamp(tau: int | None) -> datetime:
    """The datetime that stands for clock reading ``tau`` (``None`` → ``EPOCH``).

    >>> stamp(3).isoformat(), unstamp(stamp(3))
    ('2000-01-01T00:00:03', 3)
    """
    return EPOCH + timedelta(seconds=tau or 0)


def unstamp(value: datetime | str | None) -> int | None:
    """The clock reading a stored datetime stands for (whole seconds after :data:`EPOCH`)."""
    if value is None:
        return None
    dt = datetime.fromisoformat(value) if isinstance(value, str) else value
    if dt.tzinfo is not None:
        dt = dt.replace(tzinfo=None)
    return int((dt - EPOCH).total_seconds())


# =========================================================================== the schema template


_TEMPLATE: Path | None = None


def _template() -> Path:
    """A SQLite file with ContextFS's schema, created once per process by its own migrations."""
    global _TEMPLATE
    if _TEMPLATE is None or not _TEMPLATE.exists():
        m = modules()
        path = sandbox().new_path("template.db")
        given = os.environ.get("COALG_CONTEXTFS_TEMPLATE")  # a parent process's template (subprocess runs)
        if given and Path(given).is_file():
            shutil.copyfile(given, path)
        else:
            with sandbox().env(), _quiet_logs():
                m.runner.run_migrations(path)
        _TEMPLATE = path
    return _TEMPLATE


@contextlib.contextmanager
def _quiet_logs(into: list[str] | None = None) -> Iterator[None]:
    """Capture the WARNING lines of the ``contextfs`` and ``alembic`` loggers (never print them)."""

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


# =========================================================================== reading a ContextFS database


def _json(text: str | None, default: Any) -> Any:
    if text is None or text == "":
        return default
    try:
        return json.loads(text)
    except (json.JSONDecodeError, TypeError):
        return default


def _clock(value: str | None) -> int | None:
    if not value:
        return None
    try:
        return unstamp(value)
    except (ValueError, TypeError, OverflowError):
        return None


def read_sqlite_store(
    conn: sqlite3.Connection,
    *,
    live_only: bool = True,
    types_back: Mapping[str, str] | None = None,
    clocks: bool = True,
) -> Store:
    """The coalg store held by a ContextFS database (``memories`` and ``memory_edges``).

    ``live_only`` keeps only records with ``deleted_at IS NULL`` (what ``recall``
    sees); edges are read regardless of their ``deleted_at`` (as every ContextFS
    edge and lineage query reads them).  ``clocks`` converts ``created_at`` /
    ``updated_at`` to clock readings (:func:`unstamp`); without it they are ``None``.
    """
    back = types_back or {}
    where = " WHERE deleted_at IS NULL" if live_only else ""
    records: dict[Id, Record] = {}
    rows = conn.execute(
        "SELECT id, content, type, tags, summary, namespace_id, created_at, updated_at, metadata "
        f"FROM memories{where}"
    )
    for i, content, ty, tags, summary, ns, created, updated, meta in rows:
        tag_list = _json(tags, [])
        records[str(i)] = Record(
            content=content if isinstance(content, str) else str(content),
            type=back.get(ty, ty),
            namespace=str(ns),
            tags=frozenset(str(t) for t in tag_list) if isinstance(tag_list, list) else frozenset(),
            summary=summary,
            metadata=FrozenMap(m) if isinstance(m := _json(meta, {}), dict) else FrozenMap(),
            created_at=_clock(created) if clocks else None,
            updated_at=_clock(updated) if clocks else None,
        )
    edges = []
    for src, rel, dst in conn.execute("SELECT from_id, relation, to_id FROM memory_edges"):
        try:
            edges.append(Edge(str(src), Relation(rel), str(dst)))
        except ValueError:
            continue  # a label outside EdgeRelation cannot be a coalg edge
    return Store.of(records, edges)


# =========================================================================== materialising a coalg store


_MEMORY_COLUMNS = ("id, content, type, tags, summary, namespace_id, created_at, updated_at, metadata, "
                   "content_hash, authoritative")


def _insert_order(s: Store, theta: Theta) -> list[Id]:
    """Record identifiers in θ's ≺ order: the priority list first, then ascending (or descending)."""
    ids = sorted(s.records, reverse=theta.descending)
    first = [i for i in theta.id_priority if i in s.records]
    return first + [i for i in ids if i not in set(first)]


def _type_maps(s: Store, extra: Iterable[str], member_values: Sequence[str]) -> tuple[dict[str, str], dict[str, str]]:
    """A bijection between the store's type names and ContextFS ``MemoryType`` values.

    Known types map to themselves.  A type the package does not know (the law
    checks alter records to type ``"altered"``) is carried by a ``MemoryType``
    value no record of the store uses, and mapped back on reading; the package
    treats types as opaque except in the merge tie-break.
    """
    used = sorted({r.type for r in s.records.values()} | set(extra))
    known = set(member_values)
    free = [v for v in member_values if v not in used]
    to: dict[str, str] = {}
    for t in used:
        if t in known:
            to[t] = t
        else:
            if not free:
                raise ValueError(f"too many types unknown to ContextFS: {', '.join(used)}")
            to[t] = free.pop(0)
    return to, {v: k for k, v in to.items()}


def _materialise(path: Path, s: Store, order: Sequence[Id], types_to: Mapping[str, str]) -> None:
    shutil.copyfile(_template(), path)
    conn = sqlite3.connect(path)
    try:
        rows = []
        for i in order:
            r = s.records[i]
            rows.append((
                i, r.content, types_to[r.type], json.dumps(sorted(r.tags)), r.summary, r.namespace,
                stamp(r.created_at).isoformat(), stamp(r.updated_at if r.updated_at is not None else r.created_at)
                .isoformat(), json.dumps(thaw(r.metadata)), None, 0,
            ))
        conn.executemany(f"INSERT INTO memories ({_MEMORY_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?,?)", rows)
        conn.executemany(
            "INSERT INTO memory_edges (from_id, to_id, relation, weight, created_at, created_by, metadata) "
            "VALUES (?, ?, ?, 1.0, ?, 'coalg', '{}')",
            [(e.source, e.target, e.relation.value, EPOCH.isoformat()) for e in sorted(s.edges)],
        )
        conn.commit()
    finally:
        conn.close()


# =========================================================================== injected edge-write faults


def _fault_condition(a: Letter, k: int) -> str | None:
    """SQL (over ``NEW``) that is true exactly for the ``k``-th edge write the call issues.

    Writes are numbered as in :func:`coalg.model.coalgebra._write_pairs`.  A write is
    recognised by its label and, where a call issues several of one label, by the
    new record's own metadata (``merged_from[k]``, ``split_part``), which the
    package saves before it writes edges.
    """

    def q(x: str) -> str:
        return "'" + x.replace("'", "''") + "'"

    def meta_of(col: str, path: str) -> str:
        return f"json_extract((SELECT metadata FROM memories WHERE id = NEW.{col}), '{path}')"

    pair, second = divmod(k, 2)
    match a:
        case Evolve():
            rel = ("evolved_from", "evolved_into")[second] if pair == 0 else None
            return None if rel is None else f"NEW.relation = {q(rel)}"
        case Supersede():
            rel = ("supersedes", "superseded_by")[second] if pair == 0 else None
            return None if rel is None else f"NEW.relation = {q(rel)}"
        case Merge():
            if second == 0:
                return f"NEW.relation = 'merged_from' AND {meta_of('from_id', f'$.merged_from[{pair}]')} = NEW.to_id"
            return f"NEW.relation = 'merged_into' AND {meta_of('to_id', f'$.merged_from[{pair}]')} = NEW.from_id"
        case Split():
            if second == 0:
                return f"NEW.relation = 'split_from' AND {meta_of('from_id', '$.split_part')} = {pair + 1}"
            return f"NEW.relation = 'split_into' AND {meta_of('to_id', '$.split_part')} = {pair + 1}"
        case Link(source=i, relation=r, target=j):
            if pair != 0:
                return None
            if second == 0:
                return f"NEW.relation = {q(r.value)} AND NEW.from_id LIKE {q(i + '%')}"
            return f"NEW.relation = {q(inverse(r).value)} AND NEW.from_id LIKE {q(j + '%')}"
    return None


FAULT_MESSAGE = "coalg: injected edge-write failure"


def install_fault_trigger(path: Path, condition: str, name: str = "coalg_fault") -> None:
    """Add a ``BEFORE INSERT`` trigger on ``memory_edges`` that raises when ``condition`` holds.

    This is how a failing edge write is injected: the package's own ``INSERT``
    raises ``sqlite3.IntegrityError`` inside its log-and-continue handler.
    """
    conn = sqlite3.connect(path)
    try:
        conn.execute(
            f"CREATE TRIGGER {name} BEFORE INSERT ON memory_edges WHEN {condition} "
            f"BEGIN SELECT RAISE(ABORT, '{FAULT_MESSAGE}'); END"
        )
        conn.commit()
    finally:
        conn.close()


# =========================================================================== a live store


class _FacadeShim:
    """Just enough of a ``ContextFS`` instance to run the facade's own ``link`` and ``delete`` code on a router.

    ``ContextFS.link`` reads ``self._storage``; ``ContextFS.delete`` reads
    ``self._db_path``, ``self._storage`` and ``self.rag``.  Calling the facade's
    methods unbound on this object runs the package's code unchanged without
    building a whole facade (which opens a Chroma folder and reads the config).
    """

    def __init__(self, router: Any) -> None:
        self._storage = router
        self._db_path = router._db_path
        self.rag = router._rag

    def _get_inverse_relation(self, relation: Any) -> Any:
        return modules().EdgeRelation.get_inverse(relation)


@dataclass
class LiveStore:
    """A ContextFS SQLite database in the sandbox with a real router and lineage on it.

    Every method runs the package's own code inside the sandbox environment and
    records the package's WARNING log lines in :attr:`log`.
    """

    path: Path
    router: Any
    lineage: Any
    log: list[str] = field(default_factory=list)

    @classmethod
    def open(cls, name: str = "live.db", store: Store | None = None, *, theta: Theta = DEFAULT_THETA) -> LiveStore:
        """A fresh database (ContextFS's schema), optionally holding ``store`` (rows in θ's ≺ order)."""
        m = modules()
        path = sandbox().new_path(name)
        s = store if store is not None else Store()
        to, _ = _type_maps(s, (), [t.value for t in m.MemoryType])
        _materialise(path, s, _insert_order(s, theta), to)
        with sandbox().env():
            router = m.StorageRouter(db_path=path, rag_backend=NullRAG(), graph_backend=None)
            lineage = m.MemoryLineage(router)
        return cls(path, router, lineage)

    @contextlib.contextmanager
    def calling(self) -> Iterator[None]:
        with sandbox().env(), _quiet_logs(self.log):
            yield

    # -- the operations, as the package names them ------------------------------------
    def save(self, content: str, *, type: str = "fact", namespace: str = "global", tags: Iterable[str] = (),
             metadata: Mapping[str, Any] | None = None, id: Id | None = None, summary: str | None = None,
             created_at: datetime | None = None) -> Any:
        """``StorageRouter.save(Memory(...))``; ``id`` and ``created_at`` are passed when given."""
        m = modules()
        kw: dict[str, Any] = {} if id is None else {"id": id}
        if created_at is not None:
            kw.update(created_at=created_at, updated_at=created_at)
        mem = m.Memory(content=content, type=m.MemoryType(type), namespace_id=namespace, tags=list(tags),
                       metadata=dict(metadata or {}), summary=summary, **kw)
        with self.calling():
            return self.router.save(mem)

    def recall(self, id_or_prefix: str) -> Any:
        with self.calling():
            return self.router.recall(id_or_prefix)

    def delete(self, id_or_prefix: str) -> bool:
        with self.calling():
            return bool(self.router.delete(id_or_prefix))

    def soft_delete(self, id_or_prefix: str) -> bool:
        """The facade's default delete (``ContextFS.delete``, ``hard_delete=False``), run on this router."""
        m = modules()
        with self.calling():
            return bool(m.ContextFS.delete(_FacadeShim(self.router), id_or_prefix))

    def update(self, id_or_prefix: str, content: str) -> Any:
        with self.calling():
            return self.router.update(id_or_prefix, content=content)

    def evolve(self, id_or_prefix: str, content: str, **kw: Any) -> Any:
        with self.calling():
            return self.lineage.evolve(id_or_prefix, content, **kw)

    def merge(self, ids: Sequence[str], *, type: str | None = None, **kw: Any) -> Any:
        m = modules()
        with self.calling():
            return self.lineage.merge(list(ids), memory_type=None if type is None else m.MemoryType(type), **kw)

    def split(self, id_or_prefix: str, parts: Sequence[str], **kw: Any) -> Any:
        with self.calling():
            return self.lineage.split(id_or_prefix, list(parts), **kw)

    def supersede(self, old: str, new: str) -> Any:
        with self.calling():
            return self.lineage.supersede(old, new)

    def link(self, source: str, target: str, relation: str = "references", bidirectional: bool = False) -> bool:
        m = modules()
        with self.calling():
            return bool(m.ContextFS.link(_FacadeShim(self.router), source, target, relation=relation,
                                         bidirectional=bidirectional))

    def lineage_of(self, id_or_prefix: str) -> dict[str, Any]:
        """``StorageRouter.get_lineage`` (edges, with its metadata fallback)."""
        with self.calling():
            return dict(self.router.get_lineage(id_or_prefix))

    def history_of(self, id_or_prefix: str) -> dict[str, Any]:
        """``MemoryLineage.get_history`` (what the facade's ``get_lineage`` returns)."""
        with self.calling():
            return dict(self.lineage.get_history(id_or_prefix))

    # -- raw SQL views ---------------------------------------------------------------
    def sql(self, query: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        conn = sqlite3.connect(self.path)
        try:
            return list(conn.execute(query, params))
        finally:
            conn.close()

    def edges(self) -> list[tuple[str, str, str]]:
        """Every row of ``memory_edges`` as ``(from_id, relation, to_id)``, sorted."""
        return sorted((a, r, b) for a, r, b in self.sql("SELECT from_id, relation, to_id FROM memory_edges"))

    def store(self, *, live_only: bool = True) -> Store:
        """The database read back as a coalg store (clock readings as :func:`unstamp` integers)."""
        conn = sqlite3.connect(self.path)
        try:
            return read_sqlite_store(conn, live_only=live_only)
        finally:
            conn.close()

    def inject_edge_fault(self, condition: str, name: str = "coalg_fault") -> None:
        """Make edge writes matching ``condition`` (SQL over ``NEW``) raise; see :func:`install_fault_trigger`."""
        install_fault_trigger(self.path, condition, name)


def facade(namespace: str = "global", name: str = "facade") -> Any:
    """A real ``ContextFS`` facade in its own sandbox data folder, with :class:`NullRAG` swapped in.

    Built with ``auto_load=False, auto_index=False`` and auto-linking off.  The
    vector backends (``ctx.rag``, ``ctx._storage._rag``, ``ctx._hybrid.rag``) are
    replaced after construction; nothing was loaded into them.
    """
    m = modules()
    data = sandbox().root / "data" / name
    shutil.rmtree(data, ignore_errors=True)
    with sandbox().env(), _quiet_logs():
        m.config.reset_config()
        ctx = m.ContextFS(data_dir=data, namespace_id=namespace, auto_load=False, auto_index=False)
        null = NullRAG()
        ctx.rag = null
        ctx._storage._rag = null
        ctx._hybrid.rag = null
    return ctx


# =========================================================================== the step function


@dataclass
class ContextFSRuntime:
    """The real package as a step function α(s)(a, ξ); :attr:`last` describes the latest call."""

    last: dict[str, Any] = field(default_factory=dict)
    calls: int = 0

    def step(
        self,
        s: Store,
        a: Letter,
        xi: Allocation = Allocation(),
        *,
        theta: Theta = DEFAULT_THETA,
        faults: frozenset[int] = frozenset(),
    ) -> tuple[Output, Store]:
        """Run ``a`` on ``s`` through contextfs 0.2.35 and read the result back (see the module docstring)."""
        reason = xi.admissible(s, a)
        if reason is not None:
            return Err(f"{a.kind}: inadmissible allocation: {reason}"), s
        m = modules()
        self.calls += 1
        extra = [a.record.type] if isinstance(a, (Save, SaveAt)) else []
        if isinstance(a, Merge) and a.type is not None:
            extra.append(a.type)
        to, back = _type_maps(s, extra, [t.value for t in m.MemoryType])
        path = sandbox().new_path("step.db")
        _materialise(path, s, _insert_order(s, theta), to)
        conds = [c for k in sorted(faults) if (c := _fault_condition(a, k)) is not None]
        if conds:
            install_fault_trigger(path, " OR ".join(f"({c})" for c in conds))
        log: list[str] = []
        with sandbox().env(), _quiet_logs(log):
            router = m.StorageRouter(db_path=path, rag_backend=NullRAG(), graph_backend=None)
            lineage = m.MemoryLineage(router)
            out, created = self._run(a, xi, router, lineage, to, back, m)
        conn = sqlite3.connect(path)
        try:
            after = read_sqlite_store(conn, types_back=back)
            # rows the package (re)wrote in this call carry its own created_at, not the materialised EPOCH
            rewritten = {(a_, r_, b_) for a_, r_, b_ in conn.execute(
                "SELECT from_id, relation, to_id FROM memory_edges WHERE created_at != ?", (EPOCH.isoformat(),))}
        finally:
            conn.close()
        rename = dict(zip(created, xi.ids))
        after = _rename(after, rename, xi.clock)
        out = _rename_output(out, rename, after)
        if isinstance(out, Wrote):  # the candidate edges, in issue order, that the package actually wrote
            out = Wrote(tuple(e for e in out.edges if (e.source, e.relation.value, e.target) in rewritten))
        self.last = {"letter": a.kind, "allocated": {real: ours for real, ours in rename.items()},
                     "warnings": log, "faults": sorted(faults), "types": {k: v for k, v in to.items() if k != v}}
        return out, after

    @staticmethod
    def _run(a: Letter, xi: Allocation, router: Any, lineage: Any, to: Mapping[str, str],
             back: Mapping[str, str], m: types.SimpleNamespace) -> tuple[Output, list[Id]]:
        def memory(i: Id, r: Record) -> Any:
            return m.Memory(id=i, content=r.content, type=m.MemoryType(to[r.type]), tags=sorted(r.tags),
                            summary=r.summary, namespace_id=r.namespace, metadata=thaw(r.metadata),
                            created_at=stamp(xi.clock), updated_at=stamp(xi.clock))

        try:
            match a:
                case Save(record=r):
                    mem = router.save(memory(xi.ids[0], r))
                    return Created(((mem.id, r),)), []
                case SaveAt(id=i, record=r):
                    mem = router.save(memory(i, r))
                    return Created(((mem.id, r),)), []
                case Recall(id=i) | RecallPrefix(prefix=i):
                    mem = router.recall(i)
                    return (Nothing() if mem is None else Found(mem.id, _record_of(mem, back))), []
                case Delete(id=i):
                    return Flag(bool(router.delete(i))), []
                case Evolve(id=i, content=c, summary=summ, tags=tags):
                    mem = lineage.evolve(i, c, summary=summ, additional_tags=sorted(tags) or None)
                    return Created(((mem.id, _record_of(mem, back)),)), [mem.id]
                case Merge(ids=ids, content=c, type=ty, summary=summ, namespace=ns):
                    if ns is not None:
                        return Err("merge: ContextFS 0.2.35's merge takes no target namespace"), []
                    mem = lineage.merge(list(ids), merged_content=c, summary=summ,
                                        memory_type=None if ty is None else m.MemoryType(to[ty]))
                    return Created(((mem.id, _record_of(mem, back)),)), [mem.id]
                case Split(id=i, contents=cs):
                    mems = lineage.split(i, list(cs))
                    return Created(tuple((x.id, _record_of(x, back)) for x in mems)), [x.id for x in mems]
                case Supersede(old=o, new=n):
                    lineage.supersede(o, n)
                    cands = (Edge(n, Relation.SUPERSEDES, o), Edge(o, Relation.SUPERSEDED_BY, n))
                    return Wrote(cands), []
                case Link(source=i, relation=r, target=j, bidirectional=bi):
                    ok = m.ContextFS.link(_FacadeShim(router), i, j, relation=r.value, bidirectional=bi)
                    if not ok:
                        return Err(f"link: no record {i} or {j}"), []
                    src, dst = router.recall(i), router.recall(j)
                    es = [Edge(src.id, r, dst.id)] + ([Edge(dst.id, inverse(r), src.id)] if bi else [])
                    return Wrote(tuple(es)), []
        except ValueError as e:  # the package's "not found" / "need at least 2" errors
            return Err(f"{a.kind}: {e}"), []
        raise TypeError(f"not a letter: {a!r}")

    def __hash__(self) -> int:
        return id(self)


def _record_of(mem: Any, back: Mapping[str, str]) -> Record:
    ty = mem.type.value if hasattr(mem.type, "value") else str(mem.type)
    return Record(
        content=mem.content, type=back.get(ty, ty), namespace=mem.namespace_id, tags=frozenset(mem.tags),
        summary=mem.summary, metadata=FrozenMap(mem.metadata or {}),
        created_at=unstamp(mem.created_at), updated_at=unstamp(mem.updated_at),
    )


def _rename(s: Store, rename: Mapping[Id, Id], clock: int) -> Store:
    """Rename the identifiers the package allocated to ξ's, and read their clocks as ξ's clock."""
    if not rename:
        return s
    records = {}
    for i, r in s.records.items():
        if i in rename:
            # a timestamp the package wrote in this call is an ISO string; inherited ones keep their value
            meta = {k: (clock if k in TIMESTAMP_KEYS and isinstance(v, str) else v) for k, v in r.metadata.items()}
            r = r.evolve(created_at=clock, updated_at=clock, metadata=FrozenMap(meta))
        records[rename.get(i, i)] = r
    edges = [Edge(rename.get(e.source, e.source), e.relation, rename.get(e.target, e.target)) for e in s.edges]
    return Store.of(records, edges)


def _rename_output(out: Output, rename: Mapping[Id, Id], after: Store) -> Output:
    if isinstance(out, Created) and rename:
        return Created(tuple((rename.get(i, i), after.records.get(rename.get(i, i), r)) for i, r in out.items))
    if isinstance(out, Created):
        return Created(tuple((i, after.records.get(i, r)) for i, r in out.items))
    return out


_RUNTIME_ENGINE = ContextFSRuntime()


def _runtime_step(s: Store, a: Letter, xi: Allocation = Allocation(), *, theta: Theta = DEFAULT_THETA,
                  faults: frozenset[int] = frozenset()) -> tuple[Output, Store]:
    return _RUNTIME_ENGINE.step(s, a, xi, theta=theta, faults=faults)


RUNTIME = Realisation(
    "contextfs-runtime",
    _runtime_step,
    "The released contextfs 0.2.35 (commit a93035d) driven offline: each step materialises the store into a "
    "fresh SQLite file with ContextFS's schema, runs the letter through the real StorageRouter/MemoryLineage "
    "with a null vector backend, and reads records and edges back (new uuids renamed to ξ's identifiers).",
    declares_valid_time=False,
    edge_faults=True,
)
"""The real package as a realisation (not in :data:`coalg.model.realisation.REALISATIONS`: importing
the adapter must not change the registry other modules print)."""


def engine() -> ContextFSRuntime:
    """The step engine behind :data:`RUNTIME` (its :attr:`~ContextFSRuntime.last` describes the latest call)."""
    return _RUNTIME_ENGINE
