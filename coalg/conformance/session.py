"""One live layer, driven by calls of the paper's alphabet in canonical names.

A :class:`Session` holds a layer made by the factory and a
:class:`~coalg.conformance.snapshot.Naming`.  :meth:`Session.apply` takes a
:class:`~coalg.model.Call` -- a letter naming records canonically and the
allocation the exploration planned -- translates it into a protocol call,
makes it, renames what the layer created to the planned identifiers, reads
the layer again and returns the store coalgebra's output:

* ``save``/``evolve``/``merge``/``split``: :class:`~coalg.model.Created` with
  the records as ``records()`` shows them;
* ``supersede`` and ``delete``: ``Flag(True)`` (they return nothing; what
  they wrote shows in the store); ``recall`` by prefix: ``Found`` or ``Nothing``;
* an exception from a well-formed call is a **refusal**: ``Err("refused
  (ValueError)")`` (the message is kept in :attr:`Session.messages`), and the
  layer is read again, so a refusal that changed the store is seen;
* a letter the layer cannot be asked (a capability it lacks, a reference the
  protocol cannot express) is ``Err`` without calling the layer; for a reference
  it cannot express, the reason starts with :data:`NOT_ASKED` (:func:`not_asked`):
  whether a prefix can name a record depends on the identifiers this run of the
  layer chose, so no comparison with another run may use that call.

A return value of the wrong shape is
:class:`~coalg.conformance.protocol.ProtocolMisuse`.

**Prefix references.**  A letter resolved by prefix names either a record
(``evolve(id0002…)``: the longest proper prefix of that record's identifier,
when it matches no other record) or no record (the prefix every identifier
shares, ``id000…``: ambiguous as soon as two records exist).  The layer sees
prefixes of *its* identifiers; what it writes back under them is named
``id0002…`` or ``id000…``.  For an ambiguous prefix the session notes the
candidates, the record the call acted on when it shows, and the record the
layer's declared rule picks (:data:`~coalg.conformance.protocol.PREFIX_RULES`).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..model import (
    ANCESTRY,
    Call,
    Created,
    Err,
    Flag,
    Found,
    Id,
    Letter,
    Nothing,
    Output,
    Store,
    thaw,
)
from ..model import alphabet as A
from .clock import Span
from .compare import ANCESTRY_KEYS, renamed, strings
from .guard import describe, layer_call, quote
from .protocol import Capabilities, ProtocolMisuse, close_layer, make_layer
from .quoting import readable
from .snapshot import Extra, Naming, may_name, read_edges, read_records, renamer, to_store

__all__ = ["NOT_ASKED", "PrefixNote", "Session", "not_asked", "unsupported"]

NOT_ASKED = "not asked: "
"""The start of the reason of a call the session did not make: no reference string says what it names."""


def not_asked(out: Output) -> bool:
    """Whether ``out`` stands for a call the session did not make (see :data:`NOT_ASKED`)."""
    return isinstance(out, Err) and out.reason.startswith(NOT_ASKED)



@dataclass(frozen=True)
class PrefixNote:
    """An ambiguous prefix passed to the layer: the records it matches, the one acted on, the rule's pick."""

    prefix: str
    candidates: tuple[Id, ...]
    resolved: Id | None
    rule_choice: Id | None


class _NotExpressible(Exception):
    """The letter cannot be said in the protocol (no reference string means what it names)."""


def unsupported(a: Letter, caps: Capabilities) -> str | None:
    """Why ``a`` cannot be asked of a layer with ``caps`` (``None`` when it can)."""
    if isinstance(a, A.Link):
        return "link is not a call of the protocol"
    if isinstance(a, A.SaveAt) and not caps.has("save_at"):
        return "save at a chosen identifier needs the save_at capability"
    if getattr(a, "by_prefix", False) and not caps.has("prefix_arguments"):
        return f"{a.kind} by prefix needs the prefix_arguments capability"
    if isinstance(a, A.RecallPrefix) and not caps.has("prefix_recall"):
        return "recall by prefix needs the prefix_recall capability"
    if isinstance(a, A.Evolve) and (a.summary is not None or a.tags):
        return "evolve takes no summary or tags in the protocol"
    if isinstance(a, A.Merge) and (a.content, a.type, a.summary, a.namespace) != (None, None, None, None):
        return "merge takes no content, type, summary or namespace in the protocol"
    return None


def _common_prefix(xs: Sequence[str]) -> str:
    p = os.path.commonprefix(sorted(xs))
    return p[:-1] if p in xs else p



