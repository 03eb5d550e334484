"""A ContextFS database opened read-only and read into a coalg store, for the audit.

:func:`read_database` opens a ContextFS SQLite file (tables ``memories`` and
``memory_edges``, as contextfs 0.2.35 writes them) **without writing anything**:
no journal, no ``-wal``/``-shm``, no change to the file's bytes or modification
time.  A rollback-journal database (ContextFS's default) is opened with
``mode=ro``, which takes only a shared read lock; a WAL database with an empty
or absent log is opened ``immutable=1``.  A hot journal or a non-empty log is
refused, since a read-only reader could not see what it holds.  It returns the
paper's store (§3.1, :class:`~coalg.model.store.Store`) in one of two views:

* ``contextfs`` — what ContextFS's own queries see: records with
  ``deleted_at IS NULL`` (``recall``), and every edge whatever its
  ``deleted_at`` (the edge and lineage queries never filter it);
* ``model`` — what the paper's model says a delete leaves: live records and
  live edges only (a soft delete read as the model's delete).

Limits (the input-validation layer of the format; each violation is one
:class:`AuditError` naming the file, the row or sibling file, and the reason):

* the path names a regular file (a symbolic link is followed first); a FIFO,
  device or directory is refused before it is opened, and so is a ``-wal``,
  ``-journal`` or ``-shm`` beside the resolved file that is not a regular file;
* the file starts with the 100-byte SQLite header; a non-empty ``-wal`` (WAL
  mode) or a ``-journal`` (a hot journal) beside the resolved file is refused;
* the ``tags`` and ``metadata`` cells nest at most 100 levels of JSON
  (:data:`coalg.model.records.MAX_DEPTH`); a cell that is not JSON reads as empty,
  as ContextFS's own fallback does;
* every SQLite error, whatever the bytes of its message, is an :class:`AuditError`.

The checks on the store are :mod:`coalg.contextfs.auditing`.
"""

from __future__ import annotations

import os
import re
import sqlite3
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from ..errors import CoalgError
from ..model import Edge, Record, Store
from ..userfiles import display_name, kind_of, read_head
from .tables import KNOWN_REVISIONS, CellError, record_of_row, relation_of

__all__ = ["VIEWS", "AuditError", "Database", "Progress", "read_database"]

VIEWS = ("contextfs", "model")

_MEMORY_NEEDED = ("id", "content", "type", "namespace_id", "metadata")
_MEMORY_KNOWN = frozenset((
    "id", "content", "type", "tags", "summary", "namespace_id", "source_file", "source_repo", "source_tool",
    "project", "session_id", "created_at", "updated_at", "metadata", "vector_clock", "content_hash", "deleted_at",
    "last_modified_by", "repo_url", "repo_name", "relative_path", "structured_data", "authoritative"))
_EDGE_NEEDED = ("from_id", "to_id", "relation")
_EDGE_KNOWN = frozenset(("from_id", "to_id", "relation", "weight", "created_at", "created_by", "metadata",
                         "vector_clock", "deleted_at", "last_modified_by"))


class AuditError(CoalgError, ValueError):
    """The file cannot be audited (missing, not a regular file, not SQLite, not ContextFS, corrupt, locked,
    a live log or hot journal, a cell beyond the limits, newer schema); the message names the file and the
    reason."""


@dataclass(frozen=True)
class Database:
    """A ContextFS database read into a coalg store, with what the audit needs besides.

    ``store`` holds the records and edges of the chosen ``view``.  ``all_rows``
    maps every identifier in ``memories`` (deleted or not) to ``(namespace,
    deleted)``; ``order`` lists live identifiers in rowid order (``recall``'s
    scan order).
    """

    path: str
    view: str
    revision: str | None
    store: Store
    all_rows: Mapping[str, tuple[str, bool]]
    order: tuple[str, ...]
    edge_deleted: frozenset[Edge]
    problems: tuple[tuple[str, str], ...] = ()
    """Rows the laws cannot be read on as stored, ``(id, what is wrong)``: a duplicate id (the first row
    is kept, as ``recall``'s scan meets it first), a ``tags`` or ``metadata`` BLOB that is not UTF-8."""


