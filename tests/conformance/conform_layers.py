"""Memory layers for the conformance tests: one that keeps every law, one per planted violation, misuses.

:class:`GoodMemory` is a small dict-backed layer that keeps every clause: its
ancestry metadata is read off its edges, merges stay inside one namespace and
break type ties by a declared rule, supersede and delete check existence,
delete takes the record's edges with it, and valid times are kept.  Each
``Planted*`` layer changes one method so that one law breaks; the tests check
that the kit names that law and that call.  The ``Misuse*`` layers break the
protocol itself.  Identifiers are uuid-like on purpose: the kit must rename them.
"""

from __future__ import annotations

import hashlib
import itertools
import time
import uuid
from collections.abc import Mapping, Sequence
from typing import Any

LINEAGE = {"evolved_from": "evolved_into", "merged_from": "merged_into", "split_from": "split_into",
           "supersedes": "superseded_by"}


class GoodMemory:
    """Every law holds."""

    def __init__(self) -> None:
        self._records: dict[str, dict[str, Any]] = {}
        self._edges: set[tuple[str, str, str]] = set()
        self._born: dict[str, int] = {}  # creation order: what the metadata lists parents by, not the random ids

    def _id(self, content: str, type: str, namespace: str) -> str:
        """The identifier of the next record: drawn at random (some layers below choose otherwise)."""
        return uuid.uuid4().hex[:12]

    def _new(self, content: str, type: str, namespace: str, tags: Sequence[str],
             metadata: Mapping[str, Any] | None, valid_time: Any) -> str:
        i = self._id(content, type, namespace)
        self._born[i] = len(self._born)
        self._records[i] = {"content": content, "type": type, "namespace": namespace, "tags": sorted(tags),
                            "metadata": dict(metadata or {}), "valid_time": valid_time}
        return i

    def _get(self, i: str) -> dict[str, Any]:
        if i not in self._records:
            raise KeyError(f"no record {i}")
        return self._records[i]

    def _link(self, src: str, rel: str, dst: str) -> None:
        self._edges |= {(src, rel, dst), (dst, LINEAGE[rel], src)}

    def save(self, content: str, *, type: str = "fact", namespace: str = "global", tags: Sequence[str] = (),
             metadata: Mapping[str, Any] | None = None, valid_time: Any = None) -> str:
        if any(k in (metadata or {}) for k in ("evolved_from", "merged_from", "split_from")):
            raise ValueError("ancestry is written by derivations only")
        return self._new(content, type, namespace, tags, metadata, valid_time)

    def evolve(self, id: str, content: str, *, valid_time: Any = None) -> str:
        r = self._get(id)
        j = self._new(content, r["type"], r["namespace"], r["tags"], {},
                      r["valid_time"] if valid_time is None else valid_time)
        self._link(j, "evolved_from", id)
        return j

    def merge(self, ids: Sequence[str], *, valid_time: Any = None) -> str:
        rs = [self._get(i) for i in ids]
        if len(set(ids)) < 2 or len({r["namespace"] for r in rs}) > 1:
            raise ValueError("merge two or more distinct records of one namespace")
        types = [r["type"] for r in rs]
        ty = min(t for t in types if types.count(t) == max(map(types.count, types)))
        times = [r["valid_time"] for r in rs if r["valid_time"] is not None]
        j = self._new(" + ".join(r["content"] for r in rs), ty, rs[0]["namespace"],
                      sorted({t for r in rs for t in r["tags"]}), {},
                      valid_time if valid_time is not None else max(times, default=None))
        for i in ids:
            self._link(j, "merged_from", i)
        return j

    def split(self, id: str, parts: Sequence[str], *, valid_time: Any = None) -> list[str]:
        r = self._get(id)
        if len(parts) < 2:
            raise ValueError("split into two or more parts")
        out = []
        for p in parts:
            j = self._new(p, r["type"], r["namespace"], r["tags"], {},
                          r["valid_time"] if valid_time is None else valid_time)
            self._link(j, "split_from", id)
            out.append(j)
        return out

    def supersede(self, old: str, new: str) -> None:
        self._get(old)
        self._get(new)
        if old == new:
            raise ValueError("a record cannot supersede itself")
        self._link(new, "supersedes", old)

    def delete(self, id: str) -> None:
        self._get(id)
        del self._records[id]
        self._edges = {e for e in self._edges if id not in (e[0], e[2])}

    def _ancestry(self, i: str) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key in ("evolved_from", "split_from"):
            found = sorted((d for s, r, d in self._edges if s == i and r == key), key=self._born.__getitem__)
            if found:
                out[key] = found[0]
        merged = sorted((d for s, r, d in self._edges if s == i and r == "merged_from"), key=self._born.__getitem__)
        if merged:
            out["merged_from"] = merged
        return out

    def records(self) -> dict[str, dict[str, Any]]:
        return {i: {**r, "metadata": {**r["metadata"], **self._ancestry(i)}} for i, r in self._records.items()}

    def edges(self) -> list[tuple[str, str, str]]:
        return sorted(self._edges)


