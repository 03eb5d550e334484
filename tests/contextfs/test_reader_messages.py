"""The read-only reader of ContextFS databases (coalg.contextfs.database): its exact messages and what it reads.

Every refusal is one line naming the file and the reason; the expected texts
are written out here in full.  The databases are built with plain sqlite3
(the helpers of ``test_audit`` and ``test_audit_hostile``).
"""

from __future__ import annotations

import contextlib
import io
import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_audit import T
from test_audit import _db as cfs_db
from test_audit_hostile import _db as rows_db

from coalg.contextfs import SCHEMA, AuditError, audit, read_database
from coalg.contextfs.database import Progress

FIFO = "is a FIFO (named pipe), not a regular file; SQLite would block or fail on it, so it is not audited"
WAL_LIVE = ("holds transactions not yet in the database file; a read-only audit would miss them. Close every "
            "ContextFS process (or checkpoint the log) and audit again.")
HOT = ("is present: a write is in progress or was interrupted (a hot journal). A read-only audit cannot "
       "recover it; let ContextFS finish (or open the database once with ContextFS) and audit again.")
JOURNAL_MAGIC = b"\xd9\xd5\x05\xf9\x20\xa1\x63\xd7"  # the first bytes of a rollback journal's header


def _refusal(path: str | Path, view: str = "contextfs") -> str:
    with pytest.raises(AuditError) as e:
        read_database(path, view)
    return str(e.value)


def _plain(folder: Path, name: str = "t.db") -> Path:
    """A ContextFS database with one record, in rollback-journal mode; ``folder`` is resolved first."""
    return cfs_db(folder.resolve(), [("aaaa0000-001", "ns", {})], [], name)


def _wal(folder: Path, name: str = "w.db") -> Path:
    """The same database switched to write-ahead logging (a clean close leaves no log behind)."""
    path = _plain(folder, name)
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA journal_mode=WAL").fetchone()[0] == "wal"
    conn.close()
    assert not Path(f"{path}-wal").exists()
    return path


@contextlib.contextmanager
def _fifo(path: str | Path) -> Iterator[list[str]]:
    """A FIFO at ``path``, watched: whoever opens it is let through at once and listed (so nothing hangs)."""
    os.mkfifo(path)
    opened: list[str] = []
    stop = threading.Event()

    def watch() -> None:
        while not stop.wait(0.02):
            try:
                fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)  # succeeds only while a reader has it open
            except OSError:
                continue
            opened.append(str(path))
            os.close(fd)

    thread = threading.Thread(target=watch, daemon=True)
    thread.start()
    try:
        yield opened
    finally:
        stop.set()
        thread.join()


def _set_bytes(path: Path, offset: int, data: bytes) -> None:
    raw = bytearray(path.read_bytes())
    raw[offset:offset + len(data)] = data
    path.write_bytes(bytes(raw))


# =========================================================================== the header


def test_a_truncated_header_is_refused_as_corrupt(tmp_path: Path) -> None:
    """A file that starts like SQLite but ends before the 100-byte header is a corrupt database."""
    path = tmp_path / "short.db"
    path.write_bytes(b"SQLite format 3\x00" + bytes(40))
    assert _refusal(path) == f"{path}: corrupt SQLite database (truncated header)"


# =========================================================================== files beside the database


@pytest.mark.parametrize("suffix", ["-wal", "-journal", "-shm"])
def test_a_fifo_beside_the_database_is_refused_by_name(tmp_path: Path, suffix: str) -> None:
    """A FIFO where SQLite looks for its log, journal or shared memory is refused before anything opens it."""
    path = _plain(tmp_path)
    with _fifo(f"{path}{suffix}") as opened:
        message = _refusal(path)
    assert message == f"{path}: t.db{suffix} {FIFO}"
    assert opened == []


def test_a_fifo_beside_the_file_a_link_points_to_is_named_with_the_link(tmp_path: Path) -> None:
    """Through a symbolic link, the sibling looked at is beside the target, and the message says so."""
    (tmp_path / "real").mkdir()
    target = _plain(tmp_path / "real", "target.db")
    link = tmp_path.resolve() / "link.db"
    link.symlink_to(target)
    with _fifo(f"{target}-shm") as opened:
        message = _refusal(link)
    assert message == f"{link}: target.db-shm (beside {target}, which {link} links to) {FIFO}"
    assert opened == []


