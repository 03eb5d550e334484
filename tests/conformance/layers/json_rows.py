"""Records kept as JSON text (sorted keys), edges as JSON lines; every read parses them back.

Design: each record is kept as JSON text with sorted keys and each edge as a
JSON line; every read parses them back (tags and parents come back as lists).
Identifiers are a hash of a serial number and the row.  Lineage is metadata
plus edges both ways.  Valid time is kept.
"""

from __future__ import annotations

DESIGN = "records and edges stored as JSON text, parsed on every read; edges and metadata; valid time"
FLAW = None
EXPECTED = {"L1": True, "L2": True, "L3": True, "L4i": True, "L4ii": True, "L5": True, "L6": True,
            "L7": True, "S1": True, "S2": True, "S3": True, "S4": True}

import hashlib
import json

INV = {"evolved_from": "evolved_into", "merged_from": "merged_into",
       "split_from": "split_into", "supersedes": "superseded_by"}


def dump(obj):
    return json.dumps(obj, sort_keys=True, separators=(",", ":"))


class JsonRows:
    def __init__(self):
        self.rows = {}      # id -> JSON text of the record
        self.lines = []     # JSON text of each edge, in the order written
        self.serial = 0

    def _id(self, row):
        self.serial += 1
        digest = hashlib.sha256(f"{self.serial}:{row}".encode()).hexdigest()
        return "j" + digest[:10]

    def _put(self, record):
        row = dump(record)
        i = self._id(row)
        self.rows[i] = row
        return i

    def _get(self, i):
        if i not in self.rows:
            raise KeyError(f"no record {i}")
        return json.loads(self.rows[i])

    def _link(self, a, rel, b):
        self.lines += [dump([a, rel, b]), dump([b, INV[rel], a])]

    def save(self, content, *, type="fact", namespace="global", tags=(), metadata=None,
             valid_time=None):
        return self._put({"content": content, "type": type, "namespace": namespace,
                          "tags": sorted(tags), "metadata": dict(metadata or {}),
                          "valid_time": valid_time})

    def _derive(self, base, content, meta, vt):
        return {"content": content, "type": base["type"], "namespace": base["namespace"],
                "tags": base["tags"], "metadata": meta, "valid_time": vt}

    def evolve(self, id, content, *, valid_time=None):
        old = self._get(id)
        vt = old["valid_time"] if valid_time is None else valid_time
        i = self._put(self._derive(old, content, {"evolved_from": id}, vt))
        self._link(i, "evolved_from", id)
        return i

    def merge(self, ids, *, valid_time=None):
        ids = list(ids)
        olds = [self._get(i) for i in ids]
        if len(set(ids)) != len(ids) or len(ids) < 2:
            raise ValueError("merge names two or more distinct records")
        if len({o["namespace"] for o in olds}) > 1:
            raise ValueError("merge within one namespace only")
        text = dump([o["content"] for o in olds])
        i = self._put(self._derive(olds[0], text, {"merged_from": ids}, valid_time))
        for j in ids:
            self._link(i, "merged_from", j)
        return i

    def split(self, id, parts, *, valid_time=None):
        old = self._get(id)
        vt = old["valid_time"] if valid_time is None else valid_time
        if not parts:
            raise ValueError("nothing to split into")
        out = [self._put(self._derive(old, p, {"split_from": id}, vt)) for p in parts]
        for i in out:
            self._link(i, "split_from", id)
        return out

    def supersede(self, old, new):
        self._get(old), self._get(new)
        if old == new:
            raise ValueError("same record")
        self._link(new, "supersedes", old)

    def delete(self, id):
        self._get(id)
        del self.rows[id]
        self.lines = [ln for ln in self.lines if id not in json.loads(ln)[::2]]

    def records(self):
        return {i: json.loads(row) for i, row in self.rows.items()}

    def edges(self):
        return [tuple(json.loads(ln)) for ln in self.lines]


FACTORY = JsonRows
