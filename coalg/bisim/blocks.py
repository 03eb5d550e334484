"""The state of a partition refinement: blocks as ranges of a permutation.

Blocks are contiguous ranges ``elems[beg[b]:end[b]]`` of a permutation of the
states (as in the compiled reference refiner), ``blk[s]`` is the block of
state ``s`` and ``pos[s]`` its place in ``elems``.  :class:`Blocks` starts
from the observation classes (round 0); the rounds of
:mod:`coalg.bisim.rounds_python` and :mod:`coalg.bisim.rounds_numpy` split it,
and :meth:`Blocks.canonical` numbers the result.  It is the engine's working
memory: mutable by design, and never handed out (results are fresh arrays).
"""

from __future__ import annotations

from array import array
from typing import Any

from .buffers import load_numpy, np_view, writable, zeros
from .lts import LTS

__all__ = ["NUMPY_MIN_ROUND", "Blocks"]

NUMPY_MIN_ROUND = 192
"""Rounds with at least this many dirty states are vectorised (when NumPy is in use)."""


class Blocks:
    """The partition of ``lts``'s states under refinement, with the history of id changes.

    With ``record``, :attr:`hist` keeps, per round, the states whose block id
    changed and their new ids (what :mod:`coalg.bisim.witness` reads the
    separation levels from).
    """

    def __init__(self, lts: LTS, use_numpy: bool, record: bool) -> None:
        self.lts = lts
        n = self.n = lts.n_states
        self.use_numpy = use_numpy
        self.record = record
        self.min_round = NUMPY_MIN_ROUND
        self.NB = max(n, 1)  # block ids are < n: keys are label * NB + block
        self.blk = zeros("i", n)
        self.elems = zeros("i", n)
        self.pos = zeros("i", n)
        self.beg = zeros("i", max(n, 1))
        self.end = zeros("i", max(n, 1))
        self.nblocks = 0
        self.rounds = 0
        # history of id changes (only when recording): per round, states and new ids
        self.hist: list[tuple[int, Any, Any]] = []
        # the transitions as the Python rounds read them: writable copies (faster
        # to index) on the Python path, the read-only buffers themselves when
        # NumPy is in use (large inputs: no second copy in memory)
        bufs = [lts.out_offsets, lts.out_labels, lts.out_targets, lts.in_offsets, lts.in_sources]
        held: list[array[int] | memoryview] = list(bufs) if use_numpy else [writable(b) for b in bufs]
        self.off, self.lab, self.tgt, self.ioff, self.isrc = held
        self._init_blocks()
        if use_numpy:
            np = load_numpy()
            self.v_blk = np_view(self.blk, np.int32)
            self.v_elems = np_view(self.elems, np.int32)
            self.v_pos = np_view(self.pos, np.int32)
            self.v_beg = np_view(self.beg, np.int32)
            self.v_end = np_view(self.end, np.int32)
            self.v_ooff = np_view(lts.out_offsets, np.int64)
            self.v_olab = np_view(lts.out_labels, np.int32)
            self.v_otgt = np_view(lts.out_targets, np.int32)
            self.v_ioff = np_view(lts.in_offsets, np.int64)
            self.v_isrc = np_view(lts.in_sources, np.int32)
            self.mark = np.zeros(n, dtype=bool)

    def _init_blocks(self) -> None:
        """Round 0: one block per observation value, in increasing order of the value."""
        n = self.n
        if n == 0:
            return
        init = self.lts.initial
        if self.use_numpy:
            np = load_numpy()
            iv = np_view(init, np.int64)
            if iv.min() == iv.max():  # plain LTS: one block, no sorting
                np_view(self.elems, np.int32)[:] = np.arange(n, dtype=np.int32)
                np_view(self.pos, np.int32)[:] = np.arange(n, dtype=np.int32)
                self.beg[0], self.end[0], self.nblocks = 0, n, 1
                return
            values, inv = np.unique(iv, return_inverse=True)
            inv = inv.ravel()
            order = np.argsort(inv, kind="stable")
            counts = np.bincount(inv, minlength=values.size)
            ends = np.cumsum(counts)
            np_view(self.blk, np.int32)[:] = inv
            np_view(self.elems, np.int32)[:] = order
            np_view(self.pos, np.int32)[order] = np.arange(n, dtype=np.int32)
            k = values.size
            np_view(self.beg, np.int32)[:k] = ends - counts
            np_view(self.end, np.int32)[:k] = ends
            self.nblocks = k
            return
        ids = {v: i for i, v in enumerate(sorted(set(init)))}
        members: list[list[int]] = [[] for _ in ids]
        blk = self.blk
        for s, v in enumerate(init):
            b = ids[v]
            blk[s] = b
            members[b].append(s)
        p = 0
        for b, ms in enumerate(members):
            self.beg[b] = p
            for s in ms:
                self.elems[p] = s
                self.pos[s] = p
                p += 1
            self.end[b] = p
        self.nblocks = len(members)

    def canonical(self) -> array[int]:
        """Block ids renumbered 0, 1, 2, ... in order of the smallest state of each block."""
        n = self.n
        out = zeros("i", n)
        if n == 0:
            return out
        if self.use_numpy:
            np = load_numpy()
            B = self.nblocks
            b_beg = self.v_beg[:B].astype(np.int64)
            border = np.argsort(b_beg)
            firsts = np.minimum.reduceat(self.v_elems, b_beg[border])
            first = np.empty(B, dtype=np.int64)
            first[border] = firsts
            canon = np.empty(B, dtype=np.int32)
            canon[np.argsort(first)] = np.arange(B, dtype=np.int32)
            np_view(out, np.int32)[:] = canon[self.v_blk]
            return out
        ids: dict[int, int] = {}
        blk = self.blk
        for s in range(n):
            out[s] = ids.setdefault(blk[s], len(ids))
        return out
