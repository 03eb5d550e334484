"""The store graph (paper §3.1, Definition 3.4) as a figure.

:func:`plot_store` draws a store on :func:`~coalg.viz.layout.store_layout`:
nodes by namespace, edges by relation family (:func:`~coalg.viz.edges.edge_family`:
ancestry R⁻, descendant R⁺, any other relation), what a caption or a widget
points at highlighted, and — for the step after a delete — the deleted
records as ghosts.  Labels are placed by :func:`~coalg.viz.labels.place_labels`,
off the edges and off each other.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..model import Edge, Id, Store, inverse
from .edges import arrow, drawn_edges, edge_family, split_highlight
from .labels import bezier_points, place_labels
from .layout import store_layout
from .style import (
    EDGE_COLOUR,
    GHOST,
    HIGHLIGHT,
    LABEL_SIZE,
    NEUTRAL,
    NODE_SIZE,
    NOTE_SIZE,
    colour_map,
    finish_axes,
    fit_limits,
    graph_figsize,
    new_axes,
    offset_text,
    text_size,
)

if TYPE_CHECKING:
    from matplotlib.axes import Axes

__all__ = ["PAIR_COLOUR", "edge_family", "label_bounds", "legend_size", "plot_store", "split_highlight",
           "to_points"]

PAIR_COLOUR = "#D55E00"
"""The dashed arc of a ``pairs`` entry of :func:`plot_store` (vermilion, after the namespace colours)."""


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


def to_points(ax: Axes) -> Any:
    """``(x, y) ↦`` points on the page inside ``ax`` (origin at its lower-left corner), from the
    limits already set and the axes' place in its figure; and the axes' width and height in points."""
    fig = ax.get_figure(root=True)
    assert fig is not None
    box = ax.get_position()
    w = box.width * fig.get_figwidth() * 72
    h = box.height * fig.get_figheight() * 72
    (x0, x1), (y0, y1) = ax.get_xlim(), ax.get_ylim()

    def f(p: tuple[float, float]) -> tuple[float, float]:
        return ((p[0] - x0) / (x1 - x0) * w, (p[1] - y0) / (y1 - y0) * h)

    return f, w, h


def label_bounds(ax: Axes, w: float, h: float) -> tuple[float, float, float, float]:
    """Where labels may go, in points from the axes' lower-left corner: the axes, and the figure's
    margin above and to the left of it (the legend takes the right, the axis label the bottom)."""
    fig, box = ax.get_figure(root=True), ax.get_position()
    assert fig is not None
    return (-box.x0 * fig.get_figwidth() * 72 + 2, 0.0, w, h + (1 - box.y1) * fig.get_figheight() * 72 - 2)


def _inverse(ax: Axes, w: float, h: float) -> Any:
    """Points inside ``ax`` back to data coordinates (the inverse of :func:`to_points`)."""
    (x0, x1), (y0, y1) = ax.get_xlim(), ax.get_ylim()
    return lambda p: (x0 + p[0] / w * (x1 - x0), y0 + p[1] / h * (y1 - y0))


def _with_ghosts(store: Store, ghosts: Store | None) -> tuple[Store, set[Id]]:
    """``store`` plus the records ``ghosts`` holds and ``store`` does not (with their edges), and their ids."""
    if ghosts is None:
        return store, set()
    gone = {i for i in ghosts.records if i not in store.records}
    if not gone:
        return store, set()
    edges = [e for e in ghosts.edges if e.source in gone or e.target in gone]
    return Store.of({**dict(store.records), **{i: ghosts.records[i] for i in sorted(gone)}},
                    sorted(set(store.edges) | set(edges))), gone


def plot_store(
    store: Store,
    *,
    ax: Axes | None = None,
    highlight: Any = (),
    labels: Any = "id",
    show_dangling: bool = True,
    descendants: bool = False,
    legend: bool | str = True,
    legend_columns: int = 3,
    ghosts: Store | None = None,
    highlight_label: str = "highlighted",
    pairs: Sequence[tuple[Id, Id, str]] = (),
) -> Axes:
    """The store graph of ``store`` on the layered layout of :func:`store_layout`.

    * **Nodes**: one marker per identifier, filled with its record's namespace
      colour (legend); a dangling endpoint (mentioned by an edge, no record) is
      hollow and grey.  ``show_dangling=False`` leaves dangling endpoints and
      their edges out.
    * **Edges** point from source to target, so an ancestry edge points from
      the derived record back to what it came from, as β⁻ reads it.
      Ancestry R⁻ edges are solid and dark; other relations dotted, with their
      label beside the middle.  Descendant R⁺ edges are dashed and faint.
      *Choice:* by default (``descendants=False``) an edge whose inverse is also
      in the store is drawn once — the R⁻ direction of a lineage pair, the
      first-listed label of another pair (``supersedes``, not ``superseded_by``)
      — so an inverse-closed store is not drawn twice over; an edge whose
      inverse is *missing* is always drawn, so a broken inverse pair stays
      visible.  ``descendants=True`` draws every edge, the two directions of a
      pair bent apart.
    * **Highlight**: identifiers (a thicker :data:`HIGHLIGHT` ring, larger) and
      ``(source, relation, target)`` edges (thick :data:`HIGHLIGHT` stroke); the
      legend names the ring ``highlight_label``.  Highlighting the hidden half
      of an inverse pair highlights the drawn half.
    * **Ghosts**: with ``ghosts`` (the store before a step), every record it
      holds that ``store`` does not is drawn where it was, as a grey dashed
      outline labelled "(deleted)", with its old edges faint.
    * ``labels``: ``"id"``, ``"content"``, ``"both"``, ``None`` or a function of
      the identifier; each label is placed beside its node where it covers no
      edge, node or other label if such a place exists.
    * **Pairs**: each ``(a, b, text)`` of ``pairs`` joins two drawn nodes by a
      dashed :data:`PAIR_COLOUR` arc, named ``text`` in the legend: for what two
      records share without an edge between them, such as a prefix of their
      identifiers (§6, Remark 6.8).  Labels keep off the arc like off an edge.
    * ``legend``: on the right of the axes (``True``), below them (``"below"``,
      in rows of ``legend_columns``, three by default), or none (``False``).

    Axes contents, for tests: one ``Line2D`` per node (label ``"_node <id>"``,
    ghosts ``"_ghost <id>"``), one patch per drawn edge (``"_edge <edge>"``),
    one text per node label and one per ``other`` edge label, one patch per
    pair (``"_pair <a> <b>"``).
    """
    shown, gone = _with_ghosts(store, ghosts)
    pos = store_layout(shown, show_dangling=show_dangling)
    for a_id, b_id, _text in pairs:
        if a_id not in pos or b_id not in pos or a_id == b_id:
            raise ValueError(f"pairs: ({a_id!r}, {b_id!r}) must name two different nodes of the figure")
    if ax is None:
        widest = max((text_size(_node_label(shown, i, labels), LABEL_SIZE)[0] for i in pos), default=0.0)
        ax = new_axes(None, figsize=graph_figsize(pos, widest))
    hi_ids, hi_edges = split_highlight(highlight)
    nodes = frozenset(pos)
    drawn, hi_edges = _drawn(shown, nodes, descendants, hi_edges)
    drawn_set = set(drawn)
    colours = colour_map(store.namespaces())
    _frame_graph(ax, list(pos.values()), xlabel="ancestry depth")
    pt, w, h = to_points(ax)
    segments: list[tuple[tuple[float, float], tuple[float, float]]] = []
    discs = [(pt(p), NODE_SIZE * 0.65) for p in pos.values()]
    edge_labels: list[tuple[tuple[float, float], str, str, list[tuple[float, float]]]] = []

    for e in drawn:
        fam = edge_family(e.relation)
        hi = e in hi_edges
        ghost = e not in store.edges
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
        if ghost:
            colour, width, alpha = GHOST, 1.0, 1.0
        if hi:
            colour, width, alpha = HIGHLIGHT, 2.8, 1.0
        arrow(ax, pos[e.source], pos[e.target], colour=colour, style=style, width=width,
              alpha=alpha, rad=rad, label=f"_edge {e}")
        a, b = pt(pos[e.source]), pt(pos[e.target])
        if a == b:  # a self-loop is a small arc above the node
            discs.append(((a[0], a[1] + NODE_SIZE), NODE_SIZE * 0.8))
        else:
            path = bezier_points(a, b, rad)
            segments += list(itertools.pairwise(path))
        if fam == "other":
            if a != b:  # the middle, or further along the edge if the middle is crowded
                along = bezier_points(a, b, rad, 10) if rad else [
                    (a[0] + (b[0] - a[0]) * t / 10, a[1] + (b[1] - a[1]) * t / 10) for t in range(11)]
                edge_labels.append((along[5], e.relation.value, colour, [along[k] for k in (4, 6, 3, 7)]))
            else:
                edge_labels.append(((a[0], a[1] + NODE_SIZE * 1.6), e.relation.value, colour, []))
    if pairs:
        from matplotlib.patches import FancyArrowPatch
    for a_id, b_id, _text in pairs:
        (x0, y0), (x1, y1) = pos[a_id], pos[b_id]
        rad = -0.35 if x0 == x1 and abs(y0 - y1) > 1 else -0.2  # bent against the edges' +0.35
        ax.add_patch(FancyArrowPatch(
            pos[a_id], pos[b_id], arrowstyle="-", connectionstyle=f"arc3,rad={rad}", color=PAIR_COLOUR,
            linestyle=(0, (4, 2)), linewidth=1.8, shrinkA=NODE_SIZE * 0.9, shrinkB=NODE_SIZE * 0.9,
            zorder=2, label=f"_pair {a_id} {b_id}"))
        segments += list(itertools.pairwise(bezier_points(pt(pos[a_id]), pt(pos[b_id]), rad)))
    to_data = _inverse(ax, w, h)

    # a label: its anchor in data coordinates and in points, its text, its style, its distance
    texts: list[tuple[tuple[float, float], tuple[float, float], str, dict[str, Any], float]] = []
    for i, (x, y) in pos.items():
        rec = shown.records.get(i)
        hi = i in hi_ids
        if i in gone:
            ax.plot([x], [y], marker="o", linestyle="none", markersize=NODE_SIZE, markerfacecolor="white",
                    markeredgecolor=GHOST, markeredgewidth=1.6, zorder=3, label=f"_ghost {i}")
        else:
            face = "white" if rec is None else colours[rec.namespace]
            edge = HIGHLIGHT if hi else (NEUTRAL if rec is None else face)
            ax.plot([x], [y], marker="o", linestyle="none",
                    markersize=NODE_SIZE * (1.3 if hi else 1.0),
                    markerfacecolor=face, markeredgecolor=edge,
                    markeredgewidth=2.6 if hi else (1.4 if rec is None else 0.8),
                    zorder=3, label=f"_node {i}")
        text = _node_label(shown, i, labels)
        if i in gone:
            text = f"{text} (deleted)" if text else "(deleted)"
        if text:
            look: dict[str, Any] = {"fontsize": LABEL_SIZE, "fontweight": "bold" if hi else "normal",
                                    "color": GHOST if i in gone else ("black" if rec is not None else NEUTRAL)}
            texts.append(((x, y), pt((x, y)), text, look, NODE_SIZE * (0.75 if hi else 0.6) + 1.5))
    for mid, text, colour, _more in edge_labels:
        texts.append((to_data(mid), mid, text, {"fontsize": NOTE_SIZE, "color": colour}, 3.0))

    places = place_labels([t[1] for t in texts], [text_size(t[2], t[3]["fontsize"]) for t in texts],
                          gap=[t[4] for t in texts], segments=segments, discs=discs, bounds=label_bounds(ax, w, h),
                          alternates=[[] for _ in range(len(texts) - len(edge_labels))] + [m for *_x, m in edge_labels])
    for (_a, _p, text, look, _g), p in zip(texts, places):
        offset_text(ax, to_data(p.anchor), text, p.dx, p.dy, ha=p.ha, va=p.va, zorder=4, **look)

    if legend:
        _store_legend(ax, colours, drawn, show_dangling and bool(shown.dangling() - gone),
                      highlight_label if (hi_ids & nodes or hi_edges & drawn_set) else "", bool(gone),
                      below=legend == "below", height=h, pairs=[text for *_ab, text in pairs],
                      columns=legend_columns)
    return ax


def legend_size(store: Store, *, highlight: Any = (), show_dangling: bool = True, descendants: bool = False,
                ghosts: Store | None = None, pairs: Sequence[tuple[Id, Id, str]] = ()) -> int:
    """How many entries the legend of :func:`plot_store` has with the same arguments (a figure
    that puts the legend below the graph makes room for that many rows before it draws).

    >>> from coalg.model import Record
    >>> legend_size(Store.of({"a": Record("x", "fact", "alice")}), highlight=["a"])
    2
    """
    shown, gone = _with_ghosts(store, ghosts)
    nodes = frozenset(store_layout(shown, show_dangling=show_dangling))
    hi_ids, hi_edges = split_highlight(highlight)
    drawn, hi_edges = _drawn(shown, nodes, descendants, hi_edges)
    lit = bool(hi_ids & nodes or hi_edges & set(drawn))
    dangling = show_dangling and bool(shown.dangling() - gone)
    families = {edge_family(e.relation) for e in drawn}
    return len(store.namespaces()) + dangling + lit + bool(gone) + len(families) + len(pairs)


def _drawn(shown: Store, nodes: frozenset[Id], descendants: bool, hi_edges: set[Edge]
           ) -> tuple[list[Edge], set[Edge]]:
    """The edges drawn, and the highlighted edges as drawn: highlighting the hidden half of an
    inverse pair highlights the half that is drawn."""
    drawn = drawn_edges(shown, nodes, descendants)
    drawn_set = set(drawn)
    hi_edges = {e if e in drawn_set else Edge(e.target, inverse(e.relation), e.source) for e in hi_edges}
    drawn += sorted(e for e in hi_edges if e in shown.edges and e not in drawn_set
                    and e.source in nodes and e.target in nodes)
    return drawn, hi_edges


def _frame_graph(ax: Axes, pos: Sequence[tuple[float, float]], *, xlabel: str) -> Axes:
    xs, _ys = fit_limits(ax, pos, x_margin=0.6, below=0.5, above=0.6)
    ax.set_yticks([])
    ax.set_xticks(sorted({round(x) for x in xs}))
    ax.spines["left"].set_visible(False)
    return finish_axes(ax, xlabel=xlabel, ylabel="")


def _store_legend(ax: Axes, colours: dict[str, str], drawn: Sequence[Edge], dangling: bool,
                  highlighted: str, ghosts: bool, *, below: bool = False, height: float = 200.0,
                  pairs: Sequence[str] = (), columns: int = 3) -> None:
    from matplotlib.lines import Line2D

    def dot(face: str, edge: str, label: str, width: float = 0.8, size: float = 8) -> Any:
        return Line2D([], [], marker="o", linestyle="none", markersize=size, markerfacecolor=face,
                      markeredgecolor=edge, markeredgewidth=width, label=label)

    handles: list[Any] = [dot(c, c, f"namespace {k}") for k, c in colours.items()]
    if dangling:
        handles.append(dot("white", NEUTRAL, "dangling (no record)", 1.4))
    if highlighted:
        handles.append(dot("white", HIGHLIGHT, highlighted, 2.4, 9))
    if ghosts:
        handles.append(dot("white", GHOST, "deleted by the last step", 1.4))
    families = {edge_family(e.relation) for e in drawn}
    for fam, colour, style, text in (
        ("ancestry", EDGE_COLOUR, "solid", "ancestry R⁻"),
        ("descendant", NEUTRAL, "dashed", "descendant R⁺"),
        ("other", NEUTRAL, "dotted", "other relation"),
    ):
        if fam in families:
            handles.append(Line2D([], [], color=colour, linestyle=style, linewidth=1.3, label=text))  # type: ignore[arg-type]
    for text in pairs:
        handles.append(Line2D([], [], color=PAIR_COLOUR, linestyle=(0, (4, 2)), linewidth=1.8, label=text))
    if handles and below:  # under the axis label: 38 points below the axes
        ax.legend(handles=handles, fontsize=NOTE_SIZE, loc="upper center", ncol=columns,
                  bbox_to_anchor=(0.5, -38 / height), frameon=False, borderaxespad=0.0, columnspacing=1.2)
    elif handles:
        ax.legend(handles=handles, fontsize=NOTE_SIZE, loc="upper left",
                  bbox_to_anchor=(1.01, 1.0), frameon=False, borderaxespad=0.0)

