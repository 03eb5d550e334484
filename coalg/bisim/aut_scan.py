"""The vectorised ``.aut`` parser: the body of a large, well-formed file in array passes.

:func:`fast_body` reads the strict layout ``(digits,label,digits)``, one
transition per line, with NumPy: line boundaries by a search for newlines,
state numbers eight digits at a time (SWAR arithmetic on unaligned 64-bit
words), labels by their bytes.  On anything unusual -- blanks, long numbers,
a count that differs from the header -- it returns ``None`` and the tolerant
parser of :mod:`coalg.bisim.aut_read` reads the file and names the bad line,
so both give the same result and the same errors.
"""

from __future__ import annotations

import functools
from typing import Any, NamedTuple

from .buffers import frozen, load_numpy

__all__ = ["MIN_LINE", "Swar", "fast_body", "swar"]

MIN_LINE = 7
"""The shortest transition line: ``(0,a,0)``."""


class Swar(NamedTuple):
    """The SWAR constants of the digit scan, as ``numpy.uint64`` scalars."""

    c30: Any
    c7f: Any
    c76: Any
    c80: Any
    mask: Any
    mul1: Any
    mul2: Any


@functools.cache
def swar() -> Swar:
    """The SWAR constants (built once NumPy is loaded)."""
    u = load_numpy().uint64
    return Swar(
        u(0x3030303030303030),
        u(0x7F7F7F7F7F7F7F7F),
        u(0x7676767676767676),
        u(0x8080808080808080),
        u(0x000000FF000000FF),
        u(0x000F424000000064),  # 100 + (1000000 << 32)
        u(0x0000271000000001),  # 1 + (10000 << 32)
    )


def _scan_number(body: Any, p: Any, step: int) -> tuple[Any, Any] | None:
    """Vectorised: read the run of decimal digits starting at ``body[p]`` going in direction
    ``step`` (+1 forward, -1 backward).  Returns (values, position of the first non-digit),
    or None when a run is empty or longer than 9 digits."""
    np = load_numpy()
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


def _swar_value(v: Any) -> Any:
    """Eight digit values (0..9, first digit in the lowest byte) per uint64 -> the number."""
    np = load_numpy()
    c = swar()
    v = v * np.uint64(10) + (v >> np.uint64(8))
    return ((v & c.mask) * c.mul1 + ((v >> np.uint64(16)) & c.mask) * c.mul2) >> np.uint64(32)


def _scan_swar(data: bytes, body: Any, base: int, p: Any, forward: bool) -> tuple[Any, Any] | None:
    """Like :func:`_scan_number`, eight bytes at a time (SWAR): ``forward``, the digits start
    at ``body[p]``; backward, they end just before ``body[p]``.  Runs of 8 or more digits,
    and reads that would pass the end of the data, go through :func:`_scan_number`."""
    np = load_numpy()
    # every unaligned 8-byte word of the data, as a strided view (no copy)
    c = swar()
    words = np.ndarray(shape=(max(len(data) - 7, 0),), dtype="<u8", buffer=data, strides=(1,))
    q = p + base if forward else p + (base - 8)
    ok = (q >= 0) & (q < words.size)
    qs = q if ok.all() else np.where(ok, q, 0)
    t = words[qs] ^ c.c30  # digits become 0..9
    nd = (((t & c.c7f) + c.c76) | t) & c.c80  # bit 8i+7: byte i is not a digit
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


def fast_body(data: bytes, body_start: int, m: int, n: int, max_line: int) -> Any:
    """Vectorised parse of the strict layout ``(digits,label,digits)`` per line; None if anything
    is unusual (a line longer than ``max_line`` bytes included)."""
    np = load_numpy()
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
    width = ends - starts
    if (width < MIN_LINE).any() or (width >= max_line).any():
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
    return frozen("i", src), frozen("i", lab), frozen("i", dst), tuple(names)


def _dense_ids(key: Any) -> tuple[Any, Any]:
    """Ids 0, 1, ... for the distinct values of ``key`` in order of first appearance,
    and the index of each first appearance."""
    np = load_numpy()
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
