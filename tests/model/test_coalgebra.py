"""The store coalgebra α (Definition 3.14) with the code-faithful ContextFS a93035d semantics of spec §2.3.

One block of tests per letter pins its semantics, including every error case
(an ``Err`` output and the store unchanged); then the edge-write fault oracle,
the allocation oracle and replay, and immutability.
"""

from __future__ import annotations

import pydoc

import pytest
from budget import budget
from hypothesis import given
from hypothesis import strategies as st
from strategies import any_letters, call_sequences, records, stores, words

from coalg.model import (
    ANCESTRY,
    REPAIRED,
    Allocation,
    Call,
    Delete,
    Evolve,
    FrozenMap,
    Link,
    Merge,
    Oracle,
    Recall,
    RecallPrefix,
    Record,
    Relation,
    Save,
    SaveAt,
    Split,
    Supersede,
    Theta,
    creates,
    dumps_store,
    meta_ancestry,
    named,
)
from coalg.model.coalgebra import (
    Created,
    Err,
    Flag,
    Found,
    Nothing,
    Trace,
    Wrote,
    _write_pairs,
    alpha,
    generated_merge_content,
    modes,
    replay,
    resolve_prefix,
    run,
    step,
)
from coalg.model.store import EMPTY, Edge, Store

R = Relation
A = Allocation
PROPERTY = budget(30)
LIGHT = records(with_metadata=False)

A1 = Record("alpha", type="fact", namespace="alice", tags={"t1"}, summary="sum-a",
            metadata={"k": 1, "shared": "from-a1"}, created_at=1, updated_at=1)
B1 = Record("beta", type="decision", namespace="bob", tags={"t2"},
            metadata={"shared": "from-b1", "evolved_from": "zz"}, created_at=2, updated_at=2)
B2 = Record("gamma", type="decision", namespace="bob", tags={"t2", "t3"}, created_at=3, updated_at=3)
BASE = Store.of(
    {"a1": A1, "b1": B1, "b2": B2},
    [("a1", R.RELATED_TO, "b1"), ("b1", R.RELATED_TO, "a1"), ("b2", R.SUPERSEDES, "ghost")],
)


NO_ALLOCATION = A()


def assert_err_unchanged(s: Store, a, xi: Allocation = NO_ALLOCATION, **kw) -> Err:  # type: ignore[no-untyped-def]
    """The error contract: an ``Err`` output and the very same store."""
    snapshot = dumps_store(s)
    out, s2 = step(s, a, xi, **kw)
    assert isinstance(out, Err), out
    assert s2 is s
    assert dumps_store(s) == snapshot
    return out


def new_edges(before: Store, after: Store) -> frozenset[Edge]:
    return after.edges - before.edges


# --------------------------------------------------------------------------- save


def test_save_stamps_tau_and_drops_valid_time() -> None:
    r = Record("x", namespace="alice", created_at=99, updated_at=98, valid_time=5)
    out, s = step(BASE, Save(r), A(("n1",), 7))
    expected = Record("x", namespace="alice", created_at=7, updated_at=7, valid_time=None)
    assert out == Created((("n1", expected),))
    assert s.records["n1"] == expected
    assert s.edges == BASE.edges
    assert s.dom() == BASE.dom() | {"n1"}
    assert all(s.records[i] == BASE.records[i] for i in BASE.dom())


@pytest.mark.parametrize(
    "xi, why",
    [
        (A((), 1), "creates 1 record(s) but the allocation supplies 0"),
        (A(("n1", "n2"), 1), "supplies 2"),
        (A(("a1",), 1), "already hold a record: a1"),
    ],
)
def test_save_inadmissible_allocation_is_err(xi: Allocation, why: str) -> None:
    out = assert_err_unchanged(BASE, Save(Record("x")), xi)
    assert why in out.reason


def test_save_on_a_dangling_endpoint_is_admissible_but_not_strictly_fresh() -> None:
    """Def. 3.8 / Remark 3.9: freshness is relative to dom; the new record inherits the dangling edge."""
    xi = A(("ghost",), 1)
    assert xi.admissible(BASE, Save(Record("x"))) is None
    assert not xi.strictly_fresh(BASE)
    _, s = step(BASE, Save(Record("x")), xi)
    assert Edge("b2", R.SUPERSEDES, "ghost") in s.edges
    assert s.is_referentially_closed() and not BASE.is_referentially_closed()


# --------------------------------------------------------------------------- save_at


def test_save_at_replaces_the_record_and_keeps_edges() -> None:
    r = Record("replaced", type="episodic", namespace="carol", valid_time=3)
    out, s = step(BASE, SaveAt("a1", r), A((), 4))
    assert isinstance(out, Created) and out.ids == ("a1",)
    got = s.records["a1"]
    assert (got.content, got.type, got.namespace, got.valid_time) == ("replaced", "episodic", "carol", None)
    assert got.metadata == FrozenMap() and got.tags == frozenset()  # nothing of the old record survives
    assert out.items[0][1] == got
    assert s.edges == BASE.edges and s.dom() == BASE.dom()


def test_save_at_missing_id_is_err() -> None:
    out = assert_err_unchanged(BASE, SaveAt("nope", Record("x")), A((), 1))
    assert "no record nope" in out.reason


