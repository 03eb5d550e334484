"""Composition of stores (paper §6): Corollary 6.1, Propositions 6.2–6.6, Definition 6.5, Remark 6.8.

* the registered items and what their verdicts assert;
* Proposition 6.2 (frame property under ⊎) as a property over arbitrary stores,
  calls naming records of ``s`` by equality, and allocations fresh for ``s ⊎ t`` —
  including allocations that land on ``t``'s dangling endpoints;
* Proposition 6.6 (a)–(c) as properties of ⊕;
* Corollary 6.1 as a property over fragment stores and words;
* the collision arithmetic against a brute-force product;
* the multi-tenant scenario builder and its interference report;
* determinism: every registered verdict is identical under two PYTHONHASHSEEDs.
"""

from __future__ import annotations

import json
import math
import os
import pydoc
import subprocess
import sys
from pathlib import Path

import pytest
from budget import budget
from hypothesis import given
from hypothesis import strategies as st
from strategies import (
    edges,
    fragment_letters,
    fragment_stores,
    fragment_words,
    records,
    stores,
    thetas,
)

import coalg.composition
from coalg.composition import (
    ancestry_cache_check,
    cache_counterexamples,
    collision_threshold,
    dangling_edge_witness,
    frame_property,
    inclusion_failures,
    interference,
    particular_prefix_probability,
    prefix_bits,
    prefix_collision_approx,
    prefix_collision_probability,
    prefix_recall_witness,
    tenants,
    union,
)
from coalg.composition.prefixes import REMARK_6_8
from coalg.model import (
    CONTEXTFS,
    Allocation,
    Delete,
    Evolve,
    Found,
    Oracle,
    RecallPrefix,
    Record,
    Relation,
    Theta,
    beta,
    creates,
    run,
    uuid_like_ids,
)
from coalg.model.store import (
    EMPTY,
    Edge,
    Store,
    UnionUndefined,
    disjoint_union,
    mention_disjoint_union,
)
from coalg.paper import get_item, run_item

PROPERTY = budget(60)
ROOT = Path(__file__).resolve().parents[2]

S_IDS = st.text(alphabet="ab", min_size=1, max_size=2)
T_IDS = st.text(alphabet="cd", min_size=1, max_size=2)


@st.composite
def pairs(draw: st.DrawFn, *, cross_edges: bool) -> tuple[Store, Store]:
    """Arbitrary stores ``s`` (ids over a, b) and ``t`` (ids over c, d) with ``s ⊎ t`` defined.

    With ``cross_edges`` ``t`` also gets edges into ``s``'s identifiers and to
    identifiers nobody holds (dangling endpoints a later allocation can land on);
    without, ``s ⊕ t`` is defined too.
    """
    s = draw(stores(4, 5, id_strategy=S_IDS))
    t = draw(stores(4, 5, id_strategy=T_IDS))
    if cross_edges:
        ends = st.sampled_from(sorted(s.ids() | t.dom()) + ["n1", "x"])
        t = t.with_edges(draw(st.lists(edges(ends), max_size=3)))
    return s, t


@st.composite
def allocations(draw: st.DrawFn, u: Store, k: int, *, strict: bool) -> Allocation:
    """``k`` identifiers admissible at ``u``: dom-fresh (often a dangling endpoint of ``u``), or fresh for ids(u)."""
    pool = sorted({"n1", "n2", "n3", "x"} | (set() if strict else set(u.dangling())))
    pool = [j for j in pool if j not in (u.ids() if strict else u.dom())]
    ids = draw(st.lists(st.sampled_from(pool), min_size=k, max_size=k, unique=True))
    return Allocation(tuple(ids), draw(st.integers(0, 30)))


# --------------------------------------------------------------------------- registered items


def test_item_6_1() -> None:
    v = run_item("6.1")
    assert (v.kind, v.holds, get_item("6.1").nature) == ("property", True, "theorem")
    assert v.explored > 100
    cx = v.witness["counterexamples"]
    assert (
        cx["derivations_only"]["changed"] == []
        and "c" in cx["delete"]["changed"]
        and cx["save_at"]["changed"]
    )


