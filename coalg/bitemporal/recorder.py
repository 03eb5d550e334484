"""The recording map Ψ_R and the valid-time channel κ_R (paper §3.5, Definition 3.20 (a)–(b)).

:func:`record` is Ψ_R: a left fold of the realisation's step function from the
empty store, call ``k`` stamped with clock ``τt_k`` and fed identifiers from a
fixed deterministic supply.  The valid time reaches the realisation only through
its *valid-time channel* κ_R (:func:`channel`): a realisation that declares none
(ContextFS) receives the bare letter.  ``Hist_rec`` (:func:`in_hist_rec`) are the
histories whose every call succeeds and creates a record.  :func:`recording`
keeps every intermediate store, which is what the proofs and the explorers show.

A ``realisation`` argument left at ``None`` means the ContextFS model
(:data:`coalg.model.CONTEXTFS`).

>>> from coalg.model import Record, Save
>>> h = History.of((Save(Record("meeting at 3pm")), 1, 1), (Save(Record("meeting at 4pm")), 5, 2))
>>> record(h) == record(h.with_valid_times((1, 5)))       # ContextFS: Ψ forgets valid time
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from ..model import (
    CONTEXTFS,
    DEFAULT_THETA,
    EMPTY,
    Allocation,
    Created,
    Id,
    Letter,
    Oracle,
    Output,
    Realisation,
    Store,
    Theta,
    Time,
    creates,
    letter_to_json,
    output_to_json,
    store_to_json,
)
from ..model import alphabet as A
from .histories import History, TimedCall

__all__ = ["channel", "RecordedCall", "Recording", "recording", "record", "in_hist_rec"]


def channel(realisation: Realisation, a: Letter, tv: Time) -> Letter:
    """κ_R(a, τv): the letter issued for a call with valid time ``tv`` (Def. 3.20 (b)).

    A realisation that declares no valid-time argument receives ``a`` unchanged.
    One that does receives the valid time in the argument it declares: a save's
    record carries it in ``valid_time``; evolve, merge and split carry it in their
    ``valid_time`` field.  Other letters have no valid-time argument.

    >>> from coalg.model import Evolve
    >>> channel(CONTEXTFS, Evolve("x", "c"), 7) == Evolve("x", "c")
    True
    """
    if not realisation.declares_valid_time:
        return a
    if isinstance(a, (A.Save, A.SaveAt)):
        return replace(a, record=a.record.evolve(valid_time=tv))
    if isinstance(a, (A.Evolve, A.Merge, A.Split)):
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
    realisation: Realisation | None = None,
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
    realisation : Realisation, optional
        Whose step function records them (default ``None``: the ContextFS model).
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
    >>> from coalg.model import Evolve, Record, Save
    >>> h = History.of((Save(Record("x")), 4, 0), (Evolve("id0001", "y"), 9, 2))
    >>> [(st.allocation.ids, st.allocation.clock) for st in recording(h).steps]
    [(('id0001',), 4), (('id0002',), 9)]
    """
    real = CONTEXTFS if realisation is None else realisation
    oracle = Oracle(ids=supply)
    s = EMPTY
    steps: list[RecordedCall] = []
    for c in h.calls:
        issued = channel(real, c.letter, c.vt)
        xi = Allocation(tuple(oracle.fresh_id(s) for _ in range(creates(issued))), c.tt)
        out, s = real.step(s, issued, xi, theta=theta)
        steps.append(RecordedCall(c, issued, xi, out, s))
    return Recording(h, real.name, tuple(steps))


def record(
    h: History,
    realisation: Realisation | None = None,
    *,
    theta: Theta = DEFAULT_THETA,
    supply: Sequence[Id] | None = None,
) -> Store:
    """Ψ_R(h): the store that recording ``h`` on ``realisation`` leaves (Definition 3.20).

    Same parameters as :func:`recording` (``realisation=None`` is the ContextFS
    model); returns only the final store.

    >>> from coalg.model import Record, Save
    >>> h = History.of((Save(Record("x")), 4, 0))
    >>> record(h).records["id0001"].created_at, record(h).records["id0001"].valid_time
    (4, None)
    """
    return recording(h, realisation, theta=theta, supply=supply).final


def in_hist_rec(h: History, realisation: Realisation | None = None) -> bool:
    """h ∈ Hist_rec for ``realisation``: every call succeeds and creates ≥ 1 record (Def. 3.20 (a)).

    ``realisation=None`` is the ContextFS model.
    """
    return recording(h, realisation).in_hist_rec
