"""The repaired realisation (ours): the repairs the paper names, made real.

The paper's §5.10 says the failing laws would each need "an explicit comparison,
an explicit tie-break, an extra field, or a constraint", and its open problems 2
and 3 suggest one ancestry representation and deterministic resolution; the
column of Table 2 that lists a repair per clause is our own.  :data:`REPAIRED`
is a step function that has all of them, so the same law checks
(:mod:`coalg.laws`) that refute five clauses on the ContextFS model find
nothing to refute here.  It keeps the
shape of every ContextFS operation — the same letters, the same records apart
from the repaired fields, the same edges — and changes only what a repair
needs.  The rules, each with the clause it repairs:

1. **One ancestry representation (L2).**  Edges are the only place ancestry is
   stored.  No record REPAIRED writes carries ``evolved_from``, ``merged_from``
   or ``split_from`` in its metadata: a derived record does not inherit its
   parent's ancestry keys (nor the parent's derivation bookkeeping,
   :data:`~coalg.model.repair_rules.BOOKKEEPING_KEYS`), and a save whose record carries an ancestry key is
   refused.  The keys are a *view* computed from the edges,
   :func:`~coalg.model.repair_rules.derived_metadata` /
   :func:`~coalg.model.repair_rules.derived_record`, so a reader that wants
   them gets exactly ``{j : (i, r, j) ∈ E}``.
2. **Atomic writes (L2, L3).**  A call's record(s) and edges are one
   transaction.  If an edge write fails (``faults`` names any of the call's edge
   writes, numbered 0, 1, 2, … in issue order) the whole call outputs ``Err``
   and the store is unchanged: there is no log-and-continue handler.
3. **Resolution by equality (L5, L7).**  Every letter that writes names its
   identifiers by equality; a letter with ``by_prefix=True`` is refused with
   ``Err``.  The observation ``recall_prefix(p)`` is answered only when exactly
   one identifier matches ``p``; an ambiguous prefix is an ``Err`` that lists
   the candidates (sorted), so no enumeration order is ever consulted.  What
   matches is ContextFS's own ``id LIKE 'p%'`` (:mod:`~coalg.model.sqlite_like`):
   the repair removes the choice among matches, not SQLite's matching.
4. **A declared type tie-break (L5).**  A merge without an explicit type takes
   the most frequent argument type; a tie is broken by the *lexicographically
   least* tied type.  The rule reads only the multiset of argument types — not
   θ, not even argument order.
5. **An explicit namespace comparison (L4(ii)).**  A merge whose arguments lie
   in more than one namespace is refused, and ``Merge.namespace``, if given,
   must name the arguments' common namespace.  (The variant "allow it when
   ``Merge.namespace`` names a target" was considered and rejected: the result
   would still carry payload from outside its namespace, which is exactly what
   L4(ii) in its two-store form detects.)
6. **Existence checks (L7).**  ``supersede(o, n)`` and ``link(i, r, j)`` need
   both ends to hold live records (not tombstones), and distinct ones.
   ``link`` always writes the inverse edge too (inverse closure, L3, holds for
   every call), and refuses the lineage labels R⁻ ∪ R⁺: lineage edges are
   written only by derivations, so Theorem 5.7's S4 holds for every letter.
   Merge does not drop an argument it cannot resolve: every argument must be a
   live record, given once.
7. **Tombstone deletion (open problem 6).**  ``delete(i)`` replaces the record
   by a tombstone (:func:`tombstone`): content ``""``, type and tag
   ``"tombstone"``, no summary and no metadata — the payload is erased — while
   the namespace, ``created_at`` and ``valid_time`` are kept and ``updated_at``
   becomes the deletion's clock reading.  Every edge is kept, so the shape of
   the ancestry survives.  Tombstones cannot be derived from, replaced,
   deleted again or given new edges.
8. **Strict freshness.**  An allocation must be fresh for occ(s) (Def. 3.8, in
   the form this book states), not only for dom(m_s): an identifier that
   an edge or a record's metadata mentions is never re-used, so a new record
   can never land on a dangling endpoint.
9. **A valid-time field (L6, Proposition 7.1).**  Every record a call creates
   carries ``Record.valid_time``.  When the call gives one — a letter's
   ``valid_time`` argument (evolve, merge, split) or the record of a save — that
   exact value is stored in *every* record the call creates.  Otherwise the
   declared inheritance rule (:func:`inherited_valid_time`) applies: evolve and
   split inherit the parent's valid time, merge takes the latest of its
   arguments', save_at keeps the replaced record's, and a save defaults to the
   call's clock reading τ.  A parent without a valid time (a legacy record
   that ContextFS wrote) counts with its transaction time ``created_at``:
   ContextFS never kept the two apart, and the store, unlike τ, does not
   change when the same derivation is repeated (so Proposition 5.24 holds on
   legacy stores too).  Only when a parent has neither is τ used.

Everything else is ContextFS's: contents, types (a save, save_at or merge
type outside ``MemoryType`` is refused, :mod:`~coalg.model.memory_types`; only
delete writes the repair's own type ``"tombstone"``), tags (plus ``evolved`` /
``merged`` / ``split`` / ``split_part_k``), namespaces from the named record,
the generated merge content ``[Source k]: …`` in argument order, the metadata
union (later arguments override earlier ones), clock stamps, and the pairs of
edges.  ``save_at`` is still a replacement: like ContextFS, REPAIRED leaves it
outside the lineage fragment (Proposition 5.2).

The functions these rules name (the edge-derived view, tombstones, the
tie-break, the inheritance of valid time, the refusals) are in
:mod:`coalg.model.repair_rules`; this module is the step that applies them.

Examples
--------
>>> from coalg.model.alphabet import Allocation, Evolve, Merge, Save
>>> from coalg.model.coalgebra import run
>>> from coalg.model.store import EMPTY
>>> s = run(EMPTY, [Save(Record("a", type="fact")), Save(Record("b", type="decision")),
...                 Merge(("id0001", "id0002")), Evolve("id0003", "c")], step_fn=REPAIRED.step).final
>>> "merged_from" in s.records["id0004"].metadata          # nothing inherited
False
>>> sorted(derived_record(s, "id0003").metadata["merged_from"]), s.records["id0003"].type
(['id0001', 'id0002'], 'decision')
>>> out, s2 = REPAIRED.step(s, Evolve("id0003", "d"), Allocation(("id0005",), 9), faults=frozenset({1}))
>>> out.reason, s2 == s                                    # atomic: all or nothing
('evolve: edge write 1 failed; the call was rolled back', True)
"""

