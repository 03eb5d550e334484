"""``coalg laws``: the law table of a realisation, as text or JSON."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..laws import format_law_table, law_table
from ..model.realisation import get_realisation
from .common import Formatter, UsageError

__all__ = ["register", "run_laws_command"]


def run_laws_command(realisation: str, as_json: bool) -> tuple[int, str]:
    """``python -m coalg laws --realisation NAME [--json]``: (exit code, text to print).

    Parameters
    ----------
    realisation : str
        ``contextfs`` or ``repaired`` (any name of the registry), or
        ``contextfs-runtime``: the released package itself, observed through
        :func:`coalg.contextfs.runtime.pinned_law_table` (needs contextfs 0.2.35).
    as_json : bool
        Print the law table as JSON instead of the human table.

    Returns
    -------
    tuple of (int, str)
        0 and the text; 2 and an error line for an unknown realisation, or for
        ``contextfs-runtime`` when the package is not installed.

    The JSON is :func:`law_table` with sorted keys; it is byte-identical under
    every ``PYTHONHASHSEED``.  An unknown realisation gives exit code 2.

    >>> code, text = run_laws_command("nope", False)
    >>> code, text.splitlines()[0]
    (2, "error: unknown realisation 'nope'; known: contextfs, contextfs-runtime, repaired")
    """
    if realisation == "contextfs-runtime":
        from ..contextfs.adapter import ContextFSUnavailable
        from ..contextfs.runtime import pinned_law_table

        try:
            table = pinned_law_table()
        except ContextFSUnavailable as e:
            return 2, f"error: {e}\n"
    else:
        try:
            r = get_realisation(realisation)
        except KeyError:
            from ..model.realisation import REALISATIONS

            known = ", ".join(sorted([*REALISATIONS, "contextfs-runtime"]))
            return 2, f"error: unknown realisation {realisation!r}; known: {known}\n"
        table = law_table(r)
    if as_json:
        return 0, json.dumps(table, sort_keys=True, indent=2, ensure_ascii=False) + "\n"
    return 0, format_law_table(table)


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
    from .laws import run_laws_command

    code, text = run_laws_command(args.realisation, args.json)
    if code != 0:
        raise UsageError(text.strip().removeprefix("error: "))
    sys.stdout.write(text)
    return 0
