"""Namespace locality: law L4 (Def. 3.21) in its two parts, Remark 3.22 and Propositions 5.17–5.19.

Remark 3.22: confinement for the whole alphabet is unsatisfiable.  Proposition
5.17: confinement holds.  Proposition 5.18: merge carries payload across the
boundary.  Remark 5.19: where the merge result is filed.

* **L4(i)** confinement, with strictly fresh allocations (the oracle's) and the
  letters of A_ν(s) (:func:`fibre_of`): α(π_ν s)(a) = (o, π_ν s′), and every
  other namespace is unchanged (:func:`confinement`, shared with the per-step
  check of :mod:`coalg.laws.stepcheck`).
* **L4(ii)** construction locality, as the two-store comparison: stores with
  equal π_ν restriction (:func:`perturbations`), the same call and allocation,
  compared on the records created in ν.
"""

from __future__ import annotations

from typing import Any

from ..model import (
    CONTEXTFS,
    REPAIRED,
    Call,
    Created,
    Err,
    Letter,
    Merge,
    Output,
    Realisation,
    Recall,
    Record,
    Save,
    Store,
    Theta,
    call_to_json,
    fibre,
    is_fragment,
    named,
    output_to_json,
    record_to_json,
    restrict,
    store_to_json,
)
from ..paper import Verdict, paper_item
from .clause import Clause, check, checker
from .common import SCHEMA_REALISATIONS, law_item, word_json
from .exploration import Transition, explore
from .search import Violation
from .seeds import allocate, seed_named

__all__ = [
    "L4I",
    "L4II",
    "check_3_22",
    "check_5_17",
    "check_5_18",
    "check_5_19",
    "check_L4i",
    "check_L4ii",
    "confinement",
    "fibre_of",
    "perturbations",
]


# --------------------------------------------------------------------------- L4(i) confinement


def fibre_of(s: Store, a: Letter) -> str | None:
    """ν with ``a`` in A_ν(s), or ``None``: a fragment call naming only records of ν (a fresh save: its record's)."""
    if not is_fragment(a):
        return None
    if isinstance(a, Save):
        return a.record.namespace
    nm = named(a)
    if not nm or any(i not in s.records for i in nm):
        return None
    spaces = {s.records[i].namespace for i in nm}
    return next(iter(spaces)) if len(spaces) == 1 else None


def confinement(realisation: Realisation, nu: str, before: Store, call: Call, output: Output, after: Store,
                theta: Theta) -> Violation | None:
    """L4(i) for a call of A_ν(before): it commutes with π_ν and leaves every other namespace unchanged."""
    a, xi = call.letter, call.allocation
    small = restrict(before, nu)
    out_r, after_r = realisation.step(small, a, xi, theta=theta, faults=call.faults)
    want = restrict(after, nu)
    if out_r != output or after_r != want:
        return Violation(
            {"namespace": nu, "restricted_before": store_to_json(small),
             "restricted_output": output_to_json(out_r), "output": output_to_json(output),
             "restricted_after": store_to_json(after_r), "expected": store_to_json(want)},
            f"names only records of {nu}, but running it on π_{nu}(s) does not give (o, π_{nu}(s′)).").of_call(call)
    for other in sorted((set(before.namespaces()) | set(after.namespaces())) - {nu}):
        if restrict(after, other) != restrict(before, other):
            return Violation({"namespace": nu, "changed_namespace": other},
                             f"names only records of {nu} but changed namespace {other}.").of_call(call)
    return None


def _confined(realisation: Realisation, t: Transition) -> tuple[int, Violation | None]:
    nu = fibre_of(t.before, t.call.letter)
    if nu is None or not t.call.allocation.strictly_fresh(t.before):
        return 0, None
    return 1, confinement(realisation, nu, t.before, t.call, t.output, t.after, t.theta)


L4I = Clause(
    "L4i",
    statement="L4(i) confinement: a call of A_ν(s) commutes with π_ν and leaves other namespaces alone.\n\n"
              "For a fragment call (or recall by equality) naming only records of ν — a fresh\n"
              "save whose record lies in ν — with a strictly fresh allocation:\n"
              "α(π_ν s)(a) = (o, π_ν s′), and π_ν′ s′ = π_ν′ s for every ν′ ≠ ν.",
    explored="(store, call) pairs with the call in A_ν(s) for some ν",
    reading="letters of A_ν(s): fragment calls and recalls by equality naming only records of ν (a fresh save: its "
            "record's namespace); strictly fresh allocations; edge writes succeed",
    holds="every fresh save, derivation or recall naming one namespace commutes with π_ν and leaves the others "
          "unchanged ({n} calls)",
    step=_confined, random_seed=4,
)
"""L4(i) as the search checks it."""

check_L4i = checker(L4I, __name__)


# --------------------------------------------------------------------------- L4(ii) construction locality


