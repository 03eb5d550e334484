"""The search behind every law check: from a step predicate to a verdict with a minimal witness.

A clause of the laws is checked by a *step check* — at one transition of the
exploration, how many cases it examined and the :class:`Violation` if any
(:data:`StepCheck`).  :func:`search` walks the levels of
:func:`coalg.laws.exploration.explore` in order and stops at the first violation,
which therefore has minimal word length; when it finds nothing it adds seeded
random walks (:data:`RANDOM_RUNS` walks of :data:`RANDOM_LENGTH` calls) and
shrinks what they find greedily.  :func:`verdict_of` turns the result into a
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
    "StartCheck",
    "StepCheck",
    "Violation",
    "added",
    "edges_json",
    "ids_text",
    "search",
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


def _levels(ex_transitions: Iterable[Transition], check: StepCheck) -> tuple[Found | None, int]:
    explored = 0
    for t in ex_transitions:
        n, v = check(t)
        explored += n
        if v is not None:
            return Found(t.start, t.word, t.after, v, t.theta), explored
    return None, explored


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
    ex = explore(realisation, alphabet, faults=faults, max_len=max_len, seeds=seeds)
    explored = 0
    if at_start is not None:
        for st in ex.starts:
            explored += 1
            v = at_start(st)
            if v is not None:
                return Found(st, (), st.store, v), explored
    found, n = _levels(ex.transitions(), check)
    explored += n
    if found is None and random_runs > 0:
        walks = random_transitions(realisation, alphabet, runs=random_runs, length=random_length, seed=random_seed,
                                   faults=faults, seeds=seeds)
        for t in walks:
            n, v = check(t)
            explored += n
            if v is not None:
                return _shrink(realisation, t, check), explored
    return found, explored


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
