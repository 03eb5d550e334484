"""The ``Timeline`` emulation (paper Listing 5, §4.4; used in §5.8): ContextFS's single time axis, and its naive-timezone pitfall.

``Timeline.at`` (``types/versioned.py:238–263``) is the single-axis query
ContextFS's unpersisted version model offers; :class:`Timeline` reproduces it
faithfully, :func:`timeline_of` derives one from a store's lineage the way
``VersionedMem.from_lineage`` does, and :func:`naive_timezone_pitfall` shows the
pitfall it carries: a naive local ``created_at`` read as UTC.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta, timezone, tzinfo
from typing import Any

from ..model import DESCENDANT, Id, Store, Time

__all__ = [
    "VersionEntry",
    "Timeline",
    "EPOCH",
    "clock_to_datetime",
    "timeline_of",
    "CST",
    "TimezonePitfall",
    "naive_timezone_pitfall",
]


@dataclass(frozen=True, slots=True)
class VersionEntry:
    """A version of a memory on ContextFS's single time axis (``types/versioned.py:87``, field ``:117``).

    ``timestamp`` is the one time field; it may be naive or timezone-aware, as in
    the code.  ``memory_id`` is the memory the version belongs to (``:115``), the
    field ``VersionedMem.is_consistent`` compares.  The other fields are our
    abridgement, kept to what the examples use.
    """

    timestamp: datetime
    content: str
    version_id: str = ""
    reason: str = "observation"
    author: str | None = None
    memory_id: str = ""


def _utc_if_naive(ts: datetime) -> datetime:
    return ts.replace(tzinfo=UTC) if ts.tzinfo is None else ts


class Timeline:
    """ContextFS's ``Timeline`` (``types/versioned.py:175``): entries kept sorted by ``add``.

    ``at`` is Listing 5 line for line.  ``add`` (lines 218–236) is not in
    the paper; we reconstruct it as "insert, keep sorted by timestamp", reading a
    naive timestamp as UTC exactly as ``at`` does (so mixed entries can be sorted);
    an entry with the same timestamp as existing ones goes after them.

    >>> utc = timezone.utc
    >>> tl = Timeline([VersionEntry(datetime(2026, 1, 29, 12, tzinfo=utc), "b"),
    ...                VersionEntry(datetime(2026, 1, 29, 9, tzinfo=utc), "a")])
    >>> [e.content for e in tl.entries]
    ['a', 'b']
    >>> tl.at(datetime(2026, 1, 29, 10, tzinfo=utc)).content
    'a'
    >>> tl.at(datetime(2026, 1, 29, 8)) is None            # naive: read as UTC
    True
    """

    def __init__(self, entries: Iterable[VersionEntry] = ()) -> None:
        self.entries: list[VersionEntry] = []
        for e in entries:
            self.add(e)

    def add(self, entry: VersionEntry) -> None:
        """Insert ``entry`` keeping ``entries`` sorted by timestamp."""
        key = _utc_if_naive(entry.timestamp)
        k = len(self.entries)
        while k > 0 and _utc_if_naive(self.entries[k - 1].timestamp) > key:
            k -= 1
        self.entries.insert(k, entry)

    def at(self, timestamp: datetime) -> VersionEntry | None:
        """Listing 5: the last entry with timestamp ≤ ``timestamp``; naive times are read as UTC."""
        ts = timestamp
        if ts.tzinfo is None:
            ts = ts.replace(tzinfo=timezone.utc)  # noqa: UP017  (Listing 5, verbatim)
        result = None
        for entry in self.entries:
            entry_ts = entry.timestamp
            if entry_ts.tzinfo is None:
                entry_ts = entry_ts.replace(tzinfo=timezone.utc)  # noqa: UP017
            if entry_ts <= ts:
                result = entry
            else:
                break
        return result

    @classmethod
    def stored(cls, entries: Iterable[VersionEntry]) -> Timeline:
        """A timeline whose entries are kept in the order given, as a persisted list is read back raw.

        ``add`` sorts; a timeline loaded from storage, or written by a mapping, need not be sorted —
        which is what the monotone-timestamps clause of :meth:`is_consistent` checks.
        """
        tl = cls()
        tl.entries = list(entries)
        return tl

    def is_consistent(self, memory_id: str) -> bool:
        """``VersionedMem.is_consistent`` (``types/versioned.py:576–609``) for the memory ``memory_id``.

        In list order: every entry's ``memory_id`` is ``memory_id``, timestamps never
        decrease (compared raw, as the code does: mixing naive and aware timestamps
        raises ``TypeError`` there and here), and no ``version_id`` repeats.  An empty
        timeline is consistent.

        >>> utc = timezone.utc
        >>> a = VersionEntry(datetime(2026, 1, 29, 9, tzinfo=utc), "a", version_id="v1", memory_id="m")
        >>> b = VersionEntry(datetime(2026, 1, 29, 8, tzinfo=utc), "b", version_id="v2", memory_id="m")
        >>> Timeline.stored([a, b]).is_consistent("m"), Timeline([a, b]).is_consistent("m")
        (False, True)
        >>> Timeline([a]).is_consistent("other")
        False
        """
        seen: set[str] = set()
        prev: datetime | None = None
        for entry in self.entries:
            if entry.memory_id != memory_id:
                return False
            if prev is not None and entry.timestamp < prev:
                return False
            prev = entry.timestamp
            if entry.version_id in seen:
                return False
            seen.add(entry.version_id)
        return True

    def __len__(self) -> int:
        return len(self.entries)

    def __repr__(self) -> str:
        return f"Timeline({self.entries!r})"


EPOCH = datetime(2026, 1, 29, 12, 0, tzinfo=UTC)
"""The instant clock reading 0 stands for when stores are shown on a datetime axis (a93035d's commit day)."""


def clock_to_datetime(
    t: Time, *, epoch: datetime = EPOCH, unit: timedelta = timedelta(hours=1)
) -> datetime:
    """A clock reading as a UTC-aware datetime: ``epoch + t·unit``.

    >>> clock_to_datetime(3).isoformat()
    '2026-01-29T15:00:00+00:00'
    """
    return epoch + t * unit


def timeline_of(
    s: Store, root: Id, *, epoch: datetime = EPOCH, unit: timedelta = timedelta(hours=1)
) -> Timeline:
    """The single-axis timeline of ``root`` and everything evolved from it, stamped with ``created_at``.

    This is what ``VersionedMem.from_lineage`` derives from lineage history: one
    entry per version, on the only axis the store has.
    """
    seen, todo, order = {root}, [root], []
    while todo:
        x = todo.pop()
        order.append(x)
        for e in s.out_edges(x, DESCENDANT):
            if e.target not in seen:
                seen.add(e.target)
                todo.append(e.target)
    tl = Timeline()
    for i in sorted(order):
        r = s.records.get(i)
        if r is not None and r.created_at is not None:
            tl.add(
                VersionEntry(
                    clock_to_datetime(r.created_at, epoch=epoch, unit=unit), r.content, version_id=i
                )
            )
    return tl


CST = timezone(timedelta(hours=-6), "UTC-06:00")
"""The zone of a93035d's commit (−0600), given explicitly so that results never depend on the machine."""


@dataclass(frozen=True, slots=True)
class TimezonePitfall:
    """The naive-timestamp pitfall of ``Timeline.at``: the answer it gives and the right one.

    ``Memory.created_at`` is a *naive local* ``datetime.now()``; lineage timestamps
    are UTC-aware.  ``Timeline.at`` reads every naive time as UTC, so in a zone
    that is not UTC a record's version moves by the zone's offset.
    """

    local_zone: str
    created_naive: datetime
    created_true_utc: datetime
    evolved_utc: datetime
    query: datetime
    timeline_answer: str | None
    correct_answer: str | None

    @property
    def wrong(self) -> bool:
        return self.timeline_answer != self.correct_answer

    def to_json(self) -> dict[str, Any]:
        return {
            "local_zone": self.local_zone,
            "created_naive": self.created_naive.isoformat(),
            "created_true_utc": self.created_true_utc.isoformat(),
            "evolved_utc": self.evolved_utc.isoformat(),
            "query": self.query.isoformat(),
            "timeline_answer": self.timeline_answer,
            "correct_answer": self.correct_answer,
            "wrong": self.wrong,
        }


def naive_timezone_pitfall(local_zone: tzinfo = CST) -> TimezonePitfall:
    """A concrete case where treating naive ``created_at`` as UTC gives the wrong ``Timeline.at`` answer.

    A memory is saved at 10:00 local time (naive, as ``Memory.created_at`` stores
    it) and evolved two hours later (UTC-aware, as lineage metadata stores it).
    ``Timeline.at`` reads the naive time as 10:00 UTC, which is off by the zone's
    offset.  The query is the instant halfway between the true creation and the
    misread one.  West of Greenwich (the default, UTC−6) ``at`` returns the
    version although it did not exist yet; east of it ``at`` returns ``None``
    although the version existed.  The correct answer localises the naive time in
    the *given* zone.  In UTC the two agree.

    >>> p = naive_timezone_pitfall()
    >>> p.query.isoformat(), p.timeline_answer, p.correct_answer, p.wrong
    ('2026-01-29T13:00:00+00:00', 'v1: meeting at 3pm', None, True)
    >>> east = naive_timezone_pitfall(timezone(timedelta(hours=2)))
    >>> east.timeline_answer, east.correct_answer
    (None, 'v1: meeting at 3pm')
    >>> naive_timezone_pitfall(timezone.utc).wrong
    False
    """
    created_naive = datetime(2026, 1, 29, 10, 0)  # naive local wall-clock time
    created_true = created_naive.replace(tzinfo=local_zone).astimezone(UTC)
    misread = created_naive.replace(tzinfo=UTC)
    evolved = created_true + timedelta(hours=2)
    query = min(created_true, misread) + abs(created_true - misread) / 2
    v1 = VersionEntry(created_naive, "v1: meeting at 3pm", version_id="v1")
    v2 = VersionEntry(evolved, "v2: meeting moved to 4pm", version_id="v2", reason="observation")
    tl = Timeline([v1, v2])
    got = tl.at(query)
    fixed = Timeline([replace(v1, timestamp=created_true), v2]).at(query)
    name = local_zone.tzname(None) or str(local_zone)
    return TimezonePitfall(
        name,
        created_naive,
        created_true,
        evolved,
        query,
        None if got is None else got.content,
        None if fixed is None else fixed.content,
    )
