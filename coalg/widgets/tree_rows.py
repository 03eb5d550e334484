"""The ancestry explorer's four trees at the lecture hall's size: each pair on one row when it fits.

Used by :class:`coalg.widgets.ancestry.AncestryExplorer` at scales from
:data:`~coalg.widgets.figures.FULL_WIDTH_FROM`; the other sizes lay the trees out there.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .figures import canvas, max_width, render

__all__ = ["HALL_TREES", "rows_svg"]

HALL_TREES = 8.2
"""The tallest the four trees are shown at the lecture hall's size, in inches at 96 CSS pixels
each: 787 px, so that the message line and a verdict of up to three lines stand above them on
the 1,000 pixels a 1080p screen shows (less than a figure's usual 845: the verdict is long)."""


def rows_svg(draw: Callable[[list[Any]], None], pairs: list[tuple[tuple[float, float], tuple[float, float]]],
             title: float, scale: float) -> bytes:
    """The four trees with each pair (before, after) on one row when the two fit the width, else
    the one above the other: at the lecture hall's size a pair of small trees stays side by
    side even when the other pair is too wide for that.  The rows share :data:`HALL_TREES`:
    deeper trees or more rows get closer levels, and the room above each tree is only its name's
    (the tree's own limits keep room for the labels under its lowest level)."""
    room = max_width(scale) / scale
    margin, gap, above, below = 0.55, 0.4, 0.25, 0.12  # inches: tick labels, between trees, name, under
    rows: list[list[tuple[float, float]]] = []
    for b, a in pairs:
        wb, wa = max(b[0], title), max(a[0], title)
        if margin + wb + gap + wa + 0.1 <= room:
            rows.append([(wb, max(b[1], a[1])), (wa, max(b[1], a[1]))])
        else:
            rows += [[(wb, b[1])], [(wa, a[1])]]
    width = max(margin + sum(w for w, _h in row) + gap * (len(row) - 1) + 0.1 for row in rows)
    height = sum(max(h for _w, h in row) for row in rows) + 0.2
    cw, ch = canvas((width, min(height, HALL_TREES / scale)), scale)
    flat = (ch - 0.2) / (height - 0.2)  # under 1 when the rows must come closer to fit the screen

    def placed(axes: list[Any]) -> None:
        top = ch - 0.1
        k = 0
        for row in rows:
            h = max(hh for _w, hh in row) * flat
            x = margin
            for w, _h in row:
                axes[k].set_position([x / cw, (top - h + below) / ch, min(w, cw - x - 0.1) / cw,
                                      (h - above - below) / ch])
                x += w + gap
                k += 1
            top -= h
        draw(axes)

    return render(placed, (width, min(height, HALL_TREES / scale)), ncols=1, nrows=4,
                  scale=scale)
