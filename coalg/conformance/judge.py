"""Judging the transitions: the law search's own step predicates, and what a black box adds.

For every clause of Table 2 that is judged one step at a time -- L1, L2,
L3, L4(i), L4(ii), L7 and S1–S4 -- :class:`Judge` calls the predicate the
law search itself uses (``get_clause(key).step`` of :mod:`coalg.laws`), on
the black box's realisation (:mod:`coalg.conformance.blackbox`), over the
alphabet the clause is read on: the fragment for all but L7, the full
alphabet for L7.  The first violation of each clause is kept.  Two checks
are the kit's own, since only a black box can fail them:

* **a refusal that changed the store** -- an exception must leave
  ``records()`` and ``edges()`` as they were: a refusal that lost or changed
  a record or an edge is a witness against L1, one that only added is a
  witness against S1 (every examined refusal counts towards S1);
* **an ambiguous prefix** (the prefix all records share, passed to a layer
  with a prefix capability) must be refused, or resolved by the rule the layer
  declares (``prefix_rule``): the prefix part of L5.

L2 and L3 are the paper's *redundancy laws*: two ways of recording one fact
must not diverge.  L2 compares a derived record's ancestry edges with its
ancestry metadata (``evolved_from``, ``merged_from``, ``split_from``; a record
with no such edge of its own is read through its parents' ``*_into`` edges,
``from_edges``); L3 an edge with its inverse.  A layer that records a fact one way only cannot
disagree with itself, so a disagreement counts only once the layer has shown
both representations somewhere in the exploration (:class:`Shown`): for L2 an
ancestry edge, and a derived record with ancestry metadata; for L3 an edge
together with its inverse.  Until then the first disagreement waits; a layer
that never shows the second representation holds "with one representation".

A predicate that asks for a store the protocol cannot build
(:class:`~coalg.conformance.blackbox.Unconstructible`), or runs a call the
session cannot ask there (a prefix that run's identifiers do not allow), does
not judge that case; such cases are counted per clause in :attr:`Judge.skipped`.
A call the session could not ask on the explored run itself is not judged at all.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from ..laws import Transition, get_clause, show_call
from ..model import ANCESTRY, Call, Edge, Err, Nothing, Store, edge_to_json, inverse, meta_ancestry
from .alphabet import alphabet
from .blackbox import BlackBox, Path, Unconstructible
from .explore import derived_of, levels, shrink, start, walks
from .session import not_asked

__all__ = ["REDUNDANCY_KEYS", "REFUSAL_KEYS", "STEP_KEYS", "Finding", "Judge", "Problem", "Shown", "alphabet_of"]

STEP_KEYS = ("L1", "L2", "L3", "L4i", "L4ii", "L7", "S1", "S2", "S3", "S4")
"""The clauses judged one transition at a time by the law search's predicates."""

REDUNDANCY_KEYS = ("L2", "L3")
"""The redundancy laws: judged only on a layer that shows both representations of a fact."""

REFUSAL_KEYS = ("L1", "S1")
"""The clauses also judged on the full alphabet, there for refused calls only (a refusal must change nothing)."""

REPRESENTATIONS = {"L2": ("edges", "metadata"), "L3": ("edge", "inverse edge")}
"""What each redundancy law compares, in the report's ``representations`` lists."""

MINIMAL = "breadth first from a fresh layer: no shorter word violates the clause"


def alphabet_of(key: str) -> str:
    """The alphabet a clause is read on: the law search's choice for it."""
    return "full" if get_clause(key).alphabet == "full" else "fragment"


@dataclass(frozen=True)
class Problem:
    """A violation: the offending data, one sentence, and extra data for the witness."""

    offending: dict[str, Any]
    explanation: str
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Finding:
    """The first violation of a clause: where, what, how it was found, and the other run a predicate made."""

    key: str
    transition: Transition
    problem: Problem
    how: str
    other: tuple[Path, Call] | None = None


class Shown:
    """The representations of ancestry a layer has shown so far, each with the first call that showed it."""

    def __init__(self) -> None:
        self.first: dict[tuple[str, str], str] = {}

    def see(self, t: Transition) -> None:
        """Note what the store after ``t`` shows (a refused call shows nothing new)."""
        if not t.ok or len(self.first) == 4:
            return
        s, call = t.after, show_call(t.call)
        if ("L2", "edges") not in self.first and any(e.relation in ANCESTRY or inverse(e.relation) in ANCESTRY
                                                     for e in s.edges):
            self.first["L2", "edges"] = f"{call} left an ancestry edge"
        if ("L2", "metadata") not in self.first:
            for i in sorted(derived_of(t.call.letter, t.output)):  # made by this call, not a reused name
                r = s.records.get(i)
                key = next((k.value for k in sorted(ANCESTRY, key=lambda x: x.value)
                            if r is not None and meta_ancestry(r, k)), None)
                if key is not None:
                    self.first["L2", "metadata"] = f"{call} gave {i} the metadata key {key}"
                    break
        if ("L3", "edge") not in self.first and s.edges:
            self.first["L3", "edge"] = f"{call} left an edge"
        if ("L3", "inverse edge") not in self.first:
            pair = next((e for e in sorted(s.edges)
                         if Edge(e.target, inverse(e.relation), e.source) in s.edges), None)
            if pair is not None:
                self.first["L3", "inverse edge"] = f"{call} left {pair} together with its inverse"

    def of(self, key: str) -> list[str]:
        """The representations clause ``key`` compares that the layer has shown."""
        return [r for r in REPRESENTATIONS[key] if (key, r) in self.first]

    def both(self, key: str) -> bool:
        return len(self.of(key)) == 2


