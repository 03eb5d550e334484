"""``coalg bisim``: strong bisimilarity of one or two Aldebaran ``.aut`` files.

The computing is :mod:`coalg.bisim.compare`'s; this module parses the arguments and
formats the answer."""

from __future__ import annotations

import argparse
import time
from typing import Any

from ..bisim.aut import (
    DEFAULT_MAX_BYTES,
    DEFAULT_MAX_LINE_BYTES,
    DEFAULT_MAX_SIZE,
    MAX_DIGITS,
    SPARE_STATES,
)
from .common import UsageError, count, emit, subcommand

__all__ = ["register"]

_BISIM_DESCRIPTION = """\
Strong bisimilarity of labelled transition systems in Aldebaran .aut format.

Two states are strongly bisimilar when every labelled step of one can be
matched by an equally labelled step of the other, into states that are again
bisimilar (and, with --payload-prefix, they carry the same payload).

  one file   count the bisimilarity classes of its states (the size of the
             minimal LTS with the same behaviour);
  two files  decide whether their initial states are bisimilar, by refining
             the disjoint union; if not, print a shortest witness: a path of
             labels and a Hennessy-Milner formula true of the first initial
             state and false of the second.

The .aut format (what mCRL2 and CADP read and write):

  des (INITIAL, N_TRANSITIONS, N_STATES)
  (SRC,"label",DST)
  (SRC,label,DST)
  ...

States are numbered 0..N_STATES-1; labels may be quoted (and then contain
commas and parentheses) or unquoted.  The refinement is a worklist algorithm
of the O(m log n) class: it copes with millions of transitions and with long
chains.
"""

_BISIM_LIMITS = f"""\
limits (a file beyond them is refused with one line naming the file, the line
and the reason, before anything is built for it):
  - a regular file: a FIFO, a device or a directory is refused before it is
    opened; at most {DEFAULT_MAX_BYTES:,} bytes (--max-bytes) of UTF-8 text;
  - a line has at most {DEFAULT_MAX_LINE_BYTES:,} bytes;
  - numbers are ASCII digits 0-9, at most {MAX_DIGITS} of them;
  - the header announces at most {DEFAULT_MAX_SIZE:,} states and as many
    transitions (--max-size), no more transitions than the bytes that
    follow can hold, and no more than {SPARE_STATES:,} states beyond the
    2 * N_TRANSITIONS + 1 its transitions can touch;
  - the file holds exactly the N_TRANSITIONS transitions announced.
"""

_BISIM_EPILOG = _BISIM_LIMITS + """
exit status: 0 when answered (bisimilar or not), 2 on bad input or usage
(one line on stderr, never a traceback).

examples:
  coalg bisim lts.aut
      lts.aut: 6 states, 8 transitions, 3 strong-bisimilarity classes.
  coalg bisim spec.aut impl.aut
      spec.aut and impl.aut are NOT bisimilar ...
  coalg bisim spec.aut impl.aut --json
      {"bisimilar": false, "witness": {"path": ["a"], "formula": "<a><b>true", ...}, ...}
  coalg bisim store.aut --payload-prefix rec:
      self-loops labelled rec:<payload> are read as state payloads
"""


def register(sub: Any) -> None:
    p = subcommand(
        sub, "bisim", help="strong bisimilarity of .aut transition systems (classes, or compare two)",
        description=_BISIM_DESCRIPTION, epilog=_BISIM_EPILOG,
    )
    p.add_argument(
        "files", nargs="+", metavar="FILE.aut", help="one file (count classes) or two (compare)"
    )
    p.add_argument("--json", action="store_true", help="print one JSON object instead of sentences")
    p.add_argument(
        "--payload-prefix",
        metavar="PREFIX",
        default=None,
        help="read self-loops labelled PREFIX<payload> as state payloads (observations)",
    )
    p.add_argument(
        "--max-size",
        metavar="N",
        type=count,
        default=DEFAULT_MAX_SIZE,
        help=f"refuse files whose header announces more than N states or transitions (default {DEFAULT_MAX_SIZE:,})",
    )
    p.add_argument(
        "--max-bytes",
        metavar="N",
        type=count,
        default=DEFAULT_MAX_BYTES,
        help=f"refuse files of more than N bytes (default {DEFAULT_MAX_BYTES:,})",
    )
    p.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    from ..bisim import compare_auts, count_classes, read_aut

    files: list[str] = args.files
    if len(files) > 2:
        raise UsageError("expected one or two files")
    cap = args.max_size
    t0 = time.perf_counter()
    auts = [
        read_aut(f, payload_prefix=args.payload_prefix, max_states=cap, max_transitions=cap,
                 max_bytes=args.max_bytes)
        for f in files
    ]
    t1 = time.perf_counter()
    if len(auts) == 1:
        a = auts[0]
        classes = count_classes(a)
        t2 = time.perf_counter()
        data = {
            "states": a.n_states,
            "transitions": a.n_transitions,
            "classes": classes,
            "seconds": {
                "read": round(t1 - t0, 4),
                "refine": round(t2 - t1, 4),
                "total": round(t2 - t0, 4),
            },
        }
        human = (
            f"{files[0]}: {a.n_states} states, {a.n_transitions} transitions, "
            f"{classes} strong-bisimilarity classes"
            + (" (the LTS is already minimal)." if classes == a.n_states else ".")
        )
        emit(args, data, human)
        return 0

    a, b = auts
    try:
        w = compare_auts(a, b).witness
    except ValueError as e:  # only a formula too large to print
        raise UsageError(f"not bisimilar, but {e}") from None
    t2 = time.perf_counter()
    data = {
        "bisimilar": w is None,
        "witness": None if w is None else w.to_json(),
        "states": [a.n_states, b.n_states],
        "transitions": [a.n_transitions, b.n_transitions],
        "initial": [a.initial, b.initial],
        "seconds": {
            "read": round(t1 - t0, 4),
            "compare": round(t2 - t1, 4),
            "total": round(t2 - t0, 4),
        },
    }
    if w is None:
        human = (
            f"{files[0]} and {files[1]} are bisimilar: their initial states "
            f"({a.initial} and {b.initial}) have the same behaviour."
        )
    else:
        path = " ".join(w.path) if w.path else "(no steps)"
        human = (
            f"{files[0]} and {files[1]} are NOT bisimilar.\n"
            f"  after the labels {path}: {w.reason} "
            f"(state {w.left_state} of {files[0]}, state {w.right_state} of {files[1]}).\n"
            f"  distinguishing formula (modal depth {w.depth}, shortest possible), "
            f"true of {files[0]}, false of {files[1]}:\n  {w.formula}"
        )
    emit(args, data, human)
    return 0
