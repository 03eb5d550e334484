"""The JSON format (coalg/model/jsonio.py, jsonletters.py, jsoncheck.py): lossless, canonical, and hostile input gives InputError naming where."""

from __future__ import annotations

import ast
import copy
import json
import os
from pathlib import Path
from typing import Any

import pytest
from budget import budget
from hypothesis import given
from hypothesis import strategies as st
from strategies import any_letters, call_sequences, records, stores, thetas

from coalg.errors import InputError
from coalg.model import (
    Allocation,
    Call,
    Created,
    Err,
    Evolve,
    Flag,
    Found,
    Link,
    Merge,
    Nothing,
    Record,
    Relation,
    Save,
    Split,
    Theta,
    Wrote,
    call_from_json,
    call_to_json,
    dumps_store,
    jsoncheck,
    jsonio,
    jsonletters,
    letter_from_json,
    letter_to_json,
    load_store,
    loads_store,
    output_to_json,
    record_from_json,
    save_store,
    store_from_json,
    store_to_json,
    theta_from_json,
    theta_to_json,
)
from coalg.model.jsoncheck import JsonInputError
from coalg.model.store import EMPTY, Edge, Store

R = Relation
PROPERTY = budget(30)

VALID: dict[str, Any] = {
    "format": "coalg-store",
    "version": 1,
    "records": {"a": {"content": "x", "tags": ["t"], "metadata": {"k": [1, {"n": None}]}, "created_at": 1}},
    "edges": [["a", "supersedes", "b"]],
}


def mutate(path: tuple[Any, ...], value: Any, *, delete: bool = False) -> dict[str, Any]:
    doc = copy.deepcopy(VALID)
    target = doc
    for key in path[:-1]:
        target = target[key]
    if delete:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return doc


# --------------------------------------------------------------------------- round trips


def test_valid_document_loads() -> None:
    s = loads_store(json.dumps(VALID))
    assert s == Store.of({"a": Record("x", tags={"t"}, metadata={"k": [1, {"n": None}]}, created_at=1)},
                         [("a", R.SUPERSEDES, "b")])


@PROPERTY
@given(stores())
def test_store_round_trip_is_lossless(s: Store) -> None:
    assert loads_store(dumps_store(s)) == s
    assert store_from_json(json.loads(json.dumps(store_to_json(s)))) == s


@PROPERTY
@given(stores())
def test_store_serialisation_is_canonical(s: Store) -> None:
    text = dumps_store(s)
    assert dumps_store(loads_store(text)) == text
    rebuilt = Store.of(dict(reversed(list(s.records.items()))), sorted(s.edges, reverse=True))
    assert dumps_store(rebuilt) == text
    assert dumps_store(s, indent=None) == json.dumps(json.loads(text), sort_keys=True, ensure_ascii=False) + "\n"


def test_canonical_layout_sorts_records_tags_edges_and_keys() -> None:
    s = Store.of({"b": Record("B", tags={"z", "a"}, metadata={"y": 1, "x": 2}), "a": Record("A")},
                 [("b", R.CAUSES, "a"), ("a", R.CAUSED_BY, "b")])
    doc = json.loads(dumps_store(s))
    assert list(doc["records"]) == ["a", "b"]
    assert doc["records"]["b"]["tags"] == ["a", "z"]
    assert list(doc["records"]["b"]["metadata"]) == ["x", "y"]
    assert doc["edges"] == [["a", "caused_by", "b"], ["b", "causes", "a"]]
    assert list(doc) == sorted(doc)
    assert dumps_store(EMPTY) == (
        '{\n  "edges": [],\n  "format": "coalg-store",\n  "records": {},\n  "version": 1\n}\n'
    )


def test_unicode_is_written_as_utf8(tmp_path: Path) -> None:
    s = Store.of({"é": Record("naïve ✓")})
    path = tmp_path / "s.json"
    save_store(s, path)
    assert "naïve ✓".encode() in path.read_bytes()
    assert load_store(path) == s


@budget(10)
@given(stores(max_records=4))
def test_file_round_trip(s: Store) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        p = os.path.join(d, "store.json")
        save_store(s, p)
        assert load_store(p) == s
        with open(p, encoding="utf-8") as f:
            assert f.read() == dumps_store(s)


