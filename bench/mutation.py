"""Benchmark (not a test, not in CI): mutation testing of coalg with mutmut, in four groups.

Run with ``make mutation`` or ``python bench/mutation.py [--group NAME] [--out bench/results/mutation.json]``.
The law run takes about a quarter of an hour on two quiet cores, the store run several hours (most
store mutants are reached by hundreds of model tests); run it in the background and poll::

    nohup python bench/mutation.py --out bench/results/mutation.json > /tmp/mutation.log 2>&1 &

What it does:

1. Installs mutmut (:data:`MUTMUT`) on demand into ``.mutation/tools`` (git-ignored)
   with ``pip install --target``; nothing is added to the project's requirements
   or to the virtual environment, and the environment's own packages win over the
   copies pip puts beside mutmut.
2. Copies the working tree (tracked and unignored files) into one work directory per
   group of :data:`GROUPS` (``.mutation/work-laws``, ``.mutation/work-store``, ...) and
   configures mutmut there: the law family modules against the law and theorem tests,
   the store and the ContextFS step against the model's tests; each mutant is run
   against the tests of its group that reach it (mutmut records which tests reach which
   function), minus the long ones in :data:`DESELECT`.
   The witnesses of numbered results (functions decorated ``@paper_item``) are left
   out: their tests recompute whole law tables, too slow to rerun per mutant.
   Mutants run in processes forked from a server that has only collected the
   tests, so no cached verdict of an unmutated run can leak into a mutant's run.
   The groups can run side by side: ``--group laws --max-children 1`` in one
   process and ``--group store --max-children 1`` in another, then
   ``--report-only --out ...`` to summarise both.
3. Reports the kill rate — mutants some test failed on (killed or timed out)
   over all mutants, the ones no selected test reaches and the ones not yet tried
   counted as surviving — per group, overall and per module, and lists the survivors
   (and apart, with its reason, each one listed in :data:`EQUIVALENT` whose function is
   unchanged since it was judged, :data:`JUDGED_AT`; the others under ``recheck``). A group not run
   this time keeps its numbers from the ``--out`` file, marked ``carried_over``.
   The tests' own child interpreters (``coalg conform``'s isolated runs) find mutmut
   through a folder that holds only it, so a mutant is active there as well.

``seconds`` in the results is the wall time of the runs of each work directory that
completed (a run stopped midway is not counted).  After tests are added, ``--resume`` keeps the verdicts of the last run, copies the
tree over it and retries only the survivors (a killed mutant stays killed when tests
are only added; mutmut regenerates the mutants of any function whose source changed).

A run on a fresh checkout starts from ``bench/results/mutation-verdicts.json`` (written with
``--out``): every mutant of a function whose source is unchanged takes its recorded verdict,
caught or survived, and only the rest are tried.  After adding tests aimed at survivors, pass
``--retry-survivors`` (or remove those modules' survivors from the file) to try them again.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
MUTMUT = "mutmut==3.8.1"

LAWS = [
    "coalg/laws/monotonicity.py",
    "coalg/laws/agreement.py",
    "coalg/laws/inverse_closure.py",
    "coalg/laws/locality.py",
    "coalg/laws/resolution.py",
    "coalg/laws/bitemporality.py",
    "coalg/laws/integrity.py",
    "coalg/laws/schema.py",
    "coalg/laws/stability.py",
    "coalg/laws/merge.py",
    "coalg/laws/foundations.py",
]
STORE = [
    "coalg/model/store.py",
    "coalg/model/recordmap.py",
    "coalg/model/edgeindex.py",
    "coalg/model/sortedkeys.py",
    "coalg/model/coalgebra.py",
    "coalg/model/sqlite_like.py",
    "coalg/model/memory_types.py",
]


def _modules(package: str) -> list[str]:
    """Every module of ``package`` but its ``__init__`` (which only re-exports), in sorted order."""
    return sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / package).glob("*.py") if p.name != "__init__.py")


CONFORMANCE = _modules("coalg/conformance")
CONTEXTFS = _modules("coalg/contextfs")

GROUPS: dict[str, dict[str, list[str]]] = {
    "laws": {
        "scope": LAWS,
        "tests": ["tests/laws/test_mutants.py", "tests/laws/test_predicates.py",
                  "tests/laws/test_stepcheck.py", "tests/theorems"],
    },
    "store": {
        "scope": STORE,
        "tests": ["tests/model"],
    },
    "conformance": {
        "scope": CONFORMANCE,
        "tests": ["tests/conformance"],
    },
    "contextfs": {
        "scope": CONTEXTFS,
        "tests": ["tests/contextfs"],
    },
}
"""What is mutated, in four runs: every law family module against the law and theorem tests;
the store (``store.py`` and the persistent record map, edge index and sorted identifiers it is
made of) with the ContextFS step (and the SQLite ``LIKE`` matching and type list it uses) against
the model's own tests (every function of the store is
reached by nearly every law and theorem test: running those per store mutant would take days);
the conformance kit against its own tests, whose core is the corpus of independent layers with
declared verdicts (``tests/conformance/layers``); and the ContextFS runtime, audit and
differential modules against theirs."""

SCOPE = LAWS + STORE + CONFORMANCE + CONTEXTFS
TESTS = sorted({t for g in GROUPS.values() for t in g["tests"]})

DESELECT = {
    "tests/model/test_definitions.py::test_def_3_23": "a length-3 schema check; test_mutants covers it",
    "tests/model/test_store_work.py": "builds stores of 10^5 records (40 s); a benchmark-sized check",
    "tests/model/test_hashseed_long_run.py": "reruns a long workload under two hash seeds in subprocesses",
    "tests/model/test_store_bench_smoke.py": "runs the store benchmark's workloads",
    "tests/model/test_lineage.py::test_deep_chain_of_100k_builds_its_ancestry_unfolding_quickly_without_recursion":
        "a 10^5-record chain",
    "tests/model/test_alphabet.py::test_generated_letters_print_as_show_letter_shows_them":
        "prints thousands of generated letters (13 s); the alphabet is not mutated",
    "tests/conformance/test_conformance.py::test_the_released_contextfs_through_the_protocol_gives_table_2":
        "drives the released package through every word of length 3 (90 s); the corpus covers the kit",
    "tests/conformance/test_conformance.py::test_the_contextfs_model_through_the_protocol_gives_table_2":
        "every word of length 3 on the model (60 s); the corpus covers the kit",
    "tests/theorems/test_thm_schema.py::test_5_6_the_schema_s1_to_s4":
        "20 s of generated calls; and it failed once after other tests in one session, passing alone",
}
"""Tests left out of the per-mutant runs, each with its reason (they still run in the normal suite)."""

DETECTED = {"killed", "timeout", "segfault", "caught by type check"}
UNCOUNTED = {"skipped", "not checked"}
"""Statuses left out of the rate: mutants mutmut skipped or has not tried yet (a stopped run)."""

LAUNCHER = """
import sys
sys.path.append({tools!r})
from mutmut.__main__ import cli
from mutmut.state import state
from mutmut.workers.isolation import ForkServerRunner

_submit = ForkServerRunner.submit


def submit(self, mutant_name, tests, cpu_time_limit, estimated_time):
    d = state().duration_by_test
    return _submit(self, mutant_name, sorted(tests, key=lambda t: (d.get(t, 0.0), t)), cpu_time_limit,
                   estimated_time)


