"""Fuzzing the JSON store format: mutated documents and generated values give a store or a
JsonInputError within the time limit, and whatever is accepted is written and read back unchanged."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from mutate import fuzz, mutants, within

from coalg.model import (
    JsonInputError,
    Record,
    Relation,
    Store,
    dumps_store,
    load_store,
    loads_store,
    save_store,
)
from coalg.model.jsoncheck import ReadContext, parse_json
from coalg.model.jsonletters import call_from_json, letter_from_json, theta_from_json

STORES = [
    Store.of({"a": Record("x", tags={"t"}, metadata={"k": [1, 2.5, None, True], "evolved_from": "b"},
                          created_at=1, updated_at=2),
              "b": Record("y\u00e9\u2603", type="decision", namespace="ns", summary="s", valid_time=3)},
             [("a", Relation.EVOLVED_FROM, "b"), ("b", Relation.EVOLVED_INTO, "a")]),
    Store.of({"only": Record("", metadata={"deep": {"x": {"y": [[{}]]}}})}, []),
]
SEEDS = [dumps_store(s).encode() for s in STORES] + [dumps_store(STORES[0], indent=None).encode()]
LETTERS = [
    b'{"op": "evolve", "id": "a", "content": "y", "summary": null, "tags": ["t"], "by_prefix": false}',
    b'{"letter": {"op": "merge", "ids": ["a", "b"], "content": null}, "allocation": {"ids": ["n1"], "clock": 4},'
    b' "faults": [1]}',
    b'{"op": "save", "record": {"content": "x", "metadata": {"k": [1, {"z": 2}]}}}',
    b'{"type_priority": ["fact"], "id_priority": [], "descending": true}',
]
TOKENS = [
    b"1" * 4301, b"-" + b"9" * 200, b"1e999", b"-1e999", b"1.5e308", b"NaN", b"Infinity", b'"\\ud800"',
    b'"\\udc00x"', b"[" * 300, b"]" * 300, b'{"a":' * 260, b"}" * 260, b"\xff", b"\x00", b"\xef\xbb\xbf",
    b'"', b",", b":", b"{", b"}", b"[", b"]", b"null", b"true", b"0", b'"\\u0000"', "\u0661".encode(),
]


def _json_values() -> st.SearchStrategy[Any]:
    scalars = (st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8)
               | st.sampled_from([10**120, -(10**99), 1e308 * 10, "\ud800", "a\udfff"]))
    return st.recursive(scalars, lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=4), c, max_size=3),
                        max_leaves=12)


def _accepted_round_trips(s: Store, tmp: Path) -> None:
    text = dumps_store(s)
    assert loads_store(text) == s
    target = tmp / "again.json"
    save_store(s, target)
    assert load_store(target) == s
    assert not [p.name for p in tmp.iterdir() if p.name.endswith(".tmp")]  # the atomic write left nothing


@fuzz(300)
@given(mutants(SEEDS, TOKENS))
def test_mutated_store_files(tmp_path_factory: pytest.TempPathFactory, data: bytes) -> None:
    tmp = tmp_path_factory.mktemp("store")
    path = tmp / "m.json"
    path.write_bytes(data)
    try:
        with within():
            s = load_store(path)
    except JsonInputError as e:
        assert str(e).startswith(f"{path}")
        return
    _accepted_round_trips(s, tmp)


@fuzz(200)
@given(_json_values(), st.sampled_from(["metadata", "content", "created_at", "tags", "id"]))
def test_generated_values_in_every_field(tmp_path_factory: pytest.TempPathFactory, value: Any, field: str) -> None:
    record: dict[str, Any] = {"content": "x"}
    rid: Any = "a"
    if field == "id":
        rid = value if isinstance(value, str) else json.dumps(value, default=str)
    else:
        record[field] = value if field != "metadata" else {"k": value}
    doc = {"format": "coalg-store", "version": 1, "records": {rid: record}, "edges": []}
    text = json.dumps(doc, ensure_ascii=False)  # writes NaN/Infinity and lone surrogates as they are
    try:
        with within():
            s = loads_store(text)
    except JsonInputError:
        return
    _accepted_round_trips(s, tmp_path_factory.mktemp("gen"))


@fuzz(200)
@given(mutants(LETTERS, TOKENS))
def test_mutated_letters_calls_and_thetas(data: bytes) -> None:
    text = data.decode("utf-8", "replace")
    for reader in (letter_from_json, call_from_json, theta_from_json):
        try:
            with within():
                reader(parse_json(text, ReadContext("<fuzz>")))
        except JsonInputError:
            pass