def _alter(r: Record) -> Record:
    """A record that differs from ``r`` in every payload field.

    Its type is the other one of ``fact`` and ``decision``, two types every
    layer accepts (the conformance kit saves both), so that a layer which
    refuses unknown types, as ContextFS does, can still hold the altered store.
    """
    return r.evolve(content=r.content + " (altered)", type="decision" if r.type == "fact" else "fact",
                    tags=r.tags | {"altered"},
                    summary="altered", metadata=r.metadata.merged({"altered": True}),
                    valid_time=_later(r.valid_time))


def _later(t: Any) -> Any:
    """A valid time other than ``t``: a number 100 later, or text with a mark added (a layer under the
    conformance kit may show a valid time as text, an ISO date say).

    >>> _later(None), _later(5), _later("2024-01-01")
    (100, 105, '2024-01-01 (altered)')
    """
    return t + " (altered)" if isinstance(t, str) else (t or 0) + 100


def perturbations(s: Store, nu: str) -> list[tuple[str, Store]]:
    """Stores t with π_ν t = π_ν s: each record outside ν altered, and π_ν s itself.

    >>> s = Store.of({"a": Record("x", namespace="n"), "k": Record("y", namespace="m")})
    >>> [label for label, t in perturbations(s, "n")]
    ['record k altered', 'the restriction π_n(s)']
    """
    out = [(f"record {k} altered", s.with_record(k, _alter(s.records[k])))
           for k in sorted(s.dom() - fibre(s, nu))]
    small = restrict(s, nu)
    if small != s:
        out.append((f"the restriction π_{nu}(s)", small))
    return out


def _record_diff(r: Record | None, q: Record | None) -> list[str]:
    if r is None or q is None:
        return ["presence"]
    fields = ("content", "type", "namespace", "tags", "summary", "valid_time")
    out = [f for f in fields if getattr(r, f) != getattr(q, f)]
    keys = sorted(set(r.metadata) | set(q.metadata))
    out += [f"metadata.{k}" for k in keys if r.metadata.get(k) != q.metadata.get(k)]
    return out


def _constructed_locally(realisation: Realisation, t: Transition) -> tuple[int, Violation | None]:
    a = t.call.letter
    if not (t.ok and is_fragment(a) and t.created):
        return 0, None
    n = 0
    for nu in sorted({t.after.records[j].namespace for j in t.created}):
        for label, other in perturbations(t.before, nu):
            n += 1
            out2, after2 = realisation.step(other, a, t.call.allocation, theta=t.theta, faults=t.call.faults)
            if isinstance(out2, Err):
                continue
            for j in t.created:
                mine, theirs = t.after.records[j], after2.records.get(j)
                if mine.namespace != nu or mine == theirs:
                    continue
                diff = _record_diff(mine, theirs)
                return n, Violation(
                    {"namespace": nu, "record": j, "differs_in": diff, "perturbation": label,
                     "record_after": record_to_json(mine),
                     "other_record_after": None if theirs is None else record_to_json(theirs)},
                    f"files {j} in {nu}, yet with {label} (π_{nu} unchanged) the record "
                    f"at {j} differs in {', '.join(diff)}: it carries payload from outside {nu}.",
                    {"other_before": store_to_json(other), "other_after": store_to_json(after2),
                     "other_output": output_to_json(out2)}).of_call(t.call)
    return n, None


L4II = Clause(
    "L4ii",
    statement="L4(ii) construction locality, as a two-store comparison (our precise form of the clause).\n\n"
              "For each successful call that creates records, each namespace ν of a created\n"
              "record, and each store t with π_ν t = π_ν s (:func:`perturbations`): run the same\n"
              "call with the same allocation at t; where it succeeds too, the records created\n"
              "in ν must be equal.  The witness adds ``other_before`` / ``other_after``.",
    explored="(s, t, call) triples",
    reading="successful fragment calls that create records, against every store with the same π_ν (each record "
            "outside ν altered, and π_ν s itself), same allocation",
    holds="records created in ν never depend on the store outside ν ({n} comparisons)",
    step=_constructed_locally, random_seed=5,
)
"""L4(ii) as the search checks it."""

check_L4ii = checker(L4II, __name__)


# --------------------------------------------------------------------------- the paper's results


@paper_item("3.22")
def check_3_22() -> Verdict:
    """Remark 3.22: asking π_ν to commute with *every* letter fails for any realisation.

    ``recall(k)`` for ``k`` outside the fibre returns the record before restriction and
    nothing after it — on the ContextFS model and on REPAIRED alike.  That is why
    L4(i) is restricted to A_ν(s).
    """
    rows, explored = {}, 0
    for real in SCHEMA_REALISATIONS:
        s = seed_named(real, "two-namespaces").store
        k = next(i for i in sorted(s.dom()) if s.records[i].namespace == "bob")
        out, _ = real.step(s, Recall(k))
        out_r, _ = real.step(restrict(s, "alice"), Recall(k))
        explored += 2
        rows[real.name] = {"store": store_to_json(s), "namespace": "alice", "recalled": k,
                           "output": type(out).__name__, "output_after_restriction": type(out_r).__name__,
                           "differ": out != out_r}
    return Verdict("3.22", "counterexample", all(r["differ"] for r in rows.values()), explored, rows,
                   "Remark 3.22: recall(k) with k in bob returns k's record at s but ⊥ at π_alice(s), on every "
                   "realisation — so confinement can only be asked for the letters of A_ν(s).")


