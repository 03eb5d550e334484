"""The audit of a ContextFS database against the paper's laws: findings, and the report.

:func:`audit` reads a database read-only (:func:`~coalg.contextfs.database.read_database`)
and lists findings, each naming the records involved:

========  ===================================================================
``L2``    a record's ancestry metadata (``evolved_from``, ``merged_from``,
          ``split_from``) disagrees with its ancestry edges
``L3``    a one-way edge: (x, r, y) without its inverse (y, r̄, x)
``L4ii``  a merge that crossed namespaces: a merged record whose
          ``merged_from`` sources lie in other namespaces
``L7``    a dangling edge: an endpoint that holds no record (lineage labels;
          other labels are reported as L7's strong form)
``5.2``   a survivor whose ancestry was cut by a delete: its metadata names a
          parent that is gone or soft-deleted
``6.3``   identifiers ambiguous at the 8-character handle the ContextFS CLI
          and MCP server print (``m.id[:8]``): ``recall`` of that handle returns
          one of them, chosen by row order
``rows``  rows the laws cannot be read on as stored: an id held by two rows
          of a table without a primary key (never merged), a ``tags`` or
          ``metadata`` BLOB that is not UTF-8 JSON
========  ===================================================================

These are the laws of Def. 3.21 (L2, L3, L4(ii), L7) and Propositions 5.2 and
6.3, read on data instead of on runs.  :func:`format_report` is what
``python -m coalg audit PATH`` prints.

Examples
--------
>>> import tempfile, os
>>> from coalg.contextfs import make_demo_database
>>> path = os.path.join(tempfile.mkdtemp(), "tiny.db")
>>> make_demo_database(path)
>>> report = audit(path)
>>> report["view"], report["records"], report["edges"]
('contextfs', 2, 2)
>>> [(f["law"], f["records"]) for f in report["findings"]]
[('L7', ['ab12cd34', 'ab12cd34-002']), ('L7', ['ab12cd34-002', 'ab12cd34']), ('6.3', ['ab12cd34-001', 'ab12cd34-002'])]
"""

from __future__ import annotations

import bisect
import heapq
import os
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping
from typing import Any, TextIO

from ..model import ANCESTRY, LINEAGE, META_KEYS, Edge, Record, Relation, inverse
from .database import Database, Progress, read_database

__all__ = [
    "FINDING_HELP",
    "HANDLE",
    "LAW_ORDER",
    "audit",
    "audit_database",
    "format_report",
    "iter_findings",
]

HANDLE = 8
"""The identifier prefix the ContextFS CLI and MCP server print (``m.id[:8]``)."""
LAW_ORDER = ("L2", "L3", "L4ii", "L7", "5.2", "6.3", "rows")

FINDING_HELP: dict[str, str] = {
    "L2": "edge-record agreement: the record's ancestry metadata (evolved_from / merged_from / split_from) names "
          "other parents than its ancestry edges. Causes: an edge write that failed inside ContextFS's "
          "log-and-continue handler, metadata copied from a parent by evolve/split/merge, an edge removed by "
          "a delete. Two readers of the same lineage (edges vs. the metadata fallback) then disagree.",
    "L3": "inverse closure: an edge (x, r, y) whose inverse (y, r-bar, x) is missing. Derivations write both "
          "edges in one try block, so a failure between them leaves half a pair; link() without "
          "bidirectional=True writes one edge on purpose.",
    "L4ii": "construction locality: a merged record filed in one namespace whose merged_from sources lie in "
            "other namespaces. merge files the result under its first argument's namespace and copies the "
            "others' content, tags and metadata into it: their payload is now readable there.",
    "L7": "referential integrity: an edge with an endpoint that holds no record. Causes: supersede of an id "
          "that does not exist, evolve/split by a prefix (the prefix string becomes the endpoint), a soft "
          "delete (its edges stay and lineage queries still walk them). Lineage labels first; other labels "
          "are L7's strong form.",
    "5.2": "stable ancestry broken: a surviving record's metadata names a parent that is gone or "
           "soft-deleted. A delete removed (or hid) an ancestor that a consumer may already have read.",
    "6.3": "prefix ambiguity: two or more records share the 8-character handle the ContextFS CLI and MCP "
           "server print. recall(handle) returns whichever row SQLite meets first (no namespace filter), and "
           "delete(handle) may pick another one.",
    "rows": "rows the laws cannot be read on as stored: an id held by two or more rows of a memories table "
            "without a primary key (the first row is read, as recall's scan meets it first; the others are "
            "never merged into it), or a tags or metadata cell stored as a BLOB whose bytes are not UTF-8 "
            "JSON (read as empty).",
}
"""What each finding means and how it arises (shown by ``coalg audit --help``)."""


# =========================================================================== findings


def _meta_parents(r: Record, rel: Relation) -> list[str]:
    value = r.metadata.get(META_KEYS[rel])
    if value is None:
        return []
    if isinstance(value, tuple):
        return [str(x) for x in value]
    return [str(value)]


def _finding(law: str, records: Iterable[str], detail: str, **extra: Any) -> dict[str, Any]:
    return {"law": law, "records": list(records), "detail": detail, **extra}


