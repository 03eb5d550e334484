"""The details of ``coalg differential``: its report, its text, its arguments and the calls it hands on.

Every expected value here is written out by hand (exact sentences, exact JSON
keys and values, the exact shares given to the child interpreters), so that a
changed word, key, bound or default in :mod:`coalg.contextfs.differential_testing`
is caught.  The child interpreters and the package are replaced by recorders
wherever the test is about what is handed on, so the file runs in a few
seconds and needs the package only where it says so.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

import coalg.contextfs.differential_testing as diff
from coalg.contextfs import AVAILABLE, unavailable_reason
from coalg.contextfs.offline import ContextFSUnavailable
from coalg.contextfs.package_run import Returned
from coalg.contextfs.random_words import WordStep
from coalg.contextfs.word_files import words_to_json
from coalg.errors import InputError
from coalg.model import CONTEXTFS, Allocation, Call, Edge, Flag, Record, Relation, Save, Store

needs_package = pytest.mark.skipif(not AVAILABLE, reason=f"needs contextfs 0.2.35: {unavailable_reason()}")

ZERO_DOMAIN = {"mixed-case prefix": 0, "wildcard prefix": 0, "invalid type": 0, "odd identifier": 0, "unicode": 0}
ZERO_ABSTRACTIONS = {"error messages": 0, "delete of an unknown identifier": 0, "supersede's answer": 0}


# =========================================================================== format_differential


def _d(index: int, step: int, what: str, word: list[str], model: Any, package: Any) -> dict[str, Any]:
    return {"index": index, "step": step, "what": what, "word": word, "model": model, "package": package}


def _random_report(**changes: Any) -> dict[str, Any]:
    report = {
        "words": 12, "agree": 3, "length": 4, "seed": 7, "hashseed": 5, "faults": True,
        "package": "contextfs 0.2.35", "steps": 40, "faulty_steps": 6,
        "ties": {"type": 2, "prefix": 3},
        "abstractions": {"error messages": 4, "supersede's answer": 1},
        "domain": {"unicode": 2, "odd identifier": 0},
        "disagreements": [
            _d(3, 2, "output", ["save(a)", "recall(é)"], {"out": "err", "reason": "é"}, {"out": "flag", "value": True}),
            _d(8, 1, "store", ["delete(x)"], None, ["ß"]),
        ],
        "disagreeing": 9,
    }
    return {**report, **changes}


RANDOM_TEXT = (
    "12 random words of length ≤ 4 (seed 7, PYTHONHASHSEED 5) on the ContextFS model and on contextfs 0.2.35: "
    "3 agree, 9 disagree.\n"
    "40 steps compared (output and whole store after each), 6 of them with injected edge-write faults; "
    "θ decided 2 merge-type tie(s) and 3 prefix match(es) with several rows.\n"
    "abstractions applied: error messages ×4, supersede's answer ×1.\n"
    "words reaching each part of the input domain: unicode 2, odd identifier 0.\n"
    "\n"
    "word 3, step 2 (output):\n"
    "  1. save(a)\n"
    "  2. recall(é)\n"
    '  model:   {"out": "err", "reason": "é"}\n'
    '  package: {"out": "flag", "value": true}\n'
    "\n"
    "word 8, step 1 (store):\n"
    "  1. delete(x)\n"
    "  model:   null\n"
    '  package: ["ß"]\n'
    "\n"
    "… and 7 more disagreeing word(s) (--json lists up to the cap)."
)


def test_text_of_a_random_run_word_for_word() -> None:
    assert diff.format_differential(_random_report()) == RANDOM_TEXT


def test_text_of_a_word_file_run_word_for_word() -> None:
    report = _random_report(word_file="w.json", seed=None, faults=None, words=2, agree=1, hashseed=0,
                            disagreeing=1)
    del report["domain"]
    text = diff.format_differential(report, limit=1)
    assert text == (
        "2 word(s) of w.json (PYTHONHASHSEED 0) on the ContextFS model and on contextfs 0.2.35: 1 agree, 1 disagree.\n"
        "40 steps compared (output and whole store after each), 6 of them with injected edge-write faults; "
        "θ decided 2 merge-type tie(s) and 3 prefix match(es) with several rows.\n"
        "abstractions applied: error messages ×4, supersede's answer ×1.\n"
        "\n"
        "word 3, step 2 (output):\n"
        "  1. save(a)\n"
        "  2. recall(é)\n"
        '  model:   {"out": "err", "reason": "é"}\n'
        '  package: {"out": "flag", "value": true}'
    )


def test_a_report_whose_word_file_is_none_is_a_random_run() -> None:
    assert diff.format_differential(_random_report(word_file=None)) == RANDOM_TEXT


def test_an_empty_domain_and_no_disagreement_leave_only_the_head() -> None:
    report = _random_report(domain={}, disagreements=[], disagreeing=0, agree=12, abstractions={})
    assert diff.format_differential(report) == (
        "12 random words of length ≤ 4 (seed 7, PYTHONHASHSEED 5) on the ContextFS model and on contextfs 0.2.35: "
        "12 agree, 0 disagree.\n"
        "40 steps compared (output and whole store after each), 6 of them with injected edge-write faults; "
        "θ decided 2 merge-type tie(s) and 3 prefix match(es) with several rows.\n"
        "abstractions applied: ."
    )


def test_the_default_limit_shows_five_disagreements() -> None:
    ds = [_d(i, 1, "output", [f"w{i}"], i, -i) for i in range(7)]
    text = diff.format_differential(_random_report(disagreements=ds, disagreeing=7))
    assert [line for line in text.splitlines() if line.startswith("word ")] == [
        f"word {i}, step 1 (output):" for i in range(5)]
    assert text.endswith("\n\n… and 2 more disagreeing word(s) (--json lists up to the cap).")


@pytest.mark.parametrize(("listed", "disagreeing", "limit", "more"), [
    (1, 1, 5, None),   # all shown: no "more" line
    (1, 2, 5, 1),      # one beyond the cap
    (2, 30, 5, 28),    # the cap listed fewer than the limit
    (4, 30, 2, 28),    # the limit shows fewer than listed
    (3, 3, 0, 3),      # limit 0 shows none
])
def test_the_more_line(listed: int, disagreeing: int, limit: int, more: int | None) -> None:
    ds = [_d(i, 1, "store", ["w"], {}, {}) for i in range(listed)]
    text = diff.format_differential(_random_report(disagreements=ds, disagreeing=disagreeing), limit=limit)
    last = text.splitlines()[-1]
    assert text.count("\nword ") == min(listed, limit)
    if more is None:
        assert "more disagreeing" not in text and last == "  package: {}"
    else:
        assert last == f"… and {more} more disagreeing word(s) (--json lists up to the cap)."


def test_the_text_of_an_actual_report_is_one_sentence_a_line() -> None:
    results = [_result(0, steps=2, faulty=1, ties={"type": 1, "prefix": 0}, used={"error messages": 1},
                       covers=["unicode"])]
    report = diff._report(results, 20, length=3, seed=1, hashseed=0, faults=True)
    assert diff.format_differential(report).splitlines() == [
        ("1 random words of length ≤ 3 (seed 1, PYTHONHASHSEED 0) on the ContextFS model and on contextfs 0.2.35: "
        "1 agree, 0 disagree."),
        ("2 steps compared (output and whole store after each), 1 of them with injected edge-write faults; "
        "θ decided 1 merge-type tie(s) and 0 prefix match(es) with several rows."),
        "abstractions applied: error messages ×1, delete of an unknown identifier ×0, supersede's answer ×0.",
        ("words reaching each part of the input domain: mixed-case prefix 0, wildcard prefix 0, invalid type 0, "
        "odd identifier 0, unicode 1."),
    ]


# =========================================================================== _report


def _result(index: int, *, steps: int = 1, faulty: int = 0, ties: dict[str, int] | None = None,
            used: dict[str, int] | None = None, covers: list[str] | None = None,
            word: int | None = None) -> dict[str, Any]:
    """A word's result as :func:`run_words` gives it; ``word``: the length of a disagreeing word."""
    disagreement = None if word is None else {"word": [f"s{j}" for j in range(word)], "index": index, "step": word}
    return {"index": index, "steps": steps, "agree": word is None, "faulty_steps": faulty,
            "ties": {"type": 0, "prefix": 0} if ties is None else ties, "abstractions": used or {},
            "covers": covers or [], "disagreement": disagreement}


