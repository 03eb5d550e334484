"""The edges of a store graph: their family, which half of an inverse pair is drawn, the arrow.

Shared by :func:`coalg.viz.plot_store` and the plots built on it.  An edge
points from source to target, so an ancestry edge points from the derived
record back to what it came from, as β⁻ reads it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from ..model import ANCESTRY, DESCENDANT, Edge, Id, Relation, Store, inverse
from .style import NODE_SIZE

if TYPE_CHECKING:
    from matplotlib.axes import Axes

__all__ = ["EdgeFamily", "arrow", "drawn_edges", "edge_family", "split_highlight"]

EdgeFamily = Literal["ancestry", "descendant", "other"]


def edge_family(r: Relation) -> EdgeFamily:
    """Which family a label belongs to: ancestry R⁻, descendant R⁺, or any other relation.

    >>> edge_family(Relation.MERGED_FROM), edge_family(Relation.MERGED_INTO), edge_family(Relation.SUPERSEDES)
    ('ancestry', 'descendant', 'other')
    """
    if r in ANCESTRY:
        return "ancestry"
    if r in DESCENDANT:
        return "descendant"
    return "other"


_ORDER = {r: k for k, r in enumerate(Relation)}


def _primary(e: Edge) -> bool:
    """Is ``e`` the direction of its inverse pair that a plot draws when both are present?

    R⁻ beats R⁺; among other pairs the label listed first in ``Relation`` wins
    (``supersedes`` over ``superseded_by``); a self-inverse label keeps the edge
    whose source sorts first.
    """
    r, q = e.relation, inverse(e.relation)
    if r == q:
        return e.source <= e.target
    if r in ANCESTRY:
        return True
    if r in DESCENDANT:
        return False
    return _ORDER[r] < _ORDER[q]


def drawn_edges(store: Store, nodes: frozenset[Id], descendants: bool) -> list[Edge]:
    """The edges a store plot draws, sorted (see :func:`coalg.viz.store.plot_store` for the rule)."""
    out = []
    for e in sorted(store.edges):
        if e.source not in nodes or e.target not in nodes:
            continue
        if not descendants:
            partner = Edge(e.target, inverse(e.relation), e.source)
            if partner in store.edges and partner != e and not _primary(e):
                continue
        out.append(e)
    return out



def split_highlight(highlight: Any) -> tuple[set[Id], set[Edge]]:
    """The identifiers and the edges of ``highlight``, which may mix identifiers and
    ``(source, relation, target)`` edges (the argument of every graph plot)."""
    ids: set[Id] = set()
    edges: set[Edge] = set()
    for h in highlight or ():
        if isinstance(h, str):
            ids.add(h)
        else:
            src, rel, dst = h
            edges.add(Edge(str(src), Relation(rel), str(dst)))
    return ids, edges


def arrow(
    ax: Axes,
    a: tuple[float, float],
    b: tuple[float, float],
    *,
    colour: str,
    style: str,
    width: float,
    alpha: float = 1.0,
    rad: float = 0.0,
    label: str = "",
) -> Any:
    """One edge: an arrow from ``a`` to ``b`` (a small loop when ``a == b``); returns the patch."""
    from matplotlib.patches import Arc, FancyArrowPatch

    patch: Arc | FancyArrowPatch
    if a == b:
        patch = Arc(
            (a[0], a[1] + 0.18), 0.22, 0.3, theta1=-60, theta2=240,
            edgecolor=colour, linestyle=style, linewidth=width, alpha=alpha, label=label,
        )
    else:
        patch = FancyArrowPatch(
            a, b,
            arrowstyle="-|>",
            mutation_scale=9,
            shrinkA=NODE_SIZE * 0.6,
            shrinkB=NODE_SIZE * 0.6,
            connectionstyle=f"arc3,rad={rad}",
            color=colour,
            linestyle=style,
            linewidth=width,
            alpha=alpha,
            label=label,
        )
    # add_artist, not add_patch: the limits are set from the nodes, and computing an arrow's
    # extent in display space is the slowest part of a redraw.  It is still in ``ax.patches``.
    ax.add_artist(patch)
    return patch