def test_save_at_with_an_allocated_id_is_err() -> None:
    assert_err_unchanged(BASE, SaveAt("a1", Record("x")), A(("n",), 1))


# --------------------------------------------------------------------------- recall


def test_recall_outputs_the_identifier_and_record_and_changes_nothing() -> None:
    out, s = step(BASE, Recall("b1"))
    assert out == Found("b1", B1)
    assert s is BASE


def test_recall_is_by_equality_and_missing_is_bottom_not_err() -> None:
    out, s = step(BASE, Recall("a"))  # "a" is only a prefix of a1
    assert out == Nothing() and s is BASE
    out, s = step(BASE, Recall("ghost"))  # a dangling endpoint is not a record
    assert out == Nothing() and s is BASE


def test_recall_with_an_allocated_id_is_err() -> None:
    assert_err_unchanged(BASE, Recall("a1"), A(("x",), 1))


# --------------------------------------------------------------------------- recall by prefix

TENANTS = Store.of({"ab1": Record("mine", namespace="alice"), "ab2": Record("theirs", namespace="bob"),
                    "c": Record("c")})


def test_recall_prefix_returns_theta_first_match_with_its_identifier() -> None:
    assert step(TENANTS, RecallPrefix("ab"))[0] == Found("ab1", TENANTS.records["ab1"])
    assert step(TENANTS, RecallPrefix("ab"), theta=Theta(descending=True))[0] == Found("ab2", TENANTS.records["ab2"])
    assert step(TENANTS, RecallPrefix("ab"), theta=Theta(id_priority=("ab2",)))[0].id == "ab2"
    assert step(TENANTS, RecallPrefix("ab1"))[0].id == "ab1"  # a full id is a prefix of itself
    assert step(TENANTS, RecallPrefix(""))[0].id == "ab1"  # LIKE '%' matches every row


def test_recall_prefix_has_no_namespace_filter() -> None:
    """Prop. 6.3: the θ-first match can be another tenant's record."""
    out, _ = step(TENANTS, RecallPrefix("ab"), theta=Theta(id_priority=("ab2",)))
    assert out.record.namespace == "bob"


def test_recall_prefix_no_match_is_bottom() -> None:
    out, s = step(TENANTS, RecallPrefix("zz"))
    assert out == Nothing() and s is TENANTS


def test_resolve_prefix_only_sees_records_not_dangling_endpoints() -> None:
    assert resolve_prefix(BASE, "gh") is None
    assert resolve_prefix(BASE, "b") == "b1"
    assert resolve_prefix(BASE, "b", Theta(descending=True)) == "b2"


# --------------------------------------------------------------------------- delete


def test_delete_removes_the_record_and_every_incident_edge() -> None:
    s0 = BASE.with_edges([("b2", R.CAUSES, "b1"), ("b2", R.RELATED_TO, "b2")])
    out, s = step(s0, Delete("b1"), A((), 1))
    assert out == Flag(True)
    assert s.dom() == {"a1", "b2"}
    assert s.edges == {Edge("b2", R.SUPERSEDES, "ghost"), Edge("b2", R.RELATED_TO, "b2")}
    assert all("b1" not in (e.source, e.target) for e in s.edges)


def test_delete_missing_id_is_err_even_if_edges_mention_it() -> None:
    out = assert_err_unchanged(BASE, Delete("ghost"), A((), 1))
    assert "no record ghost" in out.reason


def test_delete_is_by_equality_unless_by_prefix() -> None:
    assert_err_unchanged(BASE, Delete("a"), A((), 1))
    out, s = step(BASE, Delete("b", by_prefix=True), A((), 1), theta=Theta(descending=True))
    assert out == Flag(True) and s.dom() == {"a1", "b1"}
    assert_err_unchanged(BASE, Delete("q", by_prefix=True), A((), 1))


def test_delete_with_an_allocated_id_is_err() -> None:
    assert_err_unchanged(BASE, Delete("a1"), A(("x",), 1))


# --------------------------------------------------------------------------- evolve


def test_evolve_record_fields() -> None:
    out, s = step(BASE, Evolve("a1", "alpha, revised", tags=frozenset({"extra"})), A(("e1",), 9))
    new = s.records["e1"]
    assert out == Created((("e1", new),))
    assert new.content == "alpha, revised"
    assert new.type == "fact" and new.namespace == "alice"
    assert new.tags == {"t1", "evolved", "extra"}
    assert new.summary == "sum-a"  # the original's, by default
    assert (new.created_at, new.updated_at, new.valid_time) == (9, 9, None)


def test_evolve_metadata_inherits_the_original_and_adds_three_keys() -> None:
    _, s = step(BASE, Evolve("b1", "beta 2"), A(("e1",), 9))
    # b1's own evolved_from ("zz") is overridden; its other keys are inherited
    assert dict(s.records["e1"].metadata) == {
        "shared": "from-b1",
        "evolved_from": "b1",
        "evolution_timestamp": 9,
        "change_reason": "observation",
    }


