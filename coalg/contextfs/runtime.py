"""Runtime observations: the paper's numbered results seen on the released ``contextfs`` 0.2.35.

Everything here *runs the real package* (offline, in a private temporary
folder, with a null vector backend: :mod:`coalg.contextfs.offline`), on
databases of its own schema held by :class:`~coalg.contextfs.live.LiveStore`.
Nothing is read off the model: these are the book's third kind of claim,
*runtime observations* (the paper reports none, §1.4; nature ``"runtime"`` in :mod:`coalg.paper`), registered
as paper items so that ``python -m coalg witness R5.20`` runs one:

* ``R5.20`` (Prop. 5.20) merged type across ``PYTHONHASHSEED`` values, one subprocess each;
* ``R6.3`` (Prop. 6.3) prefix recall across namespaces;
* ``R5.18`` (Prop. 5.18) merge carries payload across namespaces;
* ``R5.2`` (Prop. 5.2) delete cuts a survivor's ancestry;
* ``R5.14`` (Prop. 5.14) metadata and edges disagree, with an edge-write fault
  injected by a SQLite trigger, and without any fault;
* ``R5.30`` (Prop. 5.30) dangling edges: supersede of a missing id (W1), evolve by prefix (W2);
* ``7.3`` (Remark 7.3) ``BiTemporalMemory`` and ``RunContext`` occur nowhere in
  the installed package.

Table 2 observed is :mod:`coalg.contextfs.observed`; behaviours the paper does
not state are :mod:`coalg.contextfs.behaviours`.  Every function raises
:class:`~coalg.contextfs.offline.ContextFSUnavailable` (a
:class:`~coalg.errors.CoalgError`) when the package is not installed.
Importing this module does not import ``contextfs``.

>>> from coalg.paper import get_item
>>> get_item("R5.20").nature, get_item("7.3").nature
('runtime', 'runtime')
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from ..paper import Verdict, paper_item
from .live import Allocated, LiveStore
from .materialise import FAULT_MESSAGE, schema_template
from .offline import installed_files, modules, require, run_with_hashseed

__all__ = [
    "check_7_3",
    "check_R5_2",
    "check_R5_14",
    "check_R5_18",
    "check_R5_20",
    "check_R5_30",
    "check_R6_3",
    "merged_types_by_seed",
]


# =========================================================================== package identifiers, renamed


def _renamed(new: Allocated, item: str, holds: bool, explored: int, witness: dict[str, Any],
             summary: str) -> Verdict:
    """The counterexample verdict with the package's identifiers renamed (the same on every run)."""
    note = "identifiers the package allocated are renamed id0001, id0002, ... in creation order"
    return Verdict(item, "counterexample", holds, explored, {**new.json(witness), "renamed": note},
                   new.text(summary))


# =========================================================================== Prop 5.20 across processes


_SEED_SCRIPT = r"""
import json, sys
from coalg.contextfs import LiveStore, modules
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
    template = str(schema_template())  # the schema, made once here by the package's migrations, copied by each run

    def one(seed: int) -> tuple[int, dict[str, str]]:
        out = run_with_hashseed(_SEED_SCRIPT, hashseed=seed, what=f"the PYTHONHASHSEED={seed} run",
                                env={"COALG_CONTEXTFS_TEMPLATE": template}, timeout=120)
        return seed, json.loads(out.strip().splitlines()[-1])

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
    return Verdict("R5.20", "counterexample", holds, len(runs), witness, summary)


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
    return Verdict("R6.3", "counterexample", holds, 4, witness, summary)


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
    return Verdict("R5.18", "counterexample", crossed and differs, 2, witness, summary)


# =========================================================================== Prop 5.2: delete cuts ancestry


@paper_item("R5.2", "Delete and replacement change a survivor's ancestry (runtime, Prop. 5.2)",
            kind="counterexample", nature="runtime")
def check_R5_2() -> Verdict:
    """Proposition 5.2 on the package: ``StorageRouter.delete`` removes incident edges, so a record that
    was not deleted loses its ancestry; a save under an existing id replaces the record.
    """
    new = Allocated()
    live = LiveStore.open("r52.db")
    a = live.save("the API uses JWT", namespace="ns", id="a0000000-001")
    a2 = new(live.evolve(a.id, "the API uses JWT with 1h expiry"))
    a3 = new(live.evolve(a2.id, "the API uses JWT with 15 min expiry"))
    before = live.ancestry(a3.id)
    lineage_before = live.lineage_of(a3.id)["ancestors"]
    live.delete(a2.id)
    after = live.ancestry(a3.id)
    lineage_after = live.lineage_of(a3.id)["ancestors"]
    into_a = live.sql("SELECT from_id, relation FROM memory_edges WHERE to_id = ?", (a.id,))
    # (b) save under an existing identifier
    rep = LiveStore.open("r52b.db")
    r1 = rep.save("first", namespace="ns", id="r0000000-001")
    r2 = new(rep.evolve(r1.id, "second"))
    meta_before = dict(rep.recall(r2.id).metadata)
    rep.save("second, re-saved", namespace="ns", id=r2.id)
    meta_after = dict(rep.recall(r2.id).metadata)
    edges_after = rep.ancestry(r2.id)
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
    return _renamed(new, "R5.2", holds, 2, witness, summary)


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
    new = Allocated()
    second = LiveStore.open("r514-second.db")
    o = second.save("original", namespace="ns", id="o0000000-001")
    second.inject_edge_fault("(SELECT COUNT(*) FROM memory_edges) >= 1")
    e = new(second.evolve(o.id, "evolved"))
    evolve_edges = second.edges()
    evolve_log = list(second.log)

    merge = LiveStore.open("r514-merge.db")
    x = merge.save("x", namespace="ns", id="x0000000-001")
    y = merge.save("y", namespace="ns", id="y0000000-002")
    merge.inject_edge_fault("(SELECT COUNT(*) FROM memory_edges) >= 1")
    mm = new(merge.merge([x.id, y.id], type="fact"))
    merge_meta = list(mm.metadata["merged_from"])
    merge_edges = merge.ancestry(mm.id)

    allfail = LiveStore.open("r514-all.db")
    p = allfail.save("parent", namespace="ns", id="p0000000-001")
    allfail.inject_edge_fault("1")
    c = new(allfail.evolve(p.id, "child"))
    all_meta = allfail.recall(c.id).metadata.get("evolved_from")
    all_edges = allfail.edges()
    history = allfail.history_of(c.id)

    clean = LiveStore.open("r514-clean.db")
    a = clean.save("a", namespace="ns", id="a0000000-001")
    b = clean.save("b", namespace="ns", id="b0000000-002")
    ab = new(clean.merge([a.id, b.id], type="fact"))
    j = new(clean.evolve(ab.id, "merged, revised"))
    inherited = list(clean.recall(j.id).metadata.get("merged_from", []))
    j_edges = clean.ancestry(j.id)

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
    return _renamed(new, "R5.14", holds, 4, witness, summary)


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
    new = Allocated()
    child = new(live.evolve("4222cb04", "the current policy, revised"))
    w2_meta = live.recall(child.id).metadata.get("evolved_from")
    # sorted as the reader sees them, after renaming (the package's uuids sort at random)
    w2 = sorted((list(t) for t in live.edges() if child.id in (t[0], t[2])),
                key=lambda e: [new.text(x) for x in e])
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
    return _renamed(new, "R5.30", holds, 2, witness, summary)


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
    return Verdict("7.3", "property", holds, len(files), witness, summary)
