"""Table 2 of the paper, observed on the released package, beside the model's.

:func:`observed_law_table` runs the law checks of :mod:`coalg.laws` (Def. 3.21's
L1–L7 and the derivation schema S1–S4) against
:data:`~coalg.contextfs.adapter.RUNTIME`, the real package, with a reduced,
stated :class:`Budget`; :func:`compare_tables` sets the observed table beside
the model's and explains each difference in words (:data:`DIFFERENCES`).  The
package settles merge-type ties by string hashing (Proposition 5.20), so
:func:`pinned_law_table` observes in a child interpreter with a fixed
``PYTHONHASHSEED``: what ``python -m coalg laws --realisation contextfs-runtime``
prints.

Every function raises :class:`~coalg.contextfs.offline.ContextFSUnavailable`
when the package is not installed.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..laws import CHECKS, CLAUSES, clause_entry, law_table, show_call
from ..model import CONTEXTFS, call_from_json
from .adapter import RUNTIME
from .offline import require, run_with_hashseed

__all__ = [
    "DIFFERENCES",
    "FULL",
    "GENERAL_DIFFERENCES",
    "REDUCED",
    "Budget",
    "compare_tables",
    "format_comparison",
    "observed_law_table",
    "pinned_law_table",
]


# =========================================================================== Table 2, observed


@dataclass(frozen=True)
class Budget:
    """How much of the model's exploration the runtime table repeats.

    The model's table explores words of length ≤ 2 from four seeds plus 40
    random walks of 8 calls per clause (:data:`FULL`: about 12,000 cases and
    17–26 s against the real package on a 2-core machine).  :data:`REDUCED`
    explores every word of length 1 from the same seeds and 10 seeded random
    walks of 8 calls per clause (about 900 cases, 4–8 s): every letter of each
    alphabet is tried on every seed, and the walks reach stores of up to 11
    records.  Both budgets give the same verdicts.
    """

    max_len: int = 1
    random_runs: int = 10
    l6_max_len: int = 2

    def describe(self) -> str:
        return (f"every word of length ≤ {self.max_len} from the four seed stores, plus {self.random_runs} seeded "
                f"random walks of 8 calls per clause (L6: recording histories of length ≤ {self.l6_max_len})")


REDUCED = Budget()
"""The budget of the book and the tests."""

FULL = Budget(max_len=2, random_runs=40, l6_max_len=3)
"""The model's own budget (about 12,000 cases; 17–26 s against the real package on a 2-core machine)."""

def observed_law_table(budget: Budget = REDUCED) -> dict[str, Any]:
    """Every law and schema clause checked on the real package, as :func:`coalg.laws.law_table` lays it out.

    Returns ``{"realisation": "contextfs-runtime", "budget": ..., "clauses": {...}}``;
    each verdict is computed once per process (the checks remember their verdicts).
    """
    require()
    clauses: dict[str, Any] = {}
    for key in CLAUSES:
        if key == "L6":
            v = CHECKS[key](RUNTIME, max_len=budget.l6_max_len, random_runs=budget.random_runs)
        else:
            v = CHECKS[key](RUNTIME, max_len=budget.max_len, random_runs=budget.random_runs)
        clauses[key] = clause_entry(key, v)
    return {"realisation": RUNTIME.name, "budget": budget.describe(), "clauses": clauses}


_PINNED_SEED = 0


def pinned_law_table(budget: Budget = REDUCED) -> dict[str, Any]:
    """:func:`observed_law_table` computed in a child interpreter with ``PYTHONHASHSEED=0``.

    The package breaks merge-type ties by this process's string hashing (R5.20),
    so the observed table depends on the hash seed of the process that observes
    it.  Observing in a child with a pinned seed makes the result the same from
    every caller, whatever its own seed: this is what ``python -m coalg laws
    --realisation contextfs-runtime`` prints.  Raises
    :class:`~coalg.contextfs.offline.ContextFSUnavailable` without the package.
    """
    require()
    code = ("import json, sys\n"
            "from coalg.contextfs import Budget, observed_law_table\n"
            "b = Budget(**json.loads(sys.argv[1]))\n"
            "json.dump(observed_law_table(b), sys.stdout)\n")
    arg = json.dumps({"max_len": budget.max_len, "random_runs": budget.random_runs,
                      "l6_max_len": budget.l6_max_len})
    out = run_with_hashseed(code, arg, hashseed=_PINNED_SEED, what="observing the package")
    table: dict[str, Any] = json.loads(out)
    table["hashseed"] = _PINNED_SEED
    return table


