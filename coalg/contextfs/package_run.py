"""A word run on the released package, on one database, with what it leaves undeclared pinned down.

:class:`PackageRun` drives contextfs 0.2.35's own ``StorageRouter`` and
``MemoryLineage`` (a :class:`~coalg.contextfs.live.LiveStore`) through the steps
of a word (:mod:`coalg.contextfs.random_words`), one SQLite file for the whole
word, so that row order and clock readings are the package's own.  After each
step it returns the package's answer and the whole database read back as a
coalg store (§3.1).  The adapter of :mod:`coalg.contextfs.adapter` instead
writes the store into a fresh file at every step, which resets both.

Three things the package leaves to chance are pinned or read by order:

* **identifiers.** ``Memory`` draws its identifier from ``uuid.uuid4()``.  While
  a step runs, :func:`pinned_uuids` makes ``uuid4`` hand out the identifiers of
  the step's allocation ξ, in order (nothing of ContextFS is replaced: the
  standard library's generator is, as ``PYTHONHASHSEED`` pins its hashing).  The
  identifiers the package created are reported in creation order, so the
  renaming to ξ is checked, not assumed.
* **clock readings** (``created_at`` in naive local time, the lineage
  timestamps in UTC) are read by order: :class:`StepClock` notes both clocks
  before and after every step, and a reading stands for the step during which
  it was taken -- the model's clock reading of that step.
* **edge-write faults** are a SQLite trigger (:func:`~coalg.contextfs.materialise.install_fault_trigger`)
  installed for one step and dropped after it.

Importing this module does not import ``contextfs``.
"""

from __future__ import annotations

import contextlib
import sqlite3
import time
import uuid
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ..model import (
    ALLOCATION_META_KEYS,
    Created,
    Edge,
    Err,
    Flag,
    Found,
    FrozenMap,
    Id,
    Nothing,
    Output,
    Record,
    Store,
    thaw,
)
from ..model import alphabet as A
from .live import LiveStore
from .materialise import fault_condition, install_fault_trigger
from .offline import modules
from .random_words import WordStep
from .tables import record_of_row, relation_of

__all__ = ["UNMODELLED_COLUMNS", "PackageRun", "PackageStep", "Returned", "StepClock", "pinned_uuids"]

UNMODELLED_COLUMNS = ("source_file", "source_repo", "source_tool", "project", "session_id", "structured_data",
                      "deleted_at")
"""Columns of ``memories`` the model has no field for; the words never set them, so they must stay NULL."""

_TRIGGER = "coalg_differential_fault"


@contextlib.contextmanager
def pinned_uuids(ids: list[Id]) -> Iterator[list[Id]]:
    """While the block runs, ``uuid.uuid4()`` returns UUIDs whose first 12 characters are ``ids``, in order.

    The package's identifiers are ``str(uuid4())[:12]``.  A call beyond the
    supply raises ``RuntimeError`` (the package then fails the step).  Yields the
    list of identifiers handed out.
    """
    queue, handed = list(ids), []
    real = uuid.uuid4

    def supplied() -> uuid.UUID:
        if not queue:
            raise RuntimeError("the package drew more identifiers than the allocation supplies")
        j = queue.pop(0)
        handed.append(j)
        return uuid.UUID(hex=(j[:8] + j[9:12] + "0" + "4000" + "8000" + "0" * 12))

    uuid.uuid4 = supplied
    try:
        yield handed
    finally:
        uuid.uuid4 = real


