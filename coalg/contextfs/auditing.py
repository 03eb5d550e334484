"""Audit a ContextFS database against the laws, read-only.

:func:`read_database` opens a ContextFS SQLite file (tables ``memories`` and
``memory_edges``, as contextfs 0.2.35 writes them) **without writing anything**:
no journal, no ``-wal``/``-shm``, no change to the file's bytes or modification
time.  A rollback-journal database (ContextFS's default) is opened with
``mode=ro``, which takes only a shared read lock; a WAL database with an empty
or absent log is opened ``immutable=1``.  It returns a coalg
:class:`~coalg.model.store.Store` in one of two views:

* ``contextfs`` — what ContextFS's own queries see: records with
  ``deleted_at IS NULL`` (``recall``), and every edge whatever its
  ``deleted_at`` (the edge and lineage queries never filter it);
* ``model`` — what the paper's model says a delete leaves: live records and
  live edges only (a soft delete read as the model's delete).

:func:`audit` then lists findings, each naming the records involved:

========  ===================================================================
``L2``    a record's ancestry metadata (``evolved_from``, ``merged_from``,
          ``split_from``) disagrees with its ancestry edges
``L3``    a one-way edge: (x, r, y) without its inverse (y, r̄, x)
``L4ii``  a merge that crossed namespaces: a merged record whose
          ``merged_from`` sources lie in other namespaces
``L7``    a dangling edge: an endpoint that holds no record (lineage labels;
          other labels are reported as L7's strong form)
``5.2``   a survivor whose ancestry was cut by a delete: its metadata names a
          parent that is gone or soft-deleted
``6.3``   identifiers ambiguous at the 8-character handle the ContextFS CLI
          and MCP server print (``m.id[:8]``): ``recall`` of that handle returns
          one of them, chosen by row order
========  ===================================================================

Examples
--------
>>> import sqlite3, tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "tiny.db")
>>> make_demo_database(path)
>>> report = audit(path)
>>> report["view"], report["records"], report["edges"]
('contextfs', 2, 2)
>>> [(f["law"], f["records"]) for f in report["findings"]]
[('L7', ['ab12cd34', 'ab12cd34-002']), ('L7', ['ab12cd34-002', 'ab12cd34']), ('6.3', ['ab12cd34-001', 'ab12cd34-002'])]
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from ..errors import CoalgError
from ..model import ANCESTRY, LINEAGE, META_KEYS, Edge, FrozenMap, Record, Relation, Store, inverse

__all__ = [
    "FINDING_HELP",
    "HANDLE",
    "KNOWN_REVISIONS",
    "LAW_ORDER",
    "VIEWS",
    "AuditError",
    "Database",
    "audit",
    "audit_database",
    "format_report",
    "make_demo_database",
    "read_database",
]

VIEWS = ("contextfs", "model")
KNOWN_REVISIONS = ("001", "002", "003", "004", "005", "006", "007", "008", "009")
"""The alembic revisions of contextfs 0.2.35 (001 initial schema … 009 edge ``deleted_at``)."""
HANDLE = 8
"""The identifier prefix the ContextFS CLI and MCP server print (``m.id[:8]``)."""
LAW_ORDER = ("L2", "L3", "L4ii", "L7", "5.2", "6.3")

_MEMORY_NEEDED = ("id", "content", "type", "namespace_id", "metadata")
_MEMORY_KNOWN = frozenset((
    "id", "content", "type", "tags", "summary", "namespace_id", "source_file", "source_repo", "source_tool",
    "project", "session_id", "created_at", "updated_at", "metadata", "vector_clock", "content_hash", "deleted_at",
    "last_modified_by", "repo_url", "repo_name", "relative_path", "structured_data", "authoritative"))
_EDGE_NEEDED = ("from_id", "to_id", "relation")
_EDGE_KNOWN = frozenset(("from_id", "to_id", "relation", "weight", "created_at", "created_by", "metadata",
                         "vector_clock", "deleted_at", "last_modified_by"))

FINDING_HELP: dict[str, str] = {
    "L2": "edge-record agreement: the record's ancestry metadata (evolved_from / merged_from / split_from) names "
          "other parents than its ancestry edges. Causes: an edge write that failed inside ContextFS's "
          "log-and-continue handler, metadata copied from a parent by evolve/split/merge, an edge removed by "
          "a delete. Two readers of the same lineage (edges vs. the metadata fallback) then disagree.",
    "L3": "inverse closure: an edge (x, r, y) whose inverse (y, r-bar, x) is missing. Derivations write both "
          "edges in one try block, so a failure between them leaves half a pair; link() without "
          "bidirectional=True writes one edge on purpose.",
    "L4ii": "construction locality: a merged record filed in one namespace whose merged_from sources lie in "
            "other namespaces. merge files the result under its first argument's namespace and copies the "
            "others' content, tags and metadata into it: their payload is now readable there.",
    "L7": "referential integrity: an edge with an endpoint that holds no record. Causes: supersede of an id "
          "that does not exist, evolve/split by a prefix (the prefix string becomes the endpoint), a soft "
          "delete (its edges stay and lineage queries still walk them). Lineage labels first; other labels "
          "are L7's strong form.",
    "5.2": "stable ancestry broken: a surviving record's metadata names a parent that is gone or "
           "soft-deleted. A delete removed (or hid) an ancestor that a consumer may already have read.",
    "6.3": "prefix ambiguity: two or more records share the 8-character handle the ContextFS CLI and MCP "
           "server print. recall(handle) returns whichever row SQLite meets first (no namespace filter), and "
           "delete(handle) may pick another one.",
}
"""What each finding means and how it arises (shown by ``coalg audit --help``)."""


class AuditError(CoalgError, ValueError):
    """The file cannot be audited (missing, not SQLite, not ContextFS, corrupt, locked, newer schema)."""


# =========================================================================== opening read-only


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


def _columns(conn: sqlite3.Connection, table: str) -> dict[str, tuple[bool, bool]]:
    """name → (NOT NULL, has default) for each column of ``table``."""
    return {row[1]: (bool(row[3]), row[4] is not None or bool(row[5]))
            for row in conn.execute(f"PRAGMA table_info({table})")}


def _open(path: str) -> sqlite3.Connection:
    p = Path(path)
    if not p.exists():
        raise AuditError(f"{path}: no such file")
    if p.is_dir():
        raise AuditError(f"{path}: is a directory, not a database file")
    try:
        with open(p, "rb") as f:
            header = f.read(100)
    except OSError as e:
        raise AuditError(f"{path}: cannot read: {e.strerror or e}") from None
    if len(header) == 0:
        raise AuditError(f"{path}: empty file, not a SQLite database")
    if not header.startswith(b"SQLite format 3\x00"):
        raise AuditError(f"{path}: not a SQLite database (no 'SQLite format 3' header)")
    if len(header) < 100:
        raise AuditError(f"{path}: corrupt SQLite database (truncated header)")
    wal = header[18] == 2 or header[19] == 2
    uri = p.resolve().as_uri()
    if wal:
        log = Path(str(p) + "-wal")
        if log.exists() and log.stat().st_size > 0:
            raise AuditError(f"{path}: its write-ahead log ({log.name}) holds transactions not yet in the database "
                             "file; a read-only audit would miss them. Close every ContextFS process (or "
                             "checkpoint the log) and audit again.")
        uri += "?mode=ro&immutable=1"
    else:
        journal = Path(str(p) + "-journal")
        if journal.exists() and journal.stat().st_size > 0:  # a hot (or possibly hot) rollback journal
            raise AuditError(f"{path}: a rollback journal ({p.name}-journal) is present: a write is in progress "
                             "or was interrupted. A read-only audit cannot recover it; let ContextFS finish (or "
                             "open the database once with ContextFS) and audit again.")
        uri += "?mode=ro"
    try:
        conn = sqlite3.connect(uri, uri=True, timeout=0.25, isolation_level=None)
    except sqlite3.Error as e:
        raise AuditError(f"{path}: cannot open read-only: {e}") from None
    try:
        conn.execute("BEGIN")  # hold a shared lock: one consistent snapshot for the whole read
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except sqlite3.OperationalError as e:
        conn.close()
        if "locked" in str(e) or "busy" in str(e):
            raise AuditError(f"{path}: the database is locked by another connection (a write is in progress); "
                             "audit again when it is done") from None
        raise AuditError(f"{path}: cannot read: {e}") from None
    except sqlite3.DatabaseError as e:
        conn.close()
        raise AuditError(f"{path}: corrupt or not a database: {e}") from None
    return conn


def _check_schema(conn: sqlite3.Connection, path: str) -> tuple[str | None, dict[str, Any], dict[str, Any]]:
    tables = {name for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    missing = [t for t in ("memories", "memory_edges") if t not in tables]
    if missing:
        raise AuditError(f"{path}: not a ContextFS database: no table {' or '.join(missing)} "
                         f"(tables: {', '.join(sorted(tables)[:8]) or 'none'})")
    revision = None
    if "alembic_version" in tables:
        revs = [str(r) for (r,) in conn.execute("SELECT version_num FROM alembic_version")]
        if revs:
            revision = revs[0]
            if revision not in KNOWN_REVISIONS:
                raise AuditError(f"{path}: written by a newer or unknown ContextFS schema (alembic revision "
                                 f"{revision!r}; this audit knows contextfs 0.2.35's revisions "
                                 f"{KNOWN_REVISIONS[0]}–{KNOWN_REVISIONS[-1]})")
    mem, edg = _columns(conn, "memories"), _columns(conn, "memory_edges")
    for table, cols, needed, known in (("memories", mem, _MEMORY_NEEDED, _MEMORY_KNOWN),
                                       ("memory_edges", edg, _EDGE_NEEDED, _EDGE_KNOWN)):
        lack = [c for c in needed if c not in cols]
        if lack:
            raise AuditError(f"{path}: not a ContextFS database: table {table} has no column {', '.join(lack)}")
        unknown = sorted(c for c, (notnull, default) in cols.items() if c not in known and notnull and not default)
        if unknown:
            raise AuditError(f"{path}: written by a newer ContextFS schema: table {table} requires column(s) "
                             f"{', '.join(unknown)} that contextfs 0.2.35 does not have")
    return revision, mem, edg


# =========================================================================== reading


def _json(text: Any, default: Any) -> Any:
    if text is None or text == "":
        return default
    try:
        return json.loads(text)
    except (TypeError, ValueError):
        return default


class _Progress:
    """A one-line progress bar on a stream (updated at most ~50 times per phase)."""

    def __init__(self, stream: TextIO | None) -> None:
        self.stream = stream

    def phase(self, name: str, total: int) -> Callable[[int], None]:
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
    bar = _Progress(progress)
    try:
        revision, mem, edg = _check_schema(conn, path)
        has_del = "deleted_at" in mem
        has_edge_del = "deleted_at" in edg
        cols = ", ".join(c if c in mem else f"NULL AS {c}" for c in
                         ("id", "content", "type", "tags", "summary", "namespace_id", "metadata", "deleted_at"))
        n_rows = conn.execute("SELECT count(*) FROM memories").fetchone()[0]
        tick = bar.phase("reading records", n_rows)
        records: dict[str, Record] = {}
        all_rows: dict[str, tuple[str, bool]] = {}
        order: list[str] = []
        for k, (i, content, ty, tags, summary, ns, meta, deleted) in enumerate(
                conn.execute(f"SELECT {cols} FROM memories ORDER BY rowid"), start=1):
            i, ns = str(i), str(ns)
            gone = has_del and deleted is not None
            all_rows[i] = (ns, gone)
            if not gone:
                order.append(i)
                m = _json(meta, {})
                t = _json(tags, [])
                records[i] = Record(
                    content=content if isinstance(content, str) else str(content), type=str(ty), namespace=ns,
                    tags=frozenset(str(x) for x in t) if isinstance(t, list) else frozenset(),
                    summary=summary if isinstance(summary, str) else None,
                    metadata=_safe_meta(m),
                )
            tick(k)
        n_edges = conn.execute("SELECT count(*) FROM memory_edges").fetchone()[0]
        tick = bar.phase("reading edges", n_edges)
        edel = "deleted_at" if has_edge_del else "NULL"
        edges: set[Edge] = set()
        edge_deleted: set[Edge] = set()
        labels = {r.value: r for r in Relation}
        for k, (src, rel, dst, deleted) in enumerate(
                conn.execute(f"SELECT from_id, relation, to_id, {edel} FROM memory_edges"), start=1):
            tick(k)
            r = labels.get(rel)
            if r is None:
                continue  # a label outside EdgeRelation: not a lineage edge of the model
            e = Edge(str(src), r, str(dst))
            if deleted is not None:
                edge_deleted.add(e)
                if view == "model":
                    continue
            edges.add(e)
        conn.execute("COMMIT")
    except sqlite3.DatabaseError as e:
        raise AuditError(f"{path}: corrupt database: {e}") from None
    finally:
        conn.close()
    store = Store._trusted(Store.of(records).records, frozenset(edges))  # type: ignore[arg-type]
    return Database(path, view, revision, store, all_rows, tuple(order), frozenset(edge_deleted))


def _safe_meta(m: Any) -> FrozenMap:
    if not isinstance(m, dict):
        return FrozenMap()
    try:
        return FrozenMap(m)
    except TypeError:
        return FrozenMap({k: v for k, v in m.items() if isinstance(v, (str, int, float, bool, list, dict))})


# =========================================================================== findings


def _meta_parents(r: Record, rel: Relation) -> list[str]:
    value = r.metadata.get(META_KEYS[rel])
    if value is None:
        return []
    if isinstance(value, tuple):
        return [str(x) for x in value]
    return [str(value)]


def _finding(law: str, records: Iterable[str], detail: str, **extra: Any) -> dict[str, Any]:
    return {"law": law, "records": list(records), "detail": detail, **extra}


def _why_missing(db: Database, x: str, prefix_of: Mapping[str, str]) -> str:
    if x in db.all_rows:
        return "soft-deleted (deleted_at is set)"
    if x in prefix_of:
        return f"not an id but a prefix of {prefix_of[x]} (evolve/split by prefix write the prefix)"
    return "no such record (hard-deleted, or never existed)"


def audit_database(db: Database, *, progress: TextIO | None = None) -> list[dict[str, Any]]:
    """The findings on a database already read (deterministic order: by law, then records)."""
    s = db.store
    recs = s.records
    out: list[dict[str, Any]] = []
    tick = _Progress(progress).phase("checking", len(recs) + len(s.edges))
    n = 0
    by_source: dict[str, dict[Relation, set[str]]] = defaultdict(lambda: defaultdict(set))
    for e in s.edges:
        if e.relation in ANCESTRY:
            by_source[e.source][e.relation].add(e.target)
    endpoints = {x for e in s.edges for x in (e.source, e.target)} | {
        p for r in recs.values() for rel in ANCESTRY for p in _meta_parents(r, rel)}
    missing = sorted(x for x in endpoints if x not in recs)
    prefix_of = _prefix_owners(missing, db.all_rows)

    # L2, L4ii, 5.2 — per record
    for i, r in recs.items():
        n += 1
        tick(n)
        for rel in sorted(ANCESTRY, key=lambda x: x.value):
            meta = _meta_parents(r, rel)
            got = by_source.get(i, {}).get(rel, set())
            if set(meta) != got and (meta or got):
                key = META_KEYS[rel]
                said = f"metadata {key} = [{', '.join(meta)}]" if meta else f"no {key} metadata"
                edges_ = f"its {key} edges go to [{', '.join(sorted(got))}]" if got else f"it has no {key} edge"
                out.append(_finding("L2", [i, *sorted(set(meta) | got)], f"{i}: {said}, but {edges_}"))
        # a merge result: merged_from edges, or merged_from metadata and no ancestry edge at all (its edge
        # writes failed); a record that merely inherited merged_from from a merged parent is not one
        own = by_source.get(i, {})
        sources = _meta_parents(r, Relation.MERGED_FROM) if (own.get(Relation.MERGED_FROM) or not own) else []
        foreign = [(j, db.all_rows[j][0]) for j in sources if j in db.all_rows and db.all_rows[j][0] != r.namespace]
        if foreign:
            out.append(_finding("L4ii", [i, *[j for j, _ in foreign]],
                                f"merged record {i} is filed in namespace {r.namespace!r} but merged from "
                                + ", ".join(f"{j} (namespace {ns!r})" for j, ns in foreign)))
        for rel in sorted(ANCESTRY, key=lambda x: x.value):
            for j in _meta_parents(r, rel):
                if j in recs or (j not in db.all_rows and j in prefix_of):
                    continue
                out.append(_finding("5.2", [i, j],
                                    f"survivor {i}: its metadata {META_KEYS[rel]} names {j}, which is "
                                    f"{_why_missing(db, j, prefix_of)}; its ancestry was cut by a delete"))

    # L3 and L7 — per edge
    for e in sorted(s.edges):
        n += 1
        tick(n)
        soft = " (the edge itself is soft-deleted)" if e in db.edge_deleted else ""
        if Edge(e.target, inverse(e.relation), e.source) not in s.edges:
            out.append(_finding("L3", [e.source, e.target],
                                f"one-way edge ({e.source}, {e.relation.value}, {e.target}): no "
                                f"({e.target}, {inverse(e.relation).value}, {e.source}){soft}",
                                edge=[e.source, e.relation.value, e.target]))
        gone = [x for x in (e.source, e.target) if x not in recs]
        if gone:
            form = "lineage" if e.relation in LINEAGE else "strong"
            why = "; ".join(f"{x} is {_why_missing(db, x, prefix_of)}" for x in gone)
            out.append(_finding("L7", [e.source, e.target],
                                f"dangling {e.relation.value} edge ({e.source} -> {e.target}): {why}{soft}",
                                edge=[e.source, e.relation.value, e.target], form=form))

    # 6.3 — identifiers sharing the 8-character handle (LIKE is case-insensitive)
    groups: dict[str, list[str]] = defaultdict(list)
    for i in recs:
        groups[i[:HANDLE].lower()].append(i)
    rank = {i: k for k, i in enumerate(db.order)}
    for handle, ids in groups.items():
        if len(ids) < 2:
            continue
        ids = sorted(ids)
        spaces = sorted({recs[i].namespace for i in ids})
        first = min(ids, key=lambda i: rank.get(i, len(rank)))
        out.append(_finding("6.3", ids,
                            f"handle {handle!r} names {len(ids)} records in namespace(s) {', '.join(spaces)}; "
                            f"recall({handle!r}) returns {first} (first in row order), delete({handle!r}) "
                            f"removes {ids[0]} (first by id)",
                            handle=handle))
    return sorted(out, key=lambda f: (LAW_ORDER.index(f["law"]), f["records"], f["detail"]))


def _prefix_owners(candidates: Iterable[str], rows: Mapping[str, Any]) -> dict[str, str]:
    """For each candidate that is a proper prefix of a stored id (case-insensitive), the first such id."""
    cands = [c for c in candidates if c and c not in rows]
    if not cands:
        return {}
    ids = sorted(rows, key=str.lower)
    lowered = [x.lower() for x in ids]
    import bisect

    out = {}
    for c in cands:
        lc = c.lower()
        k = bisect.bisect_left(lowered, lc)
        owners = []
        while k < len(ids) and lowered[k].startswith(lc):
            if lowered[k] != lc:
                owners.append(ids[k])
            k += 1
        if owners:
            out[c] = ", ".join(owners[:3]) + (f" and {len(owners) - 3} more" if len(owners) > 3 else "")
    return out


# =========================================================================== the report


def audit(path: str | os.PathLike[str], view: str = "contextfs", *, progress: TextIO | None = None) -> dict[str, Any]:
    """Audit a ContextFS database: the JSON report of ``python -m coalg audit PATH --json``.

    ``{"database", "view", "records", "edges", "findings": [{"law", "records", "detail", …}]}``
    plus ``schema_revision``, ``view_reads`` (which rows the view keeps) and
    ``counts`` (findings per law).  Deterministic: the same file gives the same bytes.
    """
    db = read_database(path, view, progress=progress)
    findings = audit_database(db, progress=progress)
    counts = {law: sum(1 for f in findings if f["law"] == law) for law in LAW_ORDER}
    return {
        "database": os.fspath(path),
        "view": view,
        "records": len(db.store.records),
        "edges": len(db.store.edges),
        "findings": findings,
        "schema_revision": db.revision,
        "view_reads": _VIEW_TEXT[view],
        "counts": {k: v for k, v in counts.items() if v},
    }


_VIEW_TEXT = {
    "contextfs": "records with deleted_at IS NULL (as recall sees them); every edge, soft-deleted or not (as "
                 "ContextFS's edge and lineage queries read them)",
    "model": "records with deleted_at IS NULL and edges with deleted_at IS NULL (a soft delete read as the "
             "model's delete, which removes the record and its incident edges)",
}


def format_report(report: Mapping[str, Any], *, limit: int | None = 50) -> str:
    """The human-readable report of ``python -m coalg audit PATH``."""
    lines = [
        f"ContextFS database {report['database']} (schema revision {report['schema_revision'] or 'unknown'})",
        f"view '{report['view']}': {report['view_reads']}",
        f"{report['records']} records, {report['edges']} edges",
    ]
    fs = report["findings"]
    if not fs:
        lines.append("no findings: every law this audit checks holds on this database.")
        return "\n".join(lines) + "\n"
    lines.append(f"{len(fs)} finding(s): " + ", ".join(f"{law} ×{c}" for law, c in report["counts"].items()))
    lines.append("")
    shown = fs if limit is None else fs[:limit]
    for f in shown:
        lines.append(f"  {f['law']:<5} {f['detail']}")
    if len(shown) < len(fs):
        lines.append(f"  … {len(fs) - len(shown)} more (use --json for all)")
    lines.append("")
    lines.append("what each finding means: coalg audit --help")
    return "\n".join(lines) + "\n"


# =========================================================================== a tiny demo database


_SCHEMA = """
CREATE TABLE alembic_version (version_num VARCHAR(32) NOT NULL, CONSTRAINT alembic_version_pkc PRIMARY KEY (version_num));
CREATE TABLE memories (id TEXT NOT NULL, content TEXT NOT NULL, type TEXT NOT NULL, tags TEXT, summary TEXT,
  namespace_id TEXT NOT NULL, source_file TEXT, source_repo TEXT, source_tool TEXT, project TEXT, session_id TEXT,
  created_at TEXT NOT NULL, updated_at TEXT NOT NULL, metadata TEXT, vector_clock TEXT, content_hash TEXT,
  deleted_at TEXT, last_modified_by TEXT, repo_url TEXT, repo_name TEXT, relative_path TEXT, structured_data TEXT,
  authoritative INTEGER DEFAULT 0, PRIMARY KEY (id));
