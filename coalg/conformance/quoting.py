"""Quoting what a layer gave: ``repr`` and exception messages that never raise and stay short.

A layer's objects may have a ``__repr__`` or ``__str__`` that raises, or be
enormous (an identifier of a hundred megabytes).  Everything the kit quotes
from a layer goes through :func:`quote` or :func:`describe`.

>>> quote("x" * 500)[:12], len(quote("x" * 500)) <= QUOTE_LIMIT
("'xxxxxxxxxxx", True)
>>> class Mute(Exception):
...     def __str__(self): raise RuntimeError("no")
>>> describe(Mute())
'Mute (its message cannot be read: str() raised RuntimeError)'
>>> describe(ValueError("two\\nlines"))
'ValueError: two lines'
"""

from __future__ import annotations

from typing import Any

__all__ = ["QUOTE_LIMIT", "describe", "quote", "readable"]

QUOTE_LIMIT = 200
"""At most this many characters of anything quoted from a layer."""


def _cut(text: str, limit: int, whole: int) -> str:
    """``text`` (the first part of something ``whole`` characters long) in at most ``limit`` characters."""
    return text if whole <= limit else text[:limit - 21] + f"…({whole} chars)"


def _one_line(text: str, limit: int) -> tuple[str, int]:
    """The first ``2 × limit`` characters of ``text`` on one line, and the length to report: the
    whole text's when it was longer (only its start is read), else the one line's."""
    flat = " ".join(text[:limit * 2].split())
    return flat, len(text) if len(text) > limit * 2 else len(flat)


def quote(x: Any, limit: int = QUOTE_LIMIT) -> str:
    """``repr(x)`` in at most ``limit`` characters, on one line; never raises."""
    if type(x) is str and len(repr(x[:limit + 1])) > limit:  # its start, counted in its own characters
        return repr(x[:max(limit - 24, 8)])[:max(limit - 21, 10)] + f"…({len(x)} chars)"
    try:
        text = repr(x)
        if type(text) is not str:
            raise TypeError("repr is not a str")
    except BaseException as e:  # noqa: BLE001 - a layer's __repr__ may raise anything
        return f"<{type(x).__name__} whose repr raised {type(e).__name__}>"
    flat, whole = _one_line(text, limit)
    return _cut(flat, limit, whole)


def readable(e: BaseException) -> bool:
    """Whether ``str(e)`` gives a ``str`` (a layer's exception may raise there, or return something else)."""
    try:
        return type(str(e)) is str
    except BaseException:  # noqa: BLE001 - a layer's __str__ may raise anything
        return False


def describe(e: BaseException, limit: int = QUOTE_LIMIT) -> str:
    """``"Type: message"`` of an exception a layer raised, in at most ``limit`` characters; never raises."""
    name = type(e).__name__
    try:
        text = str(e)
        if type(text) is not str:
            raise TypeError("str() is not a str")
    except BaseException as inner:  # noqa: BLE001 - a layer's __str__ may raise anything
        return f"{name} (its message cannot be read: str() raised {type(inner).__name__})"
    flat, whole = _one_line(text, limit)
    if not flat:
        return _cut(name, limit, len(name))
    return _cut(f"{name}: {flat}", limit, len(name) + 2 + whole)
