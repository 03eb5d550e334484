"""A layer as a realisation: the step function α(s)(a, ξ) of a black box, run by replaying words.

The law predicates of :mod:`coalg.laws` take a
:class:`~coalg.model.Realisation` and a transition, and some of them step
the realisation again from *other* stores: L4(i) from the namespace's
restriction π_ν(s), L4(ii) from stores that agree with s on ν, S2 from the
named records alone.  :class:`BlackBox` gives them that step function for a
layer the kit can only drive through the protocol:

* every store the layer has shown is **registered** with the word (the calls
  from a fresh layer) that produced it; a step from a registered store
  replays that word on a fresh layer -- or continues a live layer parked
  there (:attr:`BlackBox.live_limit` of them are kept) -- then makes the call;
* a store the predicates ask for that was never shown is **constructed** from
  the word of the store being judged (:attr:`BlackBox.context`): the calls
  that touch only its records, with a fresh save's record replaced where the
  asked store has another one; or, for a store without edges, fresh saves of
  its records.  It is used only when replaying that word shows exactly the
  asked store (fields the protocol cannot carry -- summaries, clock readings,
  a valid time without the capability -- set aside).  Otherwise the step
  raises :class:`Unconstructible`, and the case is not judged (counted in
  :attr:`BlackBox.skipped`);
* replaying a word must show the store it showed before: a layer that is not
  deterministic up to the names of its identifiers raises
  :class:`Nondeterministic`;
* a store stands for the first word that showed it: a step from it continues a
  layer that made exactly that word, never one that reached the same records and
  edges another way.  A layer whose later calls depend on state it does not show
  (a tombstone kept outside ``records()``) is so judged as the layer that word
  made, consistently; the runs a witness cites are made again word for word by
  :class:`Replay`.

Every call's θ is ignored (a layer has no θ: its undeclared orders are
looked for across interpreters, :mod:`coalg.conformance.order`), and no edge
write can be made to fail from outside: the black box reads the laws
fault-free.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import CoalgError
from ..model import (
    DEFAULT_THETA,
    Allocation,
    Call,
    Err,
    Id,
    Letter,
    Output,
    Realisation,
    Record,
    Save,
    Store,
    Theta,
    creates,
    named,
)
from .protocol import Capabilities
from .session import PrefixNote, Session, not_asked

__all__ = ["BlackBox", "Nondeterministic", "Path", "Replay", "Unconstructible", "project"]


class Unconstructible(Exception):
    """The store a predicate asked for cannot be built through the protocol."""


class Nondeterministic(CoalgError):
    """Replaying the same word on a fresh layer showed another store."""

    def __init__(self, calls: tuple[Call, ...], expected: Store, got: Store) -> None:
        super().__init__("the same word, run twice on fresh layers, showed different stores")
        self.calls, self.expected, self.got = calls, expected, got


@dataclass(frozen=True)
class Path:
    """A word from a fresh layer, with the identifiers each call created (empty for a refusal)."""

    calls: tuple[Call, ...] = ()
    created: tuple[tuple[Id, ...], ...] = ()

    def then(self, call: Call, created: tuple[Id, ...]) -> Path:
        return Path(self.calls + (call,), self.created + (created,))


def project(s: Store, valid_time: bool) -> Store:
    """``s`` with only what the protocol carries: no summaries or clock readings (no valid time without it)."""
    def bare(r: Record) -> bool:
        return r.summary is None and r.created_at is None and r.updated_at is None \
            and (valid_time or r.valid_time is None)

    if all(bare(r) for r in s.records.values()):
        return s
    return Store.of({i: Record(r.content, type=r.type, namespace=r.namespace, tags=r.tags, metadata=r.metadata,
                               valid_time=r.valid_time if valid_time else None)
                     for i, r in s.records.items()}, s.edges)


def _letter_record(r: Record) -> Record:
    return Record(r.content, type=r.type, namespace=r.namespace, tags=r.tags, metadata=r.metadata,
                  valid_time=r.valid_time)


class BlackBox:
    """A layer's factory as a :class:`~coalg.model.Realisation` (:attr:`realisation`)."""

    live_limit = 8

    def __init__(self, factory: Callable[[], Any], caps: Capabilities, name: str = "layer") -> None:
        self.factory, self.caps = factory, caps
        self.registry: dict[Store, Path] = {}
        self.context: tuple[Path, Store] | None = None
        self.lenient = False
        self.skipped = 0
        self.sessions = 0
        self.calls = 0
        self.trace: list[tuple[Path, Call]] = []
        self.messages: dict[tuple[Store, Call], str] = {}
        self.notes: dict[tuple[Store, Call], PrefixNote] = {}
        self._live: OrderedDict[Store, Session] = OrderedDict()
        self._cache: dict[tuple[Store, Call], tuple[Output, Store]] = {}
        self._failed: set[Store] = set()
        self._extras: dict[Store, dict[Id, str]] = {}
        self._real: dict[Store, dict[Id, str]] = {}
        first = self._session()
        self._extras[first.store] = first.extras()
        self._real[first.store] = dict(first.names.real)
        self.fresh = first.store
        self.registry[self.fresh] = Path()
        self._park(first)
        self.realisation = Realisation(
            name, self._step, f"the memory layer {name}, driven through the protocol",
            declares_valid_time=caps.has("valid_time"), edge_faults=False)

    # -- sessions ---------------------------------------------------------------------
    def _session(self) -> Session:
        self.sessions += 1
        return Session(self.factory, self.caps)

    def _park(self, sess: Session) -> None:
        """Keep ``sess`` for later steps from its store, if it made the word that store stands for."""
        if self.registry.get(sess.store) != self.path_of(sess):
            sess.close()
            return
        old = self._live.pop(sess.store, None)
        if old is not None and old is not sess:
            old.close()
        self._live[sess.store] = sess
        while len(self._live) > self.live_limit:
            _, gone = self._live.popitem(last=False)
            gone.close()

    def _run(self, calls: tuple[Call, ...]) -> Session:
        sess = self._session()
        for c in calls:
            sess.apply(c)
            self.calls += 1
        return sess

    def _at(self, key: Store, path: Path) -> Session:
        sess = self._live.pop(key, None)
        if sess is not None:
            return sess
        sess = self._run(path.calls)
        if sess.store != key:
            sess.close()
            raise Nondeterministic(path.calls, key, sess.store)
        return sess

    @staticmethod
    def path_of(sess: Session) -> Path:
        return Path(tuple(sess.calls), tuple(sess.created))

    # -- the step function --------------------------------------------------------------
    def _step(self, s: Store, a: Letter, xi: Allocation = Allocation(), *, theta: Theta = DEFAULT_THETA,
              faults: frozenset[int] = frozenset()) -> tuple[Output, Store]:
        call = Call(a, xi, faults)
        key = project(s, self.caps.has("valid_time"))
        hit = self._cache.get((key, call))
        try:
            path = self.registry.get(key)
            if path is None:
                path = self._construct(key)
            elif not self._extras_as_before(self._extras.get(key, {}), key):
                raise Unconstructible("a record there shows the fields the kit does not read otherwise")
            if not self._ordered_as_before(key):
                raise Unconstructible("the layer's identifiers stand in another order there")
        except Unconstructible:
            if not self.lenient:
                raise
            self.skipped += 1
            return Err("the protocol cannot build this store"), s
        if hit is not None:
            self.trace.append((path, call))
            return self._asked(*hit)
        sess = self._at(key, path)
        path = self.path_of(sess)
        out = sess.apply(call)
        self.calls += 1
        if self.context is not None and sess.collided():  # only a rebuilt record's save writes names as they are
            sess.close()
            if not self.lenient:
                raise Unconstructible("the layer gave a new record an identifier spelled as a name the kit wrote")
            self.skipped += 1
            return Err("the protocol cannot build this store"), s
        after = sess.store
        self.registry.setdefault(after, path.then(call, sess.created[-1]))
        if after not in self._extras:  # read once per store, not on every step that reaches it again
            self._extras[after] = sess.extras()
            self._real[after] = dict(sess.names.real)
        if sess.messages[-1] is not None:
            self.messages[(key, call)] = sess.messages[-1]
        note = sess.notes[-1]
        if note is not None:
            self.notes[(key, call)] = note
        self._cache[(key, call)] = (out, after)
        self.trace.append((path, call))
        self._park(sess)
        return self._asked(out, after)

    def _asked(self, out: Output, after: Store) -> tuple[Output, Store]:
        """A predicate's run on another store that the session could not ask is no case to judge (like a
        store the protocol cannot build): it compared nothing the layer did."""
        if self.context is not None and not_asked(out):
            if not self.lenient:
                raise Unconstructible("a reference the protocol cannot express on this run of the layer")
            self.skipped += 1
        return out, after

    # -- stores the predicates ask for --------------------------------------------------
    def _subword(self, path: Path, at: Store, target: Store) -> tuple[Call, ...]:
        keep = []
        dom = target.dom()
        for c, made in zip(path.calls, path.created):
            a = c.letter
            if creates(a) and not made:
                continue  # a refused call: it changed nothing
            if not (set(named(a)) | set(made)) <= dom:
                continue
            if isinstance(a, Save) and made[0] in at.records and target.records[made[0]] != at.records[made[0]]:
                c = Call(Save(_letter_record(target.records[made[0]])), c.allocation)
            keep.append(c)
        return tuple(keep)

    def _construct(self, target: Store) -> Path:
        if target in self._failed:
            raise Unconstructible
        candidates = []
        if self.context is not None:
            candidates.append(self._subword(*self.context, target))
        if not target.edges:
            candidates.append(tuple(Call(Save(_letter_record(r)), Allocation((i,), 0))
                                    for i, r in sorted(target.records.items())))
        for calls in dict.fromkeys(candidates):
            sess = self._run(calls)
            path = self.path_of(sess)
            if sess.store == target and not sess.collided() and self._extras_as_before(sess.extras(), target):
                self.registry.setdefault(sess.store, path)
                self._extras.setdefault(sess.store, sess.extras())
                self._real.setdefault(sess.store, dict(sess.names.real))
                self._park(sess)
                return path
            sess.close()
        self._failed.add(target)
        raise Unconstructible

    def _extras_as_before(self, now: dict[Id, str], target: Store) -> bool:
        """Whether the records of ``target`` that the predicate took unchanged from the store it started at
        show, by ``now``, the fields the kit does not read as they did there (a layer's call may read them: a
        version, a status).  This holds for a store the predicate rebuilds and for one an earlier word made
        alike: ``save(a)`` makes a store equal, in what the kit reads, to ``a`` after a supersede that set a
        ``status`` field."""
        if self.context is None:
            return True
        at = self.context[1]
        before = self._extras.get(at, {})
        return all(before.get(i) == now.get(i) for i, r in target.records.items() if at.records.get(i) == r)

    def _ordered_as_before(self, key: Store) -> bool:
        """Whether the layer's identifiers of the records in ``key`` stand in the order they had in the store
        the predicate started at.  Another store is made by another word, so the layer hands out its own
        identifiers otherwise there (``m1, m2`` where they were ``m6, m10``), and a call may read their
        order (a merge in identifier order): a store where that order changed is a case not judged.
        Identifiers drawn at random are not compared: a call that reads their order shows other results on
        two fresh layers, which L5 reports."""
        if self.context is None or self.caps.fresh_ids:
            return True
        before, now = self._real.get(self.context[1], {}), self._real.get(key, {})
        ids = sorted(i for i in key.records if i in before and i in now)
        return sorted(ids, key=before.__getitem__) == sorted(ids, key=now.__getitem__)

    def release(self) -> None:
        """Close every live layer and forget every store (the realisation may outlive the check)."""
        for sess in self._live.values():
            sess.close()
        self._live.clear()
        self._cache.clear()
        self._extras.clear()
        self._real.clear()
        self.registry.clear()
        self._failed.clear()
        self.trace.clear()


