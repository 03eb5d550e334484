"""Bitemporal observations: histories, the recording map, Theorem 5.27 and Proposition 7.1.

The temporal-database vocabulary (paper §2.3): *valid time* τv is when a fact
holds in the world, *transaction time* τt is when the system recorded it.  An
audit asks the combination: "what did the system believe at τt about τv?".

What this module makes executable (spec §2.5, §5.8, §5.11, §8):

* **Definition 3.20** (amended by the review).  A :class:`History` is a finite
  sequence of calls ``(a_k, τt_k, τv_k)`` with strictly increasing transaction
  times.  :func:`record` is the recording map Ψ_R: a left fold of the
  realisation's step function from the empty store, call ``k`` stamped with
  clock ``τt_k`` and fed identifiers from a fixed deterministic supply.  The
  valid time reaches the realisation only through its *valid-time channel*
  κ_R (:func:`channel`): a realisation that declares none (ContextFS) receives
  the bare letter.  ``Hist_rec`` (:func:`in_hist_rec`) are the histories whose
  every call succeeds and creates a record; ``h ∼vt h′`` (:func:`sim_vt`) means
  same calls and same transaction times.
* **Theorem 5.27** (valid time is unrecoverable).  On ContextFS, Ψ forgets the
  valid times, so Ψ(h) = Ψ(h′) whenever h ∼vt h′, and no function of the store
  can tell the two apart.  The mathematical step is immediate once Ψ is defined
  through κ; the weight is the **instantiation premise** that ContextFS declares
  no valid-time channel.  So this is a theorem about the model applied to an
  instantiation claim — not on the seed's first-kind list.  :func:`theorem_5_27`
  builds, for any history, the other history and the proof as named steps.
* **Proposition 7.1** (bitemporal repair, a theorem of the first kind).  On the
  repaired realisation (``coalg.model.repaired.REPAIRED``), which stores the caller's
  valid time in every record a call creates, the same two histories record
  different stores; :func:`recover_valid_times` is the map V with V∘Ψ = vt on
  ``Hist_rec``; :func:`believed` (Obs^vt) is non-degenerate in the sense of
  Def. 3.20 (c).
* **Timeline.at** (Listing 5, ``types/versioned.py:238–263``): the single-axis
  query ContextFS's unpersisted version model offers, reproduced faithfully,
  with the naive-timezone pitfall it carries.

Which results are which kind of claim: Theorem 5.27's equation Ψ(h)=Ψ(h′) and
Proposition 7.1 are *property-tested* over random histories; "ContextFS declares
no valid-time channel" is an *instantiation claim* (encoded by the ContextFS
model ignoring ``valid_time``); the history pairs are *counterexamples* to L6.

The definition of :func:`believed`
----------------------------------
``believed(s, τt, τv)`` is the spec's Obs^vt of Proposition 7.1: the records with
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

Examples
--------
>>> from coalg.model.records import Record
>>> h = History.of((Save(Record("meeting at 3pm")), 1, 1), (Save(Record("meeting at 4pm")), 5, 2))
>>> h.vt(), h.tt()
((1, 2), (1, 5))
>>> h2 = h.with_valid_times((1, 5))
>>> sim_vt(h, h2), record(h) == record(h2)       # ContextFS: Ψ forgets valid time
(True, True)
>>> sorted(believed(record(h), 5, 3))            # single-axis reading: valid from created_at
['id0001']
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta, timezone, tzinfo
from typing import Any, Literal, TypeGuard

from ..errors import CoalgError
from ..model import (
    CONTEXTFS,
    DEFAULT_THETA,
    DESCENDANT,
    Allocation,
    Created,
    Evolve,
    Id,
    Letter,
    Merge,
    Oracle,
    Output,
    Realisation,
    Recall,
    Record,
    Save,
    SaveAt,
    Split,
    Supersede,
    Theta,
    Time,
    creates,
    dumps_store,
    letter_from_json,
    letter_to_json,
    named,
    output_to_json,
    record_to_json,
    store_to_json,
)
from ..model.store import EMPTY, Store
from ..paper import Verdict, paper_item

__all__ = [
    "History",
    "HistoryError",
    "Proof",
    "ProofStep",
    "RecordedCall",
    "Recording",
    "Region",
    "TimedCall",
    "Timeline",
    "TimezonePitfall",
    "VersionEntry",
    "as_of",
    "belief_regions",
    "believed",
    "channel",
    "check_3_20",
    "check_5_27",
    "check_7_1",
    "clock_to_datetime",
    "contrast_example",
    "in_hist_rec",
    "lineage_unchanged",
    "meeting_example",
    "naive_timezone_pitfall",
    "non_degeneracy_witness",
    "proposition_7_1",
    "random_history",
    "record",
    "recording",
    "recover_valid_times",
    "separates_on",
    "shifted",
    "sim_vt",
    "theorem_5_27",
    "timeline_of",
    "valid_at",
]

Mode = Literal["asserted", "current"]


class HistoryError(CoalgError, ValueError):
    """A history that is not well formed (times not strictly increasing, a letter that carries a valid time)."""


# =========================================================================== histories


@dataclass(frozen=True, slots=True)
class TimedCall:
    """One call ``(a_k, τt_k, τv_k)`` of a bitemporal history."""

    letter: Letter
    tt: Time
    vt: Time

    def to_json(self) -> dict[str, Any]:
        return {"letter": letter_to_json(self.letter), "tt": self.tt, "vt": self.vt}


def _carries_valid_time(a: Letter) -> bool:
    if isinstance(a, (Save, SaveAt)):
        return a.record.valid_time is not None
    return getattr(a, "valid_time", None) is not None


def _is_time(x: object) -> TypeGuard[int]:
    return isinstance(x, int) and not isinstance(x, bool)


@dataclass(frozen=True, slots=True)
class History:
    """A bitemporal history h = ((a_k, τt_k, τv_k))_k (Definition 3.20).

    Transaction times are strictly increasing.  Letters are letters of the bare
    alphabet A: the valid time of a call is its ``vt`` component, so a letter that
    already carries a ``valid_time`` is refused (κ_R writes it, not the caller).

    >>> History.of((Save(Record("x")), 2, 0), (Save(Record("y")), 2, 0))
    Traceback (most recent call last):
    ...
    coalg.bitemporal.core.HistoryError: transaction times must be strictly increasing: call 1 has τt = 2 after τt = 2
    """

    calls: tuple[TimedCall, ...] = ()

    def __post_init__(self) -> None:
        calls = tuple(self.calls)
        object.__setattr__(self, "calls", calls)
        prev: Time | None = None
        for k, c in enumerate(calls):
            if not isinstance(c, TimedCall):
                raise HistoryError(f"call {k} is not a TimedCall: {c!r}")
            if not _is_time(c.tt) or not _is_time(c.vt):
                raise HistoryError(
                    f"call {k}: times must be integers, got τt = {c.tt!r}, τv = {c.vt!r}"
                )
            if prev is not None and c.tt <= prev:
                raise HistoryError(
                    f"transaction times must be strictly increasing: call {k} has τt = {c.tt} after τt = {prev}"
                )
            if _carries_valid_time(c.letter):
                raise HistoryError(
                    f"call {k}: the letter already carries a valid time; give it as the call's τv instead"
                )
            prev = c.tt

    @classmethod
    def of(cls, *calls: tuple[Letter, Time, Time]) -> History:
        """``History.of((a1, tt1, tv1), (a2, tt2, tv2), …)``."""
        return cls(tuple(TimedCall(a, tt, tv) for a, tt, tv in calls))

    def __len__(self) -> int:
        return len(self.calls)

    def letters(self) -> tuple[Letter, ...]:
        return tuple(c.letter for c in self.calls)

    def tt(self) -> tuple[Time, ...]:
        """The transaction times (τt_1, …, τt_n)."""
        return tuple(c.tt for c in self.calls)

    def vt(self) -> tuple[Time, ...]:
        """vt(h) = (τv_1, …, τv_n)."""
        return tuple(c.vt for c in self.calls)

    def with_valid_times(self, vts: Sequence[Time]) -> History:
        """The history with the same calls and transaction times and the given valid times (so ∼vt self)."""
        if len(vts) != len(self.calls):
            raise HistoryError(f"{len(vts)} valid times given for {len(self.calls)} calls")
        return History(tuple(replace(c, vt=v) for c, v in zip(self.calls, vts)))

    def to_json(self) -> dict[str, Any]:
        """``{"format": "coalg-history", "version": 1, "calls": [{"letter", "tt", "vt"}, …]}``."""
        return {"format": "coalg-history", "version": 1, "calls": [c.to_json() for c in self.calls]}

    @classmethod
    def from_json(cls, obj: Any) -> History:
        """Parse what :meth:`to_json` writes; letters are validated by :func:`coalg.model.jsonio.letter_from_json`."""
        if (
            not isinstance(obj, dict)
            or obj.get("format") != "coalg-history"
            or obj.get("version") != 1
        ):
            raise HistoryError("expected a coalg-history document, version 1")
        raw = obj.get("calls")
        if not isinstance(raw, list):
            raise HistoryError("calls: expected a list")
        calls = []
        for k, c in enumerate(raw):
            if not isinstance(c, dict):
                raise HistoryError(f"calls[{k}]: expected an object")
            tt, vt = c.get("tt"), c.get("vt")
            if not _is_time(tt) or not _is_time(vt):
                raise HistoryError(f"calls[{k}]: tt and vt must be integers")
            calls.append(TimedCall(letter_from_json(c.get("letter"), f"calls[{k}].letter"), tt, vt))
        return cls(tuple(calls))


def sim_vt(h: History, h2: History) -> bool:
    """h ∼vt h′: the same calls with the same transaction times (valid times may differ)."""
    return h.letters() == h2.letters() and h.tt() == h2.tt()


def shifted(h: History, by: int = -1) -> History:
    """The history ∼vt h whose every valid time is moved by ``by`` (≠ 0), so vt differs at every call.

    >>> shifted(History.of((Save(Record("x")), 1, 1))).vt()
    (0,)
    """
    if by == 0:
        raise HistoryError("a shift of 0 gives the same history")
    return h.with_valid_times(tuple(v + by for v in h.vt()))


# =========================================================================== the recording map


def channel(realisation: Realisation, a: Letter, tv: Time) -> Letter:
    """κ_R(a, τv): the letter issued for a call with valid time ``tv`` (Def. 3.20 (b)).

    A realisation that declares no valid-time argument receives ``a`` unchanged.
    One that does receives the valid time in the argument it declares: a save's
    record carries it in ``valid_time``; evolve, merge and split carry it in their
    ``valid_time`` field.  Other letters have no valid-time argument.

    >>> channel(CONTEXTFS, Evolve("x", "c"), 7) == Evolve("x", "c")
    True
    """
    if not realisation.declares_valid_time:
        return a
    if isinstance(a, (Save, SaveAt)):
        return replace(a, record=a.record.evolve(valid_time=tv))
    if isinstance(a, (Evolve, Merge, Split)):
        return replace(a, valid_time=tv)
    return a


@dataclass(frozen=True, slots=True)
class RecordedCall:
    """One step of a recording: the call, the letter κ issued, its allocation, the output and the store after."""

    call: TimedCall
    issued: Letter
    allocation: Allocation
    output: Output
    store: Store

    @property
    def created(self) -> bool:
        """The call succeeded and created at least one record."""
        return isinstance(self.output, Created) and len(self.output.items) >= 1

    def to_json(self) -> dict[str, Any]:
        return {
            "call": self.call.to_json(),
            "issued": letter_to_json(self.issued),
            "allocation": {"ids": list(self.allocation.ids), "clock": self.allocation.clock},
            "output": output_to_json(self.output),
            "store": store_to_json(self.store),
        }


@dataclass(frozen=True, slots=True)
class Recording:
    """Ψ_R(h) step by step: every intermediate store, for display and for the proofs."""

    history: History
    realisation: str
    steps: tuple[RecordedCall, ...]

    @property
    def final(self) -> Store:
        """Ψ_R(h)."""
        return self.steps[-1].store if self.steps else EMPTY

    @property
    def in_hist_rec(self) -> bool:
        """h ∈ Hist_rec: every call succeeded and created at least one record."""
        return all(st.created for st in self.steps)


def recording(
    h: History,
    realisation: Realisation = CONTEXTFS,
    *,
    theta: Theta = DEFAULT_THETA,
    supply: Sequence[Id] | None = None,
) -> Recording:
    """Run ``h`` from ∅ on ``realisation``: the recording map with its intermediate stores.

    Call ``k`` is issued as κ_R(a_k, τv_k) with the allocation whose clock is
    ``τt_k`` and whose identifiers come from a fresh :class:`~coalg.model.alphabet.Oracle`
    (``id0001, id0002, …`` skipping every identifier the store mentions, or the
    given ``supply``).  The identifiers drawn depend only on the stores' mentioned
    identifiers, which no valid time touches, so histories with the same calls
    get the same identifiers on every realisation.

    Parameters
    ----------
    h : History
        The calls, with their transaction and valid times.
    realisation : Realisation
        Whose step function records them (default: the ContextFS model).
    theta : Theta
        The undeclared enumeration orders the realisation may consult.
    supply : sequence of str, optional
        A fixed identifier supply instead of ``id0001, id0002, …``.

    Returns
    -------
    Recording
        Every call with the letter κ issued, its allocation, its output and the
        store after it; ``.final`` is Ψ_R(h), ``.in_hist_rec`` says whether h ∈ Hist_rec.

    Examples
    --------
    >>> h = History.of((Save(Record("x")), 4, 0), (Evolve("id0001", "y"), 9, 2))
    >>> [(st.allocation.ids, st.allocation.clock) for st in recording(h).steps]
    [(('id0001',), 4), (('id0002',), 9)]
    """
    oracle = Oracle(ids=supply)
    s = EMPTY
    steps: list[RecordedCall] = []
    for c in h.calls:
        issued = channel(realisation, c.letter, c.vt)
        xi = Allocation(tuple(oracle.fresh_id(s) for _ in range(creates(issued))), c.tt)
        out, s = realisation.step(s, issued, xi, theta=theta)
        steps.append(RecordedCall(c, issued, xi, out, s))
    return Recording(h, realisation.name, tuple(steps))


def record(
    h: History,
    realisation: Realisation = CONTEXTFS,
    *,
    theta: Theta = DEFAULT_THETA,
    supply: Sequence[Id] | None = None,
) -> Store:
    """Ψ_R(h): the store that recording ``h`` on ``realisation`` leaves (Definition 3.20).

    Same parameters as :func:`recording`; returns only the final store.

    >>> h = History.of((Save(Record("x")), 4, 0))
    >>> record(h).records["id0001"].created_at, record(h).records["id0001"].valid_time
    (4, None)
    """
    return recording(h, realisation, theta=theta, supply=supply).final


def in_hist_rec(h: History, realisation: Realisation = CONTEXTFS) -> bool:
    """h ∈ Hist_rec for ``realisation``: every call succeeds and creates ≥ 1 record (Def. 3.20 (a))."""
    return recording(h, realisation).in_hist_rec


_CONTENTS = (
    "meeting at 3pm",
    "meeting at 4pm",
    "budget is 10k",
    "budget is 12k",
    "alice leads",
    "bob leads",
)


def random_history(
    rng: Any,
    n_calls: int,
    *,
    recording_only: bool = True,
    namespaces: Sequence[str] = ("alice", "bob"),
    types: Sequence[str] = ("fact", "decision"),
) -> History:
    """A random history drawn with ``rng`` (a ``random.Random``; deterministic for a seeded one).

    Letters name identifiers by equality, predicting the oracle's supply
    ``id0001, id0002, …``.  With ``recording_only`` every call is a save or a
    derivation of existing records, so the history lies in ``Hist_rec`` on any
    realisation whose creating calls succeed on existing arguments.  Otherwise
    recalls, supersedes and calls naming missing identifiers are mixed in.
    Transaction times grow by 1–3; valid times range around them (late facts
    about the past included).
    """
    existing: dict[Id, str] = {}  # identifier → namespace
    consumed = (
        0  # identifiers the oracle has handed out (a failing creating call consumes them too)
    )
    tt = 0
    calls: list[TimedCall] = []
    for _ in range(n_calls):
        tt += rng.randint(1, 3)
        tv = tt - rng.randint(0, 4)
        choice = rng.random()
        ids_now = sorted(existing)
        by_ns: dict[str, list[Id]] = {}
        for i in ids_now:
            by_ns.setdefault(existing[i], []).append(i)
        mergeable = sorted(ns for ns, xs in by_ns.items() if len(xs) >= 2)
        a: Letter
        fails = False
        ns_new: str | None = None
        if not existing or choice < 0.3:
            ns_new = rng.choice(list(namespaces))
            a = Save(Record(rng.choice(_CONTENTS), type=rng.choice(list(types)), namespace=ns_new))
        elif choice < 0.55:
            a = Evolve(rng.choice(ids_now), rng.choice(_CONTENTS))
        elif choice < 0.7 and mergeable:
            # one namespace per merge: the repaired realisation refuses cross-namespace merges
            pool = by_ns[rng.choice(mergeable)]
            a = Merge(tuple(rng.sample(pool, rng.randint(2, min(3, len(pool))))))
        elif choice < 0.85 or recording_only:
            a = Split(rng.choice(ids_now), tuple(rng.sample(list(_CONTENTS), rng.randint(2, 3))))
        elif choice < 0.9:
            a = Recall(rng.choice(ids_now))
        elif choice < 0.95:
            a = Supersede("gone0001", rng.choice(ids_now))  # names a missing identifier (spec W1)
        else:
            a, fails = Evolve("gone0002", "names nothing that exists"), True
        k = creates(a)
        ids = [f"id{consumed + m + 1:04d}" for m in range(k)]
        consumed += k
        if not fails:
            parent = (
                ns_new if ns_new is not None else existing.get(named(a)[0]) if named(a) else None
            )
            for j in ids:
                existing[j] = parent or namespaces[0]
        calls.append(TimedCall(a, tt, tv))
    return History(tuple(calls))


# =========================================================================== bitemporal observations


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

    >>> from coalg.model.alphabet import Evolve
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
    with the default ``mode="asserted"`` exactly the spec's
    ``{m_s(i) : tt(m_s(i)) ≤ τt, vt(m_s(i)) ≤ τv}`` (Proposition 7.1).  See the
    module docstring for ``mode="current"`` and for records without a valid time.

    Parameters
    ----------
    s : Store
        The store, typically Ψ_R(h).
    tt, tv : int
        The transaction time ("on file at") and the valid time ("about the world at").
    mode : {"asserted", "current"}
        ``"asserted"``: the spec's Obs^vt.  ``"current"``: also drop a record whose
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


def recover_valid_times(s: Store) -> tuple[Time | None, ...]:
    """V: S → T*, the recovery map of Proposition 7.1 (spec §5.11, review note).

    Group the records by ``created_at`` (one group per call: the clock is strictly
    increasing and every record a call creates carries it), order the groups, and
    read one valid time per group.  On the repaired realisation V ∘ Ψ = vt on
    ``Hist_rec``.  On a ContextFS store every entry is ``None``: there is nothing
    to read.  A group whose records disagree raises ``ValueError``.

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
                        "obs_h": _jsonable(a),
                        "obs_h_prime": _jsonable(b),
                    }
    return None


