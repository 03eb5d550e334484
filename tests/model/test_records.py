"""Identifiers, records and relations (Definitions 3.1–3.3)."""

from __future__ import annotations

import dataclasses

import pytest
from budget import budget
from hypothesis import given
from hypothesis import strategies as st
from strategies import json_values, records

from coalg.model import (
    ANCESTRY,
    DESCENDANT,
    INVERSE_TABLE,
    LINEAGE,
    FrozenMap,
    Record,
    Relation,
    erase_allocation,
    freeze,
    id_positions,
    inverse,
    meta_ancestry,
    thaw,
)

R = Relation

CONTEXTFS_LABELS = {
    "evolved_into", "evolved_from", "merged_into", "merged_from", "split_into", "split_from",
    "references", "referenced_by", "related_to", "contradicts", "supersedes", "superseded_by",
    "parent_of", "child_of", "part_of", "contains", "caused_by", "causes",
    "resolves", "resolved_by", "depends_on", "implements",
}


# --------------------------------------------------------------------------- Definition 3.3


def test_def_3_3_twenty_two_labels_exactly_contextfs_edgerelation() -> None:
    assert len(Relation) == 22
    assert {r.value for r in Relation} == CONTEXTFS_LABELS
    assert all(r.name.lower() == r.value for r in Relation)


def test_def_3_3_inverse_table_has_twenty_entries_missing_depends_on_and_implements() -> None:
    assert len(INVERSE_TABLE) == 20
    assert set(Relation) - set(INVERSE_TABLE) == {R.DEPENDS_ON, R.IMPLEMENTS}


def test_def_3_3_inverse_table_nine_pairs_and_two_symmetric_entries() -> None:
    symmetric = {r for r, s in INVERSE_TABLE.items() if r == s}
    assert symmetric == {R.RELATED_TO, R.CONTRADICTS}
    proper = {frozenset((r, s)) for r, s in INVERSE_TABLE.items() if r != s}
    assert len(proper) == 9
    for r, s in INVERSE_TABLE.items():
        assert INVERSE_TABLE[s] == r  # both directions are listed


@pytest.mark.parametrize("r", list(Relation), ids=lambda r: r.name)
def test_def_3_3_inverse_is_an_involution(r: Relation) -> None:
    assert inverse(inverse(r)) == r


@pytest.mark.parametrize("r", [R.DEPENDS_ON, R.IMPLEMENTS])
def test_def_3_3_depends_on_and_implements_self_inverse_by_fall_through(r: Relation) -> None:
    assert r not in INVERSE_TABLE
    assert inverse(r) is r


def test_def_3_3_specific_inverses() -> None:
    assert inverse(R.EVOLVED_FROM) is R.EVOLVED_INTO
    assert inverse(R.MERGED_INTO) is R.MERGED_FROM
    assert inverse(R.SUPERSEDES) is R.SUPERSEDED_BY
    assert inverse(R.PART_OF) is R.CONTAINS
    assert inverse(R.CAUSED_BY) is R.CAUSES
    assert inverse(R.RELATED_TO) is R.RELATED_TO


def test_def_3_3_ancestry_and_descendant_vocabularies() -> None:
    assert ANCESTRY == {R.EVOLVED_FROM, R.MERGED_FROM, R.SPLIT_FROM}
    assert DESCENDANT == {R.EVOLVED_INTO, R.MERGED_INTO, R.SPLIT_INTO}
    assert DESCENDANT == {inverse(r) for r in ANCESTRY}
    assert not ANCESTRY & DESCENDANT  # R⁻ ∩ R⁺ = ∅
    assert LINEAGE == ANCESTRY | DESCENDANT and len(LINEAGE) == 6


def test_relation_str_is_its_value() -> None:
    assert str(R.MERGED_FROM) == "merged_from"
    assert Relation("split_into") is R.SPLIT_INTO


# --------------------------------------------------------------------------- Definition 3.2


def test_def_3_2_record_defaults_match_contextfs_memory() -> None:
    r = Record("c")
    assert (r.type, r.namespace, r.tags, r.summary, dict(r.metadata)) == ("fact", "global", frozenset(), None, {})
    assert (r.created_at, r.updated_at, r.valid_time) == (None, None, None)


