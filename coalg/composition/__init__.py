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

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)

