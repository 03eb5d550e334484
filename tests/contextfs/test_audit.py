"""The read-only audit of ContextFS databases (coalg.contextfs.database, .auditing) and the sample database.

The audit itself needs no ContextFS: the fixtures here are written with plain
sqlite3 in contextfs 0.2.35's schema.  Only the sample regeneration check runs
the real package (skipped, with the reason, where it is not installed).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from coalg.contextfs import (
    AVAILABLE,
    FINDING_HELP,
    LAW_ORDER,
    SCHEMA,
    AuditError,
    audit,
    format_report,
    make_demo_database,
    make_synthetic_database,
    read_database,
    read_sqlite_store,
    unavailable_reason,
)
from coalg.model import Relation

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "data" / "sample-contextfs.db"
T = "2026-01-01T00:00:00"


def _fingerprint(path: Path) -> tuple[str, int, list[str]]:
    siblings = sorted(p.name for p in path.parent.iterdir() if p.name.startswith(path.name) and p != path)
    return hashlib.sha256(path.read_bytes()).hexdigest(), path.stat().st_mtime_ns, siblings


def _db(tmp_path: Path, records: list[tuple], edges: list[tuple], name: str = "t.db", revision: str = "009") -> Path:
    """records: (id, namespace, metadata dict[, deleted]); edges: (from, relation, to[, deleted])."""
    path = tmp_path / name
    conn = sqlite3.connect(path)
    conn.executescript(SCHEMA)
    conn.execute("INSERT INTO alembic_version VALUES (?)", (revision,))
    for r in records:
        i, ns, meta = r[:3]
        conn.execute("INSERT INTO memories (id, content, type, tags, namespace_id, created_at, updated_at, metadata, "
                     "deleted_at) VALUES (?, ?, 'fact', '[]', ?, ?, ?, ?, ?)",
                     (i, f"content of {i}", ns, T, T, json.dumps(meta), T if len(r) > 3 and r[3] else None))
    for e in edges:
        conn.execute("INSERT INTO memory_edges (from_id, to_id, relation, created_at, metadata, deleted_at) "
                     "VALUES (?, ?, ?, ?, '{}', ?)", (e[0], e[2], e[1], T, T if len(e) > 3 and e[3] else None))
    conn.commit()
    conn.close()
    return path


def _laws(report: dict) -> list[tuple[str, list[str]]]:
    return [(f["law"], f["records"]) for f in report["findings"]]


# =========================================================================== read-only


@pytest.mark.parametrize("view", ["contextfs", "model"])
def test_audit_leaves_the_file_byte_identical(tmp_path: Path, view: str) -> None:
    db = tmp_path / "copy.db"
    shutil.copyfile(SAMPLE, db)
    os.utime(db, ns=(1_700_000_000_000_000_000, 1_700_000_000_000_000_000))
    before = _fingerprint(db)
    audit(db, view)
    read_database(db, view)
    assert _fingerprint(db) == before
    assert not any(tmp_path.glob("*-journal")) and not any(tmp_path.glob("*-wal")) and not any(tmp_path.glob("*-shm"))


def test_audit_of_a_read_only_file_in_a_read_only_folder(tmp_path: Path) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    db = folder / "store.db"
    shutil.copyfile(SAMPLE, db)
    db.chmod(0o444)
    folder.chmod(0o555)
    try:
        before = _fingerprint(db)
        assert audit(db)["records"] == 17
        assert _fingerprint(db) == before
    finally:
        folder.chmod(0o755)


def test_wal_database_is_read_immutable_and_an_unmerged_log_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "wal.db"
    shutil.copyfile(SAMPLE, db)
    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA journal_mode=WAL").fetchone()[0] == "wal"
    conn.close()  # a clean close checkpoints and removes the log
    before = _fingerprint(db)
    assert audit(db)["records"] == 17
    assert _fingerprint(db) == before
    # a writer with a non-empty log: the audit refuses rather than read stale data
    w = sqlite3.connect(db)
    w.execute("PRAGMA wal_autocheckpoint=0")
    w.execute("UPDATE memories SET content = 'changed' WHERE rowid = 1")
    w.commit()
    try:
        with pytest.raises(AuditError, match="write-ahead log"):
            audit(db)
    finally:
        w.close()


def test_locked_and_mid_write_databases_are_refused(tmp_path: Path) -> None:
    db = tmp_path / "locked.db"
    shutil.copyfile(SAMPLE, db)
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(AuditError, match="locked by another connection"):
            audit(db)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    (tmp_path / "locked.db-journal").write_bytes(b"\x00" * 512)
    with pytest.raises(AuditError, match="rollback journal"):
        audit(db)


# =========================================================================== unusable input


def test_unusable_inputs_give_one_clear_error(tmp_path: Path) -> None:
    (tmp_path / "text.db").write_text("not a database")
    (tmp_path / "empty.db").write_bytes(b"")
    (tmp_path / "dir.db").mkdir()
    data = SAMPLE.read_bytes()
    (tmp_path / "corrupt.db").write_bytes(data[:100] + bytes(len(data) - 100))
    other = sqlite3.connect(tmp_path / "other.db")
    other.execute("CREATE TABLE notes (x)")
    other.commit()
    other.close()
    cases = {
        "missing.db": "no such file", "dir.db": "is a directory, not a regular file",
        "text.db": "not a SQLite database (no 'SQLite format 3' header)",
        "empty.db": "empty file, not a SQLite database",
        "corrupt.db": "corrupt or not a database: database disk image is malformed",
        "other.db": "not a ContextFS database: no table memories or memory_edges (tables: notes)",
    }
    for name, message in cases.items():
        with pytest.raises(AuditError) as e:
            audit(tmp_path / name)
        assert str(e.value) == f"{tmp_path / name}: {message}"


def test_text_that_is_not_utf8_makes_a_corrupt_database_and_the_message_names_its_column(tmp_path: Path) -> None:
    path = _db(tmp_path, [("a", "n", {})], [])
    conn = sqlite3.connect(path)
    conn.execute("UPDATE memories SET content = CAST(x'ff41' AS TEXT)")  # 0xff never starts a UTF-8 character
    conn.commit()
    conn.close()
    with pytest.raises(AuditError) as e:
        read_database(path, "contextfs")
    assert str(e.value).startswith(f"{path}: corrupt database: ") and "column 'content'" in str(e.value)


def test_newer_schemas_are_refused(tmp_path: Path) -> None:
    newer = _db(tmp_path, [("a", "n", {})], [], "newer.db", revision="010")
    with pytest.raises(AuditError, match="newer or unknown ContextFS schema.*'010'"):
        audit(newer)
    col = tmp_path / "column.db"
    conn = sqlite3.connect(col)
    conn.executescript(SCHEMA.replace("authoritative INTEGER DEFAULT 0,", "authoritative INTEGER DEFAULT 0, "
                                       "tenant_key TEXT NOT NULL,"))
    conn.close()
    with pytest.raises(AuditError, match="requires column.*tenant_key"):
        audit(col)
    missing = tmp_path / "nocol.db"
    conn = sqlite3.connect(missing)
    conn.executescript("CREATE TABLE memories (id TEXT); CREATE TABLE memory_edges (from_id TEXT, to_id TEXT);")
    conn.close()
    with pytest.raises(AuditError, match="has no column"):
        audit(missing)
    with pytest.raises(AuditError, match="unknown view"):
        audit(SAMPLE, "other")


def test_an_unversioned_schema_with_extra_optional_columns_is_read(tmp_path: Path) -> None:
    path = _db(tmp_path, [("a", "n", {})], [])
    conn = sqlite3.connect(path)
    conn.execute("DROP TABLE alembic_version")
    conn.execute("ALTER TABLE memories ADD COLUMN color TEXT DEFAULT 'blue'")
    conn.commit()
    conn.close()
    report = audit(path)
    assert report["schema_revision"] is None and report["findings"] == []


# =========================================================================== findings


def test_clean_store_has_no_findings(tmp_path: Path) -> None:
    path = _db(tmp_path, [("aaaa0000-001", "n", {}), ("bbbb0000-002", "n", {"evolved_from": "aaaa0000-001"})],
               [("bbbb0000-002", "evolved_from", "aaaa0000-001"), ("aaaa0000-001", "evolved_into", "bbbb0000-002")])
    report = audit(path)
    assert report["findings"] == [] and report["records"] == 2 and report["edges"] == 2
    assert "no findings" in format_report(report)


def test_each_finding_kind(tmp_path: Path) -> None:
    path = _db(tmp_path, [
        ("a0000000-001", "n", {}),
        ("b0000000-002", "n", {"evolved_from": "a0000000-001", "merged_from": ["x", "y"]}),  # L2 (inherited)
        ("c0000000-003", "m", {}),
        ("d0000000-004", "n", {"merged_from": ["a0000000-001", "c0000000-003"]}),  # L4ii
        ("e0000000-005", "n", {"evolved_from": "gone0000-999"}),  # 5.2 + L2
        ("f0000000-006", "n", {}, True),  # soft-deleted
        ("g0000000-007", "n", {"evolved_from": "f0000000-006"}),
        ("abcdefgh-008", "n", {}), ("ABCDEFGH-009", "m", {}),  # 6.3 (LIKE is case-insensitive)
    ], [
        ("b0000000-002", "evolved_from", "a0000000-001"), ("a0000000-001", "evolved_into", "b0000000-002"),
        ("d0000000-004", "merged_from", "a0000000-001"), ("a0000000-001", "merged_into", "d0000000-004"),
        ("d0000000-004", "merged_from", "c0000000-003"),  # L3: no inverse
        ("g0000000-007", "evolved_from", "f0000000-006", True), ("f0000000-006", "evolved_into", "g0000000-007", True),
        ("a0000000-001", "supersedes", "nothere0-000"), ("nothere0-000", "superseded_by", "a0000000-001"),
    ])
    rep = audit(path)
    laws = _laws(rep)
    assert ("L2", ["b0000000-002", "x", "y"]) in laws
    assert ("L2", ["e0000000-005", "gone0000-999"]) in laws
    assert ("L3", ["d0000000-004", "c0000000-003"]) in laws
    assert ("L4ii", ["d0000000-004", "c0000000-003"]) in laws
    assert ("L7", ["g0000000-007", "f0000000-006"]) in laws  # soft-deleted endpoint, edge kept (contextfs view)
    assert ("L7", ["a0000000-001", "nothere0-000"]) in laws
    assert ("5.2", ["e0000000-005", "gone0000-999"]) in laws
    assert ("5.2", ["g0000000-007", "f0000000-006"]) in laws
    assert ("6.3", ["ABCDEFGH-009", "abcdefgh-008"]) in laws
    strong = [f for f in rep["findings"] if f["law"] == "L7" and "nothere0" in f["detail"]]
    assert {f["form"] for f in strong} == {"strong"}
    assert [f["law"] for f in rep["findings"]] == sorted((f["law"] for f in rep["findings"]), key=LAW_ORDER.index)
    # the model view drops the soft-deleted edges: no dangling edge there, but L2 on the survivor
    model = _laws(audit(path, "model"))
    assert ("L7", ["g0000000-007", "f0000000-006"]) not in model
    assert ("L2", ["g0000000-007", "f0000000-006"]) in model


def test_prefix_written_endpoints_are_named_as_prefixes(tmp_path: Path) -> None:
    path = tmp_path / "demo.db"
    make_demo_database(path)
    rep = audit(path)
    l7 = [f for f in rep["findings"] if f["law"] == "L7"]
    assert len(l7) == 2 and all("prefix of ab12cd34-001, ab12cd34-002" in f["detail"] for f in l7)
    assert not any(f["law"] == "5.2" for f in rep["findings"])  # a prefix is not a deleted parent


def test_views_read_what_they_say(tmp_path: Path) -> None:
    path = _db(tmp_path, [("a", "n", {}), ("b", "n", {}, True)], [("a", "references", "b", True)])
    c, m = read_database(path, "contextfs"), read_database(path, "model")
    assert set(c.store.records) == set(m.store.records) == {"a"}
    assert len(c.store.edges) == 1 and len(m.store.edges) == 0
    assert c.all_rows["b"] == ("n", True)
    assert next(iter(c.store.edges)).relation is Relation.REFERENCES


def test_an_edge_with_a_label_the_package_lacks_or_deleted_is_passed_over_and_the_later_ones_read(
        tmp_path: Path) -> None:
    path = _db(tmp_path, [("a", "n", {}), ("b", "n", {})],
               [("a", "not_a_label", "b"), ("b", "evolved_from", "a"), ("a", "references", "b", True),
                ("b", "supersedes", "a")])
    dbs = {view: read_database(path, view) for view in ("contextfs", "model")}
    edges = {view: sorted((e.source, e.relation.value, e.target) for e in db.store.edges) for view, db in dbs.items()}
    assert edges["contextfs"] == [("a", "references", "b"), ("b", "evolved_from", "a"), ("b", "supersedes", "a")]
    assert edges["model"] == [("b", "evolved_from", "a"), ("b", "supersedes", "a")]  # the deleted edge left out
    assert dbs["model"].path == dbs["contextfs"].path == str(path)


def test_the_whole_store_read_keeps_live_rows_and_clock_readings_unless_asked_otherwise(tmp_path: Path) -> None:
    path = _db(tmp_path, [("a", "n", {}), ("b", "n", {}, True)], [])
    conn = sqlite3.connect(path)
    try:
        assert sorted(read_sqlite_store(conn).dom()) == ["a"]  # what recall sees: b is soft-deleted
        assert sorted(read_sqlite_store(conn, live_only=False).dom()) == ["a", "b"]
        with_clocks, without = read_sqlite_store(conn).records["a"], read_sqlite_store(conn, clocks=False).records["a"]
        assert with_clocks.created_at is not None and with_clocks.updated_at is not None
        assert (without.created_at, without.updated_at) == (None, None)
    finally:
        conn.close()


def test_report_is_deterministic_across_hash_seeds() -> None:
    code = "import json, coalg.contextfs.auditing as a; print(json.dumps(a.audit('data/sample-contextfs.db')))"
    outs = {subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True,
                           env={**os.environ, "PYTHONHASHSEED": seed}).stdout for seed in ("0", "4242")}
    assert len(outs) == 1


# =========================================================================== the sample database


def test_sample_database_findings() -> None:
    assert SAMPLE.stat().st_size < 1_000_000
    rep = audit(SAMPLE)
    assert rep["records"] == 17 and rep["edges"] == 21 and rep["schema_revision"] == "009"
    assert rep["counts"] == {"L2": 4, "L3": 1, "L4ii": 1, "L7": 8, "5.2": 2, "6.3": 2}
    details = " | ".join(f["detail"] for f in rep["findings"])
    assert "c0ffee12 is not an id but a prefix of c0ffee12-a01" in details  # prefix-evolve (W2)
    assert "0ld5tuff-999 is no such record" in details  # supersede of a missing id (W1)
    assert "is soft-deleted" in details  # the facade's soft delete
    l4 = [f for f in rep["findings"] if f["law"] == "L4ii"]
    assert l4[0]["records"][1:] == ["f1e2d3c4-b05"] and "team-frontend" in l4[0]["detail"]
    handles = sorted(f["handle"] for f in rep["findings"] if f["law"] == "6.3")
    assert handles == ["8874780e", "d3b10e00"]
    model = audit(SAMPLE, "model")
    assert model["counts"]["L7"] == 4 and model["counts"]["L2"] == 5


@pytest.mark.skipif(not AVAILABLE, reason=f"regenerating the sample needs contextfs 0.2.35: {unavailable_reason()}")
def test_sample_database_is_reproducible_with_the_real_package(tmp_path: Path) -> None:
    out = tmp_path / "fresh.db"
    p = subprocess.run([sys.executable, "tools/make_sample_db.py", str(out)], cwd=ROOT, capture_output=True,
                       text=True, check=False)
    assert p.returncode == 0, p.stderr
    assert out.read_bytes() == SAMPLE.read_bytes(), "data/sample-contextfs.db is stale: run tools/make_sample_db.py"


# =========================================================================== size


def test_a_large_database_is_audited_quickly(tmp_path: Path) -> None:
    path = str(tmp_path / "big.db")
    stats = make_synthetic_database(path, 20_000)
    t0 = time.perf_counter()
    rep = audit(path)
    dt = time.perf_counter() - t0
    assert rep["records"] == stats["records"] - stats["soft_deleted"]
    assert rep["counts"]["L3"] >= stats["one_way"] and rep["counts"]["L7"] >= 2 * stats["superseded_missing"]
    assert dt < 10, f"20k records took {dt:.1f} s (the budget is 100k in 10 s)"


def test_the_synthetic_database_is_reproducible(tmp_path: Path) -> None:
    a, b = tmp_path / "a.db", tmp_path / "b.db"
    stats = make_synthetic_database(a, 3_000)
    assert make_synthetic_database(b, 3_000) == stats and a.read_bytes() == b.read_bytes()
    assert stats["records"] == 3_000 and stats["hard_deleted"] == stats["soft_deleted"] == 6
    rep = audit(a)
    assert rep["records"] == 3_000 - stats["soft_deleted"] and rep["counts"]["L7"] >= 2 * stats["superseded_missing"]
    make_synthetic_database(tmp_path / "c.db", 3_000, seed=8)
    assert (tmp_path / "c.db").read_bytes() != a.read_bytes()


def test_the_synthetic_database_holds_what_its_docstring_plants(tmp_path: Path) -> None:
    """Read back with plain SQL: the shapes of rows and edges, and each planted count."""
    path = tmp_path / "s.db"
    stats = make_synthetic_database(path, 3_000, seed=3)
    conn = sqlite3.connect(path)
    rows = {i: (t, ns, json.loads(tags), json.loads(m), d) for i, t, ns, tags, m, d in
            conn.execute("SELECT id, type, namespace_id, tags, metadata, deleted_at FROM memories")}
    edges = {(f, r, to): d for f, r, to, d in
             conn.execute("SELECT from_id, relation, to_id, deleted_at FROM memory_edges")}
    conn.close()
    assert len(rows) == stats["records"] == 3_000 and len(edges) == stats["edges"]
    assert all(re.fullmatch(r"[0-9a-f]{8}-[0-9a-f]{3}", i) for i in rows)
    assert {ns for _, ns, _, _, _ in rows.values()} == {"team-a", "team-b", "team-c", "personal"}
    assert {t for t, _, _, _, _ in rows.values()} == {"fact", "decision", "episodic"}
    assert all(len(tags) == 1 and tags[0].startswith("t") for _, _, tags, _, _ in rows.values())
    soft = {i for i, r in rows.items() if r[4] is not None}
    assert len(soft) == stats["soft_deleted"]
    assert {e for e, d in edges.items() if d is not None} == {e for e in edges if e[0] in soft or e[2] in soft}
    gone = [e for e in edges if e[0].startswith("gone") or e[2].startswith("gone")]
    assert len(gone) == 2 * stats["superseded_missing"]
    assert {r for _, r, _ in gone} == {"supersedes", "superseded_by"}
    evolved = {i: m["evolved_from"] for i, (_, _, _, m, _) in rows.items() if "evolved_from" in m}
    merged = {i: m["merged_from"] for i, (_, _, _, m, _) in rows.items() if "merged_from" in m}
    assert 0 < len(evolved) <= stats["evolved"] and 0 < len(merged) <= stats["merged"]
    # hard deletes took records and their edges: the parents they leave are named only by metadata
    dead = {p for p in evolved.values() if p not in rows} | {p for ps in merged.values() for p in ps if p not in rows}
    assert 0 < len(dead) <= stats["hard_deleted"] and not any(e[0] in dead or e[2] in dead for e in edges)
    pairs = {"evolved_from": "evolved_into", "merged_from": "merged_into"}
    written = {(i, "evolved_from", p) for i, p in evolved.items()} | \
              {(i, "merged_from", p) for i, ps in merged.items() for p in ps}
    alive = {e for e in written if e[2] in rows}
    missing = [e for e in alive if e not in edges] + \
              [e for e in alive if (e[2], pairs[e[1]], e[0]) not in edges]
    assert len(missing) == stats["one_way"]  # each one-way edge lost one half of a written pair
    assert all(rows[i][1] == rows[ps[0]][1] for i, ps in merged.items() if ps[0] in rows)  # the first's namespace
    assert all(rows[i][1] == rows[p][1] for i, p in evolved.items() if p in rows)


def test_finding_help_covers_every_law() -> None:
    assert set(FINDING_HELP) == set(LAW_ORDER)
    check: Callable[[str], bool] = lambda s: len(s) > 80
    assert all(check(v) for v in FINDING_HELP.values())


_VIEW = ("view 'contextfs': records with deleted_at IS NULL (as recall sees them); every edge, soft-deleted or not "
         "(as ContextFS's edge and lineage queries read them)")


def test_the_report_as_the_terminal_shows_it(tmp_path: Path) -> None:
    path = tmp_path / "demo.db"
    make_demo_database(path)
    prefix = "is not an id but a prefix of ab12cd34-001, ab12cd34-002 (evolve/split by prefix write the prefix)"
    head = [f"ContextFS database {path.name} (schema revision 009)", _VIEW, "2 records, 2 edges",
            "3 finding(s): L7 ×2, 6.3 ×1", "",
            f"  L7    dangling evolved_into edge (ab12cd34 -> ab12cd34-002): ab12cd34 {prefix}"]
    rest = [f"  L7    dangling evolved_from edge (ab12cd34-002 -> ab12cd34): ab12cd34 {prefix}",
            "  6.3   handle 'ab12cd34' names 2 records in namespace(s) global; recall('ab12cd34') returns "
            "ab12cd34-001 (first in row order), delete('ab12cd34') removes ab12cd34-001 (first by id)"]
    tail = ["", "what each finding means: coalg audit --help"]
    rep = audit(path)
    rep["database"] = path.name
    assert format_report(rep) == "\n".join(head + rest + tail) + "\n"
    assert format_report(rep, limit=None) == format_report(rep)
    more = "  … 2 more (use --limit N for more, --json --limit 0 for all)"
    assert format_report(rep, limit=1) == "\n".join([*head, more, *tail]) + "\n"
    # findings the audit itself left out (its own limit) are counted in the total and in what is not shown
    cut = format_report({**rep, "left_out": 4}, limit=1).splitlines()
    assert cut[3] == "7 finding(s): L7 ×2, 6.3 ×1" and cut[6] == more.replace("2 more", "6 more")


def test_a_database_without_findings_or_revision_says_so(tmp_path: Path) -> None:
    path = tmp_path / "clean.db"
    conn = sqlite3.connect(path)
    conn.executescript(SCHEMA)
    conn.close()
    rep = audit(path)
    rep["database"] = path.name
    assert format_report(rep) == "\n".join([
        "ContextFS database clean.db (schema revision unknown)", _VIEW, "0 records, 0 edges",
        "no findings: every law this audit checks holds on this database."]) + "\n"
