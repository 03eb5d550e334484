"""Explorers: ipywidgets front ends over the pure library and the plots of :mod:`coalg.viz`.

Each explorer is a class whose methods are the whole behaviour — callable from a
test or a notebook cell without a browser — and whose ``.widget`` (also shown
by displaying the object) is a thin layer of controls that call those methods.

* :class:`DerivationPlayground` — apply operations to a store, see the graph
  and which laws held on this step; undo, redo, export.
* :class:`AncestryExplorer` — ancestry and descendant unfoldings before and
  after a step (Theorem 5.7, Propositions 5.13 and 5.2).
* :class:`BitemporalStepper` — the proof of Theorem 5.27 step by step, then
  Proposition 7.1 on the repaired realisation, and the bitemporal plane.
* :class:`MergeLab` — merged type, namespace and content as the records,
  their order and θ vary (Propositions 5.20, 5.24, 5.25).
* :class:`TenantsLab` — tenant stores, their union, and how they interfere
  (Propositions 6.3, 6.4, 6.6).
* :class:`RefinementStepper` — partition refinement round by round, and
  allocation-blind comparison with its distinguishing witness.

Rules every explorer follows: an invalid action (too few records, nothing
selected, an unknown identifier, malformed JSON) never raises — it leaves the
state alone and puts a sentence in ``.message`` (shown in the widget); figures
are PNG images in ``Image`` widgets, rendered at construction, so a page that
embeds the widget state statically (the web book) shows a meaningful picture.
Python callbacks run only under a live kernel (JupyterLab, Voila).

>>> pg = DerivationPlayground("meeting notes")
>>> report = pg.apply("evolve", ids=["id0005"], content="merged, revised")
>>> report.failed()                     # Proposition 5.14: the evolved record inherits merged_from
('L2',)
>>> pg.apply("merge", ids=["id0001"]) is None, pg.message
(True, 'merge needs at least two records; 1 selected.')
>>> pg.undo()
True
>>> pg.store == DerivationPlayground("meeting notes").store
True
"""

from __future__ import annotations

import functools
import html
import io
import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from ..bisim import (
    allocation_blind_bisimilar,
    allocation_blind_witness,
    distinguish,
    refinement_rounds,
)
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
from ..composition import inclusion_failures, interference, tenants
from ..errors import CoalgError
from ..laws import TITLES, StepReport, check_step, show_call, show_letter
from ..model import (
    CONTEXTFS,
    DEFAULT_THETA,
    Allocation,
    Call,
    Created,
    Delete,
    Err,
    Evolve,
    Id,
    Letter,
    Merge,
    Output,
    Realisation,
    Record,
    Save,
    SaveAt,
    Split,
    Supersede,
    Theta,
    Unfolding,
    ancestry,
    call_to_json,
    descendants,
    get_realisation,
    loads_store,
    output_to_json,
    preset,
    refinement_example,
    run,
    store_from_json,
    store_to_json,
)
from ..model import names as preset_names
from ..model.store import EMPTY, Store, UnionUndefined, disjoint_union, mention_disjoint_union
from .. import viz

__all__ = [
    "OPERATIONS",
    "AncestryExplorer",
    "BitemporalStepper",
    "DerivationPlayground",
    "MergeLab",
    "RefinementStepper",
    "TenantsLab",
    "next_allocation",
    "render_png",
]

OPERATIONS = ("save", "evolve", "merge", "split", "supersede", "delete", "save_at")
"""The operations the playground offers, in button order."""

DPI = 72
"""Resolution of the explorers' images (a redraw must stay well under 150 ms)."""

F = TypeVar("F", bound=Callable[..., Any])


# =========================================================================== shared helpers


def render_png(draw: Callable[[Any], Any], figsize: tuple[float, float], *, ncols: int = 1,
               nrows: int = 1, legend: float = 0.0, left: float = 0.3, wspace: float = 0.25,
               dpi: int = DPI) -> bytes:
    """Draw with ``draw(axes)`` on a new figure (no pyplot state) and return the PNG bytes.

    ``axes`` is one ``Axes`` for a 1×1 grid, else the flat list.  Margins are
    fixed, in inches (no tight bounding box, which would draw the figure twice):
    ``left`` for tick labels, ``legend`` on the right for a legend outside the axes.
    """
    from matplotlib.figure import Figure

    w, h = figsize
    fig = Figure(figsize=figsize)
    grid = fig.subplots(nrows, ncols, squeeze=False)
    axes = [ax for row in grid for ax in row]
    fig.subplots_adjust(left=left / w, right=1 - (legend + 0.15) / w, bottom=0.5 / h, top=1 - 0.3 / h,
                        wspace=wspace, hspace=0.6 / (h / nrows))
    draw(axes[0] if len(axes) == 1 else axes)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi)
    return buf.getvalue()


def store_png(store: Store, *, highlight: Iterable[Any] = (), labels: Any = "id",
              width: float = 7.5) -> bytes:
    """The store graph (:func:`coalg.viz.plot_store`) as PNG bytes, legend on the right."""
    h = viz.graph_figsize(viz.store_layout(store))[1]  # height grows with the tallest column
    return render_png(lambda ax: viz.plot_store(store, ax=ax, highlight=list(highlight), labels=labels),
                      (width, h), legend=1.9)


def next_allocation(stores: Iterable[Store], letter: Letter, clocks: Iterable[int] = ()) -> Allocation:
    """A deterministic, strictly fresh allocation for ``letter`` after the stores of a session.

    Identifiers ``id0001, id0002, …`` skipping every identifier any of ``stores``
    mentions (so an identifier freed by a delete is never handed out again); the
    clock is one more than every clock reading seen (records' times and ``clocks``).
    """
    from ..model import creates

    seen: set[Id] = set()
    top = 0
    for s in stores:
        seen |= s.occ()
        for r in s.records.values():
            for t in (r.created_at, r.updated_at):
                if t is not None:
                    top = max(top, t)
    top = max([top, *clocks])
    out: list[Id] = []
    k = 0
    while len(out) < creates(letter):
        k += 1
        j = f"id{k:04d}"
        if j not in seen:
            out.append(j)
    return Allocation(tuple(out), top + 1)


def _safe(method: F) -> F:
    """Run a method; on an unexpected exception show it as the widget's message and return ``None``."""

    @functools.wraps(method)
    def wrapper(self: _Explorer, *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        except Exception as e:  # noqa: BLE001 — an explorer never raises at its reader
            self._say(f"{type(e).__name__}: {e}", error=True)
            return None

    return wrapper  # type: ignore[return-value]


def _esc(x: object) -> str:
    return html.escape(str(x))


def _short(text: str, n: int = 40) -> str:
    text = text.replace("\n", " ")
    return text if len(text) <= n else text[: n - 1] + "…"


def _theta_text(theta: Theta) -> str:
    parts = []
    if theta.type_priority:
        parts.append("types " + " ≺ ".join(theta.type_priority))
    if theta.id_priority:
        parts.append("ids " + " ≺ ".join(theta.id_priority))
    parts.append("descending" if theta.descending else "ascending")
    return "θ: " + ", ".join(parts)


def _output_text(o: Output) -> str:
    if isinstance(o, Err):
        return f"err: {o.reason}"
    if isinstance(o, Created):
        return "created " + ", ".join(o.ids)
    return json.dumps(output_to_json(o), ensure_ascii=False)


class _Explorer:
    """Shared plumbing: a message line, lazy ipywidgets, display."""

    message: str = ""
    _ui: Any = None

    def _say(self, text: str, *, error: bool = False) -> None:
        self.message = text
        self.message_is_error = error
        if self._ui is not None:
            self._show_message()

    def _show_message(self) -> None:
        colour = viz.REMOVED if getattr(self, "message_is_error", False) else "#333333"
        self._ui["message"].value = (
            f"<div style='color:{colour};min-height:1.4em'>{_esc(self.message)}</div>"
        )

    @property
    def widget(self) -> Any:
        """The ipywidgets front end (built on first use)."""
        if self._ui is None:
            self._ui = {}
            self._build()
            self._refresh()
        return self._ui["root"]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "_refresh" in cls.__dict__:
            inner = cls.__dict__["_refresh"]

            @functools.wraps(inner)
            def guarded(self: _Explorer, *args: Any, **kw: Any) -> Any:
                was, self._busy = self._busy, True
                try:
                    return inner(self, *args, **kw)
                finally:
                    self._busy = was

            cls._refresh = guarded  # type: ignore[method-assign]

    def _build(self) -> None:  # pragma: no cover - overridden
        raise NotImplementedError

    def _refresh(self) -> None:  # pragma: no cover - overridden
        raise NotImplementedError

    _busy: bool = False

    def _observe(self, control: Any, handler: Callable[[Any], Any]) -> None:
        """Call ``handler(new value)`` when the reader changes ``control`` (not when a refresh does)."""

        def on_change(change: dict[str, Any]) -> None:
            if not self._busy:
                handler(change["new"])

        control.observe(on_change, names="value")

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.widget)  # type: ignore[no-untyped-call]

    def _image(self, key: str, png: bytes) -> None:
        if self._ui is not None:
            self._ui[key].value = png


