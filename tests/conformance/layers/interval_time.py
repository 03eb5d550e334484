"""Valid time kept as a half-open interval [start, end); a bare time t means [t, open).

Design: valid time is kept as a half-open interval; a bare time t is
stored as [t, open).  records() shows the start as valid_time (the value
save was given) and the whole interval under an extra key, which the kit
ignores.  Lineage as edges only.
"""

from __future__ import annotations

DESIGN = "valid time kept as intervals, shown as their start; lineage as edges only"
FLAW = None
EXPECTED = {"L1": True, "L2": True, "L3": True, "L4i": True, "L4ii": True, "L5": True, "L6": True,
            "L7": True, "S1": True, "S2": True, "S3": True, "S4": True}

INVERSE = {"evolved_from": "evolved_into", "merged_from": "merged_into",
           "split_from": "split_into", "supersedes": "superseded_by"}


def interval(vt):
    if vt is None:
        return None
    if isinstance(vt, tuple):
        start, end = vt
        if end is not None and end <= start:
            raise ValueError(f"empty valid interval {vt!r}")
        return (start, end)
    return (vt, None)


class IntervalMemory:
    def __init__(self):
        self.recs, self.links, self.n = {}, [], 0

    def _new(self, content, like, meta, vt):
        self.n += 1
        i = f"iv{self.n}"
        self.recs[i] = {"content": content, "type": like["type"],
                        "namespace": like["namespace"], "tags": list(like["tags"]),
                        "metadata": meta, "valid_time": vt}
        return i

    def _need(self, i):
        if i not in self.recs:
            raise LookupError(f"no record {i}")
        return self.recs[i]

    def _pair(self, a, rel, b):
        self.links += [(a, rel, b), (b, INVERSE[rel], a)]

    def save(self, content, *, type="fact", namespace="global", tags=(), metadata=None,
             valid_time=None):
        like = {"type": type, "namespace": namespace, "tags": sorted(tags)}
        return self._new(content, like, dict(metadata or {}), interval(valid_time))

    def evolve(self, id, content, *, valid_time=None):
        old = self._need(id)
        vt = old["valid_time"] if valid_time is None else interval(valid_time)
        i = self._new(content, old, {}, vt)
        self._pair(i, "evolved_from", id)
        return i

    def merge(self, ids, *, valid_time=None):
        olds = [self._need(i) for i in ids]
        if len(set(ids)) < 2 or len({o["namespace"] for o in olds}) != 1:
            raise ValueError("merge two or more records of one namespace")
        i = self._new(" | ".join(o["content"] for o in olds), olds[0], {},
                      interval(valid_time))
        for j in ids:
            self._pair(i, "merged_from", j)
        return i

    def split(self, id, parts, *, valid_time=None):
        old = self._need(id)
        if not parts:
            raise ValueError("split into at least one part")
        vt = old["valid_time"] if valid_time is None else interval(valid_time)
        out = [self._new(p, old, {}, vt) for p in parts]
        for i in out:
            self._pair(i, "split_from", id)
        return out

    def supersede(self, old, new):
        self._need(old), self._need(new)
        if old == new:
            raise ValueError("a record cannot supersede itself")
        self._pair(new, "supersedes", old)

    def delete(self, id):
        self._need(id)
        del self.recs[id]
        self.links = [e for e in self.links if id not in (e[0], e[2])]

    def records(self):
        out = {}
        for i, r in self.recs.items():
            iv = r["valid_time"]
            out[i] = {**r, "valid_time": None if iv is None else iv[0],
                      "valid_interval": None if iv is None else list(iv)}
        return out

    def edges(self):
        return list(self.links)


FACTORY = IntervalMemory
