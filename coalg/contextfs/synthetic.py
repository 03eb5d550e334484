"""ContextFS databases written without the package: a tiny demo, and a large generated one.

Both are plain ``sqlite3`` in contextfs 0.2.35's schema
(:data:`~coalg.contextfs.tables.SCHEMA`), so the audit
(:mod:`coalg.contextfs.auditing`) can be shown, tested and timed where the
package is not installed.  The large one is what ``bench/audit_bench.py`` times
and what the book audits in its chapter on ContextFS at runtime: its rows have
the shapes the package writes, with each kind of finding planted (Def. 3.21's
L2, L3, L7; Propositions 5.2 and 6.3).

>>> import tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "small.db")
>>> stats = make_synthetic_database(path, 600)
>>> stats["records"], stats["hard_deleted"], stats["soft_deleted"]
(600, 1, 1)
"""

from __future__ import annotations

import json
import os
import random
import sqlite3
from datetime import UTC, datetime, timedelta

from .tables import SCHEMA

__all__ = ["make_demo_database", "make_synthetic_database"]


def make_demo_database(path: str | os.PathLike[str]) -> None:
    """Write a two-record ContextFS-schema database with one prefix-evolve (tests and docs)."""
    conn = sqlite3.connect(os.fspath(path))
    try:
        conn.executescript(SCHEMA)
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


def _ids(rng: random.Random, n: int) -> list[str]:
    """``n`` distinct ContextFS-shaped identifiers (8 hex, '-', 3 hex)."""
    ids: list[str] = []
    seen: set[str] = set()
    while len(ids) < n:
        h = f"{rng.getrandbits(44):011x}"
        i = f"{h[:8]}-{h[8:]}"
        if i not in seen:
            seen.add(i)
            ids.append(i)
    return ids


def make_synthetic_database(path: str | os.PathLike[str], n: int, seed: int = 7) -> dict[str, int]:
    """Write a ContextFS-schema database of ``n`` records at ``path``; returns what was planted.

    Records in four namespaces, most of them plain saves, the rest evolve chains
    (metadata and a pair of edges each, as ``MemoryLineage.evolve`` writes them)
    and merges of two records; then a few hard deletes (record and incident edges
    removed), a few soft deletes (record and edges get ``deleted_at``), one-way
    edges and supersedes of missing ids.  Identifiers come from a generator
    seeded with ``seed``, so at 100,000 records some 8-character handles collide
    (Remark 6.8).  The same arguments write the same rows.
    """
    rng = random.Random(seed)
    ids = _ids(rng, n + max(1, n // 500))  # the extra ones are hard-deleted below: n rows remain
    spaces = ("team-a", "team-b", "team-c", "personal")
    base = datetime(2026, 1, 1)
    rows, edges = [], []
    stats = {"evolved": 0, "merged": 0, "soft_deleted": 0, "hard_deleted": 0, "one_way": 0, "superseded_missing": 0}
    ns_of: dict[str, str] = {}
    for k, i in enumerate(ids):
        t = (base + timedelta(seconds=k)).isoformat()
        meta: dict[str, object] = {}
        ns = spaces[k % 4]
        roll = rng.random()
        if k > 10 and roll < 0.25:  # evolve of an earlier record
            parent = ids[rng.randrange(k)]
            ns = ns_of[parent]
            meta = {"evolved_from": parent, "evolution_timestamp": t + "+00:00", "change_reason": "observation"}
            edges += [(i, parent, "evolved_from", t), (parent, i, "evolved_into", t)]
            stats["evolved"] += 1
        elif k > 10 and roll < 0.30:  # merge of two earlier records (the first argument's namespace)
            a, b = ids[rng.randrange(k)], ids[rng.randrange(k)]
            if a != b:
                ns = ns_of[a]
                meta = {"merged_from": [a, b], "merge_strategy": "union", "merge_timestamp": t + "+00:00"}
                for src in (a, b):
                    edges += [(i, src, "merged_from", t), (src, i, "merged_into", t)]
                stats["merged"] += 1
        ns_of[i] = ns
        rows.append((i, f"memory {k}: " + "x" * rng.randrange(20, 200), rng.choice(("fact", "decision", "episodic")),
                     json.dumps([f"t{k % 17}"]), ns, t, t, json.dumps(meta)))
    edge_set = {(f, to, r): t for f, to, r, t in edges}
    # hard deletes: remove the record and its incident edges (StorageRouter.delete)
    dead = set(rng.sample(ids[: max(1, n // 2)], max(1, n // 500)))
    rows = [r for r in rows if r[0] not in dead]
    edge_set = {k: v for k, v in edge_set.items() if k[0] not in dead and k[1] not in dead}
    stats["hard_deleted"] = len(dead)
    # soft deletes: deleted_at on the record and its edges (ContextFS.delete, the default)
    soft = set(rng.sample([r[0] for r in rows], max(1, n // 500)))
    stats["soft_deleted"] = len(soft)
    now = datetime(2026, 2, 1, tzinfo=UTC).isoformat()
    # one-way edges (a failing second write) and supersedes of missing ids
    keys = sorted(edge_set)
    for key in rng.sample(keys, min(len(keys), max(1, len(keys) // 1000))):  # none when no edge was written
        edge_set.pop(key, None)
        stats["one_way"] += 1
    live = [r[0] for r in rows]
    for j in range(max(1, n // 1000)):
        new = rng.choice(live)
        edge_set[(new, f"gone{j:04d}-xyz", "supersedes")] = now
        edge_set[(f"gone{j:04d}-xyz", new, "superseded_by")] = now
        stats["superseded_missing"] += 1
    conn = sqlite3.connect(os.fspath(path))
    try:
        conn.executescript(SCHEMA)
        conn.execute("INSERT INTO alembic_version VALUES ('009')")
        conn.executemany(
            "INSERT INTO memories (id, content, type, tags, namespace_id, created_at, updated_at, metadata, "
            "deleted_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(*r, now if r[0] in soft else None) for r in rows])
        conn.executemany(
            "INSERT INTO memory_edges (from_id, to_id, relation, created_at, metadata, deleted_at) "
            "VALUES (?, ?, ?, ?, '{}', ?)",
            [(f, to, r, t, now if (f in soft or to in soft) else None) for (f, to, r), t in sorted(edge_set.items())])
        conn.commit()
    finally:
        conn.close()
    stats["records"] = len(rows)
    stats["edges"] = len(edge_set)
    return stats
