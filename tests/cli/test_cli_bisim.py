"""`python -m coalg bisim` end to end: JSON shape, sentences, exit codes, no tracebacks."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from coalg.cli import main

ROOT = Path(__file__).resolve().parents[2]

A = 'des (0,4,4)\n(0,"a",1)\n(1,"b",2)\n(1,"c",3)\n(3,"a",0)\n'
# same behaviour, states renamed and transitions reordered
A_PERM = 'des (2,4,4)\n(3,"a",2)\n(0,"c",3)\n(2,"a",0)\n(0,"b",1)\n'
# a.b + a.c (a.(b + c) differs from it)
B = "des (0,4,5)\n(0,a,1)\n(0,a,2)\n(1,b,3)\n(2,c,4)\n"


def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    e = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "coalg", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=e,
        timeout=120,
        check=False,
    )


@pytest.fixture()
def files(tmp_path: Path) -> dict[str, Path]:
    out = {}
    for name, text in (("a", A), ("a_perm", A_PERM), ("b", B)):
        p = tmp_path / f"{name}.aut"
        p.write_text(text)
        out[name] = p
    return out


def test_one_file_json(files: dict[str, Path]) -> None:
    r = run("bisim", str(files["b"]), "--json")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert list(d) == ["states", "transitions", "classes", "seconds"]
    assert (d["states"], d["transitions"], d["classes"]) == (5, 4, 4)  # {0}, {1}, {2}, {3, 4}
    assert set(d["seconds"]) >= {"total"}


def test_one_file_sentence(files: dict[str, Path]) -> None:
    r = run("bisim", str(files["a"]))
    assert r.returncode == 0
    assert "4 states, 4 transitions, 4 strong-bisimilarity classes" in r.stdout


def test_two_files_bisimilar(files: dict[str, Path]) -> None:
    r = run("bisim", str(files["a"]), str(files["a_perm"]), "--json")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert d["bisimilar"] is True and d["witness"] is None
    assert d["states"] == [4, 4] and d["transitions"] == [4, 4]
    r = run("bisim", str(files["a"]), str(files["a_perm"]))
    assert "are bisimilar" in r.stdout


def test_two_files_witness_uses_label_names(files: dict[str, Path]) -> None:
    r = run("bisim", str(files["a"]), str(files["b"]), "--json")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert d["bisimilar"] is False
    w = d["witness"]
    assert set(w) == {"path", "left_state", "right_state", "reason", "formula", "depth"}
    assert w["depth"] == 2 and w["path"] == ["a"]
    assert w["formula"] in ("[a]<b>true", "[a]<c>true")
    assert w["left_state"] == 1 and w["right_state"] in (1, 2)
    assert "possible on the left only" in w["reason"]
    human = run("bisim", str(files["a"]), str(files["b"])).stdout
    assert "NOT bisimilar" in human and w["formula"] in human


def test_output_is_deterministic(files: dict[str, Path]) -> None:
    outs = set()
    for seed in ("0", "1", "12345"):
        r = run("bisim", str(files["a"]), str(files["b"]), "--json", env={"PYTHONHASHSEED": seed})
        d = json.loads(r.stdout)
        del d["seconds"]
        outs.add(json.dumps(d))
    assert len(outs) == 1


def test_payload_prefix_option(tmp_path: Path) -> None:
    p = tmp_path / "p.aut"
    p.write_text('des (0,4,3)\n(0,"rec:x",0)\n(1,"rec:y",1)\n(0,a,2)\n(1,a,2)\n')
    q = tmp_path / "q.aut"
    q.write_text('des (0,2,2)\n(0,"rec:y",0)\n(0,a,1)\n')
    d = json.loads(run("bisim", str(p), "--json", "--payload-prefix", "rec:").stdout)
    assert (d["transitions"], d["classes"]) == (2, 3)
    d = json.loads(run("bisim", str(p), str(q), "--json", "--payload-prefix", "rec:").stdout)
    assert d["bisimilar"] is False
    assert (
        d["witness"]["reason"] == "observation differs: x vs y"
        and d["witness"]["formula"] == "obs(x)"
    )


@pytest.mark.parametrize(
    "make, fragment",
    [
        (lambda d: d / "missing.aut", "missing.aut: no such file"),
        (lambda d: d, "is a directory, not a regular file"),
        (
            lambda d: (d / "bad.aut").write_text("garbage\n") and d / "bad.aut",
            "line 1: expected header",
        ),
        (
            lambda d: (d / "bin.aut").write_bytes(b"des (0,1,2)\n(0,\xff,1)\n") and d / "bin.aut",
            "not UTF-8",
        ),
        (lambda d: (d / "e.aut").write_text("") or d / "e.aut", "empty file"),
        (
            lambda d: (d / "r.aut").write_text("des (0,1,2)\n(0,a,7)\n") and d / "r.aut",
            "out of range",
        ),
    ],
)
def test_bad_input_exit_2_one_line(tmp_path: Path, make: object, fragment: str) -> None:
    path = make(tmp_path)  # type: ignore[operator]
    r = run("bisim", str(path))
    assert r.returncode == 2
    assert "Traceback" not in r.stdout + r.stderr
    lines = r.stderr.strip().splitlines()
    assert (
        len(lines) == 1 and lines[0].startswith("coalg bisim: error: ") and fragment in lines[0]
    ), r.stderr


def test_bad_second_file_and_usage(files: dict[str, Path], tmp_path: Path) -> None:
    r = run("bisim", str(files["a"]), str(tmp_path / "nope.aut"))
    assert r.returncode == 2 and "nope.aut" in r.stderr and "Traceback" not in r.stderr
    r = run("bisim", str(files["a"]), str(files["a"]), str(files["a"]))
    assert r.returncode == 2 and "one or two files" in r.stderr
    r = run("bisim")
    assert r.returncode == 2 and "Traceback" not in r.stderr
    r = run("bisim", str(files["a"]), "--max-size", "2")
    assert r.returncode == 2 and "cap" in r.stderr


@pytest.mark.skipif(os.geteuid() == 0, reason="root can read any file")
def test_permission_denied(files: dict[str, Path]) -> None:  # pragma: no cover - not as root
    files["a"].chmod(0)
    r = run("bisim", str(files["a"]))
    assert r.returncode == 2 and "Permission denied" in r.stderr


def test_help_teaches() -> None:
    r = run("bisim", "--help")
    assert r.returncode == 0
    text = r.stdout
    assert "bisimilar when" in text and "des (INITIAL, N_TRANSITIONS, N_STATES)" in text
    assert "examples:" in text and "--json" in text
    top = run("--help").stdout
    assert "bisim" in top and "examples:" in top


def test_main_in_process(files: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bisim", str(files["a"]), str(files["a_perm"]), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["bisimilar"] is True
    assert main(["bisim", str(files["a"].parent / "missing.aut")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("coalg bisim: error: ") and err.endswith("missing.aut: no such file\n")
