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

A verdict is a function of its :class:`Query` (the clause, the realisation and
the search's arguments), so this module remembers each verdict it computes for
the life of the process: one memo, keyed by the query, which nothing outside the
search fills except :func:`remember` (a verdict the same code computed
elsewhere, as the web book's build hands them to its chapters).
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

__all__ = ["Clause", "ClauseCheck", "ClauseInfo", "Query", "check", "check_many", "checker", "clear_verdicts",
           "exploration_groups", "fault_reading", "query", "remember"]


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
    edge writes can fail on their own (ContextFS; this reading is ours, §5.4), every
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


@dataclass(frozen=True)
class Query:
    """What a verdict is a function of: the clause, the realisation and the search's arguments.

    ``faults``, ``max_len`` and ``random_seed`` are settled (no ``None``): the
    clause's own settings already applied (see :func:`query`).
    """

    clause: Clause
    realisation: Realisation
    faults: bool
    max_len: int
    random_runs: int
    random_seed: int


_VERDICTS: dict[Query, Verdict] = {}
"""The memo of :func:`check`: each query's verdict, computed once per process."""


def query(clause: Clause, realisation: Realisation, *, faults: bool | None = None, max_len: int | None = None,
          random_runs: int = RANDOM_RUNS, random_seed: int | None = None) -> Query:
    """The query :func:`check` answers for these arguments (``None`` keeps the clause's own setting)."""
    if faults is not None and not clause.fault_choice:
        raise ValueError(f"clause {clause.key} is checked without injected faults; it takes no faults argument")
    if max_len is not None and max_len < 0:
        raise ValueError(f"max_len must be at least 0, not {max_len}")
    chosen = clause.faults if faults is None else faults
    with_faults = (not realisation.edge_faults) if chosen is None else chosen
    return Query(clause, realisation, with_faults, clause.max_len if max_len is None else max_len, random_runs,
                 clause.random_seed if random_seed is None else random_seed)


def _probe(q: Query) -> Probe:
    step, at_start, realisation = q.clause.step, q.clause.at_start, q.realisation
    assert step is not None, f"clause {q.clause.key} has neither a step predicate nor a search"
    return Probe(lambda t: step(realisation, t),
                 None if at_start is None else (lambda st: at_start(realisation, st)),
                 random_runs=q.random_runs, random_seed=q.random_seed)


def _verdict(q: Query, outcome: Outcome) -> Verdict:
    clause = q.clause
    details = {} if clause.details is None else clause.details(q.realisation, q.faults)
    details.update(outcome.stats())
    n = outcome.explored
    return verdict_of(clause.key, q.realisation, outcome.found, n,
                      reading=clause.reading.format(faults=fault_reading(q.faults), alphabet=clause.alphabet),
                      holds_summary=clause.holds.format(n=n), details=details)


def _groups(queries: list[Query]) -> list[list[Query]]:
    """``queries`` in the groups one search settles: a clause with its own search alone, the
    others by the exploration they share (alphabet, fault reading, bound); first-seen order."""
    groups: dict[tuple[Any, ...], list[Query]] = {}
    for q in queries:
        shared_by = (("own search", q.clause.key) if q.clause.search is not None
                     else (q.clause.alphabet, q.faults, q.max_len))
        groups.setdefault(shared_by, []).append(q)
    return list(groups.values())


def _compute(queries: list[Query]) -> None:
    """Verdicts for the ``queries`` not yet remembered: one pass per exploration they share."""
    missing = [q for q in dict.fromkeys(queries) if q not in _VERDICTS]
    for members in _groups(missing):
        first = members[0]
        if first.clause.search is not None:
            _VERDICTS[first] = first.clause.search(first.realisation, first.max_len, first.random_runs,
                                                   first.random_seed)
            continue
        outcomes = search_all(first.realisation, [_probe(q) for q in members], alphabet=first.clause.alphabet,
                              faults=first.faults, max_len=first.max_len)
        for q, outcome in zip(members, outcomes):
            _VERDICTS[q] = _verdict(q, outcome)


def remember(q: Query, verdict: Verdict) -> None:
    """Take ``verdict`` as the answer to ``q``, as though :func:`check` had computed it here.

    For a caller that computed it with the same code in another process (the web
    book's build computes each law table once and hands the verdicts to every
    chapter's kernel); a verdict already remembered is kept.  ``TypeError`` if
    ``verdict`` is not a :class:`~coalg.paper.Verdict` of ``q``'s clause.
    """
    if not isinstance(verdict, Verdict) or verdict.item != q.clause.key:
        raise TypeError(f"not a verdict of clause {q.clause.key}: {type(verdict).__name__}")
    _VERDICTS.setdefault(q, copy.deepcopy(verdict))


def exploration_groups(
    clauses: Sequence[Clause], realisation: Realisation, *, max_len: int | None = None
) -> list[tuple[Clause, ...]]:
    """``clauses`` in the groups :func:`check_many` settles with one search each (order kept).

    Clauses checked under the same alphabet, fault reading and bound share one
    breadth-first exploration; a clause with its own search is a group alone.
    Checking the groups in separate processes gives the same verdicts as one
    :func:`check_many` (the web book's build does this to use every core).
    """
    queries = [query(c, realisation, max_len=max_len) for c in clauses]
    return [tuple(q.clause for q in group) for group in _groups(queries)]


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
    queries = [query(c, realisation, max_len=max_len, random_runs=random_runs) for c in clauses]
    _compute(queries)
    return [copy.deepcopy(_VERDICTS[q]) for q in queries]


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
    q = query(clause, realisation, faults=faults, max_len=max_len, random_runs=random_runs,
              random_seed=random_seed)
    _compute([q])
    return copy.deepcopy(_VERDICTS[q])


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