def from_edges(s: Store) -> Store:
    """``s`` with ``(c, r, p)`` added for each edge ``(p, r⁻¹, c)`` of an ancestry relation ``r`` (evolved_from,
    merged_from, split_from) where ``c`` has no ``r`` edge of its own.

    L2 compares a record's ancestry edges with its ancestry metadata; a layer may show the edges from
    the parent's side only (``evolved_into``), and those name the same parents.  Where a record has
    edges of its own, they alone are read (an ``*_into`` edge without its inverse is L3's concern).
    """
    own = {(e.source, e.relation) for e in s.edges if e.relation in ANCESTRY}
    add = [Edge(e.target, inverse(e.relation), e.source) for e in s.edges
           if inverse(e.relation) in ANCESTRY and (e.target, inverse(e.relation)) not in own]
    return s.with_edges(add) if add else s


def _store_diff(before: Store, after: Store) -> dict[str, Any]:
    return {
        "lost_records": sorted(before.dom() - after.dom()),
        "changed_records": sorted(i for i in before.dom() & after.dom() if before.records[i] != after.records[i]),
        "added_records": sorted(after.dom() - before.dom()),
        "lost_edges": [edge_to_json(e) for e in sorted(before.edges - after.edges)],
        "added_edges": [edge_to_json(e) for e in sorted(after.edges - before.edges)],
    }


