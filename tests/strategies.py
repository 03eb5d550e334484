"""Shared hypothesis strategies for the coalg tests: identifiers, records, stores, letters, words.

Import them from any test module in ``tests/`` (pytest puts this folder on ``sys.path``)::

    from strategies import records, stores, fragment_words

Everything is small on purpose: identifiers come from a three-letter alphabet, so
prefixes collide (``"a"`` is a prefix of ``"ab"``), dangling endpoints and
identifier clashes between two drawn stores are common, and counterexamples
shrink to something readable.

Strategies
----------
* values: :func:`identifiers`, :func:`relations`, :func:`json_values`, :func:`metadata`,
  :func:`records`, :func:`edges`, :func:`thetas`
* stores: :func:`stores` (any store of S), :func:`closed_stores` (inverse- and
  referentially closed), :func:`fragment_stores` (reachable from ∅ by the lineage
  fragment, i.e. in S_lin)
* letters at a store: :func:`fragment_letters`, :func:`any_letters`
* renaming: :func:`rename_store` (a reference renaming of identifiers, for tests of
  stores up to renaming)
* words from a store: :func:`fragment_words`, :func:`words` (lists of letters to feed
  :func:`coalg.model.coalgebra.run` with a *fresh default* :class:`~coalg.model.alphabet.Oracle`),
  :func:`call_sequences` (tuples of :class:`~coalg.model.alphabet.Call` with explicit
  allocations and, optionally, injected edge-write faults; replay them with ``run``)

The word strategies draw each letter at the store the previous letters produce,
so later letters name records that earlier ones created.  They simulate the run
with ``Oracle()``; ``run(s, word)`` (whose default oracle is a fresh ``Oracle()``)
allocates exactly the same identifiers.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache

from hypothesis import strategies as st

from coalg.model import (
    ANCESTRY,
    DEFAULT_THETA,
    ID_POSITIONS,
    Call,
    Delete,
    Evolve,
    FrozenMap,
    Id,
    Letter,
    Link,
    Merge,
    Oracle,
    Recall,
    RecallPrefix,
    Record,
    Relation,
    Save,
    SaveAt,
    Split,
    Supersede,
    Theta,
    inverse,
    run,
    step,
)
from coalg.model.store import EMPTY, Edge, Store

__all__ = [
    "rename_store",
    "ALL_RELATIONS",
    "ID_ALPHABET",
    "NAMESPACES",
    "TAGS",
    "TYPES",
    "any_letters",
    "call_sequences",
    "close_under_inverse",
    "closed_stores",
    "edges",
    "fragment_letters",
    "fragment_stores",
    "fragment_words",
    "identifiers",
    "json_values",
    "metadata",
    "records",
    "relations",
    "stores",
    "thetas",
    "words",
]

ID_ALPHABET = "abc"
TYPES = ("fact", "decision", "episodic")
NAMESPACES = ("global", "alice", "bob")
TAGS = ("t1", "t2", "evolved")
ALL_RELATIONS: tuple[Relation, ...] = tuple(Relation)


# --------------------------------------------------------------------------- values


@cache
def identifiers(max_size: int = 3) -> st.SearchStrategy[Id]:
    """Short identifiers over ``ID_ALPHABET`` (``"a"``, ``"ab"``, ``"cba"``, …)."""
    return st.text(alphabet=ID_ALPHABET, min_size=1, max_size=max_size)


def relations(labels: Iterable[Relation] | None = None) -> st.SearchStrategy[Relation]:
    """One of the 22 labels, or of ``labels``; the ancestry labels shrink first."""
    pool = ALL_RELATIONS if labels is None else tuple(labels)
    return st.sampled_from(sorted(pool, key=lambda r: (r not in ANCESTRY, r.value)))


_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(-5, 5)
    | st.text(alphabet="xyz é", max_size=4)
    | st.floats(allow_nan=False, allow_infinity=False, width=32)
)


@cache
def json_values(max_leaves: int = 4) -> st.SearchStrategy[object]:
    """JSON-like data (no NaN or infinities): what a record's metadata may hold."""
    return st.recursive(
        _SCALARS,
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text("kv", max_size=2), inner, max_size=3),
        max_leaves=max_leaves,
    )


