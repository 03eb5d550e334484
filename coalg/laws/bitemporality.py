"""Bitemporality: law L6 (Def. 3.21), checked as separation on recording histories.

The strong form of Def. 3.20 (a).  That ContextFS fails it for any history is
Theorem 5.27 (:mod:`coalg.bitemporal`).

Pairs h ∼vt h′ from ∅ whose valid times reach the realisation through the
letters' valid-time argument (the channel κ, :func:`kappa`) are compared by the
stores they record (Ψ): two histories that differ only in valid time yet record
the same store refute separation.  Its cases are histories, not transitions, so
L6 brings its own search (:func:`search_L6`), over exact stores: a case is a whole
history, not a step, so two words that reach stores equal up to renaming are not
interchangeable here and the reduction of :mod:`coalg.laws.exploration` is off.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from itertools import product
from typing import Any

from ..model import (
    DEFAULT_THETA,
    EMPTY,
    Call,
    Created,
    Evolve,
    Letter,
    Merge,
    Realisation,
    Save,
    Split,
    Store,
    call_to_json,
    store_to_json,
    theta_to_json,
)
from ..paper import Verdict
from .clause import Clause, checker
from .display import show_call
from .exploration import explore
from .search import MINIMAL
from .seeds import SEEDS, allocate, recording_alphabet

__all__ = ["L6", "TIMES", "check_L6", "kappa", "search_L6"]

TIMES = (1, 2)
"""The valid times assigned to the calls of a history."""

RANDOM_HISTORY_LENGTH = 5
"""Calls per random history."""


def kappa(a: Letter, tv: int) -> Letter:
    """κ: the valid time written into the letter's valid-time argument (a save: its record's)."""
    if isinstance(a, Save):
        return replace(a, record=a.record.evolve(valid_time=tv))
    if isinstance(a, (Evolve, Merge, Split)):
        return replace(a, valid_time=tv)
    return a


def _psi(realisation: Realisation, calls: Sequence[Call], vts: Sequence[int]) -> tuple[Store, bool]:
    """Ψ(h) for the history with these calls (clock = transaction time) and valid times; and h ∈ Hist_rec."""
    s, rec = EMPTY, True
    for c, tv in zip(calls, vts):
        out, s = realisation.step(s, kappa(c.letter, tv), c.allocation)
        rec = rec and isinstance(out, Created) and len(out.items) >= 1
    return s, rec


def _history_json(calls: Sequence[Call], vts: Sequence[int]) -> list[dict[str, Any]]:
    return [{"call": call_to_json(replace(c, letter=kappa(c.letter, tv))), "tt": c.allocation.clock, "vt": tv}
            for c, tv in zip(calls, vts)]


_READING = ("recording histories from ∅ (every call a save or derivation that succeeds), valid times from "
            f"{list(TIMES)}, transaction time = the allocation's clock; valid time reaches the realisation "
            "only through the letters' valid_time argument (κ)")
_HOLDS = "no two histories h ∼vt h′ with different valid times recorded the same store ({n} histories)"

_Found = tuple[Sequence[Call], Sequence[int], Sequence[int], Store, str]


def _exhaustive(realisation: Realisation, max_len: int) -> tuple[_Found | None, int, int, int]:
    """The first separation failure breadth first, the histories recorded, the depth done and the words tried.

    A history one of whose calls is refused with its valid time is not recorded and not counted.
    """
    ex = explore(realisation, "recording", max_len=max_len, seeds=SEEDS[:1], reduce=False)
    explored = words = 0
    for k in range(1, max_len + 1):
        for node in ex.nodes(k):
            words += 1
            seen: dict[Store, tuple[int, ...]] = {}
            for vts in product(TIMES, repeat=k):
                store, rec = _psi(realisation, node.calls, vts)
                if not rec:  # a call refused its valid time: not a recording history
                    continue
                explored += 1
                if store in seen:
                    return (node.calls, seen[store], vts, store, MINIMAL), explored, k - 1, words
                seen[store] = vts
    return None, explored, max_len, words


def _random(realisation: Realisation, runs: int, seed: int) -> tuple[_Found | None, int]:
    rng = random.Random(seed)
    explored = 0
    for _ in range(runs):
        calls: list[Call] = []
        s = EMPTY
        for k in range(RANDOM_HISTORY_LENGTH):
            a = rng.choice(recording_alphabet(s))
            call = Call(a, allocate(s, a, k + 1))
            out, s = realisation.step(s, a, call.allocation)
            if isinstance(out, Created):
                calls.append(call)
        vts = tuple(rng.choice(TIMES) for _ in calls)
        other = tuple(TIMES[(TIMES.index(v) + 1) % len(TIMES)] if m == 0 else v for m, v in enumerate(vts))
        if not calls or other == vts:
            continue
        s1, r1 = _psi(realisation, calls, vts)
        s2, r2 = _psi(realisation, calls, other)
        explored += r1 + r2
        if r1 and r2 and s1 == s2:
            return (calls, vts, other, s1, "found by seeded random exploration"), explored
    return None, explored


def search_L6(realisation: Realisation, max_len: int, random_runs: int, random_seed: int) -> Verdict:
    """L6 on ``realisation``: every recording history up to ``max_len`` calls, then seeded random histories."""
    found, explored, depth, tried = _exhaustive(realisation, max_len)
    walks = 0
    if found is None and random_runs > 0:
        walks = random_runs
        found, more = _random(realisation, random_runs, random_seed)
        explored += more
    reading = _READING + ("" if realisation.declares_valid_time else "; this realisation declares no such channel")
    details: dict[str, Any] = {"reading": reading, "exhaustive_length": depth, "states": tried,
                               "random_walks": walks}
    if found is None:
        return Verdict("L6", "property", True, explored, None,
                       f"L6 holds on '{realisation.name}': {_HOLDS.format(n=explored)}", details)
    word, vt1, vt2, store, how = found
    words = ", ".join(show_call(c) for c in word)
    text = (f"the histories {words} with valid times {list(vt1)} and {list(vt2)} differ only in valid time "
            "yet record the same store, so no function of the store recovers valid time.")
    witness = {
        "seed": "empty", "start": store_to_json(EMPTY), "word": [call_to_json(c) for c in word],
        "theta": theta_to_json(DEFAULT_THETA), "after": store_to_json(store),
        "h": _history_json(word, vt1), "h_prime": _history_json(word, vt2),
        "offending": {"vt_h": list(vt1), "vt_h_prime": list(vt2), "psi_equal": True},
        "explanation": text, "length": len(word), "minimality": how,
    }
    return Verdict("L6", "counterexample", False, explored, witness,
                   f"L6 fails on '{realisation.name}': {text}", details)


L6 = Clause(
    "L6",
    statement="L6 bitemporality as separation on recording histories (Def. 3.20 (a), strong form).\n\n"
              "For every word from ∅ of saves and derivations that all succeed (Hist_rec), and\n"
              "every assignment of valid times from :data:`TIMES` to its calls, the history is\n"
              "recorded: each call is issued with its valid time written into the letter's\n"
              "valid-time argument (the channel κ; a realisation that declares none ignores\n"
              "it) and its allocation's clock as transaction time.  Two histories h ∼vt h′\n"
              "with vt(h) ≠ vt(h′) that record the same store refute separation.",
    explored="histories recorded",
    reading=_READING,
    holds=_HOLDS,
    random_seed=7, alphabet="recording", max_len=3, search=search_L6,
)
"""L6 as checked: its own search over recording histories."""

check_L6 = checker(L6, __name__)
