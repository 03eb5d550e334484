"""The results of §3 about the model itself: Proposition 3.6 and Remark 3.9.

Proposition 3.6: stores under ⊎ form a partial commutative monoid.  Remark 3.9:
why the allocation oracle — without it the structure map is a relation.  Both
are theorems, checked on every schema realisation where a realisation matters.
"""

from __future__ import annotations

from typing import Any

from ..model import (
    CONTEXTFS,
    EMPTY,
    Allocation,
    Call,
    Record,
    Relation,
    Save,
    Store,
    UnionUndefined,
    call_to_json,
    disjoint_union,
    store_to_json,
)
from ..paper import Verdict, paper_item
from .common import SCHEMA_REALISATIONS
from .display import show_letter
from .exploration import explore

__all__ = ["check_3_6", "check_3_9"]


def _pool() -> list[Store]:
    """Small stores for the monoid laws: seeds, their one-step successors, renamed copies, a dangling one."""
    ex = explore(CONTEXTFS, "fragment", max_len=1)
    stores = [EMPTY] + [n.store for n in ex.nodes(0)] + [t.after for t in ex.level(1)[::9] if t.ok]
    renamed = [Store.of({f"x{i}": r for i, r in s.records.items()},
                        [(f"x{e.source}", e.relation, f"x{e.target}") for e in s.edges]) for s in stores[1:4]]
    dangling = Store.of({"y1": Record("y")}, [("y1", Relation.SUPERSEDES, "id0001")])
    out: list[Store] = []
    for s in stores + renamed + [dangling]:
        if s not in out:
            out.append(s)
    return out


def _union(s: Store, t: Store) -> Store | None:
    try:
        return disjoint_union(s, t)
    except UnionUndefined:
        return None


@paper_item("3.6")
def check_3_6() -> Verdict:
    """Proposition 3.6: (S, ⊎, ∅) is a partial commutative monoid — unit, commutativity, associativity.

    Explored: ordered triples of a pool of small stores (seeds, their successors,
    renamed copies with disjoint domains, a store with a dangling edge).  The
    witness shows that the monoid is not cancellative (our observation).
    """
    pool = _pool()
    explored = 0
    bad: tuple[Any, ...] | None = None
    for s in pool:
        if _union(s, EMPTY) != s or _union(EMPTY, s) != s:
            bad = ("unit", s)
        for t in pool:
            if _union(s, t) != _union(t, s):
                bad = bad or ("commutativity", s, t)
            for u in pool:
                explored += 1
                st, tu = _union(s, t), _union(t, u)
                left = None if st is None else _union(st, u)
                right = None if tu is None else _union(s, tu)
                if left != right:
                    bad = bad or ("associativity", s, t, u)
    a = Store.of({"a": Record("A")}, [("a", Relation.SUPERSEDES, "z")])
    b = Store.of({"b": Record("B")}, [("a", Relation.SUPERSEDES, "z")])
    b2 = Store.of({"b": Record("B")})
    witness: dict[str, Any] = {
        "pool_size": len(pool),
        "not_cancellative": {"s": store_to_json(a), "t": store_to_json(b), "t_prime": store_to_json(b2),
                             "equal_unions": _union(a, b) == _union(a, b2), "t_equals_t_prime": b == b2},
    }
    if bad is not None:
        witness["failure"] = {"law": bad[0], "stores": [store_to_json(x) for x in bad[1:]]}
    return Verdict("3.6", "property", bad is None, explored, witness,
                   f"Proposition 3.6: ∅ is a unit, ⊎ is commutative and associative (definedness included) on all "
                   f"{explored} triples of {len(pool)} stores; it is not cancellative, since edge sets may overlap.")


@paper_item("3.9")
def check_3_9() -> Verdict:
    """Remark 3.9: on the bare alphabet the structure map is a relation, not a function.

    The same store and letter with two allocations (identifier and clock) give two
    different successors, on both realisations; with the allocation in the letter
    (Â) the step is a function: repeating a call gives the same result.
    """
    a = Save(Record("r"))
    x1, x2 = Allocation(("id0001",), 1), Allocation(("id0002",), 2)
    rows, explored = {}, 0
    for real in SCHEMA_REALISATIONS:
        s1, s2 = real.step(EMPTY, a, x1)[1], real.step(EMPTY, a, x2)[1]
        again = real.step(EMPTY, a, x1)[1]
        explored += 3
        rows[real.name] = {"successor_1": store_to_json(s1), "successor_2": store_to_json(s2),
                           "successors_differ": s1 != s2, "function_on_A_plus": again == s1}
    holds = all(r["successors_differ"] and r["function_on_A_plus"] for r in rows.values())
    return Verdict("3.9", "counterexample", holds, explored,
                   {"letter": show_letter(a), "allocations": [call_to_json(Call(a, x1))["allocation"],
                                                              call_to_json(Call(a, x2))["allocation"]],
                    "realisations": rows},
                   "Remark 3.9: save(r) at ∅ has two successors under two allocations — uuid4 and the clock make "
                   "the bare structure map a relation; moving the allocation into the letter makes α a function.")
