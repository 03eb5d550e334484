"""Mutants that must be caught: every law, schema clause and theorem check rejects a broken realisation.

The mutants are in ``tests/mutants.py`` (shared with any test that takes a
realisation).  For each mutant and each clause or result it names, the check
run on the mutant fails — with a witness that replays on the mutant — while the
same check on the mutant's base holds: the rejection is the mutation's doing.
The two older mutants of Definitions 3.21 and 3.23 stay in
``tests/model/test_definitions.py``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from mutants import MUTANTS, Mutant, mutant

from coalg.bitemporal import meeting_example, proposition_7_1, separates_on
from coalg.bitemporal.checks import _random_histories
from coalg.composition import frame_property
from coalg.laws import CHECKS, CLAUSES, check_5_7, check_5_12, check_5_17, check_5_24
from coalg.model import (
    Allocation,
    Evolve,
    Realisation,
    Record,
    Store,
    call_from_json,
    run,
    store_from_json,
)
from coalg.paper import Verdict

BOUND = 2  # every mutant here breaks its clause with a word of length <= 2


def _clause(key: str) -> Callable[[Realisation], Verdict]:
    return lambda r: CHECKS[key](r, max_len=BOUND, random_runs=0)


def _frame_6_2(r: Realisation) -> Verdict:
    """Proposition 6.2 on one instance: evolve a record of s beside t, compare with evolving it alone."""
    s = Store.of({"a": Record("A", namespace="tenant-s")})
    t = Store.of({"b": Record("B", namespace="tenant-s"), "c": Record("C", namespace="tenant-t")})
    fc = frame_property(s, t, Evolve("a", "A2"), Allocation(("n1",), 5), realisation=r)
    assert fc.applicable
    return Verdict("6.2", "property", fc.holds, 1, fc.to_json())


def _bitemporal_7_1(r: Realisation) -> Verdict:
    ok, checked, bad = separates_on(r, _random_histories(30, 71, recording_only=True))
    proof = proposition_7_1(*meeting_example(), realisation=r)
    return Verdict("7.1", "property", ok and proof.conclusion, checked,
                   {"separation_failure": None if bad is None else bad.to_json()})


CHECK: dict[str, Callable[[Realisation], Verdict]] = {
    **{key: _clause(key) for key in CLAUSES},
    "5.1": _clause("L1"),
    "5.16": _clause("L3"),
    "5.7": lambda r: check_5_7(realisations=(r,)),
    "5.12": lambda r: check_5_12(realisations=(r,)),
    "5.17": lambda r: check_5_17(realisations=(r,)),
    "5.24": lambda r: check_5_24(realisations=(r,)),
    "6.2": _frame_6_2,
    "7.1": _bitemporal_7_1,
}
"""How each clause or result is checked on one realisation."""

CASES = [(m, key) for m in MUTANTS for key in m.breaks]


def test_every_law_and_listed_theorem_has_a_mutant() -> None:
    broken = {key for m in MUTANTS for key in m.breaks}
    assert set(CLAUSES) <= broken
    assert {"5.7", "5.12", "5.17", "5.24", "6.2", "7.1"} <= broken
    assert broken <= set(CHECK)
    with pytest.raises(KeyError, match="no mutant 'nope'"):
        mutant("nope")


@pytest.mark.parametrize(("m", "key"), CASES, ids=[f"{m.name}-{key}" for m, key in CASES])
def test_the_check_rejects_the_mutant_and_passes_its_base(m: Mutant, key: str) -> None:
    bad = CHECK[key](m.realisation)
    assert not bad.holds, f"{key} did not catch {m.name} ({m.mistake})"
    assert CHECK[key](m.base).holds, f"{key} fails on {m.base.name} itself"
    if key in CLAUSES:
        _replays(m.realisation, bad.witness)


def _replays(r: Realisation, w: dict[str, Any] | None) -> None:
    """A clause's witness replays on the mutant: its calls from its start store give its store after."""
    assert w is not None and w["minimality"]
    if "h" in w:  # L6: the two histories
        return
    calls = [call_from_json(c) for c in w["word"]]
    assert run(store_from_json(w["start"]), calls, step_fn=r.step).final == store_from_json(w["after"])


def test_theorem_witnesses_name_the_mutant() -> None:
    """The theorem checks say which realisation failed and where."""
    v = check_5_7(realisations=(mutant("ancestry-out-of-old").realisation,))
    assert v.witness["failure"]["realisation"] == "ancestry-out-of-old"
    assert v.witness["failure"]["changed"]["what"] in ("β⁻", "ancestry unfolding")
    v = check_5_24(realisations=(mutant("merge-stamps-clock").realisation,))
    assert v.witness["failure"]["letter"].startswith("merge(")
    v = check_5_12(realisations=(mutant("overwrites-parent").realisation,))
    assert v.witness["failure"]["realisation"] == "overwrites-parent"