def test_report_counts_sorts_and_caps() -> None:
    results = [
        _result(4, steps=3, faulty=1, ties={"type": 1, "prefix": 0}, used={"error messages": 2},
                covers=["unicode"], word=2),
        _result(0, steps=2, ties={"type": 0, "prefix": 2},
                used={"error messages": 1, "delete of an unknown identifier": 1}, covers=["unicode", "wildcard prefix"]),
        _result(9, steps=1, faulty=2, word=1),
        _result(2, steps=4, ties={}, used={"supersede's answer": 3, "tags as a set": 5}, covers=["odd identifier"],
                word=2),
        _result(7, steps=5, ties={"type": 3}, word=1),
        _result(5, steps=1, ties={"prefix": 1}),
    ]
    report = diff._report(results, 3, length=6, seed=11, hashseed=2, faults=True)
    assert list(report) == ["length", "seed", "hashseed", "faults", "words", "agree", "disagreements", "disagreeing",
                            "package", "steps", "faulty_steps", "words_with_ties", "ties", "abstractions", "domain"]
    assert report == {
        "length": 6, "seed": 11, "hashseed": 2, "faults": True,
        "words": 6, "agree": 2,
        # shortest first, then by index; at most the cap
        "disagreements": [{"word": ["s0"], "index": 7, "step": 1}, {"word": ["s0"], "index": 9, "step": 1},
                          {"word": ["s0", "s1"], "index": 2, "step": 2}],
        "disagreeing": 4,
        "package": "contextfs 0.2.35",
        "steps": 16, "faulty_steps": 3,
        "words_with_ties": 4,
        "ties": {"type": 4, "prefix": 3},
        "abstractions": {"error messages": 3, "delete of an unknown identifier": 1, "supersede's answer": 3},
        "domain": {"mixed-case prefix": 0, "wildcard prefix": 1, "invalid type": 0, "odd identifier": 1, "unicode": 2},
    }


