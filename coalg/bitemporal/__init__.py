"""Bitemporal observations (paper §3.5, §5.8, §7.1): histories, the recording map,
Theorem 5.27 and Proposition 7.1 as proofs-as-data, the ``Timeline`` emulation.

The temporal-database vocabulary (paper §2.3): *valid time* τv is when a fact
holds in the world, *transaction time* τt is when the system recorded it.

==================  ==========================================================
module              what it holds
==================  ==========================================================
``histories``       Def. 3.20: histories h, h ∼vt h′, random histories
``recording_map``   Def. 3.20 (a)–(b): the recording map Ψ_R, the channel κ_R
``observations``    Obs^vt: ``believed``, ``as_of``, ``valid_at``, belief regions
``separation``      Def. 3.20 (c), Prop. 7.1: the recovery map V, non-degeneracy
``proofs``          proofs as data, and the recorded pair h, h′ both proofs walk
``unrecoverable``   Theorem 5.27: valid time is unrecoverable on ContextFS
``repair``          Proposition 7.1: the bitemporal repair
``timeline``        Listing 5: ``Timeline.at`` and its naive-timezone pitfall
``meeting``         §2.3: the meeting example and the single-axis contrast
``checks``          the registered items 3.20, 5.27 and 7.1
==================  ==========================================================

A ``realisation`` argument left at ``None`` means the ContextFS model, except
for :func:`proposition_7_1` and :func:`contrast_example`, which default to the
repaired realisation they are about.
"""

from typing import TYPE_CHECKING

from .._lazy import attach

__getattr__, __dir__, __all__ = attach(__name__, __file__)

if TYPE_CHECKING:
    from .checks import check_3_20, check_5_27, check_7_1
    from .histories import History, HistoryError, TimedCall, random_history, shifted, sim_vt
    from .meeting import contrast_example, meeting_example
    from .observations import Mode, Region, as_of, belief_regions, believed, valid_at
    from .proofs import Proof, ProofStep, RecordedPair
    from .recording_map import RecordedCall, Recording, channel, in_hist_rec, record, recording
    from .repair import lineage_unchanged, proposition_7_1
    from .separation import non_degeneracy_witness, recover_valid_times, separates_on
    from .timeline import (
        Timeline,
        TimezonePitfall,
        VersionEntry,
        clock_to_datetime,
        naive_timezone_pitfall,
        timeline_of,
    )
    from .unrecoverable import theorem_5_27
