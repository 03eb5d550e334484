"""Refinement rounds vectorised with NumPy: the engine's rounds on large dirty sets.

The same round as :mod:`coalg.bisim.rounds_python`, on whole arrays: the
signature of every dirty state (and of one clean representative per block) is
hashed to 64 bits (SplitMix64 over the sorted, de-duplicated keys
``label * NB + block``), states are grouped by hash, and every hash class is
then *verified* element by element, with an exact regrouping
(:func:`exact_groups`) on a collision -- so no result depends on a hash being
collision-free.  Only used when NumPy is (see :mod:`coalg.bisim.buffers`).
"""

from __future__ import annotations

import functools
from typing import Any, NamedTuple

from .blocks import Blocks
from .buffers import INT64_MAX, expand, load_numpy

__all__ = ["SplitMix", "exact_groups", "mix64", "numpy_predecessors", "numpy_round", "splitmix"]


class SplitMix(NamedTuple):
    """The SplitMix64 constants as ``numpy.uint64`` scalars."""

    m1: Any
    m2: Any
    s30: Any
    s27: Any
    s31: Any
    gold: Any


@functools.cache
def splitmix() -> SplitMix:
    """The SplitMix64 constants (built once NumPy is loaded)."""
    u = load_numpy().uint64
    return SplitMix(u(0xBF58476D1CE4E5B9), u(0x94D049BB133111EB), u(30), u(27), u(31), u(0x9E3779B97F4A7C15))


def mix64(x: Any) -> Any:
    """SplitMix64 finaliser on a uint64 array (wrapping arithmetic)."""
    c = splitmix()
    x = x ^ (x >> c.s30)
    x *= c.m1
    x ^= x >> c.s27
    x *= c.m2
    x ^= x >> c.s31
    return x


def numpy_predecessors(part: Blocks, changed: Any) -> Any:
    """The states with a transition into ``changed`` (the next dirty set): a NumPy array,
    or a set of ints when there are few."""
    np = load_numpy()
    if len(changed) == 0:
        return []
    o0 = part.v_ioff[changed]
    preds = part.v_isrc[expand(o0, part.v_ioff[changed + 1] - o0)]
    if preds.size * 32 >= part.n:
        mark = part.mark
        mark[preds] = True
        out = np.flatnonzero(mark)
        mark[out] = False
        return out.astype(np.int64)
    if preds.size < part.min_round:
        return set(preds.tolist())
    return np.unique(preds).astype(np.int64)


