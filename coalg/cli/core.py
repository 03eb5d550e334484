"""The ``coalg`` command line.

Each subcommand is one ``_register_<name>(subparsers)`` function that adds its
parser and sets ``func`` to a handler ``(args) -> int``; add it to
``_SUBCOMMANDS`` and it is wired up.  Handlers raise; :func:`main` turns
expected failures (bad input, unreadable files) into one line
``coalg <sub>: error: ...`` on stderr and exit status 2 -- never a traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from ..errors import CoalgError

__all__ = ["main"]

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
  coalg SUBCOMMAND --help                 # details of one subcommand

exit status: 0 when the question was answered (whatever the answer),
2 on bad input or usage (one line on stderr, never a traceback).
"""

Handler = Callable[[argparse.Namespace], int]


class _Formatter(argparse.RawDescriptionHelpFormatter):
    pass


def _emit(args: argparse.Namespace, data: dict[str, Any], human: str) -> None:
    """Print ``data`` as one JSON line (with ``--json``) or the sentences ``human``."""
    if getattr(args, "json", False):
        sys.stdout.write(json.dumps(data) + "\n")  # ASCII: safe on any terminal encoding
        return
    try:
        sys.stdout.write(human + "\n")
    except UnicodeEncodeError:
        enc = sys.stdout.encoding or "ascii"
        sys.stdout.write(human.encode(enc, "backslashreplace").decode(enc) + "\n")


# --------------------------------------------------------------------------- bisim

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

_BISIM_EPILOG = """\
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


def _register_bisim(sub: Any) -> None:
    p = sub.add_parser(
        "bisim",
        help="strong bisimilarity of .aut transition systems (classes, or compare two)",
        description=_BISIM_DESCRIPTION,
        epilog=_BISIM_EPILOG,
        formatter_class=_Formatter,
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
        type=int,
        default=None,
        help="refuse files whose header announces more than N states or transitions (default 50 million)",
    )
    p.set_defaults(func=_cmd_bisim)


def _cmd_bisim(args: argparse.Namespace) -> int:
    from ..bisim import DEFAULT_MAX_SIZE, disjoint_union, distinguishing_witness, read_aut, refine

    files: list[str] = args.files
    if len(files) > 2:
        raise _UsageError("expected one or two files")
    cap = DEFAULT_MAX_SIZE if args.max_size is None else args.max_size
    t0 = time.perf_counter()
    auts = [
        read_aut(f, payload_prefix=args.payload_prefix, max_states=cap, max_transitions=cap)
        for f in files
    ]
    t1 = time.perf_counter()
    if len(auts) == 1:
        a = auts[0]
        part = refine(a.to_lts())
        classes = (max(part) + 1) if len(part) else 0
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
        _emit(args, data, human)
        return 0

    a, b = auts
    u, offset = disjoint_union(a, b)
    lts = u.to_lts()

    def obs_name(o: int) -> str:
        return "no payload" if o == 0 else u.payloads[o - 1]

    try:
        w = distinguishing_witness(
            lts,
            None,
            a.initial,
            offset + b.initial,
            label_names=u.labels,
            observation_names=obs_name,
            max_formula_chars=50_000_000,
        )
    except ValueError as e:  # only a formula too large to print
        raise _UsageError(f"not bisimilar, but {e}") from None
    t2 = time.perf_counter()
    witness = None
    if w is not None:
        witness = {
            "path": [u.labels[x] for x in w.path],
            "left_state": w.left,
            "right_state": w.right - offset,
            "reason": w.reason,
            "formula": w.formula,
            "depth": w.depth,
        }
    data = {
        "bisimilar": w is None,
        "witness": witness,
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
        path = " ".join(u.labels[x] for x in w.path) if w.path else "(no steps)"
        human = (
            f"{files[0]} and {files[1]} are NOT bisimilar.\n"
            f"  after the labels {path}: {w.reason} "
            f"(state {w.left} of {files[0]}, state {w.right - offset} of {files[1]}).\n"
            f"  distinguishing formula (modal depth {w.depth}, shortest possible), "
            f"true of {files[0]}, false of {files[1]}:\n  {w.formula}"
        )
    _emit(args, data, human)
    return 0


# --------------------------------------------------------------------------- laws

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


def _register_laws(sub: Any) -> None:
    p = sub.add_parser(
        "laws",
        help="the law table (Table 2) of a realisation, computed",
        description=_LAWS_HELP,
        epilog="examples:\n  coalg laws --realisation contextfs\n  coalg laws --realisation repaired --json\n"
               "  coalg laws --realisation contextfs-runtime",
        formatter_class=_Formatter,
    )
    p.add_argument("--realisation", "-r", default="contextfs", metavar="NAME",
                   help="contextfs (default), repaired or contextfs-runtime")
    p.add_argument("--json", action="store_true", help="print the table as JSON")
    p.set_defaults(func=_cmd_laws)


def _cmd_laws(args: argparse.Namespace) -> int:
    from .laws import run_laws_command

    code, text = run_laws_command(args.realisation, args.json)
    if code != 0:
        raise _UsageError(text.strip().removeprefix("error: "))
    sys.stdout.write(text)
    return 0


# --------------------------------------------------------------------------- witness

_WITNESS_HELP = """\
Run the executable counterpart of one numbered item of the paper (a definition,
proposition, theorem, corollary or remark) and print its verdict: whether the
paper's statement is confirmed, how much was explored, and the witness.

