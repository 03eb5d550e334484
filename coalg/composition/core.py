"""Composition of stores: the paper's Section 6 made executable (spec §5.10).

A harness that hosts several agents hosts several stores.  The question of §6.2
is whether an operation gives the same answer when the store around it grows:
``α(s ⊎ t)(a) = (o, s′ ⊎ t)`` whenever ``α(s)(a) = (o, s′)`` — the *frame
property*.  What this module checks, and which kind of claim each result is:

* **Proposition 6.2** (frame property) — a *theorem* of the first kind, for
  fragment calls and recalls that name identifiers of ``s`` by equality, with
  allocations fresh for ``s ⊎ t``.  :func:`frame_property` checks one instance;
  the tests property-test it over random stores and calls.
* **Proposition 6.3** — a *counterexample* whose code-dependent ingredient is
  the prefix ``LIKE … fetchone()`` of ``_recall_from_sqlite``: recall by prefix
  answers differently once a disjoint tenant's store is added, for some θ
  (:func:`prefix_recall_witness`).  Remark 6.8 gives the scale
  (:func:`prefix_collision_probability`).
* **Proposition 6.4** — a *counterexample* about the model: a dangling edge of
  one tenant acquires a target from the other, so the inclusion of the
  subcoalgebra ``(ids(s), β_s)`` into ``(Id, β_{s⊎t})`` is not a homomorphism
  (the review's form; :func:`dangling_edge_witness`).
* **Definition 6.5 / Proposition 6.6** — the mention-disjoint union ``⊕`` repairs
  it: (a) a partial commutative monoid, (b) ``β_{s⊕t}(i) = β_s(i)`` on
  ``ids(s)``, (c) the frame property, delete included, for strictly fresh
  allocations — all *theorems*, property-tested — and (d) prefix recall still
  not covered (the 6.3 counterexample again).
* **Corollary 6.1** — a consumer's cached ancestry survives every later
  derivation-only composite (*theorem*, via Theorem 5.7); a delete or a save
  under an existing identifier breaks it (*counterexamples*).

The registered checks read ``holds`` as "the paper's statement is confirmed":
for a counterexample item that means the counterexample was exhibited.

Examples
--------
>>> from coalg.model.records import Record
>>> s, t = Store.of({"a": Record("A")}), Store.of({"b": Record("B")})
>>> frame_property(s, t, Evolve("a", "A2"), Allocation(("n1",), 5)).holds
True
>>> round(prefix_collision_probability(77_163), 3)
0.5
"""

from __future__ import annotations

import math
import random
from bisect import bisect_left
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal

from ..model import (
    CONTEXTFS,
    DEFAULT_THETA,
    Allocation,
    Call,
    Delete,
    Evolve,
    Id,
    Letter,
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
    Unfolding,
    ancestry,
    beta,
    creates,
    edge_to_json,
    is_fragment,
    letter_to_json,
    named,
    output_to_json,
    run,
    store_to_json,
    uuid_like_ids,
)
from ..model.store import EMPTY, Edge, Store, UnionUndefined, disjoint_union, mention_disjoint_union
from ..paper import Verdict, paper_item

__all__ = [
    "FrameCheck",
    "Interference",
    "Union",
    "ancestry_cache_check",
    "cache_counterexamples",
    "check_6_1",
    "check_6_2",
    "check_6_3",
    "check_6_4",
    "check_6_5",
    "check_6_6",
    "check_6_8",
    "collision_threshold",
    "dangling_edge_witness",
    "frame_property",
    "inclusion_failures",
    "interference",
    "particular_prefix_probability",
    "prefix_bits",
    "prefix_collision_approx",
    "prefix_collision_probability",
    "prefix_recall_witness",
    "random_allocation",
    "random_named_call",
    "random_pair",
    "random_small_store",
    "random_store",
    "tenants",
    "union",
]

Union = Literal["disjoint", "mention"]

NO_ALLOCATION = Allocation()
"""The empty allocation (for calls that create nothing)."""


def union(s: Store, t: Store, kind: Union = "disjoint") -> Store:
    """``s ⊎ t`` (``kind="disjoint"``, Def. 3.5) or ``s ⊕ t`` (``kind="mention"``, Def. 6.5); raises if undefined."""
    if kind == "disjoint":
        return disjoint_union(s, t)
    if kind == "mention":
        return mention_disjoint_union(s, t)
    raise ValueError(f"kind must be 'disjoint' or 'mention', got {kind!r}")


def _try_union(s: Store, t: Store, kind: Union) -> Store | None:
    try:
        return union(s, t, kind)
    except UnionUndefined:
        return None