ForkServerRunner.submit = submit

import os
import pathlib
import tempfile

import pytest
from mutmut.runners.harness import PytestRunner

_hits = pathlib.Path(tempfile.mkdtemp(prefix="mutmut-hits-"))
os.environ["COALG_MUTMUT_HITS"] = str(_hits)


class ChildHits:
    # before mutmut's own stats plugin files a test's hits, add those of the interpreters it started
    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_teardown(self, item, nextitem):
        for f in sorted(_hits.glob("*.hits")):
            state()._stats.update(n for n in f.read_text(encoding="utf-8").splitlines() if n)
            f.unlink()


_execute = PytestRunner.execute_pytest


def execute_pytest(self, params, **kwargs):
    kwargs["plugins"] = [*kwargs.get("plugins", []), ChildHits()]
    return _execute(self, params, **kwargs)


PytestRunner.execute_pytest = execute_pytest

import importlib.util
import mutmut.__main__ as _main

_spec = importlib.util.spec_from_file_location("coalg_bench_mutation", {bench!r})
_bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_bench)
take_verdicts = _bench.take_verdicts

from mutmut.mutation import mutators

_string = mutators.operator_string


def operator_string(node):
    # SQL keywords and names are case-blind: no case-only mutants of SQL text (its quoted literals excepted)
    for new in _string(node):
        if not _bench.sql_case_only(node.value, new.value):
            yield new


mutators.mutation_operators[:] = [(t, operator_string if op is _string else op)
                                  for t, op in mutators.mutation_operators]

_collect = _main.collect_source_file_mutation_data


def collect(*, mutant_names):
    mutants, by_path = _collect(mutant_names=mutant_names)
    taken = take_verdicts(by_path.values(), {verdicts!r}, missed={missed!r})
    if taken:
        print(f"    {{taken}} verdicts taken from {verdicts!r} (functions unchanged since)", flush=True)
    return [(m, key, m.exit_code_by_key[key]) for m, key, _ in mutants], by_path


_main.collect_source_file_mutation_data = collect
sys.exit(cli())
"""
"""Runs mutmut's command line; each mutant's tests are handed over fastest first, as mutmut's
fork runner does (its fork server takes them in set order): most mutants fail their first test.
SQL text gets no mutant that only changes its case outside quoted literals (:func:`sql_case_only`).
Before the mutants run, the verdicts recorded in :data:`VERDICTS` are taken over for every mutant
of a function whose source hash is unchanged, so a long run can be continued on another machine."""

SQL_START = r"^[rRbBuU]*[\"'](SELECT|INSERT|CREATE|UPDATE|DELETE|PRAGMA|DROP|ALTER|WITH|VALUES|FROM|WHERE) "
"""A string literal that begins with an upper-case SQL keyword: a statement or a piece of one.

Widening it would drop mutants from functions whose source does not change, and so renumber the
rest while their hashes stay: the verdicts and equivalences recorded by number would then name
other mutants. Clear those functions' verdicts with any such change."""


def sql_case_only(old: str, new: str) -> bool:
    """Whether ``old`` is SQL text (:data:`SQL_START`) and ``new`` differs from it only in the case of
    text outside SQL's '…' literals.

    SQL keywords and the names of tables and columns ignore case, so such a mutant is the same
    statement; a change of case inside a quoted SQL literal ('fact') is a different value.
    """
    a, b = old.split("'"), new.split("'")
    return re.match(SQL_START, old) is not None and old != new and len(a) == len(b) and all(
        x.lower() == y.lower() if k % 2 == 0 else x == y for k, (x, y) in enumerate(zip(a, b)))


CAUGHT = frozenset({1, 3, 36, -24, 24, 152, 255, -11, -9})
"""mutmut's exit codes of a caught mutant (killed, timed out, crashed): the verdicts a later run
takes over."""

MISSED = frozenset({0, 33})
"""mutmut's exit codes of a survivor and of a mutant no test reached. A later run takes them over
too (they still count as surviving), unless it is asked to try them again (``--retry-survivors``,
after tests were added): trying every old survivor on each fresh checkout cost about forty minutes
of two cores for the ContextFS group and caught none."""

VERDICTS = ROOT / "bench" / "results" / "mutation-verdicts.json"
"""Every tried mutant's exit code (:data:`CAUGHT` and :data:`MISSED`), per module and function with the
function's source hash (:func:`export_verdicts`, written with ``--out``): a run on a fresh checkout
starts from them."""


def install(tools: Path) -> None:
    if not (tools / "mutmut").is_dir():
        print(f"installing {MUTMUT} into {tools} (once)", flush=True)
        subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                        "--target", str(tools), MUTMUT], check=True)
    alone = _mutmut_alone(tools)
    alone.mkdir(exist_ok=True)
    for entry in [tools / "mutmut", *tools.glob("mutmut-*.dist-info")]:
        link = alone / entry.name
        if not link.is_symlink():
            link.symlink_to(entry.resolve())
    (alone / "sitecustomize.py").write_text(CHILD_SITE, encoding="utf-8")


CHILD_SITE = """import os
# An interpreter a test started (the kit's isolated runs, coalg conform): in mutmut's stats pass,
# each function it runs is appended, once, to a file for the test that started it (see LAUNCHER);
# appended at once, since such an interpreter may leave by os._exit.
if os.environ.get("MUTANT_UNDER_TEST") == "stats" and os.environ.get("COALG_MUTMUT_HITS"):
    import mutmut.mutation.trampoline as _trampoline

    _hits = set()
    _path = os.path.join(os.environ["COALG_MUTMUT_HITS"], f"{os.getpid()}.hits")

    def _record(name, caller=None):
        if name not in _hits:
            _hits.add(name)
            with open(_path, "a", encoding="utf-8") as f:
                f.write(name + "\\n")

    _trampoline.record_trampoline_hit = _record
"""


def _mutmut_alone(tools: Path) -> Path:
    """A folder holding only mutmut (links into ``tools``): what the tests' own child processes need.

    A mutated module imports mutmut's trampoline, so an interpreter a test starts (the
    kit's isolated runs, ``coalg conform``) must find mutmut too; putting only mutmut on
    their ``PYTHONPATH`` keeps the copies of pytest, click etc. in ``tools`` out of their way.
    """
    return tools.parent / "mutmut-alone"


def copy_tree(work: Path, group: str, fresh: bool = True) -> None:
    if fresh and work.exists():
        shutil.rmtree(work)
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT, check=True,
                           capture_output=True, text=True).stdout.splitlines()
    for f in files:
        src = ROOT / f
        if src.is_file():
            dst = work / f
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dst)
    config = {
        "source_paths": ["coalg"],
        "only_mutate": GROUPS[group]["scope"],
        "do_not_mutate_patterns": [r"^@paper_item"],
        "pytest_add_cli_args_test_selection": [t for t in GROUPS[group]["tests"] if (ROOT / t).exists()],
        "pytest_add_cli_args": ["-q", "-x", "-p", "no:cacheprovider", "-o", "pythonpath=. tests",
                                *[f"--deselect={d}" for d in DESELECT]],
        "process_isolation": "forkserver",
        # tests/contextfs run tools/ (the build's law tables, the sample database) and read data/
        "also_copy": ["tools", "data"],
    }
    with (work / "pyproject.toml").open("a", encoding="utf-8") as f:
        f.write("\n[tool.mutmut]\n")
        for key, value in config.items():
            f.write(f"{key} = {json.dumps(value)}\n")


