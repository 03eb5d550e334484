"""Stores, their predicates and their unions (Definitions 3.4–3.5, Proposition 3.6, Definition 6.5)."""

from __future__ import annotations

import dataclasses

import pytest
from budget import budget
from hypothesis import given
from strategies import closed_stores, records, stores

from coalg.model import Record, Relation
from coalg.model.store import (
    EMPTY,
    Edge,
    Store,
    UnionUndefined,
    disjoint_union,
    fibre,
    mention_disjoint_union,
    restrict,
)

R = Relation
PROPERTY = budget(60)
# Unions only compare records for equality, so records without metadata are enough (and cheaper).
LIGHT = records(with_metadata=False)


def light_stores(max_records: int = 6, max_edges: int = 8):  # type: ignore[no-untyped-def]
    return stores(max_records, max_edges, record_strategy=LIGHT)


def defined(op, s: Store, t: Store) -> Store | None:  # type: ignore[no-untyped-def]
    try:
        return op(s, t)
    except UnionUndefined:
        return None


# --------------------------------------------------------------------------- Proposition 3.6


@PROPERTY
@given(light_stores())
def test_prop_3_6_empty_store_is_a_unit(s: Store) -> None:
    assert disjoint_union(EMPTY, s) == s
    assert disjoint_union(s, EMPTY) == s


@PROPERTY
@given(light_stores(), light_stores())
def test_prop_3_6_commutative_with_definedness(s: Store, t: Store) -> None:
    st_, ts = defined(disjoint_union, s, t), defined(disjoint_union, t, s)
    assert (st_ is None) == (ts is None)
    assert (st_ is None) == bool(s.dom() & t.dom())  # Definition 3.5's side condition
    if st_ is not None:
        assert st_ == ts
        assert st_.dom() == s.dom() | t.dom()
        assert st_.edges == s.edges | t.edges


@PROPERTY
@given(light_stores(max_records=4), light_stores(max_records=4), light_stores(max_records=4))
def test_prop_3_6_associative_with_definedness_both_ways(s: Store, t: Store, u: Store) -> None:
    st_ = defined(disjoint_union, s, t)
    left = None if st_ is None else defined(disjoint_union, st_, u)
    tu = defined(disjoint_union, t, u)
    right = None if tu is None else defined(disjoint_union, s, tu)
    assert (left is None) == (right is None)
    if left is not None:
        assert left == right


def test_prop_3_6_union_of_disjoint_domains_example_keeps_cross_edges() -> None:
    s = Store.of({"a": Record("A")}, [("a", R.REFERENCES, "b")])
    t = Store.of({"b": Record("B")}, [("b", R.REFERENCES, "a")])
    u = disjoint_union(s, t)
    assert u.dom() == {"a", "b"}
    assert u.is_referentially_closed()  # the dangling edges of s and t now land (no edge condition)


def test_union_undefined_names_the_clashing_identifiers() -> None:
    s = Store.of({"a": Record("1"), "b": Record("2"), "c": Record("3")})
    t = Store.of({"b": Record("x"), "c": Record("y"), "d": Record("z")})
    with pytest.raises(UnionUndefined) as info:
        disjoint_union(s, t)
    assert info.value.clash == ("b", "c")
    assert "b, c" in str(info.value) and "a" not in info.value.clash
    assert isinstance(info.value, ValueError)


def test_union_undefined_for_equal_records_too() -> None:
    s = Store.of({"a": Record("same")})
    with pytest.raises(UnionUndefined):
        disjoint_union(s, s)


def test_prop_3_6_not_cancellative() -> None:
    """[ours] s ⊎ t = s ⊎ t′ with t ≠ t′, because edge sets may overlap."""
    s = Store.of({"a": Record("A")}, [("a", R.SUPERSEDES, "b")])
    t = Store.of({}, [("a", R.SUPERSEDES, "b")])
    t2 = EMPTY
    assert t != t2
    assert disjoint_union(s, t) == disjoint_union(s, t2) == s


