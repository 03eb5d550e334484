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
  are shared and a prefix query often has several rows to choose from;
* every identifier named by equality is 12 characters long, lower-case hex:
  SQLite's ``LIKE`` then matches exactly that identifier, which is the model's
  resolution by equality.  Case folding and the ``_``/``%`` wildcards of ``LIKE``
  are not modelled (the model's ``resolve_prefix``), so no word contains them.

Everything is drawn from a ``random.Random`` seeded with a string, so a word
depends on its seed and index only, never on ``PYTHONHASHSEED``.

>>> rng = random.Random("doc")
>>> supply = IdSupply(rng)
>>> [len(supply.fresh()) for _ in range(3)]
[12, 12, 12]
"""

from __future__ import annotations

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
    creates,
    edge_writes,
    resolve_prefix,
)
from ..model import alphabet as A

__all__ = ["CONTENTS", "NAMESPACES", "TYPES", "IdSupply", "WordStep", "random_step", "resolved_ids"]

TYPES = ("fact", "decision", "procedural", "episodic")
"""Record types drawn (all ``MemoryType`` values of the package)."""

NAMESPACES = ("ns-a", "ns-b")
CONTENTS = ("alpha", "beta", "gamma", "", "x" * 600)
"""Contents drawn; the long one checks merge's ``[:500]`` cut."""
_TAGS = ("t1", "t2", "evolved")
_METADATA: tuple[dict[str, object], ...] = ({}, {}, {"owner": "alice"}, {"k": 1, "owner": "bob"})


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


def _record(rng: random.Random) -> Record:
    return Record(
        content=rng.choice(CONTENTS[:4]) if rng.random() < 0.97 else CONTENTS[4],
        type=rng.choice(TYPES[:2]) if rng.random() < 0.7 else rng.choice(TYPES),
        namespace=rng.choice(NAMESPACES),
        tags=frozenset(t for t in _TAGS if rng.random() < 0.25),
        summary=rng.choice((None, None, "sum", "")),
        metadata=FrozenMap(rng.choice(_METADATA)),
    )


def _prefix(rng: random.Random, ids: list[Id]) -> str:
    """A prefix of some identifier (mostly short, so that it is shared), or a string matching none."""
    if not ids or rng.random() < 0.1:
        return rng.choice(("c", "a2", "b1f"))
    j = rng.choice(ids)
    return j[: rng.choice((0, 1, 1, 2, 2, 3, 8, 12))]


def _pools(s: Store, gone: list[Id], supply: IdSupply) -> tuple[list[Id], list[Id]]:
    """Identifiers to name by equality: the records, and 12-character ones that hold no record."""
    present = sorted(s.records)
    absent = sorted({j for j in s.occ() - s.dom() if len(j) == 12} | {j for j in gone if j not in s.records})
    return present, absent or [supply.fresh()]


def _named(rng: random.Random, present: list[Id], absent: list[Id]) -> Id:
    if present and rng.random() < 0.85:
        return rng.choice(present)
    return rng.choice(absent)


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
    kinds = ["save", "save", "save_id", "recall", "recall_prefix", "recall_prefix", "evolve", "evolve", "merge",
             "merge", "merge", "split", "supersede", "delete"]
    if len(present) < 2:  # build a little store first, so that merges and shared prefixes have material
        kinds = ["save"] * (24 if not present else 8) + kinds
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
    elif kind == "recall":
        letter = A.Recall(_named(rng, present, absent))
    elif kind == "recall_prefix":
        letter = A.RecallPrefix(_prefix(rng, present))
    elif kind == "delete":
        letter = (A.Delete(_prefix(rng, present), by_prefix=True) if rng.random() < 0.2
                  else A.Delete(_named(rng, present, absent)))
    elif kind == "supersede":
        pool = present + absent + ([_prefix(rng, present)] if rng.random() < 0.2 else [])
        letter = A.Supersede(rng.choice(pool), rng.choice(pool))
    elif kind == "evolve":
        by_prefix = rng.random() < 0.2
        letter = A.Evolve(_prefix(rng, present) if by_prefix else _named(rng, present, absent), rng.choice(CONTENTS[:4]),
                        summary=rng.choice((None, None, "new", "")),
                        tags=frozenset(t for t in _TAGS[:2] if rng.random() < 0.3), by_prefix=by_prefix)
    elif kind == "merge":
        by_prefix = rng.random() < 0.15
        n = rng.choice((2, 2, 2, 3))
        if by_prefix:
            ids = tuple(_prefix(rng, present) for _ in range(n))
        elif len(present) >= n and rng.random() < 0.7:  # distinct records: their types may tie
            ids = tuple(rng.sample(present, n))
        else:
            ids = tuple(_named(rng, present, absent) for _ in range(n))
        letter = A.Merge(ids, content=rng.choice((None, None, None, "merged text")),
                       type=rng.choice(TYPES) if rng.random() < 0.3 else None,
                       summary=rng.choice((None, None, "joined", "")), by_prefix=by_prefix)
    else:
        by_prefix = rng.random() < 0.15
        parts = tuple(rng.choice(CONTENTS[:4]) for _ in range(rng.choice((1, 2, 2, 3))))
        letter = A.Split(_prefix(rng, present) if by_prefix else _named(rng, present, absent), parts,
                       by_prefix=by_prefix)
    xi = Allocation(tuple(supply.fresh() for _ in range(creates(letter))), clock)
    return WordStep(Call(letter, xi, _faults(rng, s, letter, theta, faults)))