def test_a_directory_named_like_the_journal_is_refused(tmp_path: Path) -> None:
    """A directory in place of the rollback journal is named with its kind."""
    path = _plain(tmp_path)
    Path(f"{path}-journal").mkdir()
    assert _refusal(path) == (f"{path}: t.db-journal is a directory, not a regular file; SQLite would block "
                              "or fail on it, so it is not audited")


# =========================================================================== the log and the journal


def test_a_wal_database_with_a_log_holding_data_is_refused_with_the_whole_advice(tmp_path: Path) -> None:
    """A non-empty write-ahead log (even one byte) is refused: the message names the log and what to do."""
    path = _wal(tmp_path)
    Path(f"{path}-wal").write_bytes(b"\x01")
    assert _refusal(path) == f"{path}: its write-ahead log (w.db-wal) {WAL_LIVE}"


def test_through_a_link_the_live_log_message_names_the_target(tmp_path: Path) -> None:
    """A live log beside the target of a symbolic link is refused, the message naming target and link."""
    (tmp_path / "real").mkdir()
    target = _wal(tmp_path / "real", "target.db")
    link = tmp_path.resolve() / "link.db"
    link.symlink_to(target)
    Path(f"{target}-wal").write_bytes(b"log")
    assert _refusal(link) == (f"{link}: its write-ahead log (target.db-wal) (beside {target}, which {link} "
                              f"links to) {WAL_LIVE}")


def test_an_empty_log_beside_a_wal_database_is_no_obstacle(tmp_path: Path) -> None:
    """A WAL database whose log exists but is empty is read, and the log is left as it was."""
    path = _wal(tmp_path)
    log = Path(f"{path}-wal")
    log.write_bytes(b"")
    db = read_database(path)
    assert list(db.store.records) == ["aaaa0000-001"]
    assert log.read_bytes() == b""
    assert not Path(f"{path}-shm").exists()


@pytest.mark.parametrize("write_version, read_version", [(2, 1), (1, 2)])
def test_either_header_version_byte_marks_a_wal_database(tmp_path: Path, write_version: int,
                                                         read_version: int) -> None:
    """Bytes 18 and 19 of the header each alone say "write-ahead log": a live log is then refused."""
    path = _wal(tmp_path)
    _set_bytes(path, 18, bytes([write_version, read_version]))
    Path(f"{path}-wal").write_bytes(b"log")
    assert _refusal(path) == f"{path}: its write-ahead log (w.db-wal) {WAL_LIVE}"


def test_a_journal_with_content_is_refused_as_hot_by_name(tmp_path: Path) -> None:
    """A rollback journal of even one byte beside the database is refused, naming the journal file."""
    path = _plain(tmp_path)
    Path(f"{path}-journal").write_bytes(b"\x01")
    assert _refusal(path) == f"{path}: a rollback journal (t.db-journal) {HOT}"


def test_through_a_link_the_hot_journal_message_names_the_target(tmp_path: Path) -> None:
    """A journal beside the target of a symbolic link is refused, the message naming target and link."""
    (tmp_path / "real").mkdir()
    target = _plain(tmp_path / "real", "target.db")
    link = tmp_path.resolve() / "link.db"
    link.symlink_to(target)
    Path(f"{target}-journal").write_bytes(JOURNAL_MAGIC)
    assert _refusal(link) == (f"{link}: a rollback journal (target.db-journal (beside {target}, which {link} "
                              f"links to)) {HOT}")


def test_an_empty_journal_is_no_obstacle(tmp_path: Path) -> None:
    """An empty rollback journal is not hot: the database is read and the journal left alone."""
    path = _plain(tmp_path)
    Path(f"{path}-journal").write_bytes(b"")
    assert list(read_database(path).store.records) == ["aaaa0000-001"]
    assert Path(f"{path}-journal").read_bytes() == b""


