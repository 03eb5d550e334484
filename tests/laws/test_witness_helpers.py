"""Exact values of the helpers behind the witnesses of numbered results.

The item tests (tests/laws/test_results.py) check the verdicts; these tests pin the
pieces the witnesses are made of — the monoid pool, the merge-order search, the
Proposition 5.2 cases, the lineage fallbacks — on inputs small enough to work out
by hand, so that a helper returning a plausible but wrong value is caught.
"""

from __future__ import annotations

from itertools import pairwise
from typing import Any

from coalg.bisim import ancestry_bisimilar
from coalg.laws import SEEDS, explore
from coalg.laws.agreement import history_lineage, router_lineage
from coalg.laws.ancestry import _ac_plus_failure
from coalg.laws.bitemporality import _HOLDS, _READING, RANDOM_HISTORY_LENGTH, TIMES, search_L6
from coalg.laws.foundations import _pool
from coalg.laws.merge import _first_non_commuting
from coalg.laws.monotonicity import _five_two_case
from coalg.laws.schema import check_schema
from coalg.laws.seeds import seed_named
from coalg.model import (
    CONTEXTFS,
    DEFAULT_THETA,
    EMPTY,
    REPAIRED,
    Allocation,
    Created,
    Delete,
    Err,
    Evolve,
    Letter,
    Merge,
    Realisation,
    Record,
    Relation,
    Save,
    Store,
    beta_minus,
    call_from_json,
    store_to_json,
    theta_to_json,
)

R = Relation
TIE = seed_named(CONTEXTFS, "tie").store  # id0001 (fact) and id0002 (decision), saved at clocks 1 and 2
TWO = seed_named(CONTEXTFS, "two-namespaces").store
MERGED = seed_named(CONTEXTFS, "merged").store


def _renamed(s: Store) -> Store:
    return Store.of({f"x{i}": r for i, r in s.records.items()},
                    [(f"x{e.source}", e.relation, f"x{e.target}") for e in s.edges])


# --------------------------------------------------------------------------- the monoid pool (3.6)


def test_the_pool_is_the_seeds_some_successors_two_renamed_copies_and_a_dangling_store() -> None:
    pool = _pool()
    assert pool[0] == EMPTY and len(pool) == 13 and len(set(pool)) == 13
    assert pool[1:4] == [TIE, TWO, MERGED]
    renamed = [s for s in pool if any(i.startswith("x") for i in s.dom())]
    assert renamed == pool[-3:-1] == [_renamed(TIE), _renamed(TWO)]
    assert pool[-1] == Store.of({"y1": Record("y")}, [("y1", R.SUPERSEDES, "id0001")])
    # the rest are one fragment step from a seed: stores of one to four records named id000k
    steps = pool[4:-3]
    assert len(steps) == 6 and all(s.dom() and all(i.startswith("id000") for i in s.dom()) for s in steps)
    assert not set(steps) & {TIE, TWO, MERGED}


def test_the_renamed_copies_keep_their_edges() -> None:
    m = _renamed(MERGED)
    assert m.edges and all(e.source.startswith("x") and e.target.startswith("x") for e in m.edges)
    assert len(m.edges) == len(MERGED.edges)


# --------------------------------------------------------------------------- merge order (5.25)


def _sorted_merges(s: Store, a: Letter, xi: Allocation = Allocation(), **kw: Any) -> Any:
    """ContextFS, except that a merge reads its arguments in sorted order: merge commutes."""
    if isinstance(a, Merge):
        a = Merge(tuple(sorted(a.ids)), a.content, a.type, a.summary, a.namespace)
    return CONTEXTFS.step(s, a, xi, **kw)


def test_the_first_non_commuting_merge_is_the_tie_pair_with_the_next_clock() -> None:
    found, tried = _first_non_commuting(CONTEXTFS)
    assert tried == 1 and found is not None and found["seed"] == "tie"
    assert found["store"] == store_to_json(TIE)
    assert found["merge_i_k"]["letter"]["ids"] == ["id0001", "id0002"]
    assert found["merge_k_i"]["letter"]["ids"] == ["id0002", "id0001"]
    assert found["merge_i_k"]["allocation"] == found["merge_k_i"]["allocation"] == {"ids": ["id0003"], "clock": 3}
    assert found["after_i_k"] != found["after_k_i"]


def test_when_every_merge_commutes_each_pair_without_metadata_is_tried_once() -> None:
    """Pairs i < k of records with empty metadata: one in tie, one in two-namespaces, and in merged
    only (id0001, id0002) — id0003 carries merged_from.  The empty seed has none."""
    real = Realisation("sorted-merges", _sorted_merges, "merge reads its arguments sorted")
    assert _first_non_commuting(real) == (None, 3)


# --------------------------------------------------------------------------- Proposition 5.2 cases