# --------------------------------------------------------------------------- Definition 6.5


@PROPERTY
@given(light_stores(), light_stores())
def test_def_6_5_oplus_defined_implies_uplus_defined_and_equal(s: Store, t: Store) -> None:
    o = defined(mention_disjoint_union, s, t)
    assert (o is None) == bool(s.ids() & t.ids())
    if o is not None:
        assert defined(disjoint_union, s, t) == o


@PROPERTY
@given(light_stores(max_records=3, max_edges=3), light_stores(max_records=3, max_edges=3), light_stores(max_records=3, max_edges=3))
def test_prop_6_6a_oplus_is_a_partial_commutative_monoid(s: Store, t: Store, u: Store) -> None:
    assert mention_disjoint_union(EMPTY, s) == s == mention_disjoint_union(s, EMPTY)
    assert defined(mention_disjoint_union, s, t) == defined(mention_disjoint_union, t, s)
    st_ = defined(mention_disjoint_union, s, t)
    left = None if st_ is None else defined(mention_disjoint_union, st_, u)
    tu = defined(mention_disjoint_union, t, u)
    right = None if tu is None else defined(mention_disjoint_union, s, tu)
    assert left == right


def test_def_6_5_oplus_is_stricter_than_uplus_on_a_dangling_endpoint() -> None:
    s = Store.of({"i": Record("x")}, [("i", R.EVOLVED_FROM, "j")])
    t = Store.of({"j": Record("y")})
    assert disjoint_union(s, t).dom() == {"i", "j"}
    with pytest.raises(UnionUndefined) as info:
        mention_disjoint_union(s, t)
    assert info.value.clash == ("j",)
    assert "mention j" in str(info.value)


# --------------------------------------------------------------------------- Definition 3.4


def test_def_3_4_dom_ids_dangling() -> None:
    s = Store.of(
        {"a": Record("A"), "b": Record("B")},
        [("a", R.SUPERSEDES, "x"), ("y", R.RELATED_TO, "b"), ("a", R.REFERENCES, "b")],
    )
    assert s.dom() == {"a", "b"}
    assert s.ids() == {"a", "b", "x", "y"}
    assert s.dangling() == {"x", "y"}
    assert s.dangling_edges() == {Edge("a", R.SUPERSEDES, "x"), Edge("y", R.RELATED_TO, "b")}
    assert s.dangling_edges([R.SUPERSEDES]) == {Edge("a", R.SUPERSEDES, "x")}
    assert EMPTY.ids() == EMPTY.dom() == EMPTY.dangling() == frozenset()


def test_def_3_8_occ_includes_metadata_ancestry_ids() -> None:
    s = Store.of(
        {"a": Record("A", metadata={"evolved_from": "p", "merged_from": ["q", "r"], "other": "z"})},
        [("a", R.SPLIT_FROM, "d")],
    )
    assert s.occ() == {"a", "d", "p", "q", "r"}  # not "z": only ancestry keys name identifiers


def test_def_3_4_fibre_and_restriction_keep_edges_inside_the_fibre() -> None:
    s = Store.of(
        {"a1": Record("x", namespace="alice"), "a2": Record("y", namespace="alice"), "b1": Record("z", namespace="bob")},
        [
            ("a1", R.EVOLVED_FROM, "a2"),  # both in alice: kept
            ("a1", R.MERGED_FROM, "b1"),  # crosses namespaces: dropped
            ("a2", R.SUPERSEDES, "ghost"),  # dangling: dropped
        ],
    )
    assert fibre(s, "alice") == {"a1", "a2"}
    assert fibre(s, "bob") == {"b1"}
    assert fibre(s, "nobody") == frozenset()
    pa = restrict(s, "alice")
    assert pa == Store.of({"a1": s.records["a1"], "a2": s.records["a2"]}, [("a1", R.EVOLVED_FROM, "a2")])
    assert restrict(s, "bob") == Store.of({"b1": s.records["b1"]})
    assert restrict(s, "nobody") == EMPTY
    assert s.namespaces() == ("alice", "bob")


