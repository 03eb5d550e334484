"""The formal model (paper §3): records, stores, the alphabet, θ, the store and lineage
coalgebras, the JSON format, the two realisations and the presets.

Modules: :mod:`~coalg.model.records`, :mod:`~coalg.model.store`,
:mod:`~coalg.model.alphabet` (letters, allocations, calls), :mod:`~coalg.model.theta`,
:mod:`~coalg.model.coalgebra`, :mod:`~coalg.model.lineage`, :mod:`~coalg.model.index`,
:mod:`~coalg.model.examples`, the JSON format in :mod:`~coalg.model.jsonio` (records,
stores), :mod:`~coalg.model.jsonletters` (letters, calls, θ, outputs) and
:mod:`~coalg.model.jsoncheck` (checked reading); :mod:`~coalg.model.realisation` (the type
and the ContextFS model), :mod:`~coalg.model.repaired` with :mod:`~coalg.model.repair_rules`,
and :mod:`~coalg.model.registry` (the realisations by name)."""

from typing import TYPE_CHECKING

from .._lazy import attach

__getattr__, __dir__, __all__ = attach(__name__, __file__)

if TYPE_CHECKING:
    from .alphabet import (
        DERIVATIONS,
        MUTATIONS,
        OBSERVATIONS,
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
        creates,
        edge_writes,
        is_fragment,
        named,
        uuid_like_ids,
    )
    from .coalgebra import (
        Created,
        Err,
        Flag,
        Found,
        Nothing,
        Output,
        StepFunction,
        Trace,
        Wrote,
        alpha,
        generated_merge_content,
        latest_clock,
        modes,
        replay,
        resolve_prefix,
        run,
        step,
    )
    from .examples import (
        PRESETS,
        chain_store,
        names,
        preset,
        preset_word,
        refinement_example,
        sized_store,
    )
    from .index import (
        CSR,
        LineageIndex,
    )
    from .jsoncheck import (
        JsonInputError,
    )
    from .jsonio import (
        FORMAT,
        MAX_BYTES,
        VERSION,
        dumps_store,
        edge_to_json,
        load_store,
        loads_store,
        record_from_json,
        record_to_json,
        save_store,
        store_from_json,
        store_to_json,
    )
    from .jsonletters import (
        call_from_json,
        call_to_json,
        letter_from_json,
        letter_to_json,
        output_to_json,
        theta_from_json,
        theta_to_json,
    )
    from .lineage import (
        Node,
        Observation,
        Unfolding,
        ancestors,
        ancestry,
        beta,
        beta_minus,
        beta_restricted,
        descendant_ids,
        descendants,
        successor_index,
        unfold,
    )
    from .realisation import (
        CONTEXTFS,
        Realisation,
    )
    from .records import (
        ALLOCATION_FIELDS,
        ALLOCATION_META_KEYS,
        ANCESTRY,
        DESCENDANT,
        ID_POSITIONS,
        INVERSE_TABLE,
        LINEAGE,
        MAX_DEPTH,
        META_KEYS,
        FrozenMap,
        Id,
        Record,
        Relation,
        Time,
        erase_allocation,
        freeze,
        id_positions,
        inverse,
        meta_ancestry,
        thaw,
    )
    from .registry import (
        REALISATIONS,
        get_realisation,
    )
    from .repair_rules import (
        ANCESTRY_KEYS,
        BOOKKEEPING_KEYS,
        TOMBSTONE,
        derived_metadata,
        derived_record,
        inherited_valid_time,
        is_tombstone,
        merge_type,
        tombstone,
    )
    from .repaired import (
        REPAIRED,
        RepairedRealisation,
        repaired_step,
    )
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
    from .theta import (
        DEFAULT_THETA,
        Theta,
    )
