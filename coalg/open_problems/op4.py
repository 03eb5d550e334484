"""Open problem 4, identifier resolution and composition: does resolution scoped to a namespace restore 6.2?

The rule
--------
:func:`scoped` builds the ContextFS model with **namespace-scoped resolution**
for a caller working in namespace ν: a prefix (``recall_pfx``, and every letter
with ``by_prefix``) resolves only among the records of the fibre ``N_ν(s)``;
exactly one match resolves (and the *full* identifier is what gets written, not
the prefix), none is "not found", several is an ``Err`` that lists them — no
enumeration order is consulted, so L5 holds for it.  Two variants:

* ``equality="global"`` — only prefixes are scoped; a full identifier still
  resolves anywhere, as ContextFS's ``recall`` does;
* ``equality="scoped"`` — every identifier resolves only in ``N_ν(s)``: a record
  outside the fibre is treated as absent by every letter, supersede and link
  need both ends in the fibre, and a save must file into ν.

The answer (each part with its witness)
---------------------------------------
* **Yes, for tenants in distinct namespaces.**  Let ``s`` hold records only in ν,
  ``t`` none in ν, ``s ⊕ t`` defined and the allocation fresh for both.  With
  ``equality="scoped"`` the frame property ``α(s ⊕ t)(a) = (o, s′ ⊕ t)`` holds for
  **every** letter ``a`` of the caller — prefixes, identifiers of the other
  tenant, deletes — because every resolution reads ``N_ν(s ⊕ t) = N_ν(s)``
  (property-tested; :func:`frame_holds`).  With ``equality="global"`` it holds for
  every prefix letter and for Proposition 6.2's letters (names in ``s``).
* **No, when tenants share a namespace** (:func:`shared_namespace_witness`): the
  6.3 pair, both records in ν.  Alone the prefix resolves; in the union it is
  ambiguous.  Scoping turns the θ-dependent answer into an error (L5 is
  restored) but the answers still differ, so 6.2 fails.  No rule that reads only
  the namespace can separate two tenants that share it.
* **No, when merge crosses namespaces and only prefixes are scoped**
  (:func:`cross_namespace_witness`, the shape of Proposition 5.18): the caller in
  ν merges its record with a record of the other tenant named by full
  identifier.  In the union the merge succeeds and files the other tenant's
  payload into ν; alone it fails.  Two unions that agree on ν but differ in the
  other tenant's record give different records in ν.  Scoping equality as well
  (``equality="scoped"``) closes the hole — which is the REPAIRED rule "merge
  within one namespace" (L4(ii)'s repair): namespace-scoped *prefix* resolution
  restores 6.2 in full only together with it.

>>> w = shared_namespace_witness()
>>> w["alone"], w["in_union"]["out"], w["same_for_every_theta"]
('deadbeef-111', 'err', True)
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from typing import Any, Literal

from ..composition import frame_property, union
from ..model import (
    DEFAULT_THETA,
    Allocation,
    Err,
    Found,
    Id,
    Letter,
    Nothing,
    Output,
    Realisation,
    Record,
    Relation,
    Store,
    Theta,
    creates,
    fibre,
    letter_to_json,
    mention_disjoint_union,
    output_to_json,
    restrict,
    step,
    store_to_json,
    uuid_like_ids,
)
from ..model import alphabet as A
from ._common import evidence

__all__ = [
    "cross_namespace_witness",
    "frame_holds",
    "random_tenant",
    "scoped",
    "shared_namespace_witness",
    "verdict",
]

Equality = Literal["global", "scoped"]
_NO_ALLOCATION = Allocation()


def _resolve(s: Store, nu: str, p: str) -> tuple[Id | None, Output | None]:
    """``(full id, None)``, or ``(None, Nothing())`` / ``(None, Err)`` when nothing or several match in ν."""
    matches = sorted(i for i in fibre(s, nu) if i.startswith(p))
    if not matches:
        return None, Nothing()
    if len(matches) > 1:
        return None, Err(f"{p!r} is ambiguous in namespace {nu}: {', '.join(matches)}")
    return matches[0], None


def _scoped_step(nu: str, equality: Equality) -> Callable[..., tuple[Output, Store]]:
    def fn(s: Store, a: Letter, xi: Allocation = _NO_ALLOCATION, *, theta: Theta = DEFAULT_THETA,
           faults: frozenset[int] = frozenset()) -> tuple[Output, Store]:
        if isinstance(a, A.RecallPrefix):
            j, miss = _resolve(s, nu, a.prefix)
            if j is None:
                assert miss is not None
                return miss, s
            return Found(j, s.records[j]), s
        if getattr(a, "by_prefix", False):
            if isinstance(a, A.Merge):
                full: list[Id] = []
                for p in a.ids:
                    j, miss = _resolve(s, nu, p)
                    if isinstance(miss, Err):
                        return Err(f"merge: {miss.reason}"), s
                    if j is not None:
                        full.append(j)
                a = replace(a, ids=tuple(full), by_prefix=False)
            elif isinstance(a, (A.Evolve, A.Split, A.Delete)):
                j, miss = _resolve(s, nu, a.id)
                if j is None:
                    why = miss.reason if isinstance(miss, Err) else f"no record {a.id!r} in namespace {nu}"
                    return Err(f"{a.kind}: {why}"), s
                a = replace(a, id=j, by_prefix=False)
        if equality == "scoped":
            mine = fibre(s, nu)
            match a:
                case A.Save(record=r) if r.namespace != nu:
                    return Err(f"save: the caller works in namespace {nu}, not {r.namespace}"), s
                case A.Recall(id=i) if i not in mine:
                    return Nothing(), s
                case A.Evolve(id=i) | A.Split(id=i) | A.Delete(id=i) | A.SaveAt(id=i) if i not in mine:
                    return Err(f"{a.kind}: no record {i} in namespace {nu}"), s
                case A.Merge(ids=ids):
                    a = replace(a, ids=tuple(i for i in ids if i in mine))
                case A.Supersede(old=x, new=y) | A.Link(source=x, target=y) if not {x, y} <= mine:
                    return Err(f"{a.kind}: both ends must be records of namespace {nu}"), s
                case A.SaveAt(record=r) if r.namespace != nu:
                    return Err(f"save_at: the caller works in namespace {nu}, not {r.namespace}"), s
        return step(s, a, xi, theta=theta, faults=faults)

    return fn


def scoped(nu: str, *, equality: Equality = "scoped") -> Realisation:
    """The ContextFS model with resolution scoped to namespace ``nu`` (see the module docstring)."""
    return Realisation(f"scoped-{equality}:{nu}", _scoped_step(nu, equality),
                       f"ContextFS with prefix resolution scoped to namespace {nu}"
                       + (" and identifiers outside it treated as absent" if equality == "scoped" else ""),
                       declares_valid_time=False, edge_faults=True)


# =========================================================================== tenants and the frame property


_CONTENT = ("plan A", "plan B", "budget", "owner")


def random_tenant(rng: random.Random, nu: str, ids: list[Id], n: int) -> Store:
    """A tenant store in namespace ``nu``: ``n`` saves, evolves, merges and splits of its own records.

    Identifiers are taken in order from ``ids`` (ContextFS-shaped, so prefixes of
    different tenants can collide when the supplies share prefixes).
    """
    real = scoped(nu)
    s, k = Store(), 0
    for clock in range(1, n + 1):
        live = sorted(s.dom())
        x = rng.random()
        a: Letter
        if not live or x < 0.35:
            a = A.Save(Record(rng.choice(_CONTENT), namespace=nu, tags=frozenset({f"owner-{nu}"})))
        elif x < 0.6:
            a = A.Evolve(rng.choice(live), rng.choice(_CONTENT))
        elif x < 0.8 and len(live) >= 2:
            a = A.Merge(tuple(rng.sample(live, 2)))
        else:
            a = A.Split(rng.choice(live), ("part 1", "part 2"))
        need = 2 if isinstance(a, A.Split) else 1
        xi = Allocation(tuple(ids[k:k + need]), clock)
        k += need
        _, s = real.step(s, a, xi)
    return s


def frame_holds(s: Store, t: Store, a: Letter, xi: Allocation, nu: str, equality: Equality = "scoped") -> bool:
    """Does ``α_ν(s ⊕ t)(a) = (o, s′ ⊕ t)`` hold (:func:`coalg.composition.frame_property`, ⊕)?"""
    return frame_property(s, t, a, xi, union="mention", realisation=scoped(nu, equality=equality)).holds


def random_letter(rng: random.Random, s: Store, t: Store, nu: str) -> Letter:
    """Any letter a caller in ν might send: prefixes of either tenant's identifiers, full identifiers of either."""
    ids_s, ids_t = sorted(s.dom()) or ["x"], sorted(t.dom()) or ["y"]
    pick = rng.choice(ids_s + ids_t)
    pfx = pick[: rng.randint(1, 9)]
    other = rng.choice(ids_s + ids_t)
    choices: list[Letter] = [
        A.RecallPrefix(pfx), A.Recall(pick), A.Evolve(pfx, "v2", by_prefix=True), A.Evolve(pick, "v2"),
        A.Split(pfx, ("p", "q"), by_prefix=True), A.Merge((pick, other)), A.Merge((pfx, other[:4]), by_prefix=True),
        A.Delete(pick), A.Delete(pfx, by_prefix=True), A.Supersede(pick, other),
        A.Save(Record("new", namespace=rng.choice([nu, "elsewhere"]))),
        A.SaveAt(pick, Record("replaced", namespace=rng.choice([nu, "elsewhere"]))),
        A.Link(pick, Relation.REFERENCES, other, bidirectional=True),
    ]
    return rng.choice(choices)


