"""The kit over a corpus of independent layers (``layers/``): every verdict as each layer declares it.

Each module of the corpus is one layer design written against the documented
protocol, with the verdict the kit must give on every clause.  A correct
layer must pass every applicable clause; a flawed one has one planted flaw and
must fail exactly the clauses it names, each with a short replayable witness.
The budget is the kit's fastest that still finds every planted flaw: every
word of up to three calls, no random walks, and the runs in two child
interpreters (one flaw shows only there).
"""

from __future__ import annotations

import importlib

import pytest
from layers import MODULES

from coalg.conformance import conform, exit_status
from coalg.conformance.blackbox import Replay
from coalg.conformance.detect import inspect_layer
from coalg.conformance.protocol import factory_spec
from coalg.laws import CLAUSES
from coalg.model import call_from_json, store_to_json

BUDGET = {"length": 3, "walks": 0, "orders": True}


def _module(name: str):
    return importlib.import_module(f"layers.{name}")


def test_the_corpus_is_large_and_mostly_correct_layers():
    mods = [_module(n) for n in MODULES]
    assert len(mods) >= 10
    correct = [m for m in mods if m.FLAW is None and all(m.EXPECTED.values())]
    assert 2 * len(correct) >= len(mods)
    for m in mods:
        assert set(m.EXPECTED) == set(CLAUSES), m.__name__
        assert isinstance(m.DESIGN, str) and m.DESIGN
        assert (m.FLAW is None) != m.__name__.split(".")[-1].startswith("flaw_"), m.__name__
        if m.FLAW is not None:
            assert any(v is False for v in m.EXPECTED.values()), m.__name__


@pytest.mark.parametrize("name", MODULES)
def test_the_kit_gives_each_corpus_layer_its_declared_verdicts(name):
    m = _module(name)
    spec = factory_spec(m.FACTORY)
    assert spec is not None, "a corpus factory must be importable by name (the children import it)"
    report = conform(spec, **BUDGET)
    got = {k: e["holds"] for k, e in report["clauses"].items()}
    wrong = {k: (got[k], m.EXPECTED[k], report["clauses"][k]["reason"]) for k in CLAUSES if got[k] != m.EXPECTED[k]}
    assert not wrong, f"{name}: (got, declared, reason) {wrong}"
    for k, e in report["clauses"].items():  # what was left unjudged is said, not only counted
        if e["holds"] is True and e["skipped"]:
            assert "not judged" in e["reason"], (name, k, e["reason"])
    assert exit_status(report) == (0 if all(m.EXPECTED.values()) else 1)
    runner = Replay(m.FACTORY, inspect_layer(m.FACTORY))
    for k, e in report["clauses"].items():
        if e["holds"] is False:
            w = e["witness"]
            assert w["calls"] and w["replay"] and w["length"] <= BUDGET["length"] + 3, (name, k)
            assert isinstance(w["minimality"], str) and w["minimality"], (name, k)  # how it was found, said
            if "after" in w and "h" not in w:  # a step's witness: its word, made on a fresh layer, shows its store
                made = runner.run([call_from_json(c) for c in w["word"]])
                assert store_to_json(made[-1][1]) == w["after"], (name, k)
    runner.close()
