"""Record monotonicity: law L1 (Def. 3.21), Propositions 5.1 and 5.2.

Proposition 5.1: L1 holds on the fragment.  Proposition 5.2: delete and save-at
break it, and ancestry with it.

L1 is checked for fresh saves and derivations named by equality, edge writes
succeeding (our reading: the paper says nothing of failing writes, §5.4) — or, for a realisation without independent
edge faults, under every single failing edge write as well.  Its predicate,
:func:`monotone`, also serves schema clause S1 (:mod:`coalg.laws.schema`) and
the per-step check (:mod:`coalg.laws.stepcheck`).

>>> from coalg.model import CONTEXTFS
>>> check_L1(CONTEXTFS, max_len=1, random_runs=0).holds
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..bisim import ancestry_bisimilar
from ..model import (
    CONTEXTFS,
    DERIVATIONS,
    EMPTY,
    REPAIRED,
    Delete,
    Evolve,
    Id,
    Letter,
    Realisation,
    Record,
    Relation,
    Save,
    SaveAt,
    Store,
    beta_minus,
    is_fragment,
    store_to_json,
)
from ..paper import Verdict, paper_item
from .clause import Clause, check, checker
from .common import calls_of, law_item, observation_json, states_of, word_json
from .exploration import Transition
from .search import Violation, edges_json, ids_text

__all__ = ["CREATING", "L1", "NOT_MONOTONE", "check_5_1", "check_5_2", "check_L1", "is_creating_call", "monotone"]

CREATING = ("save",) + DERIVATIONS
"""The kinds of call that create records: a fresh save and the derivations."""


def is_creating_call(a: Letter) -> bool:
    """A fresh save or a derivation named by equality: the calls L1 and the schema S1–S4 speak of."""
    return is_fragment(a) and a.kind in CREATING


def monotone(before: Store, after: Store) -> Violation | None:
    """What a step lost — records removed or changed, edges removed — or ``None`` if it lost nothing.

    The explanation names the losses only; the caller says which call and which
    clause (:meth:`~coalg.laws.search.Violation.of_call`).
    """
    lost = sorted(before.dom() - after.dom())
    changed = sorted(i for i in before.dom() & after.dom() if before.records[i] != after.records[i])
    lost_edges = before.edges - after.edges
    if not (lost or changed or lost_edges):
        return None
    what = "; ".join(x for x in (
        f"removed records {ids_text(lost)}" if lost else "",
        f"changed records {ids_text(changed)}" if changed else "",
        f"removed {len(lost_edges)} edge(s)" if lost_edges else "") if x)
    return Violation({"lost_records": lost, "changed_records": changed, "lost_edges": edges_json(lost_edges)}, what)


NOT_MONOTONE = ": the carrier did not grow monotonically."
"""How an L1 violation's sentence ends."""


def _step(realisation: Realisation, t: Transition) -> tuple[int, Violation | None]:
    if not is_creating_call(t.call.letter):
        return 0, None
    v = monotone(t.before, t.after)
    return 1, None if v is None else v.of_call(t.call, NOT_MONOTONE)


L1 = Clause(
    "L1",
    statement="L1 record monotonicity: a fresh save or derivation keeps every record and every edge.\n\n"
              "``faults=None`` reads the realisation: the fault-free reading for one whose\n"
              "edge writes can fail on their own (ContextFS; this reading is ours, §5.4), every\n"
              "single failing edge write otherwise (REPAIRED: atomicity is exercised).",
    explored="(store, call) pairs whose call is a fresh save or a derivation named by equality",
    reading="fragment calls (fresh save, evolve, merge, split, supersede; identifiers by equality), strictly fresh "
            "allocations; {faults}",
    holds="no fresh save or derivation removed or changed a record or an edge ({n} calls)",
    step=_step, random_seed=1, faults=None, fault_choice=True,
)
"""L1 as the search checks it."""

check_L1 = checker(L1, __name__)


@paper_item("5.1")
def check_5_1() -> Verdict:
    """Proposition 5.1: every fresh save or derivation of the ContextFS model is monotone (L1)."""
    v = check(L1, CONTEXTFS)
    return law_item("5.1", v, expect_holds=True,
                    summary=f"Proposition 5.1: on the ContextFS model no fresh save or derivation removed or changed "
                            f"a record or an edge ({v.explored} calls) — the methods build new objects and never "
                            "assign to retrieved ones.")


