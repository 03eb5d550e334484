"""Words of the differential run as JSON, and word files to replay (``coalg differential --word-file``).

A step of a word is a call in the JSON of :mod:`coalg.model.jsonletters`
(``{"letter", "allocation", "faults"}``) plus ``"explicit_id": true`` when a
save names its identifier itself.  A disagreement of the differential report
carries its word twice: ``"word"``, one line per step for people, and
``"calls"``, these objects, for the machine.  A *word file* is any of

* a report of ``coalg differential --json`` (its ``"disagreements"`` are replayed),
* a list of such disagreements, or one of them,
* a list of words, each a list of steps,

so a disagreement found once can be run again on both sides, as it is or edited.

>>> from coalg.model import Allocation, Call, Record, Save
>>> ws = WordStep(Call(Save(Record("x")), Allocation(("a0000000-001",), 1)), explicit_id=True)
>>> step_from_json(step_to_json(ws)) == ws
True
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from typing import Any

from ..errors import InputError
from ..model import JsonInputError, call_from_json, call_to_json
from ..model.jsoncheck import NotAJsonNumber, refuse_constant
from .random_words import WordStep

__all__ = ["read_word_file", "step_from_json", "step_to_json", "words_from_json", "words_to_json"]

MAX_WORD_FILE_BYTES = 64 * 1024 * 1024


def step_to_json(ws: WordStep) -> dict[str, Any]:
    """A step of a word as JSON: its call, and ``explicit_id`` when set."""
    d = call_to_json(ws.call)
    if ws.explicit_id:
        d["explicit_id"] = True
    return d


def step_from_json(obj: Any, where: str = "step", source: str = "<string>") -> WordStep:
    """A step of a word from JSON, every field checked (:class:`~coalg.model.JsonInputError`)."""
    explicit = False
    if isinstance(obj, dict) and "explicit_id" in obj:
        obj = dict(obj)
        explicit = obj.pop("explicit_id")
        if not isinstance(explicit, bool):
            raise JsonInputError("expected true or false", source=source, field=f"{where}.explicit_id")
    ws = WordStep(call_from_json(obj, where, source), explicit)
    if explicit and (ws.call.letter.kind != "save" or len(ws.call.allocation.ids) != 1):
        raise JsonInputError("explicit_id needs a save with one allocated identifier", source=source,
                             field=where)
    return ws


def _word(obj: Any, where: str, source: str) -> list[WordStep]:
    if not isinstance(obj, list) or not obj:
        raise JsonInputError("expected a non-empty list of steps", source=source, field=where)
    return [step_from_json(x, f"{where}[{k}]", source) for k, x in enumerate(obj)]


def _disagreement(obj: dict[str, Any], where: str, source: str) -> list[WordStep]:
    if "calls" not in obj:
        raise JsonInputError("a disagreement needs its \"calls\" (the steps to replay)", source=source,
                             field=where)
    return _word(obj["calls"], f"{where}.calls", source)


def words_from_json(doc: Any, source: str = "<string>") -> list[list[WordStep]]:
    """The words of a word file's JSON (see the module docstring for the shapes read); at least one."""
    words = _words(doc, source)
    if not words:
        raise JsonInputError("holds no word to replay (a report whose words all agree lists none)",
                             source=source)
    return words


def _words(doc: Any, source: str) -> list[list[WordStep]]:
    if isinstance(doc, dict) and "disagreements" in doc:
        items = doc["disagreements"]
        if not isinstance(items, list):
            raise JsonInputError("expected a list", source=source, field="disagreements")
        return [_disagreement(d if isinstance(d, dict) else {}, f"disagreements[{k}]", source)
                for k, d in enumerate(items)]
    if isinstance(doc, dict):
        return [_disagreement(doc, "disagreement", source)]
    if isinstance(doc, list) and all(isinstance(x, dict) and "calls" in x for x in doc) and doc:
        return [_disagreement(d, f"[{k}]", source) for k, d in enumerate(doc)]
    if isinstance(doc, list) and all(isinstance(x, list) for x in doc):
        return [_word(w, f"[{k}]", source) for k, w in enumerate(doc)]
    raise JsonInputError("expected a differential report, a list of disagreements, a disagreement or a list "
                         "of words", source=source)


def read_word_file(path: str | os.PathLike[str]) -> list[list[WordStep]]:
    """The words of the file at ``path``; one clear :class:`~coalg.errors.InputError` if it cannot be read."""
    try:
        if os.path.getsize(path) > MAX_WORD_FILE_BYTES:
            raise InputError(f"{path}: a word file may hold at most {MAX_WORD_FILE_BYTES} bytes")
        with open(path, encoding="utf-8") as f:
            doc = json.load(f, parse_constant=refuse_constant)
    except OSError as e:
        raise InputError(f"{path}: cannot read the word file ({e.strerror or e})") from None
    except UnicodeDecodeError:
        raise InputError(f"{path}: the word file is not UTF-8 text") from None
    except (json.JSONDecodeError, RecursionError) as e:
        raise InputError(f"{path}: not JSON ({e})") from None
    except NotAJsonNumber as e:
        raise InputError(f"{path}: not JSON ({e})") from None
    return words_from_json(doc, str(path))


def words_to_json(words: Sequence[Sequence[WordStep]]) -> list[list[dict[str, Any]]]:
    """Words as a list of lists of steps (the last shape :func:`words_from_json` reads)."""
    return [[step_to_json(ws) for ws in w] for w in words]
