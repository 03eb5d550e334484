"""Type stub of the package face: the names it hands on and the module each comes from.

A type checker reads this file; at run time ``lazy_loader.attach_stub`` reads the
same imports and loads a module the first time one of its names is asked for."""

from .caching import ancestry_cache_check, cache_counterexamples
from .checks import check_6_1, check_6_2, check_6_3, check_6_4, check_6_5, check_6_6, check_6_8
from .frame import FrameCheck, Union, frame_property, union
from .inclusion import dangling_edge_witness, inclusion_failures
from .prefixes import (
    collision_threshold,
    particular_prefix_probability,
    prefix_bits,
    prefix_collision_approx,
    prefix_collision_probability,
    prefix_recall_witness,
)
from .random_stores import (
    random_allocation,
    random_named_call,
    random_pair,
    random_small_store,
    random_store,
)
from .tenancy import Interference, interference, tenants

__all__ = [
    "ancestry_cache_check",
    "cache_counterexamples",
    "check_6_1",
    "check_6_2",
    "check_6_3",
    "check_6_4",
    "check_6_5",
    "check_6_6",
    "check_6_8",
    "FrameCheck",
    "Union",
    "frame_property",
    "union",
    "dangling_edge_witness",
    "inclusion_failures",
    "collision_threshold",
    "particular_prefix_probability",
    "prefix_bits",
    "prefix_collision_approx",
    "prefix_collision_probability",
    "prefix_recall_witness",
    "random_allocation",
    "random_named_call",
    "random_pair",
    "random_small_store",
    "random_store",
    "Interference",
    "interference",
    "tenants",
]
