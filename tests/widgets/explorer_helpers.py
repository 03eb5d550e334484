"""Helpers for driving an explorer's widget tree headlessly (imported by the tests beside it)."""

from __future__ import annotations

import html
from typing import Any


def walk(root: Any) -> list[Any]:
    """Every widget under ``root``, depth first, in the order they are shown."""
    out: list[Any] = []
    todo = [root]
    while todo:
        x = todo.pop(0)
        out.append(x)
        todo[0:0] = list(getattr(x, "children", ()))
    return out


def buttons(root: Any) -> dict[str, Any]:
    """Every Button under a widget tree, by its description."""
    import ipywidgets as w

    return {x.description: x for x in walk(root) if isinstance(x, w.Button)}


def controls(root: Any) -> dict[str, Any]:
    """Every control a reader can operate (it has ``disabled``), keyed ``kind:description``."""
    import ipywidgets as w

    out: dict[str, Any] = {}
    for x in walk(root):
        if not hasattr(x, "disabled"):
            continue
        kind = "button" if isinstance(x, w.Button) else type(x).__name__
        key = f"{kind}:{x.description}"
        n = 2
        while key in out:
            key, n = f"{kind}:{x.description}#{n}", n + 1
        out[key] = x
    return out


def message(ex: Any) -> str:
    """The message line as the reader sees it (HTML entities decoded)."""
    return html.unescape(ex._ui["message"].value) if ex._ui is not None else ex.message


class FakeClock:
    """A clock the test moves by hand (the explorers read ``clock()`` to tell one gesture from two)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class Deliberate(FakeClock):
    """A clock that moves a second at every reading: every click is a deliberate one."""

    def __call__(self) -> float:
        self.now += 1.0
        return self.now