def reopen_survivors(work: Path) -> int:
    """Forget the verdicts of the surviving mutants so that ``mutmut run`` tries them again.

    Used by ``--resume`` after tests were added: a killed mutant stays killed when
    tests are only added, so only the survivors (and the ones no test reached) are rerun;
    mutmut itself regenerates the mutants of every function whose source changed.
    """
    reopened_file = work / "reopened.json"
    reopened = set(json.loads(reopened_file.read_text())) if reopened_file.exists() else set()
    count = 0
    for meta in sorted((work / "mutants").rglob("*.py.meta")):
        data = json.loads(meta.read_text(encoding="utf-8"))
        codes = data.get("exit_code_by_key", {})
        for key, code in codes.items():
            if code in (0, 33):
                codes[key] = None
                reopened.add(key)
                count += 1
        meta.write_text(json.dumps(data, indent=4), encoding="utf-8")
    reopened_file.write_text(json.dumps(sorted(reopened)))
    return count


def mutmut(work: Path, tools: Path, *args: str, capture: bool = False, missed: bool = True) -> str:
    path = os.pathsep.join(p for p in (str(_mutmut_alone(tools).resolve()), os.environ.get("PYTHONPATH", "")) if p)
    p = subprocess.run([sys.executable, "-c", LAUNCHER.format(tools=str(tools), bench=str(Path(__file__).resolve()),
                                                            verdicts=str(VERDICTS) if VERDICTS.exists() else "",
                                                            missed=missed), *args], cwd=work,
                       check=not capture, capture_output=capture, text=True,
                       env={**os.environ, "PYTHONPATH": path})
    return p.stdout if capture else ""


def statuses(work: Path, tools: Path) -> dict[str, str]:
    """Each mutant's status in the run kept in ``work`` (as ``mutmut results`` prints it)."""
    text = mutmut(work, tools, "results", "--all", "true", capture=True)
    # a survivor reopened by --resume keeps its verdict until a rerun has tried it again
    reopened_file = work / "reopened.json"
    reopened = set(json.loads(reopened_file.read_text())) if reopened_file.exists() else set()
    status: dict[str, str] = {}
    for line in text.splitlines():
        name, sep, st = line.strip().rpartition(": ")
        if sep and "__mutmut_" in name:
            status[name] = "survived" if st == "not checked" and name in reopened else st
    return status


_ONE_PAIR = "evolve writes one pair of edges: whether writes share one block matters only across pairs"
_FALSY = "None and False are both falsy, and _write_pairs only tests `not single_block`"
_SHIFT = "every count shifted or scaled alike: the most frequent types are the same"
_HASH = "a hash only has to agree with equality; a constant or recomputed hash is slower, never different"
_SHAPE = ("changes only when a node splits or joins, never which keys the set holds or their order; every leaf "
          "stays at one depth")
_SPLIT_FALSY = "None is as falsy as False for _halves' at_end"
_SAME_LEVEL = "_join is only called on two nodes of one level, both inner or both leaves"
_NARROW = "the prefix ranges only narrow the candidates, and every candidate is tested against the whole pattern"
_REBUILT_EQUAL = "a shortcut that keeps a value already of the right type; rebuilding it gives an equal one"
_SAVE_AT = "a replacement creates no record: with ids None no fresh identifier is drawn, as with ()"
_STR_ENUM = "Relation is a str enum: its members sort as their values do, with or without the key"
_SQL_CASE = "SQL keywords and identifiers ignore case"
_UTF8 = "'UTF-8' and 'utf-8' name the same codec"
_HEAD_BYTES = "only bytes 0-99 of the header are looked at: reading more costs time, never changes a verdict"
_URI_BUILD = ("this Python's SQLite (3.40.1) is built with SQLITE_USE_URI, so a file: name is a URI with or "
              "without uri=True (equivalent on this build only)")
_ROW_SQL = ("by the time this runs, the memories table has its CREATE text in sqlite_master: the fallback is "
            "never reached")
_NO_RANK_DEFAULT = "read_database puts every live record in its order, so the default of rank.get is never used"
_BUSY = "no SQLite message holds 'busy' without 'locked', so that half of the test never decides"
_OWN_NAMESPACE = "ContextFS.save uses namespace_id or the facade's own namespace, which is the one passed"
_UPDATED_CONTENT = ("update replaces the content before anything is read: the new text shows neither in the verdict "
                    "nor in the records")
_BYTES = "UnicodeDecodeError.object is always bytes (CPython converts a bytearray)"

_OVERWRITTEN_STAT = "this count is set again, to the number deleted, before the statistics are returned"
_EXACT_DRAW = "< and <= differ only when random() returns exactly the bound, which no seed here draws"
_STEP_FILE = "the name of the step's database inside its private sandbox is read by nothing"

_NO_DOMAIN = "a missing domain read as None instead of {}: both are falsy, and the domain is read only when truthy"
_ASCII_FLAG = "json.dumps only tests ensure_ascii for truth: None acts as False"
_SOME_WORD = "read_word_file refuses a file without a word, so max never falls back on its default"
_POOL_SIZE = "the pool's size changes only how many children run at once: the results are merged by index"
_MERGE_BY_PREFIX = ("only a merge by prefix reaches it with ids, and the kit's one names the prefix every record "
                    "shares, never a record: '' is never a record either, so the answer is the same")
_ID_OR_IDS = "differs only for a by-prefix letter with neither id nor ids, and the kit builds none"
_ALWAYS_REPLACED = "_call answers or raises, so this default failure is replaced before anything reads it"
_BOUND_ON_ENTRY = ("pinned_uuids binds the list as the block starts, before anything the step calls can raise, "
                   "so this first value is never read")
_NAMED_SAVE = ("a save that names its identifier makes the package draw none, so whether the supply is empty "
               "or the allocation's is never read")
_EDGE_KIND = "_convert reads every kind but memories, found and flag as a supersede's edge, whatever its name"
_FALSY_DEFAULT = "the default is read only for its truth: None and False are both false"
_NAMES_A_PREFIX = ("a letter by prefix always has its prefix in id or in a non-empty ids, so the fallback "
                   "after them is never read")


