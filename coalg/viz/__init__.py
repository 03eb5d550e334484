"""Figures for the book: pure functions ``plot_*(..., ax=None) -> Axes`` (needs matplotlib)."""

from typing import TYPE_CHECKING

from .._lazy import attach

__getattr__, __dir__, __all__ = attach(__name__, __file__)

if TYPE_CHECKING:
    from .core import (
        ADDED,
        FIGSIZE,
        HIGHLIGHT,
        NEUTRAL,
        PALETTE,
        QUERY_COLOUR,
        REMOVED,
        colour_map,
        derivation_kind,
        edge_family,
        finish_axes,
        new_axes,
        plot_benchmark,
        plot_bitemporal_plane,
        plot_prefix_collision,
        plot_refinement,
        plot_store,
        plot_unfolding,
        plot_unfoldings,
        store_layout,
        unfolding_diff,
        unfolding_layout,
    )
