"""Labels that read: off the edges, off each other, at least body-text size (coalg.viz, Agg backend).

Checked on the rendered figure itself — the text boxes matplotlib draws and the edge paths in
display coordinates — for the book's figures that had a label crossed by an edge (the
descendant trees of §3.4) or overlapping labels (the tenants' union of §6), and for every
preset store and a 30-record store.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")

import matplotlib.pyplot as plt
from matplotlib.lines import Line2D

from coalg.bitemporal import believed, meeting_example, recording
from coalg.composition import tenants
from coalg.model import (
    Delete,
    Evolve,
    ancestry,
    descendants,
    get_realisation,
    names,
    preset,
    run,
    sized_store,
)
from coalg.viz import (
    GHOST,
    LABEL_SIZE,
    place_labels,
    plot_bitemporal_plane,
    plot_store,
    plot_unfoldings,
)
from coalg.viz.plane import plane_limits


@pytest.fixture(autouse=True)
def _close_figures() -> None:
    yield
    plt.close("all")


def _boxes(ax: Any, renderer: Any) -> list[tuple[str, Any]]:
    return [(t.get_text(), t.get_window_extent(renderer)) for t in ax.texts if t.get_text().strip()]


def _segments(ax: Any) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    out = []
    for p in ax.patches:
        if str(p.get_label()).startswith("_edge ") and hasattr(p, "_get_path_in_displaycoord"):
            paths, _fill = p._get_path_in_displaycoord()
            pts = paths[0].to_polygons(closed_only=False)[0] if paths else []
            out += list(itertools.pairwise(map(tuple, pts[: max(2, len(pts) // 2 + 1)])))  # the shaft
    for line in ax.lines:
        if str(line.get_label()).startswith("_edge ") and isinstance(line, Line2D):
            pts = ax.transData.transform(line.get_xydata())
            out += list(itertools.pairwise(map(tuple, pts)))
    return out


def _crosses(seg: tuple[tuple[float, float], tuple[float, float]], box: Any, inset: float = 1.5) -> bool:
    (x0, y0), (x1, y1) = seg
    for k in range(21):
        t = k / 20
        x, y = x0 + (x1 - x0) * t, y0 + (y1 - y0) * t
        if box.x0 + inset < x < box.x1 - inset and box.y0 + inset < y < box.y1 - inset:
            return True
    return False


def _check(axes: list[Any]) -> None:
    fig = axes[0].figure
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    for ax in axes:
        boxes = [(t, b) for t, b in _boxes(ax, renderer) if not t.startswith(("round ", "before", "after"))]
        for (ta, a), (tb, b) in itertools.combinations(boxes, 2):
            assert not a.overlaps(b.shrunk(0.9, 0.9)) or not b.overlaps(a.shrunk(0.9, 0.9)), \
                f"labels {ta!r} and {tb!r} overlap"
        for text, box in boxes:
            for seg in _segments(ax):
                assert not _crosses(seg, box), f"an edge runs through the label {text!r}"


STORES = {name: preset(name) for name in names()} | {
    "30 records": sized_store(30),
    "tenants' union (Fig 6.3)": tenants(2, 4, seed=1, id_style="uuid", prefix_collisions=1, dangling_edges=1)[1],
    "three tenants": tenants(3, 4, seed=2, id_style="uuid", prefix_collisions=1, dangling_edges=1)[1],
}


@pytest.mark.parametrize("name", sorted(STORES))
def test_store_graph_labels_are_off_edges_and_each_other(name: str) -> None:
    _check([plot_store(STORES[name])])


def test_store_graph_labels_with_contents() -> None:
    _check([plot_store(preset("merge tie"), labels="both")])
    _check([plot_store(preset("meeting notes"), labels="both", highlight=["id0005"])])


@pytest.mark.parametrize("which", ["descendants (Fig 3.3)", "ancestry after a delete", "lineage"])
def test_unfolding_labels_are_off_edges_and_each_other(which: str) -> None:
    s = preset("meeting notes")
    if which.startswith("descendants"):
        pair = descendants(s, "id0001"), descendants(run(s, [Evolve("id0005", "merged, revised")]).final, "id0001")
    elif which.startswith("ancestry"):
        pair = ancestry(s, "id0005"), ancestry(run(s, [Delete("id0004")]).final, "id0005")
    else:
        t = preset("lineage")
        pair = ancestry(t, max(t.dom())), descendants(t, min(t.dom()))
    _check(list(plot_unfoldings(*pair)))


def test_node_labels_are_body_text_size() -> None:
    ax = plot_store(preset("meeting notes"))
    sizes = {t.get_fontsize() for t in ax.texts if t.get_text() in preset("meeting notes").ids()}
    assert sizes == {LABEL_SIZE} and LABEL_SIZE * 96 / 72 >= 14  # 14 px: body text of the explorers' pages


def test_a_deleted_record_is_a_ghost_for_one_step() -> None:
    s = preset("meeting notes")
    after = run(s, [Delete("id0004")]).final
    ax = plot_store(after, ghosts=s)
    ghosts = [line for line in ax.lines if str(line.get_label()).startswith("_ghost ")]
    assert [str(g.get_label()) for g in ghosts] == ["_ghost id0004"]
    assert matplotlib.colors.to_hex(ghosts[0].get_markeredgecolor()) == GHOST.lower()
    assert "id0004 (deleted)" in [t.get_text() for t in ax.texts]
    assert "deleted by the last step" in [t.get_text() for t in ax.get_legend().get_texts()]
    assert not [line for line in plot_store(after).lines if str(line.get_label()).startswith("_ghost ")]


def test_the_legend_names_the_highlight_ring() -> None:
    ax = plot_store(preset("meeting notes"), highlight=["id0005"], highlight_label="made by the last step")
    assert "made by the last step" in [t.get_text() for t in ax.get_legend().get_texts()]
    assert "highlighted" not in [t.get_text() for t in plot_store(preset("meeting notes")).get_legend().get_texts()]


def test_planes_share_stable_axes_and_keep_the_answer_inside() -> None:
    h, h2 = meeting_example()
    real = get_realisation("repaired")
    stores = [recording(h, real).final, recording(h2, real).final]
    limits = plane_limits(stores, mode="current", times=[0, 9])
    fig, axes = plt.subplots(1, 2, figsize=(10, 4))
    extents = []
    for tt, tv in [(5, 3), (1, 9), (9, 0)]:
        for ax, s in zip(axes, stores):
            ax.clear()
            plot_bitemporal_plane(s, tt=tt, tv=tv, ax=ax, mode="current", limits=limits)
            extents.append((ax.get_xlim(), ax.get_ylim()))
        fig.canvas.draw()
        renderer = fig.canvas.get_renderer()
        for ax in axes:
            box = next(t for t in ax.texts if t.get_text().startswith("believed"))
            assert ax.get_window_extent(renderer).contains(*box.get_window_extent(renderer).p0)
            assert ax.get_window_extent(renderer).contains(*box.get_window_extent(renderer).p1)
    assert len(set(extents)) == 1


def test_plane_answer_outside_keeps_box_and_leader_off_the_plot() -> None:
    h, _ = meeting_example()
    s = recording(h, get_realisation("repaired")).final
    fig, ax = plt.subplots(figsize=(6, 4))
    plot_bitemporal_plane(s, tt=5, tv=3, ax=ax, mode="current", answer="outside")
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    frame = ax.get_window_extent(renderer)
    box = next(t for t in ax.texts if t.get_text().startswith("believed"))
    assert box.get_text() == "believed at (τt = 5, τv = 3):\n" + "\n".join(
        f"{i}: {r.content[:28]}" for i, r in believed(s, 5, 3, mode="current").items()
    )
    assert box.get_window_extent(renderer).x0 > frame.x1  # the box is right of the plot
    leader = box.arrow_patch
    assert leader is not None and leader.get_window_extent(renderer).x0 >= frame.x1 - 1.0
    # the leader starts at the query's transaction time on the right frame, where a triangle sits
    row = next(line for line in ax.lines if line.get_label() == "_query row")
    assert row.get_marker() == "<" and [float(v) for v in row.get_ydata()] == [5.0]
    assert row.get_transform() == ax.get_yaxis_transform() and list(row.get_xdata()) == [1.0]
    assert box.xy == (1.0, 5.0)
    with pytest.raises(ValueError, match="answer must be"):
        plot_bitemporal_plane(s, tt=5, tv=3, answer="below")  # type: ignore[arg-type]


def test_place_labels_prefers_the_first_free_position() -> None:
    # two nodes side by side: the second label cannot go where the first went
    a = place_labels([(50.0, 50.0), (80.0, 50.0)], [(40.0, 10.0), (40.0, 10.0)], gap=6.0,
                     bounds=(0.0, 0.0, 200.0, 200.0), order=("above", "below"))
    assert [p.where for p in a] == ["above", "below"]
