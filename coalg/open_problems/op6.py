"""Open problem 6, deletion: a coalgebra on stores with tombstones.

The coalgebra is REPAIRED's (:data:`coalg.model.repaired.REPAIRED`, rule 7):
``delete(k)`` replaces ``m(k)`` by :func:`coalg.model.repair_rules.tombstone` — content ``""``,
type and tag ``tombstone``, no summary, no metadata — and keeps every edge, the
namespace, ``created_at`` and ``valid_time``.  Tombstones cannot be derived from,
replaced, deleted again or linked.

The analogue of Theorem 5.7
---------------------------
Write σ(r) = (namespace, created_at, valid_time) for what a tombstone keeps of a
record, and for a set K of identifiers let ``erase_K`` replace the record at every
node of an unfolding whose identifier is in K by σ of it.

**Theorem (tombstone stability).**  Let ``s`` satisfy AC⁺ (every ``R⁻`` edge joins
two records) and let ``s = s₀ → s₁ → … → sₙ`` be a run of REPAIRED's fresh saves,
derivations and deletes.  Let K be the identifiers holding tombstones in ``sₙ``.
Then for every ``i ∈ dom(m_s)``::

    erase_K ⟦i⟧⁻_{sₙ} = erase_K ⟦i⟧⁻_s.

*Proof.*  A delete changes only ``m(k)``, to a tombstone with σ(tombstone(r)) = σ(r),
and removes no edge; a fresh save or a derivation satisfies S1 and S4, so by
Theorem 5.7 it changes no ``β⁻`` of an old identifier.  So at every old node the
erased record and the ``R⁻``-successors are unchanged, and the unfoldings are
equal.  For ``i ∉ K`` the root itself is not erased: a surviving record keeps its
full payload *and* the shape of its ancestry, deleted ancestors included.

**Unrecoverability.**  Let a string c occur, when ``delete(k)`` runs, in the
payload of ``m(k)`` (content, summary, tags, metadata) and nowhere else in the
store (no other record, identifier or namespace).  If no later call's arguments
contain c, then no observation of any later state contains c — checked over
every observation the library offers (:func:`observations`): recall and
recall_prefix outputs, β, β⁻, ancestry and descendant unfoldings, believed /
as_of / valid_at, the JSON dump, the law checks' record views, the
single-axis timelines and open problem 5's timelines.  What a tombstone keeps
(namespace, created_at, valid_time) is *not* erased; and a copy of c made
before the delete — a merge's generated content quotes its sources — is a
different record's payload and survives (:func:`copy_survives_witness`).

Rejected alternatives: ContextFS's delete removes the incident edges, so a
surviving child loses an ancestor (Proposition 5.2) — the shape analogue fails;
ContextFS's default *soft* delete keeps the record with ``deleted_at`` — the shape
survives, but the content is recoverable from β, the unfoldings and the dump.

>>> s, k = erased_example(REPAIRED)
>>> s.records[k].content, revealing(s, REPAIRED, "SECRET-7")
('', [])
>>> revealing(*erased_example(SOFT_DELETE)[:1], SOFT_DELETE, "SECRET-7")[:2]
['ancestry(id0001)', 'ancestry(id0002)']
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from ..bitemporal import as_of, believed, timeline_of, valid_at
from ..laws import record_view
from ..model import (
    CONTEXTFS,
    DEFAULT_THETA,
    EMPTY,
    REPAIRED,
    Created,
    Err,
    Flag,
    Found,
    Id,
    Nothing,
    Output,
    Realisation,
    Record,
    Store,
    Theta,
    Trace,
    Unfolding,
    ancestry,
    beta,
    beta_minus,
    derived_record,
    descendants,
    dumps_store,
    is_tombstone,
    record_to_json,
    run,
    step,
    store_to_json,
)
from ..model import alphabet as A
from ._common import Runner, evidence
from .op5 import timelines

__all__ = [
    "SOFT_DELETE",
    "copy_survives_witness",
    "erase",
    "erased_example",
    "erasure_run",
    "observations",
    "revealing",
    "shape",
    "shape_stable",
    "sigma",
    "verdict",
]


def sigma(r: Record | None) -> tuple[Any, ...] | None:
    """σ(r): what a tombstone keeps of a record — namespace, created_at, valid_time."""
    return None if r is None else (r.namespace, r.created_at, r.valid_time)


def erase(u: Unfolding, hidden: Iterable[Id]) -> tuple[tuple[Any, ...], ...]:
    """``erase_K`` of an unfolding: its nodes, with the record of every node in ``hidden`` replaced by σ of it."""
    k = frozenset(hidden)
    return tuple((n.depth, n.via, n.id, n.mark, ("erased", sigma(n.record)) if n.id in k else n.record)
                 for n in u.nodes)


def shape(s: Store, i: Id, hidden: Iterable[Id]) -> tuple[tuple[Any, ...], ...]:
    """``erase_K ⟦i⟧⁻_s``."""
    return erase(ancestry(s, i), hidden)


def _deleted(s: Store) -> frozenset[Id]:
    return frozenset(i for i, r in s.records.items() if is_tombstone(r) or "deleted_at" in r.metadata)


def shape_stable(before: Store, after: Store) -> list[Id]:
    """The records of ``before`` whose erased ancestry changed in ``after`` (empty when the theorem's conclusion holds).

    K is every identifier deleted in ``after`` (tombstoned, soft-deleted) or gone from it.
    """
    hidden = _deleted(after) | (before.dom() - after.dom())
    return sorted(i for i in before.records if shape(after, i, hidden) != shape(before, i, hidden))


# =========================================================================== ContextFS's soft delete


_NO_ALLOCATION = A.Allocation()


def _soft_step(s: Store, a: A.Letter, xi: A.Allocation = _NO_ALLOCATION, *, theta: Theta = DEFAULT_THETA,
               faults: frozenset[int] = frozenset()) -> tuple[Output, Store]:
    def live(i: Id) -> bool:
        return i in s.records and "deleted_at" not in s.records[i].metadata

    match a:
        case A.Delete(id=i):
            if not live(i):
                return Err(f"delete: no record {i}"), s
            r = s.records[i]
            return Flag(True), s.with_record(i, r.evolve(metadata=r.metadata.merged({"deleted_at": xi.clock})))
        case A.Recall(id=i):
            return (Found(i, s.records[i]) if live(i) else Nothing()), s
        case A.RecallPrefix(prefix=p):
            matches = sorted(i for i in s.records if i.startswith(p) and live(i))
            return (Found(theta.first_id(matches), s.records[theta.first_id(matches)]) if matches else Nothing()), s
        case A.Evolve(id=i) | A.Split(id=i) | A.SaveAt(id=i) if not live(i):
            return Err(f"{a.kind}: no record {i}"), s
        case A.Merge(ids=ids):
            a = replace(a, ids=tuple(i for i in ids if live(i)))
    return step(s, a, xi, theta=theta, faults=faults)


SOFT_DELETE = Realisation(
    "contextfs-soft-delete", _soft_step,
    "The ContextFS model with the facade's default soft delete: the record stays, marked deleted_at "
    "(metadata here), with its edges; recall and derivations skip it, lineage queries do not.",
    declares_valid_time=False, edge_faults=True)
"""A rejected alternative: ContextFS's default soft delete (``ContextFS.delete``, ``core.py:1342``)."""


# =========================================================================== observations


def _grid(s: Store) -> list[int]:
    pts = {0}
    for r in s.records.values():
        for v in (r.created_at, r.updated_at, r.valid_time):
            if isinstance(v, int):
                pts |= {v - 1, v, v + 1}
    return sorted(pts)


def _text(x: Any) -> str:
    if isinstance(x, Store):
        return dumps_store(x)
    if isinstance(x, Record):
        return json.dumps(record_to_json(x), sort_keys=True, ensure_ascii=False)
    return repr(x)


def observations(s: Store, realisation: Realisation) -> dict[str, str]:
    """Every observation the library offers, at ``s``, as text (name → text)."""
    ids = sorted(s.ids())
    out: dict[str, str] = {"json_dump": dumps_store(s), "repr": repr(s), "html": s._repr_html_()}
    for i in ids:
        out[f"recall({i})"] = _text(realisation.step(s, A.Recall(i))[0])
        out[f"beta({i})"] = _text(beta(s, i))
        out[f"beta_minus({i})"] = _text(beta_minus(s, i))
        for name, u in (("ancestry", ancestry(s, i)), ("descendants", descendants(s, i))):
            out[f"{name}({i})"] = u.render(width=10_000) + _text(u.nodes)
        out[f"record_view({i})"] = _text(record_view(realisation, s, i))
        out[f"derived_record({i})"] = _text(derived_record(s, i))
        out[f"timeline_of({i})"] = _text([(e.version_id, e.content) for e in timeline_of(s, i).entries])
    for p in sorted({i[:k] for i in ids for k in range(len(i) + 1)}):
        out[f"recall_prefix({p!r})"] = _text(realisation.step(s, A.RecallPrefix(p))[0])
    grid = _grid(s)
    for tt in grid:
        out[f"as_of({tt})"] = _text(as_of(s, tt))
        for tv in grid:
            out[f"believed({tt},{tv})"] = _text(believed(s, tt, tv))
            out[f"believed_current({tt},{tv})"] = _text(believed(s, tt, tv, mode="current"))
    for tv in grid:
        out[f"valid_at({tv})"] = _text(valid_at(s, tv))
    out["timelines"] = _text({m: [(e.version_id, e.content) for e in tl.entries] for m, tl in timelines(s).items()})
    return out


def revealing(s: Store, realisation: Realisation, secret: str) -> list[str]:
    """The observations of ``s`` whose text contains ``secret`` (empty: it is unrecoverable)."""
    return sorted(name for name, text in observations(s, realisation).items() if secret in text)


# =========================================================================== runs and witnesses


def erased_example(realisation: Realisation) -> tuple[Store, Id]:
    """Save a secret, evolve it twice, delete the secret: the store after, and the secret's identifier.

    (The secret record is ``id0001``; on ContextFS's hard delete it is gone.)
    """
    word: list[A.Letter] = [A.Save(Record("SECRET-7", valid_time=1)), A.Evolve("id0001", "public v2"),
                          A.Evolve("id0002", "public v3"), A.Delete("id0001")]
    return run(EMPTY, word, step_fn=realisation.step).final, "id0001"


def copy_survives_witness() -> dict[str, Any]:
    """A merge quotes its sources, so deleting a source does not erase the quotation (it is another record's)."""
    word: list[A.Letter] = [A.Save(Record("SECRET-9")), A.Save(Record("public")), A.Merge(("id0001", "id0002")),
                          A.Delete("id0001")]
    s = run(EMPTY, word, step_fn=REPAIRED.step).final
    return {"store": store_to_json(s), "revealing": revealing(s, REPAIRED, "SECRET-9")[:5],
            "quoted_in": sorted(i for i, r in s.records.items() if "SECRET-9" in r.content)}


def erasure_run(realisation: Realisation, rng: random.Random, *, secret: str = "SECRET-42",
                merge_secret: bool = False) -> tuple[Trace, Id, int]:
    """A random run that saves ``secret``, works on the store, deletes the secret, and works on.

    Returns the trace, the secret's identifier and the index of the state right
    after the delete.  With ``merge_secret=False`` the secret record is never a
    merge argument (so no other record quotes it before the delete).
    """
    r = Runner(realisation)
    r.random(rng, rng.randint(0, 4), deletes=0.1)
    out = r.do(A.Save(Record(secret, valid_time=rng.randint(0, 9))))
    k = out.items[0][0] if isinstance(out, Created) else ""
    for _ in range(rng.randint(0, 3)):
        live = [i for i, rec in r.store.records.items() if not is_tombstone(rec) and "deleted_at" not in rec.metadata]
        pool = [i for i in live if merge_secret or i != k]
        x = rng.random()
        a: A.Letter
        if x < 0.4:
            a = A.Evolve(k if rng.random() < 0.5 else rng.choice(live), "a later version")
        elif x < 0.6:
            a = A.Split(rng.choice(live), ("left part", "right part"))
        elif x < 0.8 and len(pool) >= 2 and all(r.store.records[i].namespace == "global" for i in pool):
            a = A.Merge(tuple(rng.sample(pool, 2)))
        else:
            a = A.Save(Record("filler", valid_time=3))
        r.do(a)
    r.do(A.Delete(k))
    cut = len(r.calls)
    r.random(rng, rng.randint(0, 3), deletes=0.1)
    return r.trace(), k, cut


def _check_run(real: Realisation, t: Trace, k: Id, cut: int, secret: str) -> dict[str, Any]:
    s_del = t.states[cut]
    others = [r for i, r in t.states[cut - 1].records.items() if i != k]
    copied = any(secret in json.dumps(record_to_json(r), ensure_ascii=False) for r in others)
    unstable = shape_stable(t.states[0], t.final)
    steps_unstable = next((n for n in range(len(t.states) - 1)
                           if shape_stable(t.states[n], t.states[n + 1])), None)
    rev = [] if copied else sorted({name for st in t.states[cut:] for name in revealing(st, real, secret)})
    return {"copied_before_delete": copied, "shape_changed": unstable, "first_unstable_step": steps_unstable,
            "revealing": rev, "delete_ok": isinstance(t.outputs[cut - 1], Flag),
            "store_after_delete": store_to_json(s_del)}


def verdict(runs: int = 40, seed: int = 96) -> tuple[bool, int, dict[str, Any], str]:
    """The evidence for open problem 6: the theorem and unrecoverability on random REPAIRED runs; the rejected deletes."""
    rng = random.Random(seed)
    explored, failure, checked_secret = 0, None, 0
    for _ in range(runs):
        t, k, cut = erasure_run(REPAIRED, rng)
        res = _check_run(REPAIRED, t, k, cut, "SECRET-42")
        explored += 1
        checked_secret += not res["copied_before_delete"]
        if res["first_unstable_step"] is not None or res["revealing"] or not res["delete_ok"]:
            failure = {"calls": [c.letter.kind for c in t.calls], **res}
            break
    rows: dict[str, Any] = {}
    for real in (REPAIRED, CONTEXTFS, SOFT_DELETE):
        before = run(EMPTY, [A.Save(Record("SECRET-7", valid_time=1)), A.Evolve("id0001", "public v2"),
                             A.Evolve("id0002", "public v3")], step_fn=real.step).final
        after, _ = erased_example(real)
        rows[real.name] = {"shape_changed_for": shape_stable(before, after),
                           "ancestry_before": ancestry(before, "id0003").render(),
                           "ancestry_after": ancestry(after, "id0003").render(),
                           "revealing": revealing(after, real, "SECRET-7")}
    holds = (failure is None and rows["repaired"]["shape_changed_for"] == [] and rows["repaired"]["revealing"] == []
             and rows["contextfs"]["shape_changed_for"] != [] and rows["contextfs-soft-delete"]["revealing"] != []
             and rows["contextfs-soft-delete"]["shape_changed_for"] == [])
    witness: dict[str, Any] = {
        "coalgebra": "REPAIRED: delete(k) replaces m(k) by a tombstone (payload erased; namespace, created_at, "
                     "valid_time and every edge kept)",
        "theorem": "AC⁺ s, run of fresh saves, derivations and deletes s → … → sₙ, K = tombstones of sₙ: "
                   "erase_K ⟦i⟧⁻_{sₙ} = erase_K ⟦i⟧⁻_s for every i ∈ dom(m_s), with erase_K replacing a node's "
                   "record by σ(r) = (namespace, created_at, valid_time) for nodes in K",
        "unrecoverable": "a string in the deleted record's payload and nowhere else is in no observation of any later "
                         "state (recall, recall_prefix, β, β⁻, unfoldings, believed/as_of/valid_at, JSON dump, record "
                         "views, timelines)",
        "comparison": rows,
        "copy_survives": copy_survives_witness(),
        "explored": {"runs": explored, "runs_with_the_secret_only_in_the_deleted_record": checked_secret},
    }
    summary = (f"Open problem 6 (proposal): with REPAIRED's tombstone delete, erased ancestry unfoldings are stable "
               f"along {explored} random runs mixing derivations and deletes, and the deleted record's content is in "
               "no observation afterwards; ContextFS's hard delete changes a surviving record's ancestry shape "
               "(Prop. 5.2) and its soft delete leaves the content readable through β, the unfoldings and the dump.")
    return evidence(holds, explored, witness, failure, summary)

