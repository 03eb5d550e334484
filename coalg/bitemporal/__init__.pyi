"""Type stub of the package face: the names it hands on and the module each comes from.

A type checker reads this file; at run time ``lazy_loader.attach_stub`` reads the
same imports and loads a module the first time one of its names is asked for."""

from .checks import check_3_20, check_5_27, check_7_1
from .histories import History, HistoryError, TimedCall, random_history, shifted, sim_vt
from .meeting import contrast_example, meeting_example
from .observations import Mode, Region, as_of, belief_regions, believed, valid_at
from .proofs import Proof, ProofStep, RecordedPair
from .recorder import RecordedCall, Recording, channel, in_hist_rec, record, recording
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

__all__ = [
    "check_3_20",
    "check_5_27",
    "check_7_1",
    "History",
    "HistoryError",
    "TimedCall",
    "random_history",
    "shifted",
    "sim_vt",
    "contrast_example",
    "meeting_example",
    "Mode",
    "Region",
    "as_of",
    "belief_regions",
    "believed",
    "valid_at",
    "Proof",
    "ProofStep",
    "RecordedPair",
    "RecordedCall",
    "Recording",
    "channel",
    "in_hist_rec",
    "record",
    "recording",
    "lineage_unchanged",
    "proposition_7_1",
    "non_degeneracy_witness",
    "recover_valid_times",
    "separates_on",
    "Timeline",
    "TimezonePitfall",
    "VersionEntry",
    "clock_to_datetime",
    "naive_timezone_pitfall",
    "timeline_of",
    "theorem_5_27",
]