_FREE_METADATA = st.dictionaries(st.text("kvw", min_size=1, max_size=2), json_values(), max_size=2)
_ANCESTRY_KEYS = st.sampled_from(("evolved_from", "merged_from", "split_from"))


@st.composite
def metadata(draw: st.DrawFn, ids: st.SearchStrategy[Id] | None = None) -> dict[str, object]:
    """A metadata dict: free keys, and sometimes the ancestry keys with well-typed values."""
    ids = identifiers() if ids is None else ids
    d: dict[str, object] = draw(_FREE_METADATA)
    if draw(st.booleans()):
        key = draw(_ANCESTRY_KEYS)
        d[key] = draw(st.lists(ids, min_size=1, max_size=3)) if key == "merged_from" else draw(ids)
    return d


def records(
    *,
    namespaces: Sequence[str] = NAMESPACES,
    types: Sequence[str] = TYPES,
    with_metadata: bool = True,
    with_times: bool = True,
) -> st.SearchStrategy[Record]:
    """Records with small contents, a type and namespace from the given pools, tags and metadata."""
    return _records(tuple(namespaces), tuple(types), with_metadata, with_times)


@cache
def _records(namespaces: tuple[str, ...], types: tuple[str, ...], with_metadata: bool,
             with_times: bool) -> st.SearchStrategy[Record]:
    """:func:`records`, built once per choice of pools (building a strategy costs more than drawing from it)."""
    times = st.none() | st.integers(0, 20) if with_times else st.none()
    return st.builds(
        Record,
        content=st.text(alphabet="abxy \n", max_size=6),
        type=st.sampled_from(types),
        namespace=st.sampled_from(namespaces),
        tags=st.frozensets(st.sampled_from(TAGS), max_size=2),
        summary=st.none() | st.text(alphabet="s", max_size=2),
        metadata=metadata() if with_metadata else st.just({}),
        created_at=times,
        updated_at=times,
        valid_time=times,
    )


def edges(
    endpoints: st.SearchStrategy[Id] | None = None, labels: Iterable[Relation] | None = None
) -> st.SearchStrategy[Edge]:
    """Edges ``(source, relation, target)`` with endpoints from ``endpoints``."""
    endpoints = identifiers() if endpoints is None else endpoints
    return st.builds(Edge, endpoints, relations(labels), endpoints)


def thetas() -> st.SearchStrategy[Theta]:
    """Resolutions θ = (c, ≺) of ContextFS's undeclared orders."""
    return st.builds(
        Theta,
        type_priority=st.lists(st.sampled_from(TYPES), unique=True, max_size=3).map(tuple),
        id_priority=st.lists(identifiers(), unique=True, max_size=3).map(tuple),
        descending=st.booleans(),
    )


# --------------------------------------------------------------------------- stores


@st.composite
def stores(
    draw: st.DrawFn,
    max_records: int = 6,
    max_edges: int = 8,
    *,
    dangling: bool = True,
    labels: Iterable[Relation] | None = None,
    record_strategy: st.SearchStrategy[Record] | None = None,
    id_strategy: st.SearchStrategy[Id] | None = None,
    min_records: int = 0,
) -> Store:
    """Any store of S (Definition 3.4): no closure condition is imposed.

    With ``dangling=False`` every edge endpoint holds a record (referentially closed);
    ``min_records`` records at least (drawn so, not filtered afterwards).
    """
    ids = identifiers() if id_strategy is None else id_strategy
    rec = records() if record_strategy is None else record_strategy
    dom = draw(st.lists(ids, unique=True, min_size=min_records, max_size=max_records))
    recs = {i: draw(rec) for i in dom}
    if dom:
        endpoint = st.sampled_from(sorted(dom)) | ids if dangling else st.sampled_from(sorted(dom))
    elif dangling:
        endpoint = ids
    else:
        return Store.of(recs)
    es = draw(st.lists(edges(endpoint, labels), max_size=max_edges))
    return Store.of(recs, es)


