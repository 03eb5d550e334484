"""The bitemporal proof stepper: Theorem 5.27 on ContextFS, Proposition 7.1 on the repaired realisation.

Paper §5.8 and §7.1: two histories h ∼vt h′ that differ only in valid times are
recorded (Ψ); on ContextFS the two stores are equal, so no query tells the
histories apart (Theorem 5.27); the repaired realisation stores valid time, and
Obs^vt separates them (Proposition 7.1).  The proofs are data
(:func:`coalg.bitemporal.theorem_5_27`, :func:`coalg.bitemporal.proposition_7_1`);
the stepper walks them with the shared :class:`~coalg.widgets.stepping.Stepper`,
the recording step expanded call by call, and draws the bitemporal planes.

>>> bs = BitemporalStepper()
>>> bs.state["proof"], bs.next(), bs.index
('5.27', True, 1)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..bitemporal import (
    History,
    Proof,
    believed,
    meeting_example,
    proposition_7_1,
    recording,
    shifted,
    theorem_5_27,
)
from ..errors import CoalgError
from ..model import Id, Realisation, Record, Store, get_realisation, output_to_json
from ..viz import ADDED, REMOVED, plane_limits, plot_bitemporal_plane, plot_store
from .base import action
from .controls import figure_image, ipywidgets, realisation_picker, wide
from .fields import Fields
from .figures import hall, name_panel, render
from .stepping import Stepper
from .text import data_html, esc, notation_html, short

__all__ = ["BitemporalStepper", "Frame", "answers_compared", "stores_compared"]


@dataclass(frozen=True)
class Frame:
    """One position of the stepper: a proof step (or one call of the recording step) and the two stores."""

    title: str
    explanation: str
    data: Any
    store_h: Store
    store_h_prime: Store
    shows: str = "after the whole recording"
    """When the two stores drawn are taken: ``"before any call"``, ``"after call k of n"``, or after it all."""

    @property
    def query_point(self) -> tuple[int, int] | None:
        """The point (τt, τv) this step's data speaks of (the witness of Obs^vt), if any."""
        w = self.data.get("witness") if isinstance(self.data, dict) else None
        if isinstance(w, dict) and isinstance(w.get("tt"), int) and isinstance(w.get("tv"), int):
            return w["tt"], w["tv"]
        return None


