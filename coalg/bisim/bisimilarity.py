"""Bisimilarity of lineage behaviours (paper §2.2) and allocation-blind bisimilarity (Definition 5.23).

Two identifiers have the same lineage behaviour, ⟦i⟧_s = ⟦j⟧_t in the final
H-coalgebra, exactly when they are bisimilar: H preserves weak pullbacks, so
bisimilarity and behavioural equivalence coincide (paper §2.2, fact (ii)).
Bisimilarity is decided here by the coarsest stable partition of the finite
sub-coalgebra ids(s) (our implementation choice), computed by
:func:`coalg.bisim.partition.coarsest_partition` — a worklist refinement of the
O(m log n) class, never round-based.

* :func:`bisimilar` — H-bisimilarity (all labels) or, with ``labels=ANCESTRY``,
  H⁻-bisimilarity: equality of ancestry unfoldings ⟦i⟧⁻.
* :func:`distinguish` — when two identifiers are not bisimilar, a shortest
  distinguishing path of labels and the observation that differs.
* :func:`allocation_blind_bisimilar` — s ≈ t (Definition 5.23): records are
  compared after erasing allocation-dependent fields (ρ), and identifiers inside
  payload (``evolved_from``, ``merged_from[k]``, ``split_from``) are compared up to
  the same relation B.  We decide it by refinement of an encoding in which each
  identifier-valued payload position becomes a transition; identifiers that
  neither store mentions are compared by equality (B̂, our choice in Def. 5.23).

Examples
--------
>>> from coalg.model.alphabet import Save, Merge
>>> from coalg.model.coalgebra import run
>>> from coalg.model.store import EMPTY
>>> s = run(EMPTY, [Save(Record("a")), Save(Record("b"))]).final
>>> once = run(s, [Merge(("id0001", "id0002"))]).final
>>> twice = run(once, [Merge(("id0001", "id0002"))]).final
>>> once == twice, allocation_blind_bisimilar(once, twice)      # Prop. 5.24
(False, True)
>>> ab = run(s, [Merge(("id0001", "id0002"))]).final
>>> ba = run(s, [Merge(("id0002", "id0001"))]).final
>>> allocation_blind_bisimilar(ab, ba)                           # Prop. 5.25
False
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from ..model import (
    ANCESTRY,
    ID_POSITIONS,
    FrozenMap,
    Id,
    Record,
    Relation,
    Store,
    erase_allocation,
    id_positions,
    record_to_json,
)
from .lts import LTS
from .partition import coarsest_partition
from .witness import distinguishing_witness

__all__ = [
    "behaviour_classes",
    "refinement_rounds",
    "bisimilar",
    "ancestry_bisimilar",
    "distinguish",
    "StoreWitness",
    "allocation_blind_relation",
    "allocation_blind_bisimilar",
    "allocation_blind_witness",
    "blind_view",
]

_RELATIONS: tuple[Relation, ...] = tuple(Relation)


@dataclass(frozen=True)
class _Encoded:
    """Stores encoded as one LTS: states, their observation classes, transitions."""

    states: tuple[tuple[int, Id], ...]  # (which store, identifier); external ids have store -1
    index: Mapping[tuple[int, Id], int]
    initial: tuple[int, ...]
    transitions: tuple[tuple[int, int, int], ...]
    label_names: tuple[str, ...]
    observations: tuple[Hashable, ...]


def _encode(
    stores: Sequence[Store],
    labels: frozenset[Relation] | None,
    observe: Callable[[Record | None], Hashable],
    payload_positions: bool = False,
    extra: Iterable[tuple[int, Id]] = (),
) -> _Encoded:
    states: list[tuple[int, Id]] = []
    index: dict[tuple[int, Id], int] = {}

    def add(key: tuple[int, Id]) -> int:
        k = index.get(key)
        if k is None:
            k = index[key] = len(states)
            states.append(key)
        return k

    for n, s in enumerate(stores):
        for i in sorted(s.ids()):
            add((n, i))
    for key in extra:
        add(key)
    label_names = [r.value for r in _RELATIONS]
    label_ids = {r: k for k, r in enumerate(_RELATIONS)}
    pos_ids: dict[str, int] = {}
    transitions: list[tuple[int, int, int]] = []
    for n, s in enumerate(stores):
        for e in s.edges:
            if labels is None or e.relation in labels:
                transitions.append((index[(n, e.source)], label_ids[e.relation], index[(n, e.target)]))
        if payload_positions:
            mentioned = s.ids()
            for i, r in s.records.items():
                for pos, y in id_positions(r):
                    if pos not in pos_ids:
                        pos_ids[pos] = len(label_names)
                        label_names.append(f"payload:{pos}")
                    target = (n, y) if y in mentioned else (-1, y)
                    transitions.append((index[(n, i)], pos_ids[pos], add(target)))
    observations: list[Hashable] = []
    for n, i in states:
        if n == -1:
            observations.append(("external identifier", i))
        else:
            observations.append(observe(stores[n].records.get(i)))
    classes: dict[Hashable, int] = {}
    initial = [classes.setdefault(o, len(classes)) for o in observations]
    return _Encoded(
        tuple(states), MappingProxyType(index), tuple(initial), tuple(transitions), tuple(label_names),
        tuple(observations),
    )


def _plain(r: Record | None) -> Hashable:
    return ("⊥",) if r is None else ("record", r)


def _partition(enc: _Encoded) -> list[int]:
    return coarsest_partition(len(enc.states), enc.initial, enc.transitions)


def behaviour_classes(s: Store, labels: Iterable[Relation] | None = None) -> dict[Id, int]:
    """The behavioural-equivalence classes of ids(s), numbered canonically (by smallest identifier).

    >>> from coalg.model.store import Store
    >>> s = Store.of({"a": Record("x"), "b": Record("x"), "c": Record("y")})
    >>> behaviour_classes(s)
    {'a': 0, 'b': 0, 'c': 1}
    """
    enc = _encode([s], None if labels is None else frozenset(labels), _plain)
    part = _partition(enc)
    return {i: part[k] for k, (_, i) in enumerate(enc.states)}


def refinement_rounds(s: Store, *, labels: Iterable[Relation] | None = None) -> list[dict[Id, int]]:
    """The naive round-by-round refinement of ids(s): one partition per round (didactic; small stores).

    Round 0 groups the identifiers by what they hold (their record, or ⊥).  Round
    ``r + 1`` splits every block of round ``r`` by the set of pairs
    ``(label, block of the target)`` of each identifier's edges (only ``labels``,
    all by default).  The rounds stop at the first partition that the next round
    would not change, which is the last element: ``r``-step bisimilarity for every
    ``r`` before it, and behavioural equivalence itself at the end — the same
    partition as :func:`behaviour_classes` (computed there by the O(m log n)
    worklist engine, never round by round).  Blocks are numbered canonically, in
    order of their smallest identifier, so the rounds compare as plain dicts.
    ``Θ(n · m)`` on chains: for the book's small examples only.

    >>> from coalg.model.store import Store
    >>> s = Store.of({"a": Record("x"), "b": Record("x"), "p": Record("p"), "q": Record("q")},
    ...              [("a", Relation.EVOLVED_FROM, "p"), ("b", Relation.EVOLVED_FROM, "q")])
    >>> for partition in refinement_rounds(s):
    ...     print(partition)
    {'a': 0, 'b': 0, 'p': 1, 'q': 2}
    {'a': 0, 'b': 1, 'p': 2, 'q': 3}
    >>> refinement_rounds(s)[-1] == behaviour_classes(s)
    True
    """
    enc = _encode([s], None if labels is None else frozenset(labels), _plain)
    n = len(enc.states)
    succ: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    for src, a, dst in enc.transitions:
        succ[src].append((a, dst))

    def canonical(keys: Sequence[Hashable]) -> list[int]:
        # states are in sorted-identifier order, so first occurrence = smallest identifier
        number: dict[Hashable, int] = {}
        return [number.setdefault(k, len(number)) for k in keys]

    blk = canonical(enc.initial)
    rounds = [blk]
    while True:
        new = canonical([(blk[x], frozenset((a, blk[y]) for a, y in succ[x])) for x in range(n)])
        if max(new, default=-1) == max(blk, default=-1):  # nothing split: blk is stable
            break
        rounds.append(new)
        blk = new
    return [{i: part[k] for k, (_, i) in enumerate(enc.states)} for part in rounds]


def _pair_encoding(
    s: Store, i: Id, t: Store | None, j: Id | None, labels: frozenset[Relation] | None
) -> tuple[_Encoded, int, int]:
    stores = [s] if t is None else [s, t]
    right = 0 if t is None else 1
    enc = _encode(stores, labels, _plain, extra=[(0, i), (right, j if j is not None else i)])
    return enc, enc.index[(0, i)], enc.index[(right, j if j is not None else i)]


def bisimilar(
    s: Store, i: Id, t: Store | None = None, j: Id | None = None, *, labels: Iterable[Relation] | None = None
) -> bool:
    """⟦i⟧_s = ⟦j⟧_t: are ``i`` in ``s`` and ``j`` in ``t`` bisimilar?

    ``t`` defaults to ``s`` and ``j`` to ``i``; ``labels=ANCESTRY`` compares ancestry
    unfoldings ⟦·⟧⁻ (the H⁻-coalgebra) instead of full lineage behaviours.
    An identifier the store does not mention behaves as (⊥, ∅).
    """
    enc, a, b = _pair_encoding(s, i, t, j, None if labels is None else frozenset(labels))
    part = _partition(enc)
    return part[a] == part[b]


def ancestry_bisimilar(s: Store, i: Id, t: Store | None = None, j: Id | None = None) -> bool:
    """⟦i⟧⁻_s = ⟦j⟧⁻_t: equal ancestry unfoldings (H⁻-bisimilarity)."""
    return bisimilar(s, i, t, j, labels=ANCESTRY)


@dataclass(frozen=True)
class StoreWitness:
    """Why two identifiers are not bisimilar: follow ``path`` from both; the observations differ.

    ``left_id``/``right_id`` are the identifiers reached; ``formula`` is a
    Hennessy–Milner formula true of the left identifier and false of the right.
    """

    path: tuple[str, ...]
    left_id: Id
    right_id: Id | None
    left: Any
    right: Any
    reason: str
    formula: str

    def to_json(self) -> dict[str, Any]:
        def show(x: Any) -> Any:
            return record_to_json(x) if isinstance(x, Record) else x

        return {
            "path": list(self.path),
            "left_id": self.left_id,
            "right_id": self.right_id,
            "left": show(self.left),
            "right": show(self.right),
            "reason": self.reason,
            "formula": self.formula,
        }


def distinguish(
    s: Store, i: Id, t: Store | None = None, j: Id | None = None, *, labels: Iterable[Relation] | None = None
) -> StoreWitness | None:
    """A shortest distinguishing witness for ``i`` (in ``s``) and ``j`` (in ``t``), or ``None`` if bisimilar.

    >>> from coalg.model.store import Store
    >>> s = Store.of({"a": Record("x"), "b": Record("x"), "p": Record("p"), "q": Record("q")},
    ...              [("a", Relation.EVOLVED_FROM, "p"), ("b", Relation.EVOLVED_FROM, "q")])
    >>> w = distinguish(s, "a", s, "b")
    >>> w.path, w.left_id, w.right_id
    (('evolved_from',), 'p', 'q')
    """
    enc, a, b = _pair_encoding(s, i, t, j, None if labels is None else frozenset(labels))
    part = _partition(enc)
    if part[a] == part[b]:
        return None
    lts = LTS.build(len(enc.states), enc.initial, enc.transitions)
    w = distinguishing_witness(lts, part, a, b)
    assert w is not None
    left_id = enc.states[w.left][1]
    right_id = None if w.right is None else enc.states[w.right][1]

    def obs(k: int | None) -> Any:
        if k is None:
            return None
        n, x = enc.states[k]
        return ("external", x) if n == -1 else ([s] if t is None else [s, t])[n].records.get(x)

    names = tuple(enc.label_names[x] for x in w.path)
    return StoreWitness(
        names, left_id, right_id, obs(w.left), obs(w.right), _translate(w.reason, enc), _translate(w.formula, enc)
    )


def _describe(o: Hashable) -> str:
    if isinstance(o, tuple) and len(o) == 2 and isinstance(o[1], Record):
        r = o[1]
        text = r.content if len(r.content) <= 30 else r.content[:29] + "…"
        return f"record {text!r} ({r.type}, {r.namespace})"
    if isinstance(o, tuple) and o and o[0] == "external identifier":
        return f"identifier {o[1]} outside both stores"
    return "⊥ (no record)"


def _translate(text: str, enc: _Encoded) -> str:
    """Replace the engine's integer labels and observation classes by names."""
    cls_desc: dict[int, str] = {}
    for k, c in enumerate(enc.initial):
        cls_desc.setdefault(c, _describe(enc.observations[k]))
    text = re.sub(r"observation differs: (\d+) vs (\d+)",
                  lambda m: f"observation differs: {cls_desc[int(m[1])]} vs {cls_desc[int(m[2])]}", text)
    text = re.sub(r"obs\((\d+)\)", lambda m: f"obs({cls_desc[int(m[1])]})", text)
    text = re.sub(r"<(\d+)>", lambda m: f"<{enc.label_names[int(m[1])]}>", text)
    text = re.sub(r"\[(\d+)\]", lambda m: f"[{enc.label_names[int(m[1])]}]", text)
    text = re.sub(r"label (\d+)", lambda m: f"label {enc.label_names[int(m[1])]}", text)
    return text


