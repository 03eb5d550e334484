"""Session files: an explorer's state as a file a teacher hands to students.

Format ``coalg-explorer-session``, version 1 (JSON, UTF-8)::

    {"format": "coalg-explorer-session", "version": 1,
     "explorer": "playground" | "ancestry" | "bitemporal" | "merge" | "tenants" | "refinement",
     "state": {...}}

``state`` is what the explorer needs to come back to exactly the same place:
its start store, the word applied, the realisation, θ and the reader's
selections (each explorer documents its own fields in its ``_restore``).

A session file is a user's file, so it is read with limits and refused as a
whole when anything is wrong — never half applied:

* at most :data:`MAX_BYTES` bytes, UTF-8 (a byte-order mark at the start, which some
  editors on Windows write, is read past);
* nesting at most :data:`MAX_DEPTH` deep; numbers at most :data:`MAX_NUMBER_CHARS`
  characters, finite (no ``NaN``, no ``Infinity``); no duplicate keys;
* a path must name a regular file (a FIFO or a device is refused before it is opened).

Every failure is a :class:`SessionError` naming the source, the field and the
reason.  :func:`write_session` replaces its target only after the whole file
is written (a temporary file in the same folder, then an atomic rename).

>>> text = dumps_session("tenants", {"params": {"n": 2}})
>>> loads_session(text, kind="tenants")
{'params': {'n': 2}}
>>> loads_session(text, kind="merge")
Traceback (most recent call last):
...
coalg.widgets.session.SessionError: <session>: explorer: this is a tenants session; open it in the tenants explorer
"""

from __future__ import annotations

import json
import math
import os
import stat
from typing import Any

from ..errors import InputError
from ..userfiles import display_name, write_atomic

__all__ = [
    "FORMAT",
    "KINDS",
    "MAX_BYTES",
    "MAX_DEPTH",
    "MAX_NUMBER_CHARS",
    "VERSION",
    "SessionError",
    "dumps_session",
    "loads_session",
    "read_session",
    "write_session",
]

FORMAT = "coalg-explorer-session"
VERSION = 1
KINDS = ("playground", "ancestry", "bitemporal", "merge", "tenants", "refinement")
"""The explorers that write sessions, by the name a session file gives them."""

MAX_BYTES = 2 * 1024 * 1024
"""A session file larger than this is refused before it is parsed."""

MAX_DEPTH = 40
"""Objects and lists nested deeper than this are refused (a store's metadata included)."""

MAX_NUMBER_CHARS = 24
"""A number written with more characters than this is refused (no 4,300-digit integers)."""


class SessionError(InputError):
    """A session file that cannot be read: the message names the source, the field and the reason."""

    def __init__(self, message: str, *, source: str = "<session>", field: str | None = None) -> None:
        super().__init__(f"{field}: {message}" if field else message, source=source)
        self.field = field


# --------------------------------------------------------------------------- writing


def dumps_session(kind: str, state: dict[str, Any]) -> str:
    """The session file for explorer ``kind`` in ``state`` (keys sorted: one text per state)."""
    if kind not in KINDS:
        raise ValueError(f"unknown explorer {kind!r}; known: {', '.join(KINDS)}")
    doc = {"format": FORMAT, "version": VERSION, "explorer": kind, "state": state}
    return json.dumps(doc, ensure_ascii=False, indent=1, sort_keys=True, allow_nan=False) + "\n"


def write_session(path: str | os.PathLike[str], kind: str, state: dict[str, Any]) -> None:
    """Write the session atomically: the target is replaced only once the new file is complete.

    Written by :func:`coalg.userfiles.write_atomic` (a symbolic link stays a
    link, the file keeps its mode).  A target that exists and is not a regular
    file (a folder, a FIFO) is refused, and a state that cannot be written as
    JSON in UTF-8 is a :class:`SessionError`; the old file is then unchanged.
    """
    name = display_name(path)
    try:
        text = dumps_session(kind, state)
    except (TypeError, ValueError, RecursionError) as e:
        raise SessionError(f"cannot be written: {' '.join(str(e).split())[:300]}", source=name) from None
    write_atomic(path, (text.encode("utf-8") for _ in (0,)), lambda msg: SessionError(msg, source=name))


# --------------------------------------------------------------------------- reading


def _number(token: str, source: str) -> None:
    if len(token) > MAX_NUMBER_CHARS:
        raise SessionError(f"a number of {len(token)} characters (at most {MAX_NUMBER_CHARS})", source=source)