class BitemporalStepper(Stepper):
    """Walk through Theorem 5.27 (ContextFS) or Proposition 7.1 (repaired) on a pair h ∼vt h′.

    The "recording" step of the proof is expanded call by call: the two stores
    after each call are drawn side by side, equal on ContextFS and different on
    the repaired realisation.  Below, the bitemporal plane of Ψ(h) and Ψ(h′)
    answers :func:`coalg.bitemporal.believed` at the query (τt, τv).
    Methods: :meth:`next`, :meth:`back`, :meth:`first`, :meth:`goto`, :meth:`set_realisation`, :meth:`query`.
    """

    AT_LAST = "this is the last step of the proof."

    KIND = "bitemporal"

    def __init__(self, h: History | None = None, h_prime: History | None = None, *,
                 realisation: str = "contextfs", mode: str = "current", scale: float = 1.0) -> None:
        super().__init__("Step through the proof with back / next.", scale=scale)
        if h is None:
            h, h2 = meeting_example()
            h_prime = h_prime or h2
        self.h: History = h
        self.h_prime: History = h_prime if h_prime is not None else shifted(h)
        self.mode = mode
        self.tt, self.tv = 5, 3
        self._set(get_realisation(realisation))
        self._fit_planes()

    def _set(self, realisation: Realisation) -> None:
        """Prove on ``realisation``: the proof it calls for, its frames, the two recorded stores."""
        self.realisation = realisation
        if self.realisation.declares_valid_time:
            self.proof: Proof = proposition_7_1(self.h, self.h_prime, realisation=self.realisation)
        else:
            self.proof = theorem_5_27(self.h, self.h_prime, realisation=self.realisation)
        r1, r2 = recording(self.h, self.realisation), recording(self.h_prime, self.realisation)
        final = (r1.final, r2.final)
        n = len(r1.steps)

        def per_call(explanation: str, rows: Sequence[Any] | None) -> list[Frame]:
            return [Frame(f"Recording, call by call: call {k + 1} of {n}", explanation,
                          rows[k] if rows is not None else
                          {"k": k + 1, "tt": a.call.tt, "vt": a.call.vt, "vt_prime": b.call.vt,
                           "output_h": output_to_json(a.output), "output_h_prime": output_to_json(b.output),
                           "stores_equal": a.store == b.store},
                          a.store, b.store, f"after call {k + 1} of {n}")
                    for k, (a, b) in enumerate(zip(r1.steps, r2.steps))]

        frames: list[Frame] = []
        empty = (Store(), Store())
        recorded = False  # until the recording is walked, nothing is in either store
        for step in self.proof.steps:
            if step.title.startswith("Recording"):
                frames += per_call(step.explanation, step.data["calls"])
                recorded = True
                continue
            frames.append(Frame(step.title, step.explanation, step.data, *(final if recorded else empty),
                                "after the whole recording" if recorded else "before any call"))
            if step.title.startswith("The valid-time channel") and self.proof.item == "7.1":
                frames += per_call("Ψ^vt is the same left fold, but each created record now stores the "
                                   "call's valid time, so the two runs part where τv differs.", None)
                recorded = True
        self.frames = frames
        self.position = min(self.position, len(frames) - 1)
        self.stores = final

    @property
    def slider_range(self) -> tuple[int, int]:
        """The times the τt and τv sliders cover: every time of both histories, one before, two after."""
        times = sorted({*self.h.tt(), *self.h.vt(), *self.h_prime.vt()})
        return min(times) - 1, max(times) + 2

    def _fit_planes(self) -> None:
        """One extent for both planes, on both realisations and for every query the sliders allow,
        so the axes never move while the reader steps, switches or queries."""
        stores = [recording(x, get_realisation(n)).final for x in (self.h, self.h_prime)
                  for n in ("contextfs", "repaired")]
        self.limits = plane_limits(stores, mode=self.mode, times=self.slider_range)  # type: ignore[arg-type]

    # ----------------------------------------------------------------- state
    @property
    def index(self) -> int:
        """The step shown, from 0."""
        return self.position

    @property
    def frame(self) -> Frame:
        """The step shown."""
        return self.frames[self.position]

    def answers(self) -> tuple[dict[Id, Record], dict[Id, Record]]:
        """What Ψ(h) and Ψ(h′) believe at the query (τt, τv)."""
        s1, s2 = self.stores
        return (believed(s1, self.tt, self.tv, mode=self.mode),  # type: ignore[arg-type]
                believed(s2, self.tt, self.tv, mode=self.mode))  # type: ignore[arg-type]

    @property
    def state(self) -> dict[str, Any]:
        """A JSON-ready summary: the proof, the step shown, whether its stores agree, the query's answers."""
        a1, a2 = self.answers()
        return {
            "realisation": self.realisation.name,
            "proof": self.proof.item,
            "conclusion": self.proof.conclusion,
            "index": self.index,
            "frames": len(self.frames),
            "title": self.frame.title,
            "stores_equal": self.frame.store_h == self.frame.store_h_prime,
            "final_stores_equal": self.stores[0] == self.stores[1],
            "query": (self.tt, self.tv),
            "believed_h": [r.content for r in a1.values()],
            "believed_h_prime": [r.content for r in a2.values()],
            "message": self.message,
        }

    # ----------------------------------------------------------------- actions
    def _count(self) -> int:
        return len(self.frames)

    def _arrived(self) -> str:
        at = f"step {self.position + 1} of {len(self.frames)}: {_sup(self.frame.title)}"
        point = self.frame.query_point
        if point is None:
            return at
        self.tt, self.tv = point
        return (f"{at} — the query sliders moved to τt = {point[0]}, τv = {point[1]}, the data point this "
                "step speaks of (marked on the planes below).")

    goto = Stepper.step_to
    next = Stepper.forward
    back = Stepper.backward

    @action
    def first(self) -> bool:
        """Back to the first step of the proof."""
        return bool(self.step_to(0))

    @action
    def set_realisation(self, name: str) -> bool:
        """Prove on the realisation ``name`` (Theorem 5.27 on ContextFS, Proposition 7.1 on the repaired
        one), from its first step."""
        if (realisation := self._realisation(name)) is None:
            return False
        self._set(realisation)
        self.position = 0
        self._say(f"now {'Proposition' if self.proof.item == '7.1' else 'Theorem'} {self.proof.item} on {name}, "
                  f"from step 1: {_sup(self.frame.title)}.")
        self._refresh()
        return True

    @action
    def query(self, tt: Any, tv: Any) -> tuple[list[str], list[str]] | None:
        """Ask both stores what was believed at ``tt`` about ``tv``; the contents they answer."""
        if any(isinstance(t, bool) or not isinstance(t, int) for t in (tt, tv)):
            self._say(f"τt and τv are whole numbers; {tt!r}, {tv!r} are not.", error=True)
            return None
        self.tt, self.tv = tt, tv
        a1, a2 = self.answers()
        h, h2 = [r.content for r in a1.values()], [r.content for r in a2.values()]
        self._say(f"believed at τt = {tt} about τv = {tv}: Ψ(h) answers {', '.join(h) or 'nothing'}; "
                  f"Ψ(h′) answers {', '.join(h2) or 'nothing'} — {answers_compared(a1, a2)}.")
        self._refresh(proof=False)
        return h, h2

    # ----------------------------------------------------------------- sessions
    def _session_state(self) -> dict[str, Any]:
        return {"h": self.h.to_json(), "h_prime": self.h_prime.to_json(), "realisation": self.realisation.name,
                "position": self.position, "tt": self.tt, "tv": self.tv, "mode": self.mode}

    def _restore(self, state: dict[str, Any], source: str) -> str:
        f = Fields(state, source=source)
        f.only("h", "h_prime", "realisation", "position", "tt", "tv", "mode")
        h, h2 = f.history("h"), f.history("h_prime")
        name = f.text("realisation", choices=("contextfs", "repaired"))
        mode = f.text("mode", choices=("current", "asserted"))
        tt, tv = f.integer("tt", -10**6, 10**6), f.integer("tv", -10**6, 10**6)
        try:
            trial = BitemporalStepper(h, h2, realisation=name, mode=mode)
        except (CoalgError, ValueError, TypeError) as e:
            raise f.fail("h", f"these histories cannot be proved on: {e}") from None
        position = f.integer("position", 0, len(trial.frames) - 1)
        self.h, self.h_prime, self.mode = h, h2, mode
        self._set(trial.realisation)
        self.position, self.tt, self.tv = position, tt, tv
        self._fit_planes()
        return f"{'Proposition' if self.proof.item == '7.1' else 'Theorem'} {self.proof.item}, step {position + 1}."

    # ----------------------------------------------------------------- views
    def explanation_html(self, *, recorded: bool = False) -> str:
        """The step's explanation in the book's notation; a query point it mentions is named
        (``recorded``: for a tour, which has planes but no sliders)."""
        f = self.frame
        text = notation_html(f.explanation)
        point = f.query_point
        if point is not None:
            where = "marked on the planes below" + ("" if recorded else ", where the sliders now stand")
            text = text.replace("At the query point below",
                                f"At the query point τt = {point[0]}, τv = {point[1]} (the data point of this "
                                f"step, {where})")
        return text

    def stores_sentence(self, *, planes: bool = False) -> str:
        """What the two stores are at this step, when they are taken, and whether (and how) they differ;
        ``planes``: the picture is the bitemporal planes at the step's query point, not the stores."""
        f = self.frame
        if f.shows == "before any call":
            return "The stores drawn: nothing is recorded yet, so Ψ(h) and Ψ(h′) are both empty (∅)."
        diff = stores_compared(f.store_h, f.store_h_prime)
        equal = f.store_h == f.store_h_prime
        verdict = (f"<b style='color:{ADDED if equal else REMOVED}'>{'equal' if equal else 'different'}</b>"
                   + ("." if equal else f": {esc(diff)}."))
        if planes and f.query_point is not None:
            tt, tv = f.query_point
            return (f"The picture changes: it shows the bitemporal planes of Ψ(h) and Ψ(h′) {f.shows}, "
                    f"the query point τt = {tt}, τv = {tv} marked. The two stores are {verdict}")
        return f"The stores drawn: Ψ(h) and Ψ(h′) {f.shows} — {verdict}"

    def step_html(self, heading: bool = True, *, recorded: bool = False) -> str:
        """The step shown: its title (unless ``heading`` is false: a tour titles its frames itself),
        explanation, the stores drawn and how they compare, and its data (as a list).

        ``recorded``: for a tour, whose picture at a step with a query point is :meth:`planes_svg`
        at that point (:meth:`tour_svg`), and which has no sliders."""
        f = self.frame
        head = (f"<div><b>{'Theorem' if self.proof.item == '5.27' else 'Proposition'} {self.proof.item}</b> on "
                f"<code>{self.realisation.name}</code> — step {self.position + 1} of {len(self.frames)}</div>"
                f"<div style='font-weight:bold;font-size:110%;margin:4px 0'>{notation_html(f.title)}</div>"
                if heading else "")
        return (head + f"<div>{self.explanation_html(recorded=recorded)}</div>"
                f"<div>{self.stores_sentence(planes=recorded)}</div>"
                f"<details><summary>the step's data</summary>{data_html(f.data)}</details>")

    def tour_svg(self) -> bytes:
        """The picture a tour shows at this step: the planes at the step's query point, if it has one
        (the sliders are moved there on arriving), else the two stores of the step."""
        return self.planes_svg() if self.frame.query_point is not None else self.stores_svg()

    def stores_svg(self) -> bytes:
        """The two stores of the step shown, side by side (empty before the first call is recorded)."""
        f = self.frame

        def draw(axes: list[Any]) -> None:
            for ax, s, name in zip(axes, (f.store_h, f.store_h_prime), ("Ψ(h)", "Ψ(h′)")):
                def label(i: Id, s: Store = s) -> str:
                    r = s.records.get(i)
                    if r is None:
                        return i
                    vt = "" if r.valid_time is None else f", τv = {r.valid_time}"
                    return f"{i}: {short(r.content, 18)}\nτt = {r.created_at}{vt}"

                plot_store(s, ax=ax, labels=label, legend=False)
                name_panel(ax, name)

        # at the lecture hall's size a little flatter: the step's sentences above it share the screen
        # (up to eight lines at that size, in the steps of both proofs)
        return render(draw, (9.6, 2.2 if hall(self.scale) else 2.9), ncols=2, scale=self.scale, wspace=0.15)

    def planes_svg(self) -> bytes:
        """The bitemporal planes of Ψ(h) and Ψ(h′), on the same axes whatever the step or the query."""
        def draw(axes: list[Any]) -> None:
            for ax, s, name in zip(axes, self.stores, ("Ψ(h)", "Ψ(h′)")):
                plot_bitemporal_plane(s, tt=self.tt, tv=self.tv, ax=ax, mode=self.mode,  # type: ignore[arg-type]
                                      colour_by="record", limits=self.limits)
                if ax.get_legend():
                    ax.get_legend().remove()
                name_panel(ax, name)

        return render(draw, (9.6, 4.0), ncols=2, left=0.75, bottom=0.65, wspace=0.3, scale=self.scale)

    def _build(self, ui: dict[str, Any]) -> None:
        w = ipywidgets()
        ui["message"] = w.HTML()
        ui["realisation"] = realisation_picker(self.realisation.name)
        self._observe(ui["realisation"], self.set_realisation)
        ui["step"] = w.HTML()
        ui["stores"] = figure_image()
        ui["planes"] = figure_image()
        lo, hi = self.slider_range
        for key, tip in (("tt", "transaction time: when it was believed"), ("tv", "valid time: what it was about")):
            ui[key] = w.IntSlider(value=getattr(self, key), min=lo, max=hi, description="τt" if key == "tt" else "τv",
                                  readout=False, continuous_update=False, tooltip=tip, style=wide())
            self._observe(ui[key], lambda _v: self.query(ui["tt"].value, ui["tv"].value))
        ui["query"] = w.HTML()
        for key in ("step", "stores"):  # the main view: the step of the proof and the two stores
            ui[key].add_class("coalg-main")
        moves = [self._button(ui, "first", "« first step", self.first, tooltip="Back to step 1 of the proof."),
                 self._button(ui, "back", "◀ back", self.back, tooltip="One step back."),
                 self._button(ui, "next", "next ▶", self.next, style="info", tooltip="One step on.")]
        ui["root"] = w.VBox([w.HBox([ui["realisation"], self._size_control(ui)], layout=w.Layout(flex_flow="row wrap")),
                             w.HBox(moves), ui["message"], ui["step"], ui["stores"],
                             w.HTML("<b>The bitemporal plane: what was believed at τt about τv</b>"),
                             w.HBox([ui["tt"], ui["tv"], ui["query"]], layout=w.Layout(flex_flow="row wrap")),
                             ui["planes"], self._session_bar(ui)])

    def _show_position(self) -> None:
        # the planes show the final stores: only a step that moves the query point redraws them
        self._refresh(planes=self.frame.query_point is not None)

    def _draw(self, ui: dict[str, Any], proof: bool = True, planes: bool = True) -> None:
        if proof:
            ui["realisation"].value = self.realisation.name
            ui["step"].value = self.step_html()
            ui["stores"].value = self.stores_svg()
        if not planes:
            return
        lo, hi = self.slider_range
        for key in ("tt", "tv"):
            ui[key].min, ui[key].max = min(lo, getattr(self, key)), max(hi, getattr(self, key))
            ui[key].value = getattr(self, key)
        ui["query"].value = f"query: τt = <b>{self.tt}</b>, τv = <b>{self.tv}</b>"
        ui["planes"].value = self.planes_svg()

    def _idle_disabled(self) -> set[str]:
        last = len(self.frames) - 1
        return {k for k, off in (("button:first", self.position == 0), ("button:back", self.position == 0),
                                 ("button:next", self.position == last)) if off}


