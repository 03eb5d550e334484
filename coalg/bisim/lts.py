"""Finite labelled transition systems with state observations, stored compactly.

A *labelled transition system with observations* has states ``0 .. n-1``, an
integer observation ``initial[s]`` per state, and transitions ``(src, label,
dst)``.  :class:`LTS` keeps it in compressed sparse row form (successors and
predecessors), in read-only integer buffers; :func:`restrict` cuts out the part
reachable from some states, which is all that bisimilarity of those states
depends on.
"""

from __future__ import annotations

from array import array
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import accumulate, repeat
from typing import Any

from .buffers import INT32_MAX, Backend, expand, frozen, load_numpy, np_view, use_numpy, zeros

__all__ = ["LTS", "reachable", "restrict", "sub_lts"]


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class LTS:
    """A finite LTS with state observations, stored compactly (CSR in read-only buffers).

    Parameters
    ----------
    n_states
        Number of states; states are ``0 .. n_states - 1``.
    initial
        ``initial[s]`` (int64) is the observation of state ``s``;
        states with different observations are never bisimilar.
    out_offsets, out_labels, out_targets
        Successors: the transitions leaving ``s`` are
        ``(s, out_labels[k], out_targets[k])`` for ``out_offsets[s] <= k <
        out_offsets[s + 1]``, in input order.
    in_offsets, in_sources
        Predecessors, the same way (one entry per transition).
    n_labels
        One more than the largest label (labels are ints ``0 <= a < 2**31``).

    Notes
    -----
    The buffers are read-only ``memoryview`` objects (int64 offsets and observations,
    int32 otherwise).  Build one with :meth:`build` (from triples) or
    :meth:`from_arrays`.

    Examples
    --------
    >>> lts = LTS.build(3, [0, 0, 1], [(0, 5, 1), (1, 5, 2)])
    >>> lts.n_states, lts.n_transitions, lts.n_labels
    (3, 2, 6)
    >>> list(lts.transitions())
    [(0, 5, 1), (1, 5, 2)]
    >>> lts.successors(0)
    [(5, 1)]
    >>> lts
    LTS(n_states=3, n_transitions=2, n_labels=6)
    """

    n_states: int
    initial: memoryview
    out_offsets: memoryview
    out_labels: memoryview
    out_targets: memoryview
    in_offsets: memoryview
    in_sources: memoryview
    n_labels: int

    def __repr__(self) -> str:
        return f"LTS(n_states={self.n_states}, n_transitions={self.n_transitions}, n_labels={self.n_labels})"

    @classmethod
    def build(
        cls,
        n_states: int,
        initial: Sequence[int] | None,
        transitions: Iterable[tuple[int, int, int]],
    ) -> LTS:
        """An LTS from a state count, observations (``None``: all equal) and ``(src, label, dst)`` triples.

        Raises ``ValueError`` on a state out of range, a negative label, or a
        triple that is not three ints.

        >>> LTS.build(2, None, [(0, 0, 2)])
        Traceback (most recent call last):
        ...
        ValueError: transition 0: state 2 out of range 0..1
        """
        src, lab, dst = array("i"), array("i"), array("i")
        try:
            for s, a, t in transitions:
                src.append(s)
                lab.append(a)
                dst.append(t)
        except (OverflowError, TypeError) as e:
            raise ValueError(f"transition {len(lab)}: not three ints in range ({e})") from None
        except ValueError:
            raise ValueError(
                f"transition {len(lab)}: expected a (src, label, dst) triple"
            ) from None
        return cls.from_arrays(n_states, initial, src, lab, dst)

    @classmethod
    def from_arrays(
        cls,
        n_states: int,
        initial: Any,
        src: Any,
        labels: Any,
        dst: Any,
        *,
        backend: Backend = "auto",
    ) -> LTS:
        """An LTS from parallel sequences (lists, buffers or NumPy arrays) of sources, labels, targets.

        ``initial`` may be ``None`` (all observations equal).

        >>> LTS.from_arrays(2, None, [0], [0], [1]).successors(0)
        [(0, 1)]
        """
        n = int(n_states)
        if n < 0 or n > INT32_MAX:
            raise ValueError(f"n_states must be in 0..{INT32_MAX}, got {n}")
        if use_numpy(backend, n + len(src)):
            return cls._from_arrays_np(n, initial, src, labels, dst)
        return cls._from_arrays_py(n, initial, src, labels, dst)

    @classmethod
    def _from_arrays_np(cls, n: int, initial: Any, src: Any, labels: Any, dst: Any) -> LTS:
        np = load_numpy()

        def as_i64(x: Any, what: str) -> Any:
            try:
                a = np.asarray(x)
                if a.size == 0:
                    return np.zeros(0, dtype=np.int64)
                if a.dtype.kind not in "iu":
                    raise ValueError
                return a.astype(np.int64, copy=False).ravel()
            except (ValueError, TypeError, OverflowError):
                raise ValueError(f"{what} must be integers") from None

        s, a, t = as_i64(src, "sources"), as_i64(labels, "labels"), as_i64(dst, "targets")
        m = s.size
        if a.size != m or t.size != m:
            raise ValueError("sources, labels and targets must have the same length")
        for x in (s, t):
            if m and (x.min() < 0 or x.max() >= n):
                k = int(np.flatnonzero((x < 0) | (x >= n))[0])
                raise ValueError(f"transition {k}: state {int(x[k])} out of range 0..{n - 1}")
        if m and (a.min() < 0 or a.max() > INT32_MAX):
            k = int(np.flatnonzero((a < 0) | (a > INT32_MAX))[0])
            raise ValueError(f"transition {k}: label {int(a[k])} is not in 0..{INT32_MAX}")
        if initial is None:
            init = frozen("q", zeros("q", n))
        else:
            iv = as_i64(initial, "observations")
            if iv.size != n:
                raise ValueError(f"initial has {iv.size} entries for {n} states")
            init = frozen("q", iv)
        n_labels = int(a.max()) + 1 if m else 0
        # group by source (stably: (src << 32 | index) sorts faster than a stable argsort)
        if m < 2**32:
            key = s << 32
            key |= np.arange(m, dtype=np.int64)
            key.sort(kind="stable")  # adaptive: fast on files already grouped
            order = key & 0xFFFFFFFF
            key = t << 32
            key |= s
            key.sort(kind="stable")
            in_src = key & 0xFFFFFFFF
            del key
        else:  # pragma: no cover - more than 4 billion transitions
            order = np.argsort(s, kind="stable")
            in_src = s[np.argsort(t, kind="stable")]
        out_off = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(np.bincount(s, minlength=n), out=out_off[1:])
        in_off = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(np.bincount(t, minlength=n), out=in_off[1:])
        return cls(
            n,
            init,
            frozen("q", out_off),
            frozen("i", a[order]),
            frozen("i", t[order]),
            frozen("q", in_off),
            frozen("i", in_src),
            n_labels,
        )

    @classmethod
    def _from_arrays_py(cls, n: int, initial: Any, src: Any, labels: Any, dst: Any) -> LTS:
        s, a, t = list(src), list(labels), list(dst)
        m = len(s)
        if len(a) != m or len(t) != m:
            raise ValueError("sources, labels and targets must have the same length")
        try:  # the common case checked at C speed; the loop below names the culprit
            fine = not m or (
                min(s) >= 0 and max(s) < n and min(t) >= 0 and max(t) < n
                and min(a) >= 0 and max(a) <= INT32_MAX
            )
        except TypeError:
            fine = False
        if not fine:
            for k in range(m):
                for x in (s[k], t[k]):
                    if not 0 <= x < n:
                        raise ValueError(f"transition {k}: state {x} out of range 0..{n - 1}")
                if not 0 <= a[k] <= INT32_MAX:
                    raise ValueError(f"transition {k}: label {a[k]} is not in 0..{INT32_MAX}")
        if initial is None:
            init = zeros("q", n)
        else:
            try:
                init = array("q", [int(v) for v in initial])
            except OverflowError:
                raise ValueError("observations must fit in 64 bits") from None
            if len(init) != n:
                raise ValueError(f"initial has {len(init)} entries for {n} states")

        def csr(keys: list[int], vals: list[list[int]]) -> tuple[memoryview, list[memoryview]]:
            # a stable sort by key keeps the input order within each state
            order = sorted(range(m), key=keys.__getitem__)
            count = Counter(keys).get
            off = array("q", [0])
            off.extend(accumulate(map(count, range(n), repeat(0))))
            return frozen("q", off), [frozen("i", array("i", map(v.__getitem__, order))) for v in vals]

        out_off, (out_lab, out_tgt) = csr(s, [a, t])
        in_off, (in_src,) = csr(t, [s])
        return cls(n, frozen("q", init), out_off, out_lab, out_tgt, in_off, in_src, max(a) + 1 if m else 0)

    @property
    def n_transitions(self) -> int:
        """Number of transitions."""
        return len(self.out_targets)

    def transitions(self) -> Iterator[tuple[int, int, int]]:
        """All transitions ``(src, label, dst)``, grouped by source."""
        off, lab, tgt = self.out_offsets, self.out_labels, self.out_targets
        for s in range(self.n_states):
            for k in range(off[s], off[s + 1]):
                yield (s, lab[k], tgt[k])

    def successors(self, s: int) -> list[tuple[int, int]]:
        """The ``(label, target)`` pairs of the transitions leaving ``s``, in input order."""
        o0, o1 = self.out_offsets[s], self.out_offsets[s + 1]
        return list(zip(self.out_labels[o0:o1].tolist(), self.out_targets[o0:o1].tolist()))


