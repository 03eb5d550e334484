"""A documented, versioned JSON format for records and stores (paper §3.1).

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
absurd sizes — raises :class:`~coalg.errors.InputError` naming the location
(the checks are :mod:`coalg.model.jsoncheck`).  Letters, calls, θ and outputs
have their JSON in :mod:`coalg.model.jsonletters`.

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
from typing import Any

from ..errors import InputError
from .jsoncheck import ReadContext, expect_str, opt_int, parse_json, relation_from_json, type_name
from .records import FrozenMap, Record, thaw
from .store import Edge, Store

__all__ = [
    "FORMAT",
    "VERSION",
    "MAX_BYTES",
    "record_to_json",
    "record_from_json",
    "edge_to_json",
    "store_to_json",
    "store_from_json",
    "dumps_store",
    "loads_store",
    "save_store",
    "load_store",
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
    """An edge as ``[source, relation value, target]``."""
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


def record_from_json(obj: Any, where: str = "record", ctx: ReadContext | None = None) -> Record:
    """A record from its JSON object, validated field by field."""
    ctx = ctx or ReadContext("<string>")
    if not isinstance(obj, dict):
        raise ctx.fail(where, f"expected an object, got {type_name(obj)}")
    unknown = sorted(set(obj) - set(_RECORD_FIELDS))
    if unknown:
        raise ctx.fail(where, f"unknown field(s) {', '.join(unknown)}; known: {', '.join(_RECORD_FIELDS)}")
    if "content" not in obj:
        raise ctx.fail(where, "missing required field 'content'")
    tags = obj.get("tags", [])
    if not isinstance(tags, list):
        raise ctx.fail(f"{where}.tags", f"expected a list of strings, got {type_name(tags)}")
    for k, t in enumerate(tags):
        expect_str(t, f"{where}.tags[{k}]", ctx)
    meta = obj.get("metadata", {})
    if not isinstance(meta, dict):
        raise ctx.fail(f"{where}.metadata", f"expected an object, got {type_name(meta)}")
    return Record(
        content=expect_str(obj["content"], f"{where}.content", ctx),
        type=expect_str(obj.get("type", "fact"), f"{where}.type", ctx),
        namespace=expect_str(obj.get("namespace", "global"), f"{where}.namespace", ctx),
        tags=frozenset(tags),
        summary=expect_str(obj.get("summary"), f"{where}.summary", ctx, optional=True),
        metadata=FrozenMap(meta),
        created_at=opt_int(obj.get("created_at"), f"{where}.created_at", ctx),
        updated_at=opt_int(obj.get("updated_at"), f"{where}.updated_at", ctx),
        valid_time=opt_int(obj.get("valid_time"), f"{where}.valid_time", ctx),
    )


def store_from_json(obj: Any, *, source: str = "<string>") -> Store:
    """A store from the parsed JSON of a ``coalg-store`` document."""
    ctx = ReadContext(source)
    if not isinstance(obj, dict):
        raise ctx.fail("", f"expected a JSON object at the top level, got {type_name(obj)}")
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
        raise ctx.fail("records", f"expected an object keyed by identifier, got {type_name(recs)}")
    records = {i: record_from_json(r, f"records[{json.dumps(i)}]", ctx) for i, r in recs.items()}
    raw_edges = obj.get("edges", [])
    if not isinstance(raw_edges, list):
        raise ctx.fail("edges", f"expected a list, got {type_name(raw_edges)}")
    edges = []
    for k, e in enumerate(raw_edges):
        where = f"edges[{k}]"
        if not isinstance(e, list) or len(e) != 3:
            raise ctx.fail(where, "expected [source, relation, target]")
        edges.append(Edge(expect_str(e[0], f"{where}[0]", ctx), relation_from_json(e[1], f"{where}[1]", ctx), expect_str(e[2], f"{where}[2]", ctx)))
    return Store.of(records, edges)


def loads_store(text: str, *, source: str = "<string>") -> Store:
    """Parse a store from JSON text."""
    return store_from_json(parse_json(text, ReadContext(source)), source=source)


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
