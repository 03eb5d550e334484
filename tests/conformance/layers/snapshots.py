"""A persistent layer: every call makes a new immutable version; ancestry metadata is derived from the edges.

Design: the state is a pair of frozen values (a tuple of records, a
frozenset of edges) replaced wholesale by each call, so a failing call can
never leave half a change behind.  Only edges are stored; ``records()``
derives each record's ``evolved_from`` / ``merged_from`` / ``split_from``
from its outgoing edges ("keep the edges, derive the metadata").  Valid time
is kept.
"""

from __future__ import annotations

from typing import NamedTuple

DESIGN = "immutable versions; edges both ways, metadata derived from them on read; valid time"
FLAW = None
EXPECTED = {"L1": True, "L2": True, "L3": True, "L4i": True, "L4ii": True, "L5": True, "L6": True, "L7": True,
            "S1": True, "S2": True, "S3": True, "S4": True}

OPPOSITE = {"evolved_from": "evolved_into", "merged_from": "merged_into", "split_from": "split_into",
            "supersedes": "superseded_by"}


class Rec(NamedTuple):
    id: str
    content: str
    type: str
    namespace: str
    tags: tuple
    user_meta: tuple
    valid_time: object


class Version(NamedTuple):
    recs: tuple
    links: frozenset
    made: int


class VersionedMemory:
    def __init__(self) -> None:
        self.head = Version((), frozenset(), 0)

    def _get(self, v, id):
        for r in v.recs:
            if r.id == id:
                return r
        raise KeyError(f"unknown {id}")

    @staticmethod
    def _with(v, recs, links=()):
        more = set(links) | {(b, OPPOSITE[rel], a) for a, rel, b in links}
        return Version(v.recs + tuple(recs), v.links | frozenset(more), v.made + len(recs))

    @staticmethod
    def _rec(v, k, content, type, namespace, tags, meta, vt):
        return Rec(f"v{v.made + k + 1}", content, type, namespace, tuple(sorted(set(tags))),
                   tuple(sorted(meta.items())), vt)

    def save(self, content, *, type="fact", namespace="global", tags=(), metadata=None, valid_time=None):
        r = self._rec(self.head, 0, content, type, namespace, tags, dict(metadata or {}), valid_time)
        self.head = self._with(self.head, [r])
        return r.id

    def evolve(self, id, content, *, valid_time=None):
        p = self._get(self.head, id)
        r = self._rec(self.head, 0, content, p.type, p.namespace, p.tags, {},
                      p.valid_time if valid_time is None else valid_time)
        self.head = self._with(self.head, [r], [(r.id, "evolved_from", p.id)])
        return r.id

    def merge(self, ids, *, valid_time=None):
        ps = [self._get(self.head, i) for i in ids]
        if len(ps) < 2 or len(set(ids)) < len(ps) or len({p.namespace for p in ps}) > 1:
            raise ValueError("merge: two or more distinct records of one namespace")
        types = sorted(p.type for p in ps)
        ty = min(set(types), key=lambda t: (-types.count(t), t))
        vts = [p.valid_time for p in ps if p.valid_time is not None]
        r = self._rec(self.head, 0, " ".join(p.content for p in ps), ty, ps[0].namespace,
                      [t for p in ps for t in p.tags], {},
                      valid_time if valid_time is not None else (max(vts) if vts else None))
        self.head = self._with(self.head, [r], [(r.id, "merged_from", p.id) for p in ps])
        return r.id

    def split(self, id, parts, *, valid_time=None):
        p = self._get(self.head, id)
        if len(parts) < 2:
            raise ValueError("split: two or more parts")
        vt = p.valid_time if valid_time is None else valid_time
        rs = [self._rec(self.head, k, c, p.type, p.namespace, p.tags, {}, vt) for k, c in enumerate(parts)]
        self.head = self._with(self.head, rs, [(r.id, "split_from", p.id) for r in rs])
        return [r.id for r in rs]

    def supersede(self, old, new):
        o, n = self._get(self.head, old), self._get(self.head, new)
        if o.id == n.id:
            raise ValueError("supersede: two different records")
        self.head = self._with(self.head, [], [(n.id, "supersedes", o.id)])

    def delete(self, id):
        self._get(self.head, id)
        v = self.head
        self.head = Version(tuple(r for r in v.recs if r.id != id),
                            frozenset(e for e in v.links if id not in (e[0], e[2])), v.made)

    def records(self):
        out = {}
        for r in self.head.recs:
            meta = dict(r.user_meta)
            for key in ("evolved_from", "split_from"):
                got = sorted(b for a, rel, b in self.head.links if a == r.id and rel == key)
                if got:
                    meta[key] = got[0]
            merged = sorted(b for a, rel, b in self.head.links if a == r.id and rel == "merged_from")
            if merged:
                meta["merged_from"] = merged
            out[r.id] = {"content": r.content, "type": r.type, "namespace": r.namespace, "tags": list(r.tags),
                         "metadata": meta, "valid_time": r.valid_time}
        return out

    def edges(self):
        return sorted(self.head.links)


FACTORY = VersionedMemory
