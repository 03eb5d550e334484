"""What a layer shows, read as a store: ``records()`` and ``edges()`` checked, renamed and snapshotted.

The kit never looks inside a layer.  After every call it reads the two
observation methods and turns them into a :class:`~coalg.model.Store`, so
that the law predicates of :mod:`coalg.laws` judge a layer exactly as they
judge the model.

**Renaming.**  A layer chooses its identifiers (uuids, counters, database
keys); the kit gives every record a *canonical* name instead, the one the
exploration's allocation planned for the call that created it (``id0001``,
``id0002``, …, as the ContextFS runtime adapter renames the package's uuids);
a record a call made without returning it takes a planned identifier the
call left unused.  :class:`Naming` keeps both directions.  Strings the kit
passed that are no identifier (an unknown id, a prefix) keep the kit's name
for them; anything else the layer shows is named ``unnamed1``, ``unnamed2``,
… in order of first sight.  Ancestry metadata (``evolved_from``, ``merged_from``, ``split_from``)
is renamed too, so that L2 compares it with the edges; a list of parents is
read as the set L2 reads it, sorted by canonical name (in the layer's own
order it would follow the identifiers the layer chose).  Any other metadata
value (at any depth) that is a whole identifier the layer has shown is renamed
as well: a layer that notes a parent's or its own identifier under a key of its
own (``"parent_id"``, ``"uid"``) shows the same record under any choice of
identifiers.  For a layer that writes identifiers inside longer strings
(``"mem://<id>"``; :func:`~coalg.conformance.detect.inspect_layer` finds out),
an identifier standing inside any string of content, tags or metadata is
renamed too (:func:`bounded_pattern`).  Not recognised: an identifier written
as a number, and, unless the layer draws its identifiers afresh (uuids), one
made of digits only (with a counter, ``"1"`` is as likely a part number or a
version written as text; renaming it would invent differences).

**Observed fields.**  Of each record the kit reads ``content``, ``type`` and
``namespace`` (strings), and when present ``tags`` (strings), ``metadata``
(JSON-like values) and, for a layer with the ``valid_time`` capability,
``valid_time``; other keys are ignored.  Edges are ``(source, relation,
target)`` with one of the 22 relation names in any case.  Anything else is
:class:`~coalg.conformance.protocol.ProtocolMisuse`.

>>> class Two:
...     def records(self): return {"u-9": {"content": "a", "type": "fact", "namespace": "n"},
...                                "u-7": {"content": "b", "type": "fact", "namespace": "n",
...                                        "metadata": {"evolved_from": "u-9"}}}
...     def edges(self): return [("u-7", "EVOLVED_FROM", "u-9"), ("u-9", "evolved_into", "u-7")]
>>> names = Naming(); names.bind("u-9", "id0001"); names.bind("u-7", "id0002")
>>> s = to_store(read_records(Two()), read_edges(Two()), names, valid_time=False)
>>> sorted(s.records), s.records["id0002"].metadata["evolved_from"], len(s.edges)
(['id0001', 'id0002'], 'id0001', 2)
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from ..model import FrozenMap, Id, Record, Relation, Store, freeze
from .alphabet import PAYLOAD_WORDS
from .clock import CLOCK_READING, Span, without_clock
from .compare import ANCESTRY_KEYS, renamed
from .guard import describe, layer_call, plain, plain_str, quote
from .protocol import ProtocolMisuse, as_mapping

__all__ = ["Extra", "Naming", "RawRecord", "bounded_pattern", "read_edges", "read_records", "renamer",
           "searchable", "to_store"]

RawRecord = tuple[str, str, str, frozenset[str], Mapping[str, Any], Any]
"""A record as read: content, type, namespace, tags, metadata (as given), valid time."""

_RELATIONS = {r.value: r for r in Relation}
_NAMES = ", ".join(r.value for r in Relation)


class Naming:
    """The layer's identifiers and the kit's canonical names, both ways."""

    def __init__(self) -> None:
        self.canonical: dict[str, Id] = {}
        self.real: dict[Id, str] = {}
        self.refs: dict[str, Id] = {}
        self.unnamed: dict[str, Id] = {}

    def bind(self, real: str, canonical: Id) -> None:
        """The layer's identifier ``real`` is now the record the kit calls ``canonical``.

        A name a delete freed and a new record took is the new record's only: the
        identifier that held it before (still shown, say, by an edge a delete left
        behind) is named afresh, so that it never passes for the new record.
        """
        before = self.real.get(canonical)
        if before is not None and before != real and self.canonical.get(before) == canonical:
            del self.canonical[before]
            self.name(before)  # still an identifier the layer has shown: metadata may name it
        self.canonical[real] = canonical
        self.real[canonical] = real

    def refer(self, passed: str, canonical: Id) -> str:
        """The kit passes ``passed`` for its name ``canonical`` (an unknown id, a prefix); returns ``passed``."""
        if passed not in self.canonical:
            self.refs.setdefault(passed, canonical)
        return passed

    def to_layer(self, canonical: Id) -> str:
        """What the kit passes to the layer for ``canonical``: the layer's id, or the name itself."""
        found = self.real.get(canonical)
        return found if found is not None else self.refer(canonical, canonical)

    def name(self, real: str) -> Id:
        """The canonical name of a string the layer showed."""
        found = self.canonical.get(real)
        if found is None:
            found = self.refs.get(real)
        if found is None:
            found = self.unnamed.get(real)
        if found is None:
            found = self.unnamed[real] = f"unnamed{len(self.unnamed) + 1}"
        return found


