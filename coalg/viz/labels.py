"""Where a label goes: beside its anchor, off the edges, the nodes and the labels already placed.

A graph figure labels every node, and some edges.  :func:`place_labels` tries
eight positions around each anchor (above, below, right, left and the four
diagonals, in the caller's order of preference) and keeps, for each label in
turn, the position that crosses the fewest drawn edges, covers no node and no
earlier label, and stays inside the axes.  Everything is in points on the
page, so the choice matches what the reader sees; nothing is random, so the
same graph always gets the same labels.  Pure geometry: no matplotlib.

>>> place_labels([(50.0, 50.0)], [(20.0, 8.0)], gap=5.0, segments=[((50.0, 50.0), (50.0, 100.0))],
...              bounds=(0.0, 0.0, 200.0, 200.0))[0].where
'below'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["POSITIONS", "Placement", "bezier_points", "box_of", "place_labels"]

Point = tuple[float, float]
Box = tuple[float, float, float, float]
"""``(x0, y0, x1, y1)`` in points, y upwards."""

POSITIONS: dict[str, tuple[float, float, str, str]] = {
    "above": (0.0, 1.0, "center", "bottom"),
    "below": (0.0, -1.0, "center", "top"),
    "right": (1.0, 0.0, "left", "center"),
    "left": (-1.0, 0.0, "right", "center"),
    "above right": (0.75, 0.75, "left", "bottom"),
    "above left": (-0.75, 0.75, "right", "bottom"),
    "below right": (0.75, -0.75, "left", "top"),
    "below left": (-0.75, -0.75, "right", "top"),
}
"""Each position: the direction of the offset, and the text's horizontal and vertical alignment."""


@dataclass(frozen=True)
class Placement:
    """Where one label went: its offset from the anchor (points) and the text alignment."""

    where: str
    dx: float
    dy: float
    ha: str
    va: str
    box: Box
    anchor: Point


def box_of(anchor: Point, size: tuple[float, float], dx: float, dy: float, ha: str, va: str) -> Box:
    """The box of a text of ``size`` (width, height) placed at ``anchor + (dx, dy)`` with this alignment."""
    w, h = size
    x = anchor[0] + dx
    y = anchor[1] + dy
    x0 = {"left": x, "center": x - w / 2, "right": x - w}[ha]
    y0 = {"bottom": y, "center": y - h / 2, "top": y - h}[va]
    return (x0, y0, x0 + w, y0 + h)


def _clip_length(p: Point, q: Point, b: Box) -> float:
    """Length of the part of segment ``pq`` inside box ``b`` (Liang–Barsky)."""
    (x0, y0), (x1, y1) = p, q
    dx, dy = x1 - x0, y1 - y0
    t0, t1 = 0.0, 1.0
    for pk, qk in ((-dx, x0 - b[0]), (dx, b[2] - x0), (-dy, y0 - b[1]), (dy, b[3] - y0)):
        if pk == 0:
            if qk < 0:
                return 0.0
            continue
        t = qk / pk
        if pk < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 > t1:
            return 0.0
    return float((t1 - t0) * (dx * dx + dy * dy) ** 0.5)


def _overlap(a: Box, b: Box) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def _disc_hits(c: Point, r: float, b: Box) -> bool:
    nx = min(max(c[0], b[0]), b[2])
    ny = min(max(c[1], b[1]), b[3])
    return (c[0] - nx) ** 2 + (c[1] - ny) ** 2 < r * r


def _distance(p: Point, b: Box) -> float:
    nx = min(max(p[0], b[0]), b[2])
    ny = min(max(p[1], b[1]), b[3])
    return float(((p[0] - nx) ** 2 + (p[1] - ny) ** 2) ** 0.5)


def _outside(b: Box, bounds: Box) -> float:
    return (max(0.0, bounds[0] - b[0]) + max(0.0, b[2] - bounds[2])
            + max(0.0, bounds[1] - b[1]) + max(0.0, b[3] - bounds[3]))


