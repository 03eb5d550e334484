"""Merge up to allocation-blind bisimilarity (paper §5.7): Propositions 5.24 and 5.25.

Proposition 5.24: merge is idempotent up to ≈.  Proposition 5.25: merge is not
commutative, even up to ≈.

Proposition 5.24 is a theorem about the model, checked with strictly fresh
allocations on every schema realisation; Proposition 5.25 reads the ContextFS
model, with empty-metadata records (our choices, listed in Appendix D).
"""

from __future__ import annotations

from typing import Any

from ..bisim import allocation_blind_bisimilar, allocation_blind_relation, allocation_blind_witness
from ..model import (
    CONTEXTFS,
    REPAIRED,
    Call,
    Created,
    Err,
    Evolve,
    Letter,
    Merge,
    Realisation,
    Record,
    Split,
    Store,
    call_to_json,
    erase_allocation,
    store_to_json,
)
from ..paper import Verdict, paper_item
from .common import SCHEMA_REALISATIONS
from .display import show_letter
from .exploration import explore
from .seeds import allocate

__all__ = ["check_5_24", "check_5_25"]


def _idempotent(real: Realisation, a: Letter, s: Store, clock: int) -> tuple[bool | None, Store, Store]:
    out1, s1 = real.step(s, a, allocate(s, a, clock))
    if isinstance(out1, Err):
        return None, s, s
    _, s2 = real.step(s1, a, allocate(s1, a, clock + 1))
    return allocation_blind_bisimilar(s1, s2), s1, s2


@paper_item("5.24")
def check_5_24(*, realisations: tuple[Realisation, ...] = SCHEMA_REALISATIONS) -> Verdict:
    """Proposition 5.24: merging the same arguments twice gives a store ≈ merging once (Def. 5.23).

    For every store reached by fragment words up to length 1 and every merge of
    two of its records (both orders), on both realisations, with strictly fresh
    allocations (H1): merge(I)(merge(I)(s)) ≈ merge(I)(s), decided by
    :func:`coalg.bisim.bisimilarity.allocation_blind_bisimilar`.  Our own remark —
    repeated evolve and split are idempotent up to ≈ too — is checked alongside.
    REPAIRED is also run on the stores the ContextFS model builds (records
    without a valid time, as after a migration).  Explored: (store, letter) pairs.
    ``realisations`` are the realisations checked (a test passes a broken one;
    the migration run belongs to the default pair).
    """
    explored, failure, rows, example = 0, None, {}, None
    # each realisation on the stores it builds, and REPAIRED on stores ContextFS built (a migration)
    runs = [(real.name, real, real) for real in realisations]
    if realisations == SCHEMA_REALISATIONS:
        runs.append((f"{REPAIRED.name} on {CONTEXTFS.name} stores", CONTEXTFS, REPAIRED))
    for name, builder, real in runs:
        ex = explore(builder, "fragment", max_len=1)
        counts = {"merge": 0, "evolve": 0, "split": 0}
        for node in ex.nodes(0) + ex.nodes(1):
            s, clock = node.store, node.start.clock + len(node.calls) + 1
            ids = sorted(s.dom())
            letters: list[Letter] = [Merge((i, k)) for i in ids for k in ids if i != k]
            letters += [Evolve(i, "again") for i in ids] + [Split(i, ("p", "q")) for i in ids]
            for a in letters:
                ok, s1, s2 = _idempotent(real, a, s, clock)
                if ok is None:
                    continue
                explored += 1
                counts[a.kind] += 1
                if ok and example is None and isinstance(a, Merge):
                    example = _example(s, a, s1, s2, clock)
                if not ok:
                    failure = failure or {"realisation": name, "store": store_to_json(s), "letter": show_letter(a),
                                          "once": store_to_json(s1), "twice": store_to_json(s2),
                                          "why": allocation_blind_witness(s1, s2)}
        rows[name] = counts
    witness: dict[str, Any] = {"checked": rows, "example": example}
    if failure:
        witness["failure"] = failure
    return Verdict("5.24", "property", failure is None, explored, witness,
                   f"Proposition 5.24 (first kind): merge(I) twice ≈ merge(I) once on all explored stores and argument "
                   f"lists, both realisations and REPAIRED on ContextFS-built stores ({explored} cases, evolve "
                   "and split included); P_fin absorbs the "
                   "duplicate MERGED_INTO edge and ρ erases the timestamps.")