kinds:
  property         checked over many stores and words (property-style);
                   "holds" says whether it held everywhere explored
  counterexample   a constructed counterexample; "holds" says whether the
                   counterexample was exhibited (so the paper's claim is confirmed)
"""


def _register_witness(sub: Any) -> None:
    p = sub.add_parser(
        "witness",
        help="construct or check one numbered result of the paper",
        description=_WITNESS_HELP,
        epilog="examples:\n  coalg witness --list\n  coalg witness 5.7\n  coalg witness 5.20 --json",
        formatter_class=_Formatter,
    )
    p.add_argument("item", nargs="?", help="a paper number such as 5.7, 5.20 or 6.3")
    p.add_argument("--list", action="store_true", help="list every item this coalg knows")
    p.add_argument("--json", action="store_true", help="print the verdict as JSON")
    p.set_defaults(func=_cmd_witness)


def _cmd_witness(args: argparse.Namespace) -> int:
    from ..paper import get_item, known_items

    items = known_items()
    if args.list or args.item is None:
        if not args.list:
            raise _UsageError("name an item (e.g. 5.7) or use --list")
        if args.json:
            sys.stdout.write(json.dumps([{"item": i, "title": get_item(i).title, "kind": get_item(i).kind,
                                          "nature": get_item(i).nature} for i in items]) + "\n")
        else:
            width = max(len(i) for i in items)
            for i in items:
                it = get_item(i)
                sys.stdout.write(f"{i:<{width}}  {it.nature:<13}  {it.kind:<14}  {it.title}\n")
        return 0
    if args.item not in items:
        raise _UsageError(f"unknown item {args.item!r}; known items: {', '.join(items)}")
    it = get_item(args.item)
    verdict = it.check()
    data = verdict.to_json()
    if args.json:
        sys.stdout.write(json.dumps(data, sort_keys=True, ensure_ascii=False) + "\n")
        return 0
    status = "confirmed" if verdict.holds else "NOT confirmed"
    lines = [f"{it.item}  {it.title}", f"  nature: {it.nature}; kind: {it.kind}; {status}; explored {verdict.explored}"]
    if verdict.summary:
        lines.append("  " + verdict.summary)
    if verdict.witness is not None:
        lines.append("  witness:")
        lines.extend("    " + ln for ln in json.dumps(data["witness"], indent=2, sort_keys=True,
                                                      ensure_ascii=False).splitlines())
    _emit(args, data, "\n".join(lines))
    return 0


# --------------------------------------------------------------------------- audit

_AUDIT_DESCRIPTION = """\
Audit a ContextFS SQLite database (tables memories and memory_edges, as
contextfs 0.2.35 writes them) against the paper's laws, READ-ONLY: the file
is opened with SQLite's read-only mode (immutable for a WAL database with an
empty log); no journal, -wal or -shm file is created and the file's bytes and
modification time do not change.

