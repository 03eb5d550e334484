"""coalg — the paper *Coalgebraic Memory*, executable.

A small, pure, typed library with one counterpart for each definition of the
paper, organised like the paper.  Stores are immutable values; every operation
returns a new store.  Undeclared enumeration orders are the explicit parameter
θ (:class:`Theta`), never Python's hash order, so every output is the same under
any ``PYTHONHASHSEED``.

Paper section → module

=====================================  =======================================
§3.1 identifiers, records, relations   :mod:`coalg.model.records`
§3.1 stores, ⊎, closure conditions     :mod:`coalg.model.store`
§3.2 alphabet, allocation oracle, θ    :mod:`coalg.model.alphabet`
§3.3 the store coalgebra (ContextFS)   :mod:`coalg.model.coalgebra`
§3.4 the lineage coalgebra             :mod:`coalg.model.lineage`
§2.2, Def. 5.23 bisimilarity           :mod:`coalg.bisim.bisimilarity` (engine: :mod:`coalg.bisim.partition`)
§3.5, §5.8, §7.1 bitemporal            :mod:`coalg.bitemporal.core`
Def. 3.21, 3.23 laws and schema        :mod:`coalg.laws.clauses` (search: :mod:`coalg.laws.exploration`)
§5 numbered results                    :mod:`coalg.laws.results`
§6 composition                         :mod:`coalg.composition.core`
repaired realisation                   :mod:`coalg.model.repaired`
§9 open problems, as proposals         :mod:`coalg.open_problems`
the real ContextFS 0.2.35              :mod:`coalg.contextfs.adapter`, :mod:`coalg.contextfs.runtime`
auditing ContextFS databases           :mod:`coalg.contextfs.auditing`
explorers (ipywidgets)                 :mod:`coalg.widgets.core`, presets in :mod:`coalg.model.examples`
I/O: JSON stores, Aldebaran ``.aut``   :mod:`coalg.model.jsonio`, :mod:`coalg.bisim.aut`
figures                                :mod:`coalg.viz.core` (needs matplotlib)
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

from typing import TYPE_CHECKING

from ._lazy import attach
from .errors import CoalgError, InputError

if TYPE_CHECKING:  # what a type checker (and an IDE) sees; at run time see ``__getattr__``
    from .bisim import (
        allocation_blind_bisimilar,
        allocation_blind_relation,
        allocation_blind_witness,
        ancestry_bisimilar,
        behaviour_classes,
        bisimilar,
        coarsest_partition,
        distinguish,
    )
    from .bitemporal import History, Timeline, as_of, believed, record, valid_at
    from .composition import frame_property, prefix_collision_probability, tenants
    from .laws import law_table
    from .model import (
        ANCESTRY,
        CONTEXTFS,
        DEFAULT_THETA,
        DESCENDANT,
        LINEAGE,
        REALISATIONS,
        REPAIRED,
        Allocation,
        Call,
        Created,
        Delete,
        Err,
        Evolve,
        Flag,
        Found,
        Id,
        Letter,
        Link,
        Merge,
        Nothing,
        Oracle,
        Output,
        Realisation,
        Recall,
        RecallPrefix,
        Record,
        Relation,
        Save,
        SaveAt,
        Split,
        Supersede,
        Theta,
        Trace,
        Wrote,
        alpha,
        ancestors,
        ancestry,
        beta,
        beta_minus,
        creates,
        descendant_ids,
        descendants,
        dumps_store,
        erase_allocation,
        get_realisation,
        inverse,
        is_fragment,
        load_store,
        loads_store,
        meta_ancestry,
        named,
        replay,
        run,
        save_store,
        step,
        unfold,
        uuid_like_ids,
    )
    from .model.store import (
        EMPTY,
        Edge,
        Store,
        UnionUndefined,
        disjoint_union,
        fibre,
        mention_disjoint_union,
        restrict,
    )
    from .paper import Verdict, known_items, run_item

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

__getattr__, __dir__, _ = attach(__name__, __file__)
