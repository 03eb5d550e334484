"""Word files (``coalg differential --word-file``): each shape they may take is read, and bad input gets one exact line.

The reader is pure JSON handling: nothing here needs the released package.
"""

from __future__ import annotations

import json
import locale
import sys
from pathlib import Path
from typing import Any

import pytest

from coalg.contextfs import word_files
from coalg.contextfs.random_words import WordStep
from coalg.contextfs.word_files import read_word_file, step_from_json, words_from_json
from coalg.errors import InputError
from coalg.model import Allocation, Call, Evolve, JsonInputError, Record, Save, call_to_json

SAVE = Call(Save(Record("x")), Allocation(("a0000000-001",), 1))
EVOLVE = Call(Evolve("a0000000-001", "y"), Allocation(("b0000000-002",), 2))
STEP, NEXT = call_to_json(SAVE), call_to_json(EVOLVE)
WORD = [WordStep(SAVE, False), WordStep(EVOLVE, False)]

SHAPES = ("expected a differential report, a list of disagreements, a disagreement or a list of words")
NO_CALLS = "a disagreement needs its \"calls\" (the steps to replay)"
EMPTY_WORD = "expected a non-empty list of steps"


def said(doc: Any, source: str = "w.json") -> str:
    """The one line ``words_from_json`` refuses ``doc`` with."""
    with pytest.raises(JsonInputError) as e:
        words_from_json(doc, source)
    return str(e.value)


# --------------------------------------------------------------------------- the shapes read


def test_every_shape_of_word_file_gives_the_same_word() -> None:
    """A report, a list of disagreements, one disagreement and a list of words all give their words back."""
    report = {"words": 1, "disagreements": [{"word": ["..."], "calls": [STEP, NEXT]}]}
    assert words_from_json(report, "w.json") == [WORD]
    assert words_from_json([{"calls": [STEP, NEXT]}, {"calls": [STEP]}], "w.json") == [WORD, WORD[:1]]
    assert words_from_json({"step": 2, "calls": [STEP, NEXT]}, "w.json") == [WORD]
    assert words_from_json([[STEP, NEXT], [NEXT]], "w.json") == [WORD, [WordStep(EVOLVE, False)]]


# --------------------------------------------------------------------------- the shape is wrong


@pytest.mark.parametrize("doc", [5, None, "calls", [1], ["disagreements"], [{"word": []}], [[STEP], 7]])
def test_a_document_of_no_known_shape_is_refused_in_one_line(doc: Any) -> None:
    """A number, null, a string, or a list of neither words nor disagreements: the shapes read are named."""
    assert said(doc) == f"w.json: {SHAPES}"


def test_disagreements_that_are_not_a_list_are_refused() -> None:
    """A report whose "disagreements" is not a list names that field."""
    assert said({"disagreements": {"calls": [STEP]}}) == "w.json: disagreements: expected a list"


@pytest.mark.parametrize("item", [None, ["calls"], "calls", 3])
def test_a_reported_disagreement_that_is_not_an_object_lacks_its_calls(item: Any) -> None:
    """An entry of "disagreements" that is not an object is read as an object without "calls"."""
    doc = {"disagreements": [{"calls": [STEP]}, item]}
    assert said(doc) == f"w.json: disagreements[1]: {NO_CALLS}"


def test_a_lone_disagreement_without_calls_is_refused() -> None:
    """One disagreement object without "calls" is named ``disagreement``."""
    assert said({"word": ["save x"]}) == f"w.json: disagreement: {NO_CALLS}"


@pytest.mark.parametrize(("doc", "where"), [
    ({"calls": []}, "disagreement.calls"),
    ({"calls": {"letter": STEP["letter"]}}, "disagreement.calls"),
    ({"calls": "save"}, "disagreement.calls"),
    ({"disagreements": [{"calls": [STEP]}, {"calls": []}]}, "disagreements[1].calls"),
    ([{"calls": [STEP]}, {"calls": []}], "[1].calls"),
    ([{"calls": 0}], "[0].calls"),
    ([[STEP], []], "[1]"),
])
def test_a_word_must_be_a_non_empty_list(doc: Any, where: str) -> None:
    """The steps of a word are a non-empty list; the error gives the JSON path of the word."""
    assert said(doc) == f"w.json: {where}: {EMPTY_WORD}"


def test_a_list_whose_entries_hold_calls_but_are_not_objects_is_a_list_of_words() -> None:
    """``[["calls"]]`` is a word of one step, the string "calls", which is not a call."""
    assert said([["calls"]]) == "w.json: [0][0]: expected an object"


def test_a_bad_step_is_located_inside_its_disagreement() -> None:
    """The path of a bad step starts with the disagreement that holds it."""
    bad = {**NEXT, "explicit_id": True}
    assert said([{"calls": [STEP]}, {"calls": [STEP, bad]}]) == \
        "w.json: [1].calls[1]: explicit_id needs a save with one allocated identifier"
    assert said({"calls": [STEP, {"letter": {"op": "fly"}}]}).startswith(
        "w.json: disagreement.calls[1].letter.op: unknown operation 'fly'; known: save, ")


