"""``coalg conform``: check a memory layer against the laws L1–L7 and the schema S1–S4."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from .. import conformance
from ..conformance.isolation import CALL_TIMEOUT, TIMEOUT, run_isolated
from ..conformance.protocol import needs_text
from .common import Formatter, UsageError

__all__ = ["register"]

_DESCRIPTION = """\
Check your own memory layer against the paper's laws. MODULE:ATTR names a
factory -- a class, or a function of no arguments -- that makes a fresh, empty
layer: an object with

  save(content, *, type='fact', namespace='global', tags=(), metadata=None) -> id
  evolve(id, content) -> id          merge(ids) -> id
  split(id, parts) -> [id, ...]      supersede(old, new)       delete(id)
  records() -> {id: {"content", "type", "namespace", "tags", "metadata", ...}}
  edges() -> [(source, relation, target), ...]   (the 22 ContextFS relations)

Identifiers are plain strings the layer chooses; each creating call returns
the identifiers of the records it made (never one already there), split one
per part, in the parts' order. A relation is named in any
case: evolved_from/evolved_into, merged_from/merged_into, split_from/split_into,
supersedes/superseded_by, and the others of coalg.Relation; the edges are read
as a set. Metadata holds JSON-like values (strings, numbers, booleans, None,
lists, mappings with string keys): store a datetime as text.

optionally: save(..., id=...) (save_at), prefix_arguments = True, recall(ref)
-> id or None (prefix_recall: any recall of one argument is read so),
valid_time= on save/evolve/merge/split (valid_time, also through **options;
records() then shows each record's "valid_time" as save got it, a number, a
string or None), close().

The layer is explored as a black box: every word of up to --length calls from
a fresh layer, then --walks seeded random walks, its identifiers renamed to
canonical ones (id0001, ...) wherever a record shows them whole, and inside
longer strings too ("mem://<id>") for a layer that writes them there. Each
step is judged with the predicates the law search uses on the paper's model:
L1, L2, L3, L4(i), L4(ii), L7 and S1-S4.
L5 compares the same words in two child interpreters (PYTHONHASHSEED 0 and 1)
and with fresh saves reordered (where each record keeps its identifier), and,
with a prefix capability, asks that an ambiguous prefix be refused or resolved
by a declared prefix_rule.
L6 holds only with the valid_time capability (otherwise it fails with the
witness of Theorem 5.27). Every failure comes with a minimal word and a few
lines of Python that replay it. The run itself happens in a child process
with PYTHONHASHSEED=0, so the output is the same every time; what the layer
prints goes to stderr.

A bounded exploration can refute a law, never prove it: a clause that holds
held on every word tried. The kit judges a layer by what records() and edges()
show: while it explores, two words that leave the same records and edges
stand for one layer. Every run a failure cites is made again, word for word,
on a fresh layer before it is reported, so a witness is what the layer does;
state the layer keeps but does not show (a tombstone outside records(), a
cache) is judged only through what later calls do.

What each clause reads from the layer, and when it does not apply:

""" + needs_text()

_EPILOG = """\
examples:
  coalg conform coalg.conformance.examples:repaired      # every clause holds
  coalg conform coalg.conformance.examples:contextfs     # Table 2 on the package
  coalg conform mymemory:Memory --length 2 --walks 50 --json

exit status: 0 every applicable clause holds, 1 a clause fails (the witnesses
are printed), 2 bad use: the module does not import, ATTR is not a factory,
the layer misuses the protocol, or the run did not end with a complete
report -- a layer call raised SystemExit or another BaseException, ran longer
than --call-timeout, the run took longer than --timeout, or the process
exited or was killed (one line on stderr, never a traceback).
"""


def register(sub: Any) -> None:
    p = sub.add_parser("conform", help="check your own memory layer against the laws (exit 1 when one fails)",
                       description=_DESCRIPTION, epilog=_EPILOG, formatter_class=Formatter)
    p.add_argument("factory", metavar="MODULE:ATTR", help="the factory of fresh layers, e.g. mypkg.memory:Memory")
    p.add_argument("--length", type=int, default=3, metavar="L", help="explore every word of up to L calls (3)")
    p.add_argument("--walks", type=int, default=200, metavar="N", help="then N seeded random walks (200)")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="the walks' seed (0)")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.add_argument("--call-timeout", type=_seconds, default=CALL_TIMEOUT, metavar="T",
                   help=f"stop the run when one call of the layer takes more than T seconds ({CALL_TIMEOUT:g})")
    p.add_argument("--timeout", type=_seconds, default=TIMEOUT, metavar="T",
                   help=f"stop the run when it takes more than T seconds in all ({TIMEOUT:g})")
    p.set_defaults(func=_run)


def _seconds(text: str) -> float:
    """An ``argparse`` type: a positive number of seconds."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text[:40]!r}") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"expected a positive, finite number of seconds, got {text[:40]!r}")
    return value


def _run(args: argparse.Namespace) -> int:
    if args.length < 1:
        raise UsageError(f"--length must be at least 1, got {args.length}")
    if args.walks < 0:
        raise UsageError(f"--walks must be 0 or more, got {args.walks}")
    report = run_isolated(args.factory, length=args.length, walks=args.walks, seed=args.seed,
                          call_timeout=args.call_timeout, timeout=args.timeout)
    if args.json:
        sys.stdout.write(json.dumps(report, sort_keys=True, ensure_ascii=False, indent=2) + "\n")
    else:
        sys.stdout.write(conformance.format_report(report))
    return conformance.exit_status(report)
