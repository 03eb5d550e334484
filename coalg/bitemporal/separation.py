"""Separating valid time (paper §3.5 Def. 3.20 (a), (c); Proposition 7.1): the recovery map V and non-degeneracy.

A realisation *separates valid time* on ``Hist_rec`` when some V: S → T* has
V ∘ Ψ_R = vt (:func:`recover_valid_times` is the V of Proposition 7.1,
:func:`separates_on` checks the equation on given histories).  An observation Obs
is *non-degenerate* when some ∼vt pair of ``Hist_rec`` records stores that Obs
tells apart at some (τt, τv) (:func:`non_degeneracy_witness` searches for one).
On ContextFS both fail (Theorem 5.27); on the repaired realisation both hold.

>>> from coalg.bitemporal import record
>>> from coalg.model import REPAIRED, Record, Save
>>> h = History.of((Save(Record("r")), 1, 1))
>>> recover_valid_times(record(h)), recover_valid_times(record(h, REPAIRED))
((None,), (1,))
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from ..model import Realisation, Store, Time
from .histories import History, sim_vt
from .observations import answer_to_json
from .recorder import recording

__all__ = ["recover_valid_times", "separates_on", "non_degeneracy_witness"]


def recover_valid_times(s: Store) -> tuple[Time | None, ...]:
    """V: S → T*, the recovery map of Proposition 7.1 (§7.1, in the form this book states).

    Group the records by ``created_at`` (one group per call: the clock is strictly
    increasing and every record a call creates carries it), order the groups, and
    read one valid time per group.  On the repaired realisation V ∘ Ψ = vt on
    ``Hist_rec``.  On a ContextFS store every entry is ``None``: there is nothing
    to read.  A group whose records disagree raises ``ValueError``.

    >>> from coalg.model import Record
    >>> recover_valid_times(Store.of({"a": Record("x", created_at=4, valid_time=1),
    ...                               "b": Record("y", created_at=2, valid_time=9)}))
    (9, 1)
    """
    groups: dict[Time, set[Time | None]] = {}
    for r in s.records.values():
        if r.created_at is None:
            raise ValueError("a record without created_at belongs to no call")
        groups.setdefault(r.created_at, set()).add(r.valid_time)
    out: list[Time | None] = []
    for t in sorted(groups):
        vs = groups[t]
        if len(vs) != 1:
            raise ValueError(
                f"the records created at {t} disagree on their valid time: {sorted(vs, key=repr)}"
            )
        out.append(next(iter(vs)))
    return tuple(out)


def separates_on(
    realisation: Realisation, histories: Iterable[History]
) -> tuple[bool, int, History | None]:
    """Does V ∘ Ψ_R = vt hold on the given histories of ``Hist_rec``?

    Returns ``(holds, how many histories of Hist_rec were checked, first failure)``;
    histories outside ``Hist_rec`` are skipped.
    """
    checked = 0
    for h in histories:
        rec = recording(h, realisation)
        if not rec.in_hist_rec:
            continue
        checked += 1
        if recover_valid_times(rec.final) != h.vt():
            return False, checked, h
    return True, checked, None


def non_degeneracy_witness(
    obs: Callable[[Store, Time, Time], Any],
    realisation: Realisation,
    pairs: Iterable[tuple[History, History]],
) -> dict[str, Any] | None:
    """Search for h ∼vt h′ in Hist_rec and (τt, τv) with Obs(Ψ(h), τt, τv) ≠ Obs(Ψ(h′), τt, τv) (Def. 3.20 (c)).

    The query points tried are every (τt, τv) built from the histories' own
    transaction and valid times.  Returns a JSON-ready witness, or ``None`` when
    ``obs`` is degenerate on the pairs given.
    """
    for h, h2 in pairs:
        if not sim_vt(h, h2):
            raise ValueError("the pairs must differ only in valid time")
        r1, r2 = recording(h, realisation), recording(h2, realisation)
        if not (r1.in_hist_rec and r2.in_hist_rec):
            continue
        tts = sorted(set(h.tt()))
        tvs = sorted(set(h.vt()) | set(h2.vt()))
        for tt in tts:
            for tv in tvs:
                a, b = obs(r1.final, tt, tv), obs(r2.final, tt, tv)
                if a != b:
                    return {
                        "h": h.to_json(),
                        "h_prime": h2.to_json(),
                        "tt": tt,
                        "tv": tv,
                        "obs_h": answer_to_json(a),
                        "obs_h_prime": answer_to_json(b),
                    }
    return None
