"""The operation alphabet and the allocation oracle (paper §3.2, Definitions 3.7–3.8, Remark 3.9).

Letters are immutable values.  A call of the extended alphabet Â = A × Alloc is
a letter together with an :class:`Allocation` — the identifiers the call will
create and the clock reading it will stamp.  Moving that choice into the input
is what makes the store coalgebra a function (Remark 3.9).

ContextFS also makes choices that no interface declares; those are the
explicit parameter θ (:mod:`coalg.model.theta`).  A letter prints itself in
one line, for tables and explanations (``str(letter)``).

Examples
--------
>>> w = [Save(Record("a")), Evolve("id0001", "a, revised")]
>>> [letter.kind for letter in w], named(w[1]), creates(w[1])
(['save', 'evolve'], ('id0001',), 1)
>>> print(Merge(("a", "b")), Evolve("id0", "x", by_prefix=True), sep="; ")
merge(a, b); evolve(id0…, 'x') by prefix
>>> oracle = Oracle()
>>> oracle.allocate(EMPTY, Split("x", ("p", "q")))
Allocation(ids=('id0001', 'id0002'), clock=1)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Literal, TypeAlias

from .records import Id, Record, Relation, Time
from .store import EMPTY, Store  # noqa: F401 (EMPTY: the doctests use it)

__all__ = [
    "Save",
    "SaveAt",
    "Recall",
    "RecallPrefix",
    "Delete",
    "Evolve",
    "Merge",
    "Split",
    "Supersede",
    "Link",
    "Letter",
    "OBSERVATIONS",
    "DERIVATIONS",
    "MUTATIONS",
    "named",
    "creates",
    "edge_writes",
    "is_fragment",
    "Allocation",
    "Oracle",
    "Call",
    "uuid_like_ids",
]


def _prefix_marks(by_prefix: bool) -> tuple[str, str]:
    """How a letter prints an argument resolved by prefix: ``…`` after it, `` by prefix`` at the end."""
    return ("…", " by prefix") if by_prefix else ("", "")


@dataclass(frozen=True, slots=True)
class Save:
    """save(r): store a record under a freshly allocated identifier (a *fresh save*)."""

    record: Record
    kind: Literal["save"] = field(default="save", init=False)

    def __str__(self) -> str:
        return f"save({self.record.content!r} in {self.record.namespace})"


@dataclass(frozen=True, slots=True)
class SaveAt:
    """save@(i, r): save under an existing identifier — a replacement (``INSERT OR REPLACE``)."""

    id: Id
    record: Record
    kind: Literal["save_at"] = field(default="save_at", init=False)

    def __str__(self) -> str:
        return f"save_at({self.id}, {self.record.content!r})"


@dataclass(frozen=True, slots=True)
class Recall:
    """recall(i): resolve by equality and return the record, or ⊥."""

    id: Id
    kind: Literal["recall"] = field(default="recall", init=False)

    def __str__(self) -> str:
        return f"recall({self.id})"


@dataclass(frozen=True, slots=True)
class RecallPrefix:
    """recall_pfx(p): the code-faithful recall — the θ-first identifier that extends ``p``."""

    prefix: str
    kind: Literal["recall_prefix"] = field(default="recall_prefix", init=False)

    def __str__(self) -> str:
        return f"recall_prefix({self.prefix}…)"


@dataclass(frozen=True, slots=True)
class Delete:
    """delete(i): remove the record and every incident edge (``StorageRouter.delete``).

    With ``by_prefix`` the argument is resolved as ContextFS's ``_resolve_full_id`` does.
    """

    id: Id
    by_prefix: bool = False
    kind: Literal["delete"] = field(default="delete", init=False)

    def __str__(self) -> str:
        dots, tail = _prefix_marks(self.by_prefix)
        return f"delete({self.id}{dots}){tail}"


@dataclass(frozen=True, slots=True)
class Evolve:
    """evolve(i, c): derive a new version of record ``i`` with content ``c``.

    ``by_prefix=True`` reproduces the code path that resolves ``i`` as a prefix
    but writes the argument string itself into the edges and metadata.
    """

    id: Id
    content: str
    summary: str | None = None
    tags: frozenset[str] = frozenset()
    by_prefix: bool = False
    valid_time: Time | None = None
    kind: Literal["evolve"] = field(default="evolve", init=False)

    def __str__(self) -> str:
        dots, tail = _prefix_marks(self.by_prefix)
        return f"evolve({self.id}{dots}, {self.content!r}){tail}"

    def __post_init__(self) -> None:
        object.__setattr__(self, "tags", frozenset(self.tags))


@dataclass(frozen=True, slots=True)
class Merge:
    """merge⟨i₁..iₙ⟩: combine records into a new one (UNION strategy unless told otherwise)."""

    ids: tuple[Id, ...]
    content: str | None = None
    type: str | None = None
    summary: str | None = None
    namespace: str | None = None
    by_prefix: bool = False
    valid_time: Time | None = None
    kind: Literal["merge"] = field(default="merge", init=False)

    def __str__(self) -> str:
        dots, tail = _prefix_marks(self.by_prefix)
        return f"merge({', '.join(i + dots for i in self.ids)}){tail}"

    def __post_init__(self) -> None:
        object.__setattr__(self, "ids", tuple(self.ids))


@dataclass(frozen=True, slots=True)
class Split:
    """split(i, ⟨c₁..cₙ⟩): derive n ≥ 2 parts from record ``i``."""

    id: Id
    contents: tuple[str, ...]
    by_prefix: bool = False
    valid_time: Time | None = None
    kind: Literal["split"] = field(default="split", init=False)

    def __str__(self) -> str:
        dots, tail = _prefix_marks(self.by_prefix)
        return f"split({self.id}{dots}, {', '.join(map(repr, self.contents))}){tail}"

    def __post_init__(self) -> None:
        object.__setattr__(self, "contents", tuple(self.contents))


@dataclass(frozen=True, slots=True)
class Supersede:
    """supersede(o, n): record that ``n`` supersedes ``o`` (edges only; ContextFS checks nothing)."""

    old: Id
    new: Id
    kind: Literal["supersede"] = field(default="supersede", init=False)

    def __str__(self) -> str:
        return f"supersede({self.old}, {self.new})"


@dataclass(frozen=True, slots=True)
class Link:
    """link(i, r, j): the facade's edge write (outside the lineage fragment)."""

    source: Id
    relation: Relation
    target: Id
    bidirectional: bool = False
    kind: Literal["link"] = field(default="link", init=False)

    def __str__(self) -> str:
        return f"link({self.source}, {self.relation.name}, {self.target})"


