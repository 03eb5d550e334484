"""Type stub of the package face: the names it hands on and the module each comes from.

A type checker reads this file; at run time ``lazy_loader.attach_stub`` reads the
same imports and loads a module the first time one of its names is asked for."""

from .charts import plot_benchmark, plot_prefix_collision, plot_refinement
from .edges import edge_family
from .labels import place_labels
from .layout import store_layout, unfolding_extent, unfolding_layout
from .plane import derivation_kind, plane_limits, plot_bitemporal_plane
from .store import plot_store
from .style import (
    ADDED,
    FIGSIZE,
    FONT_SIZE,
    GHOST,
    HIGHLIGHT,
    LABEL_SIZE,
    NEUTRAL,
    NOTE_SIZE,
    PALETTE,
    QUERY_COLOUR,
    REMOVED,
    colour_map,
    finish_axes,
    graph_figsize,
    new_axes,
    text_size,
)
from .unfolding import plot_unfolding, plot_unfoldings, unfolding_diff, unfolding_figsize

__all__ = [
    "plot_benchmark",
    "plot_prefix_collision",
    "plot_refinement",
    "edge_family",
    "place_labels",
    "store_layout",
    "unfolding_extent",
    "unfolding_layout",
    "derivation_kind",
    "plane_limits",
    "plot_bitemporal_plane",
    "plot_store",
    "ADDED",
    "FIGSIZE",
    "FONT_SIZE",
    "GHOST",
    "HIGHLIGHT",
    "LABEL_SIZE",
    "NEUTRAL",
    "NOTE_SIZE",
    "PALETTE",
    "QUERY_COLOUR",
    "REMOVED",
    "colour_map",
    "finish_axes",
    "graph_figsize",
    "new_axes",
    "text_size",
    "plot_unfolding",
    "plot_unfoldings",
    "unfolding_diff",
    "unfolding_figsize",
]
