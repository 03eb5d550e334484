"""Small reference code for the theorem tests, written from the definitions and nothing else.

The theorem tests compute both sides of each statement with these functions, so
that a bug which made one of the library's checks (or its bisimilarity, its
restriction, its unions) vacuous cannot make a test pass.  The only things taken
from ``coalg`` are the values (``Store``, ``Record``, ``Edge``, ``Relation``) and
the step function under test.  Everything is naive on purpose: stores here have
a handful of identifiers.

Definitions followed (the paper's numbering):

* 3.4 — dom, ids, dangling endpoints, inverse closure, referential closure,
  ancestry closure; π_ν and the fibre N_ν;
* 3.5, 6.5 — ⊎ and ⊕;
* 3.8 — occ(s) and strict freshness;
* 3.18, 3.19 — β_s, β⁻_s and equality of unfoldings, decided as the greatest
  bisimulation between the two stores' identifiers (plus the one asked about);
* 5.23 — allocation-blind bisimilarity ≈, as the greatest relation B that
  satisfies its three conditions, with identifiers that neither store mentions
  related to themselves (B̂).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from coalg.model import Edge, Record, Relation, Store

R = Relation
ANC = frozenset({R.EVOLVED_FROM, R.MERGED_FROM, R.SPLIT_FROM})
DESC = frozenset({R.EVOLVED_INTO, R.MERGED_INTO, R.SPLIT_INTO})
_PAIRS = [(R.EVOLVED_INTO, R.EVOLVED_FROM), (R.MERGED_INTO, R.MERGED_FROM), (R.SPLIT_INTO, R.SPLIT_FROM),
          (R.REFERENCES, R.REFERENCED_BY), (R.SUPERSEDES, R.SUPERSEDED_BY), (R.PARENT_OF, R.CHILD_OF),
          (R.PART_OF, R.CONTAINS), (R.CAUSED_BY, R.CAUSES), (R.RESOLVES, R.RESOLVED_BY)]
INV: dict[Relation, Relation] = {**{a: b for a, b in _PAIRS}, **{b: a for a, b in _PAIRS},
                                  R.RELATED_TO: R.RELATED_TO, R.CONTRADICTS: R.CONTRADICTS}
META = {R.EVOLVED_FROM: "evolved_from", R.MERGED_FROM: "merged_from", R.SPLIT_FROM: "split_from"}
CLOCK_META = ("evolution_timestamp", "merge_timestamp", "split_timestamp")


def inv(r: Relation) -> Relation:
    """r̄ as ContextFS's table gives it (labels outside the table are their own inverse)."""
    return INV.get(r, r)


# --------------------------------------------------------------------------- Definition 3.4


def dom(s: Store) -> set[str]:
    return set(s.records)


def ids(s: Store) -> set[str]:
    return set(s.records) | {e.source for e in s.edges} | {e.target for e in s.edges}


def meta(rec: Record, r: Relation) -> set[str]:
    """meta_r: the identifiers a record's metadata names for the ancestry label r."""
    v = rec.metadata.get(META[r])
    if v is None:
        return set()
    return {str(x) for x in v} if isinstance(v, tuple) else {str(v)}


def occ(s: Store) -> set[str]:
    return ids(s) | {j for rec in s.records.values() for r in ANC for j in meta(rec, r)}


def inverse_closed(s: Store) -> bool:
    return all(Edge(e.target, inv(e.relation), e.source) in s.edges for e in s.edges)


def ancestry_closed(s: Store) -> bool:
    return all(e.target in s.records for e in s.edges if e.relation in ANC and e.source in s.records)


def ac_plus(s: Store) -> bool:
    return all(e.source in s.records and e.target in s.records for e in s.edges if e.relation in ANC)


def lineage_integrity(s: Store) -> bool:
    return all(e.source in s.records and e.target in s.records for e in s.edges if e.relation in ANC | DESC)


def fibre(s: Store, nu: str) -> set[str]:
    return {i for i, r in s.records.items() if r.namespace == nu}


def restrict(s: Store, nu: str) -> Store:
    n = fibre(s, nu)
    return Store.of({i: s.records[i] for i in n}, [e for e in s.edges if e.source in n and e.target in n])


def union(s: Store, t: Store) -> Store | None:
    """s ⊎ t, or ``None`` where undefined (the record domains meet)."""
    if dom(s) & dom(t):
        return None
    return Store.of({**dict(s.records), **dict(t.records)}, set(s.edges) | set(t.edges))


def munion(s: Store, t: Store) -> Store | None:
    """s ⊕ t, or ``None`` where undefined (the mentioned identifiers meet)."""
    return None if ids(s) & ids(t) else union(s, t)


def without_ancestry_danglers(s: Store) -> Store:
    """The store with every R⁻ edge from a record to a non-record removed: ancestry-closed."""
    return Store.of(dict(s.records), [e for e in s.edges if not (e.relation in ANC and e.source in s.records
                                                                  and e.target not in s.records)])