# --------------------------------------------------------------------------- sub-systems


def reachable(lts: LTS, roots: Sequence[int], use_np: bool) -> list[int] | None:
    """The states reachable from ``roots`` (sorted), or ``None`` when that is every state."""
    n = lts.n_states
    off, tgt = lts.out_offsets, lts.out_targets
    seen = bytearray(n)
    frontier = []
    for r in roots:
        if not seen[r]:
            seen[r] = 1
            frontier.append(r)
    count = len(frontier)
    np: Any = load_numpy() if use_np else None
    v_seen: Any = np.frombuffer(seen, dtype=np.uint8) if (np is not None and n) else None
    while frontier:
        if np is not None and len(frontier) >= 64:
            f = np.asarray(frontier, dtype=np.int64)
            ooff = np_view(off, np.int64)
            o0 = ooff[f]
            t = np_view(tgt, np.int32)[expand(o0, ooff[f + 1] - o0)]
            t = np.unique(t[v_seen[t] == 0])
            v_seen[t] = 1
            frontier = t.tolist()
        else:
            nxt = []
            for s in frontier:
                for t in tgt[off[s] : off[s + 1]]:
                    if not seen[t]:
                        seen[t] = 1
                        nxt.append(t)
            frontier = nxt
        count += len(frontier)
    if count == n:
        return None
    if v_seen is not None:
        found: list[int] = np.flatnonzero(v_seen).tolist()
        return found
    return [s for s in range(n) if seen[s]]


