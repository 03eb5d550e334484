"""The differential comparison one step at a time: the ties a step meets, the row order after it,
when two answers count as one, the report of a disagreement, and what a word's result counts.

Each expectation is worked out by hand from the store in the test (written beside it), not read
back from the comparison; the last two tests run short words on the real package.
"""

from __future__ import annotations

import pytest

from coalg.contextfs import AVAILABLE, unavailable_reason

pytestmark = pytest.mark.skipif(not AVAILABLE, reason=f"differential tests need contextfs 0.2.35: {unavailable_reason()}")

import coalg.contextfs.differential_testing as diff
from coalg.contextfs.package_run import PackageStep, Returned
from coalg.contextfs.random_words import WordStep, covers
from coalg.model import (
    DEFAULT_THETA,
    Allocation,
    Call,
    Created,
    Delete,
    Err,
    Evolve,
    Flag,
    Found,
    Merge,
    Recall,
    RecallPrefix,
    Record,
    Relation,
    Save,
    Split,
    Store,
    Supersede,
    Theta,
    Wrote,
)

# ab1, ab10 and ab2 share the prefix "ab" (and ab1, ab10 the prefix "ab1"); cd stands alone.
STORE = Store.of({"ab1": Record("x", type="fact"), "ab10": Record("y", type="fact"),
                  "ab2": Record("z", type="fact"), "cd": Record("w", type="decision")})
ROWS = ["ab1", "ab10", "ab2", "cd"]


def _ws(letter: object, *ids: str, faults: frozenset[int] = frozenset()) -> WordStep:
    return WordStep(Call(letter, Allocation(ids, 1), faults))  # type: ignore[arg-type]


def _ties(letter: object) -> dict[str, int]:
    return diff._theta(STORE, _ws(letter), ROWS)[1]


@pytest.mark.parametrize(("letter", "prefix_ties"), [
    (RecallPrefix("ab"), 1),  # ab1, ab10, ab2
    (RecallPrefix("cd"), 0),  # cd alone
    (RecallPrefix("ab2"), 0),
    (Evolve("ab", "v", by_prefix=True), 1),
    (Evolve("ab1", "v"), 0),  # by equality: no prefix is read, though "ab1" would match two
    (Split("ab1", ("p", "q"), by_prefix=True), 1),  # ab1 and ab10
    (Delete("ab", by_prefix=True), 1),
    (Delete("ab1"), 0),
    (Merge(("ab", "cd"), by_prefix=True), 1),  # "ab" ties, "cd" does not
    (Merge(("ab1", "cd"), by_prefix=True), 1),
    (Merge(("ab2", "cd"), by_prefix=True), 0),
    (Merge(("ab1", "cd")), 0),  # by equality
    (Recall("ab1"), 0),
])
def test_a_step_counts_the_prefixes_that_match_several_rows(letter: object, prefix_ties: int) -> None:
    assert _ties(letter)["prefix"] == prefix_ties


def test_a_merge_without_a_type_ties_when_its_records_types_have_several_modes() -> None:
    # ab1 (fact) with cd (decision): each type once, two modes
    assert _ties(Merge(("ab1", "cd"))) == {"type": 1, "prefix": 0}
    # ab1 with ab2: fact twice, one mode
    assert _ties(Merge(("ab1", "ab2"))) == {"type": 0, "prefix": 0}
    # fact twice against decision once: one mode
    assert _ties(Merge(("ab1", "ab2", "cd"))) == {"type": 0, "prefix": 0}
    # a merge that names its type has no tie to break
    assert _ties(Merge(("ab1", "cd"), type="fact")) == {"type": 0, "prefix": 0}
    assert _ties(Save(Record("n"))) == {"type": 0, "prefix": 0}


def test_no_theta_is_sought_for_a_merge_whose_types_have_one_mode() -> None:
    made = Created((("m", Record("x", type="fact")),))
    assert diff._for_some_theta(STORE, _ws(Merge(("ab1", "ab2")), "m"), Theta(id_priority=tuple(ROWS)), made) is None
    tied = diff._for_some_theta(STORE, _ws(Merge(("ab1", "cd")), "m"), Theta(id_priority=tuple(ROWS)), made)
    assert tied == Theta(id_priority=tuple(ROWS), type_priority=("fact",))


