"""Dotted version identifiers (r3, r3.1, r3.2); a reference is an exact id or a unique prefix.

Design: dotted version identifiers (r3, r3.1, r3.2: a derived record is
numbered below its source), so one identifier can be a prefix of another.
Every call and recall takes an exact identifier or a unique prefix; an
ambiguous prefix is refused (an exception, or recall returning None), and no
prefix_rule is declared.  Lineage as edges only.  Valid time is kept.
"""

from __future__ import annotations

DESIGN = "dotted version ids; exact id or unique prefix, ambiguous prefix refused (recall None)"
FLAW = None
EXPECTED = {"L1": True, "L2": True, "L3": True, "L4i": True, "L4ii": True, "L5": True, "L6": True,
            "L7": True, "S1": True, "S2": True, "S3": True, "S4": True}

INV = {"evolved_from": "evolved_into", "merged_from": "merged_into",
       "split_from": "split_into", "supersedes": "superseded_by"}


class DottedMemory:
    prefix_arguments = True

    def __init__(self):
        self.recs, self.links, self.roots = {}, [], 0
        self.kids = {}  # id -> how many children ids were handed out below it

    def recall(self, ref):
        """The record ``ref`` names: itself if it is an id, else the one id it starts; else None."""
        if not isinstance(ref, str) or not ref:
            return None
        if ref in self.recs:
            return ref
        hits = [i for i in self.recs if i.startswith(ref)]
        return hits[0] if len(hits) == 1 else None

    def _resolve(self, ref):
        i = self.recall(ref)
        if i is None:
            raise KeyError(f"{ref!r} names no record, or more than one")
        return i

    def _child(self, parent):
        self.kids[parent] = self.kids.get(parent, 0) + 1
        return f"{parent}.{self.kids[parent]}"

    def _root(self):
        self.roots += 1
        return f"r{self.roots}"

    def _put(self, i, content, like, vt):
        self.recs[i] = {"content": content, "type": like["type"],
                        "namespace": like["namespace"], "tags": list(like["tags"]),
                        "metadata": {}, "valid_time": vt}
        return i

    def _pair(self, a, rel, b):
        self.links += [(a, rel, b), (b, INV[rel], a)]

    def save(self, content, *, type="fact", namespace="global", tags=(), metadata=None,
             valid_time=None):
        i = self._root()
        self._put(i, content, {"type": type, "namespace": namespace, "tags": sorted(tags)},
                  valid_time)
        self.recs[i]["metadata"] = dict(metadata or {})
        return i

    def evolve(self, id, content, *, valid_time=None):
        src = self._resolve(id)
        old = self.recs[src]
        vt = old["valid_time"] if valid_time is None else valid_time
        i = self._put(self._child(src), content, old, vt)
        self._pair(i, "evolved_from", src)
        return i

    def merge(self, ids, *, valid_time=None):
        srcs = [self._resolve(i) for i in ids]
        olds = [self.recs[i] for i in srcs]
        if len(set(srcs)) < 2 or len({o["namespace"] for o in olds}) != 1:
            raise ValueError("merge two or more records of one namespace")
        i = self._put(self._root(), "\n".join(o["content"] for o in olds), olds[0],
                      valid_time)
        for j in srcs:
            self._pair(i, "merged_from", j)
        return i

    def split(self, id, parts, *, valid_time=None):
        src = self._resolve(id)
        old = self.recs[src]
        if not parts:
            raise ValueError("split into one or more parts")
        vt = old["valid_time"] if valid_time is None else valid_time
        out = [self._put(self._child(src), p, old, vt) for p in parts]
        for i in out:
            self._pair(i, "split_from", src)
        return out

    def supersede(self, old, new):
        a, b = self._resolve(old), self._resolve(new)
        if a == b:
            raise ValueError("a record cannot supersede itself")
        self._pair(b, "supersedes", a)

    def delete(self, id):
        i = self._resolve(id)
        del self.recs[i]
        self.links = [e for e in self.links if i not in (e[0], e[2])]

    def records(self):
        return self.recs

    def edges(self):
        return list(self.links)


FACTORY = DottedMemory
