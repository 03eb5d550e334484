"""Bisimilarity (paper §2.2, Definition 5.23): labelled transition systems, partition
refinement, distinguishing formulas, the Aldebaran ``.aut`` format, the comparison of two
``.aut`` files, store-level bisimilarity and the lineage export.

Modules: :mod:`~coalg.bisim.lts` (the LTS), :mod:`~coalg.bisim.partition` (coarsest stable
partitions) over :mod:`~coalg.bisim.acyclic` (the one-pass route) and
:mod:`~coalg.bisim.engine` (the worklist engine: :mod:`~coalg.bisim.blocks`,
:mod:`~coalg.bisim.rounds_python`, :mod:`~coalg.bisim.rounds_numpy`),
:mod:`~coalg.bisim.witness` (Hennessy--Milner witnesses), :mod:`~coalg.bisim.aut`,
:mod:`~coalg.bisim.aut_read` (with :mod:`~coalg.bisim.aut_scan` and
:mod:`~coalg.bisim.aut_payloads`), :mod:`~coalg.bisim.aut_write`,
:mod:`~coalg.bisim.compare`, :mod:`~coalg.bisim.bisimilarity`, :mod:`~coalg.bisim.canonical`
(stores up to renaming and clock readings),
:mod:`~coalg.bisim.lineage_aut`; integer buffers and the optional NumPy in
:mod:`~coalg.bisim.buffers`."""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)

