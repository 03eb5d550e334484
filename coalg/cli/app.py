"""The ``coalg`` command line.

Each subcommand is a module of this package with a ``register(subparsers)`` that adds its
parser and sets ``func`` to a handler ``(args) -> int``; add it to
``_SUBCOMMANDS`` and it is wired up.  Handlers raise; :func:`main` turns
expected failures (bad input, unreadable files) into one line
``coalg <sub>: error: ...`` on stderr and exit status 2 -- never a traceback.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any

from ..errors import CoalgError
from . import audit, bisim, conform, differential, laws, witness
from .common import Formatter, Handler, Parser, UsageError

__all__ = ["build_parser", "main"]

_DESCRIPTION = """\
coalg: executable coalgebraic memory.

Tools to check the paper's claims on concrete data.  Two states are
*bisimilar* when no experiment can tell them apart: they show the same
observation, and every step one can take, the other can match with an
equally labelled step into states that are again bisimilar.
"""

_EPILOG = """\
examples:
  coalg bisim system.aut                  # how many behaviourally different states?
  coalg bisim spec.aut impl.aut           # same behaviour from the initial states?
  coalg bisim spec.aut impl.aut --json    # machine-readable, with a witness if not
  coalg laws --realisation contextfs      # the paper's Table 2, computed
  coalg witness 5.20                      # construct the witness of Prop. 5.20
  coalg differential --words 300          # the model against the released package
  coalg conform mymemory:Memory           # check your own memory layer
  coalg SUBCOMMAND --help                 # details of one subcommand

exit status: 0 when the question was answered (whatever the answer);
1 when `audit` has findings, `differential` finds a word on which the
model and the package disagree, or a clause fails in `conform`; 2 on bad
input or usage, or when a subcommand needs the released package and it
cannot be run (one line on stderr, never a traceback).
Every file is read only when it is a regular file (a FIFO, device or
directory is refused before it is opened), within stated limits; see
each subcommand's --help.
"""

_SUBCOMMANDS: list[Callable[[Any], None]] = [bisim.register, laws.register, witness.register, audit.register,
                                             differential.register, conform.register]


def build_parser() -> argparse.ArgumentParser:
    """The top-level parser with every registered subcommand."""
    parser = Parser(prog="coalg", description=_DESCRIPTION, epilog=_EPILOG, formatter_class=Formatter)
    sub = parser.add_subparsers(dest="command", metavar="SUBCOMMAND", required=True)
    for register in _SUBCOMMANDS:
        register(sub)
    return parser


def _describe(e: BaseException) -> str:
    if isinstance(e, OSError):
        what = e.filename if e.filename is not None else ""
        reason = e.strerror or e.__class__.__name__
        return f"cannot read {what!r}: {reason}" if what != "" else reason
    if isinstance(e, MemoryError):
        return "out of memory (input too large for this machine)"
    if isinstance(e, RecursionError):
        return "input nested too deeply to process"
    text = str(e) or e.__class__.__name__
    return " ".join(text.split())  # one line


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``coalg`` command line; returns the exit status."""
    # NumPy is imported lazily by the subcommands that need it; nothing here uses
    # BLAS threads, and starting them costs ~50 ms per run (the user's setting wins).
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    parser = build_parser()
    args, extra = parser.parse_known_args(None if argv is None else list(argv))
    name = f"coalg {args.command}"
    if extra:  # named by the subcommand they were given to, in one line like every usage error
        sys.stderr.write(f"{name}: error: unrecognized arguments: {' '.join(extra)} (see {name} --help)\n")
        return 2
    handler: Handler = args.func
    try:
        return handler(args)
    except (CoalgError, OSError, MemoryError, RecursionError, UnicodeError, UsageError) as e:
        sys.stdout.flush()
        sys.stderr.write(f"{name}: error: {_describe(e)}\n")
        return 2
    except KeyboardInterrupt:
        sys.stderr.write(f"{name}: interrupted\n")
        return 130