def test_item_6_2() -> None:
    v = run_item("6.2")
    assert (v.kind, v.holds, get_item("6.2").nature) == ("property", True, "theorem")
    assert v.explored >= 200
    why = v.witness["delete_is_excluded"]
    assert why["holds"] is False and why["hypotheses"]["by_equality"] is False


def test_item_6_3() -> None:
    v = run_item("6.3")
    assert (v.kind, v.holds, get_item("6.3").nature) == ("counterexample", True, "instantiation")
    w = v.witness
    assert w["alone"]["id"] == "deadbeef-7a2" and w["in_union"]["id"] == "deadbeef-0c9"
    assert w["alone"]["same_for_every_theta"] and w["depends_on_theta"]
    assert w["evolve_by_prefix"]["namespace"] == "tenant-t"  # S's evolve lands in T's namespace


def test_item_6_4() -> None:
    v = run_item("6.4")
    assert (v.kind, v.holds) == ("counterexample", True)
    w = v.witness
    assert w["inclusion_failures"] == ["j"] and w["beta_s_j"]["record"] is None
    assert w["beta_union_j"]["record"]["content"] == "T's record"
    assert w["ancestry_changes"] and not w["mention_union_defined"]
    # the variant inside S_lin (supersede of a missing id, equality resolution): β changes, ancestry does not
    assert w["s_lin_variant"]["inclusion_failures"] == ["x0001"]
    assert w["s_lin_variant"]["ancestry_changes"] is False


def test_item_6_5() -> None:
    v = run_item("6.5")
    assert (v.kind, v.holds, get_item("6.5").nature) == ("property", True, "definition")
    assert v.explored == 400


def test_item_6_6() -> None:
    v = run_item("6.6")
    assert (v.kind, v.holds, get_item("6.6").nature) == ("property", True, "theorem")
    assert v.witness["parts"] == {
        "a_pcm": True,
        "b_beta_preserved": True,
        "c_frame_with_delete": True,
        "d_prefix_recall_not_covered": True,
    }


def test_item_6_8() -> None:
    v = run_item("6.8")
    assert (v.kind, v.holds) == ("property", True)
    got = {(r["prefix_len"], r["probability"]): r["exact"] for r in v.witness["thresholds"]}
    assert got == {(7, 0.5): 19_291, (8, 0.01): 9_292, (8, 0.5): 77_164, (12, 0.5): 4_938_416}
    for key, claimed in REMARK_6_8.items():
        assert abs(got[key] - claimed) / claimed < 0.02


def test_registered_items_are_json() -> None:
    for item in ("6.1", "6.2", "6.3", "6.4", "6.5", "6.6", "6.8"):
        json.dumps(run_item(item).to_json())


def test_verdicts_do_not_depend_on_the_hash_seed() -> None:
    code = (
        "import json; from coalg.paper import run_item; "
        "print(json.dumps([run_item(i).to_json() for i in "
        "('3.20', '5.27', '7.1', '6.1', '6.2', '6.3', '6.4', '6.5', '6.6', '6.8')], sort_keys=True))"
    )
    outs = []
    for seed in ("0", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(ROOT)}
        p = subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            env=env,
            cwd=ROOT,
            timeout=300,
            check=False,
        )
        assert p.returncode == 0, p.stderr
        outs.append(p.stdout)
    assert outs[0] == outs[1]


def test_realisation_defaults_are_contextfs_and_print_stably() -> None:
    """``realisation=None`` means the ContextFS model, and no signature shows a memory address."""
    s, t = Store.of({"a": Record("A")}), Store.of({"b": Record("B")})
    a, xi = Evolve("a", "A2"), Allocation(("n1",), 5)
    assert frame_property(s, t, a, xi) == frame_property(s, t, a, xi, realisation=CONTEXTFS)
    word = [Evolve("a", "A3"), Delete("a")]
    alone, explicit = ancestry_cache_check(s, word), ancestry_cache_check(s, word, realisation=CONTEXTFS)
    assert alone == explicit and alone["changed"] == ["a"]
    for name in coalg.composition.__all__:
        assert "0x" not in pydoc.render_doc(getattr(coalg.composition, name)), name


# --------------------------------------------------------------------------- Proposition 6.2