def test_without_a_source_the_errors_say_string() -> None:
    """Called without a source, the errors name ``<string>`` and a lone step is named ``step``."""
    with pytest.raises(JsonInputError) as e:
        words_from_json([])
    assert str(e.value) == "<string>: holds no word to replay (a report whose words all agree lists none)"
    with pytest.raises(JsonInputError) as e:
        step_from_json({**STEP, "explicit_id": 1})
    assert str(e.value) == "<string>: step.explicit_id: expected true or false"
    with pytest.raises(JsonInputError) as e:
        step_from_json({"letter": {"op": "fly"}})
    assert str(e.value).startswith("<string>: step.letter.op: unknown operation 'fly'")


# --------------------------------------------------------------------------- files


def test_a_word_file_is_read(tmp_path: Path) -> None:
    """A file holding a list of words is read back as those words."""
    f = tmp_path / "w.json"
    f.write_text(json.dumps([[STEP, NEXT]]), encoding="utf-8")
    assert read_word_file(f) == [WORD]


def test_a_word_file_error_names_the_file(tmp_path: Path) -> None:
    """Errors in the words of a file name the file as their source."""
    f = tmp_path / "w.json"
    f.write_text(json.dumps({"disagreements": [{"calls": []}]}), encoding="utf-8")
    with pytest.raises(JsonInputError) as e:
        read_word_file(f)
    assert str(e.value) == f"{f}: disagreements[0].calls: {EMPTY_WORD}"


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_non_numbers_are_not_json(tmp_path: Path, constant: str) -> None:
    """NaN and the infinities, which Python's json would accept, are refused as not JSON."""
    f = tmp_path / "w.json"
    f.write_text(f'[[{{"letter": {{"op": "recall", "id": {constant}}}}}]]', encoding="utf-8")
    with pytest.raises(InputError) as e:
        read_word_file(f)
    assert str(e.value) == f"{f}: not JSON ({constant} is not a JSON number)"


def test_a_file_at_the_size_limit_is_read_and_one_byte_more_is_refused(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """The size limit is inclusive: a file of exactly the limit is read, a longer one refused unread."""
    f = tmp_path / "w.json"
    f.write_text(json.dumps([[STEP]]), encoding="utf-8")
    size = f.stat().st_size
    monkeypatch.setattr(word_files, "MAX_WORD_FILE_BYTES", size)
    assert read_word_file(f) == [WORD[:1]]
    monkeypatch.setattr(word_files, "MAX_WORD_FILE_BYTES", size - 1)
    with pytest.raises(InputError) as e:
        read_word_file(f)
    assert str(e.value) == f"{f}: a word file may hold at most {size - 1} bytes"


def test_a_word_file_over_64_mib_is_refused_without_reading_it(tmp_path: Path) -> None:
    """The limit is 64 MiB (67108864 bytes); a larger (here sparse) file is refused by its size alone."""
    f = tmp_path / "big.json"
    with open(f, "wb") as out:
        out.truncate(64 * 1024 * 1024 + 1)
    with pytest.raises(InputError) as e:
        read_word_file(f)
    assert str(e.value) == f"{f}: a word file may hold at most 67108864 bytes"


def test_a_word_file_is_utf8_whatever_the_locale(tmp_path: Path) -> None:
    """Non-ASCII text in a word file is read as UTF-8 even where the locale's encoding is ASCII."""
    if sys.flags.utf8_mode:
        pytest.skip("in UTF-8 mode every file is read as UTF-8 anyway")
    save = Call(Save(Record("café")), Allocation(("a0000000-001",), 1))
    f = tmp_path / "w.json"
    f.write_bytes(json.dumps([[call_to_json(save)]], ensure_ascii=False).encode("utf-8"))
    old = locale.setlocale(locale.LC_CTYPE)
    locale.setlocale(locale.LC_CTYPE, "C")
    try:
        assert read_word_file(f) == [[WordStep(save, False)]]
    finally:
        locale.setlocale(locale.LC_CTYPE, old)


def test_a_word_file_that_is_not_utf8_is_refused(tmp_path: Path) -> None:
    """Bytes that are not UTF-8 give one line naming the file."""
    f = tmp_path / "w.json"
    f.write_bytes(b'[["caf\xe9"]]')
    with pytest.raises(InputError) as e:
        read_word_file(f)
    assert str(e.value) == f"{f}: the word file is not UTF-8 text"


def test_a_missing_word_file_is_one_line(tmp_path: Path) -> None:
    """A file that is not there: the system's reason, without the errno and path Python adds."""
    f = tmp_path / "absent.json"
    with pytest.raises(InputError) as e:
        read_word_file(f)
    assert str(e.value) == f"{f}: cannot read the word file (No such file or directory)"


def test_a_step_reads_as_its_call_then_what_it_allocates_and_which_edge_writes_fail() -> None:
    # the lines a differential report prints for a word, one per step
    failing = EVOLVE.with_faults(1, 0)
    assert str(WordStep(failing)) == f"{EVOLVE.letter} -> b0000000-002 [edge write 0, 1 fails]"
    two = Call(Evolve("a0000000-001", "y"), Allocation(("b0000000-002", "c0000000-003"), 2))
    assert str(WordStep(two)) == f"{two.letter} -> b0000000-002, c0000000-003"
    assert str(WordStep(SAVE, True)) == f"{SAVE.letter} under id a0000000-001"