# --------------------------------------------------------------------------- allocation-blind


def blind_view(r: Record | None) -> Hashable:
    """ρ(r) with identifier-valued payload positions blanked (their identifiers become transitions).

    >>> a = Record("m", metadata={"merged_from": ["x", "y"], "merge_timestamp": 5}, created_at=5)
    >>> b = Record("m", metadata={"merged_from": ["p", "q"], "merge_timestamp": 9}, created_at=9)
    >>> blind_view(a) == blind_view(b)
    True
    """
    if r is None:
        return ("⊥",)
    e = erase_allocation(r)
    meta = dict(e.metadata)
    for key in ID_POSITIONS:
        if key in meta:
            v = meta[key]
            meta[key] = ("<id>",) * len(v) if isinstance(v, tuple) else "<id>"
    return ("record", e.evolve(metadata=FrozenMap(meta)))


def _blind(s: Store, t: Store) -> tuple[_Encoded, list[int]]:
    enc = _encode([s, t], None, blind_view, payload_positions=True)
    return enc, _partition(enc)


def allocation_blind_relation(s: Store, t: Store) -> frozenset[tuple[Id, Id]]:
    """B*: the greatest allocation-blind bisimulation ⊆ ids(s) × ids(t) (Definition 5.23)."""
    enc, part = _blind(s, t)
    by_class: dict[int, list[Id]] = {}
    for k, (n, x) in enumerate(enc.states):
        if n == 1:
            by_class.setdefault(part[k], []).append(x)
    return frozenset(
        (x, y) for k, (n, x) in enumerate(enc.states) if n == 0 for y in by_class.get(part[k], [])
    )