_FIELDS = (("content", "content"), ("valid_time", "stored valid time"), ("created_at", "transaction time"),
           ("updated_at", "update time"), ("type", "type"), ("namespace", "namespace"), ("tags", "tags"),
           ("summary", "summary"), ("metadata", "metadata"))


def _show(v: Any) -> str:
    return "none" if v is None else ", ".join(sorted(v)) if isinstance(v, frozenset) else str(v)


def records_compared(a: dict[Id, Record], b: dict[Id, Record]) -> list[str]:
    """How two maps of records differ, one phrase per difference (empty when they are equal)."""
    out = []
    only_a, only_b = sorted(set(a) - set(b)), sorted(set(b) - set(a))
    if only_a:
        out.append(f"only Ψ(h) holds {', '.join(only_a)}")
    if only_b:
        out.append(f"only Ψ(h′) holds {', '.join(only_b)}")
    for i in sorted(set(a) & set(b)):
        if a[i] == b[i]:
            continue
        parts = [f"{name} is {short(_show(getattr(a[i], key)), 24)} in Ψ(h) and "
                 f"{short(_show(getattr(b[i], key)), 24)} in Ψ(h′)"
                 for key, name in _FIELDS if getattr(a[i], key) != getattr(b[i], key)]
        out.append(f"{i}'s " + "; its ".join(parts))
    return out


def answers_compared(a: dict[Id, Record], b: dict[Id, Record]) -> str:
    """The two answers of a query compared: the same, or what differs (content, valid time, both, …)."""
    diffs = records_compared(a, b)
    if not diffs:
        return "the same"
    same_content = sorted(r.content for r in a.values()) == sorted(r.content for r in b.values())
    return ("the same content, but the records differ: " if same_content else "they differ: ") + "; ".join(diffs)


def stores_compared(s: Store, t: Store) -> str:
    """How two stores differ (records, then edges), or ``""`` when they are equal."""
    diffs = records_compared(dict(s.records), dict(t.records))
    if s.edges != t.edges:
        diffs.append(f"{len(s.edges ^ t.edges)} edge(s) are in one store only")
    return "; ".join(diffs)


def _sup(title: str) -> str:
    """A step's title for the message line (plain text): ``^vt`` as the superscript ᵛᵗ."""
    return title.replace("^vt", "ᵛᵗ")
