"""Figures for the book: pure functions ``plot_*(..., ax=None) -> Axes`` (needs matplotlib).

=====================  ===========================================================
:mod:`.style`          the house style: colours, sizes, fonts, axes
:mod:`.layout`         deterministic layouts of store graphs and unfoldings
:mod:`.labels`         where labels go: off the edges, the nodes and each other
:mod:`.edges`          the edges of a store graph: families, inverse pairs, arrows
:mod:`.store`          the store graph (§3.1, Definition 3.4), ghosts of deleted records
:mod:`.unfolding`      unfoldings as trees, alone or compared (§3.4, Def. 3.19; Thm 5.7)
:mod:`.plane`          the bitemporal plane (§3.5, Def. 3.20; §7.1, Prop. 7.1)
:mod:`.charts`         refinement rounds (Def. 5.23), prefix collisions (Remark 6.8), benchmarks
=====================  ===========================================================

Every plot draws onto the ``Axes`` it is given (or a new one), returns it, and
depends only on its arguments: the same input gives the same figure under any
``PYTHONHASHSEED``.  matplotlib is an optional dependency (``coalg[book]``);
``import coalg`` never imports this package.  Tests use the Agg backend.
"""

import lazy_loader

__getattr__, __dir__, __all__ = lazy_loader.attach_stub(__name__, __file__)

