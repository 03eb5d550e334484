"""A documented, versioned JSON format for stores, letters, calls and outputs.

Format ``coalg-store``, version 1::

    {
      "format": "coalg-store",
      "version": 1,
      "records": {
        "<id>": {"content": "...", "type": "fact", "namespace": "global",
                 "tags": ["..."], "summary": null, "metadata": {...},
                 "created_at": 1, "updated_at": 1, "valid_time": null}
      },
      "edges": [["<source id>", "<relation>", "<target id>"], ...]
    }

* ``content`` is required; every other record field is optional and takes the
  default of :class:`~coalg.model.records.Record`.
* ``relation`` is one of the 22 ContextFS labels, by value (``"evolved_from"``).
* Times are integers (clock ticks) or ``null``; metadata is any JSON object.
* Output is canonical: keys, records, tags and edges are sorted, so a store has
  exactly one serialisation and ``load(dump(s)) == s``.

Reading never evaluates or unpickles anything.  Malformed or hostile input —
wrong types, unknown fields or labels, duplicate identifiers, truncated text,
absurd sizes — raises :class:`~coalg.errors.InputError` naming the location.

Examples
--------
>>> from coalg.model.records import Record, Relation
>>> s = Store.of({"a": Record("x", tags={"t"})}, [("a", Relation.SUPERSEDES, "b")])
>>> text = dumps_store(s)
>>> loads_store(text) == s
True
>>> loads_store('{"format": "coalg-store", "version": 1, "records": {"a": {"content": 3}}, "edges": []}')
Traceback (most recent call last):
...
coalg.errors.InputError: <string>: records["a"].content: expected a string, got int
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from typing import Any

from ..errors import InputError
from .alphabet import (
    Allocation,
    Call,
    Delete,
    Evolve,
    Letter,
    Link,
    Merge,
    Recall,
    RecallPrefix,
    Save,
    SaveAt,
    Split,
    Supersede,
    Theta,
)
from .coalgebra import Created, Err, Flag, Found, Nothing, Output, Wrote
from .records import FrozenMap, Record, Relation, thaw
from .store import Edge, Store

__all__ = [
    "FORMAT",
    "VERSION",
    "MAX_BYTES",
    "record_to_json",
    "record_from_json",
    "store_to_json",
    "store_from_json",
    "dumps_store",
    "loads_store",
    "save_store",
    "load_store",
    "letter_to_json",
    "letter_from_json",
    "call_to_json",
    "call_from_json",
    "output_to_json",
    "theta_to_json",
    "theta_from_json",
    "edge_to_json",
]

FORMAT = "coalg-store"
VERSION = 1
MAX_BYTES = 256 * 1024 * 1024
"""Files larger than this are refused before they are read (override with ``max_bytes``)."""

_RECORD_FIELDS = ("content", "type", "namespace", "tags", "summary", "metadata", "created_at", "updated_at", "valid_time")


# --------------------------------------------------------------------------- writing


def record_to_json(r: Record) -> dict[str, Any]:
    """A record as a JSON object (tags sorted, metadata keys sorted)."""
    return {
        "content": r.content,
        "type": r.type,
        "namespace": r.namespace,
        "tags": sorted(r.tags),
        "summary": r.summary,
        "metadata": thaw(r.metadata),
        "created_at": r.created_at,
        "updated_at": r.updated_at,
        "valid_time": r.valid_time,
    }


def edge_to_json(e: Edge) -> list[str]:
    return [e.source, e.relation.value, e.target]


def store_to_json(s: Store) -> dict[str, Any]:
    """A store as a JSON-ready dict in the canonical layout."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "records": {i: record_to_json(r) for i, r in s.records.items()},
        "edges": [edge_to_json(e) for e in sorted(s.edges)],
    }


def dumps_store(s: Store, *, indent: int | None = 2) -> str:
    """The canonical JSON text of a store."""
    return json.dumps(store_to_json(s), indent=indent, sort_keys=True, ensure_ascii=False) + "\n"


def save_store(s: Store, path: str | os.PathLike[str]) -> None:
    """Write a store to ``path`` (UTF-8, canonical)."""
    with open(path, "w", encoding="utf-8") as f:
        f.write(dumps_store(s))


# --------------------------------------------------------------------------- reading


class _Ctx:
    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, where: str, msg: str) -> InputError:
        return InputError(f"{where}: {msg}" if where else msg, source=self.source)


