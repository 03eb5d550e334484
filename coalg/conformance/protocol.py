"""The memory-layer protocol: what a layer must offer, what it may offer, and how the kit recognises it.

A **memory layer** is any Python object with the methods ``save``, ``evolve``,
``merge``, ``split``, ``supersede``, ``delete``, ``records`` and ``edges``
(identifiers are strings the layer chooses).  A **factory** makes a fresh,
empty one: a class, or a function of no arguments.

Before anything is explored, :func:`check_methods` checks every method's
presence and signature (``inspect.signature``); anything wrong is
:class:`ProtocolMisuse`: one line naming the method and what was expected.
:func:`capabilities_of` reads the optional **capabilities**
(:data:`CAPABILITIES`):

* ``save_at`` -- ``save`` has a parameter ``id``: a record stored under a
  caller-chosen identifier (a replacement when it exists);
* ``prefix_arguments`` -- the attribute ``prefix_arguments = True``: evolve,
  merge, split, supersede and delete accept a unique prefix of an identifier;
* ``prefix_recall`` -- a method ``recall(ref)`` returning the identifier a
  reference resolves to, or ``None`` (for an ambiguous prefix, ``None`` is a
  refusal); any method ``recall`` that takes one argument is read so (a
  ``recall`` that searches belongs under another name);
* ``valid_time`` -- ``save``, ``evolve``, ``merge`` and ``split`` all take a
  keyword ``valid_time`` (a parameter of that name, or ``**options``), and
  ``records()`` reports it as the field
  ``valid_time``: a number, a string or ``None``, as ``save`` was given it
  (the kit rebuilds stores by saving what a record shows; a layer that keeps
  a richer form, such as an interval, shows it under another key);
* ``close`` -- a method ``close()``, called when the kit is done with a layer.

A layer that resolves an ambiguous prefix may declare how, as the attribute
``prefix_rule``, one of :data:`PREFIX_RULES`; without it an ambiguous prefix
must be refused.

What the kit takes a layer to show, where a design could go either way:

* Fields of a record other than the ones named above (a ``status``, a
  ``version``) are never judged.  The kit rebuilds some stores by saving what
  records show; a rebuilt record that shows such fields otherwise than the
  original is a case not judged, since your calls may read them.
* ``split`` returns one identifier per part, in the order of the parts: the kit
  names each new record after its part, and a split whose identifiers come back
  in another order (sorted, say) is a protocol misuse.
* Identifiers a record shows whole, as a metadata value under any key (a
  ``"parent_id"``, the record's own ``"uid"``), are renamed with the record
  they name.  Identifiers inside longer strings (a content
  ``"merged: n1, n2"``, a URI ``"mem://<id>"``) are renamed too when the layer
  writes them there: a fresh layer is given an evolve, a split, a merge and a
  supersede first, each on facts saved for it alone, and if a returned identifier
  then stands inside a longer string (no letter, digit or ``_`` touching it), every
  string of content, tags and metadata is read that way.  A string spelled like a
  word the kit writes (``a``, ``v2``, ``p1``, ...) is that word, even where the
  layer has an identifier so spelled, unless it stands whole as a metadata value in
  a layer that showed, on that fresh layer, an identifier whole as a metadata value
  (a ``"root"``); there it is the identifier (so such a layer's metadata value
  copied from a content ``p2`` is taken for its record ``p2``).  Not recognised, and so
  compared as payload: an identifier written as a number, or, where the
  layer's identifiers repeat from one fresh layer to the next (a counter), one
  made of digits only (``"7"``); an identifier shortened (its first eight
  characters), which is no identifier the layer returned; and an identifier used
  as a key of a mapping inside metadata (``{"weights": {"<id>": 0.5}}``), since
  keys are the layer's names, not values. A layer that writes identifiers in those
  forms can fail L4, S2 or L5 only because its identifiers differ between the
  runs compared; show them as strings with a letter, to be judged.
* Identifiers drawn at random (uuids) are fine: the kit judges up to renaming.
  A call may not read their order, though (a merge in identifier order): the same
  calls then give other results on two fresh layers, which fails L5.  Nor may
  ``prefix_rule = "least"`` go with them, since which record a prefix names then
  changes from one fresh layer to the next and the kit judges by replaying words;
  it says so in one line (a protocol misuse) instead of judging.
* Identifiers handed out by a rule (a counter, a digest of the record) may be
  read, their order included.  L4 and S2 step the layer from stores made by
  other words, where the same records get other identifiers (``m1, m2`` where
  they were ``m6, m10``); a case where their order changed is not judged.
* A save refused because an equal record is already there fails S2, whatever
  the reason (identifiers derived from the content included): a save names no
  record, so its outcome may not depend on what the layer holds.  A save that
  instead returns the identifier of a record already there (a store that
  deduplicates) is a protocol misuse: ``save`` returns the record it made.  So does a
  derivation (supersede included) refused because of an edge (an evolve of a
  record another supersedes, a supersede of one already superseded): its outcome
  may depend on the records it names, not on their edges, and S2 makes it again
  on those records alone.
* Metadata holds JSON-like values: strings, numbers, booleans, ``None``, lists
  and mappings with string keys, at most 100 levels deep (no NaN).  Anything
  else (a ``datetime``, ``bytes``) is a protocol misuse; show it as text.
* ``edges()`` is read as a set: an edge listed twice is one edge.
* ``records()`` lists the live records only.  A layer may keep deleted records
  (tombstones) or anything else internally; whatever ``records()`` lists is a
  live record to the kit, so a tombstone it shows is judged as one.
* A record made by ``evolve``, ``merge`` or ``split`` shows the valid time its
  call was given.  The kit passes ``valid_time`` only when it has one; without
  it the layer's own rule applies (no valid time, the parent's, or the time of
  the call: a clock reading, as in metadata).
* ``save(..., id=x)`` at an identifier already taken may replace that record or
  refuse; either is judged, a refusal by L1 and S1 (it must change nothing).
* A ``merge`` of records from different namespaces may be refused.  One that
  succeeds is judged by L4(ii): the merged record lives in one namespace and
  must not carry what it took from the others.
* A refusal is any exception the call raises (the output is ``refused`` with
  the exception's type); its message goes into the report, so ``str()`` of it
  must give text: an exception whose ``__str__`` raises is a protocol misuse.
* A prefix the kit passes is either a record's identifier less its last
  character, when that matches the record alone, or the prefix every live
  identifier shares (an ambiguous one).  A call it cannot say that way on one
  run of the layer (a one-character identifier, say) is not made, and nothing
  is compared with it: identifiers differ from run to run.

>>> class Tiny:
...     def save(self, content, *, type="fact", namespace="global", tags=(), metadata=None): return "x"
...     def evolve(self, id, content): return "y"
...     def merge(self, ids): return "z"
...     def split(self, id, parts): return ["p", "q"]
...     def supersede(self, old, new): pass
...     def delete(self, id): pass
...     def records(self): return {}
...     def edges(self): return []
>>> check_methods(Tiny()); capabilities_of(Tiny()).names
()
>>> check_methods({})
Traceback (most recent call last):
...
coalg.conformance.protocol.ProtocolMisuse: save: the layer has no method save; expected save(content, *, type='fact', namespace='global', tags=(), metadata=None) -> str
"""

