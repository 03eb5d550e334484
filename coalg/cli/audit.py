"""``coalg audit``: check a ContextFS database against the laws, read-only."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from .. import contextfs
from .common import UsageError, count, emit, subcommand

__all__ = ["register"]

_SHOWN = 50
"""Findings the human report lists by default."""

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
  rows  rows the laws cannot be read on as stored: an id held by two or
        more rows of a memories table without a primary key (the first row
        is read, the others are reported, never merged), a tags or metadata
        cell stored as a BLOB whose bytes are not UTF-8 (read as empty)

With no PATH, the bundled sample database data/sample-contextfs.db (made with
the real package by tools/make_sample_db.py) is audited.
"""

_AUDIT_EPILOG = """\
limits (beyond them the file is not audited):
  - PATH is a regular file, after following a symbolic link; a FIFO, a
    device or a directory is refused before it is opened, and so is a -wal,
    -journal or -shm beside the resolved file that is not a regular file;
  - a non-empty -wal (WAL mode) or a -journal (a hot journal) beside the
    resolved file is refused: a read-only reader could not see what it holds;
  - the tags and metadata cells nest at most 100 levels of JSON (a cell that
    is not JSON reads as empty, as in ContextFS; a BLOB cell is read as its
    UTF-8 text); a WITHOUT ROWID table is read in its primary key's order.

examples:
  coalg audit ~/.contextfs/context.db
  coalg audit data/sample-contextfs.db --json
  coalg audit store.db --view model

exit status: 0 no findings, 1 findings, 2 the file cannot be audited (missing,
not a regular file, not SQLite, corrupt, locked by a writer, a live log or
hot journal, a cell beyond the limits, not a ContextFS database, or a newer
schema) -- one line on stderr, never a traceback.
A progress bar goes to stderr when it is a terminal (or with --progress).
"""


def register(sub: Any) -> None:
    p = subcommand(
        sub, "audit", help="audit a ContextFS database read-only (dangling edges, L2 disagreements, cross-namespace merges, ...)",
        description=_AUDIT_DESCRIPTION, epilog=_AUDIT_EPILOG,
    )
    p.add_argument("path", nargs="?", metavar="PATH", help="the ContextFS SQLite file (default: the sample database)")
    p.add_argument("--json", action="store_true", help="print the report as one JSON object")
    p.add_argument("--view", choices=("contextfs", "model"), default="contextfs",
                   help="which rows count as present (default: contextfs)")
    p.add_argument("--progress", action="store_true", help="show a progress bar on stderr even when it is not a terminal")
    p.add_argument("--limit", type=count, default=None, metavar="N",
                   help="list at most N findings, the first in the report's order, and say how many were "
                        "left out; 0 lists all (default 50, or all with --json); only the listed findings are "
                        "kept in memory")
    p.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    path = args.path
    if path is None:
        sample = Path(__file__).resolve().parents[2] / "data" / "sample-contextfs.db"
        if not sample.is_file():
            raise UsageError("no PATH given and the sample database data/sample-contextfs.db is not here")
        path = str(sample)
        sys.stderr.write(f"coalg audit: no PATH given; auditing the sample database {path}\n")
    show = args.progress or sys.stderr.isatty()
    limit = args.limit if args.limit is not None else (0 if args.json else _SHOWN)
    report = contextfs.audit(path, args.view, progress=sys.stderr if show else None, limit=limit or None)
    if args.json:
        sys.stdout.write(json.dumps(report) + "\n")  # ASCII: safe on any terminal
    else:
        emit(args, report, contextfs.format_report(report, limit=None).rstrip("\n"))
    return 1 if report["findings"] or report["left_out"] else 0
