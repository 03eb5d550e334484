"""Planted flaw (L7): delete hides the record but keeps its edges, which then point at nothing.

Design: soft delete.  Records are never removed from the internal table; a
deleted one is flagged and left out of ``records()``.  Its edges stay in
``edges()``, so lineage points at a record the layer no longer shows.
(Compare ``tombstones``: there the tombstone stays visible, and L7 holds.)
Lineage as edges both ways plus metadata; valid time.
"""

from __future__ import annotations

DESIGN = "soft delete: deleted records hidden, their edges kept (dangling)"
FLAW = "delete hides a record from records() but leaves its lineage edges in edges()"
EXPECTED = {"L1": True, "L2": True, "L3": True, "L4i": True, "L4ii": True, "L5": True, "L6": True, "L7": False,
            "S1": True, "S2": True, "S3": True, "S4": True}

INVERSE_OF = {"evolved_from": "evolved_into", "merged_from": "merged_into", "split_from": "split_into",
              "supersedes": "superseded_by"}


class SoftDelete:
    def __init__(self) -> None:
        self.table: dict[str, dict] = {}
        self.hidden: set[str] = set()
        self.graph: set[tuple[str, str, str]] = set()

    def _live(self, i):
        if i not in self.table or i in self.hidden:
            raise KeyError(i)
        return self.table[i]

    def _ins(self, content, type, namespace, tags, meta, vt):
        i = f"s{len(self.table) + 1}_"
        self.table[i] = {"content": content, "type": type, "namespace": namespace, "tags": sorted(set(tags)),
                         "metadata": dict(meta), "valid_time": vt}
        return i

    def _rel(self, a, r, b):
        self.graph |= {(a, r, b), (b, INVERSE_OF[r], a)}

    def save(self, content, *, type="fact", namespace="global", tags=(), metadata=None, valid_time=None):
        return self._ins(content, type, namespace, tags, metadata or {}, valid_time)

    def evolve(self, id, content, *, valid_time=None):
        r = self._live(id)
        j = self._ins(content, r["type"], r["namespace"], r["tags"], {"evolved_from": id},
                      r["valid_time"] if valid_time is None else valid_time)
        self._rel(j, "evolved_from", id)
        return j

    def merge(self, ids, *, valid_time=None):
        rs = [self._live(i) for i in ids]
        if len(ids) < 2 or len(set(ids)) != len(ids) or len({r["namespace"] for r in rs}) != 1:
            raise ValueError("merge refused")
        types = [r["type"] for r in rs]
        ty = min(set(types), key=lambda t: (-types.count(t), t))
        vts = [r["valid_time"] for r in rs if r["valid_time"] is not None]
        j = self._ins(" ".join(r["content"] for r in rs), ty, rs[0]["namespace"], [t for r in rs for t in r["tags"]],
                      {"merged_from": sorted(ids)}, valid_time if valid_time is not None else max(vts, default=None))
        for i in ids:
            self._rel(j, "merged_from", i)
        return j

    def split(self, id, parts, *, valid_time=None):
        r = self._live(id)
        if len(parts) < 2:
            raise ValueError("split refused")
        vt = r["valid_time"] if valid_time is None else valid_time
        out = [self._ins(p, r["type"], r["namespace"], r["tags"], {"split_from": id}, vt) for p in parts]
        for j in out:
            self._rel(j, "split_from", id)
        return out

    def supersede(self, old, new):
        self._live(old)
        self._live(new)
        if old == new:
            raise ValueError("supersede refused")
        self._rel(new, "supersedes", old)

    def delete(self, id):
        self._live(id)
        self.hidden.add(id)  # the slip: its edges stay

    def records(self):
        return {i: {**r, "tags": list(r["tags"]), "metadata": dict(r["metadata"])}
                for i, r in self.table.items() if i not in self.hidden}

    def edges(self):
        return sorted(self.graph)


FACTORY = SoftDelete
