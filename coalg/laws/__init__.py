"""The laws L1–L7 and the schema S1–S4 (Defs. 3.21, 3.23), checked by exploration, and §3/§5 results.

The exploration engine (:mod:`~coalg.laws.seeds`, :mod:`~coalg.laws.exploration`,
:mod:`~coalg.laws.walks`, :mod:`~coalg.laws.search`, with :mod:`~coalg.laws.display`
for how calls print) and the clause type (:mod:`~coalg.laws.clause`, which remembers each verdict it
computes) come first; then one
module per law family, each with its predicate, its clause and
the paper's results about it: :mod:`~coalg.laws.monotonicity` (L1, 5.1–5.2),
:mod:`~coalg.laws.agreement` (L2, 5.14–5.15), :mod:`~coalg.laws.inverse_closure`
(L3, 5.16), :mod:`~coalg.laws.locality` (L4, 3.22, 5.17–5.19),
:mod:`~coalg.laws.resolution` (L5, 5.20), :mod:`~coalg.laws.bitemporality` (L6),
:mod:`~coalg.laws.integrity` (L7, 5.30), :mod:`~coalg.laws.schema` (S1–S4, 5.6),
:mod:`~coalg.laws.ancestry` (5.7–5.13), :mod:`~coalg.laws.merge` (5.24–5.25) and
:mod:`~coalg.laws.foundations` (3.6, 3.9); the law table (:mod:`~coalg.laws.table`)
and the per-step check (:mod:`~coalg.laws.stepcheck`) on top.
"""

from typing import TYPE_CHECKING

from .._lazy import attach

__getattr__, __dir__, __all__ = attach(__name__, __file__)

if TYPE_CHECKING:
    from .agreement import (
        check_5_14,
        check_5_15,
        check_L2,
        history_lineage,
        l2_disagreement,
        record_view,
        router_lineage,
    )
    from .ancestry import (
        check_5_7,
        check_5_9,
        check_5_12,
        check_5_13,
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
