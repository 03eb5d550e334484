"""Runs of a step function: the calls as made, the outputs, and the stores, kept or recomputed.

:func:`coalg.model.coalgebra.run` returns a :class:`Trace`.  A run of a million calls
keeps a million calls and outputs but only two stores, the first and the last: the
stores in between are replayed from the calls when :attr:`Trace.states` is first
read, or kept by the run when it is asked to (``keep_states=True``; they share
structure, so they take O(n log n) memory rather than O(n²)).
"""

from __future__ import annotations

from dataclasses import FrozenInstanceError

from .alphabet import Call
from .outputs import Output, StepFunction
from .store import Store
from .theta import DEFAULT_THETA, Theta

__all__ = ["Trace"]


class Trace:
    """A run s₀ →a₁ s₁ → … → sₙ: the calls as made (with allocations), outputs and states.

    A trace keeps its calls, its outputs, the first store and the final one.  The
    intermediate stores are kept only when :func:`~coalg.model.coalgebra.run` is asked to
    (``keep_states=True``); otherwise :attr:`states` recomputes them once, the
    first time it is read, by replaying the calls (the structure map is a
    function, so the replay is the run).  ``Trace(calls, outputs, states)`` builds
    a trace from stores already at hand.
    """

    __slots__ = ("calls", "outputs", "start", "final", "_states", "_step_fn", "_theta")

    calls: tuple[Call, ...]
    outputs: tuple[Output, ...]
    start: Store | None
    final: Store
    _states: tuple[Store, ...] | None
    _step_fn: StepFunction | None
    _theta: Theta

    def __init__(
        self,
        calls: tuple[Call, ...],
        outputs: tuple[Output, ...],
        states: tuple[Store, ...] = (),
        *,
        start: Store | None = None,
        final: Store | None = None,
        step_fn: StepFunction | None = None,
        theta: Theta = DEFAULT_THETA,
    ) -> None:
        kept: tuple[Store, ...] | None = tuple(states)
        if kept:
            start, final = kept[0], kept[-1]
        elif start is not None and final is not None and step_fn is not None:
            kept = None  # recomputed on demand by replaying the calls
        elif start is not None or final is not None:
            raise ValueError("a trace without its states needs its start, its final store and its step")
        put = object.__setattr__
        put(self, "calls", tuple(calls))
        put(self, "outputs", tuple(outputs))
        put(self, "start", start)
        if final is not None:
            put(self, "final", final)
        put(self, "_states", kept)
        put(self, "_step_fn", step_fn)
        put(self, "_theta", theta)

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}: a trace is a value")

    @property
    def states(self) -> tuple[Store, ...]:
        """s₀, s₁, …, sₙ: kept by the run, or recomputed from the calls once and then kept."""
        if self._states is None:
            assert self.start is not None and self._step_fn is not None
            states, cur = [self.start], self.start
            for c in self.calls[:-1]:
                _, cur = self._step_fn(cur, c.letter, c.allocation, theta=self._theta, faults=c.faults)
                states.append(cur)
            if self.calls:
                states.append(self.final)  # the final store itself, not an equal copy
            object.__setattr__(self, "_states", tuple(states))
        assert self._states is not None
        return self._states

    @property
    def keeps_states(self) -> bool:
        """Whether the intermediate stores are held (kept by the run, or already recomputed)."""
        return self._states is not None

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Trace):
            return NotImplemented
        if self.calls != other.calls or self.outputs != other.outputs:
            return False
        if self._states is None or other._states is None:
            # a replayed trace's states are a function of its start, its calls and its step
            same_run = self._step_fn is other._step_fn and self._theta == other._theta
            if same_run and self.start == other.start:
                return bool(self.final == other.final)
        return self.states == other.states

    def __hash__(self) -> int:
        return hash((self.calls, self.outputs))

    def __repr__(self) -> str:
        kept = "kept" if self._states is not None else "recomputed on demand"
        return f"Trace({len(self.calls)} calls, {len(self.outputs)} outputs; states {kept})"
