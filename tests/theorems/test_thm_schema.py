"""Record monotonicity, the derivation schema and inverse closure, tested from the definitions:
Proposition 5.1, Proposition 5.2, Lemma 5.6 (S1–S4, with S2 in its amended, local form) and
Proposition 5.16.

N (the identifiers a call creates) and D (the edges it adds) are computed here
from the two stores; S2 is tested by running the same call on a store that
holds only the records the call names.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from strategies import records
from thm_reference import ANC, beta_minus, dom, inv, same_ancestry
from thm_strategies import CLOCK, PROPERTY, SCHEMA, any_stores, fragment_calls, strictly_fresh

from coalg.model import (
    CONTEXTFS,
    Allocation,
    Delete,
    Edge,
    Err,
    Evolve,
    Merge,
    Realisation,
    Record,
    Relation,
    SaveAt,
    Split,
    Store,
    Supersede,
    named,
)

realisations = st.sampled_from(SCHEMA)


# --------------------------------------------------------------------------- Proposition 5.1


@PROPERTY
@given(data=st.data(), faults=st.frozensets(st.integers(0, 5), max_size=2))
def test_5_1_fragment_calls_are_monotone(data: st.DataObject, faults: frozenset[int]) -> None:
    s = data.draw(any_stores())
    a, xi = data.draw(fragment_calls(s))
    _, s2 = CONTEXTFS.step(s, a, xi, faults=faults)  # failing edge writes included
    assert dom(s) <= dom(s2)
    assert all(s2.records[i] == s.records[i] for i in dom(s))  # m_s ⊑ m_{s'}
    assert set(s.edges) <= set(s2.edges)


# --------------------------------------------------------------------------- Lemma 5.6


@PROPERTY
@given(data=st.data(), real=realisations)
def test_5_6_the_schema_s1_to_s4(data: st.DataObject, real: Realisation) -> None:
    s = data.draw(any_stores())
    a, xi = data.draw(fragment_calls(s))
    out, s2 = real.step(s, a, xi)
    if isinstance(out, Err):
        assert s2 == s  # a refused call changes nothing
        return
    new = dom(s2) - dom(s)
    added = set(s2.edges) - set(s.edges)
    nm = set(named(a))
    # S1: nothing removed or overwritten; the new identifiers are the allocation's
    assert dom(s) <= dom(s2) and all(s2.records[i] == s.records[i] for i in dom(s))
    assert set(s.edges) <= set(s2.edges) and new == set(xi.ids) and not new & dom(s)
    # S3: new edges join new or named identifiers
    assert all(e.source in new | nm and e.target in new | nm for e in added), added
    # S4: an ancestry edge starts at a new record; (amended S2) it ends at an old record or a new one
    for e in added:
        if e.relation in ANC:
            assert e.source in new and e.target in dom(s) | new, e
    # S2, local: the same call on a store holding only the named records does the same thing
    local = Store.of({i: s.records[i] for i in nm & dom(s)})
    out_l, s2_l = real.step(local, a, xi)
    assert out_l == out
    assert dom(s2_l) - dom(local) == new and all(s2_l.records[j] == s2.records[j] for j in new)
    assert set(s2_l.edges) - set(local.edges) == added
    # the namespace of a new record is a named record's (or the save's own)
    spaces = {s.records[i].namespace for i in nm & dom(s)}
    assert all(s2.records[j].namespace in spaces for j in new) or a.kind == "save"


# --------------------------------------------------------------------------- Proposition 5.2


@st.composite
def _child_of(draw: st.DrawFn, only: bool) -> tuple[Store, str, str]:
    """A store where record ``j`` has an ancestry edge to record ``i`` (``j``'s only one when ``only``)."""
    s = draw(any_stores())
    i, j = "ia", "jb"
    r = draw(st.sampled_from(sorted(ANC)))
    edges = [e for e in s.edges if not (only and e.source == j and e.relation in ANC)] + [Edge(j, r, i)]
    return Store.of({**dict(s.records), i: draw(records()), j: draw(records())}, edges), i, j


@PROPERTY
@given(case=_child_of(only=False))
def test_5_2_a_delete_changes_a_survivors_beta_minus(case: tuple[Store, str, str]) -> None:
    s, i, j = case
    _, s2 = CONTEXTFS.step(s, Delete(i))
    assert j in s2.records and beta_minus(s2, j) != beta_minus(s, j)


@PROPERTY
@given(case=_child_of(only=True))
def test_5_2_a_and_its_ancestry_when_that_was_its_only_parent(case: tuple[Store, str, str]) -> None:
    s, i, j = case
    _, s2 = CONTEXTFS.step(s, Delete(i))
    assert not same_ancestry(s, j, s2, j)


@PROPERTY
@given(q=records(), r=records(), other=records())
def test_5_2_a_but_not_always_the_unfolding(q: Record, r: Record, other: Record) -> None:
    # j merged from i and k whose records are equal: deleting i leaves ⟦j⟧⁻ as it was (P_fin absorbs)
    s = Store.of({"i": r, "k": r, "j": q, "o": other},
                 [("j", Relation.MERGED_FROM, "i"), ("j", Relation.MERGED_FROM, "k")])
    _, s2 = CONTEXTFS.step(s, Delete("i"))
    assert beta_minus(s2, "j") != beta_minus(s, "j") and same_ancestry(s, "j", s2, "j")


@PROPERTY
@given(case=_child_of(only=True), new=records())
def test_5_2_b_save_at_changes_the_replaced_record_and_its_children(case: tuple[Store, str, str],
                                                                    new: Record) -> None:
    s, i, j = case
    _, s2 = CONTEXTFS.step(s, SaveAt(i, new), Allocation((), CLOCK))
    if s2.records[i] == s.records[i]:
        return  # the same record again: nothing to see
    assert not same_ancestry(s, i, s2, i)  # the root observation changed
    assert not same_ancestry(s, j, s2, j)  # and with it the child's ancestry


# --------------------------------------------------------------------------- Proposition 5.16


@PROPERTY
@given(data=st.data())
def test_5_16_derivations_add_inverse_closed_edge_sets(data: st.DataObject) -> None:
    s = data.draw(any_stores())
    a, xi = data.draw(fragment_calls(s))
    _, s2 = CONTEXTFS.step(s, a, xi)
    for e in set(s2.edges) - set(s.edges):
        assert Edge(e.target, inv(e.relation), e.source) in s2.edges, (a, e)


@PROPERTY
@given(data=st.data(), kind=st.sampled_from(("evolve", "split", "merge", "supersede")))
def test_5_16_only_in_the_fault_free_reading(data: st.DataObject, kind: str) -> None:
    s = data.draw(any_stores().filter(lambda t: len(t.records) >= 2))
    i, k = data.draw(st.lists(st.sampled_from(sorted(s.records)), min_size=2, max_size=2, unique=True))
    a = {"evolve": Evolve(i, "c"), "split": Split(i, ("p", "q")), "merge": Merge((i, k)),
         "supersede": Supersede(i, "z9")}[kind]  # z9: mentioned nowhere, so no inverse can pre-exist
    _, s2 = CONTEXTFS.step(s, a, strictly_fresh(s, a), faults=frozenset({1}))  # the second write of a pair fails
    one_way = [e for e in set(s2.edges) - set(s.edges) if Edge(e.target, inv(e.relation), e.source) not in s2.edges]
    assert one_way  # half a pair is left behind