def ac_plus_part(s: Store) -> Store:
    """The store with every R⁻ edge that has an endpoint outside dom removed: AC⁺."""
    return Store.of(dict(s.records), [e for e in s.edges if e.relation not in ANC
                                      or (e.source in s.records and e.target in s.records)])


# --------------------------------------------------------------------------- Definitions 3.18, 3.19


def beta(s: Store, i: str, labels: Iterable[Relation] | None = None) -> tuple[Record | None, frozenset[Any]]:
    keep = None if labels is None else frozenset(labels)
    return s.records.get(i), frozenset((e.relation, e.target) for e in s.edges
                                       if e.source == i and (keep is None or e.relation in keep))


def beta_minus(s: Store, i: str) -> tuple[Record | None, frozenset[Any]]:
    return beta(s, i, ANC)


def same_unfolding(s: Store, i: str, t: Store, j: str, labels: Iterable[Relation] | None = None) -> bool:
    """⟦i⟧_s = ⟦j⟧_t for the functor with the given labels (all: H; ANC: H⁻), by the greatest bisimulation."""
    xs, ys = ids(s) | {i}, ids(t) | {j}
    succ_s = {x: beta(s, x, labels)[1] for x in xs}
    succ_t = {y: beta(t, y, labels)[1] for y in ys}
    rel = {(x, y) for x in xs for y in ys if s.records.get(x) == t.records.get(y)}
    while True:
        keep = {(x, y) for x, y in rel
                if all(any(r2 == r and (x2, y2) in rel for r2, y2 in succ_t[y]) for r, x2 in succ_s[x])
                and all(any(r2 == r and (x2, y2) in rel for r2, x2 in succ_s[x]) for r, y2 in succ_t[y])}
        if keep == rel:
            return (i, j) in rel
        rel = keep


def same_ancestry(s: Store, i: str, t: Store, j: str) -> bool:
    return same_unfolding(s, i, t, j, ANC)


# --------------------------------------------------------------------------- Definition 5.23


def rho(rec: Record) -> Record:
    """ρ: the record with its allocation-dependent fields erased (clock readings)."""
    md = {k: v for k, v in rec.metadata.items() if k not in CLOCK_META}
    return Record(rec.content, rec.type, rec.namespace, rec.tags, rec.summary, md, None, None, rec.valid_time)


def _positions(md: Mapping[str, Any]) -> dict[str, tuple[Any, ...]]:
    out = {}
    for key in META.values():
        if key in md:
            v = md[key]
            out[key] = tuple(v) if isinstance(v, tuple) else (v,)
    return out


def _equiv(a: Record | None, b: Record | None, rel: set[tuple[str, str]], outside: set[str]) -> bool:
    if a is None or b is None:
        return a is None and b is None
    ra, rb = rho(a), rho(b)
    ma, mb = dict(ra.metadata), dict(rb.metadata)
    pa, pb = _positions(ma), _positions(mb)
    if set(pa) != set(pb) or any(len(pa[k]) != len(pb[k]) for k in pa):
        return False
    for k in pa:
        for x, y in zip(pa[k], pb[k]):
            if not (isinstance(x, str) and isinstance(y, str)):
                if x != y:
                    return False
            elif not ((x, y) in rel or (x == y and x in outside)):
                return False
    rest_a = Record(ra.content, ra.type, ra.namespace, ra.tags, ra.summary,
                    {k: v for k, v in ma.items() if k not in pa}, valid_time=ra.valid_time)
    rest_b = Record(rb.content, rb.type, rb.namespace, rb.tags, rb.summary,
                    {k: v for k, v in mb.items() if k not in pb}, valid_time=rb.valid_time)
    return rest_a == rest_b


def greatest_blind_relation(s: Store, t: Store) -> set[tuple[str, str]]:
    """The greatest allocation-blind bisimulation B ⊆ ids(s) × ids(t)."""
    xs, ys = ids(s), ids(t)
    outside = {str(v) for st in (s, t) for rec in st.records.values() for vs in _positions(dict(rec.metadata)).values()
               for v in vs} - xs - ys
    succ_s = {x: beta(s, x)[1] for x in xs}
    succ_t = {y: beta(t, y)[1] for y in ys}
    rel = {(x, y) for x in xs for y in ys}
    while True:
        keep = {(x, y) for x, y in rel
                if _equiv(s.records.get(x), t.records.get(y), rel, outside)
                and all(any(r2 == r and (x2, y2) in rel for r2, y2 in succ_t[y]) for r, x2 in succ_s[x])
                and all(any(r2 == r and (x2, y2) in rel for r2, x2 in succ_s[x]) for r, y2 in succ_t[y])}
        if keep == rel:
            return rel
        rel = keep


def blind_bisimilar(s: Store, t: Store) -> bool:
    """s ≈ t: some allocation-blind bisimulation is total on ids(s) and onto ids(t)."""
    b = greatest_blind_relation(s, t)
    return {x for x, _ in b} == ids(s) and {y for _, y in b} == ids(t)
