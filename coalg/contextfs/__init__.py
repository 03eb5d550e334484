"""The real ContextFS 0.2.35: the offline sandbox and adapter, runtime observations of the
paper's claims, and the read-only audit of ContextFS databases."""

from typing import TYPE_CHECKING

from .._lazy import attach

__getattr__, __dir__, __all__ = attach(__name__, __file__)

if TYPE_CHECKING:
    from .adapter import (
        AVAILABLE,
        CONTEXTFS_VERSION,
        RUNTIME,
        ContextFSRuntime,
        ContextFSUnavailable,
        LiveStore,
        NullRAG,
        Sandbox,
        installed_files,
        modules,
        read_sqlite_store,
        require,
        sandbox,
        stamp,
        unavailable_reason,
        unstamp,
    )
    from .auditing import (
        FINDING_HELP,
        HANDLE,
        KNOWN_REVISIONS,
        LAW_ORDER,
        VIEWS,
        AuditError,
        Database,
        audit,
        audit_database,
        format_report,
        make_demo_database,
        read_database,
    )
    from .runtime import (
        BEHAVIOURS,
        DIFFERENCES,
        REDUCED,
        Budget,
        behaviour_metadata_inherited,
        behaviour_prefix_evolve_dangles,
        behaviour_soft_delete_keeps_edges,
        behaviour_update_drops_edges,
        check_7_3,
        check_R5_2,
        check_R5_14,
        check_R5_18,
        check_R5_20,
        check_R5_30,
        check_R6_3,
        compare_tables,
        format_comparison,
        merged_types_by_seed,
        observed_law_table,
        pinned_law_table,
    )
