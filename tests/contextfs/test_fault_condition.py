"""Which edge write a fault trigger fails: the SQL condition for the k-th write picks that write
and no other among the writes of the call.

The writes of each call are listed here by hand, in the order the model's coalgebra issues
them (for each pair: the new record's edge, then its inverse), with the metadata the package
saves on the new records before it writes edges (``merged_from``, ``split_part``). Each
condition is evaluated by SQLite over those rows, with ``NEW`` standing for the row written.
"""

from __future__ import annotations

import json
import sqlite3

import pytest

from coalg.contextfs.materialise import fault_condition
from coalg.model import Evolve, Link, Merge, Record, Relation, Save, Split, Supersede

CASES = [
    (Evolve("o", "v2"), {"n": {}}, [("n", "evolved_from", "o"), ("o", "evolved_into", "n")]),
    (Supersede("o", "n"), {}, [("n", "supersedes", "o"), ("o", "superseded_by", "n")]),
    (Merge(("a", "b", "c")), {"m": {"merged_from": ["a", "b", "c"]}},
     [("m", "merged_from", "a"), ("a", "merged_into", "m"), ("m", "merged_from", "b"), ("b", "merged_into", "m"),
      ("m", "merged_from", "c"), ("c", "merged_into", "m")]),
    (Split("x", ("one", "two")), {"p1": {"split_part": 1}, "p2": {"split_part": 2}},
     [("p1", "split_from", "x"), ("x", "split_into", "p1"), ("p2", "split_from", "x"), ("x", "split_into", "p2")]),
    (Link("s1", Relation.REFERENCES, "t1"), {},
     [("s1-full", "references", "t1-full"), ("t1-full", "referenced_by", "s1-full")]),
]


def _picked(condition: str, metadata: dict[str, dict[str, object]], writes: list[tuple[str, str, str]]) -> list[int]:
    db = sqlite3.connect(":memory:")
    db.execute("CREATE TABLE memories (id TEXT PRIMARY KEY, metadata TEXT)")
    db.execute("CREATE TABLE edges (k INTEGER, from_id TEXT, relation TEXT, to_id TEXT)")
    db.executemany("INSERT INTO memories VALUES (?, ?)", [(i, json.dumps(m)) for i, m in metadata.items()])
    db.executemany("INSERT INTO edges VALUES (?, ?, ?, ?)", [(k, *w) for k, w in enumerate(writes)])
    where = condition.replace("NEW.", "NEW_.")
    return [k for (k,) in db.execute(f"SELECT k FROM edges AS NEW_ WHERE {where} ORDER BY k")]


@pytest.mark.parametrize(("letter", "metadata", "writes"), CASES, ids=[type(c[0]).__name__ for c in CASES])
def test_the_condition_for_each_write_picks_that_write_alone(letter, metadata, writes) -> None:
    for k in range(len(writes)):
        condition = fault_condition(letter, k)
        assert condition is not None, k
        assert _picked(condition, metadata, writes) == [k], (k, condition)


@pytest.mark.parametrize(("letter", "writes"), [(Evolve("o", "v"), 2), (Supersede("o", "n"), 2),
                                               (Link("s", Relation.REFERENCES, "t"), 2), (Save(Record("x")), 0)])
def test_no_condition_past_the_call_s_writes(letter, writes: int) -> None:
    assert all(fault_condition(letter, k) is None for k in range(writes, writes + 3))


def test_a_quote_in_a_link_s_identifier_is_sql_text() -> None:
    condition = fault_condition(Link("it's", Relation.REFERENCES, "t"), 0)
    assert condition is not None
    assert _picked(condition, {}, [("it's-1", "references", "t"), ("its-1", "references", "t")]) == [0]
