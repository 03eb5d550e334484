"""Planted flaw (L5): merge joins the parents' contents in the iteration order of a set of strings.

Design: a dict layer, correct in every other way (edges both ways and
metadata, valid time).  ``merge`` builds its content from ``set(contents)``,
whose order follows Python's string hashing, so the same calls give a
different merged record under another ``PYTHONHASHSEED``.
"""

from __future__ import annotations

DESIGN = "dict; merged content in the order of a set of strings (depends on the hash seed)"
FLAW = "merge joins the parents' contents in set order, which PYTHONHASHSEED changes"
EXPECTED = {"L1": True, "L2": True, "L3": True, "L4i": True, "L4ii": True, "L5": False, "L6": True, "L7": True,
            "S1": True, "S2": True, "S3": True, "S4": True}
ORDERS = True  # the flaw shows only across interpreters

OTHER = {"evolved_from": "evolved_into", "merged_from": "merged_into", "split_from": "split_into",
         "supersedes": "superseded_by"}


class SetJoin:
    def __init__(self) -> None:
        self.rows: dict[str, dict] = {}
        self.arcs: set[tuple[str, str, str]] = set()
        self.i = 0

    def _new(self, fields):
        self.i += 1
        k = f"h{self.i}"
        self.rows[k] = fields
        return k

    def _get(self, k):
        if k not in self.rows:
            raise KeyError(k)
        return self.rows[k]

    def _arc(self, a, rel, b):
        self.arcs |= {(a, rel, b), (b, OTHER[rel], a)}

    def save(self, content, *, type="fact", namespace="global", tags=(), metadata=None, valid_time=None):
        return self._new({"content": content, "type": type, "namespace": namespace, "tags": sorted(set(tags)),
                          "metadata": dict(metadata or {}), "valid_time": valid_time})

    def evolve(self, id, content, *, valid_time=None):
        r = self._get(id)
        k = self._new({**r, "content": content, "metadata": {"evolved_from": id},
                       "valid_time": r["valid_time"] if valid_time is None else valid_time})
        self._arc(k, "evolved_from", id)
        return k

    def merge(self, ids, *, valid_time=None):
        rs = [self._get(i) for i in ids]
        if len(ids) < 2 or len(set(ids)) != len(ids) or len({r["namespace"] for r in rs}) != 1:
            raise ValueError("merge: distinct records of one namespace")
        types = [r["type"] for r in rs]
        ty = min(set(types), key=lambda t: (-types.count(t), t))
        vts = [r["valid_time"] for r in rs if r["valid_time"] is not None]
        content = " ".join({r["content"] for r in rs})  # the slip: set order
        k = self._new({"content": content, "type": ty, "namespace": rs[0]["namespace"],
                       "tags": sorted({t for r in rs for t in r["tags"]}), "metadata": {"merged_from": sorted(ids)},
                       "valid_time": valid_time if valid_time is not None else max(vts, default=None)})
        for i in ids:
            self._arc(k, "merged_from", i)
        return k

    def split(self, id, parts, *, valid_time=None):
        r = self._get(id)
        if len(parts) < 2:
            raise ValueError("split: two parts or more")
        out = [self._new({**r, "content": p, "metadata": {"split_from": id},
                          "valid_time": r["valid_time"] if valid_time is None else valid_time}) for p in parts]
        for k in out:
            self._arc(k, "split_from", id)
        return out

    def supersede(self, old, new):
        self._get(old)
        self._get(new)
        if old == new:
            raise ValueError("supersede: two records")
        self._arc(new, "supersedes", old)

    def delete(self, id):
        self._get(id)
        del self.rows[id]
        self.arcs = {a for a in self.arcs if id not in (a[0], a[2])}

    def records(self):
        return {k: {**r, "tags": list(r["tags"]), "metadata": dict(r["metadata"])} for k, r in self.rows.items()}

    def edges(self):
        return sorted(self.arcs)


FACTORY = SetJoin
