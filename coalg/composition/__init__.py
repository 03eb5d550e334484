"""Composition of stores (paper §6): the frame property, prefix collisions, tenants.

A harness that hosts several agents hosts several stores.  Does an operation
give the same answer when the store around it grows?

==================  ==========================================================
module              what it holds
==================  ==========================================================
``frame``           Prop. 6.2, Def. 6.5, Prop. 6.6 (c): ``⊎``, ``⊕``, the frame property
``prefixes``        Prop. 6.3, Remark 6.8: recall by prefix across tenants, the odds
``inclusion``       Prop. 6.4, Prop. 6.6 (b): dangling edges, the inclusion homomorphism
``caching``         Corollary 6.1: what a consumer may cache
``tenancy``         the multi-tenant harness: shared stores and their interference
``random_stores``   random stores, calls and allocations for the property tests
``checks``          the registered items 6.1–6.6 and 6.8
==================  ==========================================================

A ``realisation`` argument left at ``None`` means the ContextFS model.
"""

from typing import TYPE_CHECKING

from .._lazy import attach

__getattr__, __dir__, __all__ = attach(__name__, __file__)

if TYPE_CHECKING:
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
