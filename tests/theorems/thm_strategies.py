"""Hypothesis strategies for the theorem tests: stores closed and not, allocations on both sides of strict freshness.

Built on the shared strategies of ``tests/strategies.py`` (small identifiers over
``abc``, so dangling endpoints and shared prefixes are common).  Allocations:

* :func:`dom_fresh` — admissible (Def. 3.8): no identifier holds a record, but
  an identifier may be *mentioned* (an edge endpoint, or named in ancestry
  metadata) — the allocations ContextFS accepts;
* :func:`strictly_fresh` — no identifier is mentioned at all (``z1``, ``z2``, …
  are never drawn by the store strategies);
* :func:`mentioned` — fresh for dom but mentioned: the boundary case.

Clock readings start at 100, later than any time the record strategy draws.
"""

from __future__ import annotations

from collections.abc import Sequence

from budget import budget
from hypothesis import HealthCheck
from hypothesis import strategies as st
from strategies import fragment_letters, identifiers, stores
from thm_reference import ac_plus_part, dom, inv, occ, without_ancestry_danglers
from thm_reference import ids as mentioned

from coalg.model import CONTEXTFS, REPAIRED, Allocation, Edge, Letter, Realisation, Store, creates

PROPERTY = budget(60, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
"""60 derandomized examples (the same cases every run), or COALG_EXAMPLES random ones (``tests/budget.py``)."""

SCHEMA: tuple[Realisation, ...] = (CONTEXTFS, REPAIRED)
"""The two schema realisations: theorems of the first kind are tested on both."""

FRESH = tuple(f"z{k}" for k in range(1, 9))
"""Identifiers no drawn store mentions (the store strategies use the alphabet ``abc``)."""

CLOCK = 100


def any_stores(max_records: int = 5, max_edges: int = 7, min_records: int = 0) -> st.SearchStrategy[Store]:
    """Any store of S: dangling edges allowed, no closure condition."""
    return stores(max_records, max_edges, min_records=min_records)


@st.composite
def mention_disjoint_pairs(draw: st.DrawFn, max_records: int = 3, max_edges: int = 4) -> tuple[Store, Store]:
    """Two stores that mention no identifier in common, so that s ⊕ t is defined (Definition 6.5).

    ``t`` is drawn over the identifiers ``s`` does not mention: every such pair can come up,
    and none is drawn only to be thrown away.
    """
    s = draw(any_stores(max_records, max_edges))
    taken = mentioned(s)
    t = draw(stores(max_records, max_edges, id_strategy=identifiers().filter(lambda i: i not in taken)))
    return s, t


def ancestry_closed_stores() -> st.SearchStrategy[Store]:
    """Ancestry-closed stores (other edges may still dangle, and R⁻ edges out of non-records too)."""
    return any_stores().map(without_ancestry_danglers)


def ac_plus_stores() -> st.SearchStrategy[Store]:
    """Stores satisfying AC⁺: every R⁻ edge has both endpoints in dom."""
    return any_stores().map(ac_plus_part)


def inverse_closure(s: Store) -> Store:
    return Store.of(dict(s.records), set(s.edges) | {Edge(e.target, inv(e.relation), e.source) for e in s.edges})


def strictly_fresh(s: Store, a: Letter, clock: int = CLOCK, skip: Sequence[str] = ()) -> Allocation:
    """An allocation no identifier of which ``s`` mentions (or ``skip`` lists)."""
    taken = occ(s) | set(skip)
    return Allocation(tuple(j for j in FRESH if j not in taken)[: creates(a)], clock)


@st.composite
def dom_fresh(draw: st.DrawFn, s: Store, a: Letter, clock: int = CLOCK) -> Allocation:
    """An admissible allocation: outside dom, often on an identifier ``s`` mentions."""
    pool = sorted(occ(s) - dom(s)) + list(FRESH[:4])
    ids = draw(st.lists(st.sampled_from(pool), min_size=creates(a), max_size=creates(a), unique=True))
    return Allocation(tuple(ids), clock)


@st.composite
def fragment_calls(draw: st.DrawFn, s: Store, *, strict: bool = False, missing: bool = True,
                   clock: int = CLOCK) -> tuple[Letter, Allocation]:
    """A fragment letter at ``s`` (fresh save, derivation or recall, by equality) and an allocation for it."""
    a = draw(fragment_letters(s, missing=missing))
    return a, (strictly_fresh(s, a, clock) if strict else draw(dom_fresh(s, a, clock)))


@st.composite
def fragment_runs(draw: st.DrawFn, realisation: Realisation, s: Store, max_steps: int = 5, *,
                  strict: bool = False) -> list[Store]:
    """The states of a run of fragment calls from ``s`` (each allocation dom-fresh, or strictly fresh)."""
    states = [s]
    for k in range(draw(st.integers(0, max_steps))):
        a, xi = draw(fragment_calls(states[-1], strict=strict, clock=CLOCK + k))
        states.append(realisation.step(states[-1], a, xi)[1])
    return states
