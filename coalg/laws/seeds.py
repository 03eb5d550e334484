"""What the law search enumerates: seed stores, the letters tried at a store, allocations and faults.

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

The search itself is :mod:`coalg.laws.exploration`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..model import (
    DEFAULT_THETA,
    DERIVATIONS,
    EMPTY,
    Allocation,
    Call,
    Created,
    Delete,
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
    Store,
    Supersede,
    Theta,
    creates,
    edge_writes,
)

__all__ = [
    "ALPHABETS",
    "NAMESPACES",
    "RENAMING_INVARIANT",
    "SEEDS",
    "UNKNOWN",
    "Seed",
    "Start",
    "allocate",
    "derived_ids",
    "fault_variants",
    "fragment_alphabet",
    "full_alphabet",
    "recording_alphabet",
    "seed_named",
    "start_of",
]

UNKNOWN: Id = "missing"
"""The one identifier every alphabet names that no seed holds."""

NAMESPACES = ("alice", "bob")
"""The namespaces a fresh save is tried in, besides those of the store."""
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


def derived_ids(a: Letter, out: Output) -> frozenset[Id]:
    """The identifiers a call created by a derivation (evolve, merge, split, supersede): none for a save."""
    if a.kind in DERIVATIONS and isinstance(out, Created):
        return frozenset(out.ids)
    return frozenset()


def start_of(realisation: Realisation, seed: Seed, *, theta: Theta = DEFAULT_THETA) -> Start:
    """Run the seed's construction word from ∅ through ``realisation``.

    Call k gets the allocation of :func:`allocate` with clock k, so the seed is
    reachable from ∅ and replayable from :attr:`Start.calls`.

    >>> from coalg.model import CONTEXTFS
    >>> st = start_of(CONTEXTFS, SEEDS[3])
    >>> sorted(st.store.dom()), st.clock, sorted(st.derived)
    (['id0001', 'id0002', 'id0003'], 3, ['id0003'])
    """
    s, derived, calls = EMPTY, frozenset[Id](), []
    for k, a in enumerate(seed.word, start=1):
        call = Call(a, allocate(s, a, k))
        out, s = realisation.step(s, a, call.allocation, theta=theta)
        derived |= derived_ids(a, out)
        calls.append(call)
    return Start(seed, s, len(seed.word), derived, tuple(calls))


def seed_named(realisation: Realisation, name: str) -> Start:
    """The default seed called ``name``, as built by ``realisation``.

    >>> from coalg.model import CONTEXTFS
    >>> seed_named(CONTEXTFS, "tie").store.dom() == {"id0001", "id0002"}
    True
    """
    return start_of(realisation, next(sd for sd in SEEDS if sd.name == name))


# --------------------------------------------------------------------------- alphabets


def _named(s: Store) -> list[Id]:
    return sorted(s.dom()) + [UNKNOWN]


def fragment_alphabet(s: Store) -> list[Letter]:
    """The lineage-fragment letters at ``s``, identifiers named by equality.

    A fresh save per namespace (:data:`NAMESPACES` and those of ``s``); evolve and split
    of each record and of :data:`UNKNOWN`; merge of each ordered pair of records
    and of each record with :data:`UNKNOWN`; supersede of each ordered pair, the
    old end possibly :data:`UNKNOWN` (supersede checks nothing); recall of each identifier.

    >>> from coalg.laws.display import show_letter
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

    >>> from coalg.model import CONTEXTFS
    >>> len(recording_alphabet(EMPTY)), len(recording_alphabet(seed_named(CONTEXTFS, "tie").store))
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
"""The alphabets of the law search by name: the letters tried at a store."""

RENAMING_INVARIANT = frozenset({"fragment", "recording"})
"""The alphabets that name identifiers by equality only (and :data:`UNKNOWN` as a constant).

Renaming a store's identifiers renames its letters with it, so the exploration
may identify stores up to renaming (:func:`coalg.laws.exploration.state_key`).
The full alphabet names identifiers by prefix (``i[:-1]``) and the model
resolves a prefix in the order of the identifiers, so it is not.
"""


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
