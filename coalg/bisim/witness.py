"""Distinguishing witnesses: a shortest Hennessy--Milner formula telling two states apart.

When two states of an LTS are not bisimilar, :func:`distinguishing_witness`
gives a :class:`Witness`: a Hennessy--Milner formula of the smallest modal
depth that is true at one state and false at the other, and one path of it
down to an immediate difference.  The method reads *separation levels* off a
recorded run of the refinement engine (:mod:`coalg.bisim.engine`), whose
rounds are exactly the partitions of ``r``-step bisimilarity.
"""

from __future__ import annotations

import json
from bisect import bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .blocks import Blocks
from .buffers import Backend, load_numpy, use_numpy
from .engine import refined
from .lts import LTS, restrict

__all__ = ["History", "Witness", "distinguishing_witness"]


@dataclass(frozen=True, slots=True)
class Witness:
    """Why two states are not bisimilar.

    Attributes
    ----------
    formula
        A Hennessy--Milner formula true at the left state and false at the
        right one, of the smallest possible modal depth.  Syntax: ``true``,
        ``false``, ``obs(v)`` (the observation is ``v``), ``<a>φ`` (some
        ``a``-move leads to a state satisfying φ), ``[a]φ`` (every ``a``-move
        does), ``(φ && ψ ...)``, ``(φ || ψ ...)``.
    depth
        Its modal depth = the smallest ``k`` such that the states are not
        ``k``-step bisimilar.
    path
        One branch of the formula: labels that both sides can follow ...
    left, right
        ... to the states reached (``left`` from the left state) ...
    reason
        ... where the difference is immediate: ``"observation differs: X vs Y"``
        or ``"label L possible on the left only"`` / ``"... on the right only"``.
        ``depth == len(path) + (0 if observation differs else 1)``.
    """

    path: tuple[int, ...]
    left: int
    right: int
    reason: str
    formula: str
    depth: int


class History:
    """The block id of each state after each round, read off a refinement run with ``record``."""

    def __init__(self, run: Blocks) -> None:
        n = run.n
        # initial ids are those of the observation classes (round 0)
        self.init = Blocks(run.lts, run.use_numpy, record=False).blk
        self.ev: dict[int, tuple[list[int], list[int]]] = {}
        self.np_ev: Any = None
        if run.use_numpy and run.hist:
            np = load_numpy()
            rounds = np.concatenate([np.full(len(c), r, dtype=np.int64) for r, c, _ in run.hist])
            sts = np.concatenate([np.asarray(c, dtype=np.int64) for _, c, _ in run.hist])
            ids = np.concatenate([np.asarray(i, dtype=np.int64) for _, _, i in run.hist])
            order = np.argsort(sts, kind="stable")
            off = np.zeros(n + 1, dtype=np.int64)
            np.cumsum(np.bincount(sts, minlength=n), out=off[1:])
            self.np_ev = (off, rounds[order], ids[order])
        else:
            for r, cs, ns in run.hist:
                for x, i in zip(list(cs), list(ns)):
                    e = self.ev.get(x)
                    if e is None:
                        self.ev[x] = ([int(r)], [int(i)])
                    else:
                        e[0].append(int(r))
                        e[1].append(int(i))
        self._cache: dict[int, tuple[list[int], list[int]]] = {}

    def events(self, x: int) -> tuple[list[int], list[int]]:
        if self.np_ev is None:
            return self.ev.get(x, ([], []))
        e = self._cache.get(x)
        if e is None:
            off, rr, ii = self.np_ev
            a, b = int(off[x]), int(off[x + 1])
            e = self._cache[x] = (rr[a:b].tolist(), ii[a:b].tolist())
        return e

    def id_at(self, x: int, r: int) -> int:
        rounds, ids = self.events(x)
        i = bisect_right(rounds, r)
        return ids[i - 1] if i else self.init[x]

    def sep(self, u: int, v: int) -> int | None:
        """Smallest r with u, v in different blocks of P_r, or None (bisimilar)."""
        if self.init[u] != self.init[v]:
            return 0
        ru, _ = self.events(u)
        rv, _ = self.events(v)
        for r in sorted(set(ru) | set(rv)):
            if self.id_at(u, r) != self.id_at(v, r):
                return r
        return None


_IDENT_OK = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")


def _show_name(name: str) -> str:
    return name if name and set(name) <= _IDENT_OK else json.dumps(name, ensure_ascii=False)