def _tenants(rng: random.Random, shared_prefix: bool) -> tuple[Store, Store]:
    pool = uuid_like_ids(40, seed=rng.randint(0, 10**6))
    ids_s, ids_t = pool[:20], pool[20:]
    if shared_prefix:  # plant a prefix collision between the tenants
        ids_t[0] = ids_s[0][:8] + "-fff"
    return random_tenant(rng, "nu", ids_s, rng.randint(1, 5)), random_tenant(rng, "other", ids_t, rng.randint(1, 5))


def explore_frame(rng: random.Random, trials: int, equality: Equality = "scoped") -> tuple[int, dict[str, Any] | None]:
    """Random tenant pairs (distinct namespaces, planted prefix collisions) and letters: first frame failure, if any."""
    n = 0
    for _ in range(trials):
        s, t = _tenants(rng, rng.random() < 0.5)
        a = random_letter(rng, s, t, "nu")
        xi = Allocation(tuple(f"new-{k}" for k in range(creates(a))), 99)
        n += 1
        if not frame_holds(s, t, a, xi, "nu", equality):
            fc = frame_property(s, t, a, xi, union="mention", realisation=scoped("nu", equality=equality))
            return n, {"s": store_to_json(s), "t": store_to_json(t), "letter": letter_to_json(a),
                       "check": fc.to_json()}
    return n, None


