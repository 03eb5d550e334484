"""The paper's six open problems (its §9) as executable proposals.

Each open problem names a criterion for resolution.  For each, this package
gives a proposal (a coalg function or realisation), a stated law, the evidence
that the proposal satisfies it, and a counterexample for each rejected
alternative.  ``python -m coalg witness OP1`` … ``OP6`` runs :func:`check_op1` …
:func:`check_op6`; the tests are ``tests/open_problems/test_open_problems.py``.

====  ============================================  ===============================
item  proposal                                      module
====  ============================================  ===============================
OP1   merged valid time = latest source valid time  :mod:`~coalg.open_problems.op1`
OP2   order-blind merge, provenance = edges         :mod:`~coalg.open_problems.op2`
OP3   reconcile metadata and edges (L2, L3)         :mod:`~coalg.open_problems.op3`
OP4   namespace-scoped resolution (frame property)  :mod:`~coalg.open_problems.op4`
OP5   lineage graph → consistent timelines          :mod:`~coalg.open_problems.op5`
OP6   tombstone deletion (shape-stable, erasing)    :mod:`~coalg.open_problems.op6`
====  ============================================  ===============================

OP3's procedure on a ContextFS database file is
:mod:`~coalg.open_problems.op3_database`.  OP1 and OP2 together are one
realisation, :data:`PROPOSED` (REPAIRED with the proposed merge).  Every
verdict is of kind ``property`` and nature ``proposal``: ``holds`` says that
the proposal satisfied its law everywhere explored *and* that every rejected
alternative's counterexample was exhibited; the witness carries both.

>>> v = check_op2()
>>> v.item, v.kind, v.holds, sorted(v.witness["rejected"])
('OP2', 'property', True, ['contextfs', 'id-order', 'repaired'])
"""

from __future__ import annotations

from typing import Any

from ..paper import Verdict, paper_item
from . import op1, op2, op3, op4, op5, op6
from .op3 import reconcile
from .op3_database import reconcile_database
from .op4 import scoped
from .op5 import timelines
from .op6 import SOFT_DELETE
from .proposed import PROPOSED, canonical_key, merge_valid_time, provenance

__all__ = [
    "PROPOSED",
    "SOFT_DELETE",
    "canonical_key",
    "check_op1",
    "check_op2",
    "check_op3",
    "check_op4",
    "check_op5",
    "check_op6",
    "merge_valid_time",
    "provenance",
    "reconcile",
    "reconcile_database",
    "scoped",
    "timelines",
]


def _verdict(item: str, result: tuple[bool, int, dict[str, Any], str]) -> Verdict:
    holds, explored, witness, summary = result
    return Verdict(item, "property", holds, explored, witness, summary)


@paper_item("OP1", "The second axis: a merge rule for valid time", kind="property", nature="proposal")
def check_op1() -> Verdict:
    """Open problem 1: the latest-source rule is sound and complete for Obs^vt; earliest, interval, as-given fail."""
    return _verdict("OP1", op1.verdict())


@paper_item("OP2", "A merge that reads only what it is given", kind="property", nature="proposal")
def check_op2() -> Verdict:
    """Open problem 2: the order-blind merge is commutative and allocation-blind up to ≈; the others are not."""
    return _verdict("OP2", op2.verdict())


@paper_item("OP3", "One ancestry representation: reconciling existing stores", kind="property", nature="proposal")
def check_op3() -> Verdict:
    """Open problem 3: reconcile() gives L2 and L3, idempotently and conservatively; other policies fail."""
    return _verdict("OP3", op3.verdict())


@paper_item("OP4", "Identifier resolution and composition", kind="property", nature="proposal")
def check_op4() -> Verdict:
    """Open problem 4: namespace-scoped resolution and the frame property — where it holds, where it cannot."""
    return _verdict("OP4", op4.verdict())


@paper_item("OP5", "Persisting the version model", kind="property", nature="proposal")
def check_op5() -> Verdict:
    """Open problem 5: Φ takes L1–L3 stores to consistent, covering, append-only timelines."""
    return _verdict("OP5", op5.verdict())


@paper_item("OP6", "Deletion: stores with tombstones", kind="property", nature="proposal")
def check_op6() -> Verdict:
    """Open problem 6: tombstone deletion keeps the erased ancestry shape and leaves nothing recoverable."""
    return _verdict("OP6", op6.verdict())
