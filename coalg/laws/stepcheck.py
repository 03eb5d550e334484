"""Laws checked on one step: which clauses held on *this* call, with the witness when one failed.

The law search settles each clause by examining many words; an explorer needs
the opposite view — one call ``s --a--> s′`` that a reader just made, and for
each clause whether this step kept it.  Each clause is judged by the same
predicate the search uses, imported from its family module; this module only
decides whether the step is in the clause's scope, and says why when it is not
(``"n/a"``):

* **L1** record monotonicity (:func:`~coalg.laws.monotonicity.monotone`) —
  scope: a fresh save or a derivation named by equality.
* **L2** edge–record agreement (:func:`~coalg.laws.agreement.disagreement`) —
  scope: the records this call created by a derivation (evolve, merge, split).
* **L3** inverse closure (:func:`~coalg.laws.inverse_closure.one_way_edges`) —
  scope: any call that added edges.
* **L4** confinement, L4(i) (:func:`~coalg.laws.locality.confinement`) — scope:
  a call of A_ν(s) with a strictly fresh allocation.
* **L7** lineage referential integrity (:func:`~coalg.laws.integrity.dangling`)
  — scope: any call that changed the store.  Held: the call left no dangling
  R⁻ ∪ R⁺ edge that was not already dangling before it (edges dangling before
  are listed in the explanation).

A failed call (output ``Err``) leaves the store unchanged and makes every
clause but L4 ``"n/a"``; L4(i) asks of a refused call too that it is refused on
π_ν(s) alike.

Examples
--------
>>> from coalg.model import CONTEXTFS, Allocation, Evolve, Supersede, preset
>>> s = preset("meeting notes")
>>> r = step_and_check(CONTEXTFS, s, Evolve("id0005", "merged, revised"), Allocation(("id0100",), 20))
>>> [(c.clause, c.status) for c in r.results]
[('L1', 'held'), ('L2', 'failed'), ('L3', 'held'), ('L4', 'held'), ('L7', 'held')]
>>> print(r.result("L2").explanation)        # Proposition 5.14: the evolved record inherits merged_from
evolve(id0005, 'merged, revised') created id0100 whose metadata says merged_from = [id0002, id0004] but it has no merged_from edge.
>>> r = step_and_check(CONTEXTFS, s, Supersede("gone", "id0001"), Allocation((), 21))
>>> r.result("L7").status, r.result("L7").witness["missing_endpoints"]
('held', ['gone'])
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from ..model import (
    DEFAULT_THETA,
    LINEAGE,
    Allocation,
    Call,
    Created,
    Err,
    Letter,
    Output,
    Realisation,
    Store,
    Theta,
    call_to_json,
    named,
    output_to_json,
)
from .agreement import disagreement
from .display import show_call
from .integrity import dangling
from .inverse_closure import one_way_edges
from .locality import confinement, fibre_of
from .monotonicity import NOT_MONOTONE, is_creating_call, monotone
from .search import Violation, edges_json, ids_text
from .table import INFO

__all__ = [
    "STEP_CLAUSES",
    "TITLES",
    "ClauseResult",
    "StepReport",
    "check_step",
    "step_and_check",
]

Status = Literal["held", "failed", "n/a"]

_NO_ALLOCATION = Allocation()

STEP_CLAUSES = ("L1", "L2", "L3", "L4", "L7")
"""The clauses judged on one step, in order (L4 is its part (i), confinement)."""

TITLES = {key: INFO["L4i" if key == "L4" else key].title for key in STEP_CLAUSES}
"""Each step clause's short title, as in the law table."""


@dataclass(frozen=True)
class ClauseResult:
    """One clause on one step: ``status`` ``"held"``, ``"failed"`` or ``"n/a"``, a sentence, and the witness."""

    clause: str
    status: Status
    explanation: str
    witness: dict[str, Any] | None = None

    @property
    def title(self) -> str:
        return TITLES.get(self.clause, self.clause)

    def to_json(self) -> dict[str, Any]:
        return {"clause": self.clause, "title": self.title, "status": self.status,
                "explanation": self.explanation, "witness": self.witness}


@dataclass(frozen=True)
class StepReport:
    """Every clause of :data:`STEP_CLAUSES` on the step ``before --call--> after``."""

    call: Call
    output: Output
    before: Store
    after: Store
    results: tuple[ClauseResult, ...] = field(default_factory=tuple)

    def result(self, clause: str) -> ClauseResult:
        for r in self.results:
            if r.clause == clause:
                return r
        raise KeyError(clause)

    def held(self) -> tuple[str, ...]:
        return tuple(r.clause for r in self.results if r.status == "held")

    def failed(self) -> tuple[str, ...]:
        return tuple(r.clause for r in self.results if r.status == "failed")

    def to_json(self) -> dict[str, Any]:
        return {"call": call_to_json(self.call), "output": output_to_json(self.output),
                "results": [r.to_json() for r in self.results]}


def _failed(key: str, v: Violation) -> ClauseResult:
    return ClauseResult(key, "failed", v.explanation, v.offending)


