"""A layer that writes its identifiers inside text: URIs, notes and tags.

Design: records in a dict under random identifiers (12 hex digits); lineage
both as ancestry metadata and as edges both ways.  Besides, every record keeps
its own address as a URI (``"mem://alice/3f9c..."``), an evolved record notes
``"revision of mem://..."``, a merged one ``"merged from <id>, <id>"``, and a
part carries the tag ``"part-of:<id>"``.  Deleting a record leaves the notes
of others as they are, so text may name a record no longer there.  A checker
comparing runs up to a renaming of identifiers must read identifiers inside
these strings too: as raw text they differ from one fresh layer to the next.
Valid time is accepted everywhere and inherited when not given.
"""

from __future__ import annotations

import secrets
from typing import Any

DESIGN = "dict; random ids written inside text (URIs, notes, tags); metadata and edges both ways; valid time"
FLAW = None
EXPECTED = {"L1": True, "L2": True, "L3": True, "L4i": True, "L4ii": True, "L5": True, "L6": True, "L7": True,
            "S1": True, "S2": True, "S3": True, "S4": True}

BACK = {"evolved_from": "evolved_into", "merged_from": "merged_into", "split_from": "split_into",
        "supersedes": "superseded_by"}
OWN = ("uri", "note", "evolved_from", "merged_from", "split_from")  # written by the layer, never taken from a caller


class TextIds:
    def __init__(self) -> None:
        self.items: dict[str, dict[str, Any]] = {}
        self.links: list[tuple[str, str, str]] = []

    def _make(self, content, type, namespace, tags, meta, valid_time):
        key = secrets.token_hex(6)
        while key in self.items:
            key = secrets.token_hex(6)
        self.items[key] = {"content": content, "type": type, "namespace": namespace, "tags": sorted(set(tags)),
                           "metadata": {**meta, "uri": f"mem://{namespace}/{key}"}, "valid_time": valid_time}
        return key

    def _item(self, key):
        try:
            return self.items[key]
        except KeyError:
            raise KeyError(f"unknown record {key}") from None

    def _tie(self, new, relation, old):
        for edge in ((new, relation, old), (old, BACK[relation], new)):
            if edge not in self.links:
                self.links.append(edge)

    def save(self, content, *, type="fact", namespace="global", tags=(), metadata=None, valid_time=None):
        meta = {k: v for k, v in (metadata or {}).items() if k not in OWN}
        return self._make(content, type, namespace, tags, meta, valid_time)

    def evolve(self, id, content, *, valid_time=None):
        old = self._item(id)
        new = self._make(content, old["type"], old["namespace"], old["tags"],
                         {"evolved_from": [id], "note": f"revision of {old['metadata']['uri']}"},
                         old["valid_time"] if valid_time is None else valid_time)
        self._tie(new, "evolved_from", id)
        return new

    def merge(self, ids, *, valid_time=None):
        ids = list(ids)
        if len(ids) < 2 or len(set(ids)) != len(ids):
            raise ValueError("merge needs two or more different records")
        olds = [self._item(i) for i in ids]
        if len({o["namespace"] for o in olds}) != 1:
            raise ValueError("merge within one namespace only")
        kinds = [o["type"] for o in olds]
        kind = sorted(set(kinds), key=lambda t: (-kinds.count(t), t))[0]
        new = self._make(" / ".join(o["content"] for o in olds), kind, olds[0]["namespace"],
                         [t for o in olds for t in o["tags"]],
                         {"merged_from": sorted(ids), "note": "merged from " + ", ".join(ids)}, valid_time)
        for i in ids:
            self._tie(new, "merged_from", i)
        return new

    def split(self, id, parts, *, valid_time=None):
        old = self._item(id)
        if len(parts) < 2:
            raise ValueError("split needs two or more parts")
        made = [self._make(p, old["type"], old["namespace"], [*old["tags"], f"part-of:{id}"],
                           {"split_from": [id]}, old["valid_time"] if valid_time is None else valid_time)
                for p in parts]
        for new in made:
            self._tie(new, "split_from", id)
        return made

    def supersede(self, old, new):
        self._item(old)
        self._item(new)
        if old == new:
            raise ValueError("a record does not supersede itself")
        self._tie(new, "supersedes", old)

    def delete(self, id):
        self._item(id)
        del self.items[id]
        self.links = [e for e in self.links if id not in (e[0], e[2])]
        for item in self.items.values():
            for key in ("evolved_from", "merged_from", "split_from"):
                if id in item["metadata"].get(key, ()):
                    item["metadata"][key] = [x for x in item["metadata"][key] if x != id]

    def records(self):
        return {k: {**v, "tags": list(v["tags"]), "metadata": {m: list(x) if isinstance(x, list) else x
                                                               for m, x in v["metadata"].items()}}
                for k, v in self.items.items()}

    def edges(self):
        return list(self.links)


FACTORY = TextIds
