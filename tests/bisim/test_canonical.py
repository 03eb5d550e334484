"""Canonical forms of stores up to renaming and clock readings (coalg.bisim.canonical).

The reference here is brute force: two small stores are isomorphic when *some*
bijection of the identifiers they mention carries one onto the other, records
compared with their clock readings erased and the identifiers inside their
ancestry metadata renamed along.  The canonical form must agree with it both
ways, on stores drawn with dangling edges, metadata ancestry and clock stamps.
"""

from __future__ import annotations

import itertools
import os
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

from budget import budget
from hypothesis import given
from hypothesis import strategies as st
from strategies import rename_store as rename
from strategies import stores

from coalg.bisim import allocation_blind_bisimilar, canonical_form, canonical_labelling
from coalg.model import (
    ALLOCATION_META_KEYS,
    ID_POSITIONS,
    FrozenMap,
    Id,
    Record,
    Relation,
    Store,
)
from coalg.model.store import Edge

ROOT = Path(__file__).resolve().parents[2]


# --------------------------------------------------------------------------- reference code


def names(s: Store) -> list[Id]:
    """Every identifier ``s`` mentions: records, edge endpoints, identifiers in ancestry metadata."""
    out = set(s.records)
    for e in s.edges:
        out |= {e.source, e.target}
    for r in s.records.values():
        for key in ID_POSITIONS:
            v = r.metadata.get(key)
            out |= {str(x) for x in v} if isinstance(v, tuple) else ({str(v)} if v is not None else set())
    return sorted(out)


def erased(s: Store) -> tuple[dict[Id, Record], frozenset[Edge]]:
    recs = {}
    for i, r in s.records.items():
        meta = FrozenMap((k, v) for k, v in r.metadata.items() if k not in ALLOCATION_META_KEYS)
        recs[i] = r.evolve(created_at=None, updated_at=None, metadata=meta)
    return recs, s.edges


def isomorphic(s: Store, t: Store, *, marked: tuple[Iterable[Id], Iterable[Id]] = ((), ()),
               fixed: Iterable[Id] = ()) -> bool:
    """Brute force: some bijection of the mentioned identifiers maps s onto t (clock readings erased)."""
    ns, nt = names(s), names(t)
    ms, mt = set(marked[0]), set(marked[1])
    fx = set(fixed)
    if len(ns) != len(nt):
        return False
    target = erased(t)
    for image in itertools.permutations(nt):
        sigma = dict(zip(ns, image))
        if any((x in ms) != (y in mt) for x, y in sigma.items()):
            continue
        if any((x in fx or y in fx) and x != y for x, y in sigma.items()):
            continue
        if erased(rename(s, sigma)) == target:
            return True
    return False


POOL = ("a", "b", "c", "d", "e")


@st.composite
def small_records(draw: st.DrawFn) -> Record:
    """Records whose ancestry metadata names identifiers of :data:`POOL`, with clock stamps."""
    meta: dict[str, object] = {}
    if draw(st.booleans()):
        key = draw(st.sampled_from(ID_POSITIONS))
        ids = st.sampled_from(POOL)
        meta[key] = draw(st.lists(ids, min_size=1, max_size=2)) if key == "merged_from" else draw(ids)
    if draw(st.booleans()):
        meta["merge_timestamp"] = draw(st.integers(0, 9))
    return Record(draw(st.sampled_from(["x", "y"])), type=draw(st.sampled_from(["fact", "decision"])),
                  metadata=meta, created_at=draw(st.none() | st.integers(0, 9)),
                  valid_time=draw(st.none() | st.integers(0, 1)))


def small_stores() -> st.SearchStrategy[Store]:
    """At most five identifiers in all (so brute force over their permutations stays cheap)."""
    return stores(max_records=3, max_edges=3, id_strategy=st.sampled_from(POOL), record_strategy=small_records(),
                  labels=(Relation.EVOLVED_FROM, Relation.MERGED_FROM, Relation.REFERENCES))


@st.composite
def renamed_pairs(draw: st.DrawFn) -> tuple[Store, Store, dict[Id, Id]]:
    """A store and a renamed copy with shifted clock readings — sometimes perturbed a little."""
    s = draw(small_stores())
    ns = names(s)
    pool = [f"n{k}" for k in range(len(ns))]
    image = draw(st.permutations(pool))
    sigma = dict(zip(ns, image))
    shift = draw(st.integers(0, 5))
    t = rename(s, sigma)
    t = Store.of({i: r.evolve(created_at=None if r.created_at is None else r.created_at + shift)
                  for i, r in t.records.items()}, t.edges)
    how = draw(st.sampled_from(["same", "same", "edge", "content", "drop-edge"]))
    if how == "edge" and t.dom():
        i = min(t.dom())
        t = t.with_edges([Edge(i, Relation.REFERENCES, draw(st.sampled_from(sorted(t.ids()))))])
    elif how == "content" and t.dom():
        i = draw(st.sampled_from(sorted(t.dom())))
        t = t.with_record(i, t.records[i].with_content(t.records[i].content + "!"))
    elif how == "drop-edge" and t.edges:
        t = t.without_edges([min(t.edges)])
    return s, t, sigma


# --------------------------------------------------------------------------- the form agrees with brute force


@budget(300, derandomize=False)
@given(renamed_pairs())
def test_equal_forms_exactly_for_isomorphic_stores(pair: tuple[Store, Store, dict[Id, Id]]) -> None:
    s, t, _ = pair
    assert (canonical_form(s) == canonical_form(t)) == isomorphic(s, t)


