"""The tenants lab: tenant stores, their union, where they interfere, and the repair.

Paper §6 (composition): in the union ⊎ of tenant stores, recall by a shared
prefix answers with another tenant's record (Proposition 6.3) and a dangling
edge acquires another tenant's record as its target, so β changes (Proposition
6.4); the mention-disjoint union ⊕ (Definition 6.5) is undefined exactly then,
and dropping the cross-tenant mentions makes it defined — prefix recall stays
uncovered (Proposition 6.6).  The tenants are built again on every change of
a value, so what is shown is always built from the values shown; values that
cannot be built clear it (nothing stale stays on screen, and ⊕ and the repair
refuse to act on nothing).

>>> tl = TenantsLab(n=2, records_per_tenant=4, seed=1, prefix_collisions=1, dangling_edges=1)
>>> tl.state["mention_disjoint"], tl.repair(), tl.state["mention_disjoint"]
(False, True, True)
"""

from __future__ import annotations

import functools
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
from .controls import figure_image, ipywidgets, number_box, wide
from .fields import Fields
from .figures import store_svg
from .text import esc, html_table

__all__ = ["TenantsLab"]

RANGES = {"n": (2, 4), "records_per_tenant": (1, 12), "seed": (0, 1_000_000), "prefix_collisions": (0, 3),
          "dangling_edges": (0, 3)}
"""The values the lab's number boxes accept (a value outside is refused with a message, never clamped)."""

LABELS = {"n": ("tenants", "How many tenant stores (2 to 4)."),
          "records_per_tenant": ("records each", "How many records each tenant creates (1 to 12)."),
          "seed": ("seed", "Everything random follows from the seed (0 to 1,000,000): the same seed, the same tenants."),
          "prefix_collisions": ("prefix clashes", ("How many identifiers share a prefix with another tenant's "
                                                  "(0 to 3; Proposition 6.3).")),
          "dangling_edges": ("cross-tenant edges", ("How many edges point at another tenant's record "
                                                   "(0 to 3; Proposition 6.4)."))}
"""Each number box's label and tooltip."""