# =========================================================================== opening


@pytest.mark.parametrize("mode", ["rollback", "wal"])
def test_a_file_removed_before_the_open_is_not_created_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                             mode: str) -> None:
    """If the file vanishes between the checks and the open, the read fails and creates no new file."""
    path = _plain(tmp_path) if mode == "rollback" else _wal(tmp_path)
    connect = sqlite3.connect

    def vanish_then_connect(*args, **kwargs):
        path.unlink()
        return connect(*args, **kwargs)

    monkeypatch.setattr(sqlite3, "connect", vanish_then_connect)
    assert _refusal(path) == f"{path}: cannot open read-only: unable to open database file"
    assert not path.exists()
    assert sorted(p.name for p in tmp_path.resolve().iterdir()) == []


def test_a_hot_journal_that_appears_at_the_open_is_refused(tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """A writer that crashes between the checks and the read leaves a hot journal: refused, not rolled back."""
    path = _plain(tmp_path)
    journal = Path(f"{path}-journal")
    connect = sqlite3.connect

    def crash_then_connect(*args, **kwargs):
        journal.write_bytes(JOURNAL_MAGIC + bytes(504))
        return connect(*args, **kwargs)

    monkeypatch.setattr(sqlite3, "connect", crash_then_connect)
    assert _refusal(path) == f"{path}: a rollback journal (-journal) {HOT}"
    assert journal.read_bytes() == JOURNAL_MAGIC + bytes(504)


def test_a_locked_database_is_refused_promptly_with_the_whole_message(tmp_path: Path) -> None:
    """A writer's exclusive lock gives a one-line refusal after a short wait, well under a second."""
    path = _plain(tmp_path)
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        t0 = time.perf_counter()
        message = _refusal(path)
        elapsed = time.perf_counter() - t0
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert message == (f"{path}: the database is locked by another connection (a write is in progress); "
                       "audit again when it is done")
    assert elapsed < 1.0, f"the refusal took {elapsed:.2f} s"


def test_a_file_of_a_newer_sqlite_file_format_cannot_be_read(tmp_path: Path) -> None:
    """A schema format number beyond SQLite's (header bytes 44-47) is SQLite's own error, passed on."""
    path = _plain(tmp_path)
    _set_bytes(path, 44, (5).to_bytes(4, "big"))
    assert _refusal(path) == f"{path}: cannot read: unsupported file format"


# =========================================================================== the schema


def test_a_database_without_any_table_says_none(tmp_path: Path) -> None:
    """A valid SQLite file with no table at all: the message lists the tables as "none"."""
    path = tmp_path / "bare.db"
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version = 7")  # writes the header page, creates no table
    conn.close()
    assert _refusal(path) == f"{path}: not a ContextFS database: no table memories or memory_edges (tables: none)"


def test_the_tables_of_a_foreign_database_are_listed_sorted_and_at_most_eight(tmp_path: Path) -> None:
    """A database of other tables: its first eight table names, sorted, separated by commas."""
    path = tmp_path / "other.db"
    conn = sqlite3.connect(path)
    for name in ("t9", "t3", "t1", "t7", "t5", "t2", "t8", "t4", "t6", "memories"):
        conn.execute(f"CREATE TABLE {name} (x)")
    conn.close()
    assert _refusal(path) == (f"{path}: not a ContextFS database: no table memory_edges "
                              "(tables: memories, t1, t2, t3, t4, t5, t6, t7)")


def test_a_schema_refusal_stays_one_line_whatever_the_names(tmp_path: Path) -> None:
    """A file name, a table name or a column name with a line break in it is shown quoted, as Python
    writes it, so that the refusal is still one line."""
    path = tmp_path / "bad\nname.db"
    conn = sqlite3.connect(path)
    conn.execute('CREATE TABLE "odd\ntable" (x)')
    conn.close()
    said = _refusal(path)
    assert said == (f"{str(path)!r}: not a ContextFS database: no table memories or memory_edges "
                    "(tables: 'odd\\ntable')")
    assert "\n" not in said

    newer = _schema_db(tmp_path / "newer.db", f'{_MEM}, "must\nfill" TEXT NOT NULL', _EDGE)
    assert _refusal(newer) == (f"{newer}: written by a newer ContextFS schema: table memories requires "
                               "column(s) 'must\\nfill' that contextfs 0.2.35 does not have")


def test_an_unknown_revision_is_refused_naming_the_known_range(tmp_path: Path) -> None:
    """An alembic revision this audit does not know: refused, with the range of contextfs 0.2.35's revisions."""
    path = cfs_db(tmp_path, [("a", "n", {})], [], "new.db", revision="010")
    assert _refusal(path) == (f"{path}: written by a newer or unknown ContextFS schema (alembic revision '010'; "
                              "this audit knows contextfs 0.2.35's revisions 001–009)")


def _schema_db(path: Path, memories: str, edges: str) -> Path:
    conn = sqlite3.connect(path)
    conn.executescript(f"CREATE TABLE memories ({memories}); CREATE TABLE memory_edges ({edges});")
    conn.close()
    return path


_MEM = "id TEXT, content TEXT, type TEXT, namespace_id TEXT, metadata TEXT"
_EDGE = "from_id TEXT, to_id TEXT, relation TEXT"


def test_missing_columns_are_named_with_their_table(tmp_path: Path) -> None:
    """A table without the columns the audit reads: each missing column is named, with its table."""
    a = _schema_db(tmp_path / "a.db", "id TEXT, content TEXT, namespace_id TEXT", _EDGE)
    assert _refusal(a) == f"{a}: not a ContextFS database: table memories has no column type, metadata"
    b = _schema_db(tmp_path / "b.db", _MEM, "from_id TEXT, weight REAL")
    assert _refusal(b) == f"{b}: not a ContextFS database: table memory_edges has no column to_id, relation"


def test_required_columns_of_a_newer_schema_are_named_with_their_table(tmp_path: Path) -> None:
    """Extra NOT NULL columns without a default would make ContextFS 0.2.35's writes fail: named, sorted."""
    a = _schema_db(tmp_path / "a.db", f"{_MEM}, zone TEXT NOT NULL, tenant TEXT NOT NULL", _EDGE)
    assert _refusal(a) == (f"{a}: written by a newer ContextFS schema: table memories requires column(s) "
                           "tenant, zone that contextfs 0.2.35 does not have")
    b = _schema_db(tmp_path / "b.db", _MEM, f"{_EDGE}, hop INTEGER NOT NULL, cost REAL NOT NULL")
    assert _refusal(b) == (f"{b}: written by a newer ContextFS schema: table memory_edges requires column(s) "
                           "cost, hop that contextfs 0.2.35 does not have")


def test_extra_columns_that_fill_themselves_are_accepted(tmp_path: Path) -> None:
    """A NOT NULL column with a default, or an auto-numbered integer key, needs nothing from the writer."""
    path = _schema_db(tmp_path / "x.db", f"{_MEM}, color TEXT NOT NULL DEFAULT 'blue'",
                      f"edge_no INTEGER NOT NULL PRIMARY KEY, {_EDGE}")
    db = read_database(path)
    assert db.revision is None and dict(db.store.records) == {} and db.store.edges == frozenset()


# =========================================================================== what is read


def test_the_default_view_is_what_contextfs_sees(tmp_path: Path) -> None:
    """Without a view, the soft-deleted edge is kept (the contextfs view), and the view is recorded."""
    path = cfs_db(tmp_path, [("a", "n", {}), ("b", "n", {})], [("a", "references", "b", True)])
    db = read_database(path)
    assert db.view == "contextfs" and len(db.store.edges) == 1 and len(db.edge_deleted) == 1


def test_an_unknown_view_is_refused_listing_the_known_ones(tmp_path: Path) -> None:
    """The message names the view asked for and lists the two known ones."""
    assert _refusal(tmp_path / "whatever.db", "other") == "unknown view 'other'; known: contextfs, model"


def test_each_cell_of_a_row_reaches_the_record(tmp_path: Path) -> None:
    """Content, type, tags, summary, namespace and metadata are read from their own columns."""
    path = cfs_db(tmp_path, [], [])
    conn = sqlite3.connect(path)
    conn.execute("INSERT INTO memories (id, content, type, tags, summary, namespace_id, created_at, updated_at, "
                 "metadata) VALUES ('r1', 'the content', 'decision', '[\"t1\", \"t2\"]', 'the summary', 'team', "
                 "?, ?, '{\"k\": \"v\"}')", (T, T))
    conn.commit()
    conn.close()
    r = read_database(path).store.records["r1"]
    assert (r.content, r.type, r.tags, r.summary, r.namespace) == (
        "the content", "decision", frozenset({"t1", "t2"}), "the summary", "team")
    assert dict(r.metadata) == {"k": "v"}


def test_a_minimal_schema_reads_absent_columns_as_null(tmp_path: Path) -> None:
    """Only the needed columns: no tags, summary or deleted_at; every row and edge is live."""
    path = _schema_db(tmp_path / "min.db", _MEM, _EDGE)
    conn = sqlite3.connect(path)
    conn.execute("INSERT INTO memories VALUES ('a1', 'hello', 'fact', 'ns', '{}')")
    conn.execute("INSERT INTO memory_edges VALUES ('a1', 'zz', 'references')")
    conn.commit()
    conn.close()
    for view in ("contextfs", "model"):
        db = read_database(path, view)
        r = db.store.records["a1"]
        assert (r.content, r.tags, r.summary) == ("hello", frozenset(), None)
        assert [(e.source, e.relation.value, e.target) for e in db.store.edges] == [("a1", "references", "zz")]
        assert db.all_rows == {"a1": ("ns", False)} and db.edge_deleted == frozenset()


def test_live_records_are_listed_in_row_order(tmp_path: Path) -> None:
    """``order`` follows the rows as inserted, skipping soft-deleted ones, not the order of the ids."""
    path = cfs_db(tmp_path, [("c", "n", {}), ("a", "n", {}), ("d", "n", {}, True), ("b", "n", {})], [])
    assert read_database(path).order == ("c", "a", "b")


def test_row_order_holds_even_when_an_index_covers_the_columns_read(tmp_path: Path) -> None:
    """An index over every column read would hand rows back by id; the scan still follows the rows."""
    path = cfs_db(tmp_path, [("bbbbbbbb-2", "n", {}), ("aaaaaaaa-1", "n", {}), ("BBBBBBBB-3", "n", {})], [])
    conn = sqlite3.connect(path)
    conn.execute("CREATE INDEX cover ON memories (id, content, type, tags, summary, namespace_id, metadata, "
                 "deleted_at)")
    conn.commit()
    conn.close()
    assert read_database(path).order == ("bbbbbbbb-2", "aaaaaaaa-1", "BBBBBBBB-3")


def test_a_without_rowid_table_declared_in_lower_case_is_read(tmp_path: Path) -> None:
    """``without rowid`` in lower case is recognised: such a table has no rowid to order by."""
    path = tmp_path / "lower.db"
    conn = sqlite3.connect(path)
    conn.executescript(SCHEMA.replace("authoritative INTEGER DEFAULT 0, PRIMARY KEY (id));",
                                      "authoritative INTEGER DEFAULT 0, PRIMARY KEY (id)) without rowid;"))
    for i in ("m2", "m1"):
        conn.execute("INSERT INTO memories (id, content, type, tags, namespace_id, created_at, updated_at, "
                     "metadata) VALUES (?, 'c', 'fact', '[]', 'ns', ?, ?, '{}')", (i, T, T))
    conn.commit()
    conn.close()
    assert read_database(path).order == ("m1", "m2")  # the primary key's order


def test_a_too_deep_cell_is_refused_naming_the_row_by_its_first_40_characters(tmp_path: Path) -> None:
    """A tags cell nested beyond 100 levels: refused, naming the row id cut to 40 characters."""
    path = cfs_db(tmp_path, [], [])
    conn = sqlite3.connect(path)
    conn.execute("INSERT INTO memories (id, content, type, tags, namespace_id, created_at, updated_at, metadata) "
                 "VALUES (?, 'c', 'fact', ?, 'ns', ?, ?, '{}')", ("x" * 50, "[" * 101 + "]" * 101, T, T))
    conn.commit()
    conn.close()
    assert _refusal(path) == (f"{path}: memories row id '{'x' * 40}': tags: value nested more than 100 levels "
                              "deep (maps, lists and sets); records hold at most that")


def test_a_blob_cell_that_is_not_utf8_is_reported_in_full(tmp_path: Path) -> None:
    """A tags BLOB that is not UTF-8 is read as empty, and the problem says so in one sentence."""
    path = rows_db(tmp_path / "blob.db", [("aaaa0001", b"\xff\xfe[", "{}")])
    db = read_database(path)
    assert db.problems == (("aaaa0001", ("its tags cell is a BLOB of 3 bytes that are not UTF-8 text, so not "
                                        "JSON: read as empty")),)
    assert db.store.records["aaaa0001"].tags == frozenset()


# =========================================================================== the progress bar


def _bar(name: str, k: int, total: int, done: int) -> str:
    return f"\raudit: {name} [{'#' * done}{'.' * (30 - done)}] {k}/{total}"


def test_progress_draws_every_step_of_a_short_phase() -> None:
    """Three steps: three bars of 10, 20 and 30 marks out of 30, the last one ending the line."""
    out = io.StringIO()
    tick = Progress(out).phase("reading records", 3)
    for k in (1, 2, 3):
        tick(k)
    assert out.getvalue() == (_bar("reading records ", 1, 3, 10) + _bar("reading records ", 2, 3, 20)
                              + _bar("reading records ", 3, 3, 30) + "\n")


def test_progress_of_a_long_phase_draws_about_fifty_bars_and_always_the_last() -> None:
    """101 steps: a bar every second step (50 of them) and one for the last step, which is odd."""
    out = io.StringIO()
    tick = Progress(out).phase("checking", 101)
    for k in range(1, 102):
        tick(k)
    bars = out.getvalue().split("\r")[1:]
    assert len(bars) == 51
    assert "\r" + bars[0] == _bar("checking        ", 2, 101, 0)
    assert "\r" + bars[24] == _bar("checking        ", 50, 101, 14)
    assert "\r" + bars[-1] == _bar("checking        ", 101, 101, 30) + "\n"


def test_progress_is_silent_without_a_stream_or_without_work() -> None:
    """No stream, or a phase of nothing to do: nothing is written, whatever the calls."""
    out = io.StringIO()
    tick = Progress(out).phase("reading edges", 0)
    tick(0)
    Progress(None).phase("reading edges", 5)(5)
    assert out.getvalue() == ""


def test_reading_shows_a_bar_per_row_and_per_edge(tmp_path: Path) -> None:
    """Reading three rows (one a duplicate id) and one edge draws the records bar three times, the edges once."""
    path = rows_db(tmp_path / "dup.db", [("dup00001", "[]", "{}"), ("dup00001", "[]", "{}"),
                                         ("one00001", "[]", "{}")],
                   edges=[("one00001", "references", "dup00001")], primary_key=False)
    out = io.StringIO()
    read_database(path, progress=out)
    assert out.getvalue() == (_bar("reading records ", 1, 3, 10) + _bar("reading records ", 2, 3, 20)
                              + _bar("reading records ", 3, 3, 30) + "\n"
                              + _bar("reading edges   ", 1, 1, 30) + "\n")


def test_the_audit_shows_reading_and_checking_progress(tmp_path: Path) -> None:
    """The audit with a stream: records, edges, then one checking step per record and per edge."""
    path = cfs_db(tmp_path, [("a", "n", {}), ("b", "n", {})], [("a", "references", "b")])
    out = io.StringIO()
    audit(path, progress=out)
    assert out.getvalue() == (_bar("reading records ", 1, 2, 15) + _bar("reading records ", 2, 2, 30) + "\n"
                              + _bar("reading edges   ", 1, 1, 30) + "\n"
                              + _bar("checking        ", 1, 3, 10) + _bar("checking        ", 2, 3, 20)
                              + _bar("checking        ", 3, 3, 30) + "\n")