def test_relation_names_are_accepted_as_well_as_values() -> None:
    doc = mutate(("edges", 0, 1), "SUPERSEDES")
    assert loads_store(json.dumps(doc)).edges == {Edge("a", R.SUPERSEDES, "b")}


def test_optional_record_fields_take_defaults() -> None:
    assert record_from_json({"content": "c"}) == Record("c")
    assert loads_store('{"format": "coalg-store", "version": 1}') == EMPTY


@PROPERTY
@given(stores(max_records=3, record_strategy=records(with_metadata=False)), st.data())
def test_letters_round_trip(s: Store, data: st.DataObject) -> None:
    a = data.draw(any_letters(s))
    j = letter_to_json(a)
    assert j["op"] == a.kind
    assert letter_from_json(json.loads(json.dumps(j))) == a


@pytest.mark.parametrize(
    "a",
    [
        Merge(("a", "b"), content=None, type="fact", summary="s", namespace="alice", by_prefix=True, valid_time=3),
        Evolve("a", "c", summary=None, tags=frozenset({"x", "y"}), by_prefix=True, valid_time=None),
        Split("a", ("p", "q", "r")),
        Link("a", R.DEPENDS_ON, "b", bidirectional=True),
        Save(Record("x", metadata={"merged_from": ["a", "b"]}, valid_time=4)),
    ],
    ids=lambda a: a.kind,
)
def test_letters_with_every_argument_round_trip(a: Any) -> None:
    assert letter_from_json(json.loads(json.dumps(letter_to_json(a)))) == a


@PROPERTY
@given(call_sequences(max_size=5, faults=True, record_strategy=records(with_metadata=False)))
def test_calls_round_trip(calls: tuple[Call, ...]) -> None:
    for c in calls:
        assert call_from_json(json.loads(json.dumps(call_to_json(c)))) == c


@PROPERTY
@given(thetas())
def test_theta_round_trip(theta: Theta) -> None:
    assert theta_from_json(json.loads(json.dumps(theta_to_json(theta)))) == theta


def test_outputs_are_json() -> None:
    r = Record("x", created_at=1, updated_at=1)
    cases = {
        Err("why"): {"out": "err", "reason": "why"},
        Nothing(): {"out": "bottom"},
        Found("a", r): {"out": "found", "id": "a", "record": jsonio.record_to_json(r)},
        Created((("b", r), ("a", r))): {"out": "created", "ids": ["b", "a"],
                                         "records": {"a": jsonio.record_to_json(r), "b": jsonio.record_to_json(r)}},
        Wrote((Edge("a", R.SUPERSEDES, "b"),)): {"out": "wrote", "edges": [["a", "supersedes", "b"]]},
        Flag(True): {"out": "flag", "value": True},
    }
    for o, expected in cases.items():
        got = output_to_json(o)
        assert got == expected
        assert json.loads(json.dumps(got)) == got
    with pytest.raises(TypeError):
        output_to_json("not an output")  # type: ignore[arg-type]


# --------------------------------------------------------------------------- hostile stores

