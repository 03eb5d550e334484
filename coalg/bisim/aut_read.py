"""Reading Aldebaran ``.aut`` files, with every check a hostile file needs.

The format, its limits and the payload convention are described in
:mod:`coalg.bisim.aut`.  Malformed or hostile input raises
:class:`~coalg.bisim.aut.AutInputError` naming the file and line: a path
that is not a regular file, too many bytes (in the file or on one line),
empty file, missing or garbled header, a number that is negative, not ASCII
digits, too long or out of range, a header announcing more states or
transitions than a cap, than the bytes could hold or than the transitions
can touch, a transition count that differs from the header, a truncated last
line, bytes that are not UTF-8.  A large, well-formed body is parsed in array
passes (:mod:`coalg.bisim.aut_scan`); anything else, and *every* error, by
the tolerant line parser here, so both backends give the same errors.

Examples
--------
>>> import io
>>> from coalg.bisim.aut_write import write_aut
>>> aut = read_aut(io.StringIO('des (0,3,3)\\n(0,"a",1)\\n(1,b,2)\\n(2,"a",0)\\n'))
>>> aut.n_states, aut.labels, list(aut.transitions())
(3, ('a', 'b'), [(0, 0, 1), (1, 1, 2), (2, 0, 0)])
>>> out = io.StringIO(); write_aut(out, aut); print(out.getvalue(), end="")
des (0,3,3)
(0,"a",1)
(1,"b",2)
(2,"a",0)
"""

from __future__ import annotations

import os
import re
from array import array
from collections.abc import Callable
from typing import IO, Any, NamedTuple

from ..userfiles import display_name, read_regular
from .aut import (
    DEFAULT_MAX_BYTES,
    DEFAULT_MAX_LINE_BYTES,
    DEFAULT_MAX_SIZE,
    MAX_DIGITS,
    SPARE_STATES,
    AutInputError,
    AutLTS,
)
from .aut_payloads import extract_payloads
from .aut_scan import MIN_LINE, fast_body
from .buffers import Backend, frozen, use_numpy

__all__ = ["read_aut"]

Fail = Callable[[str, int | None], AutInputError]
"""The error for a message at a line of the file being read."""

_HEADER = re.compile(
    rb"[ \t]*des[ \t]*\([ \t]*(-?[0-9]+)[ \t]*,[ \t]*(-?[0-9]+)[ \t]*,[ \t]*(-?[0-9]+)[ \t]*\)[ \t]*\r?"
)
_BLANK_LINES = re.compile(rb"(?:[ \t\r\x0b\x0c]*\n)*")
# a transition line as the bulk parse reads it (ASCII digits only; anything else goes to _diagnose)
_LINE_ALL = re.compile(
    r"^[ \t]*\([ \t]*([0-9]+)[ \t]*,(.*),[ \t]*([0-9]+)[ \t]*\)[ \t]*\r?$", re.MULTILINE
)
# the shape of a transition line, whatever its fields hold (each is then checked on its own)
_LINE_DIAG = re.compile(r"[ \t]*\(([^,]*),(.*),([^,]*)\)[ \t]*\r?")
_DIGITS = re.compile(r"[0-9]+")


def read_aut(
    source: str | os.PathLike[str] | IO[str] | IO[bytes],
    *,
    payload_prefix: str | None = None,
    max_states: int = DEFAULT_MAX_SIZE,
    max_transitions: int = DEFAULT_MAX_SIZE,
    max_bytes: int = DEFAULT_MAX_BYTES,
    max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
    backend: Backend = "auto",
) -> AutLTS:
    """Read an ``.aut`` file (a path, or a text or binary stream).

    Parameters
    ----------
    source
        A path or an open stream.
    payload_prefix
        If given (e.g. ``"rec:"``), self-loops labelled ``<prefix><payload>``
        become state observations (see the module docstring).
    max_states, max_transitions
        Caps on the sizes a header may announce.
    max_bytes, max_line_bytes
        Caps on the bytes of the file and of one line.
    backend
        ``"auto"`` (vectorised fast path when NumPy is installed), ``"numpy"``
        or ``"python"``; all give the same result and the same errors.

    Raises
    ------
    AutInputError
        On malformed input or a file that cannot be read, naming the file
        and line (an :class:`~coalg.errors.InputError`).

    Examples
    --------
    >>> import io
    >>> read_aut(io.StringIO("des (0,1,2)\\n(0,a,5)\\n"))
    Traceback (most recent call last):
    ...
    coalg.bisim.aut.AutInputError: <stream>, line 2: target state 5 out of range 0..1
    """
    name = _source_name(source)

    def fail(msg: str, line: int | None = None) -> AutInputError:
        return AutInputError(msg, source=name, line=line)

    if isinstance(source, (str, os.PathLike)):
        raw: Any = read_regular(source, max_bytes, fail)
    else:
        raw = source.read(max_bytes + 1)
        if len(raw) > max_bytes:
            raise fail(f"more than the limit of {max_bytes} bytes")
    if isinstance(raw, str):
        try:
            data = raw.encode("utf-8")
        except UnicodeEncodeError as e:
            raise fail("text is not valid Unicode", raw.count("\n", 0, e.start) + 1) from None
    else:
        data = bytes(raw)
    limits = _Limits(max_states, max_transitions, max_line_bytes)
    return _parse(data, payload_prefix, limits, backend, fail)


