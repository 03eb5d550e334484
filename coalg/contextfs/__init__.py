"""The real ContextFS 0.2.35: the paper's claims observed at runtime, and ContextFS databases audited.

==========================================  ===================================
the package offline: sandbox, availability  :mod:`~coalg.contextfs.offline`
the two tables as a coalg store (§3.1)      :mod:`~coalg.contextfs.tables`
a store written into the schema; faults     :mod:`~coalg.contextfs.materialise`
the package's objects: ``LiveStore``        :mod:`~coalg.contextfs.live`
the package as a realisation (§3.3)         :mod:`~coalg.contextfs.adapter`
Table 2 observed (Def. 3.21)                :mod:`~coalg.contextfs.observed`
runtime observations (5.2 … 6.3, 7.3)       :mod:`~coalg.contextfs.runtime`
behaviours the paper does not state         :mod:`~coalg.contextfs.behaviours`
a database read read-only                   :mod:`~coalg.contextfs.database`
the audit: findings and report              :mod:`~coalg.contextfs.auditing`
databases written without the package       :mod:`~coalg.contextfs.synthetic`
random words of the memory API              :mod:`~coalg.contextfs.random_words`
a word run on the package, one database     :mod:`~coalg.contextfs.package_run`
the model against the package on words      :mod:`~coalg.contextfs.differential_testing`
==========================================  ===================================
"""

from typing import TYPE_CHECKING

from .._lazy import attach

__getattr__, __dir__, __all__ = attach(__name__, __file__)

if TYPE_CHECKING:
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