Letter: TypeAlias = (
    Save | SaveAt | Recall | RecallPrefix | Delete | Evolve | Merge | Split | Supersede | Link
)
"""A letter of the alphabet A: one of the ten operations."""

OBSERVATIONS = ("recall", "recall_prefix")
DERIVATIONS = ("evolve", "merge", "split", "supersede")
MUTATIONS = ("save_at", "delete", "link")


def named(a: Letter) -> tuple[Id, ...]:
    """nm(a): the identifiers a call names, in argument order (Definition 3.7)."""
    match a:
        case Merge(ids=ids):
            return ids
        case Supersede(old=o, new=n):
            return (o, n)
        case Link(source=i, target=j):
            return (i, j)
        case Save() | RecallPrefix():
            return ()
        case SaveAt(id=i) | Recall(id=i) | Delete(id=i) | Evolve(id=i) | Split(id=i):
            return (i,)
    raise TypeError(f"not a letter: {a!r}")


def creates(a: Letter) -> int:
    """k(a): how many records the call creates (1 for save, evolve, merge; n for split; else 0)."""
    match a:
        case Save() | Evolve() | Merge():
            return 1
        case Split(contents=cs):
            return len(cs)
    return 0


def edge_writes(a: Letter) -> int:
    """How many edge writes the call issues, in ContextFS's order (the range of fault indices).

    >>> edge_writes(Evolve("x", "c")), edge_writes(Merge(("a", "b", "c"))), edge_writes(Save(Record("x")))
    (2, 6, 0)
    """
    match a:
        case Evolve() | Supersede() | Link():
            return 2
        case Merge(ids=ids):
            return 2 * len(ids)
        case Split(contents=cs):
            return 2 * len(cs)
    return 0