def sub_lts(lts: LTS, states: list[int], use_np: bool) -> LTS:
    """The sub-LTS on ``states`` (closed under successors), renumbered in order."""
    n = lts.n_states
    newid = zeros("i", n)
    for i, s in enumerate(states):
        newid[s] = i
    off, lab, tgt = lts.out_offsets, lts.out_labels, lts.out_targets
    if use_np:
        np = load_numpy()
        st = np.asarray(states, dtype=np.int64)
        ooff = np_view(off, np.int64)
        o0 = ooff[st]
        deg = ooff[st + 1] - o0
        e = expand(o0, deg)
        nid = np_view(newid, np.int32)
        src = np.repeat(np.arange(st.size, dtype=np.int64), deg)
        init = np_view(lts.initial, np.int64)[st]
        return LTS.from_arrays(
            len(states), init, src, np_view(lab, np.int32)[e], nid[np_view(tgt, np.int32)[e]]
        )
    psrc: list[int] = []
    la: list[int] = []
    ds: list[int] = []
    for i, s in enumerate(states):
        for e in range(off[s], off[s + 1]):
            psrc.append(i)
            la.append(lab[e])
            ds.append(newid[tgt[e]])
    return LTS.from_arrays(
        len(states), [lts.initial[s] for s in states], psrc, la, ds, backend="python"
    )


def restrict(
    lts: LTS, roots: Sequence[int], use_np: bool
) -> tuple[LTS, list[int], list[int] | None]:
    """The part of ``lts`` reachable from ``roots``, the roots' numbers in it, and its
    states' numbers in ``lts`` (``None``: all states, unchanged).

    >>> sub, roots, back = restrict(LTS.build(4, None, [(0, 0, 1), (2, 0, 3)]), [2], False)
    >>> sub.n_states, roots, back
    (2, [0], [2, 3])
    """
    for r in roots:
        if not 0 <= r < lts.n_states:
            raise ValueError(f"state {r} out of range 0..{lts.n_states - 1}")
    states = reachable(lts, roots, use_np)
    if states is None:
        return lts, list(roots), None
    where = {s: i for i, s in enumerate(states)}
    return sub_lts(lts, states, use_np), [where[r] for r in roots], states