def _string(value: Any, what: str) -> str:
    return plain_str(value, what)


def _ident(value: Any, what: str) -> str:
    """An identifier: a built-in ``str`` (a subclass may hash and compare otherwise than its text)."""
    if type(value) is not str:
        if isinstance(value, str):
            raise ProtocolMisuse(f"{what} must be a plain str, got an instance of {type(value).__name__} (a str "
                                 "subclass, whose hash and equality may differ from its text's)")
        raise ProtocolMisuse(f"{what} must be a string, got {type(value).__name__} {quote(value, 60)}")
    return value


def _read_record(i: str, fields: Any) -> RawRecord:
    where = f"records: record {quote(i, 60)}"
    r = as_mapping(fields, f"{where}: expected a mapping of fields")
    for key in ("content", "type", "namespace"):
        if key not in r:
            raise ProtocolMisuse(f"{where} has no {key!r}; every record needs content, type and namespace")
    tags = r.get("tags") or ()
    if isinstance(tags, str) or not isinstance(tags, Iterable):
        raise ProtocolMisuse(f"{where}: tags must be a collection of strings, got {type(tags).__name__}")
    metadata = plain(as_mapping(r.get("metadata") or {}, f"{where}: metadata must be a mapping"),
                     f"{where}: metadata")
    vt = r.get("valid_time")
    if vt is not None and (isinstance(vt, bool) or not isinstance(vt, (int, float, str))):
        raise ProtocolMisuse(f"{where}: valid_time must be a number, a string or None, got {type(vt).__name__}")
    return (_string(r["content"], f"{where}: content"), _string(r["type"], f"{where}: type"),
            _string(r["namespace"], f"{where}: namespace"),
            frozenset(_string(t, f"{where}: a tag") for t in list(tags)), metadata,
            None if vt is None else plain(vt, f"{where}: valid_time"))


_READ = frozenset({"content", "type", "namespace", "tags", "metadata", "valid_time"})


Extra = tuple[tuple[str, str | None, str], ...]
"""A record's fields the kit does not read: per field its quoted name, its value if a plain string, its quoted value."""


