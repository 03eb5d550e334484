"""A plain layer with one clock only: it takes no valid time, so it cannot keep the two times apart.

Design: a dict of records with edges both ways, ancestry metadata written by
each derivation, delete cascading.  There is no ``valid_time`` parameter
anywhere, so L6 fails exactly as the paper's Theorem 5.27 says it must for
such a layer; every other clause holds.  This is a design choice, not a bug.
"""

from __future__ import annotations

DESIGN = "dict; edges both ways and metadata; no valid time (L6 fails by Theorem 5.27, by design)"
FLAW = None
EXPECTED = {"L1": True, "L2": True, "L3": True, "L4i": True, "L4ii": True, "L5": True, "L6": False, "L7": True,
            "S1": True, "S2": True, "S3": True, "S4": True}

REVERSE = {"evolved_from": "evolved_into", "merged_from": "merged_into", "split_from": "split_into",
           "supersedes": "superseded_by"}


class OneClock:
    def __init__(self) -> None:
        self.items: dict[str, dict] = {}
        self.arrows: set[tuple[str, str, str]] = set()
        self.next = 100

    def _new(self, fields):
        self.next += 1
        key = f"x{self.next}"
        self.items[key] = fields
        return key

    def _has(self, i):
        if i not in self.items:
            raise KeyError(i)
        return self.items[i]

    def _arrow(self, a, rel, b):
        self.arrows |= {(a, rel, b), (b, REVERSE[rel], a)}

    def save(self, content, *, type="fact", namespace="global", tags=(), metadata=None):
        return self._new({"content": content, "type": type, "namespace": namespace, "tags": sorted(set(tags)),
                          "metadata": dict(metadata or {})})

    def evolve(self, id, content):
        r = self._has(id)
        j = self._new({**r, "content": content, "metadata": {"evolved_from": id}})
        self._arrow(j, "evolved_from", id)
        return j

    def merge(self, ids):
        rs = [self._has(i) for i in ids]
        if len(set(ids)) != len(ids) or len(ids) < 2 or len({r["namespace"] for r in rs}) != 1:
            raise ValueError("merge: distinct records, one namespace")
        types = sorted(r["type"] for r in rs)
        ty = max(sorted(set(types)), key=types.count)
        j = self._new({"content": ",".join(r["content"] for r in rs), "type": ty, "namespace": rs[0]["namespace"],
                       "tags": sorted({t for r in rs for t in r["tags"]}), "metadata": {"merged_from": sorted(ids)}})
        for i in ids:
            self._arrow(j, "merged_from", i)
        return j

    def split(self, id, parts):
        r = self._has(id)
        if len(parts) < 2:
            raise ValueError("split: two parts or more")
        out = [self._new({**r, "content": p, "metadata": {"split_from": id}}) for p in parts]
        for j in out:
            self._arrow(j, "split_from", id)
        return out

    def supersede(self, old, new):
        self._has(old)
        self._has(new)
        if old == new:
            raise ValueError("supersede: same record")
        self._arrow(new, "supersedes", old)

    def delete(self, id):
        self._has(id)
        del self.items[id]
        self.arrows = {a for a in self.arrows if id not in (a[0], a[2])}

    def records(self):
        return {i: {**r, "tags": list(r["tags"]), "metadata": dict(r["metadata"])} for i, r in self.items.items()}

    def edges(self):
        return sorted(self.arrows)


FACTORY = OneClock
