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

matplotlib is an optional dependency (``coalg[book]``); ``import coalg`` never
imports this module.  Tests use the Agg backend.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Literal

from .bitemporal import Mode, belief_regions, believed
from .composition import (
    collision_threshold,
    prefix_bits,
    prefix_collision_approx,
    prefix_collision_probability,
)
from .records import ANCESTRY, Relation
from .store import Store

if TYPE_CHECKING:
    from matplotlib.axes import Axes

__all__ = [
    "FIGSIZE",
    "NEUTRAL",
    "PALETTE",
    "QUERY_COLOUR",
    "colour_map",
    "derivation_kind",
    "finish_axes",
    "new_axes",
    "plot_bitemporal_plane",
    "plot_prefix_collision",
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

    >>> from coalg.records import Record
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
    the region of :func:`~coalg.bitemporal.belief_regions` — a quadrant from
    ``(valid_time, created_at)`` in ``mode="asserted"``, a staircase in
    ``mode="current"`` — drawn as translucent rectangles coloured by namespace or
    by how the record was derived.  Unbounded regions are cut at the plot's edge.
    A dashed diagonal marks τv = τt, where a single-axis store puts every record
    (a ContextFS record has no valid time and is read as valid from its
    ``created_at``).  With ``tt`` and ``tv`` a marker sits at the query point and
    the records :func:`~coalg.bitemporal.believed` there are listed beside it.

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
