"""Laws checked on one step: which clauses held on *this* call, with the witness when one failed.

:mod:`coalg.laws.clauses` settles each clause by searching many words; an explorer
needs the opposite view — one call ``s --a--> s′`` that a reader just made, and
for each clause whether this step kept it.  The per-step forms are those of
:mod:`coalg.laws.clauses` restricted to a single transition (the tests check that they
agree with the search's own step checks on every explored transition):

* **L1** record monotonicity — scope: a fresh save or a derivation named by
  equality.  Held: no record removed or changed, no edge removed.
* **L2** edge–record agreement — scope: the records this call created by a
  derivation (evolve, merge, split).  Held: for each such record ``i`` and
  r ∈ R⁻, ``{j : (i, r, j) ∈ E} = meta_r(view(i))`` (the realisation's reader).
* **L3** inverse closure of the added edges — scope: any call that added
  edges.  Held: every added edge has its inverse in E_s′.
* **L4** confinement, L4(i) — scope: a call of A_ν(s) with a strictly fresh
  allocation.  Held: running it on π_ν(s) gives ``(o, π_ν(s′))`` and every
  other namespace is unchanged.
* **L7** lineage referential integrity — scope: any call that changed the
  store.  Held: the call left no dangling R⁻ ∪ R⁺ edge that was not already
  dangling before it (edges dangling before are listed in the explanation).

A clause outside its scope is ``"n/a"`` with the reason; a failed call
(output ``Err``) leaves the store unchanged and makes every clause ``"n/a"``.

Examples
--------
>>> from coalg.model.alphabet import Allocation, Evolve, Supersede
>>> from coalg.model.examples import preset
>>> from coalg.model.realisation import CONTEXTFS
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

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

from ..model import (
    ANCESTRY,
    DEFAULT_THETA,
    DERIVATIONS,
    LINEAGE,
    Allocation,
    Call,
    Created,
    Edge,
    Err,
    Id,
    Letter,
    Output,
    Realisation,
    Save,
    Store,
    Theta,
    call_to_json,
    edge_to_json,
    inverse,
    is_fragment,
    named,
    output_to_json,
    restrict,
)
from .clauses import l2_disagreement
from .exploration import show_call

__all__ = [
    "CLAUSES",
    "TITLES",
    "ClauseResult",
    "StepReport",
    "check_L1",
    "check_L2",
    "check_L3",
    "check_L4",
    "check_L7",
    "check_step",
    "step_and_check",
]

Status = Literal["held", "failed", "n/a"]

_NO_ALLOCATION = Allocation()

CLAUSES = ("L1", "L2", "L3", "L4", "L7")
TITLES = {
    "L1": "record monotonicity",
    "L2": "edge–record agreement",
    "L3": "inverse closure",
    "L4": "confinement",
    "L7": "lineage referential integrity",
}


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
    """Every clause of :data:`CLAUSES` on the step ``before --call--> after``."""

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


def _ids(xs: Iterable[Id]) -> str:
    return "[" + ", ".join(sorted(xs)) + "]"


def _edges_json(es: Iterable[Edge]) -> list[list[str]]:
    return [edge_to_json(e) for e in sorted(es)]


def _failed_call(call: Call, output: Output) -> str | None:
    if isinstance(output, Err):
        return f"{show_call(call)} failed ({output.reason}); the store is unchanged"
    return None


def _created(call: Call, output: Output) -> tuple[Id, ...]:
    if isinstance(output, Created) and call.letter.kind != "save_at":
        return output.ids
    return ()


# --------------------------------------------------------------------------- L1


def check_L1(before: Store, call: Call, output: Output, after: Store) -> ClauseResult:
    """L1 record monotonicity on one step (fresh saves and derivations by equality)."""
    a = call.letter
    lost = sorted(before.dom() - after.dom())
    changed = sorted(i for i in before.dom() & after.dom() if before.records[i] != after.records[i])
    lost_edges = before.edges - after.edges
    what = "; ".join(x for x in (
        f"removed records {_ids(lost)}" if lost else "",
        f"changed records {_ids(changed)}" if changed else "",
        f"removed {len(lost_edges)} edge(s)" if lost_edges else "") if x)
    failed = _failed_call(call, output)
    if failed:
        return ClauseResult("L1", "n/a", failed)
    if not (is_fragment(a) and a.kind in ("save", *DERIVATIONS)):
        note = f"; this step {what} (outside the fragment monotonicity can fail: Proposition 5.2)" if what else ""
        return ClauseResult("L1", "n/a", f"{a.kind} is not a fresh save or a derivation by equality{note}.")
    if not what:
        return ClauseResult("L1", "held", f"{show_call(call)} kept every record and every edge.")
    return ClauseResult(
        "L1", "failed", f"{show_call(call)} {what}: the carrier did not grow monotonically.",
        {"lost_records": lost, "changed_records": changed, "lost_edges": _edges_json(lost_edges)})


# --------------------------------------------------------------------------- L2


def check_L2(realisation: Realisation, before: Store, call: Call, output: Output, after: Store) -> ClauseResult:
    """L2 edge–record agreement for the records this step created by a derivation."""
    failed = _failed_call(call, output)
    if failed:
        return ClauseResult("L2", "n/a", failed)
    a = call.letter
    derived = _created(call, output) if a.kind in ("evolve", "merge", "split") else ()
    if not derived:
        return ClauseResult("L2", "n/a", f"{a.kind} created no record by a derivation.")
    for i in sorted(derived):
        if i not in after.records:
            continue
        found = l2_disagreement(realisation, after, i)
        if found is not None:
            text = found.pop("text")
            return ClauseResult("L2", "failed", f"{show_call(call)} {text}", found)
    return ClauseResult("L2", "held",
                        f"the ancestry metadata of {_ids(derived)} agrees with its edges.")


# --------------------------------------------------------------------------- L3


def check_L3(before: Store, call: Call, output: Output, after: Store) -> ClauseResult:
    """L3 inverse closure of the edges this step added."""
    failed = _failed_call(call, output)
    if failed:
        return ClauseResult("L3", "n/a", failed)
    added = after.edges - before.edges
    if not added:
        return ClauseResult("L3", "n/a", f"{call.letter.kind} added no edge.")
    one_way = sorted(e for e in added if Edge(e.target, inverse(e.relation), e.source) not in after.edges)
    if not one_way:
        return ClauseResult("L3", "held", f"all {len(added)} added edge(s) came with their inverses.")
    e = one_way[0]
    return ClauseResult(
        "L3", "failed",
        f"{show_call(call)} added {e} but not its inverse ({e.target}, {inverse(e.relation).name}, {e.source}).",
        {"one_way_edges": _edges_json(one_way)})


# --------------------------------------------------------------------------- L4


def _fibre_of(before: Store, a: Letter) -> str | None:
    if not is_fragment(a):
        return None
    if isinstance(a, Save):
        return a.record.namespace
    nm = named(a)
    if not nm or any(i not in before.records for i in nm):
        return None
    spaces = {before.records[i].namespace for i in nm}
    return next(iter(spaces)) if len(spaces) == 1 else None


def check_L4(realisation: Realisation, before: Store, call: Call, output: Output, after: Store,
             *, theta: Theta = DEFAULT_THETA) -> ClauseResult:
    """L4(i) confinement on one step: the call commutes with π_ν and leaves other namespaces alone."""
    a, xi = call.letter, call.allocation
    nu = _fibre_of(before, a)
    if nu is None:
        spaces = sorted({before.records[i].namespace for i in named(a) if i in before.records})
        why = (f"it names records of several namespaces {spaces}" if len(spaces) > 1
               else "it is not a fragment call naming records of one namespace")
        return ClauseResult("L4", "n/a", f"{a.kind} is not in A_ν(s) for any ν: {why}.")
    if not xi.strictly_fresh(before):
        return ClauseResult("L4", "n/a", "the allocation is not strictly fresh (it re-uses a mentioned identifier).")
    small = restrict(before, nu)
    out_r, after_r = realisation.step(small, a, xi, theta=theta, faults=call.faults)
    want = restrict(after, nu)
    if out_r != output or after_r != want:
        return ClauseResult(
            "L4", "failed",
            f"{show_call(call)} names only records of {nu}, but running it on π_{nu}(s) does not give "
            f"(o, π_{nu}(s′)).",
            {"namespace": nu, "restricted_output": output_to_json(out_r), "output": output_to_json(output)})
    for other in sorted((set(before.namespaces()) | set(after.namespaces())) - {nu}):
        if restrict(after, other) != restrict(before, other):
            return ClauseResult("L4", "failed",
                                f"{show_call(call)} names only records of {nu} but changed namespace {other}.",
                                {"namespace": nu, "changed_namespace": other})
    return ClauseResult("L4", "held", f"the call stayed inside namespace {nu}.")


# --------------------------------------------------------------------------- L7


def check_L7(before: Store, call: Call, output: Output, after: Store) -> ClauseResult:
    """L7 (lineage form) on one step: no new dangling R⁻ ∪ R⁺ edge.  Other labels are reported, not judged."""
    failed = _failed_call(call, output)
    if failed:
        return ClauseResult("L7", "n/a", failed)
    if after == before:
        return ClauseResult("L7", "n/a", "the store did not change.")
    old = before.dangling_edges(LINEAGE)
    now = after.dangling_edges(LINEAGE)
    new = sorted(now - old, key=lambda e: (e.relation not in ANCESTRY, e))
    other = sorted(after.dangling_edges() - before.dangling_edges() - now)
    note = f" ({len(now & old)} lineage edge(s) were dangling already)" if now & old else ""
    if new:
        e = new[0]
        missing = sorted({x for x in (e.source, e.target) if x not in after.records})
        return ClauseResult(
            "L7", "failed",
            f"{show_call(call)} left the edge {e} whose endpoint {', '.join(missing)} holds no record{note}.",
            {"dangling_edges": _edges_json(new), "missing_endpoints": missing})
    if other:
        missing = sorted({x for e in other for x in (e.source, e.target) if x not in after.records})
        return ClauseResult(
            "L7", "held",
            f"no lineage edge dangles; the non-lineage edge {other[0]} does (L7's strong form fails, "
            f"its lineage form holds){note}.",
            {"dangling_edges": _edges_json(other), "missing_endpoints": missing})
    return ClauseResult("L7", "held", f"no lineage edge dangles after the call{note}.")


# --------------------------------------------------------------------------- all clauses


def check_step(realisation: Realisation, before: Store, call: Call, output: Output, after: Store,
               *, theta: Theta = DEFAULT_THETA) -> StepReport:
    """Every clause of :data:`CLAUSES` on one recorded step."""
    results = (
        check_L1(before, call, output, after),
        check_L2(realisation, before, call, output, after),
        check_L3(before, call, output, after),
        check_L4(realisation, before, call, output, after, theta=theta),
        check_L7(before, call, output, after),
    )
    return StepReport(call, output, before, after, results)


def step_and_check(realisation: Realisation, s: Store, a: Letter, xi: Allocation = _NO_ALLOCATION, *,
                   theta: Theta = DEFAULT_THETA, faults: frozenset[int] = frozenset()) -> StepReport:
    """Run ``a`` with allocation ``xi`` at ``s`` on ``realisation`` and check the step."""
    call = Call(a, xi, faults)
    out, after = realisation.step(s, a, xi, theta=theta, faults=faults)
    return check_step(realisation, s, call, out, after, theta=theta)


