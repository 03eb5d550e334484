"""Plots for the book: pure functions ``plot_*(…, ax=None) -> Axes``.

Every plot draws onto the ``Axes`` it is given (or a new one), returns it, and
depends only on its arguments: the same input gives the same figure under any
``PYTHONHASHSEED``.  House style (spec of the book, QuantEcon's figure rules):
lowercase axis labels, no ``set_title`` — captions come from the book — and the
colours and sizes below, set once for every plot in this module.

Plots so far:

* :func:`plot_bitemporal_plane` — the (valid time, transaction time) plane of a
  store: where each record is believed, and the answer at a query point
  (Definition 3.20, Proposition 7.1).
* :func:`plot_prefix_collision` — the probability that two identifiers share a
  prefix, against store size (Remark 6.8).
* :func:`plot_store` — the store graph (Definition 3.4) on a layered layout
  (:func:`store_layout`): nodes by namespace, edges by relation family.
* :func:`plot_unfolding` / :func:`plot_unfoldings` — an unfolding of the lineage
  coalgebra as a tree (Definition 3.19); two of them side by side with what
  changed highlighted (Theorem 5.7, Propositions 5.2 and 5.13).
* :func:`plot_refinement` — the rounds of partition refinement
  (:func:`coalg.bisim.bisimilarity.refinement_rounds`), one panel each.

matplotlib is an optional dependency (``coalg[book]``); ``import coalg`` never
imports this module.  Tests use the Agg backend.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Literal

from ..bisim import refinement_rounds
from ..bitemporal import Mode, belief_regions, believed
from ..composition import (
    collision_threshold,
    prefix_bits,
    prefix_collision_approx,
    prefix_collision_probability,
)
from ..model import ANCESTRY, DESCENDANT, Edge, Id, Relation, Store, Unfolding, inverse

if TYPE_CHECKING:
    from matplotlib.axes import Axes

__all__ = [
    "ADDED",
    "FIGSIZE",
    "HIGHLIGHT",
    "NEUTRAL",
    "PALETTE",
    "QUERY_COLOUR",
    "REMOVED",
    "colour_map",
    "derivation_kind",
    "edge_family",
    "finish_axes",
    "new_axes",
    "plot_bitemporal_plane",
    "plot_prefix_collision",
    "plot_refinement",
    "plot_store",
    "plot_unfolding",
    "plot_unfoldings",
    "store_layout",
    "unfolding_diff",
    "unfolding_layout",
]

# =========================================================================== shared style
# Every plot of the book takes its colours and sizes from here.

PALETTE: tuple[str, ...] = (
    "#0072B2",  # blue
    "#E69F00",  # orange
    "#009E73",  # green
    "#CC79A7",  # purple
    "#56B4E9",  # sky
    "#D55E00",  # vermilion
    "#F0E442",  # yellow
    "#000000",  # black
)
"""Okabe–Ito colours (distinguishable under the common colour-vision deficiencies), in a fixed order."""

NEUTRAL = "#7f7f7f"
"""Reference lines and secondary marks."""

QUERY_COLOUR = "#000000"
"""The query point of a plane and its answer."""

FIGSIZE = (6.4, 4.4)
"""Default size of a new figure, in inches."""

HIGHLIGHT = "#000000"
"""Rings and strokes of highlighted nodes and edges (what a caption or a widget points at)."""

ADDED = "#009E73"
"""What a comparison shows as new (green)."""

REMOVED = "#D55E00"
"""What a comparison shows as gone (vermilion, the Okabe–Ito red)."""

EDGE_COLOUR = "#4d4d4d"
"""Ancestry edges; descendant and other edges use :data:`NEUTRAL`."""

REGION_ALPHA = 0.18
LINE_WIDTH = 1.6
FONT_SIZE = 9


def colour_map(keys: Sequence[str]) -> dict[str, str]:
    """A colour for each key: keys sorted, palette colours in order (cycling), so always the same.

    >>> colour_map(["bob", "alice"])
    {'alice': '#0072B2', 'bob': '#E69F00'}
    """
    return {k: PALETTE[n % len(PALETTE)] for n, k in enumerate(sorted(set(keys)))}


def new_axes(ax: Axes | None = None, *, figsize: tuple[float, float] = FIGSIZE) -> Axes:
    """``ax`` itself, or the axes of a new figure of the house size."""
    if ax is not None:
        return ax
    import matplotlib.pyplot as plt

    _, created = plt.subplots(figsize=figsize)
    return created


def finish_axes(ax: Axes, *, xlabel: str, ylabel: str) -> Axes:
    """Apply the house style: lowercase axis labels, no top/right spines, no title."""
    ax.set_xlabel(xlabel.lower())
    ax.set_ylabel(ylabel.lower())
    ax.spines["top"].set_visible(False)
    ax.spines["right"].set_visible(False)
    ax.tick_params(labelsize=FONT_SIZE)
    return ax


# =========================================================================== the bitemporal plane


def derivation_kind(s: Store, i: str) -> str:
    """How record ``i`` came to be: ``"save"``, ``"evolve"``, ``"merge"`` or ``"split"``.

    Read from its ancestry edges, or — when an edge write failed — its metadata.

    >>> from coalg.model.records import Record
    >>> derivation_kind(Store.of({"b": Record("x")}, [("b", Relation.MERGED_FROM, "a")]), "b")
    'merge'
    """
    labels = {e.relation for e in s.out_edges(i, ANCESTRY)}
    meta = s.records[i].metadata if i in s.records else {}
    for kind, rel, key in (
        ("evolve", Relation.EVOLVED_FROM, "evolved_from"),
        ("merge", Relation.MERGED_FROM, "merged_from"),
        ("split", Relation.SPLIT_FROM, "split_from"),
    ):
        if rel in labels or key in meta:
            return kind
    return "save"


def plot_bitemporal_plane(
    store: Store,
    *,
    tt: int | None = None,
    tv: int | None = None,
    ax: Axes | None = None,
    colour_by: Literal["namespace", "derivation", "record"] = "namespace",
    mode: Mode = "asserted",
    label_records: bool = True,
) -> Axes:
    """The (τv, τt) plane of ``store``: where each record is believed, and a query.

    Valid time runs along x, transaction time along y.  Each record contributes
    the region of :func:`~coalg.bitemporal.core.belief_regions` — a quadrant from
    ``(valid_time, created_at)`` in ``mode="asserted"``, a staircase in
    ``mode="current"`` — drawn as translucent rectangles coloured by namespace or
    by how the record was derived.  Unbounded regions are cut at the plot's edge.
    A dashed diagonal marks τv = τt, where a single-axis store puts every record
    (a ContextFS record has no valid time and is read as valid from its
    ``created_at``).  With ``tt`` and ``tv`` a marker sits at the query point and
    the records :func:`~coalg.bitemporal.core.believed` there are listed beside it.

    Returns the axes; one ``Rectangle`` patch per region, in sorted order.
    """
    if (tt is None) != (tv is None):
        raise ValueError("give both tt and tv for a query point, or neither")
    ax = new_axes(ax)
    from matplotlib.patches import Patch, Rectangle

    regions = belief_regions(store, mode=mode)
    xs = [g.tv_from for g in regions] + [g.tv_to for g in regions if g.tv_to is not None]
    ys = [g.tt_from for g in regions] + [g.tt_to for g in regions if g.tt_to is not None]
    if tt is not None and tv is not None:
        xs.append(tv)
        ys.append(tt)
    lo = min(xs + ys, default=0)
    hi = max(xs + ys, default=1)
    pad = max(1.0, 0.12 * (hi - lo))
    x0, x1 = min(xs, default=lo) - pad, max(xs, default=hi) + pad
    y0, y1 = min(ys, default=lo) - pad, max(ys, default=hi) + pad

    key_of: Callable[[str], str]
    if colour_by == "namespace":
        key_of = lambda i: store.records[i].namespace
    elif colour_by == "derivation":
        key_of = lambda i: derivation_kind(store, i)
    elif colour_by == "record":
        key_of = lambda i: i
    else:
        raise ValueError("colour_by must be 'namespace', 'derivation' or 'record'")
    colours = colour_map([key_of(g.id) for g in regions])

    for g in regions:
        right = x1 if g.tv_to is None else g.tv_to
        top = y1 if g.tt_to is None else g.tt_to
        c = colours[key_of(g.id)]
        ax.add_patch(
            Rectangle(
                (g.tv_from, g.tt_from),
                right - g.tv_from,
                top - g.tt_from,
                facecolor=c,
                edgecolor=c,
                alpha=REGION_ALPHA,
                linewidth=LINE_WIDTH,
                label=f"_region {g.id}",
            )
        )
    if label_records:
        first: dict[str, tuple[float, float]] = {}
        for g in regions:
            first.setdefault(g.id, (g.tv_from, g.tt_from))
        for i, (x, y) in sorted(first.items()):
            ax.plot([x], [y], marker="o", markersize=4, color=colours[key_of(i)], linestyle="none")
            ax.annotate(
                i,
                (x, y),
                xytext=(3, 3),
                textcoords="offset points",
                fontsize=FONT_SIZE - 1,
                color=colours[key_of(i)],
            )

    d0, d1 = max(x0, y0), min(x1, y1)
    if d0 < d1:
        ax.plot([d0, d1], [d0, d1], linestyle="--", color=NEUTRAL, linewidth=0.9, label="τv = τt")

    if tt is not None and tv is not None:
        answer = believed(store, tt, tv, mode=mode)
        ax.plot(
            [tv],
            [tt],
            marker="X",
            markersize=10,
            color=QUERY_COLOUR,
            linestyle="none",
            label=f"query (τt = {tt}, τv = {tv})",
        )
        text = "believed:\n" + (
            "\n".join(f"{i}: {r.content[:28]}" for i, r in answer.items()) or "nothing"
        )
        ax.annotate(
            text,
            (tv, tt),
            xytext=(8, -8),
            textcoords="offset points",
            fontsize=FONT_SIZE - 1,
            va="top",
            ha="left",
            color=QUERY_COLOUR,
            bbox={
                "boxstyle": "round,pad=0.3",
                "facecolor": "white",
                "edgecolor": NEUTRAL,
                "alpha": 0.9,
            },
        )

    ax.set_xlim(x0, x1)
    ax.set_ylim(y0, y1)
    handles = [
        Patch(facecolor=colours[k], edgecolor=colours[k], alpha=0.5, label=k)
        for k in sorted(colours)
    ]
    line_handles, _ = ax.get_legend_handles_labels()
    if handles or line_handles:
        ax.legend(
            handles=handles + line_handles,
            fontsize=FONT_SIZE - 1,
            loc="upper left",
            bbox_to_anchor=(1.01, 1.0),
            frameon=False,
            borderaxespad=0.0,
        )
    return finish_axes(ax, xlabel="valid time τv", ylabel="transaction time τt")


# =========================================================================== prefix collisions (Remark 6.8)


def _log_grid(n_min: int, n_max: int, points: int) -> list[int]:
    a, b = math.log10(n_min), math.log10(n_max)
    grid = sorted({max(1, round(10 ** (a + (b - a) * k / (points - 1)))) for k in range(points)})
    return grid


def plot_prefix_collision(
    *,
    prefix_lens: Sequence[int] = (7, 8, 12),
    n_min: int = 100,
    n_max: int = 20_000_000,
    points: int = 160,
    show_approx: bool = False,
    store_size: int | None = None,
    ax: Axes | None = None,
) -> Axes:
    """Probability that some two identifiers share a prefix, against store size (log x).

    One line per prefix length (exact birthday form), labelled with its bits;
    12 characters is the full ContextFS identifier.  A dot marks each 50 %
    threshold; dotted guides mark 1 % and 50 %.  ``show_approx`` adds the
    ``1 − exp(−n²/2^{bits+1})`` curves dashed; ``store_size`` adds a vertical line.
    """
    ax = new_axes(ax)
    grid = _log_grid(n_min, n_max, points)
    colours = colour_map([f"{L:02d}" for L in prefix_lens])
    for L in sorted(prefix_lens):
        c = colours[f"{L:02d}"]
        name = (
            f"{L} chars, full id ({prefix_bits(L)} bits)"
            if L == 12
            else f"{L} chars ({prefix_bits(L)} bits)"
        )
        ax.plot(
            grid,
            [prefix_collision_probability(n, L) for n in grid],
            color=c,
            linewidth=LINE_WIDTH,
            label=name,
        )
        if show_approx:
            ax.plot(
                grid,
                [prefix_collision_approx(n, L) for n in grid],
                color=c,
                linewidth=0.9,
                linestyle="--",
                label=f"_approx {L}",
            )
        half = collision_threshold(0.5, L)
        if n_min <= half <= n_max:
            ax.plot(
                [half],
                [0.5],
                marker="o",
                color=c,
                markersize=5,
                linestyle="none",
                label=f"_half {L}",
            )
            ax.annotate(
                f"{half:,}",
                (half, 0.5),
                xytext=(4, -12),
                textcoords="offset points",
                fontsize=FONT_SIZE - 1,
                color=c,
            )
    for p in (0.01, 0.5):
        ax.axhline(p, color=NEUTRAL, linewidth=0.7, linestyle=":")
    if store_size is not None:
        ax.axvline(
            store_size, color=QUERY_COLOUR, linewidth=0.9, label=f"store size {store_size:,}"
        )
    ax.set_xscale("log")
    ax.set_xlim(n_min, n_max)
    ax.set_ylim(0, 1.02)
    ax.legend(fontsize=FONT_SIZE - 1, loc="upper left", frameon=False)
    return finish_axes(
        ax, xlabel="records in the store", ylabel="probability that two ids share the prefix"
    )


def _axes_summary(ax: Any) -> dict[str, Any]:
    """What a test needs to know about an axes (kept here so tests read the same thing the book shows)."""
    return {
        "patches": len(ax.patches),
        "lines": len(ax.lines),
        "xlabel": ax.get_xlabel(),
        "ylabel": ax.get_ylabel(),
        "title": ax.get_title(),
        "texts": [t.get_text() for t in ax.texts],
    }


# =========================================================================== the store graph (Definition 3.4)

NODE_SIZE = 11.0
"""Marker size (points) of a record in a graph plot."""

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

    >>> from coalg.model.records import Record
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


def _split_highlight(highlight: Any) -> tuple[set[Id], set[Edge]]:
    """``highlight`` may mix identifiers and ``(source, relation, target)`` edges."""
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
    xs = [p[0] for p in pos] or [0.0]
    ys = [p[1] for p in pos] or [0.0]
    ax.set_xlim(min(xs) - 0.5, max(xs) + 0.5)
    ax.set_ylim(min(ys) - 0.5, max(ys) + 0.75)
    ax.set_yticks([])
    ax.set_xticks(sorted({round(x) for x in xs}))
    ax.spines["left"].set_visible(False)
    return finish_axes(ax, xlabel=xlabel, ylabel="")


def _graph_figsize(pos: dict[Id, tuple[float, float]]) -> tuple[float, float]:
    tallest = max((sum(1 for q in pos.values() if q[0] == p[0]) for p in pos.values()), default=1)
    return (FIGSIZE[0], max(FIGSIZE[1] * 0.75, 0.5 * tallest + 0.9))


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
    ax = new_axes(ax, figsize=_graph_figsize(pos))
    hi_ids, hi_edges = _split_highlight(highlight)
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


# =========================================================================== unfoldings (Definition 3.19)


def _parents_of(u: Unfolding) -> list[int | None]:
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
    parent = _parents_of(u)
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
    width = max((p[0] for p in pos), default=0.0) + 1
    depth = -min((p[1] for p in pos), default=0.0) + 1
    ax = new_axes(ax, figsize=(max(FIGSIZE[0] * 0.7, 1.9 * width + 1.0), max(2.4, 1.0 * depth + 0.9)))
    hi_ids, hi_edges = _split_highlight(highlight)
    hi_steps = {(e.source, e.relation, e.target) for e in hi_edges}
    node_colours = node_colours or {}
    edge_colours = edge_colours or {}
    parent = _parents_of(unfolding)

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
        ax.text(0.0, 1.02, title, transform=ax.transAxes, fontsize=FONT_SIZE, ha="left", va="bottom")
    xs = [p[0] for p in pos] or [0.0]
    ys = [p[1] for p in pos] or [0.0]
    ax.set_xlim(min(xs) - 0.7, max(xs) + 0.7)
    ax.set_ylim(min(ys) - 0.7, max(ys) + 0.45)
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

        lay = [unfolding_layout(u) for u in (before, after)]
        width = sum(max((p[0] for p in q), default=0.0) + 1 for q in lay)
        depth = max(-min((p[1] for p in q), default=0.0) + 1 for q in lay)
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


# =========================================================================== partition refinement


def plot_refinement(
    store: Store,
    *,
    labels: Any = None,
    axes: Sequence[Axes] | None = None,
    rounds: Sequence[dict[Id, int]] | None = None,
    which: Sequence[int] | None = None,
) -> list[Axes]:
    """One panel per round of :func:`~coalg.bisim.bisimilarity.refinement_rounds`, nodes coloured by block.

    ``labels`` restricts the relations refinement follows (all by default), as
    in :func:`~coalg.bisim.bisimilarity.behaviour_classes`; the panels draw the store
    graph on :func:`store_layout`, every node written ``id [block]``.  Block
    colours cycle through the palette (the block number disambiguates beyond
    eight blocks).  The last panel is behavioural equivalence.  Each panel is
    named by a text above it: ``round r: n blocks``.  ``rounds`` passes rounds
    already computed; ``which`` draws only those round numbers (a stepper draws one).
    """
    if rounds is None:
        rounds = refinement_rounds(store, labels=labels)
    numbers = list(range(len(rounds))) if which is None else [r for r in which if 0 <= r < len(rounds)]
    if axes is None:
        import matplotlib.pyplot as plt

        pos = store_layout(store)
        h = _graph_figsize(pos)[1]
        n = len(numbers)
        _, created = plt.subplots(1, n, figsize=(max(FIGSIZE[0], 3.4 * n), h), squeeze=False)
        axes = list(created[0])
    out: list[Axes] = []
    for r, ax in zip(numbers, axes):
        partition = rounds[r]
        blocks = len(set(partition.values()))
        ax = plot_store(
            store,
            ax=ax,
            labels=lambda i, p=partition: f"{i} [{p[i]}]",
            legend=False,
        )
        for line in ax.lines:
            name = str(line.get_label())
            if name.startswith("_node "):
                i = name[len("_node "):]
                c = PALETTE[partition[i] % len(PALETTE)]
                line.set_markerfacecolor(c)
                line.set_markeredgecolor(c if i in store.records else NEUTRAL)
        ax.text(0.0, 1.02, f"round {r}: {blocks} block{'s' if blocks != 1 else ''}",
                transform=ax.transAxes, fontsize=FONT_SIZE, ha="left", va="bottom")
        out.append(ax)
    return out


# --------------------------------------------------------------------------- benchmark results (issue 8)


def plot_benchmark(results: dict[str, Any], ax: Axes | None = None, *, input_names: Sequence[str] | None = None) -> Axes:
    """Log-log plot of end-to-end seconds against the number of states, one line per (peer, input).

    ``results`` is the JSON written by ``bench/run.py`` (nothing is re-run).
    Colour identifies the peer, the marker the input shape; ``input_names``
    restricts the inputs drawn (default: all single-file inputs).
    """
    if ax is None:
        import matplotlib.pyplot as plt

        _, ax = plt.subplots(figsize=FIGSIZE)
    rows = [r for r in results.get("bisim", []) if r.get("shape") != "compare"]
    if input_names is not None:
        rows = [r for r in rows if r["input"] in input_names]
    peers = sorted({r["peer"] for r in rows}, key=lambda p: (p != "ours", p))
    inputs = sorted({r["input"] for r in rows})
    markers = "osD^vP*X"
    for pi, peer in enumerate(peers):
        for ii, name in enumerate(inputs):
            pts = sorted((r["states"], r["seconds"]) for r in rows if r["peer"] == peer and r["input"] == name)
            if not pts:
                continue
            xs, ys = zip(*pts)
            ax.plot(xs, ys, marker=markers[ii % len(markers)], color=PALETTE[pi % len(PALETTE)],
                    linewidth=1.2, markersize=5, label=f"{peer}: {name}")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("states")
    ax.set_ylabel("seconds (end to end, median)")
    ax.grid(True, which="major", linewidth=0.4, alpha=0.5)
    ax.legend(fontsize=FONT_SIZE - 2, ncol=2, frameon=False)
    return ax
