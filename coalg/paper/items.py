"""The paper's numbered items, as data: the one table every other registry is read from.

One row per item of the paper's index (definitions, the law clauses L1–L7 and
schema clauses S1–S4 of Definitions 3.21 and 3.23, lemmas, propositions,
theorems, corollaries, the remarks that carry content), per runtime observation
of a result on the released package, and per open problem OP1–OP6.  A row says

* ``title`` — what the item is called (``coalg witness --list`` prints it);
* ``nature`` — ``theorem`` (proved from the definitions), ``instantiation`` (a
  reading of ContextFS at a93035d), ``runtime`` (observed on the released
  package), ``definition``, or ``proposal`` (an open problem's executable
  proposal, §9);
* ``function`` — the dotted path of the coalg function (or class) that makes it
  executable;
* ``test`` — the test that checks it: ``test_item_<n>`` for an item with a
  witness (dots as underscores, ``test_item_5_27``), ``test_def_<n>`` for a
  definition, ``test_law_<key>`` for a law or schema clause;
* ``status`` — ``done``; ``pending`` for an item another module will register but
  has not yet; ``planned`` for an item of a later issue;
* ``kind`` — for an item whose function is a *witness* (``coalg witness ITEM``):
  ``property`` (it checks that something holds) or ``counterexample`` (it
  exhibits a failure); ``None`` otherwise;
* ``table2`` — for a law or schema clause, its columns of the paper's Table 2.

This module imports nothing from coalg: :mod:`coalg.paper.verdict` (the
``@paper_item`` decorator validates against it), :mod:`coalg.laws` (clause
titles), :mod:`coalg.paper.traceability` and :mod:`coalg.paper.registry` all
read it.

>>> numbered("5.7").function, numbered("5.7").test, numbered("5.7").kind
('coalg.laws.stability.check_5_7', 'test_item_5_7', 'property')
>>> numbered("L4i").table2.title
'confinement'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = [
    "NUMBERED",
    "Kind",
    "Nature",
    "NumberedItem",
    "Status",
    "Table2Entry",
    "conventional_test_name",
    "numbered",
    "witness_items",
]

Kind = Literal["counterexample", "property"]
Nature = Literal["theorem", "instantiation", "runtime", "definition", "proposal"]
Status = Literal["done", "pending", "planned"]


@dataclass(frozen=True)
class Table2Entry:
    """One row of the book's law summary (Table 2) for a law or schema clause.

    The paper's Table 2 did not survive extraction; these columns are the
    book's.  ``title`` is the clause's short name in the law table, ``result``
    the result that settles it, ``repair`` what a repair needs in the book's
    reading ("—" when it holds).
    """

    title: str
    result: str
    repair: str = "—"


@dataclass(frozen=True)
class NumberedItem:
    """One numbered item of the paper and where coalg makes it executable."""

    item: str
    title: str
    nature: Nature
    function: str
    test: str
    status: Status = "done"
    kind: Kind | None = None
    table2: Table2Entry | None = None


def conventional_test_name(item: str, prefix: str = "item") -> str:
    """The conventional test name of an item: ``test_item_5_27``, ``test_def_3_4``, ``test_law_L4i``.

    >>> conventional_test_name("5.27"), conventional_test_name("3.4", "def"), conventional_test_name("L4i", "law")
    ('test_item_5_27', 'test_def_3_4', 'test_law_L4i')
    """
    return f"test_{prefix}_{item.replace('.', '_')}"


def _d(item: str, title: str, function: str) -> NumberedItem:
    """A definition, tested by ``test_def_<n>``."""
    return NumberedItem(item, title, "definition", function, conventional_test_name(item, "def"))


def _w(item: str, title: str, nature: Nature, kind: Kind, function: str) -> NumberedItem:
    """An item with a witness (``coalg witness ITEM``), tested by ``test_item_<n>``."""
    return NumberedItem(item, title, nature, function, conventional_test_name(item), kind=kind)


def _law(key: str, title: str, nature: Nature, module: str, table2: Table2Entry) -> NumberedItem:
    """A law or schema clause, checked by ``coalg.laws.<module>.check_<key>`` and tested by ``test_law_<key>``."""
    return NumberedItem(key, title, nature, f"coalg.laws.{module}.check_{key}", conventional_test_name(key, "law"),
                        table2=table2)


def _op(n: int, title: str) -> NumberedItem:
    """Open problem ``n``: an executable proposal, a witness of kind ``property``."""
    return NumberedItem(f"OP{n}", title, "proposal", f"coalg.open_problems.check_op{n}", f"test_item_OP{n}",
                        kind="property")


_LEMMA_5_6 = "Lemma 5.6"

NUMBERED: tuple[NumberedItem, ...] = (
    # §3.1–3.2 identifiers, records, relations, stores, the alphabet
    _d("3.1", "Identifiers", "coalg.model.records.Id"),
    _d("3.2", "Records", "coalg.model.records.Record"),
    _d("3.3", "Relation vocabulary and its inverse", "coalg.model.records.inverse"),
    _d("3.4", "Store; closure conditions", "coalg.model.store.Store"),
    _d("3.5", "Domain-disjoint union", "coalg.model.store.disjoint_union"),
    _w("3.6", "Partial commutative monoid", "theorem", "property", "coalg.laws.foundations.check_3_6"),
    _d("3.7", "Operation alphabet; derivation operations", "coalg.model.alphabet.named"),
    _d("3.8", "Allocation oracle; extended alphabet", "coalg.model.alphabet.Oracle"),
    _w("3.9", "Why the oracle", "theorem", "counterexample", "coalg.laws.foundations.check_3_9"),
    _d("3.10", "Outputs and per-operation semantics (3.10–3.13; numbers uncertain)", "coalg.model.coalgebra.step"),
    _d("3.14", "Store coalgebra", "coalg.model.coalgebra.alpha"),
    _d("3.15", "The type Mem (a single colour)", "coalg.model.realisation.Realisation"),
    _d("3.16", "The functor H and its final coalgebra (3.16–3.17)", "coalg.bisim.bisimilarity.bisimilar"),
    _d("3.18", "Lineage coalgebra", "coalg.model.lineage.beta"),
    _d("3.19", "Ancestry subfunctor; ancestry unfolding", "coalg.model.lineage.ancestry"),
    NumberedItem("3.20", "Histories, recording map, bitemporal observation", "definition",
                 "coalg.bitemporal.checks.check_3_20", conventional_test_name("3.20"), kind="property"),
    # Definition 3.21: the laws, clause by clause
    _d("3.21", "The laws L1–L7", "coalg.laws.table.law_table"),
    _law("L1", "Record monotonicity", "theorem", "monotonicity",
         Table2Entry("record monotonicity", "Prop 5.1 (S1 read as a law); outside the fragment Prop 5.2")),
    _law("L2", "Edge–record agreement", "instantiation", "agreement",
         Table2Entry("edge–record agreement", "Prop 5.14, Rem 5.15",
                     "edges are the one representation; metadata ancestry is derived from them")),
    _law("L3", "Inverse closure", "instantiation", "inverse_closure",
         Table2Entry("inverse closure", "Prop 5.16",
                     "record and edge pair written atomically; link always writes the inverse")),
    _law("L4i", "Namespace locality (i): confinement", "theorem", "locality",
         Table2Entry("confinement", "Prop 5.17")),
    _law("L4ii", "Namespace locality (ii): construction locality", "instantiation", "locality",
         Table2Entry("construction locality", "Prop 5.18, Rem 5.19",
                     "a merge across namespaces is refused (explicit namespace comparison)")),
    _law("L5", "Resolution independence", "instantiation", "resolution",
         Table2Entry("resolution independence", "Prop 5.20, Prop 6.3",
                     "declared tie-break (least tied type); resolution by equality")),
    _law("L6", "Bitemporality", "instantiation", "bitemporality",
         Table2Entry("bitemporality", "Thm 5.27",
                     "a valid-time field filled from the call's valid-time argument (Prop 7.1)")),
    _law("L7", "Lineage referential integrity", "instantiation", "integrity",
         Table2Entry("lineage referential integrity", "Prop 5.30",
                     "existence checks on every edge write; tombstone deletion keeps endpoints")),
    _w("3.22", "On L4: confinement for the whole alphabet is unsatisfiable", "theorem", "counterexample",
       "coalg.laws.locality.check_3_22"),
    # Definition 3.23: the derivation schema
    _d("3.23", "The derivation schema S1–S4", "coalg.laws.schema.check_schema"),
    _law("S1", "Additivity (non-destruction)", "instantiation", "schema", Table2Entry("additivity", _LEMMA_5_6)),
    _law("S2", "Local construction", "instantiation", "schema", Table2Entry("local construction", _LEMMA_5_6)),
    _law("S3", "Edge support", "instantiation", "schema", Table2Entry("edge support", _LEMMA_5_6)),
    _law("S4", "Ancestry direction", "instantiation", "schema", Table2Entry("ancestry direction", _LEMMA_5_6)),
    # §5
    _w("5.1", "L1 holds on the fragment", "instantiation", "property", "coalg.laws.monotonicity.check_5_1"),
    _w("5.2", "Delete and save-at break monotonicity and ancestry", "instantiation", "counterexample",
       "coalg.laws.monotonicity.check_5_2"),
    _w("5.6", "ContextFS instantiates the derivation schema", "instantiation", "property",
       "coalg.laws.schema.check_5_6"),
    _w("5.7", "Ancestry is stable", "theorem", "property", "coalg.laws.stability.check_5_7"),
    _w("5.9", "The fragment is closed and reachable", "instantiation", "property", "coalg.laws.stability.check_5_9"),
    _w("5.12", "Behavioural stability of ancestry", "theorem", "property", "coalg.laws.stability.check_5_12"),
    _w("5.13", "Full lineage is not stable", "instantiation", "counterexample", "coalg.laws.stability.check_5_13"),
    _w("5.14", "Two ancestry representations that need not agree (L2 fails)", "instantiation", "counterexample",
       "coalg.laws.agreement.check_5_14"),
    _w("5.15", "Two representations, two fallbacks, two entry shapes", "instantiation", "counterexample",
       "coalg.laws.agreement.check_5_15"),
    _w("5.16", "L3 holds for derivation calls", "instantiation", "property", "coalg.laws.inverse_closure.check_5_16"),
    _w("5.17", "Confinement (L4(i) holds)", "theorem", "property", "coalg.laws.locality.check_5_17"),
    _w("5.18", "Merge carries payload across the boundary (L4(ii) fails)", "instantiation", "counterexample",
       "coalg.laws.locality.check_5_18"),
    _w("5.19", "Where the merge result is filed", "instantiation", "property", "coalg.laws.locality.check_5_19"),
    _w("5.20", "The merged type depends on an undeclared order (L5 fails)", "instantiation", "counterexample",
       "coalg.laws.resolution.check_5_20"),
    _d("5.23", "Allocation-blind bisimilarity", "coalg.bisim.bisimilarity.allocation_blind_bisimilar"),
    _w("5.24", "Merge is idempotent up to allocation-blind bisimilarity", "theorem", "property",
       "coalg.laws.merge.check_5_24"),
    _w("5.25", "Merge is not commutative, even up to ≈", "instantiation", "counterexample",
       "coalg.laws.merge.check_5_25"),
    _w("5.27", "Valid time is unrecoverable", "theorem", "property", "coalg.bitemporal.checks.check_5_27"),
    _w("5.30", "L7 fails: reachable stores with dangling edges", "instantiation", "counterexample",
       "coalg.laws.integrity.check_5_30"),
    # §6 composition
    _w("6.1", "What a consumer may cache", "theorem", "property", "coalg.composition.checks.check_6_1"),
    _w("6.2", "Frame property", "theorem", "property", "coalg.composition.checks.check_6_2"),
    _w("6.3", "The frame property fails for recall by prefix", "instantiation", "counterexample",
       "coalg.composition.checks.check_6_3"),
    _w("6.4", "Lineage observation does not compose under ⊎", "theorem", "counterexample",
       "coalg.composition.checks.check_6_4"),
    _w("6.5", "Mention-disjoint union", "definition", "property", "coalg.composition.checks.check_6_5"),
    _w("6.6", "The refined union behaves", "theorem", "property", "coalg.composition.checks.check_6_6"),
    _w("6.8", "When prefix resolution starts to bite", "instantiation", "property", "coalg.composition.checks.check_6_8"),
    # §7 limits
    _w("7.1", "Bitemporal repair", "theorem", "property", "coalg.bitemporal.checks.check_7_1"),
    # 7.3 is read off the released package (the real ContextFS at runtime)
    _w("7.3", "Missing run-scoped state", "runtime", "property", "coalg.contextfs.runtime.check_7_3"),
    # the same results observed on the released contextfs 0.2.35 (coalg.contextfs.runtime)
    _w("R5.2", "Delete and replacement change a survivor's ancestry (runtime, Prop. 5.2)", "runtime",
       "counterexample", "coalg.contextfs.runtime.check_R5_2"),
    _w("R5.14", "Metadata ancestry and edges disagree (runtime, Prop. 5.14)", "runtime", "counterexample",
       "coalg.contextfs.runtime.check_R5_14"),
    _w("R5.18", "Merge carries payload across namespaces (runtime, Prop. 5.18)", "runtime", "counterexample",
       "coalg.contextfs.runtime.check_R5_18"),
    _w("R5.20", "Merged type depends on PYTHONHASHSEED (runtime, Prop. 5.20)", "runtime", "counterexample",
       "coalg.contextfs.runtime.check_R5_20"),
    _w("R5.30", "Reachable stores with dangling edges (runtime, Prop. 5.30)", "runtime", "counterexample",
       "coalg.contextfs.runtime.check_R5_30"),
    _w("R6.3", "Prefix recall crosses namespaces (runtime, Prop. 6.3)", "runtime", "counterexample",
       "coalg.contextfs.runtime.check_R6_3"),
    # §9 open problems: executable proposals (coalg.open_problems)
    _op(1, "The second axis: a merge rule for valid time"),
    _op(2, "A merge that reads only what it is given"),
    _op(3, "One ancestry representation: reconciling existing stores"),
    _op(4, "Identifier resolution and composition"),
    _op(5, "Persisting the version model"),
    _op(6, "Deletion: stores with tombstones"),
)
"""Every numbered item, in paper order."""

_BY_ITEM = {row.item: row for row in NUMBERED}


def numbered(item: str) -> NumberedItem:
    """The row of ``item``; ``KeyError`` naming the item if the table has none."""
    try:
        return _BY_ITEM[item]
    except KeyError:
        raise KeyError(f"{item!r} is not a numbered item of coalg.paper.items") from None


def _sort_key(item: str) -> tuple[int, tuple[int, ...], str]:
    parts = item.split(".")
    if all(p.isdigit() for p in parts):
        return (0, tuple(int(p) for p in parts), "")
    return (1, (), item)


def witness_items() -> list[str]:
    """The items with a witness (``coalg witness ITEM``), numbers first in numeric order, then OP… and R….

    >>> witness_items()[:3], witness_items()[-2:]
    (['3.6', '3.9', '3.20'], ['R5.30', 'R6.3'])
    """
    return sorted((row.item for row in NUMBERED if row.kind is not None), key=_sort_key)
