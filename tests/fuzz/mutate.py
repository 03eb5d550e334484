"""What the fuzz tests share: a mutator of valid files, the budget, and a time limit per input.

* :func:`mutants` -- a hypothesis strategy: a valid seed file changed by one to
  four mutations (truncation, bit flip, duplication of a slice, splicing with
  another seed, insertion of a hostile token, deletion of a slice).  Every
  choice is a hypothesis draw, so a failure shrinks to a short mutation of a
  short seed.
* :func:`fuzz` -- the settings: a fixed seed (``derandomize``) and a bounded
  number of examples in CI; ``FUZZ_EXAMPLES=5000`` runs every fuzz test that
  long, ``FUZZ_SEED=<n>`` explores with another seed.
* :func:`within` -- a per-input time limit (``FUZZ_SECONDS``, default 10 s):
  a hang (a read that blocks) is interrupted by ``SIGALRM`` and fails the test.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

from hypothesis import HealthCheck, seed, settings
from hypothesis import strategies as st

__all__ = ["LIMIT", "Hang", "fuzz", "mutants", "within"]

LIMIT = float(os.environ.get("FUZZ_SECONDS", "10"))
"""Seconds one input may take (a hang detector, not a performance figure)."""

F = TypeVar("F", bound=Callable[..., Any])


def fuzz(default: int) -> Callable[[F], F]:
    """The hypothesis settings of a fuzz test: ``default`` examples unless ``FUZZ_EXAMPLES`` says otherwise."""
    n = int(os.environ.get("FUZZ_EXAMPLES", default))
    chosen = os.environ.get("FUZZ_SEED")
    conf = settings(max_examples=n, derandomize=chosen is None, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.function_scoped_fixture])

    def wrap(test: F) -> F:
        out = conf(test)
        return seed(int(chosen))(out) if chosen is not None else out  # type: ignore[no-any-return]

    return wrap


class Hang(Exception):
    """An input took longer than the limit."""


@contextlib.contextmanager
def within(seconds: float = LIMIT) -> Iterator[None]:
    """Fail with :class:`Hang` if the block takes longer than ``seconds`` (interrupting a blocked call)."""

    def alarm(signum: int, frame: Any) -> None:
        raise Hang(f"more than {seconds} s on one input")

    old = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    start = time.monotonic()
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    if time.monotonic() - start > seconds:
        raise Hang(f"more than {seconds} s on one input")


_OPS = ("truncate", "flip", "duplicate", "splice", "insert", "delete")


@st.composite
def mutants(draw: st.DrawFn, seeds: Sequence[bytes], tokens: Sequence[bytes], *, max_ops: int = 4) -> bytes:
    """A seed changed by 1..``max_ops`` mutations (see the module docstring)."""
    data = bytearray(draw(st.sampled_from(list(seeds))))
    for _ in range(draw(st.integers(1, max_ops))):
        op = draw(st.sampled_from(_OPS))
        n = len(data)
        if op == "truncate":
            del data[draw(st.integers(0, n)):]
        elif op == "flip" and n:
            i = draw(st.integers(0, n - 1))
            data[i] ^= 1 << draw(st.integers(0, 7))
        elif op == "duplicate" and n:
            a = draw(st.integers(0, n - 1))
            b = draw(st.integers(a, min(n, a + 64)))
            at = draw(st.integers(0, n))
            data[at:at] = data[a:b] * draw(st.integers(1, 3))
        elif op == "splice":
            other = draw(st.sampled_from(list(seeds)))
            data = data[:draw(st.integers(0, n))] + bytearray(other[draw(st.integers(0, len(other))):])
        elif op == "insert":
            at = draw(st.integers(0, n))
            data[at:at] = draw(st.sampled_from(list(tokens)))
        elif op == "delete" and n:
            a = draw(st.integers(0, n - 1))
            del data[a:draw(st.integers(a, min(n, a + 16)))]
    return bytes(data)
