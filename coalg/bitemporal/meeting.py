"""The meeting example (ours): two histories a single-axis log conflates, the two situations the paper's §2.3 contrasts.

At τt = 1 the system records "meeting at 3pm".  At τt = 5 it records "meeting
at 4pm".  Was that a fresh change, or a fact about the past learned late?
:func:`meeting_example` gives both readings as a ∼vt pair;
:func:`contrast_example` asks the single-axis ``Timeline.at`` and the bitemporal
:func:`~coalg.bitemporal.observations.believed` about them, on ContextFS and on
the repaired realisation.

>>> h, h2 = meeting_example()
>>> h.vt(), h2.vt()
((1, 5), (1, 2))
"""

from __future__ import annotations

from typing import Any

from ..model import CONTEXTFS, REPAIRED, Evolve, Realisation, Record, Save
from .histories import History
from .observations import believed
from .recorder import record
from .timeline import VersionEntry, clock_to_datetime, timeline_of

__all__ = ["meeting_example", "contrast_example"]


def meeting_example() -> tuple[History, History]:
    """Two histories ∼vt that a single-axis log conflates (paper §2.3).

    At τt = 1 the system records "meeting at 3pm", valid from 1.  At τt = 5 it
    records the evolved version "meeting at 4pm".  In ``h`` that is a fact about
    the present that has just changed (valid from 5).  In ``h′`` it is a fact
    about the past learned late (the meeting had been moved at 2).
    """
    h = History.of(
        (Save(Record("meeting at 3pm", namespace="alice")), 1, 1),
        (Evolve("id0001", "meeting at 4pm"), 5, 5),
    )
    return h, h.with_valid_times((1, 2))


def contrast_example(realisation: Realisation | None = None) -> dict[str, Any]:
    """The single-axis ``Timeline.at`` next to the bitemporal query, on :func:`meeting_example`.

    On ContextFS the two histories record one store, so its timeline and every
    query agree.  On the repaired realisation (default) ``believed`` at
    ``(τt, τv) = (5, 3)`` answers "4pm" for the late-learned fact and "3pm" for
    the fresh change, while at ``τt = 4`` both still believe "3pm".
    """
    real = REPAIRED if realisation is None else realisation
    h, h2 = meeting_example()
    out: dict[str, Any] = {"h": h.to_json(), "h_prime": h2.to_json()}
    for name, rz in (("contextfs", CONTEXTFS), ("repaired", real)):
        s1, s2 = record(h, rz), record(h2, rz)
        tl1, tl2 = timeline_of(s1, "id0001"), timeline_of(s2, "id0001")
        queries = [(4, 3), (5, 3), (5, 1), (5, 5)]
        out[name] = {
            "stores_equal": s1 == s2,
            "timeline_h": [[e.timestamp.isoformat(), e.content] for e in tl1.entries],
            "timeline_h_prime": [[e.timestamp.isoformat(), e.content] for e in tl2.entries],
            "timeline_at_tt3": [
                _content(tl1.at(clock_to_datetime(3))),
                _content(tl2.at(clock_to_datetime(3))),
            ],
            "believed_current": [
                {
                    "tt": tt,
                    "tv": tv,
                    "h": [r.content for r in believed(s1, tt, tv, mode="current").values()],
                    "h_prime": [r.content for r in believed(s2, tt, tv, mode="current").values()],
                }
                for tt, tv in queries
            ],
        }
    return out


def _content(e: VersionEntry | None) -> str | None:
    return None if e is None else e.content
