"""The released ContextFS as a realisation: one step α(s)(a, ξ) of the store coalgebra, run by the package.

:data:`RUNTIME` is a :class:`~coalg.model.realisation.Realisation` called
``contextfs-runtime``, so that the law checks of :mod:`coalg.laws` and the
witnesses of :mod:`coalg.contextfs.runtime` run against the real package
exactly as against the model of §3.3.

How one step α(s)(a, ξ) is run
------------------------------

1. **Materialise** the coalg store ``s`` into a fresh SQLite file with ContextFS's
   own schema (:mod:`coalg.contextfs.materialise`).  Records keep their
   identifiers; rows are inserted in the order θ's ≺ prescribes.
2. **Run the letter** through the real ``StorageRouter`` and ``MemoryLineage``
   (save, recall, delete, evolve, merge, split, supersede) with a null vector
   backend, inside the sandbox (:mod:`coalg.contextfs.offline`); ``link`` runs
   the facade's own ``ContextFS.link`` code on that router.  Injected edge-write
   faults are a SQLite trigger that raises for exactly the writes named by
   ``faults``.
3. **Read back** every live record and every edge with plain SQL into a coalg
   store (:func:`~coalg.contextfs.tables.read_sqlite_store`).  Records the call
   created got uuid identifiers from the package (``str(uuid4())[:12]``; evolve,
   merge and split cannot be given one); they are renamed to the identifiers of
   ξ in creation order.  Their clock readings (``datetime.now()`` and the
   ``*_timestamp`` metadata) are read as ξ's clock.

:meth:`ContextFSRuntime.run` returns a :class:`StepReport`: the output and the
next store, and what happened on the way (the renaming, the package's warnings,
the faults, the type mapping).  :data:`RUNTIME`'s ``step`` runs
:func:`engine` and keeps only the output and the next store.

What is *not* controlled: the merge-type tie-break ``max(set(types), key=types.count)``
follows this interpreter's string hashing (``PYTHONHASHSEED``), not θ's ``c``.
Within one process it is fixed; across processes it varies (Proposition 5.20,
:func:`coalg.contextfs.runtime.check_R5_20`).

>>> RUNTIME.name, RUNTIME.edge_faults
('contextfs-runtime', True)
"""

from __future__ import annotations

import sqlite3
import types
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..model import (
    DEFAULT_THETA,
    Allocation,
    Created,
    Edge,
    Err,
    Flag,
    Found,
    FrozenMap,
    Id,
    Letter,
    Nothing,
    Output,
    Realisation,
    Record,
    Relation,
    Store,
    Theta,
    Wrote,
    inverse,
    thaw,
)
from ..model import alphabet as A
from .live import FacadeShim, NullRAG
from .materialise import (
    fault_condition,
    insert_order,
    install_fault_trigger,
    materialise,
    type_maps,
)
from .offline import modules, quiet_logs, sandbox
from .tables import EPOCH, read_sqlite_store, stamp, unstamp

__all__ = ["RUNTIME", "ContextFSRuntime", "StepReport", "engine"]

TIMESTAMP_KEYS = ("evolution_timestamp", "merge_timestamp", "split_timestamp")
"""Metadata keys in which the package stamps a derivation's clock reading (UTC ISO strings)."""


@dataclass(frozen=True)
class StepReport:
    """One step α(s)(a, ξ) run by the package: its output and next store, and what happened on the way.

    ``allocated`` pairs each identifier the package chose (a uuid prefix) with
    the identifier of ξ it was renamed to, in creation order; ``warnings`` are
    the package's WARNING log lines; ``faults`` the injected edge-write faults;
    ``types`` the store types carried by another ``MemoryType`` value.
    """

    output: Output
    store: Store
    letter: str
    allocated: tuple[tuple[Id, Id], ...] = ()
    warnings: tuple[str, ...] = ()
    faults: tuple[int, ...] = ()
    types: FrozenMap = field(default_factory=FrozenMap)


@dataclass(eq=False)
class ContextFSRuntime:
    """The real package run one step α(s)(a, ξ) at a time (:meth:`run`); :attr:`calls` counts the steps run."""

    calls: int = 0

    def run(
        self,
        s: Store,
        a: Letter,
        xi: Allocation = Allocation(),
        *,
        theta: Theta = DEFAULT_THETA,
        faults: frozenset[int] = frozenset(),
    ) -> StepReport:
        """Run ``a`` on ``s`` through contextfs 0.2.35 and read the result back (see the module docstring)."""
        reason = xi.admissible(s, a)
        if reason is not None:
            return StepReport(Err(f"{a.kind}: inadmissible allocation: {reason}"), s, a.kind)
        m = modules()
        self.calls += 1
        extra = [a.record.type] if isinstance(a, (A.Save, A.SaveAt)) else []
        if isinstance(a, A.Merge) and a.type is not None:
            extra.append(a.type)
        to, back = type_maps(s, extra, [t.value for t in m.MemoryType])
        path = sandbox().new_path("step.db")
        materialise(path, s, insert_order(s, theta), to)
        conds = [c for k in sorted(faults) if (c := fault_condition(a, k)) is not None]
        if conds:
            install_fault_trigger(path, " OR ".join(f"({c})" for c in conds))
        log: list[str] = []
        with sandbox().env(), quiet_logs(log):
            router = m.StorageRouter(db_path=path, rag_backend=NullRAG(), graph_backend=None)
            lineage = m.MemoryLineage(router)
            out, created = _run_letter(a, xi, router, lineage, to, back, m)
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
        return StepReport(out, after, a.kind, allocated=tuple(rename.items()), warnings=tuple(log),
                          faults=tuple(sorted(faults)), types=FrozenMap({k: v for k, v in to.items() if k != v}))


