"""Small named stores shared by the book and the explorers.

Every preset is built by running a word from ∅ through the ContextFS model with
the default deterministic oracle (identifiers ``id0001, id0002, …``, clock
1, 2, 3, …), so it lies in S_lin and is the same value on every run.  The word
is kept next to the store: :func:`preset_word` gives it, :func:`preset` the
store it records.

========================  ======================================================
name                      what it shows
========================  ======================================================
``"meeting notes"``       one person's notes: saves, an evolve, a merge, a split
``"two tenants"``         two namespaces side by side, one supersede across them
``"merge tie"``           records whose types tie, for the merged type (Prop 5.20)
``"lineage"``             every derivation once and a supersede: a rich lineage
``"empty"``               ∅
========================  ======================================================

>>> names()
('empty', 'lineage', 'meeting notes', 'merge tie', 'two tenants')
>>> s = preset("meeting notes")
>>> sorted(s.dom())[:3], len(s.records)
(['id0001', 'id0002', 'id0003'], 7)
>>> preset("nope")
Traceback (most recent call last):
...
KeyError: "unknown preset 'nope'; known: empty, lineage, meeting notes, merge tie, two tenants"
"""

from __future__ import annotations

from collections.abc import Callable

from .alphabet import Evolve, Letter, Merge, Save, Split, Supersede
from .coalgebra import run
from .records import Record, Relation
from .store import EMPTY, Store

__all__ = ["PRESETS", "chain_store", "names", "preset", "preset_word", "refinement_example", "sized_store"]


def _meeting_notes() -> list[Letter]:
    return [
        Save(Record("team meeting on Monday at 10", type="episodic", namespace="alice")),
        Save(Record("room 4 is booked", type="fact", namespace="alice")),
        Save(Record("bring the quarterly figures", type="task", namespace="alice")),
        Evolve("id0001", "team meeting moved to 11"),
        Merge(("id0004", "id0002")),
        Split("id0003", ("bring the sales figures", "bring the cost figures")),
    ]


def _two_tenants() -> list[Letter]:
    return [
        Save(Record("alice: the deploy is on Friday", type="fact", namespace="alice")),
        Save(Record("alice: staging is green", type="fact", namespace="alice")),
        Save(Record("bob: the deploy is on Thursday", type="fact", namespace="bob")),
        Save(Record("bob: the rollback plan", type="decision", namespace="bob")),
        Evolve("id0001", "alice: the deploy moved to Monday"),
        Evolve("id0003", "bob: the deploy is on Friday after all"),
        Supersede("id0003", "id0005"),
    ]


def _merge_tie() -> list[Letter]:
    return [
        Save(Record("the API returns JSON", type="fact", namespace="alice")),
        Save(Record("we adopt JSON everywhere", type="decision", namespace="alice")),
        Save(Record("JSON schemas live in /schemas", type="fact", namespace="alice")),
        Save(Record("we version the schemas", type="decision", namespace="alice")),
        Save(Record("bob prefers YAML", type="user", namespace="bob")),
    ]


def _lineage() -> list[Letter]:
    return [
        Save(Record("meeting at 10", type="episodic", namespace="alice")),
        Save(Record("room 4", type="fact", namespace="alice")),
        Save(Record("bob's note", type="fact", namespace="bob")),
        Evolve("id0001", "meeting at 11"),
        Merge(("id0004", "id0002")),
        Split("id0003", ("part a", "part b")),
        Supersede("id0001", "id0004"),
    ]


PRESETS: dict[str, Callable[[], list[Letter]]] = {
    "empty": list,
    "lineage": _lineage,
    "meeting notes": _meeting_notes,
    "merge tie": _merge_tie,
    "two tenants": _two_tenants,
}
"""Preset name ↦ a function returning its construction word (a fresh list each time)."""


def names() -> tuple[str, ...]:
    """The preset names, sorted."""
    return tuple(sorted(PRESETS))


def preset_word(name: str) -> list[Letter]:
    """The word that builds preset ``name`` from ∅ (default oracle)."""
    if name not in PRESETS:
        raise KeyError(f"unknown preset {name!r}; known: {', '.join(names())}")
    return PRESETS[name]()


def preset(name: str) -> Store:
    """The store of preset ``name``: its word run from ∅ on the ContextFS model."""
    word = preset_word(name)
    return run(EMPTY, word).final if word else EMPTY


def sized_store(n: int, *, namespaces: tuple[str, ...] = ("alice", "bob", "carol")) -> Store:
    """A store of exactly ``n`` records made by saves, evolves, merges and splits (deterministic).

    Used by the widget benchmark and by tests that need a store of a given size:
    every fourth call evolves, every seventh merges two earlier records of one
    namespace, and the rest save, round-robin over ``namespaces``.

    >>> len(sized_store(30).records)
    30
    """
    word: list[Letter] = []
    made: list[tuple[str, str]] = []  # (id, namespace) in creation order
    k = 0
    while len(made) < n:
        k += 1
        ns = namespaces[k % len(namespaces)]
        mine = [i for i, m in made if m == ns]
        if k % 7 == 0 and len(mine) >= 2:
            word.append(Merge((mine[-1], mine[-2])))
        elif k % 4 == 0 and mine:
            word.append(Evolve(mine[-1], f"{ns} note {k}, revised"))
        else:
            word.append(Save(Record(f"{ns} note {k}", type="fact", namespace=ns)))
        made.append((f"id{len(made) + 1:04d}", ns))
    return run(EMPTY, word).final


def chain_store(n: int) -> Store:
    """``n`` records in one evolve chain (a deep ancestry, for unfoldings and refinement rounds).

    >>> sorted(chain_store(3).dom())
    ['id0001', 'id0002', 'id0003']
    """
    word: list[Letter] = [Save(Record("version 1"))]
    word += [Evolve(f"id{k:04d}", f"version {k + 1}") for k in range(1, n)]
    return run(EMPTY, word[:n]).final if n else EMPTY


def refinement_example() -> Store:
    """Records that hold *equal* values, so that only their lineage tells them apart.

    Two evolve chains ``a1 ← a2 ← a3`` and ``b1 ← b2`` and a lone ``c``, every
    record the same ``Record("note")``, and ``d`` derived from an identifier
    that holds no record.  Round 0 of partition refinement puts every record in
    one block; the rounds then separate them by the length of their ancestry.
    Built with :meth:`Store.of` (no clock readings), so it is not a recorded run.

    >>> from coalg.bisim.bisimilarity import refinement_rounds
    >>> [len(set(p.values())) for p in refinement_rounds(refinement_example())]
    [2, 6, 8]
    """
    same = Record("note")
    R = Relation
    return Store.of(
        {i: same for i in ("a1", "a2", "a3", "b1", "b2", "c", "d")},
        [
            ("a2", R.EVOLVED_FROM, "a1"), ("a1", R.EVOLVED_INTO, "a2"),
            ("a3", R.EVOLVED_FROM, "a2"), ("a2", R.EVOLVED_INTO, "a3"),
            ("b2", R.EVOLVED_FROM, "b1"), ("b1", R.EVOLVED_INTO, "b2"),
            ("d", R.EVOLVED_FROM, "gone"),
        ],
    )