def _w() -> Any:
    import ipywidgets  # type: ignore[import-untyped]

    return ipywidgets


def _button(text: str, handler: Callable[[], Any], *, tooltip: str = "", style: str = "") -> Any:
    w = _w()
    b = w.Button(description=text, tooltip=tooltip or text, button_style=style,
                 layout=w.Layout(width="auto"))
    b.on_click(lambda _b: handler())
    return b


def _image_widget() -> Any:
    """An ``Image`` for a PNG figure, shown at its natural size (a flex box would stretch and blur it)."""
    w = _w()
    return w.Image(format="png", layout=w.Layout(max_width="100%", width="auto", align_self="flex-start"))


def _html_table(rows: Sequence[Sequence[str]], header: Sequence[str] | None = None) -> str:
    head = "" if header is None else "<tr>" + "".join(f"<th style='text-align:left;padding:2px 8px'>{h}</th>"
                                                      for h in header) + "</tr>"
    body = "".join("<tr>" + "".join(f"<td style='padding:2px 8px;vertical-align:top'>{c}</td>" for c in r)
                   + "</tr>" for r in rows)
    return f"<table style='border-collapse:collapse;font-size:90%'>{head}{body}</table>"


# =========================================================================== 1. derivation playground


@dataclass(frozen=True)
class Step:
    """One recorded step of the playground: the call, where it ran, and what the laws said."""

    call: Call
    realisation: str
    theta: Theta
    output: Output
    before: Store
    after: Store
    report: StepReport

    def to_json(self) -> dict[str, Any]:
        return {"call": call_to_json(self.call), "realisation": self.realisation,
                "theta": self.theta.as_dict(), "output": output_to_json(self.output),
                "laws": {r.clause: r.status for r in self.report.results}}


