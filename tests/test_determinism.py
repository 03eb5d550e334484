"""Determinism: a scripted run gives byte-identical output under every PYTHONHASHSEED.

Python's string hashing is randomised per process, so set and dict iteration of
strings can differ between processes.  Every output of coalg must be a function
of the store, the call and θ only (Remark 3.9, law L5's θ), never of hash order.
The scenario below exercises every letter, prefix naming, a tied merge type,
edge-write faults, both θ resolutions, ancestry/descendant unfoldings and the
JSON writer, and prints everything it produced as canonical JSON.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

SCENARIO = r'''
import json
from coalg.model import (EMPTY, Call, Delete, Evolve, Link, Merge, Oracle, Recall, RecallPrefix, Record, Relation,
                         Save, SaveAt, Split, Supersede, Theta, ancestors, ancestry, call_to_json, descendant_ids,
                         descendants, dumps_store, output_to_json, run, uuid_like_ids)

ids = uuid_like_ids(16, seed=7)
word = [
    Save(Record("alpha", type="fact", namespace="alice", tags={"t1", "t2", "t3"},
                metadata={"z": 1, "a": [1, 2], "m": {"y": None, "b": True}})),
    Save(Record("beta", type="decision", namespace="bob", tags={"t3", "t4"}, metadata={"a": "b"})),
    Save(Record("gamma", type="episodic", namespace="carol", valid_time=3)),
    Recall(ids[0]),
    RecallPrefix(ids[1][:2]),
    RecallPrefix(""),
    Merge((ids[0], ids[1], "missing")),                     # tie fact/decision: θ decides
    Merge((ids[2], ids[1], ids[0])),                        # three-way tie
    Evolve(ids[3], "alpha+beta, revised", tags=frozenset({"x", "y"})),
    Split(ids[5], ("part one", "part two", "part three")),
    Supersede(ids[0], ids[5]),
    Supersede("ghost", ids[1]),
    Link(ids[6][:3], Relation.REFERENCES, ids[7][:3], bidirectional=True),
    Evolve(ids[0][:4], "via prefix", by_prefix=True),
    Split(ids[1][:5], ("p", "q"), by_prefix=True),
    SaveAt(ids[2], Record("gamma'", tags={"q", "p"})),
    Delete(ids[4]),
    Delete(ids[0][:1], by_prefix=True),
    Merge((ids[0], ids[1]), namespace="alice"),             # err: no target namespace
    Evolve("nope", "err"),
]
for theta in (Theta(), Theta(type_priority=("fact",), descending=True)):
    t = run(EMPTY, word, oracle=Oracle(ids=ids), theta=theta)
    # the same word again with edge-write faults on the derivations
    derivations = ("evolve", "merge", "split", "supersede")
    faulty = [Call(c.letter, c.allocation, frozenset({1, 2}) if c.letter.kind in derivations else frozenset())
              for c in t.calls]
    tf = run(t.states[0], faulty, theta=theta)
    s = t.final
    print(json.dumps({
        "calls": [call_to_json(c) for c in t.calls],
        "outputs": [output_to_json(o) for o in t.outputs],
        "faulty_outputs": [output_to_json(o) for o in tf.outputs],
        "ancestry": {i: ancestry(s, i).render() for i in sorted(s.ids())},
        "descendants": {i: descendants(s, i).render() for i in sorted(s.ids())},
        "ancestors": {i: sorted(ancestors(s, i)) for i in sorted(s.ids())},
        "descendant_ids": {i: sorted(descendant_ids(s, i)) for i in sorted(s.ids())},
        "one_way": sorted(map(str, tf.final.one_way_edges())),
        "dangling": sorted(s.dangling()),
        "reprs": [repr(s), repr(tf.final)],
        "records": [repr(s.records[i]) for i in sorted(s.dom())],   # tags print sorted
    }, sort_keys=True, ensure_ascii=False))
    print(dumps_store(s))
    print(dumps_store(tf.final))
'''


def run_scenario(seed: str) -> str:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONHASHSEED", "PYTHONPATH")}
    env["PYTHONHASHSEED"] = seed
    env["PYTHONPATH"] = str(ROOT)
    proc = subprocess.run(
        [sys.executable, "-c", SCENARIO], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=False
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


@pytest.fixture(scope="module")
def outputs() -> dict[str, str]:
    return {seed: run_scenario(seed) for seed in ("0", "1", "12345", "random")}


def test_scenario_output_is_byte_identical_under_every_hash_seed(outputs: dict[str, str]) -> None:
    reference = outputs["0"]
    for seed, out in outputs.items():
        assert out == reference, f"PYTHONHASHSEED={seed} changed the output"


def test_scenario_is_non_trivial(outputs: dict[str, str]) -> None:
    """The scenario really exercises what it claims: every letter, errors, θ, faults, lineage."""
    import json

    first, _, _ = outputs["0"].partition("\n")
    doc = json.loads(first)
    kinds = {c["letter"]["op"] for c in doc["calls"]}
    assert kinds == {"save", "save_at", "recall", "recall_prefix", "delete", "evolve", "merge", "split",
                     "supersede", "link"}
    outs = [o["out"] for o in doc["outputs"]]
    assert {"err", "found", "created", "wrote", "flag"} <= set(outs)
    assert outs[-2:] == ["err", "err"]
    assert doc["one_way"], "the faults should leave one-way edges"
    assert doc["dangling"], "supersede of a ghost and evolve by prefix leave dangling endpoints"
    assert any("merged_from" in r for r in doc["ancestry"].values())
    # the two θ resolutions give different runs (tie-breaks and prefix order matter)
    lines = outputs["0"].split("\n")
    json_lines = [ln for ln in lines if ln.startswith('{"ancestors"')]
    assert len(json_lines) == 2 and json_lines[0] != json_lines[1]


def test_in_process_run_agrees_with_the_subprocesses(outputs: dict[str, str], capsys: pytest.CaptureFixture[str]) -> None:
    exec(compile(SCENARIO, "<scenario>", "exec"), {"__name__": "scenario"})  # noqa: S102 (our own script)
    assert capsys.readouterr().out == outputs["0"]
