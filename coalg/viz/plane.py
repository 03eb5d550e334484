"""The bitemporal plane of a store (paper §3.5, Definition 3.20; §7.1, Proposition 7.1).

:func:`plot_bitemporal_plane` draws the (valid time, transaction time) plane:
where each record is believed, and the answer of Obs^vt at a query point.
:func:`derivation_kind` says how a record came to be, for colouring by
derivation.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Literal

from ..bitemporal import belief_regions, believed
from ..model import ANCESTRY, Relation, Store
from .style import (
    FONT_SIZE,
    LINE_WIDTH,
    NEUTRAL,
    NOTE_SIZE,
    QUERY_COLOUR,
    REGION_ALPHA,
    colour_map,
    finish_axes,
    new_axes,
)

if TYPE_CHECKING:
    from matplotlib.axes import Axes

__all__ = ["derivation_kind", "plane_limits", "plot_bitemporal_plane"]

Limits = tuple[float, float, float, float]
"""``(τv from, τv to, τt from, τt to)``: the extent of a plane."""


def derivation_kind(s: Store, i: str) -> str:
    """How record ``i`` came to be: ``"save"``, ``"evolve"``, ``"merge"`` or ``"split"``.

    Read from its ancestry edges, or — when an edge write failed — its metadata.

    >>> from coalg.model import Record
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


def plane_limits(stores: Sequence[Store], *, mode: Literal["asserted", "current"] = "asserted",
                 times: Sequence[int] = ()) -> Limits:
    """One extent for the planes of all ``stores`` (and the times in ``times``, e.g. a slider's
    range), so planes drawn side by side share their axes and keep them while a query moves.

    >>> plane_limits([], times=[0, 10])
    (-1.2, 11.2, -1.2, 11.2)
    """
    xs: list[float] = [float(t) for t in times]
    ys: list[float] = [float(t) for t in times]
    for store in stores:
        for g in belief_regions(store, mode=mode):
            xs += [g.tv_from] + ([g.tv_to] if g.tv_to is not None else [])
            ys += [g.tt_from] + ([g.tt_to] if g.tt_to is not None else [])
    lo = min(xs + ys, default=0.0)
    hi = max(xs + ys, default=1.0)
    pad = max(1.0, 0.12 * (hi - lo))
    return (min(xs, default=lo) - pad, max(xs, default=hi) + pad, min(ys, default=lo) - pad, max(ys, default=hi) + pad)


def plot_bitemporal_plane(
    store: Store,
    *,
    tt: int | None = None,
    tv: int | None = None,
    ax: Axes | None = None,
    colour_by: Literal["namespace", "derivation", "record"] = "namespace",
    mode: Literal["asserted", "current"] = "asserted",
    label_records: bool = True,
    limits: Limits | None = None,
    answer: Literal["inside", "outside"] = "inside",
) -> Axes:
    """The (τv, τt) plane of ``store``: where each record is believed, and a query.

    Valid time runs along x, transaction time along y.  Each record contributes
    the region of :func:`coalg.bitemporal.belief_regions` — a quadrant from
    ``(valid_time, created_at)`` in ``mode="asserted"``, a staircase in
    ``mode="current"`` — drawn as translucent rectangles coloured by namespace or
    by how the record was derived.  Unbounded regions are cut at the plot's edge.
    A dashed diagonal marks τv = τt, where a single-axis store puts every record
    (a ContextFS record has no valid time and is read as valid from its
    ``created_at``).  With ``tt`` and ``tv`` a marker sits at the query point and
    the records :func:`coalg.bitemporal.believed` there are listed in a box.
    With ``answer="inside"`` the box sits in the corner of the plot away from
    the query, joined to it by a line (planes drawn side by side keep their
    boxes apart).  With ``answer="outside"`` it sits right of the plot, below
    the legend: a triangle on the right frame marks the query's transaction
    time, and the line joins the box to that triangle, so nothing is drawn
    across the regions.
    ``limits`` fixes the extent (:func:`plane_limits`), so that two planes side
    by side share their axes; by default it fits this store and the query.

    Returns the axes; one ``Rectangle`` patch per region, in sorted order.
    """
    if (tt is None) != (tv is None):
        raise ValueError("give both tt and tv for a query point, or neither")
    if answer not in ("inside", "outside"):
        raise ValueError("answer must be 'inside' or 'outside'")
    ax = new_axes(ax)
    from matplotlib.patches import Patch, Rectangle

    regions = belief_regions(store, mode=mode)
    if limits is None:
        limits = plane_limits([store], mode=mode, times=[] if tt is None or tv is None else [tt, tv])
    x0, x1, y0, y1 = limits

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
                fontsize=FONT_SIZE,
                color=colours[key_of(i)],
            )

    d0, d1 = max(x0, y0), min(x1, y1)
    if d0 < d1:
        ax.plot([d0, d1], [d0, d1], linestyle="--", color=NEUTRAL, linewidth=0.9, label="τv = τt")

    if tt is not None and tv is not None:
        held = believed(store, tt, tv, mode=mode)
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
            "\n".join(f"{i}: {r.content[:28]}" for i, r in held.items()) or "nothing"
        )
        box = {"boxstyle": "round,pad=0.3", "facecolor": "white", "edgecolor": NEUTRAL, "alpha": 0.95}
        leader = {"arrowstyle": "-", "color": NEUTRAL, "linewidth": 0.8, "shrinkB": 6}
        if answer == "outside":
            # the query's row meets the right frame at a triangle; the leader runs from there,
            # outside the axes, to the box below the legend
            ax.plot([1.0], [tt], transform=ax.get_yaxis_transform(), marker="<", markersize=7,
                    color=QUERY_COLOUR, linestyle="none", clip_on=False, label="_query row")
            ax.annotate(
                text.replace("believed:", f"believed at (τt = {tt}, τv = {tv}):", 1),
                (1.0, tt),
                xycoords=ax.get_yaxis_transform(),
                xytext=(1.05, 0.0),
                textcoords="axes fraction",
                fontsize=NOTE_SIZE,
                va="bottom",
                ha="left",
                color=QUERY_COLOUR,
                bbox=box,
                arrowprops=dict(leader, shrinkB=4),
                annotation_clip=False,
                zorder=5,
            )
        else:
            right = tv < (x0 + x1) / 2  # the box goes in the corner away from the query
            high = tt < (y0 + y1) / 2
            ax.annotate(
                text,
                (tv, tt),
                xytext=(0.97 if right else 0.03, 0.97 if high else 0.03),
                textcoords="axes fraction",
                fontsize=NOTE_SIZE,
                va="top" if high else "bottom",
                ha="right" if right else "left",
                color=QUERY_COLOUR,
                bbox=box,
                arrowprops=leader,
                zorder=5,
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
