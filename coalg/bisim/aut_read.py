"""Reading Aldebaran ``.aut`` files (paper §2.2), with every check a hostile file needs.

The format and the payload convention are described in :mod:`coalg.bisim.aut`.
Malformed or hostile input raises :class:`coalg.errors.InputError` naming the
file and line: empty file, missing or garbled header, negative or
out-of-range state numbers, a transition count that differs from the header,
a header announcing more states or transitions than a cap (default 50
million each) or more transitions than the file could hold, a truncated last
line, bytes that are not UTF-8.  A large, well-formed body is parsed in array
passes (:mod:`coalg.bisim.aut_scan`); everything else, and every error, by
the tolerant line parser here.

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
from typing import IO, Any

from ..errors import InputError
from .aut import DEFAULT_MAX_SIZE, AutLTS
from .aut_payloads import extract_payloads
from .aut_scan import MIN_LINE, fast_body
from .buffers import Backend, frozen, use_numpy

__all__ = ["read_aut"]

Fail = Callable[[str, int | None], InputError]
"""The error for a message at a line of the file being read."""

_HEADER = re.compile(
    rb"[ \t]*des[ \t]*\([ \t]*(-?\d+)[ \t]*,[ \t]*(-?\d+)[ \t]*,[ \t]*(-?\d+)[ \t]*\)[ \t]*\r?"
)
# tolerant transition line (digits only; anything else is diagnosed line by line)
_LINE_ALL = re.compile(
    r"^[ \t]*\([ \t]*(\d+)[ \t]*,(.*),[ \t]*(\d+)[ \t]*\)[ \t]*\r?$", re.MULTILINE
)
_LINE_DIAG = re.compile(r"[ \t]*\([ \t]*([-+]?\d+)[ \t]*,(.*),[ \t]*([-+]?\d+)[ \t]*\)[ \t]*\r?")


def read_aut(
    source: str | os.PathLike[str] | IO[str] | IO[bytes],
    *,
    payload_prefix: str | None = None,
    max_states: int = DEFAULT_MAX_SIZE,
    max_transitions: int = DEFAULT_MAX_SIZE,
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
    backend
        ``"auto"`` (vectorised fast path when NumPy is installed), ``"numpy"``
        or ``"python"``; all give the same result and the same errors.

    Raises
    ------
    InputError
        On malformed input, naming the file and line.
    OSError
        When the file cannot be read.

    Examples
    --------
    >>> import io
    >>> read_aut(io.StringIO("des (0,1,2)\\n(0,a,5)\\n"))
    Traceback (most recent call last):
    ...
    coalg.errors.InputError: <stream>, line 2: target state 5 out of range 0..1
    """
    name = _source_name(source)
    if isinstance(source, (str, os.PathLike)):
        with open(source, "rb") as f:
            raw: Any = f.read()
    else:
        raw = source.read()
    if isinstance(raw, str):
        try:
            data = raw.encode("utf-8")
        except UnicodeEncodeError as e:
            raise InputError(
                "text is not valid Unicode", source=name, line=raw.count("\n", 0, e.start) + 1
            ) from None
    else:
        data = bytes(raw)
    return _parse(data, name, payload_prefix, max_states, max_transitions, backend)


def _parse(
    data: bytes,
    name: str,
    payload_prefix: str | None,
    max_states: int,
    max_transitions: int,
    backend: Backend,
) -> AutLTS:
    def fail(msg: str, line: int | None) -> InputError:
        return InputError(msg, source=name, line=line)

    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    init, m, n, line_no, body_start = _header(data, max_states, max_transitions, fail)
    parsed = None
    use_np = use_numpy(backend, n + m)
    if use_np:
        parsed = fast_body(data, body_start, m, n)
    if parsed is None:
        parsed = _slow_body(data, body_start, line_no, m, n, fail)
    src, lab, dst, names = parsed
    aut = AutLTS(init, n, names, src, lab, dst)
    if payload_prefix is not None:

        def fail_at(k: int, msg: str) -> InputError:
            return fail(msg, _line_of_transition(data, body_start, line_no, k))

        aut = extract_payloads(aut, payload_prefix, use_np, fail_at)
    return aut


