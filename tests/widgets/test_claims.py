"""What the explorers and their tours print is true of the states it compares.

Each claim an explorer writes (the ancestry verdict, the bitemporal step and
query, the refinement witness, the merge lab's 5.25 witness) is checked
against reference code written from the definitions (``claims_reference``),
never against the explorer's own helpers; random action sequences drive the
explorers (hypothesis, a fixed seed and a small budget); every frame of every
tour is checked against the state it was recorded from; and the session file a
reader downloads holds the choices made on screen since the last redraw.
"""

from __future__ import annotations

import base64
import html
import itertools
import re
from typing import Any

import pytest
from budget import budget
from hypothesis import HealthCheck, given
from hypothesis import strategies as st

ipywidgets = pytest.importorskip("ipywidgets")
matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")

from claims_reference import ANC, DESC, asserted, differing_fields, lineage_view, reach, with_record
from explorer_helpers import FakeClock, buttons

from coalg.model import Delete, Evolve, Merge, Split, Store
from coalg.widgets.ancestry import AncestryExplorer
from coalg.widgets.bitemporal_stepper import BitemporalStepper
from coalg.widgets.merge_lab import MergeLab
from coalg.widgets.playground import DerivationPlayground
from coalg.widgets.refinement_stepper import RefinementStepper
from coalg.widgets.tour import _plain
from coalg.widgets.tours import ancestry_tour, bitemporal_tour, refinement_tour