EQUIVALENT: dict[str, str] = {
    "coalg.contextfs.random_words.x_covers__mutmut_8": _FALSY_DEFAULT,
    "coalg.contextfs.random_words.x_covers__mutmut_29": _NAMES_A_PREFIX,
    "coalg.contextfs.random_words.x_covers__mutmut_32": _NAMES_A_PREFIX,
    "coalg.contextfs.random_words.x_covers__mutmut_35": _NAMES_A_PREFIX,
    "coalg.contextfs.random_words.x_covers__mutmut_78": _ASCII_FLAG,
    "coalg.contextfs.package_run.xǁPackageRunǁstep__mutmut_17": _SQL_CASE,
    "coalg.contextfs.package_run.xǁPackageRunǁstep__mutmut_20": _ALWAYS_REPLACED,
    "coalg.contextfs.package_run.xǁPackageRunǁstep__mutmut_21": _BOUND_ON_ENTRY,
    "coalg.contextfs.package_run.xǁPackageRunǁstep__mutmut_23": _NAMED_SAVE,
    "coalg.contextfs.package_run.xǁPackageRunǁ_call__mutmut_115": _EDGE_KIND,
    "coalg.contextfs.package_run.xǁPackageRunǁ_call__mutmut_119": _EDGE_KIND,
    "coalg.contextfs.differential_testing.x_format_differential__mutmut_35": _NO_DOMAIN,
    "coalg.contextfs.differential_testing.x_format_differential__mutmut_37": _NO_DOMAIN,
    "coalg.contextfs.differential_testing.x_format_differential__mutmut_93": _ASCII_FLAG,
    "coalg.contextfs.differential_testing.x_format_differential__mutmut_101": _ASCII_FLAG,
    "coalg.contextfs.differential_testing.x_replay__mutmut_49": _SOME_WORD,
    "coalg.contextfs.differential_testing.x_replay__mutmut_51": _SOME_WORD,
    "coalg.contextfs.differential_testing.x_replay__mutmut_52": _SOME_WORD,
    "coalg.contextfs.differential_testing.x__in_children__mutmut_23": _POOL_SIZE,
    "coalg.contextfs.differential_testing.x__in_children__mutmut_28": _POOL_SIZE,
    "coalg.contextfs.synthetic.x_make_synthetic_database__mutmut_46": _OVERWRITTEN_STAT,
    "coalg.contextfs.synthetic.x_make_synthetic_database__mutmut_49": _OVERWRITTEN_STAT,
    "coalg.contextfs.synthetic.x_make_synthetic_database__mutmut_69": _EXACT_DRAW,
    "coalg.contextfs.synthetic.x_make_synthetic_database__mutmut_99": _EXACT_DRAW,
    "coalg.contextfs.synthetic.x_make_synthetic_database__mutmut_232": ("the key popped was sampled from the edges "
                                                                       "themselves, so pop's default is never used"),
    "coalg.contextfs.synthetic.x_make_synthetic_database__mutmut_273": _SQL_CASE,
    "coalg.contextfs.synthetic.x_make_synthetic_database__mutmut_274": _SQL_CASE,
    "coalg.contextfs.database.x_read_database__mutmut_179": _SQL_CASE,
    "coalg.contextfs.adapter.x__run_letter__mutmut_161": "the output keeps only the edges the package wrote, so an "
                                                         "inverse offered for a one-way link is dropped there",
    "coalg.contextfs.adapter.x__run_letter__mutmut_172": "every kind of letter has its case: the TypeError is "
                                                         "never raised",
    "coalg.contextfs.adapter.xǁContextFSRuntimeǁrun__mutmut_33": _STEP_FILE,
    "coalg.contextfs.adapter.xǁContextFSRuntimeǁrun__mutmut_34": _STEP_FILE,
    "coalg.contextfs.adapter.xǁContextFSRuntimeǁrun__mutmut_60": _SQL_CASE,
    "coalg.contextfs.adapter.xǁContextFSRuntimeǁrun__mutmut_68": "StorageRouter's graph_backend defaults to None, the value passed",
    "coalg.contextfs.behaviours.x_behaviour_soft_delete_keeps_edges__mutmut_13": _OWN_NAMESPACE,
    "coalg.contextfs.behaviours.x_behaviour_soft_delete_keeps_edges__mutmut_16": _OWN_NAMESPACE,
    "coalg.contextfs.behaviours.x_behaviour_soft_delete_keeps_edges__mutmut_15": ("the package's default type is "
                                                                                 "MemoryType.FACT"),
    "coalg.contextfs.behaviours.x_behaviour_update_drops_edges__mutmut_23": _UPDATED_CONTENT,
    "coalg.contextfs.behaviours.x_behaviour_update_drops_edges__mutmut_24": _UPDATED_CONTENT,
    "coalg.contextfs.word_files.x_read_word_file__mutmut_9": _UTF8,
    "coalg.contextfs.auditing.x_iter_findings__mutmut_39": _STR_ENUM,
    "coalg.contextfs.auditing.x_iter_findings__mutmut_41": _STR_ENUM,
    "coalg.contextfs.auditing.x_iter_findings__mutmut_118": _STR_ENUM,
    "coalg.contextfs.auditing.x_iter_findings__mutmut_120": _STR_ENUM,
    "coalg.contextfs.auditing.x_iter_findings__mutmut_227": _NO_RANK_DEFAULT,
    "coalg.contextfs.auditing.x_iter_findings__mutmut_229": _NO_RANK_DEFAULT,
    "coalg.contextfs.auditing.x_format_report__mutmut_53": "with limit None, fs[:None] is fs",
    "coalg.contextfs.database.x__read_only_uri__mutmut_6": _HEAD_BYTES,
    "coalg.contextfs.database.x__read_only_uri__mutmut_11": _HEAD_BYTES,
    "coalg.contextfs.database.x__open__mutmut_7": _URI_BUILD,
    "coalg.contextfs.database.x__open__mutmut_10": _URI_BUILD,
    "coalg.contextfs.database.x__open__mutmut_13": _URI_BUILD,
    "coalg.contextfs.database.x__open__mutmut_12": ("the reader issues BEGIN and COMMIT itself and never writes: "
                                                    "the isolation level changes nothing"),
    "coalg.contextfs.database.x__open__mutmut_19": _SQL_CASE,
    "coalg.contextfs.database.x__open__mutmut_27": _BUSY,
    "coalg.contextfs.database.x__open__mutmut_28": _BUSY,
    "coalg.contextfs.database.x__open__mutmut_30": _BUSY,
    "coalg.contextfs.database.x__check_schema__mutmut_55": _SQL_CASE,
    "coalg.contextfs.database.x__check_schema__mutmut_49": _SQL_CASE,
    "coalg.contextfs.database.x_read_database__mutmut_59": _SQL_CASE,
    "coalg.contextfs.database.x_read_database__mutmut_60": _SQL_CASE,
    "coalg.contextfs.database.x_read_database__mutmut_147": _SQL_CASE,
    "coalg.contextfs.database.x__without_rowid__mutmut_10": _ROW_SQL,
    "coalg.contextfs.database.x__without_rowid__mutmut_12": _ROW_SQL,
    "coalg.contextfs.database.x__without_rowid__mutmut_13": _ROW_SQL,
    "coalg.contextfs.database.x__without_rowid__mutmut_21": ("a lower-case pattern matched with IGNORECASE "
                                                             "matches the same text"),
    "coalg.contextfs.database.x__message__mutmut_3": _BYTES,
    "coalg.contextfs.database.x__message__mutmut_12": _BYTES,
    "coalg.contextfs.database.x__message__mutmut_9": _UTF8,
    "coalg.contextfs.database.x__utf8__mutmut_3": _UTF8,
    "coalg.model.coalgebra.x__evolve__mutmut_48": _ONE_PAIR,
    "coalg.model.coalgebra.x__evolve__mutmut_58": _ONE_PAIR,
    "coalg.model.coalgebra.x__merge__mutmut_85": _FALSY,
    "coalg.model.coalgebra.x__split__mutmut_65": _FALSY,
    "coalg.model.coalgebra.x_modes__mutmut_8": _SHIFT,
    "coalg.model.coalgebra.x_modes__mutmut_9": _SHIFT,
    "coalg.model.store.xǁStoreǁ__hash____mutmut_1": _HASH,
    "coalg.model.store.xǁStoreǁ__hash____mutmut_4": _HASH,
    "coalg.model.store.xǁStoreǁ__hash____mutmut_6": _HASH,
    "coalg.model.recordmap.xǁRecordMapǁ__hash____mutmut_3": _HASH,
    "coalg.model.edgeindex.xǁEdgeIndexǁ__hash____mutmut_3": _HASH,
    "coalg.model.sortedkeys.x__insert__mutmut_16": _SHAPE,
    "coalg.model.sortedkeys.x__insert__mutmut_22": _SHAPE,
    "coalg.model.sortedkeys.x__join__mutmut_5": _SHAPE,
    "coalg.model.sortedkeys.x__remove__mutmut_46": _SHAPE,
    "coalg.model.sortedkeys.x__remove__mutmut_48": _SHAPE,
    "coalg.model.sortedkeys.x__remove__mutmut_50": _SHAPE,
    "coalg.model.sortedkeys.x__join__mutmut_12": _SPLIT_FALSY,
    "coalg.model.sortedkeys.x__join__mutmut_17": _SPLIT_FALSY,
    "coalg.model.sortedkeys.x__join__mutmut_38": _SPLIT_FALSY,
    "coalg.model.sortedkeys.x__join__mutmut_1": _SAME_LEVEL,
    "coalg.model.sortedkeys.x__join__mutmut_29": _SAME_LEVEL,
    "coalg.model.sortedkeys.xǁSortedKeysǁremove__mutmut_14": "unreachable: remove collapses a root with one child, "
                                                              "so the root never loses its last child",
    "coalg.model.sortedkeys.x__insert__mutmut_50": "key == lows[0] only when the key is the subtree's least, "
                                                   "already held: _insert returned None before",
    "coalg.model.sqlite_like.x_has_like_artefacts__mutmut_7": "adds the capital X to the signs looked for; a "
                                                             "capital is already caught by ascii_fold(i) != i",
    "coalg.model.edgeindex.xǁEdgeIndexǁof__mutmut_11": "the frozen edge set is a cache: left empty, it is built "
                                                      "on first use",
    "coalg.model.recordmap.xǁRecordMapǁ__eq____mutmut_1": "an identity shortcut: without it the maps are compared "
                                                         "in full, with the same answer",
    "coalg.model.sortedkeys.x__remove__mutmut_49": "_remove never meets an inner node with one child: the root is "
                                                   "collapsed when it drops to one, other nodes keep at least _MIN",
    "coalg.model.sortedkeys.xǁSortedKeysǁof__mutmut_8": _SHAPE,
    "coalg.model.sortedkeys.xǁSortedKeysǁinsert__mutmut_40": "key == lows[0] only when the key is already held, "
                                                            "and insert returned before",
    "coalg.model.sqlite_like.x__ranges__mutmut_19": _NARROW,
    "coalg.model.sqlite_like.x_like_matches__mutmut_9": _NARROW,
    "coalg.model.store.x__edges__mutmut_1": _REBUILT_EQUAL,
    "coalg.model.store.x__edges__mutmut_4": _REBUILT_EQUAL,
    "coalg.model.store.x__edges__mutmut_6": _REBUILT_EQUAL,
    "coalg.model.store.xǁStoreǁ__init____mutmut_2": _REBUILT_EQUAL,
    "coalg.conformance.explore.x_shrink__mutmut_4": "None is as falsy as False for the loop's `improved`",
    "coalg.conformance.order.x__shrink_reorder__mutmut_10": "None is as falsy as False for the loop's `improved`",
    "coalg.conformance.examples.xǁRealisationLayerǁ_do__mutmut_20": "CLOCK is 0, the clock an Allocation has "
                                                                     "by default",
    "coalg.conformance.examples.xǁRealisationLayerǁ_save__mutmut_21": _SAVE_AT,
    "coalg.conformance.examples.xǁRealisationLayerǁ_save__mutmut_23": _SAVE_AT,
    "coalg.conformance.order.x__hash_witness__mutmut_38": "both children make the same calls of the same word; only "
                                                          "what they show can differ",
    "coalg.conformance.kit.x__planned__mutmut_6": "a replay script reads a planned output only for the identifiers "
                                                  "it names, never for the placeholder record",
    "coalg.conformance.kit.xǁLawViolationǁ__init____mutmut_12": "None is as falsy as False for format_report's "
                                                                "witnesses",
    "coalg.conformance.report.x_format_report__mutmut_58": "_short never reads its first argument (the clause key)",
    "coalg.conformance.kit.x__nondeterministic__mutmut_32": "replay_script's default, valid_time=True, prints a "
                                                            "call's valid time only when it has one, and a layer "
                                                            "without the capability is never sent one",
    **{f"coalg.conformance.order.x__args__mutmut_{k}": _MERGE_BY_PREFIX for k in (1, 2, 7, 8, 9)},
    **{f"coalg.conformance.order.x__args__mutmut_{k}": _ID_OR_IDS for k in (15, 18, 21)},
    **{f"coalg.conformance.order.x__probe__mutmut_{k}": "the Replay's name only labels its realisation, which "
                                                       "_probe steps and never names" for k in (6, 9)},
    **{f"coalg.conformance.order.x_probe__mutmut_{k}": "a child runs _probe for every mode but 'observe', so any "
                                                      "other spelling of 'probe' does the same" for k in (4, 5)},
    **{f"coalg.contextfs.random_words.x__prefix__mutmut_{k}": "random() is exactly the bound with probability "
                                                              "about 2**-53: < and <= draw the same" for k in (3, 30)},
    **{f"coalg.contextfs.tables.x_read_sqlite_store__mutmut_{k}": "SQL keywords and column names ignore case"
       for k in (7, 8)},
    **{f"coalg.contextfs.adapter.x__rename_output__mutmut_{k}": "every record a call creates is in the store read "
                                                              "back after it, so the default is never used"
       for k in (8, 10)},
    **{f"coalg.contextfs.live.x_facade__mutmut_{k}": "the sandbox's environment turns start-up loading off as well "
                                                     "(CONTEXTFS_AUTO_LOAD_ON_STARTUP=false): the argument is a "
                                                     "second guard" for k in (19, 23, 25)},
    **{f"coalg.contextfs.live.x_facade__mutmut_{k}": "the folder's name only places it in the sandbox, emptied "
                                                     "before each facade is made" for k in (3, 4)},
    **{f"coalg.contextfs.random_words.x_random_step__mutmut_{k}": _EXACT_DRAW for k in (70, 154, 175, 188)},
    "coalg.contextfs.random_words.x__faults__mutmut_3": _EXACT_DRAW,
    "coalg.contextfs.random_words.x__faults__mutmut_19": "n counts edge writes, two per edge, so it is never 1 "
                                                        "(and a sample of none from none is empty as well)",
    **{f"coalg.contextfs.materialise.x_fault_condition__mutmut_{k}": _SQL_CASE for k in (55, 61, 69, 79)},
    **{f"coalg.contextfs.tables.x_record_of_row__mutmut_{k}": "an empty or non-JSON cell reads as no tags or no "
                                                              "metadata whatever the default: only a list is read "
                                                              "as tags, only an object as metadata" for k in (5, 45)},
    "coalg.contextfs.tables.x_record_of_row__mutmut_28": "str() of a string is that string",
    **{f"coalg.contextfs.tables.x_json_cell__mutmut_{k}": "an empty cell is no JSON text: the checks after the "
                                                          "shortcut give the default as well" for k in (3, 4, 7, 9)},
    "coalg.contextfs.tables.x_json_cell__mutmut_14": "codec names ignore case",
    "coalg.contextfs.tables.x_json_cell__mutmut_24": "the count only decides whether freeze checks the depth, "
                                                     "and a value at the limit passes that check",
    **{f"coalg.contextfs.random_words.x__content__mutmut_{k}": _EXACT_DRAW for k in (5, 10)},
    "coalg.contextfs.random_words.x__named__mutmut_2": _EXACT_DRAW,
    "coalg.contextfs.random_words.x__record__mutmut_17": _EXACT_DRAW,
    **{f"coalg.contextfs.random_words.x__type__mutmut_{k}": _EXACT_DRAW for k in (1, 8)},
    **{f"coalg.contextfs.live.xǁLiveStoreǁopen__mutmut_{k}": "the file's name only places the database in the "
                                                           "sandbox, where each is made afresh" for k in (1, 2)},
    "coalg.contextfs.package_run.xǁStepClockǁbegin__mutmut_11": "the sleep's length only sets how long each wait "
                                                               "lasts; the loop ends once the clock has moved",
    "coalg.contextfs.offline.x_installed_files__mutmut_5": "require() has found contextfs as a package, whose "
                                                          "spec has search locations: both sides hold, so `and` "
                                                          "and `or` agree (the assertion narrows the type)",
    **{f"coalg.contextfs.live.xǁLiveStoreǁinject_edge_fault__mutmut_{k}": "the trigger's name only labels it "
                                                                        "(SQL names ignore case)" for k in (1, 2)},
    "coalg.contextfs.live.xǁNullRAGǁadd_memories_batch__mutmut_1": "the package's router ignores the count "
                                                                  "(storage_router.py, lines 137 and 947); its "
                                                                  "one reader, auto-indexing, is off",
    "coalg.conformance.kit.x__shallow__mutmut_9": "the replay script reads only the identifiers of a created "
                                                  "output, never its records",
    "coalg.conformance.compare.x__value__mutmut_4": "ensure_ascii=None is as falsy as False",
    "coalg.conformance.isolation.x__read_result__mutmut_10": "codec names ignore case",
    "coalg.model.store.xǁStoreǁwithout_edges__mutmut_3": "the shortcut returns the store itself when no edge "
                                                        "goes; without it an equal store is built",
    "coalg.model.store.xǁStoreǁwith_edges__mutmut_4": "the shortcut returns the store itself when every edge "
                                                     "is there; without it an equal store is built",
}
"""Surviving mutants no test can catch because they compute the same thing, each with its reason.
They still count as surviving in every rate; the report lists them apart."""

