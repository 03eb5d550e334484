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

__all__ = ["QUOTE_LIMIT", "describe", "quote"]

QUOTE_LIMIT = 200
"""At most this many characters of anything quoted from a layer."""


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit - 21] + f"…({len(text)} chars)"


def quote(x: Any, limit: int = QUOTE_LIMIT) -> str:
    """``repr(x)`` in at most ``limit`` characters, on one line; never raises."""
    if type(x) is str and len(x) > limit:
        return repr(x[:max(limit - 24, 8)]) + f"…({len(x)} chars)"
    try:
        text = repr(x)
        if type(text) is not str:
            raise TypeError("repr is not a str")
    except BaseException as e:  # noqa: BLE001 - a layer's __repr__ may raise anything
        return f"<{type(x).__name__} whose repr raised {type(e).__name__}>"
    return _cut(" ".join(text[:limit * 2].split()), limit)


def describe(e: BaseException, limit: int = QUOTE_LIMIT) -> str:
    """``"Type: message"`` of an exception a layer raised, in at most ``limit`` characters; never raises."""
    name = type(e).__name__
    try:
        text = str(e)
        if type(text) is not str:
            raise TypeError("str() is not a str")
    except BaseException as inner:  # noqa: BLE001 - a layer's __str__ may raise anything
        return f"{name} (its message cannot be read: str() raised {type(inner).__name__})"
    text = " ".join(text[:limit * 2].split())
    return _cut(f"{name}: {text}" if text else name, limit)
