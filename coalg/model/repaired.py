"""The repaired realisation: the paper's repairs made real (spec §6.2 Table 2, last column; §7).

Every law clause that fails for ContextFS names, in Table 2, "what a repair
needs": one ancestry representation, an explicit namespace comparison, an
explicit tie-break and deterministic resolution, an extra (valid-time) field,
and a constraint on edge writes.  :data:`REPAIRED` is a step function that has
all of them, so the same law checks (:mod:`coalg.laws.clauses`) that refute five
clauses on the ContextFS model find nothing to refute here.  It keeps the
shape of every ContextFS operation — the same letters, the same records apart
from the repaired fields, the same edges — and changes only what a repair
needs.  The rules, each with the clause it repairs:

1. **One ancestry representation (L2).**  Edges are the only place ancestry is
   stored.  No record REPAIRED writes carries ``evolved_from``, ``merged_from``
   or ``split_from`` in its metadata: a derived record does not inherit its
   parent's ancestry keys (nor the parent's derivation bookkeeping,
   :data:`BOOKKEEPING_KEYS`), and a save whose record carries an ancestry key is
   refused.  The keys are a *view* computed from the edges,
   :func:`derived_metadata` / :func:`derived_record`, so a reader that wants
   them gets exactly ``{j : (i, r, j) ∈ E}``.
2. **Atomic writes (L2, L3).**  A call's record(s) and edges are one
   transaction.  If an edge write fails (``faults`` names any of the call's edge
   writes, numbered 0, 1, 2, … in issue order) the whole call outputs ``Err``
   and the store is unchanged: there is no log-and-continue handler.
3. **Resolution by equality (L5, L7).**  Every letter that writes names its
   identifiers by equality; a letter with ``by_prefix=True`` is refused with
   ``Err``.  The observation ``recall_prefix(p)`` is answered only when exactly
   one identifier extends ``p``; an ambiguous prefix is an ``Err`` that lists
   the candidates (sorted), so no enumeration order is ever consulted.
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
8. **Strict freshness.**  An allocation must be fresh for occ(s) (Def. 3.8,
   review note), not only for dom(m_s): an identifier that an edge or a
   record's metadata mentions is never re-used, so a new record can never land
   on a dangling endpoint.
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

Everything else is ContextFS's: contents, types, tags (plus ``evolved`` /
``merged`` / ``split`` / ``split_part_k``), namespaces from the named record,
the generated merge content ``[Source k]: …`` in argument order, the metadata
union (later arguments override earlier ones), clock stamps, and the pairs of
edges.  ``save_at`` is still a replacement: like ContextFS, REPAIRED leaves it
outside the lineage fragment (Proposition 5.2).

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

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from .alphabet import (
    DEFAULT_THETA,
    Allocation,
    Delete,
    Evolve,
    Letter,
    Link,
    Merge,
    Recall,
    RecallPrefix,
    Save,
    SaveAt,
    Split,
    Supersede,
    Theta,
    edge_writes,
)
from .coalgebra import (
    Created,
    Err,
    Flag,
    Found,
    Nothing,
    Output,
    Wrote,
    generated_merge_content,
    modes,
)
from .realisation import Realisation
from .records import ANCESTRY, LINEAGE, META_KEYS, FrozenMap, Id, Record, Relation, Time, inverse
from .store import Edge, Store

__all__ = [
    "ANCESTRY_KEYS",
    "BOOKKEEPING_KEYS",
    "REPAIRED",
    "TOMBSTONE",
    "RepairedRealisation",
    "derived_metadata",
    "derived_record",
    "edge_writes",
    "inherited_valid_time",
    "is_tombstone",
    "merge_type",
    "repaired_step",
    "tombstone",
]

ANCESTRY_KEYS: tuple[str, ...] = tuple(sorted(META_KEYS.values()))
"""``evolved_from``, ``merged_from``, ``split_from``: derived from edges, never stored."""

BOOKKEEPING_KEYS: tuple[str, ...] = (
    "change_reason",
    "evolution_timestamp",
    "merge_strategy",
    "merge_timestamp",
    "split_part",
    "split_timestamp",
    "split_total",
)
"""Metadata a derivation writes about *its own* record; a child does not inherit its parent's."""