def _tname(v: Any) -> str:
    return "null" if v is None else type(v).__name__


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    d: dict[str, Any] = {}
    for k, v in pairs:
        if k in d:
            raise _Duplicate(k)
        d[k] = v
    return d


class _Duplicate(Exception):
    def __init__(self, key: str) -> None:
        self.key = key


class _NonFinite(Exception):
    def __init__(self, token: str) -> None:
        self.token = token


def _no_constants(token: str) -> Any:
    # Python's json accepts NaN/Infinity, which are not JSON; NaN would also break load(dump(s)) == s.
    raise _NonFinite(token)


def _parse(text: str, ctx: _Ctx) -> Any:
    try:
        return json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_no_constants)
    except _Duplicate as d:
        raise ctx.fail("", f"duplicate key {d.key!r} (a JSON object may not repeat a key)") from None
    except _NonFinite as n:
        raise ctx.fail("", f"{n.token} is not a JSON number") from None
    except json.JSONDecodeError as e:
        raise InputError(f"not valid JSON: {e.msg}", source=ctx.source, line=e.lineno) from None
    except RecursionError:
        raise ctx.fail("", "JSON nested too deeply") from None


def _opt_int(v: Any, where: str, ctx: _Ctx) -> int | None:
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, int):
        raise ctx.fail(where, f"expected an integer time or null, got {_tname(v)}")
    return v


def _str(v: Any, where: str, ctx: _Ctx, *, optional: bool = False) -> Any:
    if v is None and optional:
        return None
    if not isinstance(v, str):
        raise ctx.fail(where, f"expected a string, got {_tname(v)}")
    return v


def record_from_json(obj: Any, where: str = "record", ctx: _Ctx | None = None) -> Record:
    """A record from its JSON object, validated field by field."""
    ctx = ctx or _Ctx("<string>")
    if not isinstance(obj, dict):
        raise ctx.fail(where, f"expected an object, got {_tname(obj)}")
    unknown = sorted(set(obj) - set(_RECORD_FIELDS))
    if unknown:
        raise ctx.fail(where, f"unknown field(s) {', '.join(unknown)}; known: {', '.join(_RECORD_FIELDS)}")
    if "content" not in obj:
        raise ctx.fail(where, "missing required field 'content'")
    tags = obj.get("tags", [])
    if not isinstance(tags, list):
        raise ctx.fail(f"{where}.tags", f"expected a list of strings, got {_tname(tags)}")
    for k, t in enumerate(tags):
        _str(t, f"{where}.tags[{k}]", ctx)
    meta = obj.get("metadata", {})
    if not isinstance(meta, dict):
        raise ctx.fail(f"{where}.metadata", f"expected an object, got {_tname(meta)}")
    return Record(
        content=_str(obj["content"], f"{where}.content", ctx),
        type=_str(obj.get("type", "fact"), f"{where}.type", ctx),
        namespace=_str(obj.get("namespace", "global"), f"{where}.namespace", ctx),
        tags=frozenset(tags),
        summary=_str(obj.get("summary"), f"{where}.summary", ctx, optional=True),
        metadata=FrozenMap(meta),
        created_at=_opt_int(obj.get("created_at"), f"{where}.created_at", ctx),
        updated_at=_opt_int(obj.get("updated_at"), f"{where}.updated_at", ctx),
        valid_time=_opt_int(obj.get("valid_time"), f"{where}.valid_time", ctx),
    )


def _relation(v: Any, where: str, ctx: _Ctx) -> Relation:
    if isinstance(v, str):
        try:
            return Relation(v)
        except ValueError:
            if v in Relation.__members__:
                return Relation[v]
    known = ", ".join(r.value for r in Relation)
    raise ctx.fail(where, f"unknown relation {v!r}; known: {known}")


