"""The tenants lab: tenant stores, their union, where they interfere, and the repair.

Paper §6 (composition): in the union ⊎ of tenant stores, recall by a shared
prefix answers with another tenant's record (Proposition 6.3) and a dangling
edge acquires another tenant's record as its target, so β changes (Proposition
6.4); the mention-disjoint union ⊕ (Definition 6.5) is undefined exactly then,
and dropping the cross-tenant mentions makes it defined — prefix recall stays
uncovered (Proposition 6.6).

>>> tl = TenantsLab(n=2, records_per_tenant=4, seed=1, prefix_collisions=1, dangling_edges=1)
>>> tl.state["mention_disjoint"], tl.repair(), tl.state["mention_disjoint"]
(False, True, True)
"""

from __future__ import annotations

from typing import Any

from ..composition import inclusion_failures, interference, tenants
from ..model import (
    CONTEXTFS,
    DEFAULT_THETA,
    EMPTY,
    Id,
    RecallPrefix,
    Store,
    Theta,
    UnionUndefined,
    disjoint_union,
    mention_disjoint_union,
    output_to_json,
)
from ..viz import ADDED, REMOVED
from .base import Explorer, action
from .controls import button, figure_image, ipywidgets
from .figures import store_png
from .text import esc, html_table

__all__ = ["TenantsLab"]

PARAMETERS = ("n", "records_per_tenant", "seed", "prefix_collisions", "dangling_edges", "id_style")
"""The arguments of :func:`coalg.composition.tenants` the lab's controls set."""


