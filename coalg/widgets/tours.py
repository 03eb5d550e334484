"""The explorers' recorded tours: a scripted session of each explorer, one frame per state.

Each function here drives an explorer through its own actions — the same
methods a button calls — and records, after each, what the explorer itself
shows: its message, its panel (proof step, verdict, law panel, report) and its
figure.  Nothing is recomputed outside the explorer.  The result is a
:class:`~coalg.widgets.tour.Tour`, which steps in a static page with no kernel
(the explorer pages of the web book show one above the live explorer).

==========================  ======================================================================
:func:`bitemporal_tour`     Theorem 5.27 step by step on ContextFS, then Proposition 7.1 on the repaired one
:func:`ancestry_tour`       a derivation, then a deleted ancestor: ancestry against descendants
:func:`refinement_tour`     partition refinement round by round, then the three comparisons
:func:`merge_tour`          one merge under each θ, the other order, and the repaired realisation
:func:`tenants_tour`        the tenants' interference, ⊕ refused, then the repair
:func:`playground_tour`     a short session: L2 fails on ContextFS, holds on the repaired realisation
==========================  ======================================================================

>>> t = ancestry_tour()
>>> [f.title for f in t.frames][:2]
['the start: meeting notes, focus on id0004', 'evolve the focus (a derivation)']
"""

from __future__ import annotations

from collections.abc import Callable

from ..model import ancestry
from ..viz import REMOVED
from .ancestry import AncestryExplorer
from .base import Explorer
from .bitemporal_stepper import BitemporalStepper
from .merge_lab import MergeLab
from .playground import DerivationPlayground
from .refinement_stepper import RefinementStepper
from .tenants_lab import TenantsLab
from .text import message_html
from .tour import Tour, TourFrame

__all__ = ["TOURS", "ancestry_tour", "bitemporal_tour", "merge_tour", "playground_tour",
           "refinement_tour", "tenants_tour"]


def _message(e: Explorer) -> str:
    return message_html(e.message, REMOVED if e.message_is_error else "#333333")


def bitemporal_tour() -> Tour:
    """Theorem 5.27 on ContextFS, every step (the recording call by call), then Proposition 7.1 on
    the repaired realisation; each frame shows the step once (the frame's title is the step's) and
    the stores of that step, or the planes at the query point a step speaks of."""
    bs = BitemporalStepper()
    frames = []
    for name in ("contextfs", "repaired"):
        bs.set_realisation(name)
        for k in range(len(bs.frames)):
            bs.goto(k)
            item = "Theorem 5.27" if bs.proof.item == "5.27" else "Proposition 7.1"
            title = f"{item} on {name}: {bs.frame.title}".replace("^vt", "ᵛᵗ")  # as the message line writes it
            frames.append(TourFrame(title, bs.step_html(heading=False, recorded=True), bs.tour_svg()))
    return Tour(frames, title="Theorem 5.27, then its twin Proposition 7.1")


def ancestry_tour() -> Tour:
    """Follow ``id0004`` of the meeting notes: evolve it (its ancestry stays, its descendants grow),
    then delete one of its ancestors (its ancestry changes)."""
    ae = AncestryExplorer("meeting notes", focus="id0004")
    focus = ae.focus

    def frame(title: str) -> TourFrame:
        return TourFrame(title, _message(ae) + ae.verdict_html(), ae.figure_svg())

    frames = [frame(f"the start: meeting notes, focus on {focus}")]
    ae.evolve()
    frames.append(frame("evolve the focus (a derivation)"))
    ae.split()
    frames.append(frame("split the focus (another derivation)"))
    ancestors = sorted(n.id for n in ancestry(ae.after, focus).nodes
                       if n.id != focus and n.id in ae.after.records)
    if ancestors:
        ae.delete(ancestors[0])
        frames.append(frame(f"delete {ancestors[0]}, an ancestor of {focus}"))
    return Tour(frames, title="Ancestry against descendants")


