"""Bitemporal observations (paper §3.5, §5.8, §7.1): histories, the recording map,
Theorem 5.27 and Proposition 7.1 as proofs-as-data, the ``Timeline`` emulation.

The temporal-database vocabulary (paper §2.3): *valid time* τv is when a fact
holds in the world, *transaction time* τt is when the system recorded it.

==================  ==========================================================
module              what it holds
==================  ==========================================================
``histories``       Def. 3.20: histories h, h ∼vt h′, random histories
``recorder``        Def. 3.20 (a)–(b): the recording map Ψ_R, the channel κ_R
``observations``    Obs^vt: ``believed``, ``as_of``, ``valid_at``, belief regions
``separation``      Def. 3.20 (c), Prop. 7.1: the recovery map V, non-degeneracy
``proofs``          proofs as data, and the recorded pair h, h′ both proofs walk
``unrecoverable``   Theorem 5.27: valid time is unrecoverable on ContextFS
``repair``          Proposition 7.1: the bitemporal repair
``timeline``        Listing 5: ``Timeline.at`` and its naive-timezone pitfall
``meeting``         the meeting example (ours, after §2.3) and the single-axis contrast
``checks``          the registered items 3.20, 5.27 and 7.1
==================  ==========================================================

A ``realisation`` argument left at ``None`` means the ContextFS model, except
for :func:`proposition_7_1` and :func:`contrast_example`, which default to the
repaired realisation they are about.
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)