class _Limits(NamedTuple):
    states: int
    transitions: int
    line_bytes: int


def _parse(data: bytes, payload_prefix: str | None, limits: _Limits, backend: Backend, fail: Fail) -> AutLTS:
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    init, m, n, line_no, body_start = _header(data, limits, fail)
    parsed = None
    use_np = use_numpy(backend, n + m)
    if use_np:
        parsed = fast_body(data, body_start, m, n, limits.line_bytes)
    if parsed is None:
        parsed = _slow_body(data, body_start, line_no, m, n, limits.line_bytes, fail)
    src, lab, dst, names = parsed
    aut = AutLTS(init, n, names, src, lab, dst)
    if payload_prefix is not None:

        def fail_at(k: int, msg: str) -> AutInputError:
            return fail(msg, _line_of_transition(data, body_start, line_no, k))

        aut = extract_payloads(aut, payload_prefix, use_np, fail_at)
    return aut


def _header(data: bytes, limits: _Limits, fail: Fail) -> tuple[int, int, int, int, int]:
    """``(initial, n_transitions, n_states, header line, offset of the body)``, all checked."""
    if not data or data.isspace():
        raise fail("empty file: expected a header 'des (initial, n_transitions, n_states)'", 1)
    # UTF-8 check first, so that every later message can quote the text
    if not data.isascii():
        try:
            data.decode("utf-8")
        except UnicodeDecodeError as e:
            raise fail(
                f"not UTF-8 text (byte 0x{data[e.start]:02x})", _line_at(data, e.start)
            ) from None
    # the header: first non-blank line
    hstart = _BLANK_LINES.match(data).end()  # type: ignore[union-attr]
    line_no = data.count(b"\n", 0, hstart) + 1
    nl = data.find(b"\n", hstart)
    hend = len(data) if nl < 0 else nl
    header = data[hstart:hend]
    if len(header) > limits.line_bytes:
        raise fail(f"line is {len(header)} bytes, more than the limit of {limits.line_bytes}", line_no)
    mh = _HEADER.fullmatch(header)
    if mh is None:
        raise fail(
            f"expected header 'des (initial, n_transitions, n_states)', got {_snippet(header)}",
            line_no,
        )
    for token in mh.groups():
        if len(token.lstrip(b"-")) > MAX_DIGITS:
            raise fail(f"header number {_snippet(token)} has {len(token.lstrip(b'-'))} digits, "
                       f"more than {MAX_DIGITS}", line_no)
    init, m, n = (int(x) for x in mh.groups())
    if min(init, m, n) < 0:
        raise fail(f"negative number in header {_snippet(header)}", line_no)
    if n > min(limits.states, 2**31 - 1):
        raise fail(
            f"header announces {n} states, more than the cap of {limits.states} (max_states)", line_no
        )
    if m > limits.transitions:
        raise fail(
            f"header announces {m} transitions, more than the cap of {limits.transitions} (max_transitions)",
            line_no,
        )
    body_start = min(hend + 1, len(data))
    body_len = len(data) - body_start
    # a claim far beyond what the bytes could hold is refused at once; a small
    # shortfall is reported below as a truncated file, at its last line
    if m > max(1024, 2 * (body_len + 1) // (MIN_LINE + 1)):
        raise fail(
            f"header announces {m} transitions but only {body_len} bytes follow "
            f"(a transition takes at least {MIN_LINE})",
            line_no,
        )
    if n > 2 * m + 1 + SPARE_STATES:
        raise fail(
            f"header announces {n} states but its {m} transitions can touch at most {2 * m + 1} "
            f"(with the initial state); at most {SPARE_STATES} more may stand alone",
            line_no,
        )
    if n == 0:
        raise fail("header announces 0 states (an LTS has at least its initial state)", line_no)
    if init >= n:
        raise fail(f"initial state {init} out of range 0..{n - 1}", line_no)
    return init, m, n, line_no, body_start


def _slow_body(
    data: bytes, body_start: int, header_line: int, m: int, n: int, max_line: int, fail: Fail
) -> tuple[memoryview, memoryview, memoryview, tuple[str, ...]]:
    """Tolerant parse (blanks around fields, blank lines); diagnoses the first bad line."""
    text = data[body_start:].decode("utf-8")
    lines = text.split("\n")
    if any(len(x) > max_line // 4 and len(x.encode("utf-8")) > max_line for x in lines):
        _diagnose(lines, header_line, m, n, max_line, fail)
    found = _LINE_ALL.findall(text)
    nonblank = sum(1 for x in lines if x.strip())
    if len(found) != nonblank or len(found) != m:
        _diagnose(lines, header_line, m, n, max_line, fail)
    raw_ids: dict[str, int] = {}
    src = array("i")
    dst = array("i")
    rawlab = array("i")
    for s, a, t in found:
        if len(s) > MAX_DIGITS or len(t) > MAX_DIGITS:
            _diagnose(lines, header_line, m, n, max_line, fail)
        si, ti = int(s), int(t)
        if si >= n or ti >= n:
            _diagnose(lines, header_line, m, n, max_line, fail)
        src.append(si)
        dst.append(ti)
        rawlab.append(raw_ids.setdefault(a, len(raw_ids)))
    name_ids: dict[str, int] = {}
    remap = []
    for raw in raw_ids:
        name = _label_name(raw)
        if name is None:
            _diagnose(lines, header_line, m, n, max_line, fail)
        remap.append(name_ids.setdefault(name, len(name_ids)))  # type: ignore[arg-type]
    lab = array("i", [remap[x] for x in rawlab])
    return frozen("i", src), frozen("i", lab), frozen("i", dst), tuple(name_ids)


def _label_name(raw: str) -> str | None:
    """The label named by a field between the first and last comma, or None if malformed."""
    f = raw.strip(" \t")
    if f.startswith('"'):
        if len(f) >= 2 and f.endswith('"'):
            return f[1:-1]
        return None
    return f if f else None


def _state(field: str, what: str, n: int) -> str | None:
    """Why the state field of a transition is wrong, or None when it names a state ``< n``."""
    f = field.strip(" \t")
    if _DIGITS.fullmatch(f):
        if len(f) > MAX_DIGITS:
            if len(f.lstrip("0")) > MAX_DIGITS:
                return f"{what} state {_snippet(f)} out of range 0..{n - 1} ({len(f)} digits)"
            return f"{what} state number {_snippet(f)} has {len(f)} digits, more than {MAX_DIGITS}"
        if int(f) >= n:
            return f"{what} state {int(f)} out of range 0..{n - 1}"
        return None
    if f.startswith("-") and _DIGITS.fullmatch(f[1:]):
        return f"negative {what} state {_snippet(f)}"
    return f"expected a {what} state number (ASCII digits 0-9), got {_snippet(f)}"


def _diagnose(lines: list[str], header_line: int, m: int, n: int, max_line: int, fail: Fail) -> None:
    """Raise the AutInputError for the first bad line (or the count mismatch)."""
    count = 0
    last_line = header_line
    last_nonblank = max((i for i, x in enumerate(lines) if x.strip()), default=-1)
    for i, line in enumerate(lines):
        ln = header_line + 1 + i
        if len(line) > max_line // 4:
            size = len(line.encode("utf-8"))
            if size > max_line:
                raise fail(f"line is {size} bytes, more than the limit of {max_line}", ln)
        if not line.strip():
            continue
        last_line = ln
        mt = _LINE_DIAG.fullmatch(line)
        if mt is None:
            stripped = line.strip()
            if stripped.startswith("(") and ")" not in stripped and i == last_nonblank:
                raise fail(
                    f"truncated line {_snippet(line)} (the file ends inside a transition)", ln
                )
            raise fail(f"expected '(src,label,dst)', got {_snippet(line)}", ln)
        s, raw, t = mt.groups()
        for what, v in (("source", s), ("target", t)):
            why = _state(v, what, n)
            if why is not None:
                raise fail(why, ln)
        if _label_name(raw) is None:
            f = raw.strip(" \t")
            what = "empty label" if not f else f"unterminated quoted label {_snippet(f)}"
            raise fail(what, ln)
        count += 1
        if count > m:
            raise fail(f"more transitions than the {m} the header announces", ln)
    if count != m:
        raise fail(
            f"truncated: the header announces {m} transitions but the file has {count}",
            last_line + 1,
        )


def _line_of_transition(data: bytes, body_start: int, header_line: int, k: int) -> int:
    """Line number of the k-th (0-based) transition line."""
    text = data[body_start:].decode("utf-8")
    seen = -1
    for i, line in enumerate(text.split("\n")):
        if line.strip():
            seen += 1
            if seen == k:
                return header_line + 1 + i
    return header_line  # pragma: no cover


def _source_name(source: Any) -> str:
    if isinstance(source, (str, os.PathLike)):
        p = os.fspath(source)
        return display_name(p if isinstance(p, str) else os.fsdecode(p))
    name = getattr(source, "name", None)
    return name if isinstance(name, str) else "<stream>"


def _line_at(data: bytes, offset: int) -> int:
    return data.count(b"\n", 0, offset) + 1


def _snippet(line: bytes | str) -> str:
    text = line.decode("utf-8", "replace") if isinstance(line, bytes) else line
    text = text.strip()
    return repr(text if len(text) <= 60 else text[:57] + "...")
