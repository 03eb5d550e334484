"""``coalg laws``: the law table (the paper's Table 2, Def. 3.21) of a realisation, as text or JSON.

:func:`realisation_law_table` computes the table of a realisation named on the
command line, or raises a clear error; the subcommand prints it.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any

from .. import contextfs, laws, model
from ..errors import CoalgError
from ..laws.clause import check_many, exploration_groups, query, remember
from ..laws.table import CLAUSE_TABLE, get_clause
from ..paper import Verdict
from .common import Formatter

__all__ = ["RUNTIME_NAME", "BadJobs", "BadLength", "LengthNotForRuntime", "UnknownRealisation",
           "realisation_law_table", "register"]

RUNTIME_NAME = "contextfs-runtime"
"""The name under which the command line offers the released package itself."""


class UnknownRealisation(CoalgError, LookupError):
    """The command line was given a realisation name it does not know."""


class BadLength(CoalgError, ValueError):
    """The command line asked for an exhaustive bound below 1."""


class LengthNotForRuntime(BadLength):
    """The command line asked the released package for an exhaustive bound: it keeps its own budget."""


class BadJobs(CoalgError, ValueError):
    """The command line asked for fewer than one process, or for processes the released package cannot use."""


def realisation_law_table(name: str, max_len: int | None = None, *, jobs: int = 1,
                          progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """The law table of the realisation called ``name``, as :func:`coalg.laws.law_table` lays it out.

    ``name`` is a name of the registry (``contextfs``, ``repaired``) or
    ``contextfs-runtime``: the released package itself, observed through
    :func:`coalg.contextfs.pinned_law_table`, which raises
    :class:`coalg.contextfs.ContextFSUnavailable` when the package is not
    installed.  Any other name raises :class:`UnknownRealisation`, whose message
    lists the known names.  ``max_len`` is the exhaustive bound of every clause
    (``None``: each clause's own, 3); the released package keeps its own budget,
    so asking it for a bound raises :class:`LengthNotForRuntime`.

    With ``jobs`` above 1 the searches the clauses share (one per exploration:
    :func:`coalg.laws.clause.exploration_groups`) run in that many worker
    processes, and ``progress`` hears a line as each one ends; the table is the
    same as with one process.

    >>> table = realisation_law_table("repaired", max_len=1)
    >>> table["realisation"], table["clauses"]["L1"]["exhaustive_length"]
    ('repaired', 1)
    >>> realisation_law_table("nope")
    Traceback (most recent call last):
    ...
    coalg.cli.laws.UnknownRealisation: unknown realisation 'nope'; known: contextfs, contextfs-runtime, repaired
    """
    if jobs < 1:
        raise BadJobs(f"--jobs must be at least 1, not {jobs}")
    if name == RUNTIME_NAME:
        if jobs != 1:
            raise BadJobs(f"--jobs applies to the models (contextfs, repaired); {RUNTIME_NAME} is observed in "
                          "one child interpreter")
        if max_len is not None:
            raise LengthNotForRuntime(
                f"--length applies to the models (contextfs, repaired); {RUNTIME_NAME} drives the released "
                "package and keeps its own budget (coalg.contextfs.Budget)")
        return contextfs.pinned_law_table()
    try:
        realisation = model.get_realisation(name)
    except KeyError:
        known = ", ".join(sorted([*model.REALISATIONS, RUNTIME_NAME]))
        raise UnknownRealisation(f"unknown realisation {name!r}; known: {known}") from None
    if max_len is not None and max_len < 1:
        raise BadLength(f"--length must be at least 1, not {max_len}")
    if jobs > 1:
        _settle_in_parallel(realisation, max_len, jobs, progress or (lambda line: None))
    return laws.law_table(realisation, max_len=max_len)


def _settle_group(name: str, keys: tuple[str, ...], max_len: int | None) -> tuple[list[Verdict], float]:
    """In a worker process: the verdicts of the clauses ``keys``, which share one search, and its time."""
    start = time.perf_counter()
    verdicts = check_many([get_clause(k) for k in keys], model.get_realisation(name), max_len=max_len)
    return verdicts, time.perf_counter() - start


def _settle_in_parallel(realisation: model.Realisation, max_len: int | None, jobs: int,
                        progress: Callable[[str], None]) -> None:
    """Check each exploration group of the law table in a worker; remember every verdict here.

    A worker finds the realisation again by its name in the registry (a step function need not pickle).
    """
    name = realisation.name
    groups = exploration_groups(CLAUSE_TABLE, realisation, max_len=max_len)
    with ProcessPoolExecutor(min(jobs, len(groups))) as pool:
        running = {pool.submit(_settle_group, name, tuple(c.key for c in g), max_len): g for g in groups}
        for done, future in enumerate(as_completed(running), start=1):
            verdicts, seconds = future.result()
            group = running[future]
            for clause, verdict in zip(group, verdicts):
                remember(query(clause, realisation, max_len=max_len), verdict)
            progress(f"{name}: {', '.join(c.key for c in group)} settled in {seconds:.0f} s "
                     f"({done} of {len(groups)} searches)")


_LAWS_HELP = """\
Settle the paper's laws L1-L7 and the derivation schema S1-S4 for a realisation by
running it: every clause is explored bounded-exhaustively on small seed stores (every
word of length <= 3 from every seed, stores met once up to renaming of identifiers and
clock readings), then by seeded random walks of 8 calls, and every failure comes with
a minimal replayable counterexample (start store, calls with their allocations,
faults and theta, the store after, the offending items). Each clause reports how far
its search went: exhaustive length, distinct states, random walks.

realisations:
  contextfs          the ContextFS a93035d model (the paper's Table 2: 3 hold, 5 fail)
  repaired           the paper's repairs made real (every clause holds)
  contextfs-runtime  the released contextfs 0.2.35 itself, driven offline through
                     coalg's adapter with a reduced budget (about 900 cases, a few
                     seconds; needs the package: make setup installs it). Its
                     merge-type ties follow string hashing, so it is observed in a
                     child interpreter with PYTHONHASHSEED=0: same output every run.
"""


def register(sub: Any) -> None:
    p = sub.add_parser(
        "laws",
        help="the law table (Table 2) of a realisation, computed",
        description=_LAWS_HELP,
        epilog="examples:\n  coalg laws --realisation contextfs\n  coalg laws --realisation repaired --json\n"
               "  coalg laws --realisation contextfs-runtime\n"
               "  coalg laws -r repaired --length 4 --jobs 2   (developers: every word of length <= 4; about a "
               "quarter of an hour on two cores)",
        formatter_class=Formatter,
    )
    p.add_argument("--realisation", "-r", default="contextfs", metavar="NAME",
                   help="contextfs (default), repaired or contextfs-runtime")
    p.add_argument("--json", action="store_true", help="print the table as JSON")
    p.add_argument("--length", type=int, default=None, metavar="N",
                   help="check every word of length <= N exhaustively (default 3; 4 is the developers' "
                        "longer run; not for contextfs-runtime, which keeps its own budget)")
    p.add_argument("--jobs", "-j", type=int, default=1, metavar="N",
                   help="run the table's searches (one per group of clauses that share an exploration) in "
                        "N processes, and say on stderr as each one ends; the table is the same (default 1)")
    p.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    """Print the table: JSON with sorted keys (byte-identical under every ``PYTHONHASHSEED``), or the human table."""
    table = realisation_law_table(args.realisation, args.length, jobs=args.jobs,
                                  progress=lambda line: print(line, file=sys.stderr, flush=True))
    if args.json:
        sys.stdout.write(json.dumps(table, sort_keys=True, indent=2, ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(laws.format_law_table(table))
    return 0
