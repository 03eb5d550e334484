"""Open problem 5, persisting the version model: a mapping from lineage graphs to timelines.

ContextFS has a second memory model, ``VersionedMem`` with a ``Timeline`` of
``VersionEntry``s, whose ``is_consistent`` checks monotone timestamps, a single
memory id and unique version ids (``types/versioned.py:576``; here
:meth:`coalg.bitemporal.Timeline.is_consistent`).  Nothing connects it to the
store.  :func:`timelines` is such a connection.

The mapping Φ
-------------
* A **memory** is a chain of evolutions: its versions are the records joined by
  ``EVOLVED_FROM`` / ``EVOLVED_INTO`` edges.  Merge and split make *new*
  memories (several parents, or several children of one version, do not fit
  one linear timeline).
* The **memories** are the records with no ``EVOLVED_FROM`` edge (first versions).
* Memory ``m``'s **versions** are reached from ``m`` along ``EVOLVED_INTO`` edges
  (the descendant direction, as a lineage query reads them).
* Each entry's ``memory_id`` is computed from the *version*: follow its
  ``EVOLVED_FROM`` edges back to a first version (the ancestry direction).
* Entries are listed in lineage order — a version after its parent — choosing
  the earliest ``created_at`` (then identifier) among the versions whose parent
  is already listed; ``timestamp`` is ``created_at``, ``version_id`` the record's
  identifier, ``reason`` its ``change_reason``.

The law
-------
* **T1** every timeline of Φ(s) satisfies ``is_consistent``;
* **T2** coverage: every record of ``s`` is a version of exactly one memory;
* **T3** incrementality: for a fragment call ``s → s′``, every timeline of Φ(s)
  is a prefix of the same memory's timeline in Φ(s′) — so a persisted timeline
  is kept in agreement by *appending* the call's new versions (the cost: one
  write per created record, none rewritten).

Property-tested on stores reachable by fragment runs of REPAIRED and of the
ContextFS model without faults.  Which hypothesis each clause uses: the
*monotone timestamps* clause needs L1 (a version is never replaced, so lineage
order and clock order agree); *single memory id* and coverage need L3 (the two
directions agree); Φ reads only edges, so it does **not** need L2.  L2 matters
to a mapping that takes the memory id from the metadata, as ContextFS's lineage
fallbacks do (:func:`timelines` with ``memory_id_from="metadata"``).

Counterexamples (:func:`counterexamples`): a one-way ``EVOLVED_INTO`` link (L3
fails) puts a version of another memory into the timeline — single memory id
fails; a failed ``EVOLVED_INTO`` write (L3 fails) loses a version — coverage
fails; ``save_at`` on a first version after it evolved (L1 fails) — monotone
timestamps fail; and on a *fault-free* ContextFS store, where L2 already fails
by inheritance (Witness B), the metadata reading breaks single memory id.

>>> from coalg.model.alphabet import Evolve, Save
>>> from coalg.model.coalgebra import run
>>> from coalg.model.store import EMPTY
>>> s = run(EMPTY, [Save(Record("v1")), Evolve("id0001", "v2"), Evolve("id0002", "v3")]).final
>>> tl = timelines(s)["id0001"]
>>> [e.version_id for e in tl.entries], tl.is_consistent("id0001")
(['id0001', 'id0002', 'id0003'], True)
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any, Literal

from ..bitemporal import Timeline, VersionEntry, clock_to_datetime
from ..model import (
    CONTEXTFS,
    EMPTY,
    REPAIRED,
    Allocation,
    Call,
    Id,
    Letter,
    Realisation,
    Record,
    Relation,
    Store,
    meta_ancestry,
    run,
    store_to_json,
)
from ..model import alphabet as A
from ._common import evidence, random_run

__all__ = ["check_run", "counterexamples", "first_version", "incremental", "laws", "ok", "timeline_json", "timelines",
           "verdict"]

Source = Literal["edges", "metadata"]


def _parent_by_edges(s: Store, i: Id) -> Id | None:
    ps = sorted(e.target for e in s.edges if e.source == i and e.relation is Relation.EVOLVED_FROM)
    return ps[0] if ps else None


def _parent_by_metadata(s: Store, i: Id) -> Id | None:
    r = s.records.get(i)
    ps = sorted(meta_ancestry(r, Relation.EVOLVED_FROM)) if r is not None else []
    return ps[0] if ps else None


def first_version(s: Store, i: Id, source: Source = "edges") -> Id:
    """The memory a version belongs to: follow ``EVOLVED_FROM`` (edges, or the metadata) back to a first version.

    With several parents the least identifier is followed; a cycle stops where it closes.
    """
    parent = _parent_by_edges if source == "edges" else _parent_by_metadata
    seen = {i}
    while (p := parent(s, i)) is not None and p not in seen:
        seen.add(p)
        i = p
    return i


def _versions(s: Store, m: Id) -> list[Id]:
    """Lineage order: a version after its parent, earliest ``created_at`` (then id) first among the ready ones."""
    children: dict[Id, list[Id]] = {}
    for e in s.edges:
        if e.relation is Relation.EVOLVED_INTO and e.target in s.records:
            children.setdefault(e.source, []).append(e.target)
    order: list[Id] = []
    listed = {m}
    ready = [m]
    while ready:
        ready.sort(key=lambda i: (s.records[i].created_at if s.records[i].created_at is not None else -1, i))
        x = ready.pop(0)
        order.append(x)
        for c in sorted(children.get(x, [])):
            if c not in listed:
                listed.add(c)
                ready.append(c)
    return order


def timelines(s: Store, *, memory_id_from: Source = "edges") -> dict[Id, Timeline]:
    """Φ(s): one timeline per memory (first version), entries in lineage order (see the module docstring).

    ``memory_id_from="metadata"`` computes each entry's memory id from the
    ``evolved_from`` metadata chain instead of the edges (the rejected reading).
    """
    out: dict[Id, Timeline] = {}
    roots = sorted(i for i in s.records if _parent_by_edges(s, i) is None)
    for m in roots:
        entries = []
        for v in _versions(s, m):
            r = s.records[v]
            entries.append(VersionEntry(
                clock_to_datetime(r.created_at if r.created_at is not None else 0), r.content, version_id=v,
                reason=str(r.metadata.get("change_reason", "observation")),
                memory_id=first_version(s, v, memory_id_from)))
        out[m] = Timeline.stored(entries)
    return out


def timeline_json(tls: dict[Id, Timeline]) -> dict[str, Any]:
    """Φ(s) as JSON: per memory, its entries and whether ``is_consistent`` holds."""
    return {m: {"consistent": tl.is_consistent(m),
                "entries": [{"version_id": e.version_id, "memory_id": e.memory_id,
                             "timestamp": e.timestamp.isoformat(), "reason": e.reason} for e in tl.entries]}
            for m, tl in tls.items()}


def laws(s: Store, *, memory_id_from: Source = "edges") -> dict[str, Any]:
    """T1 and T2 on one store: which timelines are inconsistent, which records are lost or duplicated."""
    tls = timelines(s, memory_id_from=memory_id_from)
    count: dict[Id, int] = {}
    for tl in tls.values():
        for e in tl.entries:
            count[e.version_id] = count.get(e.version_id, 0) + 1
    return {"T1_inconsistent": sorted(m for m, tl in tls.items() if not tl.is_consistent(m)),
            "T2_lost": sorted(i for i in s.records if i not in count),
            "T2_duplicated": sorted(i for i, c in count.items() if c > 1)}


def ok(s: Store, **kw: Any) -> bool:
    """T1 and T2 hold on ``s``."""
    return not any(laws(s, **kw).values())


def incremental(before: Store, after: Store) -> bool:
    """T3: every timeline of Φ(before) is a prefix of its memory's timeline in Φ(after)."""
    a, b = timelines(before), timelines(after)
    for m, tl in a.items():
        ids = [e.version_id for e in tl.entries]
        if m not in b or [e.version_id for e in b[m].entries][: len(ids)] != ids:
            return False
    return True


