"""Type stub of the package face: the names it hands on and the module each comes from.

A type checker reads this file; at run time ``lazy_loader.attach_stub`` reads the
same imports and loads a module the first time one of its names is asked for."""

# isort: off
# one line per section of the paper, in the order of ``__all__``
# §3.1
from .model import Id, Record, Relation, inverse, ANCESTRY, DESCENDANT, LINEAGE, meta_ancestry
from .model import erase_allocation
from .model.store import Edge, Store, EMPTY, disjoint_union, mention_disjoint_union
from .model.store import UnionUndefined, fibre, restrict
# §3.2
from .model import Save, SaveAt, Recall, RecallPrefix, Delete, Evolve, Merge, Split
from .model import Supersede, Link, named, creates, is_fragment, Allocation, Oracle, Theta
from .model import DEFAULT_THETA, Call, uuid_like_ids
# §3.3
from .model import step, alpha, run, Err, Nothing, Found, Created
from .model import Wrote, Flag
# §3.4
from .model import beta, beta_minus, unfold, ancestry, descendants
# bisimilarity
from .bisim import behaviour_classes, bisimilar, ancestry_bisimilar
from .bisim import distinguish, allocation_blind_bisimilar, allocation_blind_relation
from .bisim import allocation_blind_witness
# realisations, laws, results
from .model import Realisation, CONTEXTFS, REPAIRED
from .laws import law_table
from .paper import known_items, run_item
# time and composition
from .bitemporal import History, record, believed, as_of, valid_at, Timeline
from .composition import frame_property
from .errors import CoalgError as CoalgError, InputError as InputError
# isort: on

__version__: str

__all__ = [
    # §3.1
    "Id", "Record", "Relation", "inverse", "ANCESTRY", "DESCENDANT", "LINEAGE", "meta_ancestry",
    "erase_allocation", "Edge", "Store", "EMPTY", "disjoint_union", "mention_disjoint_union",
    "UnionUndefined", "fibre", "restrict",
    # §3.2
    "Save", "SaveAt", "Recall", "RecallPrefix", "Delete", "Evolve", "Merge", "Split",
    "Supersede", "Link", "named", "creates", "is_fragment", "Allocation", "Oracle", "Theta",
    "DEFAULT_THETA", "Call", "uuid_like_ids",
    # §3.3
    "step", "alpha", "run", "Err", "Nothing", "Found", "Created",
    "Wrote", "Flag",
    # §3.4
    "beta", "beta_minus", "unfold", "ancestry", "descendants",
    # bisimilarity
    "behaviour_classes", "bisimilar", "ancestry_bisimilar", "distinguish",
    "allocation_blind_bisimilar", "allocation_blind_relation", "allocation_blind_witness",
    # realisations, laws, results
    "Realisation", "CONTEXTFS", "REPAIRED", "law_table",
    "known_items", "run_item",
    # time and composition
    "History", "record", "believed", "as_of", "valid_at", "Timeline",
    "frame_property",
    # the errors (coalg.errors: CoalgError, InputError) stay importable here, not listed
]