class IntoOnly(GoodMemory):
    """Lineage edges from the parent's side only (evolved_into, ...), and ancestry metadata read off them."""

    _FROM = {v: k for k, v in LINEAGE.items()}

    def _link(self, src: str, rel: str, dst: str) -> None:
        self._edges.add((dst, LINEAGE[rel], src))

    def _ancestry(self, i: str) -> dict[str, Any]:
        parents: dict[str, list[str]] = {}
        for p, rel, c in sorted(self._edges, key=lambda e: self._born.get(e[0], 0)):
            if c == i and self._FROM.get(rel) in ("evolved_from", "merged_from", "split_from"):
                parents.setdefault(self._FROM[rel], []).append(p)
        return {k: (v if k == "merged_from" else v[0]) for k, v in parents.items()}


class PlantedL2IntoOnly(IntoOnly):
    """As IntoOnly, but a merged record's metadata names its first parent only."""

    def _ancestry(self, i: str) -> dict[str, Any]:
        out = super()._ancestry(i)
        if "merged_from" in out:
            out["merged_from"] = out["merged_from"][:1]
        return out


# --------------------------------------------------------------------------- one planted violation each


class TextIds(GoodMemory):
    """Every law holds; identifiers are written inside text: a URI per record, a note on an evolved one."""

    def _new(self, content: str, type: str, namespace: str, tags: Sequence[str],
             metadata: Mapping[str, Any] | None, valid_time: Any) -> str:
        i = super()._new(content, type, namespace, tags, metadata, valid_time)
        self._records[i]["metadata"] = {**self._records[i]["metadata"], "uri": f"mem://{namespace}/{i}"}
        return i

    def evolve(self, id: str, content: str, *, valid_time: Any = None) -> str:
        j = super().evolve(id, content, valid_time=valid_time)
        self._records[j]["metadata"]["note"] = f"revision of mem://{self._get(id)['namespace']}/{id}"
        return j


class PlantedL4iInText(TextIds):
    """evolve's note names the newest record of the whole layer, across namespaces, inside its text."""

    def evolve(self, id: str, content: str, *, valid_time: Any = None) -> str:
        newest = max(self._records, key=self._born.__getitem__)
        j = super().evolve(id, content, valid_time=valid_time)
        self._records[j]["metadata"]["note"] += f", after {newest}"
        return j


class PlantedL1(GoodMemory):
    """evolve rewrites the record it evolves (it should leave it as it was)."""

    def evolve(self, id: str, content: str, *, valid_time: Any = None) -> str:
        j = super().evolve(id, content, valid_time=valid_time)
        self._records[id]["content"] += " (superseded)"
        return j


class PlantedL2(GoodMemory):
    """merge keeps its own merged_from metadata, naming only the first parent."""

    def merge(self, ids: Sequence[str], *, valid_time: Any = None) -> str:
        j = super().merge(ids, valid_time=valid_time)
        self._records[j]["metadata"]["merged_from"] = [ids[0]]
        return j

    def records(self) -> dict[str, dict[str, Any]]:
        out = super().records()
        for i, r in out.items():
            r["metadata"].update({k: v for k, v in self._records[i]["metadata"].items()})
        return out


class PlantedL3(GoodMemory):
    """split writes split_from edges without their split_into inverses."""

    def split(self, id: str, parts: Sequence[str], *, valid_time: Any = None) -> list[str]:
        out = super().split(id, parts, valid_time=valid_time)
        self._edges = {e for e in self._edges if e[1] != "split_into"}
        return out


