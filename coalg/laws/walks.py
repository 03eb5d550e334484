"""Seeded random walks over the alphabets of the law search, for longer words than it enumerates.

* :func:`random_transitions`: walks of a fixed length driven by
  ``random.Random(seed)`` — deterministic given the seed; the law search adds
  them when its breadth-first pass (:mod:`coalg.laws.exploration`) found nothing.
* :func:`rerun`: a word run again from a seed with fresh allocations (shrinking).
* :func:`run_choices` and :func:`choice_words` drive the same alphabets from a
  list of integers, the form hypothesis generates and shrinks best.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any

from ..model import EMPTY, Call, Realisation, Store, Trace
from .exploration import Transition
from .seeds import ALPHABETS, SEEDS, Seed, Start, allocate, derived_ids, fault_variants, start_of

__all__ = ["choice_words", "random_transitions", "rerun", "run_choices"]


def random_transitions(
    realisation: Realisation,
    alphabet: str = "fragment",
    *,
    runs: int = 20,
    length: int = 6,
    seed: int = 0,
    faults: bool = False,
    seeds: Sequence[Seed] = SEEDS,
) -> Iterator[Transition]:
    """Transitions of ``runs`` random walks of ``length`` calls, driven by ``random.Random(seed)``.

    Parameters
    ----------
    realisation : Realisation
        Whose step function is run.
    alphabet : str
        A key of :data:`~coalg.laws.seeds.ALPHABETS`.
    runs, length, seed : int
        How many walks, how many calls each, and the generator's seed.
    faults : bool
        Pick a fault variant for each call too.
    seeds : sequence of Seed
        Where walks may start.

    Yields
    ------
    Transition
        Every step of every walk, in order (failing calls included).

    Notes
    -----
    Each walk starts at a seed chosen by the generator and picks each letter
    uniformly from the alphabet at the current store (and, with ``faults``, one
    of its fault variants).  A failing call leaves the walk where it is.  The
    sequence is a function of the arguments only.

    Examples
    --------
    >>> from coalg.laws.display import show_call
    >>> from coalg.model import CONTEXTFS
    >>> a = [show_call(t.call) for t in random_transitions(CONTEXTFS, runs=2, length=2, seed=5)]
    >>> a == [show_call(t.call) for t in random_transitions(CONTEXTFS, runs=2, length=2, seed=5)]
    True
    """
    rng = random.Random(seed)
    starts = [start_of(realisation, sd) for sd in seeds]
    letters_at = ALPHABETS[alphabet]
    for _ in range(runs):
        st = starts[rng.randrange(len(starts))]
        s, derived = st.store, st.derived
        calls: tuple[Call, ...] = ()
        for k in range(length):
            a = rng.choice(letters_at(s))
            fs = rng.choice(fault_variants(a)) if faults else frozenset()
            call = Call(a, allocate(s, a, st.clock + k + 1), fs)
            out, after = realisation.step(s, a, call.allocation, faults=fs)
            derived = derived | derived_ids(a, out)
            yield Transition(st, calls, s, call, out, after, derived)
            s, calls = after, calls + (call,)


def rerun(realisation: Realisation, start: Start, calls: Sequence[Call]) -> Iterator[Transition]:
    """Re-run the letters and faults of ``calls`` from ``start`` with fresh allocations, transition by transition.

    >>> from coalg.model import CONTEXTFS
    >>> ts = list(random_transitions(CONTEXTFS, runs=1, length=3, seed=2))
    >>> [t.after for t in rerun(CONTEXTFS, ts[0].start, ts[-1].word)] == [t.after for t in ts]
    True
    """
    s, derived = start.store, start.derived
    done: tuple[Call, ...] = ()
    for k, c in enumerate(calls):
        a = c.letter
        call = Call(a, allocate(s, a, start.clock + k + 1), c.faults)
        out, after = realisation.step(s, a, call.allocation, faults=c.faults)
        derived = derived | derived_ids(a, out)
        yield Transition(start, done, s, call, out, after, derived)
        s, done = after, done + (call,)


def run_choices(
    realisation: Realisation,
    choices: Sequence[int],
    *,
    start: Store = EMPTY,
    alphabet: str = "fragment",
    clock: int = 0,
    faults: bool = False,
) -> Trace:
    """Run the word that ``choices`` picks: call k is letter ``choices[k] mod |alphabet(s)|``.

    Parameters
    ----------
    realisation : Realisation
        Whose step function is run.
    choices : sequence of int
        One integer per call (what :func:`choice_words` draws).
    start : Store
        The store the run starts from.
    alphabet : str
        A key of :data:`~coalg.laws.seeds.ALPHABETS`.
    clock : int
        The clock reading before the first call.
    faults : bool
        Let the quotient ``choices[k] // |alphabet(s)|`` pick a fault variant.

    Returns
    -------
    Trace
        The calls as made (replayable with :func:`coalg.model.coalgebra.replay`), outputs and stores.

    Notes
    -----
    Hypothesis shrinks
    integer lists towards zeros, that is towards the first letters of each
    alphabet (fresh saves, then evolves).  ``clock`` is the clock reading before
    the first call (a seed's :attr:`~coalg.laws.seeds.Start.clock` when ``start`` is a seed).

    Examples
    --------
    >>> from coalg.laws.display import show_call
    >>> from coalg.model import CONTEXTFS
    >>> t = run_choices(CONTEXTFS, [0, 2])
    >>> [show_call(c) for c in t.calls]
    ["save('new' in alice)", "evolve(id0001, 'v2')"]
    """
    letters_at = ALPHABETS[alphabet]
    s, calls, outs, states = start, [], [], [start]
    for k, c in enumerate(choices):
        letters = letters_at(s)
        a = letters[c % len(letters)]
        variants = fault_variants(a) if faults else [frozenset()]
        fs = variants[(c // len(letters)) % len(variants)]
        call = Call(a, allocate(s, a, clock + k + 1), fs)
        out, s = realisation.step(s, a, call.allocation, faults=fs)
        calls.append(call)
        outs.append(out)
        states.append(s)
    return Trace(tuple(calls), tuple(outs), tuple(states))


def choice_words(max_len: int = 8) -> Any:
    """A hypothesis strategy of choice lists for :func:`run_choices` (hypothesis is an optional dependency)."""
    from hypothesis import strategies as st

    return st.lists(st.integers(min_value=0, max_value=10_000), max_size=max_len)
