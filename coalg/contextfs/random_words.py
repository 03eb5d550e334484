"""Random words for differential testing: calls of the memory API drawn at the model's current store.

A *word* here is a sequence of :class:`WordStep`: a call of the extended alphabet
Â (a letter, its allocation ξ and the injected edge-write faults, §3.2) plus one
flag the model cannot express by itself, whether a save names its own identifier
(``Memory(id=…)``) or lets the package draw one.  :func:`random_step` draws the
next step at the store the previous steps produced, so later calls name records
that earlier calls created, deleted or left dangling.

What the words cover, and what they leave out on purpose:

* save (fresh, and under an identifier: an existing record, which is the
  model's ``save_at``, or an identifier some edge or metadata still mentions,
  which is a fresh save allocated at the strict-freshness boundary of
  Definition 3.8), recall by identifier and by prefix, evolve, merge, split,
  supersede and delete, the last four also by prefix;
* edge-write faults on evolve, merge, split and supersede (the writes the
  package makes inside log-and-continue handlers);
* identifiers shaped like the package's (``str(uuid4())[:12]``: 8 hex digits, a
  hyphen, 3 hex digits) but drawn from a narrow range, so that short prefixes
  are shared and a prefix query often has several rows to choose from; and,
  saved under an identifier the caller names, identifiers the package never
  draws itself: with capitals, ``_``, ``%``, non-ASCII letters, or extending or
  cutting short an identifier already stored (:func:`odd_id`);
* prefixes over the whole domain of SQLite's ``LIKE``: mixed case, ``_`` and
  ``%`` anywhere, non-ASCII letters (whose case SQLite keeps), and now and then
  a NUL (where SQLite stops reading the pattern);
* record types outside the package's ``MemoryType`` (``"banana"``, ``"Fact"``,
  ``""``, …), in saves, save_ats and merges, and non-ASCII contents,
  namespaces and tags;
* a letter that names a record *by equality* (recall, delete, evolve, merge,
  split) gets an identifier whose ``LIKE`` lookup finds that identifier alone
  (or nothing, when it holds no record): only then is the package's lookup an
  equality test.  Everything else about ``LIKE`` is drawn through the letters
  that resolve by prefix.

:func:`covers` says which parts of that domain a word reaches (the differential
report counts them).

Everything is drawn from a ``random.Random`` seeded with a string, so a word
depends on its seed and index only, never on ``PYTHONHASHSEED``.

>>> rng = random.Random("doc")
>>> supply = IdSupply(rng)
>>> [len(supply.fresh()) for _ in range(3)]
[12, 12, 12]
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field

from ..model import (
    Allocation,
    Call,
    FrozenMap,
    Id,
    Letter,
    Record,
    Store,
    Theta,
    ascii_fold,
    creates,
    edge_writes,
    has_like_artefacts,
    is_memory_type,
    letter_to_json,
    like_matches,
    resolve_prefix,
)
from ..model import alphabet as A

__all__ = ["CONTENTS", "COVERAGE", "INVALID_TYPES", "NAMESPACES", "TYPES", "IdSupply", "WordStep", "covers",
           "finds_only", "odd_id", "random_step", "resolved_ids"]

TYPES = ("fact", "decision", "procedural", "episodic", "user", "agent_run")
"""Record types drawn that the package accepts (values of its ``MemoryType``)."""

INVALID_TYPES = ("banana", "Fact", "FACT", " fact", "", "événement", "agent-run")
"""Record types drawn that the package refuses (``""`` is no type at all to merge)."""

NAMESPACES = ("ns-a", "ns-b", "ns-é")
CONTENTS = ("alpha", "beta", "gamma", "", "naïve ☃ 雪", "x" * 600)
"""Contents drawn; the long one checks merge's ``[:500]`` cut."""
_TAGS = ("t1", "t2", "evolved", "t-é")
_METADATA: tuple[dict[str, object], ...] = ({}, {}, {"owner": "alice"}, {"k": 1, "owner": "bob"})
_ODD_CHARS = ("_", "%", "A", "B", "F", "é", "É", "ß", "K")
_PREFIX_ODDITIES = ("%", "_", "%-", "_0", "É", "é", "ß", "A%", "%0\0", "B1F")


