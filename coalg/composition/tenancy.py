"""Tenants sharing one store (paper §6, the multi-tenant harness): building the shared store, finding interference.

:func:`tenants` builds ``n`` tenant stores the way a harness would — each tenant
saves, evolves and merges its own records by equality — and their shared store
``⊎`` of them all, optionally planting the two interferences of §6:
identifiers that share a prefix across tenants (Proposition 6.3) and edges that
dangle into another tenant's records (Proposition 6.4).  :func:`interference`
finds what a list of stores exhibits, planted or by chance.
"""

from __future__ import annotations

import random
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from ..model import (
    EMPTY,
    Allocation,
    Call,
    Edge,
    Id,
    Letter,
    Record,
    Store,
    creates,
    disjoint_union,
    edge_to_json,
    run,
    uuid_like_ids,
)
from ..model import alphabet as A
from .random_stores import RECORD_TYPES

__all__ = ["tenants", "Interference", "interference"]


def tenants(
    n: int,
    records_per_tenant: int,
    *,
    seed: int,
    id_style: Literal["uuid", "sequential"] = "uuid",
    prefix_collisions: int = 0,
    dangling_edges: int = 0,
) -> tuple[list[Store], Store]:
    """``n`` tenant stores and their shared store ``⊎`` of them all.

    Tenant ``k`` works in namespace ``tenant-k`` and creates exactly
    ``records_per_tenant`` records by saves, evolves and merges of its own
    records (resolution by equality).  Identifiers are ContextFS-shaped
    (:func:`~coalg.model.alphabet.uuid_like_ids`) or ``id0001, id0002, …`` numbered
    across tenants.  Optionally planted:

    * ``prefix_collisions`` — a record of one tenant gets an identifier that
      shares the 8-character prefix of another tenant's record (uuid style), or
      extends another tenant's identifier (sequential style: a full identifier
      that is also a prefix — SQLite ``LIKE`` matches both);
    * ``dangling_edges`` — a tenant supersedes an identifier that is a record of
      another tenant: dangling in its own store, with a target in the shared one.

    Deterministic in ``seed``; ``shared`` is always defined (record domains are disjoint).

    Parameters
    ----------
    n, records_per_tenant : int
        How many tenants, and how many records each creates.
    seed : int
        Everything random (contents, derivations, identifiers, plantings) follows from it.
    id_style : {"uuid", "sequential"}
        ContextFS-shaped 12-character identifiers, or ``id0001``-style ones.
    prefix_collisions, dangling_edges : int
        How many cross-tenant interferences of each kind to plant.

    Returns
    -------
    tuple
        ``(own, shared)``: the list of the tenants' own stores (tenant ``k`` at index ``k``) and the shared store.
        :func:`interference` reports what the plantings (or chance) produce.

    Examples
    --------
    >>> ts, shared = tenants(3, 4, seed=1, prefix_collisions=1, dangling_edges=1)
    >>> [len(t.records) for t in ts], len(shared.records)
    ([4, 4, 4], 12)
    >>> w = interference(ts)
    >>> len(w.prefix_collisions), len(w.acquired_edges), w.mention_disjoint
    (1, 2, False)
    """
    if n < 1 or records_per_tenant < 1:
        raise ValueError("need at least one tenant with at least one record")
    rng = random.Random(seed)
    total = n * records_per_tenant
    if id_style == "uuid":
        pool = uuid_like_ids(total + prefix_collisions + 8, seed=seed)
    elif id_style == "sequential":
        pool = [f"id{k:04d}" for k in range(1, total + 1)]
    else:
        raise ValueError(f"id_style must be 'uuid' or 'sequential', got {id_style!r}")
    supplies = [list(pool[k * records_per_tenant : (k + 1) * records_per_tenant]) for k in range(n)]
    taken = set(pool)
    if prefix_collisions and (n < 2 or 2 * prefix_collisions > total):
        raise ValueError(f"cannot plant {prefix_collisions} prefix collisions among {n} tenants of "
                         f"{records_per_tenant} records (each needs two records in two tenants)")
    used: set[tuple[int, int]] = set()  # (tenant, slot): a collision's source or its planted target
    for c in range(prefix_collisions):
        free = {k: [m for m in range(records_per_tenant) if (k, m) not in used] for k in range(n)}
        # the two tenants with the most free records (ties at random), so that every c ≤ total/2 fits
        order = sorted(range(n), key=lambda k: (-len(free[k]), rng.random()))
        a, b = order[0], order[1]
        if len(order) > 2 and rng.random() < 0.5 and len(free[order[2]]) == len(free[b]):
            b = order[2]
        if not free[b]:
            raise ValueError("no free record in another tenant to plant a prefix collision into")
        sa, sb = rng.choice(free[a]), rng.choice(free[b])
        if rng.random() < 0.5:
            (a, sa), (b, sb) = (b, sb), (a, sa)
        used |= {(a, sa), (b, sb)}
        x = supplies[a][sa]
        if id_style == "uuid":
            while True:
                y = f"{x[:8]}-{rng.getrandbits(12):03x}"
                if y not in taken:
                    break
        else:
            y = f"{x}x{c}"
        taken.add(y)
        supplies[b][sb] = y
    words: list[list[Letter]] = []
    for k in range(n):
        ns = f"tenant-{k}"
        word: list[Letter] = []
        made: list[Id] = []
        for m in range(records_per_tenant):
            u = rng.random()
            if not made or u < 0.55:
                word.append(A.Save(Record(f"{ns} note {m}", type=rng.choice(RECORD_TYPES), namespace=ns)))
            elif u < 0.8 or len(made) < 2:
                word.append(A.Evolve(rng.choice(made), f"{ns} revision {m}"))
            else:
                word.append(A.Merge(tuple(rng.sample(made, 2))))
            made.append(supplies[k][m])
        words.append(word)
    if n >= 2:
        for _ in range(dangling_edges):
            a, b = rng.sample(range(n), 2)
            words[a].append(A.Supersede(rng.choice(supplies[b]), rng.choice(supplies[a])))
    # the allocations are known in advance (record m of tenant k gets supplies[k][m], clock m + 1),
    # so the runs replay explicit calls instead of asking an oracle to scan the store each time
    stores = []
    for k in range(n):
        calls, m = [], 0
        for clock, letter in enumerate(words[k], start=1):
            ids = tuple(supplies[k][m : m + creates(letter)])
            m += creates(letter)
            calls.append(Call(letter, Allocation(ids, clock)))
        stores.append(run(EMPTY, calls).final)
    shared = EMPTY
    for st in stores:
        shared = disjoint_union(shared, st)
    return stores, shared


