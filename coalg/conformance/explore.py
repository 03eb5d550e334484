"""The exploration: every word up to a length, then seeded random walks -- both deterministic.

The transitions are the law search's own (:class:`coalg.laws.Transition`),
so the law predicates apply to them unchanged:

* :func:`levels` -- breadth first from a fresh layer: level k holds every
  transition whose word has length k, parents in order, letters in alphabet
  order.  A refused call, or one that changed nothing, is judged but not
  extended, and a store already reached at a level is extended once (stores
  are compared in canonical names, so two words that differ only in the
  identifiers the layer chose meet).  The first violation a judge meets is
  one of minimal length.
* :func:`walks` -- ``n`` walks of ``length`` calls from a fresh layer, each
  letter drawn by ``random.Random(seed)`` from the alphabet at the current
  store; a refused call leaves the walk where it is.
* :func:`shrink` -- a word made shorter while a predicate still fails on it:
  calls are removed one at a time and the word is run again with fresh
  allocations, later calls renamed to name the same records (greedy; no
  single call can then be removed).

Allocations are the law search's (:func:`coalg.laws.allocate`): the first
``idNNNN`` the store does not mention, the clock counting calls.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator, Sequence

from ..laws import Node, Seed, Start, Transition, allocate
from ..model import (
    DERIVATIONS,
    Call,
    Created,
    Id,
    Letter,
    Output,
    Realisation,
    Store,
    letter_from_json,
    letter_to_json,
)

__all__ = ["FRESH", "derived_of", "levels", "rename_letter", "rerun", "shrink", "start", "walks"]

FRESH = Seed("fresh", (), "a fresh layer")
"""Where every word starts: the layer the factory makes."""

Alphabet = Callable[[Store], list[Letter]]


def start(fresh: Store) -> Start:
    """The start of every word: a fresh layer showing ``fresh``."""
    return Start(FRESH, fresh, 0, frozenset(), ())


def derived_of(a: Letter, out: Output) -> frozenset[Id]:
    """The records a call created by a derivation (none for a save)."""
    return frozenset(out.ids) if a.kind in DERIVATIONS and isinstance(out, Created) else frozenset()


def levels(realisation: Realisation, letters: Alphabet, max_len: int, st: Start) -> Iterator[tuple[int, Transition]]:
    """``(k, transition)`` for every word of length k ≤ ``max_len``, breadth first."""
    nodes = [Node(st, (), st.store, st.derived)]
    for k in range(1, max_len + 1):
        children: list[Node] = []
        seen: set[tuple[Store, frozenset[Id]]] = set()
        for node in nodes:
            for a in letters(node.store):
                call = Call(a, allocate(node.store, a, len(node.calls) + 1))
                out, after = realisation.step(node.store, a, call.allocation)
                derived = node.derived | derived_of(a, out)
                t = Transition(st, node.calls, node.store, call, out, after, derived)
                yield k, t
                if t.ok and after != node.store and (after, derived) not in seen:
                    seen.add((after, derived))
                    children.append(Node(st, t.word, after, derived))
        nodes = children


def walks(realisation: Realisation, letters: Alphabet, n: int, length: int, seed: int,
          st: Start) -> Iterator[tuple[int, Transition]]:
    """``(walk number, transition)`` for ``n`` seeded random walks of ``length`` calls."""
    rng = random.Random(seed)
    for w in range(n):
        s, derived = st.store, st.derived
        calls: tuple[Call, ...] = ()
        for k in range(length):
            a = rng.choice(letters(s))
            call = Call(a, allocate(s, a, k + 1))
            out, after = realisation.step(s, a, call.allocation)
            derived = derived | derived_of(a, out)
            yield w, Transition(st, calls, s, call, out, after, derived)
            s, calls = after, calls + (call,)


def rename_letter(a: Letter, f: Callable[[Id], Id]) -> Letter:
    """``a`` naming ``f(i)`` wherever it names ``i``."""
    d = letter_to_json(a)
    for key in ("id", "old", "new", "prefix"):
        if isinstance(d.get(key), str):
            d[key] = f(d[key])
    if isinstance(d.get("ids"), list):
        d["ids"] = [f(i) for i in d["ids"]]
    return letter_from_json(d)


def rerun(realisation: Realisation, st: Start, word: Sequence[Letter | Call],
          planned: Iterable[Id] = ()) -> Iterator[Transition]:
    """The transitions of ``word`` run from ``st`` with fresh allocations.

    Given calls (a word run before, perhaps with calls left out), each later
    call is renamed to name the records the kept calls create now; a record
    that a left-out call created (one of ``planned``, the identifiers the whole
    word allocated) is named ``<id>-gone``, which names nothing.
    """
    s, derived = st.store, st.derived
    calls: tuple[Call, ...] = ()
    now: dict[Id, Id] = {}
    planned = {*planned, *(j for x in word if isinstance(x, Call) for j in x.allocation.ids)}

    def renamed(i: Id) -> Id:
        return now.get(i, f"{i}-gone" if i in planned and i not in st.store.records else i)

    for k, x in enumerate(word):
        a = x if not isinstance(x, Call) else rename_letter(x.letter, renamed)
        call = Call(a, allocate(s, a, k + 1))
        out, after = realisation.step(s, a, call.allocation)
        if isinstance(x, Call) and isinstance(out, Created):
            now.update(zip(x.allocation.ids, out.ids))
        derived = derived | derived_of(a, out)
        yield Transition(st, calls, s, call, out, after, derived)
        s, calls = after, calls + (call,)


def shrink(realisation: Realisation, t: Transition, fails: Callable[[Transition], bool]) -> Transition:
    """A transition at the end of a shorter word on which ``fails`` still holds (greedy call removal)."""
    best = t
    improved = True
    while improved:
        improved = False
        word = list(best.word)
        planned = {j for c in word for j in c.allocation.ids}
        for k in range(len(word)):
            trial = word[:k] + word[k + 1:]
            for u in rerun(realisation, t.start, trial, planned):
                if fails(u):
                    best, improved = u, True
                    break
            if improved:
                break
    return best