def refinement_tour() -> Tour:
    """Partition refinement of the refinement example, round by round until stable; then the three
    pairs of stores compared up to allocation."""
    rs = RefinementStepper("refinement example")
    frames = []
    for k in range(len(rs.rounds)):
        rs.set_round(k)
        frames.append(TourFrame(f"round {k} of {len(rs.rounds) - 1}", _message(rs), rs.round_svg()))
    for pair in rs.comparisons:
        rs.compare(pair)
        frames.append(TourFrame(f"compare up to allocation: {pair}", rs.verdict_html(), rs.pair_svg()))
    return Tour(frames, title="Partition refinement, round by round")


def merge_tour() -> Tour:
    """Merge ``id0001`` and ``id0002`` (tied types) under each θ the lab offers, then in the other
    order, then on the repaired realisation."""
    ml = MergeLab("merge tie", ids=["id0001", "id0002"])

    def frame(title: str) -> TourFrame:
        return TourFrame(title, _message(ml) + ml.result_html(), ml.figure_svg())

    frames = [frame("merge(id0001, id0002) under the default θ")]
    tied = ml.result["tied_types"] if ml.result else []
    for t in tied:
        ml.set_theta(t)
        frames.append(frame(f"the same merge, θ puts type {t} first"))
    ml.set_theta(None, descending=True)
    frames.append(frame("the same merge, θ descending"))
    ml.set_theta(None)
    ml.reverse()
    frames.append(frame("the other order: merge(id0002, id0001)"))
    ml.reverse()
    ml.set_realisation("repaired")
    frames.append(frame("merge(id0001, id0002) on the repaired realisation"))
    return Tour(frames, title="One merge under each θ")


def tenants_tour() -> Tour:
    """Two tenants with a prefix clash and a cross-tenant edge; ⊕ refused; the repair, after which ⊕
    is defined and the prefix clash remains."""
    tl = TenantsLab(n=2, records_per_tenant=4, seed=1, prefix_collisions=1, dangling_edges=1)

    def frame(title: str) -> TourFrame:
        return TourFrame(title, _message(tl) + tl.report_html(), tl.figure_svg())

    frames = [frame("two tenants and their union ⊎")]
    tl.mention_union()
    frames.append(frame("try the mention-disjoint union ⊕"))
    tl.repair()
    frames.append(frame("after the repair: the cross-tenant edges dropped"))
    return Tour(frames, title="Tenants before and after the repair")


def playground_tour() -> Tour:
    """A short playground session: evolve the merged record on ContextFS (L2 fails), undo, switch to
    the repaired realisation and evolve it again (L2 holds), then delete an ancestor."""
    pg = DerivationPlayground("meeting notes")

    def frame(title: str) -> TourFrame:
        return TourFrame(title, _message(pg) + pg.laws_html(), pg.figure_svg())

    frames = [frame("the start: meeting notes on ContextFS")]
    pg.apply("evolve", ids=["id0005"], content="merged, revised")
    frames.append(frame("evolve the merged record id0005 on ContextFS"))
    pg.undo()
    pg.set_realisation("repaired")
    frames.append(frame("undo, and switch to the repaired realisation"))
    pg.apply("evolve", ids=["id0005"], content="merged, revised")
    frames.append(frame("evolve id0005 again, now repaired"))
    pg.apply("delete", ids=["id0001"])
    frames.append(frame("delete id0001, an ancestor of the merge"))
    return Tour(frames, title="A short playground session")


TOURS: dict[str, Callable[[], Tour]] = {
    "bitemporal": bitemporal_tour, "ancestry": ancestry_tour, "refinement": refinement_tour,
    "merge": merge_tour, "tenants": tenants_tour, "playground": playground_tour,
}
"""Each explorer's tour, by the explorer's session name (:attr:`coalg.widgets.base.Explorer.KIND`)."""