def distinguishing_witness(
    lts: LTS,
    partition: Sequence[int] | None,
    s: int,
    t: int,
    *,
    label_names: Sequence[str] | None = None,
    observation_names: Callable[[int], str] | None = None,
    backend: Backend = "auto",
    max_formula_chars: int = 10_000_000,
) -> Witness | None:
    """A shortest reason why ``s`` and ``t`` are not bisimilar, or ``None`` if they are.

    ``partition`` (from :func:`~coalg.bisim.partition.coarsest_partition`, may be ``None``) is only used
    as a shortcut: equal blocks give ``None`` at once.  ``label_names`` renders
    labels by name (in the formula and reason; ``path`` stays ints) and
    ``observation_names`` renders observation values.

    Method: *separation levels*.  The part of the LTS reachable from ``s`` and
    ``t`` is refined level-synchronously with every id change recorded, so
    ``sep(u, v)``, the first round whose partition ``P_r`` separates ``u`` and
    ``v``, is known for every pair (``P_r`` is ``r``-step bisimilarity).  Then
    ``δ(u, v)`` (true at ``u``, false at ``v``) is built top-down with
    ``k = sep(u, v)``: for ``k = 0`` the observations differ, ``δ = obs(o_u)``;
    for ``k >= 1`` the ``P_{k-1}``-signatures differ, so for some label ``a``
    either some ``a``-successor ``u'`` of ``u`` lies in no ``P_{k-1}``-block of
    an ``a``-successor of ``v`` -- ``δ = <a>(∧_{v'} δ(u', v'))`` -- or some
    ``v'`` of ``v`` lies in no block of any ``u'`` -- ``δ = [a](∨_{u'} δ(u',
    v'))``; every pair inside is separated at a level ``<= k - 1``.

    *Why it is shortest.*  By induction on ``k``, a formula of modal depth
    ``<= k`` has the same truth value at ``k``-step bisimilar states
    (``u ~_k v`` iff same observation and, for each label, every ``a``-move of
    one is matched by a move of the other into ``~_{k-1}``).  So no formula of
    depth ``< sep(s, t)`` distinguishes ``s`` from ``t``, and ``δ`` has depth
    exactly ``sep(s, t)`` (its sub-formulas have depth ``<= k - 1``; the
    conjunct/disjunct of a pair at level exactly ``k - 1`` exists because
    ``u ~_{k-1} v``, and :attr:`Witness.path` follows it).  The formula is exact
    under nondeterminism: ``<a>`` quantifies over all ``a``-successors of the
    other side by the conjunction.

    Examples
    --------
    ``0 -a-> 1 -b-> 2`` against ``3 -a-> 4``, and a nondeterministic case:

    >>> lts = LTS.build(5, None, [(0, 0, 1), (1, 1, 2), (3, 0, 4)])
    >>> w = distinguishing_witness(lts, None, 0, 3)
    >>> w.path, w.reason, w.formula, w.depth
    ((0,), 'label 1 possible on the left only', '<0><1>true', 2)
    >>> nd = LTS.build(6, None, [(0, 0, 1), (1, 1, 2), (3, 0, 4), (3, 0, 5), (5, 1, 2)])
    >>> distinguishing_witness(nd, None, 3, 0, label_names=["a", "b"]).formula
    '<a>[b]false'
    >>> distinguishing_witness(nd, None, 0, 0) is None
    True
    """
    if partition is not None and partition[s] == partition[t]:
        return None
    use_np = use_numpy(backend, lts.n_states + lts.n_transitions)
    sub, (a0, b0), back = restrict(lts, [s, t], use_np)
    hist = History(refined(sub, use_np, record=True))
    k0 = hist.sep(a0, b0)
    if k0 is None:
        return None

    succ_cache: dict[int, dict[int, list[int]]] = {}

    def succ(x: int) -> dict[int, list[int]]:
        d = succ_cache.get(x)
        if d is None:
            d = {}
            for a, y in sub.successors(x):
                d.setdefault(a, []).append(y)
            for a in d:
                d[a] = sorted(set(d[a]))
            succ_cache[x] = d
        return d

    # option for a pair: (kind, label, pivot, partners) -- kind "dia": pivot is
    # u' and partners the v'; kind "box": pivot is v' and partners the u'.
    def option(u: int, v: int, k: int) -> tuple[str, int, int, list[int]]:
        su, sv = succ(u), succ(v)
        best: tuple[tuple[int, int, int, int], tuple[str, int, int, list[int]]] | None = None
        for a in sorted(set(su) | set(sv)):
            U, V = su.get(a, []), sv.get(a, [])
            idsU = {hist.id_at(x, k - 1) for x in U}
            idsV = {hist.id_at(y, k - 1) for y in V}
            for x in U:
                if hist.id_at(x, k - 1) not in idsV:
                    cand = ((len(V), a, 0, x), ("dia", a, x, V))
                    if best is None or cand[0] < best[0]:
                        best = cand
                    break
            for y in V:
                if hist.id_at(y, k - 1) not in idsU:
                    cand = ((len(U), a, 1, y), ("box", a, y, U))
                    if best is None or cand[0] < best[0]:
                        best = cand
                    break
        assert best is not None, "signatures differ, so some label separates"
        return best[1]

    def children(u: int, v: int, opt: tuple[str, int, int, list[int]]) -> list[tuple[int, int]]:
        kind, _, pivot, partners = opt
        return [(pivot, y) for y in partners] if kind == "dia" else [(x, pivot) for x in partners]

    # hash-consed formula nodes: ("obs", value) | ("dia"/"box", label, child ids)
    nodes: list[tuple[Any, ...]] = []
    node_id: dict[tuple[Any, ...], int] = {}

    def intern(node: tuple[Any, ...]) -> int:
        i = node_id.get(node)
        if i is None:
            i = node_id[node] = len(nodes)
            nodes.append(node)
        return i

    memo: dict[tuple[int, int], int] = {}
    opts: dict[tuple[int, int], tuple[str, int, int, list[int]]] = {}
    levels: dict[tuple[int, int], int] = {(a0, b0): k0}
    init_obs = sub.initial
    stack = [(a0, b0)]
    while stack:
        pair = stack[-1]
        if pair in memo:
            stack.pop()
            continue
        u, v = pair
        k = levels[pair]
        if k == 0:
            memo[pair] = intern(("obs", init_obs[u]))
            stack.pop()
            continue
        opt = opts.get(pair)
        if opt is None:
            opt = opts[pair] = option(u, v, k)
        kids = children(u, v, opt)
        missing = [c for c in kids if c not in memo]
        if missing:
            for c in missing:
                if c not in levels:
                    lv = hist.sep(*c)
                    assert lv is not None and lv < k
                    levels[c] = lv
            stack.extend(missing)
            continue
        child_ids = tuple(sorted({memo[c] for c in kids}))
        memo[pair] = intern((opt[0], opt[1], child_ids))
        stack.pop()

    def lab_name(a: int) -> str:
        return str(a) if label_names is None else _show_name(label_names[a])

    def obs_name(o: int) -> str:
        return str(o) if observation_names is None else _show_name(observation_names(o))

    # rendering (iterative; shared sub-formulas are written out in full)
    size: dict[int, int] = {}
    for i, node in enumerate(nodes):  # children always precede parents
        if node[0] == "obs":
            size[i] = len(obs_name(node[1])) + 5
        else:
            size[i] = len(lab_name(node[1])) + 6 + sum(size[c] + 4 for c in node[2])
    root = memo[(a0, b0)]
    if size[root] > max_formula_chars:
        raise ValueError(
            f"the distinguishing formula has about {size[root]} characters "
            f"(more than max_formula_chars={max_formula_chars})"
        )
    parts: list[str] = []
    todo: list[Any] = [root]
    while todo:
        item = todo.pop()
        if isinstance(item, str):
            parts.append(item)
            continue
        node = nodes[item]
        if node[0] == "obs":
            parts.append(f"obs({obs_name(node[1])})")
            continue
        kind, a, cs = node
        opn, cls, empty, sep = (
            ("<", ">", "true", " && ") if kind == "dia" else ("[", "]", "false", " || ")
        )
        parts.append(f"{opn}{lab_name(a)}{cls}")
        if not cs:
            parts.append(empty)
        elif len(cs) == 1:
            todo.append(cs[0])
        else:
            seq: list[Any] = ["("]
            for j, c in enumerate(cs):
                if j:
                    seq.append(sep)
                seq.append(c)
            seq.append(")")
            todo.extend(reversed(seq))
    formula = "".join(parts)

    # one branch: follow pairs whose level drops by exactly one
    path: list[int] = []
    u, v = a0, b0
    while True:
        k = levels[(u, v)]
        if k == 0:
            ou, ov = init_obs[u], init_obs[v]
            reason = f"observation differs: {obs_name(ou)} vs {obs_name(ov)}"
            break
        kind, a, _, partners = opts[(u, v)]
        if not partners:
            side = "left" if kind == "dia" else "right"
            reason = f"label {lab_name(a)} possible on the {side} only"
            break
        path.append(a)
        for c in children(u, v, opts[(u, v)]):
            if levels[c] == k - 1:
                u, v = c
                break
        else:  # pragma: no cover - excluded by the level argument
            raise AssertionError("no child at level k - 1")
    if back is not None:
        u, v = back[u], back[v]
    return Witness(tuple(path), u, v, reason, formula, k0)
