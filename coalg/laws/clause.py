"""A clause of the laws as data, and the one function that checks any clause on any realisation.

Each law clause L1–L7 of Definition 3.21 and schema clause S1–S4 of
Definition 3.23 is a :class:`Clause`: its step predicate, the alphabet and fault
reading it is searched under, the sentence saying which form is checked, and
what one explored case is.  The family modules (:mod:`coalg.laws.monotonicity`,
… :mod:`coalg.laws.schema`) each declare their clauses; :mod:`coalg.laws.table`
lists them in the paper's order.  :func:`check` runs any clause through the
search of :mod:`coalg.laws.search`; :func:`checker` derives the entry point
``check_<key>`` of a clause.  A clause's title, kind and place in the paper
come from the one table of numbered items, :mod:`coalg.paper.items`
(:attr:`Clause.info`).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from ..model import Realisation
from ..paper import Verdict, numbered
from .exploration import Transition
from .search import RANDOM_RUNS, Outcome, Probe, Violation, search_all, verdict_of
from .seeds import Start
from .verdict_cache import entry_name, shared

__all__ = ["Clause", "ClauseCheck", "ClauseInfo", "check", "check_many", "checker", "clear_verdicts",
           "exploration_groups", "fault_reading"]


@dataclass(frozen=True)
class ClauseInfo:
    """What a clause says, which kind of claim its ContextFS verdict is, and where the paper settles it.

    ``kind`` is ``"theorem"`` when the positive verdict follows from the derivation
    schema alone (so it holds for every schema realisation) and ``"instantiation"``
    when it depends on reading a particular realisation's code.
    """

    key: str
    title: str
    kind: str
    result: str
    repair: str


def fault_reading(faults: bool) -> str:
    """The sentence a verdict's ``reading`` uses for its fault setting."""
    return ("every call is also run with each single failing edge write (faults exercise atomicity)"
            if faults else "edge writes succeed (the fault-free reading)")


@dataclass(frozen=True)
class Clause:
    """One clause, as the search checks it.

    ``step`` is the predicate at one transition (how many cases, the violation if
    any); ``at_start`` also judges each seed store (for invariants of stores).
    ``reading`` says which form is checked (``{faults}`` becomes
    :func:`fault_reading`, ``{alphabet}`` the alphabet), ``holds`` what a
    positive verdict found (``{n}`` becomes the count).  ``faults`` is the fault
    setting: ``None`` reads the realisation — the fault-free reading for one whose
    edge writes can fail on their own (ContextFS, the paper's reading), every
    single failing edge write otherwise (REPAIRED: atomicity is exercised);
    ``fault_choice`` lets a caller choose.  ``details`` adds data to the verdict;
    a clause whose cases are not transitions brings its own ``search`` (L6).
    """

    key: str
    statement: str
    explored: str
    reading: str
    holds: str
    step: Callable[[Realisation, Transition], tuple[int, Violation | None]] | None = None
    random_seed: int = 0
    alphabet: str = "fragment"
    faults: bool | None = False
    fault_choice: bool = False
    max_len: int = 3
    at_start: Callable[[Realisation, Start], Violation | None] | None = None
    details: Callable[[Realisation, bool], dict[str, Any]] | None = None
    search: Callable[[Realisation, int, int, int], Verdict] | None = None

    @property
    def info(self) -> ClauseInfo:
        """Title, kind, result and repair, read from the clause's row of :mod:`coalg.paper.items`."""
        row = numbered(self.key)
        assert row.table2 is not None, f"{self.key} has no Table 2 entry"
        return ClauseInfo(self.key, row.table2.title, row.nature, row.table2.result, row.table2.repair)

    def docstring(self) -> str:
        """The documentation of ``check_<key>``: the statement, then the parameters."""
        default = ("reads the realisation (see :class:`~coalg.laws.clause.Clause`)" if self.faults is None
                   else f"means {self.faults}")
        faults = (f"    Whether every single failing edge write is tried as well; ``None`` {default}."
                  if self.fault_choice else "    Not accepted: this clause is checked without injected faults.")
        return (f"{self.statement}\n\nParameters\n----------\nrealisation : Realisation\n"
                "    The realisation whose step function is run.\n"
                f"faults : bool or None\n{faults}\n"
                f"max_len : int or None\n    Exhaustive bound on word length (default {self.max_len}; breadth "
                "first, so witnesses are minimal).\n"
                f"random_runs, random_seed : int\n    Seeded random walks added when the exhaustive search finds "
                f"nothing (default seed {self.random_seed}).\n\n"
                f"Returns\n-------\nVerdict\n    ``explored`` counts {self.explored}; when the clause fails, "
                "``witness`` is a replayable\n    counterexample of minimal word length.\n")


