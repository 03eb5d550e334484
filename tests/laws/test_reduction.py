"""The law search modulo renaming (coalg.laws.exploration): sound, and the verdicts it gives.

The reduction extends a store only the first time the search meets it up to
renaming of identifiers and clock readings.  That is sound when the alphabet and
the realisation are *equivariant*: renaming a store renames its letters and the
results of its steps.  These tests check the premise on both model
realisations directly (renamed stores, letters and allocations give renamed
results), check the consequence store by store (a store the search skipped has,
letter for letter, a renamed twin at the store it kept, with the same verdict
of every clause), and check that whole verdicts — the first witness, in
particular — are the ones the exact search gives.
"""

from __future__ import annotations

from dataclasses import fields, replace
from typing import Any

import pytest
from budget import budget
from hypothesis import given
from hypothesis import strategies as st
from shared_build import build_law_tables
from strategies import rename_store

from coalg.bisim import canonical_labelling
from coalg.laws import (
    CLAUSE_TABLE,
    RANDOM_RUNS,
    SEEDS,
    UNKNOWN,
    allocate,
    explore,
    fragment_alphabet,
    law_table,
)
from coalg.laws.exploration import state_key
from coalg.laws.search import Probe, search_all
from coalg.laws.seeds import derived_ids
from coalg.model import (
    CONTEXTFS,
    REPAIRED,
    Created,
    Found,
    Id,
    Letter,
    Realisation,
    Store,
)
from coalg.model.store import Edge

REALS = [CONTEXTFS, REPAIRED]
STEP_CLAUSES = [c for c in CLAUSE_TABLE if c.step is not None]


def rename_letter(a: Letter, sigma: dict[Id, Id]) -> Letter:
    def f(x: Id) -> Id:
        return sigma.get(x, x)

    changes: dict[str, Any] = {}
    for fld in fields(a):  # type: ignore[arg-type]
        v = getattr(a, fld.name)
        if fld.name in ("id", "old", "new", "source", "target"):
            changes[fld.name] = f(v)
        elif fld.name == "ids":
            changes[fld.name] = tuple(f(x) for x in v)
    return replace(a, **changes)  # type: ignore[type-var]


def _random_renaming(s: Store, draw: st.DrawFn) -> dict[Id, Id]:
    names = sorted(s.occ() - {UNKNOWN})
    pool = [f"id{k:04d}" for k in range(1, len(names) + 4)]
    image = draw(st.permutations(pool))[: len(names)]
    return dict(zip(names, image))


@st.composite
def reached_stores(draw: st.DrawFn, real: Realisation) -> tuple[Store, frozenset[Id], int]:
    """A store the search reaches (seed, then up to three fragment calls), its derived set and its clock."""
    seed = draw(st.sampled_from(SEEDS))
    ex = explore(real, max_len=1)
    start = next(st_ for st_ in ex.starts if st_.seed == seed)
    s, derived, clock = start.store, start.derived, start.clock
    for _ in range(draw(st.integers(0, 3))):
        a = draw(st.sampled_from(fragment_alphabet(s)))
        clock += 1
        out, s2 = real.step(s, a, allocate(s, a, clock))
        derived |= derived_ids(a, out)
        s = s2
    return s, derived, clock


@pytest.mark.parametrize("real", REALS, ids=lambda r: r.name)
@budget(120, derandomize=False)
@given(data=st.data())
def test_steps_commute_with_renaming(real: Realisation, data: st.DataObject) -> None:
    """The premise: α(σs)(σa, σξ) = σ(α(s)(a, ξ)) for every fragment letter (UNKNOWN fixed)."""
    s, _, clock = data.draw(reached_stores(real))
    sigma = _random_renaming(s, data.draw)
    t = rename_store(s, sigma)
    a = data.draw(st.sampled_from(fragment_alphabet(s)))
    b = rename_letter(a, sigma)
    assert b in fragment_alphabet(t)
    xi, eta = allocate(s, a, clock + 1), allocate(t, b, clock + 1)
    full = {**sigma, **dict(zip(xi.ids, eta.ids))}
    assert len(set(full.values())) == len(full)
    out_s, after_s = real.step(s, a, xi)
    out_t, after_t = real.step(t, b, eta)
    assert rename_store(after_s, full) == after_t
    assert type(out_s) is type(out_t)
    if isinstance(out_s, Created) and isinstance(out_t, Created):
        assert tuple(full[i] for i in out_s.ids) == out_t.ids
    if isinstance(out_s, Found) and isinstance(out_t, Found):
        assert full.get(out_s.id, out_s.id) == out_t.id


