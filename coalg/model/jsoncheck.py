"""Checked reading of JSON documents (paper §3, the JSON format): strict parsing and typed fields.

Every reader of :mod:`coalg.model.jsonio` and :mod:`coalg.model.jsonletters`
goes through these helpers, so malformed or hostile input raises one kind of
error, :class:`JsonInputError`, naming the source and the line (a syntax
error) or the JSON path of the field (anything else).

Limits (the input-validation layer of the JSON formats)
-------------------------------------------------------
* strict JSON: no repeated key in an object, no ``NaN``/``Infinity``;
* arrays and objects nest at most :data:`MAX_DEPTH` (100) levels;
* a number is at most :data:`MAX_NUMBER_CHARS` (100) characters, and a
  fractional number must be finite (``1e999`` is refused, not read as ∞);
* text is valid Unicode: a lone surrogate (``"\\ud800"``) is refused, so
  whatever is read can be written back as UTF-8;
* files are at most :data:`coalg.model.jsonio.MAX_BYTES` bytes of UTF-8.

>>> ctx = ReadContext("<doc>")
>>> expect_str("x", "a.b", ctx), opt_int(None, "t", ctx)
('x', None)
>>> expect_str(3, "a.b", ctx)
Traceback (most recent call last):
...
coalg.model.jsoncheck.JsonInputError: <doc>: a.b: expected a string, got int
>>> parse_json('{"k": [1, 1e999]}', ctx)
Traceback (most recent call last):
...
coalg.model.jsoncheck.JsonInputError: <doc>: k[1]: 1e999 is not a finite number
"""

from __future__ import annotations

import json
from typing import Any

from ..errors import InputError
from .records import Relation

__all__ = [
    "MAX_DEPTH",
    "MAX_NUMBER_CHARS",
    "JsonInputError",
    "NotAJsonNumber",
    "ReadContext",
    "check_value",
    "expect_str",
    "json_path",
    "opt_int",
    "parse_json",
    "refuse_constant",
    "relation_from_json",
    "type_name",
]

MAX_DEPTH = 100
"""Arrays and objects nest at most this many levels in a document."""

MAX_NUMBER_CHARS = 100
"""A number is written with at most this many characters."""


class JsonInputError(InputError):
    """The error of the JSON formats: the source, the line or the JSON path (``field``), the reason.

    >>> e = JsonInputError("expected a string, got int", source="s.json", field='records["a"].content')
    >>> str(e), e.field, e.reason
    ('s.json: records["a"].content: expected a string, got int', 'records["a"].content', 'expected a string, got int')
    """

    def __init__(self, reason: str, *, source: str | None = None, line: int | None = None,
                 field: str | None = None) -> None:
        self.field, self.reason = field, reason
        super().__init__(f"{field}: {reason}" if field else reason, source=source, line=line)


class ReadContext:
    """Where a document being read comes from: its errors name that source.

    ``checked`` is set once the whole document went through the limits of
    this module (:func:`parse_json` does it), so :func:`check_value` need not
    walk its parts again.
    """

    def __init__(self, source: str) -> None:
        self.source = source
        self.checked = False

    def fail(self, where: str, msg: str) -> JsonInputError:
        """The error for ``msg`` at the JSON path ``where`` (e.g. ``records["a"].content``)."""
        return JsonInputError(msg, source=self.source, field=where or None)


def type_name(v: Any) -> str:
    """The JSON-ish name of a value's type, for messages (``null`` for ``None``)."""
    return "null" if v is None else type(v).__name__


class _Duplicate(Exception):
    def __init__(self, key: str) -> None:
        self.key = key


class NotAJsonNumber(ValueError):
    """``NaN``, ``Infinity`` or ``-Infinity`` in a document: Python's ``json`` reads them, JSON has no such number."""

    def __init__(self, token: str) -> None:
        super().__init__(f"{token} is not a JSON number")
        self.token = token


class _BadNumber:
    """Stands in the parsed tree for a number that is refused; the tree walk names its path."""

    __slots__ = ("reason",)

    def __init__(self, reason: str) -> None:
        self.reason = reason


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    d: dict[str, Any] = {}
    for k, v in pairs:
        if k in d:
            raise _Duplicate(k)
        d[k] = v
    return d


def refuse_constant(token: str) -> Any:
    """A ``parse_constant`` hook for ``json.loads``: raises :class:`NotAJsonNumber` (NaN would also break
    ``load(dump(s)) == s``)."""
    raise NotAJsonNumber(token)


def _short(token: str) -> str:
    return token if len(token) <= 24 else f"{token[:10]}...{token[-6:]} ({len(token)} characters)"


def _int(token: str) -> Any:
    if len(token) > MAX_NUMBER_CHARS:
        return _BadNumber(f"number {_short(token)} is longer than {MAX_NUMBER_CHARS} characters")
    return int(token)