from __future__ import annotations

import importlib
import inspect
import textwrap
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..errors import CoalgError
from .quoting import describe, quote

__all__ = [
    "CAPABILITIES",
    "CLAUSE_NEEDS",
    "EXPECTED",
    "PREFIX_RULES",
    "BadLayer",
    "Capabilities",
    "ProtocolMisuse",
    "as_mapping",
    "capabilities_of",
    "check_methods",
    "check_shape",
    "close_layer",
    "factory_spec",
    "load_factory",
    "make_layer",
    "needs_text",
]

CAPABILITIES = ("save_at", "prefix_arguments", "prefix_recall", "valid_time", "close")
"""The optional capabilities, in the order the output lists them."""

PREFIX_RULES = {
    "oldest": "the earliest-created matching record",
    "newest": "the latest-created matching record",
    "least": "the matching record whose identifier is least in string order",
}
"""The rules a layer may declare (attribute ``prefix_rule``) for resolving an ambiguous prefix."""

EXPECTED = {
    "save": "save(content, *, type='fact', namespace='global', tags=(), metadata=None) -> str",
    "evolve": "evolve(id, content) -> str",
    "merge": "merge(ids) -> str",
    "split": "split(id, parts) -> Sequence[str]",
    "supersede": "supersede(old, new) -> None",
    "delete": "delete(id) -> None",
    "records": "records() -> Mapping[str, Mapping[str, Any]]",
    "edges": "edges() -> Iterable[tuple[str, str, str]]",
}
"""Every required method, as the protocol writes it."""

