"""One word step through the released package (:class:`coalg.contextfs.package_run.PackageRun`).

The differential tests compare whole runs with the model; these read each field of one
:class:`~coalg.contextfs.package_run.PackageStep` directly: the answer, the identifiers the package
drew, the exception it raised, the unmodelled cells and the warnings logged during the step.
"""

from __future__ import annotations

import sqlite3
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from coalg.contextfs import AVAILABLE, unavailable_reason
from coalg.contextfs.package_run import UNMODELLED_COLUMNS, PackageRun, Returned
from coalg.contextfs.random_words import WordStep
from coalg.model import (
    ALLOCATION_META_KEYS,
    CONTEXTFS,
    Allocation,
    Call,
    Created,
    Err,
    Evolve,
    Record,
    Save,
    Supersede,
    Wrote,
)

pytestmark = pytest.mark.skipif(not AVAILABLE, reason=f"needs contextfs 0.2.35: {unavailable_reason()}")


@pytest.fixture
def run():
    r = PackageRun("steps.db")
    yield r
    r.close()


def _save(run: PackageRun, content: str, ids: tuple[str, ...], clock: int, *, explicit: bool = False):
    return run.step(WordStep(Call(Save(Record(content)), Allocation(ids, clock)), explicit_id=explicit))


def test_a_save_reports_the_identifier_the_package_drew(run) -> None:
    got = _save(run, "alpha", ("a0000000-001",), 1)
    assert got.created == ("a0000000-001",) and got.raised is None and got.unmodelled == ()
    assert isinstance(got.output, Created) and got.output.ids == ("a0000000-001",)
    assert list(got.store.records) == ["a0000000-001"]


def test_a_save_under_its_own_identifier_draws_none(run) -> None:
    got = _save(run, "alpha", ("b1111111-222",), 1, explicit=True)
    assert got.created == () and list(got.store.records) == ["b1111111-222"]


def test_a_refusal_names_the_call_and_the_package_s_reason(run) -> None:
    got = run.step(WordStep(Call(Evolve("nothing-here", "v2"), Allocation(("c0000000-001",), 1))))
    assert isinstance(got.output, Err) and got.output.reason.startswith("evolve: ")
    assert "no answer" not in got.output.reason and got.output.reason != "evolve: "
    assert got.raised is None and got.created == ()


def test_an_exception_other_than_the_package_s_refusal_is_kept_with_its_message(run) -> None:
    got = _save(run, "alpha", (), 1)  # the package draws an identifier the allocation does not supply
    assert got.output == Err("save: raised RuntimeError")
    assert got.raised == "RuntimeError: the package drew more identifiers than the allocation supplies"


def test_supersede_answers_with_the_edge_it_wrote(run) -> None:
    _save(run, "old", ("a0000000-001",), 1)
    before = _save(run, "new", ("a0000000-002",), 2).store
    got = run.step(WordStep(Call(Supersede("a0000000-001", "a0000000-002"), Allocation((), 3))))
    model = CONTEXTFS.step(before, Supersede("a0000000-001", "a0000000-002"), Allocation((), 3))[0]
    assert isinstance(model, Wrote)  # the model's answer: the edges written, the package's first one returned
    assert got.output == Returned(model.edges[0]) and got.output.edge in got.store.edges


def test_unmodelled_cells_of_every_row_are_listed(run) -> None:
    _save(run, "one", ("a0000000-001",), 1)
    _save(run, "two", ("a0000000-002",), 2)
    conn = sqlite3.connect(run.live.path)
    try:
        conn.execute(f"UPDATE memories SET {UNMODELLED_COLUMNS[0]} = 'x'")
        conn.commit()
    finally:
        conn.close()
    _, cells = run.read()
    assert cells == (f"a0000000-001.{UNMODELLED_COLUMNS[0]}='x'", f"a0000000-002.{UNMODELLED_COLUMNS[0]}='x'")


def test_a_step_s_warnings_are_its_own(run) -> None:
    _save(run, "old", ("a0000000-001",), 1)
    faulty = run.step(WordStep(Call(Evolve("a0000000-001", "v2"), Allocation(("a0000000-002",), 2),
                                    frozenset({0}))))
    assert faulty.warnings  # the package logs the edge write it could not make, and goes on
    later = _save(run, "more", ("a0000000-003",), 3)
    assert later.warnings == ()


