"""The comparison of two .aut LTSs as a library call (coalg.bisim.compare): what `coalg bisim` prints."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from coalg.bisim import AutLTS, AutWitness, compare_auts, count_classes, read_aut
from coalg.cli import main

# a.(b + c) against a.b + a.c, and a renaming of the first
ABC = 'des (0,4,4)\n(0,"a",1)\n(1,"b",2)\n(1,"c",3)\n(3,"a",0)\n'
ABC_PERM = 'des (2,4,4)\n(3,"a",2)\n(0,"c",3)\n(2,"a",0)\n(0,"b",1)\n'
AB_AC = "des (0,4,5)\n(0,a,1)\n(0,a,2)\n(1,b,3)\n(2,c,4)\n"


def aut(text: str, **kw: str) -> AutLTS:
    return read_aut(io.StringIO(text), **kw)  # type: ignore[arg-type]


def test_bisimilar_files_have_no_witness() -> None:
    verdict = compare_auts(aut(ABC), aut(ABC_PERM))
    assert verdict.bisimilar and verdict.witness is None


def test_witness_is_in_the_files_own_terms() -> None:
    w = compare_auts(aut(ABC), aut(AB_AC)).witness
    assert isinstance(w, AutWitness)
    assert w.path == ("a",) and w.depth == 2
    assert (w.left_state, w.right_state) == (1, 1)  # each numbered in its own file
    assert w.formula in ("[a]<b>true", "[a]<c>true")
    assert w.reason.endswith("possible on the left only")
    back = compare_auts(aut(AB_AC), aut(ABC)).witness
    assert back is not None and back.depth == 2 and back.formula.startswith("<a>")


def test_payloads_are_compared_by_name() -> None:
    left = aut('des (0,2,2)\n(0,"go",1)\n(1,"rec:x",1)\n', payload_prefix="rec:")
    right = aut('des (0,2,2)\n(0,"go",1)\n(1,"rec:y",1)\n', payload_prefix="rec:")
    w = compare_auts(left, right).witness
    assert w is not None and w.reason == "observation differs: x vs y" and w.formula == "<go>obs(x)"
    assert compare_auts(left, left).bisimilar


def test_count_classes() -> None:
    assert count_classes(aut(AB_AC)) == 4  # {0}, {1}, {2}, {3, 4}
    assert count_classes(aut(ABC)) == 4


def test_formula_cap_is_an_error() -> None:
    with pytest.raises(ValueError, match="max_formula_chars"):
        compare_auts(aut(ABC), aut(AB_AC), max_formula_chars=3)


def test_the_command_prints_what_the_library_returns(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for name, text in (("l", ABC), ("r", AB_AC)):
        (tmp_path / f"{name}.aut").write_text(text)
    assert main(["bisim", str(tmp_path / "l.aut"), str(tmp_path / "r.aut"), "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    w = compare_auts(aut(ABC), aut(AB_AC)).witness
    assert w is not None and printed["witness"] == w.to_json() and printed["bisimilar"] is False