# =========================================================================== the two counterexamples


def shared_namespace_witness() -> dict[str, Any]:
    """Two tenants in the *same* namespace, identifiers sharing the prefix ``deadbeef`` (the 6.3 pair)."""
    s = Store.of({"deadbeef-111": Record("S's plan", namespace="nu")})
    t = Store.of({"deadbeef-222": Record("T's plan", namespace="nu")})
    real = scoped("nu")
    a = A.RecallPrefix("deadbeef")
    o1, _ = real.step(s, a)
    u = union(s, t, "mention")
    outs = {repr(real.step(u, a, theta=th)[0]) for th in (Theta(), Theta(descending=True),
                                                          Theta(id_priority=("deadbeef-222",)))}
    o2, _ = real.step(u, a)
    fc = frame_property(s, t, a, union="mention", realisation=real)
    return {"s": store_to_json(s), "t": store_to_json(t), "letter": letter_to_json(a),
            "alone": o1.id if isinstance(o1, Found) else None, "in_union": output_to_json(o2),
            "frame_holds": fc.holds, "same_for_every_theta": len(outs) == 1}


def cross_namespace_witness() -> dict[str, Any]:
    """Merge across namespaces with prefix-only scoping: Proposition 5.18's shape, under scoped resolution."""
    s = Store.of({"a1b2c3d4-001": Record("S: ship on Friday", namespace="nu")})
    t1 = Store.of({"f9e8d7c6-002": Record("T: secret budget 10k", namespace="other", tags=frozenset({"secret"}))})
    t2 = Store.of({"f9e8d7c6-002": Record("T: secret budget 99k", namespace="other", tags=frozenset({"secret"}))})
    a = A.Merge(("a1b2c3d4-001", "f9e8d7c6-002"))
    xi = Allocation(("m0000000-001",), 7)
    out: dict[str, Any] = {"s": store_to_json(s), "t": store_to_json(t1), "letter": letter_to_json(a)}
    eqs: tuple[Equality, ...] = ("global", "scoped")
    for eq in eqs:
        real = scoped("nu", equality=eq)
        fc = frame_property(s, t1, a, xi, union="mention", realisation=real)
        r1 = real.step(mention_disjoint_union(s, t1), a, xi)[1]
        r2 = real.step(mention_disjoint_union(s, t2), a, xi)[1]
        j = xi.ids[0]
        out[eq] = {
            "alone": output_to_json(fc.output_alone) if fc.output_alone is not None else None,
            "in_union": output_to_json(fc.output_in_union) if fc.output_in_union is not None else None,
            "frame_holds": fc.holds,
            "record_in_nu": None if j not in r1.records else {"namespace": r1.records[j].namespace,
                                                              "content": r1.records[j].content,
                                                              "tags": sorted(r1.records[j].tags)},
            "restrictions_to_nu_agree_before": restrict(mention_disjoint_union(s, t1), "nu")
            == restrict(mention_disjoint_union(s, t2), "nu"),
            "records_in_nu_differ_after": restrict(r1, "nu") != restrict(r2, "nu"),
        }
    return out


