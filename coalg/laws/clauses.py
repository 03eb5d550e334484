"""Laws L1–L7 and the derivation schema S1–S4, checked by exploration (spec §3, §4; paper Defs 3.21, 3.23).

Each clause is a function ``check_X(realisation) -> Verdict``.  It runs the
realisation's step function over every short word on the seed stores of
:mod:`coalg.laws.exploration` (breadth first, so the first violation is one of minimal
word length), then over seeded random walks, and reports

* ``holds`` — no violation was found within the budget;
* ``explored`` — how many cases were examined (each docstring says what a case is);
* when the clause fails, a **replayable counterexample** as JSON-ready data: the
  start store, the word as calls (letter, allocation, injected faults), θ, the
  store after, the offending records or edges, and one sentence saying what
  went wrong.  Running the calls from the start store with
  :func:`coalg.model.coalgebra.run` (``step_fn=realisation.step``) gives the recorded
  store after again.

Nothing is hard-coded: the verdicts of Table 2 (spec §6.2) come out of the
search.  On the ContextFS model L1, L3 and L4(i) hold and L2, L4(ii), L5, L6
and L7 fail (3 hold, 5 fail, counted by clause), and S1–S4 hold on the fragment
(Lemma 5.6).  On :data:`coalg.model.repaired.REPAIRED` every clause holds.

The precise forms are those of the spec's review notes:

* **L1** for fresh saves and derivations by equality, edge writes succeeding
  (the paper's reading) — or, for a realisation without independent edge
  faults, under every single failing edge write as well.
* **L2** on S_lin, restricted to records created by derivations, reading the
  ancestry metadata through the realisation's declared reader (the stored
  record, or REPAIRED's edge-derived view); a stored ancestry key that
  disagrees with the edges is also a violation.  The fault path (Witness A of
  Proposition 5.14) is ``check_L2(r, faults=True)``.
* **L3** amended: every new edge has its inverse in E_s′ (not necessarily new).
  The fault path (a one-way edge) is :func:`l3_fault_path`.
* **L4(i)** with strictly fresh allocations (the oracle's) and letters of
  A_ν(s); **L4(ii)** as the two-store comparison: stores with equal π_ν
  restriction, the same call and allocation, compared on the records created
  in ν.
* **L5** with θ = (c, ≺) enumerated: every tied merge type, every ≺-first
  prefix match, and the descending order.
* **L6** as separation on recording histories: pairs h ∼vt h′ from ∅ whose valid
  times reach the realisation through the letters' valid-time argument (the
  channel κ), compared by the stores they record.
* **L7** in its lineage form (labels R⁻ ∪ R⁺) over the *full* reachable set:
  every letter the model accepts, prefix naming included (witness W2 of
  Proposition 5.30).  The strong form (all labels) is reported alongside.

Examples
--------
>>> from coalg.model.realisation import CONTEXTFS
>>> v = check_L2(CONTEXTFS)
>>> v.holds, v.kind, v.witness["length"]
(False, 'counterexample', 1)
>>> v.witness["explanation"]          # doctest: +ELLIPSIS
"evolve(id0003, 'v2') created id0004 whose metadata says merged_from = [id0001, id0002] ..."
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from itertools import product
from typing import Any

from ..model import (
    ANCESTRY,
    DEFAULT_THETA,
    DERIVATIONS,
    LINEAGE,
    META_KEYS,
    Call,
    Created,
    Err,
    Evolve,
    Found,
    Id,
    Letter,
    Merge,
    Output,
    Realisation,
    Record,
    Relation,
    Save,
    Split,
    Theta,
    call_to_json,
    edge_to_json,
    get_realisation,
    inverse,
    is_fragment,
    meta_ancestry,
    named,
    output_to_json,
    record_to_json,
    store_to_json,
    theta_to_json,
)
from ..model.store import EMPTY, Edge, Store, fibre, restrict
from ..paper import Verdict
from .exploration import (
    SEEDS,
    Exploration,
    Seed,
    Start,
    Transition,
    allocate,
    explore,
    random_transitions,
    recording_alphabet,
    show_call,
)

__all__ = [
    "CHECKS",
    "CLAUSES",
    "INFO",
    "LAW_CLAUSES",
    "SCHEMA_CLAUSES",
    "ClauseInfo",
    "check_L1",
    "check_L2",
    "check_L3",
    "check_L4i",
    "check_L4ii",
    "check_L5",
    "check_L6",
    "check_L7",
    "check_S1",
    "check_S2",
    "check_S3",
    "check_S4",
    "check_schema",
    "clause_entry",
    "format_law_table",
    "l2_disagreement",
    "l3_fault_path",
    "l7_strong_form",
    "law_table",
    "perturbations",
    "record_view",
    "theta_variants",
]

LAW_CLAUSES = ("L1", "L2", "L3", "L4i", "L4ii", "L5", "L6", "L7")
SCHEMA_CLAUSES = ("S1", "S2", "S3", "S4")
CLAUSES = LAW_CLAUSES + SCHEMA_CLAUSES


@dataclass(frozen=True)
class ClauseInfo:
    """What a clause says, which kind of claim its ContextFS verdict is, and where the paper settles it.

    ``kind`` is ``"theorem"`` when the positive verdict follows from the derivation
    schema alone (so it holds for every schema realisation) and ``"instantiation"``
    when it depends on reading a particular realisation's code.
    """

    key: str
    title: str
    kind: str
    result: str
    repair: str


INFO: dict[str, ClauseInfo] = {
    c.key: c
    for c in (
        ClauseInfo("L1", "record monotonicity", "theorem", "Prop 5.1 (S1 read as a law); outside the fragment Prop 5.2",
                   "—"),
        ClauseInfo("L2", "edge–record agreement", "instantiation", "Prop 5.14, Rem 5.15",
                   "edges are the one representation; metadata ancestry is derived from them"),
        ClauseInfo("L3", "inverse closure", "instantiation", "Prop 5.16",
                   "record and edge pair written atomically; link always writes the inverse"),
        ClauseInfo("L4i", "confinement", "theorem", "Prop 5.17", "—"),
        ClauseInfo("L4ii", "construction locality", "instantiation", "Prop 5.18, Rem 5.19",
                   "a merge across namespaces is refused (explicit namespace comparison)"),
        ClauseInfo("L5", "resolution independence", "instantiation", "Prop 5.20, Prop 6.3",
                   "declared tie-break (least tied type); resolution by equality"),
        ClauseInfo("L6", "bitemporality", "instantiation", "Thm 5.27",
                   "a valid-time field filled from the call's valid-time argument (Prop 7.1)"),
        ClauseInfo("L7", "lineage referential integrity", "instantiation", "Prop 5.30",
                   "existence checks on every edge write; tombstone deletion keeps endpoints"),
        ClauseInfo("S1", "additivity", "instantiation", "Lemma 5.6", "—"),
        ClauseInfo("S2", "local construction", "instantiation", "Lemma 5.6", "—"),
        ClauseInfo("S3", "edge support", "instantiation", "Lemma 5.6", "—"),
        ClauseInfo("S4", "ancestry direction", "instantiation", "Lemma 5.6", "—"),
    )
}

_CREATING = ("save",) + DERIVATIONS

RANDOM_RUNS = 40
"""Seeded random walks each clause adds after the exhaustive search (when that found nothing)."""

RANDOM_LENGTH = 8
"""Calls per random walk (longer than the exhaustive bound of 2)."""
_MINIMAL = "breadth-first search: no shorter word from any seed violates the clause"


# =========================================================================== search machinery


@dataclass(frozen=True)
class _Violation:
    """A violation found by a check: the offending data and one sentence of explanation."""

    offending: dict[str, Any]
    explanation: str
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class _Found:
    start: Start
    word: tuple[Call, ...]
    after: Store
    violation: _Violation
    theta: Theta = DEFAULT_THETA
    how: str = _MINIMAL


Check = Callable[[Transition], tuple[int, _Violation | None]]
"""A step check: how many cases it examined at this transition, and the violation if any."""


def _search(
    ex: Exploration,
    check: Check,
    *,
    at_start: Callable[[Start], _Violation | None] | None = None,
) -> tuple[_Found | None, int]:
    """Walk the levels of ``ex`` in order; stop at the first violation (of minimal word length)."""
    explored = 0
    if at_start is not None:
        for st in ex.starts:
            explored += 1
            v = at_start(st)
            if v is not None:
                return _Found(st, (), st.store, v), explored
    for _, level in ex.levels():
        for t in level:
            n, v = check(t)
            explored += n
            if v is not None:
                return _Found(t.start, t.word, t.after, v, t.theta), explored
    return None, explored


def _random_search(
    realisation: Realisation,
    check: Check,
    *,
    alphabet: str,
    faults: bool,
    runs: int,
    length: int,
    seed: int,
    seeds: Sequence[Seed],
) -> tuple[_Found | None, int]:
    """Seeded random walks; a violation found is shrunk greedily (calls removed while it persists)."""
    explored = 0
    for t in random_transitions(realisation, alphabet, runs=runs, length=length, seed=seed,
                                faults=faults, seeds=seeds):
        n, v = check(t)
        explored += n
        if v is not None:
            return _shrink(realisation, t, check), explored
    return None, explored


def _replay(realisation: Realisation, st: Start, calls: Sequence[Call]) -> Iterator[Transition]:
    """Re-run the letters of ``calls`` from ``st`` with fresh allocations (used by shrinking)."""
    s, derived = st.store, st.derived
    done: tuple[Call, ...] = ()
    for k, c in enumerate(calls):
        a = c.letter
        call = Call(a, allocate(s, a, st.clock + k + 1), c.faults)
        out, after = realisation.step(s, a, call.allocation, faults=c.faults)
        if a.kind in DERIVATIONS and isinstance(out, Created):
            derived = derived | frozenset(out.ids)
        yield Transition(st, done, s, call, out, after, derived)
        s, done = after, done + (call,)


def _shrink(realisation: Realisation, t: Transition, check: Check) -> _Found:
    calls = list(t.word)
    best = t
    improved = True
    while improved:
        improved = False
        for k in range(len(calls)):
            trial = calls[:k] + calls[k + 1:]
            for u in _replay(realisation, t.start, trial):
                _, v = check(u)
                if v is not None:
                    calls, best, improved = list(u.word), u, True
                    break
            if improved:
                break
    _, v = check(best)
    assert v is not None
    return _Found(best.start, best.word, best.after, v, best.theta,
                  "found by seeded random exploration, then shrunk greedily (no single call can be removed)")


def _run_check(
    realisation: Realisation,
    check: Check,
    *,
    alphabet: str = "fragment",
    faults: bool = False,
    max_len: int = 2,
    random_runs: int = RANDOM_RUNS,
    random_length: int = RANDOM_LENGTH,
    random_seed: int = 0,
    seeds: Sequence[Seed] = SEEDS,
    at_start: Callable[[Start], _Violation | None] | None = None,
) -> tuple[_Found | None, int]:
    ex = explore(realisation, alphabet, faults=faults, max_len=max_len, seeds=seeds)
    found, explored = _search(ex, check, at_start=at_start)
    if found is None and random_runs > 0:
        found, more = _random_search(realisation, check, alphabet=alphabet, faults=faults, runs=random_runs,
                                     length=random_length, seed=random_seed, seeds=seeds)
        explored += more
    return found, explored


def _witness(found: _Found) -> dict[str, Any]:
    v = found.violation
    w: dict[str, Any] = {
        "seed": found.start.seed.name,
        "start": store_to_json(found.start.store),
        "word": [call_to_json(c) for c in found.word],
        "theta": theta_to_json(found.theta),
        "after": store_to_json(found.after),
        "offending": v.offending,
        "explanation": v.explanation,
        "length": len(found.word),
        "minimality": found.how,
    }
    w.update(v.extra)
    return w


def _verdict(
    key: str,
    realisation: Realisation,
    found: _Found | None,
    explored: int,
    *,
    reading: str,
    holds_summary: str,
    details: dict[str, Any] | None = None,
) -> Verdict:
    details = dict(details or {})
    details["reading"] = reading
    if found is None:
        return Verdict(key, "property", True, explored, None,
                       f"{key} holds on '{realisation.name}': {holds_summary}", details)
    words = ", ".join(show_call(c) for c in found.word) or "the empty word"
    summary = f"{key} fails on '{realisation.name}' (seed '{found.start.seed.name}', {words}): " \
              f"{found.violation.explanation}"
    return Verdict(key, "counterexample", False, explored, _witness(found), summary, details)


def _ids(xs: Iterable[Id]) -> str:
    return "[" + ", ".join(sorted(xs)) + "]"


def _edges_json(es: Iterable[Edge]) -> list[list[str]]:
    return [edge_to_json(e) for e in sorted(es)]


def _new(t: Transition) -> tuple[frozenset[Id], frozenset[Edge]]:
    """N and D of a transition: the identifiers and edges the call added."""
    return t.after.dom() - t.before.dom(), t.after.edges - t.before.edges


def _faults_default(realisation: Realisation, faults: bool | None) -> bool:
    return (not realisation.edge_faults) if faults is None else faults


def _fault_reading(faults: bool) -> str:
    return ("every call is also run with each single failing edge write (faults exercise atomicity)"
            if faults else "edge writes succeed (the fault-free reading)")


# =========================================================================== L1 record monotonicity


def _monotone(t: Transition, failure: str) -> _Violation | None:
    s, s2 = t.before, t.after
    lost = sorted(s.dom() - s2.dom())
    changed = sorted(i for i in s.dom() & s2.dom() if s.records[i] != s2.records[i])
    lost_edges = s.edges - s2.edges
    if not (lost or changed or lost_edges):
        return None
    what = "; ".join(x for x in (
        f"removed records {_ids(lost)}" if lost else "",
        f"changed records {_ids(changed)}" if changed else "",
        f"removed {len(lost_edges)} edge(s)" if lost_edges else "") if x)
    return _Violation({"lost_records": lost, "changed_records": changed, "lost_edges": _edges_json(lost_edges)},
                      f"{show_call(t.call)} {what}: {failure}.")


def _l1(t: Transition) -> tuple[int, _Violation | None]:
    a = t.call.letter
    if not (is_fragment(a) and a.kind in _CREATING):
        return 0, None
    return 1, _monotone(t, "the carrier did not grow monotonically")


def check_L1(realisation: Realisation, *, faults: bool | None = None, max_len: int = 2,
             random_runs: int = RANDOM_RUNS, random_seed: int = 1) -> Verdict:
    """L1 record monotonicity: a fresh save or derivation keeps every record and every edge.

    ``faults=None`` reads the realisation: the fault-free reading for one whose
    edge writes can fail on their own (ContextFS, the paper's reading), every
    single failing edge write otherwise (REPAIRED: atomicity is exercised).

    Parameters
    ----------
    realisation : Realisation
        The realisation whose step function is run.
    faults : bool or None
        Whether every single failing edge write is tried as well (see above).
    max_len : int
        Exhaustive bound on word length (breadth first, so witnesses are minimal).
    random_runs, random_seed : int
        Seeded random walks added when the exhaustive search finds nothing.

    Returns
    -------
    Verdict
        ``explored`` counts (store, call) pairs whose call is a fresh save or a derivation named by
        equality; when the clause fails, ``witness`` is a replayable counterexample of minimal word
        length.

    >>> from coalg.model.realisation import CONTEXTFS
    >>> check_L1(CONTEXTFS, max_len=1, random_runs=0).holds
    True
    """
    faults = _faults_default(realisation, faults)
    found, n = _run_check(realisation, _l1, faults=faults, max_len=max_len, random_runs=random_runs,
                          random_seed=random_seed)
    return _verdict("L1", realisation, found, n,
                    reading="fragment calls (fresh save, evolve, merge, split, supersede; identifiers by "
                            f"equality), strictly fresh allocations; {_fault_reading(faults)}",
                    holds_summary=f"no fresh save or derivation removed or changed a record or an edge ({n} calls)")


# =========================================================================== L2 edge–record agreement


def record_view(realisation: Realisation, s: Store, i: Id) -> Record | None:
    """The record a reader sees at ``i``: the realisation's declared view, or the stored record.

    ContextFS's metadata ancestry reader reads the stored record; REPAIRED's reads
    ancestry from the edges (:func:`coalg.model.repaired.derived_record`).
    """
    view = getattr(realisation, "record_view", None)
    return view(s, i) if view is not None else s.records.get(i)


def l2_disagreement(realisation: Realisation, s: Store, i: Id) -> dict[str, Any] | None:
    """Where record ``i``'s ancestry metadata and its ancestry edges disagree (L2), or ``None``.

    The metadata is read through the realisation's record view (the repaired realisation
    derives it from edges); a stored ancestry key that differs from the edges counts too.
    Returns the first disagreeing label (in label order) as JSON-ready data, with a
    sentence ``"text"`` saying what differs.
    """
    seen = record_view(realisation, s, i)
    stored = s.records[i]
    for r in sorted(ANCESTRY, key=lambda x: x.value):
        edges = frozenset(e.target for e in s.edges if e.source == i and e.relation is r)
        key = META_KEYS[r]
        read = meta_ancestry(seen, r) if seen is not None else frozenset()
        stray = key in stored.metadata and meta_ancestry(stored, r) != edges
        if read == edges and not stray:
            continue
        shown = read if read != edges else meta_ancestry(stored, r)
        edge_text = f"its {key} edges go to {_ids(edges)}" if edges else f"it has no {key} edge"
        return {"record": i, "relation": r.value, "edge_targets": sorted(edges), "metadata": sorted(shown),
                "metadata_key": key, "record_after": record_to_json(stored),
                "text": f"created {i} whose metadata says {key} = {_ids(shown)} but {edge_text}."}
    return None


def _l2_store(realisation: Realisation, s: Store, derived: frozenset[Id]) -> _Violation | None:
    for i in sorted(derived & s.dom()):
        found = l2_disagreement(realisation, s, i)
        if found is not None:
            text = found.pop("text")
            return _Violation(found, text)
    return None


def check_L2(realisation: Realisation, *, faults: bool = False, max_len: int = 2,
             random_runs: int = RANDOM_RUNS, random_seed: int = 2) -> Verdict:
    """L2 edge–record agreement on S_lin, for records created by derivations.

    For every such record ``i`` and r ∈ R⁻: ``{j : (i, r, j) ∈ E} = meta_r(view(i))``,
    where ``view`` is the realisation's metadata reader (:func:`record_view`); a
    stored ancestry key that disagrees with the edges also counts.  Fresh saves
    with caller-supplied ancestry keys are out of scope (the trivial refutation of
    the spec's review note).  ``faults=True`` checks the fault path instead
    (Witness A of Proposition 5.14).

    Parameters
    ----------
    realisation : Realisation
        The realisation whose step function is run.
    faults : bool
        Whether every single failing edge write is tried as well (see above).
    max_len : int
        Exhaustive bound on word length (breadth first, so witnesses are minimal).
    random_runs, random_seed : int
        Seeded random walks added when the exhaustive search finds nothing.

    Returns
    -------
    Verdict
        ``explored`` counts (store, word) pairs — each seed, and the store after each successful
        call; when the clause fails, ``witness`` is a replayable counterexample of minimal word
        length.
    """

    def check(t: Transition) -> tuple[int, _Violation | None]:
        if not t.ok or t.after == t.before:
            return 0, None
        v = _l2_store(realisation, t.after, t.derived)
        if v is not None:
            v = replace(v, explanation=f"{show_call(t.call)} {v.explanation}")
        return 1, v

    found, n = _run_check(realisation, check, faults=faults, max_len=max_len, random_runs=random_runs,
                          random_seed=random_seed,
                          at_start=lambda st: _l2_store(realisation, st.store, st.derived))
    return _verdict("L2", realisation, found, n,
                    reading="stores of S_lin reached by fragment words (identifiers by equality); records created "
                            "by derivations; ancestry metadata read through the realisation's declared reader; "
                            + _fault_reading(faults),
                    holds_summary=f"every derived record's metadata ancestry equals its edges ({n} stores)")


# =========================================================================== L3 inverse closure


def _l3(t: Transition) -> tuple[int, _Violation | None]:
    a = t.call.letter
    if not (is_fragment(a) and a.kind in DERIVATIONS):
        return 0, None
    _, d = _new(t)
    one_way = sorted(e for e in d if Edge(e.target, inverse(e.relation), e.source) not in t.after.edges)
    if not one_way:
        return 1, None
    e = one_way[0]
    return 1, _Violation({"one_way_edges": _edges_json(one_way)},
                         f"{show_call(t.call)} added {e} but not its inverse "
                         f"({e.target}, {inverse(e.relation).name}, {e.source}).")


def check_L3(realisation: Realisation, *, faults: bool | None = None, max_len: int = 2,
             random_runs: int = RANDOM_RUNS, random_seed: int = 3) -> Verdict:
    """L3 inverse closure (amended): every edge a derivation adds has its inverse in E_s′.

    ``faults`` as in :func:`check_L1`; the fault path of a realisation with
    independent edge faults is :func:`l3_fault_path`.

    Parameters
    ----------
    realisation : Realisation
        The realisation whose step function is run.
    faults : bool or None
        Whether every single failing edge write is tried as well (see above).
    max_len : int
        Exhaustive bound on word length (breadth first, so witnesses are minimal).
    random_runs, random_seed : int
        Seeded random walks added when the exhaustive search finds nothing.

    Returns
    -------
    Verdict
        ``explored`` counts (store, call) pairs whose call is a derivation (evolve, merge, split,
        supersede) named by equality; when the clause fails, ``witness`` is a replayable
        counterexample of minimal word length.
    """
    faults = _faults_default(realisation, faults)
    found, n = _run_check(realisation, _l3, faults=faults, max_len=max_len, random_runs=random_runs,
                          random_seed=random_seed)
    details: dict[str, Any] = {}
    if realisation.edge_faults and not faults:
        fp = l3_fault_path(realisation)
        details["fault_path"] = {"holds": fp.holds, "summary": fp.summary,
                                 "explanation": None if fp.witness is None else fp.witness["explanation"]}
    return _verdict("L3", realisation, found, n,
                    reading="derivation calls (evolve, merge, split, supersede; identifiers by equality); "
                            + _fault_reading(faults),
                    holds_summary=f"every edge a derivation added came with its inverse ({n} calls)",
                    details=details)


def l3_fault_path(realisation: Realisation, *, max_len: int = 1) -> Verdict:
    """L3 on the fault path: a failing second edge write leaves a one-way edge (ContextFS).

    >>> from coalg.model.realisation import CONTEXTFS
    >>> v = l3_fault_path(CONTEXTFS)
    >>> v.holds, v.witness["word"][0]["faults"]
    (False, [1])
    """
    found, n = _run_check(realisation, _l3, faults=True, max_len=max_len, random_runs=0)
    return _verdict("L3", realisation, found, n,
                    reading="derivation calls with every single failing edge write (the fault path)",
                    holds_summary=f"no failing edge write leaves a one-way edge ({n} calls)")


# =========================================================================== L4 namespace locality


def _fibre_of(t: Transition) -> str | None:
    """ν with the call in A_ν(before), or None (spec L4: fragment calls and recalls by equality)."""
    a, s = t.call.letter, t.before
    if not is_fragment(a):
        return None
    if isinstance(a, Save):
        return a.record.namespace
    nm = named(a)
    if not nm or any(i not in s.records for i in nm):
        return None
    spaces = {s.records[i].namespace for i in nm}
    return next(iter(spaces)) if len(spaces) == 1 else None


def _l4i(realisation: Realisation) -> Check:
    def check(t: Transition) -> tuple[int, _Violation | None]:
        nu = _fibre_of(t)
        if nu is None or not t.call.allocation.strictly_fresh(t.before):
            return 0, None
        a, xi = t.call.letter, t.call.allocation
        small = restrict(t.before, nu)
        out_r, after_r = realisation.step(small, a, xi, theta=t.theta, faults=t.call.faults)
        want = restrict(t.after, nu)
        if out_r != t.output or after_r != want:
            return 1, _Violation(
                {"namespace": nu, "restricted_before": store_to_json(small),
                 "restricted_output": output_to_json(out_r), "output": output_to_json(t.output),
                 "restricted_after": store_to_json(after_r), "expected": store_to_json(want)},
                f"{show_call(t.call)} names only records of {nu}, but running it on π_{nu}(s) does not give "
                f"(o, π_{nu}(s′)).")
        for other in sorted((set(t.before.namespaces()) | set(t.after.namespaces())) - {nu}):
            if restrict(t.after, other) != restrict(t.before, other):
                return 1, _Violation({"namespace": nu, "changed_namespace": other},
                                     f"{show_call(t.call)} names only records of {nu} but changed namespace {other}.")
        return 1, None

    return check


def check_L4i(realisation: Realisation, *, max_len: int = 2, random_runs: int = RANDOM_RUNS,
              random_seed: int = 4) -> Verdict:
    """L4(i) confinement: a call of A_ν(s) commutes with π_ν and leaves other namespaces alone.

    For a fragment call (or recall by equality) naming only records of ν — a fresh
    save whose record lies in ν — with a strictly fresh allocation:
    α(π_ν s)(a) = (o, π_ν s′), and π_ν′ s′ = π_ν′ s for every ν′ ≠ ν.

    Parameters
    ----------
    realisation : Realisation
        The realisation whose step function is run.
    max_len : int
        Exhaustive bound on word length (breadth first, so witnesses are minimal).
    random_runs, random_seed : int
        Seeded random walks added when the exhaustive search finds nothing.

    Returns
    -------
    Verdict
        ``explored`` counts (store, call) pairs with the call in A_ν(s) for some ν; when the clause
        fails, ``witness`` is a replayable counterexample of minimal word length.
    """
    found, n = _run_check(realisation, _l4i(realisation), max_len=max_len, random_runs=random_runs,
                          random_seed=random_seed)
    return _verdict("L4i", realisation, found, n,
                    reading="letters of A_ν(s): fragment calls and recalls by equality naming only records of ν "
                            "(a fresh save: its record's namespace); strictly fresh allocations; edge writes succeed",
                    holds_summary=f"every call naming one namespace commutes with π_ν and leaves the others "
                                  f"unchanged ({n} calls)")


def _alter(r: Record) -> Record:
    """A record that differs from ``r`` in every payload field."""
    return r.evolve(content=r.content + " (altered)", type="altered", tags=r.tags | {"altered"},
                    summary="altered", metadata=r.metadata.merged({"altered": True}),
                    valid_time=(r.valid_time or 0) + 100)


def perturbations(s: Store, nu: str) -> list[tuple[str, Store]]:
    """Stores t with π_ν t = π_ν s: each record outside ν altered, and π_ν s itself.

    >>> from coalg.model.records import Record
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


def _l4ii(realisation: Realisation) -> Check:
    def check(t: Transition) -> tuple[int, _Violation | None]:
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
                    return n, _Violation(
                        {"namespace": nu, "record": j, "differs_in": diff, "perturbation": label,
                         "record_after": record_to_json(mine),
                         "other_record_after": None if theirs is None else record_to_json(theirs)},
                        f"{show_call(t.call)} files {j} in {nu}, yet with {label} (π_{nu} unchanged) the record "
                        f"at {j} differs in {', '.join(diff)}: it carries payload from outside {nu}.",
                        {"other_before": store_to_json(other), "other_after": store_to_json(after2),
                         "other_output": output_to_json(out2)})
        return n, None

    return check


def check_L4ii(realisation: Realisation, *, max_len: int = 2, random_runs: int = RANDOM_RUNS,
               random_seed: int = 5) -> Verdict:
    """L4(ii) construction locality, as the two-store comparison of the spec's review note.

    For each successful call that creates records, each namespace ν of a created
    record, and each store t with π_ν t = π_ν s (:func:`perturbations`): run the same
    call with the same allocation at t; where it succeeds too, the records created
    in ν must be equal.  The witness adds ``other_before`` / ``other_after``.

    Parameters
    ----------
    realisation : Realisation
        The realisation whose step function is run.
    max_len : int
        Exhaustive bound on word length (breadth first, so witnesses are minimal).
    random_runs, random_seed : int
        Seeded random walks added when the exhaustive search finds nothing.

    Returns
    -------
    Verdict
        ``explored`` counts (s, t, call) triples; when the clause fails, ``witness`` is a replayable
        counterexample of minimal word length.
    """
    found, n = _run_check(realisation, _l4ii(realisation), max_len=max_len, random_runs=random_runs,
                          random_seed=random_seed)
    return _verdict("L4ii", realisation, found, n,
                    reading="successful fragment calls that create records, against every store with the same "
                            "π_ν (each record outside ν altered, and π_ν s itself), same allocation",
                    holds_summary=f"records created in ν never depend on the store outside ν ({n} comparisons)")


# =========================================================================== L5 resolution independence


def theta_variants(t: Transition) -> list[Theta]:
    """The resolutions θ = (c, ≺) that matter for the call of ``t``, other than the default.

    A merge without an explicit type: c prefers each type of the store in turn.
    A call that resolves by prefix (``by_prefix``, recall_prefix, the facade's
    link): ≺ puts each identifier first in turn.  Always: the descending order.
    """
    a, s = t.call.letter, t.before
    out: list[Theta] = []
    if isinstance(a, Merge) and a.type is None:
        out += [Theta(type_priority=(ty,)) for ty in sorted({r.type for r in s.records.values()})]
    if getattr(a, "by_prefix", False) or a.kind in ("recall_prefix", "link"):
        out += [Theta(id_priority=(i,)) for i in sorted(s.dom())]
    out.append(Theta(descending=True))
    return out


def _explain_l5(t: Transition, theta2: Theta, out2: Output) -> tuple[dict[str, Any], str]:
    a, s = t.call.letter, t.before
    if isinstance(a, Merge) and isinstance(t.output, Created) and isinstance(out2, Created):
        r1, r2 = t.output.items[0][1], out2.items[0][1]
        if r1.type != r2.type:
            tied = sorted({s.records[i].type for i in a.ids if i in s.records})
            text = (f"{show_call(t.call)}: the argument types {' and '.join(tied)} tie, and the undeclared choice "
                    f"c decides the merged type — {r1.type} under θ, {r2.type} under θ′.")
            return ({"record": t.output.ids[0], "field": "type", "tied_types": tied,
                     "value": r1.type, "other_value": r2.type}, text)
    if isinstance(t.output, Found) and isinstance(out2, Found) and t.output.id != out2.id:
        text = (f"{show_call(t.call)} returns {t.output.id} under θ and {out2.id} under θ′: several identifiers "
                "match and the row order ≺ picks one.")
        return {"output_id": t.output.id, "other_output_id": out2.id}, text
    return ({"output": output_to_json(t.output), "other_output": output_to_json(out2)},
            f"{show_call(t.call)} gives a different output or store under θ′ than under θ.")


def _l5(realisation: Realisation) -> Check:
    def check(t: Transition) -> tuple[int, _Violation | None]:
        a = t.call.letter
        for theta2 in theta_variants(t):
            out2, after2 = realisation.step(t.before, a, t.call.allocation, theta=theta2, faults=t.call.faults)
            if out2 != t.output or after2 != t.after:
                offending, text = _explain_l5(t, theta2, out2)
                return 1, _Violation(offending, text,
                                     {"other_theta": theta_to_json(theta2), "other_after": store_to_json(after2),
                                      "output": output_to_json(t.output), "other_output": output_to_json(out2)})
        return 1, None

    return check


def check_L5(realisation: Realisation, *, max_len: int = 2, random_runs: int = RANDOM_RUNS,
             random_seed: int = 6) -> Verdict:
    """L5 resolution independence: α_θ(s)(a) = α_θ′(s)(a) for every θ = (c, ≺).

    Every call of the full alphabet (prefix naming included) is run under the
    default θ and under each relevant variant (:func:`theta_variants`).  The
    witness gives θ (for the whole word) and ``other_theta`` (for its last call),
    with both outputs and stores after.

    Parameters
    ----------
    realisation : Realisation
        The realisation whose step function is run.
    max_len : int
        Exhaustive bound on word length (breadth first, so witnesses are minimal).
    random_runs, random_seed : int
        Seeded random walks added when the exhaustive search finds nothing.

    Returns
    -------
    Verdict
        ``explored`` counts (store, call) pairs, each run under every relevant θ; when the clause
        fails, ``witness`` is a replayable counterexample of minimal word length.
    """
    found, n = _run_check(realisation, _l5(realisation), alphabet="full", max_len=max_len,
                          random_runs=random_runs, random_seed=random_seed)
    return _verdict("L5", realisation, found, n,
                    reading="every call of the full alphabet (fragment, prefix naming, deletion, replacement, links), "
                            "under θ = (c, ≺) enumerated over tied merge types, ≺-first prefix matches, and "
                            "the descending order",
                    holds_summary=f"no output or successor depends on θ ({n} calls)")


# =========================================================================== L6 bitemporality


def _kappa(a: Letter, tv: int) -> Letter:
    """κ: the valid time written into the letter's valid-time argument (a save: its record's)."""
    if isinstance(a, Save):
        return replace(a, record=a.record.evolve(valid_time=tv))
    if isinstance(a, (Evolve, Merge, Split)):
        return replace(a, valid_time=tv)
    return a


def _psi(realisation: Realisation, calls: Sequence[Call], vts: Sequence[int]) -> tuple[Store, bool]:
    """Ψ(h) for the history with these calls (clock = transaction time) and valid times; and h ∈ Hist_rec."""
    s, rec = EMPTY, True
    for c, tv in zip(calls, vts):
        out, s = realisation.step(s, _kappa(c.letter, tv), c.allocation)
        rec = rec and isinstance(out, Created) and len(out.items) >= 1
    return s, rec


def _history_json(calls: Sequence[Call], vts: Sequence[int]) -> list[dict[str, Any]]:
    return [{"call": call_to_json(replace(c, letter=_kappa(c.letter, tv))), "tt": c.allocation.clock, "vt": tv}
            for c, tv in zip(calls, vts)]


def check_L6(realisation: Realisation, *, max_len: int = 3, times: Sequence[int] = (1, 2),
             random_runs: int = RANDOM_RUNS, random_length: int = 5, random_seed: int = 7) -> Verdict:
    """L6 bitemporality as separation on recording histories (Def. 3.20 (a), strong form).

    For every word from ∅ of saves and derivations that all succeed (Hist_rec), and
    every assignment of valid times from ``times`` to its calls, the history is
    recorded: each call is issued with its valid time written into the letter's
    valid-time argument (the channel κ; a realisation that declares none ignores
    it) and its allocation's clock as transaction time.  Two histories h ∼vt h′
    with vt(h) ≠ vt(h′) that record the same store refute separation.

    Parameters
    ----------
    realisation : Realisation
        The realisation whose step function is run.
    max_len : int
        Longest recording history searched exhaustively.
    times : sequence of int
        The valid times assigned to calls.
    random_runs, random_length, random_seed : int
        Number, length and seed of the random histories.

    Returns
    -------
    Verdict
        ``explored`` counts histories recorded; when the clause fails, ``witness`` is a replayable
        counterexample of minimal word length.
    """
    ex = explore(realisation, "recording", max_len=max_len, seeds=SEEDS[:1])
    explored = 0
    found: tuple[Sequence[Call], Sequence[int], Sequence[int], Store, str] | None = None
    for k in range(1, max_len + 1):
        for node in ex.nodes(k):
            seen: dict[Store, tuple[int, ...]] = {}
            for vts in product(times, repeat=k):
                store, rec = _psi(realisation, node.calls, vts)
                explored += 1
                if rec and store in seen:
                    found = (node.calls, seen[store], vts, store, _MINIMAL)
                    break
                if rec:
                    seen[store] = vts
            if found:
                break
        if found:
            break
    if found is None and random_runs > 0:
        rng = random.Random(random_seed)
        for _ in range(random_runs):
            calls: list[Call] = []
            s = EMPTY
            for k in range(random_length):
                a = rng.choice(recording_alphabet(s))
                call = Call(a, allocate(s, a, k + 1))
                out, s = realisation.step(s, a, call.allocation)
                if isinstance(out, Created):
                    calls.append(call)
            vts = tuple(rng.choice(times) for _ in calls)
            other = tuple(times[(times.index(v) + 1) % len(times)] if m == 0 else v for m, v in enumerate(vts))
            if not calls or other == vts:
                continue
            s1, r1 = _psi(realisation, calls, vts)
            s2, r2 = _psi(realisation, calls, other)
            explored += 2
            if r1 and r2 and s1 == s2:
                found = (calls, vts, other, s1, "found by seeded random exploration")
                break
    reading = ("recording histories from ∅ (every call a save or derivation that succeeds), valid times from "
               f"{list(times)}, transaction time = the allocation's clock; valid time reaches the realisation "
               "only through the letters' valid_time argument (κ)"
               + ("" if realisation.declares_valid_time else "; this realisation declares no such channel"))
    if found is None:
        return Verdict("L6", "property", True, explored, None,
                       f"L6 holds on '{realisation.name}': no two histories h ∼vt h′ with different valid times "
                       f"recorded the same store ({explored} histories)", {"reading": reading})
    word, vt1, vt2, store, how = found
    words = ", ".join(show_call(c) for c in word)
    text = (f"the histories {words} with valid times {list(vt1)} and {list(vt2)} differ only in valid time "
            "yet record the same store, so no function of the store recovers valid time.")
    witness = {
        "seed": "empty", "start": store_to_json(EMPTY), "word": [call_to_json(c) for c in word],
        "theta": theta_to_json(DEFAULT_THETA), "after": store_to_json(store),
        "h": _history_json(word, vt1), "h_prime": _history_json(word, vt2),
        "offending": {"vt_h": list(vt1), "vt_h_prime": list(vt2), "psi_equal": True},
        "explanation": text, "length": len(word), "minimality": how,
    }
    return Verdict("L6", "counterexample", False, explored, witness,
                   f"L6 fails on '{realisation.name}': {text}", {"reading": reading})


# =========================================================================== L7 referential integrity


def _dangling(labels: frozenset[Relation] | None) -> Callable[[Store], _Violation | None]:
    def at(s: Store) -> _Violation | None:
        bad = sorted(s.dangling_edges(labels), key=lambda e: (e.relation not in ANCESTRY, e))
        if not bad:
            return None
        e = bad[0]
        missing = sorted({x for x in (e.source, e.target) if x not in s.records})
        return _Violation({"dangling_edges": [edge_to_json(e) for e in bad], "missing_endpoints": missing},
                          f"left the edge {e} whose endpoint {', '.join(missing)} holds no record.")

    return at


def _invariant(at: Callable[[Store], _Violation | None]) -> Check:
    def check(t: Transition) -> tuple[int, _Violation | None]:
        if not t.ok or t.after == t.before:
            return 0, None
        v = at(t.after)
        if v is not None:
            v = replace(v, explanation=f"{show_call(t.call)} {v.explanation}")
        return 1, v

    return check


def l7_strong_form(realisation: Realisation, *, alphabet: str = "fragment", max_len: int = 2,
                   random_runs: int = 0) -> Verdict:
    """L7's strong form (no dangling edge of any label), by default on the fragment (S_lin).

    >>> from coalg.model.realisation import CONTEXTFS
    >>> v = l7_strong_form(CONTEXTFS)
    >>> v.holds, v.witness["offending"]["missing_endpoints"]       # W1: supersede of a missing id
    (False, ['missing'])
    """
    at = _dangling(None)
    found, n = _run_check(realisation, _invariant(at), alphabet=alphabet, max_len=max_len,
                          random_runs=random_runs, at_start=lambda st: at(st.store))
    return _verdict("L7", realisation, found, n,
                    reading=f"strong form (every label), stores reached by {alphabet} words",
                    holds_summary=f"no reached store has a dangling edge ({n} stores)",
                    details={"labels": "all 22 labels (strong form)"})


def check_L7(realisation: Realisation, *, max_len: int = 2, random_runs: int = RANDOM_RUNS,
             random_seed: int = 8) -> Verdict:
    """L7 lineage referential integrity over the full reachable set (lineage form).

    Every store reached from the seeds (themselves reachable from ∅) by every call
    the model accepts — the fragment, prefix naming, deletion, replacement and
    links — must have no dangling edge labelled in R⁻ ∪ R⁺.  The strong form (all
    labels, on the fragment) is reported in ``details["strong_form"]``.

    Parameters
    ----------
    realisation : Realisation
        The realisation whose step function is run.
    max_len : int
        Exhaustive bound on word length (breadth first, so witnesses are minimal).
    random_runs, random_seed : int
        Seeded random walks added when the exhaustive search finds nothing.

    Returns
    -------
    Verdict
        ``explored`` counts (store, word) pairs — each seed, and the store after each successful
        call; when the clause fails, ``witness`` is a replayable counterexample of minimal word
        length.
    """
    at = _dangling(LINEAGE)
    found, n = _run_check(realisation, _invariant(at), alphabet="full", max_len=max_len,
                          random_runs=random_runs, random_seed=random_seed, at_start=lambda st: at(st.store))
    strong = l7_strong_form(realisation)
    details = {
        "reachable_set": "every store reachable from ∅ by any call the model accepts (fragment letters, prefix "
                         "naming, recall by prefix, delete, save_at, link), searched from the seeds",
        "labels": "R⁻ ∪ R⁺ (evolved/merged/split from/into): the lineage form",
        "strong_form": {"holds": strong.holds, "summary": strong.summary,
                        "explanation": None if strong.witness is None else strong.witness["explanation"]},
    }
    return _verdict("L7", realisation, found, n,
                    reading="lineage form (labels R⁻ ∪ R⁺) over the full reachable set: every letter the model "
                            "accepts, prefix naming included",
                    holds_summary=f"no reached store has a dangling lineage edge ({n} stores)", details=details)


# =========================================================================== S1–S4 the derivation schema


def _schema_scope(t: Transition) -> bool:
    a = t.call.letter
    return is_fragment(a) and a.kind in _CREATING and t.ok


def _s1(t: Transition) -> tuple[int, _Violation | None]:
    if not _schema_scope(t):
        return 0, None
    v = _monotone(t, "the call is not additive")
    if v is not None:
        return 1, v
    new, _ = _new(t)
    if new & t.before.dom():
        return 1, _Violation({"overwritten": sorted(new & t.before.dom())}, f"{show_call(t.call)} overwrote.")
    return 1, None


def _local(s: Store, a: Letter) -> Store:
    """The named records of ``s`` and nothing else: what S2 (amended) allows a call to read."""
    return Store.of({i: s.records[i] for i in named(a) if i in s.records})


def _s2(realisation: Realisation) -> Check:
    def check(t: Transition) -> tuple[int, _Violation | None]:
        a = t.call.letter
        if not (is_fragment(a) and a.kind in _CREATING):
            return 0, None
        small = _local(t.before, a)
        out2, after2 = realisation.step(small, a, t.call.allocation, theta=t.theta, faults=t.call.faults)
        new, d = _new(t)
        new2, d2 = after2.dom() - small.dom(), after2.edges - small.edges
        if out2 != t.output or new2 != new or t.after.edges != t.before.edges | d2:
            return 1, _Violation(
                {"local_before": store_to_json(small), "local_output": output_to_json(out2),
                 "output": output_to_json(t.output), "edges_added": _edges_json(d),
                 "local_edges_added": _edges_json(d2)},
                f"{show_call(t.call)} behaves differently on the named records alone: its effect reads more of "
                "the store than the identifiers it names.")
        if not t.ok:
            return 1, None
        spaces = {t.before.records[i].namespace for i in named(a) if i in t.before.records}
        if isinstance(a, Save):
            spaces = {a.record.namespace}
        for j in sorted(new):
            if t.after.records[j].namespace not in spaces:
                return 1, _Violation({"record": j, "namespace": t.after.records[j].namespace,
                                      "named_namespaces": sorted(spaces)},
                                     f"{show_call(t.call)} filed {j} in a namespace no named record has.")
        bad = sorted(e for e in d if e.relation in ANCESTRY and e.target not in t.before.dom() | new)
        if bad:
            return 1, _Violation({"edges": _edges_json(bad)},
                                 f"{show_call(t.call)} added the ancestry edge {bad[0]} to an unresolved identifier.")
        return 1, None

    return check


def _s3(t: Transition) -> tuple[int, _Violation | None]:
    if not _schema_scope(t):
        return 0, None
    new, d = _new(t)
    support = new | frozenset(named(t.call.letter))
    bad = sorted(e for e in d if e.source not in support or e.target not in support)
    if bad:
        return 1, _Violation({"edges": _edges_json(bad), "support": sorted(support)},
                             f"{show_call(t.call)} added {bad[0]}, outside (N ∪ nm(a))².")
    return 1, None


def _s4(t: Transition) -> tuple[int, _Violation | None]:
    if not _schema_scope(t):
        return 0, None
    new, d = _new(t)
    bad = sorted(e for e in d if e.relation in ANCESTRY and e.source not in new)
    if bad:
        return 1, _Violation({"edges": _edges_json(bad)},
                             f"{show_call(t.call)} added the ancestry edge {bad[0]} out of a pre-existing identifier.")
    return 1, None


_SCHEMA_READING = ("successful fresh saves and derivations of the fragment (identifiers by equality), strictly "
                   "fresh allocations, edge writes succeed")


def check_S1(realisation: Realisation, *, max_len: int = 2, random_runs: int = RANDOM_RUNS,
             random_seed: int = 11) -> Verdict:
    """S1 additivity: m_s′ = m_s ∪ m_s′|N with N fresh, and E_s′ = E_s ∪ D.

    Parameters
    ----------
    realisation : Realisation
        The realisation whose step function is run.
    max_len : int
        Exhaustive bound on word length (breadth first, so witnesses are minimal).
    random_runs, random_seed : int
        Seeded random walks added when the exhaustive search finds nothing.

    Returns
    -------
    Verdict
        ``explored`` counts (store, call) pairs with a successful fresh save or derivation; when the
        clause fails, ``witness`` is a replayable counterexample of minimal word length.
    """
    found, n = _run_check(realisation, _s1, max_len=max_len, random_runs=random_runs, random_seed=random_seed)
    return _verdict("S1", realisation, found, n, reading=_SCHEMA_READING,
                    holds_summary=f"every call only added records at fresh identifiers and edges ({n} calls)")


def check_S2(realisation: Realisation, *, max_len: int = 2, random_runs: int = RANDOM_RUNS,
             random_seed: int = 12) -> Verdict:
    """S2 local construction (amended): the whole effect is a function of the named records.

    The call is run again on a store holding only its named records (no edges).
    Success, output, N, the new records and D must be the same; every new record
    lies in the namespace of a named record (a save: its record's); every new
    R⁻ edge targets dom(m_s) ∪ N.

    Parameters
    ----------
    realisation : Realisation
        The realisation whose step function is run.
    max_len : int
        Exhaustive bound on word length (breadth first, so witnesses are minimal).
    random_runs, random_seed : int
        Seeded random walks added when the exhaustive search finds nothing.

    Returns
    -------
    Verdict
        ``explored`` counts (store, call) pairs with a fresh save or derivation (failing ones too:
        success itself must be local); when the clause fails, ``witness`` is a replayable
        counterexample of minimal word length.
    """
    found, n = _run_check(realisation, _s2(realisation), max_len=max_len, random_runs=random_runs,
                          random_seed=random_seed)
    return _verdict("S2", realisation, found, n,
                    reading="fresh saves and derivations of the fragment, failing ones included (identifiers by "
                            "equality), strictly fresh allocations, edge writes succeed",
                    holds_summary=f"every call's effect was the same on its named records alone ({n} calls)")


def check_S3(realisation: Realisation, *, max_len: int = 2, random_runs: int = RANDOM_RUNS,
             random_seed: int = 13) -> Verdict:
    """S3 edge support: D ⊆ (N ∪ nm(a)) × R × (N ∪ nm(a)).

    Parameters
    ----------
    realisation : Realisation
        The realisation whose step function is run.
    max_len : int
        Exhaustive bound on word length (breadth first, so witnesses are minimal).
    random_runs, random_seed : int
        Seeded random walks added when the exhaustive search finds nothing.

    Returns
    -------
    Verdict
        ``explored`` counts (store, call) pairs with a successful fresh save or derivation; when the
        clause fails, ``witness`` is a replayable counterexample of minimal word length.
    """
    found, n = _run_check(realisation, _s3, max_len=max_len, random_runs=random_runs, random_seed=random_seed)
    return _verdict("S3", realisation, found, n, reading=_SCHEMA_READING,
                    holds_summary=f"every added edge joins new or named identifiers ({n} calls)")


def check_S4(realisation: Realisation, *, max_len: int = 2, random_runs: int = RANDOM_RUNS,
             random_seed: int = 14) -> Verdict:
    """S4 ancestry direction: every added R⁻ edge starts at a new identifier.

    Parameters
    ----------
    realisation : Realisation
        The realisation whose step function is run.
    max_len : int
        Exhaustive bound on word length (breadth first, so witnesses are minimal).
    random_runs, random_seed : int
        Seeded random walks added when the exhaustive search finds nothing.

    Returns
    -------
    Verdict
        ``explored`` counts (store, call) pairs with a successful fresh save or derivation; when the
        clause fails, ``witness`` is a replayable counterexample of minimal word length.
    """
    found, n = _run_check(realisation, _s4, max_len=max_len, random_runs=random_runs, random_seed=random_seed)
    return _verdict("S4", realisation, found, n, reading=_SCHEMA_READING,
                    holds_summary=f"every added ancestry edge starts at a record the call created ({n} calls)")


def check_schema(realisation: Realisation) -> list[Verdict]:
    """The derivation schema (Def. 3.23): S1, S2, S3 and S4 checked on ``realisation``, in order.

    >>> from coalg.model.realisation import CONTEXTFS
    >>> [v.holds for v in check_schema(CONTEXTFS)]      # Lemma 5.6
    [True, True, True, True]
    """
    return [check_S1(realisation), check_S2(realisation), check_S3(realisation), check_S4(realisation)]


CHECKS: dict[str, Callable[..., Verdict]] = {
    "L1": check_L1, "L2": check_L2, "L3": check_L3, "L4i": check_L4i, "L4ii": check_L4ii, "L5": check_L5,
    "L6": check_L6, "L7": check_L7, "S1": check_S1, "S2": check_S2, "S3": check_S3, "S4": check_S4,
}
"""Every clause's check, by key."""


# =========================================================================== the table


_TABLES: dict[Realisation, dict[str, Any]] = {}


def clause_entry(key: str, v: Verdict) -> dict[str, Any]:
    """One row of the law table: the verdict of clause ``key`` with what the paper says of it."""
    info = INFO[key]
    entry: dict[str, Any] = {
        "holds": v.holds, "explored": v.explored, "kind": info.kind, "verdict": v.kind,
        "title": info.title, "result": info.result, "repair": info.repair, "summary": v.summary,
    }
    entry.update(v.details)
    if not v.holds:
        entry["witness"] = v.witness
    return entry


def law_table(realisation: Realisation | str) -> dict[str, Any]:
    """Every clause checked on ``realisation``, as the JSON of ``python -m coalg laws --json``.

    Parameters
    ----------
    realisation : Realisation or str
        The realisation, or its name in :data:`coalg.model.realisation.REALISATIONS`.

    Returns
    -------
    dict
        Exactly ``{"realisation": name, "clauses": {...}}``, JSON-ready and a
        function of the realisation only (no timings, no hash order).

    ``{"realisation": name, "clauses": {"L1": {"holds": …, "explored": …, …}, …}}`` with
    keys L1 L2 L3 L4i L4ii L5 L6 L7 S1 S2 S3 S4.  Each entry has ``holds``,
    ``explored``, ``kind`` (theorem / instantiation), ``verdict`` (property /
    counterexample), ``title``, ``result`` (where the paper settles it),
    ``repair`` (what Table 2 says a repair needs), ``reading`` (which form was
    checked), ``summary``, and ``witness`` when it fails; L3 may carry
    ``fault_path`` and L7 ``reachable_set``, ``labels`` and ``strong_form``.
    The result is computed once per realisation and copied.

    >>> from coalg.model.realisation import CONTEXTFS
    >>> t = law_table(CONTEXTFS)
    >>> sorted(k for k, c in t["clauses"].items() if c["holds"])
    ['L1', 'L3', 'L4i', 'S1', 'S2', 'S3', 'S4']
    """
    r = get_realisation(realisation) if isinstance(realisation, str) else realisation
    if r not in _TABLES:
        clauses: dict[str, Any] = {}
        for key in CLAUSES:
            clauses[key] = clause_entry(key, CHECKS[key](r))
        _TABLES[r] = {"realisation": r.name, "clauses": clauses}
    return copy.deepcopy(_TABLES[r])


def _short(entry: dict[str, Any], realisation: str) -> str:
    if entry["holds"]:
        if realisation != "contextfs" and entry["repair"] != "—":
            return f"repaired: {entry['repair']}"
        return str(entry["result"])
    w = entry["witness"]
    calls = ", ".join(_show_json_call(c) for c in w["word"]) or "(seed store)"
    return f"{entry['result']} — seed '{w['seed']}', {calls}: {w['explanation']}"


def _show_json_call(c: dict[str, Any]) -> str:
    from ..model import call_from_json

    return show_call(call_from_json(c))


def format_law_table(table: dict[str, Any]) -> str:
    """The human-readable table of ``python -m coalg laws``."""
    rows = [("clause", "title", "holds", "kind", "explored", "result / witness")]
    for key in CLAUSES:
        e = table["clauses"][key]
        rows.append((key, e["title"], "yes" if e["holds"] else "NO", e["kind"], str(e["explored"]),
                     _short(e, table["realisation"])))
    widths = [max(len(r[k]) for r in rows) for k in range(5)]
    lines = [f"Laws L1–L7 and derivation schema S1–S4 on realisation '{table['realisation']}'", ""]
    if "budget" in table:  # observed on the released package (coalg.contextfs.runtime)
        seed = table.get("hashseed", "unset")
        lines.insert(1, f"observed on the released contextfs 0.2.35 (PYTHONHASHSEED={seed}); "
                        f"explored: {table['budget']}")
    for k, r in enumerate(rows):
        lines.append("  ".join(r[m].ljust(widths[m]) for m in range(5)) + "  " + r[5])
        if k == 0 or r[0] == "L7":
            lines.append("  ".join("-" * w for w in widths) + "  " + "-" * 16)
    laws = [table["clauses"][k]["holds"] for k in LAW_CLAUSES]
    schema = [table["clauses"][k]["holds"] for k in SCHEMA_CLAUSES]
    tally = (f"{sum(laws)} of {len(laws)} law clauses hold, {len(laws) - sum(laws)} fail; "
             f"{sum(schema)} of {len(schema)} schema clauses hold.")
    lines += ["", tally]
    notes = []
    fp = table["clauses"]["L3"].get("fault_path")
    if fp and not fp["holds"]:
        notes.append("L3 holds in the fault-free reading only; on the fault path " + fp["explanation"])
    sf = table["clauses"]["L7"].get("strong_form")
    if sf:
        notes.append("L7's strong form (every label, on the fragment) "
                     + ("holds too." if sf["holds"] else "fails already inside S_lin: " + sf["explanation"]))
    lines += [f"note: {n}" for n in notes]
    return "\n".join(lines) + "\n"
