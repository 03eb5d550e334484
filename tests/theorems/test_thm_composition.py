"""Composition, tested from the definitions: Proposition 3.6, Propositions 6.2–6.4, Definition 6.5
with Proposition 6.6, and Remark 6.8's arithmetic.

⊎ and ⊕ are the reference unions (definedness decided here, not by the
library), and the library's operators are held to them.  Remark 6.8's figures
are recomputed from the birthday bound and checked against a simulation.
"""

from __future__ import annotations

import math
import random

from hypothesis import assume, given
from hypothesis import strategies as st
from strategies import fragment_letters, identifiers, records
from thm_reference import beta, dom, ids, munion, same_ancestry, same_unfolding, union
from thm_strategies import (
    CLOCK,
    FRESH,
    PROPERTY,
    SCHEMA,
    any_stores,
    mention_disjoint_pairs,
    strictly_fresh,
)

from coalg.composition import prefix_collision_probability
from coalg.model import (
    CONTEXTFS,
    EMPTY,
    Allocation,
    Delete,
    Edge,
    Realisation,
    RecallPrefix,
    Record,
    Relation,
    Save,
    Store,
    Theta,
    UnionUndefined,
    creates,
    disjoint_union,
    mention_disjoint_union,
    named,
)

realisations = st.sampled_from(SCHEMA)
small = any_stores(3, 4)


def _lib(op, s: Store, t: Store) -> Store | None:  # type: ignore[no-untyped-def]
    try:
        return op(s, t)  # type: ignore[no-any-return]
    except UnionUndefined:
        return None


# --------------------------------------------------------------------------- Proposition 3.6, Proposition 6.6 (a)


@PROPERTY
@given(s=small, t=small, u=small, which=st.sampled_from(("⊎", "⊕")))
def test_3_6_and_6_6_a_partial_commutative_monoids(s: Store, t: Store, u: Store, which: str) -> None:
    ref, lib = (union, disjoint_union) if which == "⊎" else (munion, mention_disjoint_union)
    assert _lib(lib, s, t) == ref(s, t)  # the library's operator is the definition's, definedness included
    assert ref(s, EMPTY) == s == ref(EMPTY, s)
    assert ref(s, t) == ref(t, s)
    st_, tu = ref(s, t), ref(t, u)
    assert (None if st_ is None else ref(st_, u)) == (None if tu is None else ref(s, tu))
    if which == "⊕" and ref(s, t) is not None:
        assert union(s, t) == ref(s, t)  # s ⊕ t defined ⇒ s ⊎ t defined and equal


def test_3_6_not_cancellative() -> None:
    a = Store.of({"a": Record("A")}, [("a", Relation.SUPERSEDES, "z")])
    b, b2 = Store.of({"b": Record("B")}, [("a", Relation.SUPERSEDES, "z")]), Store.of({"b": Record("B")})
    assert union(a, b) == union(a, b2) and b != b2


# --------------------------------------------------------------------------- Proposition 6.2, 6.6 (c)


@PROPERTY
@given(s=small, t=small, data=st.data(), real=realisations)
def test_6_2_frame_property_under_disjoint_union(s: Store, t: Store, data: st.DataObject,
                                                 real: Realisation) -> None:
    st_ = union(s, t)
    assume(st_ is not None)
    a = data.draw(fragment_letters(s, missing=False))
    assume(set(named(a)) <= dom(s))
    if real is CONTEXTFS:  # fresh for the record domain of s ⊎ t; may be an endpoint either store mentions
        pool = sorted((ids(s) | ids(t)) - dom(st_)) + list(FRESH[:3])  # type: ignore[arg-type]
        xi = Allocation(tuple(data.draw(st.lists(st.sampled_from(pool), min_size=creates(a),
                                                 max_size=creates(a), unique=True))), CLOCK)
    else:  # the repaired realisation refuses any allocation the store mentions
        xi = strictly_fresh(st_, a)  # type: ignore[arg-type]
    out, s2 = real.step(s, a, xi)
    out_u, u2 = real.step(st_, a, xi)  # type: ignore[arg-type]
    assert union(s2, t) is not None
    assert (out_u, u2) == (out, union(s2, t))


@PROPERTY
@given(pair=mention_disjoint_pairs(), data=st.data(), real=realisations)
def test_6_6_c_frame_property_under_mention_disjoint_union_and_delete(pair: tuple[Store, Store],
                                                                      data: st.DataObject,
                                                                      real: Realisation) -> None:
    s, t = pair
    st_ = munion(s, t)
    assert st_ is not None
    a = data.draw(fragment_letters(s, missing=False) | st.sampled_from([Delete(i) for i in sorted(s.records)] or
                                                                       [Delete("a")]))
    assume(set(named(a)) <= dom(s))
    xi = strictly_fresh(st_, a)  # type: ignore[arg-type]
    out, s2 = real.step(s, a, xi)
    out_u, u2 = real.step(st_, a, xi)  # type: ignore[arg-type]
    assert munion(s2, t) is not None
    assert (out_u, u2) == (out, munion(s2, t))