def check_run(states: Iterable[Store]) -> dict[str, Any] | None:
    """T1–T3 along a run; the first failure, or ``None``."""
    prev: Store | None = None
    for k, s in enumerate(states):
        lw = laws(s)
        if any(lw.values()):
            return {"state": k, "laws": lw, "store": store_to_json(s)}
        if prev is not None and not incremental(prev, s):
            return {"state": k, "T3_not_incremental": True, "before": store_to_json(prev), "after": store_to_json(s)}
        prev = s
    return None


# =========================================================================== counterexamples


def counterexamples() -> dict[str, Any]:
    """What breaks when the store violates L3, L1 or (for the metadata reading) L2."""
    base: list[Letter | Call] = [A.Save(Record("v1")), A.Evolve("id0001", "v2")]
    one_way = run(EMPTY, [*base, A.Save(Record("w1")), A.Link("id0001", Relation.EVOLVED_INTO, "id0003")]).final
    lost = run(EMPTY, [A.Save(Record("v1")),
                       Call(A.Evolve("id0001", "v2"), _alloc("id0002", 2), frozenset({1}))]).final
    replaced = run(EMPTY, [*base, A.SaveAt("id0001", Record("v1, rewritten"))]).final
    inherited = run(EMPTY, [*base, A.Split("id0002", ("part 1", "part 2"))]).final
    why = {
        "L3_one_way_link": "link(id0001, EVOLVED_INTO, id0003) without the inverse: id0003 is listed under memory "
                           "id0001 but its own memory id is id0003",
        "L3_failed_inverse_write": "evolve whose EVOLVED_INTO write failed: id0002 has a parent, so it is no memory "
                                   "of its own, and no walk reaches it",
        "L1_replaced_first_version": "save_at re-stamps id0001 after its evolution: the timeline lists v1 (clock 3) "
                                     "before v2 (clock 2)",
        "L2_metadata_reading": "fault-free ContextFS: the split parts inherit evolved_from = id0001 but have no "
                               "EVOLVED_FROM edge; reading the memory id from metadata puts them in memory id0001 "
                               "while the edges make each its own memory",
    }
    rows: dict[str, tuple[Store, Source]] = {
        "L3_one_way_link": (one_way, "edges"), "L3_failed_inverse_write": (lost, "edges"),
        "L1_replaced_first_version": (replaced, "edges"), "L2_metadata_reading": (inherited, "metadata"),
    }
    out: dict[str, Any] = {}
    for name, (s, src) in rows.items():
        out[name] = {"store": store_to_json(s), "memory_id_from": src, "why": why[name],
                     "laws": laws(s, memory_id_from=src),
                     "timelines": timeline_json(timelines(s, memory_id_from=src))}
    out["L2_metadata_reading"]["edges_reading_laws"] = laws(inherited)
    return out