def close_under_inverse(s: Store) -> Store:
    """Add the missing inverse of every edge."""
    return s.with_edges(Edge(e.target, inverse(e.relation), e.source) for e in s.edges)


def closed_stores(
    max_records: int = 6, max_edges: int = 8, *, record_strategy: st.SearchStrategy[Record] | None = None
) -> st.SearchStrategy[Store]:
    """Stores that are inverse-closed and referentially closed."""
    return stores(max_records, max_edges, dangling=False, record_strategy=record_strategy).map(close_under_inverse)


# --------------------------------------------------------------------------- letters


def _named(s: Store, missing: bool = True) -> st.SearchStrategy[Id]:
    """An identifier to name at ``s``: usually a record, sometimes (if ``missing``) any identifier."""
    dom = sorted(s.dom())
    if not dom:
        return identifiers()
    present = st.sampled_from(dom)
    return st.one_of(present, present, present, identifiers()) if missing else present


_CONTENTS = st.text(alphabet="pqr", max_size=3)


@st.composite
def fragment_letters(
    draw: st.DrawFn, s: Store, *, missing: bool = True, record_strategy: st.SearchStrategy[Record] | None = None
) -> Letter:
    """One letter of the lineage fragment at ``s``: fresh save, recall, evolve, merge, split, supersede.

    Identifiers are named by equality.  With ``missing`` they sometimes name no
    record (an ``err`` for evolve and split, a dropped argument for merge, a dangling
    edge for supersede).  Derivations are weighted up so that short words already
    build some lineage.
    """
    named = _named(s, missing)
    if not s.dom():
        kind = draw(st.sampled_from(("save", "save", "save", "supersede", "recall")))
    else:
        kind = draw(st.sampled_from(
            ("evolve", "merge", "split", "save", "evolve", "merge", "split", "save", "supersede", "recall")
        ))
    if kind == "save":
        return Save(draw(records() if record_strategy is None else record_strategy))
    if kind == "supersede":
        return Supersede(draw(named), draw(named))
    if kind == "recall":
        return Recall(draw(named))
    if kind == "evolve":
        return Evolve(draw(named), draw(_CONTENTS), summary=draw(st.none() | st.just("sum")),
                      tags=draw(st.frozensets(st.sampled_from(TAGS), max_size=1)))
    if kind == "merge":
        return Merge(tuple(draw(st.lists(named, min_size=2, max_size=3))),
                     content=draw(st.none() | _CONTENTS), type=draw(st.none() | st.sampled_from(TYPES)))
    return Split(draw(named), tuple(draw(st.lists(_CONTENTS, min_size=2, max_size=3))))


def any_letters(s: Store, *, record_strategy: st.SearchStrategy[Record] | None = None) -> st.SearchStrategy[Letter]:
    """One letter of the whole alphabet at ``s``, including mutations, prefix naming and links."""
    named = _named(s)
    prefix = st.text(alphabet=ID_ALPHABET, max_size=2)
    nonempty_prefix = st.text(alphabet=ID_ALPHABET, min_size=1, max_size=2)
    rec = records() if record_strategy is None else record_strategy
    return st.one_of(
        fragment_letters(s, record_strategy=rec),
        st.builds(SaveAt, named, rec),
        st.builds(RecallPrefix, prefix),
        st.builds(Delete, named, by_prefix=st.booleans()),
        st.builds(Evolve, nonempty_prefix, _CONTENTS, by_prefix=st.just(True)),
        st.builds(Split, nonempty_prefix, st.lists(_CONTENTS, min_size=2, max_size=2).map(tuple),
                  by_prefix=st.just(True)),
        st.builds(Link, named, relations(), named, bidirectional=st.booleans()),
    )


