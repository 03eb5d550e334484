"""Type stub of the package face: the names it hands on and the module each comes from.

A type checker reads this file; at run time ``lazy_loader.attach_stub`` reads the
same imports and loads a module the first time one of its names is asked for."""

from .agreement import (
    check_5_14,
    check_5_15,
    check_L2,
    history_lineage,
    l2_disagreement,
    record_view,
    router_lineage,
)
from .bitemporality import check_L6
from .clause import (
    Clause,
    ClauseInfo,
    check,
)
from .common import (
    SCHEMA_REALISATIONS,
    observation_json,
)
from .display import (
    show_call,
    show_letter,
)
from .exploration import (
    Exploration,
    Node,
    Transition,
    explore,
)
from .foundations import (
    check_3_6,
    check_3_9,
)
from .integrity import (
    check_5_30,
    check_L7,
    l7_strong_form,
)
from .inverse_closure import (
    check_5_16,
    check_L3,
    l3_fault_path,
)
from .locality import (
    check_3_22,
    check_5_17,
    check_5_18,
    check_5_19,
    check_L4i,
    check_L4ii,
    perturbations,
)
from .merge import (
    check_5_24,
    check_5_25,
)
from .monotonicity import (
    check_5_1,
    check_5_2,
    check_L1,
)
from .resolution import (
    check_5_20,
    check_L5,
    theta_variants,
)
from .schema import (
    check_5_6,
    check_S1,
    check_S2,
    check_S3,
    check_S4,
    check_schema,
)
from .search import (
    RANDOM_LENGTH,
    RANDOM_RUNS,
)
from .seeds import (
    ALPHABETS,
    NAMESPACES,
    SEEDS,
    UNKNOWN,
    Seed,
    Start,
    allocate,
    fault_variants,
    fragment_alphabet,
    full_alphabet,
    recording_alphabet,
    start_of,
)
from .stability import (
    check_5_7,
    check_5_9,
    check_5_12,
    check_5_13,
)
from .stepcheck import (
    STEP_CLAUSES,
    TITLES,
    ClauseResult,
    StepReport,
    check_step,
    step_and_check,
)
from .table import (
    CHECKS,
    CLAUSE_TABLE,
    CLAUSES,
    INFO,
    LAW_CLAUSES,
    SCHEMA_CLAUSES,
    clause_entry,
    clear_cache,
    format_law_table,
    get_clause,
    law_table,
)
from .walks import (
    choice_words,
    random_transitions,
    run_choices,
)

__all__ = [
    "check_5_14",
    "check_5_15",
    "check_L2",
    "history_lineage",
    "l2_disagreement",
    "record_view",
    "router_lineage",
    "check_5_7",
    "check_5_9",
    "check_5_12",
    "check_5_13",
    "check_L6",
    "Clause",
    "ClauseInfo",
    "check",
    "SCHEMA_REALISATIONS",
    "observation_json",
    "show_call",
    "show_letter",
    "Exploration",
    "Node",
    "Transition",
    "explore",
    "check_3_6",
    "check_3_9",
    "check_5_30",
    "check_L7",
    "l7_strong_form",
    "check_5_16",
    "check_L3",
    "l3_fault_path",
    "check_3_22",
    "check_5_17",
    "check_5_18",
    "check_5_19",
    "check_L4i",
    "check_L4ii",
    "perturbations",
    "check_5_24",
    "check_5_25",
    "check_5_1",
    "check_5_2",
    "check_L1",
    "check_5_20",
    "check_L5",
    "theta_variants",
    "check_5_6",
    "check_S1",
    "check_S2",
    "check_S3",
    "check_S4",
    "check_schema",
    "RANDOM_LENGTH",
    "RANDOM_RUNS",
    "ALPHABETS",
    "NAMESPACES",
    "SEEDS",
    "UNKNOWN",
    "Seed",
    "Start",
    "allocate",
    "fault_variants",
    "fragment_alphabet",
    "full_alphabet",
    "recording_alphabet",
    "start_of",
    "STEP_CLAUSES",
    "TITLES",
    "ClauseResult",
    "StepReport",
    "check_step",
    "step_and_check",
    "CHECKS",
    "CLAUSE_TABLE",
    "CLAUSES",
    "INFO",
    "LAW_CLAUSES",
    "SCHEMA_CLAUSES",
    "clause_entry",
    "clear_cache",
    "format_law_table",
    "get_clause",
    "law_table",
    "choice_words",
    "random_transitions",
    "run_choices",
]