TOMBSTONE = "tombstone"
"""The type and the tag of a tombstone record."""


# --------------------------------------------------------------------------- small rules


def tombstone(r: Record, tau: Time) -> Record:
    """The tombstone that replaces ``r`` when it is deleted at clock ``tau``.

    The payload (content, summary, tags, metadata, type) is erased; the
    namespace, ``created_at`` and ``valid_time`` are kept; ``updated_at = tau``.

    >>> t = tombstone(Record("secret", namespace="bob", created_at=1, valid_time=0, tags={"x"}), 5)
    >>> (t.content, t.type, sorted(t.tags), t.namespace, t.created_at, t.updated_at, t.valid_time)
    ('', 'tombstone', ['tombstone'], 'bob', 1, 5, 0)
    """
    return Record(
        content="",
        type=TOMBSTONE,
        namespace=r.namespace,
        tags=frozenset({TOMBSTONE}),
        summary=None,
        metadata=FrozenMap(),
        created_at=r.created_at,
        updated_at=tau,
        valid_time=r.valid_time,
    )


def is_tombstone(r: Record | None) -> bool:
    """Whether ``r`` is a tombstone left by REPAIRED's delete."""
    return r is not None and r.type == TOMBSTONE and TOMBSTONE in r.tags and r.content == ""


def merge_type(types: Sequence[str]) -> str:
    """The declared tie-break: the most frequent type, ties to the lexicographically least.

    >>> merge_type(["fact", "decision"]), merge_type(["decision", "fact"]), merge_type(["b", "a", "b"])
    ('decision', 'decision', 'b')
    """
    return min(modes(types))


def inherited_valid_time(explicit: Time | None, parents: Iterable[Record], tau: Time, *, latest: bool = False) -> Time:
    """The valid time a created record gets (rule 9 of the module docstring).

    ``explicit`` wins.  Otherwise the parents' valid times are inherited — the
    single parent's for evolve and split, the latest (``latest=True``) for merge;
    a legacy parent without one counts with its ``created_at`` — and when there
    is nothing to inherit (a save) the clock reading ``tau`` is used.

    >>> inherited_valid_time(None, [Record("p", valid_time=3), Record("q", valid_time=7)], 9, latest=True)
    7
    >>> inherited_valid_time(2, [Record("p", valid_time=3)], 9), inherited_valid_time(None, [], 9)
    (2, 9)
    >>> inherited_valid_time(None, [Record("legacy", created_at=4)], 9)
    4
    """
    if explicit is not None:
        return explicit
    known = [t for p in parents if (t := p.valid_time if p.valid_time is not None else p.created_at) is not None]
    if not known:
        return tau
    return max(known) if latest else known[0]


def _payload(meta: Mapping[str, object]) -> FrozenMap:
    """Metadata without ancestry keys and without the parent's derivation bookkeeping."""
    drop = set(ANCESTRY_KEYS) | set(BOOKKEEPING_KEYS)
    return FrozenMap((k, v) for k, v in meta.items() if k not in drop)




def _pair(x: Id, r: Relation, y: Id) -> tuple[Edge, Edge]:
    return Edge(x, r, y), Edge(y, inverse(r), x)


# --------------------------------------------------------------------------- the view of ancestry


def derived_metadata(s: Store, i: Id) -> FrozenMap:
    """The metadata of ``m_s(i)`` with its ancestry keys computed from the edges out of ``i``.

    ``evolved_from`` / ``split_from`` hold the single target when there is one
    and a sorted list when there are several; ``merged_from`` is the sorted list
    of targets (argument order is not recoverable from a set of edges — the
    provenance is the edge set).  Keys without edges are absent, and a stored
    ancestry key (a legacy record) is replaced by the edge-derived value.

    >>> s = Store.of({"a": Record("A"), "m": Record("M")},
    ...              [("m", Relation.MERGED_FROM, "a"), ("m", Relation.MERGED_FROM, "b")])
    >>> derived_metadata(s, "m")
    {'merged_from': ('a', 'b')}
    """
    r = s.records.get(i)
    base = {} if r is None else {k: v for k, v in r.metadata.items() if k not in ANCESTRY_KEYS}
    for rel in sorted(ANCESTRY, key=lambda x: x.value):
        targets = sorted(e.target for e in s.edges if e.source == i and e.relation is rel)
        if not targets:
            continue
        key = META_KEYS[rel]
        base[key] = targets if rel is Relation.MERGED_FROM or len(targets) > 1 else targets[0]
    return FrozenMap(base)


