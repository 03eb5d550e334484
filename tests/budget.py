"""How many examples a property test runs: a fast fixed profile by default, a deep random one on demand.

Every property test takes its settings from :func:`budget` instead of writing
``settings(max_examples=…)`` itself, so one environment variable sets the depth
of the whole suite.  Only the tests read these variables; the library never does.

* ``COALG_EXAMPLES`` unset (CI, ``make test``): each test runs its own small count
  (the ``n`` it passes), derandomized where it says so: the same cases on every run.
* ``COALG_EXAMPLES=N``: every property test runs ``N`` examples, drawn at random from
  one seed for the whole run.  The seed is fresh unless ``COALG_SEED=s`` is set, and
  the run prints it in its header and again at the end (``tests/conftest.py``), so a
  failure is replayed with ``COALG_EXAMPLES=N COALG_SEED=s``.  The example database
  is off in this mode: a replay depends on the seed alone.

A bad value stops the run with one line naming the variable.
"""

from __future__ import annotations

import os
import secrets
from typing import Any

from hypothesis import settings

__all__ = ["DEEP", "SEED", "budget", "describe"]


class BudgetError(ValueError):
    """COALG_EXAMPLES or COALG_SEED is not a positive whole number."""


def _positive(name: str) -> int | None:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return None
    if not raw.isdigit() or int(raw) <= 0:
        raise BudgetError(f"{name} must be a positive whole number, not {raw!r}")
    return int(raw)


DEEP: int | None = _positive("COALG_EXAMPLES")
"""The example count of the deep profile, or ``None`` for the fast fixed one."""

SEED: int | None = (_positive("COALG_SEED") or secrets.randbelow(2**31 - 1) + 1) if DEEP else None
"""The seed of a deep run (``COALG_SEED`` if given, else fresh); ``None`` in the fast profile."""


def budget(n: int, *, derandomize: bool = True, **kw: Any) -> settings:
    """The settings of a property test whose fast profile runs ``n`` examples.

    Keyword arguments (``suppress_health_check``, …) are passed on; ``deadline`` is
    off in both profiles, since the machine the tests share is often busy.
    """
    kw.setdefault("deadline", None)
    if DEEP is None:
        return settings(max_examples=n, derandomize=derandomize, **kw)
    return settings(max_examples=DEEP, derandomize=False, database=None, **kw)


def describe() -> str:
    """One line saying which profile this run uses (and how to replay a deep one)."""
    if DEEP is None:
        return "property tests: fast fixed profile (set COALG_EXAMPLES=N for N random examples each)"
    return (f"property tests: COALG_EXAMPLES={DEEP} random examples each, seed {SEED} "
            f"(replay: COALG_EXAMPLES={DEEP} COALG_SEED={SEED})")