def test_theta_follows_the_rows_except_for_delete() -> None:
    assert diff._theta(STORE, _ws(RecallPrefix("ab")), ROWS)[0] == Theta(id_priority=tuple(ROWS))
    # the package's delete walks the primary key, smallest identifier first: θ's default
    assert diff._theta(STORE, _ws(Delete("ab", by_prefix=True)), ROWS)[0] == Theta()


def test_rows_after_a_step_keep_their_order_and_a_written_row_moves_to_the_end() -> None:
    after = Store.of({"a": Record("1"), "c": Record("3"), "e": Record("5"), "d": Record("4")})
    made = Created((("d", Record("4")),))
    # b is gone; e appeared unwritten (it sorts in among the strays); d was written last
    assert diff._rows_after(["a", "b", "c"], after, made) == ["a", "c", "e", "d"]
    # a row written again (INSERT OR REPLACE) leaves its place
    again = Store.of({"a": Record("1"), "b": Record("2")})
    assert diff._rows_after(["a", "b"], again, Created((("a", Record("1")),))) == ["b", "a"]
    # records created in one call come in creation order, not sorted
    split = Store.of({"a": Record("1"), "z": Record("p"), "y": Record("q")})
    assert diff._rows_after(["a"], split, Created((("z", Record("p")), ("y", Record("q"))))) == ["a", "z", "y"]
    # an answer that writes nothing moves nothing
    assert diff._rows_after(["c", "a"], Store.of({"a": Record("1"), "c": Record("3")}), Flag(True)) == ["c", "a"]


E1 = ("n", Relation.SUPERSEDES, "o")
E2 = ("o", Relation.SUPERSEDED_BY, "n")


@pytest.mark.parametrize(("letter", "mine", "theirs", "expected"), [
    # supersede: the package returns the first edge when both were written, else None
    (Supersede("o", "n"), Wrote((E1, E2)), Returned(E1), (True, "supersede's answer")),
    (Supersede("o", "n"), Wrote(()), Returned(None), (True, "supersede's answer")),
    (Supersede("o", "n"), Err("unknown"), Returned(None), (True, "supersede's answer")),
    (Supersede("o", "n"), Wrote((E1,)), Returned(E1), (False, "supersede's answer")),
    (Supersede("o", "n"), Wrote((E1, E2)), Returned(None), (False, "supersede's answer")),
    # two refusals agree whatever their wording
    (Recall("x"), Err("no such record"), Err("Memory x not found"), (True, "error messages")),
    # the package's delete of an unknown identifier answers True
    (Delete("x"), Err("no such record"), Flag(True), (True, "delete of an unknown identifier")),
    (Delete("x"), Flag(False), Flag(True), (False, None)),
    (Recall("x"), Err("no such record"), Flag(True), (False, None)),
    (Delete("x"), Err("no such record"), Flag(False), (False, None)),
    # otherwise: equal or not, with no abstraction
    (Delete("x"), Flag(True), Flag(True), (True, None)),
    (Recall("x"), Found("x", Record("a")), Found("x", Record("b")), (False, None)),
])
def test_when_two_answers_count_as_one(letter: object, mine: object, theirs: object,
                                       expected: tuple[bool, str | None]) -> None:
    assert diff._compare_output(_ws(letter), mine, theirs) == expected  # type: ignore[arg-type]


def test_a_difference_is_reported_by_kind_with_each_side() -> None:
    ws, s = _ws(Delete("x")), Store.of({"x": Record("a")})
    mine = Flag(True)
    assert diff._difference(ws, mine, s, PackageStep(mine, s, raised="KeyError: 'x'")) == (
        {"what": "the package raised", "model": {"out": "flag", "value": True}, "package": "KeyError: 'x'"}, None)
    assert diff._difference(ws, mine, s, PackageStep(Flag(False), s)) == (
        {"what": "output", "model": {"out": "flag", "value": True},
         "package": {"out": "flag", "value": False}}, None)
    assert diff._difference(ws, mine, s, PackageStep(mine, s, unmodelled=("memories.embedding",))) == (
        {"what": "a column the model has no field for", "model": None, "package": ["memories.embedding"]}, None)
    other = Store.of({"x": Record("b")})
    found = diff._difference(ws, mine, s, PackageStep(mine, other))
    assert found[1] is None and found[0] is not None and found[0]["what"] == "store"
    assert found[0]["model"]["records"]["x"]["content"] == "a"
    assert found[0]["package"]["records"]["x"]["content"] == "b"
    # agreement, reached through an abstraction
    assert diff._difference(ws, Err("no"), s, PackageStep(Err("not found"), s)) == (None, "error messages")
    assert diff._difference(ws, mine, s, PackageStep(mine, s)) == (None, None)


