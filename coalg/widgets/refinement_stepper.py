"""The refinement stepper: partition refinement round by round, and allocation-blind comparison.

Paper §2.2 and Definition 5.23: round 0 groups identifiers by their record,
each next round splits blocks by the blocks their edges lead to, and the stable
partition is bisimilarity (:func:`coalg.bisim.refinement_rounds`; the rounds
are walked with the shared :class:`~coalg.widgets.stepping.Stepper`).  Below,
two stores are compared up to allocation (s ≈ t): merging twice against once
(Proposition 5.24), in the other order (Proposition 5.25), two unrelated stores.

>>> rs = RefinementStepper()
>>> rs.round, rs.next_round(), rs.round
(0, True, 1)
"""

from __future__ import annotations

from typing import Any

from ..bisim import allocation_blind_witness, distinguish, refinement_rounds
from ..model import Id, Merge, Store, preset, refinement_example, run, store_to_json
from ..model import names as preset_names
from ..viz import ADDED, plot_refinement, plot_store
from .base import action
from .controls import figure_image, ipywidgets, wide
from .fields import Fields
from .figures import MAX_WIDTH, canvas, hall, name_panel, render, store_height
from .stepping import Stepper
from .text import esc, html_table, reason_text, short, witness_culprit

__all__ = ["RefinementStepper"]


def _comparisons() -> dict[str, tuple[Store, Store, str]]:
    """The pairs of stores the stepper compares: name ↦ (s, t, what the paper says about them)."""
    base = preset("merge tie")
    once = run(base, [Merge(("id0001", "id0002"))]).final
    twice = run(once, [Merge(("id0001", "id0002"))]).final
    ba = run(base, [Merge(("id0002", "id0001"))]).final
    return {
        "merge once vs twice (5.24)": (once, twice, "Proposition 5.24: ≈ although not equal"),
        "merge a,b vs b,a (5.25)": (once, ba, "Proposition 5.25: the argument order is observable"),
        "meeting notes vs lineage": (preset("meeting notes"), preset("lineage"), "Two unrelated stores"),
    }


# The rounds are computed one by one, as the definition says (Θ(n · m) on a chain): a store the
# stepper can show a round of at a time keeps that cost to about a second.
MAX_STORE = 300


