"""A dict-backed layer that shows more than the kit reads: each record's ``kind`` and ``version``.

Design: the layer of ``dict_both`` (edges both ways, delete cascades, valid
time inherited when not given) without ancestry metadata, whose records also
show ``kind`` (how each was made) and ``version`` (its parent's plus one, 1 for
a save).  A derived record is tagged ``rev-<version>``, read off the record it
came from, and a split part is not split again (its ``kind`` says so).  The kit
reads neither field, so a store it rebuilds by saves would show them otherwise:
such cases are not judged, never failed.
"""

from __future__ import annotations

from .dict_both import Memory

DESIGN = "dict; records show a kind and a version the calls read; lineage as edges only; valid time"
FLAW = None
EXPECTED = {"L1": True, "L2": True, "L3": True, "L4i": True, "L4ii": True, "L5": True, "L6": True, "L7": True,
            "S1": True, "S2": True, "S3": True, "S4": True}


class Versioned(Memory):
    def _made(self, key, kind, version, tag=True):
        r = self.data[key]
        r.update(kind=kind, version=version, metadata={})  # lineage as edges only
        if tag:
            r["tags"] = sorted({*r["tags"], f"rev-{version}"})
        return key

    def save(self, content, *, type="fact", namespace="global", tags=(), metadata=None, valid_time=None):
        key = super().save(content, type=type, namespace=namespace, tags=tags, metadata=metadata,
                           valid_time=valid_time)
        self.data[key].update(kind="saved", version=1)
        return key

    def evolve(self, id, content, *, valid_time=None):
        v = self._must(id)["version"] + 1
        return self._made(super().evolve(id, content, valid_time=valid_time), "evolved", v)

    def merge(self, ids, *, valid_time=None):
        v = max((self._must(i)["version"] for i in ids), default=0) + 1
        return self._made(super().merge(ids, valid_time=valid_time), "merged", v, tag=False)

    def split(self, id, parts, *, valid_time=None):
        old = self._must(id)
        if old["kind"] == "split":
            raise ValueError("a part of a split is not split again")
        return [self._made(k, "split", old["version"] + 1, tag=False)
                for k in super().split(id, parts, valid_time=valid_time)]


FACTORY = Versioned
