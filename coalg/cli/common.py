"""What every subcommand shares: the help formatter, the output of one answer, the usage error."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any

__all__ = ["Formatter", "Handler", "UsageError", "emit"]

Handler = Callable[[argparse.Namespace], int]


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
