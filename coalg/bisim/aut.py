"""The Aldebaran ``.aut`` format (read by mCRL2 and CADP): read and write labelled transition systems.

Format::

    des (initial, n_transitions, n_states)
    (src,"label",dst)
    (src,label,dst)
    ...

States are ``0 .. n_states - 1``.  A label is either quoted -- ``"a(1,2)"``,
which may contain commas, parentheses and spaces -- or unquoted (``tau``).
The label of a line is everything between its first and its last comma
(state numbers never contain commas), without surrounding blanks and without
the quotes; ``"a"`` and ``a`` name the same label.  Blank lines are ignored;
``\\r\\n`` line ends are accepted.  Nothing in a file is ever evaluated.

Malformed or hostile input raises :class:`coalg.errors.InputError` naming the
file and line: empty file, missing or garbled header, negative or
out-of-range state numbers, a transition count that differs from the header,
a header announcing more states or transitions than a cap (default 50
million each) or more transitions than the file could hold, a truncated last
line, bytes that are not UTF-8.

State payloads (convention)
---------------------------
An LTS read from ``.aut`` has plain LTS semantics: every state has the same
observation.  To carry a state observation (a *payload*) through the
format, a state may have a self-loop labelled ``<prefix><payload>``, e.g.
``(5,"rec:42",5)`` with prefix ``rec:``.  With
``read_aut(..., payload_prefix="rec:")`` such self-loops are removed from the
transitions and become the state's observation (``AutLTS.observations[s]`` =
1 + index into ``AutLTS.payloads``; 0 = no payload).  A state with two
payload loops, or a payload label on a transition that is not a self-loop, is
an error.  By default (``payload_prefix=None``) they stay ordinary
transitions; for strong bisimilarity both readings agree, since the loop is
visible exactly on the states that carry the payload.

Examples
--------
>>> import io
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
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import IO, Any

import coalg.bisim.partition as _refine

from ..errors import InputError
from .partition import LTS, Backend, _from_np, _use_numpy

# NumPy, once a large input asked for it (see _numpy); small files never import it.
_np: Any = None


def _numpy() -> Any:
    """NumPy (imported on first call, with this module's constants), or None if absent."""
    global _np, _C30, _C7F, _C76, _C80, _MASK, _MUL1, _MUL2
    if _np is None:
        np = _refine._load_numpy()
        if np is not None:
            _C30 = np.uint64(0x3030303030303030)
            _C7F = np.uint64(0x7F7F7F7F7F7F7F7F)
            _C76 = np.uint64(0x7676767676767676)
            _C80 = np.uint64(0x8080808080808080)
            _MASK = np.uint64(0x000000FF000000FF)
            _MUL1 = np.uint64(0x000F424000000064)  # 100 + (1000000 << 32)
            _MUL2 = np.uint64(0x0000271000000001)  # 1 + (10000 << 32)
            _np = np
    return _np

__all__ = ["DEFAULT_MAX_SIZE", "AutLTS", "disjoint_union", "read_aut", "write_aut"]

DEFAULT_MAX_SIZE = 50_000_000
"""Default cap on the number of states and of transitions a header may announce."""

_MIN_LINE = 7  # shortest transition line: (0,a,0)

_HEADER = re.compile(
    rb"[ \t]*des[ \t]*\([ \t]*(-?\d+)[ \t]*,[ \t]*(-?\d+)[ \t]*,[ \t]*(-?\d+)[ \t]*\)[ \t]*\r?"
)
# tolerant transition line (digits only; anything else is diagnosed line by line)
_LINE_ALL = re.compile(
    r"^[ \t]*\([ \t]*(\d+)[ \t]*,(.*),[ \t]*(\d+)[ \t]*\)[ \t]*\r?$", re.MULTILINE
)
_LINE_DIAG = re.compile(r"[ \t]*\([ \t]*([-+]?\d+)[ \t]*,(.*),[ \t]*([-+]?\d+)[ \t]*\)[ \t]*\r?")


@dataclass(frozen=True, slots=True, eq=False)
class AutLTS:
    """An LTS as read from ``.aut``: initial state, states, label names, transitions.

    ``src``, ``label`` and ``dst`` are parallel ``array('i')`` buffers;
    ``label[k]`` indexes :attr:`labels` (names in order of first appearance).
    ``observations`` is set only when payloads were read (see the module
    docstring): ``observations[s]`` is 0 or 1 + an index into ``payloads``.

    >>> aut = AutLTS.from_transitions(0, 2, [(0, "go", 1), (1, "go", 1)])
    >>> aut.labels, aut.n_transitions
    (('go',), 2)
    >>> aut.to_lts().n_states
    2
    """

    initial: int
    n_states: int
    labels: tuple[str, ...]
    src: array[int]
    label: array[int]
    dst: array[int]
    observations: array[int] | None = None
    payloads: tuple[str, ...] = ()
    payload_prefix: str | None = None

    @classmethod
    def from_transitions(
        cls, initial: int, n_states: int, transitions: Iterable[tuple[int, str, int]]
    ) -> AutLTS:
        """An :class:`AutLTS` from ``(src, label_name, dst)`` triples."""
        ids: dict[str, int] = {}
        src, lab, dst = array("i"), array("i"), array("i")
        for s, a, t in transitions:
            if not (0 <= s < n_states and 0 <= t < n_states):
                raise ValueError(
                    f"transition ({s}, {a!r}, {t}): state out of range 0..{n_states - 1}"
                )
            src.append(s)
            lab.append(ids.setdefault(str(a), len(ids)))
            dst.append(t)
        if not 0 <= initial < max(n_states, 1):
            raise ValueError(f"initial state {initial} out of range")
        return cls(initial, n_states, tuple(ids), src, lab, dst)

    @property
    def n_transitions(self) -> int:
        """Number of transitions (payload loops excluded when they were read as payloads)."""
        return len(self.src)

    def transitions(self) -> Iterator[tuple[int, int, int]]:
        """``(src, label_index, dst)`` triples in file order."""
        return zip(self.src, self.label, self.dst)

    def named_transitions(self) -> Iterator[tuple[int, str, int]]:
        """``(src, label_name, dst)`` triples in file order."""
        names = self.labels
        return ((s, names[a], t) for s, a, t in zip(self.src, self.label, self.dst))

    def to_lts(self, *, backend: Backend = "auto") -> LTS:
        """The :class:`~coalg.bisim.partition.LTS` with labels = label indices and observations = payloads
        (all equal when there are none: plain LTS semantics)."""
        return LTS.from_arrays(
            self.n_states, self.observations, self.src, self.label, self.dst, backend=backend
        )


# --------------------------------------------------------------------------- reading


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
    if m > max(1024, 2 * (body_len + 1) // (_MIN_LINE + 1)):
        raise fail(
            f"header announces {m} transitions but only {body_len} bytes follow "
            f"(a transition takes at least {_MIN_LINE})",
            line_no,
        )
    if n == 0:
        raise fail("header announces 0 states (an LTS has at least its initial state)", line_no)
    if init >= n:
        raise fail(f"initial state {init} out of range 0..{n - 1}", line_no)

    parsed = None
    use_np = _use_numpy(backend, n + m)
    if use_np:
        _numpy()
        parsed = _fast_body(data, body_start, m, n)
    if parsed is None:
        parsed = _slow_body(data, body_start, line_no, m, n, fail, use_np)
    src, lab, dst, names = parsed
    aut = AutLTS(init, n, names, src, lab, dst)
    if payload_prefix is not None:
        aut = _extract_payloads(aut, payload_prefix, data, body_start, line_no, fail, use_np)
    return aut


def _scan_number(body: Any, p: Any, step: int) -> tuple[Any, Any] | None:
    """Vectorised: read the run of decimal digits starting at ``body[p]`` going in direction
    ``step`` (+1 forward, -1 backward).  Returns (values, position of the first non-digit),
    or None when a run is empty or longer than 9 digits."""
    np = _np
    assert np is not None
    m = p.size
    val = np.zeros(m, dtype=np.int64)
    term = np.empty(m, dtype=np.int64)
    idx = np.arange(m, dtype=np.int64)  # lines still reading digits
    pos = p.copy()
    sub = val  # values of the lines in idx (a compacted copy once some have stopped)
    mult = 1
    forty_eight = np.uint8(48)
    for j in range(10):
        d = body[pos] - forty_eight
        isd = d <= 9
        if not isd.all():
            if j == 0:
                return None
            stop = ~isd
            term[idx[stop]] = pos[stop]
            if sub is not val:
                val[idx] = sub
            keep = np.flatnonzero(isd)
            idx, pos, d = idx[keep], pos[keep], d[keep]
            sub = val[idx]
            if idx.size == 0:
                return val, term
        if j == 9:
            return None
        if step > 0:
            sub *= 10
            sub += d
        else:
            sub += d.astype(np.int64) * mult
            mult *= 10
        pos += step
    return None  # pragma: no cover


# SWAR constants (uint64), set by _numpy()
_C30: Any
_C7F: Any
_C76: Any
_C80: Any
_MASK: Any
_MUL1: Any
_MUL2: Any


def _swar_value(v: Any) -> Any:
    """Eight digit values (0..9, first digit in the lowest byte) per uint64 -> the number."""
    np = _np
    v = v * np.uint64(10) + (v >> np.uint64(8))
    return ((v & _MASK) * _MUL1 + ((v >> np.uint64(16)) & _MASK) * _MUL2) >> np.uint64(32)


def _scan_swar(data: bytes, body: Any, base: int, p: Any, forward: bool) -> tuple[Any, Any] | None:
    """Like :func:`_scan_number`, eight bytes at a time (SWAR): ``forward``, the digits start
    at ``body[p]``; backward, they end just before ``body[p]``.  Runs of 8 or more digits,
    and reads that would pass the end of the data, go through :func:`_scan_number`."""
    np = _np
    # every unaligned 8-byte word of the data, as a strided view (no copy)
    words = np.ndarray(shape=(max(len(data) - 7, 0),), dtype="<u8", buffer=data, strides=(1,))
    q = p + base if forward else p + (base - 8)
    ok = (q >= 0) & (q < words.size)
    qs = q if ok.all() else np.where(ok, q, 0)
    t = words[qs] ^ _C30  # digits become 0..9
    nd = (((t & _C7F) + _C76) | t) & _C80  # bit 8i+7: byte i is not a digit
    if forward:
        _, ex = np.frexp((nd & (~nd + np.uint64(1))).astype(np.float64))  # lowest non-digit
        ln = (ex.astype(np.int64) - 8) >> 3  # digits before it; -1: all eight are digits
        longer = ln < 0
    else:
        _, ex = np.frexp(nd.astype(np.float64))  # highest non-digit
        ln = 7 - ((ex.astype(np.int64) - 8) >> 3)  # 8: all eight are digits
        longer = ln > 7
    slow = longer | ~ok
    if (ln[~slow] == 0).any():
        return None
    sh = np.where(slow, 8, 8 - ln).astype(np.uint64) << np.uint64(3)
    if forward:
        val = _swar_value(t << sh)
        term = p + ln
    else:
        val = _swar_value((t >> sh) << sh)
        term = p - 1 - ln
    val = val.astype(np.int64)
    if slow.any():
        idx = np.flatnonzero(slow)
        r = _scan_number(body, p[idx] if forward else p[idx] - 1, 1 if forward else -1)
        if r is None:
            return None
        val[idx], term[idx] = r
    return val, term


def _fast_body(data: bytes, body_start: int, m: int, n: int) -> Any:
    """Vectorised parse of the strict layout ``(digits,label,digits)`` per line; None if anything is unusual."""
    np = _np
    assert np is not None
    body = np.frombuffer(data, dtype=np.uint8)[body_start:]
    L = body.size
    if m == 0:
        return None
    nl = np.flatnonzero(body == 10)
    starts = np.empty(nl.size + 1, dtype=np.int64)
    starts[0] = 0
    starts[1:] = nl + 1
    ends = np.empty(nl.size + 1, dtype=np.int64)
    ends[:-1] = nl
    ends[-1] = L
    if ends[-1] == starts[-1]:
        starts, ends = starts[:-1], ends[:-1]
    if starts.size != m:
        return None
    ends -= body[np.maximum(ends - 1, 0)] == 13
    if (ends - starts < _MIN_LINE).any():
        return None
    if not ((body[starts] == 40).all() and (body[ends - 1] == 41).all()):
        return None
    # source digits forwards from after '(', target digits backwards from before ')'
    r = _scan_swar(data, body, body_start, starts + 1, True)
    if r is None:
        return None
    src, fc = r
    r = _scan_swar(data, body, body_start, ends - 1, False)
    if r is None:
        return None
    dst, lc = r
    if not ((body[fc] == 44).all() and (body[lc] == 44).all() and (lc > fc).all()):
        return None
    if src.max() >= n or dst.max() >= n:
        return None
    a, b = fc + 1, lc
    if (b <= a).any():
        return None
    first, lastc = body[a], body[b - 1]
    if ((first == 32) | (first == 9) | (lastc == 32) | (lastc == 9)).any():
        return None
    quoted = first == 34
    if not np.array_equal(quoted, (lastc == 34) & (b - a >= 2)):
        return None
    a = a + quoted
    b = b - quoted
    ln = b - a
    short = ln <= 7
    key = ln.astype(np.uint64) << np.uint64(56)
    for j in range(int(min(ln.max(), 7))):
        byte = body[np.minimum(a + j, L - 1)].astype(np.uint64)
        byte[~(short & (ln > j))] = 0
        key |= byte << np.uint64(8 * j)
    if not short.all():
        # long labels: exact keys through a dict, above every short key
        long_idx = np.flatnonzero(~short)
        ids: dict[bytes, int] = {}
        base = body_start
        lk = [
            ids.setdefault(data[base + x : base + y], len(ids))
            for x, y in zip(a[long_idx].tolist(), b[long_idx].tolist())
        ]
        key[long_idx] = np.uint64(0xFF00000000000000) + np.asarray(lk, dtype=np.uint64)
    lab, first_idx = _dense_ids(key)
    names = []
    for x in first_idx.tolist():
        names.append(data[body_start + int(a[x]) : body_start + int(b[x])].decode("utf-8"))
    return _from_np("i", src), _from_np("i", lab), _from_np("i", dst), tuple(names)


def _dense_ids(key: Any) -> tuple[Any, Any]:
    """Ids 0, 1, ... for the distinct values of ``key`` in order of first appearance,
    and the index of each first appearance."""
    np = _np
    assert np is not None
    head = key[:4096]
    cand = np.unique(head)
    where = np.minimum(np.searchsorted(cand, key), cand.size - 1)
    if not np.array_equal(cand[where], key):  # some value first appears later: sort everything
        cand, where = np.unique(key, return_inverse=True)
        where = where.ravel()
        _, first = np.unique(where, return_index=True)
    else:
        _, first = np.unique(where[:4096], return_index=True)
    order = np.argsort(first, kind="stable")
    rank = np.empty(order.size, dtype=np.int64)
    rank[order] = np.arange(order.size)
    return rank[where], first[order]


def _slow_body(
    data: bytes, body_start: int, header_line: int, m: int, n: int, fail: Any, use_np: bool
) -> tuple[array[int], array[int], array[int], tuple[str, ...]]:
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
    return src, lab, dst, tuple(name_ids)


def _label_name(raw: str) -> str | None:
    """The label named by a field between the first and last comma, or None if malformed."""
    f = raw.strip(" \t")
    if f.startswith('"'):
        if len(f) >= 2 and f.endswith('"'):
            return f[1:-1]
        return None
    return f if f else None


def _diagnose(lines: list[str], header_line: int, m: int, n: int, fail: Any) -> None:
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


def _extract_payloads(
    aut: AutLTS,
    prefix: str,
    data: bytes,
    body_start: int,
    header_line: int,
    fail: Any,
    use_np: bool,
) -> AutLTS:
    is_payload = [x.startswith(prefix) for x in aut.labels]
    if not any(is_payload):
        return AutLTS(
            aut.initial,
            aut.n_states,
            aut.labels,
            aut.src,
            aut.label,
            aut.dst,
            _zeros(aut.n_states),
            (),
            prefix,
        )
    # payload label index -> payload id (1-based, in order of first appearance)
    pay_names: list[str] = []
    pay_of_label = [0] * len(aut.labels)
    for i, name in enumerate(aut.labels):
        if is_payload[i]:
            pay_names.append(name[len(prefix) :])
            pay_of_label[i] = len(pay_names)
    kept_names = [x for i, x in enumerate(aut.labels) if not is_payload[i]]
    new_label = [-1] * len(aut.labels)
    j = 0
    for i in range(len(aut.labels)):
        if not is_payload[i]:
            new_label[i] = j
            j += 1
    obs = _zeros(aut.n_states)
    if use_np and _np is not None and aut.n_transitions:
        return _extract_payloads_np(
            aut, prefix, obs, pay_of_label, new_label, kept_names, pay_names, data, body_start,
            header_line, fail,
        )  # fmt: skip
    src, lab, dst = array("i"), array("i"), array("i")
    for k, (s, a, t) in enumerate(zip(aut.src, aut.label, aut.dst)):
        p = pay_of_label[a]
        if p:
            if s != t:
                raise fail(
                    f"payload label {aut.labels[a]!r} on a transition that is not a self-loop",
                    _line_of_transition(data, body_start, header_line, k),
                )
            if obs[s] and obs[s] != p:
                raise fail(
                    f"state {s} has a second payload {aut.labels[a]!r}",
                    _line_of_transition(data, body_start, header_line, k),
                )
            obs[s] = p
        else:
            src.append(s)
            lab.append(new_label[a])
            dst.append(t)
    return AutLTS(
        aut.initial, aut.n_states, tuple(kept_names), src, lab, dst, obs, tuple(pay_names), prefix
    )


def _extract_payloads_np(
    aut: AutLTS,
    prefix: str,
    obs: array[int],
    pay_of_label: list[int],
    new_label: list[int],
    kept_names: list[str],
    pay_names: list[str],
    data: bytes,
    body_start: int,
    header_line: int,
    fail: Any,
) -> AutLTS:
    np = _np
    src = np.frombuffer(aut.src, dtype=np.int32)
    lab = np.frombuffer(aut.label, dtype=np.int32)
    dst = np.frombuffer(aut.dst, dtype=np.int32)
    pay = np.asarray(pay_of_label, dtype=np.int32)[lab]
    isp = pay > 0
    bad = np.flatnonzero(isp & (src != dst))
    if bad.size:
        k = int(bad[0])
        raise fail(
            f"payload label {aut.labels[int(lab[k])]!r} on a transition that is not a self-loop",
            _line_of_transition(data, body_start, header_line, k),
        )
    where = np.flatnonzero(isp)
    ps, pv = src[where], pay[where]
    first = np.zeros(aut.n_states, dtype=np.int32)
    first[ps[::-1]] = pv[::-1]  # the first payload of each state (later writes win)
    clash = np.flatnonzero(first[ps] != pv)
    if clash.size:
        k = int(where[clash[0]])
        raise fail(
            f"state {int(src[k])} has a second payload {aut.labels[int(lab[k])]!r}",
            _line_of_transition(data, body_start, header_line, k),
        )
    np.frombuffer(obs, dtype=np.int32)[:] = first
    keep = ~isp
    return AutLTS(
        aut.initial,
        aut.n_states,
        tuple(kept_names),
        _from_np("i", src[keep]),
        _from_np("i", np.asarray(new_label, dtype=np.int32)[lab[keep]]),
        _from_np("i", dst[keep]),
        obs,
        tuple(pay_names),
        prefix,
    )


def _zeros(n: int) -> array[int]:
    a = array("i")
    a.frombytes(bytes(4 * n))
    return a


# --------------------------------------------------------------------------- combining


def disjoint_union(a: AutLTS, b: AutLTS) -> tuple[AutLTS, int]:
    """``a`` and ``b`` side by side; returns the union and the offset of ``b``'s states.

    Labels (and payloads) with the same name are identified; ``b``'s state
    ``s`` becomes ``offset + s``.  The union's initial state is ``a``'s.

    >>> x = AutLTS.from_transitions(0, 2, [(0, "a", 1)])
    >>> y = AutLTS.from_transitions(0, 1, [(0, "b", 0), (0, "a", 0)])
    >>> u, off = disjoint_union(x, y)
    >>> off, u.labels, list(u.named_transitions())
    (2, ('a', 'b'), [(0, 'a', 1), (2, 'b', 2), (2, 'a', 2)])
    """
    off = a.n_states
    names = {x: i for i, x in enumerate(a.labels)}
    lmap = array("i", [names.setdefault(x, len(names)) for x in b.labels])
    pays = {x: i for i, x in enumerate(a.payloads)}
    pmap = [0] + [pays.setdefault(x, len(pays)) + 1 for x in b.payloads]
    obs: array[int] | None = None
    if a.observations is not None or b.observations is not None:
        obs = array("i", a.observations if a.observations is not None else _zeros(a.n_states))
        if b.observations is not None:
            obs.extend(pmap[o] for o in b.observations)
        else:
            obs.extend(_zeros(b.n_states))
    if _use_numpy("auto", a.n_states + b.n_states + a.n_transitions + b.n_transitions):
        np = _numpy()
        vb = np.frombuffer(b.src, dtype=np.int32) if len(b.src) else np.zeros(0, np.int32)
        src = array("i", a.src)
        src.frombytes((vb + np.int32(off)).tobytes())
        lab = array("i", a.label)
        if len(b.label):
            lab.frombytes(
                np.frombuffer(lmap, dtype=np.int32)[
                    np.frombuffer(b.label, dtype=np.int32)
                ].tobytes()
            )
        vd = np.frombuffer(b.dst, dtype=np.int32) if len(b.dst) else np.zeros(0, np.int32)
        dst = array("i", a.dst)
        dst.frombytes((vd + np.int32(off)).tobytes())
    else:
        src = array("i", a.src)
        src.extend(s + off for s in b.src)
        lab = array("i", a.label)
        lab.extend(lmap[x] for x in b.label)
        dst = array("i", a.dst)
        dst.extend(t + off for t in b.dst)
    return (
        AutLTS(
            a.initial,
            a.n_states + b.n_states,
            tuple(names),
            src,
            lab,
            dst,
            obs,
            tuple(pays),
            a.payload_prefix or b.payload_prefix,
        ),
        off,
    )


# --------------------------------------------------------------------------- writing


def _quote(name: str) -> str:
    if "\n" in name or "\r" in name:
        raise ValueError(f"label {name!r} contains a line break; .aut cannot represent it")
    return f'"{name}"'


def write_aut(dest: str | os.PathLike[str] | IO[str], aut: AutLTS) -> None:
    """Write ``aut`` in ``.aut`` format (labels always quoted) to a path or text stream.

    Payload observations read with a ``payload_prefix`` are written back as
    ``<prefix><payload>`` self-loops after the other transitions, so that
    ``read_aut(..., payload_prefix=prefix)`` gives the same :class:`AutLTS`.
    """
    qnames = [_quote(x) for x in aut.labels]
    extra: list[str] = []
    if aut.observations is not None and aut.payloads:
        prefix = aut.payload_prefix or ""
        pq = [_quote(prefix + p) for p in aut.payloads]
        extra = [f"({s},{pq[o - 1]},{s})\n" for s, o in enumerate(aut.observations) if o]
    m = aut.n_transitions + len(extra)

    def chunks() -> Iterator[str]:
        yield f"des ({aut.initial},{m},{aut.n_states})\n"
        step = 1 << 16
        src, lab, dst = aut.src, aut.label, aut.dst
        for i in range(0, len(src), step):
            yield "".join(
                f"({s},{qnames[a]},{t})\n"
                for s, a, t in zip(src[i : i + step], lab[i : i + step], dst[i : i + step])
            )
        yield "".join(extra)

    if isinstance(dest, (str, os.PathLike)):
        with open(dest, "w", encoding="utf-8", newline="\n") as f:
            f.writelines(chunks())
    else:
        dest.writelines(chunks())
