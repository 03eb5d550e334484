"""A compact lineage index: ancestry and descendant adjacency as CSR arrays over integer codes.

:func:`coalg.model.lineage.ancestors` and :func:`coalg.model.lineage.descendant_ids` build a
dictionary of adjacency lists from the whole store on every call and walk it
with Python sets: right for a textbook example, slow for a million records.
:class:`LineageIndex` codes the identifiers ``0 .. n-1`` once (in sorted order)
and keeps two graphs in compressed sparse row form -- the R⁻ (ancestry) edges
and the R⁺ (descendant) edges -- so that a query costs time in proportion to
its answer:

* while the search is small it is a plain Python breadth-first search over the
  CSR rows (no per-query set-up, nothing proportional to ``n``);
* once it has scanned more than ``max(64, n / 128)`` edges (a level counting
  as four edges) it hands over to a
  compiled breadth-first search (``scipy.sparse.csgraph.breadth_first_order``)
  from the query, or, without SciPy, to a vectorised NumPy frontier search
  (a visited bitmap, each level expanded with ``np.repeat`` over the CSR
  ranges).  The threshold keeps the Python phase below the compiled search's
  fixed ``O(n)`` cost, so small answers never pay it and huge or deep ones pay
  it only once.

Without NumPy everything runs in the Python phase.  Answers are the same as
those of :mod:`coalg.model.lineage` (a property test checks it): every identifier
reachable by a *non-empty* path, so the query itself is included exactly when
it lies on a cycle.

>>> from coalg.model.alphabet import Save, Evolve, Merge
>>> from coalg.model.coalgebra import run
>>> from coalg.model.records import Record
>>> from coalg.model.store import EMPTY
>>> s = run(EMPTY, [Save(Record("a")), Save(Record("b")), Merge(("id0001", "id0002")),
...                 Evolve("id0003", "c")]).final
>>> ix = LineageIndex.from_store(s)
>>> sorted(ix.ancestor_ids("id0004"))
['id0001', 'id0002', 'id0003']
>>> sorted(ix.descendant_ids("id0001"))
['id0003', 'id0004']
>>> ix.ancestors(ix.code["id0004"]).tolist()
[0, 1, 2]
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from typing import Any, cast

from .records import ANCESTRY, DESCENDANT, Id
from .store import Store

try:
    import numpy

    _np: Any = numpy
except ImportError:  # pragma: no cover - exercised only where NumPy is absent
    _np = None

__all__ = ["CSR", "LineageIndex"]

_MIN_SWITCH = 64


class CSR:
    """A directed graph on ``0 .. n-1``: the successors of ``x`` are
    ``targets[offsets[x]:offsets[x + 1]]`` (sorted, without duplicates)."""

    __slots__ = ("n", "offsets", "targets", "_off", "_tgt", "_mat", "_rev")

    def __init__(self, n: int, src: Any, dst: Any) -> None:
        self.n = n
        self._mat: Any = None
        self._rev: CSR | None = None
        if _np is not None:
            np = _np
            s = np.asarray(src, dtype=np.int64).ravel()
            t = np.asarray(dst, dtype=np.int64).ravel()
            if s.size:
                if min(s.min(), t.min()) < 0 or max(s.max(), t.max()) >= n:
                    raise ValueError(f"an edge end is out of range 0..{n - 1}")
                key = np.unique(s * n + t)  # sorted, duplicate edges removed
                s, t = key // n, key % n
            off = np.zeros(n + 1, dtype=np.int64)
            np.cumsum(np.bincount(s, minlength=n), out=off[1:])
            self.offsets = off
            self.targets = t.astype(np.int32)
            # Python-side views for the small-query phase (indexing an array is
            # much faster than indexing a NumPy array element by element)
            self._off = array("q", off.tobytes())
            self._tgt = array("i", self.targets.tobytes())
        else:
            pairs = sorted(set(zip(src, dst)))
            for a, b in pairs:
                if not (0 <= a < n and 0 <= b < n):
                    raise ValueError(f"an edge end is out of range 0..{n - 1}")
            off = array("q", bytes(8 * (n + 1)))
            for a, _ in pairs:
                off[a + 1] += 1
            for x in range(n):
                off[x + 1] += off[x]
            self.offsets = self._off = off
            self.targets = self._tgt = array("i", [b for _, b in pairs])

    @property
    def n_edges(self) -> int:
        return len(self._tgt)

    def reverse(self) -> CSR:
        """The graph with every edge reversed (built once, then cached)."""
        if self._rev is None:
            off, tgt = self._off, self._tgt
            if _np is not None:
                src = _np.repeat(_np.arange(self.n, dtype=_np.int64), _np.diff(self.offsets))
                self._rev = CSR(self.n, self.targets, src)
            else:
                src = [x for x in range(self.n) for _ in range(off[x + 1] - off[x])]
                self._rev = CSR(self.n, list(tgt), src)
        return self._rev

    def matrix(self) -> Any:
        """The graph as a ``scipy.sparse.csr_matrix`` (built once), or ``None`` without SciPy."""
        if self._mat is None:
            try:
                from scipy.sparse import csr_matrix
            except ImportError:  # pragma: no cover - SciPy absent
                self._mat = False
                return None
            np = _np
            data = np.ones(self.targets.size, dtype=np.int8)
            m = csr_matrix((data, self.targets, self.offsets.astype(np.int32)), shape=(self.n, self.n))
            m.has_sorted_indices = True
            self._mat = m
        return None if self._mat is False else self._mat

    def reach(self, i: int) -> Any:
        """Sorted codes reachable from ``i`` by a non-empty path (a NumPy array; a list without NumPy)."""
        if not 0 <= i < self.n:
            raise IndexError(f"code {i} out of range 0..{self.n - 1}")
        off, tgt = self._off, self._tgt
        budget = max(_MIN_SWITCH, self.n >> 7) if _np is not None else -1
        seen: set[int] = set()
        frontier = [i]
        scanned = 0
        while frontier:
            nxt: list[int] = []
            for x in frontier:
                a, b = off[x], off[x + 1]
                scanned += b - a
                for y in tgt[a:b]:
                    if y not in seen:
                        seen.add(y)
                        nxt.append(y)
            frontier = nxt
            # a level costs the interpreter about as much as a few edges, so a
            # deep, narrow search (a long chain) hands over early as well
            scanned += 4
            if budget >= 0 and scanned > budget and frontier:
                return self._reach_compiled(i)
        if _np is None:
            return sorted(seen)
        out = _np.fromiter(seen, dtype=_np.int64, count=len(seen))
        out.sort()
        return out

    def _reach_compiled(self, i: int) -> Any:
        np = _np
        m = self.matrix()
        if m is not None:
            from scipy.sparse.csgraph import breadth_first_order

            nodes = breadth_first_order(m, i, directed=True, return_predecessors=False)
            # ``i`` is always in a BFS order; keep it only when it lies on a cycle
            preds = self.reverse()
            p = preds.targets[preds._off[i]:preds._off[i + 1]]
            if nodes.size > 1 and bool((nodes[1:] < nodes[:-1]).all()):
                # a BFS order that is already monotone (a chain whose codes
                # decrease along the edges): reverse it, no sort needed
                out = nodes[::-1].astype(np.int64)
                if not p.size or not np.isin(p, nodes, assume_unique=True).any():
                    out = out[:-1]  # ``i`` came first in the order: the largest code
                return out
            if nodes.size >= self.n >> 4:
                # a large answer: a visited bitmap gives the sorted codes in
                # O(n) -- much cheaper than a comparison sort of the BFS order
                # (np.sort of 100k int32 codes costs ~5x the search itself)
                seen = np.zeros(self.n, dtype=bool)
                seen[nodes.astype(np.intp)] = True
                if not seen[p].any():
                    seen[i] = False
                return np.flatnonzero(seen).astype(np.int64, copy=False)
            nodes = nodes.astype(np.int64)
            nodes.sort()
            if not p.size or not np.isin(p, nodes, assume_unique=True).any():
                nodes = nodes[nodes != i]
            return nodes
        return self._reach_numpy(i)

    def _reach_numpy(self, i: int) -> Any:
        """Frontier BFS with a visited bitmap (the fallback without SciPy)."""
        np = _np
        off, tgt = self.offsets, self.targets
        visited = np.zeros(self.n, dtype=bool)
        frontier = np.array([i], dtype=np.int64)
        while frontier.size:
            starts = off[frontier]
            lens = off[frontier + 1] - starts
            total = int(lens.sum())
            if not total:
                break
            base = np.repeat(starts - (np.cumsum(lens) - lens), lens)
            nb = tgt[base + np.arange(total, dtype=np.int64)]
            nb = nb[~visited[nb]]
            visited[nb] = True
            frontier = np.unique(nb)
        return np.flatnonzero(visited)


class LineageIndex:
    """Ancestry (R⁻) and descendant (R⁺) graphs of a store, over integer codes.

    ``ids[c]`` is the identifier with code ``c`` and ``code[i]`` its inverse;
    :meth:`ancestors` / :meth:`descendants` take and return codes (a sorted
    NumPy array), :meth:`ancestor_ids` / :meth:`descendant_ids` take and return
    identifiers, with exactly the answers of :func:`coalg.model.lineage.ancestors`
    and :func:`coalg.model.lineage.descendant_ids`.
    """

    def __init__(self, ids: Sequence[Id], anc: CSR, desc: CSR) -> None:
        self.ids = list(ids)
        self.code = {x: c for c, x in enumerate(self.ids)}
        self.anc = anc
        self.desc = desc

    @classmethod
    def from_store(cls, s: Store) -> LineageIndex:
        """Index every identifier of ``s`` (records and edge ends), coded in sorted order."""
        ids = sorted(s.ids())
        code = {x: c for c, x in enumerate(ids)}
        a_src: list[int] = []
        a_dst: list[int] = []
        d_src: list[int] = []
        d_dst: list[int] = []
        for e in s.edges:
            if e.relation in ANCESTRY:
                a_src.append(code[e.source])
                a_dst.append(code[e.target])
            if e.relation in DESCENDANT:
                d_src.append(code[e.source])
                d_dst.append(code[e.target])
        n = len(ids)
        return cls(ids, CSR(n, a_src, a_dst), CSR(n, d_src, d_dst))

    @classmethod
    def from_arrays(
        cls,
        n: int,
        anc_src: Any,
        anc_dst: Any,
        desc_src: Any = None,
        desc_dst: Any = None,
        *,
        ids: Sequence[Id] | None = None,
    ) -> LineageIndex:
        """An index from edge arrays over codes ``0 .. n-1``.

        Without ``desc_src``/``desc_dst`` the descendant graph is the ancestry
        graph reversed (the situation of an inverse-closed store).
        """
        anc = CSR(n, anc_src, anc_dst)
        desc = anc.reverse() if desc_src is None else CSR(n, desc_src, desc_dst)
        # without ids the codes stand for themselves (benchmarks and tests)
        return cls(cast("list[Id]", list(range(n))) if ids is None else ids, anc, desc)

    def __len__(self) -> int:
        return len(self.ids)

    def ancestors(self, c: int) -> Any:
        """Codes of every ancestor of the code ``c`` (sorted)."""
        return self.anc.reach(c)

    def descendants(self, c: int) -> Any:
        """Codes of every descendant of the code ``c`` (sorted)."""
        return self.desc.reach(c)

    def ancestor_ids(self, i: Id) -> frozenset[Id]:
        """= :func:`coalg.model.lineage.ancestors` (``frozenset()`` for an identifier not in the store)."""
        return self._reach_ids(self.anc, i)

    def descendant_ids(self, i: Id) -> frozenset[Id]:
        """= :func:`coalg.model.lineage.descendant_ids`."""
        return self._reach_ids(self.desc, i)

    def _reach_ids(self, closure: CSR, i: Id) -> frozenset[Id]:
        c = self.code.get(i)
        if c is None:
            return frozenset()
        ids = self.ids
        return frozenset(ids[x] for x in closure.reach(c))
