"""An SQLite-backed layer (stdlib sqlite3, in memory) that keeps lineage as edges only.

Design: two tables, ``memory`` and ``link``.  Records carry no ancestry
metadata at all: who came from whom is only in the ``link`` table, written
both ways.  Deleting a row deletes its links in the same transaction.  Valid
time is a column.  The connection is closed by ``close()``.
"""

from __future__ import annotations

import json
import sqlite3

DESIGN = "SQLite; lineage as edges only (no ancestry metadata); valid time; delete cascades"
FLAW = None
EXPECTED = {"L1": True, "L2": True, "L3": True, "L4i": True, "L4ii": True, "L5": True, "L6": True, "L7": True,
            "S1": True, "S2": True, "S3": True, "S4": True}

BACK = {"evolved_from": "evolved_into", "merged_from": "merged_into", "split_from": "split_into",
        "supersedes": "superseded_by"}


class SqliteMemory:
    def __init__(self) -> None:
        self.db = sqlite3.connect(":memory:")
        self.db.executescript("""
            CREATE TABLE memory (id TEXT PRIMARY KEY, seq INTEGER, content TEXT, type TEXT, namespace TEXT,
                                 tags TEXT, metadata TEXT, valid_time TEXT);
            CREATE TABLE link (src TEXT, rel TEXT, dst TEXT, UNIQUE (src, rel, dst));
        """)
        self.seq = 0

    def close(self):
        self.db.close()

    def _row(self, id):
        row = self.db.execute("SELECT content, type, namespace, tags, valid_time FROM memory WHERE id = ?",
                              (id,)).fetchone()
        if row is None:
            raise LookupError(f"unknown memory {id!r}")
        return row[0], row[1], row[2], json.loads(row[3]), json.loads(row[4])

    def _insert(self, content, type, namespace, tags, metadata, valid_time):
        self.seq += 1
        id = f"mem{self.seq:05d}"
        self.db.execute("INSERT INTO memory VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                        (id, self.seq, content, type, namespace, json.dumps(sorted(set(tags))),
                         json.dumps(metadata or {}), json.dumps(valid_time)))
        return id

    def _link(self, src, rel, dst):
        self.db.execute("INSERT OR IGNORE INTO link VALUES (?, ?, ?)", (src, rel, dst))
        self.db.execute("INSERT OR IGNORE INTO link VALUES (?, ?, ?)", (dst, BACK[rel], src))

    def save(self, content, *, type="fact", namespace="global", tags=(), metadata=None, valid_time=None):
        with self.db:
            return self._insert(content, type, namespace, tags, metadata, valid_time)

    def evolve(self, id, content, *, valid_time=None):
        _, ty, ns, tags, vt = self._row(id)
        with self.db:
            new = self._insert(content, ty, ns, tags, {}, vt if valid_time is None else valid_time)
            self._link(new, "evolved_from", id)
        return new

    def merge(self, ids, *, valid_time=None):
        rows = [self._row(i) for i in ids]
        if len(set(ids)) < 2 or len(set(ids)) != len(ids):
            raise ValueError("merge takes two or more distinct memories")
        if len({r[2] for r in rows}) != 1:
            raise ValueError("cannot merge across namespaces")
        types = sorted(r[1] for r in rows)
        ty = max(types, key=lambda t: (types.count(t), [-ord(c) for c in t]))
        vts = [r[4] for r in rows if r[4] is not None]
        with self.db:
            new = self._insert("\n".join(r[0] for r in rows), ty, rows[0][2], sorted({t for r in rows for t in r[3]}),
                               {}, valid_time if valid_time is not None else (max(vts) if vts else None))
            for i in ids:
                self._link(new, "merged_from", i)
        return new

    def split(self, id, parts, *, valid_time=None):
        _, ty, ns, tags, vt = self._row(id)
        if len(parts) < 2:
            raise ValueError("split into at least two parts")
        out = []
        with self.db:
            for p in parts:
                new = self._insert(p, ty, ns, tags, {}, vt if valid_time is None else valid_time)
                self._link(new, "split_from", id)
                out.append(new)
        return out

    def supersede(self, old, new):
        self._row(old)
        self._row(new)
        if old == new:
            raise ValueError("cannot supersede itself")
        with self.db:
            self._link(new, "supersedes", old)

    def delete(self, id):
        self._row(id)
        with self.db:
            self.db.execute("DELETE FROM link WHERE src = ? OR dst = ?", (id, id))
            self.db.execute("DELETE FROM memory WHERE id = ?", (id,))

    def records(self):
        out = {}
        for id, content, ty, ns, tags, meta, vt in self.db.execute(
                "SELECT id, content, type, namespace, tags, metadata, valid_time FROM memory ORDER BY seq"):
            out[id] = {"content": content, "type": ty, "namespace": ns, "tags": json.loads(tags),
                       "metadata": json.loads(meta), "valid_time": json.loads(vt)}
        return out

    def edges(self):
        return [tuple(r) for r in self.db.execute("SELECT src, rel, dst FROM link ORDER BY src, rel, dst")]

FACTORY = SqliteMemory