def read_records(layer: Any, extras: dict[str, Extra] | None = None) -> dict[str, RawRecord]:
    """``layer.records()``, its shape checked (:class:`ProtocolMisuse` naming what is wrong).

    Everything the layer's objects do while they are read (iteration, lookups,
    properties) is part of the guarded call: anything they raise is
    :class:`ProtocolMisuse`.  ``extras``, when given, receives for each record
    that shows other fields than the ones read those fields (:data:`Extra`, never
    raising): the kit does not judge them, but a store it rebuilds must show
    them as the original did.
    """
    try:
        with layer_call("records"):
            got = layer.records()
            rs = as_mapping(got, "records: expected a mapping from identifiers to records")
            out = {}
            for i, fields in list(rs.items()):
                j = _ident(i, "records: an identifier")
                out[j] = _read_record(j, fields)
                if extras is not None:
                    rest = tuple(sorted((quote(k, 40), v if type(v) is str else None, quote(v, 200))
                                        for k, v in fields.items() if k not in _READ))
                    if rest:
                        extras[j] = rest
            return out
    except ProtocolMisuse:
        raise
    except Exception as e:  # noqa: BLE001 - an observation must not fail
        raise ProtocolMisuse(f"records: raised {describe(e)}") from None


def read_edges(layer: Any) -> list[tuple[str, Relation, str]]:
    """``layer.edges()``, its shape checked: triples of strings with a relation name in any case."""
    try:
        with layer_call("edges"):
            return _edges(list(layer.edges()))
    except ProtocolMisuse:
        raise
    except Exception as e:  # noqa: BLE001 - an observation must not fail
        raise ProtocolMisuse(f"edges: raised {describe(e)}") from None


def _edges(items: list[Any]) -> list[tuple[str, Relation, str]]:
    out = []
    for item in items:
        triple = tuple(item) if isinstance(item, Iterable) and not isinstance(item, (str, bytes)) else ()
        if len(triple) != 3:
            raise ProtocolMisuse(f"edges: expected (source, relation, target) triples, got {quote(item, 60)}")
        what = "edges: an edge's source, relation and target"
        src, dst = _ident(triple[0], what), _ident(triple[2], what)
        rel = _string(triple[1], what)
        r = _RELATIONS.get(rel.lower())
        if r is None:
            raise ProtocolMisuse(f"edges: {quote(rel, 60)} is not a relation name; expected one of {_NAMES} "
                                 "(in any case)")
        out.append((src, r, dst))
    return out


_BOUNDED = r"(?<![0-9A-Za-z_])(?:{})(?![0-9A-Za-z_])"
"""An identifier standing alone inside a longer string: no letter, digit or underscore touches it."""


def bounded_pattern(words: Iterable[str]) -> re.Pattern[str] | None:
    """A pattern finding any of ``words`` inside a string where no letter, digit or ``_`` touches it
    (longest first); ``None`` for no words.

    >>> p = bounded_pattern(["m1", "m12"])
    >>> p.findall("merged from m1, m12 and m123 / xm1")
    ['m1', 'm12']
    """
    ordered = sorted(set(words), key=lambda w: (-len(w), w))
    return re.compile(_BOUNDED.format("|".join(map(re.escape, ordered)))) if ordered else None


def renamer(names: Mapping[str, str], text: bool) -> Callable[[str], str]:
    """A string renamed by ``names``: a whole key becomes its value, and with ``text`` so does every key
    standing inside a longer string (:func:`bounded_pattern`).

    >>> r = renamer({"m1": "id0001"}, text=True)
    >>> r("m1"), r("from m1, m12"), renamer({"m1": "id0001"}, text=False)("from m1")
    ('id0001', 'from id0001, m12', 'from m1')
    """
    inside = bounded_pattern(names) if text else None

    def rename(x: str) -> str:
        if x in names or inside is None:
            return names.get(x, x)
        return inside.sub(lambda m: names[m.group()], x)

    return rename


def searchable(i: str, digits: bool) -> bool:
    """Whether the identifier ``i`` is looked for inside longer strings: not a word the kit writes
    (:data:`~coalg.conformance.alphabet.PAYLOAD_WORDS`), and not made of digits only unless
    identifiers are drawn afresh (``digits``)."""
    return i not in PAYLOAD_WORDS and (digits or not i.isdigit())


def may_name(v: str, digits: bool, words: bool) -> bool:
    """Whether a whole string ``v`` reads as the record of that identifier when the layer has one so
    spelled: not a word the kit writes (with ``words``), and not digits only unless identifiers are drawn
    afresh (``digits``)."""
    return not (words and v in PAYLOAD_WORDS) and (digits or not v.isdigit())


