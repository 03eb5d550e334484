"""The proposed realisation: REPAIRED with the merge that open problems 1 and 2 ask for.

:data:`PROPOSED` is :data:`coalg.model.repaired.REPAIRED` in every letter but merge.  Its
merge changes two things, each the proposal of one open problem:

* **Valid time (open problem 1).**  A merge asserts every source at once (the
  UNION content is ``[Source 1]: … [Source 2]: …``), so its valid time is the
  *latest* of its sources' valid times: the first instant at which everything it
  says is valid (:func:`merge_valid_time`).  A caller may give a valid time, but
  not one before a source's: that would assert belief before the evidence, and
  the call is refused with ``Err``.
* **Order-blindness (open problem 2).**  The merge reads its arguments as a *set*
  (a repeated argument counts once) and puts them in a declared canonical order
  that depends only on what the records say, never on their identifiers
  (:func:`canonical_key`): content, type, tags, payload metadata and valid time,
  compared as canonical JSON.  The generated content, the metadata union (later
  overrides earlier) and the edges follow that order.  The record stores no
  ``merged_from``: provenance is the set of ``MERGED_FROM`` edges
  (:func:`provenance`), as in REPAIRED.  Two arguments with equal keys contribute
  identical text, so how such ties are ordered cannot show in the result.

Everything else is REPAIRED's: one namespace per merge, the declared type
tie-break (least of the modes), atomic edge writes, live arguments only.

>>> from coalg.model.alphabet import Merge, Save
>>> from coalg.model.coalgebra import run
>>> from coalg.model.records import Record
>>> from coalg.model.store import EMPTY
>>> s = run(EMPTY, [Save(Record("beta", valid_time=5)), Save(Record("alpha", valid_time=1))],
...         step_fn=PROPOSED.step).final
>>> ab = run(s, [Merge(("id0001", "id0002"))], step_fn=PROPOSED.step).final
>>> ba = run(s, [Merge(("id0002", "id0001"))], step_fn=PROPOSED.step).final
>>> ab == ba, ab.records["id0003"].content, ab.records["id0003"].valid_time
(True, '[Source 1]: alpha\\n\\n[Source 2]: beta', 5)
>>> sorted(provenance(ab, "id0003"))
['id0001', 'id0002']
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping

from ..model import (
    ANCESTRY_KEYS,
    BOOKKEEPING_KEYS,
    DEFAULT_THETA,
    Allocation,
    Created,
    Edge,
    Err,
    FrozenMap,
    Id,
    Letter,
    Output,
    Record,
    Relation,
    RepairedRealisation,
    Store,
    Theta,
    Time,
    generated_merge_content,
    is_tombstone,
    merge_type,
    repaired_step,
    thaw,
)
from ..model import alphabet as A

__all__ = [
    "PROPOSED",
    "canonical_key",
    "canonical_order",
    "merge_valid_time",
    "payload",
    "proposed_step",
    "provenance",
]


def payload(meta: Mapping[str, object]) -> FrozenMap:
    """Metadata without ancestry keys and without derivation bookkeeping (what a merge carries over)."""
    drop = set(ANCESTRY_KEYS) | set(BOOKKEEPING_KEYS)
    return FrozenMap((k, v) for k, v in meta.items() if k not in drop)


def canonical_key(r: Record) -> str:
    """The declared order of merge arguments: what the record says, as canonical JSON.

    It covers every field the merge reads (content, type, tags, payload metadata,
    valid time) and nothing allocation-dependent: no identifier, no clock reading.

    >>> canonical_key(Record("a", tags={"y", "x"}, created_at=7))
    '{"content": "a", "metadata": {}, "tags": ["x", "y"], "type": "fact", "valid_time": null}'
    """
    return json.dumps(
        {
            "content": r.content,
            "type": r.type,
            "tags": sorted(r.tags),
            "metadata": thaw(payload(r.metadata)),
            "valid_time": r.valid_time,
        },
        sort_keys=True,
        ensure_ascii=False,
    )


def canonical_order(s: Store, ids: Iterable[Id]) -> list[Id]:
    """The distinct identifiers of ``ids`` in the declared order of their records (see :func:`canonical_key`)."""
    distinct = sorted(set(ids))  # a deterministic starting point; only exact ties keep it, and ties cannot show
    return sorted(distinct, key=lambda i: canonical_key(s.records[i]))


def merge_valid_time(explicit: Time | None, sources: Iterable[Time | None], tau: Time) -> tuple[Time | None, str]:
    """The proposed valid time of a merge: ``(valid time, "")`` or ``(None, reason for refusing)``.

    Without a caller's value: the latest source valid time (the clock reading ``tau``
    when no source has one).  With one: it is kept, unless it precedes a source's.

    >>> merge_valid_time(None, [1, 5, 3], 9), merge_valid_time(7, [1, 5], 9)
    ((5, ''), (7, ''))
    >>> merge_valid_time(2, [1, 5], 9)[1]
    'merge: the valid time 2 precedes a source valid from 5 (belief before the evidence)'
    """
    known = [v for v in sources if v is not None]
    floor = max(known) if known else None
    if explicit is not None:
        if floor is not None and explicit < floor:
            return None, (f"merge: the valid time {explicit} precedes a source valid from {floor} "
                          "(belief before the evidence)")
        return explicit, ""
    return (floor if floor is not None else tau), ""


def provenance(s: Store, j: Id) -> frozenset[Id]:
    """The sources of a merged record, read from the edge set: ``{i : (j, MERGED_FROM, i) ∈ E}``."""
    return frozenset(e.target for e in s.edges if e.source == j and e.relation is Relation.MERGED_FROM)


def _merge(s: Store, a: A.Merge, xi: Allocation, faults: frozenset[int]) -> tuple[Output, Store]:
    distinct = sorted(set(a.ids))
    if len(distinct) < 2:
        return Err(f"merge: needs at least 2 distinct records, {len(distinct)} named"), s
    for i in distinct:
        r = s.records.get(i)
        if r is None:
            return Err(f"merge: no record {i}"), s
        if is_tombstone(r):
            return Err(f"merge: {i} is a tombstone (deleted)"), s
    rs = {i: s.records[i] for i in distinct}
    spaces = sorted({r.namespace for r in rs.values()})
    if len(spaces) > 1:
        return Err(f"merge: the arguments lie in different namespaces ({', '.join(spaces)}); "
                   "merge within one namespace"), s
    if a.namespace is not None and a.namespace != spaces[0]:
        return Err(f"merge: target namespace {a.namespace} is not the arguments' namespace {spaces[0]}"), s
    order = canonical_order(s, distinct)
    j, tau = xi.ids[0], xi.clock
    vt, why = merge_valid_time(a.valid_time, (rs[i].valid_time for i in order), tau)
    if vt is None:
        return Err(why), s
    meta = FrozenMap()
    for i in order:
        meta = meta.merged(payload(rs[i].metadata))
    new = Record(
        content=a.content if a.content is not None else generated_merge_content([rs[i].content for i in order]),
        type=a.type if a.type is not None else merge_type([rs[i].type for i in order]),
        namespace=spaces[0],
        tags=frozenset().union(*(rs[i].tags for i in order)) | {"merged"},
        summary=a.summary,
        metadata=meta.merged({"merge_strategy": "union", "merge_timestamp": tau}),
        valid_time=vt,
    ).stamped(tau)
    es = [e for i in order for e in (Edge(j, Relation.MERGED_FROM, i), Edge(i, Relation.MERGED_INTO, j))]
    failed = sorted(k for k in faults if 0 <= k < len(es))
    if failed:
        return Err(f"merge: edge write {failed[0]} failed; the call was rolled back"), s
    return Created(((j, new),)), s.with_record(j, new).with_edges(es)


_NO_ALLOCATION = Allocation()


def proposed_step(s: Store, a: Letter, xi: Allocation = _NO_ALLOCATION, *, theta: Theta = DEFAULT_THETA,
                  faults: frozenset[int] = frozenset()) -> tuple[Output, Store]:
    """α(s)(a, ξ) for :data:`PROPOSED`: REPAIRED's step, with the order-blind, valid-time-sound merge."""
    if not isinstance(a, A.Merge):
        return repaired_step(s, a, xi, theta=theta, faults=faults)
    reason = xi.admissible(s, a)
    if reason is None and not xi.strictly_fresh(s):
        reason = "allocated identifier(s) are mentioned by the store (allocations must be strictly fresh)"
    if reason is not None:
        return Err(f"merge: inadmissible allocation: {reason}"), s
    if a.by_prefix:
        return Err("merge: identifiers are resolved by equality only (by_prefix is refused)"), s
    return _merge(s, a, xi, faults)


PROPOSED = RepairedRealisation(
    "proposed",
    proposed_step,
    "REPAIRED with the merge open problems 1 and 2 ask for: valid time = the latest source valid time "
    "(a caller's earlier one is refused), arguments read as a set in a declared order of their records' "
    "content, provenance only in MERGED_FROM edges.",
    declares_valid_time=True,
    edge_faults=False,
)
"""The proposed realisation (REPAIRED + the merge of open problems 1 and 2)."""
