"""``coalg conform``: exit 0 when every applicable clause holds, 1 when one fails, 2 with one line on bad use."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from coalg.cli import main
from coalg.laws import CLAUSES

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent


def _cli(*args: str, seed: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(HERE), *(p for p in sys.path if p)])}
    env.pop("PYTHONHASHSEED", None)
    if seed is not None:
        env["PYTHONHASHSEED"] = seed
    return subprocess.run([sys.executable, "-m", "coalg", "conform", *args], capture_output=True, text=True,
                          cwd=HERE, env=env, timeout=600, check=False)


@pytest.mark.parametrize(("spec", "said"), [
    ("conform_layers:MisuseNoSplit", "split: the layer has no method split; expected split(id, parts)"),
    ("conform_layers:MisuseEvolveSignature", "evolve: expected evolve(id, content) -> str; its signature is "
                                             "evolve(id)"),
    ("conform_layers:MisuseRecordsList", "records: expected a mapping from identifiers to records, got list"),
    ("conform_layers:MisuseRelation", "edges: 'parent' is not a relation name; expected one of evolved_into, evolved_from"),
    ("conform_layers:MisuseSaveReturns", "save: expected the new record's identifier (a string), got int 1"),
    ("conform_layers:MisuseSplitCount", "split: expected 2 distinct identifiers, one per part"),
    ("conform_layers:MisuseSplitReversed", "split: the identifiers came back in another order than the parts "
                                           "(identifier 1 names the part 'p2', not 'p1'); expected one identifier "
                                           "per part, in the parts' order"),
    ("conform_layers:MisuseNotEmpty", "records: a fresh layer must hold no record; this one holds 1"),
    ("conform_layers:MisuseBornWithAnEdge", "edges: a fresh layer must hold no edge; this one holds 1"),
    ("conform_layers:MisuseEvolveReturnsTheParent", re.compile(
        r"evolve: returned '[0-9a-f]+', the identifier of a record that was there before the call; "
        r"expected the new record's identifier$")),
    ("conform_layers:MisuseNaNInMetadata", "metadata: NaN is not a value the kit can compare: it equals "
                                            "nothing, itself included"),
    ("conform_layers:MisuseFactoryRaises", "calling the factory MisuseFactoryRaises() raised RuntimeError: "
                                           "no database configured"),
    ("conform_layers:a_layer_instance", "is a GoodMemory, not a factory"),
    ("conform_layers:Nowhere", "module 'conform_layers' has no attribute 'Nowhere'"),
    ("no_such_module_here:Memory", "cannot import module 'no_such_module_here'"),
    ("conform_layers", "expected MODULE:ATTR"),
])
def test_each_kind_of_misuse_exits_2_with_one_line(spec, said, monkeypatch, capsys):
    monkeypatch.setenv("PYTHONHASHSEED", "0")
    monkeypatch.chdir(HERE)
    rc = main(["conform", spec, "--length", "2", "--walks", "2"])
    out, err = capsys.readouterr()
    assert rc == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("coalg conform: error: ")
    assert said.search(err.rstrip("\n")) if isinstance(said, re.Pattern) else said in err
    assert "Traceback" not in err


def test_a_misuse_only_the_child_interpreters_meet_is_still_a_misuse(monkeypatch, capsys):
    """The runs in child interpreters replay words the parent's search folded away; a misuse met there
    is exit 2 with its line, as in the parent, not 'L5 not judged' and exit 0."""
    monkeypatch.setenv("PYTHONHASHSEED", "0")
    monkeypatch.chdir(HERE)
    assert main(["conform", "conform_layers:MisuseHidesAfterDelete", "--length", "3", "--walks", "50"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("coalg conform: error: save: returned '") and err.endswith(
        "', which records() does not list (in the child interpreter with PYTHONHASHSEED=0)\n")


def test_bad_options_are_usage_errors(monkeypatch, capsys):
    monkeypatch.setenv("PYTHONHASHSEED", "0")
    assert main(["conform", "conform_layers:GoodMemory", "--length", "0"]) == 2
    assert "--length must be at least 1" in capsys.readouterr().err


def test_exit_0_for_a_law_abiding_layer_and_1_with_the_witness_for_a_broken_one():
    good = _cli("conform_layers:GoodMemory", "--length", "2", "--walks", "5")
    assert good.returncode == 0, good.stderr
    assert "8 of 8 law clauses hold, 0 fail; 4 of 4 schema clauses hold." in good.stdout
    bad = _cli("conform_layers:PlantedL7", "--length", "3", "--walks", "0")
    assert bad.returncode == 1, bad.stderr
    assert "L7 lineage referential integrity: delete(id0001) left the edge" in bad.stdout
    assert "replay:" in bad.stdout and "from conform_layers import PlantedL7" in bad.stdout


def test_json_has_the_clause_keys_of_coalg_laws_and_is_the_same_under_any_hash_seed():
    runs = [_cli("conform_layers:PlantedL4ii", "--length", "3", "--walks", "3", "--json", seed=s)
            for s in ("1", "2")]
    assert [r.returncode for r in runs] == [1, 1]
    assert runs[0].stdout == runs[1].stdout
    report = json.loads(runs[0].stdout)
    assert report["layer"] == "conform_layers:PlantedL4ii" and report["capabilities"] == ["valid_time"]
    assert list(report["clauses"]) == sorted(CLAUSES) and set(report["clauses"]) == set(CLAUSES)
    for e in report["clauses"].values():
        assert set(e) >= {"holds", "explored", "witness", "reason"}
    assert report["clauses"]["L4ii"]["holds"] is False and report["clauses"]["L4ii"]["witness"]["replay"]


def test_the_main_help_says_exit_1():
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), *(p for p in sys.path if p)])}
    p = subprocess.run([sys.executable, "-m", "coalg", "--help"], capture_output=True, text=True, cwd=ROOT,
                       env=env, check=False)
    assert "or a clause fails in `conform`" in " ".join(p.stdout.split())
    assert "coalg conform mymemory:Memory" in p.stdout


def test_a_layer_in_the_current_folder_is_found_without_pythonpath(tmp_path: Path) -> None:
    (tmp_path / "mine.py").write_text((HERE / "layers" / "dict_both.py").read_text(encoding="utf-8"), encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHASHSEED")}
    p = subprocess.run([sys.executable, "-m", "coalg", "conform", "mine:FACTORY", "--length", "1", "--walks", "0"],
                       capture_output=True, text=True, cwd=tmp_path, env=env, timeout=600, check=False)
    assert p.returncode == 0, p.stderr[-500:]
    assert "mine:FACTORY" in p.stdout