def test_report_of_no_words_counts_zeros() -> None:
    assert diff._report([], 0, word_file="f.json") == {
        "word_file": "f.json", "words": 0, "agree": 0, "disagreements": [], "disagreeing": 0,
        "package": "contextfs 0.2.35", "steps": 0, "faulty_steps": 0, "words_with_ties": 0,
        "ties": {"type": 0, "prefix": 0}, "abstractions": ZERO_ABSTRACTIONS, "domain": ZERO_DOMAIN,
    }


def test_report_of_words_without_ties_or_abstractions_counts_zeros() -> None:
    report = diff._report([_result(0, ties={}), _result(1, ties={"type": 0, "prefix": 0})], 5)
    assert (report["ties"], report["words_with_ties"]) == ({"type": 0, "prefix": 0}, 0)
    assert report["abstractions"] == ZERO_ABSTRACTIONS and report["domain"] == ZERO_DOMAIN


@pytest.mark.parametrize(("ties", "counted"), [
    ({"type": 1, "prefix": 0}, 1), ({"type": 0, "prefix": 1}, 1), ({"type": 2, "prefix": 5}, 1),
    ({"type": 0, "prefix": 0}, 0), ({"prefix": 4}, 1), ({"type": 4}, 1), ({}, 0),
])
def test_a_word_with_ties_is_one_with_a_type_or_a_prefix_tie(ties: dict[str, int], counted: int) -> None:
    assert diff._report([_result(0, ties=ties)], 1)["words_with_ties"] == counted


def test_report_cap_zero_lists_none_but_counts_all() -> None:
    report = diff._report([_result(0, word=1), _result(1, word=3)], 0)
    assert (report["disagreements"], report["disagreeing"], report["agree"]) == ([], 2, 0)