def _why_missing(db: Database, x: str, prefix_of: Mapping[str, str]) -> str:
    if x in db.all_rows:
        return "soft-deleted (deleted_at is set)"
    if x in prefix_of:
        return f"not an id but a prefix of {prefix_of[x]} (evolve/split by prefix write the prefix)"
    return "no such record (hard-deleted, or never existed)"


def _key(f: dict[str, Any]) -> tuple[int, list[str], str]:
    return (LAW_ORDER.index(f["law"]), f["records"], f["detail"])


def audit_database(db: Database, *, progress: TextIO | None = None, limit: int | None = None,
                   counts: dict[str, int] | None = None) -> list[dict[str, Any]]:
    """The findings on a database already read (deterministic order: by law, then records).

    With ``limit``, only the first ``limit`` findings in that order are kept
    while they are found (memory does not grow with their number); ``counts``,
    when given, is filled with the number of findings of each law, all of them.
    """
    found = iter_findings(db, progress=progress)
    if counts is not None:
        found = _counted(found, counts)
    if limit is None:
        return sorted(found, key=_key)
    if limit <= 0:
        for _ in found:  # counted, none kept
            pass
        return []
    return heapq.nsmallest(limit, found, key=_key)


def _counted(found: Iterator[dict[str, Any]], counts: dict[str, int]) -> Iterator[dict[str, Any]]:
    for f in found:
        counts[f["law"]] = counts.get(f["law"], 0) + 1
        yield f


def iter_findings(db: Database, *, progress: TextIO | None = None) -> Iterator[dict[str, Any]]:
    """The findings on a database already read, one at a time, in no particular order."""
    s = db.store
    recs = s.records
    tick = Progress(progress).phase("checking", len(recs) + len(s.edges))
    n = 0
    by_source: dict[str, dict[Relation, set[str]]] = defaultdict(lambda: defaultdict(set))
    for e in s.edges:
        if e.relation in ANCESTRY:
            by_source[e.source][e.relation].add(e.target)
    endpoints = {x for e in s.edges for x in (e.source, e.target)} | {
        p for r in recs.values() for rel in ANCESTRY for p in _meta_parents(r, rel)}
    missing = sorted(x for x in endpoints if x not in recs)
    prefix_of = _prefix_owners(missing, db.all_rows)

    # L2, L4ii, 5.2 — per record
    for i, r in recs.items():
        n += 1
        tick(n)
        for rel in sorted(ANCESTRY, key=lambda x: x.value):
            meta = _meta_parents(r, rel)
            got = by_source.get(i, {}).get(rel, set())
            if set(meta) != got and (meta or got):
                key = META_KEYS[rel]
                said = f"metadata {key} = [{', '.join(meta)}]" if meta else f"no {key} metadata"
                edges_ = f"its {key} edges go to [{', '.join(sorted(got))}]" if got else f"it has no {key} edge"
                yield _finding("L2", [i, *sorted(set(meta) | got)], f"{i}: {said}, but {edges_}")
        # a merge result: merged_from edges, or merged_from metadata and no ancestry edge at all (its edge
        # writes failed); a record that merely inherited merged_from from a merged parent is not one
        own = by_source.get(i, {})
        sources = _meta_parents(r, Relation.MERGED_FROM) if (own.get(Relation.MERGED_FROM) or not own) else []
        foreign = [(j, db.all_rows[j][0]) for j in sources if j in db.all_rows and db.all_rows[j][0] != r.namespace]
        if foreign:
            yield _finding("L4ii", [i, *[j for j, _ in foreign]],
                                f"merged record {i} is filed in namespace {r.namespace!r} but merged from "
                                + ", ".join(f"{j} (namespace {ns!r})" for j, ns in foreign))
        for rel in sorted(ANCESTRY, key=lambda x: x.value):
            for j in _meta_parents(r, rel):
                if j in recs or (j not in db.all_rows and j in prefix_of):
                    continue
                yield _finding("5.2", [i, j],
                                    f"survivor {i}: its metadata {META_KEYS[rel]} names {j}, which is "
                                    f"{_why_missing(db, j, prefix_of)}; its ancestry was cut by a delete")

    # L3 and L7 — per edge
    for e in sorted(s.edges):
        n += 1
        tick(n)
        soft = " (the edge itself is soft-deleted)" if e in db.edge_deleted else ""
        if Edge(e.target, inverse(e.relation), e.source) not in s.edges:
            yield _finding("L3", [e.source, e.target],
                                f"one-way edge ({e.source}, {e.relation.value}, {e.target}): no "
                                f"({e.target}, {inverse(e.relation).value}, {e.source}){soft}",
                                edge=[e.source, e.relation.value, e.target])
        gone = [x for x in (e.source, e.target) if x not in recs]
        if gone:
            form = "lineage" if e.relation in LINEAGE else "strong"
            why = "; ".join(f"{x} is {_why_missing(db, x, prefix_of)}" for x in gone)
            yield _finding("L7", [e.source, e.target],
                                f"dangling {e.relation.value} edge ({e.source} -> {e.target}): {why}{soft}",
                                edge=[e.source, e.relation.value, e.target], form=form)

    # 6.3 — identifiers sharing the 8-character handle (LIKE is case-insensitive)
    groups: dict[str, list[str]] = defaultdict(list)
    for i in recs:
        groups[i[:HANDLE].lower()].append(i)
    rank = {i: k for k, i in enumerate(db.order)}
    for handle, ids in groups.items():
        if len(ids) < 2:
            continue
        ids = sorted(ids)
        spaces = sorted({recs[i].namespace for i in ids})
        first = min(ids, key=lambda i: rank.get(i, len(rank)))
        yield _finding("6.3", ids,
                            f"handle {handle!r} names {len(ids)} records in namespace(s) {', '.join(spaces)}; "
                            f"recall({handle!r}) returns {first} (first in row order), delete({handle!r}) "
                            f"removes {ids[0]} (first by id)",
                            handle=handle)
    for i, what in db.problems:
        yield _finding("rows", [i], f"{i}: {what}")