def _float(token: str) -> Any:
    if len(token) > MAX_NUMBER_CHARS:
        return _BadNumber(f"number {_short(token)} is longer than {MAX_NUMBER_CHARS} characters")
    x = float(token)
    if x - x != 0.0:  # inf (nan cannot be written as a JSON number)
        return _BadNumber(f"{_short(token)} is not a finite number")
    return x


def parse_json(text: str, ctx: ReadContext) -> Any:
    """Strict JSON within the limits of the module docstring; the first violation is named."""
    try:
        doc = json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=refuse_constant,
                         parse_int=_int, parse_float=_float)
    except _Duplicate as d:
        raise ctx.fail("", f"duplicate key {d.key!r} (a JSON object may not repeat a key)") from None
    except NotAJsonNumber as n:
        raise ctx.fail("", str(n)) from None
    except json.JSONDecodeError as e:
        raise JsonInputError(f"not valid JSON: {e.msg}", source=ctx.source, line=e.lineno) from None
    except RecursionError:
        raise ctx.fail("", f"JSON nested too deeply (at most {MAX_DEPTH} levels)") from None
    _check_tree(doc, ctx, "")
    ctx.checked = True
    return doc


def check_value(v: Any, where: str, ctx: ReadContext) -> None:
    """Hold an already parsed value (found at the path ``where``) to the limits of this module.

    For values that did not come through :func:`parse_json` (a caller's own
    ``json.loads``, a dict built in code); a no-op once ``ctx.checked``.

    >>> check_value({"k": ["\\ud800"]}, "meta", ReadContext("<doc>"))
    Traceback (most recent call last):
    ...
    coalg.model.jsoncheck.JsonInputError: <doc>: meta.k[0]: text holds a lone surrogate \\ud800 at character 0 (not valid Unicode)
    """
    if not ctx.checked:
        _check_tree(v, ctx, where)


_Link = tuple[Any, "str | int"] | None  # (parent link, key): the path of a value, built only on error


def json_path(link: _Link, prefix: str = "") -> str:
    """The JSON path of a link chain, after ``prefix``: ``records.a.metadata["a key"][3]``.

    >>> json_path(((((None, "records"), "a"), "two words"), 3))
    'records.a["two words"][3]'
    >>> link = None
    >>> for k in range(40):
    ...     link = (link, k)
    >>> json_path(link, "meta")
    'meta[0][1][2][3][4][5][6][7]...(28 more)...[36][37][38][39]'
    """
    keys: list[str | int] = []
    while link is not None:
        link, key = link
        keys.append(key)
    keys.reverse()
    out = prefix
    for k, key in enumerate(keys):
        if len(keys) > 16 and 8 <= k < len(keys) - 4:  # a deep path: its start and its end
            out += f"...({len(keys) - 12} more)..." if k == 8 else ""
        elif isinstance(key, int):
            out += f"[{key}]"
        elif key.isidentifier() and key.isascii():
            out += f".{key}" if out else key
        else:
            out += f"[{json.dumps(key)}]"
    return out


def _bad_text(s: str) -> str | None:
    """Why ``s`` cannot be written as UTF-8 (a lone surrogate), or None."""
    if s.isascii():
        return None
    try:
        s.encode("utf-8")
    except UnicodeEncodeError as e:
        return f"text holds a lone surrogate \\u{ord(s[e.start]):04x} at character {e.start} (not valid Unicode)"
    return None


def _check_tree(doc: Any, ctx: ReadContext, prefix: str) -> None:
    """Walk the parsed document without recursion; raise for the first value beyond the limits."""
    stack: list[tuple[Any, int, _Link]] = [(doc, 0, None)]
    while stack:
        v, depth, link = stack.pop()
        if isinstance(v, dict):
            if depth >= MAX_DEPTH:
                raise ctx.fail(json_path(link, prefix), f"nested more than {MAX_DEPTH} levels deep")
            for k in v:
                why = _bad_text(k)
                if why is not None:
                    raise ctx.fail(json_path(link, prefix), f"a key: {why}")
            stack.extend((x, depth + 1, (link, k)) for k, x in reversed(v.items()))
        elif isinstance(v, list):
            if depth >= MAX_DEPTH:
                raise ctx.fail(json_path(link, prefix), f"nested more than {MAX_DEPTH} levels deep")
            stack.extend((v[i], depth + 1, (link, i)) for i in range(len(v) - 1, -1, -1))
        elif isinstance(v, str):
            why = _bad_text(v)
            if why is not None:
                raise ctx.fail(json_path(link, prefix), why)
        elif isinstance(v, _BadNumber):
            raise ctx.fail(json_path(link, prefix), v.reason)


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