@dataclass
class IdSupply:
    """Identifiers shaped like the package's, from a narrow range so that short prefixes collide.

    The first hex digit is ``a`` or ``b`` and the second ``0`` or ``1``: among a
    handful of records, one-character prefixes are almost always shared and
    two-character ones often.
    """

    rng: random.Random
    issued: set[Id] = field(default_factory=set)

    def fresh(self) -> Id:
        """An identifier never issued before by this supply."""
        while True:
            tail = "".join(self.rng.choice("0123456789abcdef") for _ in range(9))
            j = f"{self.rng.choice('ab')}{self.rng.choice('01')}{tail[:6]}-{tail[6:]}"
            if j not in self.issued:
                self.issued.add(j)
                return j


@dataclass(frozen=True)
class WordStep:
    """One step of a word: a call of Â, and whether a save names its identifier itself."""

    call: Call
    explicit_id: bool = False

    def __str__(self) -> str:
        c = self.call
        text = str(c.letter)
        if self.explicit_id:
            text += f" under id {c.allocation.ids[0]}"
        elif c.allocation.ids:
            text += " -> " + ", ".join(c.allocation.ids)
        if c.faults:
            text += f" [edge write {', '.join(map(str, sorted(c.faults)))} fails]"
        return text


def resolved_ids(s: Store, a: A.Merge, theta: Theta) -> list[Id]:
    """The records a merge reads, in argument order (unresolved arguments dropped, as the package does)."""
    out = []
    for i in a.ids:
        j = resolve_prefix(s, i, theta) if a.by_prefix else (i if i in s.records else None)
        if j is not None:
            out.append(j)
    return out


def _type(rng: random.Random) -> str:
    if rng.random() < 0.06:
        return rng.choice(INVALID_TYPES)
    return rng.choice(TYPES[:2]) if rng.random() < 0.7 else rng.choice(TYPES)


def _content(rng: random.Random) -> str:
    x = rng.random()
    return CONTENTS[5] if x < 0.03 else CONTENTS[4] if x < 0.1 else rng.choice(CONTENTS[:4])


def _record(rng: random.Random) -> Record:
    return Record(
        content=_content(rng),
        type=_type(rng),
        namespace=rng.choice(NAMESPACES),
        tags=frozenset(t for t in _TAGS if rng.random() < 0.2),
        summary=rng.choice((None, None, "sum", "")),
        metadata=FrozenMap(rng.choice(_METADATA)),
    )


def _odd(rng: random.Random, p: str) -> str:
    """``p`` with one thing changed that ``LIKE`` reads differently from a plain prefix test."""
    k = rng.randrange(len(p) + 1)
    match rng.randrange(6):
        case 0:
            return p.upper()
        case 1:
            return p[:k] + p[k:k + 1].upper() + p[k + 1:]
        case 2:
            return p[:k] + "_" + p[k + 1:]
        case 3:
            return p[:k] + "%" + p[k:]
        case 4:
            return p + rng.choice(("é", "É", "%", "_"))
    return rng.choice(_PREFIX_ODDITIES)


def _prefix(rng: random.Random, ids: list[Id]) -> str:
    """A prefix of some identifier (mostly short, so that it is shared), or a string matching none;
    in four draws of ten, changed into one that only ``LIKE`` reads that way (:func:`_odd`)."""
    if not ids or rng.random() < 0.1:
        p = rng.choice(("c", "a2", "b1f"))
    else:
        p = rng.choice(ids)[: rng.choice((0, 1, 1, 2, 2, 3, 8, 12))]
    return _odd(rng, p) if rng.random() < 0.4 else p


