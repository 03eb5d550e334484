"""The rules of the repaired realisation as functions (ours, after the repairs the paper's §5.10 names): what its step applies.

:mod:`coalg.model.repaired` states the nine rules and is the step function;
here are the pieces a rule names, so that a reader (and a law check) can use
them on their own: the view of ancestry computed from the edges (rule 1:
:func:`derived_metadata`, :func:`derived_record`), what a child inherits of
its parent's metadata, tombstones (rule 7), the declared merge tie-break
(rule 4), valid-time inheritance (rule 9), and the refusals of the step
(rules 1, 2, 6, 7).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from .coalgebra import Err, modes
from .records import ANCESTRY, META_KEYS, FrozenMap, Id, Record, Relation, Time
from .store import Edge, Store

__all__ = [
    "ANCESTRY_KEYS",
    "BOOKKEEPING_KEYS",
    "TOMBSTONE",
    "derived_metadata",
    "derived_record",
    "inheritable_metadata",
    "inherited_valid_time",
    "is_tombstone",
    "merge_type",
    "refuse_ancestry_keys",
    "refuse_failed_writes",
    "refuse_unless_live",
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


# --------------------------------------------------------------------------- records a rule writes


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


def inheritable_metadata(meta: Mapping[str, object]) -> FrozenMap:
    """What a derived record inherits of a parent's metadata (rule 1): everything but
    the ancestry keys and the parent's own derivation bookkeeping.

    >>> inheritable_metadata({"topic": "x", "evolved_from": "a", "merge_timestamp": 3})
    {'topic': 'x'}
    """
    drop = set(ANCESTRY_KEYS) | set(BOOKKEEPING_KEYS)
    return FrozenMap((k, v) for k, v in meta.items() if k not in drop)


# --------------------------------------------------------------------------- the view of ancestry (rule 1)


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
        targets = sorted(e.target for e in s.out_edges(i, (rel,)))
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


# --------------------------------------------------------------------------- refusals


def refuse_unless_live(s: Store, i: Id, what: str) -> Err | None:
    """``None`` if ``i`` holds a live record, else the ``Err`` that says why not (rules 6, 7)."""
    r = s.records.get(i)
    if r is None:
        return Err(f"{what}: no record {i}")
    if is_tombstone(r):
        return Err(f"{what}: {i} is a tombstone (deleted)")
    return None


def refuse_ancestry_keys(r: Record, what: str) -> Err | None:
    """``None`` unless ``r`` carries an ancestry key in its metadata, which only edges may hold (rule 1)."""
    bad = [k for k in ANCESTRY_KEYS if k in r.metadata]
    if bad:
        return Err(f"{what}: metadata key(s) {', '.join(bad)} are reserved; ancestry is recorded by edges")
    return None


def refuse_failed_writes(what: str, edges: Sequence[Edge], faults: frozenset[int]) -> Err | None:
    """The fault oracle for a transaction: any failing edge write rolls the whole call back (rule 2)."""
    failed = sorted(k for k in faults if 0 <= k < len(edges))
    if failed:
        return Err(f"{what}: edge write {failed[0]} failed; the call was rolled back")
    return None
