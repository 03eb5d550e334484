"""Merges of one type only, each merged record noting its sources in text.

Design: records in a dict under ``mem_`` plus eight hex digits of a uuid4.
``merge`` refuses records of different namespaces or of different types (the
merged record keeps their common type) and writes the human-readable note
``"merged from <id>, <id>"`` into its metadata: identifiers inside a longer
string.  Lineage as edges both ways, no ancestry metadata.  Delete removes the
record and every edge touching it.  Written by someone outside the team: the
kit once failed it on L5, because its check for identifiers inside text merged
a fact with a decision, which this layer refuses.
"""

from __future__ import annotations

import uuid

DESIGN = "merge of one type only, noting its sources in text; random identifiers; edges only"
FLAW = None
EXPECTED = {"L1": True, "L2": True, "L3": True, "L4i": True, "L4ii": True, "L5": True, "L6": True, "L7": True,
            "S1": True, "S2": True, "S3": True, "S4": True}


INV = {"evolved_from": "evolved_into", "merged_from": "merged_into", "split_from": "split_into",
       "supersedes": "superseded_by"}


class TypedMergeNotes:
    def __init__(self):
        self.r = {}
        self.e = set()

    def _new(self, rec):
        i = "mem_" + uuid.uuid4().hex[:8]
        self.r[i] = rec
        return i

    def _get(self, i):
        if i not in self.r:
            raise KeyError(i)
        return self.r[i]

    def _link(self, a, rel, b):
        self.e |= {(a, rel, b), (b, INV[rel], a)}

    def save(self, content, *, type="fact", namespace="global", tags=(), metadata=None, valid_time=None):
        return self._new({"content": content, "type": type, "namespace": namespace, "tags": sorted(tags),
                          "metadata": dict(metadata or {}), "valid_time": valid_time})

    def evolve(self, id, content, *, valid_time=None):
        p = self._get(id)
        i = self._new({**p, "content": content, "metadata": {}, "valid_time": valid_time})
        self._link(i, "evolved_from", id)
        return i

    def merge(self, ids, *, valid_time=None):
        ids = list(ids)
        if len(ids) < 2 or len(set(ids)) != len(ids):
            raise ValueError("merge two or more distinct records")
        ps = [self._get(i) for i in ids]
        if len({p["namespace"] for p in ps}) != 1:
            raise ValueError("merge within one namespace")
        if len({p["type"] for p in ps}) != 1:
            raise ValueError("merge records of one type only")
        i = self._new({"content": "\n".join(p["content"] for p in ps), "type": ps[0]["type"],
                       "namespace": ps[0]["namespace"], "tags": sorted({t for p in ps for t in p["tags"]}),
                       "metadata": {"note": "merged from " + ", ".join(ids)}, "valid_time": valid_time})
        for j in ids:
            self._link(i, "merged_from", j)
        return i

    def split(self, id, parts, *, valid_time=None):
        p = self._get(id)
        out = []
        for part in parts:
            i = self._new({**p, "content": part, "metadata": {}, "valid_time": valid_time})
            self._link(i, "split_from", id)
            out.append(i)
        return out

    def supersede(self, old, new):
        self._get(old), self._get(new)
        if old == new:
            raise ValueError("same record")
        self._link(new, "supersedes", old)

    def delete(self, id):
        self._get(id)
        del self.r[id]
        self.e = {x for x in self.e if id not in (x[0], x[2])}

    def records(self):
        return {i: {**v, "tags": list(v["tags"]), "metadata": dict(v["metadata"])} for i, v in self.r.items()}

    def edges(self):
        return sorted(self.e)


FACTORY = TypedMergeNotes