class PlantedL4i(GoodMemory):
    """save numbers each record by how many records the whole layer holds, across namespaces."""

    def save(self, content: str, *, type: str = "fact", namespace: str = "global", tags: Sequence[str] = (),
             metadata: Mapping[str, Any] | None = None, valid_time: Any = None) -> str:
        return super().save(content, type=type, namespace=namespace, tags=tags,
                            metadata={**(metadata or {}), "position": len(self._records)}, valid_time=valid_time)


class PlantedL4ii(GoodMemory):
    """merge accepts records of several namespaces and files the result in the first one's."""

    def merge(self, ids: Sequence[str], *, valid_time: Any = None) -> str:
        rs = [self._get(i) for i in ids]
        if len(set(ids)) < 2:
            raise ValueError("merge two or more distinct records")
        j = self._new(" + ".join(r["content"] for r in rs), rs[0]["type"], rs[0]["namespace"],
                      sorted({t for r in rs for t in r["tags"]}), {}, valid_time)
        for i in ids:
            self._link(j, "merged_from", i)
        return j


class PlantedL5(GoodMemory):
    """merge breaks a type tie by the iteration order of a set of strings: by the hash seed."""

    def merge(self, ids: Sequence[str], *, valid_time: Any = None) -> str:
        j = super().merge(ids, valid_time=valid_time)
        types = [self._get(i)["type"] for i in ids]
        self._records[j]["type"] = max(set(types), key=types.count)
        return j


class PlantedL5Insertion(GoodMemory):
    """merge joins its sources' contents oldest first, by an order of creation that records() does not show.

    Its identifiers are derived from the content (and how many equal records came before), so two saves
    made in the other order keep their identifiers and only the hidden order differs."""

    def _id(self, content: str, type: str, namespace: str) -> str:
        key = f"{content}|{type}|{namespace}"
        seen = self.__dict__.setdefault("_seen", {})
        seen[key] = seen.get(key, 0) + 1
        return "h" + hashlib.sha1(f"{key}|{seen[key]}".encode()).hexdigest()[:11]

    def merge(self, ids: Sequence[str], *, valid_time: Any = None) -> str:
        j = super().merge(ids, valid_time=valid_time)
        self._records[j]["content"] = " + ".join(self._get(i)["content"] for i in sorted(ids, key=self._born.__getitem__))
        return j


class PlantedL5Prefix(GoodMemory):
    """delete takes prefixes and, when several records match, deletes the first it meets, by no declared rule."""

    prefix_arguments = True

    def _resolve(self, ref: str) -> str:
        if ref in self._records:
            return ref
        found = [i for i in self._records if i.startswith(ref)]
        if not found:
            raise KeyError(f"no record {ref}")
        return found[0]

    def delete(self, id: str) -> None:
        super().delete(self._resolve(id))

    def evolve(self, id: str, content: str, *, valid_time: Any = None) -> str:
        return super().evolve(self._resolve(id), content, valid_time=valid_time)

    def split(self, id: str, parts: Sequence[str], *, valid_time: Any = None) -> list[str]:
        return super().split(self._resolve(id), parts, valid_time=valid_time)

    def merge(self, ids: Sequence[str], *, valid_time: Any = None) -> str:
        return super().merge([self._resolve(i) for i in ids], valid_time=valid_time)


class DeclaredPrefix(PlantedL5Prefix):
    """The same prefixes, resolved by a declared rule: the earliest-created match (and kept in that order)."""

    prefix_rule = "oldest"


class PlantedL6(GoodMemory):
    """save accepts a valid time and forgets it."""

    def save(self, content: str, *, type: str = "fact", namespace: str = "global", tags: Sequence[str] = (),
             metadata: Mapping[str, Any] | None = None, valid_time: Any = None) -> str:
        return super().save(content, type=type, namespace=namespace, tags=tags, metadata=metadata)


class PlantedL7(GoodMemory):
    """delete removes the record and leaves its edges behind."""

    def delete(self, id: str) -> None:
        self._get(id)
        del self._records[id]


class PlantedS1(GoodMemory):
    """split of an unknown record stores a part before it notices, then raises."""

    def split(self, id: str, parts: Sequence[str], *, valid_time: Any = None) -> list[str]:
        if id not in self._records:
            self._new(parts[0], "fact", "global", (), {}, None)
        return super().split(id, parts, valid_time=valid_time)


class PlantedS4(GoodMemory):
    """supersede also records, on the old record, an ancestry edge to the new one."""

    def supersede(self, old: str, new: str) -> None:
        super().supersede(old, new)
        self._link(old, "evolved_from", new)


