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
wrong types, unknown fields or labels, duplicate identifiers, truncated text —
raises :class:`~coalg.model.jsoncheck.JsonInputError` (an
:class:`~coalg.errors.InputError`) naming the file and the line or the JSON
path of the field, and the reason.  Letters, calls, θ and outputs have their
JSON in :mod:`coalg.model.jsonletters`.

Limits (checked by :mod:`coalg.model.jsoncheck` before anything is built)
--------------------------------------------------------------------------
* a file is a regular file (a FIFO, device or directory is refused before it
  is opened) of at most :data:`MAX_BYTES` (256 MiB) bytes of UTF-8 text;
* arrays and objects nest at most 100 levels (so metadata at most 97);
* a number has at most 100 characters; a fractional one must be finite;
* text is valid Unicode (no lone surrogate), repeated keys and
  ``NaN``/``Infinity`` are refused.

Writing (:func:`save_store`) is atomic: the text goes to a temporary file in
the same folder, which replaces the target only once it is complete, so a
failed save leaves the previous file as it was.

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
coalg.model.jsoncheck.JsonInputError: <string>: records["a"].content: expected a string, got int
"""

from __future__ import annotations

import json
import os
from typing import Any

from ..userfiles import display_name, read_regular, write_atomic
from .jsoncheck import (
    JsonInputError,
    ReadContext,
    check_value,
    expect_str,
    json_path,
    opt_int,
    parse_json,
    relation_from_json,
    type_name,
)
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
    """The canonical JSON text of a store.

    Raises :class:`JsonInputError` naming the field when the store holds what
    JSON cannot (a non-finite number, text that is not valid Unicode).
    """
    doc = store_to_json(s)
    try:
        text = json.dumps(doc, indent=indent, sort_keys=True, ensure_ascii=False, allow_nan=False) + "\n"
    except ValueError:  # inf or nan somewhere
        _name_unwritable(doc)
        raise
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate somewhere
            _name_unwritable(doc)
            raise
    return text


def _name_unwritable(doc: dict[str, Any]) -> None:
    """Raise :class:`JsonInputError` for the first value of ``doc`` that has no JSON text."""
    ctx = ReadContext("<store>")
    stack: list[tuple[Any, Any]] = [(doc, None)]
    while stack:
        v, link = stack.pop()
        if isinstance(v, dict):
            for k in v:
                check_value(k, json_path(link) + " (a key)", ctx)
            stack.extend((x, (link, k)) for k, x in reversed(v.items()))
        elif isinstance(v, list):
            stack.extend((v[i], (link, i)) for i in range(len(v) - 1, -1, -1))
        elif isinstance(v, float) and v - v != 0.0:
            raise ctx.fail(json_path(link), f"{v} is not a finite number; JSON cannot hold it")
        elif isinstance(v, str):
            check_value(v, json_path(link), ctx)


def save_store(s: Store, path: str | os.PathLike[str]) -> None:
    """Write a store to ``path`` (UTF-8, canonical), atomically.

    The text is made first (a store JSON cannot hold raises
    :class:`JsonInputError` before the disk is touched), then written to a
    temporary file beside ``path`` that replaces it only once complete.
    """
    name = display_name(path)
    try:
        data = dumps_store(s).encode("utf-8")
    except JsonInputError as e:
        raise JsonInputError(f"cannot save: {e.reason}", source=name, field=e.field) from None
    write_atomic(path, [data], lambda msg: JsonInputError(msg, source=name))


# --------------------------------------------------------------------------- reading


def record_from_json(obj: Any, where: str = "record", ctx: ReadContext | None = None) -> Record:
    """A record from its JSON object, validated field by field."""
    ctx = ctx or ReadContext("<string>")
    check_value(obj, where, ctx)
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
    """A store from the parsed JSON of a ``coalg-store`` document (held to the limits too)."""
    ctx = ReadContext(source)
    check_value(obj, "", ctx)
    ctx.checked = True
    return _store(obj, ctx)


def _store(obj: Any, ctx: ReadContext) -> Store:
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
    """Parse a store from JSON text (at most :data:`MAX_BYTES` characters)."""
    ctx = ReadContext(source)
    if len(text) > MAX_BYTES:
        raise ctx.fail("", f"text is {len(text)} characters, more than the limit of {MAX_BYTES}")
    return _store(parse_json(text, ctx), ctx)


def load_store(path: str | os.PathLike[str], *, max_bytes: int = MAX_BYTES) -> Store:
    """Read a store from a file.

    Refuses clearly, with :class:`JsonInputError` naming the file: a path
    that is not a regular file (checked before opening, so a FIFO cannot
    block), a file over ``max_bytes``, bytes that are not UTF-8, an empty file.
    """
    name = display_name(path)

    def fail(msg: str) -> JsonInputError:
        return JsonInputError(msg, source=name)

    data = read_regular(path, max_bytes, fail)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise JsonInputError(f"not UTF-8 text (byte {e.start})", source=name,
                             line=data.count(b"\n", 0, e.start) + 1) from None
    if not text.strip():
        raise fail("empty file")
    return loads_store(text, source=name)