class DerivationPlayground(_Explorer):
    """Apply save, evolve, merge, split, supersede, delete and save-at to a store; see the laws per step.

    Parameters
    ----------
    start : str or Store
        A preset name (:mod:`coalg.model.examples`) or a store.
    realisation : str
        ``"contextfs"`` (the ContextFS a93035d model) or ``"repaired"``.

    Behaviour (all callable headlessly): :meth:`apply`, :meth:`undo`,
    :meth:`redo`, :meth:`reset`, :meth:`load_preset`, :meth:`load_json`,
    :meth:`set_realisation`, :meth:`set_theta`, :meth:`replay`, :meth:`export`.
    Allocations come from :func:`next_allocation`, so a session is replayable
    from its exported word.  The realisation and θ in force when a call is made
    are recorded with it; changing them affects later calls (``replay`` re-runs
    the whole word under the current choice).
    """

    def __init__(self, start: str | Store = "meeting notes", *, realisation: str = "contextfs",
                 theta: Theta = DEFAULT_THETA) -> None:
        self.realisation: Realisation = get_realisation(realisation)
        self.theta = theta
        self.start_name = start if isinstance(start, str) else "custom"
        self.start: Store = preset(start) if isinstance(start, str) else start
        self.steps: list[Step] = []
        self.redo_stack: list[tuple[Call, str, Theta]] = []
        self.message = "Pick identifiers and press an operation."
        self.message_is_error = False

    # ----------------------------------------------------------------- state
    @property
    def store(self) -> Store:
        """The current store."""
        return self.steps[-1].after if self.steps else self.start

    @property
    def word(self) -> list[Call]:
        return [st.call for st in self.steps]

    @property
    def last(self) -> Step | None:
        return self.steps[-1] if self.steps else None

    @property
    def state(self) -> dict[str, Any]:
        """A JSON-ready summary: what a test or a reader checks."""
        last = self.last
        return {
            "realisation": self.realisation.name,
            "theta": self.theta.as_dict(),
            "records": sorted(self.store.dom()),
            "edges": len(self.store.edges),
            "word": [show_call(c) for c in self.word],
            "can_undo": bool(self.steps),
            "can_redo": bool(self.redo_stack),
            "laws": None if last is None else {r.clause: r.status for r in last.report.results},
            "message": self.message,
        }

    def highlight(self) -> list[Any]:
        """What the graph emphasises: the records the last step created or changed, and its new edges."""
        last = self.last
        if last is None:
            return []
        b, a = last.before, last.after
        ids = [i for i in a.dom() if i not in b.records or b.records[i] != a.records[i]]
        return sorted(ids) + sorted(a.edges - b.edges)

    # ----------------------------------------------------------------- actions
    def _letter(self, kind: str, ids: Sequence[Id], content: str | None, type_: str | None,
                namespace: str | None, by_prefix: bool) -> Letter | str:
        """The letter for an operation, or the sentence saying why the action is invalid."""
        s = self.store
        ids = [str(i).strip() for i in ids if i is not None and str(i).strip()]
        if kind not in OPERATIONS:
            return f"unknown operation {kind!r}; choose one of {', '.join(OPERATIONS)}."
        need = {"save": 0, "evolve": 1, "split": 1, "delete": 1, "save_at": 1, "supersede": 2}
        if kind == "merge" and len(ids) < 2:
            return f"merge needs at least two records; {len(ids)} selected."
        if kind in need and len(ids) != need[kind]:
            if need[kind] == 0:
                ids = []
            elif not ids:
                return f"{kind} needs {'a record' if need[kind] == 1 else 'two records (old, new)'}: select " \
                       f"{'one' if need[kind] == 1 else 'two'} first."
            else:
                return f"{kind} takes {need[kind]} record(s); {len(ids)} selected."
        if not by_prefix and kind != "supersede":
            unknown = [i for i in ids if i not in s.records]
            if unknown:
                return f"unknown identifier {', '.join(unknown)}: the store holds no record there."
        if kind == "merge" and len(set(ids)) != len(ids):
            return "merge: each record may be named once."
        text = (content or "").strip()
        if kind == "save":
            return Save(Record(text or "a new note", type=type_ or "fact", namespace=namespace or "alice"))
        if kind == "save_at":
            old = s.records.get(ids[0])
            return SaveAt(ids[0], Record(text or "replaced content", type=type_ or (old.type if old else "fact"),
                                         namespace=namespace or (old.namespace if old else "alice")))
        if kind == "evolve":
            return Evolve(ids[0], text or f"{ids[0]}, revised", by_prefix=by_prefix)
        if kind == "merge":
            return Merge(tuple(ids), content=text or None, type=type_ or None, by_prefix=by_prefix)
        if kind == "split":
            parts = [p.strip() for p in (text.split("|") if text else []) if p.strip()]
            if not parts:
                parts = [f"{ids[0]}, part 1", f"{ids[0]}, part 2"]
            if len(parts) < 2:
                return "split needs at least two parts: separate them with '|'."
            return Split(ids[0], tuple(parts), by_prefix=by_prefix)
        if kind == "supersede":
            return Supersede(ids[0], ids[1])
        return Delete(ids[0], by_prefix=by_prefix)

    @_safe
    def apply(self, kind: str, ids: Sequence[Id] = (), content: str | None = None, *,
              type: str | None = None, namespace: str | None = None,
              by_prefix: bool = False) -> StepReport | None:
        """Apply one operation; returns the step's law report, or ``None`` (with :attr:`message`) if invalid.

        ``ids`` are the identifiers in argument order (merge: the arguments;
        supersede: ``[old, new]``); ``content`` is the new content (split: parts
        separated by ``|``).  A call the realisation refuses (output ``err``)
        leaves the store and the word unchanged and says why.
        """
        letter = self._letter(kind, ids, content, type, namespace, by_prefix)
        if isinstance(letter, str):
            self._say(letter, error=True)
            return None
        return self._run(Call(letter, self._allocate(letter)), self.realisation, self.theta, clear_redo=True)

    def _allocate(self, letter: Letter) -> Allocation:
        stores = [self.start] + [st.after for st in self.steps]
        return next_allocation(stores, letter, [st.call.allocation.clock for st in self.steps])

    def _run(self, call: Call, realisation: Realisation, theta: Theta, *, clear_redo: bool) -> StepReport | None:
        before = self.store
        out, after = realisation.step(before, call.letter, call.allocation, theta=theta, faults=call.faults)
        if isinstance(out, Err):
            self._say(f"{realisation.name} refused {show_call(call)}: {out.reason}. The store is unchanged "
                      "and the call was not added to the word.", error=True)
            self._refresh()
            return None
        report = check_step(realisation, before, call, out, after, theta=theta)
        self.steps.append(Step(call, realisation.name, theta, out, before, after, report))
        if clear_redo:
            self.redo_stack.clear()
        failed = report.failed()
        self._say(f"{show_call(call)} → {_output_text(out)}. "
                  + (f"Failed on this step: {', '.join(failed)}." if failed else "No clause failed on this step."))
        self._refresh()
        return report

    @_safe
    def undo(self) -> bool:
        """Take back the last step (it can be redone)."""
        if not self.steps:
            self._say("nothing to undo.", error=True)
            return False
        st = self.steps.pop()
        self.redo_stack.append((st.call, st.realisation, st.theta))
        self._say(f"undid {show_call(st.call)}.")
        self._refresh()
        return True

    @_safe
    def redo(self) -> bool:
        """Apply again the last step taken back, with its allocation, realisation and θ."""
        if not self.redo_stack:
            self._say("nothing to redo.", error=True)
            return False
        call, name, theta = self.redo_stack.pop()
        return self._run(call, get_realisation(name), theta, clear_redo=False) is not None

    @_safe
    def reset(self) -> None:
        """Back to the start store, with an empty word."""
        self.steps.clear()
        self.redo_stack.clear()
        self._say("back to the start store.")
        self._refresh()

    @_safe
    def load_preset(self, name: str) -> bool:
        if name not in preset_names():
            self._say(f"unknown preset {name!r}; known: {', '.join(preset_names())}.", error=True)
            return False
        self.start, self.start_name = preset(name), name
        self.steps.clear()
        self.redo_stack.clear()
        self._say(f"loaded the preset {name!r}: {len(self.start.records)} records.")
        self._refresh()
        return True

    @_safe
    def load_json(self, text: str | bytes) -> bool:
        """Load a store from JSON text (a ``coalg-store`` document, or an export of this playground)."""
        try:
            if isinstance(text, bytes | bytearray | memoryview):
                text = bytes(text).decode("utf-8")
            obj = json.loads(text)
            if isinstance(obj, dict) and obj.get("format") == "coalg-playground":
                store = store_from_json(obj["store"])
            else:
                store = loads_store(text)
        except (CoalgError, ValueError, TypeError, UnicodeDecodeError) as e:
            self._say(f"could not load that JSON: {e}", error=True)
            return False
        self.start, self.start_name = store, "loaded JSON"
        self.steps.clear()
        self.redo_stack.clear()
        self._say(f"loaded a store of {len(store.records)} records and {len(store.edges)} edges.")
        self._refresh()
        return True

    @_safe
    def set_realisation(self, name: str) -> bool:
        try:
            self.realisation = get_realisation(name)
        except KeyError as e:
            self._say(str(e.args[0]), error=True)
            return False
        self._say(f"later calls run on {name}.")
        self._refresh()
        return True

    @_safe
    def set_theta(self, type_priority: Sequence[str] | str = (), descending: bool = False) -> Theta:
        if isinstance(type_priority, str):
            type_priority = [t.strip() for t in type_priority.split(",") if t.strip()]
        self.theta = Theta(type_priority=tuple(type_priority), descending=bool(descending))
        self._say(f"later calls use {_theta_text(self.theta)}.")
        self._refresh()
        return self.theta

    @_safe
    def replay(self) -> bool:
        """Run the recorded word again from the start store under the current realisation and θ."""
        calls = self.word
        self.steps.clear()
        self.redo_stack.clear()
        refused = []
        for c in calls:
            if self._run(c, self.realisation, self.theta, clear_redo=False) is None:
                refused.append(show_call(c))
        self._say(f"replayed {len(calls)} call(s) on {self.realisation.name}"
                  + (f"; refused: {'; '.join(refused)}." if refused else "."), error=bool(refused))
        self._refresh()
        return not refused

    def export(self) -> dict[str, Any]:
        """The session as JSON-ready data: start store, word (calls with allocations), steps, final store."""
        return {
            "format": "coalg-playground",
            "version": 1,
            "start": store_to_json(self.start),
            "word": [call_to_json(c) for c in self.word],
            "steps": [st.to_json() for st in self.steps],
            "store": store_to_json(self.store),
        }

    def export_json(self) -> str:
        return json.dumps(self.export(), ensure_ascii=False, indent=1, sort_keys=True)

    # ----------------------------------------------------------------- views
    def figure_png(self) -> bytes:
        return store_png(self.store, highlight=self.highlight())

    def laws_html(self) -> str:
        last = self.last
        if last is None:
            return "<i>No step yet: the law panel shows which clauses held on the last call.</i>"
        mark = {"held": "<span style='color:#009E73'>✓ held</span>",
                "failed": f"<b style='color:{viz.REMOVED}'>✗ failed</b>", "n/a": "<span style='color:#7f7f7f'>– n/a</span>"}
        rows = [[f"<b>{r.clause}</b> {_esc(TITLES[r.clause])}", mark[r.status], _esc(r.explanation)
                 + ("" if not r.witness or r.status != "failed" else
                    f"<br><code style='font-size:85%'>{_esc(json.dumps(r.witness, ensure_ascii=False)[:400])}</code>")]
                for r in last.report.results]
        return (f"<div><b>Laws on the last step</b> — {_esc(show_call(last.call))} on {last.realisation}</div>"
                + _html_table(rows))

    def word_html(self) -> str:
        if not self.steps:
            return f"<i>start: {_esc(self.start_name)}; the word is empty.</i>"
        items = "".join(f"<li><code>{_esc(show_call(st.call))}</code> → {_esc(_short(_output_text(st.output), 60))}"
                        f" <span style='color:#7f7f7f'>({st.realisation})</span></li>" for st in self.steps)
        return f"<div>start: {_esc(self.start_name)}</div><ol style='margin:0'>{items}</ol>"

    def _build(self) -> None:
        w = _w()
        ui = self._ui
        ui["message"] = w.HTML()
        ui["preset"] = w.Dropdown(options=list(preset_names()), value=self.start_name
                                  if self.start_name in preset_names() else None, description="preset")
        self._observe(ui["preset"], lambda v: self.load_preset(v) if v else None)
        ui["json"] = w.Textarea(placeholder='paste a coalg-store JSON document here', layout=w.Layout(width="40%"))
        ui["upload"] = w.FileUpload(accept=".json", multiple=False, description="upload JSON")
        ui["upload"].observe(self._on_upload, names="value")
        load = _button("load JSON", lambda: self.load_json(ui["json"].value))
        ui["realisation"] = w.ToggleButtons(options=["contextfs", "repaired"], value=self.realisation.name,
                                            description="realisation")
        self._observe(ui["realisation"], self.set_realisation)
        ui["types"] = w.Text(placeholder="e.g. decision, fact", description="θ types first")
        ui["descending"] = w.Checkbox(value=False, description="θ descending")
        set_theta = _button("set θ", lambda: self.set_theta(ui["types"].value, ui["descending"].value))
        ui["ids"] = w.SelectMultiple(options=[], rows=7, description="records")
        ui["reverse"] = w.Checkbox(value=False, description="reverse argument order")
        ui["content"] = w.Text(placeholder="new content (split: parts separated by |)", description="content")
        ui["type"] = w.Text(value="", placeholder="type (save, merge)", description="type")
        ui["namespace"] = w.Text(value="", placeholder="namespace (save)", description="namespace")
        ops = [_button(k.replace("_", " "), functools.partial(self._click, k), style="info") for k in OPERATIONS]
        for b, k in zip(ops, OPERATIONS):
            b.add_class(f"coalg-op-{k}")
        history = [_button("undo", self.undo), _button("redo", self.redo), _button("reset", self.reset),
                   _button("replay word here", self.replay), _button("export", self._export_clicked)]
        ui["export"] = w.Textarea(layout=w.Layout(width="100%", height="8em"), placeholder="export appears here")
        ui["graph"] = _image_widget()
        ui["graph"].add_class("coalg-graph")
        ui["laws"] = w.HTML()
        ui["word"] = w.HTML()
        ui["theta"] = w.HTML()
        ui["root"] = w.VBox([
            w.HBox([ui["preset"], ui["upload"]]),
            w.HBox([ui["json"], load]),
            ui["realisation"],
            w.HBox([ui["types"], ui["descending"], set_theta, ui["theta"]]),
            w.HBox([ui["ids"], w.VBox([ui["content"], ui["type"], ui["namespace"], ui["reverse"]])]),
            w.HBox(ops),
            w.HBox(history),
            ui["message"],
            ui["graph"],
            w.HBox([w.VBox([ui["laws"]], layout=w.Layout(width="62%")),
                    w.VBox([ui["word"]], layout=w.Layout(width="38%"))]),
            ui["export"],
        ])

    def _selected(self) -> list[Id]:
        ids = list(self._ui["ids"].value)
        return ids[::-1] if self._ui["reverse"].value else ids

    def _click(self, kind: str) -> None:
        ui = self._ui
        self.apply(kind, self._selected() if kind != "save" else [], ui["content"].value,
                   type=ui["type"].value or None, namespace=ui["namespace"].value or None)

    def _export_clicked(self) -> None:
        self._ui["export"].value = self.export_json()
        self._say("exported the word and the store as JSON (below).")

    def _on_upload(self, change: dict[str, Any]) -> None:
        files = change.get("new") or ()
        if not files:
            return
        f = files[0] if isinstance(files, (list, tuple)) else next(iter(files.values()))
        self.load_json(bytes(f["content"]))

    def _refresh(self) -> None:
        if self._ui is None:
            return
        ui = self._ui
        s = self.store
        keep = [i for i in ui["ids"].value if i in s.records]  # the selection survives a step
        ui["ids"].options = [(f"{i}  {_short(r.content, 30)} ({r.namespace})", i) for i, r in s.records.items()]
        ui["ids"].value = tuple(keep)
        ui["realisation"].value = self.realisation.name
        ui["theta"].value = f"<span style='color:#555'>{_esc(_theta_text(self.theta))}</span>"
        ui["graph"].value = self.figure_png()
        ui["laws"].value = self.laws_html()
        ui["word"].value = self.word_html()
        self._show_message()


