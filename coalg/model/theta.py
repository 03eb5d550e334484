"""θ, our parameter for the orders ContextFS leaves undeclared (law L5): the tie-break and the enumeration.

ContextFS makes choices that no interface declares: which of several tied
merge types wins (``max(set(types), key=types.count)``) and which row a
prefix ``LIKE`` query returns first.  Here they are the explicit parameter
:class:`Theta` of the store coalgebra, never Python's own hash order.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .records import Id

__all__ = ["DEFAULT_THETA", "Theta"]


@dataclass(frozen=True, slots=True)
class Theta:
    """θ = (c, ≺): the enumeration orders ContextFS leaves undeclared (law L5).

    * ``c`` chooses among tied merge types.  It is given as a priority list:
      the first listed type that is tied wins; unlisted types come after, by name.
    * ``≺`` is the order in which a prefix ``LIKE`` query enumerates rows.  It is
      given as a priority list of identifiers; unlisted ones come after, in
      ascending (or, with ``descending``, descending) order.

    The default θ prefers nothing and enumerates ascending.  Every output of the
    library is a function of θ, never of Python's hash order.

    >>> Theta(type_priority=("decision",)).choose_type({"fact", "decision"})
    'decision'
    >>> DEFAULT_THETA.choose_type({"fact", "decision"})
    'decision'
    >>> Theta(descending=True).first_id({"ab1", "ab2"})
    'ab2'
    """

    type_priority: tuple[str, ...] = ()
    id_priority: tuple[Id, ...] = ()
    descending: bool = False

    def choose_type(self, tied: Iterable[str]) -> str:
        """c(M): the chosen element of a non-empty set of tied types."""
        return self._first(tied, self.type_priority, "c(M) is defined for non-empty M only")

    def first_id(self, matches: Iterable[Id]) -> Id:
        """The ≺-first identifier of a non-empty set of matches."""
        return self._first(matches, self.id_priority, "the ≺-first element is defined for non-empty sets only")

    def _first(self, items: Iterable[str], priority: tuple[str, ...], empty: str) -> str:
        """The first of ``priority`` among ``items``, else the least (the greatest if ``descending``)."""
        m = sorted(set(items))
        if not m:
            raise ValueError(empty)
        for x in priority:
            if x in m:
                return x
        return m[-1] if self.descending else m[0]

    def as_dict(self) -> dict[str, object]:
        return {
            "type_priority": list(self.type_priority),
            "id_priority": list(self.id_priority),
            "descending": self.descending,
        }


DEFAULT_THETA = Theta()
