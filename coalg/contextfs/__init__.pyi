"""Type stub of the package face: the names it hands on and the module each comes from.

A type checker reads this file; at run time ``lazy_loader.attach_stub`` reads the
same imports and loads a module the first time one of its names is asked for."""

from .adapter import (
    RUNTIME,
    ContextFSRuntime,
    StepReport,
    engine,
)
from .auditing import (
    FINDING_HELP,
    HANDLE,
    LAW_ORDER,
    audit,
    audit_database,
    format_report,
)
from .behaviours import (
    BEHAVIOURS,
    behaviour_metadata_inherited,
    behaviour_prefix_evolve_dangles,
    behaviour_soft_delete_keeps_edges,
    behaviour_update_drops_edges,
)
from .database import (
    VIEWS,
    AuditError,
    Database,
    read_database,
)
from .differential_testing import (
    ABSTRACTIONS,
    differential,
    format_differential,
    replay,
    replay_words,
    run_words,
)
from .live import (
    LiveStore,
    NullRAG,
)
from .observed import (
    DIFFERENCES,
    FULL,
    GENERAL_DIFFERENCES,
    REDUCED,
    Budget,
    compare_tables,
    format_comparison,
    observed_law_table,
    pinned_law_table,
)
from .offline import (
    AVAILABLE,
    CONTEXTFS_VERSION,
    ContextFSUnavailable,
    Sandbox,
    installed_files,
    modules,
    require,
    sandbox,
    unavailable_reason,
)
from .package_run import (
    PackageRun,
    PackageStep,
    StepClock,
    pinned_uuids,
)
from .random_words import (
    IdSupply,
    WordStep,
    random_step,
)
from .runtime import (
    check_7_3,
    check_R5_2,
    check_R5_14,
    check_R5_18,
    check_R5_20,
    check_R5_30,
    check_R6_3,
    merged_types_by_seed,
)
from .synthetic import (
    make_demo_database,
    make_synthetic_database,
)
from .tables import (
    KNOWN_REVISIONS,
    SCHEMA,
    read_sqlite_store,
    stamp,
    unstamp,
)

__all__ = [
    "RUNTIME",
    "ContextFSRuntime",
    "StepReport",
    "engine",
    "FINDING_HELP",
    "HANDLE",
    "LAW_ORDER",
    "audit",
    "audit_database",
    "format_report",
    "BEHAVIOURS",
    "behaviour_metadata_inherited",
    "behaviour_prefix_evolve_dangles",
    "behaviour_soft_delete_keeps_edges",
    "behaviour_update_drops_edges",
    "VIEWS",
    "AuditError",
    "Database",
    "read_database",
    "ABSTRACTIONS",
    "differential",
    "format_differential",
    "replay",
    "replay_words",
    "run_words",
    "LiveStore",
    "NullRAG",
    "DIFFERENCES",
    "FULL",
    "GENERAL_DIFFERENCES",
    "REDUCED",
    "Budget",
    "compare_tables",
    "format_comparison",
    "observed_law_table",
    "pinned_law_table",
    "AVAILABLE",
    "CONTEXTFS_VERSION",
    "ContextFSUnavailable",
    "Sandbox",
    "installed_files",
    "modules",
    "require",
    "sandbox",
    "unavailable_reason",
    "PackageRun",
    "PackageStep",
    "StepClock",
    "pinned_uuids",
    "IdSupply",
    "WordStep",
    "random_step",
    "check_7_3",
    "check_R5_2",
    "check_R5_14",
    "check_R5_18",
    "check_R5_20",
    "check_R5_30",
    "check_R6_3",
    "merged_types_by_seed",
    "make_demo_database",
    "make_synthetic_database",
    "KNOWN_REVISIONS",
    "SCHEMA",
    "read_sqlite_store",
    "stamp",
    "unstamp",
]