@PROPERTY
@given(light_stores())
def test_restrictions_partition_the_records(s: Store) -> None:
    parts = [restrict(s, nu) for nu in s.namespaces()]
    assert sum(len(p.records) for p in parts) == len(s.records)
    for nu, p in zip(s.namespaces(), parts):
        assert p.dom() == fibre(s, nu)
        assert p.is_referentially_closed()
        assert p.edges <= s.edges
        assert all(r.namespace == nu for r in p.records.values())


def test_inverse_closed_positive_and_negative() -> None:
    good = Store.of({}, [("a", R.EVOLVED_FROM, "b"), ("b", R.EVOLVED_INTO, "a"), ("c", R.DEPENDS_ON, "d"),
                         ("d", R.DEPENDS_ON, "c"), ("e", R.RELATED_TO, "e")])
    assert good.is_inverse_closed() and good.one_way_edges() == frozenset()
    bad = good.with_edges([Edge("x", R.PART_OF, "y")])
    assert not bad.is_inverse_closed()
    assert bad.one_way_edges() == {Edge("x", R.PART_OF, "y")}
    # DEPENDS_ON is its own inverse, so a one-way DEPENDS_ON edge is a violation in the reverse direction
    assert not Store.of({}, [("c", R.DEPENDS_ON, "d")]).is_inverse_closed()


def test_referentially_closed_positive_and_negative() -> None:
    assert Store.of({"a": Record("A"), "b": Record("B")}, [("a", R.CAUSES, "b")]).is_referentially_closed()
    assert EMPTY.is_referentially_closed()
    assert not Store.of({"a": Record("A")}, [("a", R.CAUSES, "b")]).is_referentially_closed()
    assert not Store.of({"a": Record("A")}, [("b", R.CAUSES, "a")]).is_referentially_closed()


def test_ancestry_closed_positive_and_negative() -> None:
    rec = {"a": Record("A"), "b": Record("B")}
    assert Store.of(rec, [("b", R.EVOLVED_FROM, "a")]).is_ancestry_closed()
    # dangling non-ancestry edges and dangling descendant edges do not matter
    assert Store.of(rec, [("b", R.SUPERSEDES, "zz"), ("a", R.EVOLVED_INTO, "zz")]).is_ancestry_closed()
    # a record derived from a non-record is the violation
    assert not Store.of(rec, [("b", R.MERGED_FROM, "zz")]).is_ancestry_closed()


def test_prop_5_9_counterexample_ancestry_closed_but_not_ac_plus() -> None:
    """A dangling-*source* R⁻ edge is ancestry-closed; allocating its source breaks closure."""
    s = Store.of({}, [("k", R.EVOLVED_FROM, "y")])
    assert s.is_ancestry_closed()
    assert not s.satisfies_ac_plus()
    s2 = s.with_record("k", Record("new"))
    assert not s2.is_ancestry_closed()


def test_ac_plus_positive_and_negative() -> None:
    rec = {"a": Record("A"), "b": Record("B")}
    assert Store.of(rec, [("b", R.SPLIT_FROM, "a"), ("a", R.SPLIT_INTO, "zz")]).satisfies_ac_plus()
    assert not Store.of(rec, [("zz", R.SPLIT_FROM, "a")]).satisfies_ac_plus()
    assert not Store.of(rec, [("a", R.SPLIT_FROM, "zz")]).satisfies_ac_plus()


def test_lineage_integrity_positive_and_negative() -> None:
    rec = {"a": Record("A"), "b": Record("B")}
    ok = Store.of(rec, [("b", R.EVOLVED_FROM, "a"), ("a", R.EVOLVED_INTO, "b"), ("a", R.SUPERSEDES, "ghost")])
    assert ok.has_lineage_integrity()  # W1: a dangling supersede edge is not a lineage edge
    assert not ok.is_referentially_closed()
    assert not Store.of(rec, [("a", R.EVOLVED_INTO, "ghost")]).has_lineage_integrity()
    assert not Store.of(rec, [("ghost", R.MERGED_FROM, "a")]).has_lineage_integrity()


