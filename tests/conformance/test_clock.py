"""Clock readings a layer writes into metadata are read as the allocation's clock.

The readings below are taken with the standard library's clocks while the span is open; the
values that are not readings are chosen by hand.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta

import pytest

from coalg.conformance.clock import CLOCK_READING, SLACK, Span, without_clock
from coalg.model import FrozenMap, freeze


@pytest.fixture
def taken() -> tuple[Span, list[object]]:
    start = time.time()
    now = datetime.now()
    readings: list[object] = [
        time.time(), int(time.time()), round(time.time()), time.time() * 1000, time.time_ns() // 1000,
        time.time_ns(), str(time.time()), str(int(time.time())),
        now.isoformat(), now.isoformat(timespec="seconds"), datetime.now(UTC).isoformat(),
        now.astimezone().isoformat(), now.strftime("%Y-%m-%d %H:%M:%S"),
    ]
    return Span.since(start), readings


def test_every_form_of_a_reading_taken_during_the_span_is_one(taken: tuple[Span, list[object]]) -> None:
    span, readings = taken
    for value in readings:
        assert span.reads(value), value


@pytest.mark.parametrize("value", [
    0, 1, 3.5, -1, 10**12 * 7, True, False, None, "", "v2", "alpha", "1", "id0001", "12:00", "2020-01-01T00:00:00",
    "1.2.3", "nan", "inf", "9" * 400, 10**400, "1" + "0" * 400, [1], {"a": 1},
])
def test_values_that_are_no_reading_of_the_span(taken: tuple[Span, list[object]], value: object) -> None:
    span, _ = taken
    assert not span.reads(value)


def test_the_span_reaches_slack_seconds_either_side() -> None:
    span = Span(1_000_000.0, 1_000_010.0)
    assert span.reads(1_000_000 - SLACK) and span.reads(1_000_010 + SLACK)
    assert not span.reads(1_000_000 - SLACK - 0.01) and not span.reads(1_000_010 + SLACK + 0.01)
    inside = datetime.fromtimestamp(1_000_005, UTC)
    assert span.reads(inside.isoformat()) and not span.reads((inside + timedelta(seconds=20)).isoformat())
    assert span.reads(1_000_005_000) and span.reads(1_000_005_000_000_000)  # milliseconds, nanoseconds


def test_readings_are_replaced_at_any_depth_and_nothing_else(taken: tuple[Span, list[object]]) -> None:
    span, readings = taken
    meta = freeze({"saved_at": readings[0], "owner": "bob", "n": 2, "history": [readings[8], "v1", 3],
                   "nested": {"at": readings[5], "flag": True}, "parents": ("id0001",)})
    assert without_clock(meta, span) == FrozenMap({
        "saved_at": CLOCK_READING, "owner": "bob", "n": 2, "history": (CLOCK_READING, "v1", 3),
        "nested": FrozenMap({"at": CLOCK_READING, "flag": True}), "parents": ("id0001",)})
    assert without_clock(freeze({"seen": frozenset({readings[1], "x"})}), span) == \
        FrozenMap({"seen": frozenset({CLOCK_READING, "x"})})


@pytest.fixture
def new_york(monkeypatch):
    """The machine's zone set to one five hours behind UTC for the test (and set back after it)."""
    monkeypatch.setenv("TZ", "America/New_York")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def test_a_reading_without_a_zone_is_read_as_local_time_or_as_utc_in_any_zone(new_york) -> None:
    start = time.time()
    local, utc = datetime.now().isoformat(), datetime.now(UTC).replace(tzinfo=None).isoformat()
    span = Span.since(start)
    assert time.timezone == 5 * 3600  # the zone is not UTC: the two texts name other hours
    assert span.reads(local) and span.reads(utc)
    assert not span.reads((datetime.now() + timedelta(hours=2)).isoformat())  # neither local nor UTC


def test_an_http_date_is_a_reading_too() -> None:
    from email.utils import formatdate

    start = time.time()
    stamp, local = formatdate(usegmt=True), formatdate(localtime=True)  # "Tue, 08 Dec 2026 01:13:33 GMT"
    span = Span.since(start)
    assert span.reads(stamp) and span.reads(local)
    assert not span.reads(formatdate(time.time() + 3600, usegmt=True))
    assert not span.reads("Tue, 08") and not span.reads("Dec 2026")