def _five_two_case(letters: Sequence[Letter], j: Id, i: Id) -> dict[str, Any]:
    """Run ``letters`` (the last one the mutation) on ContextFS; compare β⁻ and ⟦·⟧⁻ of ``j`` and ``i``."""
    calls = calls_of(EMPTY, letters)
    states = states_of(CONTEXTFS, EMPTY, letters)
    s, s2 = states[-2], states[-1]
    return {
        "start": store_to_json(EMPTY), "word": word_json(calls), "before": store_to_json(s),
        "after": store_to_json(s2),
        "survivor": j, "beta_minus_before": observation_json(beta_minus(s, j)),
        "beta_minus_after": observation_json(beta_minus(s2, j)),
        "beta_minus_changes": beta_minus(s, j) != beta_minus(s2, j),
        "ancestry_changes": not ancestry_bisimilar(s, j, s2, j),
        "ancestry_of_target_changes": not ancestry_bisimilar(s, i, s2, i) if i in s2.records else None,
    }


@paper_item("5.2")
def check_5_2() -> Verdict:
    """Proposition 5.2: β⁻ of a surviving record changes; its unfolding *can* change.

    (a) ``delete(i)`` with ``(j, EVOLVED_FROM, i)``: β⁻(j) changes, and here — j's only
    ancestor is i — ⟦j⟧⁻ changes: a record that was *not* deleted loses an ancestor.
    (b) ``save_at(i, r′)`` replaces the record: ⟦i⟧⁻ changes, and so does ⟦j⟧⁻.
    The witness also shows why a universal claim would be false: with j merged
    from two records with equal records, deleting one changes β⁻(j) but not
    ⟦j⟧⁻ (P_fin absorbs equal successors).  On REPAIRED, delete leaves a tombstone
    and keeps the edge: the ancestry *shape* survives.
    """
    r = Record("r")
    a = _five_two_case([Save(r), Evolve("id0001", "q"), Delete("id0001")], "id0002", "id0001")
    b = _five_two_case([Save(r), Evolve("id0001", "q"), SaveAt("id0001", Record("r-prime"))], "id0002", "id0001")
    q = Record("q")
    absorb = Store.of({"i": q, "k": q, "j": Record("m")},
                      [("j", Relation.MERGED_FROM, "i"), ("j", Relation.MERGED_FROM, "k"),
                       ("i", Relation.MERGED_INTO, "j"), ("k", Relation.MERGED_INTO, "j")])
    after = CONTEXTFS.step(absorb, Delete("i"))[1]
    universal = {"before": store_to_json(absorb), "after_delete_i": store_to_json(after),
                 "beta_minus_changes": beta_minus(absorb, "j") != beta_minus(after, "j"),
                 "ancestry_changes": not ancestry_bisimilar(absorb, "j", after, "j")}
    rs = states_of(REPAIRED, EMPTY, [Save(r), Evolve("id0001", "q"), Delete("id0001")])
    repaired = {"after": store_to_json(rs[-1]),
                "edge_kept": any(e.relation is Relation.EVOLVED_FROM for e in rs[-1].out_edges("id0002")),
                "ancestry_changes": not ancestry_bisimilar(rs[-2], "id0002", rs[-1], "id0002")}
    holds = bool(a["beta_minus_changes"] and a["ancestry_changes"] and b["ancestry_changes"]
                 and b["ancestry_of_target_changes"] and universal["beta_minus_changes"]
                 and not universal["ancestry_changes"])
    return Verdict("5.2", "counterexample", holds, 5,
                   {"a_delete": a, "b_save_at": b, "universal_claim_refuted": universal, "repaired_delete": repaired},
                   "Proposition 5.2: delete(id0001) removes the EVOLVED_FROM edge of the surviving "
                   "id0002, so β⁻ and ⟦id0002⟧⁻ change; save_at(id0001, r′) changes ⟦id0001⟧⁻ and ⟦id0002⟧⁻. "
                   "Only 'can change' is true: deleting one of two equal merge parents leaves ⟦j⟧⁻ unchanged.")
