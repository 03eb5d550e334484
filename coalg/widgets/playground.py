"""The derivation playground: apply operations to a store, see the graph and the laws of each step.

Paper §3.3 (the store coalgebra, ContextFS and the repaired realisation) and the
laws of Definition 3.21 checked call by call (:func:`coalg.laws.check_step`):
a reader evolves, merges, splits, supersedes, deletes or saves, and the law
panel says which clauses held on that step — Proposition 5.14 (an evolved merge
inherits ``merged_from``), Proposition 5.2 (delete breaks ancestry).  Undo,
redo, replay under another realisation or θ, sessions to share.  The front end
is :mod:`.playground_view`.

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

from collections.abc import Sequence
from typing import Any

from ..errors import CoalgError
from ..laws import StepReport, show_call
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
    store_to_json,
    theta_to_json,
)
from ..model import names as preset_names
from . import playground_view as view
from .allocation import next_allocation
from .base import Explorer, action
from .fields import Fields
from .operations import letter_for
from .session import SessionError, loads_session
from .steps import Step
from .text import theta_text

__all__ = ["MAX_WORD", "DerivationPlayground"]

MAX_WORD = 500
"""The longest word a session file may carry (it is replayed, law checks included, on import)."""

SELECTION = {"ids": [], "reverse": False, "content": "", "type": "", "namespace": ""}
"""What the reader has chosen but not applied yet: the records (store order), the fields."""


class DerivationPlayground(Explorer):
    """Apply save, evolve, merge, split, supersede, delete and save-at to a store; see the laws per step.

    Parameters
    ----------
    start : str or Store
        A preset name (:func:`coalg.model.names`) or a store.
    realisation : str
        ``"contextfs"`` (the ContextFS a93035d model) or ``"repaired"``.
    scale : float
        Size of text and figures (1 normal, 1.6 for a projector).

    Notes
    -----
    Behaviour (all callable headlessly): :meth:`apply`, :meth:`undo`,
    :meth:`redo`, :meth:`reset`, :meth:`load_preset`, :meth:`load_json`,
    :meth:`set_realisation`, :meth:`set_theta`, :meth:`replay`, :meth:`select`,
    :meth:`session_json` / :meth:`import_session`.  Allocations come from
    :func:`next_allocation`, so a session replays from its word.  The
    realisation and θ in force when a call is made are recorded with it;
    changing them affects later calls (``replay`` re-runs the whole word under
    the current choice).
    """

    KIND = "playground"

    def __init__(self, start: str | Store = "meeting notes", *, realisation: str = "contextfs",
                 theta: Theta = DEFAULT_THETA, scale: float = 1.0) -> None:
        super().__init__("Pick records, then press an operation.", scale=scale)
        self.realisation: Realisation = get_realisation(realisation)
        self.theta = theta
        self.start_name = start if isinstance(start, str) else "custom"
        self.start: Store = preset(start) if isinstance(start, str) else start
        self.steps: list[Step] = []
        self.redo_stack: list[tuple[Call, str, Theta]] = []
        self.selection: dict[str, Any] = dict(SELECTION)

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
            "selection": dict(self.selection),
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
    def select(self, **choice: Any) -> bool:
        """Choose without applying: ``ids`` (store order), ``reverse``, ``content``, ``type``, ``namespace``."""
        unknown = sorted(set(choice) - set(SELECTION))
        if unknown:
            self._say(f"unknown choice {', '.join(unknown)}; known: {', '.join(SELECTION)}.", error=True)
            return False
        if "ids" in choice:
            choice["ids"] = [str(i) for i in choice["ids"] if str(i) in self.store.records]
        self.selection.update(choice)
        return True

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

    def apply_selection(self, kind: str) -> StepReport | None:
        """Apply operation ``kind`` to what :attr:`selection` holds (what a button press does)."""
        sel = self.selection
        ids = list(sel["ids"])[::-1] if sel["reverse"] else list(sel["ids"])
        return self.apply(kind, ids if kind != "save" else [], sel["content"] or None,
                          type=sel["type"] or None, namespace=sel["namespace"] or None)

    def _allocate(self, letter: Letter) -> Allocation:
        stores = [self.start] + [st.after for st in self.steps]
        return next_allocation(stores, letter, [st.call.allocation.clock for st in self.steps],
                               issued=[j for st in self.steps for j in st.call.allocation.ids])

    def _run(self, call: Call, realisation: Realisation, theta: Theta, *, clear_redo: bool) -> StepReport | None:
        before = self.store
        out, after = realisation.step(before, call.letter, call.allocation, theta=theta, faults=call.faults)
        if isinstance(out, Err):
            self._say(f"{realisation.name} refused {show_call(call)}: {out.reason}. The store is unchanged "
                      "and the call was not added to the word.", error=True)
            self._refresh()
            return None
        step = Step(call, realisation.name, theta, out, before, after)
        report = step.report
        self.steps.append(step)
        if clear_redo:
            self.redo_stack.clear()
        failed = report.failed()
        self._say(f"{show_call(call)} → {view.output_sentence(out)}. "
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
        """A new session on ``store`` (called ``name``): an empty word, nothing to redo or selected."""
        self.start, self.start_name = store, name
        self.steps.clear()
        self.redo_stack.clear()
        self.selection = dict(SELECTION)
        self._say(message)
        self._refresh()

    @action
    def reset(self) -> None:
        """Back to the start store, with an empty word and nothing selected."""
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
        """Load a ``coalg-store`` document (a new start, empty word), or a session of this playground."""
        try:
            if isinstance(text, bytes | bytearray | memoryview):
                text = bytes(text).decode("utf-8")
            if '"coalg-explorer-session"' in text[:4096]:
                return bool(self.import_session(text))
            store = loads_store(text, source="the pasted JSON")
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

    # ----------------------------------------------------------------- sessions
    def _session_state(self) -> dict[str, Any]:
        def run(call: Call, realisation: str, theta: Theta) -> dict[str, Any]:
            return {"call": call_to_json(call), "realisation": realisation, "theta": theta_to_json(theta)}

        return {
            "start_name": self.start_name,
            "start": store_to_json(self.start),
            "word": [run(st.call, st.realisation, st.theta) for st in self.steps],
            "redo": [run(*r) for r in self.redo_stack],
            "realisation": self.realisation.name,
            "theta": theta_to_json(self.theta),
            "selection": dict(self.selection),
        }

    def _restore(self, state: dict[str, Any], source: str) -> str:
        f = Fields(state, source=source)
        f.only("start_name", "start", "word", "redo", "realisation", "theta", "selection")
        start = f.store("start")
        runs = []
        for key in ("word", "redo"):
            items = f.items(key, max_len=MAX_WORD)
            runs.append([(r.call("call"), r.text("realisation", choices=("contextfs", "repaired")),
                          r.theta("theta")) for r in items])
        sel = f.sub("selection")
        sel.only(*SELECTION)
        selection = {"ids": sel.texts("ids"), "reverse": sel.flag("reverse"), "content": sel.text("content"),
                     "type": sel.text("type"), "namespace": sel.text("namespace")}
        steps: list[Step] = []
        for k, (call, name, theta) in enumerate(runs[0]):
            before = steps[-1].after if steps else start
            realisation = get_realisation(name)
            out, after = realisation.step(before, call.letter, call.allocation, theta=theta, faults=call.faults)
            if isinstance(out, Err):
                raise SessionError(f"{name} refuses this call: {out.reason}", source=source,
                                   field=f"state.word[{k}]")
            steps.append(Step(call, name, theta, out, before, after))
        start_name = f.text("start_name", max_len=200)  # every field read before anything changes
        realisation, theta = get_realisation(f.text("realisation", choices=("contextfs", "repaired"))), f.theta("theta")
        self.start, self.start_name = start, start_name
        self.steps, self.redo_stack = steps, list(runs[1])
        self.realisation, self.theta = realisation, theta
        self.selection = selection | {"ids": [i for i in selection["ids"] if i in self.store.records]}
        return f"{self.start_name}, {len(steps)} call(s) on {self.realisation.name}."

    def export(self) -> dict[str, Any]:
        """The session as data: what :meth:`session_json` writes, parsed."""
        return loads_session(self.session_json(), kind=self.KIND)

    # ----------------------------------------------------------------- views
    def figure_svg(self) -> bytes:
        """The current store graph, what the last step made highlighted, a deleted record as a ghost."""
        return view.graph(self)

    def laws_html(self) -> str:
        """The law panel: which clauses held on the last step, with the witness of a failure."""
        return view.laws(self.last)

    def word_html(self) -> str:
        """The word so far: one call per line with its output and realisation."""
        return view.word(self.start_name, self.steps)

    def _idle_disabled(self) -> set[str]:
        return {k for k, off in (("button:undo", not self.steps), ("button:redo", not self.redo_stack),
                                 ("button:replay", not self.steps)) if off}

    def _build(self, ui: dict[str, Any]) -> None:
        view.build(self, ui)

    def _draw(self, ui: dict[str, Any]) -> None:
        view.draw(self, ui)

    def _arrange(self, ui: dict[str, Any]) -> list[Any]:
        return view.arrange(self, ui)
