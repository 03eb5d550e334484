"""Comparing labelled transition systems read from ``.aut`` files: what ``coalg bisim`` computes.

* :func:`count_classes` -- the number of strong-bisimilarity classes of one
  LTS's states: the size of the minimal LTS with the same behaviour.
* :func:`compare_auts` -- whether the initial states of two LTSs are
  bisimilar, by refining their disjoint union; if not, an :class:`AutWitness`:
  a shortest Hennessy--Milner formula true of the first and false of the
  second, with one path of it, in the two files' own label names and state
  numbers.

>>> a = AutLTS.from_transitions(0, 3, [(0, "a", 1), (1, "b", 2)])
>>> b = AutLTS.from_transitions(0, 2, [(0, "a", 1)])
>>> count_classes(a), compare_auts(a, a).bisimilar
(3, True)
>>> w = compare_auts(a, b).witness
>>> w.path, w.left_state, w.right_state, w.reason, w.formula
(('a',), 1, 1, 'label b possible on the left only', '<a><b>true')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .aut import AutLTS, disjoint_union
from .partition import refine
from .witness import distinguishing_witness

__all__ = ["AutComparison", "AutWitness", "compare_auts", "count_classes"]


@dataclass(frozen=True, slots=True)
class AutWitness:
    """Why the initial states of two LTSs are not bisimilar, in the files' own terms.

    ``path`` is a sequence of label names both sides can follow, to state
    ``left_state`` of the first LTS and ``right_state`` of the second (each
    numbered as in its own file), where ``reason`` is the immediate
    difference; ``formula`` (of modal depth ``depth``, the smallest possible)
    is true of the first initial state and false of the second.
    """

    path: tuple[str, ...]
    left_state: int
    right_state: int
    reason: str
    formula: str
    depth: int

    def to_json(self) -> dict[str, Any]:
        """The witness as a JSON object (the ``witness`` of ``coalg bisim --json``)."""
        return {
            "path": list(self.path),
            "left_state": self.left_state,
            "right_state": self.right_state,
            "reason": self.reason,
            "formula": self.formula,
            "depth": self.depth,
        }


@dataclass(frozen=True, slots=True)
class AutComparison:
    """The verdict on two LTSs' initial states: bisimilar (no witness) or not (a witness)."""

    witness: AutWitness | None

    @property
    def bisimilar(self) -> bool:
        """Whether the initial states are strongly bisimilar."""
        return self.witness is None


def count_classes(aut: AutLTS) -> int:
    """The number of strong-bisimilarity classes of the states of ``aut``."""
    part = refine(aut.to_lts())
    return (max(part) + 1) if len(part) else 0


def compare_auts(a: AutLTS, b: AutLTS, *, max_formula_chars: int = 50_000_000) -> AutComparison:
    """Are the initial states of ``a`` and ``b`` strongly bisimilar?  If not, a shortest witness.

    Payloads (state observations) of either side take part, by name: a state
    without one is observed as ``no payload``.  Raises ``ValueError`` when the
    distinguishing formula would have more than ``max_formula_chars``
    characters.
    """
    u, offset = disjoint_union(a, b)

    def obs_name(o: int) -> str:
        return "no payload" if o == 0 else u.payloads[o - 1]

    w = distinguishing_witness(
        u.to_lts(),
        None,
        a.initial,
        offset + b.initial,
        label_names=u.labels,
        observation_names=obs_name,
        max_formula_chars=max_formula_chars,
    )
    if w is None:
        return AutComparison(None)
    path = tuple(u.labels[x] for x in w.path)
    return AutComparison(AutWitness(path, w.left, w.right - offset, w.reason, w.formula, w.depth))
