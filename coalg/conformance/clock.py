"""Clock readings in what a layer shows: the allocation's clock, not the layer's content.

In the paper's model a call's allocation ξ carries the clock reading the call may
stamp, so two runs of the same word differ in their clock readings and in nothing
else. A layer that writes the wall clock into a record's metadata (``"saved_at":
time.time()``, ``datetime.now().isoformat()``) therefore shows other values each time
the kit replays a word, although it is as deterministic as the model. The kit reads
every metadata value that is a wall-clock reading taken while it drove the layer as
:data:`CLOCK_READING`: seconds, milliseconds, microseconds or nanoseconds since the
epoch, as a number or as decimal text, or a date and time in ISO 8601 or as an e-mail or
HTTP date (when it names no zone, local time or UTC). A value that is none of these is left as it is.

>>> from coalg.model import FrozenMap
>>> span = Span(1_700_000_000.0, 1_700_000_060.0)
>>> without_clock(FrozenMap({"saved_at": 1_700_000_012.5, "ms": 1_700_000_030_000, "n": 3}), span)
{'ms': '(a clock reading)', 'n': 3, 'saved_at': '(a clock reading)'}
>>> span.reads(1_800_000_000), span.reads("2023-11-14T22:13:40+00:00"), span.reads("v2")
(False, True, False)
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Any

from .compare import mapped

__all__ = ["CLOCK_READING", "SLACK", "Span", "without_clock"]

CLOCK_READING = "(a clock reading)"
"""What the kit shows for a clock reading, wherever the layer wrote one."""

SLACK = 2.0
"""Seconds either side of the span: a reading cut to whole seconds, or rounded up, still falls in it."""

_UNITS = (1, 10**3, 10**6, 10**9)
"""Readings in seconds, milliseconds, microseconds and nanoseconds since the epoch."""


@dataclass(frozen=True)
class Span:
    """The wall-clock time, in seconds since the epoch, during which the kit drove one layer."""

    start: float
    end: float

    @classmethod
    def since(cls, start: float) -> Span:
        """From ``start`` until now."""
        return cls(start, time.time())

    def reads(self, value: Any) -> bool:
        """Whether ``value`` is a wall-clock reading taken during the span."""
        if isinstance(value, bool):
            return False
        try:
            if isinstance(value, (int, float)):
                return any(self._within(value / unit) for unit in _UNITS)
            if isinstance(value, str):
                return self._reads_text(value)
        except OverflowError:  # an integer too large for a float
            pass
        return False

    def _within(self, seconds: float) -> bool:
        return self.start - SLACK <= seconds <= self.end + SLACK

    def _reads_text(self, text: str) -> bool:
        try:
            if text.strip().replace(".", "", 1).isdigit():
                return self.reads(float(text))
            t = _datetime(text)
            if t.tzinfo is not None:
                return self._within(t.timestamp())
            # no zone: local time (datetime.now()) or UTC (datetime.utcnow(), SQLite's CURRENT_TIMESTAMP),
            # whichever zone the machine is in
            return self._within(t.timestamp()) or self._within(t.replace(tzinfo=UTC).timestamp())
        except (ValueError, OSError):
            return False


def _datetime(text: str) -> datetime:
    """A date and time written in ISO 8601 or as an e-mail or HTTP date (RFC 2822: ``Tue, 08 Dec 2026
    01:13:33 GMT``); ValueError otherwise."""
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        return parsedate_to_datetime(text)


def without_clock(value: Any, span: Span) -> Any:
    """A frozen metadata value (:func:`~coalg.model.freeze`) with each clock reading of ``span``
    in it, at any depth, replaced by :data:`CLOCK_READING`."""
    return mapped(value, lambda v: CLOCK_READING if span.reads(v) else v)
