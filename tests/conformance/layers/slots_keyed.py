"""A __slots__ class with its own key scheme (base-36 counter keys) and save at a chosen key.

Design: a class with __slots__ and record objects with __slots__, converted
to dicts on read; keys are a base-36 counter ('k-a', 'k-10') and save
takes id= to store or replace a record at a chosen key.  Lineage is metadata
plus edges both ways, each edge written once.  Valid time is kept.
"""

from __future__ import annotations

DESIGN = "__slots__ classes, base-36 keys, save at a chosen key; edges and metadata; valid time"
FLAW = None
EXPECTED = {"L1": True, "L2": True, "L3": True, "L4i": True, "L4ii": True, "L5": True, "L6": True,
            "L7": True, "S1": True, "S2": True, "S3": True, "S4": True}

BACK = {"evolved_from": "evolved_into", "merged_from": "merged_into",
        "split_from": "split_into", "supersedes": "superseded_by"}
DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"


def base36(n):
    out = ""
    while True:
        n, d = divmod(n, 36)
        out = DIGITS[d] + out
        if n == 0:
            return out


class Entry:
    __slots__ = ("content", "type", "namespace", "tags", "metadata", "valid_time")

    def __init__(self, content, type, namespace, tags, metadata, valid_time):
        self.content, self.type, self.namespace = content, type, namespace
        self.tags, self.metadata, self.valid_time = tuple(sorted(tags)), metadata, valid_time

    def shown(self):
        return {"content": self.content, "type": self.type, "namespace": self.namespace,
                "tags": list(self.tags), "metadata": dict(self.metadata),
                "valid_time": self.valid_time}


class SlotsMemory:
    __slots__ = ("entries", "triples", "issued")

    def __init__(self):
        self.entries, self.triples, self.issued = {}, [], 0

    def _key(self):
        while True:
            self.issued += 1
            k = "k-" + base36(self.issued)
            if k not in self.entries:
                return k

    def _entry(self, k):
        if k not in self.entries:
            raise KeyError(k)
        return self.entries[k]

    def _rel(self, a, rel, b):
        for e in ((a, rel, b), (b, BACK[rel], a)):
            if e not in self.triples:
                self.triples.append(e)

    def save(self, content, *, type="fact", namespace="global", tags=(), metadata=None,
             valid_time=None, id=None):
        k = self._key() if id is None else id
        self.entries[k] = Entry(content, type, namespace, tags, dict(metadata or {}), valid_time)
        return k

    def _derived(self, old, content, meta, vt):
        k = self._key()
        self.entries[k] = Entry(content, old.type, old.namespace, old.tags, meta, vt)
        return k

    def evolve(self, id, content, *, valid_time=None):
        old = self._entry(id)
        vt = old.valid_time if valid_time is None else valid_time
        k = self._derived(old, content, {"evolved_from": id}, vt)
        self._rel(k, "evolved_from", id)
        return k

    def merge(self, ids, *, valid_time=None):
        ids = list(ids)
        olds = [self._entry(i) for i in ids]
        if len(set(ids)) < 2 or len({o.namespace for o in olds}) > 1:
            raise ValueError("merge: two or more distinct records of one namespace")
        k = self._derived(olds[0], " & ".join(o.content for o in olds),
                          {"merged_from": ids}, valid_time)
        for i in ids:
            self._rel(k, "merged_from", i)
        return k

    def split(self, id, parts, *, valid_time=None):
        old = self._entry(id)
        if not parts:
            raise ValueError("split: no parts")
        vt = old.valid_time if valid_time is None else valid_time
        out = [self._derived(old, p, {"split_from": id}, vt) for p in parts]
        for k in out:
            self._rel(k, "split_from", id)
        return out

    def supersede(self, old, new):
        self._entry(old), self._entry(new)
        if old == new:
            raise ValueError("supersede: same record")
        self._rel(new, "supersedes", old)

    def delete(self, id):
        self._entry(id)
        del self.entries[id]
        self.triples = [e for e in self.triples if id not in (e[0], e[2])]

    def records(self):
        return {k: e.shown() for k, e in self.entries.items()}

    def edges(self):
        return list(self.triples)


FACTORY = SlotsMemory