def _verdicts(real: Realisation, t: Any) -> tuple[bool, ...]:
    return tuple(c.step(real, t)[1] is not None for c in STEP_CLAUSES if c.alphabet == "fragment")  # type: ignore[misc]


@pytest.mark.parametrize("real", REALS, ids=lambda r: r.name)
def test_a_skipped_store_has_a_renamed_twin_for_every_letter(real: Realisation) -> None:
    """The consequence, store by store: every store the exact search extends at level 2 but the reduced one
    skips has a kept store with the same key; letter by letter, the renamed letter there gives the same key
    after and the same verdict of every fragment clause."""
    reduced = explore(real, max_len=2)
    exact = explore(real, max_len=2, reduce=False)
    kept = {state_key(n.store, n.derived, "fragment"): n for k in range(3) for n in reduced.nodes(k)}
    kept_stores = {(n.store, n.derived) for n in kept.values()}
    skipped = [n for n in exact.nodes(2) if (n.store, n.derived) not in kept_stores]
    assert skipped, "the reduction skipped nothing at level 2"
    for node in skipped[:: max(1, len(skipped) // 12)]:
        twin = kept[state_key(node.store, node.derived, "fragment")]
        ls = canonical_labelling(node.store, marked=node.derived, fixed=[UNKNOWN])
        lt = canonical_labelling(twin.store, marked=twin.derived, fixed=[UNKNOWN])
        back = {v: k for k, v in lt.items()}
        sigma = {x: back[n] for x, n in ls.items()}
        letters_t = fragment_alphabet(twin.store)
        cs = node.start.clock + len(node.calls) + 1
        ct = twin.start.clock + len(twin.calls) + 1
        for a in fragment_alphabet(node.store):
            b = rename_letter(a, sigma)
            assert b in letters_t
            ts = _transition(real, node, a, cs)
            tt = _transition(real, twin, b, ct)
            assert tt.ok == ts.ok
            assert state_key(ts.after, ts.derived, "fragment") == state_key(tt.after, tt.derived, "fragment")
            assert _verdicts(real, ts) == _verdicts(real, tt)


def _transition(real: Realisation, node: Any, a: Letter, clock: int) -> Any:
    from coalg.laws import Transition
    from coalg.model import Call

    xi = allocate(node.store, a, clock)
    out, after = real.step(node.store, a, xi)
    return Transition(node.start, node.calls, node.store, Call(a, xi), out, after, node.derived | derived_ids(a, out))


@pytest.mark.parametrize("real", REALS, ids=lambda r: r.name)
@pytest.mark.parametrize("alphabet", ["fragment", "full"])
def test_reduced_and_exact_searches_give_the_same_verdicts(real: Realisation, alphabet: str) -> None:
    """Same holds, same first witness (word and explanation); the reduced search examines fewer cases."""
    clauses = [c for c in STEP_CLAUSES if c.alphabet == alphabet]
    for faults in (False, True):
        probes = [Probe(lambda t, c=c: c.step(real, t),  # type: ignore[misc]
                        None if c.at_start is None else (lambda st_, c=c: c.at_start(real, st_)),  # type: ignore[misc]
                        random_runs=0) for c in clauses]
        red = search_all(real, probes, alphabet=alphabet, faults=faults, max_len=2)
        ex = search_all(real, probes, alphabet=alphabet, faults=faults, max_len=2, reduce=False)
        for c, r, e in zip(clauses, red, ex):
            assert (r.found is None) == (e.found is None), c.key
            if r.found is not None and e.found is not None:
                assert [x.letter for x in r.found.word] == [x.letter for x in e.found.word], c.key
                assert r.found.violation.explanation == e.found.violation.explanation, c.key
                assert r.exhaustive_length == e.exhaustive_length
            else:
                assert r.explored <= e.explored and r.states <= e.states, c.key


def test_the_full_alphabet_keeps_names() -> None:
    """Prefix letters read identifiers' spelling and order: there only clock readings are erased."""
    from coalg.model import Record

    s = Store.of({"id0001": Record("a", created_at=1), "id0002": Record("b", created_at=2)})
    t = rename_store(s, {"id0001": "id0002", "id0002": "id0001"})
    later = Store.of({"id0001": Record("a", created_at=5), "id0002": Record("b", created_at=7)})
    assert state_key(s, frozenset(), "fragment") == state_key(t, frozenset(), "fragment")
    assert state_key(s, frozenset(), "full") != state_key(t, frozenset(), "full")
    assert state_key(s, frozenset(), "full") == state_key(later, frozenset(), "full")
    assert state_key(s, frozenset(), "full", reduce=False) == (s, frozenset())


def test_unknown_is_a_constant() -> None:
    from coalg.model import Record, Relation

    s = Store.of({"id0001": Record("a")}, [Edge("id0001", Relation.SUPERSEDES, UNKNOWN)])
    t = Store.of({"id0001": Record("a")}, [Edge("id0001", Relation.SUPERSEDES, "id0007")])
    assert state_key(s, frozenset(), "fragment") != state_key(t, frozenset(), "fragment")
    assert state_key(t, frozenset(), "fragment") == state_key(rename_store(t, {"id0007": "id0003"}), frozenset(),
                                                                 "fragment")


def test_streamed_levels_equal_listed_levels() -> None:
    from coalg.laws import clear_cache

    clear_cache()
    streamed = [(t.word, t.after, t.state) for t in explore(CONTEXTFS, max_len=2).transitions()]
    clear_cache()
    ex = explore(CONTEXTFS, max_len=2)
    listed = [(t.word, t.after, t.state) for _, level in ex.levels() for t in level]
    assert streamed == listed
    assert [t.state for t in ex.level(1)][:1] == [0] and max(t.state for t in ex.level(2)) == ex.states(2) - 1
    with pytest.raises(ValueError, match="level 3 is outside 0..2"):
        ex.nodes(3)


# --------------------------------------------------------------------------- what the table reports


@pytest.fixture(scope="module")
def tables() -> dict[str, dict[str, Any]]:
    build_law_tables()  # the verdicts this run's book build computed, when there are valid ones
    return {r.name: law_table(r) for r in REALS}


@pytest.mark.parametrize("name", ["contextfs", "repaired"])
def test_every_holding_clause_is_exhaustive_to_length_3(tables: dict[str, dict[str, Any]], name: str) -> None:
    for key, e in tables[name]["clauses"].items():
        assert {"explored", "exhaustive_length", "states", "random_walks"} <= set(e)
        if e["holds"]:
            assert e["exhaustive_length"] >= 3, key
            assert e["states"] > 0 and e["random_walks"] == RANDOM_RUNS, key
        elif e["witness"]["minimality"].startswith("breadth-first"):
            assert e["exhaustive_length"] == e["witness"]["length"] - 1, key
            assert e["random_walks"] == 0, key


def test_states_are_the_stores_extended(tables: dict[str, dict[str, Any]]) -> None:
    """A clause that holds reports every store its exploration extended below the bound."""
    c = tables["contextfs"]["clauses"]
    ex = explore(CONTEXTFS, max_len=3)
    assert c["L1"]["states"] == ex.states(3) == sum(len(ex.nodes(k)) for k in range(3))
    assert c["L1"]["states"] < explore(CONTEXTFS, max_len=3, reduce=False).states(3)


def test_a_shorter_bound_is_reported_as_such() -> None:
    t = law_table(CONTEXTFS, max_len=1)
    assert all(e["exhaustive_length"] == 1 for e in t["clauses"].values() if e["holds"])
    assert t["clauses"]["L1"]["explored"] < law_table(CONTEXTFS)["clauses"]["L1"]["explored"]
    with pytest.raises(ValueError, match="at least 1"):
        law_table(CONTEXTFS, max_len=0)