class Nondeterministic(GoodMemory):
    """save stamps each record with the clock: the same word never shows the same store twice."""

    def save(self, content: str, *, type: str = "fact", namespace: str = "global", tags: Sequence[str] = (),
             metadata: Mapping[str, Any] | None = None, valid_time: Any = None) -> str:
        return super().save(content, type=type, namespace=namespace, tags=tags,
                            metadata={**(metadata or {}), "saved_at": time.perf_counter_ns()}, valid_time=valid_time)


# --------------------------------------------------------------------------- protocol misuse


class MisuseNoSplit(GoodMemory):
    split = None  # type: ignore[assignment]


class MisuseEvolveSignature(GoodMemory):
    def evolve(self, id: str) -> str:  # type: ignore[override]
        return id


class MisuseRecordsList(GoodMemory):
    def records(self) -> list[str]:  # type: ignore[override]
        return []


class MisuseRelation(GoodMemory):
    def edges(self) -> list[tuple[str, str, str]]:
        return [(s, "parent" if r == "evolved_from" else r, d) for s, r, d in super().edges()]


class MisuseSaveReturns(GoodMemory):
    def save(self, content: str, **kw: Any) -> Any:  # type: ignore[override]
        super().save(content, **kw)
        return 1


class MisuseSplitCount(GoodMemory):
    def split(self, id: str, parts: Sequence[str], *, valid_time: Any = None) -> list[str]:
        return super().split(id, parts, valid_time=valid_time)[:1]


class MisuseSplitReversed(GoodMemory):
    def split(self, id: str, parts: Sequence[str], *, valid_time: Any = None) -> list[str]:
        return super().split(id, parts, valid_time=valid_time)[::-1]


class MisuseLeastOfRandom(PlantedL5Prefix):
    """Resolves an ambiguous prefix to the least identifier, as declared, among identifiers each fresh layer
    draws afresh: as random ones would, but surely, they run up on one layer and down on the next."""

    prefix_rule = "least"
    layers = itertools.count()

    def __init__(self) -> None:
        super().__init__()
        self._down = next(MisuseLeastOfRandom.layers) % 2 == 1

    def _id(self, content: str, type: str, namespace: str) -> str:
        n = len(self._born)
        return f"r{90 - n if self._down else 10 + n}"

    def _resolve(self, ref: str) -> str:
        return ref if ref in self._records else min(i for i in self._records if i.startswith(ref))


class MisuseHidesAfterDelete(GoodMemory):
    """After a delete, records() lists only the namespaces deleted from: a later save elsewhere returns an
    identifier records() does not list. At length 3 with 50 walks only the runs in the child
    interpreters meet it (in the parent, a store that shows nothing stands for a fresh layer)."""

    def __init__(self) -> None:
        super().__init__()
        self._deleted_in: set[str] = set()

    def _id(self, content: str, type: str, namespace: str) -> str:
        return f"m{len(self._born) + 1:04d}"  # a counter

    def delete(self, id: str) -> None:
        self._deleted_in.add(self._get(id)["namespace"])
        super().delete(id)

    def records(self) -> dict[str, dict[str, Any]]:
        shown = super().records()
        return shown if not self._deleted_in else {i: r for i, r in shown.items()
                                                   if r["namespace"] in self._deleted_in}


class MisuseNotEmpty(GoodMemory):
    def __init__(self) -> None:
        super().__init__()
        self.save("left over")


class MisuseBornWithAnEdge(GoodMemory):
    """No record, but an edge between two identifiers it never made."""

    def __init__(self) -> None:
        super().__init__()
        self._edges |= {("ghost-1", "references", "ghost-2")}


class MisuseEvolveReturnsTheParent(GoodMemory):
    """Evolve makes the new record but returns the identifier it was given."""

    def evolve(self, id: str, content: str, *, valid_time: Any = None) -> str:
        super().evolve(id, content, valid_time=valid_time)
        return id


class MisuseNaNInMetadata(GoodMemory):
    """Shows a float NaN in every record's metadata: deterministic, yet unequal to itself."""

    def records(self) -> dict[str, dict[str, Any]]:
        return {i: {**r, "metadata": {"score": float("nan")}} for i, r in super().records().items()}


class MisuseFactoryRaises(GoodMemory):
    def __init__(self) -> None:
        raise RuntimeError("no database configured")


a_layer_instance = GoodMemory()
