"""Stores and record maps as values: their constructors, printing, pickling and immutability.

Each expected value is written out by hand, so a change in how a store prints, pickles or
builds its indexes is caught even where the rest of the model does not look.
"""

from __future__ import annotations

import pickle
from dataclasses import FrozenInstanceError

import pytest

from coalg.model import Record, Relation
from coalg.model.recordmap import RecordMap
from coalg.model.store import Edge, Store

R = Relation


def _store() -> Store:
    return Store.of({"b": Record("B"), "a": Record("A")}, [("b", R.CAUSES, "a"), ("a", R.REFERENCES, "b")])


def test_repr_lists_records_in_order_and_sorted_edges() -> None:
    assert repr(_store()) == "Store(2 records: ['a', 'b']; edges: [(a, REFERENCES, b), (b, CAUSES, a)])"
    assert repr(Store.of()) == "Store(0 records: []; edges: [])"


def test_a_pickled_store_comes_back_equal_with_working_indexes() -> None:
    s = _store()
    fn, args = s.__reduce__()
    assert fn is Store and args == ({"a": Record("A"), "b": Record("B")},
                                    [Edge("a", R.REFERENCES, "b"), Edge("b", R.CAUSES, "a")])
    back = pickle.loads(pickle.dumps(s))
    assert back == s and hash(back) == hash(s) and list(back.records) == ["a", "b"]
    assert [str(e) for e in back.out_edges("b")] == ["(b, CAUSES, a)"]


def test_a_store_refuses_assignment_and_deletion_naming_the_field() -> None:
    s = _store()
    with pytest.raises(FrozenInstanceError, match="cannot assign to field 'records': stores are values"):
        s.records = RecordMap()  # type: ignore[misc]
    with pytest.raises(FrozenInstanceError, match="cannot delete field 'records': stores are values"):
        del s.records  # type: ignore[misc]
    assert s == _store()


def test_a_trusted_store_equals_the_checked_one() -> None:
    s = _store()
    t = Store._trusted(s.records, s.edges)
    assert t == s and hash(t) == hash(s) and t.edges == s.edges and t.records is s.records
    assert [str(e) for e in t.out_edges("a")] == ["(a, REFERENCES, b)"]


def test_record_map_constructor_builds_every_index() -> None:
    r = Record("B", created_at=2, updated_at=3, metadata={"evolved_from": "z"})
    m = RecordMap({"b": r, "a": Record("A", created_at=1, updated_at=1)})
    assert m == RecordMap.of({"a": Record("A", created_at=1, updated_at=1), "b": r})
    assert list(m) == ["a", "b"] and len(m) == 2 and m["b"] == r and "a" in m
    assert m.latest_clock() == 3 and m.names("z") and not m.names("a")
    assert list(m.with_prefix("b")) == ["b"] and m.first_with_prefix("") == "a"
    assert hash(m) == hash(RecordMap.of(dict(m)))
    empty = RecordMap()
    assert list(empty) == [] and len(empty) == 0 and empty == RecordMap(None) == RecordMap.of({})
    assert empty.latest_clock() == 0 and not empty.names("z")  # no record: the clock has not moved


def test_record_map_equals_a_mapping_with_exactly_its_items() -> None:
    a, b = Record("A"), Record("B")
    m = RecordMap({"a": a, "b": b})
    assert m == {"b": b, "a": a} and {"a": a, "b": b} == m and m == RecordMap({"b": b, "a": a})
    assert m != {"a": a} and m != {"a": a, "b": b, "c": a} and m != {"a": a, "b": a} and m != {"a": a, "c": b}
    assert m != RecordMap({"a": a}) and m != RecordMap({"a": a, "b": a}) and m != RecordMap({"a": a, "c": b})
    assert m != [("a", a), ("b", b)] and m != "ab" and RecordMap() == {} and RecordMap() != {"a": a}


def test_record_map_repr_is_a_dict_in_identifier_order() -> None:
    m = RecordMap({"b": Record("B"), "a": Record("A")})
    assert repr(m) == "{'a': " + repr(Record("A")) + ", 'b': " + repr(Record("B")) + "}"
    assert repr(RecordMap()) == "{}"


