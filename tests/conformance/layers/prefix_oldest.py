"""A layer that takes identifier prefixes and resolves an ambiguous one by a declared rule: the oldest match.

Design: a dict plus a creation list.  Identifiers are a running number
followed by a short digest (``"07c41d2"``), so a prefix of one identifier can
name it alone.  Every call that names a record (evolve, merge, split,
supersede, delete) and ``recall`` accept a prefix; when several records
match, the one created first wins (``prefix_rule = "oldest"``), also after
deletes have freed old positions.  Lineage is kept as edges only, one way
(ancestor edges, no inverses).  Valid time is kept.
"""

from __future__ import annotations

import hashlib

DESIGN = "dict; prefixes resolved by the declared rule 'oldest' (deletes included); edges one way; valid time"
FLAW = None
EXPECTED = {"L1": True, "L2": True, "L3": True, "L4i": True, "L4ii": True, "L5": True, "L6": True, "L7": True,
            "S1": True, "S2": True, "S3": True, "S4": True}


class OldestFirst:
    prefix_arguments = True
    prefix_rule = "oldest"

    def __init__(self) -> None:
        self.rows: dict[str, dict] = {}
        self.created: list[str] = []
        self.arcs: set[tuple[str, str, str]] = set()
        self.n = 0

    def _new_id(self):
        self.n += 1
        return f"{self.n:02d}" + hashlib.sha1(str(self.n).encode()).hexdigest()[:5]

    def _resolve(self, ref):
        if ref in self.rows:
            return ref
        hits = [i for i in self.created if i.startswith(ref) and i in self.rows]
        if not hits:
            raise KeyError(f"nothing matches {ref!r}")
        return hits[0]

    def recall(self, ref):
        try:
            return self._resolve(ref)
        except KeyError:
            return None

    def _add(self, content, type, namespace, tags, metadata=None, valid_time=None):
        i = self._new_id()
        self.rows[i] = {"content": content, "type": type, "namespace": namespace, "tags": sorted(tags),
                        "metadata": dict(metadata or {}), "valid_time": valid_time}
        self.created.append(i)
        return i

    def save(self, content, *, type="fact", namespace="global", tags=(), metadata=None, valid_time=None):
        return self._add(content, type, namespace, tags, metadata, valid_time)

    def evolve(self, id, content, *, valid_time=None):
        src = self._resolve(id)
        r = self.rows[src]
        j = self._add(content, r["type"], r["namespace"], r["tags"], None,
                      r["valid_time"] if valid_time is None else valid_time)
        self.arcs.add((j, "evolved_from", src))
        return j

    def merge(self, ids, *, valid_time=None):
        srcs = [self._resolve(i) for i in ids]
        if len(set(srcs)) != len(srcs) or len(srcs) < 2:
            raise ValueError("need two or more different records")
        rs = [self.rows[i] for i in srcs]
        if len({r["namespace"] for r in rs}) != 1:
            raise ValueError("different namespaces")
        kinds = sorted(r["type"] for r in rs)
        ty = min(kinds, key=lambda t: -kinds.count(t))
        when = [r["valid_time"] for r in rs if r["valid_time"] is not None]
        j = self._add(" & ".join(r["content"] for r in rs), ty, rs[0]["namespace"],
                      sorted({t for r in rs for t in r["tags"]}), None,
                      valid_time if valid_time is not None else max(when, default=None))
        for s in srcs:
            self.arcs.add((j, "merged_from", s))
        return j

    def split(self, id, parts, *, valid_time=None):
        src = self._resolve(id)
        if len(parts) < 2:
            raise ValueError("at least two parts")
        r = self.rows[src]
        vt = r["valid_time"] if valid_time is None else valid_time
        out = [self._add(p, r["type"], r["namespace"], r["tags"], None, vt) for p in parts]
        for j in out:
            self.arcs.add((j, "split_from", src))
        return out

    def supersede(self, old, new):
        o, n = self._resolve(old), self._resolve(new)
        if o == n:
            raise ValueError("a record does not supersede itself")
        self.arcs.add((n, "supersedes", o))

    def delete(self, id):
        i = self._resolve(id)
        del self.rows[i]
        self.arcs = {a for a in self.arcs if i not in (a[0], a[2])}

    def records(self):
        return {i: dict(r, tags=list(r["tags"]), metadata=dict(r["metadata"])) for i, r in self.rows.items()}

    def edges(self):
        return sorted(self.arcs)

FACTORY = OldestFirst
