"""Bisimilarity (paper §2.2, Definition 5.23): labelled transition systems, partition
refinement, distinguishing formulas, the Aldebaran ``.aut`` format, the comparison of two
``.aut`` files, store-level bisimilarity and the lineage export.

Modules: :mod:`~coalg.bisim.lts` (the LTS), :mod:`~coalg.bisim.partition` (coarsest stable
partitions) over :mod:`~coalg.bisim.acyclic` (the one-pass route) and
:mod:`~coalg.bisim.engine` (the worklist engine: :mod:`~coalg.bisim.blocks`,
:mod:`~coalg.bisim.rounds_python`, :mod:`~coalg.bisim.rounds_numpy`),
:mod:`~coalg.bisim.witness` (Hennessy--Milner witnesses), :mod:`~coalg.bisim.aut`,
:mod:`~coalg.bisim.aut_read` (with :mod:`~coalg.bisim.aut_scan` and
:mod:`~coalg.bisim.aut_payloads`), :mod:`~coalg.bisim.aut_write`,
:mod:`~coalg.bisim.compare`, :mod:`~coalg.bisim.bisimilarity`, :mod:`~coalg.bisim.canonical`
(stores up to renaming and clock readings),
:mod:`~coalg.bisim.lineage_aut`; integer buffers and the optional NumPy in
:mod:`~coalg.bisim.buffers`."""

from typing import TYPE_CHECKING

from .._lazy import attach

__getattr__, __dir__, __all__ = attach(__name__, __file__)

if TYPE_CHECKING:
    from .aut import (
        DEFAULT_MAX_SIZE,
        AutInputError,
        AutLTS,
        disjoint_union,
    )
    from .aut_read import (
        read_aut,
    )
    from .aut_write import (
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
    from .canonical import (
        CanonicalForm,
        canonical_form,
        canonical_labelling,
    )
    from .compare import (
        AutComparison,
        AutWitness,
        compare_auts,
        count_classes,
    )
    from .lineage_aut import (
        aut_to_store,
        dumps_lineage_aut,
        loads_lineage_aut,
        store_to_aut,
    )
    from .lts import (
        LTS,
    )
    from .partition import (
        bisimilar_states,
        coarsest_partition,
        naive_partition,
        refine,
    )
    from .witness import (
        Witness,
        distinguishing_witness,
    )
