"""Traces keep the word, the outputs and the final store; intermediate stores on request.

``run(..., keep_states=True)`` keeps every intermediate store (sharing structure);
without it :attr:`Trace.states` replays the calls the first time it is read.  Both
give the same stores, the same equality and the same ``final``.
"""

from __future__ import annotations

import dataclasses

import pytest
from budget import budget
from hypothesis import given
from strategies import call_sequences, thetas

from coalg.model import (
    EMPTY,
    REPAIRED,
    Evolve,
    Oracle,
    Record,
    Save,
    Theta,
    Trace,
    replay,
    run,
)
from coalg.model.workloads import mixed_word

PROPERTY = budget(40)


@PROPERTY
@given(call_sequences(EMPTY, max_size=8, faults=True), thetas())
def test_recomputed_states_equal_kept_states(calls, theta: Theta) -> None:  # type: ignore[no-untyped-def]
    lazy = run(EMPTY, calls, theta=theta)
    kept = run(EMPTY, calls, theta=theta, keep_states=True)
    assert not lazy.keeps_states and kept.keeps_states
    assert lazy == kept and kept == lazy and hash(lazy) == hash(kept)
    assert lazy.final == kept.final and lazy.outputs == kept.outputs
    assert lazy.states == kept.states  # replayed on first read ...
    assert lazy.keeps_states  # ... and kept from then on
    assert lazy.states[0] is EMPTY and lazy.states[-1] is lazy.final


def test_a_run_without_kept_states_holds_only_its_ends() -> None:
    t = run(EMPTY, mixed_word(300, seed=2))
    assert not t.keeps_states and t.start is EMPTY
    assert len(t.calls) == len(t.outputs) == 300
    assert repr(t) == "Trace(300 calls, 300 outputs; states recomputed on demand)"
    assert len(t.states) == 301 and t.states[-1] is t.final


def test_recomputation_uses_the_run_s_step_and_theta() -> None:
    word = [Save(Record("a", type="user")), Save(Record("b", type="code")), Evolve("id0001", "c")]
    t = run(EMPTY, word, step_fn=REPAIRED.step, theta=Theta(descending=True))
    assert t.states == run(EMPTY, word, step_fn=REPAIRED.step, keep_states=True).states
    assert t.states[1].records["id0001"].valid_time == 1  # REPAIRED's field, not the model's
    other = run(EMPTY, word)
    assert other.outputs != t.outputs and other != t


def test_traces_built_from_stores_at_hand() -> None:
    t = run(EMPTY, mixed_word(20, seed=1), keep_states=True)
    u = Trace(t.calls, t.outputs, t.states)
    assert u == t and u.final is t.final and u.start is EMPTY
    with pytest.raises(dataclasses.FrozenInstanceError):
        u.final = EMPTY  # type: ignore[misc]


def test_replay_and_trace_equality_without_states() -> None:
    t = run(EMPTY, mixed_word(50, seed=4), oracle=Oracle(clock=7))
    assert replay(EMPTY, t) == t
    shorter = run(EMPTY, t.calls[:-1])
    assert shorter != t


def test_a_fresh_save_stamps_every_field_as_replace_would() -> None:
    """``stamped_fresh`` builds the record field by field: it must agree with ``replace``."""
    from dataclasses import fields, replace

    from coalg.model import stamped_fresh

    assert [f.name for f in fields(Record)] == [
        "content", "type", "namespace", "tags", "summary", "metadata", "created_at", "updated_at", "valid_time",
    ], "Record has changed: update stamped_fresh to copy the new field"
    r = Record("c", type="t", namespace="n", tags={"a"}, summary="s", metadata={"k": [1]}, created_at=1,
               updated_at=2, valid_time=3)
    assert stamped_fresh(r, 9) == replace(r, created_at=9, updated_at=9, valid_time=None)
