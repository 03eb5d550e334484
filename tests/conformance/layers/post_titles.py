"""Posts numbered ``p1, p2, …``, each titled with the first line of its content.

Design: a blog-like store.  Every record's metadata carries a ``title``, the
first line of its content (at most 40 characters).  Lineage as edges both
ways, no ancestry metadata; a merge joins its parents' contents by newlines in
argument order.  Delete removes the post and every edge touching it.  Written
by someone outside the team: the kit once failed it on L4 and S2, reading the
title ``"p2"`` of the part ``p2`` (a word the kit writes) as the record ``p2``.
"""

from __future__ import annotations

DESIGN = "posts numbered p1, p2, … titled by their first line; edges only"
FLAW = None
EXPECTED = {"L1": True, "L2": True, "L3": True, "L4i": True, "L4ii": True, "L5": True, "L6": True, "L7": True,
            "S1": True, "S2": True, "S3": True, "S4": True}

INV = {"evolved_from": "evolved_into", "merged_from": "merged_into", "split_from": "split_into",
       "supersedes": "superseded_by"}


class PostTitles:
    def __init__(self):
        self.posts, self.links, self.n = {}, [], 0

    def _put(self, content, type, namespace, tags, metadata, valid_time):
        self.n += 1
        i = f"p{self.n}"
        meta = dict(metadata or {})
        meta["title"] = content.splitlines()[0][:40] if content else ""
        self.posts[i] = {"content": content, "type": type, "namespace": namespace, "tags": sorted(set(tags)),
                         "metadata": meta, "valid_time": valid_time}
        return i

    def _get(self, i):
        if i not in self.posts:
            raise KeyError(i)
        return self.posts[i]

    def _link(self, a, rel, b):
        for e in ((a, rel, b), (b, INV[rel], a)):
            if e not in self.links:
                self.links.append(e)

    def save(self, content, *, type="fact", namespace="global", tags=(), metadata=None, valid_time=None):
        return self._put(content, type, namespace, tags, metadata, valid_time)

    def evolve(self, id, content, *, valid_time=None):
        p = self._get(id)
        i = self._put(content, p["type"], p["namespace"], p["tags"], None, valid_time)
        self._link(i, "evolved_from", id)
        return i

    def merge(self, ids, *, valid_time=None):
        ids = list(ids)
        if len(ids) < 2 or len(set(ids)) != len(ids):
            raise ValueError("merge two or more distinct posts")
        ps = [self._get(i) for i in ids]
        if len({p["namespace"] for p in ps}) != 1:
            raise ValueError("merge within one namespace")
        i = self._put("\n".join(p["content"] for p in ps), ps[0]["type"], ps[0]["namespace"],
                      {t for p in ps for t in p["tags"]}, None, valid_time)
        for j in ids:
            self._link(i, "merged_from", j)
        return i

    def split(self, id, parts, *, valid_time=None):
        p = self._get(id)
        out = []
        for c in parts:
            i = self._put(c, p["type"], p["namespace"], p["tags"], None, valid_time)
            self._link(i, "split_from", id)
            out.append(i)
        return out

    def supersede(self, old, new):
        self._get(old), self._get(new)
        if old == new:
            raise ValueError("same post")
        self._link(new, "supersedes", old)

    def delete(self, id):
        self._get(id)
        del self.posts[id]
        self.links = [e for e in self.links if id not in (e[0], e[2])]

    def records(self):
        return {i: {**r, "tags": list(r["tags"]), "metadata": dict(r["metadata"])} for i, r in self.posts.items()}

    def edges(self):
        return list(self.links)


FACTORY = PostTitles
