"""Identifiers, records and relations (paper §3.1, Definitions 3.1–3.3).

An identifier is a string (Definition 3.1).  A record is an immutable value
with the fields of a ContextFS ``Memory`` minus its ``id`` (Definition 3.2).
The relation vocabulary is ContextFS's ``EdgeRelation`` with its inverse
table exactly as at commit a93035d (Definition 3.3).

Examples
--------
>>> r = Record("the sky is blue", type="fact", namespace="alice")
>>> r.with_content("the sky is grey").content
'the sky is grey'
>>> inverse(Relation.EVOLVED_FROM)
<Relation.EVOLVED_INTO: 'evolved_into'>
>>> inverse(Relation.DEPENDS_ON)      # falls through the table's default
<Relation.DEPENDS_ON: 'depends_on'>
>>> sorted(meta_ancestry(Record("x", metadata={"merged_from": ["a", "b"]}), Relation.MERGED_FROM))
['a', 'b']
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any, TypeAlias

__all__ = [
    "Id",
    "Time",
    "Relation",
    "INVERSE_TABLE",
    "inverse",
    "ANCESTRY",
    "DESCENDANT",
    "LINEAGE",
    "FrozenMap",
    "MAX_DEPTH",
    "freeze",
    "thaw",
    "Record",
    "META_KEYS",
    "meta_ancestry",
    "ALLOCATION_FIELDS",
    "ALLOCATION_META_KEYS",
    "erase_allocation",
    "ID_POSITIONS",
    "id_positions",
]

Id: TypeAlias = str
"""Definition 3.1: identifiers are strings (ContextFS: ``str(uuid4())[:12]``)."""

Time: TypeAlias = int
"""A point of the linear order T.  Clock readings are integers here, so runs are exact."""


class Relation(str, enum.Enum):
    """The 22 edge labels of ContextFS's ``EdgeRelation`` (``storage_protocol.py:40–77``)."""

    EVOLVED_INTO = "evolved_into"
    EVOLVED_FROM = "evolved_from"
    MERGED_INTO = "merged_into"
    MERGED_FROM = "merged_from"
    SPLIT_INTO = "split_into"
    SPLIT_FROM = "split_from"
    REFERENCES = "references"
    REFERENCED_BY = "referenced_by"
    RELATED_TO = "related_to"
    CONTRADICTS = "contradicts"
    SUPERSEDES = "supersedes"
    SUPERSEDED_BY = "superseded_by"
    PARENT_OF = "parent_of"
    CHILD_OF = "child_of"
    PART_OF = "part_of"
    CONTAINS = "contains"
    CAUSED_BY = "caused_by"
    CAUSES = "causes"
    RESOLVES = "resolves"
    RESOLVED_BY = "resolved_by"
    DEPENDS_ON = "depends_on"
    IMPLEMENTS = "implements"

    def __str__(self) -> str:
        return self.value


R = Relation
INVERSE_TABLE: Mapping[Relation, Relation] = {
    # nine inverse pairs, both directions (18 entries) ...
    R.EVOLVED_INTO: R.EVOLVED_FROM, R.EVOLVED_FROM: R.EVOLVED_INTO,
    R.MERGED_INTO: R.MERGED_FROM, R.MERGED_FROM: R.MERGED_INTO,
    R.SPLIT_INTO: R.SPLIT_FROM, R.SPLIT_FROM: R.SPLIT_INTO,
    R.REFERENCES: R.REFERENCED_BY, R.REFERENCED_BY: R.REFERENCES,
    R.SUPERSEDES: R.SUPERSEDED_BY, R.SUPERSEDED_BY: R.SUPERSEDES,
    R.PARENT_OF: R.CHILD_OF, R.CHILD_OF: R.PARENT_OF,
    R.PART_OF: R.CONTAINS, R.CONTAINS: R.PART_OF,
    R.CAUSED_BY: R.CAUSES, R.CAUSES: R.CAUSED_BY,
    R.RESOLVES: R.RESOLVED_BY, R.RESOLVED_BY: R.RESOLVES,
    # ... and two self-inverse ("symmetric") labels: 20 entries in all.
    R.RELATED_TO: R.RELATED_TO, R.CONTRADICTS: R.CONTRADICTS,
}
"""``EdgeRelation.get_inverse``'s table (``storage_protocol.py:79–104``): 20 entries."""


def inverse(r: Relation) -> Relation:
    """The inverse label r̄, as ``inverses.get(relation, relation)`` computes it.

    DEPENDS_ON and IMPLEMENTS are not in the table and fall through to themselves.
    """
    return INVERSE_TABLE.get(r, r)


ANCESTRY: frozenset[Relation] = frozenset({R.EVOLVED_FROM, R.MERGED_FROM, R.SPLIT_FROM})
"""The ancestry vocabulary R⁻ (the ``IN (...)`` list of the lineage query)."""

DESCENDANT: frozenset[Relation] = frozenset(inverse(r) for r in ANCESTRY)
"""The descendant vocabulary R⁺ = { r̄ : r ∈ R⁻ }."""