def _jsonable(x: Any) -> Any:
    if isinstance(x, Store):
        return store_to_json(x)
    if isinstance(x, Record):
        return record_to_json(x)
    if isinstance(x, Mapping):
        return {str(k): _jsonable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_jsonable(v) for v in x]
    return x


# =========================================================================== proofs as data


@dataclass(frozen=True, slots=True)
class ProofStep:
    """One named step of a constructive proof: what it shows, why, and the data that shows it."""

    title: str
    explanation: str
    data: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"title": self.title, "explanation": self.explanation, "data": dict(self.data)}


@dataclass(frozen=True, slots=True)
class Proof:
    """A statement and its proof as a sequence of :class:`ProofStep` (the data a proof stepper walks)."""

    item: str
    statement: str
    steps: tuple[ProofStep, ...]
    conclusion: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "item": self.item,
            "statement": self.statement,
            "conclusion": self.conclusion,
            "steps": [s.to_json() for s in self.steps],
        }

    def dumps(self) -> str:
        """Canonical JSON text of the proof."""
        return json.dumps(self.to_json(), sort_keys=True, ensure_ascii=False, indent=1)


def _history_table(h: History, h2: History) -> list[dict[str, Any]]:
    return [
        {
            "k": k + 1,
            "letter": letter_to_json(a.letter),
            "tt": a.tt,
            "vt": a.vt,
            "vt_prime": b.vt,
            "vt_differs": a.vt != b.vt,
        }
        for k, (a, b) in enumerate(zip(h.calls, h2.calls))
    ]


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
    h: History, h_prime: History | None = None, *, realisation: Realisation = CONTEXTFS
) -> Proof:
    """Theorem 5.27 as a constructive witness: for any non-empty ``h``, Ψ(h) = Ψ(h′) with vt(h) ≠ vt(h′).

    ``h_prime`` defaults to :func:`shifted` ``(h)``, every valid time moved back by
    one; any history ∼vt ``h`` with different valid times may be given.  The
    proof's steps carry the two histories, the valid-time channel, the recording
    of each call side by side with the store after it, the equality of the
    results, and the argument that no ``g: S → X`` tells them apart.
    ``conclusion`` is whether every step checked out (it is ``False`` on a
    realisation that does declare a valid-time channel).

    Parameters
    ----------
    h : History
        Any non-empty history.
    h_prime : History, optional
        A history ∼vt ``h`` with different valid times (default ``shifted(h)``).
    realisation : Realisation
        The realisation whose premise is tested (default: the ContextFS model).

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
    >>> from coalg.model.records import Record
    >>> p = theorem_5_27(History.of((Save(Record("r")), 1, 1)))
    >>> [s.title for s in p.steps][:3], p.conclusion
    (['Two histories that differ only in valid time', 'The valid-time channel κ', 'Recording, call by call'], True)
    """
    if not h.calls:
        raise HistoryError("the empty history has no other history with different valid times")
    h2 = shifted(h) if h_prime is None else h_prime
    if not sim_vt(h, h2):
        raise HistoryError("h′ must have the same calls and transaction times as h")
    if h.vt() == h2.vt():
        raise HistoryError("h′ must differ from h in some valid time")
    r1, r2 = recording(h, realisation), recording(h2, realisation)
    s1, s2 = r1.final, r2.final
    issued_same = [a.issued == b.issued for a, b in zip(r1.steps, r2.steps)]
    steps: list[ProofStep] = []
    steps.append(
        ProofStep(
            "Two histories that differ only in valid time",
            "h′ has the same calls and the same transaction times as h (h ∼vt h′), and vt(h) ≠ vt(h′).",
            {
                "h": h.to_json(),
                "h_prime": h2.to_json(),
                "calls": _history_table(h, h2),
                "sim_vt": True,
                "vt_h": list(h.vt()),
                "vt_h_prime": list(h2.vt()),
            },
        )
    )
    steps.append(
        ProofStep(
            "The valid-time channel κ",
            (
                f"Call k is issued as κ(a_k, τv_k).  {realisation.name} declares "
                + (
                    "a valid-time argument, so κ writes τv into the letter."
                    if realisation.declares_valid_time
                    else "no valid-time argument — no API argument and no record field carries valid time — so "
                    "κ(a, τv) = a and the letters issued for h and h′ are identical.  This is the instantiation "
                    "premise of the theorem."
                )
            ),
            {
                "declares_valid_time": realisation.declares_valid_time,
                "issued": [
                    {
                        "k": k + 1,
                        "h": letter_to_json(a.issued),
                        "h_prime": letter_to_json(b.issued),
                        "equal": same,
                    }
                    for k, (a, b, same) in enumerate(zip(r1.steps, r2.steps, issued_same))
                ],
            },
        )
    )
    per_call = []
    for k, (a, b) in enumerate(zip(r1.steps, r2.steps)):
        per_call.append(
            {
                "k": k + 1,
                "tt": a.call.tt,
                "vt": a.call.vt,
                "vt_prime": b.call.vt,
                "allocation": {"ids": list(a.allocation.ids), "clock": a.allocation.clock},
                "same_allocation": a.allocation == b.allocation,
                "output_h": output_to_json(a.output),
                "output_h_prime": output_to_json(b.output),
                "store_h": store_to_json(a.store),
                "store_h_prime": store_to_json(b.store),
                "stores_equal": a.store == b.store,
            }
        )
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
                "in_hist_rec": r1.in_hist_rec and r2.in_hist_rec,
            },
        )
    )
    g_rows = [
        {
            "g": name,
            "g_psi_h": _jsonable(g(s1)),
            "g_psi_h_prime": _jsonable(g(s2)),
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
    rec = r1.in_hist_rec and r2.in_hist_rec
    steps.append(
        ProofStep(
            "Hence L6 fails",
            (
                "h and h′ lie in Hist_rec and are ∼vt-related with Ψ(h) = Ψ(h′), so the realisation does not separate "
                "valid time (strong L6), and every bitemporal observation Obs computed from the store satisfies "
                "Obs(Ψ(h), τt, τv) = Obs(Ψ(h′), τt, τv), so none is non-degenerate on this pair (weak L6, Def. 3.20 (c))."
                if rec
                else "Ψ(h) = Ψ(h′) as for every history; h is not in Hist_rec, so the L6 conclusion uses the pair "
                "((save(r), 1, 1)) and ((save(r), 1, 2)) instead (spec §5.8)."
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


def _repaired() -> Realisation:
    from ..model import REPAIRED

    return REPAIRED


def proposition_7_1(
    h: History, h_prime: History | None = None, *, realisation: Realisation | None = None
) -> Proof:
    """Proposition 7.1 (a) on the repaired realisation, as named steps on the same pair as Theorem 5.27.

    The pair now records different stores; V recovers both valid-time sequences;
    :func:`believed` separates them at some (τt, τv) (non-degeneracy, Def. 3.20 (c));
    and erasing the valid-time field gives back the ContextFS recording, so the
    lineage machinery (edges, ancestry) is unchanged (part (b)).
    """
    real = realisation if realisation is not None else _repaired()
    if not h.calls:
        raise HistoryError("the empty history has no other history with different valid times")
    h2 = shifted(h) if h_prime is None else h_prime
    if not sim_vt(h, h2) or h.vt() == h2.vt():
        raise HistoryError("h′ must be ∼vt h with different valid times")
    r1, r2 = recording(h, real), recording(h2, real)
    s1, s2 = r1.final, r2.final
    rec = r1.in_hist_rec and r2.in_hist_rec
    steps = [
        ProofStep(
            "The same two histories",
            "h ∼vt h′ with vt(h) ≠ vt(h′), now recorded on the repaired realisation.",
            {
                "h": h.to_json(),
                "h_prime": h2.to_json(),
                "calls": _history_table(h, h2),
                "in_hist_rec": rec,
            },
        )
    ]
    steps.append(
        ProofStep(
            "The valid-time channel κ writes τv",
            f"{real.name} declares a valid-time argument, so call k is issued with τv_k in it.",
            {
                "declares_valid_time": real.declares_valid_time,
                "issued": [
                    {"k": k + 1, "h": letter_to_json(a.issued), "h_prime": letter_to_json(b.issued)}
                    for k, (a, b) in enumerate(zip(r1.steps, r2.steps))
                ],
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
    recovered = rec and v1 == h.vt() and v2 == h2.vt()
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

    * ``only_valid_time_differs`` — for ``h′ ∼vt h`` (default :func:`shifted`),
      Ψ_R(h) and Ψ_R(h′) are equal once the valid-time field is erased;
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
    from ..model import ancestry

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


# =========================================================================== Timeline.at (Listing 5)


@dataclass(frozen=True, slots=True)
class VersionEntry:
    """A version of a memory on ContextFS's single time axis (``types/versioned.py:87``, field ``:117``).

    ``timestamp`` is the one time field; it may be naive or timezone-aware, as in
    the code.  ``memory_id`` is the memory the version belongs to (``:115``), the
    field ``VersionedMem.is_consistent`` compares.  [recon] The other fields are
    abridged to what the examples use.
    """

    timestamp: datetime
    content: str
    version_id: str = ""
    reason: str = "observation"
    author: str | None = None
    memory_id: str = ""


def _utc_if_naive(ts: datetime) -> datetime:
    return ts.replace(tzinfo=UTC) if ts.tzinfo is None else ts


class Timeline:
    """ContextFS's ``Timeline`` (``types/versioned.py:175``): entries kept sorted by ``add``.

    ``at`` is Listing 5 line for line.  [recon] ``add`` (lines 218–236) is not in
    the seed; it is reproduced as "insert, keep sorted by timestamp", reading a
    naive timestamp as UTC exactly as ``at`` does (so mixed entries can be sorted);
    an entry with the same timestamp as existing ones goes after them.

    >>> utc = timezone.utc
    >>> tl = Timeline([VersionEntry(datetime(2026, 1, 29, 12, tzinfo=utc), "b"),
    ...                VersionEntry(datetime(2026, 1, 29, 9, tzinfo=utc), "a")])
    >>> [e.content for e in tl.entries]
    ['a', 'b']
    >>> tl.at(datetime(2026, 1, 29, 10, tzinfo=utc)).content
    'a'
    >>> tl.at(datetime(2026, 1, 29, 8)) is None            # naive: read as UTC
    True
    """

    def __init__(self, entries: Iterable[VersionEntry] = ()) -> None:
        self.entries: list[VersionEntry] = []
        for e in entries:
            self.add(e)

    def add(self, entry: VersionEntry) -> None:
        """Insert ``entry`` keeping ``entries`` sorted by timestamp."""
        key = _utc_if_naive(entry.timestamp)
        k = len(self.entries)
        while k > 0 and _utc_if_naive(self.entries[k - 1].timestamp) > key:
            k -= 1
        self.entries.insert(k, entry)

    def at(self, timestamp: datetime) -> VersionEntry | None:
        """Listing 5: the last entry with timestamp ≤ ``timestamp``; naive times are read as UTC."""
        ts = timestamp
        if ts.tzinfo is None:
            ts = ts.replace(tzinfo=timezone.utc)  # noqa: UP017  (Listing 5, verbatim)
        result = None
        for entry in self.entries:
            entry_ts = entry.timestamp
            if entry_ts.tzinfo is None:
                entry_ts = entry_ts.replace(tzinfo=timezone.utc)  # noqa: UP017
            if entry_ts <= ts:
                result = entry
            else:
                break
        return result

    @classmethod
    def stored(cls, entries: Iterable[VersionEntry]) -> Timeline:
        """A timeline whose entries are kept in the order given, as a persisted list is read back raw.

        ``add`` sorts; a timeline loaded from storage, or written by a mapping, need not be sorted —
        which is what the monotone-timestamps clause of :meth:`is_consistent` checks.
        """
        tl = cls()
        tl.entries = list(entries)
        return tl

    def is_consistent(self, memory_id: str) -> bool:
        """``VersionedMem.is_consistent`` (``types/versioned.py:576–609``) for the memory ``memory_id``.

        In list order: every entry's ``memory_id`` is ``memory_id``, timestamps never
        decrease (compared raw, as the code does: mixing naive and aware timestamps
        raises ``TypeError`` there and here), and no ``version_id`` repeats.  An empty
        timeline is consistent.

        >>> utc = timezone.utc
        >>> a = VersionEntry(datetime(2026, 1, 29, 9, tzinfo=utc), "a", version_id="v1", memory_id="m")
        >>> b = VersionEntry(datetime(2026, 1, 29, 8, tzinfo=utc), "b", version_id="v2", memory_id="m")
        >>> Timeline.stored([a, b]).is_consistent("m"), Timeline([a, b]).is_consistent("m")
        (False, True)
        >>> Timeline([a]).is_consistent("other")
        False
        """
        seen: set[str] = set()
        prev: datetime | None = None
        for entry in self.entries:
            if entry.memory_id != memory_id:
                return False
            if prev is not None and entry.timestamp < prev:
                return False
            prev = entry.timestamp
            if entry.version_id in seen:
                return False
            seen.add(entry.version_id)
        return True

    def __len__(self) -> int:
        return len(self.entries)

    def __repr__(self) -> str:
        return f"Timeline({self.entries!r})"


EPOCH = datetime(2026, 1, 29, 12, 0, tzinfo=UTC)
"""The instant clock reading 0 stands for when stores are shown on a datetime axis (a93035d's commit day)."""


def clock_to_datetime(
    t: Time, *, epoch: datetime = EPOCH, unit: timedelta = timedelta(hours=1)
) -> datetime:
    """A clock reading as a UTC-aware datetime: ``epoch + t·unit``.

    >>> clock_to_datetime(3).isoformat()
    '2026-01-29T15:00:00+00:00'
    """
    return epoch + t * unit


def timeline_of(
    s: Store, root: Id, *, epoch: datetime = EPOCH, unit: timedelta = timedelta(hours=1)
) -> Timeline:
    """The single-axis timeline of ``root`` and everything evolved from it, stamped with ``created_at``.

    This is what ``VersionedMem.from_lineage`` derives from lineage history: one
    entry per version, on the only axis the store has.
    """
    seen, todo, order = {root}, [root], []
    while todo:
        x = todo.pop()
        order.append(x)
        for e in s.out_edges(x, DESCENDANT):
            if e.target not in seen:
                seen.add(e.target)
                todo.append(e.target)
    tl = Timeline()
    for i in sorted(order):
        r = s.records.get(i)
        if r is not None and r.created_at is not None:
            tl.add(
                VersionEntry(
                    clock_to_datetime(r.created_at, epoch=epoch, unit=unit), r.content, version_id=i
                )
            )
    return tl


CST = timezone(timedelta(hours=-6), "UTC-06:00")
"""The zone of a93035d's commit (−0600), given explicitly so that results never depend on the machine."""


@dataclass(frozen=True, slots=True)
class TimezonePitfall:
    """The naive-timestamp pitfall of ``Timeline.at``: the answer it gives and the right one.

    ``Memory.created_at`` is a *naive local* ``datetime.now()``; lineage timestamps
    are UTC-aware.  ``Timeline.at`` reads every naive time as UTC, so in a zone
    that is not UTC a record's version moves by the zone's offset.
    """

    local_zone: str
    created_naive: datetime
    created_true_utc: datetime
    evolved_utc: datetime
    query: datetime
    timeline_answer: str | None
    correct_answer: str | None

    @property
    def wrong(self) -> bool:
        return self.timeline_answer != self.correct_answer

    def to_json(self) -> dict[str, Any]:
        return {
            "local_zone": self.local_zone,
            "created_naive": self.created_naive.isoformat(),
            "created_true_utc": self.created_true_utc.isoformat(),
            "evolved_utc": self.evolved_utc.isoformat(),
            "query": self.query.isoformat(),
            "timeline_answer": self.timeline_answer,
            "correct_answer": self.correct_answer,
            "wrong": self.wrong,
        }


def naive_timezone_pitfall(local_zone: tzinfo = CST) -> TimezonePitfall:
    """A concrete case where treating naive ``created_at`` as UTC gives the wrong ``Timeline.at`` answer.

    A memory is saved at 10:00 local time (naive, as ``Memory.created_at`` stores
    it) and evolved two hours later (UTC-aware, as lineage metadata stores it).
    ``Timeline.at`` reads the naive time as 10:00 UTC, which is off by the zone's
    offset.  The query is the instant halfway between the true creation and the
    misread one.  West of Greenwich (the default, UTC−6) ``at`` returns the
    version although it did not exist yet; east of it ``at`` returns ``None``
    although the version existed.  The correct answer localises the naive time in
    the *given* zone.  In UTC the two agree.

    >>> p = naive_timezone_pitfall()
    >>> p.query.isoformat(), p.timeline_answer, p.correct_answer, p.wrong
    ('2026-01-29T13:00:00+00:00', 'v1: meeting at 3pm', None, True)
    >>> east = naive_timezone_pitfall(timezone(timedelta(hours=2)))
    >>> east.timeline_answer, east.correct_answer
    (None, 'v1: meeting at 3pm')
    >>> naive_timezone_pitfall(timezone.utc).wrong
    False
    """
    created_naive = datetime(2026, 1, 29, 10, 0)  # naive local wall-clock time
    created_true = created_naive.replace(tzinfo=local_zone).astimezone(UTC)
    misread = created_naive.replace(tzinfo=UTC)
    evolved = created_true + timedelta(hours=2)
    query = min(created_true, misread) + abs(created_true - misread) / 2
    v1 = VersionEntry(created_naive, "v1: meeting at 3pm", version_id="v1")
    v2 = VersionEntry(evolved, "v2: meeting moved to 4pm", version_id="v2", reason="observation")
    tl = Timeline([v1, v2])
    got = tl.at(query)
    fixed = Timeline([replace(v1, timestamp=created_true), v2]).at(query)
    name = local_zone.tzname(None) or str(local_zone)
    return TimezonePitfall(
        name,
        created_naive,
        created_true,
        evolved,
        query,
        None if got is None else got.content,
        None if fixed is None else fixed.content,
    )


# =========================================================================== the book's example


def meeting_example() -> tuple[History, History]:
    """Two histories ∼vt that a single-axis log conflates (paper §2.3).

    At τt = 1 the system records "meeting at 3pm", valid from 1.  At τt = 5 it
    records the evolved version "meeting at 4pm".  In ``h`` that is a fact about
    the present that has just changed (valid from 5).  In ``h′`` it is a fact
    about the past learned late (the meeting had been moved at 2).
    """
    from ..model import Evolve

    h = History.of(
        (Save(Record("meeting at 3pm", namespace="alice")), 1, 1),
        (Evolve("id0001", "meeting at 4pm"), 5, 5),
    )
    return h, h.with_valid_times((1, 2))


def contrast_example(realisation: Realisation | None = None) -> dict[str, Any]:
    """The single-axis ``Timeline.at`` next to the bitemporal query, on :func:`meeting_example`.

    On ContextFS the two histories record one store, so its timeline and every
    query agree.  On the repaired realisation (default) ``believed`` at
    ``(τt, τv) = (5, 3)`` answers "4pm" for the late-learned fact and "3pm" for
    the fresh change, while at ``τt = 4`` both still believe "3pm".
    """
    real = realisation if realisation is not None else _repaired()
    h, h2 = meeting_example()
    out: dict[str, Any] = {"h": h.to_json(), "h_prime": h2.to_json()}
    for name, rz in (("contextfs", CONTEXTFS), ("repaired", real)):
        s1, s2 = record(h, rz), record(h2, rz)
        tl1, tl2 = timeline_of(s1, "id0001"), timeline_of(s2, "id0001")
        queries = [(4, 3), (5, 3), (5, 1), (5, 5)]
        out[name] = {
            "stores_equal": s1 == s2,
            "timeline_h": [[e.timestamp.isoformat(), e.content] for e in tl1.entries],
            "timeline_h_prime": [[e.timestamp.isoformat(), e.content] for e in tl2.entries],
            "timeline_at_tt3": [
                _content(tl1.at(clock_to_datetime(3))),
                _content(tl2.at(clock_to_datetime(3))),
            ],
            "believed_current": [
                {
                    "tt": tt,
                    "tv": tv,
                    "h": [r.content for r in believed(s1, tt, tv, mode="current").values()],
                    "h_prime": [r.content for r in believed(s2, tt, tv, mode="current").values()],
                }
                for tt, tv in queries
            ],
        }
    return out


def _content(e: VersionEntry | None) -> str | None:
    return None if e is None else e.content


# =========================================================================== registered items


def _random_histories(
    n: int, seed: int, *, recording_only: bool, max_len: int = 6
) -> list[History]:
    import random

    rng = random.Random(seed)
    return [
        random_history(rng, rng.randint(1, max_len), recording_only=recording_only)
        for _ in range(n)
    ]


def _minimal_pair() -> tuple[History, History]:
    r = Record("r")
    return History.of((Save(r), 1, 1)), History.of((Save(r), 1, 2))


@paper_item("5.27", "Valid time is unrecoverable", kind="property", nature="theorem")
def check_5_27() -> Verdict:
    """Theorem 5.27 on the ContextFS model: Ψ(h) = Ψ(h′) for h ∼vt h′, over random histories.

    A theorem about the model applied to an instantiation premise (ContextFS
    declares no valid-time channel): explored over random histories, recording
    and not, each against a shifted and a reversed re-timing.
    """
    hs = _random_histories(150, 527, recording_only=False)
    explored, failure = 0, None
    for h in hs:
        for h2 in (shifted(h, -1), shifted(h, 3), h.with_valid_times(tuple(reversed(h.vt())))):
            explored += 1
            if record(h) != record(h2):
                failure = (h, h2)
                break
        if failure:
            break
    h, h2 = _minimal_pair()
    proof = theorem_5_27(h, h2)
    holds = failure is None and proof.conclusion
    witness: dict[str, Any] = {
        "h": h.to_json(),
        "h_prime": h2.to_json(),
        "psi_h": store_to_json(record(h)),
        "psi_h_prime": store_to_json(record(h2)),
        "equal": record(h) == record(h2),
        "in_hist_rec": in_hist_rec(h) and in_hist_rec(h2),
    }
    if failure:
        witness["failure"] = {"h": failure[0].to_json(), "h_prime": failure[1].to_json()}
    return Verdict(
        "5.27",
        "property",
        holds,
        explored,
        witness,
        "Theorem 5.27 (a theorem about the model applied to the instantiation premise that ContextFS declares "
        f"no valid-time channel): Ψ(h) = Ψ(h′) on all {explored} explored pairs h ∼vt h′; the pair "
        "((save(r),1,1)) / ((save(r),1,2)) lies in Hist_rec, so no V has V∘Ψ = vt and L6 fails.",
        {"proof": proof.to_json()},
    )


@paper_item("7.1", "Bitemporal repair", kind="property", nature="theorem")
def check_7_1() -> Verdict:
    """Proposition 7.1 on the repaired realisation: V∘Ψ = vt on Hist_rec, Obs^vt non-degenerate, lineage unchanged."""
    real = _repaired()
    hs = _random_histories(120, 71, recording_only=True)
    ok, checked, bad = separates_on(real, hs)
    lin = [lineage_unchanged(x, real) for x in hs]
    unchanged = all(all(d.values()) for d in lin)
    h, h2 = _minimal_pair()
    wit = non_degeneracy_witness(believed, real, [(h, h2)])
    mh, mh2 = meeting_example()
    proof = proposition_7_1(mh, mh2, realisation=real)
    holds = ok and unchanged and wit is not None and proof.conclusion
    witness: dict[str, Any] = {"non_degeneracy": wit, "example": proof.to_json()}
    if not unchanged:
        k = next(n for n, d in enumerate(lin) if not all(d.values()))
        witness["part_b_failure"] = {"h": hs[k].to_json(), "checks": lin[k]}
    if bad is not None:
        witness["separation_failure"] = bad.to_json()
    return Verdict(
        "7.1",
        "property",
        holds,
        checked,
        witness,
        f"Proposition 7.1 (first kind): on '{real.name}', V∘Ψ = vt on all {checked} explored histories of "
        "Hist_rec; believed(Ψ(h),1,1) ≠ believed(Ψ(h′),1,1) for h = ((save(r),1,1)), h′ = ((save(r),1,2)); "
        + (
            "the valid time changes nothing but its field, the lineage graph is ContextFS's, and ancestry is "
            "stable along every recording (part (b))."
            if unchanged
            else "but part (b) FAILS on some history (see details)."
        ),
    )


@paper_item(
    "3.20", "Histories, recording map, bitemporal observation", kind="property", nature="definition"
)
def check_3_20() -> Verdict:
    """Definition 3.20 with the review's amendments, each amendment checked on its witness.

    * Ψ is a function: recording a history twice gives equal stores;
    * (a) over all of Hist no realisation separates valid time — a recall pair
      records equal stores on both realisations — hence the restriction to Hist_rec;
    * (b) κ is the identity on ContextFS and writes τv on the repaired realisation;
    * (c) Obs(s, τt, τv) = τv is non-constant in τv yet degenerate; ``believed`` is
      degenerate on ContextFS and non-degenerate on the repaired realisation.
    """
    real = _repaired()
    hs = _random_histories(40, 320, recording_only=False)
    function_ok = all(record(h, rz) == record(h, rz) for h in hs for rz in (CONTEXTFS, real))
    from ..model import Evolve

    base = History.of((Save(Record("r")), 1, 1))
    rh = History(base.calls + (TimedCall(Recall("id0001"), 2, 1),))
    rh2 = History(base.calls + (TimedCall(Recall("id0001"), 2, 2),))
    a_ok = all(
        record(rh, rz) == record(rh2, rz) and rh.vt() != rh2.vt() for rz in (CONTEXTFS, real)
    )
    a_outside = not in_hist_rec(rh, real)
    ev = Evolve("id0001", "c")
    b_ok = channel(CONTEXTFS, ev, 7) == ev and channel(real, ev, 7) == replace(ev, valid_time=7)
    h, h2 = _minimal_pair()

    def obs_tv(s: Store, tt: Time, tv: Time) -> Time:
        return tv

    c_tv_nonconstant = obs_tv(EMPTY, 0, 1) != obs_tv(EMPTY, 0, 2)
    c_tv_degenerate = non_degeneracy_witness(obs_tv, real, [(h, h2)]) is None
    pairs = [(x, shifted(x)) for x in _random_histories(40, 321, recording_only=True)] + [(h, h2)]
    c_cfs_degenerate = non_degeneracy_witness(believed, CONTEXTFS, pairs) is None
    c_rep = non_degeneracy_witness(believed, real, [(h, h2)])
    checks = {
        "psi_is_a_function": function_ok,
        "a_no_separation_over_all_of_Hist": a_ok and a_outside,
        "b_channel": b_ok,
        "c_obs_tau_v_nonconstant_but_degenerate": c_tv_nonconstant and c_tv_degenerate,
        "c_believed_degenerate_on_contextfs": c_cfs_degenerate,
        "c_believed_nondegenerate_on_repaired": c_rep is not None,
    }
    return Verdict(
        "3.20",
        "property",
        all(checks.values()),
        len(hs) * 2 + len(pairs),
        {
            "checks": checks,
            "recall_pair": {
                "h": rh.to_json(),
                "h_prime": rh2.to_json(),
                "psi_h": store_to_json(record(rh, real)),
                "equal_on_every_realisation": a_ok,
            },
            "non_degeneracy_on_repaired": c_rep,
        },
        "Definition 3.20 as amended: Ψ is a function; separation must be restricted to Hist_rec (a recall pair "
        "records equal stores everywhere); κ is the identity on ContextFS; Obs = τv is non-constant yet "
        "degenerate; believed is degenerate on ContextFS and non-degenerate on the repaired realisation.",
    )