# =========================================================================== 2. ancestry vs descendants


class AncestryExplorer(_Explorer):
    """Ancestry and descendant unfoldings of one record, before and after a step.

    Evolve, merge or split anything: the focus record's ancestry ⟦i⟧⁻ does not
    change (Theorem 5.7) while its descendants may grow (Proposition 5.13).
    Delete one of its ancestors: its ancestry changes (Proposition 5.2).
    Methods: :meth:`select`, :meth:`evolve`, :meth:`merge_with`, :meth:`split`,
    :meth:`delete`, :meth:`reset`.
    """

    def __init__(self, start: str | Store = "meeting notes", focus: Id | None = None) -> None:
        self.start_name = start if isinstance(start, str) else "custom"
        self.initial = preset(start) if isinstance(start, str) else start
        self.before = self.after = self.initial
        ids = sorted(self.initial.dom())
        self.focus: Id = focus if focus is not None else (
            "id0004" if "id0004" in self.initial.records else (ids[0] if ids else ""))
        self.last: str = "no step yet"
        self.clocks: list[int] = []
        self.message = "Choose a record, then derive from it — or delete one of its ancestors."
        self.message_is_error = False

    # ----------------------------------------------------------------- state
    def unfoldings(self) -> dict[str, Unfolding]:
        i = self.focus
        return {"ancestry_before": ancestry(self.before, i), "ancestry_after": ancestry(self.after, i),
                "descendants_before": descendants(self.before, i), "descendants_after": descendants(self.after, i)}

    @property
    def state(self) -> dict[str, Any]:
        u = self.unfoldings()
        da = viz.unfolding_diff(u["descendants_before"], u["descendants_after"])
        aa = viz.unfolding_diff(u["ancestry_before"], u["ancestry_after"])
        return {
            "focus": self.focus,
            "last": self.last,
            "ancestry_unchanged": u["ancestry_before"] == u["ancestry_after"],
            "ancestry_removed": sorted({i for i, _ in aa["removed_nodes"]}),
            "descendants_added": sorted({i for i, _ in da["added_nodes"]}),
            "descendants_unchanged": u["descendants_before"] == u["descendants_after"],
            "records": sorted(self.after.dom()),
            "message": self.message,
        }

    def verdict_html(self) -> str:
        st = self.state
        if self.last == "no step yet":
            return "<i>No step yet: both columns show the same store.</i>"
        lines = []
        if st["ancestry_unchanged"]:
            lines.append(f"⟦{_esc(self.focus)}⟧⁻ is <b>unchanged</b> — Theorem 5.7 (ancestry is stable under "
                         "fresh saves and derivations).")
        else:
            lines.append(f"⟦{_esc(self.focus)}⟧⁻ <b style='color:{viz.REMOVED}'>changed</b>: lost "
                         f"{_esc(', '.join(st['ancestry_removed']) or 'an edge')} — Proposition 5.2 (delete breaks "
                         "ancestry).")
        if st["descendants_added"]:
            lines.append(f"Its descendants <b style='color:{viz.ADDED}'>grew</b>: "
                         f"{_esc(', '.join(st['descendants_added']))} — Proposition 5.13 (full lineage is not "
                         "stable).")
        elif st["descendants_unchanged"]:
            lines.append("Its descendants are unchanged.")
        else:
            lines.append("Its descendants changed.")
        return f"<div>last step: <code>{_esc(self.last)}</code></div><ul><li>" + "</li><li>".join(lines) + "</li></ul>"

    # ----------------------------------------------------------------- actions
    def _check(self, *ids: Id) -> bool:
        missing = [i for i in ids if i not in self.after.records]
        if not ids or not all(ids):
            self._say("select a record first.", error=True)
            return False
        if missing:
            self._say(f"unknown identifier {', '.join(missing)}: the store holds no record there.", error=True)
            return False
        return True

    def _step(self, letter: Letter) -> bool:
        xi = next_allocation([self.initial, self.before, self.after], letter, self.clocks)
        out, nxt = CONTEXTFS.step(self.after, letter, xi)
        if isinstance(out, Err):
            self._say(f"refused: {out.reason}", error=True)
            return False
        self.clocks.append(xi.clock)
        self.before, self.after = self.after, nxt
        self.last = show_letter(letter)
        self._say(f"{self.last} → {_output_text(out)}")
        self._refresh()
        return True

    @_safe
    def select(self, i: Id) -> bool:
        if i not in self.after.ids():
            self._say(f"unknown identifier {i!r}.", error=True)
            return False
        self.focus = i
        self._say(f"focus on {i}.")
        self._refresh()
        return True

    @_safe
    def evolve(self, content: str | None = None, target: Id | None = None) -> bool:
        i = target or self.focus
        return self._check(i) and self._step(Evolve(i, content or f"{i}, revised"))

    @_safe
    def merge_with(self, other: Id) -> bool:
        if other == self.focus:
            self._say("merge needs two different records.", error=True)
            return False
        return self._check(self.focus, other) and self._step(Merge((self.focus, other)))

    @_safe
    def split(self, parts: Sequence[str] = ()) -> bool:
        i = self.focus
        parts = list(parts) or [f"{i}, part 1", f"{i}, part 2"]
        if len(parts) < 2:
            self._say("split needs at least two parts.", error=True)
            return False
        return self._check(i) and self._step(Split(i, tuple(parts)))

    @_safe
    def delete(self, victim: Id) -> bool:
        return self._check(victim) and self._step(Delete(victim))

    @_safe
    def reset(self, start: str | None = None) -> bool:
        if start is not None:
            if start not in preset_names():
                self._say(f"unknown preset {start!r}.", error=True)
                return False
            self.initial, self.start_name = preset(start), start
            if self.focus not in self.initial.records:
                self.focus = min(self.initial.dom(), default="")
        self.before = self.after = self.initial
        self.last = "no step yet"
        self.clocks.clear()
        self._say("reset.")
        self._refresh()
        return True

    # ----------------------------------------------------------------- views
    def figure_png(self) -> bytes:
        u = self.unfoldings()
        lay = [viz.unfolding_layout(x) for x in u.values()]
        width = max(max((p[0] for p in q), default=0.0) + 1 for q in lay)
        depth = max(-min((p[1] for p in q), default=0.0) + 1 for q in lay)
        figsize = (max(7.5, 2 * (1.6 * width + 1)), 2 * max(2.2, 0.95 * depth + 0.9))

        def draw(axes: list[Any]) -> None:
            i = self.focus
            viz.plot_unfoldings(u["ancestry_before"], u["ancestry_after"], axes=axes[0:2],
                                title_left=f"ancestry of {i}, before", title_right=f"ancestry of {i}, after")
            viz.plot_unfoldings(u["descendants_before"], u["descendants_after"], axes=axes[2:4],
                                title_left=f"descendants of {i}, before",
                                title_right=f"descendants of {i}, after")

        return render_png(draw, figsize, ncols=2, nrows=2)

    def _build(self) -> None:
        w = _w()
        ui = self._ui
        ui["message"] = w.HTML()
        ui["preset"] = w.Dropdown(options=list(preset_names()), description="preset",
                                  value=self.start_name if self.start_name in preset_names() else None)
        self._observe(ui["preset"], lambda v: self.reset(v) if v else None)
        ui["focus"] = w.Dropdown(options=[], description="record")
        self._observe(ui["focus"], lambda v: self.select(v) if v and v != self.focus else None)
        ui["other"] = w.Dropdown(options=[], description="other")
        ui["content"] = w.Text(placeholder="new content", description="content")
        buttons = [
            _button("evolve it", lambda: self.evolve(ui["content"].value or None), style="info"),
            _button("split it", lambda: self.split(), style="info"),
            _button("merge it with other", lambda: self.merge_with(ui["other"].value), style="info"),
            _button("delete other", lambda: self.delete(ui["other"].value), style="warning"),
            _button("reset", lambda: self.reset()),
        ]
        ui["figure"] = _image_widget()
        ui["verdict"] = w.HTML()
        ui["root"] = w.VBox([w.HBox([ui["preset"], ui["focus"], ui["other"]]), ui["content"], w.HBox(buttons),
                             ui["message"], ui["verdict"], ui["figure"]])

    def _refresh(self) -> None:
        if self._ui is None:
            return
        ui = self._ui
        ids = sorted(self.after.dom())
        opts = [(f"{i}  {_short(self.after.records[i].content, 28)}", i) for i in ids]
        focus_opts = opts if self.focus in self.after.records else opts + [(f"{self.focus} (deleted)", self.focus)]
        ui["focus"].options = focus_opts
        ui["focus"].value = self.focus if self.focus else None
        ui["other"].options = opts
        ui["figure"].value = self.figure_png()
        ui["verdict"].value = self.verdict_html()
        self._show_message()


