"""The house style of every figure of the book: colours, sizes, fonts and axes.

Every plot of :mod:`coalg.viz` takes its colours and sizes from here, so a
figure of §3 (store graphs, unfoldings), §5.8 and §7.1 (bitemporal planes) or
§6 (prefix collisions) looks like every other.  The rules (QuantEcon's figure
rules): lowercase axis labels, no ``set_title`` — captions come from the book —
Okabe–Ito colours in a fixed order, and the same sizes everywhere.

matplotlib is imported only by the functions that draw (``coalg[book]``).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from matplotlib.axes import Axes

__all__ = [
    "ADDED",
    "EDGE_COLOUR",
    "FIGSIZE",
    "FONT_SIZE",
    "GHOST",
    "HIGHLIGHT",
    "LABEL_SIZE",
    "LINE_WIDTH",
    "NEUTRAL",
    "NODE_SIZE",
    "NOTE_SIZE",
    "PALETTE",
    "QUERY_COLOUR",
    "REGION_ALPHA",
    "REMOVED",
    "colour_map",
    "finish_axes",
    "fit_limits",
    "graph_figsize",
    "new_axes",
    "offset_text",
    "panel_title",
    "text_size",
]

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
"""Opacity of a belief region in a bitemporal plane."""

LINE_WIDTH = 1.6
"""Width of a curve (prefix collisions) and of a region's outline."""

FONT_SIZE = 10
"""Tick labels, axis labels and panel names."""

LABEL_SIZE = 11
"""Node labels: 11 points are 14.7 CSS pixels at 96 pixels an inch, the size of body text."""

NOTE_SIZE = 9
"""Edge labels, legends and notes beside a node."""

NODE_SIZE = 12.0
"""Marker size (points) of a record in a graph plot."""

GHOST = "#b3b3b3"
"""The outline of a record deleted by the last step, drawn for one step after the delete."""



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


def fit_limits(ax: Axes, points: Sequence[tuple[float, float]], *, x_margin: float, below: float,
               above: float) -> tuple[list[float], list[float]]:
    """Set the limits of ``ax`` around ``points`` (a graph's nodes) with the given margins.

    Returns the ``x`` and ``y`` coordinates (``[0.0]`` when there are no points),
    from which the caller sets its ticks.
    """
    xs = [p[0] for p in points] or [0.0]
    ys = [p[1] for p in points] or [0.0]
    ax.set_xlim(min(xs) - x_margin, max(xs) + x_margin)
    ax.set_ylim(min(ys) - below, max(ys) + above)
    return xs, ys


def graph_figsize(pos: dict[str, tuple[float, float]], label_width: float = 0.0) -> tuple[float, float]:
    """The size of a store graph drawn on the layout ``pos``: at least the house width, wider when
    its columns need room for labels ``label_width`` points wide, and a height that grows with the
    tallest column.

    >>> graph_figsize({"a": (0.0, 0.0), "b": (1.0, 0.0)})
    (6.4, 3.3000000000000003)
    """
    tallest = max((sum(1 for q in pos.values() if q[0] == p[0]) for p in pos.values()), default=1)
    columns = len({p[0] for p in pos.values()}) or 1
    width = max(FIGSIZE[0], columns * (label_width + 2 * NODE_SIZE) / 72 + 2.6)
    return (width, max(FIGSIZE[1] * 0.75, 0.5 * tallest + 0.9))


@functools.lru_cache(maxsize=8192)
def text_size(text: str, size: float) -> tuple[float, float]:
    """Width and height, in points, of ``text`` set in the house font at ``size`` points
    (several lines at matplotlib's line spacing): what a label placement needs to know."""
    from matplotlib.font_manager import FontProperties
    from matplotlib.textpath import text_to_path

    prop = FontProperties(size=size)
    lines = text.split("\n") or [""]
    width = max(text_to_path.get_text_width_height_descent(line, prop, ismath=False)[0] for line in lines)
    return width, size * (1.2 * len(lines) - 0.2) * 1.1


def offset_text(ax: Axes, xy: tuple[float, float], text: str, dx: float, dy: float, **style: Any) -> Any:
    """``text`` at ``dx, dy`` points from the data point ``xy`` (a plain text: cheaper to draw than an
    annotation, and it stays beside its point whatever the figure's size)."""
    from matplotlib.transforms import ScaledTranslation

    fig = ax.get_figure(root=True)
    assert fig is not None
    shift = ScaledTranslation(dx / 72, dy / 72, fig.dpi_scale_trans)
    return ax.text(xy[0], xy[1], text, transform=ax.transData + shift, **style)


def panel_title(ax: Axes, text: str) -> None:
    """Name a panel with a text above its top-left corner (the house style uses ``set_title`` for nothing)."""
    ax.text(0.0, 1.02, text, transform=ax.transAxes, fontsize=FONT_SIZE, ha="left", va="bottom")