def test_evolve_summary_argument_overrides() -> None:
    _, s = step(BASE, Evolve("a1", "x", summary="new sum"), A(("e1",), 9))
    assert s.records["e1"].summary == "new sum"


def test_evolve_writes_the_edge_pair_and_keeps_the_original() -> None:
    _, s = step(BASE, Evolve("a1", "x"), A(("e1",), 9))
    assert new_edges(BASE, s) == {Edge("e1", R.EVOLVED_FROM, "a1"), Edge("a1", R.EVOLVED_INTO, "e1")}
    assert s.records["a1"] == A1
    assert s.dom() == BASE.dom() | {"e1"}


def test_evolve_ignores_a_valid_time_argument() -> None:
    _, s = step(BASE, Evolve("a1", "x", valid_time=42), A(("e1",), 9))
    assert s.records["e1"].valid_time is None


def test_evolve_of_a_merged_record_inherits_merged_from_without_edges() -> None:
    """Prop. 5.14 B: metadata {evolved_from, merged_from} but only the EVOLVED_FROM edge."""
    _, s1 = step(BASE, Merge(("a1", "b1")), A(("m",), 5))
    _, s2 = step(s1, Evolve("m", "m2"), A(("e",), 6))
    rec = s2.records["e"]
    assert meta_ancestry(rec, R.MERGED_FROM) == {"a1", "b1"}
    assert meta_ancestry(rec, R.EVOLVED_FROM) == {"m"}
    assert s2.out_edges("e", ANCESTRY) == (Edge("e", R.EVOLVED_FROM, "m"),)


def test_evolve_missing_id_is_err() -> None:
    out = assert_err_unchanged(BASE, Evolve("nope", "x"), A(("e1",), 1))
    assert out.reason == "evolve: no record nope"


@pytest.mark.parametrize("xi", [A((), 1), A(("e1", "e2"), 1), A(("b2",), 1)], ids=["none", "two", "taken"])
def test_evolve_inadmissible_allocation_is_err(xi: Allocation) -> None:
    assert_err_unchanged(BASE, Evolve("a1", "x"), xi)


def test_evolve_by_prefix_writes_the_prefix_string_into_edges_and_metadata() -> None:
    """Prop. 5.30 W2: the record is resolved by prefix, but the argument string is written."""
    out, s = step(BASE, Evolve("a", "x", by_prefix=True), A(("e1",), 3))
    new = s.records["e1"]
    assert out == Created((("e1", new),))
    assert new.namespace == "alice" and new.type == "fact"  # derived from a1 ...
    assert new.metadata["evolved_from"] == "a"  # ... but names the prefix
    assert new_edges(BASE, s) == {Edge("e1", R.EVOLVED_FROM, "a"), Edge("a", R.EVOLVED_INTO, "e1")}
    assert "a" in s.dangling()
    assert not s.is_ancestry_closed()
    assert not s.has_lineage_integrity()


def test_evolve_by_prefix_resolves_theta_first_and_missing_prefix_is_err() -> None:
    _, s = step(BASE, Evolve("b", "x", by_prefix=True), A(("e1",), 3), theta=Theta(descending=True))
    assert s.records["e1"].tags == B2.tags | {"evolved"}  # derived from b2
    assert_err_unchanged(BASE, Evolve("q", "x", by_prefix=True), A(("e1",), 3))


def test_evolve_without_by_prefix_does_not_resolve_prefixes() -> None:
    assert_err_unchanged(BASE, Evolve("a", "x"), A(("e1",), 3))


# --------------------------------------------------------------------------- merge


def test_merge_default_content_type_tags_namespace() -> None:
    out, s = step(BASE, Merge(("a1", "b1", "b2")), A(("m",), 5))
    new = s.records["m"]
    assert out == Created((("m", new),))
    assert new.content == "[Source 1]: alpha\n\n[Source 2]: beta\n\n[Source 3]: gamma"
    assert new.type == "decision"  # the unique mode
    assert new.tags == {"t1", "t2", "t3", "merged"}
    assert new.namespace == "alice"  # memory_lineage.py:256, the first argument's namespace
    assert (new.created_at, new.updated_at) == (5, 5)


def test_merge_namespace_and_content_follow_argument_order() -> None:
    _, s = step(BASE, Merge(("b1", "a1")), A(("m",), 5))
    assert s.records["m"].namespace == "bob"
    assert s.records["m"].content.startswith("[Source 1]: beta")


def test_merge_generated_content_truncates_each_source_to_500_characters() -> None:
    s0 = Store.of({"x": Record("x" * 600), "y": Record("y" * 10)})
    _, s = step(s0, Merge(("x", "y")), A(("m",), 1))
    assert s.records["m"].content == f"[Source 1]: {'x' * 500}\n\n[Source 2]: {'y' * 10}"
    assert generated_merge_content(["p", "q"]) == "[Source 1]: p\n\n[Source 2]: q"


def test_merge_given_content_type_summary_override() -> None:
    _, s = step(BASE, Merge(("a1", "b1"), content="C", type="episodic", summary="S"), A(("m",), 5))
    new = s.records["m"]
    assert (new.content, new.type, new.summary) == ("C", "episodic", "S")


