"""The explorers' figures: the plots of :mod:`coalg.viz` rendered to SVG for ``Image`` widgets.

SVG, with text kept as text: crisp at any size (a projector, a HiDPI screen),
faster to produce than a raster, and the same bytes on every run.  A figure is
rendered at construction, so a page that embeds the widget state statically
(the web book) shows a meaningful picture.

A figure asked for at ``figsize`` inches is drawn on a canvas of that size and
shown at 96 CSS pixels an inch — at ``scale`` 1.  At a larger ``scale`` (a
projector) everything on it is shown ``scale`` times larger: text, markers and
lines.  The figure then takes more of the screen's width, up to
:func:`max_width` — :data:`MAX_WIDTH`, a 1024-pixel screen, at the sizes up to
the projector's, and :data:`FULL_WIDTH`, a 1920-pixel screen, at the lecture
hall's — so its canvas is ``min(width × scale, max_width(scale)) / scale``
inches wide; its canvas keeps its height (rows of nodes keep their spacing) and
is shown ``scale`` times taller.  Node labels are :data:`coalg.viz.LABEL_SIZE`
points: 14.7 CSS pixels at ``scale`` 1, the size of body text, and ``scale``
times that on a projector; the smallest text of a figure,
:data:`coalg.viz.NOTE_SIZE` points, is 12 pixels at ``scale`` 1 and 32.4 at
the lecture hall's 2.7.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Iterable
from typing import Any

from ..model import Store
from ..viz import FONT_SIZE, NOTE_SIZE, graph_figsize, plot_store, store_layout, text_size
from ..viz.store import legend_size

__all__ = ["FULL_HEIGHT", "FULL_WIDTH", "FULL_WIDTH_FROM", "MAX_WIDTH", "canvas", "hall", "max_height", "max_width",
           "name_panel", "render", "shown_size", "store_height", "store_svg"]

MAX_WIDTH = 9.6
"""The widest figure, in inches at 96 CSS pixels each: 922 px fit a 1024-pixel screen unscaled."""

FULL_WIDTH = 19.0
"""The widest figure at a scale of :data:`FULL_WIDTH_FROM` or more, in inches: 1,824 px, the
width of a 1920-pixel screen less the page's margins."""

FULL_WIDTH_FROM = 2.0
"""The scale from which a figure may use :data:`FULL_WIDTH` (only the lecture hall's size is that
large: a room that large has a 1080p projector, and smaller sizes must still fit 1024 pixels)."""

FULL_HEIGHT = 8.8
"""The tallest figure at a scale of :data:`FULL_WIDTH_FROM` or more, in inches at 96 CSS pixels
each: 845 px, so that a figure and the line that says what it shows fit the 1,000 pixels a
1080p screen leaves below the browser's bars.  A taller figure is drawn on a flatter canvas
(rows closer together): at the lecture hall's size figures are wide, not tall."""

_SIZE = re.compile(rb'<svg([^>]*?) width="([0-9.]+)pt" height="([0-9.]+)pt"')


def max_width(scale: float) -> float:
    """The widest a figure is shown at ``scale``, in inches at 96 CSS pixels each.

    >>> max_width(1.6), max_width(2.7)
    (9.6, 19.0)
    """
    return FULL_WIDTH if scale >= FULL_WIDTH_FROM else MAX_WIDTH


def hall(scale: float) -> bool:
    """Whether ``scale`` is the lecture hall's (a 1080p screen: full width, one screen high)."""
    return scale >= FULL_WIDTH_FROM


def max_height(scale: float) -> float | None:
    """The tallest a figure's canvas may be at ``scale``, in inches (``None``: no limit).

    >>> max_height(1.6) is None, round(max_height(2.7), 2)
    (True, 3.26)
    """
    return FULL_HEIGHT / scale if hall(scale) else None


def canvas(figsize: tuple[float, float], scale: float) -> tuple[float, float]:
    """The size (inches) a figure asked for at ``figsize`` is drawn at, at ``scale`` (see above).

    >>> canvas((7.5, 3.0), 1.0), canvas((7.5, 3.0), 2.0), canvas((7.5, 3.0), 1.6)[0] < 7.5
    ((7.5, 3.0), (7.5, 3.0), True)
    >>> canvas((7.5, 6.0), 1.6)[1], round(canvas((7.5, 6.0), 2.7)[1], 2)
    (6.0, 3.26)
    """
    top = max_height(scale)
    height = figsize[1] if top is None else min(figsize[1], top)
    return min(figsize[0] * scale, max_width(scale)) / scale, height


