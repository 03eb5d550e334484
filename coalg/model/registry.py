"""The realisations by name (paper §6): the ContextFS model and the repaired realisation.

The registry sits above both realisations, so neither imports the other: the
command line (``python -m coalg laws --realisation NAME``), the law checks
and the explorers look a realisation up here by its name.  The real ContextFS
package, driven through its adapter, is not listed: importing it is optional.

>>> sorted(REALISATIONS)
['contextfs', 'repaired']
>>> get_realisation("repaired").declares_valid_time
True
>>> get_realisation("nope")
Traceback (most recent call last):
...
KeyError: "unknown realisation 'nope'; known: contextfs, repaired"
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from .realisation import CONTEXTFS, Realisation
from .repaired import REPAIRED

__all__ = ["REALISATIONS", "get_realisation"]

REALISATIONS: Mapping[str, Realisation] = MappingProxyType({"contextfs": CONTEXTFS, "repaired": REPAIRED})
"""Every realisation of the library by name (read-only)."""


def get_realisation(name: str) -> Realisation:
    """The realisation called ``name``; a clear error lists the known ones."""
    if name not in REALISATIONS:
        raise KeyError(f"unknown realisation {name!r}; known: {', '.join(sorted(REALISATIONS))}")
    return REALISATIONS[name]