def bezier_points(p: Point, q: Point, rad: float, n: int = 8) -> list[Point]:
    """Points along the arc matplotlib draws for ``connectionstyle="arc3,rad=…"`` from ``p`` to ``q``."""
    if rad == 0.0:
        return [p, q]
    cx = (p[0] + q[0]) / 2 + rad * (q[1] - p[1])
    cy = (p[1] + q[1]) / 2 - rad * (q[0] - p[0])
    out = []
    for k in range(n + 1):
        t = k / n
        a, b, c = (1 - t) ** 2, 2 * (1 - t) * t, t * t
        out.append((a * p[0] + b * cx + c * q[0], a * p[1] + b * cy + c * q[1]))
    return out


def place_labels(
    anchors: Sequence[Point],
    sizes: Sequence[tuple[float, float]],
    *,
    gap: float | Sequence[float],
    segments: Sequence[tuple[Point, Point]] = (),
    discs: Sequence[tuple[Point, float]] = (),
    bounds: Box,
    order: Sequence[str] = tuple(POSITIONS),
    orders: Sequence[Sequence[str] | None] = (),
    alternates: Sequence[Sequence[Point]] = (),
    fixed: Sequence[Box] = (),
) -> list[Placement]:
    """A position for each label, chosen greedily in the order given.

    Each label tries the positions of ``order`` at distance ``gap`` from its
    anchor, then at 2.2 times that distance (a little further out, when every
    near position is taken).
    ``anchors`` and ``sizes`` (width, height) are in points; ``gap`` is the
    distance from the anchor to the text (one for all, or one per label);
    ``segments`` are the drawn edges, ``discs`` the nodes (centre, radius),
    ``bounds`` the axes, ``fixed`` boxes already taken (a legend, a title).
    ``orders`` may give a label its own order of preference (``None``: ``order``);
    ``alternates`` other anchors a label may move to (along its edge), tried
    after its own anchor.
    A position costs, in this order of weight: covering a node or another
    label, sitting nearer another node than its own anchor, the length of
    edge it covers, leaving the bounds, and its rank in ``order``.
    """
    gaps = [float(gap)] * len(anchors) if isinstance(gap, int | float) else [float(g) for g in gap]
    taken: list[Box] = list(fixed)
    out: list[Placement] = []
    own = list(orders) + [None] * (len(anchors) - len(orders))
    more = list(alternates) + [()] * (len(anchors) - len(alternates))
    lines = [(p, q, (min(p[0], q[0]), min(p[1], q[1]), max(p[0], q[0]), max(p[1], q[1]))) for p, q in segments]
    for first, size, g, mine, others in zip(anchors, sizes, gaps, own, more):
        tried = sorted(
            ((0.01 * rank + 5.0 * shift + 8.0 * (far > 1), far, a, where)
             for far in (1.0, 2.2) for shift, a in enumerate([first, *others])
             for rank, where in enumerate(mine or order)), key=lambda t: t[0])
        best: tuple[float, Placement] | None = None
        for base, far, a, where in tried:
            if best is not None and base >= best[0]:
                break  # every later position costs at least this much: the best stays
            ux, uy, ha, va = POSITIONS[where]
            dx, dy = ux * g * far, uy * g * far
            b = box_of(a, size, dx, dy, ha, va)
            cost = base + 10.0 * _outside(b, bounds)
            cost += sum(1000.0 + _overlap(b, t) for t in taken if _overlap(b, t) > 0)
            cost += sum(400.0 for c, r in discs if _disc_hits(c, r, b))
            if best is not None and cost >= best[0]:
                continue
            near = _distance(first, b)  # a label nearer another node than its own would be read as that node's
            cost += sum(60.0 for c, _r in discs if c != first and _distance(c, b) < near + 2.0)
            for p, q, box in lines:
                if _overlap(box, b) > 0 or box[0] == box[2] or box[1] == box[3]:
                    x = _clip_length(p, q, b)
                    if x > 0:
                        cost += 20.0 + 2.0 * x
            if best is None or cost < best[0]:
                best = (cost, Placement(where, dx, dy, ha, va, b, a))
        assert best is not None
        out.append(best[1])
        taken.append(best[1].box)
    return out
