"""Figures and words that explain: nothing cut off, verdicts in sentences, every control explained.

* no text of any explorer's figure — axis labels, tick labels, node labels, legends — falls
  outside its figure, at the normal size and at the projector's;
* what the explorers write is sentences and tables: never raw JSON, never a literal ``\\n``;
* every control says in its tooltip what it does, and no label is cut short;
* the small things teachers asked for: "first step", a realisation switch back to step 1.
"""

from __future__ import annotations

import html
import re
from typing import Any

import pytest

pytest.importorskip("ipywidgets")
matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")

from explorer_helpers import Deliberate, buttons, walk
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from coalg.widgets import (
    AncestryExplorer,
    BitemporalStepper,
    DerivationPlayground,
    MergeLab,
    RefinementStepper,
    TenantsLab,
)


def _busy(kind: str, scale: float) -> Any:
    """An explorer after a few steps (so its figures show highlights, ghosts, witnesses)."""
    if kind == "playground":
        ex = DerivationPlayground(scale=scale)
        ex.apply("evolve", ["id0005"], "merged, revised")
        ex.apply("delete", ["id0004"])
    elif kind == "ancestry":
        ex = AncestryExplorer(focus="id0005", scale=scale)
        ex.evolve()
        ex.delete("id0001")
    elif kind == "bitemporal":
        ex = BitemporalStepper(realisation="repaired", scale=scale)
        ex.goto(4)
    elif kind == "merge":
        ex = MergeLab(scale=scale)
    elif kind == "tenants":
        ex = TenantsLab(n=3, records_per_tenant=4, seed=2, scale=scale)
    else:
        ex = RefinementStepper(scale=scale)
        ex.next_round()
    return ex


KINDS = ["playground", "ancestry", "bitemporal", "merge", "tenants", "refinement"]


@pytest.mark.parametrize("scale", [1.0, 1.6])
@pytest.mark.parametrize("kind", KINDS)
def test_no_text_falls_outside_its_figure(kind: str, scale: float, monkeypatch: pytest.MonkeyPatch) -> None:
    cut: list[str] = []
    real = Figure.savefig

    def check(fig: Figure, *args: Any, **kwargs: Any) -> Any:
        FigureCanvasAgg(fig).draw()  # lay out and measure with a raster renderer, then save as asked
        renderer = fig.canvas.get_renderer()
        w, h = fig.bbox.width, fig.bbox.height
        for t in fig.findobj(matplotlib.text.Text):
            if not t.get_visible() or not t.get_text().strip():
                continue
            box = t.get_window_extent(renderer)
            if box.x0 < -1 or box.y0 < -1 or box.x1 > w + 1 or box.y1 > h + 1:
                cut.append(f"{t.get_text()!r} at {box.bounds} in a {w:.0f}×{h:.0f} figure")
        return real(fig, *args, **kwargs)

    monkeypatch.setattr(Figure, "savefig", check)
    ex = _busy(kind, scale)
    ex.widget  # noqa: B018 — draws every figure
    assert not cut, f"{kind} at ×{scale}: " + "; ".join(cut[:5])


@pytest.mark.parametrize("kind", KINDS)
def test_what_the_explorers_write_is_sentences_not_json(kind: str) -> None:
    import ipywidgets as w

    ex = _busy(kind, 1.0)
    texts = [html.unescape(x.value) for x in walk(ex.widget) if isinstance(x, w.HTML) and "download" not in x.value
             and not x.value.startswith("<style>")]
    for t in texts:
        assert "\\n" not in t, t[:300]
        assert not re.search(r'\{\s*"[^"]+"\s*:', t), f"raw JSON in {t[:300]}"


@pytest.mark.parametrize("kind", KINDS)
def test_every_control_is_explained_and_no_label_is_cut(kind: str) -> None:
    import ipywidgets as w

    ex = _busy(kind, 1.0)
    for x in walk(ex.widget):
        if isinstance(x, w.ToggleButtons):
            assert all(x.tooltips) and len(x.tooltips) == len(x.options), x.description
        elif hasattr(x, "disabled") and not isinstance(x, w.Checkbox | w.FileUpload):
            assert x.tooltip, f"{kind}: {type(x).__name__} {x.description!r} has no tooltip"
        if getattr(x, "description", "") and not isinstance(x, w.Button | w.Checkbox | w.FileUpload):
            assert x.style.description_width == "initial", f"{kind}: {x.description!r} may be cut short"
        if isinstance(x, w.SelectMultiple):
            assert "order of this list" in x.tooltip  # the argument order follows the list, and says so
        if isinstance(x, w.IntSlider):
            assert x.readout is False  # a typed readout would be clamped silently; the value is shown beside


def test_bitemporal_first_step_and_realisation_switch_return_to_step_one() -> None:
    bs = BitemporalStepper()
    bs.clock = Deliberate()
    b = buttons(bs.widget)
    assert b["« first step"].disabled and b["◀ back"].disabled  # nothing before step 1
    bs.goto(4)
    b["« first step"].click()
    assert bs.index == 0
    bs.goto(3)
    bs._ui["realisation"].value = "repaired"
    assert bs.index == 0 and bs.state["proof"] == "7.1" and "from step 1" in bs.message
