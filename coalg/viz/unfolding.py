"""Unfoldings of the lineage coalgebra (paper §3.4, Definition 3.19) as trees, alone or compared.

:func:`plot_unfolding` draws one unfolding (ancestry ⟦i⟧⁻, descendants, any
labels) root at the top; :func:`plot_unfoldings` draws two side by side with
what changed (:func:`unfolding_diff`) highlighted — the figure of Theorem 5.7
and Propositions 5.2 and 5.13.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..model import Id, Relation, Unfolding
from .layout import parents_of, unfolding_extent, unfolding_layout
from .store import split_highlight
from .style import (
    ADDED,
    EDGE_COLOUR,
    FIGSIZE,
    FONT_SIZE,
    HIGHLIGHT,
    NEUTRAL,
    NODE_SIZE,
    PALETTE,
    REMOVED,
    finish_axes,
    fit_limits,
    new_axes,
    panel_title,
)

if TYPE_CHECKING:
    from matplotlib.axes import Axes

__all__ = ["plot_unfolding", "plot_unfoldings", "unfolding_diff"]


def unfolding_diff(before: Unfolding, after: Unfolding) -> dict[str, frozenset[Any]]:
    """What changed between two unfoldings.

    Nodes are compared as ``(id, record)`` pairs (a record replaced in place, or
    deleted to ⊥, counts as removed on the left and added on the right), edges as
    the ``(parent, label, child)`` steps of :meth:`Unfolding.edges`.
    Keys: ``removed_nodes``, ``added_nodes``, ``removed_edges``, ``added_edges``.
    """
    nb = {(n.id, n.record) for n in before.nodes}
    na = {(n.id, n.record) for n in after.nodes}
    eb, ea = before.edges(), after.edges()
    return {
        "removed_nodes": frozenset(nb - na),
        "added_nodes": frozenset(na - nb),
        "removed_edges": frozenset(eb - ea),
        "added_edges": frozenset(ea - eb),
    }


def plot_unfolding(
    unfolding: Unfolding,
    *,
    ax: Axes | None = None,
    highlight: Any = (),
    node_colours: dict[int, str] | None = None,
    edge_colours: dict[tuple[Id, Relation, Id], str] | None = None,
    title: str | None = None,
) -> Axes:
    """An unfolding (ancestry ⟦i⟧⁻, descendants, any labels) drawn as a tree, root at the top.

    Each node shows its identifier and, below it, the start of its content (⊥
    when the identifier holds no record: hollow and grey).  Edges carry their
    label.  A ``shared`` node — an identifier already expanded elsewhere in the
    tree, whose subtree is not repeated — has a dashed outer ring and the note
    "(shared)"; a ``cycle`` node (a back-edge to an ancestor on the path) a
    dashed edge and "↺ cycle".  ``highlight`` takes identifiers (every node with
    that id) and ``(parent, label, child)`` steps; ``node_colours`` (by node
    index) and ``edge_colours`` set ring / stroke colours directly (used by
    :func:`plot_unfoldings`).  ``title`` is written above the tree as a text (the
    house style uses ``set_title`` for nothing).

    Axes contents, for tests: one ``Line2D`` per node (label ``"_node <k> <id>"``),
    one per tree edge (label ``"_edge <parent> <label> <child>"``), one more per
    shared node (its dashed ring, ``"_shared <k>"``).
    """
    pos = unfolding_layout(unfolding)
    width, depth = unfolding_extent(pos)
    ax = new_axes(ax, figsize=(max(FIGSIZE[0] * 0.7, 1.9 * width + 1.0), max(2.4, 1.0 * depth + 0.9)))
    hi_ids, hi_edges = split_highlight(highlight)
    hi_steps = {(e.source, e.relation, e.target) for e in hi_edges}
    node_colours = node_colours or {}
    edge_colours = edge_colours or {}
    parent = parents_of(unfolding)

    for k, n in enumerate(unfolding.nodes):
        p = parent[k]
        if p is None or n.via is None:
            continue
        key = (unfolding.nodes[p].id, n.via, n.id)
        colour = edge_colours.get(key, HIGHLIGHT if key in hi_steps else EDGE_COLOUR)
        strong = key in hi_steps or key in edge_colours
        (x0, y0), (x1, y1) = pos[p], pos[k]
        ax.plot([x0, x1], [y0, y1], color=colour, linewidth=2.6 if strong else 1.2,
                linestyle="dashed" if n.mark == "cycle" else "solid", zorder=1,
                label=f"_edge {key[0]} {key[1].value} {key[2]}")
        side = -1 if x1 < x0 else 1  # the label goes on the outer side of the edge
        ax.annotate(n.via.value, ((x0 + x1) / 2, (y0 + y1) / 2), xytext=(4 * side, 0),
                    textcoords="offset points", fontsize=FONT_SIZE - 2, color=colour,
                    ha="right" if side < 0 else "left", va="center", zorder=2)

    for k, n in enumerate(unfolding.nodes):
        x, y = pos[k]
        hi = n.id in hi_ids
        ring = node_colours.get(k, HIGHLIGHT if hi else (NEUTRAL if n.record is None else EDGE_COLOUR))
        strong = hi or k in node_colours
        face = "white" if n.record is None or n.mark != "expanded" else PALETTE[0]
        ax.plot([x], [y], marker="o", linestyle="none", markersize=NODE_SIZE * (1.2 if strong else 1.0),
                markerfacecolor=face, markeredgecolor=ring, markeredgewidth=2.6 if strong else 1.2,
                zorder=3, label=f"_node {k} {n.id}")
        text = "⊥" if n.record is None else n.record.content.replace("\n", " ")
        text = text if len(text) <= 16 else text[:15] + "…"
        note = {"expanded": "", "shared": "\n(shared)", "cycle": "\n↺ cycle"}[n.mark]
        colour = node_colours.get(k, "black" if n.record is not None else NEUTRAL)
        ax.annotate(n.id, (x, y), xytext=(0, NODE_SIZE * 0.8), textcoords="offset points",
                    fontsize=FONT_SIZE - 1, va="bottom", ha="center", color=colour,
                    fontweight="bold" if strong else "normal", zorder=4)
        ax.annotate(f"{text}{note}", (x, y), xytext=(0, -NODE_SIZE * 0.8), textcoords="offset points",
                    fontsize=FONT_SIZE - 2, va="top", ha="center", color=colour, zorder=4)
        if n.mark == "shared":
            ax.plot([x], [y], marker="o", linestyle="none", markersize=NODE_SIZE * 1.6,
                    markerfacecolor="none", markeredgecolor=NEUTRAL, markeredgewidth=0.9,
                    zorder=2, label=f"_shared {k}")
            ax.lines[-1].set_dashes([2, 2])
    if title is not None:
        panel_title(ax, title)
    _xs, ys = fit_limits(ax, pos, x_margin=0.7, below=0.7, above=0.45)
    ax.set_xticks([])
    ax.set_yticks(sorted({round(y) for y in ys}))
    ax.set_yticklabels([str(-round(y)) for y in sorted({round(y) for y in ys})])
    ax.spines["bottom"].set_visible(False)
    return finish_axes(ax, xlabel="", ylabel="depth")


def plot_unfoldings(
    before: Unfolding,
    after: Unfolding,
    *,
    axes: Sequence[Axes] | None = None,
    title_left: str = "before",
    title_right: str = "after",
) -> tuple[Axes, Axes]:
    """Two unfoldings side by side, what differs highlighted: removed in :data:`REMOVED` on
    the left, added in :data:`ADDED` on the right (see :func:`unfolding_diff`).

    Equal unfoldings (Theorem 5.7: a derivation leaves every ancestry unchanged)
    are drawn with no colour at all.  Returns the two axes; the panel names are
    texts above the trees.
    """
    if axes is None:
        import matplotlib.pyplot as plt

        extents = [unfolding_extent(unfolding_layout(u)) for u in (before, after)]
        width = sum(w for w, _d in extents)
        depth = max(d for _w, d in extents)
        _, created = plt.subplots(
            1, 2, figsize=(max(FIGSIZE[0], 1.9 * width + 2.0), max(2.4, 1.0 * depth + 0.9))
        )
        left, right = created[0], created[1]
    else:
        left, right = axes[0], axes[1]
    d = unfolding_diff(before, after)
    removed_keys, added_keys = d["removed_nodes"], d["added_nodes"]
    plot_unfolding(
        before, ax=left, title=title_left,
        node_colours={k: REMOVED for k, n in enumerate(before.nodes) if (n.id, n.record) in removed_keys},
        edge_colours={e: REMOVED for e in d["removed_edges"]},
    )
    plot_unfolding(
        after, ax=right, title=title_right,
        node_colours={k: ADDED for k, n in enumerate(after.nodes) if (n.id, n.record) in added_keys},
        edge_colours={e: ADDED for e in d["added_edges"]},
    )
    return left, right

