"""The package's own objects on a sandbox database: :class:`LiveStore`, the facade, the null vector backend.

A runtime observation (:mod:`coalg.contextfs.runtime`) calls the released
package as a user would: ``StorageRouter.save``, ``MemoryLineage.evolve``, the
facade's ``ContextFS.link`` and ``ContextFS.delete``.  :class:`LiveStore` holds
a real router and lineage on one SQLite file in the sandbox
(:mod:`coalg.contextfs.offline`), runs each call inside the sandbox
environment, records the package's WARNING log lines, and reads the database
back as the paper's store (§3.1) or as plain rows.

No ContextFS code is replaced: ``StorageRouter`` takes its vector backend as a
constructor argument (``rag_backend=``), and :class:`NullRAG` is an object with
that backend's surface that stores nothing.
"""

from __future__ import annotations

import contextlib
import shutil
import sqlite3
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from ..model import ANCESTRY, DEFAULT_THETA, Id, Store, Theta
from .materialise import insert_order, install_fault_trigger, materialise, type_maps
from .offline import modules, quiet_logs, sandbox
from .tables import read_sqlite_store

__all__ = ["Allocated", "FacadeShim", "LiveStore", "NullRAG", "facade"]


# =========================================================================== the null vector backend


class _NullCollection:
    """An empty Chroma collection: ``get`` finds nothing, ``delete`` deletes nothing (no error)."""

    def get(self, ids: Sequence[str] | None = None, include: Sequence[str] | None = None,
            limit: int | None = None, **_: Any) -> dict[str, list[Any]]:
        return {"ids": [], "documents": [], "metadatas": []}

    def delete(self, ids: Sequence[str] | None = None, **_: Any) -> None:
        return None


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
        return {"total_memories": 0}

    @property
    def needs_rebuild(self) -> bool:
        """A property, as in the package: ``ContextFS.check_and_repair_chromadb`` reads it as a flag."""
        return False

    def mark_rebuilt(self) -> None:
        return None

    def reset_database(self) -> bool:
        return True

    def close(self) -> None:
        return None


# =========================================================================== the facade


class FacadeShim:
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


def facade(namespace: str = "global", name: str = "facade") -> Any:
    """A real ``ContextFS`` facade in its own sandbox data folder, with :class:`NullRAG` swapped in.

    Built with ``auto_load=False, auto_index=False`` and auto-linking off.  The
    vector backends (``ctx.rag``, ``ctx._storage._rag``, ``ctx._hybrid.rag``) are
    replaced after construction; nothing was loaded into them.
    """
    m = modules()
    data = sandbox().root / "data" / name
    shutil.rmtree(data, ignore_errors=True)
    with sandbox().env(), quiet_logs():
        m.config.reset_config()
        ctx = m.ContextFS(data_dir=data, namespace_id=namespace, auto_load=False, auto_index=False)
        null = NullRAG()
        ctx.rag = null
        ctx._storage._rag = null
        ctx._hybrid.rag = null
    return ctx


# =========================================================================== a live store


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
        to, _ = type_maps(s, (), [t.value for t in m.MemoryType])
        materialise(path, s, insert_order(s, theta), to)
        with sandbox().env():
            router = m.StorageRouter(db_path=path, rag_backend=NullRAG(), graph_backend=None)
            lineage = m.MemoryLineage(router)
        return cls(path, router, lineage)

    @contextlib.contextmanager
    def calling(self) -> Iterator[None]:
        """The sandbox environment, with the package's log lines going to :attr:`log`."""
        with sandbox().env(), quiet_logs(self.log):
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
            return bool(m.ContextFS.delete(FacadeShim(self.router), id_or_prefix))

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
            return bool(m.ContextFS.link(FacadeShim(self.router), source, target, relation=relation,
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

    def ancestry(self, i: str) -> list[list[str]]:
        """The ancestry edges out of ``i`` (β⁻'s labels) as rows ``[relation, to_id]``, sorted."""
        labels = tuple(sorted(r.value for r in ANCESTRY))
        rows = self.sql("SELECT relation, to_id FROM memory_edges WHERE from_id = ? AND relation IN (?, ?, ?)",
                        (i, *labels))
        return sorted([r, t] for r, t in rows)

    def edges_touching(self, i: str) -> list[list[str]]:
        """Every edge with ``i`` at either end, as rows ``[from_id, relation, to_id]``, sorted."""
        rows = self.sql("SELECT from_id, relation, to_id FROM memory_edges WHERE from_id = ? OR to_id = ?", (i, i))
        return sorted([a, r, b] for a, r, b in rows)

    def store(self, *, live_only: bool = True) -> Store:
        """The database read back as a coalg store (clock readings as :func:`~coalg.contextfs.tables.unstamp` integers)."""
        conn = sqlite3.connect(self.path)
        try:
            return read_sqlite_store(conn, live_only=live_only)
        finally:
            conn.close()

    def inject_edge_fault(self, condition: str, name: str = "coalg_fault") -> None:
        """Make edge writes matching ``condition`` (SQL over ``NEW``) raise (:func:`~coalg.contextfs.materialise.install_fault_trigger`)."""
        install_fault_trigger(self.path, condition, name)


class Allocated:
    """The identifiers the package allocates in one observation (``str(uuid4())[:12]``), renamed as
    the adapter renames them: to ``id0001``, ``id0002``, … in creation order, so what is reported
    reads the same on every run.

    >>> from types import SimpleNamespace
    >>> new = Allocated()
    >>> m = new(SimpleNamespace(id="3c9e1f0a-7b2"))
    >>> new.json({"made": [m.id], m.id: "child of a0000000-001"})
    {'made': ['id0001'], 'id0001': 'child of a0000000-001'}
    """

    def __init__(self) -> None:
        self.names: dict[str, str] = {}

    def __call__(self, memory: Any) -> Any:
        """``memory`` (a new record the package returned), its identifier noted."""
        self.names.setdefault(memory.id, f"id{len(self.names) + 1:04d}")
        return memory

    def text(self, s: str) -> str:
        """``s`` with every noted identifier replaced by its name."""
        for old, new in self.names.items():
            s = s.replace(old, new)
        return s

    def json(self, v: Any) -> Any:
        """A JSON-like value with every noted identifier replaced, in keys and strings alike."""
        if isinstance(v, str):
            return self.text(v)
        if isinstance(v, dict):
            return {self.text(k) if isinstance(k, str) else k: self.json(x) for k, x in v.items()}
        if isinstance(v, (list, tuple)):
            return [self.json(x) for x in v]
        return v