views (--view):
  contextfs  what ContextFS's own queries see (default): records with
             deleted_at IS NULL, as recall sees them; every edge, soft-deleted
             or not, as its edge and lineage queries read them
  model      what the paper's model says a delete leaves: live records and
             live edges only (a soft delete read as the model's delete)

findings (each names the records involved):
  L2    edge-record agreement: a record's ancestry metadata (evolved_from,
        merged_from, split_from) names other parents than its ancestry
        edges -- an edge write failed inside ContextFS's log-and-continue
        handler, metadata was copied from a parent, or a delete took an edge
  L3    inverse closure: an edge (x, r, y) without its inverse (y, r-bar, x)
        -- half a pair left by a failing write, or link() without
        bidirectional
  L4ii  construction locality: a merged record filed in one namespace whose
        merged_from sources lie in other namespaces: their content, tags
        and metadata are now readable there
  L7    referential integrity: an edge with an endpoint that holds no record
        -- supersede of a missing id, evolve/split by a prefix (the prefix
        string becomes the endpoint), a soft delete (its edges stay)
  5.2   stable ancestry broken: a surviving record's metadata names a parent
        that is gone or soft-deleted (a delete cut its ancestry)
  6.3   prefix ambiguity: records sharing the 8-character handle the
        ContextFS CLI and MCP server print; recall(handle) returns whichever
        row comes first, in any namespace

With no PATH, the bundled sample database data/sample-contextfs.db (made with
the real package by tools/make_sample_db.py) is audited.
"""

_AUDIT_EPILOG = """\
examples:
  coalg audit ~/.contextfs/context.db
  coalg audit data/sample-contextfs.db --json
  coalg audit store.db --view model

exit status: 0 no findings, 1 findings, 2 the file cannot be audited (missing,
a directory, not SQLite, corrupt, locked by a writer, not a ContextFS
database, or a newer schema) -- one line on stderr, never a traceback.
A progress bar goes to stderr when it is a terminal (or with --progress).
"""


def _register_audit(sub: Any) -> None:
    p = sub.add_parser(
        "audit",
        help="audit a ContextFS database read-only (dangling edges, L2 disagreements, cross-namespace merges, ...)",
        description=_AUDIT_DESCRIPTION,
        epilog=_AUDIT_EPILOG,
        formatter_class=_Formatter,
    )
    p.add_argument("path", nargs="?", metavar="PATH", help="the ContextFS SQLite file (default: the sample database)")
    p.add_argument("--json", action="store_true", help="print the report as one JSON object")
    p.add_argument("--view", choices=("contextfs", "model"), default="contextfs",
                   help="which rows count as present (default: contextfs)")
    p.add_argument("--progress", action="store_true", help="show a progress bar on stderr even when it is not a terminal")
    p.add_argument("--limit", type=int, default=50, metavar="N",
                   help="findings listed in the human report (default 50; --json lists all)")
    p.set_defaults(func=_cmd_audit)


def _cmd_audit(args: argparse.Namespace) -> int:
    from pathlib import Path

    from ..contextfs import audit, format_report

    path = args.path
    if path is None:
        sample = Path(__file__).resolve().parents[2] / "data" / "sample-contextfs.db"
        if not sample.is_file():
            raise _UsageError("no PATH given and the sample database data/sample-contextfs.db is not here")
        path = str(sample)
        sys.stderr.write(f"coalg audit: no PATH given; auditing the sample database {path}\n")
    show = args.progress or sys.stderr.isatty()
    report = audit(path, args.view, progress=sys.stderr if show else None)
    if args.json:
        sys.stdout.write(json.dumps(report) + "\n")  # ASCII: safe on any terminal
    else:
        _emit(args, report, format_report(report, limit=args.limit).rstrip("\n"))
    return 1 if report["findings"] else 0


# --------------------------------------------------------------------------- wiring

_SUBCOMMANDS: list[Callable[[Any], None]] = [_register_bisim, _register_laws, _register_witness, _register_audit]


class _UsageError(Exception):
    """A usage problem found after parsing (reported like an argparse error)."""


def build_parser() -> argparse.ArgumentParser:
    """The top-level parser with every registered subcommand."""
    parser = argparse.ArgumentParser(
        prog="coalg", description=_DESCRIPTION, epilog=_EPILOG, formatter_class=_Formatter
    )
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
    text = str(e) or e.__class__.__name__
    return " ".join(text.split())  # one line


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``coalg`` command line; returns the exit status."""
    # NumPy is imported lazily by the subcommands that need it; nothing here uses
    # BLAS threads, and starting them costs ~50 ms per run (the user's setting wins).
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    parser = build_parser()
    args = parser.parse_args(None if argv is None else list(argv))
    name = f"coalg {args.command}"
    handler: Handler = args.func
    try:
        return handler(args)
    except (CoalgError, OSError, MemoryError, UnicodeError, _UsageError) as e:
        sys.stdout.flush()
        sys.stderr.write(f"{name}: error: {_describe(e)}\n")
        return 2
    except KeyboardInterrupt:
        sys.stderr.write(f"{name}: interrupted\n")
        return 130
