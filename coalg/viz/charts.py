"""Charts: the rounds of partition refinement, prefix-collision curves and benchmark timings.

* :func:`plot_refinement` — one panel per round of
  :func:`coalg.bisim.refinement_rounds` (paper §2.2, Definition 5.23), nodes
  coloured by block.
* :func:`plot_prefix_collision` — the probability that two identifiers share a
  prefix, against store size (§6, Remark 6.8).
* :func:`plot_benchmark` — end-to-end seconds against states, from the JSON
  that ``bench/run.py`` writes (Appendix E).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..bisim import refinement_rounds
from ..composition import (
    collision_threshold,
    prefix_bits,
    prefix_collision_approx,
    prefix_collision_probability,
)
from ..model import Id, Store
from .layout import store_layout
from .store import plot_store
from .style import (
    FIGSIZE,
    FONT_SIZE,
    LINE_WIDTH,
    NEUTRAL,
    PALETTE,
    QUERY_COLOUR,
    colour_map,
    finish_axes,
    graph_figsize,
    new_axes,
    panel_title,
)

if TYPE_CHECKING:
    from matplotlib.axes import Axes

__all__ = ["plot_benchmark", "plot_prefix_collision", "plot_refinement", "stable_block_numbers"]


def stable_block_numbers(rounds: Sequence[dict[Id, int]]) -> list[dict[Id, int]]:
    """The rounds renumbered so that a block keeps its number while it splits.

    :func:`coalg.bisim.refinement_rounds` numbers the blocks of each round
    afresh, in order of their smallest identifier, so a block that keeps its
    members can change its number from one round to the next.  Here round 0
    keeps its numbers; in each later round, of the parts a block splits into,
    the one holding the block's smallest identifier keeps the block's number,
    and every other part gets the next number not used before.  Each round
    must refine the one before (every block lies inside a block of it).

    >>> stable_block_numbers([{"a": 0, "b": 0, "c": 1}, {"a": 0, "b": 1, "c": 2}])
    [{'a': 0, 'b': 0, 'c': 1}, {'a': 0, 'b': 2, 'c': 1}]
    """
    out: list[dict[Id, int]] = []
    fresh = 0
    for r, part in enumerate(rounds):
        if r == 0:
            numbered = {i: part[i] for i in sorted(part)}
        else:
            before = out[-1]
            if set(part) != set(before):
                raise ValueError(f"round {r} partitions other identifiers than round {r - 1}")
            taken: set[int] = set()
            given: dict[int, int] = {}
            inside: dict[int, int] = {}
            numbered = {}
            for i in sorted(part):  # the smallest identifier of each part comes first
                b = part[i]
                if b not in given:
                    inside[b] = before[i]
                    if before[i] in taken:  # the block already kept its number: a new part
                        given[b], fresh = fresh, fresh + 1
                    else:
                        given[b] = before[i]
                        taken.add(before[i])
                elif inside[b] != before[i]:
                    raise ValueError(f"round {r} does not refine round {r - 1}: see the block of {i!r}")
                numbered[i] = given[b]
        fresh = max(fresh, max(numbered.values(), default=-1) + 1)
        out.append(numbered)
    return out


def plot_refinement(
    store: Store,
    *,
    labels: Any = None,
    axes: Sequence[Axes] | None = None,
    rounds: Sequence[dict[Id, int]] | None = None,
    which: Sequence[int] | None = None,
    legend: bool = True,
) -> list[Axes]:
    """One panel per round of :func:`coalg.bisim.refinement_rounds`, nodes coloured by block.

    ``labels`` restricts the relations refinement follows (all by default), as
    in :func:`coalg.bisim.behaviour_classes`; the panels draw the store
    graph on :func:`store_layout`, every node written ``id [block]``.  Blocks
    are numbered by :func:`stable_block_numbers`, so a block keeps its number
    and its colour from round to round and only a part that splits off gets a
    new one.  Colours cycle through the palette (the block number
    disambiguates beyond eight blocks).  The last panel is behavioural equivalence.  Each panel is
    named by a text above it: ``round r: n blocks``.  ``rounds`` passes rounds
    already computed; ``which`` draws only those round numbers (a stepper draws one).
    ``legend`` adds, right of the last panel, the colour of each block.
    """
    if rounds is None:
        rounds = refinement_rounds(store, labels=labels)
    numbers = list(range(len(rounds))) if which is None else [r for r in which if 0 <= r < len(rounds)]
    if axes is None:
        import matplotlib.pyplot as plt

        pos = store_layout(store)
        h = graph_figsize(pos)[1]
        n = len(numbers)
        _, created = plt.subplots(1, n, figsize=(max(FIGSIZE[0], 3.4 * n), h), squeeze=False)
        axes = list(created[0])
    stable = stable_block_numbers(rounds)
    out: list[Axes] = []
    for r, ax in zip(numbers, axes):
        partition = stable[r]
        blocks = len(set(partition.values()))
        ax = plot_store(
            store,
            ax=ax,
            labels=lambda i, p=partition: f"{i} [{p[i]}]",
            legend=False,
        )
        for line in ax.lines:
            name = str(line.get_label())
            if name.startswith("_node "):
                i = name[len("_node "):]
                c = PALETTE[partition[i] % len(PALETTE)]
                line.set_markerfacecolor(c)
                line.set_markeredgecolor(c if i in store.records else NEUTRAL)
        panel_title(ax, f"round {r}: {blocks} block{'s' if blocks != 1 else ''}")
        out.append(ax)
    if out and legend:
        _block_legend(out[-1], sorted(set(stable[numbers[len(out) - 1]].values())))
    return out


def _block_legend(ax: Axes, blocks: Sequence[int], most: int = 10) -> None:
    """The colour of each block (the number in brackets after each identifier), right of ``ax``."""
    from matplotlib.lines import Line2D

    shown = list(blocks) if len(blocks) <= most else list(blocks)[: most - 1]
    handles = [Line2D([], [], marker="o", linestyle="none", markersize=8, color=PALETTE[b % len(PALETTE)],
                      label=f"block {b}") for b in shown]
    if len(shown) < len(blocks):
        handles.append(Line2D([], [], linestyle="none", label=f"… {len(blocks) - len(shown)} more"))
    ax.legend(handles=handles, title="[n]: block", title_fontsize=FONT_SIZE - 1, fontsize=FONT_SIZE - 1,
              loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False, borderaxespad=0.0)



def _log_grid(n_min: int, n_max: int, points: int) -> list[int]:
    a, b = math.log10(n_min), math.log10(n_max)
    grid = sorted({max(1, round(10 ** (a + (b - a) * k / (points - 1)))) for k in range(points)})
    return grid


def plot_prefix_collision(
    *,
    prefix_lens: Sequence[int] = (7, 8, 12),
    n_min: int = 100,
    n_max: int = 20_000_000,
    points: int = 160,
    show_approx: bool = False,
    store_size: int | None = None,
    ax: Axes | None = None,
) -> Axes:
    """Probability that some two identifiers share a prefix, against store size (log x).

    One line per prefix length (exact birthday form), labelled with its bits;
    12 characters is the full ContextFS identifier.  A dot marks each 50 %
    threshold; dotted guides mark 1 % and 50 %.  ``show_approx`` adds the
    ``1 − exp(−n²/2^{bits+1})`` curves dashed; ``store_size`` adds a vertical line.
    """
    ax = new_axes(ax)
    grid = _log_grid(n_min, n_max, points)
    colours = colour_map([f"{L:02d}" for L in prefix_lens])
    for L in sorted(prefix_lens):
        c = colours[f"{L:02d}"]
        name = (
            f"{L} chars, full id ({prefix_bits(L)} bits)"
            if L == 12
            else f"{L} chars ({prefix_bits(L)} bits)"
        )
        ax.plot(
            grid,
            [prefix_collision_probability(n, L) for n in grid],
            color=c,
            linewidth=LINE_WIDTH,
            label=name,
        )
        if show_approx:
            ax.plot(
                grid,
                [prefix_collision_approx(n, L) for n in grid],
                color=c,
                linewidth=0.9,
                linestyle="--",
                label=f"_approx {L}",
            )
        half = collision_threshold(0.5, L)
        if n_min <= half <= n_max:
            ax.plot(
                [half],
                [0.5],
                marker="o",
                color=c,
                markersize=5,
                linestyle="none",
                label=f"_half {L}",
            )
            ax.annotate(
                f"{half:,}",
                (half, 0.5),
                xytext=(4, -12),
                textcoords="offset points",
                fontsize=FONT_SIZE - 1,
                color=c,
            )
    for p in (0.01, 0.5):
        ax.axhline(p, color=NEUTRAL, linewidth=0.7, linestyle=":")
    if store_size is not None:
        ax.axvline(
            store_size, color=QUERY_COLOUR, linewidth=0.9, label=f"store size {store_size:,}"
        )
    ax.set_xscale("log")
    ax.set_xlim(n_min, n_max)
    ax.set_ylim(0, 1.02)
    ax.legend(fontsize=FONT_SIZE - 1, loc="upper left", frameon=False)
    return finish_axes(
        ax, xlabel="records in the store", ylabel="probability that two ids share the prefix"
    )



def plot_benchmark(results: dict[str, Any], ax: Axes | None = None, *, input_names: Sequence[str] | None = None) -> Axes:
    """Log-log plot of end-to-end seconds against the number of states, one line per (peer, input).

    ``results`` is the JSON written by ``bench/run.py`` (nothing is re-run).
    Colour identifies the peer, the marker the input shape; ``input_names``
    restricts the inputs drawn (default: all single-file inputs).
    """
    ax = new_axes(ax)
    rows = [r for r in results.get("bisim", []) if r.get("shape") != "compare"]
    if input_names is not None:
        rows = [r for r in rows if r["input"] in input_names]
    peers = sorted({r["peer"] for r in rows}, key=lambda p: (p != "ours", p))
    inputs = sorted({r["input"] for r in rows})
    markers = "osD^vP*X"
    for pi, peer in enumerate(peers):
        for ii, name in enumerate(inputs):
            pts = sorted((r["states"], r["seconds"]) for r in rows if r["peer"] == peer and r["input"] == name)
            if not pts:
                continue
            xs, ys = zip(*pts)
            ax.plot(xs, ys, marker=markers[ii % len(markers)], color=PALETTE[pi % len(PALETTE)],
                    linewidth=1.2, markersize=5, label=f"{peer}: {name}")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("states")
    ax.set_ylabel("seconds (end to end, median)")
    ax.grid(True, which="major", linewidth=0.4, alpha=0.5)
    # outside the axes, so no line is hidden under it
    ax.legend(fontsize=FONT_SIZE - 1, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False,
              borderaxespad=0.0)
    return ax
