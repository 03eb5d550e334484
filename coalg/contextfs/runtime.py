"""Runtime observations: the paper's claims seen on the released ``contextfs`` 0.2.35.

Everything here *runs the real package* through :mod:`coalg.contextfs.adapter`
(offline, in a private temporary folder, with a null vector backend).  Nothing
is read off the model: these are the paper's third kind of claim, *runtime
observations* (nature ``"runtime"`` in :mod:`coalg.paper.verdict`).

* :func:`observed_law_table` runs the law checks of :mod:`coalg.laws.clauses` against
  :data:`~coalg.contextfs.adapter.RUNTIME` with a reduced, stated budget, and
  :func:`compare_tables` sets the observed Table 2 beside the model's, explaining
  each difference in words.
* Runtime witnesses, registered as paper items: ``R5.20`` (merged type across
  ``PYTHONHASHSEED`` values, one subprocess each), ``R6.3`` (prefix recall across
  namespaces), ``R5.18`` (merge carries payload across namespaces), ``R5.2``
  (delete cuts a survivor's ancestry), ``R5.14`` (metadata and edges disagree,
  with an edge-write fault injected by a SQLite trigger, and without any fault),
  ``R5.30`` (dangling edges: W1 supersede of a missing id, W2 evolve by prefix),
  and ``7.3`` (Remark 7.3: ``BiTemporalMemory`` and ``RunContext`` occur nowhere in
  the installed package).
* Behaviours the notes record that the paper does not state, as functions in
  :data:`BEHAVIOURS`: prefix evolve leaves a dangling edge, metadata is inherited
  through derivations, the facade's soft delete keeps edges, ``update`` drops edges.

Every function raises :class:`~coalg.contextfs.adapter.ContextFSUnavailable`
(a :class:`~coalg.errors.CoalgError`) when the package is not installed.
Importing this module does not import ``contextfs``.

>>> from coalg.paper import get_item
>>> get_item("R5.20").nature, get_item("7.3").nature
('runtime', 'runtime')
"""

from __future__ import annotations

import contextlib
import copy
import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from ..model import ANCESTRY
from ..paper import Verdict, paper_item
from .adapter import (
    FAULT_MESSAGE,
    RUNTIME,
    LiveStore,
    facade,
    installed_files,
    modules,
    require,
)

