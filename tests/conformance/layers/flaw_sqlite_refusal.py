"""Planted flaw (S1, and so S2): an SQLite layer whose split writes its first part before it checks the record exists.

Design: sqlite3 in memory, autocommit.  Lineage as edges both ways plus
metadata, delete cascades.  ``split`` inserts each part as it goes; asked to
split an identifier it does not hold, it notices only after the first insert
and raises, and nothing is rolled back: the refusal leaves a stray row.  That
one flaw breaks two clauses: S1 (the store keeps an edge the call never wrote
on its named records) and S2 (a failing call must change nothing).
"""

from __future__ import annotations

import json
import sqlite3

DESIGN = "SQLite without transactions: a refused split leaves a row behind"
FLAW = "split of an unknown identifier inserts a part, then raises without rolling back"
EXPECTED = {"L1": True, "L2": True, "L3": True, "L4i": True, "L4ii": True, "L5": True, "L6": True, "L7": True,
            "S1": False, "S2": False, "S3": True, "S4": True}

REV = {"evolved_from": "evolved_into", "merged_from": "merged_into", "split_from": "split_into",
       "supersedes": "superseded_by"}


class NoRollback:
    def __init__(self) -> None:
        self.con = sqlite3.connect(":memory:", isolation_level=None)
        self.con.execute("CREATE TABLE r (id TEXT PRIMARY KEY, body TEXT)")
        self.con.execute("CREATE TABLE e (a TEXT, rel TEXT, b TEXT, PRIMARY KEY (a, rel, b))")
        self.n = 0

    def close(self):
        self.con.close()

    def _get(self, i):
        row = self.con.execute("SELECT body FROM r WHERE id = ?", (i,)).fetchone()
        if row is None:
            raise KeyError(i)
        return json.loads(row[0])

    def _put(self, body):
        self.n += 1
        i = f"q{self.n}"
        self.con.execute("INSERT INTO r VALUES (?, ?)", (i, json.dumps(body)))
        return i

    def _edge(self, a, rel, b):
        self.con.execute("INSERT OR IGNORE INTO e VALUES (?, ?, ?)", (a, rel, b))
        self.con.execute("INSERT OR IGNORE INTO e VALUES (?, ?, ?)", (b, REV[rel], a))

    def save(self, content, *, type="fact", namespace="global", tags=(), metadata=None, valid_time=None):
        return self._put({"content": content, "type": type, "namespace": namespace, "tags": sorted(set(tags)),
                          "metadata": dict(metadata or {}), "valid_time": valid_time})

    def evolve(self, id, content, *, valid_time=None):
        r = self._get(id)
        j = self._put({**r, "content": content, "metadata": {"evolved_from": id},
                       "valid_time": r["valid_time"] if valid_time is None else valid_time})
        self._edge(j, "evolved_from", id)
        return j

    def merge(self, ids, *, valid_time=None):
        rs = [self._get(i) for i in ids]
        if len(set(ids)) < 2 or len(set(ids)) != len(ids) or len({r["namespace"] for r in rs}) != 1:
            raise ValueError("merge: distinct records of one namespace")
        types = [r["type"] for r in rs]
        ty = min(set(types), key=lambda t: (-types.count(t), t))
        vts = [r["valid_time"] for r in rs if r["valid_time"] is not None]
        j = self._put({"content": " ".join(r["content"] for r in rs), "type": ty, "namespace": rs[0]["namespace"],
                       "tags": sorted({t for r in rs for t in r["tags"]}), "metadata": {"merged_from": sorted(ids)},
                       "valid_time": valid_time if valid_time is not None else max(vts, default=None)})
        for i in ids:
            self._edge(j, "merged_from", i)
        return j

    def split(self, id, parts, *, valid_time=None):
        row = self.con.execute("SELECT body FROM r WHERE id = ?", (id,)).fetchone()
        r = json.loads(row[0]) if row else {"type": "fact", "namespace": "global", "tags": [], "valid_time": None}
        made = []
        for p in parts:
            made.append(self._put({"content": p, "type": r["type"], "namespace": r["namespace"], "tags": r["tags"],
                                   "metadata": {"split_from": id},
                                   "valid_time": r["valid_time"] if valid_time is None else valid_time}))
            if row is None:
                raise KeyError(id)  # the slip: the row just inserted stays
        if len(made) < 2:
            raise ValueError("split into two or more parts")
        for j in made:
            self._edge(j, "split_from", id)
        return made

    def supersede(self, old, new):
        self._get(old)
        self._get(new)
        if old == new:
            raise ValueError("supersede: two different records")
        self._edge(new, "supersedes", old)

    def delete(self, id):
        self._get(id)
        self.con.execute("DELETE FROM e WHERE a = ? OR b = ?", (id, id))
        self.con.execute("DELETE FROM r WHERE id = ?", (id,))

    def records(self):
        return {i: json.loads(b) for i, b in self.con.execute("SELECT id, body FROM r ORDER BY rowid")}

    def edges(self):
        return [tuple(x) for x in self.con.execute("SELECT a, rel, b FROM e ORDER BY a, rel, b")]


FACTORY = NoRollback
