"""Behaviours of the released package that the paper does not state, observed.

Running contextfs 0.2.35 shows four behaviours an adapter or an auditor must
know about, beyond the paper's numbered results (:mod:`coalg.contextfs.runtime`):
evolve by a prefix leaves a dangling edge (the shape of Prop. 5.30's evolve-by-prefix
witness seen from the original), metadata is inherited through derivations (the mechanism of
Prop. 5.14's Witness B), the facade's soft delete keeps edges (Prop. 5.2 read
with ``deleted_at``), and ``update`` drops edges.  Each is a function returning a
:class:`~coalg.paper.Verdict` (``holds``: the behaviour was seen), collected in
:data:`BEHAVIOURS`.
"""

from __future__ import annotations

from collections.abc import Callable

from ..paper import Verdict
from .live import LiveStore, facade
from .offline import quiet_logs, sandbox

__all__ = [
    "BEHAVIOURS",
    "behaviour_metadata_inherited",
    "behaviour_prefix_evolve_dangles",
    "behaviour_soft_delete_keeps_edges",
    "behaviour_update_drops_edges",
]


def behaviour_prefix_evolve_dangles() -> Verdict:
    """Evolve by a prefix stores the prefix, not the resolved id: the original never sees its descendant."""
    live = LiveStore.open("b-prefix.db")
    o = live.save("the meeting is at 10", namespace="ns", id="7d52ac39-b54")
    child = live.evolve("7d52ac39", "the meeting is at 11")
    desc = live.lineage_of(o.id)["descendants"]
    edges = [list(t) for t in live.edges()]
    holds = not desc and ["7d52ac39", "evolved_into", child.id] in edges
    witness = {"original": o.id, "child": child.id, "edges": edges, "descendants_of_original": desc}
    summary = (f"evolve('7d52ac39', …) resolved {o.id} but both edges name '7d52ac39'; "
               f"get_lineage({o.id}) lists no descendant.")
    return Verdict("prefix-evolve", "counterexample", holds, 1, witness, summary)


def behaviour_metadata_inherited() -> Verdict:
    """Derived records copy their parents' metadata: a split part of an evolved record claims both parents."""
    live = LiveStore.open("b-inherit.db")
    r1 = live.save("JWT tokens; 1h expiry", namespace="ns", id="r1000000-001")
    r2 = live.evolve(r1.id, "JWT tokens; 15 min expiry; refresh tokens")
    parts = live.split(r2.id, ["JWT tokens", "refresh tokens"])
    meta = {k: v for k, v in sorted(live.recall(parts[0].id).metadata.items()) if k.endswith("_from")}
    edges = live.ancestry(parts[0].id)
    holds = meta.get("evolved_from") == r1.id and meta.get("split_from") == r2.id and \
        edges == [["split_from", r2.id]]
    witness = {"part": parts[0].id, "metadata": meta, "ancestry_edges": edges}
    summary = f"split part {parts[0].id} has metadata {meta} but its only ancestry edge is {edges}."
    return Verdict("metadata-inherited", "counterexample", holds, 1, witness, summary)


def behaviour_soft_delete_keeps_edges() -> Verdict:
    """The facade's default delete is soft: the record disappears from recall, its edges stay and are still read."""
    ctx = facade("ns", "soft-delete")
    with sandbox().env(), quiet_logs():
        f1 = ctx.save("v1", type="fact", namespace_id="ns")
        f2 = ctx._lineage.evolve(f1.id, "v2")
        f3 = ctx._lineage.evolve(f2.id, "v3")
        ctx.delete(f2.id)
        recalled = ctx.recall(f2.id)
        edges = ctx._storage.get_edges(f2.id)
        lineage = ctx._storage.get_lineage(f3.id)["ancestors"]
    holds = recalled is None and len(edges) == 4 and [x["id"] for x in lineage] == [f2.id, f1.id]
    witness = {"deleted": f2.id, "recall": None if recalled is None else recalled.id,
               "edges_still_returned": len(edges), "lineage_of_child": [[x["id"], x["depth"]] for x in lineage]}
    summary = (f"ContextFS.delete({f2.id}) (soft, the default) hides it from recall, but get_edges still returns "
               f"its {len(edges)} edges and get_lineage({f3.id}) still walks through it.")
    return Verdict("soft-delete", "counterexample", holds, 1, witness, summary)


def behaviour_update_drops_edges() -> Verdict:
    """``StorageRouter.update`` is delete + save: updating a record silently erases its lineage edges."""
    live = LiveStore.open("b-update.db")
    a = live.save("first", namespace="ns", id="u0000000-001")
    b = live.evolve(a.id, "second")
    before = live.edges_touching(b.id)
    live.update(b.id, "second, corrected")
    after = live.edges_touching(b.id)
    meta = live.recall(b.id).metadata.get("evolved_from")
    holds = bool(before) and not after and meta == a.id
    witness = {"record": b.id, "edges_before": before, "edges_after": after, "metadata_evolved_from": meta}
    summary = (f"router.update({b.id}, …) deleted and re-saved it: its {len(before)} lineage edges are gone, "
               "its metadata still says evolved_from.")
    return Verdict("update-drops-edges", "counterexample", holds, 1, witness, summary)


BEHAVIOURS: dict[str, Callable[[], Verdict]] = {
    "prefix-evolve": behaviour_prefix_evolve_dangles,
    "metadata-inherited": behaviour_metadata_inherited,
    "soft-delete": behaviour_soft_delete_keeps_edges,
    "update-drops-edges": behaviour_update_drops_edges,
}
"""Observed behaviours of the package that the paper does not state, by name."""
