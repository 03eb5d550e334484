"""``coalg differential``: the ContextFS model against the released package, on random words."""

from __future__ import annotations

import argparse
from typing import Any

from .. import contextfs
from .common import UsageError, emit, subcommand

__all__ = ["register"]

_DESCRIPTION = """\
Run N random words of at most L calls on the ContextFS model (coalg's reading
of the source at commit a93035d) and on the released contextfs 0.2.35, and
compare every output and the whole store after every call.

The words: save (fresh, and under an identifier), recall by identifier and by
prefix, evolve, merge, split, supersede and delete (the last four also by
prefix), with and without injected edge-write faults (a SQLite trigger makes
the package's own edge INSERT fail).  They draw from the whole input domain:
prefixes in mixed case and with SQLite's LIKE wildcards _ and %, identifiers
the package never draws itself, record types the package refuses, non-ASCII
text; the report counts the words that reach each.  Each word starts from an
empty store.

--word-file F replays words instead: F is a report of --json, its list of
disagreements, one disagreement, or a list of words (each a list of calls as
in the "calls" of a disagreement).

What the package leaves undeclared is pinned, not hoped away: the package runs
in child interpreters with PYTHONHASHSEED=H (merge-type ties follow string
hashing); the model's theta follows SQLite's row order, and a merge-type tie
agrees when the package's type is one the model allows for some theta; uuid4
hands out the allocation's identifiers; clock
readings are compared by the call they were taken in, not by value.

Needs the released package (`make setup` installs it minimally).
"""

_EPILOG = """\
examples:
  coalg differential --words 300 --length 6 --seed 1
  coalg differential --words 2000 --length 10 --seed 7 --json
  coalg differential --words 100 --length 6 --seed 1 --hashseed 3
  coalg differential --json > run.json; coalg differential --word-file run.json

exit status: 0 every word agrees, 1 some word disagrees (the report lists
them, shortest first), 2 bad usage or the package cannot be run (one line on
stderr saying why, never a traceback).
"""


def register(sub: Any) -> None:
    p = subcommand(
        sub, "differential", help="differential testing: the ContextFS model against the released package on random words",
        description=_DESCRIPTION, epilog=_EPILOG,
    )
    p.add_argument("--words", type=int, default=300, metavar="N", help="how many random words (default 300)")
    p.add_argument("--length", type=int, default=6, metavar="L", help="at most this many calls per word (default 6)")
    p.add_argument("--seed", type=int, default=1, metavar="S", help="seed of the random words (default 1)")
    p.add_argument("--hashseed", type=int, default=0, metavar="H",
                   help="PYTHONHASHSEED of the interpreters that run the package (default 0)")
    p.add_argument("--no-faults", action="store_true", help="never inject edge-write faults")
    p.add_argument("--cap", type=int, default=20, metavar="K",
                   help="list at most K disagreeing words in --json (default 20)")
    p.add_argument("--word-file", metavar="F", help="replay the words of F instead of drawing random ones")
    p.add_argument("--json", action="store_true", help="print the report as one JSON object")
    p.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    if args.words < 0 or args.length < 1 or args.cap < 0 or not 0 <= args.hashseed <= 4294967295:
        raise UsageError("--words and --cap must be ≥ 0, --length ≥ 1, --hashseed in 0..4294967295")
    if args.word_file is not None:
        report = contextfs.replay(args.word_file, hashseed=args.hashseed, cap=args.cap)
    else:
        report = contextfs.differential(args.words, args.length, args.seed, hashseed=args.hashseed,
                                        faults=not args.no_faults, cap=args.cap)
    emit(args, report, contextfs.format_differential(report))
    return 0 if report["agree"] == report["words"] else 1
