"""A layer with recall by prefix only, resolving an ambiguous prefix to the newest match (declared).

Design: two dicts, one for records and one for the parents of each record;
identifiers are a sequence number and a letter (``"3k"``).  Only ``recall``
takes prefixes (no ``prefix_arguments``); when several records match it
returns the most recently created one, and says so with ``prefix_rule =
"newest"``.  Lineage is metadata plus edges both ways, written by one helper.
Valid time is kept.
"""

from __future__ import annotations

DESIGN = "dict; recall by prefix resolved by the declared rule 'newest'; edges both ways and metadata; valid time"
FLAW = None
EXPECTED = {"L1": True, "L2": True, "L3": True, "L4i": True, "L4ii": True, "L5": True, "L6": True, "L7": True,
            "S1": True, "S2": True, "S3": True, "S4": True}

INV = {"evolved_from": "evolved_into", "merged_from": "merged_into", "split_from": "split_into",
       "supersedes": "superseded_by"}


class NewestRecall:
    prefix_rule = "newest"

    def __init__(self) -> None:
        self.store: dict[str, dict] = {}
        self.order: list[str] = []
        self.rel: list[tuple[str, str, str]] = []
        self.seq = 0

    def recall(self, ref):
        if ref in self.store:
            return ref
        hits = [i for i in self.order if i in self.store and i.startswith(ref)]
        return hits[-1] if hits else None

    def _rec(self, id):
        try:
            return self.store[id]
        except KeyError:
            raise LookupError(f"no such record: {id}") from None

    def _make(self, content, type, namespace, tags, valid_time, parents=(), how=None):
        self.seq += 1
        i = f"{self.seq}k"
        meta = {}
        if how == "merged_from":
            meta[how] = sorted(parents)
        elif how:
            meta[how] = parents[0]
        self.store[i] = {"content": content, "type": type, "namespace": namespace, "tags": sorted(set(tags)),
                         "metadata": meta, "valid_time": valid_time}
        self.order.append(i)
        for p in parents:
            self.rel += [(i, how, p), (p, INV[how], i)]
        return i

    def save(self, content, *, type="fact", namespace="global", tags=(), metadata=None, valid_time=None):
        i = self._make(content, type, namespace, tags, valid_time)
        self.store[i]["metadata"] = dict(metadata or {})
        return i

    def evolve(self, id, content, *, valid_time=None):
        r = self._rec(id)
        return self._make(content, r["type"], r["namespace"], r["tags"],
                          r["valid_time"] if valid_time is None else valid_time, [id], "evolved_from")

    def merge(self, ids, *, valid_time=None):
        rs = [self._rec(i) for i in ids]
        if len(set(ids)) < 2 or len(set(ids)) < len(ids):
            raise ValueError("merge needs at least two distinct records")
        if len({r["namespace"] for r in rs}) != 1:
            raise ValueError("merge within one namespace only")
        types = [r["type"] for r in rs]
        ty = min(set(types), key=lambda t: (-types.count(t), t))
        vts = [r["valid_time"] for r in rs if r["valid_time"] is not None]
        return self._make(" + ".join(r["content"] for r in rs), ty, rs[0]["namespace"],
                          [t for r in rs for t in r["tags"]],
                          valid_time if valid_time is not None else max(vts, default=None), list(ids), "merged_from")

    def split(self, id, parts, *, valid_time=None):
        r = self._rec(id)
        if len(parts) < 2:
            raise ValueError("split needs two parts at least")
        vt = r["valid_time"] if valid_time is None else valid_time
        return [self._make(p, r["type"], r["namespace"], r["tags"], vt, [id], "split_from") for p in parts]

    def supersede(self, old, new):
        self._rec(old)
        self._rec(new)
        if old == new:
            raise ValueError("a record cannot supersede itself")
        if (new, "supersedes", old) not in self.rel:
            self.rel += [(new, "supersedes", old), (old, "superseded_by", new)]

    def delete(self, id):
        self._rec(id)
        del self.store[id]
        self.rel = [e for e in self.rel if id not in (e[0], e[2])]

    def records(self):
        return {i: {**r, "metadata": dict(r["metadata"]), "tags": list(r["tags"])} for i, r in self.store.items()}

    def edges(self):
        return list(self.rel)


FACTORY = NewestRecall
