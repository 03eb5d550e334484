"""Definitions of the paper, one ``test_def_<n>`` each: the coalg counterpart does what the definition says.

The traceability table (coalg.paper.traceability) points every definition at the function or
class that makes it executable and at the test here that checks it.  Each test asserts
something that a wrong implementation would get wrong.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import pytest

from coalg.bisim import allocation_blind_bisimilar, bisimilar
from coalg.laws import (
    CLAUSES,
    INFO,
    LAW_CLAUSES,
    SCHEMA_CLAUSES,
    check_L1,
    check_S2,
    check_S4,
    check_schema,
)
from coalg.model import (
    ANCESTRY,
    CONTEXTFS,
    DESCENDANT,
    INVERSE_TABLE,
    REALISATIONS,
    Allocation,
    Call,
    Created,
    Delete,
    Err,
    Evolve,
    Found,
    FrozenMap,
    Link,
    Merge,
    Nothing,
    Oracle,
    Realisation,
    Recall,
    RecallPrefix,
    Record,
    Relation,
    Save,
    SaveAt,
    Split,
    Supersede,
    alpha,
    ancestors,
    ancestry,
    beta,
    beta_minus,
    creates,
    erase_allocation,
    inverse,
    is_fragment,
    meta_ancestry,
    named,
    run,
    step,
    uuid_like_ids,
)
from coalg.model.store import EMPTY, Edge, Store, UnionUndefined, disjoint_union, restrict

# --------------------------------------------------------------------------- §3.1


def test_def_3_1() -> None:
    """Identifiers are strings; ContextFS's are 12 characters (8 hex, hyphen, 3 hex: 44 random bits)."""
    ids = uuid_like_ids(50, seed=3)
    assert len(set(ids)) == 50 and all(isinstance(i, str) and len(i) == 12 and i[8] == "-" for i in ids)
    assert all(int(i.replace("-", ""), 16) < 2**44 for i in ids)
    assert Oracle().fresh_id(EMPTY) == "id0001"


def test_def_3_2() -> None:
    """Records: a Memory without its id; ns and ty; the metadata ancestry readers; ρ erases the clock fields."""
    names = [f.name for f in dataclasses.fields(Record)]
    assert "id" not in names and {"namespace", "type", "content", "tags", "metadata"} <= set(names)
    r = Record("x")
    assert (r.namespace, r.type) == ("global", "fact")
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.content = "y"  # type: ignore[misc]
    m = Record("x", metadata={"evolved_from": "a", "merged_from": ["b", "c"], "split_from": "d"})
    assert [sorted(meta_ancestry(m, rel)) for rel in (Relation.EVOLVED_FROM, Relation.MERGED_FROM,
                                                       Relation.SPLIT_FROM)] == [["a"], ["b", "c"], ["d"]]
    assert meta_ancestry(Record("x"), Relation.EVOLVED_FROM) == frozenset()
    t = Record("x", created_at=4, updated_at=5, metadata={"split_timestamp": 4, "keep": 1})
    assert erase_allocation(t) == Record("x", metadata={"keep": 1})


def test_def_3_3() -> None:
    """22 labels, a 20-entry inverse table, DEPENDS_ON and IMPLEMENTS falling through to themselves."""
    assert len(Relation) == 22 and len(INVERSE_TABLE) == 20
    assert set(Relation) - set(INVERSE_TABLE) == {Relation.DEPENDS_ON, Relation.IMPLEMENTS}
    assert inverse(Relation.DEPENDS_ON) is Relation.DEPENDS_ON and inverse(Relation.IMPLEMENTS) is Relation.IMPLEMENTS
    assert all(inverse(inverse(r)) is r for r in Relation)
    assert ANCESTRY == {Relation.EVOLVED_FROM, Relation.MERGED_FROM, Relation.SPLIT_FROM}
    assert DESCENDANT == {inverse(r) for r in ANCESTRY} and not ANCESTRY & DESCENDANT


# --------------------------------------------------------------------------- §3.1 stores


def test_def_3_4() -> None:
    """A store (m, E): ids, dangling endpoints, fibres, π_ν; neither closure condition imposed."""
    s = Store.of({"a": Record("A", namespace="n"), "b": Record("B", namespace="m")},
                 [("a", Relation.EVOLVED_FROM, "b"), ("a", Relation.SUPERSEDES, "z")])
    assert s.dom() == {"a", "b"} and s.ids() == {"a", "b", "z"} and s.dangling() == {"z"}
    assert not s.is_inverse_closed() and not s.is_referentially_closed() and s.is_ancestry_closed()
    assert restrict(s, "n") == Store.of({"a": s.records["a"]})  # edges leave with their endpoints
    t = Store.of({"a": Record("A")}, [("a", Relation.EVOLVED_FROM, "gone")])
    assert not t.is_ancestry_closed() and not t.satisfies_ac_plus()