from __future__ import annotations

from dataclasses import dataclass

from . import alphabet as A
from .alphabet import Allocation, Letter
from .coalgebra import (
    Created,
    Err,
    Flag,
    Found,
    Nothing,
    Output,
    Wrote,
    generated_merge_content,
    type_refusal,
)
from .realisation import Realisation
from .records import LINEAGE, FrozenMap, Id, Record, Relation
from .repair_rules import (
    derived_record,
    inheritable_metadata,
    inherited_valid_time,
    merge_type,
    refuse_ancestry_keys,
    refuse_failed_writes,
    refuse_unless_live,
    tombstone,
)
from .sqlite_like import like_matches
from .store import Edge, Store, edge_pair
from .theta import DEFAULT_THETA, Theta

__all__ = ["REPAIRED", "RepairedRealisation", "repaired_step"]

_NO_ALLOCATION = Allocation()


def repaired_step(
    s: Store,
    a: Letter,
    xi: Allocation = _NO_ALLOCATION,
    *,
    theta: Theta = DEFAULT_THETA,
    faults: frozenset[int] = frozenset(),
) -> tuple[Output, Store]:
    """α(s)(a, ξ) for the repaired realisation.

    Parameters
    ----------
    s : Store
        The current store.
    a : Letter
        The call.
    xi : Allocation
        Its allocation; it must be admissible *and* strictly fresh at ``s``.
    theta : Theta
        Accepted for the common interface and never read (L5).
    faults : frozenset of int
        Indices of edge writes that fail; any that this call issues rolls it back.

    Returns
    -------
    tuple
        ``(output, store)``: the output and the next store; on ``Err`` the store is ``s`` itself.

    Examples
    --------
    >>> from coalg.model.alphabet import Supersede
    >>> repaired_step(Store(), Supersede("nothing", "here"))[0]
    Err(reason='supersede: no record here')
    """
    reason = xi.admissible(s, a)
    if reason is None and not xi.strictly_fresh(s):
        reason = "allocated identifier(s) are mentioned by the store (allocations must be strictly fresh)"
    if reason is not None:
        return Err(f"{a.kind}: inadmissible allocation: {reason}"), s
    if getattr(a, "by_prefix", False):
        return Err(f"{a.kind}: identifiers are resolved by equality only (by_prefix is refused)"), s
    match a:
        case A.Save(record=r):
            bad = type_refusal("save", r.type) or refuse_ancestry_keys(r, "save")
            if bad:
                return bad, s
            j, tau = xi.ids[0], xi.clock
            new = r.evolve(valid_time=inherited_valid_time(r.valid_time, (), tau)).stamped(tau)
            return Created(((j, new),)), s.with_record(j, new)
        case A.SaveAt(id=i, record=r):
            bad = (refuse_unless_live(s, i, "save_at") or type_refusal("save_at", r.type)
                   or refuse_ancestry_keys(r, "save_at"))
            if bad:
                return bad, s
            tau = xi.clock
            new = r.evolve(valid_time=inherited_valid_time(r.valid_time, (s.records[i],), tau)).stamped(tau)
            return Created(((i, new),)), s.with_record(i, new)
        case A.Recall(id=i):
            return (Found(i, s.records[i]) if i in s.records else Nothing()), s
        case A.RecallPrefix(prefix=p):
            matches = list(like_matches(s, p))  # ContextFS's LIKE 'p%', ascending
            if len(matches) > 1:
                return Err(f"recall_prefix: {p!r} is ambiguous: {', '.join(matches)}"), s
            return (Found(matches[0], s.records[matches[0]]) if matches else Nothing()), s
        case A.Delete(id=i):
            bad = refuse_unless_live(s, i, "delete")
            if bad:
                return bad, s
            return Flag(True), s.with_record(i, tombstone(s.records[i], xi.clock))
        case A.Evolve():
            return _evolve(s, a, xi, faults)
        case A.Merge():
            return _merge(s, a, xi, faults)
        case A.Split():
            return _split(s, a, xi, faults)
        case A.Supersede(old=o, new=n):
            return _edge_letter(s, "supersede", n, Relation.SUPERSEDES, o, faults)
        case A.Link(source=i, relation=r, target=j):
            if r in LINEAGE:
                return Err(f"link: {r.value} is a lineage label; only derivations write lineage edges"), s
            return _edge_letter(s, "link", i, r, j, faults)
    raise TypeError(f"not a letter: {a!r}")