def _alloc(j: Id, clock: int) -> Allocation:
    return Allocation((j,), clock)


def verdict(runs: int = 80, seed: int = 95) -> tuple[bool, int, dict[str, Any], str]:
    """The evidence for open problem 5: T1–T3 along random runs of REPAIRED and fault-free ContextFS; the failures."""
    rng = random.Random(seed)
    explored, failure = 0, None
    reals: tuple[Realisation, ...] = (REPAIRED, CONTEXTFS)
    for k in range(runs):
        real = reals[k % 2]
        t = random_run(real, rng, rng.randint(2, 9), valid_times=real is REPAIRED)
        explored += len(t.states)
        bad = check_run(t.states)
        if bad is not None:
            failure = {"realisation": real.name, **bad}
            break
    cx = counterexamples()
    holds = (failure is None and bool(cx["L3_one_way_link"]["laws"]["T1_inconsistent"])
             and bool(cx["L3_failed_inverse_write"]["laws"]["T2_lost"])
             and bool(cx["L1_replaced_first_version"]["laws"]["T1_inconsistent"])
             and bool(cx["L2_metadata_reading"]["laws"]["T1_inconsistent"])
             and not any(cx["L2_metadata_reading"]["edges_reading_laws"].values()))
    witness: dict[str, Any] = {
        "mapping": "memories = first versions (no EVOLVED_FROM edge); versions = reached along EVOLVED_INTO; entry "
                   "memory_id = first version reached along EVOLVED_FROM; lineage order, earliest created_at first",
        "laws": ["T1 is_consistent (monotone timestamps, single memory id, unique version ids)",
                 "T2 every record in exactly one timeline",
                 "T3 timelines only grow by appending"],
        "counterexamples": cx,
        "explored": explored,
    }
    summary = (f"Open problem 5 (proposal): Φ maps the {explored} stores of random REPAIRED and fault-free ContextFS "
               "runs to timelines that satisfy is_consistent, cover every record once and only grow by appending; "
               "a one-way EVOLVED_INTO edge (L3) breaks single memory id, a failed inverse write (L3) loses a "
               "version, save_at (L1) breaks monotone timestamps, and reading memory ids from metadata fails on "
               "fault-free ContextFS stores (L2) while Φ does not.")
    return evidence(holds, explored, witness, failure, summary)



