"""The worklist refinement engine: the coarsest stable partition of any finite LTS.

Worklist signature refinement with "the largest sub-block keeps its id"
(the idea of Jacobs & Wißmann, POPL 2023, as in ``cpp_refine.cpp incr``),
run *level-synchronously*.  The signature of a state under the current block
ids is ``sig(s) = {(a, blk[t]) : s --a--> t}``.  Round ``r`` takes the set
``D`` of *dirty* states (round 1: all states), and for every block that holds
dirty states groups them by signature; the states of the block that are not
dirty (*clean*) all share one signature, computed once from a representative.
If a block falls apart into several groups, the group with the most states
keeps the block's id and every other group gets a fresh id.  The dirty states
of round ``r + 1`` are the predecessors of the states whose id changed.

*Invariant.*  All clean states of a block have the same signature under the
current ids (a state's id-signature changes only when a successor changes id,
and then the state is dirty).  Hence when ``D`` is empty every block is
stable; and since only states with different signatures are ever separated,
the partition stays coarser than bisimilarity: the result is the coarsest
stable partition.

*Levels.*  Signatures of a round are all computed before any id of that round
changes, so after round ``r`` the partition is exactly ``P_r``, the ``r``-th
partition of naive round-based refinement (``~_r``, ``r``-step bisimilarity):
a clean state's id-signature is the same under ``P_{r-1}`` as under
``P_{r-2}``, because no successor changed id.
:func:`coalg.bisim.witness.distinguishing_witness` relies on this to read off
separation levels.

*Complexity.*  A state changes id only when it lies in a non-largest group of
a split, i.e. in a piece of at most half of its block, so at most ``log2 n``
times.  Marking predecessors therefore costs ``O(m log n)`` in total, and a
state ``s`` is re-signed at most once per round in which a successor changed
id, i.e. at most ``outdeg(s) * log2 n`` times, each costing ``outdeg(s)``
(plus sorting).  The total is ``O(m log n)`` for bounded out-degree and
``O(Δ m log n)`` in general (Δ the largest out-degree) -- the bound of the
compiled reference refiner ``incr``; a round costs ``O(1)`` besides its dirty
states, so a pure chain of ``n`` states (``n`` rounds) costs ``O(n)``.
Round-based refinement, in contrast, is ``Θ(n · m)`` on chains.

*Implementation.*  The partition is a :class:`~coalg.bisim.blocks.Blocks`.
Large rounds are vectorised with NumPy (:mod:`coalg.bisim.rounds_numpy`);
small rounds, and everything when NumPy is not in use, run in plain Python
(:mod:`coalg.bisim.rounds_python`) on the same buffers.  No result depends on
set or dict iteration order or on ``PYTHONHASHSEED``.

>>> from coalg.bisim.lts import LTS
>>> refined(LTS.build(4, None, [(0, 0, 1), (1, 0, 2), (2, 0, 3)]), False).canonical().tolist()
[0, 1, 2, 3]
"""

from __future__ import annotations

from typing import Any

from .blocks import Blocks
from .buffers import load_numpy
from .lts import LTS
from .rounds_numpy import numpy_predecessors, numpy_round
from .rounds_python import python_rounds

__all__ = ["refined", "run"]


def run(part: Blocks) -> None:
    """Refine ``part`` until it is stable, choosing per round between NumPy and Python."""
    n = part.n
    if n == 0:
        return
    np = load_numpy() if part.use_numpy else None
    dirty: Any
    if np is not None and n >= part.min_round:
        dirty = np.arange(n, dtype=np.int64)
    else:
        dirty = list(range(n))
    while len(dirty):
        if np is not None and len(dirty) >= part.min_round:
            if not isinstance(dirty, np.ndarray):
                dirty = np.fromiter(dirty, dtype=np.int64, count=len(dirty))
            part.rounds += 1
            changed, newids = numpy_round(part, dirty)
            if part.record and len(changed):
                part.hist.append((part.rounds, changed, newids))
            dirty = numpy_predecessors(part, changed)
        else:
            if not isinstance(dirty, (list, set)):
                dirty = dirty.tolist()
            dirty = python_rounds(part, dirty)


def refined(lts: LTS, use_numpy: bool, *, record: bool = False) -> Blocks:
    """The coarsest stable partition of ``lts`` (with the history of id changes if ``record``)."""
    part = Blocks(lts, use_numpy, record)
    run(part)
    return part