def store_from_json(obj: Any, *, source: str = "<string>") -> Store:
    """A store from the parsed JSON of a ``coalg-store`` document."""
    ctx = _Ctx(source)
    if not isinstance(obj, dict):
        raise ctx.fail("", f"expected a JSON object at the top level, got {_tname(obj)}")
    if obj.get("format") != FORMAT:
        raise ctx.fail("format", f"expected {FORMAT!r}, got {obj.get('format')!r}")
    version = obj.get("version")
    if isinstance(version, bool) or not isinstance(version, int) or version != VERSION:
        raise ctx.fail("version", f"this coalg reads version {VERSION}, the file says {obj.get('version')!r}")
    unknown = sorted(set(obj) - {"format", "version", "records", "edges"})
    if unknown:
        raise ctx.fail("", f"unknown top-level field(s) {', '.join(unknown)}")
    recs = obj.get("records", {})
    if not isinstance(recs, dict):
        raise ctx.fail("records", f"expected an object keyed by identifier, got {_tname(recs)}")
    records = {i: record_from_json(r, f"records[{json.dumps(i)}]", ctx) for i, r in recs.items()}
    raw_edges = obj.get("edges", [])
    if not isinstance(raw_edges, list):
        raise ctx.fail("edges", f"expected a list, got {_tname(raw_edges)}")
    edges = []
    for k, e in enumerate(raw_edges):
        where = f"edges[{k}]"
        if not isinstance(e, list) or len(e) != 3:
            raise ctx.fail(where, "expected [source, relation, target]")
        edges.append(Edge(_str(e[0], f"{where}[0]", ctx), _relation(e[1], f"{where}[1]", ctx), _str(e[2], f"{where}[2]", ctx)))
    return Store.of(records, edges)


def loads_store(text: str, *, source: str = "<string>") -> Store:
    """Parse a store from JSON text."""
    return store_from_json(_parse(text, _Ctx(source)), source=source)


def load_store(path: str | os.PathLike[str], *, max_bytes: int = MAX_BYTES) -> Store:
    """Read a store from a file; refuses directories, oversized and non-UTF-8 files clearly."""
    name = os.fspath(path)
    try:
        if os.path.isdir(name):
            raise InputError("is a directory, not a store file", source=name)
        size = os.path.getsize(name)
        if size > max_bytes:
            raise InputError(f"file is {size} bytes, more than the limit of {max_bytes}", source=name)
        with open(name, "rb") as f:
            data = f.read(max_bytes + 1)  # bounded: devices and FIFOs report size 0
        if len(data) > max_bytes:
            raise InputError(f"file is more than the limit of {max_bytes} bytes", source=name)
    except FileNotFoundError:
        raise InputError("no such file", source=name) from None
    except PermissionError:
        raise InputError("permission denied", source=name) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise InputError(f"not UTF-8 text (byte {e.start})", source=name) from None
    if not text.strip():
        raise InputError("empty file", source=name)
    return loads_store(text, source=name)


# --------------------------------------------------------------------------- letters, calls, outputs


def theta_to_json(theta: Theta) -> dict[str, Any]:
    return theta.as_dict()


def theta_from_json(obj: Any) -> Theta:
    ctx = _Ctx("<theta>")
    if not isinstance(obj, dict):
        raise ctx.fail("theta", "expected an object")
    unknown = sorted(set(obj) - {"type_priority", "id_priority", "descending"})
    if unknown:
        raise ctx.fail("theta", f"unknown field(s) {', '.join(unknown)}")
    lists = {}
    for key in ("type_priority", "id_priority"):
        v = obj.get(key, [])
        if not isinstance(v, list):
            raise ctx.fail(f"theta.{key}", f"expected a list of strings, got {_tname(v)}")
        lists[key] = tuple(_str(x, f"theta.{key}[{k}]", ctx) for k, x in enumerate(v))
    descending = obj.get("descending", False)
    if not isinstance(descending, bool):
        raise ctx.fail("theta.descending", f"expected true or false, got {_tname(descending)}")
    return Theta(type_priority=lists["type_priority"], id_priority=lists["id_priority"], descending=descending)


def letter_to_json(a: Letter) -> dict[str, Any]:
    """A letter as ``{"op": kind, ...arguments}``; records appear as JSON objects."""
    d: dict[str, Any] = {"op": a.kind}
    for name in a.__dataclass_fields__:
        if name == "kind":
            continue
        v = getattr(a, name)
        if isinstance(v, Record):
            v = record_to_json(v)
        elif isinstance(v, Relation):
            v = v.value
        elif isinstance(v, frozenset):
            v = sorted(v)
        elif isinstance(v, tuple):
            v = list(v)
        d[name] = v
    return d


_LETTERS: Mapping[str, type[Letter]] = {
    "save": Save, "save_at": SaveAt, "recall": Recall, "recall_prefix": RecallPrefix,
    "delete": Delete, "evolve": Evolve, "merge": Merge, "split": Split,
    "supersede": Supersede, "link": Link,
}


