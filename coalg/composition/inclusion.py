"""Lineage under union (paper §6.2 Proposition 6.4, Proposition 6.6 (b)): is the inclusion a homomorphism?

``ids(s)`` is a subcoalgebra of ``(Id, β_s)``; the frame property for lineage
observations asks that its inclusion into ``(Id, β_{s⋆t})`` be a homomorphism
(:func:`inclusion_failures` lists where it is not).  Under ``⊎`` it need not
be: a dangling edge of one tenant acquires a target from the other — a
*counterexample* about the model (Proposition 6.4 as this book states it,
:func:`dangling_edge_witness`).  Under the mention-disjoint ``⊕`` it always is
(Proposition 6.6 (b), a *theorem*, property-tested).

>>> from coalg.model import Record, Relation, disjoint_union
>>> s = Store.of({"i": Record("r")}, [("i", Relation.EVOLVED_FROM, "j")])
>>> inclusion_failures(s, disjoint_union(s, Store.of({"j": Record("r′")})))
['j']
"""

from __future__ import annotations

from typing import Any

from ..model import (
    EMPTY,
    Id,
    Letter,
    Record,
    Relation,
    Store,
    Unfolding,
    ancestry,
    beta,
    disjoint_union,
    letter_to_json,
    record_to_json,
    run,
    store_to_json,
)
from ..model import alphabet as A
from .frame import union_or_none

__all__ = ["inclusion_failures", "dangling_edge_witness"]


def inclusion_failures(s: Store, u: Store) -> list[Id]:
    """The ``i ∈ ids(s)`` with ``β_u(i) ≠ β_s(i)``, sorted.

    ``ids(s)`` is a subcoalgebra of ``(Id, β_s)`` (successors of mentioned
    identifiers are mentioned), so its inclusion into ``(Id, β_u)`` is a
    homomorphism exactly when this list is empty (Prop. 6.4 / 6.6 (b)).
    """
    return sorted(i for i in s.ids() if beta(u, i) != beta(s, i))


def dangling_edge_witness() -> dict[str, Any]:
    """Proposition 6.4: under ``⊎`` a dangling edge of ``s`` acquires a target from ``t``.

    ``s = ({i ↦ r}, {(i, EVOLVED_FROM, j)})`` with ``j`` dangling (reachable by
    evolve by prefix, Prop. 5.30), ``t = ({j ↦ r′}, ∅)``.  ``s ⊎ t`` is defined, ``s ⊕ t`` is not;
    ``β_{s⊎t}(j) ≠ β_s(j)`` at ``j ∈ ids(s) \\ dom(m_s)``, so the inclusion of
    ``(ids(s), β_s)`` is not a homomorphism, and ``⟦i⟧⁻`` changes — a frame
    failure for a lineage letter ``lin(i)`` although ``i`` is named by equality.
    The ``s_lin_variant`` does the same inside S_lin: a supersede naming a
    missing identifier (Prop. 5.30) acquires a target; there the full ``β`` changes but
    the ancestry unfolding does not.

    >>> w = dangling_edge_witness()
    >>> w["inclusion_failures"], w["ancestry_changes"], w["mention_union_defined"]
    (['j'], True, False)
    """
    s = Store.of(
        {"i": Record("derived in S", namespace="tenant-s")}, [("i", Relation.EVOLVED_FROM, "j")]
    )
    t = Store.of({"j": Record("T's record", namespace="tenant-t")})
    u = disjoint_union(s, t)
    a_s, a_u = ancestry(s, "i"), ancestry(u, "i")
    word: list[Letter] = [
        A.Save(Record("S's record", namespace="tenant-s")),
        A.Supersede("x0001", "id0001"),
    ]
    s2 = run(EMPTY, word).final
    t2 = Store.of({"x0001": Record("T's record", namespace="tenant-t")})
    u2 = disjoint_union(s2, t2)
    return {
        "s": store_to_json(s),
        "t": store_to_json(t),
        "union": store_to_json(u),
        "mention_union_defined": union_or_none(s, t, "mention") is not None,
        "beta_s_j": _beta_json(s, "j"),
        "beta_union_j": _beta_json(u, "j"),
        "inclusion_failures": inclusion_failures(s, u),
        "ancestry_s_i": unfolding_to_json(a_s),
        "ancestry_union_i": unfolding_to_json(a_u),
        "ancestry_changes": a_s != a_u,
        "s_lin_variant": {
            "word": [letter_to_json(a) for a in word],
            "s": store_to_json(s2),
            "t": store_to_json(t2),
            "inclusion_failures": inclusion_failures(s2, u2),
            "ancestry_changes": ancestry(s2, "id0001") != ancestry(u2, "id0001"),
        },
    }


def _beta_json(s: Store, i: Id) -> dict[str, Any]:
    ob = beta(s, i)
    return {
        "record": None if ob.record is None else record_to_json(ob.record),
        "successors": [[r.value, j] for r, j in ob.successors],
    }


def unfolding_to_json(u: Unfolding) -> list[dict[str, Any]]:
    """An ancestry unfolding as JSON rows: depth, the label it was reached by, identifier, content, mark."""
    return [
        {
            "depth": n.depth,
            "via": None if n.via is None else n.via.value,
            "id": n.id,
            "content": None if n.record is None else n.record.content,
            "mark": n.mark,
        }
        for n in u.nodes
    ]