def derived_record(s: Store, i: Id) -> Record | None:
    """``m_s(i)`` as a reader sees it: the stored record with :func:`derived_metadata`.

    This is REPAIRED's metadata ancestry reader: ``meta_r(derived_record(s, i))``
    equals ``{j : (i, r, j) ∈ E_s}`` for every r ∈ R⁻, by construction (L2).
    """
    r = s.records.get(i)
    return None if r is None else r.evolve(metadata=derived_metadata(s, i))


# --------------------------------------------------------------------------- the step function


def _live(s: Store, i: Id, what: str) -> Err | None:
    """``None`` if ``i`` holds a live record, else the ``Err`` that says why not."""
    r = s.records.get(i)
    if r is None:
        return Err(f"{what}: no record {i}")
    if is_tombstone(r):
        return Err(f"{what}: {i} is a tombstone (deleted)")
    return None


def _reserved(r: Record, what: str) -> Err | None:
    bad = [k for k in ANCESTRY_KEYS if k in r.metadata]
    if bad:
        return Err(f"{what}: metadata key(s) {', '.join(bad)} are reserved; ancestry is recorded by edges")
    return None


def _commit(what: str, edges: Sequence[Edge], faults: frozenset[int]) -> Err | None:
    """The fault oracle for a transaction: any failing edge write rolls the whole call back."""
    failed = sorted(k for k in faults if 0 <= k < len(edges))
    if failed:
        return Err(f"{what}: edge write {failed[0]} failed; the call was rolled back")
    return None


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
    tuple of (Output, Store)
        The output and the next store; on ``Err`` the store is ``s`` itself.

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
        case Save(record=r):
            bad = _reserved(r, "save")
            if bad:
                return bad, s
            j, tau = xi.ids[0], xi.clock
            new = r.evolve(valid_time=inherited_valid_time(r.valid_time, (), tau)).stamped(tau)
            return Created(((j, new),)), s.with_record(j, new)
        case SaveAt(id=i, record=r):
            bad = _live(s, i, "save_at") or _reserved(r, "save_at")
            if bad:
                return bad, s
            tau = xi.clock
            new = r.evolve(valid_time=inherited_valid_time(r.valid_time, (s.records[i],), tau)).stamped(tau)
            return Created(((i, new),)), s.with_record(i, new)
        case Recall(id=i):
            return (Found(i, s.records[i]) if i in s.records else Nothing()), s
        case RecallPrefix(prefix=p):
            matches = sorted(i for i in s.records if i.startswith(p))
            if len(matches) > 1:
                return Err(f"recall_prefix: {p!r} is ambiguous: {', '.join(matches)}"), s
            return (Found(matches[0], s.records[matches[0]]) if matches else Nothing()), s
        case Delete(id=i):
            bad = _live(s, i, "delete")
            if bad:
                return bad, s
            return Flag(True), s.with_record(i, tombstone(s.records[i], xi.clock))
        case Evolve():
            return _evolve(s, a, xi, faults)
        case Merge():
            return _merge(s, a, xi, faults)
        case Split():
            return _split(s, a, xi, faults)
        case Supersede(old=o, new=n):
            return _edge_letter(s, "supersede", n, Relation.SUPERSEDES, o, faults)
        case Link(source=i, relation=r, target=j):
            if r in LINEAGE:
                return Err(f"link: {r.value} is a lineage label; only derivations write lineage edges"), s
            return _edge_letter(s, "link", i, r, j, faults)
    raise TypeError(f"not a letter: {a!r}")


