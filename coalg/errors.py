"""Error types of coalg: one base class, and one clear error for bad input."""

from __future__ import annotations

__all__ = ["CoalgError", "InputError"]


class CoalgError(Exception):
    """Base class of every error coalg raises on purpose."""


class InputError(CoalgError, ValueError):
    """Malformed or hostile input; the message names the location.

    >>> str(InputError("expected '(src,label,dst)', got 'garbage'", source="file.aut", line=3))
    "file.aut, line 3: expected '(src,label,dst)', got 'garbage'"
    """

    def __init__(self, message: str, *, source: str | None = None, line: int | None = None) -> None:
        self.message, self.source, self.line = message, source, line
        where = ", ".join(x for x in (source, None if line is None else f"line {line}") if x)
        super().__init__(f"{where}: {message}" if where else message)
