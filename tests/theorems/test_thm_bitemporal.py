"""Valid time, tested from the definitions: Theorem 5.27 and Proposition 7.1.

Theorem 5.27 on the model is true by construction: the ContextFS model has no
valid-time channel, so Ψ never sees a valid time.  What these tests check is
what is not by construction -- that Ψ forgets *only* the valid time: moving one
transaction time, or changing the content of one call, changes Ψ(h).  For
Proposition 7.1 the recording map is re-implemented here (a fold of the
realisation's step with its valid-time channel) and the valid times are read
back by grouping records by their transaction time.
"""

from __future__ import annotations

import random
from dataclasses import replace

from hypothesis import assume, given
from hypothesis import strategies as st
from thm_reference import occ
from thm_strategies import PROPERTY

from coalg.bitemporal import History, record
from coalg.bitemporal.histories import TimedCall, random_history
from coalg.model import (
    CONTEXTFS,
    EMPTY,
    REPAIRED,
    Allocation,
    Created,
    Evolve,
    Letter,
    Merge,
    Realisation,
    Record,
    Save,
    Split,
    Store,
    creates,
)


@st.composite
def recording_histories(draw: st.DrawFn, max_len: int = 5) -> History:
    """Histories of saves and derivations of existing records (Hist_rec on the ContextFS model)."""
    rng = random.Random(draw(st.integers(0, 10**6)))
    return random_history(rng, draw(st.integers(1, max_len)), recording_only=True)


def _retimed(h: History, k: int) -> History:
    """``h`` with the transaction time of call ``k`` (and every later one) moved one tick later."""
    return History(tuple(replace(c, tt=c.tt + 1) if n >= k else c for n, c in enumerate(h.calls)))


def _recontented(h: History, k: int) -> History | None:
    """``h`` with call ``k``'s content changed (``None`` if the call carries none to change)."""
    c = h.calls[k]
    a = c.letter
    new: Letter
    if isinstance(a, Save):
        new = Save(a.record.with_content(a.record.content + " (changed)"))
    elif isinstance(a, Evolve):
        new = replace(a, content=a.content + " (changed)")
    elif isinstance(a, Split):
        new = replace(a, contents=(a.contents[0] + " (changed)",) + a.contents[1:])
    else:
        return None
    return History(h.calls[:k] + (TimedCall(new, c.tt, c.vt),) + h.calls[k + 1:])


@PROPERTY
@given(h=recording_histories(), data=st.data())
def test_5_27_psi_identifies_histories_that_differ_only_in_valid_time(h: History, data: st.DataObject) -> None:
    vts = tuple(data.draw(st.lists(st.integers(-50, 50), min_size=len(h), max_size=len(h))))
    assert record(h) == record(h.with_valid_times(vts))  # by construction on the model


@PROPERTY
@given(h=recording_histories(), data=st.data())
def test_5_27_psi_keeps_every_transaction_time(h: History, data: st.DataObject) -> None:
    k = data.draw(st.integers(0, len(h) - 1))
    assert record(_retimed(h, k)) != record(h)


@PROPERTY
@given(h=recording_histories(), data=st.data())
def test_5_27_psi_keeps_what_each_call_says(h: History, data: st.DataObject) -> None:
    k = data.draw(st.integers(0, len(h) - 1))
    h2 = _recontented(h, k)
    assume(h2 is not None)
    assert record(h2) != record(h)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- Proposition 7.1


def _channel(real: Realisation, a: Letter, tv: int) -> Letter:
    """κ_R: ContextFS takes the bare letter; the repaired realisation takes the valid time as an argument."""
    if real is CONTEXTFS:
        return a
    if isinstance(a, Save):
        return Save(replace(a.record, valid_time=tv))
    if isinstance(a, (Evolve, Merge, Split)):
        return replace(a, valid_time=tv)
    return a


def _valid_times(s: Store) -> tuple[int | None, ...]:
    """V: the records grouped by transaction time, one valid time read per group, in transaction-time order."""
    groups: dict[int, set[int | None]] = {}
    for r in s.records.values():
        assert r.created_at is not None
        groups.setdefault(r.created_at, set()).add(r.valid_time)
    assert all(len(v) == 1 for v in groups.values())  # one call, one valid time
    return tuple(next(iter(groups[t])) for t in sorted(groups))


@PROPERTY
@given(h=recording_histories(), data=st.data())
def test_7_1_a_valid_time_is_recovered_on_the_repaired_realisation(h: History, data: st.DataObject) -> None:
    h = h.with_valid_times(tuple(data.draw(st.lists(st.integers(-50, 50), min_size=len(h), max_size=len(h)))))
    s, made = _psi(REPAIRED, h)
    assume(made)  # in Hist_rec for the repaired realisation (it refuses cross-namespace merges)
    assert _valid_times(s) == h.vt()  # V ∘ Ψ = vt


def test_7_1_a_the_observation_is_not_degenerate() -> None:
    r = Record("r")
    h, h2 = History.of((Save(r), 1, 1)), History.of((Save(r), 1, 2))

    def obs(s: Store, tt: int, tv: int) -> set[str]:
        return {i for i, x in s.records.items() if x.created_at is not None and x.created_at <= tt
                and x.valid_time is not None and x.valid_time <= tv}

    s, s2 = _psi(REPAIRED, h)[0], _psi(REPAIRED, h2)[0]
    assert obs(s, 1, 1) != obs(s2, 1, 1)
    c, c2 = _psi(CONTEXTFS, h)[0], _psi(CONTEXTFS, h2)[0]
    assert c == c2  # and on ContextFS the two recordings are one store


@PROPERTY
@given(h=recording_histories())
def test_7_1_b_the_lineage_machinery_is_unchanged(h: History) -> None:
    rep, made = _psi(REPAIRED, h)
    cfs, made_c = _psi(CONTEXTFS, h)
    assume(made and made_c)
    assert rep.edges == cfs.edges and rep.dom() == cfs.dom()


def _psi(real: Realisation, h: History) -> tuple[Store, bool]:
    """Ψ_R(h), and whether every call created a record (h ∈ Hist_rec for R).

    A left fold of R's step from ∅; call k is stamped τt_k and fed identifiers
    ``id0001, id0002, …`` (those the random histories name), skipping occ(s).
    """
    s, made, n = EMPTY, True, 0
    for c in h.calls:
        a = _channel(real, c.letter, c.vt)
        taken, ids = occ(s), []
        while len(ids) < creates(a):
            n += 1
            j = f"id{n:04d}"
            if j not in taken:
                ids.append(j)
        out, s = real.step(s, a, Allocation(tuple(ids), c.tt))
        made = made and isinstance(out, Created)
    return s, made