LINEAGE: frozenset[Relation] = ANCESTRY | DESCENDANT
"""R⁻ ∪ R⁺, the labels the lineage form of L7 speaks about."""


# --------------------------------------------------------------------------- frozen values


MAX_DEPTH = 100
"""Maps, lists and sets nest at most this many levels in a frozen value (a record's metadata)."""


class FrozenMap(Mapping[str, Any]):
    """An immutable, hashable mapping with string keys; iteration is in sorted key order.

    Values are frozen recursively by :func:`freeze` (lists become tuples, dicts
    become ``FrozenMap``), so a record that holds one is a value.  A map
    nests at most :data:`MAX_DEPTH` levels (itself included): deeper data
    raises ``ValueError`` before any recursion could overflow the stack.
    """

    __slots__ = ("_items", "_hash", "_depth", "_key")

    def __init__(self, items: Mapping[str, Any] | Iterable[tuple[str, Any]] = ()) -> None:
        pairs = items.items() if isinstance(items, Mapping) else items
        self._build(pairs, MAX_DEPTH)

    def _build(self, pairs: Iterable[tuple[Any, Any]], room: int) -> None:
        d: dict[str, Any] = {}
        depth = 0
        for k, v in pairs:
            d[str(k)], dv = _freeze(v, room - 1)
            depth = max(depth, dv)
        self._items: tuple[tuple[str, Any], ...] = tuple(sorted(d.items()))
        self._hash: int | None = None
        self._key: tuple[tuple[str, Any], ...] | None = None
        self._depth = depth + 1

    def __getitem__(self, key: str) -> Any:
        for k, v in self._items:
            if k == key:
                return v
        raise KeyError(key)

    def get(self, key: str, default: Any = None) -> Any:
        """The value at ``key``, or ``default`` when the map has none."""
        for k, v in self._items:
            if k == key:
                return v
        return default

    def __iter__(self) -> Iterator[str]:
        return (k for k, _ in self._items)

    def __len__(self) -> int:
        return len(self._items)

    def _typed(self) -> tuple[tuple[str, Any], ...]:
        """The items with every value tagged by its type: what equality and the hash compare."""
        if self._key is None:
            self._key = tuple((k, _typed(v)) for k, v in self._items)
        return self._key

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(self._typed())
        return self._hash

    def __eq__(self, other: object) -> bool:
        # Type-aware: True, 1 and 1.0 are different metadata values (they serialise differently).
        if isinstance(other, FrozenMap):
            return self._typed() == other._typed()
        if isinstance(other, Mapping):
            return dict(self._items) == {k: freeze(v) for k, v in other.items()}
        return NotImplemented

    def __repr__(self) -> str:
        return "{" + ", ".join(f"{k!r}: {v!r}" for k, v in self._items) + "}"

    def merged(self, other: Mapping[str, Any]) -> FrozenMap:
        """``self ⊕ other``: keys of ``other`` override (``{**self, **other}``)."""
        d = dict(self._items)
        d.update(other)
        return FrozenMap(d)


def _typed(v: Any) -> Any:
    if isinstance(v, FrozenMap):
        return ("map", v._typed())
    if isinstance(v, tuple):
        return ("list", tuple(_typed(x) for x in v))
    if isinstance(v, frozenset):
        return ("set", frozenset(_typed(x) for x in v))
    return (type(v).__name__, v)


def freeze(v: Any) -> Any:
    """Turn JSON-like data into hashable values: list → tuple, dict → FrozenMap, set → frozenset.

    Data nested more than :data:`MAX_DEPTH` levels raises ``ValueError``.

    >>> freeze({"a": [1, {"b": {2}}]})
    {'a': (1, {'b': frozenset({2})})}
    >>> freeze([[[0]]] * 1)[0][0]
    (0,)
    """
    return _freeze(v, MAX_DEPTH)[0]


def _too_deep() -> ValueError:
    return ValueError(f"value nested more than {MAX_DEPTH} levels deep (maps, lists and sets); "
                      "records hold at most that")


def _freeze(v: Any, room: int) -> tuple[Any, int]:
    """The frozen value and its nesting depth; ``room`` is how many more levels may open."""
    if v is None or isinstance(v, (str, int, float, bool)):
        return v, 0
    if isinstance(v, FrozenMap):
        if v._depth > room:
            raise _too_deep()
        return v, v._depth
    if room <= 0:
        raise _too_deep()
    if isinstance(v, Mapping):
        m = FrozenMap.__new__(FrozenMap)
        m._build(v.items(), room)
        return m, m._depth
    if isinstance(v, (list, tuple, set, frozenset)):
        out, depth = [], 0
        for x in v:
            fx, dx = _freeze(x, room - 1)
            out.append(fx)
            depth = max(depth, dx)
        return (tuple(out) if isinstance(v, (list, tuple)) else frozenset(out)), depth + 1
    raise TypeError(f"cannot store a value of type {type(v).__name__} in a record")


