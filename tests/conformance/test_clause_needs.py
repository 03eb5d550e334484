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


def test_a_layer_with_valid_time_on_some_methods_learns_which_lack_it():
    from layers.no_valid_time import OneClock

    from coalg.conformance import conform
    from coalg.conformance.detect import inspect_layer

    class HalfTimed(OneClock):
        def save(self, content, *, type="fact", namespace="global", tags=(), metadata=None, valid_time=None):
            return super().save(content, type=type, namespace=namespace, tags=tags, metadata=metadata)

    caps = inspect_layer(HalfTimed)
    assert not caps.has("valid_time") and caps.valid_time_in == ("save",)
    l6 = conform(HalfTimed, length=2, walks=5, orders=False)["clauses"]["L6"]
    assert l6["holds"] is False
    assert "(save takes a valid_time parameter, evolve, merge and split do not; the capability needs all four.)" \
        in l6["reason"]
    # a layer with none of them is not told about methods
    plain = conform(OneClock, length=2, walks=5, orders=False)["clauses"]["L6"]
    assert plain["holds"] is False and "valid_time parameter" not in plain["reason"]