@PROPERTY
@given(st.data(), pairs(cross_edges=True), thetas(), st.frozensets(st.integers(0, 5), max_size=2))
def test_frame_property_disjoint_union(
    data: st.DataObject, st_pair: tuple[Store, Store], theta: Theta, faults: frozenset[int]
) -> None:
    """Prop. 6.2: α(s ⊎ t)(a) = (o, s′ ⊎ t) for fragment calls naming records of s by equality."""
    s, t = st_pair
    u = disjoint_union(s, t)
    a = data.draw(fragment_letters(s, missing=False, record_strategy=records(with_metadata=False)))
    xi = data.draw(allocations(u, creates(a), strict=False))
    fc = frame_property(s, t, a, xi, theta=theta, faults=faults)
    if fc.applicable:
        assert fc.holds, fc.reason


def test_frame_property_hypotheses_and_delete() -> None:
    s = Store.of({"a": Record("A")})
    t = Store.of({"b": Record("B")}, [("b", Relation.RELATED_TO, "a")])
    fc = frame_property(s, t, Delete("a"))
    assert not fc.applicable and not fc.holds and fc.reason == "the states differ"
    assert not frame_property(s, t, Evolve("b", "x"), Allocation(("n",), 1)).hypotheses[
        "names_in_s"
    ]
    assert not frame_property(
        s, t, Evolve("a", "x", by_prefix=True), Allocation(("n",), 1)
    ).applicable
    assert not frame_property(s, s, Evolve("a", "x"), Allocation(("n",), 1)).hypotheses[
        "union_defined"
    ]
    # an allocation landing on t's record is not admissible at s ⊎ t
    assert not frame_property(s, t, Evolve("a", "x"), Allocation(("b",), 1)).hypotheses[
        "allocation_fresh"
    ]
    # one landing on a dangling endpoint of t is: dom-freshness suffices for ⊎
    t2 = Store.of({"b": Record("B")}, [("b", Relation.SUPERSEDES, "n")])
    fc = frame_property(s, t2, Evolve("a", "x"), Allocation(("n",), 1))
    assert fc.applicable and fc.holds
    json.dumps(fc.to_json())
    # … but not for ⊕, where the result would mention t's identifier
    assert not frame_property(
        s, Store.of({"b": Record("B")}), Evolve("a", "x"), Allocation(("b",), 1), union="mention"
    ).applicable


# --------------------------------------------------------------------------- Propositions 6.3 and 6.4


def test_prefix_recall_witness_shape() -> None:
    w = prefix_recall_witness("cafe")
    assert w["alone"]["id"] == "cafe-7a2" and w["in_union"]["id"] == "cafe-0c9" and w["differs"]
    assert w["in_union_other_theta"]["id"] == "cafe-7a2"
    s = Store.of({"cafe-7a2": Record("S")})
    t = Store.of({"cafe-0c9": Record("T")})
    for theta in (Theta(), Theta(descending=True)):
        out = frame_property(s, t, RecallPrefix("cafe"), theta=theta)
        assert not out.hypotheses["by_equality"]  # outside Prop. 6.2's hypotheses
    assert isinstance(frame_property(s, t, RecallPrefix("cafe")).output_in_union, Found)


def test_dangling_edge_witness_and_inclusion() -> None:
    w = dangling_edge_witness()
    assert w["union"]["edges"] == [["i", "evolved_from", "j"]]
    s = Store.of({"i": Record("x")}, [("i", Relation.EVOLVED_FROM, "j")])
    with pytest.raises(UnionUndefined):
        mention_disjoint_union(s, Store.of({"j": Record("y")}))
    assert inclusion_failures(s, s) == []
    assert inclusion_failures(s, disjoint_union(s, Store.of({"k": Record("y")}))) == []


# --------------------------------------------------------------------------- Definition 6.5, Proposition 6.6


