"""The store graph (paper §3.1, Definition 3.4) as a figure.

:func:`plot_store` draws a store on :func:`~coalg.viz.layout.store_layout`:
nodes by namespace, edges by relation family (:func:`edge_family`: ancestry
R⁻, descendant R⁺, any other relation), what a caption or a widget points at
highlighted.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal

from ..model import ANCESTRY, DESCENDANT, Edge, Id, Relation, Store, inverse
from .layout import store_layout
from .style import (
    EDGE_COLOUR,
    FONT_SIZE,
    HIGHLIGHT,
    NEUTRAL,
    NODE_SIZE,
    colour_map,
    finish_axes,
    fit_limits,
    graph_figsize,
    new_axes,
)

if TYPE_CHECKING:
    from matplotlib.axes import Axes

__all__ = ["EdgeFamily", "edge_family", "plot_store", "split_highlight"]

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


def _drawn_edges(store: Store, nodes: frozenset[Id], descendants: bool) -> list[Edge]:
    """The edges a store plot draws, sorted (see :func:`plot_store` for the rule)."""
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



def _node_label(store: Store, i: Id, labels: Any, width: int = 22) -> str:
    if labels is None:
        return ""
    if callable(labels):
        return str(labels(i))
    rec = store.records.get(i)
    content = "⊥" if rec is None else rec.content.replace("\n", " ")
    content = content if len(content) <= width else content[: width - 1] + "…"
    if labels == "id":
        return i
    if labels == "content":
        return content
    if labels == "both":
        return f"{i}: {content}"
    raise ValueError("labels must be 'id', 'content', 'both', None or a function of the identifier")


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


def _arrow(
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


def _frame_graph(ax: Axes, pos: Sequence[tuple[float, float]], *, xlabel: str) -> Axes:
    xs, _ys = fit_limits(ax, pos, x_margin=0.5, below=0.5, above=0.75)
    ax.set_yticks([])
    ax.set_xticks(sorted({round(x) for x in xs}))
    ax.spines["left"].set_visible(False)
    return finish_axes(ax, xlabel=xlabel, ylabel="")


def plot_store(
    store: Store,
    *,
    ax: Axes | None = None,
    highlight: Any = (),
    labels: Any = "id",
    show_dangling: bool = True,
    descendants: bool = False,
    legend: bool = True,
) -> Axes:
    """The store graph of ``store`` on the layered layout of :func:`store_layout`.

    * **Nodes**: one marker per identifier, filled with its record's namespace
      colour (legend); a dangling endpoint (mentioned by an edge, no record) is
      hollow and grey.  ``show_dangling=False`` leaves dangling endpoints and
      their edges out.
    * **Edges** point from source to target, so an ancestry edge points from
      the derived record back to what it came from, as β⁻ reads it.
      Ancestry R⁻ edges are solid and dark; other relations dotted, with their
      label written at the middle.  Descendant R⁺ edges are dashed and faint.
      *Choice:* by default (``descendants=False``) an edge whose inverse is also
      in the store is drawn once — the R⁻ direction of a lineage pair, the
      first-listed label of another pair (``supersedes``, not ``superseded_by``)
      — so an inverse-closed store is not drawn twice over; an edge whose
      inverse is *missing* is always drawn, so a broken inverse pair stays
      visible.  ``descendants=True`` draws every edge, the two directions of a
      pair bent apart.
    * **Highlight**: identifiers (a thicker :data:`HIGHLIGHT` ring, larger) and
      ``(source, relation, target)`` edges (thick :data:`HIGHLIGHT` stroke).
      Highlighting the hidden half of an inverse pair highlights the drawn half;
      with ``descendants=True`` every edge is drawn and highlighted as given.
    * ``labels``: ``"id"``, ``"content"``, ``"both"``, ``None`` or a function of
      the identifier.

    Axes contents, for tests: one ``Line2D`` per node (label ``"_node <id>"``),
    one patch per drawn edge (label ``"_edge <edge>"``), one text per node label
    and one per ``other`` edge label.
    """
    pos = store_layout(store, show_dangling=show_dangling)
    ax = new_axes(ax, figsize=graph_figsize(pos))
    hi_ids, hi_edges = split_highlight(highlight)
    nodes = frozenset(pos)
    drawn = _drawn_edges(store, nodes, descendants)
    drawn_set = set(drawn)
    # highlighting the hidden half of an inverse pair highlights the half that is drawn
    hi_edges = {e if e in drawn_set else Edge(e.target, inverse(e.relation), e.source) for e in hi_edges}
    drawn += sorted(e for e in hi_edges if e in store.edges and e not in drawn_set
                    and e.source in nodes and e.target in nodes)
    drawn_set = set(drawn)
    colours = colour_map(store.namespaces())

    for e in drawn:
        fam = edge_family(e.relation)
        hi = e in hi_edges
        paired = Edge(e.target, inverse(e.relation), e.source) in drawn_set and e.source != e.target
        (x0, y0), (x1, y1) = pos[e.source], pos[e.target]
        # bend an edge that would run through other nodes of its column, or along its inverse
        rad = 0.35 if x0 == x1 and abs(y0 - y1) > 1 else (0.18 if paired else 0.0)
        if fam == "ancestry":
            colour, style, width, alpha = EDGE_COLOUR, "solid", 1.3, 1.0
        elif fam == "descendant":
            colour, style, width, alpha = NEUTRAL, "dashed", 1.0, 0.55
        else:
            colour, style, width, alpha = NEUTRAL, "dotted", 1.3, 1.0
        if hi:
            colour, width, alpha = HIGHLIGHT, 2.8, 1.0
        _arrow(ax, pos[e.source], pos[e.target], colour=colour, style=style, width=width,
               alpha=alpha, rad=rad, label=f"_edge {e}")
        if fam == "other":
            ax.text((x0 + x1) / 2, (y0 + y1) / 2 + (0.2 if (x0, y0) == (x1, y1) else 0.0),
                    e.relation.value, fontsize=FONT_SIZE - 2, color=colour,
                    ha="center", va="bottom")

    for i, (x, y) in pos.items():
        rec = store.records.get(i)
        hi = i in hi_ids
        face = "white" if rec is None else colours[rec.namespace]
        edge = HIGHLIGHT if hi else (NEUTRAL if rec is None else face)
        ax.plot([x], [y], marker="o", linestyle="none",
                markersize=NODE_SIZE * (1.3 if hi else 1.0),
                markerfacecolor=face, markeredgecolor=edge,
                markeredgewidth=2.6 if hi else (1.4 if rec is None else 0.8),
                zorder=3, label=f"_node {i}")
        text = _node_label(store, i, labels)
        if text:  # above the node: ancestry edges arrive at a node from the right
            ax.annotate(text, (x, y), xytext=(0, NODE_SIZE * 0.7), textcoords="offset points",
                        fontsize=FONT_SIZE - 1, va="bottom", ha="center",
                        color="black" if rec is not None else NEUTRAL,
                        fontweight="bold" if hi else "normal", zorder=4)

    if legend:
        _store_legend(ax, colours, store, drawn, show_dangling and bool(store.dangling()))
    return _frame_graph(ax, list(pos.values()), xlabel="ancestry depth")


def _store_legend(ax: Axes, colours: dict[str, str], store: Store, drawn: Sequence[Edge], dangling: bool) -> None:
    from matplotlib.lines import Line2D

    handles: list[Any] = [
        Line2D([], [], marker="o", linestyle="none", markersize=7, markerfacecolor=c,
               markeredgecolor=c, label=f"namespace {k}")
        for k, c in colours.items()
    ]
    if dangling:
        handles.append(Line2D([], [], marker="o", linestyle="none", markersize=7, markerfacecolor="white",
                              markeredgecolor=NEUTRAL, markeredgewidth=1.4, label="dangling (no record)"))
    families = {edge_family(e.relation) for e in drawn}
    for fam, colour, style, text in (
        ("ancestry", EDGE_COLOUR, "solid", "ancestry R⁻"),
        ("descendant", NEUTRAL, "dashed", "descendant R⁺"),
        ("other", NEUTRAL, "dotted", "other relation"),
    ):
        if fam in families:
            handles.append(Line2D([], [], color=colour, linestyle=style, linewidth=1.3, label=text))  # type: ignore[arg-type]
    if handles:
        ax.legend(handles=handles, fontsize=FONT_SIZE - 1, loc="upper left",
                  bbox_to_anchor=(1.01, 1.0), frameon=False, borderaxespad=0.0)