def test_five_two_case_reads_the_last_two_states_of_a_longer_word() -> None:
    word = [Save(Record("r")), Save(Record("s")), Evolve("id0001", "q"), Delete("id0001")]
    c = _five_two_case(word, "id0003", "id0001")
    s = EMPTY
    states = [s]
    for clock, (a, new) in enumerate(zip(word, (("id0001",), ("id0002",), ("id0003",), ())), start=1):
        s = CONTEXTFS.step(s, a, Allocation(new, clock))[1]
        states.append(s)
    before, after = states[-2], states[-1]
    assert set(c) == {"start", "word", "before", "after", "survivor", "beta_minus_before", "beta_minus_after",
                      "beta_minus_changes", "ancestry_changes", "ancestry_of_target_changes"}
    assert c["start"] == store_to_json(EMPTY) and len(c["word"]) == 4
    assert c["before"] == store_to_json(before) and c["after"] == store_to_json(after)
    assert "id0001" in before.dom() and "id0001" not in after.dom()
    assert c["beta_minus_after"]["successors"] == [] and beta_minus(after, "id0003").successors == ()
    assert c["ancestry_changes"] is not ancestry_bisimilar(before, "id0003", after, "id0003")


def test_five_two_case_when_nothing_changes() -> None:
    c = _five_two_case([Save(Record("r")), Evolve("id0001", "q"), Save(Record("t"))], "id0002", "id0001")
    assert c["beta_minus_changes"] is False and c["ancestry_changes"] is False
    assert c["ancestry_of_target_changes"] is False
    assert c["beta_minus_before"] == c["beta_minus_after"] and c["beta_minus_after"]["successors"] == [
        ["evolved_from", "id0001"]]


# --------------------------------------------------------------------------- the lineage fallbacks (5.14)


def test_the_edge_walk_lists_a_shared_ancestor_once_at_its_first_depth() -> None:
    s = Store.of({k: Record(k) for k in "abcd"},
                 [("b", R.MERGED_FROM, "a"), ("b", R.MERGED_FROM, "c"), ("a", R.EVOLVED_FROM, "d"),
                  ("c", R.EVOLVED_FROM, "d"), ("d", R.EVOLVED_INTO, "a"), ("d", R.EVOLVED_INTO, "c"),
                  ("a", R.MERGED_INTO, "b"), ("c", R.MERGED_INTO, "b")])
    assert router_lineage(s, "b") == {"ancestors": [{"id": "a", "relation": "merged_from", "depth": 1},
                                                    {"id": "c", "relation": "merged_from", "depth": 1},
                                                    {"id": "d", "relation": "evolved_from", "depth": 2}],
                                      "descendants": []}
    assert router_lineage(s, "d") == {"ancestors": [],
                                      "descendants": [{"id": "a", "relation": "evolved_into", "depth": 1},
                                                      {"id": "c", "relation": "evolved_into", "depth": 1},
                                                      {"id": "b", "relation": "merged_into", "depth": 2}]}
    assert history_lineage(s, "b") == [{"memory_id": "a", "relation": "merged_from"},
                                       {"memory_id": "c", "relation": "merged_from"},
                                       {"memory_id": "d", "relation": "evolved_from"}]
    assert history_lineage(s, "d") == []


def test_the_walks_stop_at_depth_ten_by_default() -> None:
    ids = [f"n{k:02}" for k in range(13)]
    chain = Store.of({i: Record(i) for i in ids}, [(ids[k + 1], R.EVOLVED_FROM, ids[k]) for k in range(12)])
    anc = router_lineage(chain, "n12")["ancestors"]
    assert [e["id"] for e in anc] == ids[11:1:-1] and anc[-1]["depth"] == 10
    assert [e["memory_id"] for e in history_lineage(chain, "n12")] == ids[11:1:-1]
    assert len(history_lineage(chain, "n12", max_depth=3)) == 3


def test_a_metadata_fallback_takes_a_multi_letter_identifier_whole() -> None:
    s = Store.of({"b": Record("b", metadata={"evolved_from": "parent-1"}),
                  "c": Record("c", metadata={"merged_from": ("p1", "p2")})})
    assert router_lineage(s, "b")["ancestors"] == [{"id": "parent-1", "relation": "evolved_from", "depth": 1}]
    assert history_lineage(s, "b") == [{"memory_id": "parent-1", "relation": "evolved_from"}]
    assert history_lineage(s, "c") == [{"memory_id": "p1", "relation": "merged_from"},
                                       {"memory_id": "p2", "relation": "merged_from"}]


# --------------------------------------------------------------------------- the schema (Def. 3.23)


def _refuses(s: Store, a: Letter, xi: Allocation = Allocation(), **kw: Any) -> Any:
    return Err("refused"), s


