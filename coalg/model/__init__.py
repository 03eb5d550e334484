"""The formal model (paper §3): records, stores, the alphabet, θ, the store and lineage
coalgebras, the JSON format, the two realisations and the presets."""

from typing import TYPE_CHECKING

from .._lazy import attach

__getattr__, __dir__, __all__ = attach(__name__, __file__)

if TYPE_CHECKING:
    from .alphabet import (
        DEFAULT_THETA,
        DERIVATIONS,
        EMPTY,
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
        Theta,
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
    from .jsonio import (
        FORMAT,
        MAX_BYTES,
        VERSION,
        call_from_json,
        call_to_json,
        dumps_store,
        edge_to_json,
        letter_from_json,
        letter_to_json,
        load_store,
        loads_store,
        output_to_json,
        record_from_json,
        record_to_json,
        save_store,
        store_from_json,
        store_to_json,
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
        REALISATIONS,
        Realisation,
        get_realisation,
    )
    from .records import (
        ALLOCATION_FIELDS,
        ALLOCATION_META_KEYS,
        ANCESTRY,
        DESCENDANT,
        ID_POSITIONS,
        INVERSE_TABLE,
        LINEAGE,
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
    from .repaired import (
        ANCESTRY_KEYS,
        BOOKKEEPING_KEYS,
        REPAIRED,
        TOMBSTONE,
        RepairedRealisation,
        derived_metadata,
        derived_record,
        inherited_valid_time,
        is_tombstone,
        merge_type,
        repaired_step,
        tombstone,
    )
    from .store import (
        Edge,
        Store,
        UnionUndefined,
        disjoint_union,
        fibre,
        mention_disjoint_union,
        restrict,
    )
