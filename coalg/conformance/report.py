"""The conformance report: one entry per clause of Table 2, as JSON and as the table ``coalg laws`` prints.

``{"layer": "MODULE:ATTR", "capabilities": [...], "budget": {...}, "clauses": {"L1": {...}, ...}}``
with the clause keys of :func:`coalg.laws.law_table` (L1 L2 L3 L4i L4ii L5 L6 L7
S1 S2 S3 S4).  Each entry has ``holds`` (``true``, ``false``, or ``null`` when
the clause does not apply, with the reason), ``explored``, ``witness``
(``null`` unless it fails), ``reason`` (one sentence: what was checked, what
went wrong, or why it does not apply), ``title`` and ``skipped`` (cases the
protocol could not build).

>>> print(format_report({"layer": "m:M", "capabilities": [], "budget": {"length": 1, "walks": 0, "seed": 0},
...                      "clauses": {}}).splitlines()[0])
Laws L1–L7 and derivation schema S1–S4 on the memory layer m:M
"""

from __future__ import annotations

from typing import Any

from ..laws import CLAUSES, INFO, LAW_CLAUSES, SCHEMA_CLAUSES
from .witness import one_line_calls

__all__ = ["clause_entry", "exit_status", "failing", "format_report", "format_witness"]


def clause_entry(key: str, holds: bool | None, explored: int, reason: str, witness: dict[str, Any] | None = None,
                 skipped: int = 0) -> dict[str, Any]:
    """One clause of the report."""
    return {"holds": holds, "explored": explored, "witness": witness, "reason": reason,
            "title": INFO[key].title, "skipped": skipped}


def failing(report: dict[str, Any]) -> list[str]:
    """The keys of the clauses that fail, in the paper's order."""
    return [k for k in CLAUSES if k in report["clauses"] and report["clauses"][k]["holds"] is False]


def exit_status(report: dict[str, Any]) -> int:
    """0 when every applicable clause holds, 1 when one fails."""
    return 1 if failing(report) else 0


def _short(key: str, e: dict[str, Any]) -> str:
    if e["holds"] is False and e["witness"] is not None:
        calls = "; ".join(one_line_calls(e["witness"].get("calls", []))) or "(no call)"
        return f"{calls} -- {e['reason']}"
    return str(e["reason"])


def format_witness(key: str, e: dict[str, Any]) -> str:
    """A failing clause's witness, for a terminal: the calls, the sentence, how minimal, the replay script."""
    w = e["witness"] or {}
    lines = [f"{key} {e['title']}: {e['reason']}", f"  found: {w.get('minimality', '')}"]
    if w.get("calls"):
        lines.append("  calls:")
        lines += [f"    {c}" for c in w["calls"]]
    if w.get("replay"):
        lines.append("  replay:")
        lines += [f"    {x}" if x else "" for x in w["replay"].rstrip("\n").splitlines()]
    return "\n".join(lines)


def format_report(report: dict[str, Any], *, witnesses: bool = True) -> str:
    """The human-readable table, then each failing clause's witness (with ``witnesses``)."""
    b = report["budget"]
    caps = ", ".join(report["capabilities"]) or "none"
    lines = [f"Laws L1–L7 and derivation schema S1–S4 on the memory layer {report['layer']}",
             (f"capabilities: {caps}; explored: every word of up to {b['length']} calls from a fresh layer, "
             f"then {b['walks']} random walks (seed {b['seed']})"), ""]
    rows = [("clause", "title", "holds", "explored", "result / witness")]
    for key in CLAUSES:
        if key not in report["clauses"]:
            continue
        e = report["clauses"][key]
        holds = {True: "yes", False: "NO", None: "n/a"}[e["holds"]]
        rows.append((key, e["title"], holds, str(e["explored"]), _short(key, e)))
    widths = [max(len(r[k]) for r in rows) for k in range(4)]
    for k, r in enumerate(rows):
        lines.append("  ".join(r[m].ljust(widths[m]) for m in range(4)) + "  " + r[4])
        if k == 0 or r[0] == "L7":
            lines.append("  ".join("-" * w for w in widths) + "  " + "-" * 16)
    got = report["clauses"]
    laws = [got[k]["holds"] for k in LAW_CLAUSES if k in got]
    schema = [got[k]["holds"] for k in SCHEMA_CLAUSES if k in got]
    lines += ["", f"{laws.count(True)} of {len(laws)} law clauses hold, {laws.count(False)} fail"
                  + (f", {laws.count(None)} do not apply" if None in laws else "")
                  + f"; {schema.count(True)} of {len(schema)} schema clauses hold"
                  + (f", {schema.count(False)} fail" if False in schema else "") + "."]
    if witnesses:
        for key in failing(report):
            lines += ["", format_witness(key, got[key])]
    return "\n".join(lines) + "\n"