@paper_item("5.17")
def check_5_17(*, realisations: tuple[Realisation, ...] = SCHEMA_REALISATIONS) -> Verdict:
    """Proposition 5.17: calls naming one namespace are confined to it — on every schema realisation.

    ``realisations`` are the realisations checked (a test passes a broken one).
    """
    vs = [check(L4I, real) for real in realisations]
    n = sum(v.explored for v in vs)
    witness = {real.name: {"holds": v.holds, "explored": v.explored, "witness": v.witness}
               for real, v in zip(realisations, vs)}
    return Verdict("5.17", "property", all(v.holds for v in vs), n, witness,
                   f"Proposition 5.17 (first kind): for letters of A_ν(s) with strictly fresh allocations, "
                   f"α(π_ν s)(a) = (o, π_ν s′) and other namespaces are untouched ({n} calls, both realisations).")


@paper_item("5.18")
def check_5_18() -> Verdict:
    """Proposition 5.18: a cross-namespace merge files in ν a record built from the other namespace's payload."""
    v = check(L4II, CONTEXTFS)
    w = v.witness or {}
    rec = (w.get("offending") or {}).get("record_after") or {}
    other = (w.get("offending") or {}).get("other_record_after") or {}
    carries = {"source_2_in_content": "[Source 2]: " in rec.get("content", ""),
               "foreign_tag": "secret" in rec.get("tags", []),
               "contents_differ": rec.get("content") != other.get("content")}
    held = [what for key, what in (("source_2_in_content", "the other record's content after '[Source 2]: '"),
                                   ("foreign_tag", "the other record's tag 'secret'"),
                                   ("contents_differ", "a content that changes with the record outside ν"))
            if carries[key]]
    said = (" The merged record holds " + ", ".join(held) + "." if held
            else " The witness shows no payload from outside the namespace.")
    return law_item("5.18", v, expect_holds=False, extra={"carries": carries},
                    summary="Proposition 5.18: " + w.get("explanation", "") + said)


@paper_item("5.19")
def check_5_19() -> Verdict:
    """Remark 5.19: every successful merge of the ContextFS model files its result in its first argument's namespace.

    Explored: successful merges reached by the full exploration.  The witness
    shows ⟨i, k⟩ and ⟨k, i⟩ across alice and bob landing in different namespaces,
    and REPAIRED refusing both.
    """
    explored, cross = 0, 0
    bad: dict[str, Any] | None = None
    for t in explore(CONTEXTFS, "fragment", max_len=2).transitions():
        a = t.call.letter
        if not (isinstance(a, Merge) and t.ok):
            continue
        explored += 1
        first = next(i for i in a.ids if i in t.before.records)
        spaces = {t.before.records[i].namespace for i in a.ids if i in t.before.records}
        cross += len(spaces) > 1
        if t.after.records[t.created[0]].namespace != t.before.records[first].namespace:
            bad = bad or {"word": word_json(t.word)}
    st = seed_named(CONTEXTFS, "two-namespaces")
    s = st.store
    ik, ki = Merge(("id0001", "id0002")), Merge(("id0002", "id0001"))
    xi = allocate(s, ik, st.clock + 1)
    o1, o2 = CONTEXTFS.step(s, ik, xi)[0], CONTEXTFS.step(s, ki, xi)[0]
    assert isinstance(o1, Created) and isinstance(o2, Created)
    witness: dict[str, Any] = {
        "store": store_to_json(s), "merged_across_namespaces": cross,
        "merge_i_k": {"call": call_to_json(Call(ik, xi)), "namespace": o1.items[0][1].namespace},
        "merge_k_i": {"call": call_to_json(Call(ki, xi)), "namespace": o2.items[0][1].namespace},
        "repaired_refuses": [type(REPAIRED.step(s, m, xi)[0]).__name__ for m in (ik, ki)],
    }
    if bad:
        witness["failure"] = bad
    holds = bad is None and cross > 0 and o1.items[0][1].namespace != o2.items[0][1].namespace
    return Verdict("5.19", "property", holds, explored, witness,
                   f"Remark 5.19: all {explored} explored merges ({cross} across namespaces) filed the result in the "
                   "first argument's namespace; merge(id0001, id0002) lands in alice, merge(id0002, id0001) in bob. "
                   "Scoping a composite is not the same as scoping the state it touches.")