BAD_STORE_FIELDS = [
    (("records", "a", "content"), 3, 'records["a"].content: expected a string, got int'),
    (("records", "a", "content"), None, 'records["a"].content: expected a string, got null'),
    (("records", "a", "type"), None, 'records["a"].type: expected a string'),
    (("records", "a", "namespace"), ["alice"], 'records["a"].namespace: expected a string, got list'),
    (("records", "a", "tags"), "t", 'records["a"].tags: expected a list of strings, got str'),
    (("records", "a", "tags"), ["t", 3], 'records["a"].tags[1]: expected a string, got int'),
    (("records", "a", "summary"), 5, 'records["a"].summary: expected a string, got int'),
    (("records", "a", "metadata"), ["k"], 'records["a"].metadata: expected an object, got list'),
    (("records", "a", "created_at"), "1", 'records["a"].created_at: expected an integer time'),
    (("records", "a", "created_at"), True, 'records["a"].created_at: expected an integer time or null, got bool'),
    (("records", "a", "updated_at"), 1.5, 'records["a"].updated_at: expected an integer time'),
    (("records", "a", "valid_time"), {}, 'records["a"].valid_time: expected an integer time'),
    (("records", "a", "colour"), "red", 'records["a"]: unknown field(s) colour'),
    (("records", "a"), "x", 'records["a"]: expected an object, got str'),
    (("records", "a"), None, 'records["a"]: expected an object, got null'),
    (("records",), [], "records: expected an object keyed by identifier, got list"),
    (("edges",), {}, "edges: expected a list, got dict"),
    (("edges", 0), ["a", "supersedes"], "edges[0]: expected [source, relation, target]"),
    (("edges", 0), "abc", "edges[0]: expected [source, relation, target]"),
    (("edges", 0), ["a", "supersedes", "b", "c"], "edges[0]: expected [source, relation, target]"),
    (("edges", 0, 0), 1, "edges[0][0]: expected a string, got int"),
    (("edges", 0, 1), "bogus", "edges[0][1]: unknown relation 'bogus'"),
    (("edges", 0, 1), 3, "edges[0][1]: unknown relation 3"),
    (("edges", 0, 1), "Supersedes", "edges[0][1]: unknown relation"),
    (("edges", 0, 2), None, "edges[0][2]: expected a string, got null"),
    (("extra",), 1, "unknown top-level field(s) extra"),
    (("format",), "other", "format: expected 'coalg-store', got 'other'"),
    (("version",), 2, "version: this coalg reads version 1, the file says 2"),
    (("version",), "1", "version: this coalg reads version 1"),
    (("version",), True, "version: this coalg reads version 1"),
    (("version",), 1.0, "version: this coalg reads version 1"),
]


@pytest.mark.parametrize("path, value, message", BAD_STORE_FIELDS, ids=[m for _, _, m in BAD_STORE_FIELDS])
def test_wrong_field_raises_input_error_naming_the_location(path: tuple[Any, ...], value: Any, message: str) -> None:
    text = json.dumps(mutate(path, value))
    with pytest.raises(InputError) as info:
        loads_store(text, source="hostile.json")
    assert message in str(info.value)
    assert str(info.value).startswith("hostile.json: ")
    assert info.value.source == "hostile.json"


@pytest.mark.parametrize("path, message", [
    (("records", "a", "content"), "records[\"a\"]: missing required field 'content'"),
    (("format",), "format: expected 'coalg-store', got None"),
    (("version",), "version: this coalg reads version 1, the file says None"),
])
def test_missing_required_field(path: tuple[Any, ...], message: str) -> None:
    with pytest.raises(InputError, match=message.replace("[", r"\[").replace("]", r"\]")):
        loads_store(json.dumps(mutate(path, None, delete=True)))


@pytest.mark.parametrize(
    "text, message",
    [
        ('{"format": "coalg-store", "version": 1, "records": {"a": {"content": "x"}, "a": {"content": "y"}}}',
         "duplicate key 'a'"),
        ('{"format": "coalg-store", "version": 1, "records": {"a": {"content": "x", "content": "y"}}}',
         "duplicate key 'content'"),
        ('{"format": "coalg-store", "format": "coalg-store", "version": 1}', "duplicate key 'format'"),
        (json.dumps(VALID, indent=2)[:-7], "not valid JSON"),
        ("hello", "not valid JSON"),
        ("", "not valid JSON"),
        ("[1, 2]", "expected a JSON object at the top level, got list"),
        ("null", "expected a JSON object at the top level, got null"),
        ('{"format": "coalg-store", "version": 1, "records": {"a": {"content": "x", "metadata": {"k": NaN}}}}',
         "NaN is not a JSON number"),
        ('{"format": "coalg-store", "version": 1, "records": {"a": {"content": "x", "created_at": Infinity}}}',
         "Infinity is not a JSON number"),
        ("[" * 100_000, "JSON nested too deeply"),
    ],
    ids=["duplicate-id", "duplicate-field", "duplicate-top", "truncated", "not-json", "empty-string",
         "list", "null", "nan", "infinity", "deep"],
)
def test_malformed_text_raises_input_error(text: str, message: str) -> None:
    with pytest.raises(InputError) as info:
        loads_store(text, source="t.json")
    assert message in str(info.value)
    assert "t.json" in str(info.value)


def test_truncated_text_names_the_line() -> None:
    text = json.dumps(VALID, indent=2)
    with pytest.raises(InputError) as info:
        loads_store(text[: text.index('"edges"')], source="t.json")
    assert info.value.line is not None and info.value.line > 1
    assert f"line {info.value.line}" in str(info.value)


