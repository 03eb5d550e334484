"""The formal model (paper §3): records, stores, the alphabet, θ, the store and lineage
coalgebras, the JSON format, the two realisations and the presets.

Modules: :mod:`~coalg.model.records`, :mod:`~coalg.model.store` (persistent and indexed:
:mod:`~coalg.model.recordmap`, :mod:`~coalg.model.edgeindex`, :mod:`~coalg.model.sortedkeys`),
:mod:`~coalg.model.alphabet` (letters, allocations, calls), :mod:`~coalg.model.theta`,
:mod:`~coalg.model.coalgebra`, :mod:`~coalg.model.lineage`, :mod:`~coalg.model.index`,
:mod:`~coalg.model.examples`, :mod:`~coalg.model.workloads` (long words for measuring), the JSON format in :mod:`~coalg.model.jsonio` (records,
stores), :mod:`~coalg.model.jsonletters` (letters, calls, θ, outputs) and
:mod:`~coalg.model.jsoncheck` (checked reading); :mod:`~coalg.model.realisation` (the type
and the ContextFS model), :mod:`~coalg.model.repaired` with :mod:`~coalg.model.repair_rules`,
and :mod:`~coalg.model.registry` (the realisations by name)."""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)