def test_merge_type_tie_is_broken_by_theta_and_both_choices_are_reachable() -> None:
    """Prop. 5.20: types ⟨fact, decision⟩ tie; θ decides."""
    assert modes(["fact", "decision"]) == {"fact", "decision"}
    assert modes(["fact", "decision", "decision"]) == {"decision"}
    got = {
        step(BASE, Merge(("a1", "b1")), A(("m",), 5), theta=th)[1].records["m"].type
        for th in (Theta(), Theta(type_priority=("fact",)), Theta(type_priority=("decision",)),
                   Theta(descending=True))
    }
    assert got == {"fact", "decision"}
    default = step(BASE, Merge(("a1", "b1")), A(("m",), 5))[1].records["m"].type
    assert default == Theta().choose_type({"fact", "decision"})
    # a unique mode is not subject to θ
    assert step(BASE, Merge(("a1", "b1", "b2")), A(("m",), 5), theta=Theta(type_priority=("fact",)))[1].records[
        "m"
    ].type == "decision"


def test_merge_metadata_later_overrides_earlier_then_merge_keys() -> None:
    _, s = step(BASE, Merge(("a1", "b1")), A(("m",), 5))
    assert dict(s.records["m"].metadata) == {
        "k": 1,
        "shared": "from-b1",  # b1 is later: it wins
        "evolved_from": "zz",  # inherited from b1
        "merged_from": ("a1", "b1"),
        "merge_strategy": "union",
        "merge_timestamp": 5,
    }
    _, s = step(BASE, Merge(("b1", "a1")), A(("m",), 5))
    assert s.records["m"].metadata["shared"] == "from-a1"
    assert s.records["m"].metadata["merged_from"] == ("b1", "a1")


def test_merge_overrides_an_inherited_merged_from() -> None:
    s0 = Store.of({"x": Record("x", metadata={"merged_from": ["old1", "old2"]}), "y": Record("y")})
    _, s = step(s0, Merge(("x", "y")), A(("m",), 1))
    assert s.records["m"].metadata["merged_from"] == ("x", "y")


def test_merge_edges_per_resolved_source() -> None:
    _, s = step(BASE, Merge(("a1", "b1")), A(("m",), 5))
    assert new_edges(BASE, s) == {
        Edge("m", R.MERGED_FROM, "a1"), Edge("a1", R.MERGED_INTO, "m"),
        Edge("m", R.MERGED_FROM, "b1"), Edge("b1", R.MERGED_INTO, "m"),
    }
    assert all(s.records[i] == BASE.records[i] for i in BASE.dom())


def test_merge_drops_unresolvable_arguments() -> None:
    _, s = step(BASE, Merge(("a1", "nope", "ghost", "b1")), A(("m",), 5))
    assert s.records["m"].metadata["merged_from"] == ("a1", "b1")
    assert s.records["m"].content == "[Source 1]: alpha\n\n[Source 2]: beta"  # numbering skips the dropped
    assert {e.target for e in s.out_edges("m")} == {"a1", "b1"}
    assert "nope" not in s.ids()


@pytest.mark.parametrize("ids", [(), ("a1",), ("a1", "nope"), ("nope", "ghost")])
def test_merge_needs_at_least_two_resolved_arguments(ids: tuple[str, ...]) -> None:
    out = assert_err_unchanged(BASE, Merge(ids), A(("m",), 5))
    assert "at least 2" in out.reason


def test_merge_repeated_argument_counts_twice() -> None:
    """Code-faithful: ``memories`` keeps both copies, so ≥2 holds and merged_from repeats the id."""
    _, s = step(BASE, Merge(("a1", "a1")), A(("m",), 5))
    assert s.records["m"].metadata["merged_from"] == ("a1", "a1")
    assert new_edges(BASE, s) == {Edge("m", R.MERGED_FROM, "a1"), Edge("a1", R.MERGED_INTO, "m")}


def test_merge_with_a_namespace_argument_is_err() -> None:
    """ContextFS a93035d's merge has no target-namespace parameter."""
    out = assert_err_unchanged(BASE, Merge(("a1", "b1"), namespace="alice"), A(("m",), 5))
    assert "namespace" in out.reason


@pytest.mark.parametrize("xi", [A((), 1), A(("m", "n"), 1), A(("a1",), 1)], ids=["none", "two", "taken"])
def test_merge_inadmissible_allocation_is_err(xi: Allocation) -> None:
    assert_err_unchanged(BASE, Merge(("a1", "b1")), xi)


def test_merge_by_prefix_records_resolved_full_ids() -> None:
    _, s = step(BASE, Merge(("a", "b"), by_prefix=True), A(("m",), 5))
    assert s.records["m"].metadata["merged_from"] == ("a1", "b1")
    assert new_edges(BASE, s) >= {Edge("m", R.MERGED_FROM, "a1"), Edge("m", R.MERGED_FROM, "b1")}
    assert s.has_lineage_integrity() is BASE.has_lineage_integrity()


# --------------------------------------------------------------------------- split


