"""Traceability: every numbered item of the paper, the code that makes it executable, and its test.

One table, :data:`TABLE`, lists each item of the spec's index (§5.12): the
definitions, the law clauses L1–L7 and schema clauses S1–S4 of Definitions 3.21
and 3.23, the lemmas, propositions, theorems and corollaries, the remarks that
carry content, and the open problems OP1–OP6.  For each it names

* ``nature`` — ``theorem`` (proved from the definitions), ``instantiation`` (a
  reading of ContextFS at a93035d), ``runtime`` (observed on the released
  package), ``definition``, or ``proposal`` (an open
  problem's executable proposal, §9);
* ``function`` — the dotted path of the coalg function (or class) that makes it
  executable;
* ``test`` — the test that checks it.  The convention: an item registered with
  :func:`coalg.paper.verdict.paper_item` is checked by ``test_item_<n>`` (dots as
  underscores, e.g. ``test_item_5_27``), a definition by ``test_def_<n>``, a law
  or schema clause by ``test_law_<key>``; a test whose name extends the
  conventional one with ``_…`` counts too;
* ``status`` — ``done``; ``pending`` for an item another module will register
  but has not yet; ``planned`` for an item of a later issue (OP1–OP6).

``tests/test_traceability.py`` fails when a ``done`` row's function does not
import, when no test of its name exists under ``tests/``, or when a registered
paper item is missing from the table.

>>> row = next(r for r in TABLE if r.item == "5.7")
>>> row.function, row.test, row.nature
('coalg.laws.results.check_5_7', 'test_item_5_7', 'theorem')
>>> {r.status for r in TABLE} <= {"done", "pending", "planned"}
True
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any, Literal

__all__ = ["TABLE", "Row", "by_item", "conventional_test_name", "resolve", "rows", "table_json"]

Status = Literal["done", "pending", "planned"]


@dataclass(frozen=True)
class Row:
    """One traceability row."""

    item: str
    title: str
    nature: str
    function: str
    test: str
    status: Status = "done"


def conventional_test_name(item: str, prefix: str = "item") -> str:
    """The conventional test name of an item: ``test_item_5_27``, ``test_def_3_4``, ``test_law_L4i``.

    >>> conventional_test_name("5.27"), conventional_test_name("3.4", "def"), conventional_test_name("L4i", "law")
    ('test_item_5_27', 'test_def_3_4', 'test_law_L4i')
    """
    return f"test_{prefix}_{item.replace('.', '_')}"


def _d(item: str, title: str, function: str) -> Row:
    return Row(item, title, "definition", function, conventional_test_name(item, "def"))


def _r(item: str, title: str, nature: str, function: str, status: Status = "done") -> Row:
    return Row(item, title, nature, function, conventional_test_name(item), status)


def _law(key: str, title: str, nature: str) -> Row:
    return Row(key, title, nature, f"coalg.laws.clauses.check_{key}", conventional_test_name(key, "law"))


def _op(n: int, title: str) -> Row:
    return Row(f"OP{n}", title, "proposal", f"coalg.open_problems.check_op{n}", f"test_item_OP{n}")


TABLE: tuple[Row, ...] = (
    # §3.1–3.2 identifiers, records, relations, stores, the alphabet
    _d("3.1", "Identifiers", "coalg.model.records.Id"),
    _d("3.2", "Records", "coalg.model.records.Record"),
    _d("3.3", "Relation vocabulary and its inverse", "coalg.model.records.inverse"),
    _d("3.4", "Store; closure conditions", "coalg.model.store.Store"),
    _d("3.5", "Domain-disjoint union", "coalg.model.store.disjoint_union"),
    _r("3.6", "Partial commutative monoid", "theorem", "coalg.laws.results.check_3_6"),
    _d("3.7", "Operation alphabet; derivation operations", "coalg.model.alphabet.named"),
    _d("3.8", "Allocation oracle; extended alphabet", "coalg.model.alphabet.Oracle"),
    _r("3.9", "Why the oracle", "theorem", "coalg.laws.results.check_3_9"),
    _d("3.10", "Outputs and per-operation semantics (3.10–3.13; numbers uncertain)", "coalg.model.coalgebra.step"),
    _d("3.14", "Store coalgebra", "coalg.model.coalgebra.alpha"),
    _d("3.15", "The type Mem (a single colour)", "coalg.model.realisation.Realisation"),
    _d("3.16", "The functor H and its final coalgebra (3.16–3.17)", "coalg.bisim.bisimilarity.bisimilar"),
    _d("3.18", "Lineage coalgebra", "coalg.model.lineage.beta"),
    _d("3.19", "Ancestry subfunctor; ancestry unfolding", "coalg.model.lineage.ancestry"),
    _r("3.20", "Histories, recording map, bitemporal observation", "definition", "coalg.bitemporal.checks.check_3_20"),
    # Definition 3.21: the laws, clause by clause
    _d("3.21", "The laws L1–L7", "coalg.laws.clauses.law_table"),
    _law("L1", "Record monotonicity", "theorem"),
    _law("L2", "Edge–record agreement", "instantiation"),
    _law("L3", "Inverse closure", "instantiation"),
    _law("L4i", "Namespace locality (i): confinement", "theorem"),
    _law("L4ii", "Namespace locality (ii): construction locality", "instantiation"),
    _law("L5", "Resolution independence", "instantiation"),
    _law("L6", "Bitemporality", "instantiation"),
    _law("L7", "Lineage referential integrity", "instantiation"),
    _r("3.22", "On L4: confinement for the whole alphabet is unsatisfiable", "theorem", "coalg.laws.results.check_3_22"),
    # Definition 3.23: the derivation schema
    _d("3.23", "The derivation schema S1–S4", "coalg.laws.clauses.check_schema"),
    _law("S1", "Additivity (non-destruction)", "instantiation"),
    _law("S2", "Local construction", "instantiation"),
    _law("S3", "Edge support", "instantiation"),
    _law("S4", "Ancestry direction", "instantiation"),
    # §5
    _r("5.1", "L1 holds on the fragment", "instantiation", "coalg.laws.results.check_5_1"),
    _r("5.2", "Delete and save-at break monotonicity and ancestry", "instantiation", "coalg.laws.results.check_5_2"),
    _r("5.6", "ContextFS instantiates the derivation schema", "instantiation", "coalg.laws.results.check_5_6"),
    _r("5.7", "Ancestry is stable", "theorem", "coalg.laws.results.check_5_7"),
    _r("5.9", "The fragment is closed and reachable", "instantiation", "coalg.laws.results.check_5_9"),
    _r("5.12", "Behavioural stability of ancestry", "theorem", "coalg.laws.results.check_5_12"),
    _r("5.13", "Full lineage is not stable", "instantiation", "coalg.laws.results.check_5_13"),
    _r("5.14", "Two ancestry representations that need not agree (L2 fails)", "instantiation",
       "coalg.laws.results.check_5_14"),
    _r("5.15", "Two representations, two fallbacks, two entry shapes", "instantiation", "coalg.laws.results.check_5_15"),
    _r("5.16", "L3 holds for derivation calls", "instantiation", "coalg.laws.results.check_5_16"),
    _r("5.17", "Confinement (L4(i) holds)", "theorem", "coalg.laws.results.check_5_17"),
    _r("5.18", "Merge carries payload across the boundary (L4(ii) fails)", "instantiation",
       "coalg.laws.results.check_5_18"),
    _r("5.19", "Where the merge result is filed", "instantiation", "coalg.laws.results.check_5_19"),
    _r("5.20", "The merged type depends on an undeclared order (L5 fails)", "instantiation",
       "coalg.laws.results.check_5_20"),
    _d("5.23", "Allocation-blind bisimilarity", "coalg.bisim.bisimilarity.allocation_blind_bisimilar"),
    _r("5.24", "Merge is idempotent up to allocation-blind bisimilarity", "theorem", "coalg.laws.results.check_5_24"),
    _r("5.25", "Merge is not commutative, even up to ≈", "instantiation", "coalg.laws.results.check_5_25"),
    _r("5.27", "Valid time is unrecoverable", "theorem", "coalg.bitemporal.checks.check_5_27"),
    _r("5.30", "L7 fails: reachable stores with dangling edges", "instantiation", "coalg.laws.results.check_5_30"),
    # §6 composition
    _r("6.1", "What a consumer may cache", "theorem", "coalg.composition.checks.check_6_1"),
    _r("6.2", "Frame property", "theorem", "coalg.composition.checks.check_6_2"),
    _r("6.3", "The frame property fails for recall by prefix", "instantiation", "coalg.composition.checks.check_6_3"),
    _r("6.4", "Lineage observation does not compose under ⊎", "theorem", "coalg.composition.checks.check_6_4"),
    _r("6.5", "Mention-disjoint union", "definition", "coalg.composition.checks.check_6_5"),
    _r("6.6", "The refined union behaves", "theorem", "coalg.composition.checks.check_6_6"),
    _r("6.8", "When prefix resolution starts to bite", "instantiation", "coalg.composition.checks.check_6_8"),
    # §7 limits
    _r("7.1", "Bitemporal repair", "theorem", "coalg.bitemporal.checks.check_7_1"),
    # 7.3 is read off the released package (issue 7: the real ContextFS at runtime)
    _r("7.3", "Missing run-scoped state", "runtime", "coalg.contextfs.runtime.check_7_3"),
    # the same results observed on the released contextfs 0.2.35 (issue 7; coalg.contextfs.runtime)
    _r("R5.2", "Delete and replacement change a survivor's ancestry (runtime)", "runtime", "coalg.contextfs.runtime.check_R5_2"),
    _r("R5.14", "Metadata ancestry and edges disagree (runtime)", "runtime", "coalg.contextfs.runtime.check_R5_14"),
    _r("R5.18", "Merge carries payload across namespaces (runtime)", "runtime", "coalg.contextfs.runtime.check_R5_18"),
    _r("R5.20", "Merged type depends on PYTHONHASHSEED (runtime)", "runtime", "coalg.contextfs.runtime.check_R5_20"),
    _r("R5.30", "Reachable stores with dangling edges (runtime)", "runtime", "coalg.contextfs.runtime.check_R5_30"),
    _r("R6.3", "Prefix recall crosses namespaces (runtime)", "runtime", "coalg.contextfs.runtime.check_R6_3"),
    # §9 open problems: executable proposals (coalg.open_problems)
    _op(1, "The second axis: a merge rule for valid time"),
    _op(2, "A merge that reads only what it is given"),
    _op(3, "One ancestry representation: reconciling existing stores"),
    _op(4, "Identifier resolution and composition"),
    _op(5, "Persisting the version model"),
    _op(6, "Deletion: stores with tombstones"),
)
"""The traceability table, in paper order."""


def rows(status: Status | None = None) -> list[Row]:
    """The rows of :data:`TABLE`, optionally only those with ``status``."""
    return [r for r in TABLE if status is None or r.status == status]


def by_item(item: str) -> Row:
    """The row of ``item``; ``KeyError`` if the table has none."""
    for r in TABLE:
        if r.item == item:
            return r
    raise KeyError(item)


def resolve(path: str) -> Any:
    """Import the object a dotted path names (``coalg.laws.results.check_5_7``), longest module prefix first.

    >>> resolve("coalg.model.store.Store").__name__
    'Store'
    """
    parts = path.split(".")
    for k in range(len(parts) - 1, 0, -1):
        try:
            obj: Any = importlib.import_module(".".join(parts[:k]))
        except ModuleNotFoundError:
            continue
        for name in parts[k:]:
            obj = getattr(obj, name)
        return obj
    raise ImportError(f"cannot import {path}")


def table_json() -> list[dict[str, str]]:
    """The table as JSON-ready rows (for the book's traceability appendix)."""
    return [{"item": r.item, "title": r.title, "nature": r.nature, "function": r.function, "test": r.test,
             "status": r.status} for r in TABLE]
