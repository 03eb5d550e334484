"""Reading a session's state field by field: every wrong field is a :class:`SessionError` naming it.

An explorer restores a session (:mod:`coalg.widgets.session`) by reading each field it needs
through :class:`Fields`, building its whole new state first and only then
replacing the old one, so a bad file changes nothing.

>>> f = Fields({"round": 2, "store": "lineage"})
>>> f.integer("round", 0, 10), f.text("store", choices=("lineage", "empty"))
(2, 'lineage')
>>> f.integer("round", 0, 1)
Traceback (most recent call last):
...
coalg.widgets.session.SessionError: <session>: state.round: 2 is outside 0 … 1
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..bitemporal import History
from ..errors import CoalgError
from ..model import Call, Store, Theta, call_from_json, store_from_json, theta_from_json
from .session import SessionError

__all__ = ["Fields"]

_MISSING: Any = object()


def _reason(e: Exception) -> str:
    """What went wrong, without the location an :class:`InputError` prefixes (the caller names it)."""
    return str(getattr(e, "message", None) or e)


def _kind(v: Any) -> str:
    return {bool: "true/false", int: "a number", float: "a number", str: "text", list: "a list",
            dict: "an object", type(None): "null"}.get(type(v), type(v).__name__)


class Fields:
    """One object of a session state; ``where`` is its path (``state``, ``state.selection``)."""

    def __init__(self, obj: Any, where: str = "state", source: str = "<session>") -> None:
        if not isinstance(obj, dict):
            raise SessionError(f"expected an object, found {_kind(obj)}", source=source, field=where)
        self.obj, self.where, self.source = obj, where, source

    def fail(self, key: str, reason: str) -> SessionError:
        """The error for field ``key``."""
        return SessionError(reason, source=self.source, field=f"{self.where}.{key}")

    def only(self, *keys: str) -> None:
        """Refuse fields other than ``keys`` (a misspelt field is not silently ignored)."""
        unknown = sorted(set(self.obj) - set(keys))
        if unknown:
            raise SessionError(f"unknown field(s) {', '.join(unknown)}; known: {', '.join(keys)}",
                               source=self.source, field=self.where)

    def _get(self, key: str, default: Any) -> Any:
        if key in self.obj:
            return self.obj[key]
        if default is _MISSING:
            raise self.fail(key, "missing")
        return default

    def text(self, key: str, *, default: Any = _MISSING, choices: Sequence[str] | None = None,
             max_len: int = 100_000, optional: bool = False) -> Any:
        """A string field (``optional``: ``null`` allowed), one of ``choices`` if given."""
        v = self._get(key, default)
        if v is None and optional:
            return None
        if not isinstance(v, str):
            raise self.fail(key, f"expected text, found {_kind(v)}")
        if len(v) > max_len:
            raise self.fail(key, f"{len(v)} characters, more than {max_len}")
        if choices is not None and v not in choices:
            raise self.fail(key, f"{v!r} is not one of {', '.join(choices)}")
        return v

    def integer(self, key: str, lo: int, hi: int, *, default: Any = _MISSING) -> int:
        """An integer field within ``lo … hi`` (a value outside is refused, not clamped)."""
        v = self._get(key, default)
        if not isinstance(v, int) or isinstance(v, bool):
            raise self.fail(key, f"expected a whole number, found {_kind(v)}")
        if not lo <= v <= hi:
            raise self.fail(key, f"{v} is outside {lo} … {hi}")
        return v

    def flag(self, key: str, *, default: Any = _MISSING) -> bool:
        """A true/false field."""
        v = self._get(key, default)
        if not isinstance(v, bool):
            raise self.fail(key, f"expected true or false, found {_kind(v)}")
        return v

    def texts(self, key: str, *, max_len: int = 10_000, default: Any = _MISSING) -> list[str]:
        """A list of strings."""
        v = self._get(key, default)
        if not isinstance(v, list):
            raise self.fail(key, f"expected a list, found {_kind(v)}")
        if len(v) > max_len:
            raise self.fail(key, f"{len(v)} entries, more than {max_len}")
        for k, x in enumerate(v):
            if not isinstance(x, str):
                raise self.fail(f"{key}[{k}]", f"expected text, found {_kind(x)}")
        return list(v)

    def sub(self, key: str, *, default: Any = _MISSING) -> Fields:
        """An object field, read the same way."""
        return Fields(self._get(key, default), f"{self.where}.{key}", self.source)

    def _parsed(self, key: str, parse: Any, default: Any) -> Any:
        v = self._get(key, default)
        try:
            return parse(v)
        except (CoalgError, ValueError, TypeError, KeyError, AttributeError) as e:
            raise self.fail(key, _reason(e)) from None

    def store(self, key: str, *, default: Any = _MISSING) -> Store:
        """A store in the ``coalg-store`` JSON layout."""
        return self._parsed(key, lambda v: store_from_json(v, source=f"{self.where}.{key}"), default)  # type: ignore[no-any-return]

    def theta(self, key: str, *, default: Any = _MISSING) -> Theta:
        """θ as ``{"type_priority": [...], "id_priority": [...], "descending": bool}``."""
        return self._parsed(key, theta_from_json, default)  # type: ignore[no-any-return]

    def history(self, key: str) -> History:
        """A bitemporal history (``coalg-history``)."""
        return self._parsed(key, History.from_json, _MISSING)  # type: ignore[no-any-return]

    def calls(self, key: str, *, max_len: int, default: Any = _MISSING) -> list[Call]:
        """A word: a list of calls (letter and allocation each)."""
        v = self._get(key, default)
        if not isinstance(v, list):
            raise self.fail(key, f"expected a list of calls, found {_kind(v)}")
        if len(v) > max_len:
            raise self.fail(key, f"{len(v)} calls, more than {max_len}")
        out = []
        for k, c in enumerate(v):
            try:
                out.append(call_from_json(c, where=f"{self.where}.{key}[{k}]", source=self.source))
            except (CoalgError, ValueError, TypeError) as e:
                raise SessionError(_reason(e), source=self.source) from None
        return out

    def call(self, key: str) -> Call:
        """One call (letter and allocation)."""
        try:
            return call_from_json(self._get(key, _MISSING), where=f"{self.where}.{key}", source=self.source)
        except (CoalgError, ValueError, TypeError) as e:
            raise SessionError(_reason(e), source=self.source) from None

    def items(self, key: str, *, max_len: int, default: Any = _MISSING) -> list[Fields]:
        """A list of objects, each read as :class:`Fields`."""
        v = self._get(key, default)
        if not isinstance(v, list):
            raise self.fail(key, f"expected a list, found {_kind(v)}")
        if len(v) > max_len:
            raise self.fail(key, f"{len(v)} entries, more than {max_len}")
        return [Fields(x, f"{self.where}.{key}[{k}]", self.source) for k, x in enumerate(v)]