# =========================================================================== differential: its arguments


class Children:
    """Stands in for :func:`_in_children`: records the shares and the hash seed, answers ``results``."""

    def __init__(self, results: list[dict[str, Any]] | None = None) -> None:
        self.results = results or []
        self.calls: list[tuple[list[dict[str, Any]], int]] = []

    def __call__(self, args: list[dict[str, Any]], hashseed: int) -> list[dict[str, Any]]:
        self.calls.append((args, hashseed))
        return self.results


@pytest.fixture
def children(monkeypatch: pytest.MonkeyPatch) -> Children:
    rec = Children()
    monkeypatch.setattr(diff, "_in_children", rec)
    monkeypatch.setattr(diff, "require", lambda: None)
    return rec


def _many_disagreeing(n: int) -> list[dict[str, Any]]:
    return [_result(i, word=1) for i in range(n)]


def test_differential_defaults(children: Children) -> None:
    children.results = _many_disagreeing(25)
    report = diff.differential(5, 3, 7)
    assert children.calls == [([
        {"seed": 7, "start": 0, "stop": 5, "step": 2, "length": 3, "faults": True},
        {"seed": 7, "start": 1, "stop": 5, "step": 2, "length": 3, "faults": True},
    ], 0)]
    assert {k: report[k] for k in ("length", "seed", "hashseed", "faults", "words", "disagreeing")} == {
        "length": 3, "seed": 7, "hashseed": 0, "faults": True, "words": 25, "disagreeing": 25}
    assert [d["index"] for d in report["disagreements"]] == list(range(20))  # the default cap
    assert "word_file" not in report


def test_differential_hands_on_every_argument(children: Children) -> None:
    report = diff.differential(7, 1, 0, hashseed=9, faults=False, workers=3, cap=0)
    assert children.calls == [([
        {"seed": 0, "start": k, "stop": 7, "step": 3, "length": 1, "faults": False} for k in range(3)
    ], 9)]
    assert report == {"length": 1, "seed": 0, "hashseed": 9, "faults": False,
                      **diff._report([], 0)}


def test_differential_never_has_more_workers_than_words(children: Children) -> None:
    diff.differential(1, 2, 4, workers=4)
    diff.differential(3, 2, 4, workers=0)
    assert children.calls == [
        ([{"seed": 4, "start": 0, "stop": 1, "step": 1, "length": 2, "faults": True}], 0),
        ([{"seed": 4, "start": 0, "stop": 3, "step": 1, "length": 2, "faults": True}], 0),
    ]


def test_differential_of_no_words_starts_no_child(children: Children) -> None:
    report = diff.differential(0, 1, 3, cap=0)
    assert children.calls == [([], 0)]
    assert report == {"length": 1, "seed": 3, "hashseed": 0, "faults": True, **diff._report([], 0)}


