"""Proposition 7.1 (paper §7.1): the bitemporal repair, a theorem of the first kind, as a proof that runs.

On the repaired realisation (:data:`coalg.model.REPAIRED`), which stores the
caller's valid time in every record a call creates, the pair of Theorem 5.27
records different stores; :func:`~coalg.bitemporal.separation.recover_valid_times`
is the map V with V∘Ψ = vt on ``Hist_rec``; :func:`~coalg.bitemporal.observations.believed`
(Obs^vt) is non-degenerate in the sense of Def. 3.20 (c); and the lineage
machinery is unchanged (part (b), :func:`lineage_unchanged`).
:func:`proposition_7_1` builds the proof as named steps.
"""

from __future__ import annotations

from ..model import CONTEXTFS, EMPTY, REPAIRED, Realisation, Store, ancestry, store_to_json
from .histories import History, shifted
from .observations import believed
from .proofs import Proof, ProofStep, RecordedPair
from .recorder import record, recording
from .separation import non_degeneracy_witness, recover_valid_times

__all__ = ["proposition_7_1", "lineage_unchanged"]


def proposition_7_1(
    h: History, h_prime: History | None = None, *, realisation: Realisation | None = None
) -> Proof:
    """Proposition 7.1 (a) on the repaired realisation, as named steps on the same pair as Theorem 5.27.

    The pair now records different stores; V recovers both valid-time sequences;
    :func:`~coalg.bitemporal.observations.believed` separates them at some (τt, τv)
    (non-degeneracy, Def. 3.20 (c)); and erasing the valid-time field gives back
    the ContextFS recording, so the lineage machinery (edges, ancestry) is
    unchanged (part (b)).  ``realisation`` defaults to the repaired realisation.
    """
    real = REPAIRED if realisation is None else realisation
    pair = RecordedPair.of(h, h_prime, real)
    h2 = pair.h_prime
    s1, s2 = pair.finals
    steps = [
        ProofStep(
            "The same two histories",
            "h ∼vt h′ with vt(h) ≠ vt(h′), now recorded on the repaired realisation.",
            pair.histories_json() | {"in_hist_rec": pair.in_hist_rec},
        )
    ]
    steps.append(
        ProofStep(
            "The valid-time channel κ writes τv",
            f"{real.name} declares a valid-time argument, so call k is issued with τv_k in it.",
            {
                "declares_valid_time": real.declares_valid_time,
                "issued": pair.issued_json(compare=False),
            },
        )
    )
    differ = s1 != s2
    steps.append(
        ProofStep(
            "The recorded stores differ",
            "Each created record stores the caller's valid time, so Ψ^vt(h) ≠ Ψ^vt(h′).",
            {"psi_h": store_to_json(s1), "psi_h_prime": store_to_json(s2), "equal": not differ},
        )
    )
    try:
        v1, v2 = recover_valid_times(s1), recover_valid_times(s2)
    except ValueError as e:
        v1 = v2 = ()
        err = str(e)
    else:
        err = ""
    recovered = pair.in_hist_rec and v1 == h.vt() and v2 == h2.vt()
    steps.append(
        ProofStep(
            "V recovers valid time",
            "V groups the records by created_at (strictly increasing, shared by the records of one call) and reads "
            "one valid time per group: V(Ψ(h)) = vt(h) and V(Ψ(h′)) = vt(h′).",
            {
                "V_psi_h": list(v1),
                "V_psi_h_prime": list(v2),
                "vt_h": list(h.vt()),
                "vt_h_prime": list(h2.vt()),
                "recovered": recovered,
                "error": err,
            },
        )
    )
    wit = non_degeneracy_witness(believed, real, [(h, h2)])
    steps.append(
        ProofStep(
            "Obs^vt is non-degenerate",
            "At the query point below the two stores answer differently what the system believed at τt about τv "
            "(Def. 3.20 (c)).",
            {"witness": wit, "non_degenerate": wit is not None},
        )
    )
    lin = lineage_unchanged(h, real, h2)
    steps.append(
        ProofStep(
            "The lineage machinery is unchanged",
            "Part (b): the valid time changes nothing but the valid-time field — erasing it makes Ψ^vt(h) and "
            "Ψ^vt(h′) equal — the lineage graph (identifiers and edges) is the one ContextFS records, and ancestry "
            "is stable along the recording (Theorem 5.7 verbatim): none of these results mentions record fields.",
            lin,
        )
    )
    return Proof(
        "7.1",
        "On the repaired realisation Ψ^vt separates valid time on Hist_rec, Obs^vt is non-degenerate, and the "
        "lineage machinery is unchanged.",
        tuple(steps),
        differ and recovered and wit is not None and all(lin.values()),
    )


def lineage_unchanged(
    h: History, realisation: Realisation, h_prime: History | None = None
) -> dict[str, bool]:
    """Proposition 7.1 (b) on one history: what adding the valid-time field leaves alone.

    * ``only_valid_time_differs`` — for ``h′ ∼vt h`` (default
      :func:`~coalg.bitemporal.histories.shifted`), Ψ_R(h) and Ψ_R(h′) are equal
      once the valid-time field is erased;
    * ``same_lineage_graph`` — Ψ_R(h) has the identifiers and edges that ContextFS
      records (when both realisations record every call);
    * ``ancestry_stable`` — along the recording on R, every call leaves the
      ancestry unfolding of every existing record unchanged (Theorem 5.7).
    """
    h2 = shifted(h) if h_prime is None else h_prime
    rr, rc = recording(h, realisation), recording(h, CONTEXTFS)
    both = rr.in_hist_rec and rc.in_hist_rec
    same_graph = (not both) or (
        rr.final.dom() == rc.final.dom() and rr.final.edges == rc.final.edges
    )
    only_vt = _erase_valid_time(record(h2, realisation)) == _erase_valid_time(rr.final)
    stable, prev = True, EMPTY
    for st in rr.steps:
        if any(ancestry(st.store, i) != ancestry(prev, i) for i in prev.records):
            stable = False
            break
        prev = st.store
    return {
        "only_valid_time_differs": only_vt,
        "same_lineage_graph": same_graph,
        "ancestry_stable": stable,
    }


def _erase_valid_time(s: Store) -> Store:
    return Store.of({i: r.evolve(valid_time=None) for i, r in s.records.items()}, s.edges)
