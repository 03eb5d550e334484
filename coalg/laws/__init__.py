"""The laws L1–L7 and the schema S1–S4 (Defs. 3.21, 3.23), checked by exploration, and §3/§5 results.

The exploration engine (:mod:`~coalg.laws.seeds`, :mod:`~coalg.laws.exploration`,
:mod:`~coalg.laws.walks`, :mod:`~coalg.laws.search`, with :mod:`~coalg.laws.display`
for how calls print) and the clause type (:mod:`~coalg.laws.clause`, which remembers each verdict it
computes) come first; then one
module per law family, each with its predicate, its clause and
the paper's results about it: :mod:`~coalg.laws.monotonicity` (L1, 5.1–5.2),
:mod:`~coalg.laws.agreement` (L2, 5.14–5.15), :mod:`~coalg.laws.inverse_closure`
(L3, 5.16), :mod:`~coalg.laws.locality` (L4, 3.22, 5.17–5.19),
:mod:`~coalg.laws.resolution` (L5, 5.20), :mod:`~coalg.laws.bitemporality` (L6),
:mod:`~coalg.laws.integrity` (L7, 5.30), :mod:`~coalg.laws.schema` (S1–S4, 5.6),
:mod:`~coalg.laws.stability` (5.7–5.13), :mod:`~coalg.laws.merge` (5.24–5.25) and
:mod:`~coalg.laws.foundations` (3.6, 3.9); the law table (:mod:`~coalg.laws.table`)
and the per-step check (:mod:`~coalg.laws.stepcheck`) on top.
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)

