"""Kernel-free tours (coalg.widgets.tour, coalg.widgets.tours), headlessly.

The tour widget: as many frames as given, a slider over exactly their indices,
the slider linked in the browser (``jslink``, present in the saved widget
state) to the frames and to the readout, and a clear error for bad frames.
Each explorer's tour: recorded through the explorer's own actions, so its
frames say what the explorer says (a test below checks the paper's results
where they appear), the same bytes on every run.  The browser half (the
slider moves the frame on the built page) is in tests/book/test_book_build.py.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ipywidgets = pytest.importorskip("ipywidgets")
matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")

from ipywidgets.embed import embed_data

from coalg.widgets import (
    TOURS,
    AncestryExplorer,
    BitemporalStepper,
    Tour,
    TourFrame,
    bitemporal_tour,
    tour_widget,
)
from coalg.widgets.tour import MAX_FRAMES

ROOT = Path(__file__).resolve().parents[2]
SVG = AncestryExplorer().figure_svg()


def _frames(n: int) -> list[TourFrame]:
    return [TourFrame(f"state {k}", f"<p>text <b>{k}</b></p>", SVG if k % 2 else b"") for k in range(n)]


# =========================================================================== the widget


@pytest.mark.parametrize("n", [1, 2, 7])
def test_one_frame_per_state_and_a_slider_over_exactly_them(n: int) -> None:
    t = Tour(_frames(n), title="a tour")
    assert len(t) == n
    assert len(t.frames_tab.children) == n and len(t.readout.children) == n
    assert (t.slider.min, t.slider.max, t.slider.step, t.slider.value) == (0, n - 1, 1, 0)
    assert t.frames_tab.selected_index == 0 and t.readout.selected_index == 0
    assert "coalg-tour" in t.widget._dom_classes
    assert t.widget.children[1].children == (t.slider, t.readout)
    assert t.widget.children[2] is t.frames_tab
    readouts = [c.value for c in t.readout.children]
    assert readouts == [f"<b>step {k + 1} of {n}</b>" for k in range(n)]
    for k, box in enumerate(t.frames_tab.children):
        texts = " ".join(c.value for c in box.children if isinstance(c, ipywidgets.HTML))
        assert f"step {k + 1} of {n}: state {k}" in texts and f"<b>{k}</b>" in texts
        images = [c for c in box.children if isinstance(c, ipywidgets.Image)]
        assert [i.value for i in images] == ([SVG] if k % 2 else [])
        assert all(i.format == "svg+xml" and i.layout.max_width == "100%" for i in images)


def test_the_slider_is_linked_in_the_browser_to_the_frames_and_the_readout() -> None:
    t = Tour(_frames(3))
    pairs = {(link.source[0].model_id, link.source[1], link.target[0].model_id, link.target[1])
             for link in t.links}
    assert pairs == {(t.slider.model_id, "value", t.frames_tab.model_id, "selected_index"),
                     (t.slider.model_id, "value", t.readout.model_id, "selected_index")}
    assert all(type(link).__name__ == "Link" for link in t.links)  # jslink, not a Python observer
    # The links are in the state a static page embeds, pointing at the slider and the frames.
    state = embed_data(views=[t.widget])["manager_state"]["state"]
    links = [s["state"] for s in state.values() if s["model_name"] == "LinkModel"
             and s["state"]["source"][0] == f"IPY_MODEL_{t.slider.model_id}"]
    assert len(links) == 2 and all(ln["source"][1] == "value" for ln in links)
    assert all(ln["target"][1] == "selected_index" for ln in links)
    assert {ln["source"][0] for ln in links} == {f"IPY_MODEL_{t.slider.model_id}"}
    assert {ln["target"][0] for ln in links} == {f"IPY_MODEL_{t.frames_tab.model_id}",
                                                 f"IPY_MODEL_{t.readout.model_id}"}


def test_tour_widget_is_the_tour_without_the_wrapper() -> None:
    box = tour_widget(_frames(2), title="x")
    assert "coalg-tour" in box._dom_classes and isinstance(box, ipywidgets.VBox)
    assert not hasattr(box, "_coalg_tour")  # the tour's state is kept by the Tour, not put on a widget
    slider = box.children[1].children[0]
    pages = box.children[2]
    assert slider.max == 1 and len(pages.children) == 2
    # stacks: no tab bar to hide, or to show empty above the tour
    assert all(isinstance(x, ipywidgets.Stack) for x in (pages, box.children[1].children[1]))


@pytest.mark.parametrize(("frames", "error", "words"), [
    ([], ValueError, "at least one frame"),
    ("not frames", TypeError, "list of TourFrame"),
    (TourFrame("one"), TypeError, "list of TourFrame"),
    (None, TypeError, "list of TourFrame"),
    ([TourFrame("ok"), {"title": "x"}], TypeError, "frame 1 is a dict"),
    ([TourFrame("ok"), TourFrame("  ")], ValueError, "frame 1 has no title"),
    ([TourFrame("ok", html=b"<b>")], TypeError, "frame 0: html must be text"),  # type: ignore[arg-type]
    ([TourFrame("ok", svg="<svg/>")], TypeError, "frame 0: svg must be bytes"),  # type: ignore[arg-type]
    ([TourFrame("ok", svg=b"\x89PNG")], ValueError, "frame 0: svg is not an SVG"),
    ([TourFrame(f"f{k}") for k in range(MAX_FRAMES + 1)], ValueError, f"at most {MAX_FRAMES} frames"),
])
def test_bad_frames_get_a_clear_error_before_any_widget(frames: Any, error: type, words: str) -> None:
    with pytest.raises(error, match=re.escape(words)):
        Tour(frames)
    with pytest.raises(error, match=re.escape(words)):
        tour_widget(frames)


def test_printed_form_is_every_frame_in_order_as_plain_markdown() -> None:
    frames = [TourFrame("start", "<div>a <b>bold</b> word</div><ul><li>x &amp; y</li></ul>"
                                 "<details><summary>data</summary>folded away</details>"
                                 "<table><tr><td>cell</td><td>next</td></tr></table>"),
              TourFrame("then $x$ and *y*", "a_b [link](z) `code`")]
    t = Tour(frames, title="T")
    md = t.markdown()
    assert md.index("step 1 of 2\\: start") < md.index("step 2 of 2\\: then")
    assert "<" not in md and "&amp;" not in md
    assert "a bold word" in md and "x \\& y" in md and "cell next" in md
    assert "folded away" not in md and "data" not in md  # what the page folds, the print leaves out
    assert "\\$x\\$" in md and "\\*y\\*" in md and "a\\_b \\[link\\]\\(z\\) \\`code\\`" in md
    bundle = t._repr_mimebundle_()
    assert bundle["text/markdown"] == md
    assert bundle["text/plain"] == "<a recorded tour of 2 steps: T>"
    assert bundle["application/vnd.jupyter.widget-view+json"]["model_id"] == t.widget.model_id


# =========================================================================== the explorers' tours


def _texts(t: Tour) -> list[str]:
    return [" ".join(c.value for c in box.children if isinstance(c, ipywidgets.HTML))
            for box in t.frames_tab.children]


def test_every_explorer_has_a_tour_of_small_distinct_frames() -> None:
    assert sorted(TOURS) == ["ancestry", "bitemporal", "merge", "playground", "refinement", "tenants"]
    for kind, make in TOURS.items():
        t = make()
        assert 3 <= len(t) <= 20, kind
        assert all(f.svg.startswith(b"<?xml") for f in t.frames), f"{kind}: a frame without its figure"
        assert len({(f.html, f.svg) for f in t.frames}) == len(t), f"{kind}: two frames are the same"
        size = sum(len(f.svg) + len(f.html) for f in t.frames)
        assert size < 400_000, f"{kind}: {size} bytes of frames is too heavy for a page"


def test_tours_are_the_same_bytes_on_every_run() -> None:
    for kind, make in TOURS.items():
        assert make().frames == make().frames, kind


_DIGEST = """
import hashlib, matplotlib
matplotlib.use("Agg")
from coalg.widgets import TOURS
h = hashlib.sha256()
for make in TOURS.values():
    t = make()
    h.update(t.markdown().encode())
    for f in t.frames:
        h.update(f.title.encode() + f.html.encode() + f.svg)
