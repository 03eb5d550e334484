"""The derivation playground: apply operations to a store, see the graph and the laws of each step.

Paper §3.3 (the store coalgebra, ContextFS and the repaired realisation) and the
laws of Definition 3.21 checked call by call (:func:`coalg.laws.check_step`):
a reader evolves, merges, splits, supersedes, deletes or saves, and the law
panel says which clauses held on that step — Proposition 5.14 (an evolved merge
inherits ``merged_from``), Proposition 5.2 (delete breaks ancestry).  Undo,
redo, replay under another realisation or θ, export and load.

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
import json
from collections.abc import Sequence
from typing import Any

from ..errors import CoalgError
from ..laws import StepReport, check_step, show_call
from ..model import (
    DEFAULT_THETA,
    Allocation,
    Call,
    Err,
    Id,
    Letter,
    Realisation,
    Store,
    Theta,
    call_to_json,
    get_realisation,
    loads_store,
    preset,
    store_from_json,
    store_to_json,
)
from ..model import names as preset_names
from .allocation import next_allocation
from .base import Explorer, action
from .controls import (
    button,
    figure_image,
    in_argument_order,
    ipywidgets,
    preset_picker,
    realisation_picker,
    reverse_box,
)
from .figures import store_png
from .operations import OPERATIONS, letter_for
from .steps import Step, laws_panel, word_panel
from .text import esc, output_text, short, theta_text

__all__ = ["DerivationPlayground"]


class DerivationPlayground(Explorer):
    """Apply save, evolve, merge, split, supersede, delete and save-at to a store; see the laws per step.

    Parameters
    ----------
    start : str or Store
        A preset name (:func:`coalg.model.names`) or a store.
    realisation : str
        ``"contextfs"`` (the ContextFS a93035d model) or ``"repaired"``.

    Notes
    -----
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
        super().__init__("Pick identifiers and press an operation.")
        self.realisation: Realisation = get_realisation(realisation)
        self.theta = theta
        self.start_name = start if isinstance(start, str) else "custom"
        self.start: Store = preset(start) if isinstance(start, str) else start
        self.steps: list[Step] = []
        self.redo_stack: list[tuple[Call, str, Theta]] = []

    # ----------------------------------------------------------------- state
    @property
    def store(self) -> Store:
        """The current store."""
        return self.steps[-1].after if self.steps else self.start

    @property
    def word(self) -> list[Call]:
        """The calls applied so far, with their allocations."""
        return [st.call for st in self.steps]

    @property
    def last(self) -> Step | None:
        """The last step taken, if any."""
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
    @action
    def apply(self, kind: str, ids: Sequence[Id] = (), content: str | None = None, *,
              type: str | None = None, namespace: str | None = None,
              by_prefix: bool = False) -> StepReport | None:
        """Apply one operation; returns the step's law report, or ``None`` (with :attr:`message`) if invalid.

        ``ids`` are the identifiers in argument order (merge: the arguments;
        supersede: ``[old, new]``); ``content`` is the new content (split: parts
        separated by ``|``).  A call the realisation refuses (output ``err``)
        leaves the store and the word unchanged and says why.
        """
        letter = letter_for(self.store, kind, ids, content, type, namespace, by_prefix)
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
        self._say(f"{show_call(call)} → {output_text(out)}. "
                  + (f"Failed on this step: {', '.join(failed)}." if failed else "No clause failed on this step."))
        self._refresh()
        return report

    @action
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

    @action
    def redo(self) -> bool:
        """Apply again the last step taken back, with its allocation, realisation and θ."""
        if not self.redo_stack:
            self._say("nothing to redo.", error=True)
            return False
        call, name, theta = self.redo_stack.pop()
        return self._run(call, get_realisation(name), theta, clear_redo=False) is not None

    def _start_from(self, store: Store, name: str, message: str) -> None:
        """A new session on ``store`` (called ``name``): an empty word, nothing to redo."""
        self.start, self.start_name = store, name
        self.steps.clear()
        self.redo_stack.clear()
        self._say(message)
        self._refresh()

    @action
    def reset(self) -> None:
        """Back to the start store, with an empty word."""
        self._start_from(self.start, self.start_name, "back to the start store.")

    @action
    def load_preset(self, name: str) -> bool:
        """Start again from the preset store ``name``."""
        if name not in preset_names():
            self._say(f"unknown preset {name!r}; known: {', '.join(preset_names())}.", error=True)
            return False
        store = preset(name)
        self._start_from(store, name, f"loaded the preset {name!r}: {len(store.records)} records.")
        return True

    @action
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
        self._start_from(store, "loaded JSON",
                         f"loaded a store of {len(store.records)} records and {len(store.edges)} edges.")
        return True

    @action
    def set_realisation(self, name: str) -> bool:
        """Run later calls on the realisation ``name`` (``"contextfs"`` or ``"repaired"``)."""
        if (realisation := self._realisation(name)) is None:
            return False
        self.realisation = realisation
        self._say(f"later calls run on {name}.")
        self._refresh()
        return True

    @action
    def set_theta(self, type_priority: Sequence[str] | str = (), descending: bool = False) -> Theta:
        """Use θ with these types first (a list, or names separated by commas) in later calls."""
        if isinstance(type_priority, str):
            type_priority = [t.strip() for t in type_priority.split(",") if t.strip()]
        self.theta = Theta(type_priority=tuple(type_priority), descending=bool(descending))
        self._say(f"later calls use {theta_text(self.theta)}.")
        self._refresh()
        return self.theta

    @action
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
        """:meth:`export` as JSON text."""
        return json.dumps(self.export(), ensure_ascii=False, indent=1, sort_keys=True)

    # ----------------------------------------------------------------- views
    def figure_png(self) -> bytes:
        """The current store graph, what the last step made highlighted (PNG)."""
        return store_png(self.store, highlight=self.highlight())

    def laws_html(self) -> str:
        """The law panel: which clauses held on the last step, with the witness of a failure."""
        return laws_panel(self.last)

    def word_html(self) -> str:
        """The word so far: one call per line with its output and realisation."""
        return word_panel(self.start_name, self.steps)

    def _build(self, ui: dict[str, Any]) -> None:
        w = ipywidgets()
        ui["message"] = w.HTML()
        ui["preset"] = preset_picker(self.start_name)
        self._observe(ui["preset"], lambda v: self.load_preset(v) if v else None)
        ui["json"] = w.Textarea(placeholder='paste a coalg-store JSON document here', layout=w.Layout(width="40%"))
        ui["upload"] = w.FileUpload(accept=".json", multiple=False, description="upload JSON")
        ui["upload"].observe(self._on_upload, names="value")
        load = button("load JSON", lambda: self.load_json(ui["json"].value))
        ui["realisation"] = realisation_picker(self.realisation.name)
        self._observe(ui["realisation"], self.set_realisation)
        ui["types"] = w.Text(placeholder="e.g. decision, fact", description="θ types first")
        ui["descending"] = w.Checkbox(value=False, description="θ descending")
        set_theta = button("set θ", lambda: self.set_theta(ui["types"].value, ui["descending"].value))
        ui["ids"] = w.SelectMultiple(options=[], rows=7, description="records")
        ui["reverse"] = reverse_box()
        ui["content"] = w.Text(placeholder="new content (split: parts separated by |)", description="content")
        ui["type"] = w.Text(value="", placeholder="type (save, merge)", description="type")
        ui["namespace"] = w.Text(value="", placeholder="namespace (save)", description="namespace")
        ops = [button(k.replace("_", " "), functools.partial(self._click, ui, k), style="info") for k in OPERATIONS]
        for b, k in zip(ops, OPERATIONS):
            b.add_class(f"coalg-op-{k}")
        history = [button("undo", self.undo), button("redo", self.redo), button("reset", self.reset),
                   button("replay word here", self.replay), button("export", lambda: self._export_clicked(ui))]
        ui["export"] = w.Textarea(layout=w.Layout(width="100%", height="8em"), placeholder="export appears here")
        ui["graph"] = figure_image()
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

    def _click(self, ui: dict[str, Any], kind: str) -> None:
        ids = in_argument_order(ui["ids"], ui["reverse"])
        self.apply(kind, ids if kind != "save" else [], ui["content"].value,
                   type=ui["type"].value or None, namespace=ui["namespace"].value or None)

    def _export_clicked(self, ui: dict[str, Any]) -> None:
        ui["export"].value = self.export_json()
        self._say("exported the word and the store as JSON (below).")

    def _on_upload(self, change: dict[str, Any]) -> None:
        files = change.get("new") or ()
        if not files:
            return
        f = files[0] if isinstance(files, (list, tuple)) else next(iter(files.values()))
        self.load_json(bytes(f["content"]))

    def _draw(self, ui: dict[str, Any]) -> None:
        s = self.store
        keep = [i for i in ui["ids"].value if i in s.records]  # the selection survives a step
        ui["ids"].options = [(f"{i}  {short(r.content, 30)} ({r.namespace})", i) for i, r in s.records.items()]
        ui["ids"].value = tuple(keep)
        ui["realisation"].value = self.realisation.name
        ui["theta"].value = f"<span style='color:#555'>{esc(theta_text(self.theta))}</span>"
        ui["graph"].value = self.figure_png()
        ui["laws"].value = self.laws_html()
        ui["word"].value = self.word_html()

