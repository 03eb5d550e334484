"""What a call of the store coalgebra outputs (the Out of α: S → (Out × S)^{Â}).

Each realisation's step returns one of these with the next store; the JSON form is
in :mod:`coalg.model.jsonletters`.

>>> Created((("id0001", Record("x")),)).ids
('id0001',)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeAlias

from .records import Id, Record
from .store import Edge, Store

__all__ = ["Err", "Nothing", "Found", "Created", "Wrote", "Flag", "Output", "StepFunction"]


@dataclass(frozen=True, slots=True)
class Err:
    """err: the call was inadmissible or failed; the store is unchanged."""

    reason: str


@dataclass(frozen=True, slots=True)
class Nothing:
    """⊥: a recall that found nothing (not an error)."""


@dataclass(frozen=True, slots=True)
class Found:
    """A recalled record, with its identifier."""

    id: Id
    record: Record


@dataclass(frozen=True, slots=True)
class Created:
    """The record(s) a call created, with their identifiers, in creation order."""

    items: tuple[tuple[Id, Record], ...]

    @property
    def ids(self) -> tuple[Id, ...]:
        return tuple(i for i, _ in self.items)


@dataclass(frozen=True, slots=True)
class Wrote:
    """The edges a supersede or link wrote (empty when its handler swallowed a failure)."""

    edges: tuple[Edge, ...]


@dataclass(frozen=True, slots=True)
class Flag:
    """A boolean answer (delete)."""

    value: bool


Output: TypeAlias = Err | Nothing | Found | Created | Wrote | Flag
StepFunction: TypeAlias = Callable[..., tuple[Output, Store]]
