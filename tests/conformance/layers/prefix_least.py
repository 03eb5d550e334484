"""A layer whose identifiers are digests and whose prefixes resolve to the least match (declared).

Design: one dict of rows and a list of edge triples with their inverses.
Identifiers are ``"k"`` and six hex digits of a hash of a running number, so
creation order and string order disagree.  Every call that names a record,
and ``recall``, accept a prefix (``prefix_arguments``); when several records
match, the least identifier in string order wins (``prefix_rule =
"least"``).  Lineage is kept as edges only.  Valid time is kept.
"""

from __future__ import annotations

import hashlib

DESIGN = "dict; digest identifiers; prefixes resolved by the declared rule 'least'; edges both ways; valid time"
FLAW = None
EXPECTED = {"L1": True, "L2": True, "L3": True, "L4i": True, "L4ii": True, "L5": True, "L6": True, "L7": True,
            "S1": True, "S2": True, "S3": True, "S4": True}

BACK = {"evolved_from": "evolved_into", "merged_from": "merged_into", "split_from": "split_into",
        "supersedes": "superseded_by"}


class LeastMatch:
    prefix_arguments = True
    prefix_rule = "least"

    def __init__(self) -> None:
        self.rows: dict[str, dict] = {}
        self.links: list[tuple[str, str, str]] = []
        self.count = 0

    def _find(self, ref):
        if ref in self.rows:
            return ref
        matches = sorted(i for i in self.rows if i.startswith(ref))
        if not matches:
            raise KeyError(ref)
        return matches[0]

    def recall(self, ref):
        try:
            return self._find(ref)
        except KeyError:
            return None

    def _new(self, content, type, namespace, tags, valid_time, metadata=None):
        self.count += 1
        i = "k" + hashlib.sha256(f"row {self.count}".encode()).hexdigest()[:6]
        self.rows[i] = {"content": content, "type": type, "namespace": namespace, "tags": sorted(set(tags)),
                        "metadata": dict(metadata or {}), "valid_time": valid_time}
        return i

    def _link(self, child, label, parent):
        self.links += [(child, label, parent), (parent, BACK[label], child)]

    def save(self, content, *, type="fact", namespace="global", tags=(), metadata=None, valid_time=None):
        return self._new(content, type, namespace, tags, valid_time, metadata)

    def evolve(self, id, content, *, valid_time=None):
        src = self._find(id)
        r = self.rows[src]
        j = self._new(content, r["type"], r["namespace"], r["tags"], r["valid_time"] if valid_time is None
                      else valid_time)
        self._link(j, "evolved_from", src)
        return j

    def merge(self, ids, *, valid_time=None):
        srcs = [self._find(i) for i in ids]
        if len(srcs) < 2 or len(set(srcs)) < len(srcs):
            raise ValueError("merge takes two or more different records")
        rs = [self.rows[s] for s in srcs]
        if len({r["namespace"] for r in rs}) > 1:
            raise ValueError("merge stays in one namespace")
        types = [r["type"] for r in rs]
        ty = min(set(types), key=lambda t: (-types.count(t), t))
        times = [r["valid_time"] for r in rs if r["valid_time"] is not None]
        j = self._new("; ".join(r["content"] for r in rs), ty, rs[0]["namespace"],
                      [t for r in rs for t in r["tags"]], valid_time if valid_time is not None
                      else max(times, default=None))
        for s in srcs:
            self._link(j, "merged_from", s)
        return j

    def split(self, id, parts, *, valid_time=None):
        src = self._find(id)
        if len(parts) < 2:
            raise ValueError("split makes two or more parts")
        r = self.rows[src]
        made = [self._new(p, r["type"], r["namespace"], r["tags"], r["valid_time"] if valid_time is None
                          else valid_time) for p in parts]
        for j in made:
            self._link(j, "split_from", src)
        return made

    def supersede(self, old, new):
        o, n = self._find(old), self._find(new)
        if o == n:
            raise ValueError("nothing supersedes itself")
        if (n, "supersedes", o) not in self.links:
            self._link(n, "supersedes", o)

    def delete(self, id):
        i = self._find(id)
        del self.rows[i]
        self.links = [e for e in self.links if i not in (e[0], e[2])]

    def records(self):
        return {i: {**r, "tags": list(r["tags"]), "metadata": dict(r["metadata"])} for i, r in self.rows.items()}

    def edges(self):
        return list(self.links)


FACTORY = LeastMatch