def _example(s: Store, a: Merge, once: Store, twice: Store, clock: int) -> dict[str, Any]:
    """One checked case in full: the store, the merge, the stores after it once and twice, and B* (twice, once)."""
    (j1,), (j2,) = sorted(once.dom() - s.dom()), sorted(twice.dom() - once.dom())
    return {"store": store_to_json(s), "merged": list(a.ids), "new_ids": [j1, j2], "clocks": [clock, clock + 1],
            "once": store_to_json(once), "twice": store_to_json(twice),
            "relation": sorted([x, y] for x, y in allocation_blind_relation(twice, once))}


def _order_fields(r1: Record, r2: Record) -> list[str]:
    """The fields in which merge⟨i, k⟩'s and merge⟨k, i⟩'s records differ (clock fields erased)."""
    a, b = erase_allocation(r1), erase_allocation(r2)
    out = [f for f in ("content", "type", "namespace", "tags", "summary") if getattr(a, f) != getattr(b, f)]
    for key in sorted(set(a.metadata) | set(b.metadata)):
        if a.metadata.get(key) != b.metadata.get(key):
            out.append(f"metadata.{key}")
    return out


def _first_non_commuting(real: Realisation) -> tuple[dict[str, Any] | None, int]:
    """The first pair of records of a seed whose merges in both orders are not ≈, and how many pairs were tried."""
    explored = 0
    for node in explore(real, "fragment", max_len=1).nodes(0):
        s = node.store
        ids = sorted(s.dom())
        for i in ids:
            for k in ids:
                if i >= k or s.records[i].metadata or s.records[k].metadata:
                    continue
                ik, ki = Merge((i, k)), Merge((k, i))
                xi = allocate(s, ik, node.start.clock + 1)
                (o1, s1), (o2, s2) = real.step(s, ik, xi), real.step(s, ki, xi)
                if not (isinstance(o1, Created) and isinstance(o2, Created)):
                    continue
                explored += 1
                if not allocation_blind_bisimilar(s1, s2):
                    j = o1.ids[0]
                    return {"seed": node.start.seed.name, "store": store_to_json(s),
                            "merge_i_k": call_to_json(Call(ik, xi)), "merge_k_i": call_to_json(Call(ki, xi)),
                            "after_i_k": store_to_json(s1), "after_k_i": store_to_json(s2),
                            "order_sensitive_fields": _order_fields(s1.records[j], s2.records[j]),
                            "why": allocation_blind_witness(s1, s2)}, explored
    return None, explored


@paper_item("5.25")
def check_5_25() -> Verdict:
    """Proposition 5.25: merge⟨i, k⟩(s) ≉ merge⟨k, i⟩(s) for records with empty metadata and different contents.

    The search runs over the stores of the fragment exploration and the pairs of
    their records, both orders with the same allocation, and stops at the first
    pair that is not ≈; the witness names the order-sensitive fields of the two
    merged records (``content``, the generated ``[Source k]`` text, and
    ``metadata.merged_from``) and gives :func:`coalg.bisim.bisimilarity.allocation_blind_witness`.
    REPAIRED stores no ``merged_from``, so only its generated content is order-sensitive.
    """
    rows: dict[str, Any] = {}
    explored = 0
    for real in SCHEMA_REALISATIONS:
        rows[real.name], n = _first_non_commuting(real)
        explored += n
    cfs = rows["contextfs"] or {}
    holds = cfs.get("order_sensitive_fields") == ["content", "metadata.merged_from"] and rows["repaired"] is not None
    witness = {"contextfs": rows["contextfs"], "repaired": rows["repaired"]}
    return Verdict("5.25", "counterexample", holds, explored, witness,
                   "Proposition 5.25: merge(id0001, id0002) and merge(id0002, id0001) give stores that are not "
                   "allocation-blind bisimilar; the order-sensitive fields are "
                   + " and ".join(cfs.get("order_sensitive_fields", [])) + " (provenance recorded in argument order).")