def odd_id(rng: random.Random, s: Store, supply: IdSupply) -> Id:
    """An identifier a caller may name but the package never draws: a fresh one changed where
    ``LIKE`` reads it differently from a plain prefix test (case, a wildcard, a non-ASCII
    letter), or one that extends, cuts short, or differs only in case from a stored one."""
    present = sorted(s.records)
    while True:
        if present and rng.random() < 0.5:
            j = rng.choice(present)
            j = rng.choice((j[: rng.randrange(1, len(j) + 1)], j + rng.choice(_ODD_CHARS), j.upper()))
        else:
            j = supply.fresh()
            k = rng.randrange(len(j))
            j = j[:k] + rng.choice(_ODD_CHARS) + j[k + 1:]
        if j and j not in s.records and j not in supply.issued:
            supply.issued.add(j)
            return j


def finds_only(s: Store, i: Id) -> bool:
    """Whether the package's ``LIKE 'i%'`` lookup finds ``i`` alone (or nothing, with no record
    at ``i``): the condition under which a lookup of ``i`` is the model's lookup by equality."""
    return all(j == i for j in like_matches(s, i))


def _pools(s: Store, gone: list[Id], supply: IdSupply) -> tuple[list[Id], list[Id]]:
    """Identifiers to name by equality: the records, and ones that hold no record, each found
    alone by the package's lookup."""
    present = [i for i in sorted(s.records) if finds_only(s, i)]
    absent = sorted({j for j in s.occ() - s.dom() if len(j) == 12} | {j for j in gone if j not in s.records})
    absent = [j for j in absent if finds_only(s, j)]
    while not absent:
        j = supply.fresh()
        absent = [j] if finds_only(s, j) else []
    return present, absent


def _named(rng: random.Random, present: list[Id], absent: list[Id]) -> Id:
    if present and rng.random() < 0.85:
        return rng.choice(present)
    return rng.choice(absent)


def covers(word: list[WordStep]) -> frozenset[str]:
    """The parts of the input domain a word reaches: ``mixed-case prefix``, ``wildcard prefix``,
    ``invalid type``, ``odd identifier`` (saved under one with ``LIKE`` artefacts) and ``unicode``
    (a non-ASCII character in any argument)."""
    out: set[str] = set()
    for ws in word:
        a = ws.call.letter
        p = a.prefix if isinstance(a, A.RecallPrefix) else None
        if getattr(a, "by_prefix", False):
            p = "".join(getattr(a, "ids", ())) or getattr(a, "id", "")
        if p is not None and ascii_fold(p) != p:
            out.add("mixed-case prefix")
        if p is not None and ("_" in p or "%" in p):
            out.add("wildcard prefix")
        ty = a.record.type if isinstance(a, (A.Save, A.SaveAt)) else getattr(a, "type", None)
        if ty is not None and not is_memory_type(ty):
            out.add("invalid type")
        if ws.explicit_id and has_like_artefacts(ws.call.allocation.ids[0]):
            out.add("odd identifier")
        if not json.dumps([letter_to_json(a), ws.call.allocation.ids], ensure_ascii=False).isascii():
            out.add("unicode")
    return frozenset(out)


COVERAGE = ("mixed-case prefix", "wildcard prefix", "invalid type", "odd identifier", "unicode")
"""The parts of the input domain :func:`covers` names, in the report's order."""


def _faults(rng: random.Random, s: Store, a: Letter, theta: Theta, allowed: bool) -> frozenset[int]:
    """Edge writes to fail: none, or one or two of the call's writes (never on a merge reading a record twice)."""
    if not allowed or rng.random() < 0.6:
        return frozenset()
    n = edge_writes(a)
    if isinstance(a, A.Merge):
        ids = resolved_ids(s, a, theta)
        if len(set(ids)) < len(ids):  # two writes of one edge: a trigger cannot fail just one of them
            return frozenset()
        n = 2 * len(ids)
    if n == 0:
        return frozenset()
    return frozenset(rng.sample(range(n), k=min(n, rng.choice((1, 1, 2)))))


