"""``coalg laws``: the law table (the paper's Table 2, Def. 3.21) of a realisation, as text or JSON.

:func:`realisation_law_table` computes the table of a realisation named on the
command line, or raises a clear error; the subcommand prints it.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from .. import contextfs, laws, model
from ..errors import CoalgError
from .common import Formatter

__all__ = ["RUNTIME_NAME", "UnknownRealisation", "realisation_law_table", "register"]

RUNTIME_NAME = "contextfs-runtime"
"""The name under which the command line offers the released package itself."""


class UnknownRealisation(CoalgError, LookupError):
    """The command line was given a realisation name it does not know."""


def realisation_law_table(name: str) -> dict[str, Any]:
    """The law table of the realisation called ``name``, as :func:`coalg.laws.law_table` lays it out.

    ``name`` is a name of the registry (``contextfs``, ``repaired``) or
    ``contextfs-runtime``: the released package itself, observed through
    :func:`coalg.contextfs.pinned_law_table`, which raises
    :class:`coalg.contextfs.ContextFSUnavailable` when the package is not
    installed.  Any other name raises :class:`UnknownRealisation`, whose message
    lists the known names.

    >>> realisation_law_table("repaired")["realisation"]
    'repaired'
    >>> realisation_law_table("nope")
    Traceback (most recent call last):
    ...
    coalg.cli.laws.UnknownRealisation: unknown realisation 'nope'; known: contextfs, contextfs-runtime, repaired
    """
    if name == RUNTIME_NAME:
        return contextfs.pinned_law_table()
    try:
        realisation = model.get_realisation(name)
    except KeyError:
        known = ", ".join(sorted([*model.REALISATIONS, RUNTIME_NAME]))
        raise UnknownRealisation(f"unknown realisation {name!r}; known: {known}") from None
    return laws.law_table(realisation)


_LAWS_HELP = """\
Settle the paper's laws L1-L7 and the derivation schema S1-S4 for a realisation by
running it: every clause is explored bounded-exhaustively on small seed stores, and
every failure comes with a minimal replayable counterexample (start store, calls
with their allocations, faults and theta, the store after, the offending items).

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
               "  coalg laws --realisation contextfs-runtime",
        formatter_class=Formatter,
    )
    p.add_argument("--realisation", "-r", default="contextfs", metavar="NAME",
                   help="contextfs (default), repaired or contextfs-runtime")
    p.add_argument("--json", action="store_true", help="print the table as JSON")
    p.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    """Print the table: JSON with sorted keys (byte-identical under every ``PYTHONHASHSEED``), or the human table."""
    table = realisation_law_table(args.realisation)
    if args.json:
        sys.stdout.write(json.dumps(table, sort_keys=True, indent=2, ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(laws.format_law_table(table))
    return 0
