"""ContextFS 0.2.35's two tables, ``memories`` and ``memory_edges``, read as a coalg store.

A ContextFS database holds the paper's store (§3.1) in two SQLite tables: one
row per record, with its ancestry metadata as a JSON column, and one row per
edge.  This module says how a row stands for a coalg value, for both readers of
this package: the adapter that runs the package (:mod:`coalg.contextfs.adapter`,
which reads back every step) and the read-only audit
(:mod:`coalg.contextfs.database`).

* :data:`SCHEMA` — the tables as the package's migrations 001–009 leave them,
  for databases written without the package (fixtures, benchmarks);
* :func:`stamp` / :func:`unstamp` — clock reading τ ↔ the datetime stored for it;
* :func:`record_of_row`, :func:`relation_of` — one row as a coalg record or label;
* :func:`read_sqlite_store` — the whole database as a coalg store.

>>> import sqlite3
>>> conn = sqlite3.connect(":memory:")
>>> conn.executescript(SCHEMA) and None
>>> read_sqlite_store(conn) == Store()
True
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from ..model import MAX_DEPTH, Edge, FrozenMap, Id, Record, Relation, Store, freeze

__all__ = [
    "EPOCH",
    "KNOWN_REVISIONS",
    "CellError",
    "SCHEMA",
    "json_cell",
    "read_sqlite_store",
    "record_of_row",
    "relation_of",
    "stamp",
    "unstamp",
]

SCHEMA = """
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

KNOWN_REVISIONS = ("001", "002", "003", "004", "005", "006", "007", "008", "009")
"""The alembic revisions of contextfs 0.2.35 (001 initial schema … 009 edge ``deleted_at``)."""


# =========================================================================== clock readings


EPOCH = datetime(2000, 1, 1)
"""Clock reading τ (an integer) is materialised as the naive datetime ``EPOCH + τ seconds``."""


def stamp(tau: int | None) -> datetime:
    """The datetime that stands for clock reading ``tau`` (``None`` → ``EPOCH``).

    >>> stamp(3).isoformat(), unstamp(stamp(3))
    ('2000-01-01T00:00:03', 3)
    """
    return EPOCH + timedelta(seconds=tau or 0)


def unstamp(value: datetime | str | None) -> int | None:
    """The clock reading a stored datetime stands for (whole seconds after :data:`EPOCH`)."""
    if value is None:
        return None
    dt = datetime.fromisoformat(value) if isinstance(value, str) else value
    if dt.tzinfo is not None:
        dt = dt.replace(tzinfo=None)
    return int((dt - EPOCH).total_seconds())


def _clock(value: str | None) -> int | None:
    if not value:
        return None
    try:
        return unstamp(value)
    except (ValueError, TypeError, OverflowError):
        return None


# =========================================================================== one row


class CellError(ValueError):
    """A JSON cell of a row that no record can hold (nested deeper than the records' limit); names the column."""


def json_cell(text: Any, default: Any, column: str = "cell") -> Any:
    """The value of a JSON column (``tags``, ``metadata``); ``default`` when empty or not JSON.

    A cell stored as a BLOB is read as the UTF-8 text of its bytes (``default``
    when they are not UTF-8); a number in the cell is not JSON text either.

    Raises :class:`CellError` when the JSON nests deeper than a record may
    hold (:data:`coalg.model.records.MAX_DEPTH`), rather than overflowing the stack.

    >>> json_cell('["a", "b"]', [])
    ['a', 'b']
    >>> json_cell(b'{"k": 1}', {}), json_cell(b"\\xff", {}), json_cell(7, [])
    ({'k': 1}, {}, [])
    >>> json_cell("[" * 200 + "]" * 200, [], "tags")
    Traceback (most recent call last):
    ...
    coalg.contextfs.tables.CellError: tags: value nested more than 100 levels deep (maps, lists and sets); records hold at most that
    """
    if text is None or text == "" or text == b"":
        return default
    if isinstance(text, (bytes, bytearray, memoryview)):  # a BLOB cell: JSON only if its bytes are UTF-8
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError:
            return default
    if not isinstance(text, str):  # a number stored in the cell: not JSON text
        return default
    try:
        value = json.loads(text)
    except RecursionError:
        raise CellError(f"{column}: JSON nested too deeply (more than the stack allows)") from None
    except (TypeError, ValueError):
        return default
    if text.count("[") + text.count("{") > MAX_DEPTH:  # deep nesting needs that many brackets
        try:
            freeze(value)  # depth-bounded: refuses what records cannot hold before anything recurses on it
        except ValueError as e:
            raise CellError(f"{column}: {e}") from None
    return value


