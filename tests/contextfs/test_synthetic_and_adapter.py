"""Exact behaviour of the synthetic database, the adapter's read-back, odd identifiers and the hash-seed runs.

* :func:`~coalg.contextfs.synthetic.make_synthetic_database`: every row and edge read back with plain
  ``sqlite3`` and checked against what its docstring plants, row by row (a row's index ``k`` is in
  its content, ``memory k: xxx``, so its clock, tags and namespace follow from it).
* :func:`~coalg.contextfs.adapter._record_of` on hand-written ``Memory`` stand-ins, and one step
  of :class:`~coalg.contextfs.adapter.ContextFSRuntime` per letter whose record fields matter.
* :func:`~coalg.contextfs.random_words._odd` and :func:`~coalg.contextfs.random_words.odd_id`
  driven by a scripted random source, so each branch's result is known in advance.
* :func:`~coalg.contextfs.runtime.merged_types_by_seed`: the children it starts (what they are
  given, how many at once) and the merged types, compared with the tie-break computed in a
  child interpreter of our own.
"""

from __future__ import annotations

import json
import re
import sqlite3
import subprocess
import sys
import threading
from datetime import datetime, timedelta
from pathlib import Path
from types import SimpleNamespace

import pytest

from coalg.contextfs import AVAILABLE, make_synthetic_database, unavailable_reason
from coalg.contextfs.adapter import _record_of
from coalg.contextfs.random_words import _odd, odd_id
from coalg.model import (
    Allocation,
    Created,
    Edge,
    Err,
    Evolve,
    Found,
    FrozenMap,
    Recall,
    Record,
    Relation,
    Save,
    Store,
)

needs_package = pytest.mark.skipif(not AVAILABLE, reason=f"needs contextfs 0.2.35: {unavailable_reason()}")

# =========================================================================== make_synthetic_database

SPACES = ("team-a", "team-b", "team-c", "personal")
NOW = "2026-02-01T00:00:00+00:00"  # deleted_at of soft deletes and created_at of the supersede edges


def _clock(k: int) -> str:
    """Row ``k``'s created_at: 2026-01-01 00:00:00 plus ``k`` seconds (naive ISO)."""
    return (datetime(2026, 1, 1) + timedelta(seconds=k)).isoformat()


def _read(path: Path) -> tuple[dict[str, dict], dict[tuple[str, str, str], tuple[str, str, str | None]]]:
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("SELECT version_num FROM alembic_version").fetchall() == [("009",)]
        rows = {}
        for i, content, ty, tags, ns, c, u, meta, d in conn.execute(
                "SELECT id, content, type, tags, namespace_id, created_at, updated_at, metadata, deleted_at "
                "FROM memories"):
            rows[i] = {"content": content, "type": ty, "tags": json.loads(tags), "ns": ns, "created": c,
                       "updated": u, "meta": json.loads(meta), "deleted": d}
        edges = {(f, r, t): (c, m, d) for f, r, t, c, m, d in conn.execute(
            "SELECT from_id, relation, to_id, created_at, metadata, deleted_at FROM memory_edges")}
    finally:
        conn.close()
    return rows, edges


