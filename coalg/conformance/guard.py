"""Calling a layer the kit does not trust: every call guarded, everything quoted from it bounded.

A layer under test is arbitrary code.  Besides returning or raising an
``Exception`` (a refusal), a call can end the interpreter (``sys.exit``),
raise a ``BaseException`` that is not an ``Exception`` (``SystemExit``,
``KeyboardInterrupt``, ``GeneratorExit``, a class of its own), raise an
exception whose ``__str__`` itself raises, or return values of ``str``
subclasses whose hash changes from run to run.  This module gives the rest
of the kit three things:

* :func:`layer_call` -- a context in which the layer is called: a
  ``BaseException`` that is not an ``Exception`` becomes
  :class:`LayerEscape` (a :class:`~coalg.conformance.protocol.ProtocolMisuse`:
  one line, exit status 2), and when the run is watched from a parent
  process (:mod:`coalg.conformance.isolation`), the start and end of the
  call are reported to it, so that the parent can stop a call that runs too
  long;
* :func:`~coalg.conformance.quoting.quote` and
  :func:`~coalg.conformance.quoting.describe` (re-exported) -- ``repr`` and
  ``"Type: message"`` that never raise and never exceed
  :data:`~coalg.conformance.quoting.QUOTE_LIMIT` characters;
* :func:`plain` -- a JSON-like value copied into built-in types, at most
  :data:`~coalg.model.MAX_DEPTH` levels deep (a self-referential value is
  too deep), with one-line :class:`ProtocolMisuse` otherwise.

>>> d = {}; d["self"] = d
>>> plain(d, "metadata")
Traceback (most recent call last):
...
coalg.conformance.protocol.ProtocolMisuse: metadata: nested more than 100 levels deep (or refers to itself)
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from ..model import MAX_DEPTH
from .protocol import ProtocolMisuse
from .quoting import QUOTE_LIMIT, describe, quote

__all__ = ["QUOTE_LIMIT", "WATCH_ENV", "LayerEscape", "describe", "layer_call", "plain", "plain_str", "quote"]

WATCH_ENV = "COALG_CONFORM_WATCH"
"""The path of the FIFO on which a watched run reports its layer calls (set by the parent, read once)."""


class LayerEscape(ProtocolMisuse):
    """A layer call raised a ``BaseException`` that is not an ``Exception`` (it tried to end the run)."""


# --------------------------------------------------------------------------- the watch channel

_channel: list[int] = []  # the FIFO's descriptor once opened; it reports timing only, never changes a result


def _send(line: str) -> None:
    path = os.environ.get(WATCH_ENV)
    if not path:
        return
    if not _channel:
        try:
            _channel.append(os.open(path, os.O_WRONLY | os.O_NONBLOCK))
            os.set_blocking(_channel[0], True)
        except OSError:
            return
    try:
        os.write(_channel[0], line.encode("ascii", "replace")[:400] + b"\n")
    except OSError:
        pass


def watched() -> bool:
    """Whether this run reports its layer calls to a parent process."""
    return bool(os.environ.get(WATCH_ENV))


@contextmanager
def layer_call(what: str) -> Iterator[None]:
    """Call the layer inside: ``what`` names the call (``save``, ``records``, ...).

    An ``Exception`` passes through (the caller decides whether it is a
    refusal); any other ``BaseException`` becomes :class:`LayerEscape` --
    except ``KeyboardInterrupt`` when the run is not watched (in a test
    suite, Ctrl-C still interrupts).
    """
    _send(f"B {os.getpid()} {what}")
    try:
        yield
    except Exception:
        raise
    except KeyboardInterrupt as e:
        if not watched():
            raise
        raise LayerEscape(f"{what}: the layer raised {describe(e)}; a layer call must return or raise an "
                          "Exception") from None
    except BaseException as e:  # noqa: BLE001 - SystemExit, GeneratorExit, a class of the layer's own
        raise LayerEscape(f"{what}: the layer raised {describe(e)}; a layer call must return or raise an "
                          "Exception") from None
    finally:
        _send(f"E {os.getpid()}")


# --------------------------------------------------------------------------- values from a layer


def plain_str(x: Any, what: str) -> str:
    """``x`` as a built-in ``str`` (a subclass, such as a ``str`` enum, is copied); ProtocolMisuse if no str."""
    if type(x) is str:
        return x
    if isinstance(x, str):
        return str.__str__(x)
    raise ProtocolMisuse(f"{what} must be a string, got {type(x).__name__} {quote(x, 60)}")


def plain(x: Any, what: str, room: int = MAX_DEPTH) -> Any:
    """``x`` copied into built-in JSON-like types (str, int, float, bool, None, list, dict with str keys).

    Tuples become lists, sets frozensets; subclasses of the built-in types are copied
    into the base type.  NaN (equal to nothing, itself included, so a store holding it
    would differ from itself), more than :data:`~coalg.model.MAX_DEPTH` levels of
    nesting (a self-referential value has infinitely many) or any other type is
    :class:`ProtocolMisuse`.
    """
    if x is None or x is True or x is False:
        return x
    if isinstance(x, str):
        return plain_str(x, what)
    if isinstance(x, bool):
        return bool.__bool__(x)
    if isinstance(x, int):
        return int.__index__(x)
    if isinstance(x, float):
        if math.isnan(x):
            raise ProtocolMisuse(f"{what}: NaN is not a value the kit can compare: it equals nothing, itself "
                                 "included")
        return float.__float__(x)
    if isinstance(x, (Mapping, list, tuple, set, frozenset)):
        if room <= 0:
            raise ProtocolMisuse(f"{what}: nested more than {MAX_DEPTH} levels deep (or refers to itself)")
        if isinstance(x, Mapping):
            out = {}
            for k, v in list(x.items()):
                if isinstance(k, (Mapping, list, tuple, set, frozenset)):
                    raise ProtocolMisuse(f"{what}: a key must be a string or a number, got {type(k).__name__}")
                key = plain(k, f"{what}: a key", 0)
                out[key if isinstance(key, str) else str(key)] = plain(v, what, room - 1)
            return out
        items = [plain(v, what, room - 1) for v in list(x)]
        if not isinstance(x, (set, frozenset)):
            return items
        try:
            return frozenset(items)
        except TypeError:
            raise ProtocolMisuse(f"{what}: a set may hold only strings, numbers, booleans and None") from None
    raise ProtocolMisuse(f"{what} must hold JSON-like values (strings, numbers, booleans, None, lists, "
                         f"mappings), got {type(x).__name__} {quote(x, 60)}")