_EVERY = "Always applies."
_REBUILT = ("Always applies; a case is skipped and counted when it needs a store the kit cannot rebuild by "
            "saves, or one whose records show their identifiers in another order or the fields the kit does not "
            "read otherwise.")

CLAUSE_NEEDS: dict[str, tuple[str, str]] = {
    "L1": (("records() and edges() before and after each save, evolve, merge, split and supersede, and around "
           "every call that is refused. Every record and edge already there must stay as it was, a refused call "
           "(one that raises, delete included) among them (what a refused call adds, S1 judges)"),
           _EVERY),
    "L2": (("the ancestry of each record made by evolve, merge or split, both as edges (evolved_from, "
           "merged_from, split_from; or, for a record with none, the parents' evolved_into, merged_into, "
           "split_into edges read backwards) and as metadata keys of the same names (evolved_from and "
           "split_from one identifier, merged_from a list or a set). Where the layer keeps both, they must agree"),
           ("Holds with one representation when the layer never shows ancestry metadata on a derived record, or "
           "never shows an ancestry edge; does not apply when no derivation succeeds.")),
    "L3": (("edges() after each evolve, merge, split and supersede. Every edge added must come with its inverse "
           "(evolved_from and evolved_into, merged_from and merged_into, and so on)"),
           ("Holds with one representation when no edge the layer shows ever has its inverse beside it, and "
            "with nothing to compare when it shows no edge at all.")),
    "L4i": (("each record's namespace. A save, evolve, merge, split, supersede or recall naming records of one "
            "namespace must act as it does on a fresh layer holding that namespace only, and leave the other "
            "namespaces alone (a delete, or a save at a taken identifier, is outside the law)"), _REBUILT),
    "L4ii": (("the records a call creates, and the same call on layers that differ only outside the created "
             "records' namespace. The created records must be equal"), _REBUILT),
    "L5": (("records() and edges() after the same calls under PYTHONHASHSEED 0 and 1, and with fresh saves "
           "reordered (where both orders leave the same records and edges, each record the saves make under the "
           "same identifier, every later call must agree: identifiers derived from the content, not a counter, "
           "a clock or a random draw, whose order a call may read). A wall-clock reading in metadata (seconds, "
           "milliseconds, microseconds or nanoseconds since the epoch, or ISO 8601 or HTTP date text, in local time "
           "or UTC when it names no zone) is the call's clock and reads the same in every run. With "
           "prefix_arguments or prefix_recall, what an ambiguous prefix acted on. It must be "
           "refused (an exception, or recall returning None) or resolved by the declared prefix_rule; a "
           "record's age is the call after which records() first lists it"),
           ("The runs in two interpreters need a factory importable as MODULE:ATTR; without them only "
           "prefixes are judged, and without a prefix capability too L5 is not judged.")),
    "L6": ("the valid_time keyword of save, evolve, merge and split, and the valid_time field of records()",
           ("Always applies: without the valid_time capability it fails, as the paper's Theorem 5.27 says it "
           "must.")),
    "L7": (("edges() after every call, delete included. No evolved_*, merged_* or split_* edge may touch an "
           "identifier records() does not list"),
           "Always applies; holds with nothing to judge when the layer shows no edge at all."),
    "S1": (("records() and edges() around each save or derivation (evolve, merge, split and supersede), and the "
           "edges the same call writes on a fresh layer holding only the records it names. Only new records may "
           "be added, the edges after the call must be those before it and the ones it writes there, and a "
           "refused call that added something fails here"), _REBUILT),
    "S2": (("the same save or derivation on a fresh layer holding only the records it names (rebuilt by saves, "
           "without their edges to others). It must have the same outcome, the same new records and edges, in the "
           "named records' namespace: a call refused because of an edge (a supersede of a record already "
           "superseded, say) fails"),
           _REBUILT),
    "S3": (("the edges a save or derivation writes, as S1 reads them. They may join only new records and the "
            "records the call names"), _REBUILT),
    "S4": ("the ancestry edges a save or derivation writes, as S1 reads them. Each must start at a new record",
           _REBUILT),
}
"""Per clause of Table 2: what the kit reads from a layer, and when the clause does not apply or holds trivially."""


