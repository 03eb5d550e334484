"""The frame property (paper §6.2, Proposition 6.2; Def. 6.5 and Prop. 6.6 (c)): does a call ignore the store beside it?

Several agents in one harness means several stores side by side.  §6.2 asks
whether an operation gives the same answer when the store around it grows:
``α(s ⊎ t)(a) = (o, s′ ⊎ t)`` whenever ``α(s)(a) = (o, s′)`` — the *frame
property*.  Proposition 6.2 is a *theorem* of the first kind for fragment calls
and recalls that name identifiers of ``s`` by equality, with allocations fresh
for ``s ⊎ t``; with the mention-disjoint union ``⊕`` of Definition 6.5 it holds
for deletes too (Proposition 6.6 (c)).  :func:`frame_property` checks one
instance; the registered checks property-test it over random stores and calls.

>>> from coalg.model import Evolve, Record
>>> s, t = Store.of({"a": Record("A")}), Store.of({"b": Record("B")})
>>> frame_property(s, t, Evolve("a", "A2"), Allocation(("n1",), 5)).holds
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from ..model import (
    CONTEXTFS,
    DEFAULT_THETA,
    Allocation,
    Letter,
    Output,
    Realisation,
    Store,
    Theta,
    UnionUndefined,
    disjoint_union,
    is_fragment,
    letter_to_json,
    mention_disjoint_union,
    named,
    output_to_json,
    store_to_json,
)
from ..model import alphabet as A

__all__ = ["Union", "union", "FrameCheck", "frame_property"]

Union = Literal["disjoint", "mention"]
"""Which union: ``⊎`` (``"disjoint"``, Def. 3.5) or ``⊕`` (``"mention"``, Def. 6.5)."""

NO_ALLOCATION = Allocation()
"""The empty allocation (for calls that create nothing)."""


def union(s: Store, t: Store, kind: Union = "disjoint") -> Store:
    """``s ⊎ t`` (``kind="disjoint"``, Def. 3.5) or ``s ⊕ t`` (``kind="mention"``, Def. 6.5); raises if undefined."""
    if kind == "disjoint":
        return disjoint_union(s, t)
    if kind == "mention":
        return mention_disjoint_union(s, t)
    raise ValueError(f"kind must be 'disjoint' or 'mention', got {kind!r}")


def union_or_none(s: Store, t: Store, kind: Union) -> Store | None:
    """:func:`union`, or ``None`` where it is undefined."""
    try:
        return union(s, t, kind)
    except UnionUndefined:
        return None


@dataclass(frozen=True)
class FrameCheck:
    """One instance of the frame property: its hypotheses and both sides of the equation.

    ``applicable`` says whether every hypothesis holds; ``holds`` whether the
    equation ``α(s ⋆ t)(a) = (o, s′ ⋆ t)`` does (``⋆`` is ``⊎`` or ``⊕``).
    """

    union: Union
    letter: Letter
    allocation: Allocation
    hypotheses: dict[str, bool]
    output_alone: Output | None
    output_in_union: Output | None
    after_alone_union: Store | None  # s′ ⋆ t, or None when undefined
    after_in_union: Store | None  # the state component of α(s ⋆ t)(a)
    holds: bool
    reason: str

    @property
    def applicable(self) -> bool:
        return all(self.hypotheses.values())

    def to_json(self) -> dict[str, Any]:
        return {
            "union": self.union,
            "letter": letter_to_json(self.letter),
            "allocation": {"ids": list(self.allocation.ids), "clock": self.allocation.clock},
            "hypotheses": dict(sorted(self.hypotheses.items())),
            "applicable": self.applicable,
            "holds": self.holds,
            "reason": self.reason,
            "output_alone": None if self.output_alone is None else output_to_json(self.output_alone),
            "output_in_union": None
            if self.output_in_union is None
            else output_to_json(self.output_in_union),
            "after_alone_union": None
            if self.after_alone_union is None
            else store_to_json(self.after_alone_union),
            "after_in_union": None if self.after_in_union is None else store_to_json(self.after_in_union),
        }


def _by_equality(a: Letter, *, allow_delete: bool) -> bool:
    if getattr(a, "by_prefix", False):
        return False
    if isinstance(a, A.Delete):
        return allow_delete
    return is_fragment(a)


def frame_property(
    s: Store,
    t: Store,
    a: Letter,
    allocation: Allocation = NO_ALLOCATION,
    *,
    union: Union = "disjoint",
    theta: Theta = DEFAULT_THETA,
    faults: frozenset[int] = frozenset(),
    realisation: Realisation | None = None,
) -> FrameCheck:
    """Check Proposition 6.2 (``union="disjoint"``) or 6.6 (c) (``union="mention"``) on one call.

    Hypotheses (recorded in :attr:`FrameCheck.hypotheses`):

    * ``union_defined`` — ``s ⊎ t`` (resp. ``s ⊕ t``) is defined;
    * ``by_equality`` — ``a`` is a fragment call or a recall by equality (for ``⊕``
      also a delete by equality);
    * ``names_in_s`` — ``nm(a) ⊆ dom(m_s)``;
    * ``allocation_fresh`` — admissible at the union (``dom``-fresh) and, for ``⊕``,
      fresh for ``ids(s) ∪ ids(t)`` (a hypothesis we added to Prop. 6.6 (c)).

    Parameters
    ----------
    s, t : Store
        The store the call is made on, and the store put beside it.
    a : Letter
        The call.
    allocation : Allocation
        Its identifiers and clock reading (the same on both sides).
    union : {"disjoint", "mention"}
        ``⊎`` (Proposition 6.2) or ``⊕`` (Proposition 6.6 (c)).
    theta, faults, realisation
        The undeclared orders, injected edge-write faults, and the step function
        (``realisation=None``: the ContextFS model).

    Returns
    -------
    FrameCheck
        The hypotheses, both sides of the equation, ``holds`` and a reason.
        The proposition says: ``applicable`` implies ``holds``.

    Examples
    --------
    >>> from coalg.model import Delete, Record, Relation
    >>> s = Store.of({"a": Record("A")})
    >>> t = Store.of({"b": Record("B")}, [("b", Relation.RELATED_TO, "a")])
    >>> frame_property(s, t, Delete("a")).holds          # t's edge into s goes too: delete is excluded
    False
    >>> frame_property(s, Store.of({"b": Record("B")}), Delete("a"), union="mention").holds
    True
    """
    real = CONTEXTFS if realisation is None else realisation
    allow_delete = union == "mention"
    u = union_or_none(s, t, union)
    hyp = {
        "union_defined": u is not None,
        "by_equality": _by_equality(a, allow_delete=allow_delete),
        "names_in_s": set(named(a)) <= s.dom(),
    }
    if u is None:
        hyp["allocation_fresh"] = False
        return FrameCheck(
            union, a, allocation, hyp, None, None, None, None, False, "the union is undefined"
        )
    fresh = allocation.admissible(u, a) is None
    if union == "mention":
        fresh = fresh and not any(j in u.ids() for j in allocation.ids)
    hyp["allocation_fresh"] = fresh
    o1, s2 = real.step(s, a, allocation, theta=theta, faults=faults)
    o2, u2 = real.step(u, a, allocation, theta=theta, faults=faults)
    lhs = union_or_none(s2, t, union)
    if lhs is None:
        return FrameCheck(union, a, allocation, hyp, o1, o2, None, u2, False, "s′ ⋆ t is undefined")
    if o1 != o2:
        return FrameCheck(union, a, allocation, hyp, o1, o2, lhs, u2, False, "the outputs differ")
    if lhs != u2:
        return FrameCheck(union, a, allocation, hyp, o1, o2, lhs, u2, False, "the states differ")
    return FrameCheck(union, a, allocation, hyp, o1, o2, lhs, u2, True, "α(s ⋆ t)(a) = (o, s′ ⋆ t)")