def _check_database(path: Path, n: int, stats: dict[str, int]) -> dict[str, object]:
    """Everything the docstring plants, checked row by row; returns what a caller may pin further."""
    rows, edges = _read(path)
    extra = max(1, n // 500)
    assert len(rows) == stats["records"] == n
    k_of: dict[str, int] = {}
    lengths = []
    for i, r in rows.items():
        assert re.fullmatch(r"[0-9a-f]{8}-[0-9a-f]{3}", i)
        m = re.fullmatch(r"memory (\d+): (x*)", r["content"])
        assert m, r["content"]
        k = k_of[i] = int(m.group(1))
        lengths.append(len(m.group(2)))
        assert r["created"] == r["updated"] == _clock(k)
        assert r["tags"] == [f"t{k % 17}"]
        assert r["type"] in ("fact", "decision", "episodic")
        assert r["deleted"] in (None, NOW)
    assert len(set(k_of.values())) == n and set(k_of.values()) <= set(range(n + extra))
    assert all(20 <= x < 200 for x in lengths)
    dead_k = sorted(set(range(n + extra)) - set(k_of.values()))
    assert len(dead_k) == stats["hard_deleted"] == extra and all(k < max(1, n // 2) for k in dead_k)
    soft = {i for i, r in rows.items() if r["deleted"] == NOW}
    assert len(soft) == stats["soft_deleted"] == extra
    # each row is a plain save, an evolve or a merge, and only past the first eleven
    written: dict[tuple[str, str, str], str] = {}  # every edge the derivations wrote, both endpoints alive
    derived_parents: list[str] = []
    evolved = merged = 0
    for i, r in rows.items():
        k, meta, stamp = k_of[i], r["meta"], r["created"] + "+00:00"
        if not meta:
            assert r["ns"] == SPACES[k % 4]
            continue
        assert k > 10
        if "evolved_from" in meta:
            p = meta["evolved_from"]
            assert meta == {"evolved_from": p, "evolution_timestamp": stamp, "change_reason": "observation"}
            parents, rel, inv = [p], "evolved_from", "evolved_into"
            evolved += 1
        else:
            a, b = meta["merged_from"]
            assert meta == {"merged_from": [a, b], "merge_strategy": "union", "merge_timestamp": stamp}
            assert a != b
            parents, rel, inv = [a, b], "merged_from", "merged_into"
            merged += 1
        derived_parents += parents
        if parents[0] in rows:  # the first argument's namespace
            assert r["ns"] == rows[parents[0]]["ns"]
        for p in parents:
            if p in rows:
                assert k_of[p] < k
                written[(i, rel, p)] = r["created"]
                written[(p, inv, i)] = r["created"]
    # hard-deleted parents are named by metadata only, never by an edge
    assert all(p in rows or p not in {x for e in edges for x in (e[0], e[2])} for p in derived_parents)
    gone = {e: v for e, v in edges.items() if e[0].startswith("gone") or e[2].startswith("gone")}
    kept = {e: v for e, v in edges.items() if e not in gone}
    assert set(kept) <= set(written)
    lost = sorted(set(written) - set(kept))
    assert len(lost) == stats["one_way"] == (max(1, len(written) // 1000) if written else 0)
    assert all(kept[e][0] == written[e] and kept[e][1] == "{}" for e in kept)
    # supersedes of missing ids: one pair per thousand records, at least one, on live records
    supers = max(1, n // 1000)
    assert stats["superseded_missing"] == supers and len(gone) == 2 * supers
    for j in range(supers):
        missing = f"gone{j:04d}-xyz"
        (new,) = [e[0] for e in gone if e[2] == missing]
        assert new in rows
        assert {(new, "supersedes", missing), (missing, "superseded_by", new)} <= set(gone)
    assert all(v[0] == NOW and v[1] == "{}" for v in gone.values())
    # soft deletes reach the edges of the records they mark
    for (f, _, t), (_, _, d) in edges.items():
        assert d == (NOW if f in soft or t in soft else None)
    assert stats["edges"] == len(edges)
    assert stats["evolved"] >= evolved and stats["merged"] >= merged
    assert set(stats) == {"evolved", "merged", "soft_deleted", "hard_deleted", "one_way", "superseded_missing",
                          "records", "edges"}
    return {"rows": rows, "k_of": k_of, "dead_k": dead_k, "soft_k": sorted(k_of[i] for i in soft), "lost": lost,
            "lengths": lengths, "evolved_rows": evolved, "merged_rows": merged}


def test_the_docstring_database_row_by_row(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    stats = make_synthetic_database(path, 600)
    seen = _check_database(path, 600, stats)
    # the same arguments write the same rows: what seed 7 draws for 600 records
    assert stats == {"evolved": 146, "merged": 30, "soft_deleted": 1, "hard_deleted": 1, "one_way": 1,
                     "superseded_missing": 1, "records": 600, "edges": 407}
    assert seen["dead_k"] == [283] and seen["soft_k"] == [4]  # row 283 (of the first half) is hard-deleted
    assert seen["lost"] == [("66d72fdf-202", "evolved_into", "88d6b401-3ef")]
    assert (seen["evolved_rows"], seen["merged_rows"]) == (145, 30)  # the hard-deleted row was an evolve
    assert min(seen["lengths"]) == 20 and max(seen["lengths"]) == 199  # randrange(20, 200) reaches both ends


@pytest.mark.parametrize("n, seed", [(40, 13), (40, 493), (2000, 7), (2842, 7), (1, 7), (2, 3), (5, 7), (20, 7)])
def test_other_sizes_row_by_row(tmp_path: Path, n: int, seed: int) -> None:
    """(40, 13): rows 10 and 11 both draw an evolve, (40, 493) both a merge, but row 10 is too early;
    2000 records plant two supersedes, 2842 records (seed 7) write exactly 2,000 derivation edges, so two
    become one-way; below 21 records no row is derived and nothing can be one-way."""
    path = tmp_path / "s.db"
    stats = make_synthetic_database(path, n, seed=seed)
    seen = _check_database(path, n, stats)
    rows, k_of = seen["rows"], seen["k_of"]
    by_k = {k: rows[i] for i, k in k_of.items()}
    if (n, seed) == (40, 13):
        assert by_k[10]["meta"] == {} and "evolved_from" in by_k[11]["meta"]
    if (n, seed) == (40, 493):
        assert by_k[10]["meta"] == {} and "merged_from" in by_k[11]["meta"]
    if n == 2842:
        assert stats["one_way"] == 2
    if n == 2000:
        assert stats["superseded_missing"] == 2
    if n <= 20:
        assert stats["evolved"] == stats["merged"] == stats["one_way"] == 0
    assert make_synthetic_database(tmp_path / "again.db", n, seed=seed) == stats


def test_no_records_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError):
        make_synthetic_database(tmp_path / "z.db", 0)


# =========================================================================== _record_of


def _mem(**kw: object) -> SimpleNamespace:
    base = {"content": "c", "type": "fact", "namespace_id": "ns-x", "tags": ["b", "a"], "summary": "sum",
            "metadata": {"k": 1, "owner": "alice"}, "created_at": datetime(2000, 1, 1, 0, 0, 5),
            "updated_at": datetime(2000, 1, 1, 0, 1, 0)}
    return SimpleNamespace(**{**base, **kw})


class _Valued:
    """A type object like ``MemoryType``: its ``value`` is the type, its ``str`` is not."""

    value = "decision"

    def __str__(self) -> str:
        return "MemoryType.DECISION"


def test_record_of_reads_every_field() -> None:
    r = _record_of(_mem(type=_Valued()), {})
    assert r == Record(content="c", type="decision", namespace="ns-x", tags=frozenset({"a", "b"}), summary="sum",
                       metadata=FrozenMap({"k": 1, "owner": "alice"}), created_at=5, updated_at=60)


def test_record_of_maps_carried_types_back() -> None:
    assert _record_of(_mem(type=_Valued()), {"decision": "altered"}).type == "altered"
    assert _record_of(_mem(type="decision"), {"decision": "altered"}).type == "altered"
    # a plain string type (no ``value``) that is not carried stays as it is
    assert _record_of(_mem(type="banana"), {"decision": "altered"}).type == "banana"
    assert _record_of(_mem(type=_Valued()), {"fact": "altered"}).type == "decision"


def test_record_of_edge_values() -> None:
    r = _record_of(_mem(metadata=None, tags=[], summary=None, created_at=None, updated_at=None), {})
    assert r == Record(content="c", type="fact", namespace="ns-x")
    assert r.metadata == FrozenMap() and r.created_at is None and r.updated_at is None
    r = _record_of(_mem(created_at="2000-01-01T00:00:07+00:00", updated_at="2000-01-01T00:00:09"), {})
    assert (r.created_at, r.updated_at) == (7, 9)


@needs_package
def test_record_of_a_package_memory() -> None:
    from coalg.contextfs import modules

    m = modules()
    mem = m.Memory(id="x", content="text", type=m.MemoryType.DECISION, tags=["t2", "t1"], summary="s",
                   namespace_id="alice", metadata={"evolved_from": "p"}, created_at=datetime(2000, 1, 1, 0, 0, 3),
                   updated_at=datetime(2000, 1, 1, 0, 0, 4))
    assert str(mem.type) != "decision"  # so the type must be read through .value
    assert _record_of(mem, {"decision": "altered"}) == Record(
        "text", type="altered", namespace="alice", tags=frozenset({"t1", "t2"}), summary="s",
        metadata=FrozenMap({"evolved_from": "p"}), created_at=3, updated_at=4)


# =========================================================================== ContextFSRuntime.run, _run_letter


@pytest.fixture(scope="module")
def engine():
    if not AVAILABLE:
        pytest.skip(f"needs contextfs 0.2.35: {unavailable_reason()}")
    from coalg.contextfs import engine as get

    return get()


def test_a_save_writes_summary_metadata_and_tags(engine) -> None:
    rec = Record("x", type="fact", namespace="n", tags=frozenset({"t1", "t2"}), summary="S",
                 metadata=FrozenMap({"k": 1}))
    report = engine.run(Store(), Save(rec), Allocation(("q0000000-001",), 3))
    expected = Record("x", type="fact", namespace="n", tags=frozenset({"t1", "t2"}), summary="S",
                      metadata=FrozenMap({"k": 1}), created_at=3, updated_at=3)
    assert report.store.records["q0000000-001"] == expected
    assert report.output == Created((("q0000000-001", expected),))
    assert report.letter == "save" and report.types == FrozenMap()  # every type is the package's own


def test_a_recall_returns_the_whole_record(engine) -> None:
    a = Record("x", type="altered", namespace="n", tags=frozenset({"t"}), summary="S", metadata=FrozenMap({"k": 1}),
               created_at=2, updated_at=5)
    s = Store.of({"a": a, "b": Record("y", type="fact", namespace="n", created_at=1, updated_at=1)})
    report = engine.run(s, Recall("a"), Allocation((), 6))
    assert report.output == Found("a", a)
    # "altered" is carried by the first MemoryType value the store does not use (fact is used)
    assert report.types == FrozenMap({"altered": "decision"}) and report.store == s


def test_an_inadmissible_allocation_is_refused_before_the_package_runs(engine) -> None:
    s = Store.of({"a": Record("x", namespace="n")})
    calls = engine.calls
    report = engine.run(s, Evolve("a", "v"), Allocation(("a",), 2))
    assert isinstance(report.output, Err) and "inadmissible" in report.output.reason
    assert report.letter == "evolve" and report.store == s and engine.calls == calls


def test_two_failing_edge_writes_in_one_call(engine) -> None:
    s = Store.of({"a": Record("x", namespace="n", created_at=1, updated_at=1)})
    report = engine.run(s, Evolve("a", "v2"), Allocation(("b",), 2), faults=frozenset({1, 0}))
    assert report.faults == (0, 1)
    assert isinstance(report.output, Created) and report.output.ids == ("b",)
    assert report.store.dom() == {"a", "b"} and not report.store.edges  # neither edge was written
    one = engine.run(s, Evolve("a", "v2"), Allocation(("b",), 2), faults=frozenset({1}))
    assert set(one.store.edges) == {Edge("b", Relation.EVOLVED_FROM, "a")}  # the second write failed


# =========================================================================== _odd and odd_id


class ScriptedRng:
    """A random source whose draws are given in advance, with ``random.Random``'s semantics:
    ``randrange(a, b)`` is ``a`` plus a scripted offset below ``b - a``, ``choice`` names the element."""

    def __init__(self, *script: object) -> None:
        self.script = list(script)
        self.calls: list[tuple] = []

    def _next(self) -> object:
        if not self.script:
            raise AssertionError(f"drew more than scripted: {self.calls}")
        return self.script.pop(0)

    def random(self) -> float:
        self.calls.append(("random",))
        return self._next()  # type: ignore[return-value]

    def randrange(self, start: int, stop: int | None = None) -> int:
        if stop is None:
            start, stop = 0, start
        self.calls.append(("randrange", start, stop))
        offset = self._next()
        assert isinstance(offset, int) and 0 <= offset < stop - start, (offset, start, stop)
        return start + offset

    def choice(self, seq):
        self.calls.append(("choice", tuple(seq)))
        x = self._next()
        assert x in seq, (x, seq)
        return x


@pytest.mark.parametrize("branch, k, expected", [
    (0, 1, "AB1C"),          # upper case
    (1, 1, "aB1c"),          # one character upper case
    (1, 4, "ab1c"),          # ... past the end: unchanged
    (2, 1, "a_1c"),          # one character replaced by _
    (2, 0, "_b1c"),
    (3, 2, "ab%1c"),         # % inserted
    (4, 3, "ab1cé"),         # a character appended (choice below)
])
def test_odd_changes_one_thing(branch: int, k: int, expected: str) -> None:
    rng = ScriptedRng(k, branch, *(["é"] if branch == 4 else []))
    assert _odd(rng, "ab1c") == expected
    assert rng.calls[:2] == [("randrange", 0, 5), ("randrange", 0, 6)]
    assert not rng.script


def test_odd_falls_back_to_a_fixed_oddity() -> None:
    rng = ScriptedRng(2, 5, "%0\0")
    assert _odd(rng, "ab1c") == "%0\0"
    assert rng.calls[2][1] == ("%", "_", "%-", "_0", "É", "é", "ß", "A%", "%0\0", "B1F")


def test_odd_upper_cases_mixed_text() -> None:
    assert _odd(ScriptedRng(0, 0), "aB") == "AB"
    assert _odd(ScriptedRng(0, 1), "aB") == "AB"
    assert _odd(ScriptedRng(1, 1), "aB") == "aB"
    assert _odd(ScriptedRng(0, 2), "") == "_"
    assert _odd(ScriptedRng(0, 3), "") == "%"


class _Supply:
    def __init__(self, *fresh: str, issued: set[str] = frozenset()) -> None:  # type: ignore[assignment]
        self._fresh = list(fresh)
        self.issued = set(issued)

    def fresh(self) -> str:
        j = self._fresh.pop(0)
        self.issued.add(j)
        return j


STORED = "ab12cd34-001"
ODD = ("_", "%", "A", "B", "F", "é", "É", "ß", "K")


def _store(*ids: str) -> Store:
    return Store.of({i: Record("x", namespace="n") for i in ids})


def _cands(j: str, cut: int, suffix: str) -> tuple[str, str, str]:
    return j[:cut], j + suffix, j.upper()


def test_odd_id_cuts_a_stored_identifier_short() -> None:
    s = _store(STORED, "b0000000-000")
    cut = STORED[:4]
    rng = ScriptedRng(0.2, STORED, 3, "K", cut)
    supply = _Supply()
    assert odd_id(rng, s, supply) == "ab12" and supply.issued == {"ab12"}
    assert rng.calls[1] == ("choice", (STORED, "b0000000-000"))  # the stored ids, sorted
    assert rng.calls[2] == ("randrange", 1, 13)  # a cut of 1 to 12 characters
    assert rng.calls[4] == ("choice", _cands(STORED, 4, "K"))


def test_odd_id_extends_or_upper_cases_a_stored_identifier() -> None:
    s = _store(STORED)
    assert odd_id(ScriptedRng(0.49, STORED, 0, "ß", STORED + "ß"), s, _Supply()) == STORED + "ß"
    assert odd_id(ScriptedRng(0.0, STORED, 11, "A", STORED.upper()), s, _Supply()) == "AB12CD34-001"


def test_odd_id_redraws_what_is_stored_or_issued() -> None:
    s = _store(STORED)
    supply = _Supply(issued={"a"})
    # a whole-length cut is the stored identifier, a one-character cut was issued before: both redrawn
    rng = ScriptedRng(0.1, STORED, 11, "A", STORED,
                      0.1, STORED, 0, "A", "a",
                      0.1, STORED, 1, "A", "ab")
    assert odd_id(rng, s, supply) == "ab" and supply.issued == {"a", "ab"} and not rng.script


def test_odd_id_changes_one_character_of_a_fresh_identifier() -> None:
    s = _store(STORED)
    for draw in (0.5, 0.7):  # from one half on, a fresh identifier is changed
        rng = ScriptedRng(draw, 3, "%")
        supply = _Supply("b1234567-89a")
        assert odd_id(rng, s, supply) == "b12%4567-89a"
        assert rng.calls[1] == ("randrange", 0, 12) and supply.issued == {"b1234567-89a", "b12%4567-89a"}
    assert odd_id(ScriptedRng(0, "K"), Store(), _Supply("b1234567-89a")) == "K1234567-89a"  # no random() draw
    assert odd_id(ScriptedRng(11, "_"), Store(), _Supply("b1234567-89a")) == "b1234567-89_"


def test_odd_id_from_a_real_generator_is_never_stored_nor_reissued() -> None:
    import random

    from coalg.contextfs.random_words import IdSupply

    rng = random.Random("odd")
    s = _store(STORED, "ab12cd34-0", "b0000000-000")
    supply = IdSupply(rng)
    got = [odd_id(rng, s, supply) for _ in range(200)]
    assert len(set(got)) == 200 and not set(got) & set(s.records) and set(got) <= supply.issued
    assert all(g for g in got)


# =========================================================================== merged_types_by_seed


_TIE = r"""
import enum, json, sys
class MemoryType(str, enum.Enum):
    FACT = "fact"
    DECISION = "decision"
F, D = MemoryType.FACT, MemoryType.DECISION
def tie(types):
    return max(set(types), key=types.count).value
print(json.dumps({"fact_first": tie([F, D]), "decision_first": tie([D, F]), "expression": tie([F, D]),
                  "hashseed": sys.flags.hash_randomization}))
"""


def _tie_break(seed: int) -> dict[str, object]:
    """The package's ``max(set(types), key=types.count)`` on two tied members, in a child with this hash seed."""
    p = subprocess.run([sys.executable, "-c", _TIE], capture_output=True, text=True, check=True,
                       env={"PYTHONHASHSEED": str(seed)})
    return json.loads(p.stdout)


@needs_package
def test_merged_types_follow_the_hash_seed() -> None:
    from coalg.contextfs.runtime import merged_types_by_seed

    runs = merged_types_by_seed([1, 0])
    assert runs == {0: _tie_break(0), 1: _tie_break(1)}
    assert {r["fact_first"] for r in runs.values()} == {"fact", "decision"}  # both occur (Prop. 5.20)


@needs_package
def test_each_seed_child_gets_the_template_and_its_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    from coalg.contextfs import runtime
    from coalg.contextfs.materialise import schema_template

    script = ("import json, os\nprint('noise')\n"
              "print(json.dumps([os.environ.get('COALG_CONTEXTFS_TEMPLATE'), os.environ['PYTHONHASHSEED']]))\n")
    monkeypatch.setattr(runtime, "_SEED_SCRIPT", script)
    template = str(schema_template())
    assert Path(template).is_file()
    assert runtime.merged_types_by_seed([5, 2, 9], workers=0) == {2: [template, "2"], 5: [template, "5"],
                                                                    9: [template, "9"]}
    monkeypatch.setattr(runtime, "_SEED_SCRIPT", "import sys\nsys.exit('boom')\n")
    with pytest.raises(RuntimeError, match=re.escape("the PYTHONHASHSEED=4 run failed: ['boom']")):
        runtime.merged_types_by_seed([4])


@needs_package
def test_seed_children_run_at_most_workers_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    from coalg.contextfs import runtime

    lock = threading.Condition()
    state = {"active": 0, "most": 0}
    seen: list[dict[str, object]] = []

    def fake(code: str, *args: str, **kw: object) -> str:
        with lock:
            seen.append(kw)
            state["active"] += 1
            state["most"] = max(state["most"], state["active"])
            lock.notify_all()
            lock.wait_for(lambda: state["active"] > limit, timeout=0.05)  # give one more child a chance to start
            state["active"] -= 1
        return json.dumps({"seed": kw["hashseed"]}) + "\n"

    monkeypatch.setattr(runtime, "run_with_hashseed", fake)
    for limit, kwargs in ((2, {}), (1, {"workers": 1})):
        state["most"] = 0
        seen.clear()
        assert runtime.merged_types_by_seed(range(3), **kwargs) == {s: {"seed": s} for s in range(3)}
        assert state["most"] <= limit
        assert sorted(kw["hashseed"] for kw in seen) == [0, 1, 2]
        assert all(kw["timeout"] == 120 and kw["what"] == f"the PYTHONHASHSEED={kw['hashseed']} run" for kw in seen)


def test_a_clock_reading_is_seconds_after_the_epoch_and_none_is_the_epoch() -> None:
    from coalg.contextfs.tables import stamp, unstamp

    assert stamp(None) == stamp(0) == datetime(2000, 1, 1)
    assert stamp(61) == datetime(2000, 1, 1, 0, 1, 1) and unstamp(stamp(61)) == 61 and unstamp(None) is None


def test_synthetic_identifiers_are_distinct_even_when_the_generator_repeats_itself() -> None:
    from coalg.contextfs.synthetic import _ids

    class Repeating:
        def __init__(self) -> None:
            self.draws = iter([0xABC, 0xABC, 0xABC, 0xDEF])

        def getrandbits(self, k: int) -> int:
            return next(self.draws)

    assert _ids(Repeating(), 2) == ["00000000-abc", "00000000-def"]  # type: ignore[arg-type]


def test_allocated_names_run_from_id0001_in_creation_order_in_keys_and_strings() -> None:
    from types import SimpleNamespace

    from coalg.contextfs.live import Allocated

    new = Allocated()
    first, second = new(SimpleNamespace(id="3c9e1f0a-7b2")), new(SimpleNamespace(id="5d0e2a1b-8c3"))
    new(first)  # noted once: a record seen again keeps its name
    assert new.names == {"3c9e1f0a-7b2": "id0001", "5d0e2a1b-8c3": "id0002"}
    assert new.json({second.id: [first.id, 3], 7: f"from {first.id}"}) == {"id0002": ["id0001", 3], 7: "from id0001"}


def test_the_audit_escapes_only_what_does_not_print() -> None:
    from coalg.contextfs.auditing import _printable

    assert _printable("a\\b\tc\x00é") == "a\\b\\tc\\x00é"  # the backslash prints, so it stays as it is


def test_a_created_record_is_reported_as_the_store_after_the_call_holds_it() -> None:
    from coalg.contextfs.adapter import _rename_output

    returned, stored = Record("as returned"), Record("as stored", tags=frozenset({"t"}))
    after = Store.of({"id0001": stored})
    out = Created((("3c9e1f0a-7b2", returned), ("77aa0000-001", returned)))
    renamed = _rename_output(out, {"3c9e1f0a-7b2": "id0001", "77aa0000-001": "id0002"}, after)
    # id0001 as the store holds it; id0002 is not in the store: as the package returned it
    assert renamed == Created((("id0001", stored), ("id0002", returned)))
    assert _rename_output(Err("no"), {"a": "b"}, after) == Err("no")
