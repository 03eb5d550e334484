"""Random stores, calls and allocations for the property tests of paper §6 (Props. 6.2, 6.6, Cor. 6.1).

Two tenants' stores ``s`` (identifiers ``s…``) and ``t`` (identifiers ``t…``)
are random runs of the lineage fragment from ∅, optionally with supersede edges
that dangle into the other tenant (:func:`random_pair`); a call names records of
``s`` by equality (:func:`random_named_call`) and gets an allocation admissible
at the union (:func:`random_allocation`).  Everything follows from the
``random.Random`` passed in, so a seeded run is the same on every machine.

>>> import random
>>> s, t = random_pair(random.Random(1), mention_disjoint=True)
>>> not (s.ids() & t.ids())
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..model import (
    DEFAULT_THETA,
    EMPTY,
    Allocation,
    Id,
    Letter,
    Record,
    Relation,
    Store,
    Theta,
    creates,
    run,
)
from ..model import alphabet as A

__all__ = [
    "random_store",
    "random_pair",
    "random_named_call",
    "random_allocation",
    "random_small_store",
]

_CONTENTS = ("plan A", "plan B", "budget 10k", "budget 12k", "alice leads", "bob leads")
RECORD_TYPES = ("fact", "decision", "procedural")
"""The record types the random stores and the tenants draw from."""


def _save(rng: random.Random, namespace: str) -> A.Save:
    return A.Save(
        Record(
            rng.choice(_CONTENTS),
            type=rng.choice(RECORD_TYPES),
            namespace=namespace,
            tags=frozenset({rng.choice(("x", "y"))}),
        )
    )


def random_store(
    rng: random.Random,
    n_calls: int,
    *,
    prefix: str = "s",
    namespace: str = "s",
    dangling_pool: Sequence[Id] = (),
    theta: Theta = DEFAULT_THETA,
) -> Store:
    """A store of the lineage fragment: a random run of fresh saves, derivations and supersedes from ∅.

    Identifiers come from ``Oracle(prefix=prefix)``; every derivation names
    existing records by equality.  Supersedes may name identifiers from
    ``dangling_pool`` (supersede checks nothing, Prop. 5.30), which leaves dangling
    non-lineage edges — the stores stay in S_lin.
    """
    oracle = A.Oracle(prefix=prefix)
    s = EMPTY
    for _ in range(n_calls):
        dom = sorted(s.dom())
        c = rng.random()
        a: Letter
        if not dom or c < 0.35:
            a = _save(rng, namespace)
        elif c < 0.55:
            a = A.Evolve(rng.choice(dom), rng.choice(_CONTENTS))
        elif c < 0.7 and len(dom) >= 2:
            a = A.Merge(tuple(rng.sample(dom, 2)))
        elif c < 0.8:
            a = A.Split(rng.choice(dom), ("part 1", "part 2"))
        else:
            pool = list(dangling_pool) + dom
            a = A.Supersede(rng.choice(pool), rng.choice(dom))
        s = run(s, [a], oracle=oracle, theta=theta).final
    return s


def random_pair(
    rng: random.Random, *, mention_disjoint: bool, size: int = 5
) -> tuple[Store, Store]:
    """Two random fragment stores ``s`` (ids ``s…``) and ``t`` (ids ``t…``) with ``s ⊎ t`` defined.

    With ``mention_disjoint=False``, ``t`` may carry supersede edges naming records
    of ``s`` and identifiers ``s``'s oracle has not used yet (dangling endpoints a
    later allocation can land on); with ``True``, ``s ⊕ t`` is defined as well.
    """
    s = random_store(rng, rng.randint(0, size), prefix="s", namespace="s")
    pool: list[Id] = [] if mention_disjoint else sorted(s.dom()) + ["s0090", "s0091"]
    t = random_store(rng, rng.randint(0, size), prefix="t", namespace="t", dangling_pool=pool)
    return s, t


def random_named_call(rng: random.Random, s: Store, *, allow_delete: bool = False) -> Letter:
    """A fragment call (or a recall, or optionally a delete) naming only records of ``s``, by equality."""
    dom = sorted(s.dom())
    options = (
        ["save"]
        + (["evolve", "split", "supersede", "recall"] if dom else [])
        + (["merge"] if len(dom) >= 2 else [])
        + (["delete"] if dom and allow_delete else [])
    )
    kind = rng.choice(options)
    if kind == "save":
        return _save(rng, "s")
    if kind == "evolve":
        return A.Evolve(rng.choice(dom), rng.choice(_CONTENTS))
    if kind == "split":
        return A.Split(rng.choice(dom), ("left", "right"))
    if kind == "supersede":
        return A.Supersede(rng.choice(dom), rng.choice(dom))
    if kind == "recall":
        return A.Recall(rng.choice(dom))
    if kind == "merge":
        return A.Merge(tuple(rng.sample(dom, rng.randint(2, min(3, len(dom))))))
    return A.Delete(rng.choice(dom))


def random_allocation(rng: random.Random, u: Store, a: Letter, *, strict: bool) -> Allocation:
    """An allocation for ``a`` admissible at ``u``.

    ``strict`` draws identifiers outside ``occ(u)``; otherwise each identifier is,
    when possible, one of ``u``'s dangling endpoints (``dom``-fresh but not
    strictly fresh — the case strict freshness rules out).
    """
    dangling = sorted(u.dangling())
    occ = u.occ()
    ids: list[Id] = []
    k = 0
    for _ in range(creates(a)):
        candidates = [d for d in dangling if d not in ids]
        if not strict and candidates and rng.random() < 0.6:
            ids.append(rng.choice(candidates))
            continue
        while True:
            k += 1
            j = f"n{k:04d}"
            if j not in occ and j not in ids:
                ids.append(j)
                break
    return Allocation(tuple(ids), rng.randint(1, 99))


def random_small_store(rng: random.Random, pool: Sequence[Id] = ("a", "b", "c", "d", "e")) -> Store:
    """A small arbitrary store over a tiny identifier pool (for the monoid laws, where clashes must be likely)."""
    ids = [i for i in pool if rng.random() < 0.3]
    recs = {i: Record(rng.choice(("x", "y"))) for i in ids}
    labels = (Relation.EVOLVED_FROM, Relation.SUPERSEDES, Relation.RELATED_TO)
    edges = [
        (rng.choice(pool), rng.choice(labels), rng.choice(pool)) for _ in range(rng.randint(0, 2))
    ]
    return Store.of(recs, edges)
