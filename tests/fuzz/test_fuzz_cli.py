"""Fuzzing the command line over mutated files: every run ends with exit 0 or 1 and an answer on
stdout, or exit 2 and exactly one line on stderr -- never a traceback, within the time limit."""

from __future__ import annotations

import contextlib
import io

import pytest
from hypothesis import given
from hypothesis import strategies as st
from mutate import fuzz, mutants, within
from test_fuzz_audit import SEEDS as DB_SEEDS
from test_fuzz_aut import SEEDS as AUT_SEEDS
from test_fuzz_aut import TOKENS as AUT_TOKENS

from coalg.cli import main


def run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with within(), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as e:  # argparse's own exits (usage errors)
            code = int(e.code or 0)
    return code, out.getvalue(), err.getvalue()


def check(argv: list[str], answers: set[int]) -> None:
    code, out, err = run(argv)
    if code == 2:
        lines = err.splitlines()
        assert len(lines) == 1 and lines[0].startswith(f"coalg {argv[0]}: error: ") and out == "", err
    else:
        assert code in answers and out.strip() and err == "", (code, err)


@fuzz(150)
@given(mutants(AUT_SEEDS, AUT_TOKENS), mutants(AUT_SEEDS, AUT_TOKENS), st.sampled_from([[], ["--json"],
       ["--payload-prefix", "rec:"], ["--max-size", "3"]]))
def test_bisim_on_mutated_files(tmp_path_factory: pytest.TempPathFactory, a: bytes, b: bytes,
                                extra: list[str]) -> None:
    d = tmp_path_factory.mktemp("cli")
    (d / "a.aut").write_bytes(a)
    (d / "b.aut").write_bytes(b)
    check(["bisim", str(d / "a.aut"), *extra], {0})
    check(["bisim", str(d / "a.aut"), str(d / "b.aut"), *extra], {0})


@fuzz(60)
@given(mutants(DB_SEEDS, [b"\x00" * 8, b"\xff" * 8]), st.sampled_from([[], ["--json"], ["--view", "model"],
       ["--limit", "0"]]))
def test_audit_on_mutated_files(tmp_path_factory: pytest.TempPathFactory, data: bytes, extra: list[str]) -> None:
    path = tmp_path_factory.mktemp("cli") / "m.db"
    path.write_bytes(data)
    check(["audit", str(path), *extra], {0, 1})


@fuzz(60)
@given(st.lists(st.sampled_from(["bisim", "audit", "laws", "witness", "--limit", "-1", "--max-size", "x",
                                 "--json", "--bogus", "", "-", "--view", "nope", "9" * 30, "--help"]),
                min_size=1, max_size=4))
def test_usage_errors_are_one_line(argv: list[str]) -> None:
    if "--help" in argv or argv[0] not in {"bisim", "audit"} or len(argv) == 1:
        return  # help prints pages; laws/witness and the default audit run whole computations
    code, _, err = run(argv)
    assert code in (0, 1, 2)
    if code == 2:
        assert len(err.splitlines()) == 1 and err.startswith("coalg"), err
