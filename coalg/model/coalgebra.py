"""The store coalgebra (paper §3.3, Definition 3.14), with ContextFS a93035d semantics.

``step(s, a, ξ)`` is the structure map α: S → (Out × S)^{A⁺} applied to a store
and a call.  The semantics is the code-faithful one of §3.3, as reconstructed:

* merge files its result in the *first* argument's namespace and breaks ties
  between types with the undeclared order θ (``max(set(types), key=types.count)``);
* ancestry is written twice: into the new record's metadata, unconditionally,
  and as a pair of edges inside a handler that logs and continues — so a
  failing edge write (the ``faults`` of a :class:`~coalg.model.alphabet.Call`) leaves
  metadata ancestry without edges, or a one-way edge;
* delete removes every incident edge; supersede checks nothing;
* recall by prefix returns the θ-first match, with no namespace filter.

An inadmissible call (unknown identifier, an identifier already taken, too few
merge arguments, a wrong number of allocated identifiers) outputs :class:`Err`
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
from dataclasses import dataclass, field
from typing import TypeAlias

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
from .records import Id, Record, Relation, inverse
from .store import EMPTY, Edge, Store, edge_pair  # noqa: F401 (EMPTY: the doctests use it)
from .theta import DEFAULT_THETA, Theta

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
    "generated_merge_content",
    "modes",
    "StepFunction",
]


# --------------------------------------------------------------------------- outputs


@dataclass(frozen=True, slots=True)
class Err:
    """err: the call was inadmissible or failed; the store is unchanged."""

    reason: str


@dataclass(frozen=True, slots=True)
class Nothing:
    """⊥: a recall that found nothing (not an error)."""


@dataclass(frozen=True, slots=True)
class Found:
    """A recalled record, with its identifier."""

    id: Id
    record: Record


@dataclass(frozen=True, slots=True)
class Created:
    """The record(s) a call created, with their identifiers, in creation order."""

    items: tuple[tuple[Id, Record], ...]

    @property
    def ids(self) -> tuple[Id, ...]:
        return tuple(i for i, _ in self.items)


@dataclass(frozen=True, slots=True)
class Wrote:
    """The edges a supersede or link wrote (empty when its handler swallowed a failure)."""

    edges: tuple[Edge, ...]


@dataclass(frozen=True, slots=True)
class Flag:
    """A boolean answer (delete)."""

    value: bool


Output: TypeAlias = Err | Nothing | Found | Created | Wrote | Flag
StepFunction: TypeAlias = Callable[..., tuple[Output, Store]]


# --------------------------------------------------------------------------- helpers


def resolve_prefix(s: Store, p: str, theta: Theta = DEFAULT_THETA) -> Id | None:
    """The θ-first identifier of dom(m_s) that extends ``p`` (``id LIKE 'p%'``, ``fetchone()``).

    Our choice: we model ``LIKE`` as a plain, case-sensitive prefix test; SQLite's
    is ASCII-case-insensitive and treats ``_``/``%`` as wildcards (see Lemma 5.6).
    """
    matches = [i for i in s.records if i.startswith(p)]
    return theta.first_id(matches) if matches else None


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
            # ContextFS declares no valid-time field: a valid time on the record is not stored.
            new = r.evolve(valid_time=None).stamped(tau)
            return Created(((xi.ids[0], new),)), s.with_record(xi.ids[0], new)
        case SaveAt(id=i, record=r):
            if i not in s.records:
                return Err(f"save_at: no record {i} to replace"), s
            new = r.evolve(valid_time=None).stamped(tau)
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
            incident = [e for e in s.edges if full in (e.source, e.target)]
            return Flag(True), s.without_record(full).without_edges(incident)
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
    ).stamped(tau)
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
    rs = [s.records[i] for i in resolved]
    j, tau = xi.ids[0], xi.clock
    meta = rs[0].metadata
    for r in rs[1:]:
        meta = meta.merged(r.metadata)  # later arguments override earlier ones
    new = Record(
        content=a.content if a.content is not None else generated_merge_content([r.content for r in rs]),
        type=a.type if a.type is not None else theta.choose_type(modes([r.type for r in rs])),
        namespace=rs[0].namespace,  # memory_lineage.py:256
        tags=frozenset().union(*(r.tags for r in rs)) | {"merged"},
        summary=a.summary or f"Merged from {len(rs)} memories",  # memory_lineage.py:255
        metadata=meta.merged(
            {"merged_from": list(resolved), "merge_strategy": "union", "merge_timestamp": tau}
        ),
    ).stamped(tau)
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
            ).stamped(tau),
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
    """α(s) as a function on calls of A⁺ (letter, allocation, faults)."""
    return lambda c: step(s, c.letter, c.allocation, theta=theta, faults=c.faults)


# --------------------------------------------------------------------------- runs


@dataclass(frozen=True, slots=True)
class Trace:
    """A run s₀ →a₁ s₁ → … → sₙ: the calls as made (with allocations), outputs and states."""

    calls: tuple[Call, ...]
    outputs: tuple[Output, ...]
    states: tuple[Store, ...] = field(default_factory=tuple)

    @property
    def final(self) -> Store:
        return self.states[-1]


def latest_clock(s: Store) -> int:
    """The latest clock reading stamped in ``s`` (``created_at``/``updated_at``), or 0.

    >>> latest_clock(run(EMPTY, [Save(Record("x")), Save(Record("y"))]).final)
    2
    """
    stamps = [t for r in s.records.values() for t in (r.created_at, r.updated_at) if t is not None]
    return max(stamps, default=0)


def run(
    s: Store,
    word: Iterable[Letter | Call],
    *,
    oracle: Oracle | None = None,
    theta: Theta = DEFAULT_THETA,
    step_fn: StepFunction | None = None,
) -> Trace:
    """Run a word from ``s``.  Bare letters get their allocation from ``oracle``
    (by default a fresh deterministic :class:`Oracle` whose clock continues after the
    latest time stamped in ``s``, so chained runs never stamp a later record earlier);
    :class:`Call` items are replayed as given.  ``step_fn`` is the structure map to
    run (a realisation's step); ``None`` means :func:`step`, the ContextFS model.

    >>> t = run(EMPTY, [Save(Record("x")), Evolve("id0001", "y")])
    >>> t.final.dom() == {"id0001", "id0002"}, len(t.final.edges)
    (True, 2)
    """
    oracle = oracle if oracle is not None else Oracle(clock=latest_clock(s))
    step_fn = step if step_fn is None else step_fn
    states, outs, calls = [s], [], []
    for item in word:
        call = item if isinstance(item, Call) else Call(item, oracle.allocate(states[-1], item))
        out, nxt = step_fn(states[-1], call.letter, call.allocation, theta=theta, faults=call.faults)
        calls.append(call)
        outs.append(out)
        states.append(nxt)
    return Trace(tuple(calls), tuple(outs), tuple(states))


def replay(
    s: Store, trace: Trace, *, theta: Theta = DEFAULT_THETA, step_fn: StepFunction | None = None
) -> Trace:
    """Run the calls of ``trace`` again from ``s`` (same allocations, same faults);
    ``step_fn`` as for :func:`run` (``None``: the ContextFS model's :func:`step`)."""
    return run(s, trace.calls, theta=theta, step_fn=step_fn)
