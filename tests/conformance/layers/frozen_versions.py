"""Immutable state: every call builds a new frozen state; records() shows the current one.

Design: every call builds a new frozen state (read-only mapping proxies,
a frozenset of edges) and swaps it in; records() hands out the current
read-only mappings themselves.  Identifiers are a zero-padded counter kept in
the state.  Lineage is shown only as edges, each written with its inverse.
Valid time is kept.
"""

from __future__ import annotations

DESIGN = "immutable states swapped per call; read-only mappings; lineage as edges only; valid time"
FLAW = None
EXPECTED = {"L1": True, "L2": True, "L3": True, "L4i": True, "L4ii": True, "L5": True, "L6": True,
            "L7": True, "S1": True, "S2": True, "S3": True, "S4": True}

from types import MappingProxyType as Frozen

INV = {"evolved_from": "evolved_into", "merged_from": "merged_into",
       "split_from": "split_into", "supersedes": "superseded_by"}


class State:
    __slots__ = ("recs", "links", "n")

    def __init__(self, recs=Frozen({}), links=frozenset(), n=0):
        self.recs, self.links, self.n = recs, links, n

    def with_records(self, new, links=()):
        recs = dict(self.recs)
        n = self.n
        ids = []
        for rec in new:
            n += 1
            i = f"v{n:04d}"
            recs[i] = Frozen(rec)
            ids.append(i)
        return State(Frozen(recs), self.links, n), ids

    def with_links(self, pairs):
        add = set()
        for a, rel, b in pairs:
            add |= {(a, rel, b), (b, INV[rel], a)}
        return State(self.recs, self.links | add, self.n)


def rec(content, type, namespace, tags, metadata, vt):
    return {"content": content, "type": type, "namespace": namespace,
            "tags": tuple(sorted(tags)), "metadata": Frozen(dict(metadata or {})),
            "valid_time": vt}


class FrozenVersions:
    def __init__(self):
        self.state = State()

    def _get(self, i):
        if i not in self.state.recs:
            raise KeyError(f"no record {i!r}")
        return self.state.recs[i]

    def save(self, content, *, type="fact", namespace="global", tags=(), metadata=None,
             valid_time=None):
        self.state, (i,) = self.state.with_records(
            [rec(content, type, namespace, tags, metadata, valid_time)])
        return i

    def evolve(self, id, content, *, valid_time=None):
        old = self._get(id)
        vt = old["valid_time"] if valid_time is None else valid_time
        st, (i,) = self.state.with_records(
            [rec(content, old["type"], old["namespace"], old["tags"], {}, vt)])
        self.state = st.with_links([(i, "evolved_from", id)])
        return i

    def merge(self, ids, *, valid_time=None):
        ids = list(ids)
        olds = [self._get(i) for i in ids]
        if len(set(ids)) < 2 or len({o["namespace"] for o in olds}) != 1:
            raise ValueError("merge needs two or more distinct records of one namespace")
        first = olds[0]
        tags = sorted({t for o in olds for t in o["tags"]})
        content = "\n".join(o["content"] for o in olds)
        st, (i,) = self.state.with_records(
            [rec(content, first["type"], first["namespace"], tags, {}, valid_time)])
        self.state = st.with_links([(i, "merged_from", j) for j in ids])
        return i

    def split(self, id, parts, *, valid_time=None):
        old = self._get(id)
        parts = list(parts)
        if not parts:
            raise ValueError("split needs at least one part")
        vt = old["valid_time"] if valid_time is None else valid_time
        st, new = self.state.with_records(
            [rec(p, old["type"], old["namespace"], old["tags"], {}, vt) for p in parts])
        self.state = st.with_links([(i, "split_from", id) for i in new])
        return new

    def supersede(self, old, new):
        self._get(old), self._get(new)
        if old == new:
            raise ValueError("a record cannot supersede itself")
        self.state = self.state.with_links([(new, "supersedes", old)])

    def delete(self, id):
        self._get(id)
        recs = {k: v for k, v in self.state.recs.items() if k != id}
        links = frozenset(e for e in self.state.links if id not in (e[0], e[2]))
        self.state = State(Frozen(recs), links, self.state.n)

    def records(self):
        return self.state.recs

    def edges(self):
        return sorted(self.state.links)


FACTORY = FrozenVersions
