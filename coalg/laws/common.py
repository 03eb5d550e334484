"""What the numbered results of §3 and §5 share.

The realisations a theorem is checked on, JSON of observations and words, runs
with the explorer's allocation, and a law verdict read as a paper item.

Reading a result's verdict.  ``kind`` is fixed by the item: ``"property"`` for a
result that asserts something holds, ``"counterexample"`` for one that exhibits a
failure.  ``holds`` says whether *the paper's statement is confirmed* — for a
counterexample item, that the counterexample was exhibited.  ``nature`` follows
the paper's two kinds of claim (its §1.3): a ``theorem`` about the model is
checked on every schema realisation (:data:`SCHEMA_REALISATIONS`: the ContextFS
model *and* :data:`~coalg.model.repaired.REPAIRED`); an ``instantiation`` claim,
a reading of ContextFS at a93035d, is checked on the model that encodes that
reading.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ..model import (
    CONTEXTFS,
    REPAIRED,
    Call,
    Letter,
    Observation,
    Realisation,
    Store,
    call_to_json,
    record_to_json,
)
from ..paper import Kind, Verdict
from .seeds import allocate

__all__ = ["SCHEMA_REALISATIONS", "calls_of", "law_item", "observation_json", "states_of", "word_json"]

SCHEMA_REALISATIONS: tuple[Realisation, ...] = (CONTEXTFS, REPAIRED)
"""The realisations a theorem of the first kind is checked on: both satisfy S1–S4."""


def observation_json(o: Observation) -> dict[str, Any]:
    """β_s(i) as JSON: the record (or null for ⊥) and the sorted labelled successors."""
    return {"record": None if o.record is None else record_to_json(o.record),
            "successors": [[r.value, j] for r, j in o.successors]}


def word_json(calls: Iterable[Call]) -> list[dict[str, Any]]:
    """A word as JSON calls."""
    return [call_to_json(c) for c in calls]


def calls_of(start: Store, letters: Sequence[Letter], realisation: Realisation = CONTEXTFS,
             clock: int = 0) -> list[Call]:
    """The calls of a run of ``letters`` from ``start``, with the explorer's allocation (clock counting up)."""
    out, s = [], start
    for k, a in enumerate(letters, start=1):
        c = Call(a, allocate(s, a, clock + k))
        _, s = realisation.step(s, a, c.allocation)
        out.append(c)
    return out


def states_of(realisation: Realisation, start: Store, letters: Sequence[Letter], clock: int = 0) -> list[Store]:
    """The stores of a run of ``letters`` from ``start``, with the explorer's allocation."""
    states = [start]
    for k, a in enumerate(letters, start=1):
        _, s = realisation.step(states[-1], a, allocate(states[-1], a, clock + k))
        states.append(s)
    return states


def law_item(item: str, v: Verdict, *, expect_holds: bool, summary: str,
             extra: dict[str, Any] | None = None) -> Verdict:
    """A law verdict re-read as a paper item: ``holds`` = the law came out as the paper says."""
    witness = dict(v.witness) if v.witness is not None else {}
    witness.update(extra or {})
    witness["law"] = {"clause": v.item, "holds": v.holds, "explored": v.explored, "summary": v.summary,
                      **{k: x for k, x in v.details.items() if isinstance(x, (str, bool, int))}}
    verdict_kind: Kind = "property" if expect_holds else "counterexample"
    return Verdict(item, verdict_kind, v.holds == expect_holds, v.explored, witness, summary)