# --------------------------------------------------------------------------- words and runs


@st.composite
def _sequences(
    draw: st.DrawFn,
    s: Store,
    max_size: int,
    fragment: bool,
    faults: bool,
    theta: Theta,
    record_strategy: st.SearchStrategy[Record] | None,
) -> tuple[list[Letter], list[Call]]:
    oracle = Oracle()
    cur = s
    letters: list[Letter] = []
    calls: list[Call] = []
    for _ in range(draw(st.integers(0, max_size))):
        a = draw(
            fragment_letters(cur, record_strategy=record_strategy)
            if fragment
            else any_letters(cur, record_strategy=record_strategy)
        )
        xi = oracle.allocate(cur, a)
        fs = frozenset(draw(st.sets(st.integers(0, 5), max_size=2))) if faults else frozenset()
        _, cur = step(cur, a, xi, theta=theta, faults=fs)
        letters.append(a)
        calls.append(Call(a, xi, fs))
    return letters, calls


def fragment_words(
    s: Store = EMPTY,
    max_size: int = 6,
    *,
    theta: Theta = DEFAULT_THETA,
    record_strategy: st.SearchStrategy[Record] | None = None,
) -> st.SearchStrategy[list[Letter]]:
    """Words of the lineage fragment from ``s``; run them with ``run(s, word)``."""
    return _sequences(s, max_size, True, False, theta, record_strategy).map(lambda lc: lc[0])


def words(
    s: Store = EMPTY,
    max_size: int = 6,
    *,
    theta: Theta = DEFAULT_THETA,
    record_strategy: st.SearchStrategy[Record] | None = None,
) -> st.SearchStrategy[list[Letter]]:
    """Words of the whole alphabet from ``s``; run them with ``run(s, word)``."""
    return _sequences(s, max_size, False, False, theta, record_strategy).map(lambda lc: lc[0])


def call_sequences(
    s: Store = EMPTY,
    max_size: int = 6,
    *,
    fragment: bool = False,
    faults: bool = False,
    theta: Theta = DEFAULT_THETA,
    record_strategy: st.SearchStrategy[Record] | None = None,
) -> st.SearchStrategy[tuple[Call, ...]]:
    """Replayable calls from ``s`` (letters with explicit allocations, and edge-write faults if asked)."""
    return _sequences(s, max_size, fragment, faults, theta, record_strategy).map(lambda lc: tuple(lc[1]))


def fragment_stores(
    max_steps: int = 8, *, record_strategy: st.SearchStrategy[Record] | None = None
) -> st.SearchStrategy[Store]:
    """Stores of S_lin: reachable from ∅ by a fragment word (no faults)."""
    return fragment_words(EMPTY, max_steps, record_strategy=record_strategy).map(lambda w: run(EMPTY, w).final)


# --------------------------------------------------------------------------- renaming


def rename_store(s: Store, sigma: dict[Id, Id]) -> Store:
    """σs: record keys, edge endpoints and the identifiers in ancestry metadata renamed by ``sigma``.

    Identifiers ``sigma`` omits are kept.  Written here from the definitions, independently of the
    library, so tests of canonical forms and of the reduced search have a reference to compare with.
    """
    def f(x: Id) -> Id:
        return sigma.get(x, x)

    recs = {}
    for i, r in s.records.items():
        meta = dict(r.metadata)
        for key in ID_POSITIONS:
            v = meta.get(key)
            if isinstance(v, tuple):
                meta[key] = tuple(f(str(x)) for x in v)
            elif v is not None:
                meta[key] = f(str(v))
        recs[f(i)] = r.evolve(metadata=FrozenMap(meta))
    return Store.of(recs, [Edge(f(e.source), e.relation, f(e.target)) for e in s.edges])
