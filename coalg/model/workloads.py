"""Long words for measuring and for determinism checks: n saves, and a mixed word.

:func:`mixed_word` draws, from a seed, a word in which every call is admissible
when it is run from ∅ with the default oracle: about 45% saves, 20% evolves,
10% merges, 5% splits, 5% supersedes and 15% deletes, each naming records that
are alive at that point.  The identifiers it names are those the default
:class:`~coalg.model.alphabet.Oracle` allocates (``id0001``, ``id0002``, … in
creation order), so the word runs unchanged through the model, the repaired
realisation, a plain dictionary or the real ContextFS package (with the
package's own identifiers substituted in creation order).  :func:`created_ids`
says which identifiers each call creates.

>>> from coalg.model.coalgebra import Created, run
>>> from coalg.model.store import EMPTY
>>> w = mixed_word(200, seed=3)
>>> t = run(EMPTY, w)
>>> [o.ids for o in t.outputs if isinstance(o, Created)] == [c for c in created_ids(w) if c]
True
>>> sorted({a.kind for a in w})
['delete', 'evolve', 'merge', 'save', 'split', 'supersede']
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

from .alphabet import Delete, Evolve, Letter, Merge, Save, Split, Supersede, creates
from .records import Id, Record

__all__ = ["MIX", "saves", "mixed_word", "created_ids"]

MIX: tuple[tuple[str, int], ...] = (
    ("save", 45), ("evolve", 20), ("merge", 10), ("split", 5), ("supersede", 5), ("delete", 15),
)
"""The shares (in percent) of each kind of call in :func:`mixed_word`."""

_TYPES = ("fact", "decision", "episodic", "procedural")
_SPACES = ("alice", "bob", "carol", "dave")


def saves(n: int) -> list[Letter]:
    """``n`` fresh saves of distinct records in four namespaces."""
    return [
        Save(Record(f"note {k}", type=_TYPES[k % 4], namespace=_SPACES[k % 4])) for k in range(n)
    ]


def _oracle_id(k: int) -> Id:
    return f"id{k:04d}"


class _Live:
    """The records alive so far: O(1) random choice and removal."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.ids: list[Id] = []
        self.at: dict[Id, int] = {}

    def add(self, i: Id) -> None:
        self.at[i] = len(self.ids)
        self.ids.append(i)

    def pick(self) -> Id:
        return self.ids[self.rng.randrange(len(self.ids))]

    def pick_two(self) -> tuple[Id, Id]:
        a = self.pick()
        while True:
            b = self.pick()
            if b != a:
                return a, b

    def remove(self, i: Id) -> None:
        k, last = self.at.pop(i), self.ids.pop()
        if last != i:
            self.ids[k] = last
            self.at[last] = k


def mixed_word(n: int, seed: int = 0) -> list[Letter]:
    """A word of ``n`` admissible calls in the proportions of :data:`MIX`, reproducible from ``seed``."""
    rng = random.Random(seed)
    kinds = [k for k, _ in MIX]
    weights = [w for _, w in MIX]
    live = _Live(rng)
    made = 0
    word: list[Letter] = []
    for k, kind in enumerate(rng.choices(kinds, weights, k=n)):
        have = len(live.ids)
        if have < 2 and kind in ("merge", "supersede") or have < 1:
            kind = "save"
        a: Letter
        if kind == "save":
            a = Save(Record(f"note {k}", type=rng.choice(_TYPES), namespace=rng.choice(_SPACES)))
        elif kind == "evolve":
            a = Evolve(live.pick(), f"note {k}, revised")
        elif kind == "merge":
            a = Merge(live.pick_two())
        elif kind == "split":
            a = Split(live.pick(), (f"note {k}, part 1", f"note {k}, part 2"))
        elif kind == "supersede":
            old, new = live.pick_two()
            a = Supersede(old, new)
        else:
            i = live.pick()
            live.remove(i)
            a = Delete(i)
        for _ in range(creates(a)):
            made += 1
            live.add(_oracle_id(made))
        word.append(a)
    return word


def created_ids(word: Sequence[Letter]) -> Iterator[tuple[Id, ...]]:
    """For each call of ``word``, the identifiers the default oracle gives what it creates."""
    made = 0
    for a in word:
        k = creates(a)
        yield tuple(_oracle_id(made + j) for j in range(1, k + 1))
        made += k
