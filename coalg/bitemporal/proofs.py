"""Proofs as data (paper §5.8, §7.1): named steps, and the recorded pair both bitemporal proofs walk.

Theorem 5.27 (:mod:`coalg.bitemporal.unrecoverable`) and Proposition 7.1
(:mod:`coalg.bitemporal.repair`) are stated about the same object: two histories
h ∼vt h′ with different valid times, each recorded on one realisation.  A
:class:`RecordedPair` is that object, validated once, with the tables both
proofs show (the calls side by side, the letters κ issued, the recording call by
call).  A :class:`Proof` is the statement and its :class:`ProofStep`\\ s: what the
proof stepper of the explorers walks, and what ``python -m coalg witness``
prints as JSON.

>>> from coalg.model import Record, Save
>>> pair = RecordedPair.of(History.of((Save(Record("r")), 1, 1)))
>>> pair.h_prime.vt(), pair.first.final == pair.second.final
((0,), True)
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..model import CONTEXTFS, Realisation, Store, letter_to_json, output_to_json, store_to_json
from .histories import History, HistoryError, shifted, sim_vt
from .recorder import Recording, recording

__all__ = ["ProofStep", "Proof", "RecordedPair"]


@dataclass(frozen=True, slots=True)
class ProofStep:
    """One named step of a constructive proof: what it shows, why, and the data that shows it."""

    title: str
    explanation: str
    data: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"title": self.title, "explanation": self.explanation, "data": dict(self.data)}


@dataclass(frozen=True, slots=True)
class Proof:
    """A statement and its proof as a sequence of :class:`ProofStep` (the data a proof stepper walks)."""

    item: str
    statement: str
    steps: tuple[ProofStep, ...]
    conclusion: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "item": self.item,
            "statement": self.statement,
            "conclusion": self.conclusion,
            "steps": [s.to_json() for s in self.steps],
        }

    def dumps(self) -> str:
        """Canonical JSON text of the proof."""
        return json.dumps(self.to_json(), sort_keys=True, ensure_ascii=False, indent=1)


@dataclass(frozen=True, slots=True)
class RecordedPair:
    """Two histories h ∼vt h′ with vt(h) ≠ vt(h′), and their recordings on ``realisation``.

    Build it with :meth:`of`, which checks the hypotheses both proofs share.
    """

    realisation: Realisation
    h: History
    h_prime: History
    first: Recording
    second: Recording

    @classmethod
    def of(
        cls, h: History, h_prime: History | None = None, realisation: Realisation | None = None
    ) -> RecordedPair:
        """Record ``h`` and ``h_prime`` (default :func:`shifted` ``(h)``) on ``realisation`` (default ContextFS).

        Raises :class:`HistoryError` if ``h`` is empty, or ``h_prime`` is not ∼vt
        ``h`` with different valid times.
        """
        if not h.calls:
            raise HistoryError("the empty history has no other history with different valid times")
        h2 = shifted(h) if h_prime is None else h_prime
        if not sim_vt(h, h2):
            raise HistoryError("h′ must have the same calls and transaction times as h")
        if h.vt() == h2.vt():
            raise HistoryError("h′ must differ from h in some valid time")
        real = CONTEXTFS if realisation is None else realisation
        return cls(real, h, h2, recording(h, real), recording(h2, real))

    @property
    def finals(self) -> tuple[Store, Store]:
        """(Ψ(h), Ψ(h′))."""
        return self.first.final, self.second.final

    @property
    def in_hist_rec(self) -> bool:
        """Both histories lie in Hist_rec."""
        return self.first.in_hist_rec and self.second.in_hist_rec

    def histories_json(self) -> dict[str, Any]:
        """The two histories, and their calls side by side (``vt_differs`` marks where they part)."""
        calls = [
            {
                "k": k + 1,
                "letter": letter_to_json(a.letter),
                "tt": a.tt,
                "vt": a.vt,
                "vt_prime": b.vt,
                "vt_differs": a.vt != b.vt,
            }
            for k, (a, b) in enumerate(zip(self.h.calls, self.h_prime.calls))
        ]
        return {"h": self.h.to_json(), "h_prime": self.h_prime.to_json(), "calls": calls}

    def issued_equal(self) -> list[bool]:
        """Per call: did κ issue the same letter for h and h′?"""
        return [a.issued == b.issued for a, b in zip(self.first.steps, self.second.steps)]

    def issued_json(self, *, compare: bool) -> list[dict[str, Any]]:
        """The letters κ issued for each call of h and h′ (with ``compare``, whether they are equal)."""
        rows = []
        for k, (a, b, same) in enumerate(
            zip(self.first.steps, self.second.steps, self.issued_equal())
        ):
            row: dict[str, Any] = {
                "k": k + 1,
                "h": letter_to_json(a.issued),
                "h_prime": letter_to_json(b.issued),
            }
            if compare:
                row["equal"] = same
            rows.append(row)
        return rows

    def calls_json(self) -> list[dict[str, Any]]:
        """The recording call by call: allocation, both outputs and both stores after each call."""
        return [
            {
                "k": k + 1,
                "tt": a.call.tt,
                "vt": a.call.vt,
                "vt_prime": b.call.vt,
                "allocation": {"ids": list(a.allocation.ids), "clock": a.allocation.clock},
                "same_allocation": a.allocation == b.allocation,
                "output_h": output_to_json(a.output),
                "output_h_prime": output_to_json(b.output),
                "store_h": store_to_json(a.store),
                "store_h_prime": store_to_json(b.store),
                "stores_equal": a.store == b.store,
            }
            for k, (a, b) in enumerate(zip(self.first.steps, self.second.steps))
        ]
