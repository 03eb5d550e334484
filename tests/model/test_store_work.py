"""The work a step does stays bounded as the store grows; rendering a deep unfolding is linear.

No clocks: work is counted.  :func:`opcodes` counts the Python bytecode
instructions a call executes (``sys.settrace`` with opcode events), so any
Python-level loop over the records or edges of a store shows up in proportion
to its size; :func:`peak_bytes` measures the largest allocation a call needs
(``tracemalloc``), so a copy of the whole store (a dict, a frozenset, a sorted
list) shows up even when C code makes it.  A step on a store 32 times larger
must cost about the same: only the O(log n) paths of the indexes get longer.
"""

from __future__ import annotations

import sys
import tracemalloc
from collections.abc import Callable
from dataclasses import replace
from types import FrameType
from typing import Any

import pytest

from coalg.model import (
    EMPTY,
    Allocation,
    Err,
    Letter,
    Oracle,
    Output,
    Record,
    Relation,
    Store,
    ancestry,
    run,
    step,
)
from coalg.model.lineage import MAX_INDENT
from coalg.model.workloads import mixed_word

SMALL, BIG, TAIL = 1_000, 32_000, 200


def opcodes(fn: Callable[[], object]) -> int:
    count = 0

    def tracer(frame: FrameType, event: str, arg: Any) -> Any:
        nonlocal count
        frame.f_trace_opcodes = True
        frame.f_trace_lines = False
        if event == "opcode":
            count += 1
        return tracer

    sys.settrace(tracer)
    try:
        fn()
    finally:
        sys.settrace(None)
    return count


def peak_bytes(fn: Callable[[], object]) -> int:
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        fn()
        return tracemalloc.get_traced_memory()[1] - before
    finally:
        tracemalloc.stop()


def tail_costs(n: int) -> tuple[list[int], list[int]]:
    """Opcodes and peak bytes of each of the last TAIL calls (allocation + step) of a mixed word."""
    word = mixed_word(n + TAIL, seed=5)
    oracle = Oracle()
    s = run(EMPTY, word[:n], oracle=oracle).final
    ops, mem = [], []
    for a in word[n:]:
        twin = replace(oracle, _issued=set(oracle._issued))  # allocates what ``oracle`` will
        out: list[tuple[Allocation, tuple[Output, Store]]] = []

        def call(o: Oracle, s: Store = s, a: Letter = a, out: list[Any] = out) -> None:
            xi = o.allocate(s, a)
            out.append((xi, step(s, a, xi)))

        ops.append(opcodes(lambda: call(oracle)))
        mem.append(peak_bytes(lambda twin=twin: call(twin)))
        # the same allocation, so the same step (a step depends on its allocation only, Remark 3.9);
        # comparing the two successors themselves would cost more than everything measured here
        assert out[0][0] == out[1][0] and out[0][1][0] == out[1][1][0] and not isinstance(out[0][1][0], Err)
        s = out[0][1][1]
    return ops, mem


@pytest.fixture(scope="module")
def costs() -> dict[int, tuple[list[int], list[int]]]:
    return {n: tail_costs(n) for n in (SMALL, BIG)}


def test_instructions_per_step_do_not_grow_with_the_store(costs: dict[int, tuple[list[int], list[int]]]) -> None:
    small, big = (sum(costs[n][0]) / TAIL for n in (SMALL, BIG))
    assert small > 100  # the counter really counts the step's work
    assert big < 1.3 * small, f"{big:.0f} instructions per step at {BIG} records, {small:.0f} at {SMALL}"
    assert max(costs[BIG][0]) < 3 * max(costs[SMALL][0])


def test_memory_a_step_allocates_does_not_grow_with_the_store(costs: dict[int, tuple[list[int], list[int]]]) -> None:
    small, big = (max(costs[n][1]) for n in (SMALL, BIG))
    assert big < 2 * small + 32_000, f"a step allocated up to {big} bytes at {BIG} records, {small} at {SMALL}"


def test_the_counters_do_see_a_scan_of_the_store() -> None:
    """The same measures on a whole-store scan grow with the store: the bounds above can fail."""
    stores = {n: run(EMPTY, mixed_word(n, seed=5)).final for n in (SMALL, BIG)}

    def scan(s: Store) -> object:
        return [i for i in s.records if i.startswith("zz")]

    def copy(s: Store) -> object:
        return frozenset(s.ids())

    ratio = opcodes(lambda: scan(stores[BIG])) / opcodes(lambda: scan(stores[SMALL]))
    assert ratio > 10
    assert peak_bytes(lambda: copy(stores[BIG])) > 10 * peak_bytes(lambda: copy(stores[SMALL]))


def chain(n: int) -> Store:
    ids = [f"n{k:06d}" for k in range(n)]
    return Store.of({i: Record("x") for i in ids}, [(ids[k + 1], Relation.EVOLVED_FROM, ids[k]) for k in range(n - 1)])


def test_rendering_a_deep_chain_is_linear_in_work_and_text() -> None:
    work, size = {}, {}
    for n in (5_000, 10_000):
        u = ancestry(chain(n), f"n{n - 1:06d}")
        assert len(u.nodes) == n
        text: list[str] = []
        work[n] = opcodes(lambda u=u, text=text: text.append(u.render()))
        size[n] = len(text[0])
        lines = text[0].split("\n")
        assert len(lines) == n and lines[-1].startswith(f"⋯{n - 1} └─ evolved_from n000000")
        assert lines[MAX_INDENT].startswith("   " * (MAX_INDENT - 1) + "└─ ")
    assert work[10_000] < 2.2 * work[5_000]
    assert size[10_000] < 2.2 * size[5_000] and size[10_000] < 60 * 10_000


def test_unfolding_a_deep_chain_is_linear_in_work() -> None:
    s = {n: chain(n) for n in (5_000, 10_000)}
    work = {n: opcodes(lambda n=n: ancestry(s[n], f"n{n - 1:06d}")) for n in s}
    assert work[10_000] < 2.2 * work[5_000]