def _in_parts_order(parts: Sequence[str], contents: list[str]) -> None:
    """A split's identifiers name its parts in order; :class:`ProtocolMisuse` when the records show the
    parts' contents in another order (the kit names each new record after its part)."""
    if contents != list(parts) and len(set(parts)) == len(parts) and sorted(contents) == sorted(parts):
        k = next(k for k, (c, p) in enumerate(zip(contents, parts)) if c != p)
        raise ProtocolMisuse(f"split: the identifiers came back in another order than the parts (identifier "
                             f"{k + 1} names the part {quote(contents[k], 40)}, not {quote(parts[k], 40)}); "
                             "expected one identifier per part, in the parts' order")

class Session:
    """A live layer driven call by call; :attr:`store` is what it shows now, in canonical names."""

    def __init__(self, factory: Callable[[], Any], caps: Capabilities) -> None:
        self.caps = caps
        self.started = time.time()  # a clock reading the layer shows from now on is the allocation's
        with layer_call("factory"):
            self.layer = make_layer(factory)
        self.names = Naming()
        self.calls: list[Call] = []
        self.created: list[tuple[Id, ...]] = []
        self.messages: list[str | None] = []
        self.notes: list[PrefixNote | None] = []
        self.born: dict[str, int] = {}
        self.replaced: dict[str, int] = {}
        self._raw: dict[str, Any] = {}
        self._extras: dict[str, Extra] = {}
        self.literals: set[str] = set()
        self.store = self._look()

    def _look(self, planned: Sequence[Id] = ()) -> Store:
        """Read the layer; records nobody returned take the call's planned identifiers that are still free."""
        extras: dict[str, Extra] = {}
        raw = read_records(self.layer, extras)
        self._extras = extras
        self.born = {r: self.born.get(r, len(self.calls)) for r in sorted(raw)}
        self.replaced = {r: k for r, k in self.replaced.items() if r in raw}
        self._raw = raw
        free = [i for i in planned if i not in self.names.real]
        for real, name in zip(sorted(r for r in self._raw if r not in self.names.canonical), free):
            self.names.bind(real, name)
        return to_store(self._raw, read_edges(self.layer), self.names, valid_time=self.caps.has("valid_time"),
                        digits=self.caps.fresh_ids, text=self.caps.ids_in_text, words=not self.caps.ids_in_metadata,
                        clock=Span.since(self.started))

    def extras(self) -> dict[Id, str]:
        """The fields the kit does not read, per record that shows any, as text; records, and field values that
        are whole identifiers, under their canonical names."""
        def value(raw: str | None, text: str) -> str:
            return text if raw is None or raw not in self.names.canonical else self.names.canonical[raw]

        return {self.names.canonical.get(r, r): "; ".join(f"{k}: {value(raw, v)}" for k, raw, v in x)
                for r, x in self._extras.items()}

    def close(self) -> None:
        """Close the layer (its ``close()``, when it has one); anything it raises is ProtocolMisuse."""
        try:
            with layer_call("close"):
                close_layer(self.layer, self.caps)
        except ProtocolMisuse:
            raise
        except Exception as e:  # noqa: BLE001 - closing must not fail
            raise ProtocolMisuse(f"close: raised {describe(e)}") from None

    # -- references -------------------------------------------------------------------
    def _live_real(self) -> list[str]:
        return sorted(self._raw)

    def _ref(self, x: Id, by_prefix: bool, note: list[PrefixNote]) -> str:
        if not by_prefix:
            s = self.names.to_layer(x)
            if x not in self.store.records and s in self._raw:  # the layer's identifiers are its own to choose
                raise _NotExpressible(f"the kit means a record the layer does not hold, but {quote(s, 40)} is the "
                                      "identifier of one it holds")
            return s
        live = self._live_real()
        if x in self.store.records:
            real = self.names.real[x]
            p = real[:-1]
            if not p:
                raise _NotExpressible("the record's identifier has one character, and the kit passes no empty prefix")
            if [r for r in live if r.startswith(p)] != [real]:
                raise _NotExpressible("the record's identifier less its last character matches other records too")
            return self.names.refer(p, x + "…")
        if len(live) < 2:
            raise _NotExpressible("a shared prefix needs two records")
        p = _common_prefix(live)
        cands = tuple(sorted(self.names.name(r) for r in live))
        note.append(PrefixNote(x, cands, None, self._rule_choice(live)))
        return self.names.refer(p, x + "…")

    def _rule_choice(self, live: list[str]) -> Id | None:
        """The record the declared rule picks among ``live``; ``None`` when the rule cannot tell.

        Birth is per record as the layer lists it: a record is born at the call
        after which ``records()`` first lists its identifier, and an identifier
        a delete freed and a later call reused starts a new record.  Records
        born at the same call (the parts of a split) are not ordered, and a
        record replaced in place (``save_at``) may count as born at either
        call: when the rule's pick depends on either, the rule cannot tell.
        """
        rule = self.caps.prefix_rule
        if rule == "least":
            return self.names.name(min(live))
        if rule not in ("oldest", "newest"):
            return None
        picks: set[str] = set()
        for ages in ({r: self.born[r] for r in live}, {r: self.replaced.get(r, self.born[r]) for r in live}):
            edge = min(ages.values()) if rule == "oldest" else max(ages.values())
            picks |= {r for r in live if ages[r] == edge}
        return self.names.name(picks.pop()) if len(picks) == 1 else None

    # -- the call ---------------------------------------------------------------------
    def _kw(self, valid_time: Any) -> dict[str, Any]:
        return {"valid_time": valid_time} if valid_time is not None and self.caps.has("valid_time") else {}

    def _back(self) -> Callable[[str], str]:
        """How a string is saved again: a canonical name back to this layer's identifier; for a layer that
        writes identifiers inside text, every canonical name standing inside the string as well."""
        return renamer(self.names.real, self.caps.ids_in_text)

    def _saved(self, r: Any) -> tuple[str, dict[str, Any]]:
        """A record's content and fields to save again, every canonical name in its metadata (at any depth)
        back to this layer's identifier, and in its content and tags too for a layer that writes
        identifiers inside text."""
        back = self._back()
        text = back if self.caps.ids_in_text else (lambda x: x)
        self.literals |= {x for x in strings(r.metadata) if x not in self.names.real
                          and may_name(x, self.caps.fresh_ids, not self.caps.ids_in_metadata)}
        return text(r.content), {"type": r.type, "namespace": r.namespace, "tags": sorted(map(text, r.tags)),
                                 "metadata": thaw(renamed(r.metadata, back)) or None, **self._kw(r.valid_time)}

    def collided(self) -> bool:
        """Whether the layer lists, as an identifier of its own, a name the kit wrote as it is into a record
        it saved (a parent a rebuilt store leaves out, ``id0002``): that record's metadata would then read as
        naming the layer's record so spelled, and what the kit sees is no longer what it saved."""
        return not self.literals.isdisjoint(self._raw)

    def _invoke(self, a: Letter, note: list[PrefixNote]) -> Any:
        """Make the protocol call for ``a``; what it returned."""
        by_prefix = bool(getattr(a, "by_prefix", False))

        def ref(x: Id) -> str:
            return self._ref(x, by_prefix, note)

        layer = self.layer
        match a:
            case A.Save(record=r):
                content, kw = self._saved(r)
                return layer.save(content, **kw)
            case A.SaveAt(id=i, record=r):
                content, kw = self._saved(r)
                return layer.save(content, id=self.names.to_layer(i), **kw)
            case A.Evolve(id=i, content=c, valid_time=vt):
                return layer.evolve(ref(i), c, **self._kw(vt))
            case A.Merge(ids=ids, valid_time=vt):
                return layer.merge([ref(i) for i in ids], **self._kw(vt))
            case A.Split(id=i, contents=cs, valid_time=vt):
                return layer.split(ref(i), list(cs), **self._kw(vt))
            case A.Supersede(old=o, new=n):
                return layer.supersede(ref(o), ref(n))
            case A.Delete(id=i):
                return layer.delete(ref(i))
            case A.RecallPrefix(prefix=p):
                return layer.recall(self._ref(p, True, note))
        raise TypeError(f"not a protocol letter: {a!r}")

    def _returned_ids(self, a: Letter, got: Any) -> list[str]:
        if isinstance(a, A.Split):
            if isinstance(got, (str, bytes)) or not isinstance(got, Sequence):
                raise ProtocolMisuse(f"split: expected a sequence of identifiers (strings), got {quote(got, 60)}")
            try:
                with layer_call("split"):
                    items = list(got)
            except Exception as e:  # noqa: BLE001 - the layer's sequence raised while read
                raise ProtocolMisuse(f"split: reading the returned sequence raised {describe(e)}") from None
            if not all(type(x) is str for x in items):
                raise ProtocolMisuse(f"split: expected a sequence of identifiers (plain strings), got "
                                     f"{quote(items, 60)}")
            if len(items) != len(a.contents) or len(set(items)) != len(items):
                raise ProtocolMisuse(f"split: expected {len(a.contents)} distinct identifiers, one per part, "
                                     f"got {quote(items, 80)}")
            return items
        if type(got) is not str:
            kind = "a str subclass" if isinstance(got, str) else type(got).__name__
            raise ProtocolMisuse(f"{a.kind.replace('_at', '')}: expected the new record's identifier (a string), "
                                 f"got {kind} {quote(got, 60)}")
        return [got]

    def apply(self, call: Call) -> Output:
        """Make ``call``; the output (the session's :attr:`store` is the store after it)."""
        a, before = call.letter, self.store
        if call.faults:
            raise ValueError("a black-box layer cannot be run with injected edge-write faults")
        self.calls.append(call)
        note: list[PrefixNote] = []
        out, created, message = self._apply(a, call, before, note)
        self.created.append(created)
        self.messages.append(message)
        self.notes.append(self._resolved(note[0], a, out, before) if note else None)
        return out

    def _apply(self, a: Letter, call: Call, before: Store,
               note: list[PrefixNote]) -> tuple[Output, tuple[Id, ...], str | None]:
        if isinstance(a, A.Recall):
            return (Found(a.id, before.records[a.id]) if a.id in before.records else Nothing()), (), None
        why = unsupported(a, self.caps)
        if why is not None:
            return Err(why), (), None
        live_before = {self.names.canonical.get(r) for r in self._raw}
        try:
            with layer_call(a.kind):
                got = self._invoke(a, note)
        except ProtocolMisuse:
            raise
        except _NotExpressible as e:
            return Err(NOT_ASKED + str(e)), (), None
        except Exception as e:  # noqa: BLE001 - an exception from a well-formed call is a refusal
            said = describe(e)
            if not readable(e):
                raise ProtocolMisuse(f"{a.kind.replace('_at', '')}: the layer raised {said}") from None
            self.store = self._look(call.allocation.ids)
            return Err(f"refused ({type(e).__name__})"), (), said
        if isinstance(a, (A.Save, A.SaveAt, A.Evolve, A.Merge, A.Split)):
            reals = self._returned_ids(a, got)
            made = []
            for k, real in enumerate(reals):
                old = self.names.canonical.get(real)
                if isinstance(a, A.SaveAt):
                    if real in self._raw:
                        self.replaced[real] = len(self.calls)
                    self.names.bind(real, a.id)
                elif old is None or old not in live_before:
                    self.names.bind(real, call.allocation.ids[k] if k < len(call.allocation.ids)
                                    else f"{call.allocation.ids[-1]}+{k}")
                else:
                    raise ProtocolMisuse(f"{a.kind}: returned {quote(real, 60)}, the identifier of a record that "
                                         "was there before the call; expected the new record's identifier")
                made.append(self.names.canonical[real])
            self.store = self._look(call.allocation.ids)
            missing = [real for real, c in zip(reals, made) if c not in self.store.records]
            if missing:
                raise ProtocolMisuse(f"{a.kind.replace('_at', '')}: returned {quote(missing[0], 60)}, which "
                                     "records() does not list")
            if isinstance(a, A.Split):
                _in_parts_order(a.contents, [self.store.records[c].content for c in made])
            return Created(tuple((c, self.store.records[c]) for c in made)), tuple(made), None
        self.store = self._look(call.allocation.ids)
        if isinstance(a, A.RecallPrefix):
            if got is None:
                return Nothing(), (), None
            if type(got) is not str or self.names.name(got) not in self.store.records:
                raise ProtocolMisuse(f"recall: expected an identifier records() lists, or None, got "
                                     f"{quote(got, 60)} (a method recall(ref) is read as recall by identifier "
                                     "or prefix, the prefix_recall capability)")
            c = self.names.name(got)
            return Found(c, self.store.records[c]), (), None
        return Flag(True), (), None  # supersede and delete return nothing: the call was accepted

    def _resolved(self, n: PrefixNote, a: Letter, out: Output, before: Store) -> PrefixNote:
        """The note with the record the call acted on, when the store shows it."""
        acted: set[Id] = set()
        if isinstance(out, Found):
            acted = {out.id}
        elif isinstance(a, A.Delete) and not isinstance(out, Err):
            acted = set(before.records) - set(self.store.records)
        elif isinstance(out, Created):
            for j in out.ids:
                acted |= {e.target for e in self.store.out_edges(j, ANCESTRY)}
                for key in ANCESTRY_KEYS:
                    v = self.store.records[j].metadata.get(key) if j in self.store.records else None
                    acted |= set(v) if isinstance(v, tuple) else ({v} if isinstance(v, str) else set())
            if isinstance(a, A.Merge):
                acted -= {i for i in a.ids if i in before.records}
        acted &= set(n.candidates)
        return PrefixNote(n.prefix, n.candidates, next(iter(acted)) if len(acted) == 1 else None, n.rule_choice)
