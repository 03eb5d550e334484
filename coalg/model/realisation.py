"""Realisations (paper §3.3, §6): one interface for every implementation of the memory API.

A realisation is a step function α(s)(a, ξ) with a name.  The checks of the
laws, the bitemporal recording map and the widgets all take a realisation, so
they run unchanged on the ContextFS a93035d model (:data:`CONTEXTFS`, here), on
the repaired realisation (:mod:`coalg.model.repaired`), and on the real
ContextFS package driven through its adapter.  The realisations by name are
in :mod:`coalg.model.registry`.

>>> CONTEXTFS.name, CONTEXTFS.declares_valid_time
('contextfs', False)
>>> CONTEXTFS
Realisation(name='contextfs', description='The ContextFS a93035d model: ...', declares_valid_time=False, edge_faults=True)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from .alphabet import Allocation, Letter
from .coalgebra import Output, step
from .store import Store
from .theta import DEFAULT_THETA, Theta

__all__ = ["Realisation", "CONTEXTFS"]


@dataclass(frozen=True)
class Realisation:
    """A named step function, with what it declares about itself.

    ``declares_valid_time`` says whether the realisation has a valid-time channel
    κ_R (Def. 3.20 (b), reconstructed): a letter's ``valid_time`` argument is stored.
    ``edge_faults`` says whether edge writes can fail independently of the record
    write (ContextFS: yes, inside log-and-continue handlers).  The repr leaves
    out the step function, whose repr would show a memory address.
    """

    name: str
    step_fn: Callable[..., tuple[Output, Store]] = field(repr=False)
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
    "The ContextFS a93035d model: code-faithful semantics of §3.3, with a fault oracle "
    "for the edge writes performed inside log-and-continue handlers.",
    declares_valid_time=False,
    edge_faults=True,
)
"""The ContextFS a93035d model as a realisation: :func:`~coalg.model.coalgebra.step` with its fault oracle."""