@PROPERTY
@given(light_stores())
def test_closure_conditions_are_ordered(s: Store) -> None:
    """referentially closed ⇒ lineage integrity ⇒ AC⁺ ⇒ ancestry-closed."""
    if s.is_referentially_closed():
        assert s.has_lineage_integrity()
    if s.has_lineage_integrity():
        assert s.satisfies_ac_plus()
    if s.satisfies_ac_plus():
        assert s.is_ancestry_closed()


@PROPERTY
@given(closed_stores(record_strategy=LIGHT))
def test_closed_stores_strategy_gives_closed_stores(s: Store) -> None:
    assert s.is_inverse_closed() and s.is_referentially_closed()


# --------------------------------------------------------------------------- values and immutability


def test_store_is_frozen_and_its_maps_are_read_only() -> None:
    s = Store.of({"a": Record("A")}, [("a", R.REFERENCES, "b")])
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.edges = frozenset()  # type: ignore[misc]
    with pytest.raises(TypeError):
        s.records["b"] = Record("B")  # type: ignore[index]
    assert isinstance(s.edges, frozenset)


def test_store_of_copies_its_input() -> None:
    d = {"a": Record("A")}
    es = [("a", R.REFERENCES, "b")]
    s = Store.of(d, es)
    d["z"] = Record("Z")
    es.append(("z", R.REFERENCES, "a"))
    assert s.dom() == {"a"} and len(s.edges) == 1


def test_store_builders_return_new_stores() -> None:
    s = Store.of({"a": Record("A")}, [("a", R.REFERENCES, "b")])
    before = (dict(s.records), s.edges)
    s1 = s.with_record("b", Record("B"))
    s2 = s.without_record("a")
    s3 = s.with_edges([("b", R.REFERENCED_BY, "a")])
    s4 = s.without_edges(s.edges)
    assert (dict(s.records), s.edges) == before
    assert s1.dom() == {"a", "b"} and s2.dom() == frozenset() and len(s3.edges) == 2 and s4.edges == frozenset()
    assert s2.edges == s.edges  # without_record leaves edges alone (delete is what removes them)


def test_store_equality_and_hash_ignore_insertion_order() -> None:
    a = Store.of({"x": Record("1"), "y": Record("2")}, [("x", R.CAUSES, "y"), ("y", R.CAUSED_BY, "x")])
    b = Store.of({"y": Record("2"), "x": Record("1")}, [("y", R.CAUSED_BY, "x"), ("x", "causes", "y")])
    assert a == b and hash(a) == hash(b)
    assert list(b.records) == ["x", "y"]  # sorted iteration
    assert all(isinstance(e.relation, Relation) for e in b.edges)


def test_store_repr_and_html_mention_records_and_edges() -> None:
    s = Store.of({"a": Record("<A>")}, [("a", R.REFERENCES, "b")])
    assert "(a, REFERENCES, b)" in repr(s)
    html = s._repr_html_()
    assert "&lt;A&gt;" in html and "<A>" not in html


def test_store_constructor_normalises_edge_labels() -> None:
    """An Edge built with a label string is stored with the Relation (so JSON and str() work)."""
    s = Store(records={"a": Record("A")}, edges=frozenset({Edge("a", "causes", "b")}))  # type: ignore[arg-type]
    (e,) = s.edges
    assert e.relation is R.CAUSES and str(e) == "(a, CAUSES, b)"
    assert s == Store.of({"a": Record("A")}, [("a", R.CAUSES, "b")])
    with pytest.raises(ValueError):
        Store(edges=frozenset({Edge("a", "bogus", "b")}))  # type: ignore[arg-type]