def needs_text(width: int = 79) -> str:
    """:data:`CLAUSE_NEEDS` as plain text, one indented paragraph per clause (for ``coalg conform --help``)."""
    out = []
    for key, (reads, when) in CLAUSE_NEEDS.items():
        out.append(textwrap.fill(f"{key} reads {reads}. {when}", width, initial_indent="  ",
                                 subsequent_indent="      "))
    return "\n".join(out) + "\n"


_PROBES: dict[str, tuple[tuple[Any, ...], dict[str, Any]]] = {
    "save": (("c",), {"type": "fact", "namespace": "global", "tags": (), "metadata": None}),
    "evolve": (("i", "c"), {}),
    "merge": ((["i", "j"],), {}),
    "split": (("i", ["p", "q"]), {}),
    "supersede": (("i", "j"), {}),
    "delete": (("i",), {}),
    "records": ((), {}),
    "edges": ((), {}),
}


class BadLayer(CoalgError):
    """The layer cannot be checked: the factory does not import, is not a factory, or misuses the protocol."""


class ProtocolMisuse(BadLayer, TypeError):
    """A method is missing, has the wrong signature, or returned something of the wrong shape."""


@dataclass(frozen=True)
class Capabilities:
    """What a layer offers beyond the required methods (:data:`CAPABILITIES`), and its declared prefix rule."""

    names: tuple[str, ...] = ()
    prefix_rule: str | None = None
    valid_time_in: tuple[str, ...] = ()
    """The methods of save, evolve, merge and split that take ``valid_time`` (all four: the capability)."""
    fresh_ids: bool = False
    """Whether two fresh layers give the same first save other identifiers (drawn at random, or from a
    sequence shared by every layer): not a capability, a fact about the layer's identifiers."""
    ids_in_text: bool = False
    """Whether the layer writes identifiers inside longer strings of its records (a content
    ``"merged: n1, n2"``, a URI ``"mem://<id>"``): then the kit renames them there too."""
    ids_in_metadata: bool = False
    """Whether the layer shows identifiers whole as metadata strings other than its ancestry (a
    ``"root"``, a ``"see_also"``): then such a string spelled like a word the kit writes is renamed too."""

    def has(self, name: str) -> bool:
        return name in self.names

    @property
    def prefixes(self) -> bool:
        """Whether the layer takes prefixes at all (``prefix_arguments`` or ``prefix_recall``)."""
        return self.has("prefix_arguments") or self.has("prefix_recall")


def factory_spec(factory: Callable[[], Any]) -> str | None:
    """``MODULE:ATTR`` when ``factory`` can be imported by that name in another interpreter, else ``None``."""
    module, name = getattr(factory, "__module__", None), getattr(factory, "__qualname__", None)
    if not isinstance(module, str) or not isinstance(name, str) or "<" in name or module == "__main__":
        return None
    try:
        found: Any = importlib.import_module(module)
        for part in name.split("."):
            found = getattr(found, part)
    except (ImportError, AttributeError):
        return None
    return f"{module}:{name}" if found is factory else None


def load_factory(spec: str) -> Callable[[], Any]:
    """The factory named ``MODULE:ATTR`` (imported from the current directory and ``PYTHONPATH``)."""
    module, sep, attr = spec.partition(":")
    if not sep or not module or not attr:
        raise BadLayer(f"expected MODULE:ATTR (for example mypackage.memory:MyMemory), got {spec!r}")
    try:
        found: Any = importlib.import_module(module)
    except ImportError as e:
        raise BadLayer(f"cannot import module {module!r}: {e}") from None
    except Exception as e:  # noqa: BLE001 - the user's module raised while importing
        raise BadLayer(f"importing module {module!r} raised {describe(e)}") from None
    for part in attr.split("."):
        if not hasattr(found, part):
            raise BadLayer(f"module {module!r} has no attribute {attr!r}")
        found = getattr(found, part)
    if not callable(found):
        raise BadLayer(f"{spec} is a {type(found).__name__}, not a factory (a class or a function of no "
                       "arguments that returns a fresh layer)")
    return found  # type: ignore[no-any-return]