class RefinementStepper(Stepper):
    """Partition refinement round by round, then allocation-blind comparison of two stores.

    The rounds are :func:`coalg.bisim.refinement_rounds`: round 0 groups
    identifiers by their record, each next round splits blocks by the blocks
    their edges lead to, and the last round is bisimilarity.  The comparison
    decides s ≈ t (Definition 5.23) and, when they are not, highlights the
    identifier without a partner and the path that distinguishes it.
    Methods: :meth:`set_round`, :meth:`next_round`, :meth:`set_store`,
    :meth:`compare`, :meth:`distinguish`.
    """

    STORES = ("refinement example", *preset_names())
    """The stores the stepper refines: the refinement example and every preset."""

    AT_FIRST = "this is round 0."
    AT_LAST = "the partition is stable: no further round splits a block."

    KIND = "refinement"

    def __init__(self, start: str | Store = "refinement example", comparison: str = "merge a,b vs b,a (5.25)", *,
                 scale: float = 1.0) -> None:
        super().__init__("Step through the rounds.", scale=scale)
        self.comparisons = _comparisons()
        self.pair_name = comparison if comparison in self.comparisons else next(iter(self.comparisons))
        self.witness: dict[str, Any] | None = None
        self.pair_highlight: tuple[list[Any], list[Any]] = ([], [])
        self._store_from(start)
        self.compare(self.pair_name)
        blocks = len(set(self.rounds[0].values()))
        self.message = (f"round 0 of {self.store_name}: {blocks} block(s) — press “round ▶” to refine."
                        f"{self._recordless()}  Below: {self.message}")

    def _store_from(self, start: str | Store) -> None:
        if isinstance(start, Store):
            if len(start.ids()) > MAX_STORE:
                raise ValueError(f"the stepper shows stores of at most {MAX_STORE} identifiers, one round at a "
                                 f"time (this one has {len(start.ids())}); `coalg bisim` compares larger ones")
            self.store_name, self.store = "custom", start
        elif start == "refinement example":
            self.store_name, self.store = start, refinement_example()
        else:
            self.store_name, self.store = start, preset(start)
        self.rounds = refinement_rounds(self.store)
        self.position = 0

    @property
    def round(self) -> int:
        """The round shown, from 0."""
        return self.position

    @property
    def state(self) -> dict[str, Any]:
        """A JSON-ready summary: the store, the round and its partition, the comparison and its witness."""
        part = self.rounds[self.round] if self.rounds else {}
        return {
            "store": self.store_name,
            "round": self.round,
            "rounds": len(self.rounds),
            "blocks": len(set(part.values())),
            "partition": dict(part),
            "comparison": self.pair_name,
            "blind_bisimilar": self.witness is None,
            "witness": self.witness,
            "message": self.message,
        }

    @action
    def set_store(self, name: str) -> bool:
        """Refine the store ``name`` (one of :attr:`STORES`), from round 0."""
        if name not in self.STORES:
            self._say(f"unknown store {name!r}; known: {', '.join(self.STORES)}.", error=True)
            return False
        self._store_from(name)
        self._say(f"{name}: {len(self.rounds)} round(s) until stable.")
        self._refresh()
        return True

    def _count(self) -> int:
        return len(self.rounds)

    def _not_a_position(self, k: int) -> str:
        return f"rounds are 0 … {len(self.rounds) - 1}; {k} is not one."

    def _arrived(self) -> str:
        r = self.position
        blocks = len(set(self.rounds[r].values()))
        last = r == len(self.rounds) - 1
        return (f"round {r}: {blocks} block(s)" + (" — stable: this is bisimilarity." if last else ".")
                + self._recordless())

    def _recordless(self) -> str:
        """A sentence introducing the identifiers of the store that hold no record (⊥), if any."""
        none = sorted(self.store.ids() - self.store.dom())
        if not none:
            return ""
        by = sorted({e.source for e in self.store.edges if e.target in none}
                    | {e.target for e in self.store.edges if e.source in none})
        one = len(none) == 1
        return (f" {', '.join(none)} {'holds' if one else 'hold'} no record (⊥): an edge of "
                f"{', '.join(by)} mentions {'it' if one else 'them'}, but the store keeps no record there, "
                f"so {'it is' if one else 'they are'} refined like any identifier.")

    def _show_position(self) -> None:
        self._refresh(compare=False)  # the comparison below does not depend on the round

    set_round = Stepper.step_to
    next_round = Stepper.forward
    previous_round = Stepper.backward

    @action
    def compare(self, name: str) -> bool:
        """Compare the pair of stores ``name`` (one of :attr:`comparisons`) up to allocation."""
        if name not in self.comparisons:
            self._say(f"unknown comparison {name!r}.", error=True)
            return False
        self.pair_name = name
        s, t, note = self.comparisons[name]
        self.witness = allocation_blind_witness(s, t)
        if self.witness is None:
            self.pair_highlight = ([], [])
            self._say(f"{name}: s ≈ t — {note}.")
        else:
            first = self.witness["first"]
            left = list(self.witness["unmatched_left"])
            right = list(self.witness["unmatched_right"])
            if first.get("against"):
                (right if first["side"] == "left" else left).append(first["against"])
            self.pair_highlight = (left, right)
            where = witness_culprit(first)
            self._say(f"{name}: not ≈ — {'s' if first['side'] == 'left' else 't'}'s {first['id']} has no partner"
                      + (f": the difference is in {where}, reached by {' · '.join(first['path'])}"
                         if where != first["id"] else "") + f". {note}.")
        self._refresh()
        return True

    @action
    def distinguish(self, i: Id, j: Id) -> dict[str, Any] | None:
        """A shortest distinguishing witness for ``i`` and ``j`` in the current store, or ``None`` if bisimilar."""
        s = self.store
        missing = [x for x in (i, j) if x not in s.ids()]
        if missing:
            self._say(f"unknown identifier {', '.join(missing)}.", error=True)
            return None
        w = distinguish(s, i, s, j)
        if w is None:
            self._say(f"{i} and {j} are bisimilar: no formula tells them apart.")
            return None
        self._say(f"{i} and {j} differ after the path {' · '.join(w.path) or '(empty)'}: {w.reason}")
        return w.to_json()

    # ----------------------------------------------------------------- sessions
    def _session_state(self) -> dict[str, Any]:
        return {"store_name": self.store_name,
                "store": store_to_json(self.store) if self.store_name == "custom" else None,
                "round": self.round, "comparison": self.pair_name}

    def _restore(self, state: dict[str, Any], source: str) -> str:
        f = Fields(state, source=source)
        f.only("store_name", "store", "round", "comparison")
        name = f.text("store_name", choices=(*self.STORES, "custom"))
        start: str | Store = f.store("store") if name == "custom" else name
        pair = f.text("comparison", choices=tuple(self.comparisons))
        try:
            trial = RefinementStepper(start, pair)
        except ValueError as e:
            raise f.fail("store", str(e)) from None
        k = f.integer("round", 0, len(trial.rounds) - 1)
        self.store_name, self.store, self.rounds = trial.store_name, trial.store, trial.rounds  # computed once
        self.position = k
        self.compare(pair)
        return f"{self.store_name}, round {k}; {pair}."

    # ----------------------------------------------------------------- views
    def round_svg(self) -> bytes:
        """The store graph coloured by the blocks of the round shown, with a legend of the blocks."""
        h = store_height(self.store) + 0.3
        if hall(self.scale):  # flatter: the stepper above it and what the round says under it share the screen
            h = min(h, 2.7)
        return render(lambda ax: plot_refinement(self.store, axes=[ax], rounds=self.rounds, which=[self.round]),
                      (7.5, h), legend=1.4, scale=self.scale)

    def verdict_html(self) -> str:
        """The comparison in sentences, with the contents of the records that have no partner."""
        sentence, table = self._verdict_parts()
        return sentence + table

    def _verdict_parts(self) -> tuple[str, str]:
        """The comparison's sentence, and the table of the records that have no partner ("" if none)."""
        s, t, note = self.comparisons[self.pair_name]
        wit = self.witness
        if wit is None:
            same = (f"<div><b style='color:{ADDED}'>s ≈ t</b>: every identifier of s has a partner in t "
                    f"that behaves the same up to allocation, and back. {esc(note)}.</div>")
            return same, ""
        first = wit["first"]
        rec = (s if first["side"] == "left" else t).records.get(first["id"])
        why = reason_text(first.get("reason") or "no identifier on the other side behaves the same")
        where = witness_culprit(first)
        if where != first["id"]:
            mine, other = ("s", "t") if first["side"] == "left" else ("t", "s")
            reached = first["reached"]
            why = (f"its record matches {other}'s {first['against']} up to allocation, but following "
                   f"{' · '.join(first['path'])} leads to {mine}'s {reached[0]} and {other}'s {reached[1]}, "
                   f"and there {why}. The difference is in {where}")
        rows = [[f"<code>{esc(i)}</code>", _content(s, i), _content(t, i)]
                for i in sorted(set(wit["unmatched_left"]) | set(wit["unmatched_right"]))[:8]]
        table = html_table(rows, header=["identifier", "in s", "in t"])
        return (f"<div><b>s ≉ t</b> — {esc(note)}. Refinement finds no partner for "
                f"{'s' if first['side'] == 'left' else 't'}'s <code>{esc(first['id'])}</code>"
                + (f" (“{esc(short(rec.content, 40))}”)" if rec else "") + f": {esc(why)}.</div>",
                f"<div>The records without a partner:</div>{table}")

    def pair_svg(self) -> bytes:
        """The two stores compared, side by side, the records without a partner highlighted."""
        s, t, _ = self.comparisons[self.pair_name]
        hl, hr = self.pair_highlight
        h = max(store_height(x) for x in (s, t)) + 0.3
        if hall(self.scale):  # flatter: the verdict's sentences above it share the screen
            h = min(h, 2.9)

        def draw(axes: list[Any]) -> None:
            for ax, st, hi, name in zip(axes, (s, t), (hl, hr), ("s", "t")):
                plot_store(st, ax=ax, highlight=hi, legend=False,
                           labels="id" if hall(self.scale) else  # the hall: short labels never overlap
                           (lambda i, st=st: f"{i}: {short(st.records[i].content, 14)}" if i in st.records else i))
                name_panel(ax, name)

        if hall(self.scale) or canvas((MAX_WIDTH, h), self.scale)[0] / 2 >= 3.6:  # the hall: full width
            return render(draw, (9.6, h), ncols=2, scale=self.scale, wspace=0.1, left=0.2)
        return render(draw, (9.6, 2 * h + 0.3), nrows=2, scale=self.scale, left=0.2)  # s above t on a projector

    def _build(self, ui: dict[str, Any]) -> None:
        w = ipywidgets()
        ui["message"] = w.HTML()
        ui["store"] = w.Dropdown(options=list(self.STORES), value=self.store_name if self.store_name in self.STORES
                                 else None, description="store", style=wide(),
                                 tooltip="The store whose identifiers are refined into blocks.",
                                 layout=w.Layout(width="auto"))
        self._observe(ui["store"], lambda v: self.set_store(v) if v else None)
        ui["round"] = w.HTML()
        ui["figure"] = figure_image()
        ui["pair"] = w.Dropdown(options=list(self.comparisons), value=self.pair_name, description="compare",
                                style=wide(), tooltip="Two stores to compare up to allocation (Definition 5.23).",
                                layout=w.Layout(width="auto"))
        self._observe(ui["pair"], self.compare)
        ui["pair_figure"] = figure_image()
        ui["verdict"] = w.HTML()
        ui["unmatched"] = w.HTML()  # the table of records without a partner, at the lecture hall's size
        for key in ("figure",):  # the stepper's main view: the round, and the store in its blocks
            ui[key].add_class("coalg-main")
        for key in ("verdict", "pair_figure"):  # the comparison's: the verdict, and the two stores
            ui[key].add_class("coalg-main-compare")
        moves = [self._button(ui, "first", "« round 0", lambda: self.set_round(0), tooltip="Back to round 0."),
                 self._button(ui, "back", "◀ round", self.previous_round, tooltip="One round back."),
                 self._button(ui, "next", "round ▶", self.next_round, style="info",
                              tooltip="Refine once more: split blocks by where their edges lead.")]
        ui["moves"] = w.HBox([*moves, ui["round"]])
        ui["moves"].add_class("coalg-main")
        ui["root"] = w.VBox([w.HBox([ui["store"], self._size_control(ui)], layout=w.Layout(flex_flow="row wrap")),
                             ui["moves"],
                             ui["message"], ui["figure"],
                             w.HTML("<b>Allocation-blind comparison (Definition 5.23)</b>"),
                             ui["pair"], ui["verdict"], ui["pair_figure"], ui["unmatched"], self._session_bar(ui)])

    def _arrange(self, ui: dict[str, Any]) -> list[Any]:
        rows = list(ui["built"])
        if hall(self.scale):  # what the round says under its figure, not between the stepper and it
            rows.remove(ui["message"])
            rows.insert(rows.index(ui["figure"]) + 1, ui["message"])
        return rows

    def _draw(self, ui: dict[str, Any], compare: bool = True) -> None:
        ui["store"].value = self.store_name if self.store_name in self.STORES else None
        ui["round"].value = f"round {self.round} of {len(self.rounds) - 1}"
        ui["figure"].value = self.round_svg()
        if compare:
            ui["pair"].value = self.pair_name
            sentence, table = self._verdict_parts()  # at the lecture hall's size the table goes under the stores
            ui["verdict"].value, ui["unmatched"].value = (sentence, table) if hall(self.scale) else (sentence + table, "")
            ui["pair_figure"].value = self.pair_svg()

    def _idle_disabled(self) -> set[str]:
        last = len(self.rounds) - 1
        return {k for k, off in (("button:first", self.round == 0), ("button:back", self.round == 0),
                                 ("button:next", self.round == last)) if off}


def _content(s: Store, i: Id) -> str:
    r = s.records.get(i)
    return "—" if r is None else f"“{esc(short(r.content, 48))}” ({esc(r.type)}, {esc(r.namespace)})"

