"""How one row of ContextFS's ``memories`` table is read: each cell as a record's field, and what a
cell of the wrong kind becomes. The expectations are written out by hand, cell by cell."""

from __future__ import annotations

import pytest

from coalg.contextfs.tables import CellError, json_cell, record_of_row
from coalg.model import FrozenMap, Record


@pytest.mark.parametrize(("cell", "default", "read"), [
    (None, [], []), ("", {}, {}), (b"", {}, {}),
    ('["a", "b"]', [], ["a", "b"]), ('{"k": [1, 2]}', {}, {"k": [1, 2]}), ("null", "d", None),
    (b'["x"]', [], ["x"]), (bytearray(b'{"k": 1}'), {}, {"k": 1}), (memoryview(b"[1]"), [], [1]),
    (b"\xff\xfe", "d", "d"),  # a BLOB whose bytes are not UTF-8
    (7, "d", "d"), (2.5, "d", "d"),  # a number stored in the cell
    ("not json", "d", "d"), ("[1,", "d", "d"), ("[[[]]]", [], [[[]]]),
])
def test_a_json_cell(cell: object, default: object, read: object) -> None:
    assert json_cell(cell, default) == read


def test_a_cell_nested_past_the_limit_names_its_column() -> None:
    with pytest.raises(CellError, match=r"^metadata: value nested more than 100 levels"):
        json_cell('{"a": ' * 101 + "1" + "}" * 101, {}, "metadata")
    with pytest.raises(CellError, match=r"^cell: "):
        json_cell("[" * 101 + "]" * 101, [])
    deepest = json_cell("[" * 100 + "]" * 100, [])  # the limit itself is allowed
    for _ in range(99):
        (deepest,) = deepest
    assert deepest == []
    with pytest.raises(CellError, match=r"^tags: JSON nested too deeply"):
        json_cell("[" * 100_000 + "]" * 100_000, [], "tags")


def test_a_row_as_a_record() -> None:
    r = record_of_row("text", "decision", '["t2", "t1"]', "short", "team", '{"owner": "bob", "n": 2}',
                      created_at=3, updated_at=4)
    assert r == Record("text", type="decision", namespace="team", tags=frozenset({"t1", "t2"}), summary="short",
                       metadata=FrozenMap({"owner": "bob", "n": 2}), created_at=3, updated_at=4)


def test_cells_of_the_wrong_kind() -> None:
    r = record_of_row(42, 7, '{"not": "a list"}', 3.5, 99, '["not", "a map"]')
    assert r == Record("42", type="7", namespace="99", tags=frozenset(), summary=None, metadata=FrozenMap())
    assert record_of_row("c", "fact", "[1, true]", None, "n", "null").tags == frozenset({"1", "True"})
    assert record_of_row("c", "fact", None, None, "n", None) == Record("c", namespace="n")
    assert (record_of_row("c", "fact", None, None, "n", None).created_at,
            record_of_row("c", "fact", None, None, "n", None).updated_at) == (None, None)


def test_a_stored_type_is_renamed_back() -> None:
    back = {"episodic": "banana"}
    assert record_of_row("c", "episodic", None, None, "n", None, types_back=back).type == "banana"
    assert record_of_row("c", "fact", None, None, "n", None, types_back=back).type == "fact"


def test_metadata_keeps_every_json_value_and_a_deep_cell_names_its_column() -> None:
    r = record_of_row("c", "fact", None, None, "n", '{"k": null, "j": [1, {"a": null}], "f": 1.5}')
    assert r.metadata == FrozenMap({"k": None, "j": [1, {"a": None}], "f": 1.5})
    for column in ("tags", "metadata"):
        cells = {"tags": None, "metadata": None, column: "[" * 101 + "]" * 101}
        with pytest.raises(CellError, match=rf"^{column}: "):
            record_of_row("c", "fact", cells["tags"], None, "n", cells["metadata"])