def test_split_parts_fields_metadata_and_edges() -> None:
    out, s = step(BASE, Split("b1", ("p", "q", "r")), A(("s1", "s2", "s3"), 8))
    assert isinstance(out, Created) and out.ids == ("s1", "s2", "s3")
    for k, (j, c) in enumerate(zip(("s1", "s2", "s3"), "pqr"), start=1):
        rec = s.records[j]
        assert out.items[k - 1] == (j, rec)
        assert rec.content == c and rec.type == "decision" and rec.namespace == "bob"
        assert rec.tags == {"t2", "split", f"split_part_{k}"}
        assert dict(rec.metadata) == {
            "shared": "from-b1", "evolved_from": "zz",  # inherited
            "split_from": "b1", "split_part": k, "split_total": 3, "split_timestamp": 8,
        }
        assert (rec.created_at, rec.updated_at) == (8, 8)
    assert new_edges(BASE, s) == {
        e for j in ("s1", "s2", "s3") for e in (Edge(j, R.SPLIT_FROM, "b1"), Edge("b1", R.SPLIT_INTO, j))
    }
    assert s.records["b1"] == B1


@pytest.mark.parametrize("parts, xi", [((), A((), 1)), (("only",), A(("s1",), 1))])
def test_split_needs_at_least_two_parts(parts: tuple[str, ...], xi: Allocation) -> None:
    out = assert_err_unchanged(BASE, Split("a1", parts), xi)
    assert "at least 2 parts" in out.reason


def test_split_missing_id_is_err() -> None:
    out = assert_err_unchanged(BASE, Split("nope", ("p", "q")), A(("s1", "s2"), 1))
    assert "no record nope" in out.reason


@pytest.mark.parametrize(
    "xi, why",
    [
        (A(("s1",), 1), "creates 2 record(s)"),
        (A(("s1", "s2", "s3"), 1), "supplies 3"),
        (A(("s1", "s1"), 1), "not pairwise distinct"),
        (A(("s1", "a1"), 1), "already hold a record: a1"),
    ],
)
def test_split_inadmissible_allocation_is_err(xi: Allocation, why: str) -> None:
    out = assert_err_unchanged(BASE, Split("b1", ("p", "q")), xi)
    assert why in out.reason


def test_split_by_prefix_writes_the_prefix_string() -> None:
    _, s = step(BASE, Split("a", ("p", "q"), by_prefix=True), A(("s1", "s2"), 1))
    assert s.records["s1"].metadata["split_from"] == "a"
    assert Edge("s2", R.SPLIT_FROM, "a") in s.edges and Edge("a", R.SPLIT_INTO, "s1") in s.edges
    assert not s.is_ancestry_closed()


# --------------------------------------------------------------------------- supersede


def test_supersede_writes_both_edges_in_order() -> None:
    out, s = step(BASE, Supersede("a1", "b1"), A((), 1))
    assert out == Wrote((Edge("b1", R.SUPERSEDES, "a1"), Edge("a1", R.SUPERSEDED_BY, "b1")))
    assert new_edges(BASE, s) == set(out.edges)
    assert s.records == BASE.records


def test_supersede_checks_no_existence() -> None:
    """Prop. 5.30 W1: supersede of non-records writes dangling edges."""
    out, s = step(EMPTY, Supersede("nonexistent1", "also-missing"), A((), 1))
    assert out == Wrote((Edge("also-missing", R.SUPERSEDES, "nonexistent1"),
                         Edge("nonexistent1", R.SUPERSEDED_BY, "also-missing")))
    assert s.dom() == frozenset() and s.dangling() == {"nonexistent1", "also-missing"}
    assert s.is_ancestry_closed() and s.has_lineage_integrity()  # W1 refutes only the strong form of L7


def test_supersede_with_an_allocated_id_is_err() -> None:
    assert_err_unchanged(BASE, Supersede("a1", "b1"), A(("x",), 1))


# --------------------------------------------------------------------------- link


def test_link_prefix_resolves_both_ends_one_way_by_default() -> None:
    out, s = step(BASE, Link("a", R.REFERENCES, "b"), A((), 1))
    assert out == Wrote((Edge("a1", R.REFERENCES, "b1"),))
    assert new_edges(BASE, s) == {Edge("a1", R.REFERENCES, "b1")}
    assert not s.is_inverse_closed()


def test_link_bidirectional_adds_the_inverse() -> None:
    out, s = step(BASE, Link("a1", R.PART_OF, "b2", bidirectional=True), A((), 1))
    assert out == Wrote((Edge("a1", R.PART_OF, "b2"), Edge("b2", R.CONTAINS, "a1")))
    _, s = step(BASE, Link("a1", R.DEPENDS_ON, "b2", bidirectional=True), A((), 1))
    assert new_edges(BASE, s) == {Edge("a1", R.DEPENDS_ON, "b2"), Edge("b2", R.DEPENDS_ON, "a1")}


def test_link_uses_theta_for_ambiguous_prefixes() -> None:
    out, _ = step(BASE, Link("a1", R.REFERENCES, "b"), A((), 1), theta=Theta(descending=True))
    assert out == Wrote((Edge("a1", R.REFERENCES, "b2"),))
    for theta, source in ((Theta(), "b1"), (Theta(descending=True), "b2")):  # the source end too
        out, _ = step(BASE, Link("b", R.REFERENCES, "a1"), A((), 1), theta=theta)
        assert out == Wrote((Edge(source, R.REFERENCES, "a1"),))