def _prefix_owners(candidates: Iterable[str], rows: Mapping[str, Any]) -> dict[str, str]:
    """For each candidate that is a proper prefix of a stored id (case-insensitive), the first such id."""
    cands = [c for c in candidates if c and c not in rows]
    if not cands:
        return {}
    ids = sorted(rows, key=str.lower)
    lowered = [x.lower() for x in ids]
    out = {}
    for c in cands:
        lc = c.lower()
        k = bisect.bisect_left(lowered, lc)
        owners = []
        while k < len(ids) and lowered[k].startswith(lc):
            if lowered[k] != lc:
                owners.append(ids[k])
            k += 1
        if owners:
            out[c] = ", ".join(owners[:3]) + (f" and {len(owners) - 3} more" if len(owners) > 3 else "")
    return out


# =========================================================================== the report


def audit(path: str | os.PathLike[str], view: str = "contextfs", *, progress: TextIO | None = None,
          limit: int | None = None) -> dict[str, Any]:
    """Audit a ContextFS database: the JSON report of ``python -m coalg audit PATH --json``.

    ``{"database", "view", "records", "edges", "findings": [{"law", "records", "detail", …}]}``
    plus ``schema_revision``, ``view_reads`` (which rows the view keeps),
    ``counts`` (findings per law, all of them) and ``left_out`` (findings not
    listed: with ``limit``, only the first ``limit`` findings are kept, so that
    memory does not grow with their number).  Deterministic: the same file
    gives the same bytes.
    """
    db = read_database(path, view, progress=progress)
    tally: dict[str, int] = {}
    findings = audit_database(db, progress=progress, limit=limit, counts=tally)
    counts = {law: tally.get(law, 0) for law in LAW_ORDER}
    return {
        "database": os.fspath(path),
        "view": view,
        "records": len(db.store.records),
        "edges": len(db.store.edges),
        "findings": findings,
        "schema_revision": db.revision,
        "view_reads": _VIEW_TEXT[view],
        "counts": {k: v for k, v in counts.items() if v},
        "left_out": sum(counts.values()) - len(findings),
    }


_VIEW_TEXT = {
    "contextfs": "records with deleted_at IS NULL (as recall sees them); every edge, soft-deleted or not (as "
                 "ContextFS's edge and lineage queries read them)",
    "model": "records with deleted_at IS NULL and edges with deleted_at IS NULL (a soft delete read as the "
             "model's delete, which removes the record and its incident edges)",
}


def _printable(text: str) -> str:
    """``text`` with each character that does not print (a line break, a control character) written as in a
    Python string literal: an identifier read from the file cannot split a finding or forge another line.

    >>> _printable("x\\ny"), _printable("été")
    ('x\\\\ny', 'été')
    """
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def format_report(report: Mapping[str, Any], *, limit: int | None = 50) -> str:
    """The human-readable report of ``python -m coalg audit PATH``: one line per finding, whatever the
    identifiers in the file hold (the JSON report keeps them exactly)."""
    revision = _printable(report["schema_revision"]) if report["schema_revision"] else "unknown"
    lines = [
        f"ContextFS database {_printable(report['database'])} (schema revision {revision})",
        f"view '{report['view']}': {report['view_reads']}",
        f"{report['records']} records, {report['edges']} edges",
    ]
    fs = report["findings"]
    total = len(fs) + report.get("left_out", 0)
    if not total:
        lines.append("no findings: every law this audit checks holds on this database.")
        return "\n".join(lines) + "\n"
    lines.append(f"{total} finding(s): " + ", ".join(f"{law} ×{c}" for law, c in report["counts"].items()))
    lines.append("")
    shown = fs if limit is None else fs[:limit]
    for f in shown:
        lines.append(f"  {f['law']:<5} {_printable(f['detail'])}")
    if len(shown) < total:
        lines.append(f"  … {total - len(shown)} more (use --limit N for more, --json --limit 0 for all)")
    lines.append("")
    lines.append("what each finding means: coalg audit --help")
    return "\n".join(lines) + "\n"
