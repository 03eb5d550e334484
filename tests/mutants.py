"""Deliberately broken realisations: each breaks one law, schema clause or theorem, and the checks must say so.

A check that always answers "holds" would pass every test that only asks the
two model realisations for their verdicts.  Each mutant here is one of the two
models with one small, plausible mistake, and names what it breaks: the clauses
of Definitions 3.21 and 3.23 (``L1`` … ``S4``) and the numbered results
(``5.7``, ``6.2``, …) whose checks must reject it.  The base realisation passes
the same checks, so a rejection is the mutation's doing.

Import them from any test module in ``tests/`` (pytest puts this folder on
``sys.path``)::

    from mutants import MUTANTS, mutant

Every mutant wraps its base's step function: it runs the base and then changes
the output or the store (or the letter before the base sees it), so the models
themselves are never touched.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from coalg.model import (
    CONTEXTFS,
    DEFAULT_THETA,
    REPAIRED,
    Allocation,
    Created,
    Delete,
    Err,
    Evolve,
    Flag,
    Letter,
    Merge,
    Output,
    Realisation,
    Record,
    Relation,
    Split,
    Store,
    Theta,
    modes,
)
from coalg.model.repaired import RepairedRealisation
from coalg.model.store import Edge, edge_pair

__all__ = ["MUTANTS", "Mutant", "mutant"]

StepResult = tuple[Output, Store]
After = Callable[[Store, Letter, Allocation, Output, Store], StepResult]


@dataclass(frozen=True)
class Mutant:
    """A broken realisation, its base, and the clauses and results whose checks must reject it."""

    name: str
    base: Realisation
    realisation: Realisation
    breaks: tuple[str, ...]
    mistake: str


def _wrap(base: Realisation, name: str, after: After, mistake: str) -> Realisation:
    def step_fn(s: Store, a: Letter, xi: Allocation = Allocation(), *, theta: Theta = DEFAULT_THETA,
                faults: frozenset[int] = frozenset()) -> StepResult:
        out, s2 = base.step(s, a, xi, theta=theta, faults=faults)
        return after(s, a, xi, out, s2)

    cls = RepairedRealisation if isinstance(base, RepairedRealisation) else Realisation
    return cls(name, step_fn, mistake, declares_valid_time=base.declares_valid_time, edge_faults=base.edge_faults)


def _created(out: Output, s2: Store, j: str, rec: Record) -> StepResult:
    """The step's result with record ``j`` replaced by ``rec``, in the store and in the output."""
    assert isinstance(out, Created)
    return Created(tuple((i, rec if i == j else r) for i, r in out.items)), s2.with_record(j, rec)


# --------------------------------------------------------------------------- the mutations


def _overwrites_parent(s: Store, a: Letter, xi: Allocation, out: Output, s2: Store) -> StepResult:
    if isinstance(a, Evolve) and isinstance(out, Created) and a.id in s2.records:
        s2 = s2.with_record(a.id, s2.records[a.id].with_content("overwritten"))
    return out, s2


def _ancestry_out_of_old(s: Store, a: Letter, xi: Allocation, out: Output, s2: Store) -> StepResult:
    if isinstance(a, Evolve) and isinstance(out, Created):
        s2 = s2.with_edges(edge_pair(a.id, Relation.EVOLVED_FROM, out.ids[0]))
    return out, s2


def _reads_the_store(s: Store, a: Letter, xi: Allocation, out: Output, s2: Store) -> StepResult:
    if isinstance(a, Evolve) and isinstance(out, Created):
        j = out.ids[0]
        return _created(out, s2, j, s2.records[j].with_content(f"{a.content} ({len(s.records)} records)"))
    return out, s2


def _stray_ancestry_key(s: Store, a: Letter, xi: Allocation, out: Output, s2: Store) -> StepResult:
    if isinstance(a, Merge) and isinstance(out, Created):
        j = out.ids[0]
        r = s2.records[j]
        return _created(out, s2, j, r.evolve(metadata=r.metadata.merged({"merged_from": [a.ids[0]]})))
    return out, s2


def _one_way_edge(s: Store, a: Letter, xi: Allocation, out: Output, s2: Store) -> StepResult:
    if isinstance(a, Evolve) and isinstance(out, Created):
        s2 = s2.without_edges([Edge(a.id, Relation.EVOLVED_INTO, out.ids[0])])
    return out, s2


