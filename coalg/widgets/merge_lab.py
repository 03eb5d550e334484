"""The merge lab: merged type, namespace and content as the records, their order and θ vary.

Paper §5 on merge: Proposition 5.20 (the merged type depends on an enumeration
order no interface declares; in our form, with tied types it is c(M) and ranges
over all of M as θ varies on ContextFS, while our repaired realisation takes the
least tied type), Proposition 5.24 (merging twice is
allocation-blind bisimilar to merging once, Definition 5.23) and Proposition
5.25 (the other argument order is observable: a witness says where).  The
result is recomputed on every change of a control, so it is always the merge
of the controls shown; when they do not make a merge, no result is shown.
The sentences are written by :mod:`.merge_text`.

>>> ml = MergeLab("merge tie", ids=["id0001", "id0002"])
>>> ml.result["types_reached"], ml.result["twice_blind_bisimilar"], ml.result["reversed_blind_bisimilar"]
(['decision', 'fact'], True, False)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
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
    store_to_json,
    theta_to_json,
)
from . import merge_text
from .allocation import next_allocation
from .base import Explorer, action
from .controls import (
    ARGUMENT_ORDER_TIP,
    figure_image,
    ipywidgets,
    realisation_picker,
    reverse_box,
    wide,
)
from .fields import Fields
from .figures import store_svg
from .text import output_text, short, theta_text

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

    Methods: :meth:`select`, :meth:`set_theta`, :meth:`set_realisation`,
    :meth:`reverse`, :meth:`reset`, :meth:`merge`.
    """

    KIND = "merge"

    def __init__(self, start: str | Store = "merge tie", ids: Sequence[Id] = ("id0001", "id0002"), *,
                 realisation: str = "contextfs", scale: float = 1.0) -> None:
        super().__init__("Choose two or more records, their order and θ: the merge follows every change.",
                         scale=scale)
        self.start_name = start if isinstance(start, str) else "custom"
        self.store = preset(start) if isinstance(start, str) else start
        self.first_ids: tuple[Id, ...] = tuple(i for i in ids if i in self.store.records)
        self.first_realisation = realisation
        self.ids = self.first_ids
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

    # ----------------------------------------------------------------- actions
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
    def reset(self) -> bool:
        """Back to the records, θ and realisation the lab started with."""
        self.ids, self.theta = self.first_ids, DEFAULT_THETA
        self.realisation = get_realisation(self.first_realisation)
        return self.merge() is not None

    @action
    def merge(self) -> dict[str, Any] | None:
        """Compute the merge and the three comparisons; ``None`` (no result shown, a message) if there is none."""
        self.result = None
        if len(self.ids) < 2:
            self._say(f"merge needs at least two records; {len(self.ids)} selected.", error=True)
        elif len(set(self.ids)) != len(self.ids):
            self._say("each record may be named once.", error=True)
        else:
            out, after, j = self._merged(self.ids, self.theta)
            if j is None:
                self._say(f"{self.realisation.name} refused the merge: {output_text(out)}", error=True)
            else:
                self.result = self._compare(after, j)
                rec = after.records[j]
                self._say(f"merge({', '.join(self.ids)}) under {theta_text(self.theta)} on "
                          f"{self.realisation.name} → {j}: type {rec.type!r}, namespace {rec.namespace!r}.")
        self._refresh()
        return self.result

    def _compare(self, after: Store, j: Id) -> dict[str, Any]:
        rec = after.records[j]
        tied = sorted(modes([self.store.records[i].type for i in self.ids]))
        variants = [Theta(type_priority=(t,)) for t in tied] + [Theta(descending=True), DEFAULT_THETA]
        by_theta = {theta_text(th): after2.records[k].type for th in variants
                    for _o, after2, k in [self._merged(self.ids, th)] if k is not None}
        _o2, twice, _ = self._merged(self.ids, self.theta, base=after)
        _out_r, other, jr = self._merged(tuple(reversed(self.ids)), self.theta)
        return {
            "ids": list(self.ids), "theta": self.theta.as_dict(), "realisation": self.realisation.name,
            "id": j, "type": rec.type, "namespace": rec.namespace, "content": rec.content,
            "tied_types": tied, "type_by_theta": by_theta, "types_reached": sorted(set(by_theta.values())),
            "twice_equal": twice == after, "twice_blind_bisimilar": allocation_blind_bisimilar(after, twice),
            "reversed_ok": jr is not None,
            "reversed_blind_bisimilar": None if jr is None else allocation_blind_bisimilar(after, other),
            "reversed_witness": allocation_blind_witness(after, other) if jr is not None else None,
            "reversed_record": None if jr is None else {
                "id": jr, "type": other.records[jr].type, "namespace": other.records[jr].namespace,
                "content": other.records[jr].content},
            "store": after, "highlight": [j] + sorted(after.edges - self.store.edges),
        }

    @property
    def state(self) -> dict[str, Any]:
        """A JSON-ready summary: the choice (records, θ, realisation) and the result without the store."""
        r = {k: v for k, v in (self.result or {}).items() if k not in ("store", "highlight")}
        return {"ids": list(self.ids), "theta": self.theta.as_dict(), "realisation": self.realisation.name,
                "result": r, "message": self.message}

    # ----------------------------------------------------------------- sessions
    def _session_state(self) -> dict[str, Any]:
        return {"start_name": self.start_name, "start": store_to_json(self.store), "ids": list(self.ids),
                "theta": theta_to_json(self.theta), "realisation": self.realisation.name}

    def _restore(self, state: dict[str, Any], source: str) -> str:
        f = Fields(state, source=source)
        f.only("start_name", "start", "ids", "theta", "realisation")
        store, ids = f.store("start"), f.texts("ids", max_len=100)
        unknown = [i for i in ids if i not in store.records]
        if unknown:
            raise f.fail("ids", f"{', '.join(unknown)} hold no record in the store")
        theta, name = f.theta("theta"), f.text("realisation", choices=("contextfs", "repaired"))
        types = {r.type for r in store.records.values()}
        if len(theta.type_priority) > 1 or theta.id_priority or not set(theta.type_priority) <= types:
            raise f.fail("theta", "the merge lab's θ puts at most one of the store's types first")
        self.start_name, self.store, self.ids, self.theta = f.text("start_name", max_len=200), store, tuple(ids), theta
        self.realisation = get_realisation(name)
        self.merge()
        return f"merge({', '.join(ids)}) under {theta_text(theta)} on {name}."

    # ----------------------------------------------------------------- views
    def result_html(self) -> str:
        """The merged record and the three comparisons (5.20, 5.24, 5.25), in sentences."""
        return merge_text.result_html(self.result, self.store, self.message)

    def figure_svg(self) -> bytes:
        """The store after the merge, the merged record and its new edges highlighted; without a merge,
        the store with the selected records highlighted."""
        r = self.result
        if r is None:
            return store_svg(self.store, highlight=list(self.ids), labels=_label(self.store), width=8.5,
                             scale=self.scale, highlight_label="selected (no merge)")
        return store_svg(r["store"], highlight=r["highlight"], labels=_label(r["store"]), width=8.5,
                         scale=self.scale, highlight_label="the merged record")

    def _build(self, ui: dict[str, Any]) -> None:
        w = ipywidgets()
        ui["message"] = w.HTML()
        opts = [(f"{i}  {short(r.content, 26)} [{r.type}, {r.namespace}]", i) for i, r in self.store.records.items()]
        ui["ids"] = w.SelectMultiple(options=opts, rows=6, description="records", style=wide(),
                                     tooltip=ARGUMENT_ORDER_TIP, layout=w.Layout(width="auto", min_width="min(26em, 100% - 4px)"))
        ui["reverse"] = reverse_box()
        types = sorted({r.type for r in self.store.records.values()})
        ui["first"] = w.Dropdown(options=[("(none: by name)", "")] + [(t, t) for t in types],
                                 description="θ: first type", style=wide(), layout=w.Layout(width="auto"),
                                 tooltip="θ puts records of this type first when the types tie (Proposition 5.20).")
        ui["descending"] = w.Checkbox(value=False, description="θ descending", indent=False,
                                      tooltip="θ enumerates from the largest down.")
        ui["realisation"] = realisation_picker(self.realisation.name)
        for key in ("ids", "reverse", "first", "descending", "realisation"):
            self._observe(ui[key], lambda _v: self._apply(ui))
        ui["result"] = w.HTML()
        ui["result"].add_class("coalg-result")
        ui["figure"] = figure_image()
        reset = self._button(ui, "reset", "reset", self.reset, tooltip="Back to the records, θ and realisation "
                                                                       "the lab started with.")
        ui["root"] = w.VBox([
            w.HBox([ui["realisation"], reset, self._size_control(ui)], layout=w.Layout(flex_flow="row wrap")),
            w.HBox([ui["ids"], w.VBox([ui["reverse"], ui["first"], ui["descending"]])],
                   layout=w.Layout(flex_flow="row wrap")),
            ui["message"], ui["result"], ui["figure"], self._session_bar(ui)])
        for key in ("message", "figure"):  # the main view: what the merge made, and the store
            ui[key].add_class("coalg-main")

    def _arrange(self, ui: dict[str, Any]) -> list[Any]:
        return self._under_figure_in_hall(ui, "result")  # the table of propositions under the figure

    def _apply(self, ui: dict[str, Any]) -> None:
        ids = [str(i) for i in ui["ids"].value]
        ids = ids[::-1] if ui["reverse"].value else ids
        theta = Theta(type_priority=(ui["first"].value,) if ui["first"].value else (),
                      descending=ui["descending"].value)
        self._choose(ids, theta, ui["realisation"].value)

    @action
    def _choose(self, ids: Sequence[Id], theta: Theta, realisation: str) -> None:
        if (real := self._realisation(realisation)) is None:
            return
        self.ids, self.theta, self.realisation = tuple(ids), theta, real
        self.merge()

    def _draw(self, ui: dict[str, Any]) -> None:
        in_order = [i for i in self.store.records if i in self.ids]
        ui["ids"].value = tuple(in_order)
        ui["reverse"].value = len(self.ids) > 1 and list(self.ids) == in_order[::-1]
        first = self.theta.type_priority[0] if self.theta.type_priority else ""
        ui["first"].value = first if first in [v for _k, v in ui["first"].options] else ""
        ui["descending"].value = self.theta.descending
        ui["realisation"].value = self.realisation.name
        ui["result"].value = self.result_html()
        ui["figure"].value = self.figure_svg()


def _label(store: Store) -> Callable[[Id], str]:
    """Node labels short enough not to run into each other: the identifier, then the start of the
    content on a second line (a merged record's "[Source 1]: " prefix left out: the table says it)."""
    def label(i: Id) -> str:
        r = store.records.get(i)
        if r is None:
            return i
        text = r.content.removeprefix("[Source 1]: ").replace("\n", " ")
        return f"{i}\n{short(text, 12)}"
    return label
