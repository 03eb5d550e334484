"""The law table: the paper's Table 2, computed (``python -m coalg laws``).

Every clause of Definitions 3.21 and 3.23, in the paper's order, checked on a
realisation.

Nothing is hard-coded: the verdicts come out of the search.  On the ContextFS
model L1, L3 and L4(i) hold and L2, L4(ii), L5, L6 and L7 fail (3 hold, 5 fail,
counted by clause), and S1–S4 hold on the fragment (Lemma 5.6).  On
:data:`coalg.model.repaired.REPAIRED` every clause holds.

:data:`CLAUSE_TABLE` is the one table of clauses (each a
:class:`~coalg.laws.clause.Clause` declared in its family module); the keys,
the entry points ``check_<key>`` (:data:`CHECKS`) and the Table 2 columns
(:data:`INFO`, read from :mod:`coalg.paper.items`) are derived from it.
"""

from __future__ import annotations

from typing import Any

from ..model import Realisation, call_from_json, get_realisation
from ..paper import Verdict
from .agreement import L2, check_L2
from .bitemporality import L6, check_L6
from .clause import Clause, ClauseCheck, ClauseInfo, check_many, clear_verdicts
from .display import show_call
from .exploration import clear_cache as clear_explorations
from .integrity import L7, check_L7
from .inverse_closure import L3, check_L3
from .locality import L4I, L4II, check_L4i, check_L4ii
from .monotonicity import L1, check_L1
from .resolution import L5, check_L5
from .schema import S1, S2, S3, S4, check_S1, check_S2, check_S3, check_S4

__all__ = [
    "CHECKS",
    "CLAUSES",
    "CLAUSE_TABLE",
    "INFO",
    "LAW_CLAUSES",
    "SCHEMA_CLAUSES",
    "clause_entry",
    "clear_cache",
    "format_law_table",
    "get_clause",
    "law_table",
]

CLAUSE_TABLE: tuple[Clause, ...] = (L1, L2, L3, L4I, L4II, L5, L6, L7, S1, S2, S3, S4)
"""Every clause, in the paper's order: the laws L1–L7, then the derivation schema S1–S4."""

CLAUSES = tuple(c.key for c in CLAUSE_TABLE)
LAW_CLAUSES = tuple(k for k in CLAUSES if k.startswith("L"))
SCHEMA_CLAUSES = tuple(k for k in CLAUSES if k.startswith("S"))

CHECKS: dict[str, ClauseCheck] = {
    check.__name__.removeprefix("check_"): check
    for check in (check_L1, check_L2, check_L3, check_L4i, check_L4ii, check_L5, check_L6, check_L7,
                  check_S1, check_S2, check_S3, check_S4)
}
"""Every clause's check, by key."""

INFO: dict[str, ClauseInfo] = {c.key: c.info for c in CLAUSE_TABLE}
"""What each clause says and where the paper settles it (from :mod:`coalg.paper.items`)."""


def get_clause(key: str) -> Clause:
    """The clause called ``key`` (``L1`` … ``S4``); ``KeyError`` naming the known keys otherwise."""
    for c in CLAUSE_TABLE:
        if c.key == key:
            return c
    raise KeyError(f"unknown clause {key!r}; known: {', '.join(CLAUSES)}")


def clause_entry(key: str, v: Verdict) -> dict[str, Any]:
    """One row of the law table: the verdict ``v`` of clause ``key`` with what the paper says of it."""
    info = INFO[key]
    entry: dict[str, Any] = {
        "holds": v.holds, "explored": v.explored, "kind": info.kind, "verdict": v.kind,
        "title": info.title, "result": info.result, "repair": info.repair, "summary": v.summary,
    }
    entry.update(v.details)
    if not v.holds:
        entry["witness"] = v.witness
    return entry


def _table(r: Realisation, max_len: int | None) -> dict[str, Any]:
    verdicts = check_many(CLAUSE_TABLE, r, max_len=max_len)
    return {"realisation": r.name, "clauses": {c.key: clause_entry(c.key, v) for c, v in zip(CLAUSE_TABLE, verdicts)}}


