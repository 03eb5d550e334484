"""The controls several explorers share: buttons, figure images, pickers, the session row, the size.

ipywidgets is imported on first use (:func:`ipywidgets`), so an explorer driven
headlessly — a test, a doctest, the book's tours — needs it only for ``.widget``.

Labels are never cut (``description_width="initial"``), every control says in
its tooltip what it does, and numbers are typed into plain number boxes that
never clamp what the reader typed: the explorer checks the range and says when
a value is outside it.

>>> scale_class(1.6)
'coalg-scale-160'
"""

from __future__ import annotations

import base64
from collections.abc import Callable, Mapping
from typing import Any

from ..model import names as preset_names
from .text import esc

__all__ = [
    "ARGUMENT_ORDER_TIP",
    "button",
    "download_html",
    "figure_image",
    "in_argument_order",
    "ipywidgets",
    "number_box",
    "preset_picker",
    "realisation_picker",
    "reverse_box",
    "scale_class",
    "scale_css",
    "session_upload",
    "size_picker",
    "wide",
]

ARGUMENT_ORDER_TIP = ("The records are the arguments in the order of this list (store order); "
                      "tick 'reverse argument order' for the other order. Ctrl/⌘-click selects several.")
"""The tooltip of every record list whose selection becomes the arguments of a call."""


def ipywidgets() -> Any:
    """The ``ipywidgets`` module (an optional dependency: ``coalg[book]``)."""
    import ipywidgets  # type: ignore[import-untyped]

    return ipywidgets


def wide() -> dict[str, str]:
    """The style that shows a control's whole description (none is cut to "records e…")."""
    return {"description_width": "initial"}


def button(text: str, handler: Callable[[], Any], *, tooltip: str = "", style: str = "") -> Any:
    """A button labelled ``text`` that calls ``handler()`` when clicked."""
    w = ipywidgets()
    b = w.Button(description=text, tooltip=tooltip or text, button_style=style,
                 layout=w.Layout(width="auto"))
    b.on_click(lambda _b: handler())
    return b


def figure_image() -> Any:
    """An ``Image`` for an SVG figure, shown at its own size (a flex box would stretch it)."""
    w = ipywidgets()
    return w.Image(format="svg+xml", layout=w.Layout(max_width="100%", width="auto", align_self="flex-start"))


def number_box(value: int, description: str, tooltip: str) -> Any:
    """A box for a whole number; it takes what the reader types as typed (no silent clamping)."""
    w = ipywidgets()
    return w.IntText(value=value, description=description, tooltip=tooltip, style=wide(),
                     layout=w.Layout(width="auto", max_width="16em"))


def preset_picker(current: str) -> Any:
    """A dropdown of the preset stores (:mod:`coalg.model`'s examples), showing ``current`` if it is one."""
    return ipywidgets().Dropdown(options=list(preset_names()), description="preset", style=wide(),
                                 value=current if current in preset_names() else None,
                                 tooltip="Start again from one of the book's example stores.")


def realisation_picker(current: str) -> Any:
    """Toggle buttons for the two realisations, ContextFS and the repaired one."""
    return ipywidgets().ToggleButtons(
        options=["contextfs", "repaired"], value=current, description="realisation", style=wide(),
        tooltips=["ContextFS as it is (paper §3.3)", "the repaired realisation (this book's proposals)"])


def reverse_box() -> Any:
    """The checkbox that reverses the order of the selected records (a selection lists them in store order)."""
    return ipywidgets().Checkbox(value=False, description="reverse argument order", indent=False,
                                 tooltip="Use the selected records in the other order (the last first).")


def in_argument_order(records: Any, reverse: Any) -> list[str]:
    """The identifiers selected in ``records`` (a ``SelectMultiple``), reversed if ``reverse`` is ticked."""
    ids = [str(i) for i in records.value]
    return ids[::-1] if reverse.value else ids


def size_picker(current: float, sizes: Mapping[str, float]) -> Any:
    """Toggle buttons for the text and figure size (normal, large, projector, lecture hall)."""
    return ipywidgets().ToggleButtons(
        options=list(sizes.items()), value=current if current in sizes.values() else None,
        description="size", style={"description_width": "initial", "button_width": "auto"},
        tooltips=[f"text and figures ×{v:g}" for v in sizes.values()])


def session_upload() -> Any:
    """The button that imports a session file (``.json``)."""
    w = ipywidgets()
    return w.FileUpload(accept=".json", multiple=False, description="import session",
                        tooltip="Open a session file someone exported: the explorer comes back to "
                                "exactly that state.", layout=w.Layout(width="auto"))


def download_html(text: str, filename: str) -> str:
    """A link, looking like a button, that saves ``text`` as ``filename`` (no server round trip)."""
    data = base64.b64encode(text.encode("utf-8")).decode("ascii")
    return (f"<a download='{esc(filename)}' href='data:application/json;charset=utf-8;base64,{data}' "
            "class='coalg-download' title='Save the state shown as a session file, to share or to "
            "come back to'>⤓ download session</a>")


def scale_class(scale: float) -> str:
    """The CSS class of an explorer drawn at ``scale``."""
    return f"coalg-scale-{round(scale * 100)}"


def scale_css(scale: float) -> str:
    """The style of an explorer at ``scale``: text, controls and the download link, all ``scale`` times larger."""
    c = f".coalg-explorer.{scale_class(scale)}"
    px = {"font": 13, "height": 28, "label": 80, "handle": 16, "width": 300}
    return (
        "<style>"
        f"{c}{{--jp-widgets-font-size:{px['font'] * scale:.1f}px;"
        f"--jp-widgets-inline-height:{px['height'] * scale:.1f}px;"
        f"--jp-widgets-inline-label-width:{px['label'] * scale:.1f}px;"
        f"--jp-widgets-slider-handle-size:{px['handle'] * scale:.1f}px;"
        # a control's width (its label and its box) grows with its text: ipywidgets derives the
        # short and tiny widths once, at the root, so all three are set here
        f"--jp-widgets-inline-width:{px['width'] * scale:.1f}px;"
        f"--jp-widgets-inline-width-short:{px['width'] * scale / 2 - 2:.1f}px;"
        f"--jp-widgets-inline-width-tiny:{(px['width'] * scale / 2 - 2) / 2 - 2:.1f}px;"
        f"font-size:{px['font'] * scale:.1f}px}}"
        f"{c} .widget-html-content{{font-size:{px['font'] * scale:.1f}px;line-height:1.35}}"
        f"{c} select, {c} textarea, {c} input{{font-size:{px['font'] * scale:.1f}px}}"
        f"{c} .widget-inline-hbox{{max-width:100%}}"
        f"{c} input[type=checkbox]{{width:0.8em;height:0.8em}}"
        f"{c} .coalg-download{{display:inline-block;padding:0 0.8em;line-height:{px['height'] * scale:.1f}px;"
        "background:#eeeeee;color:#000000;text-decoration:none;border-radius:2px;margin:2px}"
        f"{c} .coalg-download:hover{{background:#dddddd}}"
        "</style>"
    )
