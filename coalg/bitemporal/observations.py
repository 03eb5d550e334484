"""Bitemporal observations Obs^vt (paper §3.5 Def. 3.20 (c), §7.1): what was believed at τt about τv.

An audit asks the combination of the two times: "what did the system believe at
τt about τv?".  :func:`believed` answers it; :func:`as_of` and :func:`valid_at`
are its two one-axis slices, and :func:`belief_regions` draws where in the
(τv, τt) plane each record is believed.

The definition of :func:`believed`
----------------------------------
``believed(s, τt, τv)`` is Obs^vt of Proposition 7.1 as we reconstruct it: the records with
``created_at ≤ τt`` and ``valid_time ≤ τv`` (mode ``"asserted"``, the default).
A record is read as asserting its content *from* its valid time onward.  With
``mode="current"`` a record also drops out where a successor replaces it: if the
store has an edge ``(i, r, j)`` with ``r`` in the descendant vocabulary R⁺
(``evolved_into``, ``merged_into``, ``split_into``) and the successor ``j`` is on
file by τt with ``valid_time(j) ≤ τv``, then ``i`` is not believed at
``(τt, τv)``.  Supersede edges are not used: they carry no time in the model, so
"when was the supersession learned" is not a function of the store.  A record
without ``valid_time`` (every ContextFS record) is read on the single axis, as
valid from its own ``created_at``; a record without ``created_at`` is never on
file.  Both readings are functions of the store, so by Theorem 5.27 neither can
separate valid time on ContextFS.

>>> s = Store.of({"a": Record("x", created_at=1), "b": Record("y", created_at=5, valid_time=2)})
>>> sorted(believed(s, 5, 3)), sorted(as_of(s, 4)), sorted(valid_at(s, 1))
(['a', 'b'], ['a'], ['a'])
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from ..model import DESCENDANT, Id, Record, Store, Time, record_to_json, store_to_json

__all__ = ["Mode", "Region", "belief_regions", "believed", "as_of", "valid_at"]

Mode = Literal["asserted", "current"]
"""How :func:`believed` reads a record: from its valid time on (``"asserted"``), or until a successor replaces it."""


@dataclass(frozen=True, slots=True)
class Region:
    """A rectangle of the (τv, τt) plane where record ``id`` is believed.

    The rectangle is ``tt_from ≤ τt < tt_to`` and ``tv_from ≤ τv < tv_to``; a bound
    of ``None`` means unbounded (the record is believed from then on).
    """

    id: Id
    tt_from: Time
    tt_to: Time | None
    tv_from: Time
    tv_to: Time | None

    def contains(self, tt: Time, tv: Time) -> bool:
        return (
            self.tt_from <= tt
            and (self.tt_to is None or tt < self.tt_to)
            and self.tv_from <= tv
            and (self.tv_to is None or tv < self.tv_to)
        )


def _valid_from(r: Record) -> Time | None:
    """A record's valid time; the single-axis reading ``created_at`` when it has none."""
    return r.valid_time if r.valid_time is not None else r.created_at