def test_def_3_5() -> None:
    """s ⊎ t is defined iff the record domains are disjoint; there is no condition on edges."""
    s = Store.of({"a": Record("A")}, [("a", Relation.EVOLVED_FROM, "b")])
    t = Store.of({"b": Record("B")}, [("b", Relation.REFERENCES, "a")])
    u = disjoint_union(s, t)
    assert u.dom() == {"a", "b"} and u.edges == s.edges | t.edges and u.is_referentially_closed()
    with pytest.raises(UnionUndefined):
        disjoint_union(s, Store.of({"a": Record("other")}))


# --------------------------------------------------------------------------- §3.2 the alphabet


def test_def_3_7() -> None:
    """Named identifiers, the number of created records, and the lineage fragment."""
    assert named(Merge(("a", "b", "c"))) == ("a", "b", "c") and named(Supersede("o", "n")) == ("o", "n")
    assert named(Save(Record("x"))) == ()
    assert [creates(a) for a in (Save(Record("x")), Evolve("a", "c"), Merge(("a", "b")), Split("a", ("p", "q", "r")),
                                 Supersede("a", "b"), Recall("a"))] == [1, 1, 1, 3, 0, 0]
    assert all(is_fragment(a) for a in (Save(Record("x")), Evolve("a", "c"), Supersede("a", "b"), Recall("a")))
    assert not any(is_fragment(a) for a in (Evolve("a", "c", by_prefix=True), Delete("a"), SaveAt("a", Record("x")),
                                            Link("a", Relation.REFERENCES, "b"), RecallPrefix("a")))


def test_def_3_8() -> None:
    """Admissible allocations (fresh for dom, the right number, distinct) and strict freshness (occ)."""
    s = Store.of({"a": Record("A", metadata={"evolved_from": "m"})}, [("a", Relation.SUPERSEDES, "d")])
    assert Allocation(("j",), 1).admissible(s, Evolve("a", "c")) is None
    assert "creates 1" in Allocation((), 1).admissible(s, Evolve("a", "c"))
    assert "distinct" in Allocation(("j", "j"), 1).admissible(s, Split("a", ("p", "q")))
    assert "already hold" in Allocation(("a",), 1).admissible(s, Evolve("a", "c"))
    assert Allocation(("d",), 1).admissible(s, Save(Record("x"))) is None          # dom-fresh ...
    assert not Allocation(("d",), 1).strictly_fresh(s)                             # ... not strictly fresh
    assert not Allocation(("m",), 1).strictly_fresh(s)                             # metadata counts too
    assert Oracle().allocate(s, Save(Record("x"))).ids == ("id0001",)


def test_def_3_10() -> None:
    """Outputs carry the identifier; created records get created_at = updated_at = τ; err leaves s unchanged."""
    out, s = step(EMPTY, Save(Record("r")), Allocation(("i",), 7))
    assert isinstance(out, Created) and out.ids == ("i",) and (s.records["i"].created_at,
                                                               s.records["i"].updated_at) == (7, 7)
    assert step(s, Recall("i"))[0] == Found("i", s.records["i"])
    assert step(s, Recall("nope"))[0] == Nothing()
    for a, xi in ((Evolve("nope", "c"), Allocation(("j",), 8)), (Evolve("i", "c"), Allocation(("i",), 8)),
                  (Merge(("i", "nope")), Allocation(("j",), 8))):
        out, s2 = step(s, a, xi)
        assert isinstance(out, Err) and s2 == s


def test_def_3_14() -> None:
    """α: S → (Out × S)^{A⁺} is a function: α(s) applied to the same call gives the same pair."""
    s = run(EMPTY, [Save(Record("a", type="fact")), Save(Record("b", type="decision"))]).final
    c = Call(Merge(("id0001", "id0002")), Allocation(("m",), 3))
    assert alpha(s)(c) == alpha(s)(c) == step(s, c.letter, c.allocation)
    assert alpha(s)(Call(Merge(("id0001", "id0002")), Allocation(("n",), 4))) != alpha(s)(c)


def test_def_3_15() -> None:
    """Mem is a single colour: no realisation is indexed by record schemas; any type string is a record.

    A store may hold a record of any type, and every realisation derives from it.  Which types a
    save may *write* is the package's ``MemoryType`` check, the same for every type it lists."""
    assert "schema" not in {f.name for f in dataclasses.fields(Record)}
    odd = Store.of({"i": Record("x", type="a-type-no-schema-declares")})
    for real in REALISATIONS.values():
        out, s = real.step(odd, Evolve("i", "y"), Allocation(("j",), 1))
        assert isinstance(out, Created) and s.records["j"].type == "a-type-no-schema-declares"
        for t in ("fact", "schema", "agent_run"):
            out, s = real.step(EMPTY, Save(Record("x", type=t)), Allocation(("i",), 1))
            assert isinstance(out, Created) and s.records["i"].type == t


def test_def_3_16() -> None:
    """H-behaviours: equal records with bisimilar successors are bisimilar; a different record is not."""
    s = Store.of({"a": Record("x"), "b": Record("x"), "p": Record("p"), "q": Record("p"), "r": Record("r")},
                 [("a", Relation.EVOLVED_FROM, "p"), ("b", Relation.EVOLVED_FROM, "q"),
                  ("b", Relation.EVOLVED_FROM, "p")])
    assert bisimilar(s, "a", s, "b")         # P_fin: two successors with equal behaviour count once
    assert not bisimilar(s, "a", s, "r")
    assert bisimilar(s, "nobody", s, "nobody-else")  # unmentioned identifiers behave as (⊥, ∅)