# --------------------------------------------------------------------------- whole words, on the package

A, B, C, D = "ab000000-001", "ab000000-002", "cd000000-003", "ee000000-004"
Z, Y = "f9000000-005", "f1000000-006"  # a split's two records, drawn in this order


def _word() -> list[WordStep]:
    steps = [
        _ws(Save(Record("first note")), A),
        _ws(Save(Record("a decision", type="decision")), B),
        _ws(RecallPrefix("ab")),  # A and B: a prefix tie
        _ws(Merge((A, B)), C),  # fact once, decision once: a type tie
        _ws(Recall("ff000000-999")),  # nothing, on both sides
        _ws(Evolve("ff000000-999", "v"), "ff000000-998"),  # refused on both sides: error messages
        _ws(Delete("ff000000-999")),  # the package answers True: delete of an unknown identifier
        _ws(Save(Record("later")), D),
        _ws(Supersede(C, D), faults=frozenset({0})),  # a fault: nothing written, the package returns None
        _ws(Supersede(C, D)),
        _ws(Split(D, ("one", "two")), Z, Y),
        _ws(Delete(Z)),
        _ws(Delete(A)),
    ]
    # the clock of step k reads k
    return [WordStep(Call(w.call.letter, Allocation(w.call.allocation.ids, k), w.call.faults))
            for k, w in enumerate(steps, 1)]


def test_a_word_s_result_counts_its_ties_faults_and_abstractions() -> None:
    word, seen = _word(), []

    def draw(s: Store, k: int, rows: list[str], gone: list[str]) -> WordStep | None:
        seen.append((list(rows), list(gone)))
        return word[k - 1] if k <= len(word) else None

    result = diff._one_word(7, draw)
    assert result == {
        "index": 7, "steps": len(word), "agree": True, "faulty_steps": 1,
        "ties": {"type": 1, "prefix": 1},
        "abstractions": {"error messages": 1, "delete of an unknown identifier": 1, "supersede's answer": 2},
        "covers": sorted(covers(word)), "disagreement": None,
    }
    # the rows and the deleted identifiers each step was drawn at
    # the rows and the deleted identifiers each step was drawn at (a merge and a split keep
    # their sources; the split's records stand in the order it drew them, not sorted)
    assert seen[11] == ([A, B, C, D, Z, Y], [])
    assert seen[12] == ([A, B, C, D, Y], [Z])
    assert seen[13] == ([B, C, D, Y], [Z, A])


def test_a_disagreement_names_the_word_its_index_and_the_step(monkeypatch: pytest.MonkeyPatch) -> None:
    from coalg.model import coalgebra

    real = coalgebra.step

    def recall_answers_false(s, a, xi, *, theta=DEFAULT_THETA, faults=frozenset()):  # type: ignore[no-untyped-def]
        out, after = real(s, a, xi, theta=theta, faults=faults)
        return (Flag(False), after) if isinstance(a, Recall) else (out, after)

    monkeypatch.setattr(diff, "step", recall_answers_false)
    word = [_ws(Save(Record("n")), A), _ws(Recall(A)), _ws(Save(Record("m")), B)]
    result = diff._one_word(3, diff._given(word))
    d = result["disagreement"]
    assert result["agree"] is False and result["steps"] == 2
    assert d["index"] == 3 and d["step"] == 2 and d["what"] == "output"
    assert d["word"] == [str(w) for w in word[:2]]
    assert d["model"] == {"out": "flag", "value": False} and d["package"]["out"] == "found"
    assert len(d["calls"]) == 2
