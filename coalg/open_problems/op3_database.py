"""Open problem 3 on data: reconciling a ContextFS SQLite database into a new file.

:func:`reconcile_database` reads the live records' ancestry metadata and every
edge of a ContextFS database (as contextfs 0.2.35 writes it), runs
:func:`~coalg.open_problems.op3.reconcile` (the conflict policy of Proposition
5.14's repair), and writes the result to a *new* file: recovered and inverse
edges inserted, disagreeing ancestry keys rewritten.  The original is opened
read-only and never written.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from ..model import META_KEYS, Edge, FrozenMap, Id, Record, Relation, Store, thaw
from .op3 import Report, reconcile

__all__ = ["reconcile_database", "thaw_meta"]


def _read(conn: sqlite3.Connection) -> tuple[Store, dict[Id, Any]]:
    """The live records' ancestry metadata and every edge, as a store; and each record's whole metadata."""
    recs: dict[Id, Record] = {}
    raw: dict[Id, Any] = {}
    for i, meta in conn.execute("SELECT id, metadata FROM memories WHERE deleted_at IS NULL"):
        try:
            m = json.loads(meta) if meta else {}
        except (json.JSONDecodeError, TypeError):
            m = {}
        if not isinstance(m, dict):
            m = {}
        raw[str(i)] = m
        recs[str(i)] = Record("", metadata=FrozenMap(_ancestry_only(m)))
    edges = []
    for src, rel, dst in conn.execute("SELECT from_id, relation, to_id FROM memory_edges"):
        try:
            edges.append(Edge(str(src), Relation(rel), str(dst)))
        except ValueError:
            continue
    return Store.of(recs, edges), raw


def _ancestry_only(m: dict[str, Any]) -> dict[str, Any]:
    """The ancestry keys of a metadata dict whose values are identifiers (one, or a list)."""
    out: dict[str, Any] = {}
    for key in META_KEYS.values():
        v = m.get(key)
        if isinstance(v, str) or (isinstance(v, list) and all(isinstance(x, str) for x in v)):
            out[key] = v
    return out


def reconcile_database(src: str | Path, dst: str | Path, *, now: str = "1970-01-01T00:00:00+00:00") -> Report:
    """Reconcile a ContextFS SQLite database into a new file ``dst``; ``src`` is opened read-only.

    The copy is made with SQLite's backup API from a ``mode=ro`` connection, so
    the original file is never written.  In the copy, recovered and inverse edges
    are inserted (``created_by = 'coalg-reconcile'``, ``created_at = now``), and
    every live record whose ancestry keys disagree with its edges gets them
    rewritten in its ``metadata`` JSON (other keys untouched).  Soft-deleted rows
    count as missing records, as ``recall`` sees them; their rows are not changed.

    Raises ``FileExistsError`` if ``dst`` exists, and refuses ``dst == src``.
    """
    src, dst = Path(src), Path(dst)
    if dst.exists():
        raise FileExistsError(f"{dst} exists; reconcile_database writes a new file")
    if dst.resolve() == src.resolve():
        raise ValueError("the destination must differ from the source")
    if not src.is_file():
        raise FileNotFoundError(src)
    ro = sqlite3.connect(f"file:{src}?mode=ro", uri=True)
    try:
        out = sqlite3.connect(dst)
        try:
            ro.backup(out)
        finally:
            out.close()
    finally:
        ro.close()
    conn = sqlite3.connect(dst)
    try:
        s, raw = _read(conn)
        fixed, rep = reconcile(s)
        new_edges = sorted(fixed.edges - s.edges)
        conn.executemany(
            "INSERT OR IGNORE INTO memory_edges (from_id, to_id, relation, weight, created_at, created_by, metadata) "
            "VALUES (?, ?, ?, 1.0, ?, 'coalg-reconcile', '{}')",
            [(e.source, e.target, e.relation.value, now) for e in new_edges])
        for i in sorted({i for i, _ in rep.metadata_rewritten}):
            meta = dict(raw[i])
            for key in META_KEYS.values():
                meta.pop(key, None)
            meta.update(thaw_meta(fixed.records[i].metadata))
            conn.execute("UPDATE memories SET metadata = ? WHERE id = ?", (json.dumps(meta, sort_keys=True), i))
        conn.commit()
    finally:
        conn.close()
    return rep


def thaw_meta(m: FrozenMap) -> dict[str, Any]:
    """The ancestry keys of reconciled metadata as JSON values (lists for tuples)."""
    return {k: thaw(v) for k, v in m.items() if k in META_KEYS.values()}