def _shown(names: Naming, digits: bool, text: bool, words: bool) -> Callable[[str], str]:
    """How a string the layer wrote is read: a whole identifier the layer has shown, renamed; with
    ``text``, the identifiers standing inside it renamed as well (:func:`bounded_pattern`).  With
    ``words``, a word the kit writes stays that word, even where the layer has an identifier so spelled
    (a title ``"p2"`` copied from the content of the part ``p2``, in a layer that numbers its records
    ``p1, p2``)."""
    inside = bounded_pattern(i for i in (*names.canonical, *names.unnamed) if searchable(i, digits)) \
        if text else None

    def shown(v: str) -> str:
        if not may_name(v, digits, words):  # a word the kit writes; "1" may be a number written as text
            return v
        if v in names.canonical or v in names.unnamed:
            return names.name(v)
        return inside.sub(lambda m: names.name(m.group()), v) if inside is not None else v

    return shown


def _rename_meta(metadata: Mapping[str, Any], shown: Callable[[str], str], names: Naming, where: str) -> FrozenMap:
    data = dict(metadata)
    for key in ANCESTRY_KEYS:
        v = data.get(key)
        if isinstance(v, str):
            data[key] = names.name(v)
        elif isinstance(v, (list, tuple, set, frozenset)) and all(isinstance(x, str) for x in v):
            data[key] = sorted(names.name(x) for x in v)  # a set of parents: its order is the layer's ids

    try:
        return FrozenMap({str(k): freeze(x) if k in ANCESTRY_KEYS else renamed(freeze(x), shown)
                          for k, x in data.items()})
    except (TypeError, ValueError, RecursionError) as e:
        raise ProtocolMisuse(f"{where}: metadata must hold JSON-like values (strings, numbers, booleans, "
                             f"None, lists, mappings): {describe(e)}") from None


def to_store(records: Mapping[str, RawRecord], edges: Iterable[tuple[str, Relation, str]], names: Naming,
             *, valid_time: bool, digits: bool = False, text: bool = False, words: bool = True,
             clock: Span | None = None) -> Store:
    """The store the layer shows, every identifier renamed (unknown ones in sorted order, for determinism).

    ``digits``: a metadata string of digits only that is an identifier the layer has shown is renamed
    too (for a layer whose identifiers are drawn afresh, where such a string cannot be a coincidence).
    ``text``: identifiers standing inside longer strings (content, tags, metadata) are renamed too, for
    a layer that writes them there; one spelled like a word the kit writes
    (:data:`~coalg.conformance.alphabet.PAYLOAD_WORDS`) is that word there, never an identifier.
    ``words``: so is a whole metadata string spelled like such a word (``False`` for a layer that shows
    identifiers whole in metadata, where ``"b"`` may be the record ``b``).
    ``clock``: a metadata value that is a wall-clock reading taken during this span is read as
    :data:`~coalg.conformance.clock.CLOCK_READING` (:mod:`coalg.conformance.clock`).
    """
    for i in sorted(i for i in records if i not in names.canonical):
        names.name(i)
    shown = _shown(names, digits, text, words)
    out = {}
    for i, (content, ty, ns, tags, meta, vt) in records.items():
        if text:  # the kit's own words stay words, even where the layer has an identifier so spelled
            content = content if content in PAYLOAD_WORDS else shown(content)
            tags = frozenset(t if t in PAYLOAD_WORDS else shown(t) for t in tags)
        metadata = _rename_meta(meta, shown, names, f"records: record {quote(i, 60)}")
        if clock is not None:  # a clock reading, in metadata or as a valid time "from now", is the call's clock
            metadata = without_clock(metadata, clock)
            vt = CLOCK_READING if clock.reads(vt) else vt
        rec = Record(content, type=ty, namespace=ns, tags=tags, metadata=metadata,
                     valid_time=vt if valid_time else None)
        out[names.name(i)] = rec
    es = list(edges)
    for x in sorted({x for s, _, t in es for x in (s, t)}):
        names.name(x)
    return Store.of(out, [(names.name(s), r, names.name(t)) for s, r, t in es])
