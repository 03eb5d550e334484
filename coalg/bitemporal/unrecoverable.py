"""Theorem 5.27 (paper §5.8): valid time is unrecoverable on ContextFS, as a proof that runs.

On ContextFS, Ψ forgets the valid times, so Ψ(h) = Ψ(h′) whenever h ∼vt h′,
and no function of the store can tell the two apart.  The mathematical step is
immediate once Ψ is defined through κ; the weight is the **instantiation
premise** that ContextFS declares no valid-time channel.  So this is a theorem
about the model applied to an instantiation claim — not on the paper's
list of first-kind results (§1.3).  :func:`theorem_5_27` builds, for any history, the other
history and the proof as named steps; :data:`OBSERVERS` are the functions of the
store it evaluates side by side.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..model import Realisation, Store, dumps_store, store_to_json
from .histories import History
from .observations import answer_to_json, believed
from .proofs import Proof, ProofStep, RecordedPair
from .timeline import Timeline, VersionEntry, clock_to_datetime

__all__ = ["OBSERVERS", "theorem_5_27"]


# Named functions g: S → X that a reader might hope recovers valid time.
def _g_timestamps(s: Store) -> Any:
    return {i: [r.created_at, r.updated_at] for i, r in s.records.items()}


def _g_metadata_times(s: Store) -> Any:
    keys = ("evolution_timestamp", "merge_timestamp", "split_timestamp")
    return {i: {k: r.metadata[k] for k in keys if k in r.metadata} for i, r in s.records.items()}


def _g_ancestry_order(s: Store) -> Any:
    return sorted([e.source, e.relation.value, e.target] for e in s.edges)


def _g_believed_grid(s: Store) -> Any:
    ts = sorted({r.created_at for r in s.records.values() if r.created_at is not None})
    return {f"{tt},{tv}": sorted(believed(s, tt, tv)) for tt in ts for tv in ts}


def _g_timeline(s: Store) -> Any:
    tl = Timeline()
    for i, r in s.records.items():
        if r.created_at is not None:
            tl.add(VersionEntry(clock_to_datetime(r.created_at), r.content, version_id=i))
    return [e.version_id for e in tl.entries]


OBSERVERS: Mapping[str, Callable[[Store], Any]] = {
    "created_at and updated_at of every record": _g_timestamps,
    "timestamp metadata keys (evolution/merge/split)": _g_metadata_times,
    "the ancestry graph (edge set)": _g_ancestry_order,
    "the single-axis timeline, in Timeline.add order": _g_timeline,
    "believed(s, τt, τv) on the grid of clock readings": _g_believed_grid,
    "the canonical JSON text of the store": dumps_store,
}
"""A few functions of the whole store, evaluated side by side in the proof of Theorem 5.27."""


def theorem_5_27(
    h: History, h_prime: History | None = None, *, realisation: Realisation | None = None
) -> Proof:
    """Theorem 5.27 as a constructive witness: for any non-empty ``h``, Ψ(h) = Ψ(h′) with vt(h) ≠ vt(h′).

    ``h_prime`` defaults to :func:`~coalg.bitemporal.histories.shifted` ``(h)``,
    every valid time moved back by one; any history ∼vt ``h`` with different
    valid times may be given.  The proof's steps carry the two histories, the
    valid-time channel, the recording of each call side by side with the store
    after it, the equality of the results, and the argument that no ``g: S → X``
    tells them apart.  ``conclusion`` is whether every step checked out (it is
    ``False`` on a realisation that does declare a valid-time channel).

    Parameters
    ----------
    h : History
        Any non-empty history.
    h_prime : History, optional
        A history ∼vt ``h`` with different valid times (default ``shifted(h)``).
    realisation : Realisation, optional
        The realisation whose premise is tested (default ``None``: the ContextFS model).

    Returns
    -------
    Proof
        Six named steps with their data; ``to_json()`` is what the proof stepper walks.

    Raises
    ------
    HistoryError
        If ``h`` is empty, or ``h_prime`` is not ∼vt ``h`` with different valid times.

    Examples
    --------
    >>> from coalg.model import Record, Save
    >>> p = theorem_5_27(History.of((Save(Record("r")), 1, 1)))
    >>> [s.title for s in p.steps][:3], p.conclusion
    (['Two histories that differ only in valid time', 'The valid-time channel κ', 'Recording, call by call'], True)
    """
    pair = RecordedPair.of(h, h_prime, realisation)
    h2 = pair.h_prime
    declares = pair.realisation.declares_valid_time
    s1, s2 = pair.finals
    issued_same = pair.issued_equal()
    steps: list[ProofStep] = []
    steps.append(
        ProofStep(
            "Two histories that differ only in valid time",
            "h′ has the same calls and the same transaction times as h (h ∼vt h′), and vt(h) ≠ vt(h′).",
            pair.histories_json()
            | {"sim_vt": True, "vt_h": list(h.vt()), "vt_h_prime": list(h2.vt())},
        )
    )
    steps.append(
        ProofStep(
            "The valid-time channel κ",
            (
                f"Call k is issued as κ(a_k, τv_k).  {pair.realisation.name} declares "
                + (
                    "a valid-time argument, so κ writes τv into the letter."
                    if declares
                    else "no valid-time argument — no API argument and no record field carries valid time — so "
                    "κ(a, τv) = a and the letters issued for h and h′ are identical.  This is the instantiation "
                    "premise of the theorem."
                )
            ),
            {"declares_valid_time": declares, "issued": pair.issued_json(compare=True)},
        )
    )
    per_call = pair.calls_json()
    all_equal = all(c["stores_equal"] for c in per_call)
    steps.append(
        ProofStep(
            "Recording, call by call",
            "Ψ is a left fold of the step function from ∅.  Call k gets the same allocation in both runs (clock τt_k, "
            "identifiers from the fixed supply), and the same letter, so by induction the store after each call is "
            "the same in both runs."
            if all_equal
            else "The stores differ after some call: the realisation wrote the valid time into the store.",
            {"calls": per_call},
        )
    )
    equal = s1 == s2
    steps.append(
        ProofStep(
            "The results are equal" if equal else "The results differ",
            "Ψ(h) and Ψ(h′) are the same value: same records, same edges, same canonical JSON text."
            if equal
            else "Ψ(h) ≠ Ψ(h′).",
            {
                "psi_h": store_to_json(s1),
                "psi_h_prime": store_to_json(s2),
                "equal": equal,
                "same_json_text": dumps_store(s1) == dumps_store(s2),
                "in_hist_rec": pair.in_hist_rec,
            },
        )
    )
    g_rows = [
        {
            "g": name,
            "g_psi_h": answer_to_json(g(s1)),
            "g_psi_h_prime": answer_to_json(g(s2)),
            "equal": g(s1) == g(s2),
        }
        for name, g in OBSERVERS.items()
    ]
    steps.append(
        ProofStep(
            "No function of the store can tell them apart",
            "For every set X and every g: S → X, g(Ψ(h)) = g(Ψ(h′)), because g is applied to equal arguments.  This "
            "covers created_at, updated_at, the timestamp metadata keys, the ancestry order and any query a future "
            "Timeline.at could run: the rows below are a few such g, and the argument does not depend on which.  "
            "In particular no V: S → T* has V∘Ψ = vt: V(Ψ(h)) would have to equal both vt(h) and vt(h′)."
            if equal
            else "Some g separates the two results.",
            {
                "observers": g_rows,
                "all_equal": all(r["equal"] for r in g_rows),
                "no_recovery_map": equal and h.vt() != h2.vt(),
            },
        )
    )
    rec = pair.in_hist_rec
    steps.append(
        ProofStep(
            "Hence L6 fails",
            (
                "h and h′ lie in Hist_rec and are ∼vt-related with Ψ(h) = Ψ(h′), so the realisation does not separate "
                "valid time (strong L6), and every bitemporal observation Obs computed from the store satisfies "
                "Obs(Ψ(h), τt, τv) = Obs(Ψ(h′), τt, τv), so none is non-degenerate on this pair (weak L6, Def. 3.20 (c))."
                if rec
                else "Ψ(h) = Ψ(h′) as for every history; h is not in Hist_rec, so the L6 conclusion uses the pair "
                "((save(r), 1, 1)) and ((save(r), 1, 2)) of Hist_rec instead."
            )
            if equal
            else "The theorem's premise (no valid-time channel) fails for this realisation.",
            {"in_hist_rec": rec, "l6_fails": equal},
        )
    )
    return Proof(
        "5.27",
        "For the ContextFS realisation, Ψ(h) depends on h only through ((a_k, τt_k))_k: "
        "h ∼vt h′ implies Ψ(h) = Ψ(h′), so no function of the store recovers valid time and L6 fails.",
        tuple(steps),
        equal and all(issued_same) and all_equal,
    )
