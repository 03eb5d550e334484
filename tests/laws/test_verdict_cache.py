"""Verdicts shared between processes (coalg.laws.verdict_cache) and the groups of one search.

What the web book's build relies on: with ``COALG_VERDICT_CACHE`` set, a verdict is
computed once and read back by any later process, equal to the computed one; nothing
is shared for hand-built clauses or realisations, nor without the variable; a damaged
file is recomputed; a process that wants a verdict another is computing waits for it
and reads it; and checking the exploration groups separately gives the verdicts of one
``check_many``.  Bounds are kept short (1 or 2) so each test takes about a second.
"""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from coalg.laws import clause as clause_module
from coalg.laws import verdict_cache
from coalg.laws.clause import check, check_many, clear_verdicts, exploration_groups
from coalg.laws.search import RANDOM_RUNS
from coalg.laws.table import CLAUSE_TABLE, get_clause
from coalg.model import CONTEXTFS, REPAIRED

L2 = get_clause("L2")
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def shared_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "verdicts"
    monkeypatch.setenv(verdict_cache.ENV, str(folder))
    clear_verdicts()
    yield folder
    clear_verdicts()


def _no_search(*args: object, **kwargs: object) -> None:
    raise AssertionError("the verdict was computed, not read from the shared folder")


def _entry_files(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*.json"))


def test_a_verdict_is_read_back_equal_instead_of_computed(shared_dir: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    computed = check(L2, CONTEXTFS, max_len=2)
    assert len(_entry_files(shared_dir)) == 1
    clear_verdicts()
    monkeypatch.setattr(clause_module, "search_all", _no_search)
    assert check(L2, CONTEXTFS, max_len=2) == computed


def test_nothing_is_shared_without_the_variable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(verdict_cache.ENV, raising=False)
    clear_verdicts()
    monkeypatch.chdir(tmp_path)
    check(L2, CONTEXTFS, max_len=1)
    clear_verdicts()
    assert list(tmp_path.iterdir()) == []


def test_hand_built_realisations_and_clauses_are_not_shared(shared_dir: Path) -> None:
    look_alike = dataclasses.replace(CONTEXTFS)  # same name, another object
    check(L2, look_alike, max_len=1)
    variant = dataclasses.replace(L2, random_seed=99)
    check(variant, CONTEXTFS, max_len=1)
    assert _entry_files(shared_dir) == []


def test_a_damaged_file_is_recomputed_and_rewritten(shared_dir: Path) -> None:
    computed = check(L2, CONTEXTFS, max_len=1)
    (entry,) = _entry_files(shared_dir)
    for damage in ("{not json", json.dumps({"name": "another entry", "verdict": {}}),
                   json.dumps({"name": json.loads(entry.read_text())["name"], "verdict": {"holds": 1}})):
        entry.write_text(damage)
        clear_verdicts()
        assert check(L2, CONTEXTFS, max_len=1) == computed
        assert json.loads(entry.read_text())["verdict"]["holds"] == computed.holds


def test_a_process_waits_for_the_verdict_another_is_computing(shared_dir: Path) -> None:
    computed = check(L2, CONTEXTFS, max_len=1)
    for f in _entry_files(shared_dir):
        f.unlink()
    clear_verdicts()
    key = clause_module._key(L2, CONTEXTFS, None, 1, RANDOM_RUNS, None)
    name = verdict_cache.entry_name("L2", CONTEXTFS, key[2:])
    child_code = (
        "import json\n"
        "from coalg.laws import clause\n"
        "from coalg.laws.table import get_clause\n"
        "from coalg.model import CONTEXTFS\n"
        "def no_search(*a, **k): raise SystemExit('computed instead of waiting')\n"
        "clause.search_all = no_search\n"
        "v = clause.check(get_clause('L2'), CONTEXTFS, max_len=1)\n"
        "print(json.dumps([v.holds, v.explored]))\n"
    )
    env = {**os.environ, verdict_cache.ENV: str(shared_dir), "PYTHONPATH": str(ROOT)}
    with verdict_cache.shared(CONTEXTFS, [name], own_clauses=True) as disk:
        child = subprocess.Popen([sys.executable, "-c", child_code], env=env, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True)
        time.sleep(1.5)
        assert child.poll() is None, f"the other process did not wait for the lock: {child.communicate()}"
        disk.save(name, computed)
    out, err = child.communicate(timeout=60)
    assert child.returncode == 0, err
    assert json.loads(out) == [computed.holds, computed.explored]


@pytest.mark.parametrize("realisation", [CONTEXTFS, REPAIRED], ids=lambda r: r.name)
def test_checking_the_groups_separately_gives_the_same_verdicts(realisation: object) -> None:
    groups = exploration_groups(CLAUSE_TABLE, realisation, max_len=2)
    assert sorted(c.key for g in groups for c in g) == sorted(c.key for c in CLAUSE_TABLE)
    assert len(groups) > 1
    clear_verdicts()
    together = dict(zip((c.key for c in CLAUSE_TABLE), check_many(CLAUSE_TABLE, realisation, max_len=2)))
    separately = {}
    for group in groups:
        clear_verdicts()
        separately.update(zip((c.key for c in group), check_many(group, realisation, max_len=2)))
    clear_verdicts()
    assert separately == together
