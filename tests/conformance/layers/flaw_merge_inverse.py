"""Planted flaw (L3): merge writes its merged_from edges but forgets the merged_into inverses.

Design: a dict layer that otherwise writes every edge both ways (evolve,
split and supersede do), with ancestry as edges only.  The one slip is in
``merge``.
"""

from __future__ import annotations

DESIGN = "dict; edges both ways, except that merge forgets the inverses"
FLAW = "merge adds (new, merged_from, parent) without (parent, merged_into, new)"
EXPECTED = {"L1": True, "L2": True, "L3": False, "L4i": True, "L4ii": True, "L5": True, "L6": True, "L7": True,
            "S1": True, "S2": True, "S3": True, "S4": True}

TWIN = {"evolved_from": "evolved_into", "split_from": "split_into", "supersedes": "superseded_by",
        "merged_from": "merged_into"}


class HalfMerge:
    def __init__(self) -> None:
        self.mem: dict[str, dict] = {}
        self.rels: list[tuple[str, str, str]] = []
        self.count = 0

    def _add(self, content, type, namespace, tags, valid_time, metadata=None):
        self.count += 1
        i = f"r-{self.count}"
        self.mem[i] = {"content": content, "type": type, "namespace": namespace, "tags": sorted(set(tags)),
                       "metadata": dict(metadata or {}), "valid_time": valid_time}
        return i

    def _both(self, a, rel, b):
        self.rels += [(a, rel, b), (b, TWIN[rel], a)]

    def _get(self, i):
        if i not in self.mem:
            raise KeyError(i)
        return self.mem[i]

    def save(self, content, *, type="fact", namespace="global", tags=(), metadata=None, valid_time=None):
        return self._add(content, type, namespace, tags, valid_time, metadata)

    def evolve(self, id, content, *, valid_time=None):
        r = self._get(id)
        j = self._add(content, r["type"], r["namespace"], r["tags"],
                      r["valid_time"] if valid_time is None else valid_time)
        self._both(j, "evolved_from", id)
        return j

    def merge(self, ids, *, valid_time=None):
        rs = [self._get(i) for i in ids]
        if len(set(ids)) < 2 or len(set(ids)) != len(ids) or len({r["namespace"] for r in rs}) != 1:
            raise ValueError("merge: two or more distinct records in one namespace")
        types = [r["type"] for r in rs]
        ty = min(set(types), key=lambda t: (-types.count(t), t))
        vts = [r["valid_time"] for r in rs if r["valid_time"] is not None]
        j = self._add(" ".join(r["content"] for r in rs), ty, rs[0]["namespace"], [t for r in rs for t in r["tags"]],
                      valid_time if valid_time is not None else max(vts, default=None))
        for i in ids:
            self.rels.append((j, "merged_from", i))  # the slip: no inverse
        return j

    def split(self, id, parts, *, valid_time=None):
        r = self._get(id)
        if len(parts) < 2:
            raise ValueError("split: two or more parts")
        out = []
        for p in parts:
            j = self._add(p, r["type"], r["namespace"], r["tags"],
                          r["valid_time"] if valid_time is None else valid_time)
            self._both(j, "split_from", id)
            out.append(j)
        return out

    def supersede(self, old, new):
        self._get(old)
        self._get(new)
        if old == new:
            raise ValueError("supersede: different records")
        if (new, "supersedes", old) not in self.rels:
            self._both(new, "supersedes", old)

    def delete(self, id):
        self._get(id)
        del self.mem[id]
        self.rels = [e for e in self.rels if id not in (e[0], e[2])]

    def records(self):
        return {i: {**r, "tags": list(r["tags"]), "metadata": dict(r["metadata"])} for i, r in self.mem.items()}

    def edges(self):
        return list(self.rels)


FACTORY = HalfMerge
