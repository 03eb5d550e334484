"""Shared helpers of the open-problem proposals: seeded random runs and JSON-ready replays."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ..model import (
    EMPTY,
    Call,
    Letter,
    Oracle,
    Output,
    Realisation,
    Record,
    Store,
    Time,
    Trace,
    call_to_json,
    is_tombstone,
    run,
    store_to_json,
)
from ..model import alphabet as A

__all__ = ["CONTENTS", "Runner", "evidence", "random_letter", "random_run", "random_word", "trace_json"]

CONTENTS = ("meeting at 3pm", "meeting at 4pm", "budget is 10k", "budget is 12k", "alice leads", "bob leads",
            "room 101", "room 102")
"""Contents the random runs draw from (repeats are likely, so canonical-order ties occur)."""


def _live(s: Store) -> list[str]:
    return [i for i, r in s.records.items() if not is_tombstone(r) and "deleted_at" not in r.metadata]


def random_letter(
    s: Store,
    rng: random.Random,
    *,
    namespaces: Sequence[str] = ("global",),
    types: Sequence[str] = ("fact", "decision"),
    valid_times: bool = True,
    explicit_merge_time: float = 0.0,
    deletes: float = 0.0,
) -> Letter:
    """One random letter at ``s``: a save, evolve, merge, split (or, with probability ``deletes``, a delete).

    It names live records by equality; merges name 2–3 records of one namespace.
    Saves carry a valid time in 0..9 when ``valid_times``; a merge carries an explicit
    one with probability ``explicit_merge_time``.
    """
    live = _live(s)
    by_ns: dict[str, list[str]] = {}
    for i in live:
        by_ns.setdefault(s.records[i].namespace, []).append(i)
    pools = sorted(ns for ns, xs in by_ns.items() if len(xs) >= 2)
    x = rng.random()
    vt: Time | None
    if not live or x < 0.3:
        vt = rng.randint(0, 9) if valid_times else None
        return A.Save(Record(rng.choice(CONTENTS), type=rng.choice(list(types)),
                           namespace=rng.choice(list(namespaces)), valid_time=vt))
    if x < 0.3 + deletes:
        return A.Delete(rng.choice(live))
    if x < 0.55 + deletes and pools:
        pool = by_ns[rng.choice(pools)]
        ids = tuple(rng.sample(pool, rng.randint(2, min(3, len(pool)))))
        vt = rng.randint(0, 12) if rng.random() < explicit_merge_time else None
        return A.Merge(ids, valid_time=vt)
    if x < 0.8 + deletes:
        return A.Evolve(rng.choice(live), rng.choice(CONTENTS))
    return A.Split(rng.choice(live), tuple(rng.sample(list(CONTENTS), rng.randint(2, 3))))


class Runner:
    """A run under construction: the realisation, one oracle, the current store and the calls made so far."""

    def __init__(self, realisation: Realisation, start: Store = EMPTY) -> None:
        self.realisation, self.start, self.store = realisation, start, start
        self.oracle = Oracle()
        self.calls: list[Call] = []

    def do(self, a: Letter) -> Output:
        """Make the call ``a`` (allocated by the oracle) and return its output."""
        xi = self.oracle.allocate(self.store, a)
        out, self.store = self.realisation.step(self.store, a, xi)
        self.calls.append(Call(a, xi))
        return out

    def random(self, rng: random.Random, n: int, **kw: Any) -> None:
        """Make ``n`` calls drawn by :func:`random_letter` (keyword arguments passed on)."""
        for _ in range(n):
            self.do(random_letter(self.store, rng, **kw))

    def trace(self) -> Trace:
        """The run so far, replayed from its start (same allocations)."""
        return run(self.start, self.calls, step_fn=self.realisation.step)


def random_word(realisation: Realisation, rng: random.Random, n_calls: int, *, start: Store = EMPTY,
                **kw: Any) -> list[Letter]:
    """``n_calls`` letters of :func:`random_letter`, each drawn at the store the previous ones produce.

    ``run(start, word, step_fn=realisation.step)`` (with its fresh default oracle) replays them.
    """
    r = Runner(realisation, start)
    r.random(rng, n_calls, **kw)
    return [c.letter for c in r.calls]


def random_run(realisation: Realisation, rng: random.Random, n_calls: int, **kw: Any) -> Trace:
    """A :class:`Runner` run of ``n_calls`` random letters, as a trace (``start`` and letter options in ``kw``)."""
    r = Runner(realisation, kw.pop("start", EMPTY))
    r.random(rng, n_calls, **kw)
    return r.trace()


def trace_json(t: Trace) -> dict[str, Any]:
    """A replayable run: the start store, the calls (letters with allocations), the final store."""
    return {"start": store_to_json(t.states[0]), "calls": [call_to_json(c) for c in t.calls],
            "final": store_to_json(t.final)}


def evidence(holds: bool, explored: int, witness: dict[str, Any], failure: dict[str, Any] | None,
             summary: str) -> tuple[bool, int, dict[str, Any], str]:
    """What an open problem's ``verdict()`` returns: ``(holds, explored, witness, summary)``; the first failure
    found, if any, closes the witness as ``"failure"``."""
    return holds, explored, witness if failure is None else {**witness, "failure": failure}, summary