@PROPERTY
@given(stores(3, 3), stores(3, 3), stores(3, 3))
def test_mention_disjoint_union_is_a_pcm(s: Store, t: Store, v: Store) -> None:
    """Prop. 6.6 (a): unit, commutativity and associativity (both sides defined together), and ⊕ ⊆ ⊎."""

    def u(x: Store | None, y: Store | None) -> Store | None:
        if x is None or y is None:
            return None
        try:
            return mention_disjoint_union(x, y)
        except UnionUndefined:
            return None

    assert u(s, EMPTY) == s == u(EMPTY, s)
    assert u(s, t) == u(t, s)
    assert u(u(s, t), v) == u(s, u(t, v))
    st_ = u(s, t)
    assert (st_ is not None) == (not (s.ids() & t.ids()))
    if st_ is not None:
        assert st_ == disjoint_union(s, t)


@PROPERTY
@given(pairs(cross_edges=False))
def test_mention_disjoint_union_preserves_lineage(st_pair: tuple[Store, Store]) -> None:
    """Prop. 6.6 (b): β_{s⊕t}(i) = β_s(i) for every i ∈ ids(s)."""
    s, t = st_pair
    u = mention_disjoint_union(s, t)
    for i in sorted(s.ids()):
        assert beta(u, i) == beta(s, i)
    assert inclusion_failures(s, u) == [] and inclusion_failures(t, u) == []


@PROPERTY
@given(st.data(), pairs(cross_edges=False), thetas())
def test_frame_property_mention_disjoint_union_with_delete(
    data: st.DataObject, st_pair: tuple[Store, Store], theta: Theta
) -> None:
    """Prop. 6.6 (c): the frame property holds for ⊕, delete by equality included, with strictly fresh allocations."""
    s, t = st_pair
    u = mention_disjoint_union(s, t)
    named = st.sampled_from(sorted(s.dom())) if s.dom() else st.just("a")
    a = data.draw(
        st.one_of(
            fragment_letters(s, missing=False, record_strategy=records(with_metadata=False)),
            st.builds(Delete, named),
        )
    )
    xi = data.draw(allocations(u, creates(a), strict=True))
    fc = frame_property(s, t, a, xi, union="mention", theta=theta)
    if fc.applicable:
        assert fc.holds, fc.reason


def test_union_helper() -> None:
    s, t = Store.of({"a": Record("x")}), Store.of({"b": Record("y")})
    assert union(s, t) == union(s, t, "mention") == disjoint_union(s, t)
    with pytest.raises(ValueError):
        union(s, t, "other")  # type: ignore[arg-type]


# --------------------------------------------------------------------------- Corollary 6.1


@PROPERTY
@given(st.data(), fragment_stores(6, record_strategy=records(with_metadata=False)))
def test_cached_ancestry_survives_fragment_calls(data: st.DataObject, s: Store) -> None:
    """Cor. 6.1: after any fragment word (equality naming, no delete, no save_at) every cached ⟦i⟧⁻ is unchanged."""
    word = data.draw(fragment_words(s, 5, record_strategy=records(with_metadata=False)))
    res = ancestry_cache_check(s, word, oracle=Oracle())
    assert res["changed"] == []


def test_cache_counterexamples() -> None:
    w = cache_counterexamples()
    assert w["derivations_only"]["changed"] == []
    assert w["delete"]["changed"] == ["b", "c"]
    assert [n["id"] for n in w["delete"]["after_c"]] == ["c"]  # c has lost its ancestry
    assert w["save_at"]["changed"] == ["a", "b", "c"]
    assert [n["content"] for n in w["cached"]] == ["final", "revised", "draft"]


# --------------------------------------------------------------------------- Remark 6.8