@PROPERTY
@given(pair=mention_disjoint_pairs(), rec=records())
def test_6_6_c_needs_allocations_fresh_for_what_t_mentions(pair: tuple[Store, Store], rec: Record) -> None:
    s, t = pair
    t = Store.of(dict(t.records), set(t.edges) | {Edge("zt", Relation.SUPERSEDES, "zd")})
    t = Store.of({**dict(t.records), "zt": rec}, t.edges)
    assert munion(s, t) is not None  # zt and zd: identifiers no drawn store mentions
    _, s2 = CONTEXTFS.step(s, Save(rec), Allocation(("zd",), CLOCK))  # zd: dangling in t, unknown to s
    assert munion(s2, t) is None  # s' ⊕ t is undefined: the new record sits on t's endpoint


# --------------------------------------------------------------------------- Proposition 6.3, 6.6 (d)


@PROPERTY
@given(p=identifiers(2), tails=st.lists(st.text("abc", min_size=1, max_size=2), min_size=2, max_size=2,
                                        unique=True), r=records(), r2=records())
def test_6_3_prefix_recall_breaks_the_frame_property(p: str, tails: list[str], r: Record, r2: Record) -> None:
    i, i2 = p + tails[0], p + tails[1]
    s, t = Store.of({i: r}), Store.of({i2: r2})
    assert union(s, t) is not None and munion(s, t) is not None  # even ⊕ is defined (6.6 (d))
    for theta in (Theta(), Theta(descending=True), Theta(id_priority=(i2,))):
        assert CONTEXTFS.step(s, RecallPrefix(p), theta=theta)[0] == CONTEXTFS.step(s, RecallPrefix(p))[0]
    alone = CONTEXTFS.step(s, RecallPrefix(p), theta=Theta(id_priority=(i2,)))[0]
    shared = CONTEXTFS.step(union(s, t), RecallPrefix(p), theta=Theta(id_priority=(i2,)))[0]  # type: ignore[arg-type]
    assert alone != shared and getattr(shared, "id", None) == i2


# --------------------------------------------------------------------------- Proposition 6.4, 6.6 (b)


@PROPERTY
@given(s=small, rj=records(), ri=records())
def test_6_4_a_dangling_edge_acquires_a_target_from_the_other_store(s: Store, rj: Record, ri: Record) -> None:
    base = Store.of({**dict(s.records), "zi": ri},
                    [e for e in s.edges if e.source != "zi"] + [Edge("zi", Relation.EVOLVED_FROM, "zj")])
    t = Store.of({"zj": rj})
    u = union(base, t)
    assert u is not None and munion(base, t) is None  # ⊎ is defined, ⊕ is not
    assert beta(u, "zj") != beta(base, "zj")
    assert not same_ancestry(base, "zi", u, "zi")


@PROPERTY
@given(pair=mention_disjoint_pairs())
def test_6_6_b_mention_disjoint_union_keeps_every_observation(pair: tuple[Store, Store]) -> None:
    s, t = pair
    u = munion(s, t)
    assert u is not None
    for i in ids(s):
        assert beta(u, i) == beta(s, i)  # type: ignore[arg-type]
        assert same_unfolding(s, i, u, i) and same_ancestry(s, i, u, i)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- Remark 6.8


def _birthday(n: int, bits: int) -> float:
    """P(two of n uniform draws from 2^bits values coincide), from the product, in log space."""
    space = 2**bits
    return -math.expm1(math.fsum(math.log1p(-k / space) for k in range(n))) if n <= space else 1.0


def _threshold(p: float, bits: int) -> int:
    lo, hi = 1, 2**bits + 1
    while lo < hi:
        mid = (lo + hi) // 2
        if -math.expm1(-(mid * mid) / 2 ** (bits + 1)) >= p:
            hi = mid
        else:
            lo = mid + 1
    return lo


def test_6_8_the_scale_at_which_prefix_resolution_bites() -> None:
    # 8 characters carry 32 bits, 7 carry 28, the full 12-character identifier 44 (the hyphen carries none)
    assert round(_threshold(0.01, 32), -2) == 9_300 and round(_threshold(0.5, 32), -3) == 77_000
    assert round(_threshold(0.5, 28), -3) == 19_000 and round(_threshold(0.5, 44), -5) == 4_900_000
    for n, bits, length in ((5_000, 32, 8), (9_300, 32, 8), (77_000, 32, 8), (19_000, 28, 7)):
        assert abs(prefix_collision_probability(n, length) - _birthday(n, bits)) < 1e-9


def test_6_8_the_bound_against_a_simulation() -> None:
    # 2 hex characters: 8 bits; 20 identifiers share a 2-character prefix with probability ≈ 0.53
    rng = random.Random(68)
    trials = 4000
    hits = sum(len({rng.getrandbits(8) for _ in range(20)}) < 20 for _ in range(trials))
    assert abs(hits / trials - prefix_collision_probability(20, 2)) < 0.03