def letter_from_json(obj: Any, where: str = "letter", source: str = "<string>") -> Letter:
    """Parse a letter written by :func:`letter_to_json`, validating its arguments."""
    ctx = _Ctx(source)
    if not isinstance(obj, dict) or not isinstance(obj.get("op"), str):
        raise ctx.fail(where, "expected an object with a string field 'op'")
    cls = _LETTERS.get(obj["op"])
    if cls is None:
        raise ctx.fail(f"{where}.op", f"unknown operation {obj['op']!r}; known: {', '.join(_LETTERS)}")
    fields = {k for k in cls.__dataclass_fields__ if k != "kind"}
    unknown = sorted(set(obj) - fields - {"op"})
    if unknown:
        raise ctx.fail(where, f"unknown argument(s) {', '.join(unknown)} for {obj['op']}")
    kwargs: dict[str, Any] = {}
    for k in fields & set(obj):
        v = obj[k]
        if k == "record":
            v = record_from_json(v, f"{where}.record", ctx)
        elif k == "relation":
            v = _relation(v, f"{where}.relation", ctx)
        elif k in ("ids", "contents", "tags"):
            if not isinstance(v, list):
                raise ctx.fail(f"{where}.{k}", f"expected a list, got {_tname(v)}")
            v = [_str(x, f"{where}.{k}[{n}]", ctx) for n, x in enumerate(v)]
        elif k in ("by_prefix", "bidirectional"):
            if not isinstance(v, bool):
                raise ctx.fail(f"{where}.{k}", f"expected true or false, got {_tname(v)}")
        elif k == "valid_time":
            v = _opt_int(v, f"{where}.{k}", ctx)
        else:
            optional = k in ("summary", "type", "namespace") or (k == "content" and cls is Merge)
            v = _str(v, f"{where}.{k}", ctx, optional=optional)
        kwargs[k] = v
    try:
        letter: Letter = cls(**kwargs)
    except TypeError as e:
        raise ctx.fail(where, f"missing argument(s) for {obj['op']}: {e}") from None
    return letter


def call_to_json(c: Call) -> dict[str, Any]:
    d: dict[str, Any] = {"letter": letter_to_json(c.letter), "allocation": {"ids": list(c.allocation.ids), "clock": c.allocation.clock}}
    if c.faults:
        d["faults"] = sorted(c.faults)
    return d


def call_from_json(obj: Any, where: str = "call", source: str = "<string>") -> Call:
    ctx = _Ctx(source)
    if not isinstance(obj, dict):
        raise ctx.fail(where, "expected an object")
    unknown = sorted(set(obj) - {"letter", "allocation", "faults"})
    if unknown:
        raise ctx.fail(where, f"unknown field(s) {', '.join(unknown)}; known: letter, allocation, faults")
    alloc = obj.get("allocation", {})
    if not isinstance(alloc, dict):
        raise ctx.fail(f"{where}.allocation", "expected an object")
    unknown = sorted(set(alloc) - {"ids", "clock"})
    if unknown:
        raise ctx.fail(f"{where}.allocation", f"unknown field(s) {', '.join(unknown)}; known: ids, clock")
    ids = alloc.get("ids", [])
    if not isinstance(ids, list):
        raise ctx.fail(f"{where}.allocation.ids", "expected a list")
    clock = _opt_int(alloc.get("clock", 0), f"{where}.allocation.clock", ctx) or 0
    faults = obj.get("faults", [])
    if not isinstance(faults, list) or not all(isinstance(x, int) and not isinstance(x, bool) for x in faults):
        raise ctx.fail(f"{where}.faults", "expected a list of integers")
    return Call(
        letter_from_json(obj.get("letter"), f"{where}.letter", source),
        Allocation(tuple(_str(x, f"{where}.allocation.ids[{k}]", ctx) for k, x in enumerate(ids)), clock),
        frozenset(faults),
    )


def output_to_json(o: Output) -> dict[str, Any]:
    """An output of the store coalgebra as JSON."""
    match o:
        case Err(reason=r):
            return {"out": "err", "reason": r}
        case Nothing():
            return {"out": "bottom"}
        case Found(id=i, record=r):
            return {"out": "found", "id": i, "record": record_to_json(r)}
        case Created(items=items):
            return {"out": "created", "records": {i: record_to_json(r) for i, r in items}, "ids": [i for i, _ in items]}
        case Wrote(edges=es):
            return {"out": "wrote", "edges": [edge_to_json(e) for e in es]}
        case Flag(value=v):
            return {"out": "flag", "value": v}
    raise TypeError(f"not an output: {o!r}")
