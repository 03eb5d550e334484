"""The repaired realisation (coalg.model.repaired): each repair, its error cases, and random-run invariants.

Every refused call must output ``Err`` and leave the store exactly as it was.  The
hypothesis properties run random words of the full alphabet, with injected edge-write
faults, and check after every step the invariants the repairs promise: L2 (ancestry
metadata is the edge view, nothing stored), L3 (every store inverse-closed), L7 (no
dangling edge of any label), and θ-independence (L5).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from budget import budget
from hypothesis import given

import coalg.model
from coalg.laws import choice_words, run_choices
from coalg.model import (
    ANCESTRY,
    ANCESTRY_KEYS,
    BOOKKEEPING_KEYS,
    CONTEXTFS,
    REALISATIONS,
    REPAIRED,
    Allocation,
    Created,
    Delete,
    Err,
    Evolve,
    Flag,
    Found,
    Letter,
    Link,
    Merge,
    Nothing,
    Recall,
    RecallPrefix,
    Record,
    Relation,
    Save,
    SaveAt,
    Split,
    Supersede,
    Theta,
    Wrote,
    derived_metadata,
    derived_record,
    edge_writes,
    get_realisation,
    inherited_valid_time,
    is_tombstone,
    merge_type,
    meta_ancestry,
    run,
    tombstone,
)
from coalg.model.store import EMPTY, Edge, Store

SETTINGS = budget(60)


def build(*letters: Letter) -> Store:
    """Run letters on REPAIRED from ∅ with the default oracle (id0001, id0002, …; clock 1, 2, …)."""
    t = run(EMPTY, letters, step_fn=REPAIRED.step)
    assert not any(isinstance(o, Err) for o in t.outputs), t.outputs
    return t.final


def refused(s: Store, a: Letter, xi: Allocation | None = None, **kw: object) -> str:
    """Assert that ``a`` is refused at ``s`` with no change; return the reason."""
    from coalg.model import Oracle

    xi = xi if xi is not None else Oracle(clock=50).allocate(s, a)
    out, s2 = REPAIRED.step(s, a, xi, **kw)  # type: ignore[arg-type]
    assert isinstance(out, Err), out
    assert s2 == s
    return out.reason


A = Record("a", type="fact", namespace="alice", tags={"t"}, metadata={"k": 1})
B = Record("b", type="decision", namespace="alice")
K = Record("k", type="fact", namespace="bob")


def test_registered_and_declared() -> None:
    assert REALISATIONS["repaired"] is REPAIRED
    assert REPAIRED.declares_valid_time and not REPAIRED.edge_faults


# --------------------------------------------------------------------------- 1. one ancestry representation


def test_derived_records_inherit_no_ancestry_and_no_bookkeeping() -> None:
    s = build(Save(A), Save(B), Merge(("id0001", "id0002")), Evolve("id0003", "e"), Split("id0004", ("p", "q")))
    for j in ("id0003", "id0004", "id0005", "id0006"):
        stored = s.records[j].metadata
        assert not set(ANCESTRY_KEYS) & set(stored)
        assert stored["k"] == 1  # payload metadata is inherited
    assert "merge_strategy" not in s.records["id0004"].metadata          # the parent's bookkeeping is not
    assert set(s.records["id0005"].metadata) == {"k", "split_part", "split_total", "split_timestamp"}
    for i in sorted(s.dom()):
        view = derived_record(s, i)
        assert view is not None
        for r in ANCESTRY:
            assert meta_ancestry(view, r) == {e.target for e in s.edges if e.source == i and e.relation is r}


def test_derived_metadata_shapes() -> None:
    s = build(Save(A), Save(B), Merge(("id0002", "id0001")), Evolve("id0003", "e"), Split("id0004", ("p", "q")))
    assert derived_metadata(s, "id0003")["merged_from"] == ("id0001", "id0002")  # sorted: order is not provenance
    assert derived_metadata(s, "id0004")["evolved_from"] == "id0003"
    assert derived_metadata(s, "id0005")["split_from"] == "id0004"
    assert "evolved_from" not in derived_metadata(s, "id0001")
    assert derived_record(s, "nope") is None


def test_save_with_ancestry_keys_is_refused() -> None:
    s = build(Save(A))
    for key in ANCESTRY_KEYS:
        assert "reserved" in refused(s, Save(Record("x", metadata={key: "id0001"})))
        assert "reserved" in refused(s, SaveAt("id0001", Record("x", metadata={key: "id0001"})))
    assert set(BOOKKEEPING_KEYS) >= {"merge_timestamp", "split_part", "change_reason"}


# --------------------------------------------------------------------------- 2. atomic writes


@pytest.mark.parametrize(
    "letter",
    [Evolve("id0001", "e"), Merge(("id0001", "id0002")), Split("id0001", ("p", "q")), Supersede("id0001", "id0002"),
     Link("id0001", Relation.REFERENCES, "id0002")],
)
def test_every_failing_edge_write_rolls_the_call_back(letter: Letter) -> None:
    s = build(Save(A), Save(B))
    for k in range(edge_writes(letter)):
        assert "rolled back" in refused(s, letter, faults=frozenset({k}))
    from coalg.model import Oracle

    out, s2 = REPAIRED.step(s, letter, Oracle(clock=9).allocate(s, letter), faults=frozenset({99}))
    assert not isinstance(out, Err) and s2 != s  # a fault outside the call's writes changes nothing


# --------------------------------------------------------------------------- 3–4. resolution, tie-break


def test_prefix_naming_is_refused_and_recall_prefix_is_unambiguous() -> None:
    s = build(Save(A), Save(B))
    for a in (Evolve("id000", "e", by_prefix=True), Split("id000", ("p", "q"), by_prefix=True),
              Merge(("id0001", "id000"), by_prefix=True), Delete("id000", by_prefix=True)):
        assert "equality" in refused(s, a)
    out, _ = REPAIRED.step(s, RecallPrefix("id000"))
    assert isinstance(out, Err) and "id0001, id0002" in out.reason
    out, _ = REPAIRED.step(s, RecallPrefix("id0002"))
    assert out == Found("id0002", s.records["id0002"])
    assert REPAIRED.step(s, RecallPrefix("zz"))[0] == Nothing()


def test_merge_type_tie_break_reads_only_the_argument_types() -> None:
    s = build(Save(A), Save(B))
    types = set()
    for ids in (("id0001", "id0002"), ("id0002", "id0001")):
        for theta in (Theta(), Theta(type_priority=("fact",)), Theta(descending=True)):
            out, _ = REPAIRED.step(s, Merge(ids), Allocation(("m",), 5), theta=theta)
            assert isinstance(out, Created)
            types.add(out.items[0][1].type)
    assert types == {"decision"} == {merge_type(["fact", "decision"])}
    assert merge_type(["fact", "fact", "decision"]) == "fact"
    out, _ = REPAIRED.step(s, Merge(("id0001", "id0002"), type="episodic"), Allocation(("m",), 5))
    assert out.items[0][1].type == "episodic"


# --------------------------------------------------------------------------- 5–6. namespaces, existence


def test_merge_across_namespaces_is_refused() -> None:
    s = build(Save(A), Save(K), Save(B))
    assert "different namespaces" in refused(s, Merge(("id0001", "id0002")))
    assert "different namespaces" in refused(s, Merge(("id0001", "id0002"), namespace="alice"))
    assert "not the arguments' namespace" in refused(s, Merge(("id0001", "id0003"), namespace="bob"))
    out, s2 = REPAIRED.step(s, Merge(("id0001", "id0003"), namespace="alice"), Allocation(("m",), 9))
    assert isinstance(out, Created) and s2.records["m"].namespace == "alice"


def test_merge_checks_every_argument() -> None:
    s = build(Save(A), Save(B))
    assert "no record missing" in refused(s, Merge(("id0001", "id0002", "missing")))
    assert "more than once" in refused(s, Merge(("id0001", "id0001", "id0002")))
    assert "at least 2" in refused(s, Merge(("id0001",)))


def test_supersede_and_link_check_both_ends() -> None:
    s = build(Save(A), Save(B))
    assert "no record missing" in refused(s, Supersede("missing", "id0001"))
    assert "no record missing" in refused(s, Supersede("id0001", "missing"))
    assert "both ends" in refused(s, Supersede("id0001", "id0001"))
    assert "no record missing" in refused(s, Link("id0001", Relation.REFERENCES, "missing"))
    for r in (Relation.EVOLVED_FROM, Relation.MERGED_INTO, Relation.SPLIT_FROM):
        assert "lineage label" in refused(s, Link("id0001", r, "id0002"))
    out, s2 = REPAIRED.step(s, Link("id0001", Relation.REFERENCES, "id0002", bidirectional=False))
    assert isinstance(out, Wrote) and s2.edges == {Edge("id0001", Relation.REFERENCES, "id0002"),
                                                   Edge("id0002", Relation.REFERENCED_BY, "id0001")}
    out, s3 = REPAIRED.step(s, Supersede("id0001", "id0002"))
    assert s3.is_inverse_closed() and s3.is_referentially_closed() and len(s3.edges) == 2


def test_evolve_and_split_errors() -> None:
    s = build(Save(A))
    assert "no record missing" in refused(s, Evolve("missing", "e"))
    assert "no record missing" in refused(s, Split("missing", ("p", "q")))
    assert "at least 2 parts" in refused(s, Split("id0001", ("p",)))


# --------------------------------------------------------------------------- 7. tombstones


def test_delete_leaves_a_tombstone_and_keeps_the_ancestry_shape() -> None:
    s = build(Save(A.evolve(valid_time=3)), Evolve("id0001", "e"))
    out, s2 = REPAIRED.step(s, Delete("id0001"), Allocation((), 7))
    assert out == Flag(True)
    t = s2.records["id0001"]
    assert is_tombstone(t) and t == tombstone(s.records["id0001"], 7)
    assert (t.content, t.type, t.tags, t.summary, dict(t.metadata)) == ("", "tombstone", {"tombstone"}, None, {})
    assert (t.namespace, t.created_at, t.updated_at, t.valid_time) == ("alice", 1, 7, 3)
    assert s2.edges == s.edges and s2.dom() == s.dom()
    assert REPAIRED.step(s2, Recall("id0001"))[0] == Found("id0001", t)
    for a in (Delete("id0001"), Evolve("id0001", "x"), Split("id0001", ("p", "q")), Merge(("id0001", "id0002")),
              SaveAt("id0001", Record("back")), Supersede("id0001", "id0002"),
              Link("id0002", Relation.REFERENCES, "id0001")):
        assert "tombstone" in refused(s2, a)
    assert "no record missing" in refused(s2, Delete("missing"))


# --------------------------------------------------------------------------- 8. strict freshness


def test_allocations_must_be_strictly_fresh() -> None:
    s = Store.of({"i": Record("r", metadata={"note": 1})}, [("i", Relation.SUPERSEDES, "k")])
    assert "strictly fresh" in refused(s, Save(Record("x")), Allocation(("k",), 1))
    assert "already hold a record" in refused(s, Save(Record("x")), Allocation(("i",), 1))
    out, _ = REPAIRED.step(s, Save(Record("x")), Allocation(("z",), 1))
    assert isinstance(out, Created)


# --------------------------------------------------------------------------- 9. valid time


def test_valid_time_explicit_values_are_stored_in_every_created_record() -> None:
    s = build(Save(A), Save(B))
    for a in (Evolve("id0001", "e", valid_time=-4), Merge(("id0001", "id0002"), valid_time=-4),
              Split("id0001", ("p", "q", "r"), valid_time=-4)):
        from coalg.model import Oracle

        out, _ = REPAIRED.step(s, a, Oracle(clock=9).allocate(s, a))
        assert isinstance(out, Created) and [r.valid_time for _, r in out.items] == [-4] * len(out.items)
    out, _ = REPAIRED.step(s, Save(Record("x", valid_time=-9)), Allocation(("n",), 9))
    assert out.items[0][1].valid_time == -9


def test_valid_time_inheritance_rule() -> None:
    s = build(Save(Record("a", valid_time=2)), Save(Record("b", valid_time=8)), Save(Record("c")))
    assert s.records["id0003"].valid_time == 3                     # save: the clock reading
    steps = {
        Evolve("id0001", "e"): [2], Split("id0002", ("p", "q")): [8, 8],
        Merge(("id0002", "id0001")): [8], Merge(("id0001", "id0002")): [8],
    }
    for a, want in steps.items():
        from coalg.model import Oracle

        out, _ = REPAIRED.step(s, a, Oracle(clock=20).allocate(s, a))
        assert [r.valid_time for _, r in out.items] == want
    out, _ = REPAIRED.step(s, SaveAt("id0001", Record("a2")), Allocation((), 30))
    assert out.items[0][1].valid_time == 2                           # save_at keeps the replaced one's
    legacy = Store.of({"p": Record("p")})                            # a parent with no time at all
    out, _ = REPAIRED.step(legacy, Evolve("p", "e"), Allocation(("j",), 40))
    assert out.items[0][1].valid_time == 40
    legacy = Store.of({"p": Record("p", created_at=7)})              # written by ContextFS: created_at only
    out, _ = REPAIRED.step(legacy, Evolve("p", "e"), Allocation(("j",), 40))
    assert out.items[0][1].valid_time == 7                           # its transaction time, not the clock
    assert inherited_valid_time(None, [Record("x"), Record("y", valid_time=5)], 1, latest=True) == 5


def test_contextfs_shape_is_kept_for_successful_derivations() -> None:
    """Where no repair applies, REPAIRED writes the same edges as the ContextFS model."""
    word = [Save(A), Save(B), Merge(("id0001", "id0002")), Evolve("id0003", "e"), Split("id0004", ("p", "q")),
            Supersede("id0001", "id0004")]
    r = run(EMPTY, word, step_fn=REPAIRED.step).final
    c = run(EMPTY, word).final
    assert r.edges == c.edges and r.dom() == c.dom()
    for i in sorted(r.dom()):
        assert (r.records[i].content, r.records[i].type, r.records[i].tags) == \
               (c.records[i].content, c.records[i].type, c.records[i].tags)


# --------------------------------------------------------------------------- random runs


def _invariants(s: Store) -> None:
    for i in sorted(s.dom()):
        assert not set(ANCESTRY_KEYS) & set(s.records[i].metadata)            # L2: nothing stored twice
        view = derived_record(s, i)
        for r in ANCESTRY:
            assert meta_ancestry(view, r) == {e.target for e in s.edges if e.source == i and e.relation is r}
    assert s.is_inverse_closed()                                               # L3
    assert s.is_referentially_closed() and s.has_lineage_integrity()           # L7, strong form too
    assert s.satisfies_ac_plus()


@SETTINGS
@given(choice_words(10))
def test_random_runs_keep_l2_l3_l7(choices: list[int]) -> None:
    t = run_choices(REPAIRED, choices, alphabet="full", faults=True)
    for k, out in enumerate(t.outputs):
        if isinstance(out, Err):
            assert t.states[k + 1] == t.states[k]
        _invariants(t.states[k + 1])


@SETTINGS
@given(choice_words(8))
def test_random_runs_do_not_depend_on_theta(choices: list[int]) -> None:
    runs = []
    for theta in (Theta(), Theta(descending=True), Theta(type_priority=("fact",), id_priority=("id0002",))):
        from coalg.laws import ALPHABETS, allocate

        s, outs = EMPTY, []
        for k, c in enumerate(choices):
            letters = ALPHABETS["full"](s)
            a = letters[c % len(letters)]
            out, s = REPAIRED.step(s, a, allocate(s, a, k + 1), theta=theta)
            outs.append(out)
        runs.append((outs, s))
    assert runs[0] == runs[1] == runs[2]


@SETTINGS
@given(choice_words(10))
def test_derivations_never_change_old_ancestry(choices: list[int]) -> None:
    """Theorem 5.7 on REPAIRED along random fragment runs (every store stays ancestry-closed)."""
    from coalg.model import beta_minus

    t = run_choices(REPAIRED, choices, alphabet="fragment")
    for k in range(len(t.calls)):
        s, s2 = t.states[k], t.states[k + 1]
        assert s.is_ancestry_closed()
        assert all(beta_minus(s, i) == beta_minus(s2, i) for i in s.dom())


# --------------------------------------------------------------------------- the registry


def test_registry_lists_both_realisations_read_only() -> None:
    assert dict(REALISATIONS) == {"contextfs": CONTEXTFS, "repaired": REPAIRED}
    assert get_realisation("repaired") is REPAIRED
    with pytest.raises(TypeError):
        REALISATIONS["other"] = CONTEXTFS  # type: ignore[index]
    with pytest.raises(KeyError, match="known: contextfs, repaired"):
        get_realisation("nope")


def test_realisation_reprs_show_no_memory_address() -> None:
    for real in (CONTEXTFS, REPAIRED):
        text = repr(real)
        assert "0x" not in text and "step_fn" not in text and f"name={real.name!r}" in text


def test_neither_realisation_imports_the_other_or_the_registry() -> None:
    """The registry sits above both realisations: no import cycle, and no import hidden in a function."""
    root = Path(coalg.model.__file__).parent
    for name in ("realisation", "repaired", "repair_rules"):
        tree = ast.parse((root / f"{name}.py").read_text())
        modules = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
        assert not modules & {"registry", "repaired"} - {name}, name
        if name == "realisation":
            assert not modules & {"repair_rules"}
        functions = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)]
        assert not [i for f in functions for i in ast.walk(f) if isinstance(i, (ast.Import, ast.ImportFrom))]