def _files_in_alice(s: Store, a: Letter, xi: Allocation, out: Output, s2: Store) -> StepResult:
    if isinstance(a, Evolve) and isinstance(out, Created):
        j = out.ids[0]
        return _created(out, s2, j, s2.records[j].evolve(namespace="alice"))
    return out, s2


def _split_tail_reads_others(s: Store, a: Letter, xi: Allocation, out: Output, s2: Store) -> StepResult:
    if isinstance(a, Split) and isinstance(out, Created) and len(out.ids) > 1:
        j = out.ids[-1]
        ns = s2.records[j].namespace
        outside = sum(r.namespace != ns for r in s.records.values())
        return _created(out, s2, j, s2.records[j].with_content(f"{s2.records[j].content} ({outside} elsewhere)"))
    return out, s2


def _relates_to_another(s: Store, a: Letter, xi: Allocation, out: Output, s2: Store) -> StepResult:
    if isinstance(a, Evolve) and isinstance(out, Created):
        others = sorted(s.dom() - {a.id})
        if others:
            s2 = s2.with_edges(edge_pair(out.ids[0], Relation.RELATED_TO, others[0]))
    return out, s2


def _extra_edge(s: Store, a: Letter, xi: Allocation, out: Output, s2: Store) -> StepResult:
    if isinstance(a, Evolve) and isinstance(out, Created):
        s2 = s2.with_edges(edge_pair(out.ids[0], Relation.RELATED_TO, "elsewhere"))
    return out, s2


def _merge_stamps_clock(s: Store, a: Letter, xi: Allocation, out: Output, s2: Store) -> StepResult:
    if isinstance(a, Merge) and isinstance(out, Created):
        j = out.ids[0]
        return _created(out, s2, j, s2.records[j].with_content(f"{s2.records[j].content} [merged at {xi.clock}]"))
    return out, s2


def _forgets_valid_time(s: Store, a: Letter, xi: Allocation, out: Output, s2: Store) -> StepResult:
    if isinstance(out, Created):
        for j in out.ids:
            s2 = s2.with_record(j, s2.records[j].evolve(valid_time=None))
        out = Created(tuple((j, s2.records[j]) for j in out.ids))
    return out, s2


def _delete_leaves_dangling(s: Store, a: Letter, xi: Allocation, out: Output, s2: Store) -> StepResult:
    if isinstance(a, Delete) and isinstance(out, Flag) and a.id in s.records:
        return out, s.without_record(a.id)
    return out, s2


def _cross_namespace_merge(base: Realisation) -> Realisation:
    """REPAIRED, but a merge across namespaces is filed in its first argument's (as ContextFS does)."""
    def step_fn(s: Store, a: Letter, xi: Allocation = Allocation(), *, theta: Theta = DEFAULT_THETA,
                faults: frozenset[int] = frozenset()) -> StepResult:
        if isinstance(a, Merge) and a.namespace is None and all(i in s.records for i in a.ids) and len(a.ids) >= 2:
            first = s.records[a.ids[0]].namespace
            moved = {i: s.records[i].evolve(namespace=first) for i in a.ids}
            t = Store.of({**dict(s.records), **moved}, s.edges)
            out, t2 = base.step(t, a, xi, theta=theta, faults=faults)
            if isinstance(out, Err):
                return out, s
            back = Store.of({**dict(t2.records), **{i: s.records[i] for i in a.ids}}, t2.edges)
            return out, back
        return base.step(s, a, xi, theta=theta, faults=faults)

    return RepairedRealisation("cross-namespace-merge", step_fn, "merges across namespaces",
                               declares_valid_time=True, edge_faults=False)


def _theta_type_choice(base: Realisation) -> Realisation:
    """REPAIRED, but a merge without a type breaks a tie between argument types by θ."""
    def step_fn(s: Store, a: Letter, xi: Allocation = Allocation(), *, theta: Theta = DEFAULT_THETA,
                faults: frozenset[int] = frozenset()) -> StepResult:
        if isinstance(a, Merge) and a.type is None and all(i in s.records for i in a.ids) and a.ids:
            a = replace(a, type=theta.choose_type(modes([s.records[i].type for i in a.ids])))
        return base.step(s, a, xi, theta=theta, faults=faults)

    return RepairedRealisation("theta-type-choice", step_fn, "breaks merge-type ties by θ",
                               declares_valid_time=True, edge_faults=False)