class Replay:
    """A layer run word by word, nothing shared between words: the runs a witness cites, made exactly.

    Its :attr:`realisation` steps only stores it returned itself (or the fresh
    store), and a step continues the very run that showed that store -- made again
    on a fresh layer when the live one has moved on.  So a word stepped through it
    is exactly that word made on a fresh layer, even for a layer that keeps state it
    does not show; a replay that shows another store than before raises
    :class:`Nondeterministic`.
    """

    def __init__(self, factory: Callable[[], Any], caps: Capabilities, name: str = "layer") -> None:
        self.factory, self.caps = factory, caps
        self._live: Session | None = Session(factory, caps)
        self.fresh = self._live.store
        self._words: dict[int, tuple[Store, tuple[Call, ...]]] = {id(self.fresh): (self.fresh, ())}
        self.realisation = Realisation(
            name, self._step, f"the memory layer {name}, each word made on a fresh layer",
            declares_valid_time=caps.has("valid_time"), edge_faults=False)

    def _word_of(self, s: Store) -> tuple[Call, ...]:
        known = self._words.get(id(s))
        if known is not None and known[0] is s:
            return known[1]
        if s == self.fresh:
            return ()  # a store this runner did not show, equal to a fresh layer's: a fresh layer
        raise Unconstructible

    def _at(self, calls: tuple[Call, ...]) -> Session:
        live = self._live
        if live is not None and tuple(live.calls) == calls:
            return live
        if live is not None:
            live.close()
        self._live = None
        sess = Session(self.factory, self.caps)
        for c in calls:
            sess.apply(c)
        self._live = sess
        return sess

    def _step(self, s: Store, a: Letter, xi: Allocation = Allocation(), *, theta: Theta = DEFAULT_THETA,
              faults: frozenset[int] = frozenset()) -> tuple[Output, Store]:
        calls = self._word_of(s)
        sess = self._at(calls)
        if calls and sess.store != s:
            raise Nondeterministic(calls, s, sess.store)
        call = Call(a, xi, faults)
        out = sess.apply(call)
        after = sess.store
        self._words[id(after)] = (after, calls + (call,))
        return out, after

    def extras(self) -> dict[Id, str]:
        """The fields the kit does not read, per record, as the layer showed them after the last call made."""
        return self._live.extras() if self._live is not None else {}

    def real_names(self) -> dict[Id, str]:
        """The layer's own identifier of each record, by canonical name, after the last call made."""
        return dict(self._live.names.real) if self._live is not None else {}

    def run(self, calls: Sequence[Call]) -> list[tuple[Output, Store]]:
        """Each call's output and the store after it, ``calls`` made on a fresh layer."""
        s, seen = self.fresh, []
        for c in calls:
            out, s = self._step(s, c.letter, c.allocation, faults=c.faults)
            seen.append((out, s))
        return seen

    def close(self) -> None:
        """Close the live layer and forget every store."""
        if self._live is not None:
            self._live.close()
        self._live = None
        self._words.clear()

