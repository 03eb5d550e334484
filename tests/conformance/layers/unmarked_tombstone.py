"""A layer whose delete leaves a tombstone that nothing shows: the record stays listed, unmarked.

Design: records in a dict, lineage as edges both ways (no ancestry metadata),
valid time kept.  ``delete`` keeps the record and its edges and puts the
identifier in a private set, which ``records()`` does not show; from then on
every call naming it is refused.  So two words can leave the same records and
edges -- one with a delete, one without -- and still differ in what a later
call does.  The layer keeps every law; the kit must judge it by runs of the
words it cites, and find nothing.  (Compare ``tombstones``, whose tombstone
shows in metadata, and ``flaw_hidden_tombstone``, which hides the record.)
"""

from __future__ import annotations

DESIGN = "delete keeps the record listed and unmarked, and refuses it ever after (a tombstone nothing shows)"
FLAW = None
EXPECTED = {"L1": True, "L2": True, "L3": True, "L4i": True, "L4ii": True, "L5": True, "L6": True, "L7": True,
            "S1": True, "S2": True, "S3": True, "S4": True}

BACK = {"evolved_from": "evolved_into", "merged_from": "merged_into", "split_from": "split_into",
        "supersedes": "superseded_by"}


class UnmarkedTombstones:
    def __init__(self) -> None:
        self.recs: dict[str, dict] = {}
        self.links: set[tuple[str, str, str]] = set()
        self.gone: set[str] = set()  # deleted: listed as before, refused from now on

    def _alive(self, i):
        if i not in self.recs or i in self.gone:
            raise LookupError(f"{i} is not a live record")
        return self.recs[i]

    def _add(self, content, like, vt):
        i = f"t-{len(self.recs)}"
        self.recs[i] = {"content": content, "type": like["type"], "namespace": like["namespace"],
                        "tags": list(like["tags"]), "metadata": {}, "valid_time": vt}
        return i

    def _tie(self, a, rel, b):
        self.links |= {(a, rel, b), (b, BACK[rel], a)}

    def save(self, content, *, type="fact", namespace="global", tags=(), metadata=None, valid_time=None):
        i = self._add(content, {"type": type, "namespace": namespace, "tags": sorted(set(tags))}, valid_time)
        self.recs[i]["metadata"] = dict(metadata or {})
        return i

    def evolve(self, id, content, *, valid_time=None):
        r = self._alive(id)
        j = self._add(content, r, r["valid_time"] if valid_time is None else valid_time)
        self._tie(j, "evolved_from", id)
        return j

    def merge(self, ids, *, valid_time=None):
        rs = [self._alive(i) for i in ids]
        if len(rs) < 2 or len(set(ids)) < len(ids) or len({r["namespace"] for r in rs}) > 1:
            raise ValueError("merge takes two or more records of one namespace")
        like = {"type": sorted(r["type"] for r in rs)[0], "namespace": rs[0]["namespace"],
                "tags": sorted({t for r in rs for t in r["tags"]})}
        j = self._add(" + ".join(r["content"] for r in rs), like, valid_time)
        for i in ids:
            self._tie(j, "merged_from", i)
        return j

    def split(self, id, parts, *, valid_time=None):
        r = self._alive(id)
        if not parts:
            raise ValueError("split needs a part")
        made = [self._add(p, r, r["valid_time"] if valid_time is None else valid_time) for p in parts]
        for j in made:
            self._tie(j, "split_from", id)
        return made

    def supersede(self, old, new):
        self._alive(old)
        self._alive(new)
        if old == new:
            raise ValueError("a record does not supersede itself")
        self._tie(new, "supersedes", old)

    def delete(self, id):
        self._alive(id)
        self.gone.add(id)

    def records(self):
        return {i: {**r, "tags": list(r["tags"]), "metadata": dict(r["metadata"])} for i, r in self.recs.items()}

    def edges(self):
        return sorted(self.links)


FACTORY = UnmarkedTombstones
