"""Checked reading of JSON documents (paper §3, the JSON format): strict parsing and typed fields.

Every reader of :mod:`coalg.model.jsonio` and :mod:`coalg.model.jsonletters`
goes through these helpers, so malformed or hostile input -- wrong types,
repeated keys, ``NaN``, absurd nesting -- raises one kind of error,
:class:`~coalg.errors.InputError`, naming the source and the JSON path.

>>> ctx = ReadContext("<doc>")
>>> expect_str("x", "a.b", ctx), opt_int(None, "t", ctx)
('x', None)
>>> expect_str(3, "a.b", ctx)
Traceback (most recent call last):
...
coalg.errors.InputError: <doc>: a.b: expected a string, got int
"""

from __future__ import annotations

import json
from typing import Any

from ..errors import InputError
from .records import Relation

__all__ = ["ReadContext", "expect_str", "opt_int", "parse_json", "relation_from_json", "type_name"]


class ReadContext:
    """Where a document being read comes from: its errors name that source."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, where: str, msg: str) -> InputError:
        """The error for ``msg`` at the JSON path ``where`` (e.g. ``records["a"].content``)."""
        return InputError(f"{where}: {msg}" if where else msg, source=self.source)


def type_name(v: Any) -> str:
    """The JSON-ish name of a value's type, for messages (``null`` for ``None``)."""
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


def parse_json(text: str, ctx: ReadContext) -> Any:
    """Strict JSON: no repeated key, no ``NaN``/``Infinity``, no stack overflow on deep nesting."""
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


def opt_int(v: Any, where: str, ctx: ReadContext) -> int | None:
    """An integer time or ``None``."""
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, int):
        raise ctx.fail(where, f"expected an integer time or null, got {type_name(v)}")
    return v


def expect_str(v: Any, where: str, ctx: ReadContext, *, optional: bool = False) -> Any:
    """A string (or ``None`` when ``optional``)."""
    if v is None and optional:
        return None
    if not isinstance(v, str):
        raise ctx.fail(where, f"expected a string, got {type_name(v)}")
    return v


def relation_from_json(v: Any, where: str, ctx: ReadContext) -> Relation:
    """A relation by value (``"evolved_from"``) or by name (``"EVOLVED_FROM"``)."""
    if isinstance(v, str):
        try:
            return Relation(v)
        except ValueError:
            if v in Relation.__members__:
                return Relation[v]
    known = ", ".join(r.value for r in Relation)
    raise ctx.fail(where, f"unknown relation {v!r}; known: {known}")