def law_table(realisation: Realisation | str, *, max_len: int | None = None) -> dict[str, Any]:
    """Every clause checked on ``realisation``, as the JSON of ``python -m coalg laws --json``.

    Parameters
    ----------
    realisation : Realisation or str
        The realisation, or its name in :data:`coalg.model.registry.REALISATIONS`.
    max_len : int or None
        The exhaustive bound of every clause; ``None`` keeps each clause's own
        (3: every word of length ≤ 3 from every seed store).  ``4`` is the
        developers' longer run (``coalg laws --length 4``).

    Returns
    -------
    dict
        Exactly ``{"realisation": name, "clauses": {...}}``, JSON-ready and a
        function of the realisation only (no timings, no hash order).

    Notes
    -----
    ``{"realisation": name, "clauses": {"L1": {"holds": …, "explored": …, …}, …}}`` with
    keys L1 L2 L3 L4i L4ii L5 L6 L7 S1 S2 S3 S4.  Each entry has ``holds``,
    ``explored`` (the cases checked), ``exhaustive_length`` (every word of at
    most this length from every seed was checked: the bound when the clause
    holds, one less than the witness's length when it fails), ``states`` (the
    distinct states, up to renaming and clock readings, whose calls the
    breadth-first search examined), ``random_walks`` (seeded walks added after
    it), ``kind`` (theorem / instantiation), ``verdict`` (property /
    counterexample), ``title``, ``result`` (where the paper settles it),
    ``repair`` (what the book's law summary says a repair needs), ``reading`` (which form was
    checked), ``summary``, and ``witness`` when it fails; L3 may carry
    ``fault_path`` and L7 ``reachable_set``, ``labels`` and ``strong_form``.
    The verdicts are remembered (:func:`~coalg.laws.clause.check_many`), so a second
    call with the same arguments only lays them out again, in a new dict.

    Examples
    --------
    >>> from coalg.model import CONTEXTFS
    >>> t = law_table(CONTEXTFS)
    >>> sorted(k for k, c in t["clauses"].items() if c["holds"])
    ['L1', 'L3', 'L4i', 'S1', 'S2', 'S3', 'S4']
    """
    r = get_realisation(realisation) if isinstance(realisation, str) else realisation
    if max_len is not None and max_len < 1:
        raise ValueError(f"the exhaustive bound must be at least 1, not {max_len}")
    return _table(r, max_len)


def clear_cache() -> None:
    """Forget every remembered verdict and exploration (for benchmarks)."""
    clear_verdicts()
    clear_explorations()


def _short(entry: dict[str, Any], realisation: str) -> str:
    if entry["holds"]:
        if realisation != "contextfs" and entry["repair"] != "—":
            return f"repaired: {entry['repair']}"
        return str(entry["result"])
    w = entry["witness"]
    calls = ", ".join(show_call(call_from_json(c)) for c in w["word"]) or "(seed store)"
    return f"{entry['result']} — seed '{w['seed']}', {calls}: {w['explanation']}"


def format_law_table(table: dict[str, Any]) -> str:
    """The human-readable table of ``python -m coalg laws``."""
    rows = [("clause", "title", "holds", "kind", "explored", "length", "states", "walks", "result / witness")]
    for key in CLAUSES:
        e = table["clauses"][key]
        rows.append((key, e["title"], "yes" if e["holds"] else "NO", e["kind"], str(e["explored"]),
                     f"≤ {e['exhaustive_length']}", str(e["states"]), str(e["random_walks"]),
                     _short(e, table["realisation"])))
    last = len(rows[0]) - 1
    widths = [max(len(r[k]) for r in rows) for k in range(last)]
    lines = [f"Laws L1–L7 and derivation schema S1–S4 on realisation '{table['realisation']}'", ""]
    if "budget" in table:  # observed on the released package (coalg.contextfs.runtime)
        seed = table.get("hashseed", "unset")
        lines.insert(1, f"observed on the released contextfs 0.2.35 (PYTHONHASHSEED={seed}); "
                        f"explored: {table['budget']}")
    for k, r in enumerate(rows):
        lines.append("  ".join(r[m].ljust(widths[m]) for m in range(last)) + "  " + r[last])
        if k == 0 or r[0] == "L7":
            lines.append("  ".join("-" * w for w in widths) + "  " + "-" * 16)
    laws = [table["clauses"][k]["holds"] for k in LAW_CLAUSES]
    schema = [table["clauses"][k]["holds"] for k in SCHEMA_CLAUSES]
    tally = (f"{sum(laws)} of {len(laws)} law clauses hold, {len(laws) - sum(laws)} fail; "
             f"{sum(schema)} of {len(schema)} schema clauses hold.")
    legend = ("length: every word up to this length from every seed store was checked (for a clause that "
              "fails, every word shorter than its witness); states: the distinct stores, up to renaming and "
              "clock readings, whose calls were all examined; walks: seeded random walks added after that.")
    lines += ["", tally, legend]
    notes = []
    fp = table["clauses"]["L3"].get("fault_path")
    if fp and not fp["holds"]:
        notes.append("L3 holds in the fault-free reading only; on the fault path " + fp["explanation"])
    sf = table["clauses"]["L7"].get("strong_form")
    if sf:
        notes.append("L7's strong form (every label, on the fragment) "
                     + ("holds too." if sf["holds"] else "fails already inside S_lin: " + sf["explanation"]))
    lines += [f"note: {n}" for n in notes]
    return "\n".join(lines) + "\n"
