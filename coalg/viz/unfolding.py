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
from .edges import split_highlight
from .labels import place_labels
from .layout import parents_of, unfolding_extent, unfolding_layout
from .store import to_points
from .style import (
    ADDED,
    EDGE_COLOUR,
    HIGHLIGHT,
    LABEL_SIZE,
    NEUTRAL,
    NODE_SIZE,
    NOTE_SIZE,
    PALETTE,
    REMOVED,
    finish_axes,
    fit_limits,
    new_axes,
    offset_text,
    panel_title,
    text_size,
)

if TYPE_CHECKING:
    from matplotlib.axes import Axes

__all__ = ["plot_unfolding", "plot_unfoldings", "unfolding_diff", "unfolding_figsize"]


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


def _node_text(n: Any) -> tuple[str, str]:
    """The two lines of a node's label: its identifier (and mark), and the start of its content."""
    note = {"expanded": "", "shared": " (shared)", "cycle": " ↺ cycle"}[n.mark]
    text = "⊥" if n.record is None else n.record.content.replace("\n", " ")
    return f"{n.id}{note}", text if len(text) <= 18 else text[:17] + "…"


def _label_width(u: Unfolding) -> float:
    """The widest node label of ``u``, in points."""
    return max((max(text_size(a, LABEL_SIZE)[0], text_size(b, NOTE_SIZE)[0])
                for a, b in map(_node_text, u.nodes)), default=40.0)


def _margins(u: Unfolding) -> tuple[float, float]:
    """Points kept beside the tree: on the right for the rightmost node's label, on the left for
    the label of an edge that leans left (edge labels go on the outer side of their edge)."""
    right = _label_width(u) + NODE_SIZE + 4
    pos = unfolding_layout(u)
    parent = parents_of(u)
    leaning = [text_size(n.via.value, NOTE_SIZE)[0] for k, n in enumerate(u.nodes)
               if n.via is not None and parent[k] is not None and pos[k][0] < pos[parent[k]][0]]  # type: ignore[index]
    return right, max(leaning, default=0.0) + 12


def unfolding_figsize(u: Unfolding) -> tuple[float, float]:
    """The size (inches) of one tree of ``u``: a column per leaf wide enough for a label beside
    each node, a row per level.  :func:`plot_unfolding` uses it, and a figure of several trees
    gives each its own width (``width_ratios``)."""
    width, depth = unfolding_extent(unfolding_layout(u))
    right, left = _margins(u)
    pitch = max(0.9, (_label_width(u) + NODE_SIZE + 10) / 72)
    return ((right + left) / 72 + pitch * (width - 1) + 0.75, max(2.2, 0.95 * depth + 0.8))


def plot_unfolding(
    unfolding: Unfolding,
    *,
    ax: Axes | None = None,
    highlight: Any = (),
    node_colours: dict[int, str] | None = None,
    edge_colours: dict[tuple[Id, Relation, Id], str] | None = None,
    title: str | None = None,
    contents: bool = True,
) -> Axes:
    """An unfolding (ancestry ⟦i⟧⁻, descendants, any labels) drawn as a tree, root at the top.

    Each node is labelled with its identifier and, on a second line, the start
    of its content (⊥ when the identifier holds no record: hollow and grey);
    edges carry their relation.  Labels are placed beside their node or edge
    where they cover no edge and no other label (:func:`coalg.viz.place_labels`).
    A ``shared`` node — an identifier already expanded elsewhere in the
    tree, whose subtree is not repeated — has a dashed outer ring and the note
    "(shared)"; a ``cycle`` node (a back-edge to an ancestor on the path) a
    dashed edge and "↺ cycle".  ``highlight`` takes identifiers (every node with
    that id) and ``(parent, label, child)`` steps; ``node_colours`` (by node
    index) and ``edge_colours`` set ring / stroke colours directly (used by
    :func:`plot_unfoldings`).  ``title`` is written above the tree as a text (the
    house style uses ``set_title`` for nothing).  ``contents=False`` labels a node with its
    identifier only (one line: for trees drawn with closer levels).

    Axes contents, for tests: one ``Line2D`` per node (label ``"_node <k> <id>"``),
    one per tree edge (label ``"_edge <parent> <label> <child>"``), one more per
    shared node (its dashed ring, ``"_shared <k>"``).
    """
    pos = unfolding_layout(unfolding)
    ax = new_axes(ax, figsize=unfolding_figsize(unfolding))
    hi_ids, hi_edges = split_highlight(highlight)
    hi_steps = {(e.source, e.relation, e.target) for e in hi_edges}
    node_colours = node_colours or {}
    edge_colours = edge_colours or {}
    parent = parents_of(unfolding)
    if title is not None:
        panel_title(ax, title)
    _fit_tree(ax, pos, *_margins(unfolding))
    pt, w, h = to_points(ax)
    segments = []
    edge_labels = []
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
        segments.append((pt((x0, y0)), pt((x1, y1))))
        edge_labels.append((((x0 + x1) / 2, (y0 + y1) / 2), n.via.value, colour,
                            ("left", "right") if x1 < x0 else ("right", "left")))  # the outer side first

    discs = []
    node_labels = []
    for k, n in enumerate(unfolding.nodes):
        x, y = pos[k]
        strong = n.id in hi_ids or k in node_colours
        ring = node_colours.get(k, HIGHLIGHT if n.id in hi_ids else (NEUTRAL if n.record is None else EDGE_COLOUR))
        face = "white" if n.record is None or n.mark != "expanded" else PALETTE[0]
        ax.plot([x], [y], marker="o", linestyle="none", markersize=NODE_SIZE * (1.2 if strong else 1.0),
                markerfacecolor=face, markeredgecolor=ring, markeredgewidth=2.6 if strong else 1.2,
                zorder=3, label=f"_node {k} {n.id}")
        discs.append((pt((x, y)), NODE_SIZE * 0.65))
        colour = node_colours.get(k, "black" if n.record is not None else NEUTRAL)
        first, second = _node_text(n)
        node_labels.append(((x, y), (first, second if contents else ""), colour,
                            "bold" if strong else "normal"))
        if n.mark == "shared":
            ax.plot([x], [y], marker="o", linestyle="none", markersize=NODE_SIZE * 1.6,
                    markerfacecolor="none", markeredgecolor=NEUTRAL, markeredgewidth=0.9,
                    zorder=2, label=f"_shared {k}")
            ax.lines[-1].set_dashes([2, 2])

    sizes = [(max(text_size(a, LABEL_SIZE)[0], text_size(b, NOTE_SIZE)[0]),
              text_size(a, LABEL_SIZE)[1] + (text_size(b, NOTE_SIZE)[1] if b else 0.0))
             for _p, (a, b), _c, _w in node_labels]
    sizes += [text_size(t, NOTE_SIZE) for _p, t, _c, _o in edge_labels]
    anchors = [pt(p) for p, *_ in node_labels] + [pt(p) for p, *_ in edge_labels]
    places = place_labels(anchors, sizes, gap=[NODE_SIZE * 0.7 + 1.5] * len(node_labels) + [6.0] * len(edge_labels),
                          segments=segments, discs=discs, bounds=(0.0, 0.0, w, h),
                          order=("right", "above right", "below right", "left", "above left", "below left",
                                 "above", "below"), orders=[None] * len(node_labels) + [o for *_r, o in edge_labels])
    for (anchor, (first, second), colour, weight), q, a in zip(node_labels, places, anchors):
        x = {"left": q.box[0], "right": q.box[2], "center": (q.box[0] + q.box[2]) / 2}[q.ha] - a[0]
        top = q.box[3] - a[1]
        offset_text(ax, anchor, first, x, top, ha=q.ha, va="top", fontsize=LABEL_SIZE, color=colour,
                    fontweight=weight, zorder=4)
        if second:
            offset_text(ax, anchor, second, x, top - text_size(first, LABEL_SIZE)[1], ha=q.ha,
                        va="top", fontsize=NOTE_SIZE, color=colour, zorder=4)
    for (anchor, text, colour, _o), q in zip(edge_labels, places[len(node_labels):]):
        offset_text(ax, anchor, text, q.dx, q.dy, ha=q.ha, va=q.va, fontsize=NOTE_SIZE, color=colour, zorder=2)
    ys = sorted({round(q[1]) for q in pos} or {0})
    ax.set_xticks([])
    ax.set_yticks(ys)
    ax.set_yticklabels([str(-y) for y in ys])
    ax.spines["bottom"].set_visible(False)
    return finish_axes(ax, xlabel="", ylabel="depth")