def _edge_letter(
    s: Store, what: str, x: Id, r: Relation, y: Id, faults: frozenset[int]
) -> tuple[Output, Store]:
    bad = refuse_unless_live(s, x, what) or refuse_unless_live(s, y, what)
    if bad:
        return bad, s
    if x == y:
        return Err(f"{what}: both ends are {x}"), s
    es = list(edge_pair(x, r, y))
    bad = refuse_failed_writes(what, es, faults)
    if bad:
        return bad, s
    return Wrote(tuple(es)), s.with_edges(es)


def _evolve(s: Store, a: A.Evolve, xi: Allocation, faults: frozenset[int]) -> tuple[Output, Store]:
    bad = refuse_unless_live(s, a.id, "evolve")
    if bad:
        return bad, s
    r, j, tau = s.records[a.id], xi.ids[0], xi.clock
    new = r.evolve(  # the parent's type and namespace, re-stamped
        content=a.content,
        tags=r.tags | {"evolved"} | a.tags,
        summary=a.summary if a.summary is not None else r.summary,
        metadata=inheritable_metadata(r.metadata).merged({"evolution_timestamp": tau, "change_reason": "observation"}),
        valid_time=inherited_valid_time(a.valid_time, (r,), tau),
    ).stamped(tau)
    return _created(s, "evolve", ((j, new),), list(edge_pair(j, Relation.EVOLVED_FROM, a.id)), faults)


