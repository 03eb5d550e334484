"""A store's maintained indexes agree, after every step, with the definitions computed by scanning.

The store keeps its records in a hash trie and its edges filed by endpoint, and
maintains beside them the sorted identifiers, the clock readings and the
identifiers named in ancestry metadata.  Here every index is compared with the
definition it replaces (Definitions 3.4 and 3.8, θ's prefix order), on random
runs of the whole alphabet with faults and random θ, and on random sequences of
the four store builders; every earlier store must be unchanged afterwards.
"""

from __future__ import annotations

from budget import budget
from hypothesis import given
from hypothesis import strategies as st
from strategies import call_sequences, edges, identifiers, records, stores, thetas

from coalg.model import ANCESTRY, EMPTY, Record, Store, Theta, inverse, meta_ancestry, step
from coalg.model.coalgebra import first_match, resolve_prefix
from coalg.model.store import Edge, disjoint_union

PROPERTY = budget(80)


def naive_occ(s: Store) -> frozenset[str]:
    ends = {x for e in s.edges for x in (e.source, e.target)}
    named = {j for r in s.records.values() for rel in ANCESTRY for j in meta_ancestry(r, rel)}
    return frozenset(set(s.records) | ends | named)


def naive_first(s: Store, p: str, theta: Theta) -> str | None:
    matches = [i for i in dict(s.records) if i.startswith(p)]
    return theta.first_id(matches) if matches else None


def assert_indexes_agree(s: Store, theta: Theta, probes: set[str]) -> None:
    records = dict(s.records)
    es = frozenset(s.edges)
    rebuilt = Store.of(records, es)
    assert s == rebuilt and hash(s) == hash(rebuilt)
    assert list(s.records) == sorted(records)
    stamps = [t for r in records.values() for t in (r.created_at, r.updated_at) if t is not None]
    assert s.latest_clock() == max(stamps, default=0)
    ids = set(records) | {x for e in es for x in (e.source, e.target)}
    assert s.ids() == ids and s.occ() == naive_occ(s)
    assert s.dangling() == ids - set(records)
    assert s.dangling_edges() == {e for e in es if e.source not in records or e.target not in records}
    assert s.one_way_edges() == {e for e in es if Edge(e.target, inverse(e.relation), e.source) not in es}
    for i in probes | ids | naive_occ(s):
        assert s.mentions(i) == (i in ids)
        assert s.occurs(i) == (i in naive_occ(s))
        assert s.incident_edges(i) == {e for e in es if i in (e.source, e.target)}
        assert s.out_edges(i) == tuple(sorted(e for e in es if e.source == i))
        assert s.in_edges(i) == tuple(sorted(e for e in es if e.target == i))
        assert s.out_edges(i, ANCESTRY) == tuple(sorted(e for e in es if e.source == i and e.relation in ANCESTRY))
        assert s.in_edges(i, ANCESTRY) == tuple(sorted(e for e in es if e.target == i and e.relation in ANCESTRY))
        for p in {i[:k] for k in range(len(i) + 1)}:
            assert list(s.ids_with_prefix(p)) == sorted(j for j in records if j.startswith(p))
            assert first_match(s, p, theta) == naive_first(s, p, theta) == resolve_prefix(s, p, theta)
            assert first_match(s, p) == naive_first(s, p, Theta())


@PROPERTY
@given(call_sequences(EMPTY, max_size=10, faults=True), thetas(), st.sets(identifiers(), max_size=4))
def test_every_store_of_a_run_has_indexes_that_agree_with_scans(calls, theta, probes) -> None:  # type: ignore[no-untyped-def]
    s = EMPTY
    kept: list[tuple[Store, dict[str, Record], frozenset[Edge]]] = []
    for c in calls:
        _, s = step(s, c.letter, c.allocation, theta=theta, faults=c.faults)
        kept.append((s, dict(s.records), frozenset(s.edges)))
        assert_indexes_agree(s, theta, probes)
    for store, recs, es in kept:  # persistence: later steps changed no earlier store
        assert dict(store.records) == recs and store.edges == es


@st.composite
def builder_scripts(draw: st.DrawFn) -> tuple[Store, list[tuple[str, object]]]:
    start = draw(stores(max_records=5, max_edges=6))
    ops: list[tuple[str, object]] = []
    for _ in range(draw(st.integers(0, 12))):
        kind = draw(st.sampled_from(("with_record", "without_record", "with_edges", "without_edges")))
        if kind == "with_record":
            ops.append((kind, (draw(identifiers()), draw(records()))))
        elif kind == "without_record":
            ops.append((kind, draw(identifiers())))
        else:
            ops.append((kind, draw(st.lists(edges(identifiers()), max_size=3))))
    return start, ops


@PROPERTY
@given(builder_scripts(), thetas(), st.sets(identifiers(), max_size=3))
def test_the_four_builders_keep_every_index(script, theta, probes) -> None:  # type: ignore[no-untyped-def]
    s, ops = script
    for kind, arg in ops:
        before = (dict(s.records), frozenset(s.edges))
        t = getattr(s, kind)(*arg) if kind == "with_record" else getattr(s, kind)(arg)
        assert (dict(s.records), frozenset(s.edges)) == before
        s = t
        assert_indexes_agree(s, theta, probes)


@PROPERTY
@given(stores(max_records=4, max_edges=4), stores(max_records=4, max_edges=4))
def test_union_built_by_insertion_equals_the_union_of_the_parts(s: Store, t: Store) -> None:
    if set(s.records) & set(t.records):
        return
    u = disjoint_union(s, t)
    assert u == Store.of({**dict(s.records), **dict(t.records)}, s.edges | t.edges)
    assert_indexes_agree(u, Theta(), set())


def test_equal_stores_built_in_different_orders_are_equal_and_hash_alike() -> None:
    r = Record("x", created_at=1, updated_at=4, metadata={"merged_from": ["p", "q"]})
    a = EMPTY.with_record("b", r).with_record("a", Record("y")).with_edges([Edge("a", ANCESTRY_ONE, "b")])
    b = EMPTY.with_edges([Edge("a", ANCESTRY_ONE, "b")]).with_record("a", Record("y")).with_record("b", r)
    c = a.with_record("zz", Record("z")).without_record("zz")
    assert a == b == c and hash(a) == hash(b) == hash(c)
    assert a.latest_clock() == 4 and a.occurs("q") and not a.mentions("q")
    assert b.without_record("b").latest_clock() == 0 and not b.without_record("b").occurs("q")


ANCESTRY_ONE = min(ANCESTRY)
