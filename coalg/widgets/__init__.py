"""The explorers: ipywidgets front ends over the pure library and the plots of :mod:`coalg.viz`."""

from typing import TYPE_CHECKING

from .._lazy import attach

__getattr__, __dir__, __all__ = attach(__name__, __file__)

if TYPE_CHECKING:
    from .core import (
        OPERATIONS,
        AncestryExplorer,
        BitemporalStepper,
        DerivationPlayground,
        MergeLab,
        RefinementStepper,
        TenantsLab,
        next_allocation,
        render_png,
    )