def random_step(rng: random.Random, s: Store, clock: int, supply: IdSupply, gone: list[Id], *,
                theta: Theta, faults: bool = True) -> WordStep:
    """The next step of a word at store ``s``; its allocation is stamped with ``clock``.

    ``gone`` lists identifiers deleted earlier in the word (they may be named
    again); ``theta`` is the θ the model will run this step with (it decides
    which records a merge by prefix reads, and so which faults make sense).
    """
    present, absent = _pools(s, gone, supply)
    stored = sorted(s.records)  # prefixes are cut from every stored identifier, odd ones included
    kinds = ["save", "save", "save_id", "save_odd", "recall", "recall_prefix", "recall_prefix", "evolve",
             "evolve", "merge", "merge", "merge", "split", "supersede", "delete"]
    if len(stored) < 2:  # build a little store first, so that merges and shared prefixes have material
        kinds = ["save"] * (24 if not stored else 8) + kinds
    kind = rng.choice(kinds)
    letter: Letter
    if kind == "save":
        letter = A.Save(_record(rng))
    elif kind == "save_id":
        target = rng.choice(present) if present and rng.random() < 0.6 else rng.choice(absent)
        if target in s.records:
            letter = A.SaveAt(target, _record(rng))
        else:  # a fresh save landing on an identifier the store still mentions
            return WordStep(Call(A.Save(_record(rng)), Allocation((target,), clock)), explicit_id=True)
    elif kind == "save_odd":
        return WordStep(Call(A.Save(_record(rng)), Allocation((odd_id(rng, s, supply),), clock)),
                        explicit_id=True)
    elif kind == "recall":
        letter = A.Recall(_named(rng, present, absent))
    elif kind == "recall_prefix":
        letter = A.RecallPrefix(_prefix(rng, stored))
    elif kind == "delete":
        letter = (A.Delete(_prefix(rng, stored), by_prefix=True) if rng.random() < 0.2
                  else A.Delete(_named(rng, present, absent)))
    elif kind == "supersede":
        pool = present + absent + ([_prefix(rng, stored)] if rng.random() < 0.2 else [])
        letter = A.Supersede(rng.choice(pool), rng.choice(pool))
    elif kind == "evolve":
        by_prefix = rng.random() < 0.2
        letter = A.Evolve(_prefix(rng, stored) if by_prefix else _named(rng, present, absent), _content(rng),
                        summary=rng.choice((None, None, "new", "")),
                        tags=frozenset(t for t in _TAGS[:2] if rng.random() < 0.3), by_prefix=by_prefix)
    elif kind == "merge":
        by_prefix = rng.random() < 0.15
        n = rng.choice((2, 2, 2, 3))
        if by_prefix:
            ids = tuple(_prefix(rng, stored) for _ in range(n))
        elif len(present) >= n and rng.random() < 0.7:  # distinct records: their types may tie
            ids = tuple(rng.sample(present, n))
        else:
            ids = tuple(_named(rng, present, absent) for _ in range(n))
        letter = A.Merge(ids, content=rng.choice((None, None, None, "merged text")),
                       type=_type(rng) if rng.random() < 0.3 else None,
                       summary=rng.choice((None, None, "joined", "")), by_prefix=by_prefix)
    else:
        by_prefix = rng.random() < 0.15
        parts = tuple(_content(rng) for _ in range(rng.choice((1, 2, 2, 3))))
        letter = A.Split(_prefix(rng, stored) if by_prefix else _named(rng, present, absent), parts,
                       by_prefix=by_prefix)
    xi = Allocation(tuple(supply.fresh() for _ in range(creates(letter))), clock)
    return WordStep(Call(letter, xi, _faults(rng, s, letter, theta, faults)))