DIFFERENCES: dict[str, str] = {
    "L1": "Same verdict. Calls that create records never touched an existing row or edge on the package "
          "either; the new rows got uuid identifiers (str(uuid4())[:12]), renamed to ξ's by the adapter.",
    "L2": "Same verdict and the same fault-free witness: evolving a merged record copies the parent's metadata "
          "(**original.metadata), so the child's metadata names merged_from parents that no edge of the child "
          "names (Witness B of Prop. 5.14).",
    "L3": "Same verdict in the fault-free reading. On the fault path the package leaves a one-way edge too: the "
          "fault is a SQLite trigger that makes the package's own INSERT of the second edge raise.",
    "L4i": "Same verdict: a call naming one namespace's records gave the same result on that namespace alone.",
    "L4ii": "Same verdict and witness: merge files the result in the first argument's namespace "
            "(memory_lineage.py:256) with the other namespace's content in '[Source 2]: …'.",
    "L5": "Same verdict, different witness. The model's first witness is the merge-type tie, decided by θ's c. "
          "On the package that choice is made by max(set(types), key=types.count), i.e. by this process's string "
          "hashing: fixed within one process, so the in-process search cannot vary it (it varies across processes: "
          "R5.20). The row order ≺ of a prefix LIKE query is rowid order, which the adapter sets by inserting rows "
          "in θ's order, so the observed witness is prefix resolution (Prop. 6.3's mechanism).",
    "L6": "Same verdict. The package has no valid-time field or argument, so the histories' valid times cannot "
          "reach it at all; its clock readings are datetimes (datetime.now, UTC ISO strings in metadata), read "
          "back as ξ's clock.",
    "L7": "Same verdict and the same witness (W2 of Prop. 5.30): evolve by a prefix resolves the record but writes the prefix string as "
          "the edge endpoint and as evolved_from.",
    "S1": "Same verdict: derivations only insert rows and edges.",
    "S2": "Same verdict: each call behaved the same on a database holding only its named records.",
    "S3": "Same verdict: every new edge joins the new record and a named one.",
    "S4": "Same verdict: every new ancestry edge starts at the record the call created.",
}
"""Why the observed verdict or witness is what it is, clause by clause (checked by :func:`compare_tables`)."""

GENERAL_DIFFERENCES = (
    ("Identifiers: the package allocates str(uuid4())[:12] for evolve, merge and split and cannot be given "
     "one; save takes Memory(id=…). The adapter renames the uuids to ξ's identifiers in creation order."),
    ("Clock: created_at/updated_at are naive datetime.now(), lineage timestamps are UTC ISO strings; the "
     "adapter materialises clock reading τ as 2000-01-01 + τ s and reads a call's own stamps as ξ's clock."),
    ("Resolution: recall, evolve, split, merge and delete always resolve with id LIKE 'arg%' "
     "(case-insensitive, '_' and '%' are wildcards); recall walks live rows in rowid order, delete the "
     "primary key in id order."),
    "Delete of an unknown id returns True (the vector store's delete does not fail), where the model says err.",
    "Merge-type ties follow PYTHONHASHSEED, not θ (L5 is observed across processes: R5.20).",
)
"""Differences between the package and the model that no single clause's verdict shows."""


def _first_call(entry: dict[str, Any]) -> str:
    w = entry.get("witness")
    if not w or not w.get("word"):
        return ""
    return show_call(call_from_json(w["word"][-1]))


def compare_tables(model: dict[str, Any] | None = None, observed: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """Table 2 of the model beside Table 2 observed on the package, one row per clause.

    Each row: ``clause``, ``title``, ``model`` and ``observed`` (``"holds"`` / ``"fails"``),
    ``agree``, ``model_witness`` and ``observed_witness`` (the last call of each
    witness), the explored counts, and ``why`` (from :data:`DIFFERENCES`).
    """
    model = model if model is not None else law_table(CONTEXTFS)
    observed = observed if observed is not None else observed_law_table()
    rows = []
    for key in CLAUSES:
        m, o = model["clauses"][key], observed["clauses"][key]
        rows.append({
            "clause": key, "title": m["title"],
            "model": "holds" if m["holds"] else "fails", "observed": "holds" if o["holds"] else "fails",
            "agree": m["holds"] == o["holds"],
            "model_witness": _first_call(m), "observed_witness": _first_call(o),
            "model_explored": m["explored"], "observed_explored": o["explored"],
            "why": DIFFERENCES[key],
        })
    return rows


def format_comparison(rows: Sequence[dict[str, Any]]) -> str:
    """The comparison as a plain-text table (for terminals and doctests)."""
    head = ("clause", "model", "observed", "model witness", "observed witness")
    body = [(r["clause"], r["model"], r["observed"], r["model_witness"] or "—", r["observed_witness"] or "—")
            for r in rows]
    widths = [max(len(x[k]) for x in [head, *body]) for k in range(len(head))]
    out = ["  ".join(h.ljust(w) for h, w in zip(head, widths)), "  ".join("-" * w for w in widths)]
    out += ["  ".join(c.ljust(w) for c, w in zip(row, widths)) for row in body]
    return "\n".join(out) + "\n"