@pytest.mark.parametrize("src, dst", [("nope", "b1"), ("a1", "ghost")])
def test_link_to_a_missing_record_is_err(src: str, dst: str) -> None:
    out = assert_err_unchanged(BASE, Link(src, R.REFERENCES, dst), A((), 1))
    assert out.reason == f"link: no record {'nope' if src == 'nope' else 'ghost'}"  # the end that is missing


def test_step_refuses_what_is_not_a_letter_by_name() -> None:
    with pytest.raises(TypeError, match=r"^not a letter: 'save\(x\)'$"):
        step(BASE, "save(x)", A((), 1))  # type: ignore[arg-type]


# --------------------------------------------------------------------------- faults (the edge-write oracle)


def test_write_pairs_single_block_aborts_the_rest() -> None:
    p1 = (Edge("x", R.CAUSES, "y"), Edge("y", R.CAUSED_BY, "x"))
    p2 = (Edge("u", R.CAUSES, "v"), Edge("v", R.CAUSED_BY, "u"))
    assert _write_pairs([p1, p2], frozenset(), True) == [*p1, *p2]
    assert _write_pairs([p1, p2], frozenset({1}), True) == [p1[0]]
    assert _write_pairs([p1, p2], frozenset({0}), True) == []
    assert _write_pairs([p1, p2], frozenset({1}), False) == [p1[0], *p2]
    assert _write_pairs([p1, p2], frozenset({2}), False) == [*p1]
    assert _write_pairs([p1, p2], frozenset({0, 3}), False) == [p2[0]]
    assert _write_pairs([p1, p2], frozenset({7}), False) == [*p1, *p2]


def test_evolve_fault_at_write_0_leaves_metadata_ancestry_without_edges() -> None:
    """L2 violation: the record says evolved_from a1, the edge set says nothing."""
    out, s = step(BASE, Evolve("a1", "x"), A(("e",), 1), faults=frozenset({0}))
    assert isinstance(out, Created)
    assert s.edges == BASE.edges
    assert meta_ancestry(s.records["e"], R.EVOLVED_FROM) == {"a1"}
    assert s.out_edges("e", ANCESTRY) == ()


def test_evolve_fault_at_write_1_leaves_a_one_way_edge() -> None:
    """L3 violation: (e, EVOLVED_FROM, a1) without its inverse."""
    _, s = step(BASE, Evolve("a1", "x"), A(("e",), 1), faults=frozenset({1}))
    assert new_edges(BASE, s) == {Edge("e", R.EVOLVED_FROM, "a1")}
    assert s.one_way_edges() == {Edge("e", R.EVOLVED_FROM, "a1"), Edge("b2", R.SUPERSEDES, "ghost")}


def test_merge_fault_affects_only_its_own_pair() -> None:
    call = Merge(("a1", "b1", "b2"))
    _, clean = step(BASE, call, A(("m",), 1))
    pair = lambda i: {Edge("m", R.MERGED_FROM, i), Edge(i, R.MERGED_INTO, "m")}
    _, s = step(BASE, call, A(("m",), 1), faults=frozenset({2}))  # first write of the b1 pair
    assert new_edges(BASE, s) == pair("a1") | pair("b2")
    _, s = step(BASE, call, A(("m",), 1), faults=frozenset({3}))  # second write of the b1 pair
    assert new_edges(BASE, s) == pair("a1") | pair("b2") | {Edge("m", R.MERGED_FROM, "b1")}
    _, s = step(BASE, call, A(("m",), 1), faults=frozenset({0, 5}))
    assert new_edges(BASE, s) == pair("b1") | {Edge("m", R.MERGED_FROM, "b2")}
    assert s.records["m"] == clean.records["m"]  # the record is written regardless


def test_split_fault_affects_only_its_own_pair() -> None:
    _, s = step(BASE, Split("a1", ("p", "q", "r")), A(("s1", "s2", "s3"), 1), faults=frozenset({2}))
    assert new_edges(BASE, s) == {
        Edge("s1", R.SPLIT_FROM, "a1"), Edge("a1", R.SPLIT_INTO, "s1"),
        Edge("s3", R.SPLIT_FROM, "a1"), Edge("a1", R.SPLIT_INTO, "s3"),
    }
    assert {"s1", "s2", "s3"} <= s.dom()
    assert s.records["s2"].metadata["split_from"] == "a1"


@pytest.mark.parametrize(
    "faults, written",
    [
        (frozenset(), (Edge("b1", R.SUPERSEDES, "a1"), Edge("a1", R.SUPERSEDED_BY, "b1"))),
        (frozenset({0}), ()),
        (frozenset({1}), (Edge("b1", R.SUPERSEDES, "a1"),)),
    ],
)
def test_supersede_fault_outputs_fewer_edges(faults: frozenset[int], written: tuple[Edge, ...]) -> None:
    out, s = step(BASE, Supersede("a1", "b1"), A((), 1), faults=faults)
    assert out == Wrote(written)
    assert new_edges(BASE, s) == set(written)


