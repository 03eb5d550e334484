"""Kernel-free tours: a recorded sequence of an explorer's states, stepped by a slider in the browser.

A page of the web book is executed once, at build time; afterwards no Python
runs, so an explorer's buttons do nothing there.  A *tour* is what can move:
the states of a scripted session (:mod:`coalg.widgets.tours`) are computed at
build time, one :class:`TourFrame` each (a title, some HTML, an SVG figure),
and :func:`tour_widget` lays them out as ipywidgets whose only behaviour is a
link made in the browser (``jslink``): the slider's value is the index of the
frame shown.  The link lives in the saved widget state, so the page steps
through the frames with no kernel at all, by mouse or keyboard.

The frames sit in a ``Stack`` (only the selected one shows, and there is no
tab bar: the slider is the only way to move); a second ``Stack`` of one-line
labels, linked to the same slider, is the readout "step k of n".  A :class:`Tour` displays as
that widget, and offers the builders that cannot show widgets (the LaTeX one,
for ``make pdf``) its frames in sequence, as text (``text/markdown``).

>>> t = Tour([TourFrame("start", "<b>nothing yet</b>"), TourFrame("one step", "a &amp; b")])
>>> len(t), t.slider.max, t.frames_tab.selected_index
(2, 1, 0)
>>> print(t.markdown().splitlines()[-1])
a \\& b
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .controls import ipywidgets
from .figures import shown_size
from .text import esc

__all__ = ["NOTE", "Tour", "TourFrame", "tour_widget"]

NOTE = "Recorded when the page was built: the slider steps through it with no Python running."
"""What a tour says about itself, above its slider."""

MAX_FRAMES = 60
"""The most frames a tour may hold (each frame's figure is saved in the page)."""

_TAG = re.compile(r"<[^>]+>")
_BREAK = re.compile(r"<(?:br|/div|/p|/li|/tr|/summary|/h\d)\s*/?>", re.IGNORECASE)
_CELL = re.compile(r"</t[dh]>", re.IGNORECASE)
_SUB = re.compile(r"<sub>(.*?)</sub>", re.IGNORECASE)
_SUP = re.compile(r"<sup>(.*?)</sup>", re.IGNORECASE)
_DETAILS = re.compile(r"<details\b.*?</details>", re.IGNORECASE | re.DOTALL)
_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]<>()#+\-.!|$~:&])")


@dataclass(frozen=True)
class TourFrame:
    """One state of a tour: a short title, what the explorer wrote (HTML), and its figure (SVG)."""

    title: str
    html: str = ""
    svg: bytes = b""


def _check(frames: Any) -> list[TourFrame]:
    """The frames as a list, or ``ValueError``/``TypeError`` saying what is wrong with them."""
    if isinstance(frames, TourFrame | str | bytes) or not isinstance(frames, Sequence):
        raise TypeError(f"a tour needs a list of TourFrame; got {type(frames).__name__}")
    out = list(frames)
    if not out:
        raise ValueError("a tour needs at least one frame; the list is empty")
    if len(out) > MAX_FRAMES:
        raise ValueError(f"a tour holds at most {MAX_FRAMES} frames; {len(out)} were given")
    for k, f in enumerate(out):
        if not isinstance(f, TourFrame):
            raise TypeError(f"frame {k} is a {type(f).__name__}, not a TourFrame")
        if not isinstance(f.title, str) or not f.title.strip():
            raise ValueError(f"frame {k} has no title")
        if not isinstance(f.html, str):
            raise TypeError(f"frame {k}: html must be text, not {type(f.html).__name__}")
        if not isinstance(f.svg, bytes):
            raise TypeError(f"frame {k}: svg must be bytes, not {type(f.svg).__name__}")
        if f.svg and not f.svg.lstrip().startswith((b"<?xml", b"<svg")):
            raise ValueError(f"frame {k}: svg is not an SVG document")
    return out


def _readout(k: int, n: int) -> str:
    return f"step {k + 1} of {n}"


def _frame_box(w: Any, f: TourFrame, k: int, n: int) -> Any:
    head = w.HTML(f"<div class='coalg-tour-title'><b>{esc(_readout(k, n))}: {esc(f.title)}</b></div>")
    parts = [head]
    if f.html:
        parts.append(w.HTML(f.html))
    if f.svg:
        try:
            width = shown_size(f.svg)[0]
        except ValueError:  # an SVG not drawn by coalg.widgets.figures: shown at its own size
            width = 0.0
        parts.append(w.Image(value=f.svg, format="svg+xml", layout=w.Layout(
            width=f"{width:.0f}px" if width else "auto", max_width="100%", height="auto")))
    box = w.VBox(parts)
    box.add_class("coalg-tour-frame")
    return box


