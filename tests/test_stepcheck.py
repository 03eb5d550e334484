"""The per-step law checks of coalg.laws.stepcheck agree with the step checks the law search uses (coalg.laws.clauses)."""

from __future__ import annotations

import pytest

from coalg.laws import clauses as laws
from coalg.model import Allocation, Delete, Evolve, Link, Merge, Save, Split, Supersede
from coalg.model import preset
from coalg.laws import explore
from coalg.model import CONTEXTFS
from coalg.model import LINEAGE, Record, Relation
from coalg.model import REPAIRED
from coalg.laws.stepcheck import (
    CLAUSES,
    check_L1,
    check_L3,
    check_L4,
    check_L7,
    check_step,
    step_and_check,
)


def _transitions(real, alphabet: str, faults: bool, max_len: int = 1):
    ex = explore(real, alphabet, faults=faults, max_len=max_len)
    for k in range(1, max_len + 1):
        yield from ex.level(k)


@pytest.mark.parametrize("real", [CONTEXTFS, REPAIRED], ids=lambda r: r.name)
@pytest.mark.parametrize("faults", [False, True])
def test_agrees_with_the_law_search_on_every_explored_step(real, faults) -> None:
    l4 = laws._l4i(real)
    l7 = laws._invariant(laws._dangling(LINEAGE))
    seen = {c: 0 for c in ("L1", "L2", "L3", "L4", "L7")}
    for t in _transitions(real, "full", faults):
        args = (t.before, t.call, t.output, t.after)
        n, v = laws._l1(t)
        mine = check_L1(*args)
        if n and t.ok:
            assert mine.status == ("failed" if v else "held"), (t.call, mine)
            seen["L1"] += 1
        elif not n:
            assert mine.status == "n/a"
        n, v = laws._l3(t)
        mine = check_L3(*args)
        if n and t.after.edges - t.before.edges:
            assert mine.status == ("failed" if v else "held"), (t.call, mine)
            seen["L3"] += 1
        n, v = l4(t)
        mine = check_L4(real, *args, theta=t.theta)
        assert mine.status == ("n/a" if not n else "failed" if v else "held"), (t.call, mine)
        seen["L4"] += n
        if not t.before.dangling_edges(LINEAGE):
            n, v = l7(t)
            mine = check_L7(*args)
            if n:
                assert mine.status == ("failed" if v else "held"), (t.call, mine)
                seen["L7"] += 1
        if t.ok and t.call.letter.kind in ("evolve", "merge", "split"):
            v = laws._l2_store(real, t.after, frozenset(t.created))
            mine = check_step(real, *args, theta=t.theta).result("L2")
            assert mine.status == ("failed" if v else "held"), (t.call, mine)
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
    assert [x.status for x in r.results] == ["n/a"] * len(CLAUSES)
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