class TenantsLab(Explorer):
    """Tenant stores, their union ⊎, and where they interfere; the mention-disjoint union ⊕ as the repair.

    * Proposition 6.3: two tenants' identifiers share a prefix, and recall by
      that prefix in the union answers with the other tenant's record.
    * Proposition 6.4: a tenant's dangling edge acquires a target from another
      tenant in the union: β of that identifier changes.
    * Proposition 6.6: ⊕ is undefined exactly when the tenants mention a common
      identifier; dropping the cross-tenant mentions (:meth:`repair`) makes it
      defined, and then β_{s⊕t} = β_s on ids(s) — prefix recall stays uncovered.

    Methods: :meth:`configure`, :meth:`mention_union`, :meth:`repair`, :meth:`recall_prefix`.
    """

    def __init__(self, n: int = 2, records_per_tenant: int = 4, *, seed: int = 1,
                 prefix_collisions: int = 1, dangling_edges: int = 1, id_style: str = "uuid") -> None:
        super().__init__()
        self.params: dict[str, Any] = {}
        self.repaired = False
        self.configure(n=n, records_per_tenant=records_per_tenant, seed=seed,
                       prefix_collisions=prefix_collisions, dangling_edges=dangling_edges, id_style=id_style)

    @action
    def configure(self, **params: Any) -> bool:
        """Build the tenants again with these parameters changed (the others as they were)."""
        new = {**self.params, **params}
        try:
            stores, shared = tenants(int(new["n"]), int(new["records_per_tenant"]), seed=int(new["seed"]),
                                     id_style=new["id_style"], prefix_collisions=int(new["prefix_collisions"]),
                                     dangling_edges=int(new["dangling_edges"]))
        except ValueError as e:
            self._say(f"cannot build those tenants: {e}", error=True)
            return False
        self.params = new
        self.stores, self.shared = stores, shared
        self.repaired = False
        self.report = interference(self.stores)
        self._say(f"{len(stores)} tenants of {new['records_per_tenant']} records; union of "
                  f"{len(shared.records)} records.")
        self._refresh()
        return True

    @property
    def state(self) -> dict[str, Any]:
        """A JSON-ready summary: the parameters, the tenants, how they interfere, whether repaired."""
        return {
            "params": dict(self.params),
            "tenants": [sorted(s.dom()) for s in self.stores],
            "union_records": len(self.shared.records),
            "prefix_collisions": len(self.report.prefix_collisions),
            "acquired_edges": len(self.report.acquired_edges),
            "mention_disjoint": self.report.mention_disjoint,
            "repaired": self.repaired,
            "inclusion_failures": self.inclusion_failures(),
            "message": self.message,
        }

    def inclusion_failures(self) -> dict[int, list[Id]]:
        """Per tenant, the identifiers whose β changes in the union (Proposition 6.4)."""
        return {k: inclusion_failures(s, self.shared) for k, s in enumerate(self.stores)
                if inclusion_failures(s, self.shared)}

    @action
    def mention_union(self) -> Store | None:
        """s₁ ⊕ s₂ ⊕ …, or ``None`` with the clashing identifiers as the message (Definition 6.5)."""
        u = EMPTY
        try:
            for s in self.stores:
                u = mention_disjoint_union(u, s)
        except UnionUndefined as e:
            self._say(f"⊕ is undefined: {e}. (Proposition 6.6: ⊕ refuses exactly the compositions in which "
                      "one tenant's edge could acquire another tenant's record.)", error=True)
            return None
        self._say(f"⊕ is defined: {len(u.records)} records, and β of every tenant identifier is unchanged "
                  "in it (Proposition 6.6 (b)).")
        return u

    @action
    def repair(self) -> bool:
        """Drop every edge that mentions another tenant's record, then rebuild the union (now ⊕ is defined)."""
        owner = {i: k for k, s in enumerate(self.stores) for i in s.records}
        fixed = []
        for k, s in enumerate(self.stores):
            bad = [e for e in s.edges
                   if any(x not in s.records and owner.get(x, k) != k for x in (e.source, e.target))]
            fixed.append(s.without_edges(bad))
        self.stores = fixed
        shared = EMPTY
        for s in fixed:
            shared = disjoint_union(shared, s)
        self.shared = shared
        self.report = interference(self.stores)
        self.repaired = True
        u = self.mention_union()
        if u is not None:
            self._say("dropped the cross-tenant edges: ⊕ is now defined and no β changes in the union. "
                      f"Prefix collisions remain ({len(self.report.prefix_collisions)}): ⊕ does not cover prefix "
                      "recall (Proposition 6.6 (d)).")
        self._refresh()
        return u is not None

    @action
    def recall_prefix(self, prefix: str, theta: Theta = DEFAULT_THETA) -> dict[str, Any] | None:
        """Recall by ``prefix`` in each tenant alone and in the union (Proposition 6.3)."""
        if not prefix:
            self._say("give a prefix.", error=True)
            return None
        a = RecallPrefix(prefix)
        alone = {k: output_to_json(CONTEXTFS.step(s, a, theta=theta)[0]) for k, s in enumerate(self.stores)}
        union = output_to_json(CONTEXTFS.step(self.shared, a, theta=theta)[0])
        return {"prefix": prefix, "alone": alone, "union": union}

    def report_html(self) -> str:
        """Each interference found (6.3 prefix recall, 6.4 acquired edges) and whether ⊕ is defined."""
        rows = []
        for p, (ka, ia), (kb, ib) in self.report.prefix_collisions:
            res = self.recall_prefix(p) or {}
            union = res.get("union", {})
            desc = self.recall_prefix(p, Theta(descending=True)) or {}
            rows.append([
                "6.3 prefix recall",
                (f"<code>{esc(ia)}</code> (tenant {ka}) and <code>{esc(ib)}</code> (tenant {kb}) share "
                f"<code>{esc(p)}</code>; in the union <code>recall_pfx({esc(p)})</code> answers "
                f"<code>{esc(union.get('id'))}</code> (θ ascending) or <code>{esc(desc.get('union', {}).get('id'))}"
                "</code> (θ descending)"),
            ])
        for k, e, o in self.report.acquired_edges:
            rows.append(["6.4 acquired edge",
                         (f"tenant {k}'s edge <code>{esc(e)}</code> dangles in its own store; in the union its "
                         f"endpoint is tenant {o}'s record, so β changes there")])
        fails = self.inclusion_failures()
        rows.append(["β changes in the union", esc(fails) if fails else "none"])
        rows.append(["mention-disjoint (⊕ defined)",
                     f"<b style='color:{ADDED if self.report.mention_disjoint else REMOVED}'>"
                     f"{'yes' if self.report.mention_disjoint else 'no'}</b>"
                     + (" (after dropping cross-tenant edges)" if self.repaired else "")])
        return html_table(rows)

    def figure_png(self) -> bytes:
        """The union, the clashing identifiers and the acquired edges highlighted (PNG)."""
        hi: list[Any] = []
        for _p, (_ka, ia), (_kb, ib) in self.report.prefix_collisions:
            hi += [ia, ib]
        hi += [e for _k, e, _o in self.report.acquired_edges]
        hi += [x for _k, e, _o in self.report.acquired_edges for x in (e.source, e.target)]
        return store_png(self.shared, highlight=hi, width=8.5)

    def _build(self, ui: dict[str, Any]) -> None:
        w = ipywidgets()
        p = self.params
        ui["message"] = w.HTML()
        ui["n"] = w.IntSlider(value=p["n"], min=2, max=4, description="tenants")
        ui["records_per_tenant"] = w.IntSlider(value=p["records_per_tenant"], min=1, max=8, description="records each")
        ui["seed"] = w.IntText(value=p["seed"], description="seed")
        ui["prefix_collisions"] = w.IntSlider(value=p["prefix_collisions"], min=0, max=3, description="prefix clashes")
        ui["dangling_edges"] = w.IntSlider(value=p["dangling_edges"], min=0, max=3, description="cross edges")
        ui["id_style"] = w.ToggleButtons(options=["uuid", "sequential"], value=p["id_style"], description="ids")
        build = button("build tenants", lambda: self.configure(**{k: ui[k].value for k in PARAMETERS}),
                       style="info")
        union = button("try ⊕", lambda: self.mention_union())
        fix = button("drop cross-tenant edges", lambda: self.repair(), style="warning")
        ui["report"] = w.HTML()
        ui["figure"] = figure_image()
        ui["root"] = w.VBox([
            w.HBox([ui["n"], ui["records_per_tenant"], ui["seed"]]),
            w.HBox([ui["prefix_collisions"], ui["dangling_edges"], ui["id_style"]]),
            w.HBox([build, union, fix]), ui["message"], ui["report"], ui["figure"]])

    def _draw(self, ui: dict[str, Any]) -> None:
        ui["report"].value = self.report_html()
        ui["figure"].value = self.figure_png()

