"""One dict per namespace, identifiers 'namespace/n' numbered within their namespace.

Design: one shard per namespace, each with its own dict, edge list and
counter; identifiers are 'namespace/n', numbered within the namespace, so
two namespaces hand out the same numbers.  A merge or supersede across
shards is refused.  Lineage is metadata plus edges both ways.  Valid time is kept.
"""

from __future__ import annotations

DESIGN = "one dict and counter per namespace, identifiers 'namespace/n'; edges and metadata; valid time"
FLAW = None
EXPECTED = {"L1": True, "L2": True, "L3": True, "L4i": True, "L4ii": True, "L5": True, "L6": True,
            "L7": True, "S1": True, "S2": True, "S3": True, "S4": True}

PAIRS = {"evolved_from": "evolved_into", "merged_from": "merged_into",
         "split_from": "split_into", "supersedes": "superseded_by"}


class Shard:
    def __init__(self, name):
        self.name, self.recs, self.links, self.next = name, {}, [], 1

    def add(self, rec):
        i = f"{self.name}/{self.next}"
        self.next += 1
        self.recs[i] = rec
        return i

    def link(self, a, rel, b):
        self.links += [(a, rel, b), (b, PAIRS[rel], a)]


class ShardedMemory:
    def __init__(self):
        self.shards = {}

    def _shard_of(self, i):
        for shard in self.shards.values():
            if i in shard.recs:
                return shard
        raise KeyError(f"{i!r} names no record")

    def _shard(self, namespace):
        if namespace not in self.shards:
            self.shards[namespace] = Shard(namespace)
        return self.shards[namespace]

    def save(self, content, *, type="fact", namespace="global", tags=(), metadata=None,
             valid_time=None):
        meta = dict(metadata or {})
        return self._shard(namespace).add({"content": content, "type": type,
                                           "tags": tuple(sorted(tags)), "metadata": meta,
                                           "valid_time": valid_time})

    def evolve(self, id, content, *, valid_time=None):
        shard = self._shard_of(id)
        old = shard.recs[id]
        vt = old["valid_time"] if valid_time is None else valid_time
        i = shard.add({**old, "content": content, "metadata": {"evolved_from": id},
                       "valid_time": vt})
        shard.link(i, "evolved_from", id)
        return i

    def merge(self, ids, *, valid_time=None):
        shards = {self._shard_of(i).name for i in ids}
        if len(shards) != 1:
            raise ValueError("a merge stays inside one namespace")
        if len(set(ids)) < 2:
            raise ValueError("a merge needs two different records")
        shard = self.shards[shards.pop()]
        olds = [shard.recs[i] for i in ids]
        i = shard.add({"content": "; ".join(o["content"] for o in olds),
                       "type": olds[0]["type"],
                       "tags": tuple(sorted({t for o in olds for t in o["tags"]})),
                       "metadata": {"merged_from": list(ids)}, "valid_time": valid_time})
        for j in ids:
            shard.link(i, "merged_from", j)
        return i

    def split(self, id, parts, *, valid_time=None):
        shard = self._shard_of(id)
        old = shard.recs[id]
        if not parts:
            raise ValueError("no parts")
        vt = old["valid_time"] if valid_time is None else valid_time
        out = [shard.add({**old, "content": p, "metadata": {"split_from": id},
                          "valid_time": vt}) for p in parts]
        for i in out:
            shard.link(i, "split_from", id)
        return out

    def supersede(self, old, new):
        a, b = self._shard_of(old), self._shard_of(new)
        if old == new:
            raise ValueError("a record does not supersede itself")
        if a is not b:
            raise ValueError("supersede within one namespace")
        a.link(new, "supersedes", old)

    def delete(self, id):
        shard = self._shard_of(id)
        del shard.recs[id]
        shard.links = [e for e in shard.links if id not in (e[0], e[2])]

    def records(self):
        return {i: {**r, "namespace": name}
                for name in sorted(self.shards) for i, r in self.shards[name].recs.items()}

    def edges(self):
        return [e for name in sorted(self.shards) for e in self.shards[name].links]


FACTORY = ShardedMemory
