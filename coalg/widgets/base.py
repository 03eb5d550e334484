"""The base every explorer stands on: behaviour in methods, messages in the widget, a lazy front end.

An explorer is a class whose methods are the whole behaviour — callable from a
test or a notebook cell without a browser — and whose ``.widget`` (also shown by
displaying the object) is a thin layer of controls that call those methods.

* **Actions never raise at the reader.**  A method decorated with :func:`action`
  is something a reader does (press a button, pick a record).  An invalid action
  leaves the state alone and says why with :meth:`Explorer._say` (``error=True``);
  an unexpected exception becomes the message ``"<Type>: <text>"`` and the
  action returns ``None``.  ``.message`` and ``.message_is_error`` hold the
  last sentence, the widget shows it under the controls.
* **The front end is built on first use** (:attr:`Explorer.widget`):
  :meth:`Explorer._build` creates the controls into a dict, and
  :meth:`Explorer._refresh` redraws them from the state.  While a redraw sets
  control values, the handlers registered with :meth:`Explorer._observe` do
  not fire, so only the reader's own changes call back.

The explorers serve the paper's sections listed in :mod:`coalg.widgets`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

from ..model import Realisation, get_realisation
from ..viz import REMOVED
from .text import message_html

__all__ = ["Explorer", "action"]

F = TypeVar("F", bound=Callable[..., Any])


def action(method: F) -> F:
    """Mark ``method`` as a reader's action: an unexpected exception becomes the widget's message
    (shown in error colour) and the action returns ``None``; it never reaches the reader."""

    @functools.wraps(method)
    def wrapper(self: Explorer, *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        except Exception as e:  # noqa: BLE001 — an explorer never raises at its reader
            self._say(f"{type(e).__name__}: {e}", error=True)
            return None

    return wrapper  # type: ignore[return-value]


class Explorer:
    """Shared plumbing of the explorers: the message line, the lazy front end, display."""

    def __init__(self, message: str = "") -> None:
        self.message = message
        self.message_is_error = False
        self._ui: dict[str, Any] | None = None
        self._busy = False

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

    # ----------------------------------------------------------------- the front end
    @property
    def widget(self) -> Any:
        """The ipywidgets front end (built on first use)."""
        if self._ui is None:
            self._ui = {}
            self._build(self._ui)
            self._refresh()
        return self._ui["root"]

    def _build(self, ui: dict[str, Any]) -> None:  # pragma: no cover - every explorer has its own
        """Create the controls into ``ui``; ``ui["root"]`` is the widget, ``ui["message"]`` the message line."""
        raise NotImplementedError

    def _draw(self, ui: dict[str, Any]) -> None:  # pragma: no cover - every explorer has its own
        """Set the controls, texts and figures in ``ui`` from the state."""
        raise NotImplementedError

    def _refresh(self, **parts: bool) -> None:
        """Redraw the front end from the state (nothing to do before it is built).

        ``parts`` go to :meth:`_draw` (an explorer may redraw only part of its
        figures).  Control values set here do not call the reader's handlers.
        """
        if self._ui is None:
            return
        was, self._busy = self._busy, True
        try:
            self._draw(self._ui, **parts)
        finally:
            self._busy = was
        self._show_message()

    def _observe(self, control: Any, handler: Callable[[Any], Any]) -> None:
        """Call ``handler(new value)`` when the reader changes ``control`` (not when a refresh does)."""

        def on_change(change: dict[str, Any]) -> None:
            if not self._busy:
                handler(change["new"])

        control.observe(on_change, names="value")

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.widget)  # type: ignore[no-untyped-call]
