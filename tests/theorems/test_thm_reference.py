"""The reference code of the theorem tests, checked on examples worked by hand (and against the library).

If ``thm_reference`` were wrong in the direction of "everything is equal", the
theorem tests would pass vacuously; these examples pin it both ways.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from thm_reference import blind_bisimilar, restrict, same_ancestry, same_unfolding, union
from thm_strategies import PROPERTY, any_stores

from coalg.bisim import allocation_blind_bisimilar, ancestry_bisimilar, bisimilar
from coalg.model import Record, Relation, Store

R = Relation


def test_unfoldings_by_hand() -> None:
    a, b = Record("a"), Record("b")
    chain = Store.of({"x": a, "y": b}, [("x", R.EVOLVED_FROM, "y")])
    twin = Store.of({"p": a, "q": b, "q2": b}, [("p", R.EVOLVED_FROM, "q"), ("p", R.EVOLVED_FROM, "q2")])
    assert same_ancestry(chain, "x", twin, "p")  # P_fin: two equal successors are one
    assert not same_ancestry(chain, "x", chain, "y")
    other_label = Store.of({"x": a, "y": b}, [("x", R.MERGED_FROM, "y")])
    assert not same_ancestry(chain, "x", other_label, "x")
    # a descendant edge is invisible to the ancestry unfolding, visible to the full one
    down = Store.of({"x": a, "y": b}, [("x", R.EVOLVED_FROM, "y"), ("y", R.EVOLVED_INTO, "x")])
    assert same_ancestry(chain, "y", down, "y") and not same_unfolding(chain, "y", down, "y")
    # a dangling successor (⊥) differs from a record
    dangling = Store.of({"x": a}, [("x", R.EVOLVED_FROM, "y")])
    assert not same_ancestry(chain, "x", dangling, "x")
    loop = Store.of({"x": a}, [("x", R.EVOLVED_FROM, "x")])
    loop2 = Store.of({"u": a, "v": a}, [("u", R.EVOLVED_FROM, "v"), ("v", R.EVOLVED_FROM, "u")])
    assert same_ancestry(loop, "x", loop2, "u")


def test_blind_bisimilarity_by_hand() -> None:
    r = Record("m", metadata={"merged_from": ["i", "k"], "merge_timestamp": 1}, created_at=1, updated_at=1)
    r2 = Record("m", metadata={"merged_from": ["i", "k"], "merge_timestamp": 2}, created_at=2, updated_at=2)
    base = {"i": Record("I"), "k": Record("K")}
    once = Store.of({**base, "j": r}, [("j", R.MERGED_FROM, "i"), ("j", R.MERGED_FROM, "k")])
    renamed = Store.of({**base, "j9": r2}, [("j9", R.MERGED_FROM, "i"), ("j9", R.MERGED_FROM, "k")])
    assert blind_bisimilar(once, renamed)  # only the allocation differs
    swapped = Store.of({**base, "j": r.evolve(metadata={"merged_from": ["k", "i"]})},
                       [("j", R.MERGED_FROM, "i"), ("j", R.MERGED_FROM, "k")])
    assert not blind_bisimilar(once, swapped)  # provenance order matters
    assert not blind_bisimilar(once, Store.of(base))  # j has no partner


@PROPERTY
@given(s=any_stores(3, 4), t=any_stores(3, 4), data=st.data())
def test_the_reference_agrees_with_the_library(s: Store, t: Store, data: st.DataObject) -> None:
    i = data.draw(st.sampled_from(sorted(s.ids()) or ["a"]))
    j = data.draw(st.sampled_from(sorted(t.ids()) or ["a"]))
    assert same_ancestry(s, i, t, j) == ancestry_bisimilar(s, i, t, j)
    assert same_unfolding(s, i, t, j) == bisimilar(s, i, t, j)
    assert blind_bisimilar(s, t) == allocation_blind_bisimilar(s, t)
    assert restrict(s, "alice").records.keys() == {k for k, r in s.records.items() if r.namespace == "alice"}
    assert (union(s, t) is None) == bool(set(s.records) & set(t.records))