_Key = tuple[Clause, Realisation, bool, int, int, int]
_VERDICTS: dict[_Key, Verdict] = {}


def _key(clause: Clause, realisation: Realisation, faults: bool | None, max_len: int | None, random_runs: int,
         random_seed: int | None) -> _Key:
    if faults is not None and not clause.fault_choice:
        raise ValueError(f"clause {clause.key} is checked without injected faults; it takes no faults argument")
    if max_len is not None and max_len < 0:
        raise ValueError(f"max_len must be at least 0, not {max_len}")
    chosen = clause.faults if faults is None else faults
    with_faults = (not realisation.edge_faults) if chosen is None else chosen
    bound = clause.max_len if max_len is None else max_len
    seed = clause.random_seed if random_seed is None else random_seed
    return clause, realisation, with_faults, bound, random_runs, seed


def _probe(key: _Key) -> Probe:
    clause, realisation, _, _, random_runs, seed = key
    step, at_start = clause.step, clause.at_start
    assert step is not None, f"clause {clause.key} has neither a step predicate nor a search"
    return Probe(lambda t: step(realisation, t),
                 None if at_start is None else (lambda st: at_start(realisation, st)),
                 random_runs=random_runs, random_seed=seed)


def _verdict(key: _Key, outcome: Outcome) -> Verdict:
    clause, realisation, with_faults, _, _, _ = key
    details = {} if clause.details is None else clause.details(realisation, with_faults)
    details.update(outcome.stats())
    n = outcome.explored
    return verdict_of(clause.key, realisation, outcome.found, n,
                      reading=clause.reading.format(faults=fault_reading(with_faults), alphabet=clause.alphabet),
                      holds_summary=clause.holds.format(n=n), details=details)


def _compute(keys: list[_Key]) -> None:
    """Verdicts for ``keys`` not yet known: one pass per exploration they share (their order kept).

    Every key of one call is of one realisation.  Verdicts shared by other
    processes (:mod:`coalg.laws.verdict_cache`) are read instead of computed, and
    the ones computed here are shared.
    """
    missing = [k for k in dict.fromkeys(keys) if k not in _VERDICTS]
    if not missing:
        return
    realisation = missing[0][1]
    own = all(_own_clause(k[0]) for k in missing)
    names = {k: entry_name(k[0].key, realisation, k[2:]) for k in missing}
    with shared(realisation, list(names.values()), own_clauses=own) as disk:
        todo = []
        for k in missing:
            found = disk.load(names[k])
            if found is None:
                todo.append(k)
            else:
                _VERDICTS[k] = found
        _search(todo)
        for k in todo:
            disk.save(names[k], _VERDICTS[k])


def _own_clause(clause: Clause) -> bool:
    """Whether ``clause`` is one the library declares (not a variant built by hand)."""
    from .table import CLAUSE_TABLE  # the table imports this module

    return any(clause is c for c in CLAUSE_TABLE)


def _groups(keys: list[_Key]) -> list[list[_Key]]:
    """``keys`` in the groups one search settles: a clause with its own search alone, the
    others by the exploration they share (alphabet, fault reading, bound); first-seen order."""
    groups: dict[tuple[Any, ...], list[_Key]] = {}
    for key in keys:
        clause, _, with_faults, bound, _, _ = key
        shared_by = ("own search", clause.key) if clause.search is not None else (clause.alphabet, with_faults, bound)
        groups.setdefault(shared_by, []).append(key)
    return list(groups.values())