def test_faults_do_not_touch_letters_without_edge_writes() -> None:
    assert step(BASE, Save(Record("x")), A(("n",), 1), faults=frozenset({0, 1})) == step(
        BASE, Save(Record("x")), A(("n",), 1)
    )


# --------------------------------------------------------------------------- the allocation oracle and replay

SCENARIO = [
    Save(Record("a", namespace="alice")),
    Save(Record("b", type="decision", namespace="bob")),
    Evolve("id0001", "a2"),
    Merge(("id0001", "id0002", "missing")),
    Split("id0004", ("p", "q")),
    Supersede("id0001", "id0003"),
    Supersede("ghost", "id0003"),
    Link("id0005", Relation.REFERENCES, "id0006", bidirectional=True),
    RecallPrefix("id000"),
    Recall("id0004"),
    SaveAt("id0002", Record("b'")),
    Delete("id0003"),
    Evolve("id", "via prefix", by_prefix=True),
    Evolve("nope", "err"),
]


def test_run_allocates_with_a_deterministic_oracle() -> None:
    t = run(EMPTY, SCENARIO)
    assert [c.allocation for c in t.calls[:5]] == [
        A(("id0001",), 1), A(("id0002",), 2), A(("id0003",), 3), A(("id0004",), 4), A(("id0005", "id0006"), 5),
    ]
    assert len(t.states) == len(SCENARIO) + 1 and t.states[0] is EMPTY and t.final is t.states[-1]
    assert isinstance(t.outputs[-1], Err)
    assert not any(isinstance(o, Err) for o in t.outputs[:-1])


def test_two_fresh_oracles_give_the_same_allocations() -> None:
    t1, t2 = run(EMPTY, SCENARIO), run(EMPTY, SCENARIO)
    assert t1.calls == t2.calls and t1.outputs == t2.outputs and t1.states == t2.states
    o1, o2 = Oracle(), Oracle()
    for a in SCENARIO:
        assert o1.allocate(BASE, a) == o2.allocate(BASE, a)


def test_replay_gives_identical_stores_and_outputs() -> None:
    t = run(EMPTY, SCENARIO, oracle=Oracle(prefix="x", width=2, clock=100))
    r = replay(EMPTY, t)
    assert r == t
    assert isinstance(r, Trace)


def test_replay_reproduces_faults() -> None:
    calls = [Call(Save(Record("a")), A(("a",), 1)), Call(Evolve("a", "b"), A(("b",), 2), frozenset({1}))]
    t = run(EMPTY, calls)
    assert t.final.one_way_edges() == {Edge("b", R.EVOLVED_FROM, "a")}
    assert replay(EMPTY, t).final == t.final


def test_oracle_allocations_are_strictly_fresh() -> None:
    """Skip every identifier the store mentions: records, dangling endpoints and ancestry metadata."""
    s = Store.of(
        {"id0003": Record("r", metadata={"merged_from": ["id0002", "id0005"], "evolved_from": "id0006"})},
        [("id0001", R.SUPERSEDES, "id0004")],
    )
    o = Oracle()
    xi = o.allocate(s, Split("id0003", ("p", "q", "r")))
    assert xi == A(("id0007", "id0008", "id0009"), 1)
    assert xi.strictly_fresh(s) and xi.admissible(s, Split("id0003", ("p", "q", "r"))) is None
    assert o.allocate(s, Save(Record("x"))) == A(("id0010",), 2)  # never hands out an id twice
    assert o.allocate(s, Recall("id0003")) == A((), 3)  # the clock ticks for every call


def test_oracle_with_a_fixed_supply() -> None:
    s = Store.of({"x": Record("x")})
    o = Oracle(ids=["x", "y", "z"])
    assert o.allocate(s, Save(Record("n"))).ids == ("y",)
    assert o.allocate(s, Save(Record("n"))).ids == ("z",)
    with pytest.raises(RuntimeError):
        o.allocate(s, Save(Record("n")))


@PROPERTY
@given(stores(), st.data())
def test_oracle_allocations_are_admissible_and_strictly_fresh(s: Store, data: st.DataObject) -> None:
    a = data.draw(any_letters(s, record_strategy=LIGHT))
    xi = Oracle().allocate(s, a)
    assert len(xi.ids) == creates(a)
    assert xi.admissible(s, a) is None
    assert xi.strictly_fresh(s)


@PROPERTY
@given(call_sequences(BASE, max_size=6, faults=True, record_strategy=LIGHT))
def test_replay_of_random_calls_is_identical(calls: tuple[Call, ...]) -> None:
    t = run(BASE, calls)
    assert replay(BASE, t) == t
    assert run(BASE, calls).states == t.states


@budget(15)
@given(words(BASE, max_size=6, record_strategy=LIGHT))
def test_run_of_a_word_is_reproducible(word: list) -> None:  # type: ignore[type-arg]
    assert run(BASE, word) == run(BASE, word)


