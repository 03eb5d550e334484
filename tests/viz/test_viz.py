"""The plot functions of coalg.viz on small inputs (Agg backend): what the axes contain, and house style."""

from __future__ import annotations

import random

import pytest

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")

import matplotlib.pyplot as plt
from matplotlib.patches import Rectangle

from coalg.bitemporal import belief_regions, believed, meeting_example, random_history, record
from coalg.composition import collision_threshold
from coalg.model import REPAIRED, Record, Relation
from coalg.model.store import EMPTY, Store
from coalg.viz import (
    PALETTE,
    colour_map,
    derivation_kind,
    plot_bitemporal_plane,
    plot_prefix_collision,
)


@pytest.fixture(autouse=True)
def _close_figures() -> None:
    yield
    plt.close("all")


def _rectangles(ax: plt.Axes) -> list[Rectangle]:
    return [p for p in ax.patches if isinstance(p, Rectangle)]


def test_plane_one_patch_per_region_and_house_style() -> None:
    _, h2 = meeting_example()
    s = record(h2, REPAIRED)
    for mode in ("asserted", "current"):
        ax = plot_bitemporal_plane(s, mode=mode)
        assert len(_rectangles(ax)) == len(belief_regions(s, mode=mode))
        assert ax.get_xlabel() == "valid time τv" and ax.get_ylabel() == "transaction time τt"
        assert ax.get_title() == ""
        assert ax.get_xlabel() == ax.get_xlabel().lower()
    ax = plot_bitemporal_plane(s, mode="current")
    assert len(_rectangles(ax)) == 3  # id0001 is a staircase of two, id0002 a quadrant
    assert {t.get_text() for t in ax.texts} == {"id0001", "id0002"}


def test_plane_query_point_lists_the_answer() -> None:
    _, h2 = meeting_example()
    s = record(h2, REPAIRED)
    ax = plot_bitemporal_plane(s, tt=5, tv=3, mode="current")
    answer = [t.get_text() for t in ax.texts if t.get_text().startswith("believed")]
    assert answer == ["believed:\nid0002: meeting at 4pm"]
    assert list(believed(s, 5, 3, mode="current")) == ["id0002"]
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "query (τt = 5, τv = 3)" in labels and "alice" in labels and "τv = τt" in labels
    x, y = next(line for line in ax.lines if line.get_marker() == "X").get_data()
    assert [float(v) for v in x] == [3.0] and [float(v) for v in y] == [5.0]
    ax = plot_bitemporal_plane(s, tt=0, tv=0)
    assert "believed:\nnothing" in [t.get_text() for t in ax.texts]


def test_plane_colours() -> None:
    h = random_history(random.Random(5), 7)
    s = record(h, REPAIRED)
    ax = plot_bitemporal_plane(s, colour_by="derivation")
    labels = {t.get_text() for t in ax.get_legend().get_texts()}
    kinds = {derivation_kind(s, i) for i in s.records}
    assert kinds <= labels and kinds <= {"save", "evolve", "merge", "split"}
    ax = plot_bitemporal_plane(s, colour_by="record", label_records=False)
    assert len({r.get_facecolor() for r in _rectangles(ax)}) == min(len(s.records), len(PALETTE))
    assert len(ax.texts) == 0
    with pytest.raises(ValueError):
        plot_bitemporal_plane(s, colour_by="type")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        plot_bitemporal_plane(s, tt=3)


def test_plane_contextfs_store_lies_on_the_diagonal() -> None:
    """A ContextFS record has no valid time: its region starts on τv = τt."""
    h, _ = meeting_example()
    ax = plot_bitemporal_plane(record(h))
    corners = sorted((r.get_x(), r.get_y()) for r in _rectangles(ax))
    assert corners == [(1, 1), (5, 5)]


def test_plane_is_deterministic_and_draws_on_given_axes() -> None:
    h = random_history(random.Random(2), 6)
    s = record(h, REPAIRED)

    def render() -> bytes:
        fig, ax = plt.subplots(figsize=(4, 3), dpi=50)
        assert plot_bitemporal_plane(s, tt=8, tv=5, ax=ax) is ax
        fig.canvas.draw()
        return bytes(fig.canvas.buffer_rgba())

    assert render() == render()


def test_plane_of_the_empty_store_and_hand_built_stores() -> None:
    ax = plot_bitemporal_plane(EMPTY)
    assert _rectangles(ax) == []
    s = Store.of(
        {"a": Record("x", created_at=2), "b": Record("y")}, [("a", Relation.EVOLVED_INTO, "b")]
    )
    ax = plot_bitemporal_plane(s)  # b has no clock: never on file, not drawn
    assert len(_rectangles(ax)) == 1


def test_derivation_kind_and_colour_map() -> None:
    s = Store.of({"a": Record("x"), "b": Record("y", metadata={"split_from": "a"})})
    assert derivation_kind(s, "a") == "save" and derivation_kind(s, "b") == "split"
    assert colour_map(["b", "a", "b"]) == {"a": PALETTE[0], "b": PALETTE[1]}


def test_prefix_collision_plot() -> None:
    ax = plot_prefix_collision(points=40)
    assert ax.get_xscale() == "log"
    assert ax.get_title() == "" and ax.get_xlabel() == "records in the store"
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert legend == ["7 chars (28 bits)", "8 chars (32 bits)", "12 chars, full id (44 bits)"]
    curves = [line for line in ax.lines if not line.get_label().startswith("_")]
    assert len(curves) == 3
    for line in curves:
        ys = list(line.get_ydata())
        assert ys == sorted(ys) and 0 <= ys[0] < 0.01 and ys[-1] > 0.99
    halves = [t.get_text() for t in ax.texts]
    assert halves == [f"{collision_threshold(0.5, L):,}" for L in (7, 8, 12)]
    ax = plot_prefix_collision(prefix_lens=(8,), points=20, show_approx=True, store_size=50_000)
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels == ["8 chars (32 bits)", "store size 50,000"]
    assert len([line for line in ax.lines if line.get_linestyle() == "--"]) == 1


def test_the_face_hands_on_every_name_it_lists() -> None:
    """Each name of ``coalg.viz.__all__`` resolves (Appendix E calls ``viz.plot_benchmark``)."""
    from coalg import viz

    assert "plot_benchmark" in viz.__all__ and "graph_figsize" in viz.__all__
    for name in viz.__all__:
        assert getattr(viz, name) is not None, name


def test_benchmark_plot_one_line_per_peer_and_input() -> None:
    from coalg.viz import plot_benchmark

    rows = [{"peer": p, "input": i, "states": n, "seconds": n / 1e5, "shape": "x"}
            for p in ("ours", "other") for i in ("chain", "random") for n in (10, 100, 1000)]
    rows.append({"peer": "ours", "input": "pair", "states": 10, "seconds": 1.0, "shape": "compare"})
    ax = plot_benchmark({"bisim": rows}, input_names=["chain", "random"])
    assert len(ax.lines) == 4 and ax.get_xscale() == "log" and ax.get_yscale() == "log"
    assert ax.get_legend().get_texts()[0].get_text() == "ours: chain"
    fig = ax.figure
    fig.canvas.draw()
    legend = ax.get_legend().get_window_extent(fig.canvas.get_renderer())
    assert legend.x0 >= ax.get_window_extent().x1  # beside the data, never over it (Appendix E)