def is_fragment(a: Letter) -> bool:
    """Whether ``a`` is in the lineage fragment: fresh saves, derivations and recall by equality,
    naming identifiers by equality."""
    if getattr(a, "by_prefix", False):
        return False
    return a.kind in ("save", "recall") or a.kind in DERIVATIONS


# --------------------------------------------------------------------------- allocation


@dataclass(frozen=True, slots=True)
class Allocation:
    """ξ = (j⃗, τ) ∈ Alloc = Id* × T: identifiers to create and the clock reading to stamp."""

    ids: tuple[Id, ...] = ()
    clock: Time = 0

    def admissible(self, s: Store, a: Letter) -> str | None:
        """``None`` when (a, ξ) is admissible at ``s`` (Definition 3.8), else the reason."""
        if len(self.ids) != creates(a):
            return f"the call creates {creates(a)} record(s) but the allocation supplies {len(self.ids)}"
        if len(set(self.ids)) != len(self.ids):
            return "the allocated identifiers are not pairwise distinct"
        taken = sorted(j for j in self.ids if j in s.records)
        if taken:
            return f"allocated identifier(s) already hold a record: {', '.join(taken)}"
        return None

    def strictly_fresh(self, s: Store) -> bool:
        """No allocated identifier is mentioned by ``s`` at all (occ(s), Definition 3.8)."""
        return not any(s.occurs(j) for j in self.ids)


@dataclass(slots=True)
class Oracle:
    """A deterministic allocation oracle: ``id0001, id0002, …`` and clock ticks 1, 2, 3, ….

    Each allocation skips every identifier the store mentions (so allocations are
    strictly fresh) and every identifier it has handed out before; replaying an
    oracle built with the same arguments gives identical stores.  ``ids`` may be
    given to fix the supply (e.g. ContextFS-like 12-character identifiers).
    """

    prefix: str = "id"
    width: int = 4
    clock: Time = 0
    ids: Sequence[Id] | None = None
    _next: int = 0
    _issued: set[Id] = field(default_factory=set)

    def _candidate(self) -> Id:
        if self.ids is not None:
            if self._next >= len(self.ids):
                raise RuntimeError("the oracle's identifier supply is exhausted")
            return self.ids[self._next]
        return f"{self.prefix}{self._next + 1:0{self.width}d}"

    def fresh_id(self, s: Store) -> Id:
        """The next supplied identifier that ``s`` does not mention."""
        while True:
            j = self._candidate()
            self._next += 1
            if j not in self._issued and not s.occurs(j):
                self._issued.add(j)
                return j

    def allocate(self, s: Store, a: Letter) -> Allocation:
        """An admissible, strictly fresh allocation for ``a`` at ``s``."""
        self.clock += 1
        return Allocation(tuple(self.fresh_id(s) for _ in range(creates(a))), self.clock)


def uuid_like_ids(n: int, seed: int = 0) -> list[Id]:
    """``n`` distinct ContextFS-shaped identifiers (8 hex, hyphen, 3 hex), reproducible from ``seed``.

    >>> uuid_like_ids(2, seed=1)
    ['91b2265b-1f5', 'cd6d8f16-adf']
    """
    rng = random.Random(seed)
    out: list[Id] = []
    seen: set[Id] = set()
    while len(out) < n:
        h = f"{rng.getrandbits(44):011x}"
        j = f"{h[:8]}-{h[8:]}"
        if j not in seen:
            seen.add(j)
            out.append(j)
    return out


@dataclass(frozen=True, slots=True)
class Call:
    """One replayable step of a run: a letter, its allocation, and the faults injected.

    ``faults`` lists the indices (0, 1, 2, … in the order the code issues them) of
    edge writes that raise inside ContextFS's log-and-continue handlers.
    """

    letter: Letter
    allocation: Allocation = Allocation()
    faults: frozenset[int] = frozenset()

    def with_faults(self, *indices: int) -> Call:
        return replace(self, faults=frozenset(indices))
