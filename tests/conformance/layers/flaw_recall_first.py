"""Planted flaw (L5): recall by prefix returns the first match it meets, though the layer declares no rule.

Design: records in a dict keyed by a reversed counter string, edges both
ways and metadata.  ``recall(ref)`` resolves prefixes.  An ambiguous prefix
should be refused (``None`` would do) or resolved by a declared
``prefix_rule``; this layer silently returns whichever matching record its
dict lists first.
"""

from __future__ import annotations

DESIGN = "dict; recall by prefix picks a match silently, by no declared rule"
FLAW = "recall of an ambiguous prefix returns the first match instead of refusing"
EXPECTED = {"L1": True, "L2": True, "L3": True, "L4i": True, "L4ii": True, "L5": False, "L6": True, "L7": True,
            "S1": True, "S2": True, "S3": True, "S4": True}

PAIR = {"evolved_from": "evolved_into", "merged_from": "merged_into", "split_from": "split_into",
        "supersedes": "superseded_by"}


class FirstMatch:
    def __init__(self) -> None:
        self.db: dict[str, dict] = {}
        self.e: list[tuple[str, str, str]] = []
        self.c = 0

    def recall(self, ref):
        for i in self.db:
            if i.startswith(ref):
                return i  # the slip: the first of several, by no declared rule
        return None

    def _mk(self, content, type, namespace, tags, meta, vt):
        self.c += 1
        i = f"a{self.c:03d}z"
        self.db[i] = {"content": content, "type": type, "namespace": namespace, "tags": sorted(set(tags)),
                      "metadata": meta, "valid_time": vt}
        return i

    def _g(self, i):
        if i not in self.db:
            raise KeyError(i)
        return self.db[i]

    def _l(self, a, rel, b):
        self.e += [(a, rel, b), (b, PAIR[rel], a)]

    def save(self, content, *, type="fact", namespace="global", tags=(), metadata=None, valid_time=None):
        return self._mk(content, type, namespace, tags, dict(metadata or {}), valid_time)

    def evolve(self, id, content, *, valid_time=None):
        r = self._g(id)
        j = self._mk(content, r["type"], r["namespace"], r["tags"], {"evolved_from": id},
                     r["valid_time"] if valid_time is None else valid_time)
        self._l(j, "evolved_from", id)
        return j

    def merge(self, ids, *, valid_time=None):
        rs = [self._g(i) for i in ids]
        if len(set(ids)) != len(ids) or len(ids) < 2 or len({r["namespace"] for r in rs}) > 1:
            raise ValueError("merge: distinct records of one namespace")
        types = [r["type"] for r in rs]
        ty = min(types, key=lambda t: (-types.count(t), t))
        vts = [r["valid_time"] for r in rs if r["valid_time"] is not None]
        j = self._mk(" & ".join(r["content"] for r in rs), ty, rs[0]["namespace"],
                     [t for r in rs for t in r["tags"]], {"merged_from": sorted(ids)},
                     valid_time if valid_time is not None else max(vts, default=None))
        for i in ids:
            self._l(j, "merged_from", i)
        return j

    def split(self, id, parts, *, valid_time=None):
        r = self._g(id)
        if len(parts) < 2:
            raise ValueError("split: two parts")
        vt = r["valid_time"] if valid_time is None else valid_time
        out = [self._mk(p, r["type"], r["namespace"], r["tags"], {"split_from": id}, vt) for p in parts]
        for j in out:
            self._l(j, "split_from", id)
        return out

    def supersede(self, old, new):
        self._g(old)
        self._g(new)
        if old == new:
            raise ValueError("supersede: two records")
        if (new, "supersedes", old) not in self.e:
            self._l(new, "supersedes", old)

    def delete(self, id):
        self._g(id)
        del self.db[id]
        self.e = [x for x in self.e if id not in (x[0], x[2])]

    def records(self):
        return {i: {**r, "tags": list(r["tags"]), "metadata": dict(r["metadata"])} for i, r in self.db.items()}

    def edges(self):
        return list(self.e)


FACTORY = FirstMatch
