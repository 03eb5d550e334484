"""Fuzzing the ContextFS database reader: mutated SQLite files and hostile cells give a report or an
AuditError within the time limit, and the audit never changes a byte of the file."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from mutate import fuzz, mutants, within

from coalg.contextfs import SCHEMA, AuditError, audit

T = "2026-01-01T00:00:00"


def make_db(path: Path, cells: list[tuple[str, str, str]], *, wal: bool = False) -> Path:
    """A ContextFS database with one record per (id, tags text, metadata text) and an edge between the first two."""
    conn = sqlite3.connect(path)
    conn.executescript(SCHEMA)
    if wal:
        conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("INSERT INTO alembic_version VALUES ('009')")
    for i, tags, meta in cells:
        conn.execute("INSERT INTO memories (id, content, type, tags, namespace_id, created_at, updated_at, metadata)"
                     " VALUES (?, 'c', 'fact', ?, 'ns', ?, ?, ?)", (i, tags, T, T, meta))
    if len(cells) > 1:
        conn.execute("INSERT INTO memory_edges (from_id, to_id, relation, created_at) VALUES (?, ?, 'evolved_from', ?)",
                     (cells[1][0], cells[0][0], T))
    conn.commit()
    conn.close()
    return path


def _seeds() -> list[bytes]:
    import tempfile

    out = []
    with tempfile.TemporaryDirectory() as d:
        for k, (cells, wal) in enumerate([
            ([("a0000000-001", '["x"]', '{}'), ("b0000000-002", "[]", '{"evolved_from": "a0000000-001"}')], False),
            ([("c0000000-003", '["t", "u"]', '{"merged_from": ["a", "b"], "k": [1, {"z": null}]}')], True),
        ]):
            out.append(make_db(Path(d) / f"s{k}.db", cells, wal=wal).read_bytes())
    return out


SEEDS = _seeds()
TOKENS = [b"\x00" * 16, b"\xff" * 16, b"SQLite format 3\x00", b"\x02\x02", b"\x01\x01", b"[" * 64, b"\xc3"]
CELL_TOKENS = [b"[" * 300, b"]" * 300, b'{"a":' * 200, b"}" * 200, b"1" * 4400, b"1e999", b"NaN", b'"\\ud800"',
               b"\xff", b'"', b",", b"null"]


@fuzz(120)
@given(mutants(SEEDS, TOKENS))
def test_mutated_database_files(tmp_path_factory: pytest.TempPathFactory, data: bytes) -> None:
    path = tmp_path_factory.mktemp("db") / "m.db"
    path.write_bytes(data)
    try:
        with within():
            report = audit(path)
    except AuditError as e:
        assert str(e).startswith(f"{path}: ")
    else:
        assert report["records"] >= 0 and isinstance(report["findings"], list)
    assert path.read_bytes() == data  # read-only, whatever the bytes
    assert sorted(p.name for p in path.parent.iterdir()) == ["m.db"]


@fuzz(50)
@given(mutants([b'["x"]', b"[]", b'{"merged_from": ["a", "b"]}', b'{"k": {"z": [1, 2]}}'], CELL_TOKENS),
       st.booleans())
def test_hostile_tags_and_metadata_cells(tmp_path_factory: pytest.TempPathFactory, cell: bytes,
                                          in_tags: bool) -> None:
    text = cell.decode("utf-8", "replace")
    tags, meta = (text, "{}") if in_tags else ("[]", text)
    path = make_db(tmp_path_factory.mktemp("cell") / "c.db", [("a0000000-001", tags, meta)])
    try:
        with within():
            report = audit(path)
    except AuditError as e:
        assert "row id 'a0000000-001'" in str(e) and ("tags" if in_tags else "metadata") in str(e)
    else:
        assert report["records"] == 1


# =========================================================================== tables ContextFS would not write

_PK = "authoritative INTEGER DEFAULT 0, PRIMARY KEY (id));"
_CELLS = st.one_of(st.none(), st.sampled_from(["[]", '["x"]', "{}", '{"evolved_from": "id1"}', "not json"]),
                   st.sampled_from([b'["x", "y"]', b'{"merged_from": ["id0", "id2"]}', b"\xff\xfe", b"\x80",
                                    b"", b"[" * 150]),
                   st.integers(-5, 5))


@fuzz(60)
@given(st.sampled_from(["primary key", "no primary key", "without rowid"]),
       st.lists(st.tuples(st.sampled_from([f"id{k}" for k in range(5)]), _CELLS, _CELLS), max_size=8),
       st.lists(st.tuples(st.sampled_from([f"id{k}" for k in range(6)]),
                          st.sampled_from(["evolved_from", "evolved_into", "merged_from", "supersedes", "other"]),
                          st.sampled_from([f"id{k}" for k in range(6)])), max_size=6, unique=True),
       st.integers(0, 4))
def test_blob_duplicate_and_without_rowid_tables(tmp_path_factory: pytest.TempPathFactory, shape: str,
                                                 rows: list[tuple[str, object, object]],
                                                 edges: list[tuple[str, str, str]], limit: int) -> None:
    schema = SCHEMA
    if shape == "no primary key":
        schema = schema.replace(_PK, "authoritative INTEGER DEFAULT 0);")
    elif shape == "without rowid":
        schema = schema.replace(_PK, _PK[:-2] + ") WITHOUT ROWID;")
    if shape != "no primary key":
        rows = list({i: (i, t, m) for i, t, m in reversed(rows)}.values())  # a primary key: one row per id
    path = tmp_path_factory.mktemp("shape") / "s.db"
    conn = sqlite3.connect(path)
    conn.executescript(schema)
    conn.execute("INSERT INTO alembic_version VALUES ('009')")
    for i, tags, meta in rows:
        conn.execute("INSERT INTO memories (id, content, type, tags, namespace_id, created_at, updated_at, "
                     "metadata) VALUES (?, 'c', 'fact', ?, 'ns', ?, ?, ?)", (i, tags, T, T, meta))
    for src, rel, dst in edges:
        conn.execute("INSERT INTO memory_edges (from_id, to_id, relation, created_at) VALUES (?, ?, ?, ?)",
                     (src, dst, rel, T))
    conn.commit()
    conn.close()
    data = path.read_bytes()
    try:
        with within():
            full = audit(path)
            few = audit(path, limit=limit)
    except AuditError as e:  # only a cell nested beyond the limit may stop the audit
        assert "nested more than" in str(e) or "nested too deeply" in str(e), str(e)
        assert any(b"[" * 150 in (c if isinstance(c, bytes) else b"") for r in rows for c in r[1:])
    else:
        ids = [i for i, _, _ in rows]
        assert full["records"] == len(set(ids))  # duplicates are never read as extra records ...
        dups = sorted(f["records"][0] for f in full["findings"] if f["law"] == "rows" and "rows of" in f["detail"])
        assert dups == sorted(i for i in set(ids) if ids.count(i) > 1)  # ... and each is reported
        assert few["findings"] == full["findings"][:limit]
        assert few["left_out"] == len(full["findings"]) - len(few["findings"]) and few["counts"] == full["counts"]
    assert path.read_bytes() == data
