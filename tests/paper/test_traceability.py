"""Traceability: every numbered item has executable code and a test of the conventional name.

Fails when a row marked ``done`` names a function that does not import, when no test
of its name exists under ``tests/`` (found by parsing the test files with ``ast``), when
a registered paper item is missing from the table or disagrees with it, or when an
item of the spec's index (§5.12) is missing.  The table is ``coalg.paper.items``: the
witness registry and the laws' Table 2 titles are read from it too.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

from coalg.paper import (
    ITEMS,
    NUMBERED,
    Verdict,
    get_item,
    known_items,
    marked_item,
    numbered,
    paper_item,
)
from coalg.paper import traceability as tr

TESTS = Path(__file__).resolve().parents[1]

SPEC_INDEX = (
    "3.1", "3.2", "3.3", "3.4", "3.5", "3.6", "3.7", "3.8", "3.9", "3.10", "3.14", "3.15", "3.16", "3.18", "3.19",
    "3.20", "3.21", "3.22", "3.23", "5.1", "5.2", "5.6", "5.7", "5.9", "5.12", "5.13", "5.14", "5.15", "5.16",
    "5.17", "5.18", "5.19", "5.20", "5.23", "5.24", "5.25", "5.27", "5.30", "6.1", "6.2", "6.3", "6.4", "6.5",
    "6.6", "6.8", "7.1", "7.3",
)
"""The numbered items of the spec's index §5.12 (3.10–3.13 and 3.16–3.17 as one row each)."""

CLAUSES = ("L1", "L2", "L3", "L4i", "L4ii", "L5", "L6", "L7", "S1", "S2", "S3", "S4")
OPEN_PROBLEMS = tuple(f"OP{n}" for n in range(1, 7))
RUNTIME = ("R5.2", "R5.14", "R5.18", "R5.20", "R5.30", "R6.3")
"""Runtime observations of numbered results on the released contextfs 0.2.35 (coalg.contextfs.runtime)."""


def _test_names() -> set[str]:
    names: set[str] = set()
    for path in sorted(TESTS.rglob("test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        names |= {n.name for n in ast.walk(tree)
                  if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) and n.name.startswith("test_")}
    return names


NAMES = _test_names()


def _has_test(name: str) -> bool:
    return name in NAMES or any(n.startswith(name + "_") for n in NAMES)


def test_table_covers_the_index_laws_and_open_problems() -> None:
    items = [r.item for r in tr.TABLE]
    assert len(items) == len(set(items)), "an item appears twice"
    assert set(SPEC_INDEX) | set(CLAUSES) | set(OPEN_PROBLEMS) | set(RUNTIME) == set(items)
    assert not tr.rows("planned")  # 7.3 is done (issue 7, runtime); OP1–OP6 are done


def test_natures_and_test_names_follow_the_convention() -> None:
    for r in tr.TABLE:
        assert r.nature in ("theorem", "instantiation", "runtime", "definition", "proposal"), r
        if r.item in CLAUSES:
            assert r.test == f"test_law_{r.item}"
        elif r.item.startswith("OP") or r.nature != "definition" or r.item in ("3.20", "6.5"):
            assert r.test == "test_item_" + r.item.replace(".", "_")
        else:
            assert r.test == "test_def_" + r.item.replace(".", "_")


@pytest.mark.parametrize("row", tr.rows("done"), ids=lambda r: r.item)
def test_done_rows_import_and_are_tested(row: tr.Row) -> None:
    obj = tr.resolve(row.function)
    assert obj is not None
    assert _has_test(row.test), f"{row.item}: no test named {row.test} under tests/"


def test_registered_items_are_in_the_table() -> None:
    for item in known_items():
        row = tr.by_item(item)  # KeyError: a registered item is missing from the table
        reg = get_item(item)
        assert row.status == "done", f"{item} is registered now: flip its row from {row.status!r} to 'done'"
        assert row.function == reg.function, (item, row.function, reg.function)
        assert row.nature == reg.nature, (item, row.nature, reg.nature)
        assert row.test == "test_item_" + item.replace(".", "_")


def test_done_item_rows_are_registered() -> None:
    registered = set(known_items())
    for r in tr.rows("done"):
        if r.test.startswith("test_item_"):
            assert r.item in registered, f"{r.item} is marked done but registers no paper item"


def test_table_json() -> None:
    rows = tr.table_json()
    assert len(rows) == len(tr.TABLE) and set(rows[0]) == {"item", "title", "nature", "function", "test", "status"}


# --------------------------------------------------------------------------- one table of numbered items


def test_one_table_of_items_behind_every_registry() -> None:
    assert tr.TABLE is NUMBERED
    witnesses = [r.item for r in NUMBERED if r.kind is not None]
    assert sorted(known_items()) == sorted(witnesses) and len(known_items()) == len(set(witnesses))
    for item in known_items():
        row, reg = numbered(item), get_item(item)
        assert (reg.title, reg.kind, reg.nature, reg.function) == (row.title, row.kind, row.nature, row.function)
        assert marked_item(reg.check) == item
    assert [r.item for r in NUMBERED if r.table2 is not None] == list(CLAUSES)
    assert list(ITEMS) == known_items() and ITEMS["5.7"] is get_item("5.7") and "0x" not in repr(ITEMS)


def test_paper_item_checks_the_decoration_against_the_table() -> None:
    def check() -> Verdict:
        return Verdict("5.7", "property", True, 0)

    assert paper_item("5.7", "Ancestry is stable", kind="property", nature="theorem")(check) is check
    assert marked_item(check) == "5.7"
    for wrong, field in ((dict(title="Ancestry is unstable"), "title"), (dict(kind="counterexample"), "kind"),
                         (dict(nature="runtime"), "nature")):
        with pytest.raises(ValueError, match=f"paper item '5.7': {field} is"):
            paper_item("5.7", **wrong)
    with pytest.raises(ValueError, match="has no witness"):
        paper_item("3.4")  # a definition
    with pytest.raises(KeyError, match="not a numbered item"):
        paper_item("9.99")


def test_the_checking_modules_do_not_import_the_registry() -> None:
    """The table is at the bottom, the registry at the top: no module that checks an item imports it."""
    code = ("import sys, coalg.laws.table, coalg.laws.stepcheck, coalg.paper.verdict, coalg.paper.traceability\n"
            "print(sorted(m for m in sys.modules if m in ('coalg.paper.registry', 'coalg.bitemporal.core')))\n")
    p = subprocess.run([sys.executable, "-c", code], cwd=TESTS.parent, capture_output=True, text=True, check=True,
                       env=dict(os.environ, PYTHONPATH=str(TESTS.parent)))
    assert p.stdout.strip() == "[]"