def test_differential_of_no_words_really_starts_no_child(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(diff, "require", lambda: None)
    monkeypatch.setattr(diff, "schema_template", lambda: Path("template.db"))

    def no_child(*a: Any, **k: Any) -> str:
        raise AssertionError("a child was started")

    monkeypatch.setattr(diff, "run_with_hashseed", no_child)
    assert diff.differential(0, 2, 8)["words"] == 0


@pytest.mark.parametrize("bad", [
    {"words": -1}, {"length": 0}, {"cap": -1}, {"words": -1, "length": 0, "cap": -1}, {"words": -5, "cap": -2},
])
def test_differential_refuses_bad_bounds_in_one_sentence(children: Children, monkeypatch: pytest.MonkeyPatch,
                                                         bad: dict[str, int]) -> None:
    def unavailable() -> None:
        raise ContextFSUnavailable("not installed")

    monkeypatch.setattr(diff, "require", unavailable)  # the arguments are checked first
    args = {"words": 3, "length": 2, "cap": 1, **bad}
    with pytest.raises(InputError) as e:
        diff.differential(args["words"], args["length"], 1, cap=args["cap"])
    assert str(e.value) == "differential: --words must be ≥ 0, --length ≥ 1 and the cap ≥ 0"
    assert children.calls == []


def test_differential_needs_the_package(children: Children, monkeypatch: pytest.MonkeyPatch) -> None:
    def unavailable() -> None:
        raise ContextFSUnavailable("not installed")

    monkeypatch.setattr(diff, "require", unavailable)
    with pytest.raises(ContextFSUnavailable):
        diff.differential(0, 1, 1)
    assert children.calls == []


# =========================================================================== replay: its arguments


def _word(*ids: str) -> list[WordStep]:
    return [WordStep(Call(Save(Record(f"c{i}")), Allocation((i,), k))) for k, i in enumerate(ids, start=1)]


@pytest.fixture
def word_file(tmp_path: Path) -> Path:
    f = tmp_path / "words.json"
    f.write_text(json.dumps(words_to_json([_word("a1", "a2"), _word("b1", "b2", "b3"), _word("c1")])))
    return f


def test_replay_defaults(children: Children, word_file: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(word_file.parent)
    children.results = _many_disagreeing(25)
    report = diff.replay("words.json")
    whole = str(word_file.resolve())
    assert children.calls == [([{"path": whole, "start": 0, "step": 2}, {"path": whole, "start": 1, "step": 2}], 0)]
    assert {k: report[k] for k in ("word_file", "length", "seed", "hashseed", "faults", "disagreeing")} == {
        "word_file": "words.json", "length": 3, "seed": None, "hashseed": 0, "faults": None, "disagreeing": 25}
    assert [d["index"] for d in report["disagreements"]] == list(range(20))  # the default cap


def test_replay_hands_on_every_argument(children: Children, word_file: Path) -> None:
    report = diff.replay(word_file, hashseed=4, workers=5, cap=0)
    whole = str(word_file.resolve())
    assert children.calls == [([{"path": whole, "start": k, "step": 3} for k in range(3)], 4)]
    assert report == {"word_file": str(word_file), "length": 3, "seed": None, "hashseed": 4, "faults": None,
                      **diff._report([], 0)}


def test_replay_of_one_word_has_one_share(children: Children, tmp_path: Path) -> None:
    f = tmp_path / "one.json"
    f.write_text(json.dumps(words_to_json([_word("a1", "a2")])))
    for workers in (0, 1, 2):
        children.calls.clear()
        report = diff.replay(str(f), workers=workers)
        assert children.calls == [([{"path": str(f.resolve()), "start": 0, "step": 1}], 0)]
        assert report["length"] == 2


def test_replay_refuses_a_negative_cap_first(children: Children, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(diff, "read_word_file", lambda p: pytest.fail("the file was read"))
    with pytest.raises(InputError) as e:
        diff.replay("nowhere.json", cap=-1)
    assert str(e.value) == "differential: the cap must be ≥ 0"


def test_replay_reads_the_file_before_asking_for_the_package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def unavailable() -> None:
        raise ContextFSUnavailable("not installed")

    monkeypatch.setattr(diff, "require", unavailable)
    f = tmp_path / "bad.json"
    f.write_text("[]")
    with pytest.raises(InputError) as e:
        diff.replay(f)
    assert str(e.value) == f"{f}: holds no word to replay (a report whose words all agree lists none)"


def test_replay_needs_the_package(word_file: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def unavailable() -> None:
        raise ContextFSUnavailable("not installed")

    monkeypatch.setattr(diff, "require", unavailable)
    monkeypatch.setattr(diff, "_in_children", lambda *a: pytest.fail("children started"))
    with pytest.raises(ContextFSUnavailable):
        diff.replay(word_file, cap=0)


# =========================================================================== _in_children


def test_in_children_hands_each_share_to_its_own_child_and_merges_by_index(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(diff, "schema_template", lambda: Path("/somewhere/template.db"))
    calls: list[tuple[str, tuple[str, ...], dict[str, Any]]] = []
    answers = {0: [{"index": 0}, {"index": 2}, {"index": 4}], 1: [{"index": 1}, {"index": 3}]}

    def child(code: str, *args: str, **kwargs: Any) -> str:
        calls.append((code, args, kwargs))
        start = json.loads(args[0])["start"]
        return f"some noise\n{json.dumps([{'index': 9}])}\n  {json.dumps(answers[start])}  \n\n"

    monkeypatch.setattr(diff, "run_with_hashseed", child)
    shares = [{"seed": 1, "start": 0, "stop": 5, "step": 2, "length": 3, "faults": True},
              {"seed": 1, "start": 1, "stop": 5, "step": 2, "length": 3, "faults": True}]
    assert diff._in_children(shares, 6) == [{"index": k} for k in range(5)]
    kw = {"hashseed": 6, "what": "the differential run", "env": {"COALG_CONTEXTFS_TEMPLATE": "/somewhere/template.db"}}
    assert sorted(calls, key=lambda c: c[1]) == [(diff._CHILD, (json.dumps(s),), kw) for s in shares]


def test_in_children_of_no_share_is_empty(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(diff, "schema_template", lambda: Path("t.db"))
    assert diff._in_children([], 0) == []


def test_a_failing_child_is_named_in_one_line(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(diff, "schema_template", lambda: tmp_path / "template.db")
    missing = tmp_path / "missing.json"
    with pytest.raises(RuntimeError) as e:
        diff._in_children([{"path": str(missing), "start": 0, "step": 1}], 0)
    assert str(e.value).startswith("the differential run failed: ['coalg.errors.InputError: ")
    assert f"{missing}: cannot read the word file" in str(e.value) and "\n" not in str(e.value)


# =========================================================================== the smaller parts


def test_output_json_of_supersedes_answer() -> None:
    edge = Edge("a0000000-001", Relation.SUPERSEDES, "b0000000-002")
    assert diff._output_json(Returned(None)) == {"out": "edge", "edge": None}
    assert diff._output_json(Returned(edge)) == {"out": "edge", "edge": ["a0000000-001", "supersedes", "b0000000-002"]}
    assert diff._output_json(Flag(True)) == {"out": "flag", "value": True}


def test_store_diff_lists_records_of_one_side_only() -> None:
    a, b = Record("a"), Record("b")
    m, p = diff._store_diff(Store.of({"x": a}), Store.of({"x": a, "y": b}))
    as_json = {"content": "b", "type": "fact", "namespace": "global", "tags": [], "summary": None, "metadata": {},
               "created_at": None, "updated_at": None, "valid_time": None}
    assert m == {"records": {"y": None}, "edges": []}
    assert p == {"records": {"y": as_json}, "edges": []}


def test_run_slice_hands_its_share_to_run_words(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[tuple[Any, ...]] = []
    monkeypatch.setattr(diff, "run_words", lambda *a, **k: seen.append((a, k)) or [{"index": 1}])
    assert diff._run_slice(5, 1, 7, 3, 4, False) == [{"index": 1}]
    assert seen == [((5, range(1, 7, 3), 4, False), {})]


def test_run_words_draws_each_word_from_its_own_seeded_generator(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(diff, "require", lambda: None)
    monkeypatch.setattr(diff, "_random_draw", lambda rng, length, faults: (rng.random(), length, faults))
    monkeypatch.setattr(diff, "_one_word", lambda i, draw: (i, draw))
    first = random.Random("coalg-differential:7:3").random()
    second = random.Random("coalg-differential:7:1").random()
    assert diff.run_words(7, [3, 1], 4, False) == [(3, (first, 4, False)), (1, (second, 4, False))]
    assert diff.run_words(7, [3], 2) == [(3, (first, 2, True))]


def _drawn(seed: str, length: int, faults: bool) -> list[WordStep]:
    """The word :func:`_random_draw` gives, driven on the model alone."""
    draw = diff._random_draw(random.Random(seed), length, faults)
    s, word = Store(), []  # type: tuple[Store, list[WordStep]]
    while (ws := draw(s, len(word) + 1, sorted(s.records), [])) is not None:
        word.append(ws)
        s = CONTEXTFS.step(s, ws.call.letter, ws.call.allocation, faults=ws.call.faults)[1]
        assert len(word) <= length
    return word


def test_random_words_have_one_to_length_steps() -> None:
    assert [len(_drawn(f"one:{k}", 1, True)) for k in range(5)] == [1] * 5
    lengths = {len(_drawn(f"many:{k}", 3, True)) for k in range(40)}
    assert lengths == {1, 2, 3}


def test_random_words_without_faults_have_none() -> None:
    faulty = [sum(bool(ws.call.faults) for ws in _drawn(f"f:{k}", 8, True)) for k in range(30)]
    assert sum(faulty) > 0  # the seeds do draw faults when they are allowed
    assert all(not ws.call.faults for k in range(30) for ws in _drawn(f"f:{k}", 8, False))


@needs_package
def test_run_words_of_length_one_are_one_step_each() -> None:
    results = diff.run_words(3, range(3), 1, faults=False)
    assert [(r["index"], r["steps"], r["agree"], r["faulty_steps"]) for r in results] == [
        (0, 1, True, 0), (1, 1, True, 0), (2, 1, True, 0)]


# =========================================================================== the inputs drawn


def test_a_merge_reads_the_records_it_names_by_equality_or_its_theta_first_match_by_prefix() -> None:
    from coalg.contextfs.random_words import resolved_ids
    from coalg.model import Merge, Theta

    s = Store.of({"ab1": Record("x"), "ab2": Record("y"), "cd3": Record("z")})
    # by equality, a prefix of a record names nothing: it is dropped, as the package drops it
    assert resolved_ids(s, Merge(("ab", "cd3", "zz")), Theta()) == ["cd3"]
    # by prefix, each argument reads the θ-first record LIKE finds: θ decides between ab1 and ab2
    a = Merge(("AB", "c"), by_prefix=True)
    assert resolved_ids(s, a, Theta()) == ["ab1", "cd3"]
    assert resolved_ids(s, a, Theta(descending=True)) == ["ab2", "cd3"]
    assert resolved_ids(s, a, Theta(id_priority=("ab2",))) == ["ab2", "cd3"]


def test_the_prefixes_drawn_cover_every_shape_like_reads_differently() -> None:
    """Prefixes of stored identifiers of every length, short strings, and each change :func:`_odd` makes."""
    from coalg.contextfs.random_words import _PREFIX_ODDITIES, _prefix

    ids = ["ab12cd34ef56", "ab12ffff0000", "f00dfeed0001"]
    rng = random.Random(11)
    drawn = [_prefix(rng, ids) for _ in range(4000)]
    stems = {i[:n] for i in ids for n in (0, 1, 2, 3, 8, 12)}
    plain = {len(p) for p in drawn if p in stems}
    assert {0, 1, 2, 3, 8, 12} <= plain
    assert {"c", "a2", "b1f"} <= set(drawn)  # short strings that may match nothing
    for c in ("é", "É", "%", "_"):  # a stored prefix with one more character LIKE reads its own way
        assert any(len(p) > 1 and p[-1] == c and p[:-1] in stems for p in drawn), c
    assert any(p.upper() == p and p.lower() in stems and p != p.lower() for p in drawn)  # upper case
    # each is a stem or short string with one thing changed: case, one character put in or replaced
    bases = stems | {"c", "a2", "b1f"}

    def one_change(p: str) -> bool:
        return any(p.lower() == b.lower() or any(p in (b[:k] + p[k:k + 1] + b[k + 1:], b[:k] + p[k:k + 1] + b[k:])
                                                 for k in range(len(b) + 1)) for b in bases)

    assert all(one_change(p) or p in _PREFIX_ODDITIES for p in drawn)
    # about four draws in ten are changed (between 3 and 5 here)
    unchanged = sum(p in stems or p in ("c", "a2", "b1f") for p in drawn)
    assert 0.5 < unchanged / len(drawn) < 0.7
    # every plain stem length is drawn, the short ones most often
    lengths = [len(p) for p in drawn if p in stems]
    assert sum(n <= 3 for n in lengths) > 0.6 * len(lengths)

