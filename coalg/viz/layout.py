"""Where the nodes of a figure go: deterministic layouts of store graphs and unfoldings.

:func:`store_layout` puts the store graph of Definition 3.4 in layers by
ancestry depth; :func:`unfolding_layout` draws an unfolding of the lineage
coalgebra (Definition 3.19) as a tidy tree.  Both depend only on their input —
no graphviz, no randomness, the same under any ``PYTHONHASHSEED`` — and need no
matplotlib.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..model import ANCESTRY, DESCENDANT, Id, Store, Unfolding

__all__ = ["store_layout", "unfolding_extent", "unfolding_layout"]


def _derivation_parents(store: Store, nodes: frozenset[Id]) -> dict[Id, set[Id]]:
    """``i ↦`` the identifiers ``i`` was derived from, read from R⁻ edges and (one-way) R⁺ edges."""
    parents: dict[Id, set[Id]] = {i: set() for i in nodes}
    for e in store.edges:
        if e.source not in nodes or e.target not in nodes or e.source == e.target:
            continue
        if e.relation in ANCESTRY:
            parents[e.source].add(e.target)
        elif e.relation in DESCENDANT:
            parents[e.target].add(e.source)
    return parents


def _depths(nodes: frozenset[Id], parents: dict[Id, set[Id]]) -> dict[Id, int]:
    """Longest derivation chain below each node; back-edges of cycles (met in sorted DFS order) are ignored."""
    depth: dict[Id, int] = {}
    seen: set[Id] = set()
    for root in sorted(nodes):
        if root in seen:
            continue
        seen.add(root)
        stack = [(root, iter(sorted(parents[root])))]
        while stack:
            x, it = stack[-1]
            for p in it:
                if p not in seen:
                    seen.add(p)
                    stack.append((p, iter(sorted(parents[p]))))
                    break
            else:
                stack.pop()
                depth[x] = max((depth[p] + 1 for p in parents[x] if p in depth), default=0)
    return depth


def store_layout(store: Store, *, show_dangling: bool = True) -> dict[Id, tuple[float, float]]:
    """A deterministic layered layout of the store graph: ``id ↦ (x, y)``.

    ``x`` is the *ancestry depth*: 0 for a record derived from nothing, else one
    more than the deepest record it was derived from (along R⁻ edges, or R⁺ edges
    read backwards; on a cycle the edge met last in sorted order is ignored).
    Within a column the records are ordered by the mean row of what they were
    derived from, then namespace, then identifier; dangling identifiers come last.
    The result depends only on the store (no graphviz, no randomness).

    >>> from coalg.model import Record, Relation
    >>> s = Store.of({"a": Record("x"), "b": Record("y")}, [("b", Relation.EVOLVED_FROM, "a")])
    >>> store_layout(s)
    {'a': (0.0, 0.0), 'b': (1.0, 0.0)}
    """
    nodes = store.ids() if show_dangling else store.dom()
    parents = _derivation_parents(store, nodes)
    depth = _depths(nodes, parents)
    layers: dict[int, list[Id]] = {}
    for i in nodes:
        layers.setdefault(depth[i], []).append(i)
    rank: dict[Id, float] = {}
    pos: dict[Id, tuple[float, float]] = {}
    for d in sorted(layers):
        def key(i: Id) -> tuple[Any, ...]:
            ps = [rank[p] for p in parents[i] if p in rank]
            mean = sum(ps) / len(ps) if ps else -1.0
            rec = store.records.get(i)
            return (rec is None, mean, "" if rec is None else rec.namespace, i)

        column = sorted(layers[d], key=key)
        half = (len(column) - 1) / 2
        for k, i in enumerate(column):
            rank[i] = float(k)
            pos[i] = (float(d), float(half - k))
    return dict(sorted(pos.items()))



def parents_of(u: Unfolding) -> list[int | None]:
    """Index of each node's parent in the preorder list (``None`` for the root)."""
    out: list[int | None] = []
    path: list[int] = []
    for k, n in enumerate(u.nodes):
        del path[n.depth:]
        out.append(path[-1] if path else None)
        path.append(k)
    return out


def unfolding_layout(u: Unfolding) -> list[tuple[float, float]]:
    """A tidy top-down tree layout, one ``(x, y)`` per node of ``u.nodes``: ``y = −depth``.

    Leaves take consecutive columns in preorder; a parent sits above the mean of
    its children.  Deterministic: the nodes are already in the unfolding's sorted
    preorder.
    """
    parent = parents_of(u)
    children: list[list[int]] = [[] for _ in u.nodes]
    for k, p in enumerate(parent):
        if p is not None:
            children[p].append(k)
    col: list[float] = [0.0] * len(u.nodes)
    next_leaf = 0.0
    for k in range(len(u.nodes)):
        if not children[k]:
            col[k] = next_leaf
            next_leaf += 1.0
    for k in reversed(range(len(u.nodes))):  # children come after their parent in preorder
        if children[k]:
            col[k] = sum(col[c] for c in children[k]) / len(children[k])
    return [(col[k], -float(n.depth)) for k, n in enumerate(u.nodes)]



def unfolding_extent(pos: Sequence[tuple[float, float]]) -> tuple[float, float]:
    """``(width, depth)`` of a tree drawn on ``pos`` (an :func:`unfolding_layout`), in nodes: a figure
    of one or more trees takes its size from these.

    >>> unfolding_extent([(0.5, 0.0), (0.0, -1.0), (1.0, -1.0)])
    (2.0, 2.0)
    """
    width = max((p[0] for p in pos), default=0.0) + 1
    depth = -min((p[1] for p in pos), default=0.0) + 1
    return width, depth