def _metadata(m: Any) -> FrozenMap:
    """A record's metadata from its JSON value: a JSON object, whose values a record holds as they are
    (:func:`json_cell` has refused one nested too deeply); any other value is no metadata."""
    return FrozenMap(m) if isinstance(m, dict) else FrozenMap()


def record_of_row(content: Any, memory_type: Any, tags: Any, summary: Any, namespace: Any, metadata: Any, *,
                  created_at: int | None = None, updated_at: int | None = None,
                  types_back: Mapping[str, str] | None = None) -> Record:
    """The coalg record a row of ``memories`` holds (``tags`` and ``metadata`` as their JSON text).

    ``types_back`` renames the stored type (the adapter carries types ContextFS
    does not know under unused ``MemoryType`` values).  Raises :class:`CellError`
    for a ``tags`` or ``metadata`` cell nested beyond the limit.
    """
    ty = str(memory_type)
    tag_list = json_cell(tags, [], "tags")
    return Record(
        content=content if isinstance(content, str) else str(content),
        type=(types_back or {}).get(ty, ty),
        namespace=str(namespace),
        tags=frozenset(str(t) for t in tag_list) if isinstance(tag_list, list) else frozenset(),
        summary=summary if isinstance(summary, str) else None,
        metadata=_metadata(json_cell(metadata, {}, "metadata")),
        created_at=created_at,
        updated_at=updated_at,
    )


_LABELS = {r.value: r for r in Relation}


def relation_of(label: Any) -> Relation | None:
    """The edge label a ``relation`` cell names; ``None`` for a label the model does not know."""
    return _LABELS.get(label)


# =========================================================================== the whole database


def read_sqlite_store(
    conn: sqlite3.Connection,
    *,
    live_only: bool = True,
    types_back: Mapping[str, str] | None = None,
    clocks: bool = True,
) -> Store:
    """The coalg store held by a ContextFS database (``memories`` and ``memory_edges``).

    ``live_only`` keeps only records with ``deleted_at IS NULL`` (what ``recall``
    sees); edges are read regardless of their ``deleted_at`` (as every ContextFS
    edge and lineage query reads them).  ``clocks`` converts ``created_at`` /
    ``updated_at`` to clock readings (:func:`unstamp`); without it they are ``None``.
    """
    where = " WHERE deleted_at IS NULL" if live_only else ""
    records: dict[Id, Record] = {}
    rows = conn.execute(
        "SELECT id, content, type, tags, summary, namespace_id, created_at, updated_at, metadata "
        f"FROM memories{where}"
    )
    for i, content, ty, tags, summary, ns, created, updated, meta in rows:
        records[str(i)] = record_of_row(
            content, ty, tags, summary, ns, meta, types_back=types_back,
            created_at=_clock(created) if clocks else None, updated_at=_clock(updated) if clocks else None,
        )
    edges = []
    for src, rel, dst in conn.execute("SELECT from_id, relation, to_id FROM memory_edges"):
        r = relation_of(rel)
        if r is not None:  # a label outside EdgeRelation cannot be a coalg edge
            edges.append(Edge(str(src), r, str(dst)))
    return Store.of(records, edges)