JUDGED_AT: dict[str, str] = {
    "coalg.contextfs.package_run.xǁPackageRunǁstep": "fd5ba782b65b",
    "coalg.contextfs.random_words.x_covers": "660a3b0b50fe",
    "coalg.contextfs.package_run.xǁPackageRunǁ_call": "2d1b79159579",
    "coalg.conformance.examples.xǁRealisationLayerǁ_do": "e17bf3565118",
    "coalg.conformance.examples.xǁRealisationLayerǁ_save": "3024b5301771",
    "coalg.conformance.explore.x_shrink": "8c109472ce73",
    "coalg.conformance.kit.x__nondeterministic": "2b96ee0dc2e5",
    "coalg.conformance.report.x_format_report": "fa27102dc28d",
    "coalg.conformance.kit.x__planned": "75ebfadf1ca7",
    "coalg.conformance.kit.xǁLawViolationǁ__init__": "d09059bd5a63",
    "coalg.conformance.order.x__args": "d6c28768733b",
    "coalg.conformance.order.x__probe": "800788ea2b6e",
    "coalg.conformance.order.x_probe": "539dfe6620a3",
    "coalg.conformance.order.x__hash_witness": "426d94de8068",
    "coalg.conformance.order.x__shrink_reorder": "0c9b7dfc1ac1",
    "coalg.contextfs.adapter.x__run_letter": "b74864d132fa",
    "coalg.contextfs.adapter.xǁContextFSRuntimeǁrun": "06c88f22ce53",
    "coalg.contextfs.random_words.x__prefix": "09848efe892a",
    "coalg.contextfs.tables.x_read_sqlite_store": "3d71dc4276c0",
    "coalg.contextfs.adapter.x__rename_output": "1b2ca3969772",
    "coalg.contextfs.live.x_facade": "8fd3499f8b41",
    "coalg.contextfs.live.xǁLiveStoreǁinject_edge_fault": "57e8a57b285e",
    "coalg.contextfs.package_run.xǁStepClockǁbegin": "e86a69d68194",
    "coalg.contextfs.random_words.x__content": "91b03ac61270",
    "coalg.contextfs.random_words.x__named": "3a69d32cb7e0",
    "coalg.contextfs.random_words.x__record": "e69739916ed8",
    "coalg.contextfs.random_words.x__type": "5dd5562081f8",
    "coalg.contextfs.live.xǁLiveStoreǁopen": "cd94d35d9534",
    "coalg.contextfs.tables.x_record_of_row": "81ae9840711b",
    "coalg.contextfs.tables.x_json_cell": "12ae46cfef18",
    "coalg.contextfs.materialise.x_fault_condition": "e0f6bfd760b5",
    "coalg.contextfs.random_words.x_random_step": "a3e72b7dd1d3",
    "coalg.contextfs.random_words.x__faults": "6519925f2852",
    "coalg.contextfs.offline.x_installed_files": "f5c14e16a6ae",
    "coalg.contextfs.live.xǁNullRAGǁadd_memories_batch": "d63c1f23d64e",
    "coalg.conformance.kit.x__shallow": "6d42eec48437",
    "coalg.conformance.compare.x__value": "b947135e25de",
    "coalg.conformance.isolation.x__read_result": "798eff6805c4",
    "coalg.contextfs.auditing.x_format_report": "85dbeeb8db5b",
    "coalg.contextfs.auditing.x_iter_findings": "2e03a657157f",
    "coalg.contextfs.behaviours.x_behaviour_soft_delete_keeps_edges": "238d34bec106",
    "coalg.contextfs.behaviours.x_behaviour_update_drops_edges": "692e0e7e7aa1",
    "coalg.contextfs.database.x__check_schema": "584d543bff3f",
    "coalg.contextfs.database.x__message": "34d3c7966903",
    "coalg.contextfs.database.x__open": "741609dce6bc",
    "coalg.contextfs.database.x__read_only_uri": "5af0332fd7e2",
    "coalg.contextfs.database.x__utf8": "62f8323604f8",
    "coalg.contextfs.database.x__without_rowid": "3af6905e5ac6",
    "coalg.contextfs.database.x_read_database": "5223cbcef4c9",
    "coalg.contextfs.differential_testing.x__in_children": "7a3eda3735b1",
    "coalg.contextfs.differential_testing.x_format_differential": "ce6ce51155e1",
    "coalg.contextfs.differential_testing.x_replay": "021e34147d9e",
    "coalg.contextfs.synthetic.x_make_synthetic_database": "e10d011754c0",
    "coalg.contextfs.word_files.x_read_word_file": "819912c92da0",
    "coalg.model.coalgebra.x__evolve": "ea43fb255494",
    "coalg.model.coalgebra.x__merge": "c1f3447427bc",
    "coalg.model.coalgebra.x__split": "7d6252da962c",
    "coalg.model.coalgebra.x_modes": "bf4aeb2463a0",
    "coalg.model.edgeindex.xǁEdgeIndexǁ__hash__": "1e1654e34157",
    "coalg.model.edgeindex.xǁEdgeIndexǁof": "824c648ff015",
    "coalg.model.recordmap.xǁRecordMapǁ__eq__": "0975ccee2677",
    "coalg.model.recordmap.xǁRecordMapǁ__hash__": "9ef411f35487",
    "coalg.model.sortedkeys.x__insert": "b8830a9480ef",
    "coalg.model.sortedkeys.x__join": "ce7281c4aa65",
    "coalg.model.sortedkeys.x__remove": "7fc3de4a5d96",
    "coalg.model.sortedkeys.xǁSortedKeysǁinsert": "53441d58ff14",
    "coalg.model.sortedkeys.xǁSortedKeysǁof": "5b5dafd7e90f",
    "coalg.model.sortedkeys.xǁSortedKeysǁremove": "d2f39e5eb0a7",
    "coalg.model.sqlite_like.x__ranges": "354867a078c6",
    "coalg.model.sqlite_like.x_has_like_artefacts": "dd16384c0e5a",
    "coalg.model.sqlite_like.x_like_matches": "aec29574a124",
    "coalg.model.store.x__edges": "7b38cc80f679",
    "coalg.model.store.xǁStoreǁ__hash__": "cfa7a13271c1",
    "coalg.model.store.xǁStoreǁ__init__": "1068062a7c5a",
    "coalg.model.store.xǁStoreǁwith_edges": "b04cc5fe1e94",
    "coalg.model.store.xǁStoreǁwithout_edges": "b0bf74cf61f6",
}
"""Each function with equivalent mutants above, and its source hash when they were judged.  mutmut numbers a
function's mutants in order, so once the function changes a number may name another mutant: its
entries are then reported for a second look, not listed as equivalent, until this hash is updated."""