def _binds(method: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> str | None:
    """``None`` when ``method(*args, **kwargs)`` binds; else its signature, for the message."""
    try:
        sig = inspect.signature(method)
    except (TypeError, ValueError):  # a builtin without a signature: accept it
        return None
    try:
        sig.bind(*args, **kwargs)
    except TypeError:
        bare = [p.replace(annotation=p.empty) for p in sig.parameters.values()]
        return str(sig.replace(parameters=bare, return_annotation=sig.empty))
    return None


def _has_keyword(method: Any, name: str, *, any_keyword: bool = False) -> bool:
    """Whether ``method`` takes the keyword ``name`` (or, with ``any_keyword``, any keyword: ``**options``)."""
    try:
        params = inspect.signature(method).parameters
    except (TypeError, ValueError):
        return False
    p = params.get(name)
    if p is not None and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY):
        return True
    return any_keyword and any(q.kind is q.VAR_KEYWORD for q in params.values())


def make_layer(factory: Callable[[], Any]) -> Any:
    """A fresh layer from ``factory``, or :class:`BadLayer` saying why calling it failed."""
    try:
        return factory()
    except TypeError as e:
        raise BadLayer(f"{_name(factory)} is not a factory: calling it with no arguments raised {describe(e)}") \
            from None
    except Exception as e:  # noqa: BLE001 - the user's constructor raised
        raise BadLayer(f"calling the factory {_name(factory)}() raised {describe(e)}") from None


def _name(factory: Any) -> str:
    return str(getattr(factory, "__qualname__", None) or type(factory).__name__)


def close_layer(layer: Any, caps: Capabilities) -> None:
    """Call ``layer.close()`` when the layer has one."""
    if caps.has("close"):
        layer.close()


def capabilities_of(layer: Any) -> Capabilities:
    """The capabilities of a layer whose required methods are already checked."""
    names = []
    if _has_keyword(layer.save, "id"):
        names.append("save_at")
    if getattr(layer, "prefix_arguments", False) is True:
        names.append("prefix_arguments")
    recall = getattr(layer, "recall", None)
    if callable(recall) and _binds(recall, ("r",), {}) is None:
        names.append("prefix_recall")
    # a valid time may arrive through **options (what the layer does with it, L6 judges); an identifier
    # to save at may not: a layer that took it there and ignored it would be read as misplacing records
    timed = tuple(m for m in ("save", "evolve", "merge", "split")
                  if _has_keyword(getattr(layer, m), "valid_time", any_keyword=True))
    if len(timed) == 4:
        names.append("valid_time")
    if callable(getattr(layer, "close", None)):
        names.append("close")
    for name in ("recall", "close"):
        if inspect.iscoroutinefunction(getattr(layer, name, None)):
            raise ProtocolMisuse(f"{name}: is a coroutine function (async def), and the kit calls a layer's "
                                 "methods and reads what they return")
    rule = getattr(layer, "prefix_rule", None)
    if rule is not None and rule not in PREFIX_RULES:
        raise ProtocolMisuse(f"prefix_rule: expected one of {', '.join(sorted(PREFIX_RULES))}, got {quote(rule, 60)}")
    return Capabilities(tuple(names), rule, timed)


def check_methods(layer: Any) -> None:
    """Every required method is present and accepts the protocol's call; :class:`ProtocolMisuse` otherwise."""
    for name, (args, kwargs) in _PROBES.items():
        method = getattr(layer, name, None)
        if method is None:
            raise ProtocolMisuse(f"{name}: the layer has no method {name}; expected {EXPECTED[name]}")
        if not callable(method):
            raise ProtocolMisuse(f"{name}: is a {type(method).__name__}, not a method; expected {EXPECTED[name]}")
        if inspect.iscoroutinefunction(method):
            raise ProtocolMisuse(f"{name}: is a coroutine function (async def), and the kit calls a layer's methods "
                                 f"and reads what they return; expected {EXPECTED[name]}")
        bad = _binds(method, args, kwargs)
        if bad is not None:
            raise ProtocolMisuse(f"{name}: expected {EXPECTED[name]}; its signature is {name}{bad}")


def check_shape(value: Any, expected: type | tuple[type, ...], what: str) -> Any:
    """``value`` if it is an instance of ``expected``; :class:`ProtocolMisuse` naming ``what`` otherwise."""
    if not isinstance(value, expected):
        raise ProtocolMisuse(f"{what}, got {type(value).__name__} {quote(value, 60)}")
    return value


def as_mapping(value: Any, what: str) -> Mapping[Any, Any]:
    """``value`` as a mapping, or :class:`ProtocolMisuse`."""
    return check_shape(value, Mapping, what)  # type: ignore[no-any-return]