def _edge_letter(
    s: Store, what: str, x: Id, r: Relation, y: Id, faults: frozenset[int]
) -> tuple[Output, Store]:
    bad = _live(s, x, what) or _live(s, y, what)
    if bad:
        return bad, s
    if x == y:
        return Err(f"{what}: both ends are {x}"), s
    es = list(_pair(x, r, y))
    bad = _commit(what, es, faults)
    if bad:
        return bad, s
    return Wrote(tuple(es)), s.with_edges(es)


def _evolve(s: Store, a: Evolve, xi: Allocation, faults: frozenset[int]) -> tuple[Output, Store]:
    bad = _live(s, a.id, "evolve")
    if bad:
        return bad, s
    r, j, tau = s.records[a.id], xi.ids[0], xi.clock
    new = Record(
        content=a.content,
        type=r.type,
        namespace=r.namespace,
        tags=r.tags | {"evolved"} | a.tags,
        summary=a.summary if a.summary is not None else r.summary,
        metadata=_payload(r.metadata).merged({"evolution_timestamp": tau, "change_reason": "observation"}),
        valid_time=inherited_valid_time(a.valid_time, (r,), tau),
    ).stamped(tau)
    es = list(_pair(j, Relation.EVOLVED_FROM, a.id))
    bad = _commit("evolve", es, faults)
    if bad:
        return bad, s
    return Created(((j, new),)), s.with_record(j, new).with_edges(es)


def _merge(s: Store, a: Merge, xi: Allocation, faults: frozenset[int]) -> tuple[Output, Store]:
    if len(a.ids) < 2:
        return Err(f"merge: needs at least 2 records, {len(a.ids)} named"), s
    twice = sorted({i for i in a.ids if a.ids.count(i) > 1})
    if twice:
        return Err(f"merge: {', '.join(twice)} named more than once"), s
    for i in a.ids:
        bad = _live(s, i, "merge")
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
        meta = meta.merged(_payload(r.metadata))  # later arguments override earlier ones
    new = Record(
        content=a.content if a.content is not None else generated_merge_content([r.content for r in rs]),
        type=a.type if a.type is not None else merge_type([r.type for r in rs]),
        namespace=spaces[0],
        tags=frozenset().union(*(r.tags for r in rs)) | {"merged"},
        summary=a.summary,
        metadata=meta.merged({"merge_strategy": "union", "merge_timestamp": tau}),
        valid_time=inherited_valid_time(a.valid_time, rs, tau, latest=True),
    ).stamped(tau)
    es = [e for i in a.ids for e in _pair(j, Relation.MERGED_FROM, i)]
    bad = _commit("merge", es, faults)
    if bad:
        return bad, s
    return Created(((j, new),)), s.with_record(j, new).with_edges(es)


def _split(s: Store, a: Split, xi: Allocation, faults: frozenset[int]) -> tuple[Output, Store]:
    if len(a.contents) < 2:
        return Err(f"split: needs at least 2 parts, got {len(a.contents)}"), s
    bad = _live(s, a.id, "split")
    if bad:
        return bad, s
    r, tau, n = s.records[a.id], xi.clock, len(a.contents)
    vt = inherited_valid_time(a.valid_time, (r,), tau)
    parts = tuple(
        (
            j,
            Record(
                content=c,
                type=r.type,
                namespace=r.namespace,
                tags=r.tags | {"split", f"split_part_{k}"},
                metadata=_payload(r.metadata).merged({"split_part": k, "split_total": n, "split_timestamp": tau}),
                valid_time=vt,
            ).stamped(tau),
        )
        for k, (j, c) in enumerate(zip(xi.ids, a.contents), start=1)
    )
    es = [e for j, _ in parts for e in _pair(j, Relation.SPLIT_FROM, a.id)]
    bad = _commit("split", es, faults)
    if bad:
        return bad, s
    s2 = s
    for j, rec in parts:
        s2 = s2.with_record(j, rec)
    return Created(parts), s2.with_edges(es)


# --------------------------------------------------------------------------- the realisation


@dataclass(frozen=True)
class RepairedRealisation(Realisation):
    """A realisation whose metadata ancestry reader is derived from the edges.

    :meth:`record_view` is the record a reader sees at ``i``: the law checks
    (:func:`coalg.laws.clauses.check_L2`) read ancestry metadata through it.
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
