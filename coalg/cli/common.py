"""What every subcommand shares: the parser (usage errors in one line), the help formatter,
the output of one answer, the usage error, checked numeric options."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any, NoReturn

__all__ = ["Formatter", "Handler", "Parser", "UsageError", "emit", "count", "subcommand"]

Handler = Callable[[argparse.Namespace], int]


class Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line on stderr (exit status 2).

    Subcommand parsers are made of the same class (``add_subparsers`` uses the
    parent's type), so ``coalg bisim --bogus`` is one line too.
    """

    def error(self, message: str) -> NoReturn:
        """Print ``message`` as one line with the program name and exit with status 2."""
        text = " ".join(message.split())
        self.exit(2, f"{self.prog}: error: {text} (see {self.prog} --help)\n")


def count(text: str) -> int:
    """An ``argparse`` type: a whole number, 0 or more (``--limit -1`` is refused).

    >>> count("12")
    12
    >>> count("-1")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: expected a whole number 0 or more, got '-1'
    """
    t = text.strip()
    if not (t.isascii() and t.isdigit()) or len(t) > 18:
        raise argparse.ArgumentTypeError(f"expected a whole number 0 or more, got {text[:40]!r}")
    return int(t)


class Formatter(argparse.RawDescriptionHelpFormatter):
    """Help text printed as written (the examples keep their layout)."""


class UsageError(Exception):
    """A usage problem found after parsing (reported like an argparse error)."""


def emit(args: argparse.Namespace, data: dict[str, Any], human: str) -> None:
    """Print ``data`` as one JSON line (with ``--json``) or the sentences ``human``."""
    if getattr(args, "json", False):
        sys.stdout.write(json.dumps(data) + "\n")  # ASCII: safe on any terminal encoding
        return
    try:
        sys.stdout.write(human + "\n")
    except UnicodeEncodeError:
        enc = sys.stdout.encoding or "ascii"
        sys.stdout.write(human.encode(enc, "backslashreplace").decode(enc) + "\n")


def subcommand(sub: Any, name: str, *, help: str, description: str, epilog: str = "") -> Parser:
    """Add the parser of subcommand ``name``: its one-line ``help``, and a ``description`` and
    ``epilog`` printed as written by ``coalg NAME --help``."""
    parser: Parser = sub.add_parser(name, help=help, description=description, epilog=epilog,
                                    formatter_class=Formatter)
    return parser
