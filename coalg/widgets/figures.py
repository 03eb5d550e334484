"""The explorers' figures: the plots of :mod:`coalg.viz` rendered to PNG bytes for ``Image`` widgets.

A figure is rendered at construction, so a page that embeds the widget state
statically (the web book) shows a meaningful picture; the resolution
(:data:`DPI`) keeps a redraw well under the 150 ms an interactive step may take.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable
from typing import Any

from ..model import Store
from ..viz import FONT_SIZE, graph_figsize, plot_store, store_layout

__all__ = ["DPI", "name_panel", "render_png", "store_height", "store_png"]

DPI = 72
"""Resolution of the explorers' images (a redraw must stay well under 150 ms)."""


def render_png(draw: Callable[[Any], Any], figsize: tuple[float, float], *, ncols: int = 1,
               nrows: int = 1, legend: float = 0.0, left: float = 0.3, wspace: float = 0.25,
               dpi: int = DPI) -> bytes:
    """Draw with ``draw(axes)`` on a new figure (no pyplot state) and return the PNG bytes.

    ``axes`` is one ``Axes`` for a 1×1 grid, else the flat list.  Margins are
    fixed, in inches (no tight bounding box, which would draw the figure twice):
    ``left`` for tick labels, ``legend`` on the right for a legend outside the axes.
    """
    from matplotlib.figure import Figure

    w, h = figsize
    fig = Figure(figsize=figsize)
    grid = fig.subplots(nrows, ncols, squeeze=False)
    axes = [ax for row in grid for ax in row]
    fig.subplots_adjust(left=left / w, right=1 - (legend + 0.15) / w, bottom=0.5 / h, top=1 - 0.3 / h,
                        wspace=wspace, hspace=0.6 / (h / nrows))
    draw(axes[0] if len(axes) == 1 else axes)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi)
    return buf.getvalue()


def store_height(store: Store) -> float:
    """The height of ``store``'s graph figure, in inches: it grows with the tallest column."""
    return graph_figsize(store_layout(store))[1]


def store_png(store: Store, *, highlight: Iterable[Any] = (), labels: Any = "id",
              width: float = 7.5) -> bytes:
    """The store graph (:func:`coalg.viz.plot_store`) as PNG bytes, legend on the right."""
    return render_png(lambda ax: plot_store(store, ax=ax, highlight=list(highlight), labels=labels),
                      (width, store_height(store)), legend=1.9)


def name_panel(ax: Any, name: str) -> None:
    """Write a panel's name (``s``, ``Ψ(h)``, …) above its top-left corner."""
    ax.text(0.0, 1.02, name, transform=ax.transAxes, fontsize=FONT_SIZE)
