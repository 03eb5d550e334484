"""Inverse closure: law L3 (Def. 3.21) and Proposition 5.16.

Proposition 5.16: L3 holds for derivation calls, edge writes succeeding; on the
fault path a one-way edge remains.

The form checked: every edge a derivation adds has its inverse in E_s′ (not
necessarily new).  The fault path — a failing second edge write — is
:func:`l3_fault_path`.  The predicate, :func:`one_way_edges`, also serves the
per-step check (:mod:`coalg.laws.stepcheck`).

>>> from coalg.model import CONTEXTFS
>>> v = l3_fault_path(CONTEXTFS)
>>> v.holds, v.witness["word"][0]["faults"]
(False, [1])
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..model import CONTEXTFS, DERIVATIONS, Call, Edge, Realisation, Store, inverse, is_fragment
from ..paper import Verdict, paper_item
from .clause import Clause, check, checker
from .common import law_item
from .exploration import Transition
from .search import Violation, edges_json

__all__ = ["L3", "L3_FAULT_PATH", "check_5_16", "check_L3", "l3_fault_path", "one_way_edges"]


def one_way_edges(before: Store, call: Call, after: Store) -> Violation | None:
    """The edges the call added whose inverse is not in E_s′, or ``None`` if every one came with its inverse."""
    one_way = sorted(e for e in after.edges - before.edges
                     if Edge(e.target, inverse(e.relation), e.source) not in after.edges)
    if not one_way:
        return None
    e = one_way[0]
    return Violation({"one_way_edges": edges_json(one_way)},
                     f"added {e} but not its inverse ({e.target}, {inverse(e.relation).name}, {e.source}).").of_call(call)


def _step(realisation: Realisation, t: Transition) -> tuple[int, Violation | None]:
    a = t.call.letter
    if not (is_fragment(a) and a.kind in DERIVATIONS):
        return 0, None
    return 1, one_way_edges(t.before, t.call, t.after)


def _fault_path_details(realisation: Realisation, faults: bool) -> dict[str, Any]:
    if not realisation.edge_faults or faults:
        return {}
    fp = l3_fault_path(realisation)
    return {"fault_path": {"holds": fp.holds, "summary": fp.summary,
                           "explanation": None if fp.witness is None else fp.witness["explanation"]}}


L3 = Clause(
    "L3",
    statement="L3 inverse closure: every edge a derivation adds has its inverse in E_s′.\n\n"
              "``faults`` as in ``check_L1``; the fault path of a realisation with\n"
              "independent edge faults is :func:`l3_fault_path`.",
    explored="(store, call) pairs whose call is a derivation (evolve, merge, split, supersede) named by equality",
    reading="derivation calls (evolve, merge, split, supersede; identifiers by equality); {faults}",
    holds="every edge a derivation added came with its inverse ({n} calls)",
    step=_step, random_seed=3, faults=None, fault_choice=True, details=_fault_path_details,
)
"""L3 as the search checks it; a realisation with independent edge faults also gets its fault path."""

L3_FAULT_PATH = replace(
    L3, statement="L3 on the fault path: a failing second edge write leaves a one-way edge (ContextFS).",
    reading="derivation calls with every single failing edge write (the fault path)",
    holds="no failing edge write leaves a one-way edge ({n} calls)",
    faults=True, fault_choice=False, max_len=1, random_seed=0, details=None,
)
"""L3 under every single failing edge write."""

check_L3 = checker(L3, __name__)


def l3_fault_path(realisation: Realisation, *, max_len: int = 1) -> Verdict:
    """L3 on the fault path: a failing second edge write leaves a one-way edge (ContextFS)."""
    return check(L3_FAULT_PATH, realisation, max_len=max_len, random_runs=0)


@paper_item("5.16")
def check_5_16() -> Verdict:
    """Proposition 5.16: every derivation adds its edges in inverse pairs (fault-free); the fault path does not."""
    v = check(L3, CONTEXTFS, faults=False)
    fp = l3_fault_path(CONTEXTFS)
    return law_item("5.16", v, expect_holds=True, extra={"fault_path": fp.witness},
                    summary=f"Proposition 5.16: every edge a ContextFS derivation added came with its inverse "
                            f"({v.explored} calls, edge writes succeeding). Caveat: "
                            + (fp.witness or {}).get("explanation", ""))