@dataclass(frozen=True)
class _Parts:
    """The widgets of a tour: the whole box, the slider, the readout, the frames, the browser links."""

    box: Any
    slider: Any
    readout: Any
    pages: Any
    links: tuple[Any, ...]


def _build(frames: Sequence[TourFrame], title: str) -> _Parts:
    fs = _check(frames)
    w = ipywidgets()
    n = len(fs)
    slider = w.IntSlider(value=0, min=0, max=n - 1, step=1, description="step", readout=False,
                         continuous_update=True, style={"description_width": "initial"},
                         layout=w.Layout(width="100%", max_width="24em", flex="1 1 12em"),
                         tooltip="Move through the recorded states (arrow keys work once it has the focus).")
    # Stacks, not tabs: only the selected child is shown, and there is no tab bar to hide or to leave empty
    readout = w.Stack(children=[w.HTML(f"<b>{_readout(k, n)}</b>") for k in range(n)], selected_index=0,
                      layout=w.Layout(width="auto", flex="0 0 auto"))
    readout.add_class("coalg-tour-readout")
    pages = w.Stack(children=[_frame_box(w, f, k, n) for k, f in enumerate(fs)], selected_index=0)
    pages.add_class("coalg-tour-frames")
    links = (w.jslink((slider, "value"), (pages, "selected_index")),
             w.jslink((slider, "value"), (readout, "selected_index")))
    head = w.HTML((f"<div class='coalg-tour-heading'><b>{esc(title)}</b></div>" if title else "")
                  + f"<div class='coalg-tour-note'><i>{esc(NOTE)}</i></div>")
    row = w.HBox([slider, readout], layout=w.Layout(flex_flow="row wrap", align_items="center"))
    box = w.VBox([head, row, pages], layout=w.Layout(max_width="100%"))
    box.add_class("coalg-tour")
    return _Parts(box, slider, readout, pages, links)


def tour_widget(frames: Sequence[TourFrame], *, title: str = "") -> Any:
    """The tour of ``frames`` as a ``VBox`` (CSS class ``coalg-tour``) that steps with no kernel.

    Its children: a title and :data:`NOTE` (``HTML``); a row with the
    ``IntSlider`` (0 … n−1) and the readout (a ``Stack`` of one-line labels);
    the ``Stack`` of frames.  The slider is ``jslink``-ed to the
    ``selected_index`` of both stacks, so the browser moves them itself.  Bad
    frames raise ``TypeError``/``ValueError`` naming the frame and what is
    wrong, before any widget is made.  :class:`Tour` keeps the parts by name.
    """
    return _build(frames, title).box


def _plain(fragment: str) -> str:
    """HTML as plain text: folded details and tags dropped, entities read, blank runs squeezed."""
    text = _SUP.sub(r"^\1", _SUB.sub(r"_\1", fragment))
    text = _TAG.sub("", _CELL.sub(" ", _BREAK.sub("\n", _DETAILS.sub("", text))))
    lines = [" ".join(html.unescape(line).split()) for line in text.splitlines()]
    return "\n".join(line for line in lines if line)


def _md(text: str) -> str:
    """Text safe to parse as MyST Markdown (every punctuation mark that could mean something escaped)."""
    return _MD_SPECIAL.sub(r"\\\1", text)


class Tour:
    """A tour: displayed as :func:`tour_widget`; for the LaTeX builder, its frames as text.

    ``frames`` are kept (:attr:`frames`); the widget is built once, at
    construction, so bad frames fail here with a clear error.
    """

    def __init__(self, frames: Sequence[TourFrame], *, title: str = "") -> None:
        self.frames = _check(frames)
        self.title = title
        parts = _build(self.frames, title)
        self.widget = parts.box
        self.slider, self.readout, self.frames_tab, self.links = parts.slider, parts.readout, parts.pages, parts.links

    def __len__(self) -> int:
        return len(self.frames)

    def markdown(self) -> str:
        """The frames in sequence, as Markdown text (what ``make pdf`` prints instead of the slider)."""
        n = len(self.frames)
        note = ("A recorded tour of the explorer, printed step by step. In the web book a slider steps "
                "through it, with the figure of each step.")
        out = [f"*{_md(note)}*"]
        if self.title:
            out.insert(0, f"**{_md(self.title)}**")
        for k, f in enumerate(self.frames):
            out.append(f"**{_md(_readout(k, n) + ': ' + f.title)}**")
            body = _plain(f.html)
            if body:
                out.append("\n\n".join(_md(line) for line in body.splitlines()))
        return "\n\n".join(out)

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        bundle = dict(self.widget._repr_mimebundle_(**kwargs) or {})
        bundle["text/plain"] = f"<a recorded tour of {len(self.frames)} steps: {self.title or 'untitled'}>"
        bundle["text/markdown"] = self.markdown()
        return bundle