# =========================================================================== 3. bitemporal proof stepper


@dataclass(frozen=True)
class Frame:
    """One position of the stepper: a proof step (or one call of the recording step) and the two stores."""

    title: str
    explanation: str
    data: Any
    store_h: Store
    store_h_prime: Store


class BitemporalStepper(_Explorer):
    """Walk through Theorem 5.27 (ContextFS) or Proposition 7.1 (repaired) on a pair h ∼vt h′.

    The "recording" step of the proof is expanded call by call: the two stores
    after each call are drawn side by side, equal on ContextFS and different on
    the repaired realisation.  Below, the bitemporal plane of Ψ(h) and Ψ(h′)
    answers :func:`coalg.bitemporal.core.believed` at the query (τt, τv).
    Methods: :meth:`next`, :meth:`back`, :meth:`goto`, :meth:`set_realisation`, :meth:`query`.
    """

    def __init__(self, h: History | None = None, h_prime: History | None = None, *,
                 realisation: str = "contextfs", mode: str = "current") -> None:
        if h is None:
            h, h2 = meeting_example()
            h_prime = h_prime or h2
        self.h: History = h
        self.h_prime: History = h_prime if h_prime is not None else shifted(h)
        self.mode = mode
        self.index = 0
        self.tt, self.tv = 5, 3
        self.message = "Step through the proof with back / next."
        self.message_is_error = False
        self._set(realisation)

    def _set(self, name: str) -> None:
        self.realisation = get_realisation(name)
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
                          a.store, b.store)
                    for k, (a, b) in enumerate(zip(r1.steps, r2.steps))]

        frames: list[Frame] = []
        for step in self.proof.steps:
            if step.title.startswith("Recording"):
                frames += per_call(step.explanation, step.data["calls"])
                continue
            frames.append(Frame(step.title, step.explanation, step.data, *final))
            if step.title.startswith("The valid-time channel") and self.proof.item == "7.1":
                frames += per_call("Ψ^vt is the same left fold, but each created record now stores the "
                                   "call's valid time, so the two runs part where τv differs.", None)
        self.frames = frames
        self.index = min(self.index, len(frames) - 1)
        self.stores = final

    # ----------------------------------------------------------------- state
    @property
    def frame(self) -> Frame:
        return self.frames[self.index]

    def answers(self) -> tuple[dict[Id, Record], dict[Id, Record]]:
        s1, s2 = self.stores
        return (believed(s1, self.tt, self.tv, mode=self.mode),  # type: ignore[arg-type]
                believed(s2, self.tt, self.tv, mode=self.mode))  # type: ignore[arg-type]

    @property
    def state(self) -> dict[str, Any]:
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
    @_safe
    def goto(self, k: int) -> bool:
        if not 0 <= k < len(self.frames):
            self._say(f"there are {len(self.frames)} steps (0 … {len(self.frames) - 1}); {k} is not one.",
                      error=True)
            return False
        self.index = k
        self._say(f"step {k + 1} of {len(self.frames)}: {self.frame.title}")
        self._refresh()
        return True

    def next(self) -> bool:
        if self.index + 1 >= len(self.frames):
            self._say("this is the last step of the proof.", error=True)
            return False
        return bool(self.goto(self.index + 1))

    def back(self) -> bool:
        if self.index == 0:
            self._say("this is the first step.", error=True)
            return False
        return bool(self.goto(self.index - 1))

    @_safe
    def set_realisation(self, name: str) -> bool:
        try:
            self._set(name)
        except KeyError as e:
            self._say(str(e.args[0]), error=True)
            return False
        self._say(f"now Proposition {self.proof.item} on {name}." if self.proof.item == "7.1"
                  else f"now Theorem {self.proof.item} on {name}.")
        self._refresh()
        return True

    @_safe
    def query(self, tt: int, tv: int) -> tuple[list[str], list[str]]:
        self.tt, self.tv = int(tt), int(tv)
        a1, a2 = self.answers()
        self._say(f"believed at τt = {tt} about τv = {tv}: h → {[r.content for r in a1.values()]}, "
                  f"h′ → {[r.content for r in a2.values()]}" + ("" if a1 == a2 else " — they differ."))
        self._refresh(proof=False)
        return [r.content for r in a1.values()], [r.content for r in a2.values()]

    # ----------------------------------------------------------------- views
    def step_html(self) -> str:
        f = self.frame
        data = json.dumps(f.data, ensure_ascii=False, indent=1, default=str)
        if len(data) > 2500:
            data = data[:2500] + "\n…"
        equal = f.store_h == f.store_h_prime
        head = (f"<div><b>{'Theorem' if self.proof.item == '5.27' else 'Proposition'} {self.proof.item}</b> on "
                f"<code>{self.realisation.name}</code> — step {self.index + 1} of {len(self.frames)}</div>")
        return (head + f"<div style='font-weight:bold;font-size:110%;margin:4px 0'>{_esc(f.title)}</div><div>{_esc(f.explanation)}</div>"
                f"<div>the two stores shown are <b style='color:{viz.ADDED if equal else viz.REMOVED}'>"
                f"{'equal' if equal else 'different'}</b></div>"
                f"<details><summary>the step's data</summary><pre style='font-size:80%'>{_esc(data)}</pre></details>")

    def stores_png(self) -> bytes:
        f = self.frame

        def draw(axes: list[Any]) -> None:
            for ax, s, name in zip(axes, (f.store_h, f.store_h_prime), ("Ψ(h)", "Ψ(h′)")):
                def label(i: Id, s: Store = s) -> str:
                    r = s.records.get(i)
                    if r is None:
                        return i
                    vt = "" if r.valid_time is None else f", τv = {r.valid_time}"
                    return f"{i}: {_short(r.content, 18)}\nτt = {r.created_at}{vt}"

                viz.plot_store(s, ax=ax, labels=label, legend=False)
                ax.text(0.0, 1.02, name, transform=ax.transAxes, fontsize=viz.FONT_SIZE)

        return render_png(draw, (10.0, 2.6), ncols=2)

    def planes_png(self) -> bytes:
        def draw(axes: list[Any]) -> None:
            for ax, s, name in zip(axes, self.stores, ("Ψ(h)", "Ψ(h′)")):
                viz.plot_bitemporal_plane(s, tt=self.tt, tv=self.tv, ax=ax, mode=self.mode,  # type: ignore[arg-type]
                                          colour_by="record")
                ax.get_legend().remove() if ax.get_legend() else None
                ax.text(0.0, 1.02, name, transform=ax.transAxes, fontsize=viz.FONT_SIZE)

        return render_png(draw, (10.0, 3.8), ncols=2, left=0.6, wspace=0.3)

    def _build(self) -> None:
        w = _w()
        ui = self._ui
        ui["message"] = w.HTML()
        ui["realisation"] = w.ToggleButtons(options=["contextfs", "repaired"], value=self.realisation.name,
                                            description="realisation")
        self._observe(ui["realisation"], self.set_realisation)
        ui["step"] = w.HTML()
        ui["stores"] = _image_widget()
        ui["planes"] = _image_widget()
        times = sorted({*self.h.tt(), *self.h.vt(), *self.h_prime.vt()})
        lo, hi = min(times) - 1, max(times) + 2
        ui["tt"] = w.IntSlider(value=self.tt, min=lo, max=hi, description="τt")
        ui["tv"] = w.IntSlider(value=self.tv, min=lo, max=hi, description="τv")
        for key in ("tt", "tv"):
            self._observe(ui[key], lambda _v: self.query(ui["tt"].value, ui["tv"].value))
        ui["root"] = w.VBox([ui["realisation"],
                             w.HBox([_button("◀ back", self.back), _button("next ▶", self.next, style="info")]),
                             ui["message"], ui["step"], ui["stores"],
                             w.HTML("<b>The bitemporal plane: what was believed at τt about τv</b>"),
                             w.HBox([ui["tt"], ui["tv"]]), ui["planes"]])

    def _refresh(self, proof: bool = True) -> None:
        if self._ui is None:
            return
        ui = self._ui
        if proof:
            ui["realisation"].value = self.realisation.name
            ui["step"].value = self.step_html()
            ui["stores"].value = self.stores_png()
        ui["planes"].value = self.planes_png()
        self._show_message()