__all__ = [
    "BEHAVIOURS",
    "DIFFERENCES",
    "REDUCED",
    "Budget",
    "behaviour_metadata_inherited",
    "behaviour_prefix_evolve_dangles",
    "behaviour_soft_delete_keeps_edges",
    "behaviour_update_drops_edges",
    "check_7_3",
    "check_R5_2",
    "check_R5_14",
    "check_R5_18",
    "check_R5_20",
    "check_R5_30",
    "check_R6_3",
    "compare_tables",
    "format_comparison",
    "merged_types_by_seed",
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

_OBSERVED: dict[Budget, dict[str, Any]] = {}


def observed_law_table(budget: Budget = REDUCED) -> dict[str, Any]:
    """Every law and schema clause checked on the real package, as :func:`coalg.laws.clauses.law_table` lays it out.

    Returns ``{"realisation": "contextfs-runtime", "budget": ..., "clauses": {...}}``;
    computed once per budget and copied.
    """
    from ..laws import CHECKS, CLAUSES, clause_entry

    require()
    if budget not in _OBSERVED:
        clauses: dict[str, Any] = {}
        for key in CLAUSES:
            if key == "L6":
                v = CHECKS[key](RUNTIME, max_len=budget.l6_max_len, random_runs=budget.random_runs)
            else:
                v = CHECKS[key](RUNTIME, max_len=budget.max_len, random_runs=budget.random_runs)
            clauses[key] = clause_entry(key, v)
        _OBSERVED[budget] = {"realisation": RUNTIME.name, "budget": budget.describe(), "clauses": clauses}
    return copy.deepcopy(_OBSERVED[budget])


_PINNED_SEED = "0"


def pinned_law_table(budget: Budget = REDUCED) -> dict[str, Any]:
    """:func:`observed_law_table` computed in a child interpreter with ``PYTHONHASHSEED=0``.

    The package breaks merge-type ties by this process's string hashing (R5.20),
    so the observed table depends on the hash seed of the process that observes
    it.  Observing in a child with a pinned seed makes the result the same from
    every caller, whatever its own seed: this is what ``python -m coalg laws
    --realisation contextfs-runtime`` prints.  Raises
    :class:`~coalg.contextfs.adapter.ContextFSUnavailable` without the package.
    """
    require()
    code = ("import json, sys\n"
            "from coalg.contextfs.runtime import Budget, observed_law_table\n"
            "b = Budget(**json.loads(sys.argv[1]))\n"
            "json.dump(observed_law_table(b), sys.stdout)\n")
    arg = json.dumps({"max_len": budget.max_len, "random_runs": budget.random_runs,
                      "l6_max_len": budget.l6_max_len})
    env = {**os.environ, "PYTHONHASHSEED": _PINNED_SEED}
    p = subprocess.run([sys.executable, "-c", code, arg], capture_output=True, text=True, env=env, check=False)
    if p.returncode != 0:
        raise RuntimeError(f"observing the package failed: {p.stderr.strip().splitlines()[-1:]}")
    table: dict[str, Any] = json.loads(p.stdout)
    table["hashseed"] = int(_PINNED_SEED)
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
    "L7": "Same verdict and witness (W2): evolve by a prefix resolves the record but writes the prefix string as "
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
    ("Summaries: the package fills in 'Merged from N memories' and 'Part k of split memory' where the model "
     "leaves the summary empty."),
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
    from ..laws import show_call
    from ..model import call_from_json

    return show_call(call_from_json(w["word"][-1]))


def compare_tables(model: dict[str, Any] | None = None, observed: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """Table 2 of the model beside Table 2 observed on the package, one row per clause.

    Each row: ``clause``, ``title``, ``model`` and ``observed`` (``"holds"`` / ``"fails"``),
    ``agree``, ``model_witness`` and ``observed_witness`` (the last call of each
    witness), the explored counts, and ``why`` (from :data:`DIFFERENCES`).
    """
    from ..laws import CLAUSES, law_table
    from ..model import CONTEXTFS

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


# =========================================================================== helpers


def _verdict(item: str, holds: bool, explored: int, witness: dict[str, Any], summary: str,
             kind: str = "counterexample") -> Verdict:
    return Verdict(item, kind, holds, explored, witness, summary)  # type: ignore[arg-type]


def _ancestry(live: LiveStore, i: str) -> list[list[str]]:
    """The ancestry edges out of ``i`` as rows of memory_edges: [relation, target], sorted."""
    labels = tuple(r.value for r in ANCESTRY)
    rows = live.sql("SELECT relation, to_id FROM memory_edges WHERE from_id = ? AND relation IN (?, ?, ?)",
                    (i, *labels))
    return sorted([r, t] for r, t in rows)


def _edges_touching(live: LiveStore, i: str) -> list[list[str]]:
    rows = live.sql("SELECT from_id, relation, to_id FROM memory_edges WHERE from_id = ? OR to_id = ?", (i, i))
    return sorted([a, r, b] for a, r, b in rows)


# =========================================================================== Prop 5.20 across processes


_SEED_SCRIPT = r"""
import json, sys
from coalg.contextfs.adapter import LiveStore, modules
live = LiveStore.open("seed.db")
live.save("the build cache is warm", type="fact", namespace="alice", id="f0000000-001")
live.save("cache the build", type="decision", namespace="alice", id="d0000000-002")
one = live.merge(["f0000000-001", "d0000000-002"])
two = live.merge(["d0000000-002", "f0000000-001"])
MT = modules().MemoryType
types = [MT.FACT, MT.DECISION]
print(json.dumps({"fact_first": one.type.value, "decision_first": two.type.value,
                  "expression": max(set(types), key=types.count).value,
                  "hashseed": sys.flags.hash_randomization}))
"""


def merged_types_by_seed(seeds: Sequence[int] = range(8), *, workers: int = 2) -> dict[int, dict[str, str]]:
    """Merge a fact and a decision (a 1:1 tie, UNION strategy, no type given) under each ``PYTHONHASHSEED``.

    Each seed runs in its own interpreter (``sys.executable``), with the real
    package in that process's own sandbox; returns, per seed, the merged type
    for both argument orders and the value of ``max(set(types), key=types.count)``
    on plain ``MemoryType`` members in the same process.
    """
    require()
    from .adapter import _template

    template = str(_template())  # the schema, made once here by the package's migrations, copied by each run

    def one(seed: int) -> tuple[int, dict[str, str]]:
        env = {**os.environ, "PYTHONHASHSEED": str(seed), "COALG_CONTEXTFS_TEMPLATE": template}
        p = subprocess.run([sys.executable, "-c", _SEED_SCRIPT], capture_output=True, text=True, env=env,
                           timeout=120, check=False)
        if p.returncode != 0:
            raise RuntimeError(f"the PYTHONHASHSEED={seed} run failed: {p.stderr.strip().splitlines()[-1:]}")
        return seed, json.loads(p.stdout.strip().splitlines()[-1])

    with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
        return dict(sorted(pool.map(one, list(seeds))))


@paper_item("R5.20", "Merged type depends on PYTHONHASHSEED (runtime, Prop. 5.20)", kind="counterexample",
            nature="runtime")
def check_R5_20(seeds: Sequence[int] = range(8)) -> Verdict:
    """Proposition 5.20 on the running package: the merged type of a tie changes with the hash seed.

    One subprocess per ``PYTHONHASHSEED`` value; ``holds`` is true when both types
    occur (the counterexample is exhibited) and the package's answer equals the
    expression ``max(set(types), key=types.count)`` in every run (the mechanism).
    """
    runs = merged_types_by_seed(seeds)
    seen = sorted({r["fact_first"] for r in runs.values()} | {r["decision_first"] for r in runs.values()})
    mechanism = all(r["fact_first"] == r["expression"] or r["decision_first"] == r["expression"]
                    for r in runs.values())
    order = sorted(s for s, r in runs.items() if r["fact_first"] != r["decision_first"])
    holds = len(seen) >= 2 and mechanism
    witness = {
        "call": "merge([fact, decision]) and merge([decision, fact]), UNION strategy, no memory_type",
        "by_seed": {str(s): {"fact_first": r["fact_first"], "decision_first": r["decision_first"]}
                    for s, r in runs.items()},
        "types_seen": seen,
        "argument_order_matters_for_seeds": order,
    }
    table = ", ".join(f"{s}:{r['fact_first']}" for s, r in runs.items())
    summary = (f"Across PYTHONHASHSEED values {list(runs)} the merge of a fact and a decision gave "
               f"{' and '.join(seen)} ({table}); each run equals max(set(types), key=types.count) in that process.")
    return _verdict("R5.20", holds, len(runs), witness, summary)


# =========================================================================== Prop 6.3: prefix recall across namespaces


@paper_item("R6.3", "Prefix recall crosses namespaces (runtime, Prop. 6.3)", kind="counterexample",
            nature="runtime")
def check_R6_3() -> Verdict:
    """Proposition 6.3 on the package: recall of a shared prefix depends on the other tenant's records.

    Tenant A's store alone answers ``recall('3f58')`` with A's record; the same call
    on the shared store, where tenant B's record was saved first, answers with B's.
    Also shown: the 8-character handle the CLI prints, and ``delete`` of the same
    prefix removing a different record than ``recall`` returns.
    """
    a_id, b_id = "3f58ead3-359", "3f587332-5e8"
    alone = LiveStore.open("r63-alone.db")
    alone.save("tenant A: deploy key rotates monthly", namespace="tenant-a", id=a_id)
    shared = LiveStore.open("r63-shared.db")
    shared.save("tenant B: customer list lives in s3://b-private", namespace="tenant-b", id=b_id)
    shared.save("tenant A: deploy key rotates monthly", namespace="tenant-a", id=a_id)
    r_alone, r_shared = alone.recall("3f58"), shared.recall("3f58")

    h_a, h_b = "8874780e-7be", "8874780e-24d"
    handle = LiveStore.open("r63-handle.db")
    handle.save("tenant B note", namespace="tenant-b", id=h_b)
    handle.save("tenant A note", namespace="tenant-a", id=h_a)
    r_handle = handle.recall("8874780e")

    order = LiveStore.open("r63-order.db")
    order.save("tenant A: deploy key rotates monthly", namespace="tenant-a", id=a_id)
    order.save("tenant B: customer list lives in s3://b-private", namespace="tenant-b", id=b_id)
    recalled = order.recall("3f58")
    order.delete("3f58")
    survivors = [i for (i,) in order.sql("SELECT id FROM memories ORDER BY id")]
    deleted = sorted({a_id, b_id} - set(survivors))

    holds = (r_alone is not None and r_shared is not None and r_alone.id == a_id and r_shared.id == b_id)
    witness = {
        "prefix": "3f58",
        "alone": {"records": [[a_id, "tenant-a"]], "recall": [r_alone.id, r_alone.namespace_id] if r_alone else None},
        "shared": {"records_in_save_order": [[b_id, "tenant-b"], [a_id, "tenant-a"]],
                   "recall": [r_shared.id, r_shared.namespace_id] if r_shared else None},
        "cli_handle": {"handle": "8874780e", "records": [h_b, h_a],
                       "recall": r_handle.id if r_handle else None},
        "recall_vs_delete": {"save_order": [a_id, b_id], "recall": recalled.id if recalled else None,
                             "deleted": deleted},
    }
    summary = (f"recall('3f58') on tenant A's store alone returns {a_id} (tenant-a); on the shared store it "
               f"returns {b_id} (tenant-b): no namespace filter, first row wins. With A saved first, recall "
               f"returns {recalled.id if recalled else None} but delete('3f58') deletes {', '.join(deleted)}.")
    return _verdict("R6.3", holds, 4, witness, summary)


# =========================================================================== Prop 5.18: payload crosses namespaces


@paper_item("R5.18", "Merge carries payload across namespaces (runtime, Prop. 5.18)", kind="counterexample",
            nature="runtime")
def check_R5_18() -> Verdict:
    """Proposition 5.18 on the package: merge files the result under its first argument's namespace,
    with the other namespace's content, tags and metadata.

    Also the L4(ii) form: two stores equal on tenant-a's fibre but different in
    tenant-b's record give different merged records in tenant-a.
    """
    made = []
    for k, secret in enumerate(("s3://b-private/customers.csv", "s3://b-private/invoices.csv")):
        live = LiveStore.open(f"r518-{k}.db")
        live.save("A: the deploy key rotates monthly", namespace="tenant-a", id="a0000000-001", tags=["a-only"],
                  metadata={"owner": "alice"})
        live.save(f"B: customer list is in {secret}", namespace="tenant-b", id="b0000000-002", tags=["b-only"],
                  metadata={"owner": "bob", "b_secret": 42})
        m = live.merge(["a0000000-001", "b0000000-002"], type="fact")
        listed = [x.id for x in live.router.list_recent(limit=10, namespace_id="tenant-a")]
        made.append((m, listed))
    m, listed = made[0]
    m2, _ = made[1]
    crossed = (m.namespace_id == "tenant-a" and "[Source 2]: B:" in m.content and "b-only" in m.tags
               and m.metadata.get("b_secret") == 42 and m.id in listed)
    differs = m.content != m2.content
    witness = {
        "merged": {"namespace": m.namespace_id, "content": m.content, "tags": sorted(m.tags),
                   "metadata": {k: v for k, v in sorted(m.metadata.items()) if not k.endswith("timestamp")}},
        "listed_under_tenant_a": m.id in listed,
        "l4ii": {"pi_tenant_a_equal": True, "tenant_b_record_differs": "content",
                 "merged_contents": [m.content, m2.content]},
    }
    summary = ("merge([a in tenant-a, b in tenant-b]) is filed in tenant-a and carries b's content "
               "('[Source 2]: B: …'), its tag b-only and its metadata b_secret=42; tenant-a's own listing shows "
               "it. Changing only tenant-b's record changes the record created in tenant-a (L4(ii)).")
    return _verdict("R5.18", crossed and differs, 2, witness, summary)


# =========================================================================== Prop 5.2: delete cuts ancestry


@paper_item("R5.2", "Delete and replacement change a survivor's ancestry (runtime, Prop. 5.2)",
            kind="counterexample", nature="runtime")
def check_R5_2() -> Verdict:
    """Proposition 5.2 on the package: ``StorageRouter.delete`` removes incident edges, so a record that
    was not deleted loses its ancestry; a save under an existing id replaces the record.
    """
    live = LiveStore.open("r52.db")
    a = live.save("the API uses JWT", namespace="ns", id="a0000000-001")
    a2 = live.evolve(a.id, "the API uses JWT with 1h expiry")
    a3 = live.evolve(a2.id, "the API uses JWT with 15 min expiry")
    before = _ancestry(live, a3.id)
    lineage_before = live.lineage_of(a3.id)["ancestors"]
    live.delete(a2.id)
    after = _ancestry(live, a3.id)
    lineage_after = live.lineage_of(a3.id)["ancestors"]
    into_a = live.sql("SELECT from_id, relation FROM memory_edges WHERE to_id = ?", (a.id,))
    # (b) save under an existing identifier
    rep = LiveStore.open("r52b.db")
    r1 = rep.save("first", namespace="ns", id="r0000000-001")
    r2 = rep.evolve(r1.id, "second")
    meta_before = dict(rep.recall(r2.id).metadata)
    rep.save("second, re-saved", namespace="ns", id=r2.id)
    meta_after = dict(rep.recall(r2.id).metadata)
    edges_after = _ancestry(rep, r2.id)
    holds = bool(before) and not after and "evolved_from" in meta_before and "evolved_from" not in meta_after
    witness = {
        "chain": [a.id, a2.id, a3.id],
        "deleted": a2.id,
        "ancestry_edges_of_survivor_before": before,
        "ancestry_edges_of_survivor_after": after,
        "edges_into_root_after": [list(x) for x in into_a],
        "get_lineage_before": [[x["id"], x["depth"]] for x in lineage_before],
        "get_lineage_after": [[x["id"], x["depth"]] for x in lineage_after],
        "recall_deleted": live.recall(a2.id) is not None,
        "save_at": {"metadata_before": sorted(k for k in meta_before if k.endswith("_from")),
                    "metadata_after": sorted(k for k in meta_after if k.endswith("_from")),
                    "ancestry_edges_after": edges_after},
    }
    summary = (f"After router.delete({a2.id}) the survivor {a3.id} has no ancestry edge left (before: {before}); "
               f"get_lineage({a3.id}) now reports only the deleted {a2.id}, from its metadata fallback. Re-saving "
               "a record under its id drops its metadata ancestry while its edges stay.")
    return _verdict("R5.2", holds, 2, witness, summary)


# =========================================================================== Prop 5.14: two representations


@paper_item("R5.14", "Metadata ancestry and edges disagree (runtime, Prop. 5.14)", kind="counterexample",
            nature="runtime")
def check_R5_14() -> Verdict:
    """Proposition 5.14 on the package, with an edge-write fault injected by a SQLite trigger
    (``BEFORE INSERT ON memory_edges … RAISE``) that refuses every edge insert once one edge exists —
    so the second edge write of a call fails.  No ContextFS code is modified.

    * evolve: the first edge (new → original, EVOLVED_FROM) is written, the second refused —
      a one-way edge, and the package logs a warning and returns normally;
    * merge(x, y): metadata ``merged_from = [x, y]``, edges name x only;
    * every edge refused: metadata ``evolved_from`` with no edge at all;
    * without any fault: evolving a merged record inherits ``merged_from`` (Witness B).
    """
    second = LiveStore.open("r514-second.db")
    o = second.save("original", namespace="ns", id="o0000000-001")
    second.inject_edge_fault("(SELECT COUNT(*) FROM memory_edges) >= 1")
    e = second.evolve(o.id, "evolved")
    evolve_edges = second.edges()
    evolve_log = list(second.log)

    merge = LiveStore.open("r514-merge.db")
    x = merge.save("x", namespace="ns", id="x0000000-001")
    y = merge.save("y", namespace="ns", id="y0000000-002")
    merge.inject_edge_fault("(SELECT COUNT(*) FROM memory_edges) >= 1")
    mm = merge.merge([x.id, y.id], type="fact")
    merge_meta = list(mm.metadata["merged_from"])
    merge_edges = _ancestry(merge, mm.id)

    allfail = LiveStore.open("r514-all.db")
    p = allfail.save("parent", namespace="ns", id="p0000000-001")
    allfail.inject_edge_fault("1")
    c = allfail.evolve(p.id, "child")
    all_meta = allfail.recall(c.id).metadata.get("evolved_from")
    all_edges = allfail.edges()
    history = allfail.history_of(c.id)

    clean = LiveStore.open("r514-clean.db")
    a = clean.save("a", namespace="ns", id="a0000000-001")
    b = clean.save("b", namespace="ns", id="b0000000-002")
    ab = clean.merge([a.id, b.id], type="fact")
    j = clean.evolve(ab.id, "merged, revised")
    inherited = list(clean.recall(j.id).metadata.get("merged_from", []))
    j_edges = _ancestry(clean, j.id)

    holds = (sorted(merge_meta) != sorted(t for _, t in merge_edges)
             and all_meta == p.id and not all_edges and bool(inherited) and not any(
                 r == "merged_from" for r, _ in j_edges))
    witness = {
        "trigger": "CREATE TRIGGER … BEFORE INSERT ON memory_edges WHEN (SELECT COUNT(*) FROM memory_edges) >= 1 "
                   f"BEGIN SELECT RAISE(ABORT, '{FAULT_MESSAGE}'); END",
        "evolve_second_edge_refused": {"original": o.id, "evolved": e.id, "edges": [list(t) for t in evolve_edges],
                                       "logged": evolve_log},
        "merge_second_edge_refused": {"merged": mm.id, "metadata_merged_from": merge_meta,
                                      "ancestry_edges": merge_edges},
        "every_edge_refused": {"child": c.id, "metadata_evolved_from": all_meta, "edges": [list(t) for t in all_edges],
                               "get_history_ancestors": history.get("ancestors", [])},
        "fault_free_inheritance": {"evolved_from_merged": j.id, "metadata_merged_from": inherited,
                                   "ancestry_edges": j_edges},
    }
    summary = (f"With the second edge insert refused, evolve still returns {e.id} with only the edge "
               f"({e.id}, evolved_from, {o.id}) and a logged warning; merge({x.id}, {y.id}) records merged_from "
               f"{merge_meta} but edges to {[t for _, t in merge_edges]}. Without any fault, evolving a merged "
               f"record inherits merged_from {inherited} that no edge of {j.id} states.")
    return _verdict("R5.14", holds, 4, witness, summary)


# =========================================================================== Prop 5.30: dangling edges


@paper_item("R5.30", "Reachable stores with dangling edges (runtime, Prop. 5.30)", kind="counterexample",
            nature="runtime")
def check_R5_30() -> Verdict:
    """Proposition 5.30 on the package: W1 ``supersede`` of a missing id writes both edges;
    W2 ``evolve`` by an 8-character prefix writes an ancestry edge to the prefix string.
    """
    live = LiveStore.open("r530.db")
    n = live.save("the current policy", namespace="ns", id="4222cb04-233")
    live.supersede("no-such-id", n.id)
    w1 = [list(t) for t in live.edges() if "no-such-id" in t]
    child = live.evolve("4222cb04", "the current policy, revised")
    w2_meta = live.recall(child.id).metadata.get("evolved_from")
    w2 = [list(t) for t in live.edges() if child.id in (t[0], t[2])]
    ids = {i for (i,) in live.sql("SELECT id FROM memories")}
    dangling = sorted({x for a, _, b in live.edges() for x in (a, b)} - ids)
    into_full = live.sql("SELECT from_id FROM memory_edges WHERE to_id = ? AND relation = 'evolved_into'", (n.id,))
    holds = "no-such-id" in dangling and "4222cb04" in dangling and w2_meta == "4222cb04"
    witness = {
        "W1": {"call": f"supersede('no-such-id', {n.id})", "edges": w1,
               "recall_missing": live.recall("no-such-id") is not None},
        "W2": {"call": "evolve('4222cb04', …)", "resolved_to": n.id, "metadata_evolved_from": w2_meta, "edges": w2,
               "descendants_of_full_id": [r[0] for r in into_full]},
        "dangling_endpoints": dangling,
    }
    summary = (f"supersede('no-such-id', {n.id}) stored both edges to an id that holds no record (W1); "
               f"evolve('4222cb04', …) resolved {n.id} but wrote evolved_from = '4222cb04' and edges to that "
               f"prefix, so {n.id} has no descendant edge and the child's ancestry dangles (W2).")
    return _verdict("R5.30", holds, 2, witness, summary)


# =========================================================================== Remark 7.3


@paper_item("7.3", "Missing run-scoped state", kind="property", nature="runtime")
def check_7_3(names: Sequence[str] = ("BiTemporalMemory", "RunContext")) -> Verdict:
    """Remark 7.3: ``BiTemporalMemory`` and ``RunContext`` occur nowhere in the installed package.

    Every file of the installed ``contextfs`` (sources, templates, data; not
    byte-compiled caches) is searched for each name.  ``holds`` when none occurs.
    Also reported: the session notion the package does have (``Memory.session_id``).
    """
    files = installed_files()
    hits: dict[str, list[str]] = {n: [] for n in names}
    for f in files:
        try:
            data = f.read_bytes()
        except OSError:
            continue
        for n in names:
            if n.encode() in data:
                hits[n].append(str(f))
    has_session = "session_id" in modules().Memory.model_fields
    holds = not any(hits.values())
    witness = {"names": list(names), "files_searched": len(files), "occurrences": hits,
               "memory_has_session_id": has_session}
    summary = (f"Searched {len(files)} files of the installed contextfs {modules().package.__version__}: "
               + ("neither " + " nor ".join(names) + " occurs." if holds else f"found {hits}.")
               + " The package has sessions (Memory.session_id) but no run-scoped context object.")
    return _verdict("7.3", holds, len(files), witness, summary, kind="property")


# =========================================================================== behaviours the paper does not state


def behaviour_prefix_evolve_dangles() -> Verdict:
    """Evolve by a prefix stores the prefix, not the resolved id: the original never sees its descendant."""
    live = LiveStore.open("b-prefix.db")
    o = live.save("the meeting is at 10", namespace="ns", id="7d52ac39-b54")
    child = live.evolve("7d52ac39", "the meeting is at 11")
    desc = live.lineage_of(o.id)["descendants"]
    edges = [list(t) for t in live.edges()]
    holds = not desc and ["7d52ac39", "evolved_into", child.id] in edges
    return _verdict("prefix-evolve", holds, 1,
                    {"original": o.id, "child": child.id, "edges": edges, "descendants_of_original": desc},
                    f"evolve('7d52ac39', …) resolved {o.id} but both edges name '7d52ac39'; "
                    f"get_lineage({o.id}) lists no descendant.")


def behaviour_metadata_inherited() -> Verdict:
    """Derived records copy their parents' metadata: a split part of an evolved record claims both parents."""
    live = LiveStore.open("b-inherit.db")
    r1 = live.save("JWT tokens; 1h expiry", namespace="ns", id="r1000000-001")
    r2 = live.evolve(r1.id, "JWT tokens; 15 min expiry; refresh tokens")
    parts = live.split(r2.id, ["JWT tokens", "refresh tokens"])
    meta = {k: v for k, v in sorted(live.recall(parts[0].id).metadata.items()) if k.endswith("_from")}
    edges = _ancestry(live, parts[0].id)
    holds = meta.get("evolved_from") == r1.id and meta.get("split_from") == r2.id and \
        edges == [["split_from", r2.id]]
    return _verdict("metadata-inherited", holds, 1, {"part": parts[0].id, "metadata": meta, "ancestry_edges": edges},
                    f"split part {parts[0].id} has metadata {meta} but its only ancestry edge is {edges}.")


def behaviour_soft_delete_keeps_edges() -> Verdict:
    """The facade's default delete is soft: the record disappears from recall, its edges stay and are still read."""
    ctx = facade("ns", "soft-delete")
    with _env_ctx():
        f1 = ctx.save("v1", type="fact", namespace_id="ns")
        f2 = ctx._lineage.evolve(f1.id, "v2")
        f3 = ctx._lineage.evolve(f2.id, "v3")
        ctx.delete(f2.id)
        recalled = ctx.recall(f2.id)
        edges = ctx._storage.get_edges(f2.id)
        lineage = ctx._storage.get_lineage(f3.id)["ancestors"]
    holds = recalled is None and len(edges) == 4 and [x["id"] for x in lineage] == [f2.id, f1.id]
    return _verdict("soft-delete", holds, 1,
                    {"deleted": f2.id, "recall": None if recalled is None else recalled.id,
                     "edges_still_returned": len(edges), "lineage_of_child": [[x["id"], x["depth"]] for x in lineage]},
                    f"ContextFS.delete({f2.id}) (soft, the default) hides it from recall, but get_edges still returns "
                    f"its {len(edges)} edges and get_lineage({f3.id}) still walks through it.")


def behaviour_update_drops_edges() -> Verdict:
    """``StorageRouter.update`` is delete + save: updating a record silently erases its lineage edges."""
    live = LiveStore.open("b-update.db")
    a = live.save("first", namespace="ns", id="u0000000-001")
    b = live.evolve(a.id, "second")
    before = _edges_touching(live, b.id)
    live.update(b.id, "second, corrected")
    after = _edges_touching(live, b.id)
    meta = live.recall(b.id).metadata.get("evolved_from")
    holds = bool(before) and not after and meta == a.id
    return _verdict("update-drops-edges", holds, 1, {"record": b.id, "edges_before": before, "edges_after": after,
                                                     "metadata_evolved_from": meta},
                    f"router.update({b.id}, …) deleted and re-saved it: its {len(before)} lineage edges are gone, "
                    "its metadata still says evolved_from.")


@contextlib.contextmanager
def _env_ctx() -> Iterator[None]:
    """Enter the sandbox environment and capture contextfs log lines (for facade calls)."""
    from .adapter import _quiet_logs, sandbox

    with sandbox().env(), _quiet_logs():
        yield


BEHAVIOURS: dict[str, Callable[[], Verdict]] = {
    "prefix-evolve": behaviour_prefix_evolve_dangles,
    "metadata-inherited": behaviour_metadata_inherited,
    "soft-delete": behaviour_soft_delete_keeps_edges,
    "update-drops-edges": behaviour_update_drops_edges,
}
"""Observed behaviours of the package that the paper does not state (the notes' §4.5–4.6)."""

__all__ += ["FULL", "GENERAL_DIFFERENCES"]