def thaw(v: Any) -> Any:
    """Inverse of :func:`freeze` for JSON output: FrozenMap → dict, tuple → list, set → sorted list."""
    if isinstance(v, FrozenMap):
        return {k: thaw(x) for k, x in v.items()}
    if isinstance(v, tuple):
        return [thaw(x) for x in v]
    if isinstance(v, frozenset):
        return sorted((thaw(x) for x in v), key=repr)
    return v


# --------------------------------------------------------------------------- records


@dataclass(frozen=True, slots=True, repr=False)
class Record:
    """A record (Definition 3.2): a ContextFS ``Memory`` without its ``id``.

    ``ns`` and ``ty`` (our notation for the model) are :attr:`namespace` and :attr:`type`.
    ``created_at`` and ``updated_at`` are clock readings (transaction time);
    ``valid_time`` is the field the repaired realisation adds (Proposition 7.1)
    and ContextFS does not have, so the ContextFS model always leaves it ``None``.
    """

    content: str
    type: str = "fact"
    namespace: str = "global"
    tags: frozenset[str] = field(default_factory=frozenset)
    summary: str | None = None
    metadata: FrozenMap = field(default_factory=FrozenMap)
    created_at: Time | None = None
    updated_at: Time | None = None
    valid_time: Time | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.content, str):
            raise TypeError("record content must be a string")
        if not isinstance(self.tags, frozenset):
            object.__setattr__(self, "tags", frozenset(self.tags))
        if not isinstance(self.metadata, FrozenMap):
            object.__setattr__(self, "metadata", FrozenMap(self.metadata))

    def __repr__(self) -> str:
        """The dataclass form, with the tags in sorted order.

        A frozenset prints in hash order, which changes with ``PYTHONHASHSEED``; sorted, a
        record prints the same in every run.
        """
        shown = []
        for f in fields(self):
            value = getattr(self, f.name)
            text = repr(value)
            if f.name == "tags":
                text = "frozenset({" + ", ".join(map(repr, sorted(value))) + "})" if value else "frozenset()"
            shown.append(f"{f.name}={text}")
        return f"Record({', '.join(shown)})"

    def with_content(self, content: str) -> Record:
        """A copy with other content (records are values: nothing is assigned in place)."""
        return replace(self, content=content)

    def stamped(self, tau: Time) -> Record:
        """``r_τ``: the record with ``created_at = updated_at = τ``."""
        return replace(self, created_at=tau, updated_at=tau)

    def evolve(self, **changes: Any) -> Record:
        """``dataclasses.replace`` under a name that reads well in chains."""
        return replace(self, **changes)


META_KEYS: Mapping[Relation, str] = {
    R.EVOLVED_FROM: "evolved_from",
    R.MERGED_FROM: "merged_from",
    R.SPLIT_FROM: "split_from",
}
"""The metadata keys in which ContextFS writes ancestry a second time (Remark 5.15)."""


def meta_ancestry(record: Record, r: Relation) -> frozenset[Id]:
    """The metadata ancestry reader meta_r (Definition 3.2).

    ``evolved_from`` and ``split_from`` hold one identifier, ``merged_from`` a
    list; an absent key reads as the empty set.
    """
    if r not in META_KEYS:
        raise ValueError(f"{r} is not an ancestry label; meta_r is defined for R⁻ only")
    value = record.metadata.get(META_KEYS[r])
    if value is None:
        return frozenset()
    if isinstance(value, tuple):
        return frozenset(str(x) for x in value)
    return frozenset({str(value)})


ALLOCATION_FIELDS = ("created_at", "updated_at")
ALLOCATION_META_KEYS = ("evolution_timestamp", "merge_timestamp", "split_timestamp")


def erase_allocation(record: Record) -> Record:
    """ρ: erase the allocation-dependent fields (clock readings) of a record.

    Used by allocation-blind bisimilarity (Definition 5.23).

    >>> r = Record("x", created_at=3, updated_at=3, metadata={"merge_timestamp": 3, "k": 1})
    >>> erase_allocation(r) == Record("x", metadata={"k": 1})
    True
    """
    meta = FrozenMap((k, v) for k, v in record.metadata.items() if k not in ALLOCATION_META_KEYS)
    return replace(record, created_at=None, updated_at=None, metadata=meta)


ID_POSITIONS = ("evolved_from", "merged_from", "split_from")


def id_positions(record: Record) -> tuple[tuple[str, Id], ...]:
    """The identifier-valued metadata positions of a record, in a fixed order.

    A position is named ``evolved_from``, ``split_from`` or ``merged_from[k]``.
    """
    out: list[tuple[str, Id]] = []
    for key in ID_POSITIONS:
        value = record.metadata.get(key)
        if value is None:
            continue
        if isinstance(value, tuple):
            out.extend((f"{key}[{k}]", str(x)) for k, x in enumerate(value))
        else:
            out.append((key, str(value)))
    return tuple(out)
