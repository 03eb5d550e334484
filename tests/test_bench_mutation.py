"""The bookkeeping of ``bench/mutation.py`` (mutmut itself is not run here): verdicts carried
from one run to the next only for unchanged functions, and each group's rate over all its mutants."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("bench_mutation", ROOT / "bench" / "mutation.py")
mutation = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(mutation)


class Data:
    """What mutmut keeps per module: exit codes by mutant, source hashes by function."""

    def __init__(self, codes: dict[str, int | None], hashes: dict[str, str]):
        self.exit_code_by_key, self.hash_by_function_name, self.saved = dict(codes), dict(hashes), 0

    def save(self) -> None:
        self.saved += 1


def _meta(work: Path, module: str, codes: dict[str, int | None], hashes: dict[str, str]) -> None:
    path = work / "mutants" / (module.replace(".", "/") + ".py.meta")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"exit_code_by_key": codes, "hash_by_function_name": hashes}))


def test_verdicts_travel_only_with_an_unchanged_function(tmp_path):
    work = tmp_path / "work"
    _meta(work, "coalg.m", {"coalg.m.x_f__mutmut_1": 1, "coalg.m.x_f__mutmut_2": -24, "coalg.m.x_f__mutmut_3": None,
                            "coalg.m.x_f__mutmut_4": 0,
                            "coalg.m.x_g__mutmut_1": 1, "coalg.m.x_g__mutmut_2": 33}, {"x_f": "aaa", "x_g": "bbb"})
    out = tmp_path / "verdicts.json"
    # every tried mutant is recorded: caught ones, a survivor (0) and one no test reached (33)
    assert mutation.export_verdicts([work], out) == 5
    recorded = json.loads(out.read_text())
    assert recorded["coalg.m"]["x_f"] == {"hash": "aaa", "exit": {"1": 1, "2": -24, "4": 0}}
    assert recorded["coalg.m"]["x_g"] == {"hash": "bbb", "exit": {"1": 1, "2": 33}}

    # a fresh checkout: x_f unchanged, x_g edited since (another hash), x_f's mutant 2 reopened
    def fresh_data() -> Data:
        return Data({"coalg.m.x_f__mutmut_1": None, "coalg.m.x_f__mutmut_2": None, "coalg.m.x_f__mutmut_3": None,
                     "coalg.m.x_f__mutmut_4": None, "coalg.m.x_g__mutmut_1": None}, {"x_f": "aaa", "x_g": "ccc"})

    reopened = tmp_path / "reopened.json"
    reopened.write_text(json.dumps(["coalg.m.x_f__mutmut_2"]))
    fresh = fresh_data()
    assert mutation.take_verdicts([fresh], str(out), str(reopened)) == 2
    assert fresh.exit_code_by_key == {"coalg.m.x_f__mutmut_1": 1, "coalg.m.x_f__mutmut_2": None,
                                      "coalg.m.x_f__mutmut_3": None, "coalg.m.x_f__mutmut_4": 0,
                                      "coalg.m.x_g__mutmut_1": None}
    assert fresh.saved == 1
    # asked to retry survivors (after tests were added), the survivor is left untried
    fresh = fresh_data()
    assert mutation.take_verdicts([fresh], str(out), str(reopened), missed=False) == 1
    assert fresh.exit_code_by_key["coalg.m.x_f__mutmut_4"] is None

    # an edited function forgets its old verdicts when exported again
    _meta(work, "coalg.m", {"coalg.m.x_f__mutmut_1": 36}, {"x_f": "ddd"})
    mutation.export_verdicts([work], out)
    assert json.loads(out.read_text())["coalg.m"]["x_f"] == {"hash": "ddd", "exit": {"1": 36}}


def test_a_group_rate_counts_untried_mutants_as_surviving():
    status = {"a": "killed", "b": "timeout", "c": "survived", "d": "not checked", "e": "skipped", "f": "no tests"}
    g = mutation.group_summary(status, measured="then")
    assert (g["mutants"], g["detected"], g["untried"]) == (5, 2, 1)
    assert g["rate"] == 0.4


def test_old_results_files_are_summed_into_groups():
    previous = {"by_module": {"coalg.laws.merge": {"mutants": 10, "detected": 9, "not_checked": 0},
                              "coalg.model.store": {"mutants": 6, "detected": 3, "not_checked": 4}},
                "machine": {"date": "then"}}
    groups = mutation.carried_over(previous)
    assert groups["laws"]["rate"] == 0.9
    assert (groups["store"]["mutants"], groups["store"]["untried"], groups["store"]["rate"]) == (10, 4, 0.3)


def test_only_case_changes_of_sql_outside_its_quoted_literals_are_left_out():
    import re

    sql = re.compile(mutation.SQL_START)
    same = mutation.sql_case_only
    assert sql.match('"SELECT id FROM memories"') and sql.match("'VALUES (?, ?)'") and sql.match('r"WHERE x"')
    assert not sql.match('"delete the record"') and not sql.match('"SELECTION "') and not sql.match('"id"')
    assert same('"SELECT id FROM memories"', '"select id from memories"')
    assert same("\"VALUES (?, 'fact')\"", "\"values (?, 'fact')\"")
    assert not same("\"VALUES (?, 'fact')\"", "\"VALUES (?, 'FACT')\"")  # a value SQL compares exactly
    assert not same('"SELECT id"', '"XXSELECT idXX"') and not same('"SELECT id"', '"SELECT id"')
    assert not same('"id"', '"ID"')  # not SQL text: its case is a value


def test_an_equivalent_mutant_of_a_changed_function_is_reported_for_a_second_look(monkeypatch: Any) -> None:
    monkeypatch.setattr(mutation, "EQUIVALENT", {"coalg.m.x_f__mutmut_2": "same value", "coalg.m.x_g__mutmut_1": "same"})
    monkeypatch.setattr(mutation, "JUDGED_AT", {"coalg.m.x_f": "aaa", "coalg.m.x_g": "bbb"})
    status = {"coalg.m.x_f__mutmut_1": "killed", "coalg.m.x_f__mutmut_2": "survived", "coalg.m.x_g__mutmut_1": "survived"}
    same = mutation.group_summary(status, measured="then", hashes={"coalg.m.x_f": "aaa", "coalg.m.x_g": "bbb"})
    assert same["equivalent"] == {"coalg.m.x_f__mutmut_2": "same value", "coalg.m.x_g__mutmut_1": "same"}
    assert same["recheck"] == []
    edited = mutation.group_summary(status, measured="then", hashes={"coalg.m.x_f": "ccc", "coalg.m.x_g": "bbb"})
    assert edited["equivalent"] == {"coalg.m.x_g__mutmut_1": "same"}
    assert edited["recheck"] == ["coalg.m.x_f__mutmut_2"]
    assert edited["rate"] == same["rate"] == round(1 / 3, 4)  # equivalence never changes the rate


def test_function_hashes_are_read_from_the_work_directory(tmp_path: Path) -> None:
    _meta(tmp_path, "coalg.m", {"coalg.m.x_f__mutmut_1": 1}, {"x_f": "aaa", "x_g": "bbb"})
    assert mutation.function_hashes(tmp_path) == {"coalg.m.x_f": "aaa", "coalg.m.x_g": "bbb"}


def _collected(env: dict[str, str], *files: str) -> list[str]:
    import os
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[1]
    p = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:randomly",
                        "-p", "no:cacheprovider", *files], cwd=root, capture_output=True, text=True, timeout=120,
                       env={k: v for k, v in os.environ.items() if k != "PYTEST_XDIST_WORKER"} | env, check=False)
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-2000:]
    return list(dict.fromkeys(line.split("::", 1)[0] for line in p.stdout.splitlines() if "::" in line))


def test_a_mutant_s_tests_run_in_the_order_given_and_an_xdist_worker_takes_long_files_first() -> None:
    fast, long = "tests/test_bench_quick.py", "tests/lab/test_lab.py"  # test_lab.py is one of the longest files
    assert _collected({}, fast, long) == [fast, long]  # as mutation testing hands them over: fastest first
    assert _collected({"PYTEST_XDIST_WORKER": "gw0"}, fast, long) == [long, fast]
