"""Benchmark (not a test, not in CI): mutation testing of the law and model modules with mutmut.

Run with ``make mutation`` or ``python bench/mutation.py [--out bench/results/mutation.json]``.
It takes an hour or more on two cores; run it in the background and poll::

    nohup python bench/mutation.py --out bench/results/mutation.json > /tmp/mutation.log 2>&1 &

What it does:

1. Installs mutmut (:data:`MUTMUT`) on demand into ``.mutation/tools`` (git-ignored)
   with ``pip install --target``; nothing is added to the project's requirements
   or to the virtual environment, and the environment's own packages win over the
   copies pip puts beside mutmut.
2. Copies the working tree (tracked and unignored files) into ``.mutation/work``
   and configures mutmut there (:data:`SCOPE`, :data:`TESTS`): the law family
   modules, the store and the step of the model; each mutant is run against the
   fast tests that exercise it (mutmut records which tests reach which function).
   The witnesses of numbered results (functions decorated ``@paper_item``) are left
   out: their tests recompute whole law tables, too slow to rerun per mutant.
   Mutants run in processes forked from a server that has only collected the
   tests, so no cached verdict of an unmutated run can leak into a mutant's run.
3. Reports the kill rate — mutants some test failed on (killed or timed out)
   over all mutants, the ones no selected test reaches counted as surviving —
   overall and per module, and lists the survivors.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
MUTMUT = "mutmut==3.8.1"

SCOPE = [
    "coalg/laws/monotonicity.py",
    "coalg/laws/agreement.py",
    "coalg/laws/inverse_closure.py",
    "coalg/laws/locality.py",
    "coalg/laws/resolution.py",
    "coalg/laws/bitemporality.py",
    "coalg/laws/integrity.py",
    "coalg/laws/schema.py",
    "coalg/laws/ancestry.py",
    "coalg/laws/merge.py",
    "coalg/laws/foundations.py",
    "coalg/model/store.py",
    "coalg/model/coalgebra.py",
]
"""The modules mutated: every law family module, the store and the ContextFS step."""

TESTS = [
    "tests/laws/test_mutants.py",
    "tests/laws/test_predicates.py",
    "tests/laws/test_stepcheck.py",
    "tests/model",
]
"""The tests run against the mutants (the law table and item tests are too slow to rerun per mutant)."""

DESELECT = ["tests/model/test_definitions.py::test_def_3_23"]  # a length-3 schema check; test_mutants covers it

DETECTED = {"killed", "timeout", "segfault", "caught by type check"}

LAUNCHER = """
import sys
sys.path.append({tools!r})
from mutmut.__main__ import cli
sys.exit(cli())
"""


def install(tools: Path) -> None:
    if (tools / "mutmut").is_dir():
        return
    print(f"installing {MUTMUT} into {tools} (once)", flush=True)
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                    "--target", str(tools), MUTMUT], check=True)


def copy_tree(work: Path) -> None:
    if work.exists():
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
        "only_mutate": SCOPE,
        "do_not_mutate_patterns": [r"^@paper_item"],
        "pytest_add_cli_args_test_selection": [t for t in TESTS if (ROOT / t).exists()],
        "pytest_add_cli_args": ["-q", "-x", "-p", "no:cacheprovider", "-o", "pythonpath=. tests",
                                *[f"--deselect={d}" for d in DESELECT]],
        "process_isolation": "forkserver",
    }
    with (work / "pyproject.toml").open("a", encoding="utf-8") as f:
        f.write("\n[tool.mutmut]\n")
        for key, value in config.items():
            f.write(f"{key} = {json.dumps(value)}\n")


def mutmut(work: Path, tools: Path, *args: str, capture: bool = False) -> str:
    p = subprocess.run([sys.executable, "-c", LAUNCHER.format(tools=str(tools)), *args], cwd=work,
                       check=not capture, capture_output=capture, text=True)
    return p.stdout if capture else ""


def report(work: Path, tools: Path, seconds: float | None) -> dict[str, Any]:
    text = mutmut(work, tools, "results", "--all", "true", capture=True)
    status: dict[str, str] = {}
    for line in text.splitlines():
        name, sep, st = line.strip().rpartition(": ")
        if sep and "__mutmut_" in name:
            status[name] = st
    per_module: dict[str, Counter[str]] = defaultdict(Counter)
    for name, st in status.items():
        module = name.split(".x")[0].rsplit(".", 1)[0] if ".x_" in name else name.rsplit(".", 1)[0]
        per_module[module][st] += 1
    total = Counter(status.values())
    counted = sum(n for st, n in total.items() if st not in ("skipped", "not checked"))
    detected = sum(total[st] for st in DETECTED)
    result: dict[str, Any] = {
        "tool": MUTMUT, "scope": SCOPE, "tests": TESTS, "deselected": DESELECT,
        "excluded": "functions decorated @paper_item (witnesses of numbered results)",
        "mutants": counted, "detected": detected,
        "kill_rate": round(detected / counted, 4) if counted else None,
        "by_status": dict(sorted(total.items())),
        "by_module": {m: {"mutants": sum(c.values()), "detected": sum(c[s] for s in DETECTED),
                          "by_status": dict(sorted(c.items()))} for m, c in sorted(per_module.items())},
        "survivors": sorted(n for n, st in status.items() if st not in DETECTED),
        "seconds": seconds,
        "machine": {"cores": os.cpu_count(), "load_average": os.getloadavg(),
                    "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())},
    }
    print(f"mutants {counted}, detected {detected}, kill rate {result['kill_rate']:.1%}")
    for m, c in result["by_module"].items():
        print(f"  {m:<32} {c['detected']:>5} / {c['mutants']:<5} {c['by_status']}")
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tools", type=Path, default=ROOT / ".mutation" / "tools")
    ap.add_argument("--work", type=Path, default=ROOT / ".mutation" / "work")
    ap.add_argument("--report-only", action="store_true", help="summarise the last run in --work again")
    ap.add_argument("--out", type=Path, help="write the summary as JSON here")
    args = ap.parse_args()
    install(args.tools)
    seconds = None
    if not args.report_only:
        copy_tree(args.work)
        start = time.perf_counter()
        mutmut(args.work, args.tools, "run")
        seconds = time.perf_counter() - start
    result = report(args.work, args.tools, seconds)
    if args.out:
        args.out.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"written to {args.out}")


if __name__ == "__main__":
    main()
