"""The lineage coalgebra (paper §3.4, Definitions 3.18–3.19).

For a fixed store ``s``, β_s : Id → H Id with H X = Rec_⊥ × P_fin(R × X) sends an
identifier to its record (or ⊥) and its labelled successors.  The ancestry
sub-functor H⁻ keeps only the labels in R⁻; β⁻_s = λ ∘ β_s.

The *ancestry unfolding* ⟦i⟧⁻_s is the record at ``i`` together with, under
each ancestry label, the unfolding of the parent it leads to, recursively.  On
stores of the lineage fragment it is a finite tree; in general (dangling or save-at edges) the
ancestry graph can have cycles, so unfoldings here are computed iteratively,
expand each shared sub-DAG once, and mark a back-edge as a cycle instead of
looping on it.

Examples
--------
>>> from coalg.model.alphabet import Save, Evolve, Merge
>>> from coalg.model.coalgebra import run
>>> from coalg.model.store import EMPTY
>>> s = run(EMPTY, [Save(Record("a")), Save(Record("b")), Merge(("id0001", "id0002")),
...                 Evolve("id0003", "c")]).final
>>> beta_minus(s, "id0004")
Observation(record=Record(content='c', ...), successors=((<Relation.EVOLVED_FROM: 'evolved_from'>, 'id0003'),))
>>> print(ancestry(s, "id0004").render())
id0004  c
└─ evolved_from id0003  [Source 1]: a  [Source …
   ├─ merged_from id0001  a
   └─ merged_from id0002  b
>>> sorted(ancestors(s, "id0004"))
['id0001', 'id0002', 'id0003']
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from .records import ANCESTRY, DESCENDANT, Id, Record, Relation
from .store import Store

__all__ = [
    "Observation",
    "beta",
    "beta_minus",
    "beta_restricted",
    "Node",
    "Unfolding",
    "unfold",
    "ancestry",
    "descendants",
    "ancestors",
    "descendant_ids",
    "successor_index",
]


@dataclass(frozen=True, slots=True)
class Observation:
    """An element of H Id: the record (``None`` for ⊥) and the sorted labelled successors."""

    record: Record | None
    successors: tuple[tuple[Relation, Id], ...]


def successor_index(s: Store, labels: Iterable[Relation] | None = None) -> dict[Id, list[tuple[Relation, Id]]]:
    """Adjacency lists ``i ↦ sorted [(r, j)]`` for the edges with the given labels (all by default)."""
    keep = None if labels is None else frozenset(labels)
    adj: dict[Id, list[tuple[Relation, Id]]] = {}
    for e in s.edges:
        if keep is None or e.relation in keep:
            adj.setdefault(e.source, []).append((e.relation, e.target))
    for v in adj.values():
        v.sort()
    return adj


def beta_restricted(s: Store, i: Id, labels: Iterable[Relation] | None) -> Observation:
    """β_s(i) with the successors restricted to ``labels`` (``None`` keeps all)."""
    keep = None if labels is None else frozenset(labels)
    succ = sorted((e.relation, e.target) for e in s.edges if e.source == i and (keep is None or e.relation in keep))
    return Observation(s.records.get(i), tuple(succ))


def beta(s: Store, i: Id) -> Observation:
    """β_s(i) = (m_s(i) or ⊥, {(r, j) : (i, r, j) ∈ E_s}) (Definition 3.18)."""
    return beta_restricted(s, i, None)


def beta_minus(s: Store, i: Id) -> Observation:
    """β⁻_s(i) = λ(β_s(i)): only the ancestry labels R⁻ (Definition 3.19)."""
    return beta_restricted(s, i, ANCESTRY)


@dataclass(frozen=True, slots=True)
class Node:
    """One node of an unfolding, in preorder.

    ``mark`` is ``"expanded"`` for the first visit of an identifier, ``"shared"``
    when the identifier was already expanded elsewhere in the tree (the subtree is
    the same and is not repeated), and ``"cycle"`` for a back-edge to an ancestor
    on the current path.
    """

    depth: int
    via: Relation | None
    id: Id
    record: Record | None
    mark: Literal["expanded", "shared", "cycle"]


@dataclass(frozen=True, slots=True)
class Unfolding:
    """A finite presentation of the unfolding of β restricted to some labels, from ``root``.

    Stored flat (preorder) so that deep chains need no recursion to build,
    compare or print.
    """

    root: Id
    labels: frozenset[Relation]
    nodes: tuple[Node, ...]

    @property
    def ids(self) -> frozenset[Id]:
        """Every identifier reached, the root included."""
        return frozenset(n.id for n in self.nodes)

    @property
    def has_cycle(self) -> bool:
        return any(n.mark == "cycle" for n in self.nodes)

    def edges(self) -> frozenset[tuple[Id, Relation, Id]]:
        """The (parent, label, child) steps of the tree."""
        out: set[tuple[Id, Relation, Id]] = set()
        path: list[Id] = []
        for n in self.nodes:
            del path[n.depth:]
            if n.via is not None:
                out.add((path[-1], n.via, n.id))
            path.append(n.id)
        return frozenset(out)

    def render(self, width: int = 24) -> str:
        """A text tree; a shared subtree is shown once, ``↺`` marks a cycle."""
        lines: list[str] = []
        open_levels: list[bool] = []  # per depth: does a later sibling follow?
        for k, n in enumerate(self.nodes):
            more = self._has_later_sibling(k)
            del open_levels[n.depth:]
            open_levels.append(more)
            prefix = "".join("│  " if o else "   " for o in open_levels[1:-1])
            branch = "" if n.depth == 0 else ("├─ " if more else "└─ ")
            label = "" if n.via is None else f"{n.via.value} "
            text = "⊥" if n.record is None else n.record.content.replace("\n", " ")
            text = text if len(text) <= width else text[: width - 1] + "…"
            mark = {"expanded": "", "shared": "  (shared, shown above)", "cycle": "  ↺ cycle"}[n.mark]
            lines.append(f"{prefix}{branch}{label}{n.id}  {text}{mark}")
        return "\n".join(lines)

    def _has_later_sibling(self, k: int) -> bool:
        d = self.nodes[k].depth
        for m in self.nodes[k + 1 :]:
            if m.depth < d:
                return False
            if m.depth == d:
                return True
        return False


def unfold(s: Store, i: Id, labels: Iterable[Relation], *, max_nodes: int | None = None) -> Unfolding:
    """The unfolding of β_s restricted to ``labels`` from ``i``, iteratively (no recursion).

    Children are visited in sorted (label, id) order, so the result is a function of
    the store.  ``max_nodes`` bounds the output for display; ``None`` means no bound.
    """
    keep = frozenset(labels)
    adj = successor_index(s, keep)
    nodes: list[Node] = []
    expanded: set[Id] = set()
    on_path: list[Id] = []
    on_path_set: set[Id] = set()  # the same identifiers, for O(1) cycle tests on deep chains
    # stack of (depth, via, id); pushed in reverse so that sorted order is visited first
    stack: list[tuple[int, Relation | None, Id]] = [(0, None, i)]
    while stack:
        depth, via, x = stack.pop()
        while len(on_path) > depth:
            on_path_set.discard(on_path.pop())
        if x in on_path_set:
            mark: Literal["expanded", "shared", "cycle"] = "cycle"
        elif x in expanded:
            mark = "shared"
        else:
            mark = "expanded"
        nodes.append(Node(depth, via, x, s.records.get(x), mark))
        if max_nodes is not None and len(nodes) >= max_nodes:
            break
        if mark != "expanded":
            continue
        expanded.add(x)
        on_path.append(x)
        on_path_set.add(x)
        for r, y in reversed(adj.get(x, [])):
            stack.append((depth + 1, r, y))
    return Unfolding(i, keep, tuple(nodes))


def ancestry(s: Store, i: Id) -> Unfolding:
    """⟦i⟧⁻_s, the ancestry unfolding (labels R⁻)."""
    return unfold(s, i, ANCESTRY)


def descendants(s: Store, i: Id) -> Unfolding:
    """The descendant unfolding (labels R⁺): what was derived from ``i``."""
    return unfold(s, i, DESCENDANT)


def _reach(s: Store, i: Id, labels: frozenset[Relation]) -> frozenset[Id]:
    adj = successor_index(s, labels)
    # reachable by a non-empty path: ``i`` itself is included exactly when it lies on a cycle
    seen: set[Id] = set()
    todo = deque([i])
    while todo:
        x = todo.popleft()
        for _, y in adj.get(x, ()):
            if y not in seen:
                seen.add(y)
                todo.append(y)
    return frozenset(seen)


def ancestors(s: Store, i: Id) -> frozenset[Id]:
    """Every identifier reachable from ``i`` along R⁻ edges (``i`` itself only if on a cycle)."""
    return _reach(s, i, ANCESTRY)


def descendant_ids(s: Store, i: Id) -> frozenset[Id]:
    """Every identifier reachable from ``i`` along R⁺ edges."""
    return _reach(s, i, DESCENDANT)
