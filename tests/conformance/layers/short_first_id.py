"""Identifiers of two lengths: the first record is ``c``, every later one a letter and a number.

Design: a dict of records; evolve, merge, split, supersede and delete accept
any prefix of an identifier (``prefix_arguments``), and an ambiguous prefix
resolves to the newest matching record (``prefix_rule = "newest"``; parts of
one split tie, and such a prefix is refused).  Edges are stored one way and
shown with their inverses; no ancestry metadata; delete takes the record's
edges with it; valid time kept as given.  The first identifier has one
character, so no shorter prefix can name that record alone: the kit cannot
ask a call by prefix on it, while in a run where the saves come in another
order it can.  A call one run cannot make is compared with nothing.
"""

from __future__ import annotations

import copy
import string

DESIGN = "dict; the first identifier one character long; prefixes by the declared rule 'newest'; valid time"
FLAW = None
EXPECTED = {"L1": True, "L2": True, "L3": True, "L4i": True, "L4ii": True, "L5": True, "L6": True, "L7": True,
            "S1": True, "S2": True, "S3": True, "S4": True}

INVERSE = {"evolved_from": "evolved_into", "merged_from": "merged_into", "split_from": "split_into",
           "supersedes": "superseded_by"}
_HEADS = [ch for ch in string.ascii_lowercase + string.digits if ch != "c"]


class ShortFirst:
    prefix_arguments = True
    prefix_rule = "newest"

    def __init__(self):
        self._recs = {}
        self._born = {}
        self._calls = 0
        self._forward = []

    def _resolve(self, ref):
        hits = [i for i in self._recs if i.startswith(ref)]
        if not hits:
            raise KeyError(f"no record matches {ref!r}")
        newest = max(self._born[i] for i in hits)
        top = [i for i in hits if self._born[i] == newest]
        if len(top) > 1:
            raise LookupError(f"{ref!r} matches {len(top)} records made by one call")
        return top[0]

    def _create(self, body):
        n = len(self._born)
        new = "c" if n == 0 else f"{_HEADS[(n - 1) % len(_HEADS)]}{(n - 1) // len(_HEADS)}"
        self._recs[new] = copy.deepcopy(body)
        self._born[new] = self._calls
        return new

    def _link(self, src, rel, dst):
        if (src, rel, dst) not in self._forward:
            self._forward.append((src, rel, dst))

    def save(self, content, *, type="fact", namespace="global", tags=(), metadata=None, valid_time=None):
        self._calls += 1
        return self._create({"content": content, "type": type, "namespace": namespace, "tags": list(tags),
                             "metadata": dict(metadata or {}), "valid_time": valid_time})

    def evolve(self, id, content, *, valid_time=None):
        id = self._resolve(id)
        self._calls += 1
        new = self._create({**self._recs[id], "content": content, "valid_time": valid_time})
        self._link(new, "evolved_from", id)
        return new

    def merge(self, ids, *, valid_time=None):
        ids = [self._resolve(i) for i in ids]
        if len(ids) < 2 or len(set(ids)) < len(ids):
            raise ValueError("merge needs two or more distinct records")
        rs = [self._recs[i] for i in ids]
        if len({r["namespace"] for r in rs}) > 1:
            raise ValueError("cannot merge across namespaces")
        meta, tags = {}, []
        for r in rs:
            meta.update(r["metadata"])
            tags += [t for t in r["tags"] if t not in tags]
        self._calls += 1
        new = self._create({"content": "\n".join(r["content"] for r in rs), "type": rs[0]["type"],
                            "namespace": rs[0]["namespace"], "tags": tags, "metadata": meta,
                            "valid_time": valid_time})
        for i in ids:
            self._link(new, "merged_from", i)
        return new

    def split(self, id, parts, *, valid_time=None):
        id, parts = self._resolve(id), list(parts)
        if not parts:
            raise ValueError("split needs at least one part")
        self._calls += 1
        out = [self._create({**self._recs[id], "content": p, "valid_time": valid_time}) for p in parts]
        for new in out:
            self._link(new, "split_from", id)
        return out

    def supersede(self, old, new):
        old, new = self._resolve(old), self._resolve(new)
        if old == new or self._recs[old]["namespace"] != self._recs[new]["namespace"]:
            raise ValueError("supersede takes two records of one namespace")
        self._calls += 1
        self._link(new, "supersedes", old)

    def delete(self, id):
        id = self._resolve(id)
        self._calls += 1
        del self._recs[id]
        self._forward = [e for e in self._forward if id not in (e[0], e[2])]

    def records(self):
        return copy.deepcopy(self._recs)

    def edges(self):
        return [e for s, r, d in self._forward for e in ((s, r, d), (d, INVERSE[r], s))]


FACTORY = ShortFirst
