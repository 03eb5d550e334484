"""The store coalgebra (paper §3.3, Definition 3.14), with ContextFS a93035d semantics.

``step(s, a, ξ)`` is the structure map α: S → (Out × S)^{Â} applied to a store
and a call.  The semantics is the code-faithful one of §3.3, as reconstructed:

* merge files its result in the *first* argument's namespace and breaks ties
  between types with the undeclared order θ (``max(set(types), key=types.count)``);
* ancestry is written twice: into the new record's metadata, unconditionally,
  and as a pair of edges inside a handler that logs and continues — so a
  failing edge write (the ``faults`` of a :class:`~coalg.model.alphabet.Call`) leaves
  metadata ancestry without edges, or a one-way edge;
* delete removes every incident edge; supersede checks nothing;
* an identifier argument is looked up as ContextFS does, with SQLite's
  ``id LIKE 'arg%'`` (:mod:`~coalg.model.sqlite_like`: ASCII case folded, ``_``
  and ``%`` wildcards); recall by prefix returns the θ-first match, with no
  namespace filter;
* a save, save_at or merge type outside ContextFS's ``MemoryType``
  (:mod:`~coalg.model.memory_types`) is refused, as the package's validation does.

An inadmissible call (unknown identifier, an identifier already taken, too few
merge arguments, a refused type, a wrong number of allocated identifiers) outputs :class:`~coalg.model.outputs.Err`
and leaves the store unchanged.  Nothing is ever half-applied: a call either
returns a whole new store or the old one.

Examples
--------
>>> s0 = EMPTY
>>> out, s1 = step(s0, Save(Record("first", namespace="alice")), Allocation(("a",), 1))
>>> out
Created(items=(('a', Record(content='first', ...)),))
>>> out, s2 = step(s1, Evolve("a", "second"), Allocation(("b",), 2))
>>> sorted(map(str, s2.edges))
['(a, EVOLVED_INTO, b)', '(b, EVOLVED_FROM, a)']
>>> step(s2, Evolve("nope", "x"), Allocation(("c",), 3))[0]
Err(reason='evolve: no record nope')
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from .alphabet import (
    Allocation,
    Call,
    Delete,
    Evolve,
    Letter,
    Link,
    Merge,
    Oracle,
    Recall,
    RecallPrefix,
    Save,
    SaveAt,
    Split,
    Supersede,
)
from .memory_types import MEMORY_TYPES, is_memory_type
from .outputs import Created, Err, Flag, Found, Nothing, Output, StepFunction, Wrote
from .records import Id, Record, Relation, Time, inverse
from .sqlite_like import like_matches, like_prefix
from .store import EMPTY, Edge, Store, edge_pair  # noqa: F401 (EMPTY: the doctests use it)
from .theta import DEFAULT_THETA, Theta
from .trace import Trace

__all__ = [
    "Err",
    "Nothing",
    "Found",
    "Created",
    "Wrote",
    "Flag",
    "Output",
    "step",
    "alpha",
    "Trace",
    "run",
    "replay",
    "latest_clock",
    "resolve_prefix",
    "first_match",
    "type_refusal",
    "generated_merge_content",
    "stamped_fresh",
    "modes",
    "StepFunction",
]


# --------------------------------------------------------------------------- helpers


def resolve_prefix(s: Store, p: str, theta: Theta = DEFAULT_THETA) -> Id | None:
    """The θ-first identifier of dom(m_s) that ContextFS's ``id LIKE 'p%'`` finds (``fetchone()``).

    ``LIKE`` is SQLite's own (:mod:`~coalg.model.sqlite_like`): ASCII case is folded,
    ``_`` and ``%`` in ``p`` are wildcards, nothing is escaped (Lemma 5.6).

    >>> s = Store.of({"a0123456-789": Record("x")})
    >>> resolve_prefix(s, "A0"), resolve_prefix(s, "a_1"), resolve_prefix(s, "b")
    ('a0123456-789', 'a0123456-789', None)
    """
    return first_match(s, p, theta)


def first_match(s: Store, p: str, theta: Theta = DEFAULT_THETA) -> Id | None:
    """The θ-first identifier of dom(m_s) that ``LIKE 'p%'`` finds, from the store's sorted index.

    θ's priority list is read first; otherwise the least (or, with ``descending``,
    the greatest) match, which :func:`~coalg.model.sqlite_like.like_matches` finds
    from the sorted index without a scan when ``p`` starts with a literal.  The same
    answer as ``theta.first_id`` on every match, which a property test checks: θ is
    data, its order is its fields, and they are all this function reads.
    """
    for i in theta.id_priority:
        if i in s.records and like_prefix(p, i):
            return i
    matches = like_matches(s, p)
    if not theta.descending:
        return next(matches, None)
    last = None
    for last in matches:
        pass
    return last


def type_refusal(kind: str, t: str) -> Err | None:
    """ContextFS's refusal of a record type outside its ``MemoryType`` (``None``: accepted)."""
    if is_memory_type(t):
        return None
    return Err(f"{kind}: type {t!r} is not one of ContextFS's {len(MEMORY_TYPES)} memory types")