PARAMETERS = (*RANGES, "id_style")
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

    Methods: :meth:`configure`, :meth:`mention_union`, :meth:`repair`,
    :meth:`recall_prefix`, :meth:`reset`.
    """

    KIND = "tenants"

    def __init__(self, n: int = 2, records_per_tenant: int = 4, *, seed: int = 1, prefix_collisions: int = 1,
                 dangling_edges: int = 1, id_style: str = "uuid", scale: float = 1.0) -> None:
        super().__init__(scale=scale)
        self.first = {"n": n, "records_per_tenant": records_per_tenant, "seed": seed,
                      "prefix_collisions": prefix_collisions, "dangling_edges": dangling_edges, "id_style": id_style}
        self.params: dict[str, Any] = dict(self.first)
        self.stores: list[Store] = []
        self.shared: Store = EMPTY
        self.report: Any = None
        self.repaired = False
        self.configure(**self.first)

    @property
    def built(self) -> bool:
        """Whether tenants are built from the values shown."""
        return bool(self.stores)

    def _clear(self, params: dict[str, Any], reason: str) -> bool:
        self.params, self.stores, self.shared, self.report, self.repaired = params, [], EMPTY, None, False
        self._say(f"cannot build those tenants: {reason}", error=True)
        self._refresh()
        return False

    @action
    def configure(self, **params: Any) -> bool:
        """Build the tenants again with these values changed (the others as they were).

        A value outside its range (``RANGES``), or a combination the tenants
        cannot be built from, clears what was shown: no tenants, a message.
        """
        unknown = sorted(set(params) - set(PARAMETERS))
        if unknown:
            self._say(f"unknown value(s) {', '.join(unknown)}; known: {', '.join(PARAMETERS)}.", error=True)
            return False
        new = {**self.params, **params}
        for key, (lo, hi) in RANGES.items():
            v = new[key]
            if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
                return self._clear(new, f"{LABELS[key][0]} must be a whole number from {lo} to {hi}; {v!r} is not.")
        if new["id_style"] not in ("uuid", "sequential"):
            return self._clear(new, f"ids must be uuid or sequential; {new['id_style']!r} is not.")
        try:
            stores, shared = tenants(new["n"], new["records_per_tenant"], seed=new["seed"], id_style=new["id_style"],
                                     prefix_collisions=new["prefix_collisions"], dangling_edges=new["dangling_edges"])
        except ValueError as e:
            return self._clear(new, str(e))
        self.params, self.stores, self.shared, self.repaired = new, stores, shared, False
        self.report = interference(self.stores)
        self._say(f"{len(stores)} tenants of {new['records_per_tenant']} records; union of "
                  f"{len(shared.records)} records.")
        self._refresh()
        return True

    @action
    def reset(self) -> bool:
        """Back to the values the lab started with."""
        self.params = dict(self.first)
        return bool(self.configure())

    @property
    def state(self) -> dict[str, Any]:
        """A JSON-ready summary: the values, whether built, the tenants, how they interfere, whether repaired."""
        r = self.report
        return {
            "params": dict(self.params),
            "built": self.built,
            "tenants": [sorted(s.dom()) for s in self.stores],
            "union_records": len(self.shared.records),
            "prefix_collisions": len(r.prefix_collisions) if r else 0,
            "acquired_edges": len(r.acquired_edges) if r else 0,
            "mention_disjoint": bool(r and r.mention_disjoint),
            "repaired": self.repaired,
            "inclusion_failures": self.inclusion_failures(),
            "message": self.message,
        }

    def inclusion_failures(self) -> dict[int, list[Id]]:
        """Per tenant, the identifiers whose β changes in the union (Proposition 6.4)."""
        return {k: inclusion_failures(s, self.shared) for k, s in enumerate(self.stores)
                if inclusion_failures(s, self.shared)}

    def _nothing_built(self) -> bool:
        if self.built:
            return False
        self._say("no tenants are built from the values shown: change them first.", error=True)
        return True

    @action
    def mention_union(self) -> Store | None:
        """s₁ ⊕ s₂ ⊕ …, or ``None`` with the clashing identifiers as the message (Definition 6.5)."""
        if self._nothing_built():
            return None
        u = EMPTY
        try:
            for s in self.stores:
                u = mention_disjoint_union(u, s)
        except UnionUndefined as e:
            self._say(f"{e} Proposition 6.6: ⊕ refuses exactly the compositions in which one tenant's edge "
                      "could acquire another tenant's record.", error=True)
            return None
        self._say(f"⊕ is defined: {len(u.records)} records, and β of every tenant identifier is unchanged "
                  "in it (Proposition 6.6 (b)).")
        return u

    @action
    def repair(self) -> bool:
        """Drop every edge that mentions another tenant's record, then rebuild the union (now ⊕ is defined)."""
        if self._nothing_built():
            return False
        owner = {i: k for k, s in enumerate(self.stores) for i in s.records}
        fixed = []
        for k, s in enumerate(self.stores):
            bad = [e for e in s.edges
                   if any(x not in s.records and owner.get(x, k) != k for x in (e.source, e.target))]
            fixed.append(s.without_edges(bad))
        shared = EMPTY
        for s in fixed:
            shared = disjoint_union(shared, s)
        self.stores, self.shared, self.report, self.repaired = fixed, shared, interference(fixed), True
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
        return self._recall(prefix, theta)

    def _recall(self, prefix: str, theta: Theta = DEFAULT_THETA) -> dict[str, Any]:
        a = RecallPrefix(prefix)
        alone = {k: output_to_json(CONTEXTFS.step(s, a, theta=theta)[0]) for k, s in enumerate(self.stores)}
        union = output_to_json(CONTEXTFS.step(self.shared, a, theta=theta)[0])
        return {"prefix": prefix, "alone": alone, "union": union}

    # ----------------------------------------------------------------- sessions
    def _session_state(self) -> dict[str, Any]:
        return {"params": dict(self.params), "repaired": self.repaired}

    def _restore(self, state: dict[str, Any], source: str) -> str:
        f = Fields(state, source=source)
        f.only("params", "repaired")
        p = f.sub("params")
        p.only(*PARAMETERS)
        params: dict[str, Any] = {k: p.integer(k, lo, hi) for k, (lo, hi) in RANGES.items()}
        params["id_style"] = p.text("id_style", choices=("uuid", "sequential"))
        repaired = f.flag("repaired")
        try:
            tenants(params["n"], params["records_per_tenant"], seed=params["seed"], id_style=params["id_style"],
                    prefix_collisions=params["prefix_collisions"], dangling_edges=params["dangling_edges"])
        except ValueError as e:
            raise f.fail("params", f"cannot build those tenants: {e}") from None
        self.configure(**params)
        if repaired:
            self.repair()
        return f"{params['n']} tenants of {params['records_per_tenant']} records" + (", repaired." if repaired else ".")

    # ----------------------------------------------------------------- views
    def report_html(self) -> str:
        """Each interference found (6.3 prefix recall, 6.4 acquired edges) and whether ⊕ is defined."""
        if not self.built:
            return "<i>No tenants are shown: the values above cannot be built (the message says why).</i>"
        rows = []
        for p, (ka, ia), (kb, ib) in self.report.prefix_collisions:
            union = self._recall(p)["union"]
            desc = self._recall(p, Theta(descending=True))["union"]
            rows.append(["6.3 prefix recall",
                         (f"<code>{esc(ia)}</code> (tenant {ka}) and <code>{esc(ib)}</code> (tenant {kb}) share the "
                         f"prefix <code>{esc(p)}</code>. In the union, recall by that prefix answers "
                         f"<code>{esc(union.get('id'))}</code> under θ ascending and <code>{esc(desc.get('id'))}"
                         "</code> under θ descending: one tenant gets the other's record.")])
        for k, e, o in self.report.acquired_edges:
            rows.append(["6.4 acquired edge",
                         (f"Tenant {k}'s edge <code>{esc(e.source)} {esc(e.relation.value)} {esc(e.target)}</code> "
                         f"dangles in its own store; in the union its endpoint is tenant {o}'s record, so β changes.")])
        fails = self.inclusion_failures()
        rows.append(["β in the union", "; ".join(f"tenant {k}: β changes at {esc(', '.join(v))}" for k, v in
                                                 fails.items()) + "." if fails else "unchanged for every tenant."])
        ok = self.report.mention_disjoint
        rows.append(["⊕ (mention-disjoint union)",
                     f"<b style='color:{ADDED if ok else REMOVED}'>{'defined' if ok else 'undefined'}</b>"
                     + (" — after dropping the cross-tenant edges" if self.repaired else
                        "" if ok else ": the tenants mention a common identifier")])
        return html_table(rows)

    def figure_svg(self) -> bytes:
        """The union, the clashing identifiers and the acquired edges highlighted."""
        hi: list[Any] = []
        for _p, (_ka, ia), (_kb, ib) in self.report.prefix_collisions:
            hi += [ia, ib]
        hi += [e for _k, e, _o in self.report.acquired_edges]
        hi += [x for _k, e, _o in self.report.acquired_edges for x in (e.source, e.target)]
        return store_svg(self.shared, highlight=hi, width=8.5, scale=self.scale,
                         highlight_label="where tenants interfere")

    def _idle_disabled(self) -> set[str]:
        return set() if self.built else {"button:union", "button:repair"}

    def _build(self, ui: dict[str, Any]) -> None:
        w = ipywidgets()
        ui["message"] = w.HTML()
        for key in RANGES:
            ui[key] = number_box(self.params[key], *LABELS[key])
        ui["id_style"] = w.ToggleButtons(options=["uuid", "sequential"], value=self.params["id_style"],
                                         description="ids", style=wide(),
                                         tooltips=["ContextFS-shaped identifiers", "id0001, id0002, …"])
        for key in PARAMETERS:
            self._observe(ui[key], functools.partial(self._changed, key))
        union = self._button(ui, "union", "try ⊕", self.mention_union,
                             tooltip="Try the mention-disjoint union of the tenants (Definition 6.5).")
        fix = self._button(ui, "repair", "drop cross-tenant edges", self.repair, style="warning",
                           tooltip="Drop every edge that mentions another tenant's record (Proposition 6.6).")
        reset = self._button(ui, "reset", "reset", self.reset, tooltip="Back to the values the lab started with.")
        ui["report"] = w.HTML()
        ui["report"].add_class("coalg-report")
        ui["figure"] = figure_image()
        ui["root"] = w.VBox([
            w.HBox([ui["n"], ui["records_per_tenant"], ui["seed"], self._size_control(ui)],
                   layout=w.Layout(flex_flow="row wrap")),
            w.HBox([ui["prefix_collisions"], ui["dangling_edges"], ui["id_style"]],
                   layout=w.Layout(flex_flow="row wrap")),
            w.HBox([union, fix, reset]), ui["message"], ui["report"], ui["figure"], self._session_bar(ui)])
        for key in ("message", "figure"):  # the main view: what the last step said, and the union
            ui[key].add_class("coalg-main")

    def _arrange(self, ui: dict[str, Any]) -> list[Any]:
        return self._under_figure_in_hall(ui, "report")  # the table of propositions under the figure

    def _changed(self, key: str, value: Any) -> None:
        self.configure(**{key: value})

    def _draw(self, ui: dict[str, Any]) -> None:
        for key in PARAMETERS:
            ui[key].value = self.params[key]
        if not self.built:  # hidden first: the old union never shows beside "No tenants are shown"
            ui["figure"].layout.display = "none"
        ui["report"].value = self.report_html()
        if self.built:
            ui["figure"].value = self.figure_svg()
            ui["figure"].layout.display = None
