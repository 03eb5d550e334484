"""Open problem 1, the second axis: what a merge does with valid time when its sources disagree.

The law
-------
A UNION merge asserts every source at once: its content is ``[Source 1]: c₁ …
[Source n]: cₙ``.  So the merged record should be believed exactly when all of
its sources are.  With Obs^vt (:func:`coalg.bitemporal.believed`, the
reconstructed observation of Proposition 7.1, extended by :func:`believed_spans` to records that
carry an end of validity), for every merged record ``j`` with sources
``K = {i : (j, MERGED_FROM, i) ∈ E}`` and every ``(τt, τv)`` with ``τt`` at or
after ``j``'s transaction time:

* **soundness** (no belief before the evidence), for every merge:
  ``j ∈ Obs(τt, τv)  ⇒  K ⊆ Obs(τt, τv)``;
* **completeness** (nothing the sources support is withheld), for every merge
  whose valid time the caller did not give:
  ``K ⊆ Obs(τt, τv)  ⇒  j ∈ Obs(τt, τv)``.

A caller may date a merge *later* than its sources (the combination became a
fact only then): that is a stronger claim, still sound.  Completeness is what
picks the default: among the sound rules it keeps the earliest valid time.

Why this law and not another: *order-independence* does not separate the
candidates (earliest, latest and the spanned interval are all functions of the
set of source valid times), and *monotonicity in τv* rules out only the interval.
Soundness is the property an audit relies on — "at τv the system believed X"
must not hold when a premise of X did not yet hold — and completeness rules out
the trivial sound rule "never valid".

The proposal and the rejected rules
-----------------------------------
* **latest** (proposed; :data:`~coalg.open_problems.proposed.PROPOSED`): the
  merged valid time is the maximum of the sources'; a caller's explicit earlier
  one is refused.  Sound and complete: with ``v = max vₖ``, ``v ≤ τv ⟺ ∀k vₖ ≤ τv``.
* **earliest** (minimum): complete but unsound — at ``τv = min vₖ`` the merge is
  believed while a later source is not.
* **interval** ``[min vₖ, max vₖ]``: the record is believed only inside the span;
  unsound at ``τv = min``, and incomplete after ``max``.
* **as given** (REPAIRED today: the latest, unless the caller gives a valid
  time, which is stored unchecked): unsound when the caller's time precedes a
  source's.

The rule follows the *content*, not the record type: a strategy that keeps one
source's content (ContextFS's LATEST or OLDEST) should take that source's valid
time; the model has only UNION, where every source is asserted.

>>> v = law_violations(candidate_example("earliest"))[0]
>>> v["clause"], v["tt"], v["tv"], v["unbelieved_sources"]
('soundness', 3, 1, ['id0002'])
>>> law_violations(candidate_example("latest"))
[]
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import Any

from ..bitemporal import believed
from ..model import (
    DEFAULT_THETA,
    EMPTY,
    REPAIRED,
    Allocation,
    Created,
    Id,
    Letter,
    Output,
    Realisation,
    Record,
    Relation,
    RepairedRealisation,
    Store,
    Theta,
    Time,
    Trace,
    run,
    store_to_json,
)
from ..model import alphabet as A
from ._common import evidence, random_run, trace_json
from .proposed import PROPOSED, provenance

__all__ = [
    "CANDIDATES",
    "believed_spans",
    "candidate",
    "candidate_example",
    "default_merges",
    "law_violations",
    "merged_records",
    "verdict",
]

VALID_UNTIL = "valid_until"
"""Metadata key the interval candidate uses for the end of the span (the model's records have a start only)."""

_NO_ALLOCATION = Allocation()

CANDIDATES = ("latest", "earliest", "interval", "as-given")
"""The rules compared: the proposal first, then the rejected ones."""


def believed_spans(s: Store, tt: Time, tv: Time) -> dict[Id, Record]:
    """Obs^vt with ends of validity: :func:`coalg.bitemporal.believed` minus records whose span ended before τv.

    Only the interval candidate writes an end (metadata ``valid_until``); on every
    other store this *is* ``believed(s, τt, τv)``.
    """
    out = believed(s, tt, tv)
    return {i: r for i, r in out.items() if not (isinstance(r.metadata.get(VALID_UNTIL), int)
                                                 and r.metadata[VALID_UNTIL] < tv)}


def _rule_step(rule: str) -> Callable[..., tuple[Output, Store]]:
    def step(s: Store, a: Letter, xi: Allocation = _NO_ALLOCATION, *, theta: Theta = DEFAULT_THETA,
             faults: frozenset[int] = frozenset()) -> tuple[Output, Store]:
        out, s2 = REPAIRED.step(s, a, xi, theta=theta, faults=faults)
        if rule == "as-given" or not isinstance(a, A.Merge) or not isinstance(out, Created) or a.valid_time is not None:
            return out, s2
        j, r = out.items[0]
        vts = [s.records[i].valid_time for i in set(a.ids)]
        known = [v for v in vts if v is not None]
        if not known:
            return out, s2
        if rule == "earliest":
            new = r.evolve(valid_time=min(known))
        elif rule == "interval":
            new = r.evolve(valid_time=min(known), metadata=r.metadata.merged({VALID_UNTIL: max(known)}))
        else:  # "latest" without the explicit-time check
            new = r.evolve(valid_time=max(known))
        return Created(((j, new),)), s2.with_record(j, new)

    return step


def candidate(rule: str) -> Realisation:
    """The realisation that merges with ``rule`` (``"latest"`` is :data:`PROPOSED`; the others wrap REPAIRED).

    ``"as-given"`` is REPAIRED itself: the latest source valid time unless the
    caller gives one, which is stored unchecked.
    """
    if rule == "latest":
        return PROPOSED
    if rule == "as-given":
        return REPAIRED
    if rule not in CANDIDATES:
        raise ValueError(f"unknown rule {rule!r}; known: {', '.join(CANDIDATES)}")
    return RepairedRealisation(f"merge-vt-{rule}", _rule_step(rule),
                               f"REPAIRED whose merge takes the {rule} of its sources' valid times",
                               declares_valid_time=True, edge_faults=False)


def merged_records(s: Store) -> dict[Id, frozenset[Id]]:
    """Every record with ``MERGED_FROM`` edges, and its sources (read from the edges)."""
    out = {e.source: provenance(s, e.source) for e in s.edges
           if e.relation is Relation.MERGED_FROM and e.source in s.records}
    return dict(sorted(out.items()))


def _grid(s: Store) -> list[Time]:
    pts: set[Time] = set()
    for r in s.records.values():
        for v in (r.created_at, r.valid_time, r.metadata.get(VALID_UNTIL)):
            if isinstance(v, int) and not isinstance(v, bool):
                pts |= {v - 1, v, v + 1}
    return sorted(pts)


def law_violations(s: Store, obs: Callable[[Store, Time, Time], dict[Id, Record]] = believed_spans,
                   *, complete_for: Iterable[Id] | None = None, first_only: bool = True) -> list[dict[str, Any]]:
    """The violations of soundness and completeness on ``s`` (empty when the law holds).

    Every merged record is checked at every query point ``(τt, τv)`` built from the
    store's own times (±1), with ``τt`` at or after the merged record's creation.
    Completeness is checked for the merged records in ``complete_for`` — those whose
    valid time the caller did not give (:func:`default_merges`); ``None`` means all.
    """
    merged = merged_records(s)
    complete = None if complete_for is None else frozenset(complete_for)
    if not merged:
        return []
    grid = _grid(s)
    out: list[dict[str, Any]] = []
    for tt in grid:
        for tv in grid:
            seen = obs(s, tt, tv)
            for j, srcs in merged.items():
                cj = s.records[j].created_at
                if cj is None or tt < cj:
                    continue
                missing = sorted(k for k in srcs if k not in seen)
                if (j in seen) == (not missing):
                    continue
                if j not in seen and complete is not None and j not in complete:
                    continue
                out.append({"clause": "soundness" if j in seen else "completeness", "merged": j,
                            "sources": sorted(srcs), "tt": tt, "tv": tv, "merged_believed": j in seen,
                            "unbelieved_sources": missing,
                            "valid_times": {k: s.records[k].valid_time for k in sorted(srcs | {j})}})
                if first_only:
                    return out
    return out


def default_merges(t: Trace) -> frozenset[Id]:
    """The records a run created by merges without a caller's valid time (where completeness applies)."""
    return frozenset(o.ids[0] for c, o in zip(t.calls, t.outputs)
                     if isinstance(c.letter, A.Merge) and c.letter.valid_time is None and isinstance(o, Created))


def _example_word(explicit: Time | None = None) -> list[Letter]:
    return [A.Save(Record("meeting at 3pm", valid_time=1)), A.Save(Record("room 101", valid_time=5)),
            A.Merge(("id0001", "id0002"), valid_time=explicit)]


def candidate_example(rule: str) -> Store:
    """The store of the counterexamples: two sources valid from 1 and 5, merged at clock 3.

    For ``"as-given"`` the merge carries the caller's valid time 0 (REPAIRED stores
    it); for the other rules it carries none.
    """
    word = _example_word(0 if rule == "as-given" else None)
    return run(EMPTY, word, step_fn=candidate(rule).step).final


def _explore(seed: int, runs: int) -> tuple[int, int, dict[str, Any] | None]:
    rng = random.Random(seed)
    stores = merges = 0
    for _ in range(runs):
        t = random_run(PROPOSED, rng, rng.randint(3, 9), explicit_merge_time=0.3)
        stores += 1
        merges += len(merged_records(t.final))
        bad = law_violations(t.final, complete_for=default_merges(t))
        if bad:
            return stores, merges, {"run": trace_json(t), "violation": bad[0]}
    return stores, merges, None


def verdict(runs: int = 120, seed: int = 91) -> tuple[bool, int, dict[str, Any], str]:
    """The evidence for open problem 1: the law on random runs of PROPOSED, and each rejected rule's counterexample."""
    stores, merges, failure = _explore(seed, runs)
    rejected: dict[str, Any] = {}
    for rule in CANDIDATES[1:]:
        s = candidate_example(rule)
        v = law_violations(s, first_only=False)
        rejected[rule] = {"store": store_to_json(s), "merged_valid_time": s.records["id0003"].valid_time,
                          "clauses_failed": sorted({x["clause"] for x in v}),
                          "first_violation": v[0] if v else None}
    proposed = candidate_example("latest")
    refused, _ = PROPOSED.step(*_refusal_case())
    holds = (failure is None and not law_violations(proposed)
             and all(r["first_violation"] is not None for r in rejected.values())
             and not isinstance(refused, Created))
    summary = (f"Open problem 1 (proposal): the merged valid time is the latest source valid time; Obs^vt of every "
               f"merged record is sound and complete on {stores} random runs of PROPOSED ({merges} merged records); "
               "earliest fails soundness, the spanned interval fails soundness and completeness, and an unchecked "
               "caller time (REPAIRED) fails soundness.")
    witness: dict[str, Any] = {
        "law": "for every merged record j with sources K and every (τt, τv) with τt ≥ tt(j): "
               "j ∈ Obs(τt, τv) ⇒ K ⊆ Obs(τt, τv) (soundness); and, when the caller gave no valid time, "
               "K ⊆ Obs(τt, τv) ⇒ j ∈ Obs(τt, τv) (completeness)",
        "proposal": {"rule": "latest (explicit earlier valid times refused)",
                     "example": store_to_json(proposed),
                     "merged_valid_time": proposed.records["id0003"].valid_time,
                     "explicit_earlier_time": repr(refused)},
        "rejected": rejected,
        "explored": {"runs": stores, "merged_records": merges},
    }
    return evidence(holds, merges, witness, failure, summary)


def _refusal_case() -> tuple[Store, Letter, Allocation]:
    s = run(EMPTY, _example_word()[:2], step_fn=PROPOSED.step).final
    return s, A.Merge(("id0001", "id0002"), valid_time=0), Allocation(("id0003",), 3)


def sources_valid_times(s: Store, j: Id) -> list[Time | None]:
    """The valid times of the sources of merged record ``j`` (sorted by source identifier)."""
    return [s.records[i].valid_time for i in sorted(provenance(s, j))]