def _unmatched(s: Store, t: Store) -> tuple[list[Id], list[Id], _Encoded, list[int]]:
    enc, part = _blind(s, t)
    classes_of = [set(), set()]  # type: list[set[int]]
    for k, (n, _) in enumerate(enc.states):
        if n >= 0:
            classes_of[n].add(part[k])
    left = sorted(x for k, (n, x) in enumerate(enc.states) if n == 0 and part[k] not in classes_of[1])
    right = sorted(x for k, (n, x) in enumerate(enc.states) if n == 1 and part[k] not in classes_of[0])
    return left, right, enc, part


def allocation_blind_bisimilar(s: Store, t: Store) -> bool:
    """s ≈ t: some allocation-blind bisimulation is total on ids(s) and onto ids(t)."""
    left, right, _, _ = _unmatched(s, t)
    return not left and not right


def allocation_blind_witness(s: Store, t: Store) -> dict[str, Any] | None:
    """``None`` when s ≈ t; otherwise the identifiers that have no partner, and why the first one fails.

    The reason is a shortest distinguishing witness between the unmatched
    identifier and the candidate on the other side whose blind record is equal
    (if any), in the encoding where payload identifiers are transitions;
    ``reached`` names the two identifiers the witness's path leads to, where the
    difference is immediate (the first one's own record, when the path is empty).
    """
    left, right, enc, part = _unmatched(s, t)
    if not left and not right:
        return None
    side, ident = (0, left[0]) if left else (1, right[0])
    k = enc.index[(side, ident)]
    candidates = [
        m for m, (n, _) in enumerate(enc.states) if n == 1 - side and enc.initial[m] == enc.initial[k]
    ]
    detail: dict[str, Any] = {"candidates_with_equal_blind_record": [enc.states[m][1] for m in candidates]}
    if candidates:
        lts = LTS.build(len(enc.states), enc.initial, enc.transitions)
        w = distinguishing_witness(lts, part, k, candidates[0])
        if w is not None:
            detail["against"] = enc.states[candidates[0]][1]
            detail["path"] = [enc.label_names[x] for x in w.path]
            detail["reason"] = _translate(w.reason, enc)
            # where the path ends on each side: the identifiers whose observations (or moves) differ
            detail["reached"] = [enc.states[w.left][1], None if w.right is None else enc.states[w.right][1]]
    else:
        detail["reason"] = "no identifier on the other side holds an equal record up to allocation"
    return {
        "unmatched_left": left,
        "unmatched_right": right,
        "first": {"side": "left" if side == 0 else "right", "id": ident, **detail},
    }