def render(draw: Callable[[Any], Any], figsize: tuple[float, float], *, scale: float = 1.0,
           ncols: int = 1, nrows: int = 1, legend: float = 0.0, left: float = 0.3, bottom: float = 0.55,
           top: float = 0.35, wspace: float = 0.25, width_ratios: tuple[float, ...] | None = None) -> bytes:
    """Draw with ``draw(axes)`` on a new figure (no pyplot state) and return SVG bytes.

    ``axes`` is one ``Axes`` for a 1×1 grid, else the flat list.  Margins are
    fixed, in inches of the canvas (so they grow with the text at a larger
    ``scale``): ``left`` for tick labels, ``bottom`` for the axis label (and a
    legend below it), ``legend`` on the right for a legend outside the axes.
    """
    import matplotlib
    from matplotlib.figure import Figure

    w, h = canvas(figsize, scale)
    fig = Figure(figsize=(w, h))
    grid = fig.subplots(nrows, ncols, squeeze=False,
                        gridspec_kw=None if width_ratios is None else {"width_ratios": list(width_ratios)})
    axes = [ax for row in grid for ax in row]
    right = max(0.35, 1 - (legend + 0.15) / w)
    fig.subplots_adjust(left=min(left / w, right - 0.1), right=right, bottom=min(0.5, bottom / h),
                        top=max(0.55, 1 - top / h), wspace=wspace, hspace=(bottom + top) / (h / nrows))
    with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": "coalg"}):
        draw(axes[0] if len(axes) == 1 else axes)
        buf = io.BytesIO()
        fig.savefig(buf, format="svg", metadata={"Date": None, "Creator": None})
    svg = buf.getvalue()
    return _SIZE.sub(lambda m: b'<svg%s width="%.1fpt" height="%.1fpt"' % (
        m.group(1), float(m.group(2)) * scale, float(m.group(3)) * scale), svg, count=1)


def shown_size(svg: bytes) -> tuple[float, float]:
    """The size an SVG figure is shown at, in CSS pixels (``width``/``height`` in points × 4/3)."""
    m = _SIZE.search(svg)
    if m is None:
        raise ValueError("not an SVG figure of this module")
    return float(m.group(2)) * 4 / 3, float(m.group(3)) * 4 / 3


def store_height(store: Store) -> float:
    """The height of ``store``'s graph figure, in inches: it grows with the tallest column."""
    return graph_figsize(store_layout(store))[1]


def store_svg(store: Store, *, highlight: Iterable[Any] = (), labels: Any = "id", width: float = 7.5,
              scale: float = 1.0, ghosts: Store | None = None, highlight_label: str = "highlighted",
              columns: int | None = None) -> bytes:
    """The store graph (:func:`coalg.viz.plot_store`) as SVG; its legend on the right, or below the
    graph at a projector's scale (where the width is better spent on the graph), and on the right
    again at the lecture hall's (where the height is what is short).  With ``columns`` the legend
    is below the graph in rows of that many entries, whatever the scale (for a narrow graph that
    shares its row with a text)."""
    entries = [f"namespace {n}" for n in store.namespaces()] + [
        highlight_label, "deleted by the last step", "dangling (no record)", "descendant R⁺"]
    marked = list(highlight)
    below = columns is not None or (1.3 <= scale and not hall(scale))
    per_row = 3 if columns is None else columns
    rows = (-(-(len(store.namespaces()) + 4) // 3) if columns is None else  # room for the most it may hold
            -(-legend_size(store, highlight=marked, ghosts=ghosts) // columns))  # the rows it has
    return render(lambda ax: plot_store(store, ax=ax, highlight=marked, labels=labels, ghosts=ghosts,
                                        highlight_label=highlight_label,
                                        legend="below" if below else True, legend_columns=per_row),
                  (width, store_height(store) + (0.3 * rows if below else 0.4)), scale=scale,
                  legend=0.0 if below else max(text_size(e, NOTE_SIZE)[0] for e in entries) / 72 + 0.55,
                  bottom=0.55 + (0.3 * rows if below else 0.0))


def name_panel(ax: Any, name: str) -> None:
    """Write a panel's name (``s``, ``Ψ(h)``, …) above its top-left corner."""
    ax.text(0.0, 1.02, name, transform=ax.transAxes, fontsize=FONT_SIZE + 1, va="bottom")