def belief_regions(s: Store, *, mode: Mode = "asserted") -> tuple[Region, ...]:
    """Where each record is believed, as rectangles of the (τv, τt) plane, sorted.

    ``mode="asserted"``: one quadrant per record, ``τt ≥ created_at``, ``τv ≥ valid``.
    ``mode="current"``: the quadrant minus, from the moment a successor along an R⁺
    edge is on file, the valid times from the successor's valid time on — a
    staircase of rectangles (see the module docstring).

    >>> from coalg.bitemporal import History, record
    >>> from coalg.model import Evolve, Save
    >>> h = History.of((Save(Record("3pm")), 1, 1), (Evolve("id0001", "4pm"), 5, 3))
    >>> for g in belief_regions(record(h), mode="current"):  # ContextFS: valid time read as created_at
    ...     print(g)
    Region(id='id0001', tt_from=1, tt_to=5, tv_from=1, tv_to=None)
    Region(id='id0001', tt_from=5, tt_to=None, tv_from=1, tv_to=5)
    Region(id='id0002', tt_from=5, tt_to=None, tv_from=5, tv_to=None)
    """
    if mode not in ("asserted", "current"):
        raise ValueError(f"mode must be 'asserted' or 'current', got {mode!r}")
    out: list[Region] = []
    for i, r in s.records.items():
        t0, v0 = r.created_at, _valid_from(r)
        if t0 is None or v0 is None:
            continue
        if mode == "asserted":
            out.append(Region(i, t0, None, v0, None))
            continue
        succ: list[tuple[Time, Time]] = []  # (tt, vt) of successors with known times
        for e in s.out_edges(i, DESCENDANT):
            rj = s.records.get(e.target)
            if rj is None or rj.created_at is None or _valid_from(rj) is None:
                continue
            succ.append((max(rj.created_at, t0), _valid_from(rj)))  # type: ignore[arg-type]
        breaks = sorted({t for t, _ in succ} | {t0})
        pieces: list[tuple[Time, Time | None, Time | None]] = []  # (tt_from, tt_to, tv_to)
        for k, ta in enumerate(breaks):
            tb = breaks[k + 1] if k + 1 < len(breaks) else None
            known = [v for t, v in succ if t <= ta]
            closing = min(known) if known else None
            if pieces and pieces[-1][2] == closing:
                pieces[-1] = (pieces[-1][0], tb, closing)
            else:
                pieces.append((ta, tb, closing))
        for ta, tb, closing in pieces:
            if closing is None or closing > v0:
                out.append(Region(i, ta, tb, v0, closing))
    return tuple(sorted(out, key=lambda g: (g.id, g.tt_from, g.tv_from)))


def believed(s: Store, tt: Time, tv: Time, *, mode: Mode = "asserted") -> dict[Id, Record]:
    """Obs^vt_s(τt, τv): what the system had on file at τt about the world at τv.

    The records (by identifier, sorted) whose belief region contains ``(τt, τv)``:
    with the default ``mode="asserted"`` exactly the reconstructed
    ``{m_s(i) : tt(m_s(i)) ≤ τt, vt(m_s(i)) ≤ τv}`` (Proposition 7.1).  See the
    module docstring for ``mode="current"`` and for records without a valid time.

    Parameters
    ----------
    s : Store
        The store, typically Ψ_R(h).
    tt, tv : int
        The transaction time ("on file at") and the valid time ("about the world at").
    mode : {"asserted", "current"}
        ``"asserted"``: the reconstructed Obs^vt.  ``"current"``: also drop a record whose
        R⁺-successor is on file by τt and valid by τv.

    Returns
    -------
    dict of str to Record
        The believed records by identifier, in sorted order.

    Examples
    --------
    >>> s = Store.of({"a": Record("x", created_at=2, valid_time=0)})
    >>> list(believed(s, 1, 5)), list(believed(s, 2, 5)), list(believed(s, 2, -1))
    ([], ['a'], [])
    """
    hit = {g.id for g in belief_regions(s, mode=mode) if g.contains(tt, tv)}
    return {i: s.records[i] for i in sorted(hit)}


def as_of(s: Store, tt: Time) -> dict[Id, Record]:
    """The transaction-time slice: every record on file at τt (``created_at ≤ τt``), whatever its valid time.

    >>> sorted(as_of(Store.of({"a": Record("x", created_at=1), "b": Record("y", created_at=3)}), 2))
    ['a']
    """
    return {i: r for i, r in s.records.items() if r.created_at is not None and r.created_at <= tt}


def valid_at(s: Store, tv: Time, *, mode: Mode = "asserted") -> dict[Id, Record]:
    """The valid-time slice as the system knows it now: :func:`believed` at the latest transaction time."""
    now = max((r.created_at for r in s.records.values() if r.created_at is not None), default=None)
    return {} if now is None else believed(s, now, tv, mode=mode)


def answer_to_json(x: Any) -> Any:
    """The JSON form of what an observation answers: stores, records, and mappings and sequences of them."""
    if isinstance(x, Store):
        return store_to_json(x)
    if isinstance(x, Record):
        return record_to_json(x)
    if isinstance(x, Mapping):
        return {str(k): answer_to_json(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [answer_to_json(v) for v in x]
    return x
