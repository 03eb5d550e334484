"""The base every explorer stands on: behaviour in methods, messages in the widget, one step per gesture.

An explorer is a class whose methods are the whole behaviour — callable from a
test or a notebook cell without a browser — and whose ``.widget`` (also shown by
displaying the object) is a thin layer of controls that call those methods.

* **Actions never raise at the reader.**  A method decorated with :func:`action`
  is something a reader does (press a button, pick a record).  An invalid action
  leaves the state alone and says why with :meth:`Explorer._say` (``error=True``);
  an unexpected exception becomes the message ``"<Type>: <text>"``, the front
  end is redrawn from the state, and the action returns ``None``.
* **Controls are disabled while a step runs.**  The outermost action disables
  every control of the front end and enables them again when it ends (except
  those :meth:`Explorer._idle_disabled` names).
* **One step per gesture.**  Buttons made with :meth:`Explorer._button` run
  their handler once per deliberate click: a click on the same button that
  arrives less than :attr:`Explorer.GESTURE_S` seconds after the previous one
  finished — the second half of a double-click, or a click queued while the
  step ran — is not applied again, and the message line says so
  (:attr:`Explorer.ONE_GESTURE`).  Calling a method directly is always deliberate.
* **The front end is built on first use** (:attr:`Explorer.widget`):
  :meth:`Explorer._build` creates the controls into a dict, :meth:`Explorer._draw`
  sets them from the state, and :meth:`Explorer._refresh` is the one place a
  redraw happens — where a result that no longer matches the controls is
  cleared.  While a redraw sets control values, handlers registered with
  :meth:`Explorer._observe` do not fire, so only the reader's own changes call back.
* **Sessions** (:mod:`coalg.widgets.session`): :meth:`Explorer.session_json` writes the
  state, :meth:`Explorer.import_session` restores it exactly or changes nothing;
  the front end offers both as a download link and an upload button.
* **Size**: ``scale`` (or the size control) enlarges text, controls and figures
  together, for a projector or, at the lecture hall's size, a large room's 1080p
  screen, where each explorer's main view fits one screen (:meth:`Explorer._arrange`).

The explorers serve the paper's sections listed in :mod:`coalg.widgets`.
"""

from __future__ import annotations

import functools
import os
import time
from collections.abc import Callable
from typing import Any, ClassVar, TypeVar

from ..model import Realisation, get_realisation
from ..viz import REMOVED
from .controls import (
    button,
    download_html,
    ipywidgets,
    scale_class,
    scale_css,
    session_upload,
    size_picker,
)
from .figures import hall
from .session import SessionError, dumps_session, loads_session, read_session, write_session
from .text import message_html

__all__ = ["SCALES", "Explorer", "action", "check_scale"]

F = TypeVar("F", bound=Callable[..., Any])

SCALES = {"normal": 1.0, "large": 1.3, "projector": 1.6, "lecture hall": 2.7}
"""The sizes the size control offers (``scale`` accepts any value from 0.5 to 3).  The projector's
fits a 1024×768 screen; the lecture hall's is for a 1080p projector at the front of a large room:
the smallest text of a figure is 32 px there, and figures use the whole width of the screen."""


def check_scale(scale: Any) -> float:
    """``scale`` as a float if it is a size from 0.5 to 3, else ``ValueError`` saying so."""
    if isinstance(scale, bool) or not isinstance(scale, int | float) or not 0.5 <= float(scale) <= 3.0:
        raise ValueError(f"scale must be a number from 0.5 to 3; {scale!r} is not")
    return float(scale)


def action(method: F) -> F:
    """Mark ``method`` as a reader's action: controls are disabled while it runs, and an
    unexpected exception becomes the widget's message (the action returns ``None``)."""

    @functools.wraps(method)
    def wrapper(self: Explorer, *args: Any, **kwargs: Any) -> Any:
        outer = self._depth == 0
        if outer:
            self._lock()
        self._depth += 1
        try:
            return method(self, *args, **kwargs)
        except Exception as e:  # noqa: BLE001 — an explorer never raises at its reader
            self._say(f"{type(e).__name__}: {e}", error=True)
            try:
                self._refresh()
            except Exception:  # noqa: BLE001, S110 — the message above already says what went wrong
                pass
            return None
        finally:
            self._depth -= 1
            if outer:
                self._sync_download()
                self._unlock()

    return wrapper  # type: ignore[return-value]


