"""The exploration engine: every short word on the seed stores, breadth first.

A law is checked by running a realisation's step function on many (store, call)
pairs and looking for a violation.  This module produces those pairs, in an
order that makes the first violation found a *minimal* one; what is enumerated
(seeds, alphabets, allocations, faults) is :mod:`coalg.laws.seeds`.

* **Bounded-exhaustive search** (:class:`Exploration`, :func:`explore`).  Level
  k holds every transition whose word has length k: breadth first, seeds in
  order, then parents in order, then letters in alphabet order.  A check that
  walks the levels in order and stops at its first violation reports a
  counterexample of minimal word length.  A call that fails (``Err``) or does not
  change the store is examined but not extended; stores already reached at a
  level are not extended twice.  Levels are computed lazily; :func:`explore` is
  a cached function of its arguments, so the twelve law checks share one
  exploration per (realisation, alphabet, faults, bound, seeds).

Random walks over the same alphabets, for longer words, are :mod:`coalg.laws.walks`.

Examples
--------
>>> from coalg.laws.display import show_call
>>> from coalg.model import CONTEXTFS
>>> ex = explore(CONTEXTFS, "fragment", max_len=1)
>>> len(ex.level(1)), show_call(ex.level(1)[0].call), show_call(ex.level(1)[10].call)
(75, "save('new' in alice)", 'merge(id0001, id0002)')
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache

from ..model import (
    DEFAULT_THETA,
    Call,
    Created,
    Err,
    Id,
    Output,
    Realisation,
    Store,
    Theta,
)
from .seeds import ALPHABETS, SEEDS, Seed, Start, allocate, derived_ids, fault_variants, start_of

__all__ = ["Exploration", "Node", "Transition", "clear_cache", "explore"]


@dataclass(frozen=True)
class Node:
    """A store reached from a seed by a word (the calls so far)."""

    start: Start
    calls: tuple[Call, ...]
    store: Store
    derived: frozenset[Id]


@dataclass(frozen=True)
class Transition:
    """One examined step ``before --call--> after`` at the end of the word ``prefix + (call,)``."""

    start: Start
    prefix: tuple[Call, ...]
    before: Store
    call: Call
    output: Output
    after: Store
    derived: frozenset[Id]
    theta: Theta = DEFAULT_THETA

    @property
    def word(self) -> tuple[Call, ...]:
        return self.prefix + (self.call,)

    @property
    def ok(self) -> bool:
        """The call did not output ``Err``."""
        return not isinstance(self.output, Err)

    @property
    def created(self) -> tuple[Id, ...]:
        """The identifiers of the records the call created, in creation order."""
        return self.output.ids if isinstance(self.output, Created) and self.call.letter.kind != "save_at" else ()


@dataclass
class Exploration:
    """Bounded-exhaustive exploration of one realisation, level by level (computed lazily).

    ``level(k)`` is the list of transitions whose word has length ``k``
    (1 ≤ k ≤ ``max_len``); ``nodes(k)`` the distinct stores reached by words of
    length ``k`` that succeeded and changed the store (``nodes(0)`` are the seeds).
    """

    realisation: Realisation
    alphabet: str = "fragment"
    faults: bool = False
    max_len: int = 2
    seeds: tuple[Seed, ...] = SEEDS
    theta: Theta = DEFAULT_THETA
    _nodes: list[list[Node]] = field(default_factory=list, repr=False)
    _levels: list[list[Transition]] = field(default_factory=list, repr=False)

    def __post_init__(self) -> None:
        starts = [start_of(self.realisation, sd, theta=self.theta) for sd in self.seeds]
        self._nodes = [[Node(st, (), st.store, st.derived) for st in starts]]
        self._levels = [[]]

    @property
    def starts(self) -> list[Start]:
        return [n.start for n in self._nodes[0]]

    @property
    def computed(self) -> int:
        """How many transitions have been computed so far (levels are computed on demand)."""
        return sum(len(level) for level in self._levels)

    def nodes(self, k: int) -> list[Node]:
        """The distinct stores reached by extendable words of length ``k``."""
        if k > 0:
            self.level(k)
        return self._nodes[k]

    def level(self, k: int) -> list[Transition]:
        """Every transition with a word of length ``k``, in search order."""
        if not 1 <= k <= self.max_len:
            raise ValueError(f"level {k} is outside 1..{self.max_len}")
        while len(self._levels) <= k:
            self._grow()
        return self._levels[k]

    def levels(self) -> Iterator[tuple[int, list[Transition]]]:
        """``(k, level(k))`` for k = 1 … max_len, computed on demand."""
        for k in range(1, self.max_len + 1):
            yield k, self.level(k)

    def transitions(self) -> Iterator[Transition]:
        """Every transition of every level, in search order."""
        for _, level in self.levels():
            yield from level

    def _grow(self) -> None:
        alphabet = ALPHABETS[self.alphabet]
        step = self.realisation.step
        transitions: list[Transition] = []
        children: list[Node] = []
        seen: set[tuple[str, Store, frozenset[Id]]] = set()
        for node in self._nodes[-1]:
            clock = node.start.clock + len(node.calls) + 1
            for a in alphabet(node.store):
                xi = allocate(node.store, a, clock)
                for fs in fault_variants(a) if self.faults else [frozenset()]:
                    call = Call(a, xi, fs)
                    out, after = step(node.store, a, xi, theta=self.theta, faults=fs)
                    derived = node.derived | derived_ids(a, out)
                    t = Transition(node.start, node.calls, node.store, call, out, after, derived, self.theta)
                    transitions.append(t)
                    key = (node.start.seed.name, after, derived)
                    if t.ok and after != node.store and key not in seen:
                        seen.add(key)
                        children.append(Node(node.start, t.word, after, derived))
        self._levels.append(transitions)
        self._nodes.append(children)


@cache
def _exploration(realisation: Realisation, alphabet: str, faults: bool, max_len: int,
                 seeds: tuple[Seed, ...]) -> Exploration:
    return Exploration(realisation, alphabet, faults, max_len, seeds)


def explore(
    realisation: Realisation,
    alphabet: str = "fragment",
    *,
    faults: bool = False,
    max_len: int = 2,
    seeds: Sequence[Seed] = SEEDS,
) -> Exploration:
    """The exploration of ``realisation`` over an alphabet of :data:`~coalg.laws.seeds.ALPHABETS`.

    Parameters
    ----------
    realisation : Realisation
        Whose step function builds the seeds and every transition.
    alphabet : {"fragment", "full", "recording"}
        Which letters are tried at each store.
    faults : bool
        Also try each letter with every single failing edge write.
    max_len : int
        The longest word explored.
    seeds : sequence of Seed
        The start stores, in search order.

    Returns
    -------
    Exploration
        A cached function of the arguments: every caller with the same arguments
        shares one exploration, whose levels are computed on demand.

    Examples
    --------
    >>> from coalg.model import CONTEXTFS
    >>> explore(CONTEXTFS, max_len=1) is explore(CONTEXTFS, "fragment", max_len=1)
    True
    """
    if alphabet not in ALPHABETS:
        raise ValueError(f"unknown alphabet {alphabet!r}; known: {', '.join(sorted(ALPHABETS))}")
    return _exploration(realisation, alphabet, faults, max_len, tuple(seeds))


def clear_cache() -> None:
    """Forget every cached exploration (for benchmarks)."""
    _exploration.cache_clear()
