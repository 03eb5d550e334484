"""``python -m coalg audit``: exit codes, JSON shape, help text, progress bar, never a traceback."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from coalg.cli import main
from coalg.contextfs import SCHEMA, make_demo_database

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "data" / "sample-contextfs.db"


def coalg(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "coalg", *args], capture_output=True, text=True, cwd=ROOT,
                          env={**os.environ, **(env or {})}, timeout=120, check=False)


def test_sample_json_report_and_exit_1() -> None:
    p = coalg("audit", str(SAMPLE), "--json")
    assert p.returncode == 1, p.stderr
    d = json.loads(p.stdout)
    assert list(d)[:5] == ["database", "view", "records", "edges", "findings"]
    assert d["view"] == "contextfs" and d["records"] == 17 and d["edges"] == 21
    assert all({"law", "records", "detail"} <= set(f) for f in d["findings"])
    assert {f["law"] for f in d["findings"]} == {"L2", "L3", "L4ii", "L7", "5.2", "6.3"}
    assert p.stderr == ""  # no progress bar when stderr is not a terminal


def test_json_is_identical_under_two_hash_seeds() -> None:
    a = coalg("audit", str(SAMPLE), "--json", env={"PYTHONHASHSEED": "0"}).stdout
    b = coalg("audit", str(SAMPLE), "--json", env={"PYTHONHASHSEED": "987"}).stdout
    assert a == b and a


def test_human_report_names_the_view_and_the_findings() -> None:
    p = coalg("audit", str(SAMPLE), "--view", "model")
    assert p.returncode == 1
    assert "view 'model'" in p.stdout and "deleted_at IS NULL" in p.stdout
    assert "L4ii  merged record" in p.stdout and "coalg audit --help" in p.stdout


def test_clean_database_exits_0(tmp_path: Path) -> None:
    path = tmp_path / "clean.db"
    conn = sqlite3.connect(path)
    conn.executescript(SCHEMA)
    conn.execute("INSERT INTO alembic_version VALUES ('009')")
    conn.execute("INSERT INTO memories (id, content, type, namespace_id, created_at, updated_at, metadata) "
                 "VALUES ('a', 'x', 'fact', 'n', 't', 't', '{}')")
    conn.commit()
    conn.close()
    p = coalg("audit", str(path))
    assert p.returncode == 0 and "no findings" in p.stdout
    assert json.loads(coalg("audit", str(path), "--json").stdout)["findings"] == []


@pytest.mark.parametrize("kind", ["text", "missing", "directory", "other-sqlite", "newer"])
def test_unusable_input_exits_2_without_traceback(tmp_path: Path, kind: str) -> None:
    path = tmp_path / f"{kind}.db"
    if kind == "text":
        path.write_text("not a database")
    elif kind == "directory":
        path.mkdir()
    elif kind == "other-sqlite":
        conn = sqlite3.connect(path)
        conn.execute("CREATE TABLE t (x)")
        conn.close()
    elif kind == "newer":
        make_demo_database(path)
        conn = sqlite3.connect(path)
        conn.execute("UPDATE alembic_version SET version_num = '010'")
        conn.commit()
        conn.close()
    p = coalg("audit", str(path), "--json")
    assert p.returncode == 2
    assert "Traceback" not in p.stdout + p.stderr
    assert p.stdout == "" and p.stderr.startswith("coalg audit: error: ") and p.stderr.count("\n") == 1


def test_help_teaches_each_finding() -> None:
    p = coalg("audit", "--help")
    assert p.returncode == 0
    for word in ("L2", "L3", "L4ii", "L7", "5.2", "6.3", "READ-ONLY", "--view", "exit status", "soft-deleted"):
        assert word in p.stdout, word


def test_progress_bar_on_request(tmp_path: Path) -> None:
    p = coalg("audit", str(SAMPLE), "--progress")
    assert "audit: reading records" in p.stderr and "18/18" in p.stderr  # every row, soft-deleted ones too and "checking" in p.stderr


def test_default_path_is_the_sample(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["audit", "--json"]) == 1
    out, err = capsys.readouterr()
    assert json.loads(out)["records"] == 17 and "sample database" in err


def test_in_process_errors_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["audit", str(tmp_path / "nope.db")]) == 2
    _, err = capsys.readouterr()
    assert err == f"coalg audit: error: {tmp_path / 'nope.db'}: no such file\n"