class Progress:
    """A one-line progress bar on a stream (updated at most ~50 times per phase); silent without one."""

    def __init__(self, stream: TextIO | None) -> None:
        self.stream = stream

    def phase(self, name: str, total: int) -> Callable[[int], None]:
        """A function to call with the count done so far (``total`` ends the line)."""
        if self.stream is None or total <= 0:
            return lambda k: None
        step = max(1, total // 50)
        stream = self.stream

        def update(k: int) -> None:
            if k % step and k != total:
                return
            width = 30
            done = int(width * k / total)
            stream.write(f"\raudit: {name:<16} [{'#' * done}{'.' * (width - done)}] {k}/{total}")
            if k == total:
                stream.write("\n")
            stream.flush()

        return update


# =========================================================================== opening read-only


def _columns(conn: sqlite3.Connection, table: str) -> dict[str, tuple[bool, bool]]:
    """name → (NOT NULL, has default) for each column of ``table``."""
    return {row[1]: (bool(row[3]), row[4] is not None or bool(row[5]))
            for row in conn.execute(f"PRAGMA table_info({table})")}


def _read_only_uri(path: str) -> str:
    """The URI that opens ``path`` without writing, after checking the file, its header, the journal and the log.

    ``path`` is resolved first (a symbolic link is followed), so the ``-wal``
    and ``-journal`` files looked for are those SQLite itself would use.
    """
    name = display_name(path)

    def fail(msg: str) -> AuditError:
        return AuditError(f"{name}: {msg}")

    header = read_head(path, 100, fail)  # refuses a FIFO, a device, a directory before opening it
    if len(header) == 0:
        raise fail("empty file, not a SQLite database")
    if not header.startswith(b"SQLite format 3\x00"):
        raise fail("not a SQLite database (no 'SQLite format 3' header)")
    if len(header) < 100:
        raise fail("corrupt SQLite database (truncated header)")
    real = Path(os.path.realpath(path))
    via = "" if os.path.abspath(path) == str(real) else f" (beside {real}, which {name} links to)"
    for suffix in ("-wal", "-journal", "-shm"):
        kind = kind_of(str(real) + suffix)
        if kind is not None:
            raise fail(f"{real.name}{suffix}{via} is {kind}, not a regular file; SQLite would block or "
                       "fail on it, so it is not audited")
    uri = real.as_uri()
    if header[18] == 2 or header[19] == 2:  # write-ahead logging
        log = Path(str(real) + "-wal")
        if log.exists() and log.stat().st_size > 0:
            raise fail(f"its write-ahead log ({log.name}){via} holds transactions not yet in the database "
                       "file; a read-only audit would miss them. Close every ContextFS process (or "
                       "checkpoint the log) and audit again.")
        return uri + "?mode=ro&immutable=1"
    journal = Path(str(real) + "-journal")
    if journal.exists() and journal.stat().st_size > 0:  # a hot (or possibly hot) rollback journal
        raise fail(_HOT_JOURNAL.format(journal=f"{journal.name}{via}"))
    return uri + "?mode=ro"


_HOT_JOURNAL = ("a rollback journal ({journal}) is present: a write is in progress or was interrupted "
                "(a hot journal). A read-only audit cannot recover it; let ContextFS finish (or open the "
                "database once with ContextFS) and audit again.")


def _open(path: str) -> sqlite3.Connection:
    uri = _read_only_uri(path)
    name = display_name(path)
    try:
        conn = sqlite3.connect(uri, uri=True, timeout=0.25, isolation_level=None)
    except (sqlite3.Error, UnicodeDecodeError) as e:
        raise AuditError(f"{name}: cannot open read-only: {_message(e)}") from None
    try:
        conn.execute("BEGIN")  # hold a shared lock: one consistent snapshot for the whole read
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except sqlite3.OperationalError as e:
        conn.close()
        if "locked" in str(e) or "busy" in str(e):
            raise AuditError(f"{name}: the database is locked by another connection (a write is in progress); "
                             "audit again when it is done") from None
        if "readonly" in str(e):  # SQLite wanted to roll back a hot journal, which read-only cannot do
            raise AuditError(f"{name}: " + _HOT_JOURNAL.format(journal="-journal")) from None
        raise AuditError(f"{name}: cannot read: {_message(e)}") from None
    except (sqlite3.DatabaseError, UnicodeDecodeError) as e:
        conn.close()
        raise AuditError(f"{name}: corrupt or not a database: {_message(e)}") from None
    return conn


def _message(e: Exception) -> str:
    """An error's message in one line; SQLite's own text when Python could not decode it as UTF-8."""
    if isinstance(e, UnicodeDecodeError):
        text = e.object.decode("utf-8", "replace") if isinstance(e.object, bytes) else str(e.object)
        return f"{' '.join(text.split())} (SQLite's message was not UTF-8)"
    return " ".join(str(e).split())


def _check_schema(conn: sqlite3.Connection, path: str) -> tuple[str | None, dict[str, Any], dict[str, Any]]:
    name = display_name(path)  # names from the file are shown the same way: each refusal stays one line
    tables = {name for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    missing = [t for t in ("memories", "memory_edges") if t not in tables]
    if missing:
        raise AuditError(f"{name}: not a ContextFS database: no table {' or '.join(missing)} "
                         f"(tables: {', '.join(map(display_name, sorted(tables)[:8])) or 'none'})")
    revision = None
    if "alembic_version" in tables:
        revs = [str(r) for (r,) in conn.execute("SELECT version_num FROM alembic_version")]
        if revs:
            revision = revs[0]
            if revision not in KNOWN_REVISIONS:
                raise AuditError(f"{name}: written by a newer or unknown ContextFS schema (alembic revision "
                                 f"{revision!r}; this audit knows contextfs 0.2.35's revisions "
                                 f"{KNOWN_REVISIONS[0]}–{KNOWN_REVISIONS[-1]})")
    mem, edg = _columns(conn, "memories"), _columns(conn, "memory_edges")
    for table, cols, needed, known in (("memories", mem, _MEMORY_NEEDED, _MEMORY_KNOWN),
                                       ("memory_edges", edg, _EDGE_NEEDED, _EDGE_KNOWN)):
        lack = [c for c in needed if c not in cols]
        if lack:
            raise AuditError(f"{name}: not a ContextFS database: table {table} has no column {', '.join(lack)}")
        unknown = sorted(c for c, (notnull, default) in cols.items() if c not in known and notnull and not default)
        if unknown:
            raise AuditError(f"{name}: written by a newer ContextFS schema: table {table} requires column(s) "
                             f"{', '.join(map(display_name, unknown))} that contextfs 0.2.35 does not have")
    return revision, mem, edg


# =========================================================================== reading


def read_database(path: str | os.PathLike[str], view: str = "contextfs", *,
                  progress: TextIO | None = None) -> Database:
    """Read a ContextFS database read-only into a coalg store (see the module docstring for the views).

    Raises :class:`AuditError` with one clear sentence when the file cannot be
    audited: missing, a directory, not SQLite, corrupt, locked by a writer, not a
    ContextFS database, or written by a newer schema.
    """
    if view not in VIEWS:
        raise AuditError(f"unknown view {view!r}; known: {', '.join(VIEWS)}")
    path = os.fspath(path)
    conn = _open(path)
    bar = Progress(progress)
    try:
        revision, mem, edg = _check_schema(conn, path)
        has_del = "deleted_at" in mem
        cols = ", ".join(c if c in mem else f"NULL AS {c}" for c in
                         ("id", "content", "type", "tags", "summary", "namespace_id", "metadata", "deleted_at"))
        n_rows = conn.execute("SELECT count(*) FROM memories").fetchone()[0]
        scan = "" if _without_rowid(conn, "memories") else " ORDER BY rowid"
        tick = bar.phase("reading records", n_rows)
        records: dict[str, Record] = {}
        all_rows: dict[str, tuple[str, bool]] = {}
        order: list[str] = []
        problems: list[tuple[str, str]] = []
        seen_twice: dict[str, int] = {}
        for k, (i, content, ty, tags, summary, ns, meta, deleted) in enumerate(
                conn.execute(f"SELECT {cols} FROM memories{scan}"), start=1):
            i, ns = str(i), str(ns)
            gone = has_del and deleted is not None
            if i in all_rows:  # no primary key: the same id in two rows is reported, never merged
                seen_twice[i] = seen_twice.get(i, 1) + 1
                tick(k)
                continue
            for column, cell in (("tags", tags), ("metadata", meta)):
                if isinstance(cell, bytes) and not _utf8(cell):
                    problems.append((i, (f"its {column} cell is a BLOB of {len(cell)} bytes that are not "
                                         "UTF-8 text, so not JSON: read as empty")))
            all_rows[i] = (ns, gone)
            if not gone:
                order.append(i)
                try:
                    records[i] = record_of_row(content, ty, tags, summary, ns, meta)
                except CellError as bad:
                    raise AuditError(f"{display_name(path)}: memories row id {i[:40]!r}: {bad}") from None
            tick(k)
        n_edges = conn.execute("SELECT count(*) FROM memory_edges").fetchone()[0]
        tick = bar.phase("reading edges", n_edges)
        edel = "deleted_at" if "deleted_at" in edg else "NULL"
        edges: set[Edge] = set()
        edge_deleted: set[Edge] = set()
        for k, (src, rel, dst, deleted) in enumerate(
                conn.execute(f"SELECT from_id, relation, to_id, {edel} FROM memory_edges"), start=1):
            tick(k)
            r = relation_of(rel)
            if r is None:
                continue  # a label outside EdgeRelation: not a lineage edge of the model
            e = Edge(str(src), r, str(dst))
            if deleted is not None:
                edge_deleted.add(e)
                if view == "model":
                    continue
            edges.add(e)
        conn.execute("COMMIT")
        problems += [(i, (f"{n} rows of memories have this id (the table has no primary key): the first "
                          "row is read, as recall's scan meets it first")) for i, n in seen_twice.items()]
    except (sqlite3.DatabaseError, UnicodeDecodeError) as err:
        raise AuditError(f"{display_name(path)}: corrupt database: {_message(err)}") from None
    finally:
        conn.close()
    # edges may dangle (that is what the audit looks for); they are Edge values already, so the store is
    # built without re-checking each one (Store.with_edges would rebuild 100,000 edges: ~0.5 s)
    store = Store._trusted(Store.of(records).records, frozenset(edges))  # type: ignore[arg-type]
    return Database(path, view, revision, store, all_rows, tuple(order), frozenset(edge_deleted),
                    tuple(sorted(problems)))


def _utf8(cell: bytes) -> bool:
    try:
        cell.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _without_rowid(conn: sqlite3.Connection, table: str) -> bool:
    """Whether ``table`` is a WITHOUT ROWID table (it has no ``rowid``; its scan follows the primary key)."""
    row = conn.execute("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", (table,)).fetchone()
    sql = row[0] if row and isinstance(row[0], str) else ""
    return re.search(r"\bWITHOUT\s+ROWID\b", sql, re.IGNORECASE) is not None