BUDGET = budget(25, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _text(fragment: str) -> str:
    return _plain(fragment).replace("\n", " ")


# =========================================================================== the ancestry explorer


def check_ancestry_verdict(ae: AncestryExplorer) -> None:
    """Every sentence of the verdict agrees with the reference on the two stores it compares."""
    verdict = _text(ae.verdict_html())
    st_ = ae.state
    if not ae.calls:
        assert verdict.startswith("No step yet")
        return
    b, a, i = ae.before, ae.after, ae.focus
    letter = ae.calls[-1].letter
    status = {(True, True): "existing", (False, True): "new", (True, False): "deleted",
              (False, False): "absent"}[(i in b.records, i in a.records)]
    assert st_["focus_status"] == status
    anc_b, anc_a = with_record(b, i, ANC), with_record(a, i, ANC)
    desc_b, desc_a = with_record(b, i, DESC), with_record(a, i, DESC)
    assert st_["ancestry_removed"] == sorted(anc_b - anc_a) and st_["ancestry_added"] == sorted(anc_a - anc_b)
    assert st_["descendants_added"] == sorted(desc_a - desc_b)
    assert st_["descendants_removed"] == sorted(desc_b - desc_a)
    same_anc = lineage_view(b, i, ANC) == lineage_view(a, i, ANC)
    same_desc = lineage_view(b, i, DESC) == lineage_view(a, i, DESC)
    assert st_["ancestry_unchanged"] == same_anc and st_["descendants_unchanged"] == same_desc
    derivation = isinstance(letter, Evolve | Merge | Split)
    if status == "new":
        assert f"{i} is new" in verdict and "appeared" in verdict
        assert "Theorem 5.7 speaks only of records that existed" in verdict
        assert "unchanged" not in verdict and "lost" not in verdict and "as Theorem" not in verdict
        others = sorted(anc_a - {i})
        assert f"reaches {', '.join(others) if others else 'no other record'};" in verdict
        return
    if status == "deleted":
        assert f"The focus {i} itself was deleted" in verdict
        assert "grew" not in verdict and "Proposition" not in verdict and "Theorem" not in verdict
        return
    if status == "absent":
        assert f"{i} holds no record, before or after" in verdict and "Theorem" not in verdict
        return
    # an existing focus: one sentence on its ancestry, one on its descendants
    if same_anc:
        assert f"The ancestry ⟦{i}⟧⁻ is unchanged" in verdict
        assert ("as Theorem 5.7 says" in verdict) == derivation
    else:
        assert f"The ancestry ⟦{i}⟧⁻ changed" in verdict and "Theorem 5.7" not in verdict
        for x in sorted(anc_b - anc_a):
            assert x in verdict.split("changed:")[1]
        in_before = reach(b, i, ANC)[0]
        assert ("Proposition 5.2" in verdict) == (isinstance(letter, Delete) and letter.id in in_before)
    if same_desc:
        assert "Its descendants are unchanged." in verdict
    else:
        added = sorted(desc_a - desc_b)
        if added:
            assert f"grew by {', '.join(added)}" in verdict
            assert ("Proposition 5.13" in verdict) == derivation
        else:
            assert "grew" not in verdict and "5.13" not in verdict
        removed = sorted(desc_b - desc_a)
        if removed:
            assert f"lost {', '.join(removed)}" in verdict


ACTIONS = st.lists(st.tuples(st.sampled_from(["select", "evolve", "split", "merge", "delete", "delete_focus",
                                              "reset"]), st.integers(0, 30)), min_size=1, max_size=12)


@BUDGET
@given(start=st.sampled_from(["meeting notes", "lineage", "merge tie", "two tenants"]), actions=ACTIONS)
def test_random_ancestry_sessions_print_only_true_claims(start: str, actions: list[tuple[str, int]]) -> None:
    ae = AncestryExplorer(start)
    handed_out: list[str] = []
    for op, k in actions:
        ids = sorted(ae.after.ids())
        pick = ids[k % len(ids)] if ids else None
        n_calls = len(ae.calls)
        if op == "select" and pick:
            ae.select(pick)
        elif op == "evolve":
            ae.evolve()
        elif op == "split":
            ae.split()
        elif op == "merge":
            ae.merge_with(pick)
        elif op == "delete":
            ae.delete(pick)
        elif op == "delete_focus":
            ae.delete(ae.focus)
        elif op == "reset":
            ae.reset()
            handed_out.clear()
        if len(ae.calls) > n_calls:
            handed_out += list(ae.calls[-1].allocation.ids)
        # identifiers are handed out once in a session, never again after a delete
        assert len(handed_out) == len(set(handed_out)), handed_out
        check_ancestry_verdict(ae)


def test_the_reported_cases_of_a_new_and_a_deleted_focus() -> None:
    ae = AncestryExplorer("meeting notes", focus="id0004")
    assert ae.evolve() and ae.calls[-1].allocation.ids == ("id0008",)
    ae.select("id0008")  # did not exist before the step: it is new, not a counterexample to 5.7
    check_ancestry_verdict(ae)
    assert "changed" not in ae.verdict_html() and ae.state["focus_status"] == "new"
    ae.choose_other("id0008")
    assert ae.delete("id0008")
    check_ancestry_verdict(ae)
    ae.select("id0004")
    assert ae.evolve() and ae.evolve()
    assert [c.allocation.ids for c in ae.calls[-2:]] == [("id0009",), ("id0010",)]  # id0008 is not reused


# =========================================================================== the bitemporal stepper


def check_bitemporal(bs: BitemporalStepper) -> None:
    f = bs.frame
    text = _text(bs.step_html())
    empty = not f.store_h.records and not f.store_h_prime.records
    if "nothing is recorded yet" in text:
        assert empty
        first_call = next(k for k, g in enumerate(bs.frames) if g.title.startswith("Recording"))
        assert bs.position < first_call  # only before the recording is walked
    else:
        m = re.search(r"after call (\d+) of (\d+)", text)
        if m:  # the stores after call k: k calls recorded, no clock reading later than call k's
            k = int(m[1])
            assert f.title.endswith(f"call {k} of {m[2]}")
            times = sorted({r.created_at for r in f.store_h.records.values()})
            assert len(times) == k
        equal = f.store_h == f.store_h_prime
        assert ("— equal." in text or "are equal." in text) == equal
        if not equal:
            for i in sorted(set(f.store_h.records) & set(f.store_h_prime.records)):
                fields = differing_fields(f.store_h.records[i], f.store_h_prime.records[i])
                if "valid_time" in fields:
                    assert f"{i}'s stored valid time is" in text or "its stored valid time is" in text
                if "content" in fields:
                    assert f"{i}'s content is" in text
                if not fields:
                    assert f"{i}'s" not in text
    assert "Hist_rec" not in bs.step_html() and "Obs^vt" not in bs.step_html()
    point = f.query_point
    if "query point" in text:
        assert point is not None and f"τt = {point[0]}, τv = {point[1]}" in text
        assert (bs.tt, bs.tv) == point  # the sliders stand on the point the step names


def check_query_message(bs: BitemporalStepper, message: str) -> None:
    """The sentence after a query compares the two answers truly (what differs: content, valid time)."""
    a1, a2 = bs.answers()
    if bs.mode == "asserted" and bs.realisation.name == "repaired":  # the reference Obs^vt applies
        s1, s2 = bs.stores
        assert a1 == asserted(s1, bs.tt, bs.tv) and a2 == asserted(s2, bs.tt, bs.tv)
    if a1 == a2:
        assert message.endswith("— the same.")
        return
    same_content = sorted(r.content for r in a1.values()) == sorted(r.content for r in a2.values())
    assert ("the same content, but the records differ" in message) == same_content
    for i in sorted(set(a1) & set(a2)):
        fields = differing_fields(a1[i], a2[i])
        assert ("stored valid time is" in message) >= ("valid_time" in fields)
        if "valid_time" in fields:
            assert f"{a1[i].valid_time} in Ψ(h) and {a2[i].valid_time} in Ψ(h′)" in message
    for i in sorted(set(a1) ^ set(a2)):
        assert f"only Ψ(h{'' if i in a1 else '′'}) holds {i}" in message or i in message


@BUDGET
@given(realisation=st.sampled_from(["contextfs", "repaired"]), mode=st.sampled_from(["current", "asserted"]),
       moves=st.lists(st.tuples(st.sampled_from(["next", "back", "goto", "query", "switch"]),
                                st.integers(-2, 9), st.integers(-2, 9)), max_size=12))
def test_random_bitemporal_sessions_print_only_true_claims(realisation: str, mode: str,
                                                           moves: list[tuple[str, int, int]]) -> None:
    bs = BitemporalStepper(realisation=realisation, mode=mode)
    check_bitemporal(bs)
    for op, x, y in moves:
        if op == "next":
            bs.next()
        elif op == "back":
            bs.back()
        elif op == "goto":
            bs.goto(x % len(bs.frames))
        elif op == "switch":
            bs.set_realisation("repaired" if bs.realisation.name == "contextfs" else "contextfs")
        else:
            bs.query(x, y)
            check_query_message(bs, bs.message)
        check_bitemporal(bs)


def test_the_reported_query_on_repaired_says_the_valid_times_differ() -> None:
    bs = BitemporalStepper(realisation="repaired")
    bs.query(7, 7)
    assert "Ψ(h) answers meeting at 4pm; Ψ(h′) answers meeting at 4pm" in bs.message
    assert "the same content, but the records differ: id0002's stored valid time is 5 in Ψ(h) and 2 in Ψ(h′)" \
        in bs.message
    bs.goto(0)  # step 1 draws nothing recorded yet, not the final stores
    assert not bs.frame.store_h.records and "different" not in bs.step_html()


# =========================================================================== refinement and merge witnesses


def _blind_culprits(s: Store, t: Store) -> set[str]:
    """Identifiers whose records differ between s and t beyond what allocation explains (same ids)."""
    return {i for i in set(s.records) & set(t.records)
            if s.records[i].content != t.records[i].content}


def test_the_refinement_and_merge_witnesses_name_the_record_that_differs() -> None:
    rs = RefinementStepper()
    rs.compare("merge a,b vs b,a (5.25)")
    s, t, _ = rs.comparisons[rs.pair_name]
    verdict = _text(rs.verdict_html())
    culprits = _blind_culprits(s, t)
    assert culprits == {"id0006"}  # the merged record; id0001 holds the same record on both sides
    assert s.records["id0001"] == t.records["id0001"]
    assert "The difference is in id0006" in verdict and "id0006, reached by merged_into" in rs.message
    ml = MergeLab("merge tie", ids=["id0001", "id0002"])
    text = _text(ml.result_html())
    assert "The difference is in id0006" in text and "\\n" not in text


def test_the_merge_lab_figure_labels_do_not_overlap_or_leave_it() -> None:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figures: list[Any] = []
    original = Figure.savefig

    def spy(self: Any, *a: Any, **k: Any) -> Any:
        figures.append(self)
        return original(self, *a, **k)

    Figure.savefig = spy  # type: ignore[method-assign]
    try:
        for preset, scale in itertools.product(["meeting notes", "merge tie", "lineage"], [1.0, 1.3, 1.6]):
            ml = MergeLab(preset, scale=scale)
            ids = sorted(ml.store.records)[:4]
            for pair in [None, *itertools.permutations(ids, 2)]:
                if pair is not None:
                    ml.select(list(pair))
                figures.clear()
                ml.figure_svg()
                fig = figures[-1]
                canvas = FigureCanvasAgg(fig)
                canvas.draw()
                r = canvas.get_renderer()
                boxes = [t.get_window_extent(r) for ax in fig.axes for t in ax.texts if t.get_text().strip()]
                assert not [1 for a, b in itertools.combinations(boxes, 2) if a.overlaps(b)], (preset, scale, pair)
                assert all(fig.bbox.x0 <= b.x0 and b.x1 <= fig.bbox.x1 + 0.5 for b in boxes), (preset, scale, pair)
    finally:
        Figure.savefig = original  # type: ignore[method-assign]


# =========================================================================== tours, frame by frame


def test_every_ancestry_tour_frame_is_true_of_its_state() -> None:
    tour = ancestry_tour()
    ae = AncestryExplorer("meeting notes", focus="id0004")
    replay = [lambda: None, ae.evolve, ae.split]
    for frame, act in zip(tour.frames, replay):
        act()
        assert _text(ae.verdict_html()) in _text(frame.html)
        check_ancestry_verdict(ae)
    last = tour.frames[-1]
    victim = re.search(r"delete (id\d+), an ancestor of id0004", last.title)
    assert victim and victim[1] in reach(ae.after, "id0004", ANC)[0]
    ae.delete(victim[1])
    assert _text(ae.verdict_html()) in _text(last.html)
    check_ancestry_verdict(ae)


def test_every_bitemporal_tour_frame_is_true_of_its_step() -> None:
    tour = bitemporal_tour()
    k = 0
    for name in ("contextfs", "repaired"):
        bs = BitemporalStepper(realisation=name)
        for j in range(len(bs.frames)):
            bs.goto(j)
            frame = tour.frames[k]
            k += 1
            text = _text(frame.html)
            title = bs.frame.title.replace("^vt", "ᵛᵗ")
            assert frame.title.endswith(title)
            assert text.count(bs.frame.title) == 0 or bs.frame.title in bs.frame.explanation  # titled once
            assert not re.search(r"step \d+ of \d+", text)  # no second heading inside the frame
            assert "Hist_rec" not in frame.html and "Obs^vt" not in frame.html and "Ψ^vt" not in frame.html
            empty = not bs.frame.store_h.records
            assert ("nothing is recorded yet" in text) == empty
            if not empty:
                equal = bs.frame.store_h == bs.frame.store_h_prime
                assert ("equal" in text.split("The two stores are")[-1] if "picture changes" in text
                        else "— equal" in text) == equal
            if "query point" in text:
                tt, tv = bs.frame.query_point  # type: ignore[misc]
                assert f"τt = {tt}, τv = {tv}" in text and "planes" in text
                assert frame.svg == bs.planes_svg()  # the point is drawn where it is mentioned
            else:
                assert frame.svg == bs.stores_svg()
    assert k == len(tour.frames)


def test_every_refinement_tour_frame_is_true_of_its_round_or_pair() -> None:
    tour = refinement_tour()
    rs = RefinementStepper("refinement example")
    recordless = sorted(rs.store.ids() - rs.store.dom())
    assert recordless == ["gone"]
    rounds = [f for f in tour.frames if f.title.startswith("round ")]
    for k, frame in enumerate(rounds):
        text = _text(frame.html)
        blocks = len(set(rs.rounds[k].values()))
        assert f"round {k}: {blocks} block(s)" in text
        assert "gone holds no record (⊥)" in text  # introduced before (and wherever) it is used
    for frame in tour.frames[len(rounds):]:
        rs.compare(frame.title.removeprefix("compare up to allocation: "))
        s, t, _ = rs.comparisons[rs.pair_name]
        text = _text(frame.html)
        if rs.witness is None:
            assert "s ≈ t" in text
            continue
        m = re.search(r"The difference is in (id\d+)", text)
        if m:  # the culprit named holds different records in s and t
            assert m[1] in _blind_culprits(s, t)
        named = re.search(r"no partner for s's (id\d+)", text)
        assert named is not None
        if not m:  # no path followed: the first identifier's own record has no equal on the other side
            assert all(s.records[named[1]].content != r.content for r in t.records.values())


# =========================================================================== sessions saved from the screen


def _downloaded(ex: Any) -> str:
    href = re.search(r"base64,([A-Za-z0-9+/=]+)'", ex._ui["download"].value)
    assert href, ex._ui["download"].value
    return base64.b64decode(href[1]).decode("utf-8")


def test_a_playground_session_downloaded_after_choosing_holds_the_choices() -> None:
    pg = DerivationPlayground("meeting notes")
    pg.widget  # noqa: B018
    ui = pg._ui
    assert ui is not None
    ui["ids"].value = ("id0001", "id0004")  # select, tick, type: no redraw in between
    ui["reverse"].value = True
    ui["content"].value = "typed, not applied"
    fresh = DerivationPlayground("lineage")
    fresh.widget  # noqa: B018
    assert fresh.import_session(_downloaded(pg))
    assert fresh.selection == {"ids": ["id0001", "id0004"], "reverse": True, "content": "typed, not applied",
                               "type": "", "namespace": ""}
    assert fresh._session_state() == pg._session_state()
    assert list(fresh._ui["ids"].value) == ["id0001", "id0004"] and fresh._ui["reverse"].value
    assert fresh._ui["content"].value == "typed, not applied"


def test_an_ancestry_session_downloaded_after_choosing_holds_the_choices() -> None:
    ae = AncestryExplorer("meeting notes", focus="id0004")
    ae.clock = FakeClock()
    ae.widget  # noqa: B018
    buttons(ae.widget)["evolve it"].click()
    ae._ui["other"].value = "id0002"
    ae._ui["content"].value = "half typed"
    fresh = AncestryExplorer("lineage")
    fresh.widget  # noqa: B018
    assert fresh.import_session(_downloaded(ae))
    assert (fresh.other, fresh.content, fresh.focus) == ("id0002", "half typed", "id0004")
    assert fresh._session_state() == ae._session_state()
    assert fresh._ui["other"].value == "id0002" and fresh._ui["content"].value == "half typed"


def test_a_quick_second_click_is_said_not_applied() -> None:
    ae = AncestryExplorer("meeting notes", focus="id0004")
    clock = FakeClock()
    ae.clock = clock
    ae.widget  # noqa: B018
    evolve = buttons(ae.widget)["evolve it"]
    evolve.click()
    clock.advance(0.1)
    evolve.click()
    assert len(ae.calls) == 1 and ae.message.endswith(AncestryExplorer.ONE_GESTURE)
    assert html.unescape(ae._ui["message"].value).count("was not applied again") == 1
    clock.advance(1.0)
    evolve.click()
    assert len(ae.calls) == 2 and not ae.message.endswith(AncestryExplorer.ONE_GESTURE)


def test_the_voila_page_does_not_tell_its_reader_to_start_it() -> None:
    import json
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    template = (root / "tools/jupyter/voila/templates/coalg/index.html.j2").read_text(encoding="utf-8")
    assert ".celltag_web-book-only" in template and "display: none" in template
    for path in sorted((root / "notebooks").glob("explore-*.ipynb")):
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        for c in cells:
            text, tags = "".join(c["source"]), c.get("metadata", {}).get("tags", [])
            if c["cell_type"] == "markdown" and "make explorers" in text:
                assert "web-book-only" in tags, path.name  # hidden where the page is already live
            if "remove-cell" in tags:  # what Voila shows instead; the book removes it
                assert "live" in text and "make " not in text, path.name
        assert sum("remove-cell" in c.get("metadata", {}).get("tags", []) for c in cells) == 1, path.name


@BUDGET
@given(moves=st.lists(st.tuples(st.sampled_from(["store", "next", "back", "round", "compare"]),
                                st.integers(0, 20)), min_size=1, max_size=10))
def test_random_refinement_sessions_print_only_true_claims(moves: list[tuple[str, int]]) -> None:
    from claims_reference import refinement_blocks

    rs = RefinementStepper()
    for op, k in moves:
        if op == "store":
            rs.set_store(RefinementStepper.STORES[k % len(RefinementStepper.STORES)])
        elif op == "next":
            rs.next_round()
        elif op == "back":
            rs.previous_round()
        elif op == "round":
            rs.set_round(k % len(rs.rounds))
        else:
            rs.compare(sorted(rs.comparisons)[k % len(rs.comparisons)])
        expected = refinement_blocks(rs.store)
        assert len(rs.rounds) == len(expected)
        m = re.match(r"round (\d+): (\d+) block\(s\)", rs.message)
        if m:  # a round's message: its number of blocks, and "stable" only at the last round
            assert int(m[2]) == expected[int(m[1])]
            assert ("stable" in rs.message) == (int(m[1]) == len(expected) - 1)
            none = sorted(rs.store.ids() - rs.store.dom())
            assert all(f"{x}" in rs.message for x in none) and ("(⊥)" in rs.message) == bool(none)
        if rs.witness is not None:
            s, t, _ = rs.comparisons[rs.pair_name]
            named = re.search(r"The difference is in (id\d+)", _text(rs.verdict_html()))
            if named:
                assert named[1] in _blind_culprits(s, t)


@BUDGET
@given(preset=st.sampled_from(["meeting notes", "merge tie", "lineage", "two tenants"]),
       picks=st.lists(st.integers(0, 20), min_size=2, max_size=3))
def test_random_merges_name_a_record_that_really_differs(preset: str, picks: list[int]) -> None:
    ml = MergeLab(preset)
    ids = sorted(ml.store.records)
    chosen = list(dict.fromkeys(ids[k % len(ids)] for k in picks))
    ml.select(chosen)
    text = _text(ml.result_html())
    assert "\\n" not in text
    r = ml.result
    w = r.get("reversed_witness") if r else None
    named = re.search(r"The difference is in (id\d+)", text)
    if named and r is not None and w is not None:
        from coalg.model import Merge, run

        other = run(ml.store, [Merge(tuple(chosen[::-1]))]).final
        assert named[1] in _blind_culprits(r["store"], other)