def _search(keys: list[_Key]) -> None:
    for members in _groups(keys):
        clause, realisation, with_faults, bound, random_runs, seed = members[0]
        if clause.search is not None:
            _VERDICTS[members[0]] = clause.search(realisation, bound, random_runs, seed)
            continue
        outcomes = search_all(realisation, [_probe(k) for k in members], alphabet=clause.alphabet,
                              faults=with_faults, max_len=bound)
        for k, outcome in zip(members, outcomes):
            _VERDICTS[k] = _verdict(k, outcome)


def exploration_groups(
    clauses: Sequence[Clause], realisation: Realisation, *, max_len: int | None = None
) -> list[tuple[Clause, ...]]:
    """``clauses`` in the groups :func:`check_many` settles with one search each (order kept).

    Clauses checked under the same alphabet, fault reading and bound share one
    breadth-first exploration; a clause with its own search is a group alone.
    Checking the groups in separate processes gives the same verdicts as one
    :func:`check_many` (the web book's build does this to use every core).
    """
    keys = [_key(c, realisation, None, max_len, RANDOM_RUNS, None) for c in clauses]
    return [tuple(k[0] for k in group) for group in _groups(keys)]


def check_many(
    clauses: Sequence[Clause],
    realisation: Realisation,
    *,
    max_len: int | None = None,
    random_runs: int = RANDOM_RUNS,
) -> list[Verdict]:
    """:func:`check` of every clause, the clauses that share an exploration checked in one pass of it.

    Each verdict is exactly the one :func:`check` gives for that clause alone
    (with its own fault setting and random seed); verdicts are remembered, so a
    later :func:`check` of the same clause with the same arguments costs nothing.
    """
    keys = [_key(c, realisation, None, max_len, random_runs, None) for c in clauses]
    _compute(keys)
    return [copy.deepcopy(_VERDICTS[k]) for k in keys]


def check(
    clause: Clause,
    realisation: Realisation,
    *,
    faults: bool | None = None,
    max_len: int | None = None,
    random_runs: int = RANDOM_RUNS,
    random_seed: int | None = None,
) -> Verdict:
    """Check ``clause`` on ``realisation``: breadth first to ``max_len``, then seeded random walks.

    ``None`` keeps the clause's own fault setting, bound and random seed.  A
    clause without ``fault_choice`` refuses ``faults``.  The verdict reports how
    far the search went in its details: ``exhaustive_length``, ``states`` and
    ``random_walks`` (:class:`~coalg.laws.search.Outcome`).  Verdicts are
    remembered per arguments (:func:`clear_verdicts` forgets them); each call
    returns a copy.
    """
    key = _key(clause, realisation, faults, max_len, random_runs, random_seed)
    _compute([key])
    return copy.deepcopy(_VERDICTS[key])


def clear_verdicts() -> None:
    """Forget every remembered verdict (for benchmarks)."""
    _VERDICTS.clear()


class ClauseCheck(Protocol):
    """The entry point ``check_<key>`` of a clause: :func:`check` with the clause fixed."""

    __name__: str

    def __call__(self, realisation: Realisation, *, faults: bool | None = None, max_len: int | None = None,
                 random_runs: int = RANDOM_RUNS, random_seed: int | None = None) -> Verdict: ...


def checker(clause: Clause, module: str) -> ClauseCheck:
    """``check_<key>``: :func:`check` with ``clause`` fixed, documented by the clause, living in ``module``."""

    def check_clause(realisation: Realisation, *, faults: bool | None = None, max_len: int | None = None,
                     random_runs: int = RANDOM_RUNS, random_seed: int | None = None) -> Verdict:
        return check(clause, realisation, faults=faults, max_len=max_len, random_runs=random_runs,
                     random_seed=random_seed)

    check_clause.__name__ = check_clause.__qualname__ = f"check_{clause.key}"
    check_clause.__module__ = module
    check_clause.__doc__ = clause.docstring()
    return check_clause