def _created(call: Call, output: Output) -> tuple[str, ...]:
    if isinstance(output, Created) and call.letter.kind != "save_at":
        return output.ids
    return ()


def _l1(before: Store, call: Call, after: Store) -> ClauseResult:
    a = call.letter
    v = monotone(before, after)
    if not is_creating_call(a):
        note = (f"; this step {v.explanation} (outside the fragment monotonicity can fail: Proposition 5.2)"
                if v else "")
        return ClauseResult("L1", "n/a", f"{a.kind} is not a fresh save or a derivation by equality{note}.")
    if v is None:
        return ClauseResult("L1", "held", f"{show_call(call)} kept every record and every edge.")
    return _failed("L1", v.of_call(call, NOT_MONOTONE))


def _l2(realisation: Realisation, call: Call, output: Output, after: Store) -> ClauseResult:
    a = call.letter
    derived = _created(call, output) if a.kind in ("evolve", "merge", "split") else ()
    if not derived:
        return ClauseResult("L2", "n/a", f"{a.kind} created no record by a derivation.")
    v = disagreement(realisation, after, derived)
    if v is not None:
        return _failed("L2", v.of_call(call))
    return ClauseResult("L2", "held", f"the ancestry metadata of {ids_text(derived)} agrees with its edges.")


def _l3(before: Store, call: Call, after: Store) -> ClauseResult:
    added = after.edges - before.edges
    if not added:
        return ClauseResult("L3", "n/a", f"{call.letter.kind} added no edge.")
    v = one_way_edges(before, call, after)
    if v is not None:
        return _failed("L3", v)
    return ClauseResult("L3", "held", f"all {len(added)} added edge(s) came with their inverses.")


def _not_in_a_fibre(before: Store, a: Letter) -> str:
    spaces = sorted({before.records[i].namespace for i in named(a) if i in before.records})
    why = (f"it names records of several namespaces {spaces}" if len(spaces) > 1
           else "it is not a fragment call naming records of one namespace")
    return f"{a.kind} is not in A_ν(s) for any ν: {why}."


def _l4(realisation: Realisation, before: Store, call: Call, output: Output, after: Store,
        theta: Theta) -> ClauseResult:
    nu = fibre_of(before, call.letter)
    if nu is None:
        return ClauseResult("L4", "n/a", _not_in_a_fibre(before, call.letter))
    if not call.allocation.strictly_fresh(before):
        return ClauseResult("L4", "n/a", "the allocation is not strictly fresh (it re-uses a mentioned identifier).")
    v = confinement(realisation, nu, before, call, output, after, theta)
    if v is not None:
        return _failed("L4", v)
    return ClauseResult("L4", "held", f"the call stayed inside namespace {nu}.")


def _l7(before: Store, call: Call, after: Store) -> ClauseResult:
    if after == before:
        return ClauseResult("L7", "n/a", "the store did not change.")
    old, now = before.dangling_edges(LINEAGE), after.dangling_edges(LINEAGE)
    note = f" ({len(now & old)} lineage edge(s) were dangling already)" if now & old else ""
    v = dangling(before, after, LINEAGE)
    if v is not None:
        return _failed("L7", v.of_call(call, f"{note}."))
    other = sorted(after.dangling_edges() - before.dangling_edges() - now)
    if other:
        missing = sorted({x for e in other for x in (e.source, e.target) if x not in after.records})
        return ClauseResult(
            "L7", "held",
            f"no lineage edge dangles; the non-lineage edge {other[0]} does (L7's strong form fails, "
            f"its lineage form holds){note}.",
            {"dangling_edges": edges_json(other), "missing_endpoints": missing})
    return ClauseResult("L7", "held", f"no lineage edge dangles after the call{note}.")


def check_step(realisation: Realisation, before: Store, call: Call, output: Output, after: Store,
               *, theta: Theta = DEFAULT_THETA) -> StepReport:
    """Every clause of :data:`STEP_CLAUSES` on one recorded step."""
    l4 = _l4(realisation, before, call, output, after, theta)  # L4 also judges a refused call
    if isinstance(output, Err):
        why = f"{show_call(call)} failed ({output.reason}); the store is unchanged"
        results = tuple(l4 if key == "L4" else ClauseResult(key, "n/a", why) for key in STEP_CLAUSES)
    else:
        results = (
            _l1(before, call, after),
            _l2(realisation, call, output, after),
            _l3(before, call, after),
            l4,
            _l7(before, call, after),
        )
    return StepReport(call, output, before, after, results)


def step_and_check(realisation: Realisation, s: Store, a: Letter, xi: Allocation = _NO_ALLOCATION, *,
                   theta: Theta = DEFAULT_THETA, faults: frozenset[int] = frozenset()) -> StepReport:
    """Run ``a`` with allocation ``xi`` at ``s`` on ``realisation`` and check the step."""
    call = Call(a, xi, faults)
    out, after = realisation.step(s, a, xi, theta=theta, faults=faults)
    return check_step(realisation, s, call, out, after, theta=theta)
