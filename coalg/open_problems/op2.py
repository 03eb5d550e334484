"""Open problem 2, a merge that reads only what it is given.

The law
-------
Write ``merge(I)`` for the merge of the argument tuple ``I`` with a fixed
allocation.  "Reads only what it is given" means the result depends on the
arguments only up to what allocation cannot change:

* **(B1) commutativity up to ≈**: ``merge(πI)(s) ≈ merge(I)(s)`` for every
  permutation π (Definition 5.23, :func:`coalg.bisim.bisimilarity.allocation_blind_bisimilar`);
* **(B2) allocation-blindness**: for every renaming σ of identifiers (another
  allocation of the same history), ``merge(σI)(σs) ≈ merge(I)(s)``; σs ≈ s by
  construction, so this says merge maps ≈-related inputs to ≈-related outputs;
* **(B3) idempotency up to ≈** (Proposition 5.24): ``merge(I)(merge(I)(s)) ≈ merge(I)(s)``;
* **(B4) provenance from the edge set**: ``{i : (j, MERGED_FROM, i) ∈ E} = set(I)``
  and the record stores no ``merged_from``; a repeated argument counts once.

(B2) is what rules out the tempting fix "sort the arguments by identifier": it
is commutative on one store, but identifiers are allocation, so two allocations
of the same history merge in different orders (:func:`id_order_counterexample`).

The proposal and the rejected merges
------------------------------------
* **proposed** (:data:`~coalg.open_problems.proposed.PROPOSED`): arguments as a
  set, in the declared order of their records' canonical JSON.  (B1)–(B4) hold.
* **ContextFS** (Proposition 5.25): ``merged_from`` and the generated content are
  in argument order — fails (B1).
* **REPAIRED**: no ``merged_from``, but the generated content is still in
  argument order — fails (B1).
* **by identifier** (:data:`ID_ORDER`): REPAIRED on the arguments sorted by
  identifier — (B1) holds, (B2) fails.

What the proposal gives up: the histories ``merge⟨a, b⟩`` and ``merge⟨b, a⟩``,
which the current merge distinguishes, are now identified.  That is the point:
argument order was provenance written into the *content*; the proposal keeps
provenance as the set of edges and declares that order carries nothing.

>>> s = example_store()
>>> [commutes(r, s, ("id0001", "id0002")) for r in (PROPOSED, ID_ORDER, REPAIRED)]
[True, True, False]
>>> renaming_respected(ID_ORDER, s, ("id0001", "id0002"), {"id0001": "id0002", "id0002": "id0001"})
False
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping, Sequence
from typing import Any

from ..bisim import allocation_blind_bisimilar, allocation_blind_witness
from ..model import (
    CONTEXTFS,
    DEFAULT_THETA,
    EMPTY,
    ID_POSITIONS,
    REPAIRED,
    Allocation,
    Created,
    Edge,
    FrozenMap,
    Id,
    Letter,
    Oracle,
    Output,
    Realisation,
    Record,
    RepairedRealisation,
    Store,
    Theta,
    is_tombstone,
    run,
    store_to_json,
)
from ..model import alphabet as A
from ._common import evidence, random_run
from .proposed import PROPOSED, provenance

__all__ = [
    "ID_ORDER",
    "commutes",
    "example_store",
    "id_order_counterexample",
    "idempotent",
    "rename",
    "renaming_respected",
    "verdict",
]


_NO_ALLOCATION = Allocation()


def _id_order_step(s: Store, a: Letter, xi: Allocation = _NO_ALLOCATION, *, theta: Theta = DEFAULT_THETA,
                   faults: frozenset[int] = frozenset()) -> tuple[Output, Store]:
    if isinstance(a, A.Merge):
        a = A.Merge(tuple(sorted(set(a.ids))), content=a.content, type=a.type, summary=a.summary,
                  namespace=a.namespace, by_prefix=a.by_prefix, valid_time=a.valid_time)
    return REPAIRED.step(s, a, xi, theta=theta, faults=faults)


ID_ORDER = RepairedRealisation("id-order", _id_order_step,
                               "REPAIRED whose merge first sorts its arguments by identifier (a rejected fix)",
                               declares_valid_time=True, edge_faults=False)
"""The rejected alternative: order the arguments by identifier."""


def rename(s: Store, sigma: Mapping[Id, Id]) -> Store:
    """σs: every identifier renamed by ``sigma`` (record keys, edge endpoints, identifiers in ancestry metadata).

    ``sigma`` must be injective on ``s``'s identifiers; identifiers it omits are kept.
    """
    def f(x: Id) -> Id:
        return sigma.get(x, x)

    recs: dict[Id, Record] = {}
    for i, r in s.records.items():
        meta = dict(r.metadata)
        for key in ID_POSITIONS:
            v = meta.get(key)
            if isinstance(v, tuple):
                meta[key] = [f(str(x)) for x in v]
            elif v is not None:
                meta[key] = f(str(v))
        recs[f(i)] = r.evolve(metadata=FrozenMap(meta))
    if len(recs) != len(s.records):
        raise ValueError("the renaming is not injective on the store's records")
    return Store.of(recs, (Edge(f(e.source), e.relation, f(e.target)) for e in s.edges))


def _merge(real: Realisation, s: Store, ids: Sequence[Id], xi: Allocation) -> Store | None:
    out, s2 = real.step(s, A.Merge(tuple(ids)), xi)
    return s2 if isinstance(out, Created) else None


def _fresh(s: Store, clock: int = 100) -> Allocation:
    return Allocation((Oracle(prefix="m").fresh_id(s),), clock)


def commutes(real: Realisation, s: Store, ids: Sequence[Id], xi: Allocation | None = None) -> bool:
    """(B1): every permutation of ``ids`` merges to an ≈-equal store (vacuously true if the merge is refused)."""
    xi = _fresh(s) if xi is None else xi
    results = [_merge(real, s, p, xi) for p in itertools.permutations(ids)]
    made = [r for r in results if r is not None]
    return len(made) in (0, len(results)) and all(allocation_blind_bisimilar(made[0], r) for r in made[1:])


def renaming_respected(real: Realisation, s: Store, ids: Sequence[Id], sigma: Mapping[Id, Id],
                       xi: Allocation | None = None) -> bool:
    """(B2): ``merge(σI)(σs) ≈ merge(I)(s)`` for the renaming ``sigma`` (same fresh allocation on both sides)."""
    t = rename(s, sigma)
    xi = _fresh(s) if xi is None else xi
    if any(j in t.occ() or j in s.occ() for j in xi.ids):
        raise ValueError("the allocation must be fresh for both stores")
    a, b = _merge(real, s, ids, xi), _merge(real, t, [sigma.get(i, i) for i in ids], xi)
    if a is None or b is None:
        return a is None and b is None
    return allocation_blind_bisimilar(a, b)


def idempotent(real: Realisation, s: Store, ids: Sequence[Id]) -> bool:
    """(B3): merging the same arguments twice gives a store ≈ merging them once."""
    once = _merge(real, s, ids, _fresh(s, 100))
    if once is None:
        return True
    twice = _merge(real, once, ids, _fresh(once, 101))
    return twice is not None and allocation_blind_bisimilar(once, twice)


def example_store() -> Store:
    """Two records, "x" (``id0001``) and "y" (``id0002``), saved on REPAIRED (empty metadata, one namespace)."""
    return run(EMPTY, [A.Save(Record("x", valid_time=1)), A.Save(Record("y", valid_time=1))], step_fn=REPAIRED.step).final


def id_order_counterexample() -> dict[str, Any]:
    """(B2) fails for the merge by identifier: two allocations of one history merge in different orders.

    ``s`` saves "x" then "y"; ``σs`` is the same history allocated the other way
    round (σ swaps the two identifiers), so ``σs ≈ s``.  Merging the same two
    records gives "[Source 1]: x …" on ``s`` and "[Source 1]: y …" on ``σs``.
    """
    s = example_store()
    sigma = {"id0001": "id0002", "id0002": "id0001"}
    t = rename(s, sigma)
    xi = Allocation(("id0003",), 3)
    out: dict[str, Any] = {"s": store_to_json(s), "sigma_s": store_to_json(t), "sigma": sigma,
                           "s_approx_sigma_s": allocation_blind_bisimilar(s, t)}
    for real in (ID_ORDER, PROPOSED):
        a = _merge(real, s, ("id0001", "id0002"), xi)
        b = _merge(real, t, ("id0002", "id0001"), xi)
        assert a is not None and b is not None
        out[real.name] = {"content_on_s": a.records["id0003"].content,
                          "content_on_sigma_s": b.records["id0003"].content,
                          "approx": allocation_blind_bisimilar(a, b),
                          "why": allocation_blind_witness(a, b)}
    return out


def _order_counterexample(real: Realisation) -> dict[str, Any]:
    s = example_store()
    xi = Allocation(("id0003",), 3)
    a = _merge(real, s, ("id0001", "id0002"), xi)
    b = _merge(real, s, ("id0002", "id0001"), xi)
    assert a is not None and b is not None
    ra, rb = a.records["id0003"], b.records["id0003"]
    fields = sorted(k for k in ("content", "merged_from") if
                    (ra.content != rb.content if k == "content"
                     else ra.metadata.get("merged_from") != rb.metadata.get("merged_from")))
    return {"store": store_to_json(s), "merge_1_2": store_to_json(a), "merge_2_1": store_to_json(b),
            "approx": allocation_blind_bisimilar(a, b), "order_sensitive_fields": fields,
            "why": allocation_blind_witness(a, b)}


def _random_case(rng: random.Random) -> tuple[Store, tuple[Id, ...]] | None:
    t = random_run(PROPOSED, rng, rng.randint(2, 7), valid_times=True)
    s = t.final
    live = sorted(i for i, r in s.records.items() if not is_tombstone(r))
    if len(live) < 2:
        return None
    ids = tuple(rng.sample(live, rng.randint(2, min(3, len(live)))))
    if rng.random() < 0.2:
        ids = ids + (ids[0],)  # a repeated argument
    return s, ids


def verdict(runs: int = 60, seed: int = 92) -> tuple[bool, int, dict[str, Any], str]:
    """The evidence for open problem 2: (B1)–(B4) for PROPOSED on random stores; each rejected merge's failure."""
    rng = random.Random(seed)
    explored, failure = 0, None
    for _ in range(runs):
        case = _random_case(rng)
        if case is None:
            continue
        s, ids = case
        explored += 1
        live = sorted(s.dom())
        sigma = dict(zip(live, rng.sample(live, len(live))))
        once = _merge(PROPOSED, s, ids, _fresh(s))
        j = _fresh(s).ids[0]
        checks = {
            "B1_commutative": commutes(PROPOSED, s, ids),
            "B2_allocation_blind": renaming_respected(PROPOSED, s, ids, sigma, _fresh(s)),
            "B3_idempotent": idempotent(PROPOSED, s, ids),
            "B4_provenance_is_the_edge_set": once is None or (
                provenance(once, j) == frozenset(ids) and "merged_from" not in once.records[j].metadata),
        }
        if not all(checks.values()):
            failure = {"store": store_to_json(s), "ids": list(ids), "sigma": sigma, "checks": checks}
            break
    rejected = {"contextfs": _order_counterexample(CONTEXTFS), "repaired": _order_counterexample(REPAIRED),
                "id-order": id_order_counterexample()}
    holds = (failure is None and not rejected["contextfs"]["approx"] and not rejected["repaired"]["approx"]
             and not rejected["id-order"]["id-order"]["approx"] and rejected["id-order"]["proposed"]["approx"]
             and commutes(ID_ORDER, example_store(), ("id0001", "id0002")))
    witness: dict[str, Any] = {
        "law": "B1 merge(πI)(s) ≈ merge(I)(s); B2 merge(σI)(σs) ≈ merge(I)(s) for every renaming σ; "
               "B3 merge(I)(merge(I)(s)) ≈ merge(I)(s); B4 provenance = {i : (j, MERGED_FROM, i) ∈ E} = set(I)",
        "proposal": "arguments as a set, in the order of their records' canonical JSON (content, type, tags, "
                    "payload metadata, valid time); no merged_from; latest source valid time",
        "rejected": rejected,
        "explored": explored,
    }
    summary = (f"Open problem 2 (proposal): the order-blind merge is commutative, allocation-blind and idempotent up "
               f"to ≈, with provenance = its MERGED_FROM edges, on {explored} random stores; ContextFS's merge "
               "(Prop. 5.25) and REPAIRED's fail commutativity (content in argument order), and ordering by "
               "identifier is commutative but not allocation-blind (two allocations of one history disagree).")
    return evidence(holds, explored, witness, failure, summary)