def test_replay_passes_theta_and_keeps_states_only_on_request() -> None:
    # the θ-dependent call first: a trace keeps its final store, and recomputes the ones before
    word = [Call(Evolve("b", "x", by_prefix=True), A(("e1",), 3)), Call(RecallPrefix("b"), A((), 4)),
            Call(Save(Record("z")), A(("z1",), 5))]
    down = Theta(descending=True)
    t = run(BASE, word, theta=down)
    assert run(BASE, word).outputs != t.outputs  # the prefix resolves differently under θ
    again = replay(BASE, t, theta=down)
    assert again == t and again.outputs == t.outputs and not again.keeps_states
    kept = replay(BASE, t, theta=down, keep_states=True)
    assert kept.keeps_states and kept.states == t.states == run(BASE, word, theta=down, keep_states=True).states
    assert t.states[1] != run(BASE, word).states[1]  # so the recomputed states did use θ


def test_run_draws_bare_letters_from_the_given_oracle() -> None:
    word = [Save(Record("x")), Save(Record("y"))]
    assert [c.allocation.clock for c in run(EMPTY, word, oracle=Oracle(clock=100)).calls] == [101, 102]
    assert [c.allocation.clock for c in run(EMPTY, word).calls] == [1, 2]


def test_merge_refuses_a_target_namespace_and_says_so() -> None:
    out, s = step(BASE, Merge(("a1", "b1"), namespace="elsewhere"), A(("m",), 5))
    assert out == Err("merge: ContextFS a93035d's merge takes no target namespace") and s == BASE


def test_alpha_is_step_on_calls() -> None:
    c = Call(Evolve("a1", "x"), A(("e",), 2), frozenset({1}))
    assert alpha(BASE)(c) == step(BASE, c.letter, c.allocation, faults=c.faults)
    by_prefix = Call(RecallPrefix("b"), A((), 3))
    down = Theta(descending=True)
    assert alpha(BASE, theta=down)(by_prefix) == step(BASE, by_prefix.letter, by_prefix.allocation, theta=down)
    assert alpha(BASE, theta=down)(by_prefix)[0] != alpha(BASE)(by_prefix)[0]  # θ reaches the step


def test_named_and_creates() -> None:
    assert named(Merge(("x", "y"))) == ("x", "y") and creates(Merge(("x", "y"))) == 1
    assert named(Supersede("o", "n")) == ("o", "n") and creates(Supersede("o", "n")) == 0
    assert named(Save(Record("r"))) == () and creates(Save(Record("r"))) == 1
    assert creates(Split("i", ("a", "b", "c"))) == 3
    assert named(Link("i", R.CAUSES, "j")) == ("i", "j")


# --------------------------------------------------------------------------- immutability


@PROPERTY
@given(stores(), st.data())
def test_steps_never_mutate_their_input_store(s: Store, data: st.DataObject) -> None:
    a = data.draw(any_letters(s, record_strategy=LIGHT))
    faults = data.draw(st.frozensets(st.integers(0, 4), max_size=2))
    records_before, edges_before, text_before = dict(s.records), frozenset(s.edges), dumps_store(s)
    xi = Oracle().allocate(s, a)
    out, s2 = step(s, a, xi, faults=faults)
    assert dict(s.records) == records_before and s.edges == edges_before
    assert all(s.records[i] is records_before[i] for i in records_before)
    assert dumps_store(s) == text_before
    if isinstance(out, Err):
        assert s2 is s


@PROPERTY
@given(stores(record_strategy=LIGHT), st.data())
def test_inadmissible_allocations_always_give_err_and_the_same_store(s: Store, data: st.DataObject) -> None:
    a = data.draw(any_letters(s, record_strategy=LIGHT))
    bad = data.draw(
        st.sampled_from(
            [A(tuple(f"z{k}" for k in range(creates(a) + 1)), 1)]
            + ([A(tuple(sorted(s.dom()))[:1] * creates(a), 1)] if s.dom() and creates(a) else [])
        )
    )
    out, s2 = step(s, a, bad)
    assert isinstance(out, Err) and s2 is s


def test_chained_runs_continue_the_clock() -> None:
    """A run from a non-empty store stamps after the latest time already in it."""
    from coalg.model import latest_clock

    first = run(EMPTY, [Save(Record("a")), Save(Record("b"))]).final
    second = run(first, [Save(Record("c"))]).final
    (new,) = second.dom() - first.dom()
    assert latest_clock(first) == 2
    assert second.records[new].created_at == 3
    assert all(r.created_at < second.records[new].created_at for r in first.records.values())


# --------------------------------------------------------------------------- stable documentation


def test_help_of_run_and_replay_shows_no_memory_address() -> None:
    """``step_fn`` defaults to ``None`` (the ContextFS step), so ``help`` reads the same in every run."""
    for fn in (run, replay):
        text = pydoc.render_doc(fn, renderer=pydoc.plaintext)
        assert "0x" not in text and "step_fn: 'StepFunction | None' = None" in text


def test_default_step_is_the_contextfs_step() -> None:
    word = [Save(Record("a")), Evolve("id0001", "b"), Merge(("id0001", "id0002"))]
    default = run(EMPTY, word)
    assert default == run(EMPTY, word, step_fn=step)
    assert replay(EMPTY, default) == default
    repaired = run(EMPTY, word, step_fn=REPAIRED.step)
    assert repaired != default and replay(EMPTY, repaired, step_fn=REPAIRED.step) == repaired
