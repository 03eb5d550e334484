"""Planted flaw (L5): the layer declares the rule 'least' for ambiguous prefixes but picks the greatest match.

Design: records as a list of row tuples, rebuilt into a dict on each read;
identifiers are three letters counted backwards from ``"zzz"``, so the newest
record has the least identifier.  ``recall`` (and only ``recall``) takes a
prefix.  The declaration says the least matching identifier wins; the code
sorts the matches the wrong way round.  Lineage is metadata plus edges both
ways.  Valid time is kept.
"""

from __future__ import annotations

DESIGN = "list of rows; recall by prefix declares the rule 'least' but takes the greatest match"
FLAW = "an ambiguous prefix resolves to the greatest match, not the least one the layer declares"
EXPECTED = {"L1": True, "L2": True, "L3": True, "L4i": True, "L4ii": True, "L5": False, "L6": True, "L7": True,
            "S1": True, "S2": True, "S3": True, "S4": True}

OTHER_WAY = {"evolved_from": "evolved_into", "merged_from": "merged_into", "split_from": "split_into",
             "supersedes": "superseded_by"}
LETTERS = "abcdefghijklmnopqrstuvwxyz"


def _name(n: int) -> str:
    k = 26 ** 3 - 1 - n
    return "".join(LETTERS[k // 26 ** p % 26] for p in (2, 1, 0))


class GreatestInstead:
    prefix_rule = "least"

    def __init__(self) -> None:
        self.log: list[tuple[str, dict]] = []
        self.gone: set[str] = set()
        self.pairs: list[tuple[str, str, str]] = []

    def _table(self):
        return {i: r for i, r in self.log if i not in self.gone}

    def recall(self, ref):
        rows = self._table()
        if ref in rows:
            return ref
        hits = sorted((i for i in rows if i.startswith(ref)), reverse=True)  # the slip: greatest first
        return hits[0] if hits else None

    def _get(self, id):
        rows = self._table()
        if id not in rows:
            raise LookupError(f"unknown record {id}")
        return rows[id]

    def _add(self, content, type, namespace, tags, valid_time, parents=(), how=None, metadata=None):
        i = _name(len(self.log))
        meta = dict(metadata or {})
        if how == "merged_from":
            meta[how] = sorted(parents)
        elif how:
            meta[how] = parents[0]
        self.log.append((i, {"content": content, "type": type, "namespace": namespace, "tags": sorted(set(tags)),
                             "metadata": meta, "valid_time": valid_time}))
        for p in parents:
            self.pairs += [(i, how, p), (p, OTHER_WAY[how], i)]
        return i

    def save(self, content, *, type="fact", namespace="global", tags=(), metadata=None, valid_time=None):
        return self._add(content, type, namespace, tags, valid_time, metadata=metadata)

    def evolve(self, id, content, *, valid_time=None):
        r = self._get(id)
        return self._add(content, r["type"], r["namespace"], r["tags"],
                         r["valid_time"] if valid_time is None else valid_time, [id], "evolved_from")

    def merge(self, ids, *, valid_time=None):
        if len(ids) < 2 or len(set(ids)) < len(ids):
            raise ValueError("merge needs two or more distinct records")
        rs = [self._get(i) for i in ids]
        if len({r["namespace"] for r in rs}) != 1:
            raise ValueError("one namespace only")
        types = [r["type"] for r in rs]
        ty = min(set(types), key=lambda t: (-types.count(t), t))
        vts = [r["valid_time"] for r in rs if r["valid_time"] is not None]
        return self._add(" | ".join(r["content"] for r in rs), ty, rs[0]["namespace"],
                         [t for r in rs for t in r["tags"]],
                         valid_time if valid_time is not None else max(vts, default=None), list(ids), "merged_from")

    def split(self, id, parts, *, valid_time=None):
        r = self._get(id)
        if len(parts) < 2:
            raise ValueError("two parts or more")
        vt = r["valid_time"] if valid_time is None else valid_time
        return [self._add(p, r["type"], r["namespace"], r["tags"], vt, [id], "split_from") for p in parts]

    def supersede(self, old, new):
        self._get(old)
        self._get(new)
        if old == new:
            raise ValueError("a record does not supersede itself")
        if (new, "supersedes", old) not in self.pairs:
            self.pairs += [(new, "supersedes", old), (old, "superseded_by", new)]

    def delete(self, id):
        self._get(id)
        self.gone.add(id)
        self.pairs = [e for e in self.pairs if id not in (e[0], e[2])]

    def records(self):
        return {i: {**r, "tags": list(r["tags"]), "metadata": dict(r["metadata"])} for i, r in self._table().items()}

    def edges(self):
        return list(self.pairs)


FACTORY = GreatestInstead