# =========================================================================== Proposition 6.2: the frame property


@dataclass(frozen=True)
class FrameCheck:
    """One instance of the frame property: its hypotheses and both sides of the equation.

    ``applicable`` says whether every hypothesis holds; ``holds`` whether the
    equation ``α(s ⋆ t)(a) = (o, s′ ⋆ t)`` does (``⋆`` is ``⊎`` or ``⊕``).
    """

    union: Union
    letter: Letter
    allocation: Allocation
    hypotheses: dict[str, bool]
    output_alone: Output | None
    output_in_union: Output | None
    after_alone_union: Store | None  # s′ ⋆ t, or None when undefined
    after_in_union: Store | None  # the state component of α(s ⋆ t)(a)
    holds: bool
    reason: str

    @property
    def applicable(self) -> bool:
        return all(self.hypotheses.values())

    def to_json(self) -> dict[str, Any]:
        return {
            "union": self.union,
            "letter": letter_to_json(self.letter),
            "allocation": {"ids": list(self.allocation.ids), "clock": self.allocation.clock},
            "hypotheses": dict(sorted(self.hypotheses.items())),
            "applicable": self.applicable,
            "holds": self.holds,
            "reason": self.reason,
            "output_alone": None
            if self.output_alone is None
            else output_to_json(self.output_alone),
            "output_in_union": None
            if self.output_in_union is None
            else output_to_json(self.output_in_union),
            "after_alone_union": None
            if self.after_alone_union is None
            else store_to_json(self.after_alone_union),
            "after_in_union": None
            if self.after_in_union is None
            else store_to_json(self.after_in_union),
        }


def _by_equality(a: Letter, *, allow_delete: bool) -> bool:
    if getattr(a, "by_prefix", False):
        return False
    if isinstance(a, Delete):
        return allow_delete
    return is_fragment(a)


def frame_property(
    s: Store,
    t: Store,
    a: Letter,
    allocation: Allocation = NO_ALLOCATION,
    *,
    union: Union = "disjoint",
    theta: Theta = DEFAULT_THETA,
    faults: frozenset[int] = frozenset(),
    realisation: Realisation = CONTEXTFS,
) -> FrameCheck:
    """Check Proposition 6.2 (``union="disjoint"``) or 6.6 (c) (``union="mention"``) on one call.

    Hypotheses (recorded in :attr:`FrameCheck.hypotheses`):

    * ``union_defined`` — ``s ⊎ t`` (resp. ``s ⊕ t``) is defined;
    * ``by_equality`` — ``a`` is a fragment call or a recall by equality (for ``⊕``
      also a delete by equality);
    * ``names_in_s`` — ``nm(a) ⊆ dom(m_s)``;
    * ``allocation_fresh`` — admissible at the union (``dom``-fresh) and, for ``⊕``,
      fresh for ``ids(s) ∪ ids(t)`` (spec review note to Prop. 6.6 (c)).

    Parameters
    ----------
    s, t : Store
        The store the call is made on, and the store put beside it.
    a : Letter
        The call.
    allocation : Allocation
        Its identifiers and clock reading (the same on both sides).
    union : {"disjoint", "mention"}
        ``⊎`` (Proposition 6.2) or ``⊕`` (Proposition 6.6 (c)).
    theta, faults, realisation
        The undeclared orders, injected edge-write faults, and the step function.

    Returns
    -------
    FrameCheck
        The hypotheses, both sides of the equation, ``holds`` and a reason.
        The proposition says: ``applicable`` implies ``holds``.

    Examples
    --------
    >>> s = Store.of({"a": Record("A")})
    >>> t = Store.of({"b": Record("B")}, [("b", Relation.RELATED_TO, "a")])
    >>> frame_property(s, t, Delete("a")).holds          # t's edge into s goes too: delete is excluded
    False
    >>> frame_property(s, Store.of({"b": Record("B")}), Delete("a"), union="mention").holds
    True
    """
    allow_delete = union == "mention"
    u = _try_union(s, t, union)
    hyp = {
        "union_defined": u is not None,
        "by_equality": _by_equality(a, allow_delete=allow_delete),
        "names_in_s": set(named(a)) <= s.dom(),
    }
    if u is None:
        hyp["allocation_fresh"] = False
        return FrameCheck(
            union, a, allocation, hyp, None, None, None, None, False, "the union is undefined"
        )
    fresh = allocation.admissible(u, a) is None
    if union == "mention":
        fresh = fresh and not any(j in u.ids() for j in allocation.ids)
    hyp["allocation_fresh"] = fresh
    o1, s2 = realisation.step(s, a, allocation, theta=theta, faults=faults)
    o2, u2 = realisation.step(u, a, allocation, theta=theta, faults=faults)
    lhs = _try_union(s2, t, union)
    if lhs is None:
        return FrameCheck(union, a, allocation, hyp, o1, o2, None, u2, False, "s′ ⋆ t is undefined")
    if o1 != o2:
        return FrameCheck(union, a, allocation, hyp, o1, o2, lhs, u2, False, "the outputs differ")
    if lhs != u2:
        return FrameCheck(union, a, allocation, hyp, o1, o2, lhs, u2, False, "the states differ")
    return FrameCheck(union, a, allocation, hyp, o1, o2, lhs, u2, True, "α(s ⋆ t)(a) = (o, s′ ⋆ t)")


