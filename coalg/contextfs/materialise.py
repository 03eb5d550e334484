"""A coalg store written into a ContextFS database, and edge writes made to fail.

The adapter (:mod:`coalg.contextfs.adapter`) runs each step α(s)(a, ξ) of the
paper's store coalgebra (§3.3) on a fresh database that holds ``s``:

* :func:`schema_template` — a SQLite file with ContextFS's schema, made once per
  process by the package's own alembic migrations 001–009 and then copied;
* :func:`materialise` — the records of ``s`` inserted in the order θ's ≺
  prescribes (:func:`insert_order`): a prefix ``LIKE`` query meets rows in rowid
  order, so θ's ≺ *is* the insertion order; types the package does not know are
  carried by unused ``MemoryType`` values (:func:`type_maps`);
* :func:`install_fault_trigger` — the injected edge-write faults of the laws'
  fault oracle (Def. 3.21's ``faults``): a SQLite ``BEFORE INSERT`` trigger on
  ``memory_edges`` that raises for exactly the writes :func:`fault_condition`
  names.  No ContextFS code is modified or patched.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from ..model import Evolve, Id, Letter, Link, Merge, Split, Store, Supersede, Theta, inverse, thaw
from .offline import modules, quiet_logs, sandbox
from .tables import EPOCH, stamp

__all__ = [
    "FAULT_MESSAGE",
    "fault_condition",
    "insert_order",
    "install_fault_trigger",
    "materialise",
    "schema_template",
    "type_maps",
]


# =========================================================================== the schema template


_TEMPLATE: Path | None = None


def schema_template() -> Path:
    """A SQLite file with ContextFS's schema, created once per process by its own migrations.

    A child process given ``COALG_CONTEXTFS_TEMPLATE`` (a parent's template) copies that file instead.
    """
    global _TEMPLATE
    if _TEMPLATE is None or not _TEMPLATE.exists():
        m = modules()
        path = sandbox().new_path("template.db")
        given = os.environ.get("COALG_CONTEXTFS_TEMPLATE")
        if given and Path(given).is_file():
            shutil.copyfile(given, path)
        else:
            with sandbox().env(), quiet_logs():
                m.runner.run_migrations(path)
        _TEMPLATE = path
    return _TEMPLATE


# =========================================================================== materialising a coalg store


_MEMORY_COLUMNS = ("id, content, type, tags, summary, namespace_id, created_at, updated_at, metadata, "
                   "content_hash, authoritative")


def insert_order(s: Store, theta: Theta) -> list[Id]:
    """Record identifiers in θ's ≺ order: the priority list first, then ascending (or descending)."""
    ids = sorted(s.records, reverse=theta.descending)
    first = [i for i in theta.id_priority if i in s.records]
    return first + [i for i in ids if i not in set(first)]


def type_maps(s: Store, extra: Iterable[str], member_values: Sequence[str]) -> tuple[dict[str, str], dict[str, str]]:
    """A bijection between the store's type names and ContextFS ``MemoryType`` values.

    Known types map to themselves.  A type the package does not know (a store
    read from a file, or built by hand, may carry any) is carried by a
    ``MemoryType`` value no record of the store uses, and mapped back on
    reading; the package treats types as opaque except in the merge tie-break.

    >>> type_maps(Store(), ["fact", "altered"], ["fact", "decision", "episodic"])
    ({'altered': 'decision', 'fact': 'fact'}, {'decision': 'altered', 'fact': 'fact'})
    """
    used = sorted({r.type for r in s.records.values()} | set(extra))
    known = set(member_values)
    free = [v for v in member_values if v not in used]
    to: dict[str, str] = {}
    for t in used:
        if t in known:
            to[t] = t
        else:
            if not free:
                raise ValueError(f"too many types unknown to ContextFS: {', '.join(used)}")
            to[t] = free.pop(0)
    return to, {v: k for k, v in to.items()}


def materialise(path: Path, s: Store, order: Sequence[Id], types_to: Mapping[str, str]) -> None:
    """Write ``s`` into a fresh copy of the schema at ``path``: records in ``order``, edges sorted."""
    shutil.copyfile(schema_template(), path)
    conn = sqlite3.connect(path)
    try:
        rows = []
        for i in order:
            r = s.records[i]
            rows.append((
                i, r.content, types_to[r.type], json.dumps(sorted(r.tags)), r.summary, r.namespace,
                stamp(r.created_at).isoformat(), stamp(r.updated_at if r.updated_at is not None else r.created_at)
                .isoformat(), json.dumps(thaw(r.metadata)), None, 0,
            ))
        conn.executemany(f"INSERT INTO memories ({_MEMORY_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?,?)", rows)
        conn.executemany(
            "INSERT INTO memory_edges (from_id, to_id, relation, weight, created_at, created_by, metadata) "
            "VALUES (?, ?, ?, 1.0, ?, 'coalg', '{}')",
            [(e.source, e.target, e.relation.value, EPOCH.isoformat()) for e in sorted(s.edges)],
        )
        conn.commit()
    finally:
        conn.close()


# =========================================================================== injected edge-write faults


def fault_condition(a: Letter, k: int) -> str | None:
    """SQL (over ``NEW``) that is true exactly for the ``k``-th edge write the call issues.

    Writes are numbered as in the model's coalgebra (:mod:`coalg.model.coalgebra`).
    A write is recognised by its label and, where a call issues several of one
    label, by the new record's own metadata (``merged_from[k]``, ``split_part``),
    which the package saves before it writes edges.

    >>> fault_condition(Evolve("id0001", "v"), 1)
    "NEW.relation = 'evolved_into'"
    """

    def q(x: str) -> str:
        return "'" + x.replace("'", "''") + "'"

    def meta_of(col: str, path: str) -> str:
        return f"json_extract((SELECT metadata FROM memories WHERE id = NEW.{col}), '{path}')"

    pair, second = divmod(k, 2)
    match a:
        case Evolve():
            rel = ("evolved_from", "evolved_into")[second] if pair == 0 else None
            return None if rel is None else f"NEW.relation = {q(rel)}"
        case Supersede():
            rel = ("supersedes", "superseded_by")[second] if pair == 0 else None
            return None if rel is None else f"NEW.relation = {q(rel)}"
        case Merge():
            if second == 0:
                return f"NEW.relation = 'merged_from' AND {meta_of('from_id', f'$.merged_from[{pair}]')} = NEW.to_id"
            return f"NEW.relation = 'merged_into' AND {meta_of('to_id', f'$.merged_from[{pair}]')} = NEW.from_id"
        case Split():
            if second == 0:
                return f"NEW.relation = 'split_from' AND {meta_of('from_id', '$.split_part')} = {pair + 1}"
            return f"NEW.relation = 'split_into' AND {meta_of('to_id', '$.split_part')} = {pair + 1}"
        case Link(source=i, relation=r, target=j):
            if pair != 0:
                return None
            if second == 0:
                return f"NEW.relation = {q(r.value)} AND NEW.from_id LIKE {q(i + '%')}"
            return f"NEW.relation = {q(inverse(r).value)} AND NEW.from_id LIKE {q(j + '%')}"
    return None


FAULT_MESSAGE = "coalg: injected edge-write failure"
"""What the injected fault raises (and the package logs)."""


def install_fault_trigger(path: Path, condition: str, name: str = "coalg_fault") -> None:
    """Add a ``BEFORE INSERT`` trigger on ``memory_edges`` that raises when ``condition`` holds.

    This is how a failing edge write is injected: the package's own ``INSERT``
    raises ``sqlite3.IntegrityError`` inside its log-and-continue handler.
    """
    conn = sqlite3.connect(path)
    try:
        conn.execute(
            f"CREATE TRIGGER {name} BEFORE INSERT ON memory_edges WHEN {condition} "
            f"BEGIN SELECT RAISE(ABORT, '{FAULT_MESSAGE}'); END"
        )
        conn.commit()
    finally:
        conn.close()