@dataclass
class StepClock:
    """Both of the package's clocks, read before and after each step of a word.

    Steps are numbered 1, 2, …, as the model's clock readings.  A reading taken
    during step ``k`` lies between its two marks; :meth:`step_of` finds ``k``.
    """

    local: list[tuple[datetime, datetime]] = field(default_factory=list)
    utc: list[tuple[datetime, datetime]] = field(default_factory=list)
    _open: tuple[datetime, datetime] | None = None

    def begin(self) -> None:
        # marks must not coincide with the previous step's: wait for the clock to move on
        last = self.local[-1][1] if self.local else None
        while last is not None and datetime.now() <= last:
            time.sleep(0)
        self._open = (datetime.now(), datetime.now(UTC))

    def end(self) -> None:
        assert self._open is not None
        self.local.append((self._open[0], datetime.now()))
        self.utc.append((self._open[1], datetime.now(UTC)))
        self._open = None

    def step_of(self, value: Any) -> int | None:
        """The step during which ``value`` (a datetime, or its ISO text) was read; ``None`` if none."""
        try:
            t = datetime.fromisoformat(value) if isinstance(value, str) else value
        except ValueError:
            return None
        if not isinstance(t, datetime):
            return None
        marks = self.local if t.tzinfo is None else self.utc
        for k, (lo, hi) in enumerate(marks, start=1):
            if lo <= t <= hi:
                return k
        return None


@dataclass(frozen=True)
class Returned:
    """What ``MemoryLineage.supersede`` returns: the first edge it wrote, or ``None`` when its handler caught a failure."""

    edge: Edge | None


@dataclass(frozen=True)
class PackageStep:
    """One step run by the package: its answer and the database after it, read as a coalg store.

    ``output`` is the answer as a model output (a record the package returned
    with its clock readings turned into step numbers), or :class:`Returned` for
    supersede.  ``created`` lists the identifiers the package drew, in creation
    order; ``unmodelled`` the cells of :data:`UNMODELLED_COLUMNS` that are not
    NULL; ``raised`` an exception other than the package's ``ValueError``.
    """

    output: Output | Returned
    store: Store
    created: tuple[Id, ...] = ()
    unmodelled: tuple[str, ...] = ()
    raised: str | None = None
    warnings: tuple[str, ...] = ()


