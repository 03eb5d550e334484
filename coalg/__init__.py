"""coalg — the paper *Coalgebraic Memory*, executable.

A small, pure, typed library with one counterpart for each definition of the
paper, organised like the paper.  Stores are immutable values; every operation
returns a new store.  Undeclared enumeration orders are the explicit parameter
θ (:class:`Theta`), never Python's hash order, so every output is the same under
any ``PYTHONHASHSEED``.

Paper section → module

=====================================  =======================================
§3.1 identifiers, records, relations   :mod:`coalg.records`
§3.1 stores, ⊎, closure conditions     :mod:`coalg.store`
§3.2 alphabet, allocation oracle, θ    :mod:`coalg.alphabet`
§3.3 the store coalgebra (ContextFS)   :mod:`coalg.coalgebra`
§3.4 the lineage coalgebra             :mod:`coalg.lineage`
§2.2, Def. 5.23 bisimilarity           :mod:`coalg.bisimilarity` (engine: :mod:`coalg.refine`)
§3.5, §5.8, §7.1 bitemporal            :mod:`coalg.bitemporal`
Def. 3.21, 3.23 laws and schema        :mod:`coalg.laws` (search: :mod:`coalg.explore`)
§5 numbered results                    :mod:`coalg.results`
§6 composition                         :mod:`coalg.composition`
repaired realisation                   :mod:`coalg.repaired`
§9 open problems, as proposals         :mod:`coalg.open_problems`
the real ContextFS 0.2.35              :mod:`coalg.contextfs_adapter`, :mod:`coalg.runtime`
auditing ContextFS databases           :mod:`coalg.audit`
explorers (ipywidgets)                 :mod:`coalg.widgets`, presets in :mod:`coalg.examples`
I/O: JSON stores, Aldebaran ``.aut``   :mod:`coalg.jsonio`, :mod:`coalg.aut`
figures                                :mod:`coalg.viz` (needs matplotlib)
=====================================  =======================================

Every name below is importable from the package (``from coalg import
run``), but the modules behind them are loaded on first use (PEP 562), so
``import coalg`` -- and with it ``python -m coalg bisim`` -- does not pay for
the laws, results, bitemporal, composition and I/O modules it does not touch.

Example
-------
>>> from coalg import EMPTY, Record, Save, Evolve, run, ancestry, beta_minus, law_table, CONTEXTFS
>>> s = run(EMPTY, [Save(Record("the meeting is at 10")), Evolve("id0001", "the meeting is at 11")]).final
>>> beta_minus(s, "id0002").successors
((<Relation.EVOLVED_FROM: 'evolved_from'>, 'id0001'),)
>>> law_table(CONTEXTFS)["clauses"]["L5"]["holds"]
False
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .errors import CoalgError, InputError

if TYPE_CHECKING:  # what a type checker (and an IDE) sees; at run time see ``__getattr__``
    from .alphabet import (
        DEFAULT_THETA,
        Allocation,
        Call,
        Delete,
        Evolve,
        Letter,
        Link,
        Merge,
        Oracle,
        Recall,
        RecallPrefix,
        Save,
        SaveAt,
        Split,
        Supersede,
        Theta,
        creates,
        is_fragment,
        named,
        uuid_like_ids,
    )
    from .bisimilarity import (
        allocation_blind_bisimilar,
        allocation_blind_relation,
        allocation_blind_witness,
        ancestry_bisimilar,
        behaviour_classes,
        bisimilar,
        distinguish,
    )
    from .bitemporal import History, Timeline, as_of, believed, record, valid_at
    from .coalgebra import (
        Created,
        Err,
        Flag,
        Found,
        Nothing,
        Output,
        Trace,
        Wrote,
        alpha,
        replay,
        run,
        step,
    )
    from .composition import frame_property, prefix_collision_probability, tenants
    from .jsonio import dumps_store, load_store, loads_store, save_store
    from .laws import law_table
    from .lineage import ancestors, ancestry, beta, beta_minus, descendant_ids, descendants, unfold
    from .realisation import CONTEXTFS, REALISATIONS, Realisation, get_realisation
    from .records import (
        ANCESTRY,
        DESCENDANT,
        LINEAGE,
        Id,
        Record,
        Relation,
        erase_allocation,
        inverse,
        meta_ancestry,
    )
    from .refine import coarsest_partition
    from .repaired import REPAIRED
    from .store import (
        EMPTY,
        Edge,
        Store,
        UnionUndefined,
        disjoint_union,
        fibre,
        mention_disjoint_union,
        restrict,
    )
    from .verdict import Verdict, known_items, run_item

# submodule -> the public names it defines; each is imported on first access
_EXPORTS: dict[str, str] = {
    "alphabet": (
        "DEFAULT_THETA Allocation Call Delete Evolve Letter Link Merge Oracle Recall "
        "RecallPrefix Save SaveAt Split Supersede Theta creates is_fragment named "
        "uuid_like_ids"
    ),
    "bisimilarity": (
        "allocation_blind_bisimilar allocation_blind_relation "
        "allocation_blind_witness ancestry_bisimilar behaviour_classes bisimilar "
        "distinguish"
    ),
    "bitemporal": "History Timeline as_of believed record valid_at",
    "coalgebra": "Created Err Flag Found Nothing Output Trace Wrote alpha replay run step",
    "composition": "frame_property prefix_collision_probability tenants",
    "jsonio": "dumps_store load_store loads_store save_store",
    "laws": "law_table",
    "lineage": "ancestors ancestry beta beta_minus descendant_ids descendants unfold",
    "realisation": "CONTEXTFS REALISATIONS Realisation get_realisation",
    "records": (
        "ANCESTRY DESCENDANT LINEAGE Id Record Relation erase_allocation inverse "
        "meta_ancestry"
    ),
    "refine": "coarsest_partition",
    "repaired": "REPAIRED",
    "store": (
        "EMPTY Edge Store UnionUndefined disjoint_union fibre mention_disjoint_union "
        "restrict"
    ),
    "verdict": "Verdict known_items run_item",
}
_LAZY: dict[str, str] = {name: mod for mod, names in _EXPORTS.items() for name in names.split()}

__version__ = "0.1.0"

__all__ = [
    # §3.1
    "Id", "Record", "Relation", "inverse", "ANCESTRY", "DESCENDANT", "LINEAGE", "meta_ancestry",
    "erase_allocation", "Edge", "Store", "EMPTY", "disjoint_union", "mention_disjoint_union",
    "UnionUndefined", "fibre", "restrict",
    # §3.2
    "Letter", "Save", "SaveAt", "Recall", "RecallPrefix", "Delete", "Evolve", "Merge", "Split",
    "Supersede", "Link", "named", "creates", "is_fragment", "Allocation", "Oracle", "Theta",
    "DEFAULT_THETA", "Call", "uuid_like_ids",
    # §3.3
    "step", "alpha", "run", "replay", "Trace", "Output", "Err", "Nothing", "Found", "Created",
    "Wrote", "Flag",
    # §3.4
    "beta", "beta_minus", "unfold", "ancestry", "descendants", "ancestors", "descendant_ids",
    # bisimilarity
    "coarsest_partition", "behaviour_classes", "bisimilar", "ancestry_bisimilar", "distinguish",
    "allocation_blind_bisimilar", "allocation_blind_relation", "allocation_blind_witness",
    # realisations, laws, results
    "Realisation", "CONTEXTFS", "REPAIRED", "REALISATIONS", "get_realisation", "law_table",
    "Verdict", "known_items", "run_item",
    # time and composition
    "History", "record", "believed", "as_of", "valid_at", "Timeline",
    "frame_property", "prefix_collision_probability", "tenants",
    # I/O and errors
    "dumps_store", "loads_store", "save_store", "load_store", "CoalgError", "InputError",
]


def __getattr__(name: str) -> Any:
    """Load the module behind a public name (or a submodule) on first access (PEP 562)."""
    mod = _LAZY.get(name)
    if mod is not None:
        value = getattr(importlib.import_module(f".{mod}", __name__), name)
        globals()[name] = value  # later accesses bypass this hook
        return value
    if not name.startswith("__"):
        try:  # ``coalg.lineage`` after a bare ``import coalg``, as before
            return importlib.import_module(f".{name}", __name__)
        except ModuleNotFoundError as e:
            if e.name != f"{__name__}.{name}":
                raise
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
