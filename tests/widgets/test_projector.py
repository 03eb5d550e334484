"""Projector mode: at a 1024×768 screen every figure fits its width unscaled, and node labels are
at least the size of the explorer's body text — at the normal size and at the projector's.  At the
lecture hall's size (a 1080p projector) every text of every figure is at least 32 px, figures may use
the whole 1920-pixel width, and the ancestry explorer draws before and after side by side.

Read off the SVG itself: the size it is shown at (``width`` in points × 4/3 CSS pixels) and the
font size of the node labels in its own units, scaled the same way.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

pytest.importorskip("ipywidgets")
matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")

from explorer_helpers import buttons, message, walk

from coalg.viz import LABEL_SIZE
from coalg.widgets import (
    SCALES,
    AncestryExplorer,
    BitemporalStepper,
    DerivationPlayground,
    MergeLab,
    RefinementStepper,
    TenantsLab,
)

BODY_PX = 13.0  # ipywidgets' text at the normal size; the projector's CSS multiplies it
SCREEN_PX = 1024 - 2 * 20  # Voila's page margins
WIDE_SCREEN_PX = 1920 - 2 * 20 - 16  # and a scroll bar
HALL_PX = 32.0  # the smallest text that reads from the back of a large classroom

MAKERS = {"playground": DerivationPlayground, "ancestry": AncestryExplorer, "bitemporal": BitemporalStepper,
          "merge": MergeLab, "tenants": TenantsLab, "refinement": RefinementStepper}


def _figures(ex: Any) -> list[bytes]:
    import ipywidgets as w

    return [bytes(x.value) for x in walk(ex.widget) if isinstance(x, w.Image) and x.value]


def _label_px(svg: bytes) -> tuple[float, float, list[float]]:
    """(shown width px, shown height px, shown size in px of every text set at the label size)."""
    head = re.search(rb'width="([0-9.]+)pt" height="([0-9.]+)pt" viewBox="0 0 ([0-9.]+) ([0-9.]+)"', svg)
    assert head is not None
    width_pt, height_pt, box_w = float(head.group(1)), float(head.group(2)), float(head.group(3))
    per_unit = width_pt / box_w * 4 / 3
    sizes = [float(m) * per_unit for m in re.findall(rb"font-size: ([0-9.]+)px", svg)
             if float(m) == LABEL_SIZE]
    return width_pt * 4 / 3, height_pt * 4 / 3, sizes


@pytest.mark.parametrize("kind", sorted(MAKERS))
@pytest.mark.parametrize("size", sorted(SCALES))
def test_figures_fit_the_screen_and_labels_are_body_text_size(kind: str, size: str) -> None:
    scale = SCALES[size]
    ex = MAKERS[kind](scale=scale)
    figures = _figures(ex)
    assert figures
    labelled = 0
    screen = WIDE_SCREEN_PX if size == "lecture hall" else SCREEN_PX
    for svg in figures:
        width, _height, labels = _label_px(svg)
        assert width <= screen, f"{kind}: a figure {width:.0f} px wide would be shrunk on a {screen} px screen"
        if labels:
            labelled += 1
            assert min(labels) >= BODY_PX * scale, (kind, size, min(labels))
    assert labelled, f"{kind}: no figure has node labels"


def test_the_size_control_scales_text_controls_and_figures() -> None:
    pg = DerivationPlayground()
    pg.widget  # noqa: B018
    ui = pg._ui
    normal = _label_px(bytes(ui["graph"].value))
    ui["size"].value = SCALES["projector"]
    assert pg.scale == 1.6 and "coalg-scale-160" in ui["root"]._dom_classes
    assert "--jp-widgets-font-size:20.8px" in ui["style"].value
    projected = _label_px(bytes(ui["graph"].value))
    assert min(projected[2]) == pytest.approx(1.6 * min(normal[2]), rel=0.01)
    assert projected[0] >= normal[0]  # the figure takes more of the width, never less
    assert not pg.set_scale(7) and "from 0.5 to 3" in message(pg) and pg.scale == 1.6
    assert not pg.set_scale("big") and pg.scale == 1.6
    assert DerivationPlayground(scale=1.3).scale == 1.3
    with pytest.raises(ValueError, match="scale"):
        DerivationPlayground(scale=0)


def test_the_projector_layout_puts_the_law_panel_right_under_the_buttons() -> None:
    pg = DerivationPlayground(scale=1.6)
    rows = list(pg.widget.children[1].children)
    ops = set(buttons(rows[0]))
    assert {"evolve", "merge", "undo"} <= ops
    assert rows[1] is pg._ui["message"] and rows[2] is pg._ui["laws"] and rows[3].children[0] is pg._ui["ids"]


def _per_unit(svg: bytes) -> float:
    """CSS pixels shown per unit of the SVG's own coordinates."""
    head = re.search(rb'width="([0-9.]+)pt" height="([0-9.]+)pt" viewBox="0 0 ([0-9.]+) ([0-9.]+)"', svg)
    assert head is not None
    return float(head.group(1)) / float(head.group(3)) * 4 / 3