def test_html_is_one_row_per_record_and_one_item_per_edge_all_escaped() -> None:
    s = Store.of({"<b>": Record("B" * 70, type="t&t", namespace="n<1>"), "a": Record("<A>")},
                 [("<b>", R.CAUSES, "a"), ("a", R.REFERENCES, "<b>")])
    head = "<table><tr><th>id</th><th>type</th><th>namespace</th><th>content</th></tr>"
    row_a = "<tr><td><code>a</code></td><td>fact</td><td>global</td><td>&lt;A&gt;</td></tr>"
    row_b = ("<tr><td><code>&lt;b&gt;</code></td><td>t&amp;t</td><td>n&lt;1&gt;</td>"
             f"<td>{'B' * 60}</td></tr>")  # content cut to 60 characters
    edges = ("<ul><li><code>(&lt;b&gt;, CAUSES, a)</code></li>"
             "<li><code>(a, REFERENCES, &lt;b&gt;)</code></li></ul>")
    assert s._repr_html_() == head + row_b + row_a + "</table>" + edges
    assert Store.of()._repr_html_() == head + "</table><ul></ul>"


def test_a_union_error_names_at_most_ten_clashing_identifiers() -> None:
    from coalg.model.store import UnionUndefined, disjoint_union, mention_disjoint_union

    eleven = Store.of({f"i{k:02}": Record("x") for k in range(11)})
    with pytest.raises(UnionUndefined) as e:
        disjoint_union(eleven, eleven)
    shown = ", ".join(f"i{k:02}" for k in range(10))
    assert str(e.value) == f"⊎ (domain-disjoint union) is undefined: both stores hold records at {shown} …"
    assert e.value.clash == tuple(f"i{k:02}" for k in range(11))
    ten = Store.of({f"i{k:02}": Record("x") for k in range(10)})
    with pytest.raises(UnionUndefined) as e:
        disjoint_union(ten, ten)
    assert str(e.value) == f"⊎ (domain-disjoint union) is undefined: both stores hold records at {shown}"
    with pytest.raises(UnionUndefined) as e:
        mention_disjoint_union(Store.of({"i": Record("x")}, [("i", R.EVOLVED_FROM, "j")]), Store.of({"j": Record("y")}))
    assert str(e.value) == "⊕ (mention-disjoint union) is undefined: both stores mention j"


def test_record_map_get_returns_the_given_default() -> None:
    m = RecordMap({"a": Record("A")})
    assert m.get("a") == Record("A") and m.get("b") is None and m.get("b", Record("B")) == Record("B")




def test_edge_membership_is_exact_and_never_raises() -> None:
    s = Store.of({"a": Record("x"), "b": Record("y")}, [("a", Relation.RELATED_TO, "b")])
    assert Edge("a", Relation.RELATED_TO, "b") in s.edges
    assert Edge("b", Relation.RELATED_TO, "a") not in s.edges
    assert Edge("zz", Relation.RELATED_TO, "b") not in s.edges  # an endpoint with no edges at all
    for other in (5, None, "abc", ("a", Relation.RELATED_TO), ("a", Relation.RELATED_TO, "b", "c")):
        assert other not in s.edges
    # the index the steps read answers the same, without building the frozenset
    ix = s.edge_index
    assert Edge("a", Relation.RELATED_TO, "b") in ix
    assert Edge("b", Relation.RELATED_TO, "a") not in ix and Edge("zz", Relation.RELATED_TO, "b") not in ix
    for other in (5, None, "abc", ("a", Relation.RELATED_TO), ("a", Relation.RELATED_TO, "b", "c")):
        assert other not in ix


def test_edge_indexes_with_as_many_edges_but_different_ones_differ() -> None:
    from coalg.model.edgeindex import EdgeIndex

    one = EdgeIndex.of([Edge("a", Relation.RELATED_TO, "b")])
    other = EdgeIndex.of([Edge("a", Relation.CAUSES, "b")])
    assert one != other and EdgeIndex.of([Edge("a", Relation.RELATED_TO, "b")]) == one
    records = {"a": Record("x"), "b": Record("y")}
    assert Store.of(records, [("a", Relation.RELATED_TO, "b")]) != Store.of(records, [("a", Relation.CAUSES, "b")])


def test_an_identifier_named_by_two_records_stays_named_until_neither_names_it() -> None:
    """The record map counts, per identifier, the records whose ancestry metadata names it; built at once
    or record by record, replacing or removing one of two namers leaves it named by the other."""
    def namer(content: str) -> Record:
        return Record(content, metadata={"evolved_from": "p"})

    both = {"c1": namer("1"), "c2": namer("2")}
    for m in (RecordMap.of(both), RecordMap().set("c1", both["c1"]).set("c2", both["c2"])):
        assert m.names("p")
        assert m.without("c1").names("p") and not m.without("c1").without("c2").names("p")
        replaced = m.set("c1", Record("1'"))  # c1 no longer names p; c2 still does
        assert replaced.names("p") and not replaced.set("c2", Record("2'")).names("p")
        assert m.set("c1", namer("1''")).without("c2").names("p")  # replaced by another namer