def take_verdicts(files: Any, verdicts: str, reopened_file: str = "reopened.json", missed: bool = True) -> int:
    """Fill in the untried mutants of ``files`` (mutmut's per-module data) from the ``verdicts`` file.

    A mutant takes its recorded exit code only if its function's source hash is the one
    recorded, and not if ``--resume`` reopened it; a survivor's code (:data:`MISSED`) only if
    ``missed``. Each changed file is saved.
    """
    prior = json.loads(Path(verdicts).read_text(encoding="utf-8")) if verdicts else {}
    reopened = set(json.loads(Path(reopened_file).read_text())) if Path(reopened_file).exists() else set()
    taken = 0
    for m in files:
        changed = False
        for key, code in m.exit_code_by_key.items():
            module, _, mutant = key.rpartition(".")
            function, _, number = mutant.rpartition("__mutmut_")
            known = prior.get(module, {}).get(function)
            if (code is None and key not in reopened and known and known["hash"] == m.hash_by_function_name.get(function)
                    and known["exit"].get(number) is not None and (missed or known["exit"][number] not in MISSED)):
                m.exit_code_by_key[key] = known["exit"][number]
                changed = True
                taken += 1
        if changed:
            m.save()
    return taken


def export_verdicts(works: list[Path], out: Path = VERDICTS) -> int:
    """Write every tried mutant's exit code in ``works`` into ``out`` (merged with what it holds)."""
    data: dict[str, dict[str, Any]] = json.loads(out.read_text(encoding="utf-8")) if out.exists() else {}
    n = 0
    for work in works:
        for meta in sorted((work / "mutants").rglob("*.py.meta")):
            m = json.loads(meta.read_text(encoding="utf-8"))
            hashes = m.get("hash_by_function_name", {})
            for key, code in sorted(m.get("exit_code_by_key", {}).items()):
                module, _, mutant = key.rpartition(".")
                function, _, number = mutant.rpartition("__mutmut_")
                if function not in hashes:
                    continue
                entry = data.setdefault(module, {}).setdefault(function, {"hash": hashes[function], "exit": {}})
                if entry["hash"] != hashes[function]:
                    entry.update(hash=hashes[function], exit={})
                if code in CAUGHT or code in MISSED:
                    entry["exit"][number] = code
                    n += 1
    data = {m: kept for m, fs in data.items() if (kept := {f: e for f, e in fs.items() if e["exit"]})}
    tmp = out.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=0, sort_keys=True) + "\n", encoding="utf-8")
    tmp.replace(out)
    return n