def _header(data: bytes, max_states: int, max_transitions: int, fail: Fail) -> tuple[int, int, int, int, int]:
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
    hstart = 0
    line_no = 1
    while True:
        nl = data.find(b"\n", hstart)
        hend = len(data) if nl < 0 else nl
        if data[hstart:hend].strip():
            break
        hstart = hend + 1
        line_no += 1
    header = data[hstart:hend]
    mh = _HEADER.fullmatch(header)
    if mh is None:
        raise fail(
            f"expected header 'des (initial, n_transitions, n_states)', got {_snippet(header)}",
            line_no,
        )
    init, m, n = (int(x) for x in mh.groups())
    if min(init, m, n) < 0:
        raise fail(f"negative number in header {_snippet(header)}", line_no)
    if n > min(max_states, 2**31 - 1):
        raise fail(
            f"header announces {n} states, more than the cap of {max_states} (max_states)", line_no
        )
    if m > max_transitions:
        raise fail(
            f"header announces {m} transitions, more than the cap of {max_transitions} (max_transitions)",
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
    if n == 0:
        raise fail("header announces 0 states (an LTS has at least its initial state)", line_no)
    if init >= n:
        raise fail(f"initial state {init} out of range 0..{n - 1}", line_no)
    return init, m, n, line_no, body_start


def _slow_body(
    data: bytes, body_start: int, header_line: int, m: int, n: int, fail: Fail
) -> tuple[memoryview, memoryview, memoryview, tuple[str, ...]]:
    """Tolerant parse (blanks around fields, blank lines); diagnoses the first bad line."""
    text = data[body_start:].decode("utf-8")
    found = _LINE_ALL.findall(text)
    lines = text.split("\n")
    nonblank = sum(1 for x in lines if x.strip())
    if len(found) != nonblank:
        _diagnose(lines, header_line, m, n, fail)
        # pragma: no cover - the diagnosis always finds the bad line
        raise fail("malformed transition line", None)
    if len(found) != m:
        _diagnose(lines, header_line, m, n, fail)
    raw_ids: dict[str, int] = {}
    src = array("i")
    dst = array("i")
    rawlab = array("i")
    for s, a, t in found:
        si, ti = int(s), int(t)
        if si >= n or ti >= n:
            _diagnose(lines, header_line, m, n, fail)
        src.append(si)
        dst.append(ti)
        rawlab.append(raw_ids.setdefault(a, len(raw_ids)))
    name_ids: dict[str, int] = {}
    remap = []
    for raw in raw_ids:
        name = _label_name(raw)
        if name is None:
            _diagnose(lines, header_line, m, n, fail)
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


def _diagnose(lines: list[str], header_line: int, m: int, n: int, fail: Fail) -> None:
    """Raise the InputError for the first bad line (or the count mismatch)."""
    count = 0
    last_line = header_line
    last_nonblank = max((i for i, x in enumerate(lines) if x.strip()), default=-1)
    for i, line in enumerate(lines):
        ln = header_line + 1 + i
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
            x = int(v)
            if v.startswith("-"):
                raise fail(f"negative {what} state {v}", ln)
            if v.startswith("+"):
                raise fail(f"expected a {what} state number, got {v!r}", ln)
            if x >= n:
                raise fail(f"{what} state {x} out of range 0..{n - 1}", ln)
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
        return p if isinstance(p, str) else os.fsdecode(p)
    name = getattr(source, "name", None)
    return name if isinstance(name, str) else "<stream>"


def _line_at(data: bytes, offset: int) -> int:
    return data.count(b"\n", 0, offset) + 1


def _snippet(line: bytes | str) -> str:
    text = line.decode("utf-8", "replace") if isinstance(line, bytes) else line
    text = text.strip()
    return repr(text if len(text) <= 60 else text[:57] + "...")
