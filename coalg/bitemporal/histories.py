"""Bitemporal histories (paper §3.5, Definition 3.20): calls stamped with two times.

The temporal-database vocabulary (paper §2.3): *valid time* τv is when a fact
holds in the world, *transaction time* τt is when the system recorded it.  A
:class:`History` is a finite sequence of calls ``(a_k, τt_k, τv_k)`` with
strictly increasing transaction times; ``h ∼vt h′`` (:func:`sim_vt`) means the
same calls at the same transaction times, valid times free to differ.  The pairs
Theorem 5.27 and Proposition 7.1 are about are ∼vt pairs (:func:`shifted`), and
:func:`random_history` draws the histories their checks explore.

>>> from coalg.model import Save
>>> h = History.of((Save(Record("meeting at 3pm")), 1, 1), (Save(Record("meeting at 4pm")), 5, 2))
>>> h.vt(), h.tt()
((1, 2), (1, 5))
>>> sim_vt(h, h.with_valid_times((1, 5)))
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeGuard

from ..errors import CoalgError
from ..model import Id, Letter, Record, Time, creates, letter_from_json, letter_to_json, named
from ..model import alphabet as A

__all__ = ["HistoryError", "TimedCall", "History", "sim_vt", "shifted", "random_history"]


class HistoryError(CoalgError, ValueError):
    """A history that is not well formed (times not strictly increasing, a letter that carries a valid time)."""


@dataclass(frozen=True, slots=True)
class TimedCall:
    """One call ``(a_k, τt_k, τv_k)`` of a bitemporal history."""

    letter: Letter
    tt: Time
    vt: Time

    def to_json(self) -> dict[str, Any]:
        return {"letter": letter_to_json(self.letter), "tt": self.tt, "vt": self.vt}


def _carries_valid_time(a: Letter) -> bool:
    if isinstance(a, (A.Save, A.SaveAt)):
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

    >>> from coalg.model import Save
    >>> History.of((Save(Record("x")), 2, 0), (Save(Record("y")), 2, 0))
    Traceback (most recent call last):
    ...
    coalg.bitemporal.histories.HistoryError: transaction times must be strictly increasing: call 1 has τt = 2 after τt = 2
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
        """Parse what :meth:`to_json` writes; letters are validated by :func:`coalg.model.jsonletters.letter_from_json`."""
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

    >>> from coalg.model import Save
    >>> shifted(History.of((Save(Record("x")), 1, 1))).vt()
    (0,)
    """
    if by == 0:
        raise HistoryError("a shift of 0 gives the same history")
    return h.with_valid_times(tuple(v + by for v in h.vt()))


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
            a = A.Save(Record(rng.choice(_CONTENTS), type=rng.choice(list(types)), namespace=ns_new))
        elif choice < 0.55:
            a = A.Evolve(rng.choice(ids_now), rng.choice(_CONTENTS))
        elif choice < 0.7 and mergeable:
            # one namespace per merge: the repaired realisation refuses cross-namespace merges
            pool = by_ns[rng.choice(mergeable)]
            a = A.Merge(tuple(rng.sample(pool, rng.randint(2, min(3, len(pool))))))
        elif choice < 0.85 or recording_only:
            a = A.Split(rng.choice(ids_now), tuple(rng.sample(list(_CONTENTS), rng.randint(2, 3))))
        elif choice < 0.9:
            a = A.Recall(rng.choice(ids_now))
        elif choice < 0.95:
            a = A.Supersede("gone0001", rng.choice(ids_now))  # names a missing identifier (Prop. 5.30)
        else:
            a, fails = A.Evolve("gone0002", "names nothing that exists"), True
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