class PackageRun:
    """A fresh ContextFS database in the sandbox, driven one word step at a time."""

    def __init__(self, name: str) -> None:
        self.live = LiveStore.open(name)
        self.clock = StepClock()

    def close(self) -> None:
        """Remove the database file (a long run would otherwise fill the sandbox)."""
        for suffix in ("", "-journal", "-wal", "-shm"):
            Path(str(self.live.path) + suffix).unlink(missing_ok=True)

    # -- reading back ----------------------------------------------------------------
    def _metadata(self, meta: Mapping[str, Any]) -> FrozenMap:
        out = dict(meta)
        for k in ALLOCATION_META_KEYS:
            v = out.get(k)
            if isinstance(v, str):
                step = self.clock.step_of(v)
                out[k] = v if step is None else step
        return FrozenMap(out)

    def record_of(self, mem: Any) -> Record:
        """The coalg record a ``Memory`` the package returned stands for, clocks read as step numbers."""
        return Record(content=mem.content, type=mem.type.value, namespace=mem.namespace_id,
                      tags=frozenset(mem.tags), summary=mem.summary, metadata=self._metadata(mem.metadata or {}),
                      created_at=self.clock.step_of(mem.created_at), updated_at=self.clock.step_of(mem.updated_at))

    def read(self) -> tuple[Store, tuple[str, ...]]:
        """Every row of ``memories`` and ``memory_edges`` as a coalg store, and the unmodelled cells that are set."""
        conn = sqlite3.connect(self.live.path)
        try:
            cols = ", ".join(UNMODELLED_COLUMNS)
            rows = conn.execute("SELECT id, content, type, tags, summary, namespace_id, created_at, updated_at, "
                                f"metadata, {cols} FROM memories").fetchall()
            edge_rows = conn.execute("SELECT from_id, relation, to_id FROM memory_edges").fetchall()
        finally:
            conn.close()
        records, unmodelled = {}, []
        for i, content, ty, tags, summary, ns, created, updated, meta, *rest in rows:
            r = record_of_row(content, ty, tags, summary, ns, meta, created_at=self.clock.step_of(created),
                              updated_at=self.clock.step_of(updated))
            records[str(i)] = r.evolve(metadata=self._metadata(r.metadata))
            unmodelled += [f"{i}.{c}={v!r}" for c, v in zip(UNMODELLED_COLUMNS, rest) if v is not None]
        edges = [Edge(str(a), rel, str(b)) for a, label, b in edge_rows if (rel := relation_of(label)) is not None]
        return Store.of(records, edges), tuple(sorted(unmodelled))

    # -- one step ----------------------------------------------------------------------
    def step(self, ws: WordStep) -> PackageStep:
        """Run one step of a word through the package; see the module docstring."""
        a, xi = ws.call.letter, ws.call.allocation
        conds = [c for k in sorted(ws.call.faults) if (c := fault_condition(a, k)) is not None]
        if conds:
            install_fault_trigger(self.live.path, " OR ".join(f"({c})" for c in conds), _TRIGGER)
        log_start = len(self.live.log)
        raised, raw, failed = None, None, Err(f"{a.kind}: no answer")
        handed: list[Id] = []
        self.clock.begin()
        try:
            with pinned_uuids([] if ws.explicit_id else list(xi.ids)) as handed, self.live.calling():
                raw = self._call(ws)
        except ValueError as e:  # the package's "not found" / "need at least 2"
            failed = Err(f"{a.kind}: {e}")
        except Exception as e:  # noqa: BLE001 - anything else is itself a finding
            failed, raised = Err(f"{a.kind}: raised {type(e).__name__}"), f"{type(e).__name__}: {e}"
        finally:
            self.clock.end()
            if conds:
                _drop_trigger(self.live.path)
        out = failed if raw is None else self._convert(raw)
        store, unmodelled = self.read()
        return PackageStep(out, store, tuple(handed), unmodelled, raised, tuple(self.live.log[log_start:]))

    def _call(self, ws: WordStep) -> _Raw:
        m, live = modules(), self.live
        a = ws.call.letter

        def memory(r: Record, i: Id | None) -> Any:
            kw = {} if i is None else {"id": i}
            # the type goes in as the caller's string: the package's own validation decides
            return m.Memory(content=r.content, type=r.type, tags=sorted(r.tags), summary=r.summary,
                            namespace_id=r.namespace, metadata=thaw(r.metadata), **kw)

        match a:
            case A.Save(record=r):
                return _Raw("memories", [live.router.save(memory(r, ws.call.allocation.ids[0] if ws.explicit_id
                                                                 else None))])
            case A.SaveAt(id=i, record=r):
                return _Raw("memories", [live.router.save(memory(r, i))])
            case A.Recall(id=i) | A.RecallPrefix(prefix=i):
                return _Raw("found", [live.router.recall(i)])
            case A.Delete(id=i):
                return _Raw("flag", [live.router.delete(i)])
            case A.Evolve(id=i, content=c, summary=summ, tags=tags):
                return _Raw("memories", [live.lineage.evolve(i, c, summary=summ,
                                                             additional_tags=sorted(tags) or None)])
            case A.Merge(ids=ids, content=c, type=ty, summary=summ):
                return _Raw("memories", [live.lineage.merge(list(ids), merged_content=c, summary=summ,
                                                            memory_type=ty)])
            case A.Split(id=i, contents=cs):
                return _Raw("memories", list(live.lineage.split(i, list(cs))))
            case A.Supersede(old=o, new=n):
                return _Raw("edge", [live.lineage.supersede(o, n)])
        raise TypeError(f"the differential words do not use {a.kind}")

    def _convert(self, raw: _Raw) -> Output | Returned:
        match raw.kind:
            case "memories":
                return Created(tuple((x.id, self.record_of(x)) for x in raw.values))
            case "found":
                x = raw.values[0]
                return Nothing() if x is None else Found(x.id, self.record_of(x))
            case "flag":
                return Flag(bool(raw.values[0]))
        e = raw.values[0]
        if e is None:
            return Returned(None)
        rel = relation_of(e.relation.value)
        return Returned(None if rel is None else Edge(e.from_id, rel, e.to_id))


def _drop_trigger(path: Any) -> None:
    conn = sqlite3.connect(path)
    try:
        conn.execute(f"DROP TRIGGER IF EXISTS {_TRIGGER}")
        conn.commit()
    finally:
        conn.close()


@dataclass(frozen=True)
class _Raw:
    """What a package call returned, before its records are read (``memories``, ``found``, ``flag``, ``edge``)."""

    kind: str
    values: list[Any]