CREATE INDEX idx_memories_deleted_at ON memories (deleted_at);
CREATE INDEX idx_memories_namespace ON memories (namespace_id);
CREATE TABLE memory_edges (from_id TEXT NOT NULL, to_id TEXT NOT NULL, relation TEXT NOT NULL,
  weight FLOAT DEFAULT '1.0' NOT NULL, created_at TEXT NOT NULL, created_by TEXT, metadata TEXT, vector_clock TEXT,
  deleted_at TEXT, last_modified_by TEXT, PRIMARY KEY (from_id, to_id, relation));
CREATE INDEX idx_edges_from_id ON memory_edges (from_id);
CREATE INDEX idx_edges_to_id ON memory_edges (to_id);
"""
"""The tables of contextfs 0.2.35 the audit reads (as its migrations 001–009 leave them), for fixtures
and benchmarks that must not depend on the package."""


def make_demo_database(path: str | os.PathLike[str]) -> None:
    """Write a two-record ContextFS-schema database with one prefix-evolve (tests and docs)."""
    conn = sqlite3.connect(os.fspath(path))
    try:
        conn.executescript(_SCHEMA)
        conn.execute("INSERT INTO alembic_version VALUES ('009')")
        t = "2026-01-01T00:00:00"
        conn.executemany(
            "INSERT INTO memories (id, content, type, tags, namespace_id, created_at, updated_at, metadata) "
            "VALUES (?, ?, 'fact', '[]', 'global', ?, ?, ?)",
            [("ab12cd34-001", "v1", t, t, "{}"),
             ("ab12cd34-002", "v2", t, t, json.dumps({"evolved_from": "ab12cd34"}))])
        conn.executemany(
            "INSERT INTO memory_edges (from_id, to_id, relation, created_at, metadata) VALUES (?, ?, ?, ?, '{}')",
            [("ab12cd34-002", "ab12cd34", "evolved_from", t), ("ab12cd34", "ab12cd34-002", "evolved_into", t)])
        conn.commit()
    finally:
        conn.close()