def _parse(text: str, source: str) -> Any:
    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for k, v in items:
            if k in out:
                raise SessionError(f"the key {k!r} appears twice in one object", source=source)
            out[k] = v
        return out

    def as_int(token: str) -> int:
        _number(token, source)
        return int(token)

    def as_float(token: str) -> float:
        _number(token, source)
        x = float(token)
        if not math.isfinite(x):
            raise SessionError(f"the number {token} is not finite", source=source)
        return x

    def constant(token: str) -> Any:
        raise SessionError(f"{token} is not a JSON number", source=source)

    try:
        return json.loads(text, object_pairs_hook=pairs, parse_int=as_int, parse_float=as_float,
                          parse_constant=constant)
    except json.JSONDecodeError as e:
        raise SessionError(f"not JSON: {e.msg} (line {e.lineno}, column {e.colno})", source=source) from None
    except RecursionError:
        raise SessionError(f"nested more than {MAX_DEPTH} deep", source=source) from None


def _check_depth(obj: Any, source: str) -> None:
    todo: list[tuple[Any, int]] = [(obj, 1)]
    while todo:
        x, d = todo.pop()
        if isinstance(x, dict | list):
            if d > MAX_DEPTH:
                raise SessionError(f"nested more than {MAX_DEPTH} deep", source=source)
            todo.extend((v, d + 1) for v in (x.values() if isinstance(x, dict) else x))


def loads_session(data: str | bytes, *, kind: str | None = None, source: str = "<session>") -> dict[str, Any]:
    """The ``state`` of a session file's text or bytes; with ``kind``, it must be that explorer's.

    Raises :class:`SessionError` for anything a session file may not be.
    """
    size = len(data.encode("utf-8", "surrogatepass")) if isinstance(data, str) else len(data)
    if size > MAX_BYTES:
        raise SessionError(f"{size} bytes, more than the limit of {MAX_BYTES}", source=source)
    if isinstance(data, bytes | bytearray | memoryview):
        try:
            text = bytes(data).decode("utf-8")
        except UnicodeDecodeError as e:
            raise SessionError(f"not UTF-8 text (byte {e.start})", source=source) from None
    else:
        text = data
    text = text.removeprefix("\ufeff")  # a UTF-8 byte-order mark is not part of the JSON
    if not text.strip():
        raise SessionError("empty", source=source)
    obj = _parse(text, source)
    _check_depth(obj, source)
    if not isinstance(obj, dict):
        raise SessionError("expected a JSON object", source=source)
    if obj.get("format") != FORMAT:
        found = obj.get("format")
        raise SessionError(f"expected {FORMAT!r}, found {found!r}" if found is not None else
                           f"no 'format' field: this is not a {FORMAT} file", source=source, field="format")
    version = obj.get("version")
    if version != VERSION or isinstance(version, bool):
        raise SessionError(f"version {version!r} is not one this coalg reads (it reads {VERSION})",
                           source=source, field="version")
    unknown = sorted(set(obj) - {"format", "version", "explorer", "state"})
    if unknown:
        raise SessionError(f"unknown field(s) {', '.join(unknown)}", source=source)
    found_kind = obj.get("explorer")
    if found_kind not in KINDS:
        raise SessionError(f"unknown explorer {found_kind!r}; known: {', '.join(KINDS)}", source=source,
                           field="explorer")
    if kind is not None and found_kind != kind:
        raise SessionError(f"this is a {found_kind} session; open it in the {found_kind} explorer",
                           source=source, field="explorer")
    state = obj.get("state")
    if not isinstance(state, dict):
        raise SessionError("expected an object", source=source, field="state")
    return state


def read_session(path: str | os.PathLike[str], *, kind: str | None = None) -> dict[str, Any]:
    """Read a session file: a regular file of at most :data:`MAX_BYTES` bytes (see :func:`loads_session`)."""
    name = os.fspath(path)
    try:
        st = os.stat(name)
        if not stat.S_ISREG(st.st_mode):
            raise SessionError("is not a regular file", source=name)
        if st.st_size > MAX_BYTES:
            raise SessionError(f"{st.st_size} bytes, more than the limit of {MAX_BYTES}", source=name)
        fd = os.open(name, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as f:
            if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):  # replaced between stat and open
                raise SessionError("is not a regular file", source=name)
            data = f.read(MAX_BYTES + 1)
    except FileNotFoundError:
        raise SessionError("no such file", source=name) from None
    except PermissionError:
        raise SessionError("permission denied", source=name) from None
    except IsADirectoryError:
        raise SessionError("is not a regular file", source=name) from None
    except OSError as e:
        raise SessionError(f"cannot be read: {e.strerror or e}", source=name) from None
    return loads_session(data, kind=kind, source=name)