MUTANTS: tuple[Mutant, ...] = (
    Mutant("overwrites-parent", CONTEXTFS,
           _wrap(CONTEXTFS, "overwrites-parent", _overwrites_parent, "evolve also rewrites its parent's content"),
           ("L1", "S1", "5.1", "5.7", "5.12"), "evolve also rewrites its parent's content"),
    Mutant("ancestry-out-of-old", REPAIRED,
           _wrap(REPAIRED, "ancestry-out-of-old", _ancestry_out_of_old,
                 "evolve also writes an EVOLVED_FROM pair out of the parent"),
           ("S4", "5.7", "5.12"), "evolve also writes an EVOLVED_FROM pair out of the parent"),
    Mutant("reads-the-store", REPAIRED,
           _wrap(REPAIRED, "reads-the-store", _reads_the_store, "evolve's content counts the store's records"),
           ("S2", "6.2"), "evolve's content counts the store's records"),
    Mutant("stray-ancestry-key", REPAIRED,
           _wrap(REPAIRED, "stray-ancestry-key", _stray_ancestry_key,
                 "merge stores merged_from naming its first argument only"),
           ("L2",), "merge stores merged_from naming its first argument only"),
    Mutant("one-way-edge", REPAIRED,
           _wrap(REPAIRED, "one-way-edge", _one_way_edge, "evolve writes EVOLVED_FROM without its inverse"),
           ("L3", "5.16"), "evolve writes EVOLVED_FROM without its inverse"),
    Mutant("files-in-alice", REPAIRED,
           _wrap(REPAIRED, "files-in-alice", _files_in_alice, "evolve files every new record in namespace alice"),
           ("L4i", "S2", "5.17"), "evolve files every new record in namespace alice"),
    Mutant("cross-namespace-merge", REPAIRED, _cross_namespace_merge(REPAIRED), ("L4ii",),
           "merges across namespaces, filed in the first argument's"),
    Mutant("split-tail-reads-others", REPAIRED,
           _wrap(REPAIRED, "split-tail-reads-others", _split_tail_reads_others,
                 "split's last part counts the records of other namespaces (its first part is sound)"),
           ("L4ii",), "split's last part counts the records of other namespaces (its first part is sound)"),
    Mutant("theta-type-choice", REPAIRED, _theta_type_choice(REPAIRED), ("L5",),
           "breaks merge-type ties by θ"),
    Mutant("forgets-valid-time", REPAIRED,
           _wrap(REPAIRED, "forgets-valid-time", _forgets_valid_time, "new records lose their valid time"),
           ("L6", "7.1"), "new records lose their valid time"),
    Mutant("delete-leaves-dangling", REPAIRED,
           _wrap(REPAIRED, "delete-leaves-dangling", _delete_leaves_dangling,
                 "delete removes the record and keeps its edges"),
           ("L7",), "delete removes the record and keeps its edges"),
    Mutant("extra-edge", REPAIRED,
           _wrap(REPAIRED, "extra-edge", _extra_edge, "evolve also relates the new record to an identifier it does not name"),
           ("S3",), "evolve also relates the new record to an identifier it does not name"),
    Mutant("relates-to-another", REPAIRED,
           _wrap(REPAIRED, "relates-to-another", _relates_to_another,
                 "evolve also relates the new record to another record of the store"),
           ("S1",), "evolve also relates the new record to another record of the store: E′ ≠ E ∪ W"),
    Mutant("merge-stamps-clock", REPAIRED,
           _wrap(REPAIRED, "merge-stamps-clock", _merge_stamps_clock, "merge writes its clock into the content"),
           ("5.24",), "merge writes its clock into the content"),
)
"""Every mutant, in the order of what it breaks (laws, schema, theorems)."""


def mutant(name: str) -> Mutant:
    """The mutant called ``name``."""
    for m in MUTANTS:
        if m.name == name:
            return m
    raise KeyError(f"no mutant {name!r}; known: {', '.join(m.name for m in MUTANTS)}")

