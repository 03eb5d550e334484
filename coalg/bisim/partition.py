"""Coarsest stable partitions: strong bisimilarity of finite labelled transition systems (paper §2.2).

Two states of an :class:`~coalg.bisim.lts.LTS` are *strongly bisimilar* when
they have the same observation and every move of one is matched by an equally
labelled move of the other into bisimilar states.  Bisimilarity is the
coarsest partition of the states that refines the observations and is
*stable*: states in one block have the same set of pairs ``(label, block of
target)``.

* :func:`coarsest_partition` / :func:`refine` -- that partition, with blocks
  numbered canonically (0, 1, 2, ... in order of their smallest state).
* :func:`bisimilar_states` -- are two states bisimilar?
* :func:`naive_partition` -- the obviously-correct round-based reference used
  by the tests.

Acyclic inputs (lineage ancestry always is) are settled in one pass
(:mod:`coalg.bisim.acyclic`); the rest go to the ``O(m log n)`` worklist
engine (:mod:`coalg.bisim.engine`, whose docstring gives the algorithm and its
argument).  A shortest reason why two states are *not* bisimilar is
:func:`coalg.bisim.witness.distinguishing_witness`.  No result depends on set
or dict iteration order or on ``PYTHONHASHSEED``.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Sequence
from typing import Any

from .acyclic import well_founded
from .buffers import Backend, use_numpy
from .engine import refined
from .lts import LTS, restrict

__all__ = ["bisimilar_states", "coarsest_partition", "naive_partition", "refine"]


def refine(lts: LTS, *, backend: Backend = "auto") -> array[int]:
    """The coarsest stable partition of ``lts`` as an ``array('i')`` of canonical block ids.

    Blocks are numbered 0, 1, 2, ... in order of their smallest state.
    ``backend`` selects ``"numpy"``, ``"python"`` or ``"auto"`` (NumPy if it is
    installed and the input has at least
    :data:`~coalg.bisim.buffers.NUMPY_MIN_SIZE` states plus transitions); all give
    the same result.  Acyclic inputs are settled in one successors-first pass
    (:mod:`coalg.bisim.acyclic`); the rest by the worklist engine
    (:mod:`coalg.bisim.engine`).

    >>> lts = LTS.build(4, None, [(0, 0, 1), (2, 0, 3)])
    >>> refine(lts).tolist()
    [0, 1, 0, 1]
    """
    use_np = use_numpy(backend, lts.n_states + lts.n_transitions)
    part = well_founded(lts, use_np)
    if part is not None:
        return part
    return refined(lts, use_np).canonical()


def coarsest_partition(
    n_states: int,
    initial: Sequence[int] | None,
    transitions: Iterable[tuple[int, int, int]],
) -> list[int]:
    """Strong bisimilarity classes: block id per state, canonical.

    Parameters
    ----------
    n_states
        Number of states ``0 .. n_states - 1``.
    initial
        ``initial[s]`` is the observation class of ``s`` (any ints); states with
        different values are never equivalent.  ``None``: all equal.
    transitions
        ``(src, label, dst)`` triples of ints, labels ``>= 0``.

    Returns
    -------
    list of int
        ``result[s]`` is the block of ``s``; blocks are numbered 0, 1, 2, ...
        in order of their smallest state, so the result does not depend on the
        order of ``transitions`` (nor on ``PYTHONHASHSEED``).

    Examples
    --------
    Two chains ``0 -a-> 1`` and ``2 -a-> 3 -a-> 4`` of different lengths:

    >>> coarsest_partition(5, [0] * 5, [(0, 0, 1), (2, 0, 3), (3, 0, 4)])
    [0, 1, 2, 0, 1]

    Observations split states that behave alike otherwise:

    >>> coarsest_partition(3, [7, 7, 9], [])
    [0, 0, 1]
    """
    return refine(LTS.build(n_states, initial, transitions)).tolist()


def naive_partition(
    n_states: int,
    initial: Sequence[int] | None,
    transitions: Iterable[tuple[int, int, int]],
) -> list[int]:
    """Reference: naive round-based refinement, exact and obviously correct (the tests' oracle).

    Round ``r`` splits every block by the set of ``(label, block of target)``
    pairs under round ``r - 1``'s partition, until nothing changes.
    ``Θ(n · m)`` on chains -- use :func:`coarsest_partition` for real inputs.

    >>> naive_partition(5, None, [(0, 0, 1), (2, 0, 3), (3, 0, 4)])
    [0, 1, 2, 0, 1]
    """
    n = n_states
    succ: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    for s, a, t in transitions:
        succ[s].append((a, t))
    init = [0] * n if initial is None else list(initial)
    ids: dict[Any, int] = {}
    blk = [ids.setdefault(v, len(ids)) for v in init]
    count = len(ids)
    while True:
        ids = {}
        new = [
            ids.setdefault((blk[s], frozenset((a, blk[t]) for a, t in succ[s])), len(ids))
            for s in range(n)
        ]
        if len(ids) == count:
            return new
        blk, count = new, len(ids)


def bisimilar_states(lts: LTS, s: int, t: int, *, backend: Backend = "auto") -> bool:
    """Are states ``s`` and ``t`` strongly bisimilar?  (Refines only what they can reach.)

    >>> lts = LTS.build(5, None, [(0, 0, 1), (2, 0, 3), (3, 0, 4)])
    >>> bisimilar_states(lts, 0, 3), bisimilar_states(lts, 0, 2)
    (True, False)
    """
    use_np = use_numpy(backend, lts.n_states + lts.n_transitions)
    sub, (a, b), _ = restrict(lts, [s, t], use_np)
    part = refine(sub, backend="numpy" if use_np else "python")
    return part[a] == part[b]
