"""Merge up to allocation-blind bisimilarity, tested from the definitions: Propositions 5.24 and 5.25.

≈ is decided by the reference code (the greatest relation satisfying the three
conditions of Definition 5.23, identifiers outside both stores related to
themselves).  Proposition 5.24 is also tested at its hypothesis H1: the second
merge allocated on an identifier the store mentions gives the non-bisimilar
store that strict freshness excludes.
"""

from __future__ import annotations

from hypothesis import assume, given
from hypothesis import strategies as st
from strategies import records
from thm_reference import blind_bisimilar, greatest_blind_relation, ids
from thm_strategies import CLOCK, PROPERTY, SCHEMA, any_stores, strictly_fresh

from coalg.model import (
    CONTEXTFS,
    Allocation,
    Created,
    Edge,
    Err,
    Evolve,
    Letter,
    Merge,
    Realisation,
    Record,
    Relation,
    Split,
    Store,
    store_from_json,
)
from coalg.paper import run_item

realisations = st.sampled_from(SCHEMA)


@st.composite
def _repeatable(draw: st.DrawFn) -> tuple[Store, Letter]:
    """A store and a derivation naming its records by equality (merge, and the review's evolve and split)."""
    s = draw(any_stores(min_records=2))
    dom = sorted(s.records)
    kind = draw(st.sampled_from(("merge", "merge", "evolve", "split")))
    if kind == "merge":
        return s, Merge(tuple(draw(st.lists(st.sampled_from(dom), min_size=2, max_size=3))))
    i = draw(st.sampled_from(dom))
    return s, (Evolve(i, "again") if kind == "evolve" else Split(i, ("p", "q")))


@PROPERTY
@given(case=_repeatable(), real=realisations)
def test_5_24_twice_is_bisimilar_to_once(case: tuple[Store, Letter], real: Realisation) -> None:
    s, a = case
    if real is SCHEMA[1]:
        # the repaired realisation falls back to the call's clock τ for a parent with neither a valid time nor
        # a created_at, and ρ keeps valid times: such hand-made records (no realisation writes one) are left out
        assume(all(r.created_at is not None or r.valid_time is not None for r in s.records.values()))
    out1, s1 = real.step(s, a, strictly_fresh(s, a))
    assume(not isinstance(out1, Err))
    out2, s2 = real.step(s1, a, strictly_fresh(s1, a, CLOCK + 1))  # H1: both allocations strictly fresh
    assert not isinstance(out2, Err)
    assert blind_bisimilar(s2, s1), (a, s1, s2)
    # the proof's relation: the diagonal on ids(s1) and each new record paired with its twin
    b = greatest_blind_relation(s2, s1)
    assert {(x, x) for x in ids(s1)} <= b
    assert isinstance(out1, Created) and isinstance(out2, Created)
    assert all((j2, j1) in b for j2, j1 in zip(out2.ids, out1.ids))


@PROPERTY
@given(s=any_stores(min_records=2), data=st.data())
def test_5_24_fails_when_the_second_allocation_is_only_dom_fresh(s: Store, data: st.DataObject) -> None:
    x = data.draw(st.sampled_from(sorted(s.records)))
    t = Store.of(dict(s.records), set(s.edges) | {Edge(x, Relation.SUPERSEDES, "zd")})  # zd: a dangling endpoint
    a = Merge(tuple(sorted(t.records)[:2]))
    out1, t1 = CONTEXTFS.step(t, a, strictly_fresh(t, a))
    assert isinstance(out1, Created)
    xi2 = Allocation(("zd",), CLOCK + 1)  # admissible (zd holds no record), but mentioned by t1
    out2, t2 = CONTEXTFS.step(t1, a, xi2)
    assert isinstance(out2, Created)
    assert not blind_bisimilar(t2, t1)  # the new record inherited x's edge: the counterexample H1 excludes
    assert isinstance(SCHEMA[1].step(t1, a, xi2)[0], Err)  # the repaired realisation refuses the allocation


def test_5_24_witness_has_a_concrete_example_that_replays() -> None:
    ex = run_item("5.24").witness["example"]
    s = store_from_json(ex["store"])
    once, twice = store_from_json(ex["once"]), store_from_json(ex["twice"])
    a = Merge(tuple(ex["merged"]))
    j1, j2 = ex["new_ids"]
    assert CONTEXTFS.step(s, a, Allocation((j1,), ex["clocks"][0]))[1] == once
    assert CONTEXTFS.step(once, a, Allocation((j2,), ex["clocks"][1]))[1] == twice
    assert blind_bisimilar(twice, once) and [j2, j1] in ex["relation"]


# --------------------------------------------------------------------------- Proposition 5.25


@st.composite
def _two_plain_records(draw: st.DrawFn) -> tuple[Store, str, str]:
    s = draw(any_stores())
    ri = draw(records(with_metadata=False).filter(lambda r: "merged" not in r.tags))
    rk = draw(records(with_metadata=False).filter(lambda r: "merged" not in r.tags and r.content != ri.content))
    return Store.of({**dict(s.records), "ii": ri, "kk": rk}, s.edges), "ii", "kk"


@PROPERTY
@given(case=_two_plain_records())
def test_5_25_merge_is_not_commutative_up_to_bisimilarity(case: tuple[Store, str, str]) -> None:
    s, i, k = case
    ik, ki = Merge((i, k)), Merge((k, i))
    xi = strictly_fresh(s, ik)
    (o1, s1), (o2, s2) = CONTEXTFS.step(s, ik, xi), CONTEXTFS.step(s, ki, xi)
    assert isinstance(o1, Created) and isinstance(o2, Created)
    assert not blind_bisimilar(s1, s2)
    j = xi.ids[0]
    assert s1.records[j].metadata["merged_from"] == (i, k) and s2.records[j].metadata["merged_from"] == (k, i)


def test_5_25_equal_records_may_swap() -> None:
    # the proposition is existential: with r_i = r_k the two merges are ≈ (B swaps i and k)
    r = Record("same")
    s = Store.of({"i": r, "k": r})
    xi = Allocation(("z1",), CLOCK)
    assert blind_bisimilar(CONTEXTFS.step(s, Merge(("i", "k")), xi)[1], CONTEXTFS.step(s, Merge(("k", "i")), xi)[1])


def test_5_24_on_the_repaired_realisation_needs_a_time_on_every_parent() -> None:
    # what the assumption above leaves out, shown once: a parent with neither time lets τ into the valid time
    s = Store.of({"a": Record("a"), "b": Record("b")})
    a = Merge(("a", "b"))
    _, s1 = SCHEMA[1].step(s, a, strictly_fresh(s, a))
    _, s2 = SCHEMA[1].step(s1, a, strictly_fresh(s1, a, CLOCK + 1))
    assert not blind_bisimilar(s2, s1)
    stamped = Store.of({i: r.evolve(created_at=1, updated_at=1) for i, r in s.records.items()})
    _, t1 = SCHEMA[1].step(stamped, a, strictly_fresh(stamped, a))
    _, t2 = SCHEMA[1].step(t1, a, strictly_fresh(t1, a, CLOCK + 1))
    assert blind_bisimilar(t2, t1)
