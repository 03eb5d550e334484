"""A layer that writes identifiers into its records' metadata under keys of its own.

Design: lineage as edges both ways only (no ancestry metadata keys); besides,
every record notes its own identifier as ``"uid"``, an evolved record notes the
record it revises as ``"revises"``, and a merged one its sources as
``"sources"`` (a list, in the order given).  Identifiers come from a counter
("m1", "m2", ...), so a record's notes change with the identifiers the layer
chose, and a checker that compares stores up to a renaming of identifiers must
rename these values too.  Valid time is accepted everywhere.
"""

from __future__ import annotations

from typing import Any

DESIGN = "dict; edges only; metadata notes identifiers under keys of its own ('uid', 'revises', 'sources')"
FLAW = None
EXPECTED = {"L1": True, "L2": True, "L3": True, "L4i": True, "L4ii": True, "L5": True, "L6": True, "L7": True,
            "S1": True, "S2": True, "S3": True, "S4": True}

PAIRS = {"evolved_from": "evolved_into", "merged_from": "merged_into", "split_from": "split_into",
         "supersedes": "superseded_by"}


class Noted:
    def __init__(self) -> None:
        self.rows: dict[str, dict[str, Any]] = {}
        self.links: set[tuple[str, str, str]] = set()
        self.n = 0

    def _add(self, content, type, namespace, tags, notes, valid_time):
        self.n += 1
        uid = f"m{self.n}"
        self.rows[uid] = {"content": content, "type": type, "namespace": namespace, "tags": sorted(set(tags)),
                          "metadata": {**notes, "uid": uid}, "valid_time": valid_time}
        return uid

    def _get(self, uid):
        if uid not in self.rows:
            raise KeyError(f"no record {uid}")
        return self.rows[uid]

    def _link(self, a, rel, b):
        self.links |= {(a, rel, b), (b, PAIRS[rel], a)}

    def save(self, content, *, type="fact", namespace="global", tags=(), metadata=None, valid_time=None):
        notes = dict(metadata or {})
        notes.pop("uid", None)
        return self._add(content, type, namespace, tags, notes, valid_time)

    def evolve(self, id, content, *, valid_time=None):
        old = self._get(id)
        new = self._add(content, old["type"], old["namespace"], old["tags"], {"revises": id},
                        old["valid_time"] if valid_time is None else valid_time)
        self._link(new, "evolved_from", id)
        return new

    def merge(self, ids, *, valid_time=None):
        ids = list(ids)
        olds = [self._get(i) for i in ids]
        if len(ids) < 2 or len(set(ids)) < len(ids) or len({o["namespace"] for o in olds}) > 1:
            raise ValueError("merge two or more different records of one namespace")
        types = sorted(o["type"] for o in olds)
        kind = max(types, key=lambda t: (types.count(t), [-ord(c) for c in t]))
        new = self._add(" + ".join(o["content"] for o in olds), kind, olds[0]["namespace"],
                        {t for o in olds for t in o["tags"]}, {"sources": ids}, valid_time)
        for i in ids:
            self._link(new, "merged_from", i)
        return new

    def split(self, id, parts, *, valid_time=None):
        old = self._get(id)
        if len(parts) < 2:
            raise ValueError("split into two or more parts")
        out = [self._add(p, old["type"], old["namespace"], old["tags"], {},
                         old["valid_time"] if valid_time is None else valid_time) for p in parts]
        for new in out:
            self._link(new, "split_from", id)
        return out

    def supersede(self, old, new):
        self._get(old)
        self._get(new)
        if old == new:
            raise ValueError("a record cannot supersede itself")
        self._link(new, "supersedes", old)

    def delete(self, id):
        self._get(id)
        del self.rows[id]
        self.links = {e for e in self.links if id not in (e[0], e[2])}

    def records(self):
        return {uid: {**row, "metadata": dict(row["metadata"])} for uid, row in self.rows.items()}

    def edges(self):
        return sorted(self.links)


FACTORY = Noted
