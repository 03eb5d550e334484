"""The exploration engine: every short word on the seed stores, breadth first, modulo renaming.

A law is checked by running a realisation's step function on many (store, call)
pairs and looking for a violation.  This module produces those pairs, in an
order that makes the first violation found a *minimal* one; what is enumerated
(seeds, alphabets, allocations, faults) is :mod:`coalg.laws.seeds`.

* **Bounded-exhaustive search** (:class:`Exploration`, :func:`explore`).  Level
  k holds every transition whose word has length k: breadth first, seeds in
  order, then parents in order, then letters in alphabet order.  A check that
  walks the levels in order and stops at its first violation reports a
  counterexample of minimal word length.  A call that fails (``Err``) or does not
  change the store is examined but not extended.
* **Reduction.**  A store is extended only the first time the search meets it
  *up to renaming*: its key (:func:`state_key`) is its canonical form
  (:func:`coalg.bisim.canonical.canonical_form`) — identifiers renamed
  canonically, clock readings erased, the records derivations created marked —
  and a store whose key was met before, at this level, an earlier one or from
  an earlier seed, is not extended again.  Two such stores are allocation-blind
  bisimilar through a bijection (Definition 5.23), and the alphabets that name
  identifiers by equality are invariant under renaming, so every word from the
  second store has a renamed twin, no longer, from the first: nothing is lost,
  and the first violation found is the one the unreduced search finds.  The
  full alphabet names identifiers by prefix and resolves prefixes in the order
  of the identifiers (θ's ≺), so there identifiers keep their names and only
  clock readings are erased.  ``reduce=False`` keeps the exact stores
  (the search before the reduction, kept for benchmarks and for checks whose
  cases are whole histories rather than steps).
* **Levels are computed lazily** and shared: explorations that differ only in
  their bound read one engine, the one memo of this module, so the twelve law
  checks and the results of §5 pay for each level once per (realisation,
  alphabet, faults, seeds, reduction).

Random walks over the same alphabets, for longer words, are :mod:`coalg.laws.walks`.

Examples
--------
>>> from coalg.laws.display import show_call
>>> from coalg.model import CONTEXTFS
>>> ex = explore(CONTEXTFS, "fragment", max_len=1)
>>> len(ex.level(1)), show_call(ex.level(1)[0].call), show_call(ex.level(1)[10].call)
(75, "save('new' in alice)", 'merge(id0001, id0002)')
>>> exact = explore(CONTEXTFS, "fragment", max_len=2, reduce=False)
>>> reduced = explore(CONTEXTFS, "fragment", max_len=2)
>>> [len(exact.nodes(k)) for k in range(3)], [len(reduced.nodes(k)) for k in range(3)]
([4, 48, 1242], [4, 48, 891])
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache

from ..bisim import canonical_form
from ..model import (
    DEFAULT_THETA,
    Allocation,
    Call,
    Created,
    Err,
    Id,
    Output,
    Realisation,
    Store,
    Theta,
    creates,
)
from .seeds import (
    ALPHABETS,
    RENAMING_INVARIANT,
    SEEDS,
    UNKNOWN,
    Seed,
    Start,
    allocate,
    derived_ids,
    fault_variants,
    start_of,
)

__all__ = ["Exploration", "Node", "Transition", "clear_cache", "explore", "state_key"]


@dataclass(frozen=True)
class Node:
    """A store reached from a seed by a word (the calls so far)."""

    start: Start
    calls: tuple[Call, ...]
    store: Store
    derived: frozenset[Id]


@dataclass(frozen=True)
class Transition:
    """One examined step ``before --call--> after`` at the end of the word ``prefix + (call,)``.

    ``state`` numbers the store ``before`` among the distinct stores the
    exploration extended, in search order (seeds first); ``-1`` off the
    exhaustive search (random walks, reruns).
    """

    start: Start
    prefix: tuple[Call, ...]
    before: Store
    call: Call
    output: Output
    after: Store
    derived: frozenset[Id]
    theta: Theta = DEFAULT_THETA
    state: int = -1

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


def state_key(store: Store, derived: frozenset[Id], alphabet: str, reduce: bool = True) -> Hashable:
    """The key under which the search meets a store: what two stores must share to be extended once.

    With ``reduce``, the canonical form of the store with the derived records
    marked (:func:`coalg.bisim.canonical.canonical_form`): renamed canonically
    when the alphabet names identifiers by equality
    (:data:`~coalg.laws.seeds.RENAMING_INVARIANT`, :data:`~coalg.laws.seeds.UNKNOWN`
    fixed), with every name kept otherwise; clock readings erased either way.
    Without, the store and the derived set themselves.
    """
    if not reduce:
        return store, derived
    rename = alphabet in RENAMING_INVARIANT
    return canonical_form(store, marked=derived, fixed=(UNKNOWN,) if rename else None)


KEEP = 20_000
"""A level streamed to its end is kept when it has at most this many transitions (later checks reuse it)."""


class _Engine:
    """The levels of one exploration, grown on demand and shared by every bound.

    The stores each level extends (``nodes``) are kept; the transitions of a
    level are kept when a caller asks for the level as a list (:meth:`level`)
    or when a streamed level is small (:data:`KEEP`) — a search streams them
    (:meth:`stream`), so the deep levels of a long search never sit in memory.
    """

    def __init__(self, realisation: Realisation, alphabet: str, faults: bool, seeds: tuple[Seed, ...],
                 theta: Theta, reduce: bool) -> None:
        self.realisation, self.alphabet, self.faults = realisation, alphabet, faults
        self.theta, self.reduce = theta, reduce
        starts = [start_of(realisation, sd, theta=theta) for sd in seeds]
        self.nodes: list[list[Node]] = [[Node(st, (), st.store, st.derived) for st in starts]]
        self.first: list[int] = [0]  # the number of the first state of each level of nodes
        self.seen: set[Hashable] = {state_key(n.store, n.derived, alphabet, reduce) for n in self.nodes[0]}
        self.stored: dict[int, list[Transition]] = {}
        self.steps = 0  # transitions computed, recomputations included

    def level(self, k: int) -> list[Transition]:
        if k not in self.stored:
            self.stored[k] = list(self.stream(k, children=True))
        return self.stored[k]

    def node_level(self, k: int) -> list[Node]:
        while len(self.nodes) <= k:
            for _ in self.stream(len(self.nodes), children=True):
                pass
        return self.nodes[k]

    def stream(self, k: int, *, children: bool) -> Iterator[Transition]:
        """The transitions of level ``k`` in search order; with ``children``, the nodes of level ``k`` too.

        The nodes, and a small level itself, are recorded only when the level is
        streamed to its end.
        """
        stored = self.stored.get(k)
        source = iter(stored) if stored is not None else self._compute(self.node_level(k - 1), self.first[k - 1])
        collect = children and len(self.nodes) == k
        kids: list[Node] = []
        met: set[Hashable] = set()
        kept: list[Transition] | None = [] if stored is None else None
        for t in source:
            if collect and t.ok and t.after != t.before:
                key = state_key(t.after, t.derived, self.alphabet, self.reduce)
                if key not in self.seen and key not in met:
                    met.add(key)
                    kids.append(Node(t.start, t.word, t.after, t.derived))
            if kept is not None:
                kept.append(t)
                if len(kept) > KEEP:
                    kept = None
            yield t
        if kept is not None:
            self.stored[k] = kept
        if collect and len(self.nodes) == k:
            self.seen |= met
            self.first.append(self.first[-1] + len(self.nodes[-1]))
            self.nodes.append(kids)

    def _compute(self, parents: list[Node], first: int) -> Iterator[Transition]:
        alphabet = ALPHABETS[self.alphabet]
        step = self.realisation.step
        for n, node in enumerate(parents, start=first):
            clock = node.start.clock + len(node.calls) + 1
            allocations: dict[int, Allocation] = {}  # the allocation depends on how many records a call creates
            for a in alphabet(node.store):
                xi = allocations.get(creates(a)) or allocations.setdefault(creates(a), allocate(node.store, a, clock))
                for fs in fault_variants(a) if self.faults else [frozenset()]:
                    call = Call(a, xi, fs)
                    out, after = step(node.store, a, xi, theta=self.theta, faults=fs)
                    self.steps += 1
                    yield Transition(node.start, node.calls, node.store, call, out, after,
                                     node.derived | derived_ids(a, out), self.theta, n)


@cache
def _engine(realisation: Realisation, alphabet: str, faults: bool, seeds: tuple[Seed, ...], theta: Theta,
            reduce: bool) -> _Engine:
    return _Engine(realisation, alphabet, faults, seeds, theta, reduce)


@dataclass
class Exploration:
    """Bounded-exhaustive exploration of one realisation, level by level (computed lazily).

    ``level(k)`` is the list of transitions whose word has length ``k``
    (1 ≤ k ≤ ``max_len``); ``transitions()`` streams every level in search order
    without keeping the deepest one; ``nodes(k)`` the stores first met (up to
    the reduction) by words of length ``k`` that succeeded and changed the
    store (``nodes(0)`` are the seeds); ``states(k)`` how many stores the
    levels 1 … ``k`` were computed from.
    """

    realisation: Realisation
    alphabet: str = "fragment"
    faults: bool = False
    max_len: int = 2
    seeds: tuple[Seed, ...] = SEEDS
    theta: Theta = DEFAULT_THETA
    reduce: bool = True
    _engine: _Engine = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._engine = _engine(self.realisation, self.alphabet, self.faults, tuple(self.seeds), self.theta,
                               self.reduce)

    @property
    def starts(self) -> list[Start]:
        return [n.start for n in self._engine.nodes[0]]

    @property
    def computed(self) -> int:
        """How many transitions the engine under this exploration has computed so far (every bound, recomputations included)."""
        return self._engine.steps

    def nodes(self, k: int) -> list[Node]:
        """The distinct stores (up to the reduction) first reached by extendable words of length ``k``."""
        if not 0 <= k <= self.max_len:
            raise ValueError(f"level {k} is outside 0..{self.max_len}")
        return self._engine.node_level(k)

    def states(self, k: int | None = None) -> int:
        """How many distinct stores the levels 1 … ``k`` (default: ``max_len``) were computed from."""
        k = self.max_len if k is None else k
        return sum(len(self.nodes(j)) for j in range(k))

    def level(self, k: int) -> list[Transition]:
        """Every transition with a word of length ``k``, in search order (kept for later callers)."""
        if not 1 <= k <= self.max_len:
            raise ValueError(f"level {k} is outside 1..{self.max_len}")
        return self._engine.level(k)

    def levels(self) -> Iterator[tuple[int, list[Transition]]]:
        """``(k, level(k))`` for k = 1 … max_len, computed on demand and kept."""
        for k in range(1, self.max_len + 1):
            yield k, self.level(k)

    def transitions(self) -> Iterator[Transition]:
        """Every transition of every level, in search order, streamed (the deepest level is not kept)."""
        for k in range(1, self.max_len + 1):
            yield from self._engine.stream(k, children=k < self.max_len)


def explore(
    realisation: Realisation,
    alphabet: str = "fragment",
    *,
    faults: bool = False,
    max_len: int = 2,
    seeds: Sequence[Seed] = SEEDS,
    reduce: bool = True,
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
    reduce : bool
        Extend each store once up to renaming and clock readings (:func:`state_key`);
        ``False`` extends each exact store once.

    Returns
    -------
    Exploration
        A view of the levels up to ``max_len``.  The levels are computed on demand,
        once per process: every exploration of the same realisation, alphabet,
        faults, seeds and reduction reads the same computed levels, whatever its
        ``max_len``.

    Examples
    --------
    >>> from coalg.model import CONTEXTFS
    >>> explore(CONTEXTFS, max_len=1) == explore(CONTEXTFS, "fragment", max_len=1)
    True
    """
    if alphabet not in ALPHABETS:
        raise ValueError(f"unknown alphabet {alphabet!r}; known: {', '.join(sorted(ALPHABETS))}")
    if max_len < 0:
        raise ValueError(f"max_len must be at least 0, not {max_len}")
    return Exploration(realisation, alphabet, faults, max_len, tuple(seeds), reduce=reduce)


def clear_cache() -> None:
    """Forget every computed level (for benchmarks)."""
    _engine.cache_clear()