def test_def_3_18() -> None:
    """β_s(i) = (m_s(i) or ⊥, {(r, j) : (i, r, j) ∈ E_s})."""
    s = Store.of({"i": Record("r")}, [("i", Relation.SUPERSEDES, "z"), ("i", Relation.EVOLVED_FROM, "y")])
    o = beta(s, "i")
    assert o.record == Record("r") and o.successors == ((Relation.EVOLVED_FROM, "y"), (Relation.SUPERSEDES, "z"))
    assert beta(s, "z").record is None and beta(s, "z").successors == ()


def test_def_3_19() -> None:
    """β⁻ keeps only R⁻ labels; the ancestry unfolding reaches exactly the ancestors."""
    s = run(EMPTY, [Save(Record("a")), Save(Record("b")), Merge(("id0001", "id0002")), Evolve("id0003", "c")]).final
    assert beta_minus(s, "id0003").successors == ((Relation.MERGED_FROM, "id0001"), (Relation.MERGED_FROM, "id0002"))
    assert all(r in ANCESTRY for r, _ in beta_minus(s, "id0001").successors)
    assert ancestry(s, "id0004").ids == ancestors(s, "id0004") | {"id0004"} == {"id0001", "id0002", "id0003",
                                                                                 "id0004"}


# --------------------------------------------------------------------------- Definitions 3.21, 3.23


def _broken(name: str, extra: Callable) -> Realisation:  # type: ignore[type-arg]
    def step_fn(s, a, xi, *, theta=None, faults=frozenset()):  # type: ignore[no-untyped-def]
        out, s2 = CONTEXTFS.step(s, a, xi, faults=faults)
        return extra(s, a, xi, out, s2)

    return Realisation(name, step_fn, "a deliberately broken realisation")


def test_def_3_21() -> None:
    """Definition 3.21: the twelve clauses, their kinds — and the checks catch a realisation that breaks L1."""
    assert CLAUSES == LAW_CLAUSES + SCHEMA_CLAUSES and len(LAW_CLAUSES) == 8 and len(SCHEMA_CLAUSES) == 4
    assert {k for k, i in INFO.items() if i.kind == "theorem"} == {"L1", "L4i"}

    def overwrite_parent(s, a, xi, out, s2):  # type: ignore[no-untyped-def]
        if isinstance(a, Evolve) and isinstance(out, Created) and a.id in s2.records:
            s2 = s2.with_record(a.id, s2.records[a.id].with_content("overwritten"))
        return out, s2

    v = check_L1(_broken("overwrites", overwrite_parent), max_len=1, random_runs=0)
    assert not v.holds and v.witness["offending"]["changed_records"] and v.witness["length"] == 1


def test_def_3_23() -> None:
    """Definition 3.23: S1–S4 hold for the ContextFS model, and S4 / S2 catch realisations that break them."""
    assert [v.item for v in check_schema(CONTEXTFS)] == ["S1", "S2", "S3", "S4"]

    def ancestry_out_of_old(s, a, xi, out, s2):  # type: ignore[no-untyped-def]
        if isinstance(a, Evolve) and isinstance(out, Created):
            s2 = s2.with_edges([Edge(a.id, Relation.EVOLVED_FROM, out.ids[0])])
        return out, s2

    v = check_S4(_broken("s4", ancestry_out_of_old), max_len=1, random_runs=0)
    assert not v.holds and "pre-existing" in v.witness["explanation"]

    def reads_everything(s, a, xi, out, s2):  # type: ignore[no-untyped-def]
        if isinstance(a, Evolve) and isinstance(out, Created):
            j = out.ids[0]
            s2 = s2.with_record(j, s2.records[j].with_content(f"{len(s.records)} records in the store"))
            out = Created(((j, s2.records[j]),))
        return out, s2

    v = check_S2(_broken("s2", reads_everything), max_len=1, random_runs=0)
    assert not v.holds and "named records alone" in v.witness["explanation"]


# --------------------------------------------------------------------------- Definition 5.23


def test_def_5_23() -> None:
    """Allocation-blind bisimilarity: blind to fresh identifiers and clock readings, not to argument order."""
    s = run(EMPTY, [Save(Record("a")), Save(Record("b"))]).final
    once = run(s, [Merge(("id0001", "id0002"))]).final
    twice = run(once, [Merge(("id0001", "id0002"))]).final
    assert once != twice and allocation_blind_bisimilar(once, twice) and allocation_blind_bisimilar(twice, once)
    assert allocation_blind_bisimilar(once, once)
    swapped = run(s, [Merge(("id0002", "id0001"))]).final
    assert not allocation_blind_bisimilar(once, swapped)
    renamed = Store.of({"x": s.records["id0001"].evolve(created_at=90, updated_at=90), "y": s.records["id0002"]})
    assert allocation_blind_bisimilar(s, renamed)
    assert FrozenMap({"b": 1, "a": 2}) == FrozenMap({"a": 2, "b": 1})