def _measured(work: Path) -> str:
    stamp = max((m.stat().st_mtime for m in (work / "mutants").rglob("*.py.meta")), default=time.time())
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(stamp))


def function_hashes(work: Path) -> dict[str, str]:
    """The source hash of every mutated function in ``work``, by ``module.function``."""
    hashes: dict[str, str] = {}
    for meta in sorted((work / "mutants").rglob("*.py.meta")):
        module = ".".join(meta.relative_to(work / "mutants").parts).removesuffix(".py.meta")
        m = json.loads(meta.read_text(encoding="utf-8"))
        hashes |= {f"{module}.{f}": h for f, h in m.get("hash_by_function_name", {}).items()}
    return hashes


def group_summary(status: dict[str, str], measured: str, hashes: dict[str, str] | None = None) -> dict[str, Any]:
    """One group's rate over all its mutants: the untried ones count as surviving (skipped ones do not exist).

    A survivor listed in :data:`EQUIVALENT` is reported as equivalent only while its function's
    source hash (``hashes``) is the one :data:`JUDGED_AT` records; otherwise under ``recheck``.
    """
    counts = Counter(st for st in status.values() if st != "skipped")
    mutants = sum(counts.values())
    detected = sum(counts[st] for st in DETECTED)
    survivors = sorted(n for n, st in status.items() if st not in DETECTED | UNCOUNTED)
    listed = [n for n in survivors if n in EQUIVALENT]

    def judged(n: str) -> bool:
        function = n.rpartition("__mutmut_")[0]
        return hashes is None or hashes.get(function) == JUDGED_AT.get(function)

    return {"mutants": mutants, "detected": detected, "untried": counts["not checked"],
            "rate": round(detected / mutants, 4) if mutants else None,
            "equivalent": {n: EQUIVALENT[n] for n in listed if judged(n)},
            "recheck": [n for n in listed if not judged(n)],
            "measured": measured}


def _group_of(name: str) -> str | None:
    """The group whose scope holds a module (``coalg.laws.merge``) or a mutant (``coalg.laws.merge.x_f__mutmut_1``)."""
    module = re.split(r"\.x[_ǁ]", name, maxsplit=1)[0]
    path = module.replace(".", "/") + ".py"
    return next((g for g, d in GROUPS.items() if path in d["scope"]), None)