def test_nothing_is_evaluated(tmp_path: Path) -> None:
    marker = tmp_path / "pwned"
    payload = f"__import__('os').system('touch {marker}')"
    doc = mutate(("records", "a", "content"), payload)
    doc["records"]["a"]["metadata"] = {"__class__": "os.system", "__reduce__": [payload], "!!python/object": 1}
    s = loads_store(json.dumps(doc))
    assert s.records["a"].content == payload
    assert s.records["a"].metadata["__reduce__"] == (payload,)
    assert not marker.exists()
    # statically: the reading modules import only json/os/typing helpers and call no evaluator
    for module in (jsonio, jsoncheck, jsonletters):
        tree = ast.parse(Path(module.__file__ or "").read_text())
        imported = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        imported |= {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.level == 0}
        assert imported <= {"__future__", "json", "os", "collections.abc", "typing"}, module
        called = {n.func.id for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
        assert not called & {"eval", "exec", "compile", "__import__", "globals", "vars"}


# --------------------------------------------------------------------------- hostile files


def test_load_missing_file(tmp_path: Path) -> None:
    p = tmp_path / "nope.json"
    with pytest.raises(InputError, match="no such file") as info:
        load_store(p)
    assert str(p) in str(info.value)


def test_load_directory(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="is a directory") as info:
        load_store(tmp_path)
    assert str(tmp_path) in str(info.value)


@pytest.mark.parametrize("content", [b"", b"  \n\t "], ids=["empty", "whitespace"])
def test_load_empty_file(tmp_path: Path, content: bytes) -> None:
    p = tmp_path / "empty.json"
    p.write_bytes(content)
    with pytest.raises(InputError, match="empty file") as info:
        load_store(p)
    assert str(p) in str(info.value)


def test_load_non_utf8_file(tmp_path: Path) -> None:
    p = tmp_path / "latin1.json"
    p.write_bytes(json.dumps(mutate(("records", "a", "content"), "x")).encode()[:-2] + b'"\xe9\xff"}')
    with pytest.raises(InputError, match=r"not UTF-8 text \(byte \d+\)") as info:
        load_store(p)
    assert str(p) in str(info.value)


def test_load_utf8_bom_is_refused_clearly(tmp_path: Path) -> None:
    p = tmp_path / "bom.json"
    p.write_bytes(b"\xef\xbb\xbf" + json.dumps(VALID).encode())
    with pytest.raises(InputError, match="not valid JSON"):
        load_store(p)


def test_load_refuses_absurd_sizes_before_reading(tmp_path: Path) -> None:
    p = tmp_path / "big.json"
    p.write_text(json.dumps(VALID))
    assert load_store(p, max_bytes=10_000) == loads_store(json.dumps(VALID))
    with pytest.raises(InputError, match="more than the limit of 10") as info:
        load_store(p, max_bytes=10)
    assert str(p) in str(info.value)


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
def test_an_endless_device_is_refused_before_it_is_read() -> None:
    """A character device reports size 0 and never ends: it is not a regular file."""
    with pytest.raises(JsonInputError, match="/dev/zero: is a character device, not a regular file"):
        load_store("/dev/zero", max_bytes=1000)


def test_load_errors_are_value_errors_with_a_source(tmp_path: Path) -> None:
    p = tmp_path / "bad.json"
    p.write_text('{"format": "coalg-store", "version": 1, "records": {"a": {"content": 1}}}')
    with pytest.raises(ValueError) as info:
        load_store(p)
    assert isinstance(info.value, InputError)
    assert info.value.source == str(p)
    assert 'records["a"].content' in str(info.value)


# --------------------------------------------------------------------------- hostile letters, calls, theta


@pytest.mark.parametrize(
    "obj, message",
    [
        ("save", "letter: expected an object with a string field 'op'"),
        ({"id": "a"}, "letter: expected an object with a string field 'op'"),
        ({"op": 3}, "letter: expected an object with a string field 'op'"),
        ({"op": "bogus"}, "letter.op: unknown operation 'bogus'"),
        ({"op": "recall", "id": "a", "x": 1}, "letter: unknown argument(s) x for recall"),
        ({"op": "recall"}, "letter: missing argument(s) for recall"),
        ({"op": "recall", "id": 3}, "letter.id: expected a string, got int"),
        ({"op": "recall", "id": None}, "letter.id: expected a string, got null"),
        ({"op": "evolve", "id": "a", "content": None}, "letter.content: expected a string, got null"),
        ({"op": "split", "id": "a", "contents": "pq"}, "letter.contents: expected a list, got str"),
        ({"op": "merge", "ids": "ab"}, "letter.ids: expected a list, got str"),
        ({"op": "merge", "ids": ["a", 1]}, "letter.ids[1]: expected a string, got int"),
        ({"op": "evolve", "id": "a", "content": "c", "tags": [None]}, "letter.tags[0]: expected a string"),
        ({"op": "link", "source": "a", "relation": "nope", "target": "b"}, "letter.relation: unknown relation 'nope'"),
        ({"op": "delete", "id": "a", "by_prefix": "yes"}, "letter.by_prefix: expected true or false, got str"),
        ({"op": "link", "source": "a", "relation": "causes", "target": "b", "bidirectional": 1},
         "letter.bidirectional: expected true or false, got int"),
        ({"op": "evolve", "id": "a", "content": "c", "valid_time": "x"}, "letter.valid_time: expected an integer"),
        ({"op": "save", "record": {"content": 1}}, "letter.record.content: expected a string, got int"),
        ({"op": "save", "record": None}, "letter.record: expected an object, got null"),
        ({"op": "save", "kind": "save", "record": {"content": "x"}}, "letter: unknown argument(s) kind"),
    ],
)
def test_hostile_letters(obj: Any, message: str) -> None:
    with pytest.raises(InputError) as info:
        letter_from_json(obj)
    assert message in str(info.value)


def test_merge_content_may_be_null_but_evolve_content_may_not() -> None:
    assert letter_from_json({"op": "merge", "ids": ["a", "b"], "content": None}) == Merge(("a", "b"))


GOOD_CALL = {"letter": {"op": "recall", "id": "a"}, "allocation": {"ids": [], "clock": 3}, "faults": [1]}


@pytest.mark.parametrize(
    "obj, message",
    [
        ([], "call: expected an object"),
        ({**GOOD_CALL, "extra": 1}, "call: unknown field(s) extra"),
        ({**GOOD_CALL, "allocation": []}, "call.allocation: expected an object"),
        ({**GOOD_CALL, "allocation": {"ids": "a"}}, "call.allocation.ids: expected a list"),
        ({**GOOD_CALL, "allocation": {"ids": ["a", 2]}}, "call.allocation.ids[1]: expected a string, got int"),
        ({**GOOD_CALL, "allocation": {"ids": [], "clock": "3"}}, "call.allocation.clock: expected an integer"),
        ({**GOOD_CALL, "allocation": {"ids": [], "time": 3}}, "call.allocation: unknown field(s) time"),
        ({**GOOD_CALL, "faults": [True]}, "call.faults: expected a list of integers"),
        ({**GOOD_CALL, "faults": 1}, "call.faults: expected a list of integers"),
        ({**GOOD_CALL, "letter": {"op": "recall", "id": 1}}, "call.letter.id: expected a string"),
        ({"allocation": {"ids": []}}, "call.letter: expected an object with a string field 'op'"),
    ],
)
def test_hostile_calls(obj: Any, message: str) -> None:
    with pytest.raises(InputError) as info:
        call_from_json(obj)
    assert message in str(info.value)


def test_good_call_parses() -> None:
    from coalg.model import Recall

    assert call_from_json(GOOD_CALL) == Call(Recall("a"), Allocation((), 3), frozenset({1}))


@pytest.mark.parametrize(
    "obj, message",
    [
        ([], "theta: expected an object"),
        ({"type_priority": "fact"}, "theta.type_priority: expected a list of strings, got str"),
        ({"id_priority": ["a", 1]}, "theta.id_priority[1]: expected a string, got int"),
        ({"descending": "false"}, "theta.descending: expected true or false, got str"),
        ({"order": []}, "theta: unknown field(s) order"),
    ],
)
def test_hostile_theta(obj: Any, message: str) -> None:
    with pytest.raises(InputError) as info:
        theta_from_json(obj)
    assert message in str(info.value)
