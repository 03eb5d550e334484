"""Resolution by prefix across tenants (paper §6.2 Proposition 6.3, Remark 6.8): the witness and the odds.

Proposition 6.3 is a *counterexample* whose code-dependent ingredient is the
prefix ``LIKE … fetchone()`` of ``_recall_from_sqlite``: recall by prefix
answers differently once a disjoint tenant's store is added, for some θ
(:func:`prefix_recall_witness`).  Remark 6.8 gives the scale: how likely two
of ``n`` random ContextFS identifiers share a prefix
(:func:`prefix_collision_probability`), and from what store size that becomes
likely (:func:`collision_threshold`, checked against :data:`REMARK_6_8`).

>>> round(prefix_collision_probability(77_163), 3)
0.5
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from functools import cache
from typing import Any

from ..model import (
    CONTEXTFS,
    DEFAULT_THETA,
    Allocation,
    Record,
    Store,
    Theta,
    disjoint_union,
    output_to_json,
    store_to_json,
)
from ..model import alphabet as A

__all__ = [
    "prefix_recall_witness",
    "prefix_bits",
    "prefix_collision_probability",
    "prefix_collision_approx",
    "particular_prefix_probability",
    "collision_threshold",
    "REMARK_6_8",
]


def prefix_recall_witness(prefix: str = "deadbeef") -> dict[str, Any]:
    """Proposition 6.3: recall by prefix is not framed by ``⊎`` (nor by ``⊕``, Prop. 6.6 (d)).

    ``s`` holds one record of tenant S at ``i``, ``t`` one record of tenant T at
    ``i′``; both identifiers extend ``prefix``.  For every θ, ``recall_pfx(prefix)``
    on ``s`` outputs ``(i, r)``; on ``s ⊎ t`` it outputs ``(i′, r′)`` for θ with
    ``i′ ≺ i`` — and then ``evolve`` by the same prefix derives from T's record and
    files the result in T's namespace (seen when the ContextFS code path was run).

    >>> w = prefix_recall_witness()
    >>> w["alone"]["id"], w["in_union"]["id"], w["differs"], w["mention_disjoint"]
    ('deadbeef-7a2', 'deadbeef-0c9', True, True)
    """
    i, i2 = f"{prefix}-7a2", f"{prefix}-0c9"
    s = Store.of({i: Record("S's note", namespace="tenant-s")})
    t = Store.of({i2: Record("T's note", namespace="tenant-t")})
    u = disjoint_union(s, t)
    a = A.RecallPrefix(prefix)
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
        A.Evolve(prefix, "S meant to revise its own note", by_prefix=True),
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


@cache
def _bernoulli(m: int) -> tuple[Fraction, ...]:
    """B_0 … B_m with B_1 = −1/2."""
    b = [Fraction(0)] * (m + 1)
    b[0] = Fraction(1)
    for n in range(1, m + 1):
        b[n] = -sum((math.comb(n + 1, k) * b[k] for k in range(n)), Fraction(0)) / (n + 1)
    return tuple(b)


def _power_sum(n: int, j: int) -> int:
    """Σ_{k=0}^{n−1} k^j, exactly (Faulhaber)."""
    bern = _bernoulli(60)
    total = sum(
        (math.comb(j + 1, m) * bern[m] * Fraction(n) ** (j + 1 - m) for m in range(j + 1)),
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
    """The usual approximation ``1 − exp(−n² / 2^{bits+1})`` (Remark 6.8).

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


REMARK_6_8 = {
    (8, 0.01): 9_300,
    (8, 0.5): 77_000,
    (7, 0.5): 19_000,
    (12, 0.5): 4_900_000,
}
"""The rounded thresholds of Remark 6.8 as we reconstruct it: (prefix length, probability) → store size."""