def numpy_round(part: Blocks, D: Any) -> tuple[Any, Any]:
    """One vectorised round on the dirty states ``D``: the states whose id changed, and their new ids."""
    np = load_numpy()
    c = splitmix()
    blk, beg, end, elems, pos = part.v_blk, part.v_beg, part.v_end, part.v_elems, part.v_pos
    empty = np.zeros(0, dtype=np.int64)
    bD = blk[D]
    big = (end[bD] - beg[bD]) > 1
    if not big.all():
        D = D[big]
        bD = bD[big]
    nD = D.size
    if nD == 0:
        return empty, empty
    order = np.argsort(bD, kind="stable")
    D = D[order]
    bD = bD[order].astype(np.int64)
    flag = np.empty(nD, dtype=bool)
    flag[0] = True
    np.not_equal(bD[1:], bD[:-1], out=flag[1:])
    rstart = np.flatnonzero(flag)
    ub = bD[rstart]  # blocks with dirty states, ascending
    nb = ub.size
    k = np.diff(np.append(rstart, nD))  # dirty states per block
    bidx_D = np.repeat(np.arange(nb), k)
    bbeg = beg[ub].astype(np.int64)
    bend = end[ub].astype(np.int64)
    clean = (bend - bbeg) - k
    hc = clean > 0

    # slots [bbeg, bbeg + k] of blocks with clean states: find a clean
    # representative (the first clean state) and the clean states in the
    # front region [bbeg, bbeg + k) (they are displaced on a split)
    mark = part.mark
    mark[D] = True
    hcb = np.flatnonzero(hc)
    nslot = k[hcb] + 1
    slot_b = np.repeat(hcb, nslot)
    slots = expand(bbeg[hcb], nslot)
    slot_el = elems[slots].astype(np.int64)
    slot_clean = ~mark[slot_el]
    mark[D] = False
    ci = np.flatnonzero(slot_clean)
    cflag = np.empty(ci.size, dtype=bool)
    if ci.size:
        cflag[0] = True
        np.not_equal(slot_b[ci[1:]], slot_b[ci[:-1]], out=cflag[1:])
    reps = slot_el[ci[cflag]]  # one per block of hcb, in order

    # signatures of S = D + reps
    S = np.concatenate((D, reps))
    nS = S.size
    S_bidx = np.concatenate((bidx_D, hcb))
    weight = np.concatenate((np.ones(nD, dtype=np.int64), clean[hcb]))
    o0 = part.v_ooff[S]
    deg = part.v_ooff[S + 1] - o0
    eidx = expand(o0, deg)
    owner = np.repeat(np.arange(nS, dtype=np.int64), deg)
    NB = part.NB
    keys = part.v_olab[eidx].astype(np.int64)
    keys *= NB
    keys += blk[part.v_otgt[eidx]]
    del eidx  # (large temporaries are dropped as soon as possible: memory peaks)
    K = part.lts.n_labels * NB
    # sort each state's keys and drop duplicates; the owner column stays as it is
    # (it is already sorted), so it need not be decoded
    packed = nS * K < INT64_MAX
    if packed:
        key = owner * K
        key += keys
        key.sort(kind="stable")  # owner-major runs: adaptive sorting wins
    else:  # pragma: no cover - needs more than ~2**63 / n labels
        key = keys[np.lexsort((keys, owner))]
    del keys
    own = owner
    del owner
    if key.size:
        keepm = np.empty(key.size, dtype=bool)
        keepm[0] = True
        np.not_equal(key[1:], key[:-1], out=keepm[1:])
        if not packed:  # pragma: no cover
            keepm[1:] |= own[1:] != own[:-1]
        if not keepm.all():
            key = key[keepm]
            own = own[keepm]
    if packed:
        key -= own * K
    lens = np.bincount(own, minlength=nS)
    kstart = np.cumsum(lens) - lens
    h = mix64(key.astype(np.uint64))
    sig = np.zeros(nS, dtype=np.uint64)
    has = np.flatnonzero(lens)
    if has.size:
        sig[has] = np.add.reduceat(h, kstart[has])
    del h
    ub_u = ub.astype(np.uint64)
    g = mix64(sig ^ mix64(ub_u[S_bidx] * c.gold + lens.astype(np.uint64)))
    gorder = np.argsort(g)
    gs = g[gorder]
    gflag = np.empty(nS, dtype=bool)
    gflag[0] = True
    np.not_equal(gs[1:], gs[:-1], out=gflag[1:])
    gid_sorted = np.cumsum(gflag) - 1
    first = np.flatnonzero(gflag)
    G = first.size
    rep_sorted = gorder[first][gid_sorted]
    gid = np.empty(nS, dtype=np.int64)
    gid[gorder] = gid_sorted
    rep_of = np.empty(nS, dtype=np.int64)
    rep_of[gorder] = rep_sorted
    # verify that hash classes are signature classes (exactness)
    ok = bool(np.array_equal(S_bidx[rep_of], S_bidx)) and bool(
        np.array_equal(lens[rep_of], lens)
    )
    if ok and key.size:
        shift = np.repeat(kstart[rep_of] - kstart, lens)
        shift += np.arange(key.size, dtype=np.int64)
        ok = bool(np.array_equal(key[shift], key))
        del shift
    if not ok:  # a 64-bit hash collision: group exactly instead
        gid, G = exact_groups(S_bidx, own, key, nS)
    del key, own

    # per group: block, weight, holds the clean representative?
    g_bidx = np.empty(G, dtype=np.int64)
    g_bidx[gid] = S_bidx
    gw = np.bincount(gid, weights=weight, minlength=G)
    grep = np.zeros(G, dtype=bool)
    grep[gid[nD:]] = True
    # groups per block; keeper = heaviest (ties: smallest group id)
    gwi = gw.astype(np.int64)
    top = int(gwi.max()) + 1
    ko = np.argsort(g_bidx * top + (top - 1 - gwi), kind="stable")
    kb = g_bidx[ko]
    kflag = np.empty(G, dtype=bool)
    kflag[0] = True
    np.not_equal(kb[1:], kb[:-1], out=kflag[1:])
    ngroups_b = np.bincount(g_bidx, minlength=nb)
    split_b = ngroups_b > 1
    if not split_b.any():
        return empty, empty
    keeper = np.zeros(G, dtype=bool)
    keeper[ko[kflag]] = True

    # layout of the split blocks: dirty states to the front region,
    # group by group, the group of the clean states last
    sel = np.flatnonzero(split_b[bidx_D])
    Ds, gDs, bDs = D[sel], gid[sel], bidx_D[sel]
    lo = np.argsort((bDs * 2 + grep[gDs]) * G + gDs)
    Ds, gDs, bDs = Ds[lo], gDs[lo], bDs[lo]
    ks = k[split_b]
    runstart = np.repeat(np.cumsum(ks) - ks, ks)
    newpos = bbeg[bDs] + (np.arange(Ds.size, dtype=np.int64) - runstart)
    # displaced clean states of the front region <-> dirty states outside it
    Dsel = D[sel]
    oldpos = pos[Dsel].astype(np.int64)
    bsel = bidx_D[sel]
    xmask = oldpos >= bbeg[bsel] + k[bsel]
    if xmask.any():
        Xpos = oldpos[xmask]
        sb = slot_b
        ymask = slot_clean & split_b[sb] & (slots < bbeg[sb] + k[sb])
        Yel = slot_el[ymask]
        elems[Xpos] = Yel
        pos[Yel] = Xpos
    elems[newpos] = Ds
    pos[Ds] = newpos
    # group ranges
    gsel = np.flatnonzero(split_b[g_bidx])
    gb = g_bidx[gsel]
    go = np.argsort((gb * 2 + grep[gsel]) * G + gsel)
    gsel, gb = gsel[go], gb[go]
    gcnt = np.bincount(gid[:nD], minlength=G)[gsel]
    csum = np.cumsum(gcnt)
    # exclusive prefix sums restarting at every block
    bflag = np.empty(gsel.size, dtype=bool)
    bflag[0] = True
    np.not_equal(gb[1:], gb[:-1], out=bflag[1:])
    base = (csum - gcnt)[bflag]
    nb_split = np.cumsum(bflag) - 1
    gstart = bbeg[gb] + (csum - gcnt) - base[nb_split]
    gend = np.where(grep[gsel], bend[gb], gstart + gcnt)
    kp = keeper[gsel]
    beg[ub[gb[kp]]] = gstart[kp]
    end[ub[gb[kp]]] = gend[kp]
    nk = ~kp
    nstart, nend = gstart[nk], gend[nk]
    nnew = nstart.size
    nid = np.arange(part.nblocks, part.nblocks + nnew, dtype=np.int64)
    part.nblocks += nnew
    beg[nid] = nstart
    end[nid] = nend
    ln = nend - nstart
    changed = elems[expand(nstart, ln)].astype(np.int64)
    newids = np.repeat(nid, ln)
    blk[changed] = newids
    return changed, newids

def exact_groups(S_bidx: Any, own: Any, key: Any, nS: int) -> tuple[Any, int]:
    """Group the signed states exactly (by block and key list): the fallback on a hash collision."""
    np = load_numpy()
    keys_of: list[list[int]] = [[] for _ in range(nS)]
    for o, kk in zip(own.tolist(), key.tolist()):
        keys_of[o].append(kk)
    ids: dict[tuple[int, tuple[int, ...]], int] = {}
    gid = np.empty(nS, dtype=np.int64)
    for i, b in enumerate(S_bidx.tolist()):
        gid[i] = ids.setdefault((b, tuple(keys_of[i])), len(ids))
    return gid, len(ids)