class Judge:
    """Every step clause and kit check over the transitions of one layer; the first violation of each."""

    def __init__(self, bb: BlackBox) -> None:
        self.bb = bb
        self.explored = {k: 0 for k in (*STEP_KEYS, "L5")}
        self.skipped = {k: 0 for k in (*STEP_KEYS, "L5")}
        self.found: dict[str, Finding] = {}
        self.pending: dict[str, Finding] = {}
        self.shown = Shown()
        self.transitions = 0
        self._alph = "fragment"

    # -- the checks -------------------------------------------------------------------
    def _predicate(self, key: str, t: Transition) -> tuple[int, Problem | None, tuple[Path, Call] | None]:
        bb, clause = self.bb, get_clause(key)
        assert clause.step is not None
        if key == "L2":  # parents shown only as *_into edges are read backwards (see :func:`from_edges`)
            t = replace(t, after=from_edges(t.after))
        bb.context = (bb.registry.get(t.before, Path()), t.before)
        bb.lenient = key == "L4ii"
        bb.trace.clear()
        skipped = bb.skipped
        try:
            n, v = clause.step(bb.realisation, t)
        except Unconstructible:
            self.skipped[key] += 1
            return 0, None, None
        finally:
            bb.context, bb.lenient = None, False
        if bb.skipped > skipped:
            self.skipped[key] += bb.skipped - skipped
            n -= bb.skipped - skipped
        if v is None:
            return n, None, None
        other = bb.trace[-1] if bb.trace else None  # the run the predicate made on another store
        return n, Problem(dict(v.offending), v.explanation, dict(v.extra)), other

    def _refusal(self, t: Transition) -> tuple[str, int, Problem | None]:
        if t.ok:
            return "S1", 0, None
        if t.after == t.before:
            return "S1", 1, None
        diff = _store_diff(t.before, t.after)
        key = "L1" if diff["lost_records"] or diff["changed_records"] or diff["lost_edges"] else "S1"
        said = self.bb.messages.get((t.before, t.call), t.output.reason if isinstance(t.output, Err) else "")
        what = "; ".join(f"{k.replace('_', ' ')} {v}" for k, v in diff.items() if v)
        return key, 1, Problem(diff, f"{show_call(t.call)} was refused ({said}) but changed the store: {what}.")

    def _prefix(self, t: Transition) -> tuple[int, Problem | None]:
        note = self.bb.notes.get((t.before, t.call))
        if note is None:
            return 0, None
        if not t.ok or isinstance(t.output, Nothing):  # refused: an exception, or recall returning None
            return 1, None
        rule = self.bb.caps.prefix_rule
        matched = ", ".join(note.candidates)
        data = {"prefix": note.prefix, "candidates": list(note.candidates), "resolved": note.resolved,
                "declared_rule": rule, "rule_choice": note.rule_choice}
        if rule is None:
            acted = f" and acted on {note.resolved}" if note.resolved else ""
            return 1, Problem(data, f"{show_call(t.call)} was accepted{acted}, though the prefix matches {matched}: "
                                    "an ambiguous prefix must be refused, or resolved by a rule the layer declares "
                                    "(prefix_rule).")
        if note.resolved is None or note.rule_choice is None:  # the call's pick or the rule's does not show
            self.skipped["L5"] += 1
            return 0, None
        if note.resolved != note.rule_choice:
            return 1, Problem(data, f"{show_call(t.call)} acted on {note.resolved}, but the layer's declared rule "
                                    f"'{rule}' picks {note.rule_choice} among {matched}.")
        return 1, None

    def check(self, key: str, t: Transition, predicate: bool = True) -> tuple[int, Problem | None,
                                                                            tuple[Path, Call] | None]:
        """Clause ``key`` at ``t``: cases examined, the problem if any, the other run a predicate made.

        ``predicate=False`` leaves out the law search's predicate (L1 and S1 on the
        full alphabet are checked for refusals only).
        """
        if not_asked(t.output):  # the layer was not called (a shrunk word, too): nothing to judge
            return 0, None, None
        if key == "L5":
            n, p = self._prefix(t)
            return n, p, None
        n, p, other = self._predicate(key, t) if predicate and key in STEP_KEYS else (0, None, None)
        if p is None and key in REFUSAL_KEYS:
            which, m, q = self._refusal(t)
            if which == key:
                n, p = n + m, q
        return n, p, other

    # -- the exploration ----------------------------------------------------------------
    def _keys(self, alph: str) -> list[str]:
        keys = [k for k in STEP_KEYS if alphabet_of(k) == alph or k in REFUSAL_KEYS]
        if alph == "full" and self.bb.caps.prefixes:
            keys.append("L5")
        return [k for k in keys if k not in self.found]

    def _promote(self) -> None:
        """A waiting L2 or L3 disagreement counts once the layer has shown both representations."""
        for key in [k for k in self.pending if self.shown.both(k)]:
            f = self.pending.pop(key)
            shown = "; ".join(self.shown.first[key, r] for r in REPRESENTATIONS[key])
            why = (f"{f.problem.explanation} The layer records this both ways (as the first words to show "
                   f"each did, their identifiers named afresh: {shown}), and the two disagree here.")
            self.found[key] = Finding(key, f.transition, Problem(f.problem.offending, why, f.problem.extra),
                                      f.how, f.other)

    def _judge(self, t: Transition, keys: list[str], how: str, walk: int | None) -> None:
        if not_asked(t.output):  # the layer was not called: nothing to judge
            return
        self.transitions += 1
        self.shown.see(t)
        self._promote()
        for key in keys:
            if key in self.found:
                continue
            predicate = key in STEP_KEYS and alphabet_of(key) == self._alph
            n, p, other = self.check(key, t, predicate)
            self.explored[key] += n
            if p is None or key in self.pending:  # a waiting disagreement: the first one is kept
                continue
            at = t
            if walk is not None:
                at, p, other = self._shrunk(key, t, p, other)
            if key in REDUNDANCY_KEYS:
                self.pending[key] = Finding(key, at, p, how, other)
                self._promote()
            else:
                self.found[key] = Finding(key, at, p, how, other)

    def _shrunk(self, key: str, t: Transition, p: Problem,
                other: tuple[Path, Call] | None) -> tuple[Transition, Problem, tuple[Path, Call] | None]:
        kept: dict[str, Any] = {}

        predicate = key in STEP_KEYS and alphabet_of(key) == self._alph

        def fails(u: Transition) -> bool:
            _, q, o = self.check(key, u, predicate)
            if q is not None:
                kept.update(problem=q, other=o)
            return q is not None

        best = shrink(self.bb.realisation, t, fails)
        if best is t:
            return t, p, other
        fails(best)
        return best, kept["problem"], kept["other"]

    def run(self, length: int, n_walks: int, walk_length: int, seed: int) -> None:
        """Judge every word up to ``length``, then (for what is still open) the seeded walks, both alphabets."""
        st = start(self.bb.fresh)
        rz = self.bb.realisation
        for alph in ("fragment", "full"):
            self._alph = alph
            keys = self._keys(alph)
            letters = alphabet(alph, self.bb.caps)
            for _, t in levels(rz, letters, length, st):
                self._judge(t, keys, MINIMAL, None)
                if all(k in self.found for k in keys):
                    break
            keys = [k for k in keys if k not in self.found]
            if not keys or not n_walks:
                continue
            for w, t in walks(rz, letters, n_walks, walk_length, seed, st):
                how = (f"found on seeded random walk {w + 1} of {n_walks} (seed {seed}), then shrunk greedily: "
                       "no single call can be removed")
                self._judge(t, keys, how, w)
                if all(k in self.found for k in keys):
                    break