def test_a_run_removes_its_database_and_every_file_sqlite_keeps_beside_it() -> None:
    run = PackageRun("closing.db")
    db = Path(str(run.live.path))
    beside = [Path(str(db) + s) for s in ("-journal", "-wal", "-shm")]
    for f in beside:  # what SQLite may leave there: a rollback journal, a write-ahead log and its index
        f.write_bytes(b"")
    other = db.with_name(db.name + "-other")
    other.write_bytes(b"")
    assert db.exists()
    run.close()
    assert not db.exists() and not any(f.exists() for f in beside)
    assert other.exists()  # only the run's own files
    other.unlink()


def test_a_clock_reading_in_metadata_becomes_its_step_and_any_other_value_stays() -> None:
    run = PackageRun("metadata.db")
    try:
        run.clock.begin()
        during = datetime.now().isoformat()
        run.clock.end()
        key = ALLOCATION_META_KEYS[0]
        got = run._metadata({key: during, "owner": "alice"})
        assert dict(got) == {key: 1, "owner": "alice"}
        assert dict(run._metadata({key: "not a time", "n": 3})) == {key: "not a time", "n": 3}
        assert dict(run._metadata({key: "2001-01-01T00:00:00"})) == {key: "2001-01-01T00:00:00"}  # no step then
    finally:
        run.close()


class _StuckClock:
    """``datetime`` whose ``now`` reads one instant ``stuck`` times running, then moves on a microsecond."""

    def __init__(self, stuck: int) -> None:
        self.t, self.stuck, self.calls = datetime(2026, 1, 1, 12, 0, 0), stuck, 0

    def now(self, tz: object = None) -> datetime:
        self.calls += 1
        if self.calls > self.stuck:
            self.t += timedelta(microseconds=1)
        return self.t.replace(tzinfo=tz) if tz is not None else self.t  # type: ignore[arg-type]

    fromisoformat = staticmethod(datetime.fromisoformat)


def test_a_step_begins_only_once_the_clock_has_moved_past_the_last_one(monkeypatch: pytest.MonkeyPatch) -> None:
    import coalg.contextfs.package_run as pr

    fake = _StuckClock(stuck=6)  # begin (2 readings), end (2), and the next begin sees the same instant twice
    monkeypatch.setattr(pr, "datetime", fake)
    clock = pr.StepClock()
    clock.begin()
    clock.end()
    clock.begin()
    clock.end()
    (lo1, hi1), (lo2, hi2) = clock.local
    assert lo1 == hi1 and hi1 < lo2 <= hi2
    assert fake.calls > 8  # it waited


def test_a_reading_on_a_step_s_mark_belongs_to_that_step() -> None:
    from coalg.contextfs.package_run import StepClock

    clock = StepClock()
    for _ in range(2):
        clock.begin()
        clock.end()
    for marks in (clock.local, clock.utc):
        for k, (lo, hi) in enumerate(marks, start=1):
            assert clock.step_of(lo) == k and clock.step_of(hi) == k
            assert clock.step_of(lo.isoformat()) == k


def test_a_step_ends_once() -> None:
    from coalg.contextfs.package_run import StepClock

    clock = StepClock()
    with pytest.raises(AssertionError):
        clock.end()
    clock.begin()
    clock.end()
    with pytest.raises(AssertionError):
        clock.end()


def test_an_edge_of_a_kind_the_model_does_not_know_is_no_answer(run) -> None:
    from types import SimpleNamespace

    from coalg.contextfs.package_run import _Raw
    from coalg.model import Edge, Relation

    def edge(label: str) -> SimpleNamespace:
        return SimpleNamespace(from_id="n", relation=SimpleNamespace(value=label), to_id="o")

    assert run._convert(_Raw("edge", [edge("supersedes")])) == Returned(Edge("n", Relation.SUPERSEDES, "o"))
    assert run._convert(_Raw("edge", [edge("inspired_by")])) == Returned(None)
    assert run._convert(_Raw("edge", [None])) == Returned(None)
