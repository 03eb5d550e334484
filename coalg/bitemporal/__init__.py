"""Bitemporal observations (paper §3.5, §5.8, §7.1): histories, the recording map,
Theorem 5.27 and Proposition 7.1 as proofs-as-data, the ``Timeline`` emulation."""

from typing import TYPE_CHECKING

from .._lazy import attach

__getattr__, __dir__, __all__ = attach(__name__, __file__)

if TYPE_CHECKING:
    from .core import (
        History,
        HistoryError,
        Proof,
        ProofStep,
        RecordedCall,
        Recording,
        Region,
        TimedCall,
        Timeline,
        TimezonePitfall,
        VersionEntry,
        as_of,
        belief_regions,
        believed,
        channel,
        check_3_20,
        check_5_27,
        check_7_1,
        clock_to_datetime,
        contrast_example,
        in_hist_rec,
        lineage_unchanged,
        meeting_example,
        naive_timezone_pitfall,
        non_degeneracy_witness,
        proposition_7_1,
        random_history,
        record,
        recording,
        recover_valid_times,
        separates_on,
        shifted,
        sim_vt,
        theorem_5_27,
        timeline_of,
        valid_at,
    )
