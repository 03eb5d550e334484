"""Composition of stores (paper §6): the frame property, prefix collisions, tenants."""

from typing import TYPE_CHECKING

from .._lazy import attach

__getattr__, __dir__, __all__ = attach(__name__, __file__)

if TYPE_CHECKING:
    from .core import (
        FrameCheck,
        Interference,
        Union,
        ancestry_cache_check,
        cache_counterexamples,
        check_6_1,
        check_6_2,
        check_6_3,
        check_6_4,
        check_6_5,
        check_6_6,
        check_6_8,
        collision_threshold,
        dangling_edge_witness,
        frame_property,
        inclusion_failures,
        interference,
        particular_prefix_probability,
        prefix_bits,
        prefix_collision_approx,
        prefix_collision_probability,
        prefix_recall_witness,
        random_allocation,
        random_named_call,
        random_pair,
        random_small_store,
        random_store,
        tenants,
        union,
    )
