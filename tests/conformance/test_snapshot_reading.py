"""What the kit reads from ``records()`` and ``edges()`` (:mod:`coalg.conformance.snapshot`), directly.

Every shape a layer may show is read to built-in values; every other shape is one line of
:class:`ProtocolMisuse` naming the record and the field.  The messages are written out by hand.
"""

from __future__ import annotations

import enum
from typing import Any

import pytest

from coalg.conformance.protocol import ProtocolMisuse
from coalg.conformance.snapshot import read_edges, read_records
from coalg.model import Relation


class Shows:
    """A layer that shows what it is given (only the two reading methods matter here)."""

    def __init__(self, records: Any = None, edges: Any = ()) -> None:
        self._records = {} if records is None else records
        self._edges = edges

    def records(self) -> Any:
        return self._records

    def edges(self) -> Any:
        return self._edges


class Name(str, enum.Enum):
    A = "a"


FIELDS = {"content": "c", "type": "fact", "namespace": "ns"}


def test_a_record_is_read_into_its_six_fields() -> None:
    got = read_records(Shows({"u1": {**FIELDS, "tags": ["x", "y"], "metadata": {"k": (1, 2)}, "valid_time": 5}}))
    assert got == {"u1": ("c", "fact", "ns", frozenset({"x", "y"}), {"k": [1, 2]}, 5)}
    bare = read_records(Shows({"u1": dict(FIELDS)}))
    assert bare == {"u1": ("c", "fact", "ns", frozenset(), {}, None)}
    assert read_records(Shows({"u1": {**FIELDS, "valid_time": "2024-01-01"}}))["u1"][5] == "2024-01-01"


def test_the_fields_the_kit_does_not_read_are_handed_back_quoted() -> None:
    extras: dict[str, Any] = {}
    read_records(Shows({"u1": {**FIELDS, "score": 3, "note": "hi"}, "u2": dict(FIELDS)}), extras)
    assert extras == {"u1": (("'note'", "hi", "'hi'"), ("'score'", None, "3"))}


@pytest.mark.parametrize("records, says", [
    ([("u1", FIELDS)], "records: expected a mapping from identifiers to records, got list [('u1', "),
    ({1: FIELDS}, "records: an identifier must be a string, got int 1"),
    ({Name.A: FIELDS}, ("records: an identifier must be a plain str, got an instance of Name (a str subclass, "
                       "whose hash and equality may differ from its text's)")),
    ({"u1": ["c"]}, "records: record 'u1': expected a mapping of fields, got list ['c']"),
    ({"u1": {"content": "c", "type": "fact"}},
     "records: record 'u1' has no 'namespace'; every record needs content, type and namespace"),
    ({"u1": {**FIELDS, "tags": "xy"}}, "records: record 'u1': tags must be a collection of strings, got str"),
    ({"u1": {**FIELDS, "tags": 3}}, "records: record 'u1': tags must be a collection of strings, got int"),
    ({"u1": {**FIELDS, "tags": [1]}}, "records: record 'u1': a tag must be a string, got int 1"),
    ({"u1": {**FIELDS, "metadata": [1]}}, "records: record 'u1': metadata must be a mapping, got list [1]"),
    ({"u1": {**FIELDS, "valid_time": True}},
     "records: record 'u1': valid_time must be a number, a string or None, got bool"),
    ({"u1": {**FIELDS, "valid_time": [1]}},
     "records: record 'u1': valid_time must be a number, a string or None, got list"),
    ({"u1": {**FIELDS, "content": 7}}, "records: record 'u1': content must be a string, got int 7"),
])
def test_a_record_of_another_shape_is_one_line_naming_it(records: Any, says: str) -> None:
    with pytest.raises(ProtocolMisuse) as e:
        read_records(Shows(records))
    assert str(e.value).startswith(says), str(e.value)


def test_what_a_records_method_raises_is_a_misuse_naming_it() -> None:
    class Raises(Shows):
        def records(self) -> Any:
            raise LookupError("the table is gone")

        def edges(self) -> Any:
            raise OSError("no edges file")

    with pytest.raises(ProtocolMisuse, match=r"^records: raised LookupError: the table is gone$"):
        read_records(Raises())
    with pytest.raises(ProtocolMisuse, match=r"^edges: raised OSError: no edges file$"):
        read_edges(Raises())


def test_edges_are_triples_with_a_relation_name_in_any_case() -> None:
    got = read_edges(Shows(edges=[("a", "EVOLVED_FROM", "b"), ["b", "evolved_into", "a"]]))
    assert got == [("a", Relation.EVOLVED_FROM, "b"), ("b", Relation.EVOLVED_INTO, "a")]
    assert read_edges(Shows(edges=iter([]))) == []


@pytest.mark.parametrize("edges, says", [
    ([("a", "evolved_from")], "edges: expected (source, relation, target) triples, got ('a', 'evolved_from')"),
    (["abc"], "edges: expected (source, relation, target) triples, got 'abc'"),
    ([5], "edges: expected (source, relation, target) triples, got 5"),
    ([("a", "cites", "b")], "edges: 'cites' is not a relation name; expected one of "),
    ([(1, "evolved_from", "b")], "edges: an edge's source, relation and target must be a string, got int 1"),
    ([("a", 2, "b")], "edges: an edge's source, relation and target must be a string, got int 2"),
])
def test_an_edge_of_another_shape_is_one_line_naming_it(edges: Any, says: str) -> None:
    with pytest.raises(ProtocolMisuse) as e:
        read_edges(Shows(edges=edges))
    assert str(e.value).startswith(says), str(e.value)
    if "relation name" in says:
        assert str(e.value).endswith("(in any case)")
