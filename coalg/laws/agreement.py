"""Edge–record agreement: law L2 (Def. 3.21), Proposition 5.14 and Remark 5.15.

Proposition 5.14: ancestry is stored twice, as edges and as metadata, and the
two need not agree.  Remark 5.15: the two metadata fallbacks of ContextFS
disagree with each other.

L2 is checked on S_lin, restricted to records created by derivations, reading
the ancestry metadata through the realisation's declared reader
(:func:`record_view`: the stored record, or REPAIRED's edge-derived view); a
stored ancestry key that disagrees with the edges is also a violation.  Fresh
saves with caller-supplied ancestry keys are out of scope (a trivial
refutation that says nothing about the code).  The fault path (Witness A of
Proposition 5.14) is ``check_L2(r, faults=True)``.

Examples
--------
>>> from coalg.model import CONTEXTFS
>>> v = check_L2(CONTEXTFS)
>>> v.holds, v.kind, v.witness["length"]
(False, 'counterexample', 1)
>>> v.witness["explanation"]          # doctest: +ELLIPSIS
"evolve(id0003, 'v2') created id0004 whose metadata says merged_from = [id0001, id0002] ..."
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..model import (
    ANCESTRY,
    CONTEXTFS,
    DESCENDANT,
    META_KEYS,
    REPAIRED,
    Call,
    Evolve,
    Id,
    Realisation,
    Record,
    Relation,
    Save,
    Store,
    meta_ancestry,
    record_to_json,
    store_to_json,
)
from ..paper import Verdict, paper_item
from .clause import Clause, check, checker
from .common import word_json
from .display import show_call
from .exploration import Transition, explore
from .search import Violation, ids_text
from .seeds import SEEDS, Seed, Start

__all__ = [
    "L2",
    "check_5_14",
    "check_5_15",
    "check_L2",
    "disagreement",
    "history_lineage",
    "l2_disagreement",
    "record_view",
    "router_lineage",
]


def record_view(realisation: Realisation, s: Store, i: Id) -> Record | None:
    """The record a reader sees at ``i``: the realisation's declared view, or the stored record.

    ContextFS's metadata ancestry reader reads the stored record; REPAIRED's reads
    ancestry from the edges (:func:`coalg.model.repair_rules.derived_record`).
    """
    view = getattr(realisation, "record_view", None)
    return view(s, i) if view is not None else s.records.get(i)


def l2_disagreement(realisation: Realisation, s: Store, i: Id) -> dict[str, Any] | None:
    """Where record ``i``'s ancestry metadata and its ancestry edges disagree (L2), or ``None``.

    The metadata is read through the realisation's record view (the repaired realisation
    derives it from edges); a stored ancestry key that differs from the edges counts too.
    Returns the first disagreeing label (in label order) as JSON-ready data, with a
    sentence ``"text"`` saying what differs.
    """
    seen = record_view(realisation, s, i)
    stored = s.records[i]
    for r in sorted(ANCESTRY, key=lambda x: x.value):
        edges = frozenset(e.target for e in s.edges if e.source == i and e.relation is r)
        key = META_KEYS[r]
        read = meta_ancestry(seen, r) if seen is not None else frozenset()
        stray = key in stored.metadata and meta_ancestry(stored, r) != edges
        if read == edges and not stray:
            continue
        shown = read if read != edges else meta_ancestry(stored, r)
        edge_text = f"its {key} edges go to {ids_text(edges)}" if edges else f"it has no {key} edge"
        return {"record": i, "relation": r.value, "edge_targets": sorted(edges), "metadata": sorted(shown),
                "metadata_key": key, "record_after": record_to_json(stored),
                "text": f"created {i} whose metadata says {key} = {ids_text(shown)} but {edge_text}."}
    return None


def disagreement(realisation: Realisation, s: Store, ids: Iterable[Id]) -> Violation | None:
    """L2 at store ``s`` for the records ``ids`` (those present): the first that disagrees, or ``None``."""
    for i in sorted(frozenset(ids) & s.dom()):
        found = l2_disagreement(realisation, s, i)
        if found is not None:
            text = found.pop("text")
            return Violation(found, text)
    return None


def _step(realisation: Realisation, t: Transition) -> tuple[int, Violation | None]:
    if not t.ok or t.after == t.before:
        return 0, None
    v = disagreement(realisation, t.after, t.derived)
    return 1, None if v is None else v.of_call(t.call)


L2 = Clause(
    "L2",
    statement="L2 edge–record agreement on S_lin, for records created by derivations.\n\n"
              "For every such record ``i`` and r ∈ R⁻: ``{j : (i, r, j) ∈ E} = meta_r(view(i))``,\n"
              "where ``view`` is the realisation's metadata reader (:func:`record_view`); a\n"
              "stored ancestry key that disagrees with the edges also counts.  ``faults=True``\n"
              "checks the fault path instead (Witness A of Proposition 5.14).",
    explored="(store, word) pairs — each seed, and the store after each successful call",
    reading="stores of S_lin reached by fragment words (identifiers by equality); records created by derivations; "
            "ancestry metadata read through the realisation's declared reader; {faults}",
    holds="every derived record's metadata ancestry equals its edges ({n} stores)",
    step=_step, random_seed=2, faults=False, fault_choice=True,
    at_start=lambda realisation, st: disagreement(realisation, st.store, st.derived),
)
"""L2 as the search checks it."""

check_L2 = checker(L2, __name__)


@paper_item("5.14")
def check_5_14() -> Verdict:
    """Proposition 5.14: L2 fails on the ContextFS model, on the fault path (A) and without faults (B).

    Witness A: an edge write fails inside the log-and-continue handler, the metadata
    still names the parent.  Witness B: metadata is inherited — evolving a merged
    record gives a record whose ``merged_from`` metadata has no edge.  REPAIRED
    satisfies L2 under both readings.
    """
    b = check(L2, CONTEXTFS)
    a = check(L2, CONTEXTFS, faults=True)
    rep = [check(L2, REPAIRED), check(L2, REPAIRED, faults=True)]
    witness = {"A_fault_path": a.witness, "B_inheritance": b.witness,
               "repaired": {"fault_free": rep[0].holds, "with_faults": rep[1].holds}}
    holds = not a.holds and not b.holds and all(v.holds for v in rep)
    return Verdict("5.14", "counterexample", holds, a.explored + b.explored, witness,
                   "Proposition 5.14: ancestry is stored twice. A: " + (a.witness or {}).get("explanation", "—")
                   + " B (fault-free): " + (b.witness or {}).get("explanation", "—"))


# --------------------------------------------------------------------------- Remark 5.15: the two fallbacks


_FALLBACK_KEYS = ("evolved_from", "merged_from", "split_from")


def _walk(s: Store, i: Id, labels: frozenset[Relation], max_depth: int) -> list[dict[str, Any]]:
    """The recursive edge query: entries ``{"id", "relation", "depth"}``, breadth first, depth-capped."""
    out, seen, frontier = [], {i}, [i]
    for depth in range(1, max_depth + 1):
        nxt = []
        for x in frontier:
            for e in s.out_edges(x, labels):
                if e.target not in seen:
                    seen.add(e.target)
                    nxt.append(e.target)
                    out.append({"id": e.target, "relation": e.relation.value, "depth": depth})
        frontier = nxt
    return out


def _meta_ids(r: Record, key: str) -> list[Id]:
    v = r.metadata.get(key)
    if v is None:
        return []
    return [str(x) for x in v] if isinstance(v, tuple) else [str(v)]


def router_lineage(s: Store, i: Id, *, max_depth: int = 10) -> dict[str, list[dict[str, Any]]]:
    """Fallback (1): ``StorageRouter.get_lineage`` (``storage_router.py:1683–1744``).

    The edge query gives ancestors (R⁻) and descendants (R⁺), depth-capped at 10.
    Only when it returns *neither* does it read the metadata, and then all three
    keys.  Entries have the shape ``{"id", "relation", "depth"}``.  (Our choice: the
    recursion is modelled as a breadth-first walk.)
    """
    anc = _walk(s, i, ANCESTRY, max_depth)
    desc = _walk(s, i, DESCENDANT, max_depth)
    if not anc and not desc and i in s.records:
        anc = [{"id": j, "relation": key, "depth": 1} for key in _FALLBACK_KEYS for j in _meta_ids(s.records[i], key)]
    return {"ancestors": anc, "descendants": desc}


def history_lineage(s: Store, i: Id, *, max_depth: int = 10) -> list[dict[str, Any]]:
    """Fallback (2): ``MemoryLineage.get_history`` (``memory_lineage.py:599–665``).

    Reads the metadata when the *ancestors* are empty: ``evolved_from``, then
    ``merged_from`` only if still empty, then ``split_from`` only if still empty.
    Entries have the shape ``{"memory_id", "relation"}``.
    """
    anc = [{"memory_id": e["id"], "relation": e["relation"]} for e in _walk(s, i, ANCESTRY, max_depth)]
    if not anc and i in s.records:
        for key in _FALLBACK_KEYS:
            anc = [{"memory_id": j, "relation": key} for j in _meta_ids(s.records[i], key)]
            if anc:
                break
    return anc


_CHAIN = Seed("chain", (Save(Record("a", namespace="alice")), Evolve("id0001", "b"), Evolve("id0002", "c")),
              "a record evolved twice (id0001 → id0002 → id0003)")


@paper_item("5.15")
def check_5_15() -> Verdict:
    """Remark 5.15: the two metadata fallbacks of ContextFS disagree with each other.

    The two readers are modelled as functions of the store (:func:`router_lineage`,
    :func:`history_lineage`).  A breadth-first search over every call of the model
    (deletion included) from the seeds and a twice-evolved chain finds the first
    (store, identifier) whose ancestor sets differ.  Explored: (store, identifier) pairs.
    """
    explored = 0
    found: tuple[Start, tuple[Call, ...], Store, Id, list[Id], list[Id]] | None = None
    ex = explore(CONTEXTFS, "full", max_len=1, seeds=(_CHAIN,) + SEEDS)
    stores = [(n.start, (), n.store) for n in ex.nodes(0)] + [(t.start, t.word, t.after) for t in ex.level(1) if t.ok]
    for start, word, s in stores:
        for i in sorted(s.dom()):
            explored += 1
            one = sorted(e["id"] for e in router_lineage(s, i)["ancestors"])
            two = sorted(e["memory_id"] for e in history_lineage(s, i))
            if one != two:
                found = (start, word, s, i, one, two)
                break
        if found:
            break
    if found is None:
        return Verdict("5.15", "counterexample", False, explored, None,
                       "Remark 5.15 NOT confirmed: the two fallbacks agreed on every explored store.")
    start, word, s, i, one, two = found
    r1, r2 = router_lineage(s, i), history_lineage(s, i)
    witness: dict[str, Any] = {"seed": start.seed.name, "start": store_to_json(start.store), "word": word_json(word),
               "after": store_to_json(s), "id": i, "router_get_lineage": r1, "history": r2,
               "router_ancestor_ids": one, "history_ancestor_ids": two,
               "entry_shapes": {"router_get_lineage": sorted((r1["ancestors"] + r1["descendants"])[0]),
                                "get_history": sorted(r2[0])},
               "explanation": f"after {', '.join(show_call(c) for c in word) or 'the seed'}, {i} has no ancestor "
                              f"edge; the router's fallback reports {one or 'no ancestor'} (it reads metadata only "
                              f"when there are no descendants either), get_history reports {two or 'none'}."}
    return Verdict("5.15", "counterexample", True, explored, witness,
                   "Remark 5.15: two representations (edges, metadata keys), two fallbacks that read the metadata "
                   "under different conditions, two entry shapes ({id, relation, depth} vs {memory_id, relation}); "
                   + witness["explanation"])
