"""Bisimilarity (paper §2.2, Definition 5.23): labelled transition systems, partition
refinement, distinguishing formulas, the Aldebaran ``.aut`` format and store-level bisimilarity."""

from typing import TYPE_CHECKING

from .._lazy import attach

__getattr__, __dir__, __all__ = attach(__name__, __file__)

if TYPE_CHECKING:
    from .aut import (
        DEFAULT_MAX_SIZE,
        AutLTS,
        disjoint_union,
        read_aut,
        write_aut,
    )
    from .bisimilarity import (
        StoreWitness,
        allocation_blind_bisimilar,
        allocation_blind_relation,
        allocation_blind_witness,
        ancestry_bisimilar,
        behaviour_classes,
        bisimilar,
        blind_view,
        distinguish,
        refinement_rounds,
    )
    from .lineage_aut import (
        aut_to_store,
        dumps_lineage_aut,
        loads_lineage_aut,
        store_to_aut,
    )
    from .partition import (
        LTS,
        Witness,
        bisimilar_states,
        coarsest_partition,
        distinguishing_witness,
        naive_partition,
        refine,
    )