def stamped_fresh(r: Record, tau: Time) -> Record:
    """``r_τ`` as ContextFS stores a saved record: stamped with τ and without a valid time
    (ContextFS declares no valid-time field).

    The record ``replace(r, created_at=tau, updated_at=tau, valid_time=None)`` is, built
    field by field because ``dataclasses.replace`` costs a fifth of a save; a test pins that
    the two agree and that no field of :class:`Record` is left out.

    >>> stamped_fresh(Record("x", valid_time=5), 3) == Record("x", created_at=3, updated_at=3)
    True
    """
    return Record(r.content, r.type, r.namespace, r.tags, r.summary, r.metadata, tau, tau, None)


def modes(types: Sequence[str]) -> frozenset[str]:
    """M: the most frequent elements of a list of types (the set ``max(set(...))`` chooses from)."""
    counts: dict[str, int] = {}
    for t in types:
        counts[t] = counts.get(t, 0) + 1
    top = max(counts.values())
    return frozenset(t for t, c in counts.items() if c == top)


def generated_merge_content(contents: Sequence[str]) -> str:
    """ContextFS's default merged content: ``[Source k]: c_k[:500]`` joined by blank lines.

    >>> generated_merge_content(["alpha", "beta"])
    '[Source 1]: alpha\\n\\n[Source 2]: beta'
    """
    return "\n\n".join(f"[Source {k}]: {c[:500]}" for k, c in enumerate(contents, start=1))


def _write_pairs(
    pairs: Iterable[tuple[Edge, Edge]], faults: frozenset[int], single_block: bool
) -> list[Edge]:
    """Edge writes inside ``try: … except Exception: logger.warning(...)`` handlers.

    Writes are numbered 0, 1, 2, … in issue order.  A faulting write raises: the
    rest of its ``try`` block is skipped.  With ``single_block`` every write is in
    one block (evolve, supersede); otherwise each pair has its own (merge, split).
    """
    written: list[Edge] = []
    index = 0
    aborted = False
    for first, second in pairs:
        if not single_block:
            aborted = False
        for e in (first, second):
            if not aborted and index in faults:
                aborted = True
            elif not aborted:
                written.append(e)
            index += 1
    return written


# --------------------------------------------------------------------------- the structure map


def step(
    s: Store,
    a: Letter,
    xi: Allocation = Allocation(),
    *,
    theta: Theta = DEFAULT_THETA,
    faults: frozenset[int] = frozenset(),
) -> tuple[Output, Store]:
    """α(s)(a, ξ) for the ContextFS a93035d model: the output and the next store."""
    reason = xi.admissible(s, a)
    if reason is not None:
        return Err(f"{a.kind}: inadmissible allocation: {reason}"), s
    tau = xi.clock
    match a:
        case Save(record=r):
            refused = type_refusal("save", r.type)  # Memory(type=…) fails before any write
            if refused is not None:
                return refused, s
            # ContextFS declares no valid-time field: a valid time on the record is not stored.
            new = stamped_fresh(r, tau)
            return Created(((xi.ids[0], new),)), s.with_record(xi.ids[0], new)
        case SaveAt(id=i, record=r):
            if i not in s.records:
                return Err(f"save_at: no record {i} to replace"), s
            refused = type_refusal("save_at", r.type)
            if refused is not None:
                return refused, s
            new = stamped_fresh(r, tau)
            return Created(((i, new),)), s.with_record(i, new)
        case Recall(id=i):
            return (Found(i, s.records[i]) if i in s.records else Nothing()), s
        case RecallPrefix(prefix=p):
            j = resolve_prefix(s, p, theta)
            return (Found(j, s.records[j]) if j is not None else Nothing()), s
        case Delete(id=i, by_prefix=bp):
            full = resolve_prefix(s, i, theta) if bp else (i if i in s.records else None)
            if full is None:
                return Err(f"delete: no record {i}"), s
            return Flag(True), s.without_record(full).without_edges(s.incident_edges(full))
        case Evolve():
            return _evolve(s, a, xi, theta, faults)
        case Merge():
            return _merge(s, a, xi, theta, faults)
        case Split():
            return _split(s, a, xi, theta, faults)
        case Supersede(old=o, new=n):
            written = _write_pairs([edge_pair(n, Relation.SUPERSEDES, o)], faults, single_block=True)
            return Wrote(tuple(written)), s.with_edges(written)
        case Link(source=i, relation=r, target=j, bidirectional=bi):
            fi, fj = resolve_prefix(s, i, theta), resolve_prefix(s, j, theta)
            if fi is None or fj is None:
                return Err(f"link: no record {i if fi is None else j}"), s
            es = [Edge(fi, r, fj)] + ([Edge(fj, inverse(r), fi)] if bi else [])
            return Wrote(tuple(es)), s.with_edges(es)
    raise TypeError(f"not a letter: {a!r}")


