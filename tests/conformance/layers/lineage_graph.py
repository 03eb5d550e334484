"""Lineage lives in a separate graph object; records() derives ancestry metadata from it.

Design: records in a dict, lineage in a separate graph object that stores
only child-to-parent links; edges() derives both directions from it and
records() derives the ancestry metadata from it on every read, so the two
representations come from one.  Merge drops repeated identifiers.  Valid time is kept.
"""

from __future__ import annotations

DESIGN = "dict plus a separate lineage graph; edges and ancestry metadata both derived on read"
FLAW = None
EXPECTED = {"L1": True, "L2": True, "L3": True, "L4i": True, "L4ii": True, "L5": True, "L6": True,
            "L7": True, "S1": True, "S2": True, "S3": True, "S4": True}

ANCESTRY = {"evolved_from": "evolved_into", "merged_from": "merged_into",
            "split_from": "split_into"}
OTHER = {"supersedes": "superseded_by"}


class Graph:
    """Typed parent links; the inverse direction is derived, never stored."""

    def __init__(self):
        self.up = {}      # child -> list of (relation, parent), in the order written
        self.other = []  # (a, relation, b) non-ancestry links, each stored once

    def link(self, child, rel, parent):
        self.up.setdefault(child, []).append((rel, parent))

    def forget(self, node):
        self.up.pop(node, None)
        for child in list(self.up):
            self.up[child] = [(r, p) for r, p in self.up[child] if p != node]
        self.other = [e for e in self.other if node not in (e[0], e[2])]

    def parents(self, child):
        return self.up.get(child, [])

    def triples(self):
        out = set()
        for child, ups in self.up.items():
            for rel, parent in ups:
                out |= {(child, rel, parent), (parent, ANCESTRY[rel], child)}
        for a, rel, b in self.other:
            out |= {(a, rel, b), (b, OTHER[rel], a)}
        return sorted(out)


class GraphMemory:
    def __init__(self):
        self.rows = {}
        self.graph = Graph()
        self.count = 0

    def _new(self, content, type, namespace, tags, metadata, vt):
        self.count += 1
        i = f"node-{self.count}"
        self.rows[i] = {"content": content, "type": type, "namespace": namespace,
                        "tags": sorted(tags), "metadata": dict(metadata or {}),
                        "valid_time": vt}
        return i

    def _row(self, i):
        try:
            return self.rows[i]
        except KeyError:
            raise KeyError(f"unknown record {i!r}") from None

    def save(self, content, *, type="fact", namespace="global", tags=(), metadata=None,
             valid_time=None):
        return self._new(content, type, namespace, tags, metadata, valid_time)

    def evolve(self, id, content, *, valid_time=None):
        old = self._row(id)
        vt = old["valid_time"] if valid_time is None else valid_time
        i = self._new(content, old["type"], old["namespace"], old["tags"], None, vt)
        self.graph.link(i, "evolved_from", id)
        return i

    def merge(self, ids, *, valid_time=None):
        ids = list(dict.fromkeys(ids))
        olds = [self._row(i) for i in ids]
        if len(ids) < 2:
            raise ValueError("merge needs two distinct records")
        if len({o["namespace"] for o in olds}) != 1:
            raise ValueError("merge across namespaces is refused")
        types = sorted({o["type"] for o in olds})
        i = self._new(" + ".join(o["content"] for o in olds), types[0],
                      olds[0]["namespace"], sorted({t for o in olds for t in o["tags"]}),
                      None, valid_time)
        for j in ids:
            self.graph.link(i, "merged_from", j)
        return i

    def split(self, id, parts, *, valid_time=None):
        old = self._row(id)
        if len(parts) == 0:
            raise ValueError("split needs parts")
        vt = old["valid_time"] if valid_time is None else valid_time
        out = []
        for p in parts:
            i = self._new(p, old["type"], old["namespace"], old["tags"], None, vt)
            self.graph.link(i, "split_from", id)
            out.append(i)
        return out

    def supersede(self, old, new):
        self._row(old), self._row(new)
        if old == new:
            raise ValueError("supersede needs two records")
        self.graph.other.append((new, "supersedes", old))

    def delete(self, id):
        self._row(id)
        del self.rows[id]
        self.graph.forget(id)

    def records(self):
        out = {}
        for i, row in self.rows.items():
            meta = dict(row["metadata"])
            for k in ANCESTRY:
                meta.pop(k, None)
            for rel, parent in self.graph.parents(i):
                if rel == "merged_from":
                    meta.setdefault(rel, []).append(parent)
                else:
                    meta[rel] = parent
            out[i] = {**row, "metadata": meta}
        return out

    def edges(self):
        return self.graph.triples()


FACTORY = GraphMemory
