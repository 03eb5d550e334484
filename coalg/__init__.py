"""coalg — the paper *Coalgebraic Memory*, executable.

A small, pure, typed library with one counterpart for each definition of the
paper, organised like the paper.  Stores are immutable values; every operation
returns a new store.  Undeclared enumeration orders are the explicit parameter
θ (:class:`Theta`), never Python's hash order, so every output is the same under
any ``PYTHONHASHSEED``.

The house: one subpackage per concept, each with a face (its ``__init__``)
that hands on its public names; the layers run from the bottom up, and no
package imports one above it.

==========================  ====================================================
package                     what it holds (paper sections)
==========================  ====================================================
:mod:`coalg.model`          identifiers, records, stores, the alphabet, θ, the
                            store and lineage coalgebras, the JSON format, the
                            ContextFS and repaired realisations, presets
                            (§3.1–§3.4, §6.2)
:mod:`coalg.bisim`          labelled transition systems, partition refinement,
                            distinguishing formulas, Aldebaran ``.aut`` files,
                            bisimilarity of stores (§2.2, Def. 5.23)
:mod:`coalg.laws`           the laws L1–L7 and schema S1–S4 checked by
                            exploration, one module per law family with the
                            results of §5 about it (§3.6, §3.7, §5)
:mod:`coalg.bitemporal`     histories, valid-time observations, Theorem 5.27 and
                            Proposition 7.1 as proofs-as-data (§3.5, §5.8, §7.1)
:mod:`coalg.composition`    disjoint union, the frame property, prefix
                            collisions, tenants (§6)
:mod:`coalg.contextfs`      the released ContextFS 0.2.35 driven offline, its
                            runtime observations, the read-only audit
:mod:`coalg.conformance`    the laws as a conformance kit for any memory layer
                            (``coalg conform``)
:mod:`coalg.open_problems`  the six open problems as executable proposals (§9)
:mod:`coalg.paper`          the registry of numbered items: verdicts, the
                            witnesses, the traceability table
:mod:`coalg.viz`            figures for the book (needs matplotlib)
:mod:`coalg.widgets`        the explorers (needs ipywidgets)
:mod:`coalg.cli`            ``python -m coalg``: one module per subcommand
==========================  ====================================================

Every name below is importable from the package (``from coalg import
run``), but the modules behind them are loaded on first use (PEP 562), so
``import coalg`` -- and with it ``python -m coalg bisim`` -- does not pay for
the laws, results, bitemporal, composition and I/O modules it does not touch.

Example
-------
>>> from coalg import EMPTY, Record, Save, Evolve, run, ancestry, beta_minus, law_table, CONTEXTFS
>>> s = run(EMPTY, [Save(Record("the meeting is at 10")), Evolve("id0001", "the meeting is at 11")]).final
>>> beta_minus(s, "id0002").successors
((<Relation.EVOLVED_FROM: 'evolved_from'>, 'id0001'),)
>>> law_table(CONTEXTFS)["clauses"]["L5"]["holds"]
False
"""

from __future__ import annotations

import lazy_loader

from .errors import CoalgError, InputError

__version__ = "0.1.0"

__all__ = [
    # §3.1
    "Id", "Record", "Relation", "inverse", "ANCESTRY", "DESCENDANT", "LINEAGE", "meta_ancestry",
    "erase_allocation", "Edge", "Store", "EMPTY", "disjoint_union", "mention_disjoint_union",
    "UnionUndefined", "fibre", "restrict",
    # §3.2
    "Save", "SaveAt", "Recall", "RecallPrefix", "Delete", "Evolve", "Merge", "Split",
    "Supersede", "Link", "named", "creates", "is_fragment", "Allocation", "Oracle", "Theta",
    "DEFAULT_THETA", "Call", "uuid_like_ids",
    # §3.3
    "step", "alpha", "run", "Err", "Nothing", "Found", "Created",
    "Wrote", "Flag",
    # §3.4
    "beta", "beta_minus", "unfold", "ancestry", "descendants",
    # bisimilarity
    "behaviour_classes", "bisimilar", "ancestry_bisimilar", "distinguish",
    "allocation_blind_bisimilar", "allocation_blind_relation", "allocation_blind_witness",
    # realisations, laws, results
    "Realisation", "CONTEXTFS", "REPAIRED", "law_table",
    "known_items", "run_item",
    # time and composition
    "History", "record", "believed", "as_of", "valid_at", "Timeline",
    "frame_property",
    # the errors (coalg.errors: CoalgError, InputError) stay importable here, not listed
]

__getattr__, __dir__, _ = lazy_loader.attach_stub(__name__, __file__)
