"""A layer of rows with a lifecycle: a ``status`` field that supersede changes, and UTC stamps.

Design: each row shows, beside the fields the kit reads, a top-level ``status``
(``"active"``, or ``"superseded"`` once another record supersedes it) and a
``head`` flag that an evolve clears on the record it evolves.  A record that is
superseded, or is no longer a head, cannot be evolved, merged or split: one
derives from its successor instead.  Each row's metadata carries ``saved_at``,
naive ISO text in UTC (``datetime.utcnow().isoformat()``, as SQLite's
``CURRENT_TIMESTAMP`` is), and a split returns its parts as a tuple, each part
noting its siblings as ``mem://`` links.  Lineage is kept as edges both ways;
valid time is kept.

The refusals read fields the kit does not judge; a store made by other calls
that shows those fields otherwise is no case to compare, and every clause holds.
"""

from __future__ import annotations

import itertools
from datetime import UTC, datetime

DESIGN = "rows with a status and a head flag that calls change; UTC stamps; split returns a tuple"
FLAW = None
EXPECTED = {"L1": True, "L2": True, "L3": True, "L4i": True, "L4ii": True, "L5": True, "L6": True, "L7": True,
            "S1": True, "S2": True, "S3": True, "S4": True}

INVERSE = {"evolved_from": "evolved_into", "merged_from": "merged_into", "split_from": "split_into",
           "supersedes": "superseded_by"}


def _utc_now() -> str:
    return datetime.now(UTC).replace(tzinfo=None).isoformat()


class StatusRows:
    def __init__(self) -> None:
        self.rows: dict[str, dict] = {}
        self.links: set[tuple[str, str, str]] = set()
        self.numbers = itertools.count(1)

    def _derivable(self, i: str) -> dict:
        row = self.rows[i]
        if row["status"] != "active" or not row["head"]:
            raise ValueError(f"{i} has a successor; derive from it instead")
        return row

    def _new(self, content, type, namespace, tags, metadata, valid_time) -> str:
        i = f"row-{next(self.numbers)}"
        self.rows[i] = {"content": content, "type": type, "namespace": namespace, "tags": sorted(tags),
                        "metadata": {**metadata, "saved_at": _utc_now()}, "valid_time": valid_time,
                        "status": "active", "head": True}
        return i

    def _link(self, new: str, relation: str, old: str) -> None:
        self.links |= {(new, relation, old), (old, INVERSE[relation], new)}

    def save(self, content, *, type="fact", namespace="global", tags=(), metadata=None, valid_time=None):
        return self._new(content, type, namespace, tags, dict(metadata or {}), valid_time)

    def evolve(self, id, content, *, valid_time=None):
        row = self._derivable(id)
        new = self._new(content, row["type"], row["namespace"], row["tags"], {}, valid_time)
        row["head"] = False
        self._link(new, "evolved_from", id)
        return new

    def merge(self, ids, *, valid_time=None):
        if len(set(ids)) < 2:
            raise ValueError("a merge needs two different records")
        rows = [self._derivable(i) for i in ids]
        if len({r["namespace"] for r in rows}) > 1:
            raise ValueError("records of different namespaces are not merged")
        new = self._new(" + ".join(r["content"] for r in rows), rows[0]["type"], rows[0]["namespace"],
                        sorted({t for r in rows for t in r["tags"]}), {}, valid_time)
        for i in ids:
            self._link(new, "merged_from", i)
        return new

    def split(self, id, parts, *, valid_time=None):
        row = self._derivable(id)
        made = tuple(self._new(p, row["type"], row["namespace"], row["tags"], {}, valid_time) for p in parts)
        for j in made:
            self.rows[j]["metadata"]["siblings"] = [f"mem://{k}" for k in made if k != j]
            self._link(j, "split_from", id)
        return made

    def supersede(self, old, new):
        if old == new or old not in self.rows or new not in self.rows:
            raise KeyError("supersede needs two different records that exist")
        self.rows[old]["status"] = "superseded"
        self._link(new, "supersedes", old)

    def delete(self, id):
        del self.rows[id]
        self.links = {e for e in self.links if id not in (e[0], e[2])}

    def records(self):
        return {i: {**r, "metadata": dict(r["metadata"])} for i, r in self.rows.items()}

    def edges(self):
        return sorted(self.links)


FACTORY = StatusRows
