"""Identifiers derived from the record, and merged contents that list their sources by identifier.

Design: an identifier is the sha1 of the record's fields, a hyphen, and how
many records with that digest were made before (never reused).  Tags are
lower-cased and deduplicated, contents stripped.  A merged record's content
lists its sources (``"a | b  [from <id>, <id>]"``), parents taken in
identifier order; evolve and split note the parent under the metadata key
``see_also``.  Lineage as edges only, both ways; delete cascades.  Written by
someone outside the team: the kit once failed it on L5, comparing the saves
in two orders without renaming the identifiers inside the merged content.
"""

from __future__ import annotations

import hashlib
import json

DESIGN = "identifiers derived from the record; merged contents list their sources; edges only"
FLAW = None
EXPECTED = {"L1": True, "L2": True, "L3": True, "L4i": True, "L4ii": True, "L5": True, "L6": True, "L7": True,
            "S1": True, "S2": True, "S3": True, "S4": True}

INV = {"evolved_from": "evolved_into", "merged_from": "merged_into",
       "split_from": "split_into", "supersedes": "superseded_by"}


class Digested:
    def __init__(self):
        self.recs = {}
        self.es = set()
        self.seen = {}

    def _new(self, content, type, ns, tags, meta, vt):
        content = content.strip()
        tags = sorted({t.lower() for t in tags})
        blob = json.dumps([content, type, ns, tags, meta, vt], sort_keys=True, default=str)
        h = hashlib.sha1(blob.encode()).hexdigest()[:10]
        n = self.seen.get(h, 0)
        self.seen[h] = n + 1
        i = f"{h}-{n}"
        self.recs[i] = {"content": content, "type": type, "namespace": ns, "tags": tags, "metadata": meta,
                        "valid_time": vt}
        return i

    def _get(self, i):
        if i not in self.recs:
            raise KeyError(i)
        return self.recs[i]

    def _link(self, a, rel, b):
        self.es |= {(a, rel, b), (b, INV[rel], a)}

    def save(self, content, *, type="fact", namespace="global", tags=(), metadata=None, valid_time=None):
        return self._new(content, type, namespace, tags, dict(metadata or {}), valid_time)

    def evolve(self, id, content, valid_time=None):
        p = self._get(id)
        meta = {**{k: v for k, v in p["metadata"].items() if k != "see_also"}, "see_also": id}
        n = self._new(content, p["type"], p["namespace"], p["tags"], meta,
                      p["valid_time"] if valid_time is None else valid_time)
        self._link(n, "evolved_from", id)
        return n

    def merge(self, ids, valid_time=None):
        ids = sorted(set(ids))
        if len(ids) < 2:
            raise ValueError("need two")
        ps = [self._get(i) for i in ids]
        if len({p["namespace"] for p in ps}) > 1:
            raise ValueError("namespaces differ")
        content = " | ".join(p["content"] for p in ps) + "  [from " + ", ".join(ids) + "]"
        n = self._new(content, ps[0]["type"], ps[0]["namespace"], [t for p in ps for t in p["tags"]], {},
                      valid_time)
        for i in ids:
            self._link(n, "merged_from", i)
        return n

    def split(self, id, parts, valid_time=None):
        p = self._get(id)
        out = []
        for c in parts:
            n = self._new(c, p["type"], p["namespace"], p["tags"], {"see_also": id},
                          p["valid_time"] if valid_time is None else valid_time)
            self._link(n, "split_from", id)
            out.append(n)
        return out

    def supersede(self, old, new):
        self._get(old); self._get(new)
        if old == new:
            raise ValueError("self")
        self._link(new, "supersedes", old)

    def delete(self, id):
        self._get(id)
        del self.recs[id]
        self.es = {e for e in self.es if id not in (e[0], e[2])}

    def records(self):
        return {i: {**r, "tags": list(r["tags"]), "metadata": dict(r["metadata"])} for i, r in self.recs.items()}

    def edges(self):
        return sorted(self.es)


FACTORY = Digested