def carried_over(previous: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The groups of a previous results file: its ``by_group``, or (older files) summed from ``by_module``."""
    if previous.get("by_group"):
        return {g: {k: v for k, v in d.items() if k != "carried_over"} for g, d in previous["by_group"].items()}
    groups: dict[str, dict[str, Any]] = {}
    for module, c in previous.get("by_module", {}).items():
        group = _group_of(module)
        if group is None:
            continue
        g = groups.setdefault(group, {"mutants": 0, "detected": 0, "untried": 0, "equivalent": {},
                                      "measured": previous.get("machine", {}).get("date")})
        g["mutants"] += c["mutants"] + c.get("not_checked", 0)
        g["detected"] += c["detected"]
        g["untried"] += c.get("not_checked", 0)
    for g in groups.values():
        g["rate"] = round(g["detected"] / g["mutants"], 4) if g["mutants"] else None
    return groups


def report(status: dict[str, str], seconds: dict[str, float | None], retried: dict[str, int]) -> dict[str, Any]:
    per_module: dict[str, Counter[str]] = defaultdict(Counter)
    for name, st in status.items():
        module = re.split(r"\.x[_ǁ]", name, maxsplit=1)[0]  # mutmut names x_<function>, xǁ<Class>ǁ<method>
        per_module[module][st] += 1
    total = Counter(status.values())
    counted = sum(n for st, n in total.items() if st not in UNCOUNTED)
    detected = sum(total[st] for st in DETECTED)
    result: dict[str, Any] = {
        "tool": MUTMUT, "scope": SCOPE, "tests": TESTS, "groups": GROUPS, "deselected": DESELECT,
        "excluded": "functions decorated @paper_item (witnesses of numbered results)",
        "mutants": counted, "detected": detected, "not_checked": total["not checked"],
        "kill_rate": round(detected / counted, 4) if counted else None,
        "by_status": dict(sorted(total.items())),
        "by_module": {m: {"mutants": sum(n for st, n in c.items() if st not in UNCOUNTED),
                          "detected": sum(c[s] for s in DETECTED), "not_checked": c["not checked"],
                          "by_status": dict(sorted(c.items()))} for m, c in sorted(per_module.items())},
        "survivors": sorted(n for n, st in status.items() if st not in DETECTED | UNCOUNTED),
        "seconds": seconds,
        "retried": retried,  # survivors tried again (--resume) after tests were added, per group
        "machine": {"cores": os.cpu_count(), "load_average": os.getloadavg(),
                    "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())},
    }
    print(f"mutants {counted}, detected {detected}, kill rate {result['kill_rate']:.1%}"
          f" (not yet tried: {total['not checked']})")
    for m, c in result["by_module"].items():
        print(f"  {m:<32} {c['detected']:>5} / {c['mutants']:<5} {c['by_status']}")
    return result


def run_group(group: str, work: Path, tools: Path, resume: bool, children: int | None,
              only: list[str] | None = None, retry: bool = False) -> float:
    """Run mutmut on one group in ``work``; the wall seconds of every run behind its verdicts.

    ``only`` names the mutants to try (mutmut's names, ``*`` as a wildcard), for a smoke test
    of a group's set-up on a handful of mutants; the others stay untried and count as surviving.
    ``retry``: survivors recorded in :data:`VERDICTS` are tried again instead of taken over.
    """
    copy_tree(work, group, fresh=not (resume and (work / "mutants").is_dir()))
    if resume:
        print(f"{group}: retrying {reopen_survivors(work)} surviving mutants", flush=True)
    start = time.perf_counter()
    mutmut(work, tools, "run", *(["--max-children", str(children)] if children else []), *(only or []),
           missed=not retry)
    seconds = time.perf_counter() - start
    spent = work / "seconds.txt"
    if resume and spent.exists():
        seconds += float(spent.read_text())
    spent.write_text(f"{seconds:.0f}\n")
    return seconds


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tools", type=Path, default=ROOT / ".mutation" / "tools")
    ap.add_argument("--work", type=Path, default=ROOT / ".mutation",
                    help="one work directory per group is made in here")
    ap.add_argument("--group", choices=sorted(GROUPS), action="append",
                    help="run only this group (repeatable; default: all, one after the other)")
    ap.add_argument("--max-children", type=int, help="mutants tested at once (mutmut's default: one per core)")
    ap.add_argument("--report-only", action="store_true", help="summarise the last runs in --work again")
    ap.add_argument("--out", type=Path, help="write the summary of every group as JSON here")
    ap.add_argument("--resume", action="store_true",
                    help="keep the last run: copy the tree over it and retry only the survivors")
    ap.add_argument("--retry-survivors", action="store_true",
                    help="try again the survivors the verdicts file records (after tests were added); "
                         "by default they are taken over, and still count as surviving")
    ap.add_argument("--only", action="append", metavar="MUTANT",
                    help="try only this mutant (mutmut's name, * as a wildcard; repeatable): a smoke test")
    args = ap.parse_args()
    install(args.tools)
    if not args.report_only:
        for group in args.group or sorted(GROUPS):
            run_group(group, args.work / f"work-{group}", args.tools, args.resume, args.max_children, args.only,
                      args.retry_survivors)
    status: dict[str, str] = {}
    seconds: dict[str, float | None] = {}
    retried: dict[str, int] = {}
    by_group: dict[str, dict[str, Any]] = {}
    for group in sorted(GROUPS):
        work = args.work / f"work-{group}"
        if not (work / "mutants").is_dir():
            print(f"{group}: no run in {work}")
            continue
        mine = statuses(work, args.tools)
        status |= mine
        spent = work / "seconds.txt"
        seconds[group] = float(spent.read_text()) if spent.exists() else None
        reopened = work / "reopened.json"
        retried[group] = len(json.loads(reopened.read_text())) if reopened.exists() else 0
        by_group[group] = group_summary(mine, measured=_measured(work), hashes=function_hashes(work))
    previous = json.loads(args.out.read_text(encoding="utf-8")) if args.out and args.out.exists() else {}
    result = report(status, seconds, retried)
    result["by_group"] = by_group | {g: {**v, "carried_over": True}
                                     for g, v in carried_over(previous).items() if g not in by_group and g in GROUPS}
    # the modules and survivors of groups not run this time come from the previous file
    kept = {m: c for m, c in previous.get("by_module", {}).items() if _group_of(m) not in by_group}
    result["by_module"] = dict(sorted((result["by_module"] | kept).items()))
    result["survivors"] = sorted(set(result["survivors"])
                                 | {n for n in previous.get("survivors", []) if _group_of(n) not in by_group})
    everything = result["by_group"].values()
    result["mutants"] = sum(v["mutants"] for v in everything)
    result["detected"] = sum(v["detected"] for v in everything)
    result["not_checked"] = sum(v["untried"] for v in everything)
    result["kill_rate"] = round(result["detected"] / result["mutants"], 4) if result["mutants"] else None
    for g, v in sorted(result["by_group"].items()):
        print(f"  group {g:<12} {v['detected']:>5} / {v['mutants']:<5} caught, {v['untried']} untried:"
              f" {v['rate']:.1%} counting untried as surviving"
              + (f" ({len(v['equivalent'])} equivalent)" if v["equivalent"] else "")
              + (" [from the previous results file]" if v.get("carried_over") else ""))
        if v.get("recheck"):
            print(f"    {len(v['recheck'])} listed as equivalent, but their function changed since: look again at "
                  + ", ".join(v["recheck"][:5]) + (" …" if len(v["recheck"]) > 5 else ""))
    if args.out:
        args.out.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"written to {args.out}")
        works = [args.work / f"work-{g}" for g in sorted(by_group)]
        print(f"{export_verdicts(works)} verdicts written to {VERDICTS.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
