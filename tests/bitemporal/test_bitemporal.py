"""Bitemporal observations: Definition 3.20, Theorem 5.27, Proposition 7.1 and Timeline.at (Listing 5).

* the registered items 3.20, 5.27 and 7.1 and what their verdicts assert;
* Theorem 5.27 as a property over arbitrary histories (any letters) on the ContextFS model;
* Proposition 7.1 as a property over recording histories on the repaired realisation;
* the semantics of ``believed`` / ``as_of`` / ``valid_at`` against direct reference definitions;
* histories (validation, JSON), the valid-time channel κ, and the proof data;
* ``Timeline.at`` reproduced from Listing 5 and its naive-timezone pitfall.
"""

from __future__ import annotations

import json
import os
import pydoc
import random
import time
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from budget import budget
from hypothesis import given
from hypothesis import strategies as st
from strategies import records, stores, words

import coalg.bitemporal
from coalg.bitemporal import (
    History,
    HistoryError,
    RecordedPair,
    Region,
    TimedCall,
    Timeline,
    VersionEntry,
    as_of,
    belief_regions,
    believed,
    channel,
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
from coalg.bitemporal.timeline import CST
from coalg.model import (
    CONTEXTFS,
    DESCENDANT,
    REPAIRED,
    Created,
    Evolve,
    Merge,
    Recall,
    Record,
    Relation,
    Save,
    SaveAt,
    Split,
    Supersede,
)
from coalg.model.store import EMPTY, Store
from coalg.paper import get_item, run_item

PROPERTY = budget(40)
NO_VT = records(with_metadata=False).map(lambda r: r.evolve(valid_time=None))


@st.composite
def histories(draw: st.DrawFn, max_size: int = 5) -> History:
    """Any history: a word of the whole alphabet (mutations and prefix naming included) with random times."""
    word = draw(words(EMPTY, max_size, record_strategy=NO_VT))
    gaps = draw(st.lists(st.integers(1, 3), min_size=len(word), max_size=len(word)))
    vts = draw(st.lists(st.integers(-3, 12), min_size=len(word), max_size=len(word)))
    tts = [sum(gaps[: k + 1]) for k in range(len(word))]
    return History(tuple(TimedCall(a, tt, tv) for a, tt, tv in zip(word, tts, vts)))


def recording_histories(max_len: int = 6) -> st.SearchStrategy[History]:
    """Histories of Hist_rec (saves and derivations of existing records, one namespace per merge)."""
    return st.tuples(st.randoms(use_true_random=False), st.integers(1, max_len)).map(
        lambda rn: random_history(rn[0], rn[1], recording_only=True)
    )


# --------------------------------------------------------------------------- registered items


def test_item_3_20() -> None:
    v = run_item("3.20")
    assert get_item("3.20").nature == "definition"
    assert v.kind == "property" and v.holds is True and v.explored > 0
    assert all(v.witness["checks"].values())
    # amendment (a): a recall pair records equal stores on every realisation, so separation needs Hist_rec
    assert v.witness["recall_pair"]["equal_on_every_realisation"] is True
    assert v.witness["non_degeneracy_on_repaired"] is not None
    json.dumps(v.to_json())


def test_item_5_27() -> None:
    v = run_item("5.27")
    item = get_item("5.27")
    assert item.nature == "theorem" and "instantiation premise" in v.summary
    assert v.holds is True and v.explored >= 300
    w = v.witness
    assert w["equal"] is True and w["in_hist_rec"] is True
    assert w["psi_h"] == w["psi_h_prime"]
    assert w["h"]["calls"][0]["vt"] != w["h_prime"]["calls"][0]["vt"]
    assert v.details["proof"]["conclusion"] is True
    json.dumps(v.to_json())


def test_item_7_1() -> None:
    v = run_item("7.1")
    assert get_item("7.1").nature == "theorem"
    assert v.kind == "property" and v.holds is True and v.explored >= 100
    nd = v.witness["non_degeneracy"]
    assert nd["tt"] == 1 and nd["tv"] == 1
    assert list(nd["obs_h"]) == ["id0001"] and nd["obs_h_prime"] == {}
    assert v.witness["example"]["conclusion"] is True
    json.dumps(v.to_json())


# --------------------------------------------------------------------------- Theorem 5.27


@PROPERTY
@given(histories(), st.integers(-4, 4).filter(bool))
def test_theorem_5_27_any_history(h: History, by: int) -> None:
    """Ψ_ContextFS(h) = Ψ_ContextFS(h′) for every h and every h′ ∼vt h: Ψ forgets valid time."""
    h2 = shifted(h, by)
    assert sim_vt(h, h2)
    assert record(h) == record(h2)
    if h.calls:
        proof = theorem_5_27(h, h2)
        assert proof.conclusion
        json.dumps(proof.to_json())


@PROPERTY
@given(recording_histories())
def test_no_recovery_map_on_contextfs(h: History) -> None:
    """On Hist_rec the pair (h, shifted h) has equal stores but different vt: no V with V∘Ψ = vt."""
    assert in_hist_rec(h, CONTEXTFS)
    assert record(h) == record(shifted(h)) and h.vt() != shifted(h).vt()
    assert non_degeneracy_witness(believed, CONTEXTFS, [(h, shifted(h))]) is None


def test_theorem_5_27_proof_steps() -> None:
    h, h2 = meeting_example()
    p = theorem_5_27(h, h2)
    titles = [s.title for s in p.steps]
    assert titles == [
        "Two histories that differ only in valid time",
        "The valid-time channel κ",
        "Recording, call by call",
        "The results are equal",
        "No function of the store can tell them apart",
        "Hence L6 fails",
    ]
    calls = p.steps[2].data["calls"]
    assert [c["stores_equal"] for c in calls] == [True, True]
    assert calls[1]["store_h"] == calls[1]["store_h_prime"]
    assert all(row["equal"] for row in p.steps[4].data["observers"])
    assert p.steps[4].data["no_recovery_map"] is True
    assert json.loads(p.dumps())["conclusion"] is True


def test_theorem_5_27_premise_fails_on_repaired() -> None:
    """The theorem rests on κ being the identity: on a realisation with a channel its proof does not go through."""
    h, h2 = meeting_example()
    p = theorem_5_27(h, h2, realisation=REPAIRED)
    assert p.conclusion is False
    assert p.steps[3].title == "The results differ"


@pytest.mark.parametrize("proof", [theorem_5_27, proposition_7_1])
def test_both_proofs_reject_bad_pairs_alike(proof: Any) -> None:
    """The two proofs validate their pair in one place (RecordedPair.of), with the same messages."""
    h, _ = meeting_example()
    with pytest.raises(HistoryError, match="empty history"):
        proof(History())
    with pytest.raises(HistoryError, match="differ from h in some valid time"):
        proof(h, h)
    with pytest.raises(HistoryError, match="same calls and transaction times"):
        proof(h, History.of((Save(Record("x")), 1, 0)))


def test_recorded_pair_is_what_both_proofs_show() -> None:
    h, h2 = meeting_example()
    for real, proof in ((CONTEXTFS, theorem_5_27), (REPAIRED, proposition_7_1)):
        pair = RecordedPair.of(h, h2, real)
        assert pair.realisation is real and pair.in_hist_rec
        assert pair.finals == (record(h, real), record(h2, real))
        first = proof(h, h2, realisation=real).steps[0].data
        assert {k: first[k] for k in ("h", "h_prime", "calls")} == pair.histories_json()
        assert [c["vt_differs"] for c in first["calls"]] == [False, True]
    pair = RecordedPair.of(h, h2, REPAIRED)
    assert pair.issued_equal() == [True, False]  # κ writes τv: the letters part where τv does
    assert all("equal" not in row for row in pair.issued_json(compare=False))
    assert [c["stores_equal"] for c in pair.calls_json()] == [True, False]
    assert RecordedPair.of(h).h_prime == shifted(h) and RecordedPair.of(h).realisation is CONTEXTFS


def test_realisation_defaults_are_contextfs_and_print_stably() -> None:
    """``realisation=None`` means the ContextFS model, and no signature shows a memory address."""
    h, _ = meeting_example()
    assert recording(h).realisation == "contextfs"
    assert record(h) == record(h, CONTEXTFS) and in_hist_rec(h) == in_hist_rec(h, CONTEXTFS)
    assert theorem_5_27(h).to_json() == theorem_5_27(h, realisation=CONTEXTFS).to_json()
    assert "0x" not in pydoc.render_doc(coalg.bitemporal.record)
    for name in coalg.bitemporal.__all__:
        assert "0x" not in pydoc.render_doc(getattr(coalg.bitemporal, name)), name


# --------------------------------------------------------------------------- Proposition 7.1


@PROPERTY
@given(recording_histories())
def test_proposition_7_1_separation(h: History) -> None:
    """V∘Ψ^vt = vt on Hist_rec, and h ∼vt h′ with vt(h) ≠ vt(h′) record different stores."""
    rec = recording(h, REPAIRED)
    assert rec.in_hist_rec
    assert recover_valid_times(rec.final) == h.vt()
    h2 = shifted(h, 2)
    assert record(h2, REPAIRED) != rec.final
    assert recover_valid_times(record(h2, REPAIRED)) == h2.vt()
    assert non_degeneracy_witness(believed, REPAIRED, [(h, h2)]) is not None
    assert all(lineage_unchanged(h, REPAIRED, h2).values())


def test_proposition_7_1_proof() -> None:
    h, h2 = meeting_example()
    p = proposition_7_1(h, h2)
    assert p.conclusion
    data = {s.title: s.data for s in p.steps}
    assert data["V recovers valid time"]["V_psi_h"] == [1, 5]
    assert data["V recovers valid time"]["V_psi_h_prime"] == [1, 2]
    json.dumps(p.to_json())


def test_separation_needs_every_call_to_take_the_callers_value() -> None:
    """Spec §5.11 review: a call whose valid time is never written loses it (here: a non-creating call)."""
    ok, n, bad = separates_on(
        REPAIRED, [History.of((Save(Record("r")), 1, 1), (Recall("id0001"), 2, 7))]
    )
    assert (ok, n, bad) == (True, 0, None)  # not in Hist_rec: nothing to check
    ok, n, _ = separates_on(CONTEXTFS, [History.of((Save(Record("r")), 1, 1))])
    assert (ok, n) == (False, 1)


def test_recover_valid_times_errors() -> None:
    with pytest.raises(ValueError, match="without created_at"):
        recover_valid_times(Store.of({"a": Record("x")}))
    with pytest.raises(ValueError, match="disagree"):
        recover_valid_times(
            Store.of(
                {
                    "a": Record("x", created_at=1, valid_time=1),
                    "b": Record("y", created_at=1, valid_time=2),
                }
            )
        )
    assert recover_valid_times(EMPTY) == ()


def test_split_stores_the_valid_time_in_every_part() -> None:
    h = History.of((Save(Record("r")), 1, 0), (Split("id0001", ("p", "q", "s")), 4, -2))
    s = record(h, REPAIRED)
    assert [s.records[i].valid_time for i in ("id0002", "id0003", "id0004")] == [-2, -2, -2]
    assert recover_valid_times(s) == (0, -2)


# --------------------------------------------------------------------------- believed, as_of, valid_at


def _asserted_ref(s: Store, tt: int, tv: int) -> list[str]:
    out = []
    for i, r in s.records.items():
        v = r.valid_time if r.valid_time is not None else r.created_at
        if r.created_at is not None and r.created_at <= tt and v is not None and v <= tv:
            out.append(i)
    return out


def _current_ref(s: Store, tt: int, tv: int) -> list[str]:
    def vt(r: Record) -> int | None:
        return r.valid_time if r.valid_time is not None else r.created_at

    out = []
    for i in _asserted_ref(s, tt, tv):
        closed = False
        for e in s.out_edges(i, DESCENDANT):
            rj = s.records.get(e.target)
            if (
                rj is not None
                and rj.created_at is not None
                and rj.created_at <= tt
                and vt(rj) is not None
                and vt(rj) <= tv
            ):  # type: ignore[operator]
                closed = True
        if not closed:
            out.append(i)
    return out


def _grid_check(s: Store) -> None:
    times = sorted(
        {t for r in s.records.values() for t in (r.created_at, r.valid_time) if t is not None} | {0}
    )
    grid = range(min(times) - 1, max(times) + 2)
    for tt in grid:
        for tv in grid:
            assert list(believed(s, tt, tv)) == _asserted_ref(s, tt, tv)
            assert list(believed(s, tt, tv, mode="current")) == _current_ref(s, tt, tv)


@PROPERTY
@given(recording_histories())
def test_believed_matches_its_definition_on_recorded_stores(h: History) -> None:
    _grid_check(record(h, REPAIRED))
    _grid_check(record(h, CONTEXTFS))


@PROPERTY
@given(stores(max_records=4, max_edges=5, labels=list(DESCENDANT) + [Relation.SUPERSEDES]))
def test_believed_matches_its_definition_on_any_store(s: Store) -> None:
    _grid_check(s)


def test_believed_asserted_and_current() -> None:
    h, h2 = meeting_example()
    late = record(h2, REPAIRED)  # "moved at 2", learned at 5
    assert [r.content for r in believed(late, 4, 3).values()] == ["meeting at 3pm"]
    assert [r.content for r in believed(late, 5, 3).values()] == [
        "meeting at 3pm",
        "meeting at 4pm",
    ]
    assert [r.content for r in believed(late, 5, 3, mode="current").values()] == ["meeting at 4pm"]
    assert [r.content for r in believed(late, 5, 1, mode="current").values()] == ["meeting at 3pm"]
    fresh = record(h, REPAIRED)  # changed at 5
    assert [r.content for r in believed(fresh, 5, 3, mode="current").values()] == ["meeting at 3pm"]
    with pytest.raises(ValueError):
        believed(late, 5, 3, mode="latest")  # type: ignore[arg-type]


def test_belief_regions_staircase() -> None:
    s = Store.of(
        {
            "a": Record("v1", created_at=1, valid_time=0),
            "b": Record("v2", created_at=4, valid_time=6),
            "c": Record("v3", created_at=7, valid_time=3),
        },
        [("a", Relation.EVOLVED_INTO, "b"), ("a", Relation.EVOLVED_INTO, "c")],
    )
    assert [g for g in belief_regions(s, mode="current") if g.id == "a"] == [
        Region("a", 1, 4, 0, None),
        Region("a", 4, 7, 0, 6),
        Region("a", 7, None, 0, 3),
    ]
    # a successor valid no later than the original replaces it entirely from then on
    s2 = Store.of(
        {
            "a": Record("v1", created_at=1, valid_time=5),
            "b": Record("v2", created_at=3, valid_time=2),
        },
        [("a", Relation.EVOLVED_INTO, "b")],
    )
    assert [g for g in belief_regions(s2, mode="current") if g.id == "a"] == [
        Region("a", 1, 3, 5, None)
    ]


def test_as_of_and_valid_at() -> None:
    _, h2 = meeting_example()
    s = record(h2, REPAIRED)
    assert (
        list(as_of(s, 0)) == []
        and list(as_of(s, 1)) == ["id0001"]
        and list(as_of(s, 5)) == ["id0001", "id0002"]
    )
    assert list(valid_at(s, 1)) == ["id0001"]
    assert list(valid_at(s, 2, mode="current")) == ["id0002"]
    assert valid_at(EMPTY, 3) == {}
    assert as_of(Store.of({"a": Record("no clock")}), 10) == {}


# --------------------------------------------------------------------------- histories and the channel κ


def test_history_validation_and_json() -> None:
    with pytest.raises(HistoryError, match="strictly increasing"):
        History.of((Save(Record("x")), 3, 0), (Save(Record("y")), 2, 0))
    with pytest.raises(HistoryError, match="already carries a valid time"):
        History.of((Save(Record("x", valid_time=4)), 1, 0))
    with pytest.raises(HistoryError, match="already carries a valid time"):
        History.of((Evolve("a", "b", valid_time=4), 1, 0))
    with pytest.raises(HistoryError, match="integers"):
        History.of((Save(Record("x")), 1.5, 0))  # type: ignore[arg-type]
    h = random_history(random.Random(7), 6, recording_only=False)
    text = json.dumps(h.to_json())
    assert History.from_json(json.loads(text)) == h
    with pytest.raises(HistoryError):
        History.from_json({"format": "coalg-store"})
    with pytest.raises(HistoryError):
        h.with_valid_times((1,))
    with pytest.raises(HistoryError):
        shifted(h, 0)


def test_channel() -> None:
    e, m, sp = Evolve("a", "c"), Merge(("a", "b")), Split("a", ("p", "q"))
    for a in (e, m, sp, Save(Record("x")), SaveAt("a", Record("x")), Supersede("a", "b")):
        assert channel(CONTEXTFS, a, 9) == a
    assert channel(REPAIRED, e, 9).valid_time == 9  # type: ignore[union-attr]
    assert channel(REPAIRED, m, 9).valid_time == 9  # type: ignore[union-attr]
    assert channel(REPAIRED, sp, 9).valid_time == 9  # type: ignore[union-attr]
    assert channel(REPAIRED, Save(Record("x")), 9).record.valid_time == 9  # type: ignore[union-attr]
    assert channel(REPAIRED, Supersede("a", "b"), 9) == Supersede("a", "b")


def test_recording_identifiers_and_clock() -> None:
    h = History.of(
        (Save(Record("a")), 3, 0), (Save(Record("b")), 8, 0), (Merge(("id0001", "id0002")), 10, 1)
    )
    for rz in (CONTEXTFS, REPAIRED):
        rec = recording(h, rz)
        assert [st_.allocation.ids for st_ in rec.steps] == [("id0001",), ("id0002",), ("id0003",)]
        assert [st_.allocation.clock for st_ in rec.steps] == [3, 8, 10]
        assert all(isinstance(st_.output, Created) for st_ in rec.steps) and rec.in_hist_rec
        json.dumps([st_.to_json() for st_ in rec.steps])
    assert record(History()) == EMPTY
    # a supplied identifier supply is used in order
    h3 = History.of((Save(Record("a")), 1, 0), (Evolve("x1", "b"), 2, 0))
    assert sorted(record(h3, supply=["x1", "x2", "x3"]).dom()) == ["x1", "x2"]


def test_random_history_is_deterministic_and_recording() -> None:
    a = [random_history(random.Random(3), 8) for _ in range(2)]
    assert a[0] == a[1]
    for seed in range(30):
        h = random_history(random.Random(seed), 8)
        assert in_hist_rec(h, CONTEXTFS) and in_hist_rec(h, REPAIRED)


# --------------------------------------------------------------------------- Timeline.at (Listing 5)


def _t(hour: int, minute: int = 0, tz: timezone | None = UTC) -> datetime:
    return datetime(2026, 1, 29, hour, minute, tzinfo=tz)


def test_timeline_at_listing_5() -> None:
    tl = Timeline()
    for h, c in ((12, "c"), (9, "a"), (10, "b")):
        tl.add(VersionEntry(_t(h), c))
    assert [e.content for e in tl.entries] == ["a", "b", "c"]  # kept sorted by add
    assert tl.at(_t(8)) is None  # before the first entry
    assert tl.at(_t(9)).content == "a"  # ≤, not <
    assert tl.at(_t(11, 59)).content == "b"
    assert tl.at(_t(23)).content == "c"
    assert tl.at(_t(9, 30, tz=None)).content == "a"  # naive query read as UTC
    assert (
        tl.at(datetime(2026, 1, 29, 10, 30, tzinfo=timezone(timedelta(hours=1)))).content == "a"
    )  # 09:30Z
    tl.add(VersionEntry(_t(10), "b2"))  # equal timestamps: later add goes after
    assert [e.content for e in tl.entries] == ["a", "b", "b2", "c"]
    assert tl.at(_t(10)).content == "b2" and len(tl) == 4


def test_timeline_mixes_naive_and_aware_entries() -> None:
    tl = Timeline([VersionEntry(_t(10, tz=None), "naive"), VersionEntry(_t(9), "aware")])
    assert [e.content for e in tl.entries] == ["aware", "naive"]
    assert tl.at(_t(10)).content == "naive"


def test_naive_timezone_pitfall() -> None:
    west = naive_timezone_pitfall()  # UTC−6, the zone of a93035d's commit
    assert west.local_zone == CST.tzname(None)
    assert west.created_true_utc == _t(16)
    assert (west.timeline_answer, west.correct_answer, west.wrong) == (
        "v1: meeting at 3pm",
        None,
        True,
    )
    east = naive_timezone_pitfall(timezone(timedelta(hours=2)))
    assert (east.timeline_answer, east.correct_answer, east.wrong) == (
        None,
        "v1: meeting at 3pm",
        True,
    )
    assert naive_timezone_pitfall(UTC).wrong is False
    json.dumps(west.to_json())


def test_pitfall_ignores_the_machine_zone(monkeypatch: pytest.MonkeyPatch) -> None:
    if not hasattr(time, "tzset"):
        pytest.skip("time.tzset is not available")
    before = naive_timezone_pitfall().to_json()
    try:
        monkeypatch.setenv("TZ", "Asia/Tokyo")
        time.tzset()
        assert naive_timezone_pitfall().to_json() == before
    finally:
        monkeypatch.undo()
        time.tzset()
    assert os.environ.get("TZ") != "Asia/Tokyo"


def test_timeline_of_and_contrast() -> None:
    h, _ = meeting_example()
    tl = timeline_of(record(h), "id0001")
    assert [e.version_id for e in tl.entries] == ["id0001", "id0002"]
    assert tl.at(clock_to_datetime(4)).content == "meeting at 3pm"
    assert tl.at(clock_to_datetime(5)).content == "meeting at 4pm"
    c = contrast_example()
    assert c["contextfs"]["stores_equal"] is True
    assert c["contextfs"]["timeline_h"] == c["contextfs"]["timeline_h_prime"]
    assert all(q["h"] == q["h_prime"] for q in c["contextfs"]["believed_current"])
    rep = {(q["tt"], q["tv"]): (q["h"], q["h_prime"]) for q in c["repaired"]["believed_current"]}
    assert c["repaired"]["stores_equal"] is False
    assert rep[(4, 3)] == (["meeting at 3pm"], ["meeting at 3pm"])  # not yet learned
    assert rep[(5, 3)] == (
        ["meeting at 3pm"],
        ["meeting at 4pm"],
    )  # a change now vs a late fact about the past
    # the single-axis timeline is the same for both histories even on the repaired realisation
    assert c["repaired"]["timeline_h"] == c["repaired"]["timeline_h_prime"]
    json.dumps(c)