def _run_letter(a: Letter, xi: Allocation, router: Any, lineage: Any, to: Mapping[str, str],
                back: Mapping[str, str], m: types.SimpleNamespace) -> tuple[Output, list[Id]]:
    """Call the package for ``a``: the output (identifiers as the package chose them) and the created ids."""

    def memory(i: Id, r: Record) -> Any:
        return m.Memory(id=i, content=r.content, type=m.MemoryType(to[r.type]), tags=sorted(r.tags),
                        summary=r.summary, namespace_id=r.namespace, metadata=thaw(r.metadata),
                        created_at=stamp(xi.clock), updated_at=stamp(xi.clock))

    try:
        match a:
            case A.Save(record=r):
                mem = router.save(memory(xi.ids[0], r))
                return Created(((mem.id, r),)), []
            case A.SaveAt(id=i, record=r):
                mem = router.save(memory(i, r))
                return Created(((mem.id, r),)), []
            case A.Recall(id=i) | A.RecallPrefix(prefix=i):
                mem = router.recall(i)
                return (Nothing() if mem is None else Found(mem.id, _record_of(mem, back))), []
            case A.Delete(id=i):
                return Flag(bool(router.delete(i))), []
            case A.Evolve(id=i, content=c, summary=summ, tags=tags):
                mem = lineage.evolve(i, c, summary=summ, additional_tags=sorted(tags) or None)
                return Created(((mem.id, _record_of(mem, back)),)), [mem.id]
            case A.Merge(ids=ids, content=c, type=ty, summary=summ, namespace=ns):
                if ns is not None:
                    return Err("merge: ContextFS 0.2.35's merge takes no target namespace"), []
                mem = lineage.merge(list(ids), merged_content=c, summary=summ,
                                    memory_type=None if ty is None else m.MemoryType(to[ty]))
                return Created(((mem.id, _record_of(mem, back)),)), [mem.id]
            case A.Split(id=i, contents=cs):
                mems = lineage.split(i, list(cs))
                return Created(tuple((x.id, _record_of(x, back)) for x in mems)), [x.id for x in mems]
            case A.Supersede(old=o, new=n):
                lineage.supersede(o, n)
                cands = (Edge(n, Relation.SUPERSEDES, o), Edge(o, Relation.SUPERSEDED_BY, n))
                return Wrote(cands), []
            case A.Link(source=i, relation=r, target=j, bidirectional=bi):
                ok = m.ContextFS.link(FacadeShim(router), i, j, relation=r.value, bidirectional=bi)
                if not ok:
                    return Err(f"link: no record {i} or {j}"), []
                src, dst = router.recall(i), router.recall(j)
                es = [Edge(src.id, r, dst.id)] + ([Edge(dst.id, inverse(r), src.id)] if bi else [])
                return Wrote(tuple(es)), []
    except ValueError as e:  # the package's "not found" / "need at least 2" errors
        return Err(f"{a.kind}: {e}"), []
    raise TypeError(f"not a letter: {a!r}")


def _record_of(mem: Any, back: Mapping[str, str]) -> Record:
    """The coalg record a ``Memory`` the package returned stands for."""
    ty = mem.type.value if hasattr(mem.type, "value") else str(mem.type)
    return Record(
        content=mem.content, type=back.get(ty, ty), namespace=mem.namespace_id, tags=frozenset(mem.tags),
        summary=mem.summary, metadata=FrozenMap(mem.metadata or {}),
        created_at=unstamp(mem.created_at), updated_at=unstamp(mem.updated_at),
    )


# =========================================================================== the uuid → ξ renaming


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
    """The output with renamed identifiers, each created record as the next store holds it."""
    if isinstance(out, Created):
        return Created(tuple((rename.get(i, i), after.records.get(rename.get(i, i), r)) for i, r in out.items))
    return out


# =========================================================================== the realisation


_ENGINE = ContextFSRuntime()


def engine() -> ContextFSRuntime:
    """The step engine behind :data:`RUNTIME` (its :attr:`~ContextFSRuntime.calls` counts the package's steps)."""
    return _ENGINE


def _runtime_step(s: Store, a: Letter, xi: Allocation = Allocation(), *, theta: Theta = DEFAULT_THETA,
                  faults: frozenset[int] = frozenset()) -> tuple[Output, Store]:
    report = _ENGINE.run(s, a, xi, theta=theta, faults=faults)
    return report.output, report.store


RUNTIME = Realisation(
    "contextfs-runtime",
    _runtime_step,
    "The released contextfs 0.2.35 (commit a93035d) driven offline: each step materialises the store into a "
    "fresh SQLite file with ContextFS's schema, runs the letter through the real StorageRouter/MemoryLineage "
    "with a null vector backend, and reads records and edges back (new uuids renamed to ξ's identifiers).",
    declares_valid_time=False,
    edge_faults=True,
)
"""The real package as a realisation (not in :data:`coalg.model.registry.REALISATIONS`: importing
the adapter must not change the registry other modules print)."""
