"""A layer that refuses to save a record equal to one it already holds.

Design: records in a dict keyed by a counter ("r1", "r2", ...), lineage as
edges both ways, delete cascades, valid time accepted everywhere.  Planted
flaw: ``save`` refuses a record whose content, type, namespace, tags and
metadata equal a live record's.  Whether a save succeeds then depends on
records it does not name, which S2 forbids; nothing depends on an order, and
two equal saves made "in the other order" are the same word, so L5 holds.
"""

from __future__ import annotations

from .dict_both import Memory

DESIGN = "dict; edges and metadata in sync; valid time; save refuses a duplicate of a live record"
FLAW = "save refuses a record equal to a live one: its outcome reads records it does not name"
EXPECTED = {"L1": True, "L2": True, "L3": True, "L4i": True, "L4ii": True, "L5": True, "L6": True, "L7": True,
            "S1": True, "S2": False, "S3": True, "S4": True}


class NoDuplicates(Memory):
    def save(self, content, *, type="fact", namespace="global", tags=(), metadata=None, valid_time=None):
        wanted = {"content": content, "type": type, "namespace": namespace, "tags": sorted(set(tags)),
                  "metadata": dict(metadata or {})}
        for row in self.data.values():
            if {k: row[k] for k in wanted} == wanted:
                raise ValueError("this memory is already saved")
        return super().save(content, type=type, namespace=namespace, tags=tags, metadata=metadata,
                            valid_time=valid_time)


FACTORY = NoDuplicates
