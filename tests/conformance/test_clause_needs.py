"""What a layer must offer per clause is written down once and shown in ``coalg conform --help``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from coalg.conformance.protocol import CLAUSE_NEEDS, needs_text
from coalg.laws import CLAUSES

ROOT = Path(__file__).resolve().parents[2]


def test_every_clause_says_what_it_reads_and_when_it_does_not_apply():
    assert list(CLAUSE_NEEDS) == list(CLAUSES)
    for key, (reads, when) in CLAUSE_NEEDS.items():
        assert reads and when.endswith("."), key
    assert "one representation" in CLAUSE_NEEDS["L2"][1] and "one representation" in CLAUSE_NEEDS["L3"][1]
    assert "valid_time" in CLAUSE_NEEDS["L6"][0] and "prefix_rule" in CLAUSE_NEEDS["L5"][0]


def test_the_help_lists_every_clause_with_what_it_reads():
    path = os.pathsep.join([str(ROOT), *(p for p in sys.path if p)])  # what this interpreter imports
    env = {**os.environ, "PYTHONPATH": path, "PYTHONHASHSEED": "0"}
    out = subprocess.run([sys.executable, "-m", "coalg", "conform", "--help"], capture_output=True, text=True,
                         env=env, cwd=ROOT, check=True).stdout
    flat = " ".join(out.split())
    for key in CLAUSES:
        assert f" {key} reads " in flat, key
    assert " ".join(needs_text().split()) in flat
