"""A dict-backed layer that stamps every record it makes with the wall clock, in its metadata.

Design: records keyed by a counter ("m1", "m2", ...), each with
``metadata["saved_at"] = time.time()`` and a derived record also with
``metadata["derived_on"]`` as local ISO text and ``metadata["ms"]`` in
milliseconds. Two runs of the same calls show other stamps: the clock is the
allocation's, so the layer is as deterministic as the model. Lineage as edges
both ways and as metadata; delete cascades; valid time inherited when not given.
"""

from __future__ import annotations

import copy
import time
from datetime import datetime
from typing import Any

DESIGN = "dict; every record stamped with the wall clock in metadata (seconds, ISO text, milliseconds)"
FLAW = None
EXPECTED = {"L1": True, "L2": True, "L3": True, "L4i": True, "L4ii": True, "L5": True, "L6": True, "L7": True,
            "S1": True, "S2": True, "S3": True, "S4": True}

BACK = {"evolved_from": "evolved_into", "merged_from": "merged_into", "split_from": "split_into",
        "supersedes": "superseded_by"}


class Stamped:
    def __init__(self) -> None:
        self.rows: dict[str, dict[str, Any]] = {}
        self.pairs: list[tuple[str, str, str]] = []
        self.n = 0

    def _make(self, content, type, namespace, tags, valid_time, **lineage):
        self.n += 1
        key = f"m{self.n}"
        meta = {"saved_at": time.time(), **lineage}
        if lineage:
            meta["derived_on"] = datetime.now().isoformat()
            meta["ms"] = time.time_ns() // 1_000_000
        self.rows[key] = {"content": content, "type": type, "namespace": namespace, "tags": sorted(set(tags)),
                          "metadata": meta, "valid_time": valid_time}
        return key

    def _row(self, id):
        if id not in self.rows:
            raise KeyError(f"no record {id}")
        return self.rows[id]

    def _link(self, a, rel, b):
        for e in ((a, rel, b), (b, BACK[rel], a)):
            if e not in self.pairs:
                self.pairs.append(e)

    def save(self, content, *, type="fact", namespace="global", tags=(), metadata=None, valid_time=None):
        key = self._make(content, type, namespace, tags, valid_time)
        self.rows[key]["metadata"] = {**(metadata or {}), **self.rows[key]["metadata"]}
        return key

    def evolve(self, id, content, *, valid_time=None):
        old = self._row(id)
        new = self._make(content, old["type"], old["namespace"], old["tags"],
                         old["valid_time"] if valid_time is None else valid_time, evolved_from=id)
        self._link(new, "evolved_from", id)
        return new

    def merge(self, ids, *, valid_time=None):
        ids = list(ids)
        olds = [self._row(i) for i in ids]
        if len(ids) < 2 or len(set(ids)) != len(ids):
            raise ValueError("merge takes two or more different records")
        if len({o["namespace"] for o in olds}) > 1:
            raise ValueError("merge stays in one namespace")
        types = [o["type"] for o in olds]
        kind = min(set(types), key=lambda t: (-types.count(t), t))
        times = [o["valid_time"] for o in olds if o["valid_time"] is not None]
        new = self._make(" / ".join(o["content"] for o in olds), kind, olds[0]["namespace"],
                         [t for o in olds for t in o["tags"]],
                         valid_time if valid_time is not None else (max(times) if times else None),
                         merged_from=sorted(ids))
        for i in ids:
            self._link(new, "merged_from", i)
        return new

    def split(self, id, parts, *, valid_time=None):
        old = self._row(id)
        if len(parts) < 2:
            raise ValueError("split takes two or more parts")
        made = []
        for p in parts:
            new = self._make(p, old["type"], old["namespace"], old["tags"],
                             old["valid_time"] if valid_time is None else valid_time, split_from=id)
            self._link(new, "split_from", id)
            made.append(new)
        return made

    def supersede(self, old, new):
        self._row(old)
        self._row(new)
        if old == new:
            raise ValueError("a record does not supersede itself")
        self._link(new, "supersedes", old)

    def delete(self, id):
        self._row(id)
        del self.rows[id]
        self.pairs = [e for e in self.pairs if id not in (e[0], e[2])]

    def records(self):
        return copy.deepcopy(self.rows)

    def edges(self):
        return list(self.pairs)


FACTORY = Stamped