def _merge(s: Store, a: A.Merge, xi: Allocation, faults: frozenset[int]) -> tuple[Output, Store]:
    if len(a.ids) < 2:
        return Err(f"merge: needs at least 2 records, {len(a.ids)} named"), s
    if a.type is not None and (refused := type_refusal("merge", a.type)) is not None:
        return refused, s  # no `if memory_type:` here: an empty type is refused like any other
    twice = sorted({i for i in a.ids if a.ids.count(i) > 1})
    if twice:
        return Err(f"merge: {', '.join(twice)} named more than once"), s
    for i in a.ids:
        bad = refuse_unless_live(s, i, "merge")
        if bad:
            return bad, s
    rs = [s.records[i] for i in a.ids]
    spaces = sorted({r.namespace for r in rs})
    if len(spaces) > 1:
        return Err(f"merge: the arguments lie in different namespaces ({', '.join(spaces)}); "
                   "merge within one namespace"), s
    if a.namespace is not None and a.namespace != spaces[0]:
        return Err(f"merge: target namespace {a.namespace} is not the arguments' namespace {spaces[0]}"), s
    j, tau = xi.ids[0], xi.clock
    meta = FrozenMap()
    for r in rs:
        meta = meta.merged(inheritable_metadata(r.metadata))  # later arguments override earlier ones
    new = Record(
        content=a.content if a.content is not None else generated_merge_content([r.content for r in rs]),
        type=a.type if a.type is not None else merge_type([r.type for r in rs]),
        namespace=spaces[0],
        tags=frozenset().union(*(r.tags for r in rs)) | {"merged"},
        summary=a.summary,
        metadata=meta.merged({"merge_strategy": "union", "merge_timestamp": tau}),
        valid_time=inherited_valid_time(a.valid_time, rs, tau, latest=True),
    ).stamped(tau)
    return _created(s, "merge", ((j, new),), [e for i in a.ids for e in edge_pair(j, Relation.MERGED_FROM, i)],
                    faults)


def _split(s: Store, a: A.Split, xi: Allocation, faults: frozenset[int]) -> tuple[Output, Store]:
    if len(a.contents) < 2:
        return Err(f"split: needs at least 2 parts, got {len(a.contents)}"), s
    bad = refuse_unless_live(s, a.id, "split")
    if bad:
        return bad, s
    r, tau, n = s.records[a.id], xi.clock, len(a.contents)
    vt = inherited_valid_time(a.valid_time, (r,), tau)
    meta = inheritable_metadata(r.metadata)
    parts = tuple(  # each part is the parent's type and namespace with its own content, re-stamped
        (j, r.evolve(content=c, summary=None, tags=r.tags | {"split", f"split_part_{k}"},
                     metadata=meta.merged({"split_part": k, "split_total": n, "split_timestamp": tau}),
                     valid_time=vt).stamped(tau))
        for k, (j, c) in enumerate(zip(xi.ids, a.contents), start=1)
    )
    return _created(s, "split", parts, [e for j, _ in parts for e in edge_pair(j, Relation.SPLIT_FROM, a.id)],
                    faults)


def _created(
    s: Store, what: str, parts: tuple[tuple[Id, Record], ...], es: list[Edge], faults: frozenset[int]
) -> tuple[Output, Store]:
    """A derivation's outcome: the new records and their edges written together, or nothing and the
    ``Err`` if an edge write fails (L2, L3)."""
    bad = refuse_failed_writes(what, es, faults)
    if bad:
        return bad, s
    for j, rec in parts:
        s = s.with_record(j, rec)
    return Created(parts), s.with_edges(es)


# --------------------------------------------------------------------------- the realisation


@dataclass(frozen=True)
class RepairedRealisation(Realisation):
    """A realisation whose metadata ancestry reader is derived from the edges.

    :meth:`record_view` is the record a reader sees at ``i``: the law checks
    (:func:`coalg.laws.check_L2`) read ancestry metadata through it.
    """

    def record_view(self, s: Store, i: Id) -> Record | None:
        """``derived_record(s, i)``: the stored record plus edge-derived ancestry keys."""
        return derived_record(s, i)


REPAIRED = RepairedRealisation(
    "repaired",
    repaired_step,
    "The paper's repairs made real: ancestry only in edges (metadata derived), atomic record+edge "
    "writes, resolution by equality, a declared merge tie-break, no cross-namespace merge, existence "
    "checks on supersede and link, tombstone deletion, strictly fresh allocations, and a valid-time field.",
    declares_valid_time=True,
    edge_faults=False,
)
"""The repaired realisation (``python -m coalg laws --realisation repaired``)."""
