"""Type stub of the package face: the names it hands on and the module each comes from.

A type checker reads this file; at run time ``lazy_loader.attach_stub`` reads the
same imports and loads a module the first time one of its names is asked for."""

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

__all__ = [
    "DEFAULT_MAX_SIZE",
    "AutInputError",
    "AutLTS",
    "disjoint_union",
    "read_aut",
    "write_aut",
    "StoreWitness",
    "allocation_blind_bisimilar",
    "allocation_blind_relation",
    "allocation_blind_witness",
    "ancestry_bisimilar",
    "behaviour_classes",
    "bisimilar",
    "blind_view",
    "distinguish",
    "refinement_rounds",
    "CanonicalForm",
    "canonical_form",
    "canonical_labelling",
    "AutComparison",
    "AutWitness",
    "compare_auts",
    "count_classes",
    "aut_to_store",
    "dumps_lineage_aut",
    "loads_lineage_aut",
    "store_to_aut",
    "LTS",
    "bisimilar_states",
    "coarsest_partition",
    "naive_partition",
    "refine",
    "Witness",
    "distinguishing_witness",
]