def _fit_tree(ax: Axes, pos: Sequence[tuple[float, float]], right: float, left: float) -> None:
    """Limits for a tree: ``right`` points beside the rightmost node (for its label), ``left``
    points beside the leftmost (for an edge label), the rest for the tree itself."""
    fit_limits(ax, pos, x_margin=0.5, below=0.6, above=0.45)
    _pt, w, _h = to_points(ax)
    xs = [p[0] for p in pos] or [0.0]
    lo, hi = min(xs), max(xs)
    room = w - right - left
    if hi > lo and room > 20:
        per = (hi - lo) / room  # data units per point
        ax.set_xlim(lo - left * per, hi + right * per)
    elif hi == lo:
        per = 1 / 72
        ax.set_xlim(lo - max(0.0, w - right) * per, lo + right * per)


def plot_unfoldings(
    before: Unfolding,
    after: Unfolding,
    *,
    axes: Sequence[Axes] | None = None,
    title_left: str = "before",
    title_right: str = "after",
    contents: bool = True,
) -> tuple[Axes, Axes]:
    """Two unfoldings side by side, what differs highlighted: removed in :data:`REMOVED` on
    the left, added in :data:`ADDED` on the right (see :func:`unfolding_diff`).

    Equal unfoldings (Theorem 5.7: a derivation leaves every ancestry unchanged)
    are drawn with no colour at all.  Returns the two axes; the panel names are
    texts above the trees; ``contents`` is :func:`plot_unfolding`'s.
    """
    if axes is None:
        import matplotlib.pyplot as plt

        sizes = [unfolding_figsize(u) for u in (before, after)]
        _, created = plt.subplots(
            1, 2, figsize=(sizes[0][0] + sizes[1][0] + 0.4, max(h for _w, h in sizes)),
            gridspec_kw={"width_ratios": [sizes[0][0], sizes[1][0]]},
        )
        left, right = created[0], created[1]
    else:
        left, right = axes[0], axes[1]
    d = unfolding_diff(before, after)
    removed_keys, added_keys = d["removed_nodes"], d["added_nodes"]
    plot_unfolding(
        before, ax=left, title=title_left, contents=contents,
        node_colours={k: REMOVED for k, n in enumerate(before.nodes) if (n.id, n.record) in removed_keys},
        edge_colours={e: REMOVED for e in d["removed_edges"]},
    )
    plot_unfolding(
        after, ax=right, title=title_right, contents=contents,
        # ⊥ (an identifier that lost its record) is not something gained: it stays uncoloured
        node_colours={k: ADDED for k, n in enumerate(after.nodes)
                      if (n.id, n.record) in added_keys and n.record is not None},
        edge_colours={e: ADDED for e in d["added_edges"]},
    )
    return left, right