def verdict(trials: int = 150, seed: int = 94) -> tuple[bool, int, dict[str, Any], str]:
    """The evidence for open problem 4: the frame property under full scoping, and the two counterexamples."""
    rng = random.Random(seed)
    n, failure = explore_frame(rng, trials, "scoped")
    shared, cross = shared_namespace_witness(), cross_namespace_witness()
    holds = (failure is None and not shared["frame_holds"] and shared["same_for_every_theta"]
             and not cross["global"]["frame_holds"] and cross["global"]["records_in_nu_differ_after"]
             and cross["scoped"]["frame_holds"])
    witness: dict[str, Any] = {
        "rule": "resolve a prefix only among the records of the caller's namespace ν: one match resolves (the full "
                "identifier is written), none is not-found, several is an error; with equality='scoped' every "
                "identifier outside ν is treated as absent and saves must file into ν",
        "theorem": "tenants s (records only in ν) and t (none in ν) with s ⊕ t defined, allocation fresh for both: "
                   "α_ν(s ⊕ t)(a) = (o, s′ ⊕ t) for every letter a",
        "shared_namespace": shared,
        "cross_namespace_merge": cross,
        "explored": n,
    }
    summary = (f"Open problem 4 (answer): with every resolution scoped to the caller's namespace the frame property "
               f"holds for every letter on {n} random tenant pairs in distinct namespaces (prefix collisions "
               "planted); it fails when tenants share a namespace (found alone, ambiguous in the union — L5 is "
               "restored, 6.2 is not), and with only prefixes scoped a cross-namespace merge reproduces "
               "Proposition 5.18's shape.")
    return evidence(holds, n, witness, failure, summary)
