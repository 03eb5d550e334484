"""The merge lab: merged type, namespace and content as the records, their order and θ vary.

Paper §5 on merge: Proposition 5.20 (with tied types the merged type is c(M),
and it ranges over all of M as θ varies on ContextFS; the repaired realisation
takes the least tied type), Proposition 5.24 (merging twice is
allocation-blind bisimilar to merging once, Definition 5.23) and Proposition
5.25 (the other argument order is observable: a witness says where).

>>> ml = MergeLab("merge tie", ids=["id0001", "id0002"])
>>> ml.result["types_reached"], ml.result["twice_blind_bisimilar"], ml.result["reversed_blind_bisimilar"]
(['decision', 'fact'], True, False)
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from ..bisim import allocation_blind_bisimilar, allocation_blind_witness
from ..model import (
    DEFAULT_THETA,
    Created,
    Id,
    Merge,
    Output,
    Store,
    Theta,
    get_realisation,
    modes,
    preset,
)
from ..viz import ADDED, REMOVED
from .allocation import next_allocation
from .base import Explorer, action
from .controls import (
    button,
    figure_image,
    in_argument_order,
    ipywidgets,
    realisation_picker,
    reverse_box,
)
from .figures import store_png
from .text import esc, html_table, output_text, short, theta_text

__all__ = ["MergeLab"]


class MergeLab(Explorer):
    """Merge chosen records in a chosen order under a chosen θ; compare orders, θs and repetitions.

    * Proposition 5.20: with tied types the merged type is c(M), and it ranges
      over all of M as θ varies (ContextFS); the repaired realisation takes the
      least tied type whatever θ says.
    * Proposition 5.24: merging the same arguments twice gives a store
      allocation-blind bisimilar (≈) to merging once.
    * Proposition 5.25: merging in the other order gives a store that is *not*
      ≈ — the witness says where they differ.

    Methods: :meth:`select`, :meth:`set_theta`, :meth:`set_realisation`, :meth:`merge`.
    """

    def __init__(self, start: str | Store = "merge tie", ids: Sequence[Id] = ("id0001", "id0002"), *,
                 realisation: str = "contextfs") -> None:
        super().__init__("Choose two or more records, their order and θ.")
        self.store = preset(start) if isinstance(start, str) else start
        self.ids: tuple[Id, ...] = tuple(i for i in ids if i in self.store.records)
        self.theta = DEFAULT_THETA
        self.realisation = get_realisation(realisation)
        self.result: dict[str, Any] | None = None
        self.merge()

    def _merged(self, ids: Sequence[Id], theta: Theta, base: Store | None = None) -> tuple[Output, Store, Id | None]:
        """Merge ``ids`` under ``theta`` in ``base`` (default: the lab's store): output, store, merged id."""
        s = self.store if base is None else base
        a = Merge(tuple(ids))
        xi = next_allocation([self.store, s], a)
        out, after = self.realisation.step(s, a, xi, theta=theta)
        return out, after, (out.ids[0] if isinstance(out, Created) else None)

    @action
    def select(self, ids: Sequence[Id]) -> bool:
        """Merge the records ``ids``, in this order."""
        chosen = [str(i) for i in ids]
        unknown = [i for i in chosen if i not in self.store.records]
        if unknown:
            self._say(f"unknown identifier {', '.join(unknown)}.", error=True)
            return False
        self.ids = tuple(chosen)
        return self.merge() is not None

    @action
    def set_theta(self, first_type: str | None = None, descending: bool = False) -> bool:
        """Merge under θ with ``first_type`` first (none: by name), ascending or descending."""
        self.theta = Theta(type_priority=(first_type,) if first_type else (), descending=bool(descending))
        return self.merge() is not None

    @action
    def set_realisation(self, name: str) -> bool:
        """Merge on the realisation ``name``."""
        if (realisation := self._realisation(name)) is None:
            return False
        self.realisation = realisation
        return self.merge() is not None

    @action
    def reverse(self) -> bool:
        """Merge the same records in the other order."""
        self.ids = tuple(reversed(self.ids))
        return self.merge() is not None

    @action
    def merge(self) -> dict[str, Any] | None:
        """Compute the merge and the three comparisons; ``None`` (and a message) when it cannot be made."""
        if len(self.ids) < 2:
            self._say(f"merge needs at least two records; {len(self.ids)} selected.", error=True)
            self._refresh()
            return None
        if len(set(self.ids)) != len(self.ids):
            self._say("each record may be named once.", error=True)
            return None
        out, after, j = self._merged(self.ids, self.theta)
        if j is None:
            self.result = {"ids": list(self.ids), "refused": output_text(out), "store": after}
            self._say(f"{self.realisation.name} refused the merge: {output_text(out)}", error=True)
            self._refresh()
            return self.result
        rec = after.records[j]
        types = [self.store.records[i].type for i in self.ids]
        tied = sorted(modes(types))
        variants = [Theta(type_priority=(t,)) for t in tied] + [Theta(descending=True), DEFAULT_THETA]
        by_theta = {theta_text(th): after2.records[k].type for th in variants
                    for _o, after2, k in [self._merged(self.ids, th)] if k is not None}
        _o2, twice, _ = self._merged(self.ids, self.theta, base=after)
        _out_r, other, jr = self._merged(tuple(reversed(self.ids)), self.theta)
        witness = allocation_blind_witness(after, other) if jr is not None else None
        self.result = {
            "ids": list(self.ids),
            "id": j,
            "type": rec.type,
            "namespace": rec.namespace,
            "content": rec.content,
            "tied_types": tied,
            "type_by_theta": by_theta,
            "types_reached": sorted(set(by_theta.values())),
            "twice_equal": twice == after,
            "twice_blind_bisimilar": allocation_blind_bisimilar(after, twice),
            "reversed_ok": jr is not None,
            "reversed_blind_bisimilar": None if jr is None else allocation_blind_bisimilar(after, other),
            "reversed_witness": witness,
            "reversed_record": None if jr is None else {
                "type": other.records[jr].type, "namespace": other.records[jr].namespace,
                "content": other.records[jr].content},
            "store": after,
            "highlight": [j] + sorted(after.edges - self.store.edges),
        }
        self._say(f"merge({', '.join(self.ids)}) under {theta_text(self.theta)} on {self.realisation.name} → "
                  f"{j}: type {rec.type!r}, namespace {rec.namespace!r}.")
        self._refresh()
        return self.result

    @property
    def state(self) -> dict[str, Any]:
        """A JSON-ready summary: the choice (records, θ, realisation) and the result without the store."""
        r = {k: v for k, v in (self.result or {}).items() if k not in ("store", "highlight")}
        return {"ids": list(self.ids), "theta": self.theta.as_dict(), "realisation": self.realisation.name,
                "result": r, "message": self.message}

    def result_html(self) -> str:
        """The merged record and the three comparisons (5.20, 5.24, 5.25) as a table."""
        r = self.result
        if not r or "id" not in r:
            return "<i>No merge to show.</i>"
        yes = f"<b style='color:{ADDED}'>yes</b>"
        no = f"<b style='color:{REMOVED}'>no</b>"
        rows = [
            ["merged record", f"<code>{esc(r['id'])}</code>"],
            ["type", f"<b>{esc(r['type'])}</b> (tied types M = {esc(r['tied_types'])})"],
            ["namespace", f"<b>{esc(r['namespace'])}</b> (the first argument's)"],
            ["content", f"<pre style='margin:0;font-size:85%'>{esc(short(r['content'], 200))}</pre>"],
            ["5.20 — type as θ varies",
             "; ".join(f"{esc(k)} → <b>{esc(v)}</b>" for k, v in r["type_by_theta"].items())
             + f"<br>reached: {esc(r['types_reached'])}"],
            ["5.24 — merge twice ≈ merge once",
             (f"equal stores: {yes if r['twice_equal'] else no}; allocation-blind bisimilar: "
             f"{yes if r['twice_blind_bisimilar'] else no}")],
        ]
        if r["reversed_ok"]:
            wit = r["reversed_witness"]
            first = "" if not wit else esc(json.dumps(wit["first"], ensure_ascii=False)[:300])
            rows.append(["5.25 — the other order",
                         f"≈: {yes if r['reversed_blind_bisimilar'] else no}; reversed gives type "
                         f"<b>{esc(r['reversed_record']['type'])}</b>, namespace "
                         f"<b>{esc(r['reversed_record']['namespace'])}</b>"
                         + (f"<br><code style='font-size:85%'>{first}</code>" if first else "")])
        return html_table(rows)

    def figure_png(self) -> bytes:
        """The store after the merge, the merged record and its new edges highlighted (PNG)."""
        r = self.result or {}
        s = r.get("store", self.store)
        return store_png(s, highlight=r.get("highlight", list(self.ids)), labels="both", width=8.5)

    def _build(self, ui: dict[str, Any]) -> None:
        w = ipywidgets()
        ui["message"] = w.HTML()
        opts = [(f"{i}  {short(r.content, 26)} [{r.type}, {r.namespace}]", i) for i, r in self.store.records.items()]
        ui["ids"] = w.SelectMultiple(options=opts, value=tuple(i for i in self.ids), rows=6, description="records")
        ui["reverse"] = reverse_box()
        types = sorted({r.type for r in self.store.records.values()})
        ui["first"] = w.Dropdown(options=[("(none: by name)", "")] + [(t, t) for t in types], description="θ first type")
        ui["descending"] = w.Checkbox(value=False, description="θ descending")
        ui["realisation"] = realisation_picker(self.realisation.name)
        go = button("merge", lambda: self._apply(ui), style="info")
        ui["result"] = w.HTML()
        ui["figure"] = figure_image()
        ui["root"] = w.VBox([w.HBox([ui["ids"], w.VBox([ui["reverse"], ui["first"], ui["descending"]])]),
                             ui["realisation"], go, ui["message"], ui["result"], ui["figure"]])

    def _apply(self, ui: dict[str, Any]) -> None:
        ids = in_argument_order(ui["ids"], ui["reverse"])
        self.realisation = get_realisation(ui["realisation"].value)
        self.theta = Theta(type_priority=(ui["first"].value,) if ui["first"].value else (),
                           descending=ui["descending"].value)
        self.ids = tuple(ids)
        self.merge()

    def _draw(self, ui: dict[str, Any]) -> None:
        ui["result"].value = self.result_html()
        ui["figure"].value = self.figure_png()

