"""A dict-backed layer that shows more than the kit reads: each record's ``kind`` and ``version``.

Design: records in a dict keyed by a counter ("v1", "v2", ...); each shows
``kind`` (how it was made) and ``version`` (its parent's plus one, 1 for a
save), and a derived record is tagged ``rev-<version>``, read off the record it
came from; a split part cannot be split again (its ``kind`` says so).  Ancestry
as edges both ways only (no ancestry metadata); delete cascades; valid time
accepted everywhere and inherited when not given.  The kit reads neither field,
so a store it rebuilds by saves would show them otherwise: such cases are not
judged, never failed.
"""

from __future__ import annotations

import copy
from typing import Any

DESIGN = "dict; records show a kind and a version the calls read; lineage as edges only; valid time"
FLAW = None
EXPECTED = {"L1": True, "L2": True, "L3": True, "L4i": True, "L4ii": True, "L5": True, "L6": True, "L7": True,
            "S1": True, "S2": True, "S3": True, "S4": True}

INVERSE = {"evolved_from": "evolved_into", "merged_from": "merged_into", "split_from": "split_into",
           "supersedes": "superseded_by"}


class Memory:
    def __init__(self) -> None:
        self.data: dict[str, dict[str, Any]] = {}
        self.links: list[tuple[str, str, str]] = []
        self.counter = 0

    def _put(self, content, type, namespace, tags, metadata, valid_time, kind="saved", version=1):
        self.counter += 1
        key = f"v{self.counter}"
        self.data[key] = {"content": content, "type": type, "namespace": namespace, "tags": sorted(set(tags)),
                          "metadata": dict(metadata), "valid_time": valid_time,
                          "kind": kind, "version": version}
        return key

    def _must(self, id):
        if id not in self.data:
            raise KeyError(id)
        return self.data[id]

    def _edge(self, a, rel, b):
        for e in ((a, rel, b), (b, INVERSE[rel], a)):
            if e not in self.links:
                self.links.append(e)

    def save(self, content, *, type="fact", namespace="global", tags=(), metadata=None, valid_time=None):
        return self._put(content, type, namespace, tags, metadata or {}, valid_time)

    def evolve(self, id, content, *, valid_time=None):
        old = self._must(id)
        vt = old["valid_time"] if valid_time is None else valid_time
        v = old["version"] + 1
        new = self._put(content, old["type"], old["namespace"], [*old["tags"], f"rev-{v}"], {}, vt,
                        "evolved", v)
        self._edge(new, "evolved_from", id)
        return new

    def merge(self, ids, *, valid_time=None):
        ids = list(ids)
        olds = [self._must(i) for i in ids]
        if len(set(ids)) != len(ids) or len(ids) < 2:
            raise ValueError("merge needs two or more different records")
        if len({o["namespace"] for o in olds}) != 1:
            raise ValueError("merge stays inside one namespace")
        counts: dict[str, int] = {}
        for o in olds:
            counts[o["type"]] = counts.get(o["type"], 0) + 1
        best = min(counts, key=lambda t: (-counts[t], t))
        tags = sorted({t for o in olds for t in o["tags"]})
        vts = [o["valid_time"] for o in olds if o["valid_time"] is not None]
        vt = valid_time if valid_time is not None else (max(vts) if vts else None)
        new = self._put(" | ".join(o["content"] for o in olds), best, olds[0]["namespace"], tags,
                        {}, vt, "merged", max(o["version"] for o in olds) + 1)
        for i in ids:
            self._edge(new, "merged_from", i)
        return new

    def split(self, id, parts, *, valid_time=None):
        old = self._must(id)
        if old["kind"] == "split":
            raise ValueError("a part of a split is not split again")
        if len(parts) < 2:
            raise ValueError("split needs two or more parts")
        vt = old["valid_time"] if valid_time is None else valid_time
        out = []
        for p in parts:
            new = self._put(p, old["type"], old["namespace"], old["tags"], {}, vt, "split",
                            old["version"] + 1)
            self._edge(new, "split_from", id)
            out.append(new)
        return out

    def supersede(self, old, new):
        self._must(old)
        self._must(new)
        if old == new:
            raise ValueError("a record cannot supersede itself")
        self._edge(new, "supersedes", old)

    def delete(self, id):
        self._must(id)
        del self.data[id]
        self.links = [e for e in self.links if id not in (e[0], e[2])]

    def records(self):
        return copy.deepcopy(self.data)

    def edges(self):
        return list(self.links)

FACTORY = Memory
