"""The controls several explorers share: buttons, figure images, the preset and realisation pickers.

ipywidgets is imported on first use (:func:`ipywidgets`), so an explorer driven
headlessly — a test, a doctest, the book's tours — needs it only for ``.widget``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..model import names as preset_names

__all__ = [
    "button",
    "figure_image",
    "in_argument_order",
    "ipywidgets",
    "preset_picker",
    "realisation_picker",
    "reverse_box",
]


def ipywidgets() -> Any:
    """The ``ipywidgets`` module (an optional dependency: ``coalg[book]``)."""
    import ipywidgets  # type: ignore[import-untyped]

    return ipywidgets


def button(text: str, handler: Callable[[], Any], *, tooltip: str = "", style: str = "") -> Any:
    """A button labelled ``text`` that calls ``handler()`` when clicked."""
    w = ipywidgets()
    b = w.Button(description=text, tooltip=tooltip or text, button_style=style,
                 layout=w.Layout(width="auto"))
    b.on_click(lambda _b: handler())
    return b


def figure_image() -> Any:
    """An ``Image`` for a PNG figure, shown at its natural size (a flex box would stretch and blur it)."""
    w = ipywidgets()
    return w.Image(format="png", layout=w.Layout(max_width="100%", width="auto", align_self="flex-start"))


def preset_picker(current: str) -> Any:
    """A dropdown of the preset stores (:mod:`coalg.model`'s examples), showing ``current`` if it is one."""
    return ipywidgets().Dropdown(options=list(preset_names()), description="preset",
                                 value=current if current in preset_names() else None)


def realisation_picker(current: str) -> Any:
    """Toggle buttons for the two realisations, ContextFS and the repaired one."""
    return ipywidgets().ToggleButtons(options=["contextfs", "repaired"], value=current,
                                      description="realisation")


def reverse_box() -> Any:
    """The checkbox that reverses the order of the selected records (a selection lists them in store order)."""
    return ipywidgets().Checkbox(value=False, description="reverse argument order")


def in_argument_order(records: Any, reverse: Any) -> list[str]:
    """The identifiers selected in ``records`` (a ``SelectMultiple``), reversed if ``reverse`` is ticked."""
    ids = [str(i) for i in records.value]
    return ids[::-1] if reverse.value else ids