print(h.hexdigest())
"""


def test_tours_are_the_same_bytes_under_any_hash_seed() -> None:
    digests = set()
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(ROOT)}
        out = subprocess.run([sys.executable, "-c", _DIGEST], env=env, capture_output=True, text=True,
                             check=True, timeout=300)
        digests.add(out.stdout.strip())
    assert len(digests) == 1, digests


def test_bitemporal_tour_is_theorem_5_27_then_proposition_7_1_step_by_step() -> None:
    t = bitemporal_tour()
    n527 = len(BitemporalStepper().frames)
    n71 = len(BitemporalStepper(realisation="repaired").frames)
    assert len(t) == n527 + n71
    assert all(f.title.startswith("Theorem 5.27 on contextfs") for f in t.frames[:n527])
    assert all(f.title.startswith("Proposition 7.1 on repaired") for f in t.frames[n527:])
    texts = _texts(t)
    assert "nothing is recorded yet" in texts[0] and "<b style='color:#" not in texts[0]
    assert ">equal</b>" in texts[n527 - 1] and ">different</b>" in texts[-1]


def test_ancestry_tour_derives_then_deletes_an_ancestor() -> None:
    texts = _texts(TOURS["ancestry"]())
    assert "No step yet" in texts[0]
    assert "<b>unchanged</b>, as Theorem 5.7 says" in texts[1] and "Proposition 5.13" in texts[1]
    assert "changed</b>: it lost the record(s) id0001" in texts[-1] and "— Proposition 5.2" in texts[-1]


def test_refinement_tour_reaches_the_stable_partition_then_compares() -> None:
    t = TOURS["refinement"]()
    titles = [f.title for f in t.frames]
    rounds = [x for x in titles if x.startswith("round ")]
    assert rounds[0] == f"round 0 of {len(rounds) - 1}"
    texts = _texts(t)
    assert "stable: this is bisimilarity" in texts[len(rounds) - 1]
    assert "s ≈ t" in texts[len(rounds)] and "Proposition 5.25" in texts[len(rounds) + 1]


def test_merge_tour_shows_the_type_follow_theta() -> None:
    texts = _texts(TOURS["merge"]())
    assert "type <b>decision</b>" in texts[1] or "decision" in texts[1]
    assert "fact" in texts[2]
    types = [re.search(r"type <b>(\w+)</b>", x) for x in texts[1:4]]
    assert [m.group(1) for m in types if m] == ["decision", "fact", "fact"]


def test_tenants_tour_refuses_then_repairs() -> None:
    texts = _texts(TOURS["tenants"]())
    assert ">undefined</b>" in texts[0]
    assert "Proposition 6.6" in texts[1] and "is undefined" in texts[1]
    assert ">defined</b> — after dropping the cross-tenant edges" in texts[2]


def test_playground_tour_l2_fails_on_contextfs_and_holds_repaired() -> None:
    texts = _texts(TOURS["playground"]())
    assert "Failed on this step: L2." in texts[1]
    assert "later calls run on repaired" in texts[2]
    assert "No clause failed on this step." in texts[3]


# =========================================================================== the notebooks


def test_each_explorer_notebook_shows_its_tour_above_the_live_explorer() -> None:
    for kind, make in TOURS.items():
        nb = json.loads((ROOT / "notebooks" / f"explore-{kind}.ipynb").read_text(encoding="utf-8"))
        cells = nb["cells"]
        code = ["".join(c["source"]) for c in cells if c["cell_type"] == "code"]
        assert len(code) == 2 and code[0].endswith(f"\n{make.__name__}()"), kind
        first_code = next(k for k, c in enumerate(cells) if c["cell_type"] == "code")
        note = "".join(cells[first_code - 1]["source"])
        assert "recorded" in note and "no Python" in note, kind
        live = "".join(cells[first_code + 1]["source"])
        assert "`make lab`" in live and "JupyterLab" in live and "`make explorers`" in live and "Voila" in live


def test_a_live_explorer_prints_a_sentence_where_widgets_cannot_show() -> None:
    from IPython.core.formatters import DisplayFormatter

    explorer = AncestryExplorer()
    data, _meta = DisplayFormatter().format(explorer)
    assert data["application/vnd.jupyter.widget-view+json"]["model_id"] == explorer.widget.model_id
    assert data["text/plain"] == f"<AncestryExplorer: {explorer.message}>"
    assert "`make lab`" in data["text/markdown"] and "`make explorers`" in data["text/markdown"]
    tour = TOURS["ancestry"]()
    data, _meta = DisplayFormatter().format(tour)
    assert data["text/markdown"] == tour.markdown() and "application/vnd.jupyter.widget-view+json" in data