def _text_px(svg: bytes) -> list[float]:
    """The size every text of an SVG figure is shown at, in CSS pixels."""
    found = re.findall(rb'<text style="[^"]*?font-size: ([0-9.]+)px', svg)
    assert len(found) == svg.count(b"<text "), "a text whose size this test cannot read"
    return [float(f) * _per_unit(svg) for f in found]


def _placed(svg: bytes) -> list[tuple[str, float, float]]:
    """(text, x px, y px) of the one-line texts placed at a point (panel names among them)."""
    found = re.findall(rb'<text style="[^"]*" x="([0-9.-]+)" y="([0-9.-]+)"[^>]*>([^<]*)</text>', svg)
    return [(t.decode(), float(x) * _per_unit(svg), float(y) * _per_unit(svg)) for x, y, t in found]


@pytest.mark.parametrize("kind", sorted(MAKERS))
def test_at_the_lecture_hall_size_every_figure_text_is_at_least_32_px(kind: str) -> None:
    ex = MAKERS[kind](scale=SCALES["lecture hall"])
    sizes = [px for svg in _figures(ex) for px in _text_px(svg)]
    assert sizes and min(sizes) >= HALL_PX, (kind, min(sizes))
    normal = [px for svg in _figures(MAKERS[kind]()) for px in _text_px(svg)]
    assert min(normal) < HALL_PX  # the normal size stays as it was
    widest = max(_label_px(svg)[0] for svg in _figures(ex))
    if kind == "playground":  # the graph takes half the width, the law panel the other half
        assert WIDE_SCREEN_PX / 2 - 20 <= widest <= WIDE_SCREEN_PX / 2 + 50, widest
    else:
        assert SCREEN_PX < widest <= WIDE_SCREEN_PX or kind == "ancestry", (kind, widest)  # it uses the width


def _pairs(ex: AncestryExplorer) -> dict[str, tuple[tuple[float, float], tuple[float, float]]]:
    texts = _placed(ex.figure_svg())
    out = {}
    for tree in ("ancestry", "descendants"):
        before = [(x, y) for t, x, y in texts if t == f"{tree} of {ex.focus}, before"]
        after = [(x, y) for t, x, y in texts if t == f"{tree} of {ex.focus}, after"]
        assert len(before) == len(after) == 1, texts
        out[tree] = (before[0], after[0])
    return out


def _side_by_side(pair: tuple[tuple[float, float], tuple[float, float]]) -> bool:
    (xb, yb), (xa, ya) = pair
    return yb == pytest.approx(ya) and xb < xa


@pytest.mark.parametrize("size", ["normal", "lecture hall"])
def test_the_ancestry_explorer_draws_before_and_after_side_by_side(size: str) -> None:
    """(At the sizes between, two trees side by side may not fit a 1024 px screen: they go one under
    the other.)"""
    ex = AncestryExplorer(scale=SCALES[size])
    assert all(_side_by_side(p) for p in _pairs(ex).values())


def test_at_the_lecture_hall_size_a_pair_too_wide_goes_one_under_the_other_and_the_other_stays() -> None:
    ex = AncestryExplorer(scale=SCALES["lecture hall"])
    for _ in range(3):  # every evolve adds a branch under the focus: its descendants grow wide
        assert ex.evolve("the revised text")
    pairs = _pairs(ex)
    assert _side_by_side(pairs["ancestry"])
    (_xb, yb), (_xa, ya) = pairs["descendants"]
    assert not _side_by_side(pairs["descendants"]) and yb < ya
    width, _height, _labels = _label_px(ex.figure_svg())
    assert width <= WIDE_SCREEN_PX


