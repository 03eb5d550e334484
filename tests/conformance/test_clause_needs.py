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


def test_without_the_capability_l6_says_the_kit_passed_no_valid_time():
    """The witness of a layer without the capability must not say the layer was given valid times and
    dropped them: the kit passed none (the layer's save may well keep one, as HalfTimed's would)."""
    from layers.no_valid_time import OneClock

    from coalg.conformance import conform

    l6 = conform(OneClock, length=2, walks=5, orders=False)["clauses"]["L6"]
    assert l6["reason"].startswith(
        "The layer has no valid_time capability, so the kit passes it no valid time: the histories "
        "save('new' in alice) at valid times [1] and [2] are the same calls to the layer and record the "
        "same store. No function of the store recovers valid time, so it fails L6 as ContextFS does "
        "(Theorem 5.27).")


def test_a_valid_time_taken_through_keyword_options_is_the_capability():
    """A layer whose derivations take ``**options`` and keep options["valid_time"] has the capability, and
    L6 is judged on what it does with it; one that takes every keyword and refuses valid times of the
    kind the kit passes has recorded no history, and L6 says there was nothing to judge."""
    from layers.dict_both import Memory

    from coalg.conformance import conform
    from coalg.conformance.detect import inspect_layer

    class Options(Memory):
        def evolve(self, id, content, **options):
            return super().evolve(id, content, valid_time=options.get("valid_time"))

    assert inspect_layer(Options).has("valid_time")
    l6 = conform(Options, length=2, walks=5, orders=False)["clauses"]["L6"]
    assert l6["holds"] is True and l6["explored"] > 0

    class DatesOnly(Memory):
        def _put(self, content, type, namespace, tags, metadata, valid_time):
            if valid_time is not None and not isinstance(valid_time, str):
                raise TypeError("valid_time must be an ISO date")
            return super()._put(content, type, namespace, tags, metadata, valid_time)

    l6 = conform(DatesOnly, length=2, walks=5, orders=False)["clauses"]["L6"]
    assert (l6["holds"], l6["explored"]) == (True, 0)
    assert l6["reason"].startswith("holds (nothing to judge): no history with valid times was recorded")
