"""Stable ancestry, tested from the definitions: Theorem 5.7, Proposition 5.9, Corollary 5.12,
Proposition 5.13 and Corollary 6.1.

Both sides of each statement are computed by the reference code of
``thm_reference.py`` (β⁻ before and after, unfoldings compared by the greatest
bisimulation), never by the library's verdict.  Theorem 5.7 is also tested at
its boundary: an allocation on an identifier the store already mentions
produces the counterexample the hypothesis is there to exclude, and a strictly
fresh one never does, even without ancestry closure.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from strategies import fragment_words, records
from thm_reference import (
    ANC,
    DESC,
    ac_plus,
    ancestry_closed,
    beta,
    beta_minus,
    dom,
    ids,
    inverse_closed,
    lineage_integrity,
    occ,
    same_ancestry,
    same_unfolding,
)
from thm_strategies import (
    CLOCK,
    PROPERTY,
    SCHEMA,
    ac_plus_stores,
    ancestry_closed_stores,
    any_stores,
    fragment_calls,
    fragment_runs,
    inverse_closure,
    strictly_fresh,
)

from coalg.model import (
    CONTEXTFS,
    EMPTY,
    Allocation,
    Edge,
    Err,
    Evolve,
    Realisation,
    Record,
    Relation,
    Save,
    Store,
    run,
)

realisations = st.sampled_from(SCHEMA)


# --------------------------------------------------------------------------- Theorem 5.7


@PROPERTY
@given(data=st.data(), real=realisations)
def test_5_7_the_square_commutes_on_ancestry_closed_stores(data: st.DataObject, real: Realisation) -> None:
    s = data.draw(ancestry_closed_stores())
    assert ancestry_closed(s)
    # (dom(m_s), β⁻_s) is a coalgebra: every ancestry successor of a record is a record
    assert all(j in s.records for i in dom(s) for _, j in beta_minus(s, i)[1])
    a, xi = data.draw(fragment_calls(s))  # dom-fresh: the allocation may land on a mentioned identifier
    _, s2 = real.step(s, a, xi)
    for i in dom(s):
        assert beta_minus(s2, i) == beta_minus(s, i), (a, xi, i)  # β⁻_{s'} ∘ ι = H⁻ι ∘ β⁻_s
        assert same_ancestry(s, i, s2, i), (a, xi, i)  # hence ⟦i⟧⁻_{s'} = ⟦i⟧⁻_s


@st.composite
def _dangling_ancestor(draw: st.DrawFn) -> tuple[Store, str, str, Relation]:
    """A store whose record ``i`` has exactly one ancestry edge, to an identifier ``k`` that holds no record."""
    s = draw(any_stores())
    i = draw(st.sampled_from(sorted(dom(s)))) if s.records else "i"
    k = draw(st.sampled_from(sorted(ids(s) - dom(s) - {i}) or ["k"]))
    r = draw(st.sampled_from(sorted(ANC)))
    records_ = {**dict(s.records), i: s.records[i] if i in s.records else draw(records())}
    edges = [e for e in s.edges if not (e.source == i and e.relation in ANC)] + [Edge(i, r, k)]
    return Store.of(records_, edges), i, k, r


@PROPERTY
@given(case=_dangling_ancestor(), rec=records(), as_save=st.booleans())
def test_5_7_fresh_but_mentioned_allocation_gives_the_excluded_counterexample(
        case: tuple[Store, str, str, Relation], rec: Record, as_save: bool) -> None:
    s, i, k, _ = case
    assert not ancestry_closed(s)
    a = Save(rec) if as_save else Evolve(i, "landing on k")
    xi = Allocation((k,), CLOCK)
    assert xi.admissible(s, a) is None and k in occ(s)  # admissible (dom-fresh), not strictly fresh
    out, s2 = CONTEXTFS.step(s, a, xi)
    assert not isinstance(out, Err)
    assert beta_minus(s2, k)[0] is not None and beta_minus(s, k)[0] is None
    assert not same_ancestry(s, i, s2, i)  # ⟦i⟧⁻ changed: the hypothesis is necessary under dom-freshness
    assert isinstance(SCHEMA[1].step(s, a, xi)[0], Err)  # the repaired realisation refuses such an allocation


@PROPERTY
@given(data=st.data(), real=realisations)
def test_5_7_strictly_fresh_allocations_keep_every_mentioned_identifier(data: st.DataObject,
                                                                          real: Realisation) -> None:
    s = data.draw(any_stores())  # not necessarily ancestry-closed: dangling ancestry edges allowed
    a, xi = data.draw(fragment_calls(s, strict=True))
    _, s2 = real.step(s, a, xi)
    for i in ids(s):  # the subcoalgebra (ids(s), β⁻_s)
        assert beta_minus(s2, i) == beta_minus(s, i), (a, i)
        assert same_ancestry(s, i, s2, i), (a, i)


# --------------------------------------------------------------------------- Proposition 5.9


def test_5_9_a_the_empty_store_is_closed() -> None:
    assert ac_plus(EMPTY) and ancestry_closed(EMPTY) and inverse_closed(EMPTY) and lineage_integrity(EMPTY)


@PROPERTY
@given(data=st.data(), real=realisations)
def test_5_9_b_fragment_calls_preserve_ac_plus(data: st.DataObject, real: Realisation) -> None:
    s0 = data.draw(ac_plus_stores())
    s = inverse_closure(Store.of(dict(s0.records), [e for e in s0.edges if e.relation not in DESC
                                                    or (e.source in s0.records and e.target in s0.records)]))
    assert ac_plus(s) and inverse_closed(s) and lineage_integrity(s)
    a, xi = data.draw(fragment_calls(s))
    _, s2 = real.step(s, a, xi)
    assert ac_plus(s2) and ancestry_closed(s2), (a, xi)
    assert inverse_closed(s2) and lineage_integrity(s2), (a, xi)


@PROPERTY
@given(s=ancestry_closed_stores(), rec=records())
def test_5_9_b_ancestry_closure_alone_is_not_inductive(s: Store, rec: Record) -> None:
    # an R⁻ edge between two identifiers that hold no record keeps s ancestry-closed ...
    t = Store.of(dict(s.records), set(s.edges) | {Edge("z8", Relation.EVOLVED_FROM, "z7")})
    assert ancestry_closed(t) and not ac_plus(t)
    # ... until a fresh save lands on its source
    _, t2 = CONTEXTFS.step(t, Save(rec), Allocation(("z8",), CLOCK))
    assert not ancestry_closed(t2)


@PROPERTY
@given(word=fragment_words(EMPTY, 8))
def test_5_9_c_every_store_of_the_fragment_is_closed(word: list) -> None:  # type: ignore[type-arg]
    for s in run(EMPTY, word).states:
        assert ac_plus(s) and ancestry_closed(s) and inverse_closed(s) and lineage_integrity(s)


@PROPERTY
@given(data=st.data(), real=realisations)
def test_5_9_c_with_allocations_on_mentioned_identifiers(data: st.DataObject, real: Realisation) -> None:
    # S_lin with dom-fresh allocations: supersede may leave dangling non-lineage endpoints for later calls to land on
    for s in data.draw(fragment_runs(real, EMPTY, 8)):
        assert ac_plus(s) and ancestry_closed(s) and inverse_closed(s) and lineage_integrity(s)


# --------------------------------------------------------------------------- Corollary 5.12, Corollary 6.1


@PROPERTY
@given(data=st.data(), real=realisations)
def test_5_12_ancestry_is_stable_along_runs(data: st.DataObject, real: Realisation) -> None:
    s = data.draw(ancestry_closed_stores())
    sn = data.draw(fragment_runs(real, s, 5))[-1]
    for i in dom(s):
        assert same_ancestry(s, i, sn, i)


@PROPERTY
@given(data=st.data(), real=realisations)
def test_6_1_a_consumer_may_cache_ancestry_read_in_the_fragment(data: st.DataObject, real: Realisation) -> None:
    states = data.draw(fragment_runs(real, EMPTY, 4))
    s = states[-1]  # a store of S_lin
    later = data.draw(fragment_runs(real, s, 4))[-1]
    for i in dom(s):
        assert same_ancestry(s, i, later, i)


# --------------------------------------------------------------------------- Proposition 5.13


@PROPERTY
@given(data=st.data())
def test_5_13_evolve_changes_the_full_lineage_not_the_ancestry(data: st.DataObject) -> None:
    s = data.draw(ancestry_closed_stores().filter(lambda t: bool(t.records)))
    i = data.draw(st.sampled_from(sorted(s.records)))
    a = Evolve(i, "c")
    xi = strictly_fresh(s, a)
    _, s2 = CONTEXTFS.step(s, a, xi)
    j = xi.ids[0]
    assert beta(s2, i) != beta(s, i) and (Relation.EVOLVED_INTO, j) in beta(s2, i)[1]
    assert not same_unfolding(s, i, s2, i)  # ⟦i⟧_{s'} ≠ ⟦i⟧_s in νH: descendants may not be cached
    assert same_ancestry(s, i, s2, i)  # ... while ⟦i⟧⁻ is unchanged (Theorem 5.7)