@budget(150, derandomize=False)
@given(small_stores(), small_stores())
def test_independent_stores_agree_with_brute_force(s: Store, t: Store) -> None:
    assert (canonical_form(s) == canonical_form(t)) == isomorphic(s, t)


@budget(150, derandomize=False)
@given(renamed_pairs(), st.data())
def test_marks_and_fixed_names_are_respected(pair: tuple[Store, Store, dict[Id, Id]], data: st.DataObject) -> None:
    s, t, sigma = pair
    ns = names(s)
    marked = data.draw(st.lists(st.sampled_from(ns), unique=True)) if ns else []
    image = [sigma[x] for x in marked]
    assert (canonical_form(s, marked=marked) == canonical_form(t, marked=image)) == isomorphic(
        s, t, marked=(marked, image))
    if ns:
        x = data.draw(st.sampled_from(ns))
        both = Store.of(dict(t.records), t.edges)
        # fixing a name both stores mention keeps it in place; in t it is called sigma[x]
        same = canonical_form(s, fixed=[x]) == canonical_form(rename(both, {sigma[x]: x, x: sigma[x]}), fixed=[x])
        assert same == isomorphic(s, rename(both, {sigma[x]: x, x: sigma[x]}), fixed=[x])


@budget(100, derandomize=False)
@given(renamed_pairs())
def test_the_labelling_gives_the_renaming(pair: tuple[Store, Store, dict[Id, Id]]) -> None:
    s, t, _ = pair
    if canonical_form(s) != canonical_form(t):
        return
    ls, lt = canonical_labelling(s), canonical_labelling(t)
    assert sorted(ls.values()) == list(range(len(names(s)))) and set(ls) == set(names(s))
    back = {v: k for k, v in lt.items()}
    sigma = {x: back[n] for x, n in ls.items()}
    assert erased(rename(s, sigma)) == erased(t)


@budget(100, derandomize=False)
@given(renamed_pairs())
def test_equal_forms_are_allocation_blind_bisimilar(pair: tuple[Store, Store, dict[Id, Id]]) -> None:
    """≈ compares identifiers that no record or edge of either store holds by equality: fix those."""
    s, t, _ = pair

    def only_in_metadata(x: Store) -> list[Id]:
        return sorted(set(names(x)) - x.ids())

    if canonical_form(s, fixed=only_in_metadata(s)) == canonical_form(t, fixed=only_in_metadata(t)):
        assert allocation_blind_bisimilar(s, t)
    if not only_in_metadata(s) and canonical_form(s) == canonical_form(t):
        assert allocation_blind_bisimilar(s, t)


def test_fixed_none_keeps_every_name_and_erases_clocks_only() -> None:
    a = Store.of({"x": Record("p", created_at=1), "y": Record("q", created_at=2)})
    b = Store.of({"x": Record("q", created_at=5), "y": Record("p", created_at=9)})
    assert canonical_form(a) == canonical_form(b)  # swap x and y
    assert canonical_form(a, fixed=None) != canonical_form(b, fixed=None)
    c = Store.of({"x": Record("p", created_at=7), "y": Record("q")})
    assert canonical_form(a, fixed=None) == canonical_form(c, fixed=None)


def test_duplicates_are_not_collapsed_the_way_bisimilarity_collapses_them() -> None:
    """≈ identifies one record with two equal ones; a search must not (merge(i, k) exists only in the second)."""
    one = Store.of({"a": Record("x")})
    two = Store.of({"a": Record("x"), "b": Record("x")})
    assert allocation_blind_bisimilar(one, two)
    assert canonical_form(one) != canonical_form(two)


def test_symmetric_stores_take_one_branch_per_orbit() -> None:
    """Six equal records: the twins are swapped by automorphisms, so the search does not try 6! orders."""
    s = Store.of({f"r{k}": Record("same") for k in range(6)})
    t = Store.of({f"q{k}": Record("same", created_at=k) for k in range(6)})
    assert canonical_form(s) == canonical_form(t)
    chain = Store.of({f"c{k}": Record("c") for k in range(5)},
                     [(f"c{k}", Relation.EVOLVED_FROM, f"c{k + 1}") for k in range(4)])
    reverse = Store.of({f"c{k}": Record("c") for k in range(5)},
                       [(f"c{k + 1}", Relation.EVOLVED_FROM, f"c{k}") for k in range(4)])
    assert canonical_form(chain) == canonical_form(reverse)
    assert canonical_form(chain) != canonical_form(chain.with_edges([("c0", Relation.EVOLVED_FROM, "c4")]))


_SCRIPT = """
from coalg.bisim import canonical_form
from coalg.model import Record, Relation, Store
s = Store.of({"a": Record("x", tags={"t", "u"}, metadata={"merged_from": ["b", "c"], "k": {"z": 1, "y": 2}}),
              "b": Record("x"), "c": Record("y")},
             [("a", Relation.MERGED_FROM, "b"), ("a", Relation.MERGED_FROM, "c"), ("b", Relation.MERGED_INTO, "a")])
print(repr(canonical_form(s)))
"""


def test_the_form_is_the_same_under_every_hash_seed() -> None:
    outs = set()
    for seed in ("0", "1", "98765"):
        env = dict(os.environ, PYTHONHASHSEED=seed, PYTHONPATH=str(ROOT))
        p = subprocess.run([sys.executable, "-c", _SCRIPT], env=env, capture_output=True, text=True, check=True,
                           timeout=120)
        outs.add(p.stdout)
    assert len(outs) == 1
