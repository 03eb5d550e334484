"""The book build's law tables (tools/sphinxext/law_tables.py), without a build.

What the build relies on: a table written by :func:`law_tables.write` and read by
:func:`law_tables.load` gives every chapter's kernel exactly the verdicts the
library computes, so a chapter searches nothing; and what a kernel reads cannot
lie or hurt it: a file or folder another user could write, a symbolic link, a
FIFO, a malformed or foreign entry is ignored as a whole (nothing remembered, the
chapter computes its own verdicts), and writing never goes through a link.  The
exploration groups the build checks in separate processes give the verdicts of
one ``check_many``.
"""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from coalg.laws import clause as clause_module
from coalg.laws.clause import check_many, clear_verdicts, exploration_groups, query
from coalg.laws.table import CLAUSE_TABLE, CLAUSES, get_clause, law_table
from coalg.model import CONTEXTFS, REPAIRED

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools" / "sphinxext"))
import law_tables


@pytest.fixture(scope="module")
def computed() -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The ContextFS law table as the build's workers compute it (one group at a time), and as
    :func:`law_table` lays out the verdicts those searches left in this process."""
    clear_verdicts()
    found: list[dict[str, Any]] = []
    for group in exploration_groups(CLAUSE_TABLE, CONTEXTFS):
        found += law_tables.compute("contextfs", [c.key for c in group])
    return sorted(found, key=lambda e: CLAUSES.index(e["clause"])), law_table(CONTEXTFS)


@pytest.fixture
def entries(computed: tuple[list[dict[str, Any]], dict[str, Any]]) -> list[dict[str, Any]]:
    return computed[0]


@pytest.fixture
def folder(tmp_path: Path) -> Iterator[Path]:
    made = law_tables.private_folder(tmp_path / "law-tables")
    assert made is not None
    clear_verdicts()
    yield made
    clear_verdicts()


def _written(folder: Path, entries: list[dict[str, Any]]) -> Path:
    return law_tables.write(folder, "contextfs", law_tables.table_json("contextfs", entries,
                                                                       law_tables.code_digest()))


def _all_known(queries: list[Any]) -> None:
    missing = [q.clause.key for q in queries if q not in clause_module._VERDICTS]
    assert not missing, f"computed, not taken from the table: {missing}"


def _remembered() -> int:
    return sum(q.realisation is CONTEXTFS for q in clause_module._VERDICTS)


def test_every_clause_is_in_the_table(entries: list[dict[str, Any]]) -> None:
    assert [e["clause"] for e in entries] == list(CLAUSES)


def test_a_loaded_table_gives_the_computed_verdicts_without_a_search(
        folder: Path, computed: tuple[list[dict[str, Any]], dict[str, Any]],
        monkeypatch: pytest.MonkeyPatch) -> None:
    entries, table = computed
    _written(folder, entries)
    clear_verdicts()
    assert law_tables.load(folder) == ["contextfs"]
    monkeypatch.setattr(clause_module, "_compute", _all_known)
    assert law_table(CONTEXTFS) == table


def test_the_kernel_startup_file_loads_the_table(folder: Path, entries: list[dict[str, Any]],
                                                 tmp_path: Path) -> None:
    _written(folder, entries)
    script = tmp_path / "startup.py"
    script.write_text(law_tables.startup_file(folder) + (
        "from coalg.laws import clause\n"
        "from coalg.model import CONTEXTFS\n"
        "print(sum(q.realisation is CONTEXTFS for q in clause._VERDICTS))\n"))
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120,
                         env={**os.environ, "PYTHONPATH": str(ROOT)}, check=True).stdout
    assert out.strip() == str(len(CLAUSES))


def _refused(folder: Path) -> None:
    clear_verdicts()
    assert law_tables.load(folder) == []
    assert _remembered() == 0


def _edited(entries: list[dict[str, Any]], key: str, **fields: Any) -> list[dict[str, Any]]:
    edited = json.loads(json.dumps(entries))
    for e in edited:
        if e["clause"] == key:
            e["verdict"].update(fields)
    return edited


@pytest.mark.parametrize("damage", [
    {"holds": "no"}, {"details": []}, {"witness": 5}, {"explored": True}, {"explored": -1},
    {"holds": True},  # L5 fails on ContextFS: a verdict that holds has no witness and kind "property"
    {"item": "L1"}, {"extra": 1},
], ids=lambda d: json.dumps(d))
def test_a_malformed_verdict_refuses_the_whole_file(folder: Path, entries: list[dict[str, Any]],
                                                   damage: dict[str, Any]) -> None:
    _written(folder, _edited(entries, "L5", **damage))
    _refused(folder)


def test_a_lie_consistent_in_itself_is_still_refused_from_a_foreign_digest(
        folder: Path, entries: list[dict[str, Any]]) -> None:
    lie = _edited(entries, "L5", holds=True, kind="property", witness=None)
    law_tables.write(folder, "contextfs", law_tables.table_json("contextfs", lie, "0" * 16))
    _refused(folder)


@pytest.mark.parametrize("text", ["{not json", "[]", "null", "[" * 100_000, json.dumps({"format": 1})])
def test_text_that_is_not_a_table_is_refused(folder: Path, text: str) -> None:
    (folder / "contextfs.json").write_text(text)
    os.chmod(folder / "contextfs.json", 0o600)
    _refused(folder)


def test_a_file_or_folder_others_can_write_is_refused(folder: Path, entries: list[dict[str, Any]]) -> None:
    path = _written(folder, entries)
    os.chmod(path, 0o620)
    _refused(folder)
    os.chmod(path, 0o600)
    os.chmod(folder, 0o777)
    _refused(folder)
    assert law_tables.private_folder(folder) is None
    os.chmod(folder, 0o700)
    clear_verdicts()
    assert law_tables.load(folder) == ["contextfs"]


def test_a_symlink_is_not_followed_and_is_replaced_by_a_write(folder: Path, entries: list[dict[str, Any]],
                                                              tmp_path: Path) -> None:
    real = _written(folder, entries)
    elsewhere = tmp_path / "elsewhere.json"
    real.rename(elsewhere)
    (folder / "contextfs.json").symlink_to(elsewhere)
    _refused(folder)
    before = elsewhere.read_bytes()
    _written(folder, entries[:1])
    assert elsewhere.read_bytes() == before
    assert not (folder / "contextfs.json").is_symlink()
    link = tmp_path / "link"
    link.symlink_to(folder)
    _refused(link)


def test_a_fifo_is_refused_without_waiting(folder: Path) -> None:
    os.mkfifo(folder / "contextfs.json", 0o600)
    _refused(folder)


def test_an_oversized_file_is_refused(folder: Path, monkeypatch: pytest.MonkeyPatch,
                                      entries: list[dict[str, Any]]) -> None:
    path = _written(folder, entries)
    monkeypatch.setattr(law_tables, "MAX_BYTES", path.stat().st_size - 1)
    _refused(folder)


def test_remember_keeps_what_is_known_and_checks_the_clause() -> None:
    clear_verdicts()
    q = query(get_clause("L2"), CONTEXTFS, max_len=1)
    with pytest.raises(TypeError):
        clause_module.remember(q, check_many([get_clause("L1")], CONTEXTFS, max_len=1)[0])
    computed = check_many([get_clause("L2")], CONTEXTFS, max_len=1)[0]
    clause_module.remember(q, dataclasses.replace(computed, summary="changed"))
    assert clause_module.check(get_clause("L2"), CONTEXTFS, max_len=1) == computed
    clear_verdicts()


@pytest.mark.parametrize("realisation", [CONTEXTFS, REPAIRED], ids=lambda r: r.name)
def test_checking_the_groups_separately_gives_the_same_verdicts(realisation: Any) -> None:
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