def test_record_is_frozen_and_normalises_tags_and_metadata() -> None:
    r = Record("c", tags=["x", "y", "x"], metadata={"k": [1, {"n": [2]}]})
    assert r.tags == frozenset({"x", "y"}) and isinstance(r.tags, frozenset)
    assert isinstance(r.metadata, FrozenMap)
    assert r.metadata["k"] == (1, FrozenMap({"n": (2,)}))
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.content = "other"  # type: ignore[misc]
    with pytest.raises(TypeError):
        r.metadata["k"] = 3  # type: ignore[index]
    hash(r)  # a record is a value


def test_record_content_must_be_a_string() -> None:
    with pytest.raises(TypeError):
        Record(3)  # type: ignore[arg-type]


def test_record_copies_are_new_values() -> None:
    r = Record("c", type="decision")
    assert r.with_content("d") == Record("d", type="decision")
    assert r.content == "c"
    assert r.stamped(7).created_at == 7 and r.stamped(7).updated_at == 7
    assert r.stamped(7).valid_time is None


def test_record_equality_ignores_construction_order_of_metadata() -> None:
    a = Record("c", metadata={"x": 1, "y": 2})
    b = Record("c", metadata={"y": 2, "x": 1})
    assert a == b and hash(a) == hash(b)
    assert list(a.metadata) == ["x", "y"]  # sorted iteration


def test_frozenmap_merged_later_overrides() -> None:
    m = FrozenMap({"a": 1, "b": 2})
    n = m.merged({"b": 3, "c": 4})
    assert dict(n) == {"a": 1, "b": 3, "c": 4}
    assert dict(m) == {"a": 1, "b": 2}  # unchanged


def test_def_3_2_metadata_ancestry_readers() -> None:
    r = Record("x", metadata={"evolved_from": "a", "merged_from": ["b", "c", "b"], "split_from": "d"})
    assert meta_ancestry(r, R.EVOLVED_FROM) == {"a"}
    assert meta_ancestry(r, R.MERGED_FROM) == {"b", "c"}
    assert meta_ancestry(r, R.SPLIT_FROM) == {"d"}
    empty = Record("y")
    assert all(meta_ancestry(empty, rel) == frozenset() for rel in ANCESTRY)


def test_meta_ancestry_is_defined_for_ancestry_labels_only() -> None:
    with pytest.raises(ValueError):
        meta_ancestry(Record("x"), R.EVOLVED_INTO)


def test_rho_erases_exactly_the_allocation_dependent_fields() -> None:
    r = Record(
        "x", tags={"t"}, created_at=1, updated_at=2, valid_time=5,
        metadata={"evolution_timestamp": 1, "merge_timestamp": 2, "split_timestamp": 3, "evolved_from": "a"},
    )
    e = erase_allocation(r)
    assert e == Record("x", tags={"t"}, valid_time=5, metadata={"evolved_from": "a"})


def test_id_positions_in_fixed_order() -> None:
    r = Record("x", metadata={"split_from": "s", "merged_from": ["m1", "m2"], "evolved_from": "e", "k": "z"})
    assert id_positions(r) == (
        ("evolved_from", "e"), ("merged_from[0]", "m1"), ("merged_from[1]", "m2"), ("split_from", "s"),
    )
    assert id_positions(Record("x", metadata={"k": "z"})) == ()


@budget(60)
@given(json_values())
def test_freeze_thaw_round_trip_on_json_data(v: object) -> None:
    frozen = freeze(v)
    hash(frozen)
    assert thaw(frozen) == v
    assert freeze(thaw(frozen)) == frozen


def test_freeze_refuses_non_json_objects() -> None:
    with pytest.raises(TypeError):
        freeze(object())


@budget(40)
@given(records(), st.integers(0, 9))
def test_records_are_hashable_values(r: Record, tau: int) -> None:
    assert hash(r) == hash(dataclasses.replace(r))
    s = r.stamped(tau)
    assert (s.created_at, s.updated_at) == (tau, tau)
    assert s.with_content(r.content).stamped(r.created_at).evolve(updated_at=r.updated_at) == r
