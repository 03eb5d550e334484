"""A 10,000-call mixed word gives the same outputs, call by call, under two PYTHONHASHSEEDs.

The store's hash tries iterate in an order that changes with the hash seed; every
order a user can observe must come from the sorted indexes instead.  The word
(saves, evolves, merges with tied types, splits, supersedes, deletes) is run under
three θ, with prefix recalls and deletes by prefix among the calls, and each
process prints every output, the final store as JSON, its repr, and the ancestry
and descendant renderings of a sample of records.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = r'''
import json
from coalg.model import (EMPTY, Delete, RecallPrefix, Theta, ancestry, descendants, dumps_store,
                         output_to_json, run)
from coalg.model.workloads import mixed_word

word = mixed_word(10_000, seed=11)
probes = [RecallPrefix(p) for p in ("", "id", "id00", "id01", "id1", "id2", "id5", "id9", "id10")]
word = word[:5_000] + probes + word[5_000:] + probes + [Delete(p, by_prefix=True) for p in ("id0", "id1", "id")]
for theta in (Theta(), Theta(type_priority=("procedural",), descending=True),
              Theta(id_priority=("id0420", "id1234", "id0001"))):
    t = run(EMPTY, word, theta=theta)
    s = t.final
    sample = list(s.records)[::97]
    print(json.dumps({
        "outputs": [output_to_json(o) for o in t.outputs],
        "store": dumps_store(s),
        "repr": repr(s),
        "ancestry": [ancestry(s, i).render() for i in sample],
        "descendants": [descendants(s, i).render() for i in sample],
        "one_way": sorted(map(str, s.one_way_edges())),
        "dangling": sorted(s.dangling()),
    }, ensure_ascii=False))
'''


def run_under(seed: str) -> list[dict[str, object]]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONHASHSEED", "PYTHONPATH")}
    env["PYTHONHASHSEED"] = seed
    env["PYTHONPATH"] = str(ROOT)
    proc = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=600, check=False)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return [json.loads(line) for line in proc.stdout.splitlines()]


@pytest.fixture(scope="module")
def runs() -> dict[str, list[dict[str, object]]]:
    return {seed: run_under(seed) for seed in ("0", "4242")}


def test_every_output_is_the_same_under_both_seeds(runs: dict[str, list[dict[str, object]]]) -> None:
    a, b = runs["0"], runs["4242"]
    assert len(a) == len(b) == 3
    for k, (x, y) in enumerate(zip(a, b)):
        outs_x, outs_y = x["outputs"], y["outputs"]
        assert isinstance(outs_x, list) and isinstance(outs_y, list) and len(outs_x) == len(outs_y) == 10_021
        for n, (o1, o2) in enumerate(zip(outs_x, outs_y)):
            assert o1 == o2, f"θ #{k}: output {n} differs between hash seeds"
        for key in ("store", "repr", "ancestry", "descendants", "one_way", "dangling"):
            assert x[key] == y[key], f"θ #{k}: {key} differs between hash seeds"


def test_the_long_word_exercises_what_it_claims(runs: dict[str, list[dict[str, object]]]) -> None:
    docs = runs["0"]
    outs = [[o["out"] for o in d["outputs"]] for d in docs]  # type: ignore[index, union-attr]
    assert all(o.count("err") == 0 for o in outs)  # every call of the word is admissible
    assert all(o.count("found") >= 10 for o in outs)  # prefix recalls found records
    assert outs[0].count("created") > 8_000
    # θ changes prefix resolution and merge types: the three runs really differ
    assert docs[0]["outputs"] != docs[1]["outputs"] != docs[2]["outputs"]