# =========================================================================== 4. merge lab


class MergeLab(_Explorer):
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
        self.store = preset(start) if isinstance(start, str) else start
        self.ids: tuple[Id, ...] = tuple(i for i in ids if i in self.store.records)
        self.theta = DEFAULT_THETA
        self.realisation = get_realisation(realisation)
        self.message = "Choose two or more records, their order and θ."
        self.message_is_error = False
        self.result: dict[str, Any] | None = None
        self.merge()

    def _merged(self, ids: Sequence[Id], theta: Theta, base: Store | None = None) -> tuple[Output, Store, Id | None]:
        s = self.store if base is None else base
        a = Merge(tuple(ids))
        xi = next_allocation([self.store, s], a)
        out, after = self.realisation.step(s, a, xi, theta=theta)
        return out, after, (out.ids[0] if isinstance(out, Created) else None)

    @_safe
    def select(self, ids: Sequence[Id]) -> bool:
        ids = [str(i) for i in ids]
        unknown = [i for i in ids if i not in self.store.records]
        if unknown:
            self._say(f"unknown identifier {', '.join(unknown)}.", error=True)
            return False
        self.ids = tuple(ids)
        return self.merge() is not None

    @_safe
    def set_theta(self, first_type: str | None = None, descending: bool = False) -> bool:
        self.theta = Theta(type_priority=(first_type,) if first_type else (), descending=bool(descending))
        return self.merge() is not None

    @_safe
    def set_realisation(self, name: str) -> bool:
        try:
            self.realisation = get_realisation(name)
        except KeyError as e:
            self._say(str(e.args[0]), error=True)
            return False
        return self.merge() is not None

    @_safe
    def reverse(self) -> bool:
        self.ids = tuple(reversed(self.ids))
        return self.merge() is not None

    @_safe
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
            self.result = {"ids": list(self.ids), "refused": _output_text(out), "store": after}
            self._say(f"{self.realisation.name} refused the merge: {_output_text(out)}", error=True)
            self._refresh()
            return self.result
        rec = after.records[j]
        types = [self.store.records[i].type for i in self.ids]
        from ..model import modes

        tied = sorted(modes(types))
        variants = [Theta(type_priority=(t,)) for t in tied] + [Theta(descending=True), DEFAULT_THETA]
        by_theta = {_theta_text(th): after2.records[k].type for th in variants
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
        self._say(f"merge({', '.join(self.ids)}) under {_theta_text(self.theta)} on {self.realisation.name} → "
                  f"{j}: type {rec.type!r}, namespace {rec.namespace!r}.")
        self._refresh()
        return self.result

    @property
    def state(self) -> dict[str, Any]:
        r = {k: v for k, v in (self.result or {}).items() if k not in ("store", "highlight")}
        return {"ids": list(self.ids), "theta": self.theta.as_dict(), "realisation": self.realisation.name,
                "result": r, "message": self.message}

    def result_html(self) -> str:
        r = self.result
        if not r or "id" not in r:
            return "<i>No merge to show.</i>"
        yes = f"<b style='color:{viz.ADDED}'>yes</b>"
        no = f"<b style='color:{viz.REMOVED}'>no</b>"
        rows = [
            ["merged record", f"<code>{_esc(r['id'])}</code>"],
            ["type", f"<b>{_esc(r['type'])}</b> (tied types M = {_esc(r['tied_types'])})"],
            ["namespace", f"<b>{_esc(r['namespace'])}</b> (the first argument's)"],
            ["content", f"<pre style='margin:0;font-size:85%'>{_esc(_short(r['content'], 200))}</pre>"],
            ["5.20 — type as θ varies",
             "; ".join(f"{_esc(k)} → <b>{_esc(v)}</b>" for k, v in r["type_by_theta"].items())
             + f"<br>reached: {_esc(r['types_reached'])}"],
            ["5.24 — merge twice ≈ merge once",
             (f"equal stores: {yes if r['twice_equal'] else no}; allocation-blind bisimilar: "
             f"{yes if r['twice_blind_bisimilar'] else no}")],
        ]
        if r["reversed_ok"]:
            wit = r["reversed_witness"]
            first = "" if not wit else _esc(json.dumps(wit["first"], ensure_ascii=False)[:300])
            rows.append(["5.25 — the other order",
                         f"≈: {yes if r['reversed_blind_bisimilar'] else no}; reversed gives type "
                         f"<b>{_esc(r['reversed_record']['type'])}</b>, namespace "
                         f"<b>{_esc(r['reversed_record']['namespace'])}</b>"
                         + (f"<br><code style='font-size:85%'>{first}</code>" if first else "")])
        return _html_table(rows)

    def figure_png(self) -> bytes:
        r = self.result or {}
        s = r.get("store", self.store)
        return store_png(s, highlight=r.get("highlight", list(self.ids)), labels="both", width=8.5)

    def _build(self) -> None:
        w = _w()
        ui = self._ui
        ui["message"] = w.HTML()
        opts = [(f"{i}  {_short(r.content, 26)} [{r.type}, {r.namespace}]", i) for i, r in self.store.records.items()]
        ui["ids"] = w.SelectMultiple(options=opts, value=tuple(i for i in self.ids), rows=6, description="records")
        ui["reverse"] = w.Checkbox(value=False, description="reverse argument order")
        types = sorted({r.type for r in self.store.records.values()})
        ui["first"] = w.Dropdown(options=[("(none: by name)", "")] + [(t, t) for t in types], description="θ first type")
        ui["descending"] = w.Checkbox(value=False, description="θ descending")
        ui["realisation"] = w.ToggleButtons(options=["contextfs", "repaired"], value=self.realisation.name,
                                            description="realisation")
        go = _button("merge", self._apply, style="info")
        ui["result"] = w.HTML()
        ui["figure"] = _image_widget()
        ui["root"] = w.VBox([w.HBox([ui["ids"], w.VBox([ui["reverse"], ui["first"], ui["descending"]])]),
                             ui["realisation"], go, ui["message"], ui["result"], ui["figure"]])

    def _apply(self) -> None:
        ui = self._ui
        ids = list(ui["ids"].value)
        if ui["reverse"].value:
            ids.reverse()
        self.realisation = get_realisation(ui["realisation"].value)
        self.theta = Theta(type_priority=(ui["first"].value,) if ui["first"].value else (),
                           descending=ui["descending"].value)
        self.ids = tuple(ids)
        self.merge()

    def _refresh(self) -> None:
        if self._ui is None:
            return
        self._ui["result"].value = self.result_html()
        self._ui["figure"].value = self.figure_png()
        self._show_message()


# =========================================================================== 5. tenants lab


class TenantsLab(_Explorer):
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
        self.params: dict[str, Any] = {}
        self.message = ""
        self.message_is_error = False
        self.repaired = False
        self.configure(n=n, records_per_tenant=records_per_tenant, seed=seed,
                       prefix_collisions=prefix_collisions, dangling_edges=dangling_edges, id_style=id_style)

    @_safe
    def configure(self, **params: Any) -> bool:
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

    @_safe
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

    @_safe
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

    @_safe
    def recall_prefix(self, prefix: str, theta: Theta = DEFAULT_THETA) -> dict[str, Any] | None:
        """Recall by ``prefix`` in each tenant alone and in the union (Proposition 6.3)."""
        from ..model import RecallPrefix

        if not prefix:
            self._say("give a prefix.", error=True)
            return None
        a = RecallPrefix(prefix)
        alone = {k: output_to_json(CONTEXTFS.step(s, a, theta=theta)[0]) for k, s in enumerate(self.stores)}
        union = output_to_json(CONTEXTFS.step(self.shared, a, theta=theta)[0])
        return {"prefix": prefix, "alone": alone, "union": union}

    def report_html(self) -> str:
        rows = []
        for p, (ka, ia), (kb, ib) in self.report.prefix_collisions:
            res = self.recall_prefix(p) or {}
            union = res.get("union", {})
            desc = self.recall_prefix(p, Theta(descending=True)) or {}
            rows.append([
                "6.3 prefix recall",
                (f"<code>{_esc(ia)}</code> (tenant {ka}) and <code>{_esc(ib)}</code> (tenant {kb}) share "
                f"<code>{_esc(p)}</code>; in the union <code>recall_pfx({_esc(p)})</code> answers "
                f"<code>{_esc(union.get('id'))}</code> (θ ascending) or <code>{_esc(desc.get('union', {}).get('id'))}"
                "</code> (θ descending)"),
            ])
        for k, e, o in self.report.acquired_edges:
            rows.append(["6.4 acquired edge",
                         (f"tenant {k}'s edge <code>{_esc(e)}</code> dangles in its own store; in the union its "
                         f"endpoint is tenant {o}'s record, so β changes there")])
        fails = self.inclusion_failures()
        rows.append(["β changes in the union", _esc(fails) if fails else "none"])
        rows.append(["mention-disjoint (⊕ defined)",
                     f"<b style='color:{viz.ADDED if self.report.mention_disjoint else viz.REMOVED}'>"
                     f"{'yes' if self.report.mention_disjoint else 'no'}</b>"
                     + (" (after dropping cross-tenant edges)" if self.repaired else "")])
        return _html_table(rows)

    def figure_png(self) -> bytes:
        hi: list[Any] = []
        for _p, (_ka, ia), (_kb, ib) in self.report.prefix_collisions:
            hi += [ia, ib]
        hi += [e for _k, e, _o in self.report.acquired_edges]
        hi += [x for _k, e, _o in self.report.acquired_edges for x in (e.source, e.target)]
        return store_png(self.shared, highlight=hi, width=8.5)

    def _build(self) -> None:
        w = _w()
        ui = self._ui
        p = self.params
        ui["message"] = w.HTML()
        ui["n"] = w.IntSlider(value=p["n"], min=2, max=4, description="tenants")
        ui["records_per_tenant"] = w.IntSlider(value=p["records_per_tenant"], min=1, max=8, description="records each")
        ui["seed"] = w.IntText(value=p["seed"], description="seed")
        ui["prefix_collisions"] = w.IntSlider(value=p["prefix_collisions"], min=0, max=3, description="prefix clashes")
        ui["dangling_edges"] = w.IntSlider(value=p["dangling_edges"], min=0, max=3, description="cross edges")
        ui["id_style"] = w.ToggleButtons(options=["uuid", "sequential"], value=p["id_style"], description="ids")
        build = _button("build tenants", self._apply, style="info")
        union = _button("try ⊕", lambda: self.mention_union())
        fix = _button("drop cross-tenant edges", lambda: self.repair(), style="warning")
        ui["report"] = w.HTML()
        ui["figure"] = _image_widget()
        ui["root"] = w.VBox([
            w.HBox([ui["n"], ui["records_per_tenant"], ui["seed"]]),
            w.HBox([ui["prefix_collisions"], ui["dangling_edges"], ui["id_style"]]),
            w.HBox([build, union, fix]), ui["message"], ui["report"], ui["figure"]])

    def _apply(self) -> None:
        ui = self._ui
        self.configure(**{k: ui[k].value for k in ("n", "records_per_tenant", "seed", "prefix_collisions",
                                                   "dangling_edges", "id_style")})

    def _refresh(self) -> None:
        if self._ui is None:
            return
        self._ui["report"].value = self.report_html()
        self._ui["figure"].value = self.figure_png()
        self._show_message()


# =========================================================================== 6. refinement stepper


def _comparisons() -> dict[str, tuple[Store, Store, str]]:
    base = preset("merge tie")
    once = run(base, [Merge(("id0001", "id0002"))]).final
    twice = run(once, [Merge(("id0001", "id0002"))]).final
    ba = run(base, [Merge(("id0002", "id0001"))]).final
    return {
        "merge once vs twice (5.24)": (once, twice, "Proposition 5.24: ≈ although not equal"),
        "merge a,b vs b,a (5.25)": (once, ba, "Proposition 5.25: the argument order is observable"),
        "meeting notes vs lineage": (preset("meeting notes"), preset("lineage"), "two unrelated stores"),
    }


class RefinementStepper(_Explorer):
    """Partition refinement round by round, then allocation-blind comparison of two stores.

    The rounds are :func:`coalg.bisim.bisimilarity.refinement_rounds`: round 0 groups
    identifiers by their record, each next round splits blocks by the blocks
    their edges lead to, and the last round is bisimilarity.  The comparison
    decides s ≈ t (Definition 5.23) and, when they are not, highlights the
    identifier without a partner and the path that distinguishes it.
    Methods: :meth:`set_round`, :meth:`next_round`, :meth:`set_store`,
    :meth:`compare`, :meth:`distinguish`.
    """

    STORES = ("refinement example", *preset_names())

    def __init__(self, start: str | Store = "refinement example", comparison: str = "merge a,b vs b,a (5.25)") -> None:
        self.message = "Step through the rounds."
        self.message_is_error = False
        self.comparisons = _comparisons()
        self.round = 0
        self.pair_name = comparison if comparison in self.comparisons else next(iter(self.comparisons))
        self.witness: dict[str, Any] | None = None
        self.pair_highlight: tuple[list[Any], list[Any]] = ([], [])
        self._store_from(start)
        self.compare(self.pair_name)
        blocks = len(set(self.rounds[0].values()))
        self.message = (f"round 0 of {self.store_name}: {blocks} block(s) — press “round ▶” to refine.  "
                        f"Below: {self.message}")

    def _store_from(self, start: str | Store) -> None:
        if isinstance(start, Store):
            self.store_name, self.store = "custom", start
        elif start == "refinement example":
            self.store_name, self.store = start, refinement_example()
        else:
            self.store_name, self.store = start, preset(start)
        self.rounds = refinement_rounds(self.store)
        self.round = 0

    @property
    def state(self) -> dict[str, Any]:
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

    @_safe
    def set_store(self, name: str) -> bool:
        if name not in self.STORES:
            self._say(f"unknown store {name!r}; known: {', '.join(self.STORES)}.", error=True)
            return False
        self._store_from(name)
        self._say(f"{name}: {len(self.rounds)} round(s) until stable.")
        self._refresh()
        return True

    @_safe
    def set_round(self, r: int) -> bool:
        if not 0 <= r < len(self.rounds):
            self._say(f"rounds are 0 … {len(self.rounds) - 1}; {r} is not one.", error=True)
            return False
        self.round = r
        blocks = len(set(self.rounds[r].values()))
        last = r == len(self.rounds) - 1
        self._say(f"round {r}: {blocks} block(s)" + (" — stable: this is bisimilarity." if last else "."))
        self._refresh(compare=False)
        return True

    def next_round(self) -> bool:
        if self.round + 1 >= len(self.rounds):
            self._say("the partition is stable: no further round splits a block.", error=True)
            return False
        return bool(self.set_round(self.round + 1))

    def previous_round(self) -> bool:
        if self.round == 0:
            self._say("this is round 0.", error=True)
            return False
        return bool(self.set_round(self.round - 1))

    @_safe
    def compare(self, name: str) -> bool:
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
            self._say(f"{name}: not ≈ — {first['side']} identifier {first['id']} has no partner"
                      + (f" ({first.get('reason')})" if first.get("reason") else "") + f". {note}.")
        self._refresh()
        return True

    @_safe
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

    def round_png(self) -> bytes:
        h = viz.graph_figsize(viz.store_layout(self.store))[1]
        return render_png(lambda ax: viz.plot_refinement(self.store, axes=[ax], rounds=self.rounds,
                                                         which=[self.round]), (6.5, h))

    def pair_png(self) -> bytes:
        s, t, _ = self.comparisons[self.pair_name]
        hl, hr = self.pair_highlight
        h = max(viz.graph_figsize(viz.store_layout(x))[1] for x in (s, t))

        def draw(axes: list[Any]) -> None:
            for ax, st, hi, name in zip(axes, (s, t), (hl, hr), ("s", "t")):
                viz.plot_store(st, ax=ax, highlight=hi, legend=False)
                ax.text(0.0, 1.02, name, transform=ax.transAxes, fontsize=viz.FONT_SIZE)

        return render_png(draw, (10.0, h), ncols=2)

    def _build(self) -> None:
        w = _w()
        ui = self._ui
        ui["message"] = w.HTML()
        ui["store"] = w.Dropdown(options=list(self.STORES), value=self.store_name if self.store_name in self.STORES
                                 else None, description="store")
        self._observe(ui["store"], lambda v: self.set_store(v) if v else None)
        ui["round"] = w.HTML()
        ui["figure"] = _image_widget()
        ui["pair"] = w.Dropdown(options=list(self.comparisons), value=self.pair_name, description="compare")
        self._observe(ui["pair"], self.compare)
        ui["pair_figure"] = _image_widget()
        ui["verdict"] = w.HTML()
        ui["root"] = w.VBox([ui["store"],
                             w.HBox([_button("◀ round", self.previous_round),
                                     _button("round ▶", self.next_round, style="info"), ui["round"]]),
                             ui["message"], ui["figure"],
                             w.HTML("<b>Allocation-blind comparison (Definition 5.23)</b>"),
                             ui["pair"], ui["verdict"], ui["pair_figure"]])

    def _refresh(self, compare: bool = True) -> None:
        if self._ui is None:
            return
        ui = self._ui
        ui["round"].value = f"round {self.round} of {len(self.rounds) - 1}"
        ui["figure"].value = self.round_png()
        if compare:
            wit = self.witness
            ui["verdict"].value = ("<b style='color:#009E73'>s ≈ t</b>" if wit is None else
                                   f"<b style='color:{viz.REMOVED}'>s ≉ t</b> <code style='font-size:85%'>"
                                   f"{_esc(json.dumps(wit, ensure_ascii=False)[:400])}</code>")
            ui["pair_figure"].value = self.pair_png()
        self._show_message()


