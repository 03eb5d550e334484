"""The search behind every law check: from a step predicate to a verdict with a minimal witness.

A clause of the laws is checked by a *step check* — at one transition of the
exploration, how many cases it examined and the :class:`Violation` if any
(:data:`StepCheck`).  :func:`search` walks the levels of
:func:`coalg.laws.exploration.explore` in order and stops at the first violation,
which therefore has minimal word length; when it finds nothing it adds seeded
random walks (:data:`RANDOM_RUNS` walks of :data:`RANDOM_LENGTH` calls) and
shrinks what they find greedily.  :func:`search_all` runs several checks
(:class:`Probe`) over one pass of the same exploration — the law table's way —
with exactly the outcome each would have alone (:class:`Outcome`: the
violation, the cases examined, how deep the exhaustive search went, how many
distinct states it extended, how many random walks were added).  :func:`verdict_of` turns the result into a
:class:`~coalg.paper.verdict.Verdict` whose witness is **replayable** JSON: the
start store, the word as calls (letter, allocation, injected faults), θ, the
store after, the offending records or edges, and one sentence saying what went
wrong.  Running the calls from the start store with
:func:`coalg.model.coalgebra.run` (``step_fn=realisation.step``) gives the
recorded store after again.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ..model import (
    DEFAULT_THETA,
    Call,
    Edge,
    Id,
    Realisation,
    Store,
    Theta,
    call_to_json,
    edge_to_json,
    store_to_json,
    theta_to_json,
)
from ..paper import Verdict
from .display import show_call
from .exploration import Transition, explore
from .seeds import SEEDS, Seed, Start
from .walks import random_transitions, rerun

__all__ = [
    "MINIMAL",
    "RANDOM_LENGTH",
    "RANDOM_RUNS",
    "Found",
    "Outcome",
    "Probe",
    "StartCheck",
    "StepCheck",
    "Violation",
    "added",
    "edges_json",
    "ids_text",
    "search",
    "search_all",
    "verdict_of",
    "witness_of",
]

RANDOM_RUNS = 40
"""Seeded random walks each clause adds after the exhaustive search (when that found nothing)."""

RANDOM_LENGTH = 8
"""Calls per random walk (longer than the exhaustive bound of 2)."""

MINIMAL = "breadth-first search: no shorter word from any seed violates the clause"
_SHRUNK = "found by seeded random exploration, then shrunk greedily (no single call can be removed)"


@dataclass(frozen=True)
class Violation:
    """A violation found by a check: the offending data and one sentence of explanation."""

    offending: dict[str, Any]
    explanation: str
    extra: dict[str, Any] = field(default_factory=dict)

    def of_call(self, call: Call, tail: str = "") -> Violation:
        """The same violation, its sentence starting with the call that caused it and ending with ``tail``."""
        return replace(self, explanation=f"{show_call(call)} {self.explanation}{tail}")


@dataclass(frozen=True)
class Found:
    """A violation with the word that reaches it: start, calls, θ, store after, and how it was found."""

    start: Start
    word: tuple[Call, ...]
    after: Store
    violation: Violation
    theta: Theta = DEFAULT_THETA
    how: str = MINIMAL


StepCheck = Callable[[Transition], tuple[int, Violation | None]]
"""A step check: how many cases it examined at this transition, and the violation if any."""

StartCheck = Callable[[Start], Violation | None]
"""A check of a seed store itself (for an invariant of stores)."""


def ids_text(xs: Iterable[Id]) -> str:
    """``[id0001, id0002]``: identifiers, sorted, for explanations."""
    return "[" + ", ".join(sorted(xs)) + "]"


def edges_json(es: Iterable[Edge]) -> list[list[str]]:
    """Edges, sorted, as JSON triples."""
    return [edge_to_json(e) for e in sorted(es)]


def added(t: Transition) -> tuple[frozenset[Id], frozenset[Edge]]:
    """N and D of a transition: the identifiers and edges the call added."""
    return t.after.dom() - t.before.dom(), t.after.edges - t.before.edges


@dataclass(frozen=True)
class Probe:
    """One check to run over an exploration: its step check, its seed check, and its random walks."""

    check: StepCheck
    at_start: StartCheck | None = None
    random_runs: int = RANDOM_RUNS
    random_length: int = RANDOM_LENGTH
    random_seed: int = 0


@dataclass(frozen=True)
class Outcome:
    """What a search found and how far it went.

    ``exhaustive_length``: every word of at most this length was checked — the
    bound when the breadth-first pass found nothing, one less than the
    witness's length when it found one (−1 when a seed itself violates);
    ``states``: how many distinct states (up to the exploration's reduction)
    the pass examined every letter at; ``random_walks``: how many seeded random
    walks were added after it.
    """

    found: Found | None
    explored: int
    exhaustive_length: int
    states: int
    random_walks: int

    def stats(self) -> dict[str, int]:
        """The three numbers a verdict reports about its search."""
        return {"exhaustive_length": self.exhaustive_length, "states": self.states,
                "random_walks": self.random_walks}


def _shrink(realisation: Realisation, t: Transition, check: StepCheck) -> Found:
    calls = list(t.word)
    best = t
    improved = True
    while improved:
        improved = False
        for k in range(len(calls)):
            trial = calls[:k] + calls[k + 1:]
            for u in rerun(realisation, t.start, trial):
                _, v = check(u)
                if v is not None:
                    calls, best, improved = list(u.word), u, True
                    break
            if improved:
                break
    _, v = check(best)
    assert v is not None
    return Found(best.start, best.word, best.after, v, best.theta, _SHRUNK)


@dataclass
class _Run:
    """The state of one probe during a pass."""

    probe: Probe
    depth: int
    found: Found | None = None
    explored: int = 0
    states: int = 0


def search_all(
    realisation: Realisation,
    probes: Sequence[Probe],
    *,
    alphabet: str = "fragment",
    faults: bool = False,
    max_len: int = 2,
    seeds: Sequence[Seed] = SEEDS,
    reduce: bool = True,
) -> list[Outcome]:
    """Run every probe over one breadth-first pass of the exploration, then each its random walks.

    Each probe sees the seeds (with its ``at_start``), then every transition in
    search order until its first violation, exactly as :func:`search` alone
    would; the pass stops when every probe has found one or the levels end.
    """
    ex = explore(realisation, alphabet, faults=faults, max_len=max_len, seeds=seeds, reduce=reduce)
    runs = [_Run(p, max_len) for p in probes]
    for r in runs:
        if r.probe.at_start is not None:
            for st in ex.starts:
                r.explored += 1
                v = r.probe.at_start(st)
                if v is not None:
                    r.found, r.depth = Found(st, (), st.store, v), -1
                    break
    active = [r for r in runs if r.found is None]
    if active:
        for t in ex.transitions():
            for r in active:
                n, v = r.probe.check(t)
                r.explored += n
                r.states = t.state + 1
                if v is not None:
                    r.found, r.depth = Found(t.start, t.word, t.after, v, t.theta), len(t.word) - 1
            if any(r.found is not None for r in active):
                active = [r for r in active if r.found is None]
                if not active:
                    break
    outcomes = []
    for r in runs:
        walks = 0
        if r.found is None and r.probe.random_runs > 0:
            walks = r.probe.random_runs
            for t in random_transitions(realisation, alphabet, runs=walks, length=r.probe.random_length,
                                        seed=r.probe.random_seed, faults=faults, seeds=seeds):
                n, v = r.probe.check(t)
                r.explored += n
                if v is not None:
                    r.found = _shrink(realisation, t, r.probe.check)
                    break
        outcomes.append(Outcome(r.found, r.explored, r.depth, r.states, walks))
    return outcomes


def search(
    realisation: Realisation,
    check: StepCheck,
    *,
    alphabet: str = "fragment",
    faults: bool = False,
    max_len: int = 2,
    random_runs: int = RANDOM_RUNS,
    random_length: int = RANDOM_LENGTH,
    random_seed: int = 0,
    seeds: Sequence[Seed] = SEEDS,
    at_start: StartCheck | None = None,
) -> tuple[Found | None, int]:
    """The first violation of ``check`` (of minimal word length), and how many cases were examined.

    The seeds first (with ``at_start``), then every level of the exploration in
    order; if nothing is found, ``random_runs`` seeded random walks, a violation
    found there shrunk greedily (calls removed while it persists).
    """
    [out] = search_all(realisation, [Probe(check, at_start, random_runs, random_length, random_seed)],
                       alphabet=alphabet, faults=faults, max_len=max_len, seeds=seeds)
    return out.found, out.explored


def witness_of(found: Found) -> dict[str, Any]:
    """The replayable counterexample of ``found``, as JSON-ready data."""
    v = found.violation
    w: dict[str, Any] = {
        "seed": found.start.seed.name,
        "start": store_to_json(found.start.store),
        "word": [call_to_json(c) for c in found.word],
        "theta": theta_to_json(found.theta),
        "after": store_to_json(found.after),
        "offending": v.offending,
        "explanation": v.explanation,
        "length": len(found.word),
        "minimality": found.how,
    }
    w.update(v.extra)
    return w


def verdict_of(
    key: str,
    realisation: Realisation,
    found: Found | None,
    explored: int,
    *,
    reading: str,
    holds_summary: str,
    details: dict[str, Any] | None = None,
) -> Verdict:
    """The verdict of clause ``key``: a property when nothing was found, else a counterexample with its witness."""
    details = dict(details or {})
    details["reading"] = reading
    if found is None:
        return Verdict(key, "property", True, explored, None,
                       f"{key} holds on '{realisation.name}': {holds_summary}", details)
    words = ", ".join(show_call(c) for c in found.word) or "the empty word"
    summary = f"{key} fails on '{realisation.name}' (seed '{found.start.seed.name}', {words}): " \
              f"{found.violation.explanation}"
    return Verdict(key, "counterexample", False, explored, witness_of(found), summary, details)
