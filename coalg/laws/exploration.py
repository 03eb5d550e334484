"""The exploration engine: every short word on small seed stores, and seeded random walks.

A law is checked by running a realisation's step function on many (store, call)
pairs and looking for a violation.  This module produces those pairs, in an
order that makes the first violation found a *minimal* one.

* **Seeds.**  A few small stores, each given as a *construction word* run from
  ∅ through the realisation under test (:data:`SEEDS`): the empty store, two
  records of one namespace whose types tie, two records in two namespaces, and
  a merged record.  Seeds are reachable, so they lie in S_lin.
* **Alphabets.**  At a store ``s`` the letters name the identifiers of
  dom(m_s) plus one unknown identifier (:data:`UNKNOWN`), with a small fixed
  content alphabet (:func:`fragment_alphabet`, :func:`full_alphabet`,
  :func:`recording_alphabet`).  Every list is built from sorted identifiers,
  so the order never depends on hashing.
* **Allocation.**  Every call gets its allocation from a fresh
  :class:`~coalg.model.alphabet.Oracle` (:func:`allocate`): the first identifiers
  ``id0001, id0002, …`` that the store does not mention (strictly fresh), and
  the clock reading "calls so far + 1".
* **Faults.**  Optionally, each letter is also tried with every single
  failing edge write (:func:`fault_variants`).
* **Bounded-exhaustive search** (:class:`Exploration`, :func:`explore`).  Level
  k holds every transition whose word has length k: breadth first, seeds in
  order, then parents in order, then letters in alphabet order.  A check that
  walks the levels in order and stops at its first violation reports a
  counterexample of minimal word length.  A call that fails (``Err``) or does not
  change the store is examined but not extended; stores already reached at a
  level are not extended twice.  Levels are computed lazily and cached, so the
  twelve law checks share one exploration per (realisation, alphabet, faults).
* **Random exploration** (:func:`random_transitions`): walks of a fixed length
  driven by ``random.Random(seed)`` — deterministic given the seed — for longer
  words than exhaustive search reaches.  :func:`run_choices` and
  :func:`choice_words` drive the same alphabets from a list of integers, the
  form hypothesis generates and shrinks best.

Examples
--------
>>> from coalg.model.realisation import CONTEXTFS
>>> ex = explore(CONTEXTFS, "fragment", max_len=1)
>>> len(ex.level(1)), show_call(ex.level(1)[0].call), show_call(ex.level(1)[10].call)
(75, "save('new' in alice)", 'merge(id0001, id0002)')
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..model import (
    DEFAULT_THETA,
    DERIVATIONS,
    Allocation,
    Call,
    Created,
    Delete,
    Err,
    Evolve,
    Id,
    Letter,
    Link,
    Merge,
    Oracle,
    Output,
    Realisation,
    Recall,
    RecallPrefix,
    Record,
    Relation,
    Save,
    SaveAt,
    Split,
    Supersede,
    Theta,
    Trace,
    creates,
    edge_writes,
)
from ..model.store import EMPTY, Store

__all__ = [
    "ALPHABETS",
    "NAMESPACES",
    "SEEDS",
    "UNKNOWN",
    "Exploration",
    "Node",
    "Seed",
    "Start",
    "Transition",
    "allocate",
    "choice_words",
    "clear_cache",
    "explore",
    "fault_variants",
    "fragment_alphabet",
    "full_alphabet",
    "random_transitions",
    "recording_alphabet",
    "run_choices",
    "show_call",
    "show_letter",
    "start_of",
]

UNKNOWN: Id = "missing"
"""The one identifier every alphabet names that no seed holds."""

NAMESPACES = ("alice", "bob")
NEW_CONTENT = "new"
EVOLVED_CONTENT = "v2"
PARTS = ("p1", "p2")
REPLACED_CONTENT = "replaced"


# --------------------------------------------------------------------------- seeds


@dataclass(frozen=True)
class Seed:
    """A small start store, given by the word that builds it from ∅."""

    name: str
    word: tuple[Letter, ...]
    description: str


_A = Record("a", type="fact", namespace="alice")
_B = Record("b", type="decision", namespace="alice")
_K = Record("k", type="fact", namespace="bob", tags=frozenset({"secret"}))

SEEDS: tuple[Seed, ...] = (
    Seed("empty", (), "the empty store ∅"),
    Seed("tie", (Save(_A), Save(_B)),
         "two records of namespace alice, a fact and a decision (their types tie in a merge)"),
    Seed("two-namespaces", (Save(_A), Save(_K)),
         "a record in alice and a record tagged 'secret' in bob"),
    Seed("merged", (Save(_A), Save(_B), Merge(("id0001", "id0002"))),
         "the tie seed and the merge of its two records"),
)
"""The default seeds, in the order the search visits them."""


@dataclass(frozen=True)
class Start:
    """A seed built by a realisation: the store, the clock after it, and the derived identifiers."""

    seed: Seed
    store: Store
    clock: int
    derived: frozenset[Id]
    calls: tuple[Call, ...]


def _derived_ids(a: Letter, out: Output) -> frozenset[Id]:
    if a.kind in DERIVATIONS and isinstance(out, Created):
        return frozenset(out.ids)
    return frozenset()


def start_of(realisation: Realisation, seed: Seed, *, theta: Theta = DEFAULT_THETA) -> Start:
    """Run the seed's construction word from ∅ through ``realisation``.

    Call k gets the allocation of :func:`allocate` with clock k, so the seed is
    reachable from ∅ and replayable from :attr:`Start.calls`.

    >>> from coalg.model.realisation import CONTEXTFS
    >>> st = start_of(CONTEXTFS, SEEDS[3])
    >>> sorted(st.store.dom()), st.clock, sorted(st.derived)
    (['id0001', 'id0002', 'id0003'], 3, ['id0003'])
    """
    s, derived, calls = EMPTY, frozenset[Id](), []
    for k, a in enumerate(seed.word, start=1):
        call = Call(a, allocate(s, a, k))
        out, s = realisation.step(s, a, call.allocation, theta=theta)
        derived |= _derived_ids(a, out)
        calls.append(call)
    return Start(seed, s, len(seed.word), derived, tuple(calls))


# --------------------------------------------------------------------------- alphabets


def _named(s: Store) -> list[Id]:
    return sorted(s.dom()) + [UNKNOWN]


def fragment_alphabet(s: Store) -> list[Letter]:
    """The lineage-fragment letters at ``s``, identifiers named by equality.

    A fresh save per namespace (:data:`NAMESPACES` and those of ``s``); evolve and split
    of each record and of :data:`UNKNOWN`; merge of each ordered pair of records
    and of each record with :data:`UNKNOWN`; supersede of each ordered pair, the
    old end possibly :data:`UNKNOWN` (spec W1); recall of each identifier.

    >>> [show_letter(a) for a in fragment_alphabet(EMPTY)]   # doctest: +NORMALIZE_WHITESPACE
    ["save('new' in alice)", "save('new' in bob)", "evolve(missing, 'v2')",
     "split(missing, 'p1', 'p2')", 'recall(missing)']
    """
    ids, named = sorted(s.dom()), _named(s)
    spaces = sorted(set(NAMESPACES) | set(s.namespaces()))
    out: list[Letter] = [Save(Record(NEW_CONTENT, namespace=ns)) for ns in spaces]
    out += [Evolve(i, EVOLVED_CONTENT) for i in named]
    out += [Merge((i, k)) for i in ids for k in named if k != i]
    out += [Split(i, PARTS) for i in named]
    out += [Supersede(o, n) for o in named for n in ids if o != n]
    out += [Recall(i) for i in named]
    return out


def full_alphabet(s: Store) -> list[Letter]:
    """Every call the model accepts: the fragment, then prefix naming, deletion, replacement, links.

    Prefixes are the proper prefixes ``i[:-1]`` of the identifiers of ``s`` (with
    the oracle's ``id0001, id0002`` that is the shared prefix ``id000``): evolve,
    split, merge (with each record), recall and delete by that prefix.  Then
    delete and save_at of each record and a REFERENCES link between each ordered
    pair of records.
    """
    ids = sorted(s.dom())
    prefixes = sorted({i[:-1] for i in ids if len(i) > 1})
    out = fragment_alphabet(s)
    out += [Evolve(p, EVOLVED_CONTENT, by_prefix=True) for p in prefixes]
    out += [Split(p, PARTS, by_prefix=True) for p in prefixes]
    out += [Merge((i, p), by_prefix=True) for p in prefixes for i in ids]
    out += [RecallPrefix(p) for p in prefixes]
    out += [Delete(p, by_prefix=True) for p in prefixes]
    out += [Delete(i) for i in ids]
    out += [SaveAt(i, Record(REPLACED_CONTENT, namespace=s.records[i].namespace)) for i in ids]
    out += [Link(i, Relation.REFERENCES, k) for i in ids for k in ids if i != k]
    return out


def recording_alphabet(s: Store) -> list[Letter]:
    """Letters that create records (the calls of Hist_rec, Def. 3.20 (a)): save, evolve, split, merge.

    >>> len(recording_alphabet(EMPTY)), len(recording_alphabet(start_of_contextfs("tie").store))
    (1, 6)
    """
    ids = sorted(s.dom())
    out: list[Letter] = [Save(Record(NEW_CONTENT, namespace=NAMESPACES[0]))]
    out += [Evolve(i, EVOLVED_CONTENT) for i in ids]
    out += [Split(i, PARTS) for i in ids]
    out += [Merge((i, k)) for i in ids for k in ids if i < k]
    return out


ALPHABETS: dict[str, Callable[[Store], list[Letter]]] = {
    "fragment": fragment_alphabet,
    "full": full_alphabet,
    "recording": recording_alphabet,
}


def start_of_contextfs(name: str) -> Start:
    """The seed called ``name`` as built by the ContextFS model (for examples)."""
    from ..model import CONTEXTFS

    return start_of(CONTEXTFS, next(sd for sd in SEEDS if sd.name == name))


# --------------------------------------------------------------------------- allocation and faults


def allocate(s: Store, a: Letter, clock: int) -> Allocation:
    """The allocation of a fresh :class:`~coalg.model.alphabet.Oracle` for ``a`` at ``s``, stamped ``clock``.

    >>> allocate(Store.of({"id0001": Record("x")}), Split("id0001", ("p", "q")), 7)
    Allocation(ids=('id0002', 'id0003'), clock=7)
    """
    oracle = Oracle()
    return Allocation(tuple(oracle.fresh_id(s) for _ in range(creates(a))), clock)




def fault_variants(a: Letter) -> list[frozenset[int]]:
    """No fault, then each single failing edge write the letter may issue.

    >>> fault_variants(Evolve("x", "c")), fault_variants(Save(Record("x")))
    ([frozenset(), frozenset({0}), frozenset({1})], [frozenset()])
    """
    return [frozenset()] + [frozenset({k}) for k in range(edge_writes(a))]


# --------------------------------------------------------------------------- transitions


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

    def nodes(self, k: int) -> list[Node]:
        """The distinct stores reached by extendable words of length ``k``."""
        self.level(k) if k > 0 else None
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
                    derived = node.derived | _derived_ids(a, out)
                    t = Transition(node.start, node.calls, node.store, call, out, after, derived, self.theta)
                    transitions.append(t)
                    key = (node.start.seed.name, after, derived)
                    if t.ok and after != node.store and key not in seen:
                        seen.add(key)
                        children.append(Node(node.start, t.word, after, derived))
        self._levels.append(transitions)
        self._nodes.append(children)


_CACHE: dict[tuple[Any, ...], Exploration] = {}


def explore(
    realisation: Realisation,
    alphabet: str = "fragment",
    *,
    faults: bool = False,
    max_len: int = 2,
    seeds: Sequence[Seed] = SEEDS,
) -> Exploration:
    """The (cached) exploration of ``realisation`` over an alphabet of :data:`ALPHABETS`.

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
        Shared by every caller with the same arguments; levels are computed on demand.

    >>> from coalg.model.realisation import CONTEXTFS
    >>> explore(CONTEXTFS, max_len=1) is explore(CONTEXTFS, max_len=1)
    True
    """
    if alphabet not in ALPHABETS:
        raise ValueError(f"unknown alphabet {alphabet!r}; known: {', '.join(sorted(ALPHABETS))}")
    key = (realisation, alphabet, faults, max_len, tuple(seeds))
    if key not in _CACHE:
        _CACHE[key] = Exploration(realisation, alphabet, faults, max_len, tuple(seeds))
    return _CACHE[key]


def clear_cache() -> None:
    """Forget every cached exploration (for benchmarks)."""
    _CACHE.clear()


# --------------------------------------------------------------------------- random exploration


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
        A key of :data:`ALPHABETS`.
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

    Each walk starts at a seed chosen by the generator and picks each letter
    uniformly from the alphabet at the current store (and, with ``faults``, one
    of its fault variants).  A failing call leaves the walk where it is.  The
    sequence is a function of the arguments only.

    >>> from coalg.model.realisation import CONTEXTFS
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
            derived = derived | _derived_ids(a, out)
            yield Transition(st, calls, s, call, out, after, derived)
            s, calls = after, calls + (call,)


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
        A key of :data:`ALPHABETS`.
    clock : int
        The clock reading before the first call.
    faults : bool
        Let the quotient ``choices[k] // |alphabet(s)|`` pick a fault variant.

    Returns
    -------
    Trace
        The calls as made (replayable with :func:`coalg.model.coalgebra.replay`), outputs and stores.

    Hypothesis shrinks
    integer lists towards zeros, that is towards the first letters of each
    alphabet (fresh saves, then evolves).  ``clock`` is the clock reading before
    the first call (a seed's :attr:`Start.clock` when ``start`` is a seed).

    >>> from coalg.model.realisation import CONTEXTFS
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
    """A hypothesis strategy of choice lists for :func:`run_choices` (hypothesis is imported lazily)."""
    from hypothesis import strategies as st

    return st.lists(st.integers(min_value=0, max_value=10_000), max_size=max_len)


# --------------------------------------------------------------------------- display


def show_letter(a: Letter) -> str:
    """A one-line rendering of a letter, for tables and explanations.

    >>> show_letter(Merge(("a", "b"))), show_letter(Evolve("id0", "x", by_prefix=True))
    ('merge(a, b)', "evolve(id0…, 'x') by prefix")
    """
    pfx = getattr(a, "by_prefix", False)
    dots = "…" if pfx else ""
    tail = " by prefix" if pfx else ""
    match a:
        case Save(record=r):
            return f"save({r.content!r} in {r.namespace})"
        case SaveAt(id=i, record=r):
            return f"save_at({i}, {r.content!r})"
        case Recall(id=i):
            return f"recall({i})"
        case RecallPrefix(prefix=p):
            return f"recall_prefix({p}…)"
        case Delete(id=i):
            return f"delete({i}{dots}){tail}"
        case Evolve(id=i, content=c):
            return f"evolve({i}{dots}, {c!r}){tail}"
        case Merge(ids=ids):
            return f"merge({', '.join(i + dots for i in ids)}){tail}"
        case Split(id=i, contents=cs):
            return f"split({i}{dots}, {', '.join(map(repr, cs))}){tail}"
        case Supersede(old=o, new=n):
            return f"supersede({o}, {n})"
        case Link(source=i, relation=r, target=j):
            return f"link({i}, {r.name}, {j})"
    raise TypeError(f"not a letter: {a!r}")


def show_call(c: Call) -> str:
    """A letter rendering plus its injected faults, if any."""
    faults = f" [edge write {', '.join(map(str, sorted(c.faults)))} fails]" if c.faults else ""
    return show_letter(c.letter) + faults