def _resolve(s: Store, i: Id, by_prefix: bool, theta: Theta) -> Id | None:
    if by_prefix:
        return resolve_prefix(s, i, theta)
    return i if i in s.records else None


def _evolve(
    s: Store, a: Evolve, xi: Allocation, theta: Theta, faults: frozenset[int]
) -> tuple[Output, Store]:
    full = _resolve(s, a.id, a.by_prefix, theta)
    if full is None:
        return Err(f"evolve: no record {a.id}"), s
    r, j, tau = s.records[full], xi.ids[0], xi.clock
    # The code writes the *argument string* (possibly a prefix) into metadata and edges.
    new = Record(
        content=a.content,
        type=r.type,
        namespace=r.namespace,
        tags=r.tags | {"evolved"} | a.tags,
        summary=a.summary or r.summary,  # `summary or original.summary`: an empty summary is no summary
        metadata=r.metadata.merged(
            {"evolved_from": a.id, "evolution_timestamp": tau, "change_reason": "observation"}
        ),
        created_at=tau,  # r_τ: stamped with the call's clock reading
        updated_at=tau,
    )
    written = _write_pairs([edge_pair(j, Relation.EVOLVED_FROM, a.id)], faults, single_block=True)
    return Created(((j, new),)), s.with_record(j, new).with_edges(written)


def _merge(
    s: Store, a: Merge, xi: Allocation, theta: Theta, faults: frozenset[int]
) -> tuple[Output, Store]:
    if a.namespace is not None:
        return Err("merge: ContextFS a93035d's merge takes no target namespace"), s
    resolved = [f for f in (_resolve(s, i, a.by_prefix, theta) for i in a.ids) if f is not None]
    if len(resolved) < 2:
        return Err(f"merge: needs at least 2 records, {len(resolved)} resolved"), s
    if a.type and (refused := type_refusal("merge", a.type)) is not None:
        return refused, s  # `if memory_type:` — an empty type is no type; Memory(type=…) validates
    rs = [s.records[i] for i in resolved]
    j, tau = xi.ids[0], xi.clock
    meta = rs[0].metadata
    for r in rs[1:]:
        meta = meta.merged(r.metadata)  # later arguments override earlier ones
    new = Record(
        content=a.content if a.content is not None else generated_merge_content([r.content for r in rs]),
        type=a.type if a.type else theta.choose_type(modes([r.type for r in rs])),
        namespace=rs[0].namespace,  # memory_lineage.py:256
        tags=frozenset().union(*(r.tags for r in rs)) | {"merged"},
        summary=a.summary or f"Merged from {len(rs)} memories",  # memory_lineage.py:255
        metadata=meta.merged(
            {"merged_from": list(resolved), "merge_strategy": "union", "merge_timestamp": tau}
        ),
        created_at=tau,
        updated_at=tau,
    )
    pairs = [edge_pair(j, Relation.MERGED_FROM, i) for i in resolved]
    written = _write_pairs(pairs, faults, single_block=False)
    return Created(((j, new),)), s.with_record(j, new).with_edges(written)


