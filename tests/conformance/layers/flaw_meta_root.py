"""Planted flaw (L2): evolve's metadata names the root of the chain instead of the record it evolved.

Design: a dict layer keeping ancestry twice, as edges both ways and as
metadata.  The edges of an evolve point at the direct parent; the metadata
``evolved_from`` is meant to as well, but is filled with the *first* record of
the chain (a plausible "original id" bug).  A once-evolved record is right;
evolving it again shows the drift.
"""

from __future__ import annotations

DESIGN = "dict; edges both ways and metadata, but evolve's metadata names the chain's root"
FLAW = "evolve of an evolved record writes evolved_from = the first record of the chain, not its parent"
EXPECTED = {"L1": True, "L2": False, "L3": True, "L4i": True, "L4ii": True, "L5": True, "L6": True, "L7": True,
            "S1": True, "S2": True, "S3": True, "S4": True}

BACK = {"evolved_from": "evolved_into", "merged_from": "merged_into", "split_from": "split_into",
        "supersedes": "superseded_by"}


class RootTracking:
    def __init__(self) -> None:
        self.recs: dict[str, dict] = {}
        self.lines: set[tuple[str, str, str]] = set()
        self.k = 0

    def _new(self, content, type, namespace, tags, meta, vt):
        self.k += 1
        i = f"m{self.k:04d}"
        self.recs[i] = {"content": content, "type": type, "namespace": namespace, "tags": sorted(set(tags)),
                        "metadata": dict(meta), "valid_time": vt}
        return i

    def _r(self, i):
        if i not in self.recs:
            raise KeyError(i)
        return self.recs[i]

    def _tie(self, a, rel, b):
        self.lines |= {(a, rel, b), (b, BACK[rel], a)}

    def save(self, content, *, type="fact", namespace="global", tags=(), metadata=None, valid_time=None):
        return self._new(content, type, namespace, tags, metadata or {}, valid_time)

    def evolve(self, id, content, *, valid_time=None):
        r = self._r(id)
        root = r["metadata"].get("evolved_from", id)  # the slip: the chain's root, not the parent
        j = self._new(content, r["type"], r["namespace"], r["tags"], {"evolved_from": root},
                      r["valid_time"] if valid_time is None else valid_time)
        self._tie(j, "evolved_from", id)
        return j

    def merge(self, ids, *, valid_time=None):
        rs = [self._r(i) for i in ids]
        if len(set(ids)) < 2 or len(set(ids)) != len(ids) or len({r["namespace"] for r in rs}) != 1:
            raise ValueError("bad merge")
        types = [r["type"] for r in rs]
        ty = min(types, key=lambda t: (-types.count(t), t))
        vts = [r["valid_time"] for r in rs if r["valid_time"] is not None]
        j = self._new("+".join(r["content"] for r in rs), ty, rs[0]["namespace"], [t for r in rs for t in r["tags"]],
                      {"merged_from": sorted(ids)}, valid_time if valid_time is not None else max(vts, default=None))
        for i in ids:
            self._tie(j, "merged_from", i)
        return j

    def split(self, id, parts, *, valid_time=None):
        r = self._r(id)
        if len(parts) < 2:
            raise ValueError("bad split")
        vt = r["valid_time"] if valid_time is None else valid_time
        out = [self._new(p, r["type"], r["namespace"], r["tags"], {"split_from": id}, vt) for p in parts]
        for j in out:
            self._tie(j, "split_from", id)
        return out

    def supersede(self, old, new):
        self._r(old)
        self._r(new)
        if old == new:
            raise ValueError("bad supersede")
        self._tie(new, "supersedes", old)

    def delete(self, id):
        self._r(id)
        del self.recs[id]
        self.lines = {e for e in self.lines if id not in (e[0], e[2])}

    def records(self):
        return {i: {**r, "tags": list(r["tags"]), "metadata": dict(r["metadata"])} for i, r in self.recs.items()}

    def edges(self):
        return sorted(self.lines)


FACTORY = RootTracking
