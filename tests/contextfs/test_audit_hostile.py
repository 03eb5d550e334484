"""``coalg audit`` on databases ContextFS would not write itself: BLOB cells, duplicate ids, WITHOUT ROWID.

Each database is built here with plain sqlite3.  The audit reads it and exits
0 or 1 with findings -- never a traceback, never a silent merge of two rows.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

from coalg.contextfs import SCHEMA, audit

ROOT = Path(__file__).resolve().parents[2]
T = "2026-01-01T00:00:00"
INSERT = ("INSERT INTO memories (id, content, type, tags, namespace_id, created_at, updated_at, metadata) "
          "VALUES (?, ?, 'fact', ?, 'ns', ?, ?, ?)")


def _schema(*, primary_key: bool = True, without_rowid: bool = False) -> str:
    s = SCHEMA
    if not primary_key:
        s = s.replace("authoritative INTEGER DEFAULT 0, PRIMARY KEY (id));", "authoritative INTEGER DEFAULT 0);")
    if without_rowid:
        s = s.replace("authoritative INTEGER DEFAULT 0, PRIMARY KEY (id));",
                      "authoritative INTEGER DEFAULT 0, PRIMARY KEY (id)) WITHOUT ROWID;")
        s = s.replace("PRIMARY KEY (from_id, to_id, relation));", "PRIMARY KEY (from_id, to_id, relation)) "
                      "WITHOUT ROWID;")
    return s


def _db(path: Path, rows: list[tuple[str, object, object]], *, edges: list[tuple[str, str, str]] = (),
        **schema: bool) -> Path:
    """rows: (id, tags cell, metadata cell), stored as given (str, bytes or None)."""
    conn = sqlite3.connect(path)
    conn.executescript(_schema(**schema))
    conn.execute("INSERT INTO alembic_version VALUES ('009')")
    for i, tags, meta in rows:
        conn.execute(INSERT, (i, f"content of {i}", tags, T, T, meta))
    for src, rel, dst in edges:
        conn.execute("INSERT INTO memory_edges (from_id, to_id, relation, created_at) VALUES (?, ?, ?, ?)",
                     (src, dst, rel, T))
    conn.commit()
    conn.close()
    return path


def _cli(path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)}
    return subprocess.run([sys.executable, "-m", "coalg", "audit", str(path), *args], capture_output=True,
                          text=True, env=env, timeout=300, check=False)


def test_blob_cells_holding_json_are_decoded(tmp_path):
    path = _db(tmp_path / "blob.db", [("aaaa0001", b'["x", "y"]', json.dumps({"k": 1}).encode()),
                                      ("bbbb0002", "[]", b'{"evolved_from": "aaaa0001"}')])
    rep = audit(path)
    assert rep["records"] == 2
    laws = {f["law"] for f in rep["findings"]}
    assert "rows" not in laws
    # the BLOB metadata was read: bbbb0002 names a parent with no evolved_from edge -- an L2 finding
    assert any(f["law"] == "L2" and f["records"][0] == "bbbb0002" for f in rep["findings"])
    p = _cli(path, "--json")
    assert p.returncode == 1 and "Traceback" not in p.stderr
    assert json.loads(p.stdout)["records"] == 2


def test_a_blob_that_is_not_utf8_is_a_finding(tmp_path):
    path = _db(tmp_path / "bad.db", [("aaaa0001", b"\xff\xfe[", "{}"), ("bbbb0002", "[]", b"\x80\x81")])
    p = _cli(path, "--json")
    assert p.returncode == 1, p.stderr
    rows = [f for f in json.loads(p.stdout)["findings"] if f["law"] == "rows"]
    assert [f["records"] for f in rows] == [["aaaa0001"], ["bbbb0002"]]
    assert "tags cell is a BLOB of 3 bytes" in rows[0]["detail"]
    assert "metadata cell is a BLOB of 2 bytes" in rows[1]["detail"]


def test_duplicate_ids_in_a_table_without_primary_key_are_reported_not_merged(tmp_path):
    rows = [("dup00001", "[]", "{}"), ("dup00001", "[]", "{}"), ("dup00001", "[]", "{}"), ("one00001", "[]", "{}")]
    path = _db(tmp_path / "dup.db", rows, primary_key=False)
    rep = audit(path)
    assert rep["records"] == 2  # the first row of each id
    dups = [f for f in rep["findings"] if f["law"] == "rows"]
    assert [f["records"] for f in dups] == [["dup00001"]]
    assert ("3 rows of memories have this id (the table has no primary key): the first row is read, as recall's "
            "scan meets it first") in dups[0]["detail"]  # which row stands for the id, and why
    p = _cli(path)
    assert p.returncode == 1 and "rows " in p.stdout and "Traceback" not in p.stderr


def test_a_without_rowid_table_is_read(tmp_path):
    rows = [("cccc0003", "[]", "{}"), ("aaaa0001", "[]", "{}"), ("bbbb0002", "[]", "{}")]
    path = _db(tmp_path / "norowid.db", rows, edges=[("aaaa0001", "evolved_from", "zzzz9999")], without_rowid=True)
    rep = audit(path)
    assert rep["records"] == 3 and rep["edges"] == 1
    assert {f["law"] for f in rep["findings"]} >= {"L3", "L7"}
    p = _cli(path)
    assert p.returncode == 1, p.stderr
    assert "no such column" not in p.stderr and "Traceback" not in p.stderr


def test_findings_are_bounded_by_limit_and_the_rest_counted(tmp_path):
    edges = [(f"src{k:05d}", "evolved_from", f"gone{k:05d}") for k in range(300)]
    path = _db(tmp_path / "many.db", [("aaaa0001", "[]", "{}")], edges=edges)
    full = audit(path)
    assert full["left_out"] == 0 and len(full["findings"]) == 600  # one L3 and one L7 per edge
    few = audit(path, limit=7)
    assert few["findings"] == full["findings"][:7]
    assert few["left_out"] == 593 and few["counts"] == full["counts"]
    p = _cli(path)
    assert p.returncode == 1
    assert "600 finding(s)" in p.stdout and "… 550 more" in p.stdout
    j = json.loads(_cli(path, "--json", "--limit", "3").stdout)
    assert len(j["findings"]) == 3 and j["left_out"] == 597


def test_a_schema_sqlite_reports_in_bytes_that_are_not_utf8_gets_its_message_in_one_line(tmp_path):
    path = tmp_path / "schema.db"
    conn = sqlite3.connect(path)
    conn.executescript("CREATE TABLE memories (x);\nCREATE TABLE memory_edges (y);")
    conn.close()
    # the stored schema text of memories becomes a quote and the byte 0xFF: SQLite's error quotes it
    path.write_bytes(path.read_bytes().replace(b"CREATE TABLE memories (x)", b"CREATE TABLE memories ('\xff"))
    p = _cli(path)
    assert (p.returncode, p.stdout) == (2, "")
    assert p.stderr == (f"coalg audit: error: {path}: corrupt or not a database: malformed database schema "
                        "(memories) - unrecognized token: \"'\ufffd\" (SQLite's message was not UTF-8)\n")