def _split(
    s: Store, a: Split, xi: Allocation, theta: Theta, faults: frozenset[int]
) -> tuple[Output, Store]:
    if len(a.contents) < 2:
        return Err(f"split: needs at least 2 parts, got {len(a.contents)}"), s
    full = _resolve(s, a.id, a.by_prefix, theta)
    if full is None:
        return Err(f"split: no record {a.id}"), s
    r, tau, n = s.records[full], xi.clock, len(a.contents)
    parts = tuple(
        (
            j,
            Record(
                content=c,
                type=r.type,
                namespace=r.namespace,
                tags=r.tags | {"split", f"split_part_{k}"},
                summary=f"Part {k} of split memory",  # memory_lineage.py:421 (no summaries argument)
                metadata=r.metadata.merged(
                    {"split_from": a.id, "split_part": k, "split_total": n, "split_timestamp": tau}
                ),
                created_at=tau,
                updated_at=tau,
            ),
        )
        for k, (j, c) in enumerate(zip(xi.ids, a.contents), start=1)
    )
    pairs = [edge_pair(j, Relation.SPLIT_FROM, a.id) for j, _ in parts]
    written = _write_pairs(pairs, faults, single_block=False)
    s2 = s
    for j, rec in parts:
        s2 = s2.with_record(j, rec)
    return Created(parts), s2.with_edges(written)


def alpha(s: Store, *, theta: Theta = DEFAULT_THETA) -> Callable[[Call], tuple[Output, Store]]:
    """α(s) as a function on calls of Â (letter, allocation, faults)."""
    return lambda c: step(s, c.letter, c.allocation, theta=theta, faults=c.faults)


# --------------------------------------------------------------------------- runs


def latest_clock(s: Store) -> int:
    """The latest clock reading stamped in ``s`` (``created_at``/``updated_at``), or 0.

    Read from the store's clock index in O(log n).

    >>> latest_clock(run(EMPTY, [Save(Record("x")), Save(Record("y"))]).final)
    2
    """
    return s.latest_clock()


def run(
    s: Store,
    word: Iterable[Letter | Call],
    *,
    oracle: Oracle | None = None,
    theta: Theta = DEFAULT_THETA,
    step_fn: StepFunction | None = None,
    keep_states: bool = False,
) -> Trace:
    """Run a word from ``s``.  Bare letters get their allocation from ``oracle``
    (by default a fresh deterministic :class:`Oracle` whose clock continues after the
    latest time stamped in ``s``, so chained runs never stamp a later record earlier);
    :class:`Call` items are replayed as given.  ``step_fn`` is the structure map to
    run (a realisation's step); ``None`` means :func:`step`, the ContextFS model.

    The trace keeps the calls, the outputs and the final store; with
    ``keep_states`` it also keeps every intermediate store (they share structure,
    so n stores take O(n log n) memory), otherwise :attr:`~coalg.model.trace.Trace.states`
    recomputes them when read.

    >>> t = run(EMPTY, [Save(Record("x")), Evolve("id0001", "y")])
    >>> t.final.dom() == {"id0001", "id0002"}, len(t.final.edges), len(t.states)
    (True, 2, 3)
    """
    oracle = oracle if oracle is not None else Oracle(clock=latest_clock(s))
    step_fn = step if step_fn is None else step_fn
    states: list[Store] = [s]
    outs: list[Output] = []
    calls: list[Call] = []
    cur = s
    for item in word:
        call = item if isinstance(item, Call) else Call(item, oracle.allocate(cur, item))
        out, cur = step_fn(cur, call.letter, call.allocation, theta=theta, faults=call.faults)
        calls.append(call)
        outs.append(out)
        if keep_states:
            states.append(cur)
    if keep_states:
        # with its states kept a trace reads step_fn and θ only to shortcut an equality: not mutated
        return Trace(tuple(calls), tuple(outs), tuple(states), step_fn=step_fn, theta=theta)  # pragma: no mutate
    return Trace(tuple(calls), tuple(outs), start=s, final=cur, step_fn=step_fn, theta=theta)


def replay(
    s: Store,
    trace: Trace,
    *,
    theta: Theta = DEFAULT_THETA,
    step_fn: StepFunction | None = None,
    keep_states: bool = False,
) -> Trace:
    """Run the calls of ``trace`` again from ``s`` (same allocations, same faults);
    ``step_fn`` and ``keep_states`` as for :func:`run` (``None``: the ContextFS model's
    :func:`step`)."""
    return run(s, trace.calls, theta=theta, step_fn=step_fn, keep_states=keep_states)
