"""Realisations: one interface for every implementation of the memory API.

A realisation is a step function α(s)(a, ξ) with a name.  The checks of the
laws, the bitemporal recording map and the widgets all take a realisation, so
they run unchanged on the ContextFS a93035d model, on the repaired realisation,
and on the real ContextFS package driven through its adapter.

>>> CONTEXTFS.name, CONTEXTFS.declares_valid_time
('contextfs', False)
>>> sorted(REALISATIONS)
['contextfs', 'repaired']
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .alphabet import DEFAULT_THETA, Allocation, Letter, Theta
from .coalgebra import Output, step
from .store import Store

__all__ = ["Realisation", "CONTEXTFS", "REALISATIONS", "get_realisation"]


@dataclass(frozen=True)
class Realisation:
    """A named step function, with what it declares about itself.

    ``declares_valid_time`` says whether the realisation has a valid-time channel
    κ_R (spec Def. 3.20 (b)): a letter's ``valid_time`` argument is stored.
    ``edge_faults`` says whether edge writes can fail independently of the record
    write (ContextFS: yes, inside log-and-continue handlers).
    """

    name: str
    step_fn: Callable[..., tuple[Output, Store]]
    description: str
    declares_valid_time: bool = False
    edge_faults: bool = False

    def step(
        self,
        s: Store,
        a: Letter,
        xi: Allocation = Allocation(),
        *,
        theta: Theta = DEFAULT_THETA,
        faults: frozenset[int] = frozenset(),
    ) -> tuple[Output, Store]:
        """α(s)(a, ξ) for this realisation."""
        return self.step_fn(s, a, xi, theta=theta, faults=faults)

    def __call__(self, s: Store, a: Letter, xi: Allocation = Allocation(), *, theta: Theta = DEFAULT_THETA,
                 faults: frozenset[int] = frozenset()) -> tuple[Output, Store]:
        return self.step(s, a, xi, theta=theta, faults=faults)


CONTEXTFS = Realisation(
    "contextfs",
    step,
    "The ContextFS a93035d model: code-faithful semantics of spec §2.3, with a fault oracle "
    "for the edge writes performed inside log-and-continue handlers.",
    declares_valid_time=False,
    edge_faults=True,
)


def _registry() -> dict[str, Realisation]:
    from .repaired import REPAIRED

    return {"contextfs": CONTEXTFS, "repaired": REPAIRED}


class _Lazy(dict[str, Realisation]):
    def _fill(self) -> None:
        if not super().__len__():
            self.update(_registry())

    def __getitem__(self, k: str) -> Realisation:
        self._fill()
        return super().__getitem__(k)

    def __iter__(self):  # type: ignore[no-untyped-def]
        self._fill()
        return super().__iter__()

    def __len__(self) -> int:
        self._fill()
        return super().__len__()

    def __contains__(self, k: object) -> bool:
        self._fill()
        return super().__contains__(k)

    def keys(self):  # type: ignore[no-untyped-def]
        self._fill()
        return super().keys()


REALISATIONS: dict[str, Realisation] = _Lazy()
"""Every realisation by name (the real-package adapter registers itself when installed)."""


def get_realisation(name: str) -> Realisation:
    """The realisation called ``name``; a clear error lists the known ones."""
    if name not in REALISATIONS:
        raise KeyError(f"unknown realisation {name!r}; known: {', '.join(sorted(REALISATIONS))}")
    return REALISATIONS[name]
