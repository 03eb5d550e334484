"""Refinement rounds in plain Python: the engine's rounds on small dirty sets.

One round takes the *dirty* states (those a successor of which changed block),
groups the dirty states of each block by their signature
``{(a, blk[t]) : s --a--> t}`` under the previous round's ids, and splits the
block: the largest group keeps the id, every other group gets a fresh one (see
:mod:`coalg.bisim.engine` for why this is the coarsest stable partition).
These rounds run while the dirty set is small, and always without NumPy; a
thin chain costs ``O(1)`` per round (the one-dirty-state fast path).
"""

from __future__ import annotations

from typing import Any

from .blocks import Blocks
from .buffers import load_numpy
from .rounds_numpy import numpy_predecessors

__all__ = ["python_rounds"]


def python_rounds(part: Blocks, dirty: Any) -> Any:
    """Run rounds in plain Python while the dirty set is small (or always, without NumPy).

    Returns the next dirty set (a set of ints, or a NumPy array when large).
    """
    blk, beg, end, elems, pos = part.blk, part.beg, part.end, part.elems, part.pos
    off, lab, tgt, ioff, isrc = part.off, part.lab, part.tgt, part.ioff, part.isrc
    NB = part.NB
    use_np = part.use_numpy
    limit = part.min_round if use_np else len(blk) + 1
    record, hist = part.record, part.hist
    rounds = part.rounds
    nblocks = part.nblocks
    while dirty and len(dirty) < limit:
        rounds += 1
        if len(dirty) == 1:  # fast path for deep, thin shapes (chains)
            for s in dirty:
                break
            b = blk[s]
            bb = beg[b]
            be = end[b]
            if be - bb == 1:
                dirty = set()
                break
            r = elems[bb]
            if r == s:
                r = elems[bb + 1]
            o0 = off[s]
            o1 = off[s + 1]
            q0 = off[r]
            q1 = off[r + 1]
            if o1 - o0 == 1 and q1 - q0 == 1:  # one move each: compare directly
                same = lab[o0] == lab[q0] and blk[tgt[o0]] == blk[tgt[q0]]
            else:
                same = frozenset(
                    [lab[e] * NB + blk[tgt[e]] for e in range(o0, o1)]
                ) == frozenset([lab[e] * NB + blk[tgt[e]] for e in range(q0, q1)])
            if same:
                dirty = set()
                break
            # s splits off alone; the clean states (at least as many) keep the id
            p = pos[s]
            if p != bb:
                x = elems[bb]
                elems[p] = x
                pos[x] = p
                elems[bb] = s
                pos[s] = bb
            beg[nblocks] = bb
            end[nblocks] = bb + 1
            beg[b] = bb + 1
            blk[s] = nblocks
            if record:
                hist.append((rounds, [s], [nblocks]))
            nblocks += 1
            dirty = set(isrc[ioff[s] : ioff[s + 1]])
            continue
        byblock: dict[int, list[int]] = {}
        for s in dirty:
            b = blk[s]
            if end[b] - beg[b] > 1:
                lst = byblock.get(b)
                if lst is None:
                    byblock[b] = [s]
                else:
                    lst.append(s)
        # Phase 1: all signatures against the ids of the previous round.
        plans: list[
            tuple[
                int,
                int,
                int,
                list[int],
                dict[frozenset[int], list[int]] | None,
                frozenset[int] | None,
            ]
        ] = []
        for b, ds in byblock.items():
            bb = beg[b]
            be = end[b]
            k = len(ds)
            groups: dict[frozenset[int], list[int]] = {}
            for s in ds:
                g = frozenset([lab[e] * NB + blk[tgt[e]] for e in range(off[s], off[s + 1])])
                lst = groups.get(g)
                if lst is None:
                    groups[g] = [s]
                else:
                    lst.append(s)
            rep_sig = None
            if k < be - bb:
                if k == 1:
                    r = elems[bb]
                    if r == ds[0]:
                        r = elems[bb + 1]
                else:
                    dset = set(ds)
                    p = bb
                    while elems[p] in dset:
                        p += 1
                    r = elems[p]
                rep_sig = frozenset(
                    [lab[e] * NB + blk[tgt[e]] for e in range(off[r], off[r + 1])]
                )
                if rep_sig not in groups:
                    if len(groups) == 1:
                        # typical deep-chain case: one dirty group against the clean states
                        plans.append((b, bb, be, ds, None, rep_sig))
                        continue
                    groups[rep_sig] = []
            if len(groups) == 1:
                continue
            plans.append((b, bb, be, ds, groups, rep_sig))
        # Phase 2: apply the splits.
        changed: list[int] = []
        newids: list[int] = []
        for b, bb, be, ds, groups_, rep_sig in plans:
            k = len(ds)
            if groups_ is None:
                order = [ds, []]
            else:
                order = [groups_[g] for g in groups_ if g != rep_sig]
                if rep_sig is not None:
                    order.append(groups_[rep_sig])
            sizes = [len(x) for x in order]
            if rep_sig is not None:
                sizes[-1] += (be - bb) - k
            keeper = 0
            for i in range(1, len(sizes)):
                if sizes[i] > sizes[keeper]:
                    keeper = i
            # move the dirty states to the front [bb, bb + k) of the block
            if k < be - bb:
                if k == 1:
                    s = ds[0]
                    p = pos[s]
                    if p != bb:
                        x = elems[bb]
                        elems[p] = x
                        pos[x] = p
                else:
                    dset = set(ds)
                    outside = [pos[s] for s in ds if pos[s] >= bb + k]
                    if outside:
                        inside = [x for x in elems[bb : bb + k] if x not in dset]
                        for p, x in zip(outside, inside):
                            elems[p] = x
                            pos[x] = p
            p = bb
            last = len(order) - 1
            for i, members in enumerate(order):
                start = p
                for s in members:
                    elems[p] = s
                    pos[s] = p
                    p += 1
                stop = be if (i == last and rep_sig is not None) else p
                if i == keeper:
                    beg[b] = start
                    end[b] = stop
                    continue
                nid = nblocks
                nblocks += 1
                beg[nid] = start
                end[nid] = stop
                for q in range(start, stop):
                    x = elems[q]
                    blk[x] = nid
                    changed.append(x)
                    newids.append(nid)
        if record and changed:
            hist.append((rounds, changed, newids))
        if use_np and len(changed) >= limit:
            part.rounds, part.nblocks = rounds, nblocks
            np = load_numpy()
            return numpy_predecessors(part, np.array(changed, dtype=np.int64))
        seen: set[int] = set()
        for t in changed:
            seen.update(isrc[ioff[t] : ioff[t + 1]])
        dirty = seen
    part.rounds, part.nblocks = rounds, nblocks
    return dirty
