"""Stepping back and forth through a fixed sequence of positions: proof steps, refinement rounds.

A :class:`Stepper` is an explorer whose state is a position ``0 … n−1`` in a
sequence it computed beforehand — the steps of Theorem 5.27 or Proposition 7.1
(§5.8, §7.1), the rounds of partition refinement (Definition 5.23).  It moves
with :meth:`Stepper.step_to`, :meth:`Stepper.forward` and
:meth:`Stepper.backward`; leaving the sequence is an invalid action (a message,
the position unchanged).  A subclass says how many positions there are and
what to tell the reader on arrival, at either end and for a position that does
not exist; it names the moves in its own words (``next``/``back``,
``next_round``/``previous_round``).
"""

from __future__ import annotations

from .base import Explorer, action

__all__ = ["Stepper"]


class Stepper(Explorer):
    """An explorer that walks a fixed sequence of positions, one step at a time or straight to one."""

    AT_FIRST = "this is the first step."
    """What :meth:`backward` says at position 0."""

    AT_LAST = "this is the last step."
    """What :meth:`forward` says at the last position."""

    def __init__(self, message: str = "", *, scale: float = 1.0) -> None:
        super().__init__(message, scale=scale)
        self.position = 0

    # ----------------------------------------------------------------- what a subclass says
    def _count(self) -> int:  # pragma: no cover - every stepper has its own
        """How many positions there are."""
        raise NotImplementedError

    def _arrived(self) -> str:  # pragma: no cover - every stepper has its own
        """The message on arriving at :attr:`position`."""
        raise NotImplementedError

    def _not_a_position(self, k: int) -> str:
        """The message when ``k`` is outside ``0 … n−1``."""
        n = self._count()
        return f"there are {n} steps (0 … {n - 1}); {k} is not one."

    def _show_position(self) -> None:
        """Redraw what depends on the position (by default, everything)."""
        self._refresh()

    # ----------------------------------------------------------------- moves
    @action
    def step_to(self, k: int) -> bool:
        """Go to position ``k`` (from 0); ``False``, with a message, if there is none."""
        if not 0 <= k < self._count():
            self._say(self._not_a_position(k), error=True)
            return False
        self.position = k
        self._say(self._arrived())
        self._show_position()
        return True

    def forward(self) -> bool:
        """One position on; ``False``, with a message, at the last one."""
        if self.position + 1 >= self._count():
            self._say(self.AT_LAST, error=True)
            return False
        return bool(self.step_to(self.position + 1))

    def backward(self) -> bool:
        """One position back; ``False``, with a message, at the first one."""
        if self.position == 0:
            self._say(self.AT_FIRST, error=True)
            return False
        return bool(self.step_to(self.position - 1))