# =========================================================================== random stores and calls

_CONTENTS = ("plan A", "plan B", "budget 10k", "budget 12k", "alice leads", "bob leads")
_TYPES = ("fact", "decision", "note")


def _save(rng: random.Random, namespace: str) -> Save:
    return Save(
        Record(
            rng.choice(_CONTENTS),
            type=rng.choice(_TYPES),
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
    ``dangling_pool`` (supersede checks nothing, spec W1), which leaves dangling
    non-lineage edges — the stores stay in S_lin.
    """
    oracle = Oracle(prefix=prefix)
    s = EMPTY
    for _ in range(n_calls):
        dom = sorted(s.dom())
        c = rng.random()
        a: Letter
        if not dom or c < 0.35:
            a = _save(rng, namespace)
        elif c < 0.55:
            a = Evolve(rng.choice(dom), rng.choice(_CONTENTS))
        elif c < 0.7 and len(dom) >= 2:
            a = Merge(tuple(rng.sample(dom, 2)))
        elif c < 0.8:
            a = Split(rng.choice(dom), ("part 1", "part 2"))
        else:
            pool = list(dangling_pool) + dom
            a = Supersede(rng.choice(pool), rng.choice(dom))
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
        return Evolve(rng.choice(dom), rng.choice(_CONTENTS))
    if kind == "split":
        return Split(rng.choice(dom), ("left", "right"))
    if kind == "supersede":
        return Supersede(rng.choice(dom), rng.choice(dom))
    if kind == "recall":
        return Recall(rng.choice(dom))
    if kind == "merge":
        return Merge(tuple(rng.sample(dom, rng.randint(2, min(3, len(dom))))))
    return Delete(rng.choice(dom))


def random_allocation(rng: random.Random, u: Store, a: Letter, *, strict: bool) -> Allocation:
    """An allocation for ``a`` admissible at ``u``.

    ``strict`` draws identifiers outside ``occ(u)``; otherwise each identifier is,
    when possible, one of ``u``'s dangling endpoints (``dom``-fresh but not
    strictly fresh — the case the review singles out).
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


def inclusion_failures(s: Store, u: Store) -> list[Id]:
    """The ``i ∈ ids(s)`` with ``β_u(i) ≠ β_s(i)``, sorted.

    ``ids(s)`` is a subcoalgebra of ``(Id, β_s)`` (successors of mentioned
    identifiers are mentioned), so its inclusion into ``(Id, β_u)`` is a
    homomorphism exactly when this list is empty (Prop. 6.4 / 6.6 (b)).
    """
    return sorted(i for i in s.ids() if beta(u, i) != beta(s, i))


# =========================================================================== Proposition 6.3 and Remark 6.8


def prefix_recall_witness(prefix: str = "deadbeef") -> dict[str, Any]:
    """Proposition 6.3: recall by prefix is not framed by ``⊎`` (nor by ``⊕``, Prop. 6.6 (d)).

    ``s`` holds one record of tenant S at ``i``, ``t`` one record of tenant T at
    ``i′``; both identifiers extend ``prefix``.  For every θ, ``recall_pfx(prefix)``
    on ``s`` outputs ``(i, r)``; on ``s ⊎ t`` it outputs ``(i′, r′)`` for θ with
    ``i′ ≺ i`` — and then ``evolve`` by the same prefix derives from T's record and
    files the result in T's namespace (the [ran] observation of spec §5.10).

    >>> w = prefix_recall_witness()
    >>> w["alone"]["id"], w["in_union"]["id"], w["differs"], w["mention_disjoint"]
    ('deadbeef-7a2', 'deadbeef-0c9', True, True)
    """
    i, i2 = f"{prefix}-7a2", f"{prefix}-0c9"
    s = Store.of({i: Record("S's note", namespace="tenant-s")})
    t = Store.of({i2: Record("T's note", namespace="tenant-t")})
    u = disjoint_union(s, t)
    a = RecallPrefix(prefix)
    thetas = [
        DEFAULT_THETA,
        Theta(descending=True),
        Theta(id_priority=(i,)),
        Theta(id_priority=(i2,)),
    ]
    alone = [CONTEXTFS.step(s, a, theta=th)[0] for th in thetas]
    stable = all(o == alone[0] for o in alone)
    theta = Theta(id_priority=(i2,))  # i′ ≺ i (also the default ascending order)
    o_u = CONTEXTFS.step(u, a, theta=theta)[0]
    o_u_other = CONTEXTFS.step(u, a, theta=Theta(id_priority=(i,)))[0]
    out, after = CONTEXTFS.step(
        u,
        Evolve(prefix, "S meant to revise its own note", by_prefix=True),
        Allocation(("f00dcafe-001",), 2),
        theta=theta,
    )
    evolved = after.records.get("f00dcafe-001")
    return {
        "s": store_to_json(s),
        "t": store_to_json(t),
        "prefix": prefix,
        "theta": theta.as_dict(),
        "alone": output_to_json(alone[0]) | {"same_for_every_theta": stable},
        "in_union": output_to_json(o_u),
        "in_union_other_theta": output_to_json(o_u_other),
        "differs": o_u != alone[0],
        "depends_on_theta": o_u != o_u_other,
        "mention_disjoint": not (s.ids() & t.ids()),
        "evolve_by_prefix": {
            "output": output_to_json(out),
            "namespace": None if evolved is None else evolved.namespace,
            "evolved_from": None if evolved is None else evolved.metadata.get("evolved_from"),
        },
    }


def prefix_bits(prefix_len: int) -> int:
    """Random bits in the first ``prefix_len`` characters of a ContextFS identifier.

    ``str(uuid4())[:12]`` is 8 hex digits, a hyphen, 3 hex digits: 4 bits per hex
    digit, none for the hyphen, so 8 characters carry 32 bits and the full
    12-character identifier 44.

    >>> prefix_bits(7), prefix_bits(8), prefix_bits(9), prefix_bits(12)
    (28, 32, 32, 44)
    """
    if not 1 <= prefix_len <= 12:
        raise ValueError("a ContextFS identifier has 12 characters; prefix_len must be 1..12")
    return 4 * (min(prefix_len, 8) + max(0, prefix_len - 9))


def _bernoulli(m: int) -> list[Fraction]:
    """B_0 … B_m with B_1 = −1/2."""
    b = [Fraction(0)] * (m + 1)
    b[0] = Fraction(1)
    for n in range(1, m + 1):
        b[n] = -sum((math.comb(n + 1, k) * b[k] for k in range(n)), Fraction(0)) / (n + 1)
    return b


_B = _bernoulli(60)


def _power_sum(n: int, j: int) -> int:
    """Σ_{k=0}^{n−1} k^j, exactly (Faulhaber)."""
    total = sum(
        (math.comb(j + 1, m) * _B[m] * Fraction(n) ** (j + 1 - m) for m in range(j + 1)),
        Fraction(0),
    )
    value = Fraction(total, j + 1)
    assert value.denominator == 1
    return int(value)


def _log_no_collision(n: int, space: int) -> float:
    """log ∏_{k<n} (1 − k/N) for N = ``space``, to double precision (−inf when n > N)."""
    if n <= 1:
        return 0.0
    if n > space:
        return -math.inf
    if n * n / (2 * space) > 800:  # e^{-800} underflows anyway
        return -math.inf
    x = n / space
    if x <= 0.05:
        # log(1 − k/N) = −Σ_j (k/N)^j / j, summed over k with exact power sums.
        total = 0.0
        for j in range(1, 60):
            term = _power_sum(n, j) / (j * space**j)  # int / int: correctly rounded
            total -= term
            if term < 1e-18 * abs(total):
                break
        return total
    return math.fsum(math.log1p(-k / space) for k in range(n))


def prefix_collision_probability(n: int, prefix_len: int = 8) -> float:
    """The probability that some two of ``n`` random identifiers share their first ``prefix_len`` characters.

    The exact birthday form ``1 − ∏_{k<n} (1 − k/N)``, ``N = 2^bits``, computed in
    log space (exact power sums, so it is accurate for tiny and huge ``n`` alike).

    >>> round(prefix_collision_probability(9_292), 4), round(prefix_collision_probability(77_163), 4)
    (0.01, 0.5)
    """
    if n < 0:
        raise ValueError("n must be non-negative")
    return 0.0 - math.expm1(_log_no_collision(n, 2 ** prefix_bits(prefix_len)))


def prefix_collision_approx(n: int, prefix_len: int = 8) -> float:
    """The usual approximation ``1 − exp(−n² / 2^{bits+1})`` (spec Remark 6.8).

    >>> round(prefix_collision_approx(77_163), 4)
    0.5
    """
    return -math.expm1(-(n * n) / 2 ** (prefix_bits(prefix_len) + 1))


def particular_prefix_probability(n: int, prefix_len: int = 8) -> float:
    """The probability that another of ``n`` records shares the prefix of one given record (≈ n / 2^bits)."""
    space = 2 ** prefix_bits(prefix_len)
    return -math.expm1((n - 1) * math.log1p(-1 / space)) if n > 1 else 0.0


def collision_threshold(p: float, prefix_len: int = 8, *, exact: bool = True) -> int:
    """The least ``n`` at which the collision probability reaches ``p`` (binary search).

    >>> collision_threshold(0.5, 7), collision_threshold(0.5, 12)
    (19291, 4938416)
    """
    if not 0 < p < 1:
        raise ValueError("p must lie strictly between 0 and 1")
    f: Callable[[int, int], float] = (
        prefix_collision_probability if exact else prefix_collision_approx
    )
    lo, hi = 1, 2
    while f(hi, prefix_len) < p:
        lo, hi = hi, hi * 2
    while lo < hi:
        mid = (lo + hi) // 2
        if f(mid, prefix_len) >= p:
            hi = mid
        else:
            lo = mid + 1
    return lo


# =========================================================================== Proposition 6.4


def dangling_edge_witness() -> dict[str, Any]:
    """Proposition 6.4 (review form): under ``⊎`` a dangling edge of ``s`` acquires a target from ``t``.

    ``s = ({i ↦ r}, {(i, EVOLVED_FROM, j)})`` with ``j`` dangling (reachable by
    Prop. 5.30, W2), ``t = ({j ↦ r′}, ∅)``.  ``s ⊎ t`` is defined, ``s ⊕ t`` is not;
    ``β_{s⊎t}(j) ≠ β_s(j)`` at ``j ∈ ids(s) \\ dom(m_s)``, so the inclusion of
    ``(ids(s), β_s)`` is not a homomorphism, and ``⟦i⟧⁻`` changes — a frame
    failure for a lineage letter ``lin(i)`` although ``i`` is named by equality.
    The ``s_lin_variant`` does the same inside S_lin: a supersede naming a
    missing identifier (W1) acquires a target; there the full ``β`` changes but
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
        Save(Record("S's record", namespace="tenant-s")),
        Supersede("x0001", "id0001"),
    ]
    s2 = run(EMPTY, word).final
    t2 = Store.of({"x0001": Record("T's record", namespace="tenant-t")})
    u2 = disjoint_union(s2, t2)
    return {
        "s": store_to_json(s),
        "t": store_to_json(t),
        "union": store_to_json(u),
        "mention_union_defined": _try_union(s, t, "mention") is not None,
        "beta_s_j": _beta_json(s, "j"),
        "beta_union_j": _beta_json(u, "j"),
        "inclusion_failures": inclusion_failures(s, u),
        "ancestry_s_i": _unfolding_json(a_s),
        "ancestry_union_i": _unfolding_json(a_u),
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
    from ..model import record_to_json

    return {
        "record": None if ob.record is None else record_to_json(ob.record),
        "successors": [[r.value, j] for r, j in ob.successors],
    }


def _unfolding_json(u: Unfolding) -> list[dict[str, Any]]:
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


# =========================================================================== Corollary 6.1


def ancestry_cache_check(
    s: Store,
    word: Iterable[Letter],
    *,
    realisation: Realisation = CONTEXTFS,
    theta: Theta = DEFAULT_THETA,
    oracle: Oracle | None = None,
) -> dict[str, Any]:
    """Read ``⟦i⟧⁻_s`` for every record of ``s``, run ``word``, read again (Corollary 6.1).

    Returns ``{"changed": [ids whose ancestry changed], "checked": n, "final": store}``.
    """
    word = list(word)
    before = {i: ancestry(s, i) for i in s.records}
    final = run(
        s,
        word,
        oracle=oracle if oracle is not None else Oracle(prefix="c"),
        theta=theta,
        step_fn=realisation.step,
    ).final
    changed = sorted(i for i, u in before.items() if ancestry(final, i) != u)
    return {"changed": changed, "checked": len(before), "final": final}


def cache_counterexamples() -> dict[str, Any]:
    """Corollary 6.1's hypothesis matters: a delete or a save under an existing id changes a cached ancestry.

    Base: ``a`` saved, ``b`` evolved from ``a``, ``c`` evolved from ``b``; the
    consumer caches ``⟦c⟧⁻``.  Deleting ``b`` removes its edges, so ``c`` loses its
    ancestry; saving under ``a`` replaces the record at the root of the unfolding.

    >>> w = cache_counterexamples()
    >>> w["derivations_only"]["changed"], w["delete"]["changed"], w["save_at"]["changed"]
    ([], ['b', 'c'], ['a', 'b', 'c'])
    """
    base = Store.of(
        {"a": Record("draft"), "b": Record("revised"), "c": Record("final")},
        [
            ("b", Relation.EVOLVED_FROM, "a"),
            ("a", Relation.EVOLVED_INTO, "b"),
            ("c", Relation.EVOLVED_FROM, "b"),
            ("b", Relation.EVOLVED_INTO, "c"),
        ],
    )
    prelude: list[Letter] = [Evolve("c", "final, again")]
    words: dict[str, list[Letter]] = {
        "derivations_only": prelude
        + [Merge(("a", "c")), Split("b", ("p", "q")), Save(Record("new"))],
        "delete": prelude + [Delete("b")],
        "save_at": prelude + [SaveAt("a", Record("draft, overwritten"))],
    }
    out: dict[str, Any] = {
        "base": store_to_json(base),
        "cached": _unfolding_json(ancestry(base, "c")),
    }
    for name, w in words.items():
        res = ancestry_cache_check(base, w, oracle=Oracle())
        out[name] = {
            "word": [letter_to_json(a) for a in w],
            "changed": res["changed"],
            "after_c": _unfolding_json(ancestry(res["final"], "c")),
        }
    return out


# =========================================================================== multi-tenant scenarios


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
    (list of Store, Store)
        The tenants' own stores (tenant ``k`` at index ``k``) and the shared store.
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
                word.append(Save(Record(f"{ns} note {m}", type=rng.choice(_TYPES), namespace=ns)))
            elif u < 0.8 or len(made) < 2:
                word.append(Evolve(rng.choice(made), f"{ns} revision {m}"))
            else:
                word.append(Merge(tuple(rng.sample(made, 2))))
            made.append(supplies[k][m])
        words.append(word)
    if n >= 2:
        for _ in range(dangling_edges):
            a, b = rng.sample(range(n), 2)
            words[a].append(Supersede(rng.choice(supplies[b]), rng.choice(supplies[a])))
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


# =========================================================================== registered items


def _explore_frame(kind: Union, trials: int, seed: int) -> tuple[int, FrameCheck | None]:
    rng = random.Random(seed)
    applicable = 0
    for _ in range(trials):
        s, t = random_pair(rng, mention_disjoint=kind == "mention")
        u = union(s, t, kind)
        a = random_named_call(rng, s, allow_delete=kind == "mention")
        xi = random_allocation(rng, u, a, strict=kind == "mention")
        theta = Theta(type_priority=tuple(rng.sample(_TYPES, 3)))
        faults = frozenset(x for x in range(4) if rng.random() < 0.15)
        fc = frame_property(s, t, a, xi, union=kind, theta=theta, faults=faults)
        if not fc.applicable:
            continue
        applicable += 1
        if not fc.holds:
            return applicable, fc
    return applicable, None


@paper_item("6.2", "Frame property", kind="property", nature="theorem")
def check_6_2() -> Verdict:
    """Proposition 6.2 over random fragment stores, calls naming ``s`` by equality, and dom-fresh allocations.

    Allocations land on ``t``'s dangling endpoints where they can (dom-freshness
    suffices for the equation, spec review note).  The witness records why
    delete is excluded: ``t`` may hold an edge into ``s``'s record.
    """
    n, failure = _explore_frame("disjoint", 300, 62)
    s = Store.of({"a": Record("A", namespace="tenant-s")})
    t = Store.of({"b": Record("B", namespace="tenant-t")}, [("b", Relation.RELATED_TO, "a")])
    why_not_delete = frame_property(s, t, Delete("a"))
    witness: dict[str, Any] = {"delete_is_excluded": why_not_delete.to_json()}
    if failure is not None:
        witness["failure"] = failure.to_json()
    return Verdict(
        "6.2",
        "property",
        failure is None,
        n,
        witness,
        f"Proposition 6.2 (first kind): α(s ⊎ t)(a) = (o, s′ ⊎ t) on all {n} random instances (fragment calls "
        "and recalls naming records of s by equality, allocations fresh for s ⊎ t, edge faults injected). "
        "Delete is rightly excluded: t's edge into s's record is removed too.",
    )


@paper_item(
    "6.3",
    "The frame property fails for recall by prefix",
    kind="counterexample",
    nature="instantiation",
)
def check_6_3() -> Verdict:
    """Proposition 6.3: the witness of :func:`prefix_recall_witness` (a second L5 failure)."""
    w = prefix_recall_witness()
    holds = w["differs"] and w["depends_on_theta"] and w["alone"]["same_for_every_theta"]
    return Verdict(
        "6.3",
        "counterexample",
        holds,
        4,
        w,
        "Proposition 6.3 (counterexample; code ingredient: `id LIKE ?` with fetchone(), no ORDER BY, no namespace "
        "filter): recall_pfx('deadbeef') returns S's record on s for every θ, and T's record on s ⊎ t for θ "
        "enumerating T's row first; evolve by the same prefix then files into T's namespace.",
    )


@paper_item(
    "6.4", "Lineage observation does not compose under ⊎", kind="counterexample", nature="theorem"
)
def check_6_4() -> Verdict:
    """Proposition 6.4 (review form): the inclusion of (ids(s), β_s) into (Id, β_{s⊎t}) is not a homomorphism."""
    w = dangling_edge_witness()
    holds = (
        w["inclusion_failures"] == ["j"]
        and w["ancestry_changes"]
        and not w["mention_union_defined"]
    )
    return Verdict(
        "6.4",
        "counterexample",
        holds,
        2,
        w,
        "Proposition 6.4 (counterexample about the model; s is reachable by Prop. 5.30): s's dangling "
        "EVOLVED_FROM edge to j acquires t's record under ⊎, so β_{s⊎t}(j) ≠ β_s(j) and ⟦i⟧⁻ changes although i "
        "is named by equality; s ⊕ t is undefined.",
    )


@paper_item("6.5", "Mention-disjoint union", kind="property", nature="definition")
def check_6_5() -> Verdict:
    """Definition 6.5: ``s ⊕ t`` is defined iff ``ids(s) ∩ ids(t) = ∅``, and then equals ``s ⊎ t``."""
    rng = random.Random(65)
    explored, bad = 0, None
    for _ in range(400):
        s, t = random_small_store(rng), random_small_store(rng)
        m = _try_union(s, t, "mention")
        ok = (m is not None) == (not (s.ids() & t.ids())) and (
            m is None or m == disjoint_union(s, t)
        )
        explored += 1
        if not ok:
            bad = (s, t)
            break
    w = dangling_edge_witness()
    witness: dict[str, Any] = {"disjoint_but_not_mention_disjoint": {"s": w["s"], "t": w["t"]}}
    if bad is not None:
        witness["failure"] = {"s": store_to_json(bad[0]), "t": store_to_json(bad[1])}
    return Verdict(
        "6.5",
        "property",
        bad is None,
        explored,
        witness,
        f"Definition 6.5: on {explored} random pairs, ⊕ is defined exactly when no identifier is mentioned by "
        "both stores, and then equals ⊎; Prop. 6.4's pair has ⊎ defined and ⊕ undefined.",
    )


def _pcm_counterexample(rng: random.Random, trials: int) -> tuple[int, Any]:
    for k in range(trials):
        s, t, v = random_small_store(rng), random_small_store(rng), random_small_store(rng)
        if _try_union(s, EMPTY, "mention") != s or _try_union(EMPTY, s, "mention") != s:
            return k + 1, ("unit", s)
        if _try_union(s, t, "mention") != _try_union(t, s, "mention"):
            return k + 1, ("commutativity", s, t)
        st = _try_union(s, t, "mention")
        tv = _try_union(t, v, "mention")
        left = None if st is None else _try_union(st, v, "mention")
        right = None if tv is None else _try_union(s, tv, "mention")
        if left != right:
            return k + 1, ("associativity", s, t, v)
        if st is not None and st != _try_union(s, t, "disjoint"):
            return k + 1, ("agrees_with_disjoint_union", s, t)
    return trials, None


@paper_item("6.6", "The refined union behaves", kind="property", nature="theorem")
def check_6_6() -> Verdict:
    """Proposition 6.6: (a) PCM, (b) β preserved on ids(s), (c) frame property with delete, (d) prefix recall not."""
    rng = random.Random(66)
    na, bad_a = _pcm_counterexample(rng, 400)
    nb, bad_b = 0, None
    for _ in range(200):
        s, t = random_pair(rng, mention_disjoint=True)
        nb += 1
        fails = inclusion_failures(s, mention_disjoint_union(s, t))
        if fails:
            bad_b = (s, t, fails)
            break
    nc, bad_c = _explore_frame("mention", 300, 661)
    d = prefix_recall_witness()
    parts = {
        "a_pcm": bad_a is None,
        "b_beta_preserved": bad_b is None,
        "c_frame_with_delete": bad_c is None,
        "d_prefix_recall_not_covered": d["differs"] and d["mention_disjoint"],
    }
    witness: dict[str, Any] = {"parts": parts, "d_witness": d}
    if bad_a is not None:
        witness["a_failure"] = [bad_a[0]] + [store_to_json(x) for x in bad_a[1:]]
    if bad_b is not None:
        witness["b_failure"] = {
            "s": store_to_json(bad_b[0]),
            "t": store_to_json(bad_b[1]),
            "ids": bad_b[2],
        }
    if bad_c is not None:
        witness["c_failure"] = bad_c.to_json()
    return Verdict(
        "6.6",
        "property",
        all(parts.values()),
        na + nb + nc,
        witness,
        f"Proposition 6.6: (a) ⊕ is a PCM agreeing with ⊎ ({na} triples); (b) β_{{s⊕t}} = β_s on ids(s) ({nb} "
        f"pairs); (c) the frame property holds for ⊕, delete included, with allocations fresh for ids(s ⊕ t) "
        f"({nc} instances); (d) prefix recall is still not covered (Prop. 6.3's pair is mention-disjoint).",
    )


@paper_item("6.1", "What a consumer may cache", kind="property", nature="theorem")
def check_6_1() -> Verdict:
    """Corollary 6.1: cached ancestries survive random derivation-only composites; delete and save_at break them."""
    rng = random.Random(61)
    explored, bad = 0, None
    for _ in range(150):
        s = random_store(rng, rng.randint(1, 6), prefix="s", namespace="s")
        word: list[Letter] = []
        sim = s
        oracle = Oracle(prefix="c")
        for _ in range(rng.randint(1, 5)):
            a = random_named_call(rng, sim)
            word.append(a)
            sim = run(sim, [a], oracle=oracle).final
        res = ancestry_cache_check(s, word)
        explored += res["checked"]
        if res["changed"]:
            bad = (s, word, res["changed"])
            break
    cx = cache_counterexamples()
    holds = (
        bad is None
        and not cx["derivations_only"]["changed"]
        and bool(cx["delete"]["changed"])
        and bool(cx["save_at"]["changed"])
    )
    witness: dict[str, Any] = {"counterexamples": cx}
    if bad is not None:
        witness["failure"] = {
            "s": store_to_json(bad[0]),
            "word": [letter_to_json(a) for a in bad[1]],
            "changed": bad[2],
        }
    return Verdict(
        "6.1",
        "property",
        holds,
        explored,
        witness,
        f"Corollary 6.1 (via Theorem 5.7): {explored} cached ancestries unchanged by random later fragment calls "
        "(derivations, fresh saves, supersedes, recalls, by equality); outside the hypothesis a delete and a save "
        "under an existing identifier each change a cached ancestry.",
    )


REMARK_6_8 = {
    (8, 0.01): 9_300,
    (8, 0.5): 77_000,
    (7, 0.5): 19_000,
    (12, 0.5): 4_900_000,
}
"""The spec's rounded thresholds (Remark 6.8): (prefix length, probability) → store size."""


@paper_item("6.8", "When prefix resolution starts to bite", kind="property", nature="instantiation")
def check_6_8() -> Verdict:
    """Remark 6.8's numbers, recomputed exactly and with the approximation, within the spec's rounding (2%)."""
    rows = []
    for (L, p), claimed in sorted(REMARK_6_8.items()):
        ex, ap = collision_threshold(p, L), collision_threshold(p, L, exact=False)
        rows.append(
            {
                "prefix_len": L,
                "bits": prefix_bits(L),
                "probability": p,
                "claimed": claimed,
                "exact": ex,
                "approx": ap,
                "agrees": abs(ex - claimed) / claimed <= 0.02,
            }
        )
    return Verdict(
        "6.8",
        "property",
        all(r["agrees"] for r in rows),
        len(rows),
        {"thresholds": rows},
        "Remark 6.8 (arithmetic on the code facts: 44 random bits per id, 8-character partial ids documented): "
        + "; ".join(
            f"{r['prefix_len']} chars, {r['probability']:.0%} at n = {r['exact']:,}" for r in rows
        )
        + ".",
    )
