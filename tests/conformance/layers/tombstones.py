"""A layer whose delete leaves a tombstone, and which refuses an identifier prefix that matches two records.

Design: a list of rows, never shortened.  ``delete`` marks the row
(metadata ``deleted: True``) and keeps it, with its edges, so that lineage
never points into nothing; a marked row can no longer be evolved, merged,
split, superseded or deleted.  Every call that names a record accepts a
unique prefix; an ambiguous one is refused (no ``prefix_rule``).  Lineage is
kept as edges both ways; valid time is kept.
"""

from __future__ import annotations

DESIGN = "list of rows; delete leaves a tombstone; ambiguous prefixes refused; edges both ways; valid time"
FLAW = None
EXPECTED = {"L1": True, "L2": True, "L3": True, "L4i": True, "L4ii": True, "L5": True, "L6": True, "L7": True,
            "S1": True, "S2": True, "S3": True, "S4": True}

PAIRS = {"evolved_from": "evolved_into", "merged_from": "merged_into", "split_from": "split_into",
         "supersedes": "superseded_by"}


class TombstoneMemory:
    prefix_arguments = True

    def __init__(self) -> None:
        self.rows: list[dict] = []
        self.graph: list[tuple[str, str, str]] = []

    def _find(self, ref):
        exact = [r for r in self.rows if r["id"] == ref]
        hits = exact or [r for r in self.rows if r["id"].startswith(ref)]
        if not hits:
            raise KeyError(ref)
        if len(hits) > 1:
            raise ValueError(f"{ref!r} is ambiguous: it matches {len(hits)} records")
        if hits[0]["metadata"].get("deleted"):
            raise ValueError(f"{hits[0]['id']} was deleted")
        return hits[0]

    def _append(self, content, type, namespace, tags, metadata, valid_time):
        id = f"t{len(self.rows) + 1:03d}x"
        self.rows.append({"id": id, "content": content, "type": type, "namespace": namespace,
                          "tags": sorted(set(tags)), "metadata": dict(metadata), "valid_time": valid_time})
        return id

    def _relate(self, a, rel, b):
        self.graph += [(a, rel, b), (b, PAIRS[rel], a)]

    def save(self, content, *, type="fact", namespace="global", tags=(), metadata=None, valid_time=None):
        return self._append(content, type, namespace, tags, metadata or {}, valid_time)

    def evolve(self, id, content, *, valid_time=None):
        r = self._find(id)
        j = self._append(content, r["type"], r["namespace"], r["tags"], {},
                         r["valid_time"] if valid_time is None else valid_time)
        self._relate(j, "evolved_from", r["id"])
        return j

    def merge(self, ids, *, valid_time=None):
        rs = [self._find(i) for i in ids]
        if len(rs) < 2 or len({r["id"] for r in rs}) != len(rs):
            raise ValueError("merge needs distinct records")
        if len({r["namespace"] for r in rs}) != 1:
            raise ValueError("merge stays in one namespace")
        tally = {}
        for r in rs:
            tally[r["type"]] = tally.get(r["type"], 0) + 1
        ty = min(tally, key=lambda t: (-tally[t], t))
        vts = [r["valid_time"] for r in rs if r["valid_time"] is not None]
        j = self._append(" / ".join(r["content"] for r in rs), ty, rs[0]["namespace"],
                         [t for r in rs for t in r["tags"]], {},
                         valid_time if valid_time is not None else (max(vts) if vts else None))
        for r in rs:
            self._relate(j, "merged_from", r["id"])
        return j

    def split(self, id, parts, *, valid_time=None):
        r = self._find(id)
        if len(parts) < 2:
            raise ValueError("split needs two parts or more")
        out = []
        for p in parts:
            j = self._append(p, r["type"], r["namespace"], r["tags"], {},
                             r["valid_time"] if valid_time is None else valid_time)
            self._relate(j, "split_from", r["id"])
            out.append(j)
        return out

    def supersede(self, old, new):
        o, n = self._find(old), self._find(new)
        if o is n:
            raise ValueError("cannot supersede itself")
        if (n["id"], "supersedes", o["id"]) not in self.graph:
            self._relate(n["id"], "supersedes", o["id"])

    def delete(self, id):
        r = self._find(id)
        r["metadata"] = {**r["metadata"], "deleted": True}

    def records(self):
        return {r["id"]: {k: (list(v) if k == "tags" else dict(v) if k == "metadata" else v)
                          for k, v in r.items() if k != "id"} for r in self.rows}

    def edges(self):
        return list(self.graph)

FACTORY = TombstoneMemory