HALL_FIGURE_PX = 1000 - 155  # a 1080p screen's visible height, less the line above the figure


@pytest.mark.parametrize("kind", sorted(MAKERS))
def test_at_the_lecture_hall_size_figures_are_wide_not_tall(kind: str) -> None:
    """Every figure is at most one screen high less its line; the main view's parts stand next to
    each other at the lecture hall's size, and the rows come back as built at the normal size."""
    ex = MAKERS[kind](scale=SCALES["lecture hall"])
    for svg in _figures(ex):
        width, height, _labels = _label_px(svg)
        assert height <= HALL_FIGURE_PX < width, (kind, width, height)
    rows = list(ex.widget.children[1].children)
    main = [k for k, r in enumerate(rows) if "coalg-main" in getattr(r, "_dom_classes", ())
            or any("coalg-main" in getattr(c, "_dom_classes", ()) for c in walk(r))]
    assert main and main == list(range(main[0], main[0] + len(main))), (kind, main)  # no row between
    built = list(ex._ui["built"])
    ex.set_scale(SCALES["normal"])
    assert list(ex.widget.children[1].children) == built


CLAIMS = {"merge": ("merge(id0001, id0002)", "→ id0006"), "tenants": ("2 tenants", "union of 8 records")}
"""What the merge and tenants labs say on opening, the line their main view starts with."""


@pytest.mark.parametrize("kind", sorted(MAKERS))
def test_a_size_change_keeps_what_the_explorer_was_saying(kind: str) -> None:
    """The size control changes the size, never the message line: the claim above the figure stays,
    through every size and back; a refused size says why, and the next size brings the claim back."""
    ex = MAKERS[kind]()
    ui = ex._ui if ex.widget is not None else None
    assert ui is not None
    said, shown = ex.message, message(ex)
    assert said and all(part in shown for part in CLAIMS.get(kind, ())), shown
    for size in ("lecture hall", "projector", "large", "normal", "lecture hall"):
        ui["size"].value = SCALES[size]  # as the reader does it: a click on the size control
        assert ex.scale == SCALES[size]
        assert (ex.message, message(ex)) == (said, shown), (kind, size, message(ex))
        assert ui["size"].description == "size"  # a named size: its button shows it
    assert not ex.set_scale(7) and "from 0.5 to 3" in message(ex) and ex.message_is_error
    assert not ex.set_scale("big") and "'big'" in message(ex)
    assert ex.set_scale(2.2) and (ex.message, message(ex)) == (said, shown) and not ex.message_is_error
    assert ui["size"].value is None and ui["size"].description == "size ×2.2"  # no button names it


def test_at_the_lecture_hall_size_the_law_panel_stands_beside_the_graph() -> None:
    """After a step the law panel is several hundred pixels tall: at the lecture hall's size it
    shares a row with the graph (half the screen each) under the message line, so that the call's
    line, its laws and its store are one screen high; at the other sizes the rows stay as built."""
    pg = DerivationPlayground(scale=SCALES["lecture hall"])
    pg.widget  # noqa: B018
    pg.select(ids=["id0005"])
    assert pg.apply_selection("evolve") and "failed" in pg._ui["laws"].value
    rows = list(pg.widget.children[1].children)
    k = rows.index(pg._ui["message"])
    inside = list(walk(rows[k + 1]))
    assert pg._ui["laws"] in inside and pg._ui["graph"] in inside, rows[k + 1]
    assert pg._ui["graph"] not in rows and pg._ui["laws"] not in rows
    width, height, _labels = _label_px(bytes(pg._ui["graph"].value))
    assert width <= WIDE_SCREEN_PX / 2 and height <= HALL_FIGURE_PX, (width, height)
    assert "made or changed by the last step" in bytes(pg._ui["graph"].value).decode()  # its legend
    pg.set_scale(SCALES["projector"])
    rows = list(pg.widget.children[1].children)
    assert rows[1] is pg._ui["message"] and rows[2] is pg._ui["laws"] and pg._ui["graph"] in rows
