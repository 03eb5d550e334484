"""An event-sourced layer: every call appends an event; the state is rebuilt from the log on each read.

Design: nothing but an append-only list of events.  ``records()`` folds the
log from the start.  Lineage lives only in metadata (``evolved_from``,
``merged_from``, ``split_from``); the layer has no edges at all, so
``edges()`` is always empty.  ``supersede`` is logged but changes no record
(a record, once written, is never rewritten).  Valid time is part of each event.
"""

from __future__ import annotations

DESIGN = "event log (state rebuilt from an append-only log); lineage as metadata only; valid time"
FLAW = None
EXPECTED = {"L1": True, "L2": True, "L3": True, "L4i": True, "L4ii": True, "L5": True, "L6": True, "L7": True,
            "S1": True, "S2": True, "S3": True, "S4": True}


class EventSourced:
    def __init__(self) -> None:
        self.log: list[tuple] = []

    def _state(self):
        state: dict[str, dict] = {}
        for ev in self.log:
            kind = ev[0]
            if kind == "put":
                _, id, fields = ev
                state[id] = fields
            elif kind == "drop":
                state.pop(ev[1])
        return state

    def _next_id(self):
        return f"e{sum(1 for ev in self.log if ev[0] == 'put') + 1}"

    def _get(self, id):
        st = self._state()
        if id not in st:
            raise KeyError(f"no record {id}")
        return st[id]

    def _put(self, content, type, namespace, tags, metadata, valid_time):
        id = self._next_id()
        self.log.append(("put", id, {"content": content, "type": type, "namespace": namespace,
                                     "tags": tuple(sorted(set(tags))), "metadata": dict(metadata),
                                     "valid_time": valid_time}))
        return id

    def save(self, content, *, type="fact", namespace="global", tags=(), metadata=None, valid_time=None):
        return self._put(content, type, namespace, tags, metadata or {}, valid_time)

    def evolve(self, id, content, *, valid_time=None):
        r = self._get(id)
        return self._put(content, r["type"], r["namespace"], r["tags"], {"evolved_from": id},
                         r["valid_time"] if valid_time is None else valid_time)

    def merge(self, ids, *, valid_time=None):
        rs = [self._get(i) for i in ids]
        if len(ids) < 2 or len(set(ids)) < len(ids):
            raise ValueError("merge wants at least two distinct ids")
        if len({r["namespace"] for r in rs}) > 1:
            raise ValueError("merge wants one namespace")
        types = [r["type"] for r in rs]
        top = max(types.count(t) for t in types)
        ty = min(t for t in types if types.count(t) == top)
        times = [r["valid_time"] for r in rs if r["valid_time"] is not None]
        return self._put("; ".join(r["content"] for r in rs), ty, rs[0]["namespace"],
                         [t for r in rs for t in r["tags"]], {"merged_from": sorted(ids)},
                         valid_time if valid_time is not None else (max(times) if times else None))

    def split(self, id, parts, *, valid_time=None):
        r = self._get(id)
        if len(parts) < 2:
            raise ValueError("split wants two or more parts")
        vt = r["valid_time"] if valid_time is None else valid_time
        return [self._put(p, r["type"], r["namespace"], r["tags"], {"split_from": id}, vt) for p in parts]

    def supersede(self, old, new):
        self._get(old)
        self._get(new)
        if old == new:
            raise ValueError("same record")
        self.log.append(("supersede", old, new))

    def delete(self, id):
        self._get(id)
        self.log.append(("drop", id))

    def records(self):
        return {i: {**r, "tags": list(r["tags"])} for i, r in self._state().items()}

    def edges(self):
        return []

FACTORY = EventSourced