@dataclass(frozen=True)
class Interference:
    """How tenants can interfere in a shared store (the tenants explorer's data).

    * ``prefix_collisions`` — ``(prefix, (tenant, id), (tenant, id))``: recall by
      that prefix can answer with the other tenant's record (Prop. 6.3);
    * ``acquired_edges`` — ``(tenant, edge, owner)``: an edge of ``tenant`` whose
      dangling endpoint is a record of ``owner`` in the shared store (Prop. 6.4);
    * ``mention_disjoint`` — whether every pair of tenants is mention-disjoint
      (then ``⊕`` is defined and lineage composes, Prop. 6.6).
    """

    prefix_len: int
    prefix_collisions: tuple[tuple[str, tuple[int, Id], tuple[int, Id]], ...]
    acquired_edges: tuple[tuple[int, Edge, int], ...]
    mention_disjoint: bool
    details: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "prefix_len": self.prefix_len,
            "prefix_collisions": [
                {"prefix": p, "a": {"tenant": a[0], "id": a[1]}, "b": {"tenant": b[0], "id": b[1]}}
                for p, a, b in self.prefix_collisions
            ],
            "acquired_edges": [
                {"tenant": k, "edge": edge_to_json(e), "owner": o}
                for k, e, o in self.acquired_edges
            ],
            "mention_disjoint": self.mention_disjoint,
        }


def interference(stores: Sequence[Store], *, prefix_len: int = 8) -> Interference:
    """Find cross-tenant prefix collisions and acquired edges among ``stores`` (tenant = list index)."""
    owner: dict[Id, int] = {}
    for k, st in enumerate(stores):
        for i in st.records:
            owner[i] = k
    ids = sorted(owner)
    found: set[tuple[str, tuple[int, Id], tuple[int, Id]]] = set()
    for x in ids:
        p = x[:prefix_len]
        pos = bisect_left(ids, p)
        while pos < len(ids) and ids[pos].startswith(p):
            y = ids[pos]
            if y != x and owner[y] != owner[x]:
                a, b = sorted([(owner[x], x), (owner[y], y)])
                found.add((p, a, b))
            pos += 1
    # one entry per unordered pair of identifiers
    by_pair: dict[tuple[Id, Id], tuple[str, tuple[int, Id], tuple[int, Id]]] = {}
    for p, a, b in sorted(found):
        by_pair.setdefault((a[1], b[1]), (p, a, b))
    acquired = sorted(
        (k, e, owner[end])
        for k, st in enumerate(stores)
        for e in st.edges
        for end in (e.source, e.target)
        if end not in st.records and end in owner and owner[end] != k
    )
    disjoint = all(
        not (stores[a].ids() & stores[b].ids())
        for a in range(len(stores))
        for b in range(a + 1, len(stores))
    )
    return Interference(prefix_len, tuple(sorted(by_pair.values())), tuple(acquired), disjoint)