class Explorer:
    """Shared plumbing of the explorers: messages, actions, gestures, sessions, size, display."""

    KIND: ClassVar[str] = ""
    """The explorer's name in a session file (one of :data:`coalg.widgets.session.KINDS`)."""

    GESTURE_S: ClassVar[float] = 0.4
    """Clicks on one button closer than this (seconds) after the previous one finished are one gesture."""

    ONE_GESTURE: ClassVar[str] = ("(A second click that quick counts as the same click: it was not "
                                  "applied again. Wait a moment and click once more to repeat it.)")
    """What the message line adds when a click is taken as part of the previous one."""

    def __init__(self, message: str = "", *, scale: float = 1.0) -> None:
        self.message = message
        self.message_is_error = False
        self.scale = check_scale(scale)
        self.clock: Callable[[], float] = time.monotonic
        self._ui: dict[str, Any] | None = None
        self._busy = False
        self._depth = 0
        self._last_click: dict[str, float] = {}
        self._before_refusal: tuple[str, str, bool] | None = None  # (refusal, message, error) of set_scale

    # ----------------------------------------------------------------- messages
    def _say(self, text: str, *, error: bool = False) -> None:
        """Set the message line (``error``: it reports something the reader could not do)."""
        self.message = text
        self.message_is_error = error
        if self._ui is not None:
            self._show_message()

    def _show_message(self) -> None:
        if self._ui is not None:
            self._ui["message"].value = message_html(
                self.message, REMOVED if self.message_is_error else "#333333")

    def _realisation(self, name: str) -> Realisation | None:
        """The realisation called ``name``, or ``None`` with the reason as the message."""
        try:
            return get_realisation(name)
        except KeyError as e:
            self._say(str(e.args[0]), error=True)
            return None

    # ----------------------------------------------------------------- controls during a step
    def _controls(self) -> list[tuple[str, Any]]:
        """The controls of the front end a reader can operate (they have ``disabled``)."""
        if self._ui is None:
            return []
        return [(k, c) for k, c in self._ui.items() if hasattr(c, "disabled")]

    def _idle_disabled(self) -> set[str]:
        """Keys of the controls that stay disabled when no step runs (none by default)."""
        return set()

    def _lock(self) -> None:
        for _k, c in self._controls():
            c.disabled = True

    def _unlock(self) -> None:
        idle = self._idle_disabled() if self._ui is not None else set()
        for k, c in self._controls():
            c.disabled = k in idle

    # ----------------------------------------------------------------- the reader's gestures
    def _button(self, ui: dict[str, Any], key: str, text: str, handler: Callable[[], Any], *,
                tooltip: str = "", style: str = "") -> Any:
        """A button (``ui["button:<key>"]``) whose handler runs once per deliberate click."""
        b = button(text, lambda: self._gesture(key, handler), tooltip=tooltip, style=style)
        ui[f"button:{key}"] = b
        return b

    def _gesture(self, key: str, handler: Callable[[], Any]) -> None:
        if self._depth:  # a step is running: this click arrived during it
            return
        last = self._last_click.get(key)
        if last is not None and self.clock() - last < self.GESTURE_S:
            # the second click of a double-click, or one queued while the step ran: not repeated, but said
            if not self.message.endswith(self.ONE_GESTURE):
                self._say(f"{self.message} {self.ONE_GESTURE}", error=self.message_is_error)
            return
        try:
            handler()
        finally:
            self._last_click[key] = self.clock()

    def _observe(self, control: Any, handler: Callable[[Any], Any]) -> None:
        """Call ``handler(new value)`` when the reader changes ``control`` (not when a redraw does)."""

        def on_change(change: dict[str, Any]) -> None:
            if not self._busy and not self._depth:
                try:
                    handler(change["new"])
                finally:
                    self._sync_download()  # a choice made without a redraw is in the file at once

        control.observe(on_change, names="value")

    # ----------------------------------------------------------------- size
    @action
    def set_scale(self, scale: Any) -> bool:
        """Draw text, controls and figures at ``scale`` (1 normal, 1.6 for a projector, 2.7 for a lecture hall).

        The message line keeps what the explorer was saying (the claim of its main view): the size
        shows in the size control, not in place of that claim.  A refused size says why on the
        message line; the next size accepted brings back what was there before the refusal."""
        try:
            new = check_scale(scale)
        except ValueError as e:
            refused = self._before_refusal
            kept = ((self.message, self.message_is_error) if refused is None or self.message != refused[0]
                    else refused[1:])  # refused twice in a row: still the line before the first
            self._say(str(e), error=True)
            self._before_refusal = (self.message, *kept)
            return False
        if self._before_refusal is not None and self.message == self._before_refusal[0]:
            _refusal, said, error = self._before_refusal
            self._say(said, error=error)
        self._before_refusal = None
        self.scale = new
        self._refresh()
        return True

    # ----------------------------------------------------------------- sessions
    def _session_state(self) -> dict[str, Any]:  # pragma: no cover - every explorer has its own
        """The state a session file records (JSON-ready)."""
        raise NotImplementedError

    def _restore(self, state: dict[str, Any], source: str) -> str:  # pragma: no cover - every explorer has its own
        """Come back to ``state``: read every field first (a :class:`SessionError` changes nothing),
        then replace the state; returns a sentence saying what was restored."""
        raise NotImplementedError

    def session_json(self) -> str:
        """The session file of the current state (format ``coalg-explorer-session``)."""
        return dumps_session(self.KIND, self._session_state())

    @action
    def import_session(self, data: str | bytes | dict[str, Any], *, source: str = "<session>") -> bool:
        """Come back to the state of a session file (its text or bytes, or its parsed ``state``);
        ``False``, with the reason as the message, if it cannot be read — then nothing changes."""
        try:
            state = data if isinstance(data, dict) else loads_session(data, kind=self.KIND, source=source)
            done = self._restore(state, source)
        except SessionError as e:
            self._say(f"could not import that session: {e}", error=True)
            return False
        self._say(f"session imported: {done}")
        self._refresh()
        return True

    def save_session(self, path: str | os.PathLike[str]) -> None:
        """Write the session file to ``path`` (atomically; raises :class:`SessionError` if it cannot)."""
        write_session(path, self.KIND, self._session_state())

    @action
    def load_session(self, path: str | os.PathLike[str]) -> bool:
        """Read a session file from ``path`` and come back to its state (see :meth:`import_session`)."""
        try:
            state = read_session(path, kind=self.KIND)
        except SessionError as e:
            self._say(f"could not import that session: {e}", error=True)
            return False
        return bool(self.import_session(state, source=os.fspath(path)))

    def _on_session_upload(self, change: dict[str, Any]) -> None:
        files = change.get("new") or ()
        if not files or self._busy:
            return
        try:
            f = files[0] if isinstance(files, list | tuple) else next(iter(files.values()))
            self.import_session(bytes(f["content"]), source=str(f.get("name", "<upload>")))
        finally:
            if self._ui is not None and "import" in self._ui:
                # ready for the next file, even the same one again, after a refusal as after an import
                self._ui["import"].value = ()

    def _session_bar(self, ui: dict[str, Any]) -> Any:
        """The row that downloads the session as a file and imports one."""
        w = ipywidgets()
        ui["download"] = w.HTML()
        ui["import"] = session_upload()
        ui["import"].observe(self._on_session_upload, names="value")
        return w.HBox([ui["download"], ui["import"]], layout=w.Layout(align_items="center"))

    def _size_control(self, ui: dict[str, Any]) -> Any:
        """The size control (normal, large, projector, lecture hall)."""
        ui["size"] = size_picker(self.scale, SCALES)
        self._observe(ui["size"], self.set_scale)
        return ui["size"]

    # ----------------------------------------------------------------- the front end
    @property
    def widget(self) -> Any:
        """The ipywidgets front end (built on first use)."""
        if self._ui is None:
            w = ipywidgets()
            ui: dict[str, Any] = {}
            self._ui = ui
            self._build(ui)
            ui["body"] = ui["root"]
            ui["built"] = tuple(ui["body"].children)
            ui["style"] = w.HTML()
            ui["root"] = w.VBox([ui["style"], ui["root"]])
            ui["root"].add_class("coalg-explorer")
            ui["root"].add_class(f"coalg-{self.KIND}")
            ui["message"].add_class("coalg-message")
            self._refresh()
            self._unlock()  # controls that have nothing to do yet (undo before any step) start disabled
        return self._ui["root"]

    def _build(self, ui: dict[str, Any]) -> None:  # pragma: no cover - every explorer has its own
        """Create the controls into ``ui``; ``ui["root"]`` is the widget, ``ui["message"]`` the message line."""
        raise NotImplementedError

    def _draw(self, ui: dict[str, Any]) -> None:  # pragma: no cover - every explorer has its own
        """Set the controls, texts and figures in ``ui`` from the state."""
        raise NotImplementedError

    def _arrange(self, ui: dict[str, Any]) -> list[Any]:
        """The rows of the front end at this size, top to bottom (by default as :meth:`_build` made
        them).  At the lecture hall's size an explorer puts its main view — the figure and the line
        that says what it shows, marked ``coalg-main`` — right under its controls, and what is
        longer to read under the figure, so that the main view is on one screen."""
        return list(ui["built"])

    def _under_figure_in_hall(self, ui: dict[str, Any], key: str) -> list[Any]:
        """The rows as built, with ``ui[key]`` (a table to read) moved under the figure at the lecture
        hall's size: an :meth:`_arrange` for an explorer whose only change there is that one."""
        rows = list(ui["built"])
        if hall(self.scale):
            rows.remove(ui[key])
            rows.insert(rows.index(ui["figure"]) + 1, ui[key])
        return rows

    def _refresh(self, **parts: bool) -> None:
        """Redraw the front end from the state (nothing to do before it is built).

        ``parts`` go to :meth:`_draw` (an explorer may redraw only part of its
        figures).  Control values set here do not call the reader's handlers.
        The size is redrawn every time, and the session link (:meth:`_sync_download`)
        after it, so what the reader downloads is always the state shown.
        """
        ui = self._ui
        if ui is None:
            return
        was, self._busy = self._busy, True
        try:
            self._draw(ui, **parts)
            rows = tuple(self._arrange(ui))
            if rows != tuple(ui["body"].children):
                ui["body"].children = rows
            root = ui["root"]
            for c in list(root._dom_classes):
                if c.startswith("coalg-scale-") and c != scale_class(self.scale):
                    root.remove_class(c)
            root.add_class(scale_class(self.scale))
            ui["style"].value = scale_css(self.scale)
            if "size" in ui:  # a size without a name of its own says its factor beside the buttons
                named = self.scale in SCALES.values()
                ui["size"].value = self.scale if named else None
                ui["size"].description = "size" if named else f"size ×{self.scale:g}"
        finally:
            self._busy = was
        self._sync_download()
        self._show_message()

    def _sync_download(self) -> None:
        """Rebuild the download link from the state now: after every redraw, every change the reader
        makes to a control and every action, so a click on it always saves what is on screen."""
        ui = self._ui
        if ui is None or "download" not in ui:
            return
        try:
            ui["download"].value = download_html(self.session_json(), f"coalg-{self.KIND}-session.json")
        except (ValueError, TypeError) as e:
            ui["download"].value = f"<i>no session file: {e}</i>"

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        """The front end, for a notebook or a web page; a sentence for what cannot show widgets
        (``text/markdown``: the book's PDF; ``text/plain``: a terminal)."""
        bundle = dict(self.widget._repr_mimebundle_(**kwargs) or {})
        bundle["text/plain"] = f"<{type(self).__name__}: {self.message}>"
        bundle["text/markdown"] = (
            "*The live explorer cannot be printed: open this notebook with* `make lab` *(JupyterLab)"
            " or* `make explorers` *(Voila) to use it.*")
        return bundle
