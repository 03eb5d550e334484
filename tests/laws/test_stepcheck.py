"""The per-step law checks of coalg.laws.stepcheck agree with the step checks of the law search.

Both judge a step by the same predicate (imported from the clause's family module); what
this pins is the scope: where the search counts a case, the per-step check says held or
failed with the same verdict, and where the search skips a step, the step is "n/a".
"""

from __future__ import annotations

import pytest

from coalg.laws import (
    STEP_CLAUSES,
    check_step,
    explore,
    get_clause,
    l2_disagreement,
    step_and_check,
)
from coalg.model import (
    CONTEXTFS,
    LINEAGE,
    REPAIRED,
    Allocation,
    Delete,
    Evolve,
    Link,
    Merge,
    Record,
    Relation,
    Save,
    Split,
    Supersede,
    preset,
)


def _transitions(real, alphabet: str, faults: bool, max_len: int = 1):
    ex = explore(real, alphabet, faults=faults, max_len=max_len)
    for k in range(1, max_len + 1):
        yield from ex.level(k)


@pytest.mark.parametrize("real", [CONTEXTFS, REPAIRED], ids=lambda r: r.name)
@pytest.mark.parametrize("faults", [False, True])
def test_agrees_with_the_law_search_on_every_explored_step(real, faults) -> None:
    l1, l3, l4, l7 = (get_clause(k).step for k in ("L1", "L3", "L4i", "L7"))
    assert l1 and l3 and l4 and l7
    seen = {c: 0 for c in STEP_CLAUSES}

    def agree(key: str, v) -> None:
        r = mine.result(key)
        assert r.status == ("failed" if v else "held"), (t.call, r)
        if v is not None:  # the same predicate: the same sentence and the same offending data
            assert (r.explanation, r.witness) == (v.explanation, v.offending)
        seen[key] += 1

    for t in _transitions(real, "full", faults):
        mine = check_step(real, t.before, t.call, t.output, t.after, theta=t.theta)
        n, v = l1(real, t)
        if n and t.ok:
            agree("L1", v)
        elif not n:
            assert mine.result("L1").status == "n/a"
        n, v = l3(real, t)
        if n and t.after.edges - t.before.edges:
            agree("L3", v)
        n, v = l4(real, t)
        if n:
            agree("L4", v)
        else:
            assert mine.result("L4").status == "n/a", (t.call, mine)
        if not t.before.dangling_edges(LINEAGE):
            n, v = l7(real, t)
            if n:
                agree("L7", v)
        if t.ok and t.call.letter.kind in ("evolve", "merge", "split"):
            disagrees = any(l2_disagreement(real, t.after, i) for i in t.created if i in t.after.records)
            assert mine.result("L2").status == ("failed" if disagrees else "held"), (t.call, mine)
            seen["L2"] += 1
    assert all(seen.values()), seen


def test_each_clause_fails_somewhere_on_contextfs_and_nowhere_on_repaired() -> None:
    failed = {real.name: set() for real in (CONTEXTFS, REPAIRED)}
    for real in (CONTEXTFS, REPAIRED):
        for faults in (False, True):
            for t in _transitions(real, "full", faults):
                rep = check_step(real, t.before, t.call, t.output, t.after, theta=t.theta)
                failed[real.name] |= set(rep.failed())
    assert failed["contextfs"] == {"L2", "L3", "L7"}  # L1 and L4(i) hold (Table 2); L3/L7 via faults and prefixes
    assert failed["repaired"] == set()


def test_a_failed_call_is_not_applicable_everywhere() -> None:
    r = step_and_check(CONTEXTFS, preset("meeting notes"), Evolve("nope", "x"), Allocation(("id0100",), 9))
    assert [x.status for x in r.results] == ["n/a"] * len(STEP_CLAUSES)
    assert "failed (evolve: no record nope)" in r.result("L1").explanation


def test_witnesses_and_explanations() -> None:
    s = preset("meeting notes")
    r = step_and_check(CONTEXTFS, s, Evolve("id0004", "v"), Allocation(("n1",), 9), faults=frozenset({1}))
    assert r.result("L3").status == "failed"
    assert r.result("L3").witness == {"one_way_edges": [["n1", "evolved_from", "id0004"]]}
    r = step_and_check(CONTEXTFS, s, Evolve("id000", "v", by_prefix=True), Allocation(("n2",), 9))
    assert r.result("L7").status == "failed" and r.result("L7").witness["missing_endpoints"] == ["id000"]
    r = step_and_check(CONTEXTFS, preset("lineage"), Merge(("id0001", "id0003")), Allocation(("n3",), 9))
    assert r.result("L4").status == "n/a" and "several namespaces" in r.result("L4").explanation
    r = step_and_check(CONTEXTFS, s, Link("id0001", Relation.REFERENCES, "id0002"), Allocation((), 9))
    assert r.result("L3").status == "failed"  # link writes one direction (outside L3's fragment form)
    r = step_and_check(CONTEXTFS, s, Delete("id0004"), Allocation((), 9))
    assert r.result("L1").status == "n/a" and "removed records [id0004]" in r.result("L1").explanation
    r = step_and_check(CONTEXTFS, s, Save(Record("x", namespace="zed")), Allocation(("n4",), 9))
    assert r.held() == ("L1", "L4", "L7") and r.to_json()["results"][0]["title"] == "record monotonicity"
    r = step_and_check(CONTEXTFS, s, Split("id0003", ("a", "b")), Allocation(("n5", "n6"), 9))
    assert r.failed() == () and set(r.held()) == {"L1", "L2", "L3", "L4", "L7"}
    r = step_and_check(CONTEXTFS, s, Supersede("gone", "id0001"), Allocation((), 9))
    assert r.result("L7").status == "held" and "strong form fails" in r.result("L7").explanation
