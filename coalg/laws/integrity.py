"""Lineage referential integrity: law L7 (Def. 3.21) and Proposition 5.30.

Proposition 5.30: reachable stores have dangling edges, so L7 fails.

L7 is checked in its lineage form (labels R⁻ ∪ R⁺) over the *full* reachable
set: every letter the model accepts, prefix naming included (the evolve-by-prefix
witness W2 of Proposition 5.30).  The strong form (all labels, on the fragment) is
reported alongside (:func:`l7_strong_form`; witness W1, supersede of a missing id).  The predicate,
:func:`dangling`, also serves the per-step check (:mod:`coalg.laws.stepcheck`).

>>> from coalg.model import CONTEXTFS
>>> v = l7_strong_form(CONTEXTFS)
>>> v.holds, v.witness["offending"]["missing_endpoints"]       # W1: supersede of a missing id
(False, ['missing'])
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..model import (
    ANCESTRY,
    CONTEXTFS,
    EMPTY,
    LINEAGE,
    REPAIRED,
    Realisation,
    Relation,
    Store,
    edge_to_json,
    store_from_json,
)
from ..paper import Verdict, paper_item
from .clause import Clause, check, checker
from .exploration import Transition
from .search import Violation
from .seeds import Start

__all__ = ["L7", "L7_STRONG", "check_5_30", "check_L7", "dangling", "l7_strong_form"]


def dangling(before: Store, after: Store, labels: frozenset[Relation] | None) -> Violation | None:
    """The edges labelled in ``labels`` (``None``: every label) that dangle in ``after`` but not in ``before``.

    Ancestry edges first (the explanation names the first).  The explanation ends
    without a full stop, so a caller may add what else it knows.
    """
    bad = sorted(after.dangling_edges(labels) - before.dangling_edges(labels),
                 key=lambda e: (e.relation not in ANCESTRY, e))
    if not bad:
        return None
    e = bad[0]
    missing = sorted({x for x in (e.source, e.target) if x not in after.records})
    return Violation({"dangling_edges": [edge_to_json(e) for e in bad], "missing_endpoints": missing},
                     f"left the edge {e} whose endpoint{'s' if len(missing) > 1 else ''} {' and '.join(missing)} "
                     f"hold{'' if len(missing) > 1 else 's'} no record")


def _kept(labels: frozenset[Relation] | None, realisation: Realisation, t: Transition) -> tuple[int, Violation | None]:
    if not t.ok or t.after == t.before:
        return 0, None
    v = dangling(t.before, t.after, labels)
    return 1, None if v is None else v.of_call(t.call, ".")


def _at_seed(labels: frozenset[Relation] | None, realisation: Realisation, st: Start) -> Violation | None:
    v = dangling(EMPTY, st.store, labels)
    return None if v is None else replace(v, explanation=v.explanation + ".")


L7_STRONG = Clause(
    "L7",
    statement="L7's strong form: no dangling edge of any label.",
    explored="(store, word) pairs — each seed, and the store after each successful call",
    reading="strong form (every label), stores reached by {alphabet} words",
    holds="no reached store has a dangling edge ({n} stores)",
    step=lambda realisation, t: _kept(None, realisation, t),
    at_start=lambda realisation, st: _at_seed(None, realisation, st),
    details=lambda realisation, faults: {"labels": "all 22 labels (strong form)"},
)
"""L7's strong form, by default on the fragment (S_lin)."""


def l7_strong_form(realisation: Realisation, *, alphabet: str = "fragment", max_len: int = 2,
                   random_runs: int = 0) -> Verdict:
    """L7's strong form (no dangling edge of any label), by default on the fragment (S_lin)."""
    return check(replace(L7_STRONG, alphabet=alphabet), realisation, max_len=max_len, random_runs=random_runs)


def _strong_form_details(realisation: Realisation, faults: bool) -> dict[str, Any]:
    strong = l7_strong_form(realisation)
    return {
        "reachable_set": "every store reachable from ∅ by any call the model accepts (fragment letters, prefix "
                         "naming, recall by prefix, delete, save_at, link), searched from the seeds",
        "labels": "R⁻ ∪ R⁺ (evolved/merged/split from/into): the lineage form",
        "strong_form": {"holds": strong.holds, "summary": strong.summary,
                        "explanation": None if strong.witness is None else strong.witness["explanation"]},
    }


L7 = Clause(
    "L7",
    statement="L7 lineage referential integrity over the full reachable set (lineage form).\n\n"
              "Every store reached from the seeds (themselves reachable from ∅) by every call\n"
              "the model accepts — the fragment, prefix naming, deletion, replacement and\n"
              "links — must have no dangling edge labelled in R⁻ ∪ R⁺.  The strong form (all\n"
              "labels, on the fragment) is reported in ``details[\"strong_form\"]``.",
    explored="(store, word) pairs — each seed, and the store after each successful call",
    reading="lineage form (labels R⁻ ∪ R⁺) over the full reachable set: every letter the model accepts, prefix "
            "naming included",
    holds="no reached store has a dangling lineage edge ({n} stores)",
    step=lambda realisation, t: _kept(LINEAGE, realisation, t),
    at_start=lambda realisation, st: _at_seed(LINEAGE, realisation, st),
    details=_strong_form_details, random_seed=8, alphabet="full",
)
"""L7 as the search checks it, with the strong form in its details."""

check_L7 = checker(L7, __name__)


@paper_item("5.30")
def check_5_30() -> Verdict:
    """Proposition 5.30: W1 (supersede of a missing id; inside S_lin, strong form) and W2 (evolve by prefix).

    W1 refutes only the strong form of L7 and leaves the store ancestry-closed; W2
    needs prefix naming and yields a dangling *ancestry* edge, a store that is not
    ancestry-closed.  Both are minimal words found by breadth-first search.
    """
    w2 = check(L7, CONTEXTFS)
    w1 = l7_strong_form(CONTEXTFS)
    a1 = store_from_json(w1.witness["after"]) if w1.witness else EMPTY
    a2 = store_from_json(w2.witness["after"]) if w2.witness else EMPTY
    witness = {"W1": w1.witness, "W1_ancestry_closed": a1.is_ancestry_closed(),
               "W2": w2.witness, "W2_ancestry_closed": a2.is_ancestry_closed(),
               "repaired": {"lineage_form": check(L7, REPAIRED).holds, "strong_form": l7_strong_form(REPAIRED).holds}}
    holds = not w1.holds and not w2.holds and a1.is_ancestry_closed() and not a2.is_ancestry_closed()
    return Verdict("5.30", "counterexample", holds, w1.explored + w2.explored, witness,
                   "Proposition 5.30: no existence check on edge writes. W1: " + (w1.witness or {}).get("explanation", "")
                   + " W2: " + (w2.witness or {}).get("explanation", ""))