@pytest.mark.parametrize("prefix_len", [1, 2, 3])
def test_collision_probability_matches_the_product(prefix_len: int) -> None:
    space = 2 ** prefix_bits(prefix_len)
    for n in (0, 1, 2, 3, 10, space // 3, space, space + 1):
        exact = 1 - math.prod(1 - k / space for k in range(n)) if n <= space else 1.0
        assert prefix_collision_probability(n, prefix_len) == pytest.approx(
            exact, rel=1e-12, abs=1e-15
        )


def test_collision_probability_in_the_series_regime() -> None:
    # n/N ≤ 0.05 uses exact power sums; check against direct log1p summation
    for n, L in ((5_000, 5), (40_000, 6), (77_164, 8)):
        space = 2 ** prefix_bits(L)
        direct = -math.expm1(math.fsum(math.log1p(-k / space) for k in range(n)))
        assert prefix_collision_probability(n, L) == pytest.approx(direct, rel=1e-10)
    assert prefix_collision_probability(10**9, 8) == 1.0
    assert prefix_collision_probability(0) == 0.0 and prefix_collision_probability(1) == 0.0
    with pytest.raises(ValueError):
        prefix_collision_probability(-1)


def test_remark_6_8_numbers() -> None:
    assert [prefix_bits(L) for L in (7, 8, 9, 12)] == [28, 32, 32, 44]
    assert collision_threshold(0.01, 8) == 9_292 and collision_threshold(0.5, 8) == 77_164
    assert collision_threshold(0.5, 7) == 19_291 and collision_threshold(0.5, 12) == 4_938_416
    # the approximation agrees to within a couple of records at these sizes
    assert abs(collision_threshold(0.5, 8, exact=False) - 77_164) <= 2
    assert prefix_collision_approx(77_164) == pytest.approx(
        prefix_collision_probability(77_164), abs=1e-4
    )
    # a particular prefix: about n / 2^32
    assert particular_prefix_probability(10_000) == pytest.approx(10_000 / 2**32, rel=1e-3)
    for bad in (0, 13):
        with pytest.raises(ValueError):
            prefix_bits(bad)
    with pytest.raises(ValueError):
        collision_threshold(1.0)


# --------------------------------------------------------------------------- tenants


def test_tenants_shape_and_determinism() -> None:
    a = tenants(4, 6, seed=3)
    b = tenants(4, 6, seed=3)
    assert a == b
    ts, shared = a
    assert [len(t.records) for t in ts] == [6, 6, 6, 6]
    assert [t.namespaces() for t in ts] == [(f"tenant-{k}",) for k in range(4)]
    expect = EMPTY
    for t in ts:
        expect = disjoint_union(expect, t)
    assert shared == expect
    pool = set(uuid_like_ids(4 * 6 + 8, seed=3))
    assert shared.dom() <= pool
    w = interference(ts)
    assert w.prefix_collisions == () and w.acquired_edges == () and w.mention_disjoint
    assert tenants(4, 6, seed=4) != a


def test_tenants_planted_interference() -> None:
    ts, shared = tenants(3, 5, seed=11, prefix_collisions=2, dangling_edges=1)
    w = interference(ts)
    assert len(w.prefix_collisions) == 2
    for p, (ka, ia), (kb, ib) in w.prefix_collisions:
        assert ka != kb and ia.startswith(p) and ib.startswith(p) and len(p) == 8
        # recall by that prefix can answer with either tenant's record in the shared store
        answers = {
            run(shared, [RecallPrefix(p)], theta=th).outputs[0].id  # type: ignore[union-attr]
            for th in (Theta(), Theta(descending=True))
        }
        assert answers == {ia, ib}
    assert len(w.acquired_edges) == 2 and not w.mention_disjoint
    k, e, owner = w.acquired_edges[0]
    assert e.relation in (Relation.SUPERSEDES, Relation.SUPERSEDED_BY) and owner != k
    assert inclusion_failures(ts[k], shared)  # the dangling endpoint acquired a record
    json.dumps(w.to_json())


def test_tenants_sequential_ids() -> None:
    ts, shared = tenants(2, 3, seed=0, id_style="sequential", prefix_collisions=1)
    ids = sorted(shared.dom())
    assert len(ids) == 6 and all(i.startswith("id") for i in ids)
    w = interference(ts, prefix_len=8)
    # a planted identifier extends another tenant's full identifier: LIKE 'x%' matches both
    assert len(w.prefix_collisions) == 1
    with pytest.raises(ValueError):
        tenants(0, 3, seed=0)
    with pytest.raises(ValueError):
        tenants(2, 3, seed=0, id_style="guid")  # type: ignore[arg-type]


def test_edge_dataclass_in_interference() -> None:
    ts = [
        Store.of({"a1": Record("x")}, [("a1", Relation.SUPERSEDES, "b1")]),
        Store.of({"b1": Record("y")}),
    ]
    w = interference(ts)
    assert w.acquired_edges == ((0, Edge("a1", Relation.SUPERSEDES, "b1"), 1),)