def test_check_schema_gives_s1_to_s4_in_order() -> None:
    """A realisation that refuses every call meets every clause (nothing is created); the search is tiny."""
    vs = check_schema(Realisation("refuses", _refuses, "every call is refused"))
    assert [v.item for v in vs] == ["S1", "S2", "S3", "S4"] and all(v.holds for v in vs)


def test_ac_plus_failures_by_name() -> None:
    assert _ac_plus_failure(Store.of({"k": Record("k")}, [("k", R.EVOLVED_FROM, "y")])) == "AC⁺"
    one_way = Store.of({"a": Record("a"), "b": Record("b")}, [("b", R.EVOLVED_FROM, "a")])
    assert _ac_plus_failure(one_way) == "inverse closure"
    both = Store.of({"a": Record("a"), "b": Record("b")}, [("b", R.EVOLVED_FROM, "a"), ("a", R.EVOLVED_INTO, "b")])
    assert _ac_plus_failure(both) is None


# --------------------------------------------------------------------------- L6 on recording histories


def test_l6_counts_every_word_under_every_assignment_of_valid_times() -> None:
    """From ∅ the recording words are 1 of length one and 3 of length two (an exact exploration);
    each is recorded under |TIMES|^k valid-time assignments, and each random walk adds two."""
    ex = explore(REPAIRED, "recording", max_len=2, seeds=SEEDS[:1], reduce=False)
    n1, n2 = len(list(ex.nodes(1))), len(list(ex.nodes(2)))
    t = len(TIMES)
    v = search_L6(REPAIRED, 2, 0, 7)
    assert (v.item, v.kind, v.holds, v.witness) == ("L6", "property", True, None)
    assert v.explored == n1 * t + n2 * t * t and v.details == {
        "reading": _READING, "exhaustive_length": 2, "states": n1 + n2, "random_walks": 0}
    assert v.summary == f"L6 holds on 'repaired': {_HOLDS.format(n=v.explored)}"
    assert search_L6(REPAIRED, 2, 3, 7).explored == v.explored + 2 * 3
    assert search_L6(REPAIRED, 2, 1, 7).explored == v.explored + 2


def test_l6_counterexample_in_full() -> None:
    v = search_L6(CONTEXTFS, 2, 5, 7)
    assert (v.item, v.kind, v.holds, v.explored) == ("L6", "counterexample", False, 2)
    text = ("the histories save('new' in alice) with valid times [1] and [2] differ only in valid time yet "
            "record the same store, so no function of the store recovers valid time.")
    assert v.summary == f"L6 fails on 'contextfs': {text}"
    w = v.witness
    assert w is not None and w["explanation"] == text and w["length"] == 1 and w["seed"] == "empty"
    assert set(w) == {"seed", "start", "word", "theta", "after", "h", "h_prime", "offending", "explanation",
                      "length", "minimality"}
    assert w["start"] == store_to_json(EMPTY) and w["theta"] == theta_to_json(DEFAULT_THETA)
    (call,) = [call_from_json(c) for c in w["word"]]
    assert w["after"] == store_to_json(CONTEXTFS.step(EMPTY, call.letter, call.allocation)[1])


def _forgets_on_evolve(s: Store, a: Letter, xi: Allocation = Allocation(), **kw: Any) -> Any:
    """REPAIRED, except that an evolve wipes every valid time: invisible to histories of one call."""
    out, s2 = REPAIRED.step(s, a, xi, **kw)
    if isinstance(a, Evolve) and isinstance(out, Created):
        for j in sorted(s2.dom()):
            s2 = s2.with_record(j, s2.records[j].evolve(valid_time=None))
    return out, s2


def test_l6_random_histories_are_seeded_clocked_and_shift_only_the_first_valid_time() -> None:
    real = Realisation("forgets-on-evolve", _forgets_on_evolve, "", declares_valid_time=True)
    v = search_L6(real, 1, 60, 7)
    assert not v.holds and v.witness is not None and v.details["random_walks"] == 60
    assert search_L6(real, 1, 60, 7).witness == v.witness  # the seed fixes the walk
    w = v.witness
    clocks = [c["allocation"]["clock"] for c in w["word"]]
    assert clocks == sorted(clocks) and clocks[0] >= 1 and all(b > a for a, b in pairwise(clocks))
    assert clocks[-1] <= RANDOM_HISTORY_LENGTH and [h["tt"] for h in w["h"]] == clocks
    vt, vt2 = w["offending"]["vt_h"], w["offending"]["vt_h_prime"]
    assert vt2[1:] == vt[1:] and vt2[0] == TIMES[(TIMES.index(vt[0]) + 1) % len(TIMES)]
    assert v.explored % 2 == 0 and v.explored >= 2 + 2  # one word of length one (two histories), then walks
