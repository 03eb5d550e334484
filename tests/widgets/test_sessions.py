"""Session files: every explorer comes back to exactly the state it exported; a bad file changes nothing.

A session file is a user's file: read with limits (bytes, depth, number size), refused when it is
not a regular file, one error type (SessionError) naming the field, a message in the widget and
never a traceback; written atomically.
"""

from __future__ import annotations

import datetime
import itertools
import json
import os
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from budget import budget
from hypothesis import HealthCheck, given
from hypothesis import strategies as st

pytest.importorskip("ipywidgets")
matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")

from explorer_helpers import Deliberate, buttons, message

from coalg.widgets import (
    AncestryExplorer,
    BitemporalStepper,
    DerivationPlayground,
    MergeLab,
    RefinementStepper,
    SessionError,
    TenantsLab,
    loads_session,
    read_session,
    write_session,
)
from coalg.widgets.session import MAX_BYTES, MAX_DEPTH


def _playground() -> DerivationPlayground:
    pg = DerivationPlayground("meeting notes")
    pg.apply("evolve", ids=["id0005"], content="merged, revised")
    pg.set_realisation("repaired")
    pg.set_theta("decision", descending=True)
    pg.apply("merge", ids=["id0002", "id0001"])
    pg.apply("delete", ids=["id0003"])
    pg.undo()
    pg.select(ids=["id0004", "id0006"], reverse=True, content="a | b")
    return pg


def _ancestry() -> AncestryExplorer:
    ae = AncestryExplorer("meeting notes", focus="id0005")
    ae.evolve("again")
    ae.choose_other("id0002")
    ae.merge_with("id0002")
    ae.choose_other("id0001")
    return ae


def _bitemporal() -> BitemporalStepper:
    bs = BitemporalStepper()
    bs.set_realisation("repaired")
    bs.goto(3)
    bs.query(6, 2)
    return bs


def _merge() -> MergeLab:
    ml = MergeLab("merge tie", ids=["id0003", "id0001", "id0002"])
    ml.set_theta("fact", descending=True)
    return ml


def _tenants() -> TenantsLab:
    tl = TenantsLab(n=3, records_per_tenant=5, seed=7, prefix_collisions=2, dangling_edges=1, id_style="sequential")
    tl.repair()
    return tl


def _refinement() -> RefinementStepper:
    rs = RefinementStepper("lineage", comparison="merge once vs twice (5.24)")
    rs.next_round()
    return rs


MAKERS: dict[str, Callable[[], Any]] = {
    "playground": _playground, "ancestry": _ancestry, "bitemporal": _bitemporal, "merge": _merge,
    "tenants": _tenants, "refinement": _refinement,
}
FRESH: dict[str, Callable[[], Any]] = {
    "playground": lambda: DerivationPlayground("lineage"), "ancestry": lambda: AncestryExplorer("lineage"),
    "bitemporal": BitemporalStepper, "merge": lambda: MergeLab("meeting notes", ids=["id0001", "id0002"]),
    "tenants": TenantsLab, "refinement": RefinementStepper,
}


def _observable(ex: Any) -> dict[str, Any]:
    return {k: v for k, v in ex.state.items() if k != "message"}


@pytest.mark.parametrize("kind", sorted(MAKERS))
def test_export_then_import_comes_back_to_exactly_that_state(kind: str) -> None:
    ex = MAKERS[kind]()
    text = ex.session_json()
    assert json.loads(text)["explorer"] == kind and json.loads(text)["version"] == 1
    other = FRESH[kind]()
    other.widget  # noqa: B018 — the front end shows the imported state too
    assert other.import_session(text), other.message
    assert other.session_json() == text
    assert _observable(other) == _observable(ex)
    assert "session imported" in message(other) and not other.message_is_error


@pytest.mark.parametrize("kind", sorted(MAKERS))
def test_a_session_saved_to_a_file_loads_back(kind: str, tmp_path: Path) -> None:
    ex = MAKERS[kind]()
    path = tmp_path / f"{kind}.json"
    ex.save_session(path)
    other = FRESH[kind]()
    assert other.load_session(path) and other.session_json() == ex.session_json()


def test_the_playground_restores_its_word_preset_and_selection() -> None:
    pg = _playground()
    other = DerivationPlayground("lineage")
    other.widget  # noqa: B018
    assert other.import_session(pg.session_json())
    ui = other._ui
    assert other.word == pg.word and len(other.word) == 2 and len(other.redo_stack) == 1
    assert ui["preset"].value == "meeting notes"  # not the preset it showed before
    assert ui["ids"].value == ("id0004", "id0006") and ui["reverse"].value and ui["content"].value == "a | b"
    assert ui["realisation"].value == "repaired" and ui["descending"].value and ui["types"].value == "decision"
    assert other.last is not None and other.last.report == pg.last.report


def test_the_download_always_holds_the_state_shown() -> None:
    pg = DerivationPlayground("meeting notes")
    pg.clock = Deliberate()
    pg.widget  # noqa: B018
    fresh = pg._ui["download"].value
    pg.apply("evolve", ids=["id0004"], content="v2")
    assert pg._ui["download"].value != fresh
    buttons(pg.widget)["reset"].click()
    assert pg._ui["download"].value == fresh  # reset leaves no stale export behind


def test_a_teacher_prepares_a_state_and_a_student_opens_it(tmp_path: Path) -> None:
    teacher = MergeLab("merge tie", ids=["id0001", "id0002"])
    teacher.set_realisation("repaired")
    teacher.save_session(tmp_path / "class.json")
    student = MergeLab()
    student.widget  # noqa: B018
    assert student.load_session(tmp_path / "class.json")
    assert student._ui["realisation"].value == "repaired" and student.result["types_reached"] == ["decision"]


# =========================================================================== bad files


def _valid(kind: str = "playground") -> dict[str, Any]:
    return json.loads(MAKERS[kind]().session_json())


def _nest(depth: int) -> Any:
    x: Any = 1
    for _ in range(depth):
        x = [x]
    return x


BAD: dict[str, tuple[Callable[[], str | bytes], str]] = {
    "empty": (lambda: "", "empty"),
    "not JSON": (lambda: "{format", "not JSON"),
    "not UTF-8": (lambda: b"\xff\xfe{}", "not UTF-8"),
    "too big": (lambda: " " * (MAX_BYTES + 1), "more than the limit"),
    "a list": (lambda: "[]", "expected a JSON object"),
    "another format": (lambda: json.dumps({"format": "coalg-store", "version": 1}), "expected 'coalg-explorer-session'"),
    "a newer version": (lambda: json.dumps({**_valid(), "version": 2}), "version 2"),
    "an unknown explorer": (lambda: json.dumps({**_valid(), "explorer": "chess"}), "unknown explorer"),
    "another explorer's": (lambda: json.dumps({**_valid("tenants")}), "this is a tenants session"),
    "deep nesting": (lambda: json.dumps({**_valid(), "extra": _nest(MAX_DEPTH + 5)}), "nested more than"),
    "very deep nesting": (lambda: "[" * 100_000 + "]" * 100_000, "nested more than"),
    "a huge number": (lambda: '{"format": "coalg-explorer-session", "version": ' + "1" * 5000 + "}", "a number of"),
    "NaN": (lambda: '{"format": "coalg-explorer-session", "version": NaN}', "NaN is not a JSON number"),
    "an infinite float": (lambda: '{"version": 1e999}', "not finite"),
    "a duplicate key": (lambda: '{"format": "a", "format": "b"}', "appears twice"),
    "an unknown field": (lambda: json.dumps({**_valid(), "colour": "red"}), "unknown field"),
    "a missing state": (lambda: json.dumps({k: v for k, v in _valid().items() if k != "state"}), "state"),
    "a bad store": (lambda: json.dumps({**_valid(), "state": {**_valid()["state"], "start": {"records": 3}}}),
                    "state.start"),
    "a bad call": (lambda: json.dumps({**_valid(), "state": {**_valid()["state"], "word": [{"call": {"letter": 1},
                   "realisation": "contextfs", "theta": {}}]}}), "state.word[0].call.letter"),
    "an unknown realisation": (lambda: json.dumps({**_valid(), "state": {**_valid()["state"], "realisation": "x"}}),
                               "state.realisation"),
    "a refused call": (lambda: json.dumps({**_valid(), "state": {**_valid()["state"], "word": [{"call": {
        "letter": {"op": "evolve", "id": "nope", "content": "x"}, "allocation": {"ids": ["id0099"], "clock": 9}},
        "realisation": "contextfs", "theta": {}}]}}), "refuses this call"),
    "a misspelt field": (lambda: json.dumps({**_valid(), "state": {**_valid()["state"], "selecton": {}}}),
                         "unknown field(s) selecton"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_a_bad_session_is_refused_with_a_message_and_changes_nothing(case: str) -> None:
    make, expected = BAD[case]
    data = make()
    with pytest.raises(SessionError, match=None) as err:  # the library raises one error type
        DerivationPlayground()._restore(loads_session(data, kind="playground"), "<session>")
    assert expected in str(err.value)
    pg = _playground()
    pg.widget  # noqa: B018
    before = pg.session_json()
    assert pg.import_session(data) is False  # never raises
    assert "could not import that session" in message(pg) and expected in message(pg)
    assert pg.session_json() == before


def test_only_regular_files_are_read(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    with pytest.raises(SessionError, match="not a regular file"):
        read_session(fifo)  # refused before open: it would block for ever
    with pytest.raises(SessionError, match="not a regular file"):
        read_session(tmp_path)
    with pytest.raises(SessionError, match="no such file"):
        read_session(tmp_path / "missing.json")
    big = tmp_path / "big.json"
    big.write_bytes(b" " * (MAX_BYTES + 1))
    with pytest.raises(SessionError, match="more than the limit"):
        read_session(big)
    ml = MergeLab()
    assert not ml.load_session(fifo) and "not a regular file" in ml.message


def test_writes_are_atomic(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "s.json"
    write_session(path, "tenants", {"params": {"n": 2}})
    good = path.read_text()

    def broken(*_a: Any) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", broken)
    with pytest.raises(OSError):
        write_session(path, "tenants", {"params": {"n": 3}})
    assert path.read_text() == good and sorted(p.name for p in tmp_path.iterdir()) == ["s.json"]
    monkeypatch.undo()
    with pytest.raises(SessionError, match="not a regular file"):
        write_session(tmp_path, "tenants", {})


@budget(60, derandomize=False, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_mutated_session_files_give_only_the_documented_error(data: st.DataObject) -> None:
    kind = data.draw(st.sampled_from(sorted(MAKERS)))
    text = bytearray(SESSIONS[kind].encode())
    rng = random.Random(data.draw(st.integers(0, 2**32 - 1)))
    for _ in range(data.draw(st.integers(1, 4))):
        how = rng.choice(["cut", "flip", "dup", "splice"])
        a = rng.randrange(len(text))
        b = rng.randrange(a, min(len(text), a + 200) + 1)
        if how == "cut":
            text = text[:a]
        elif how == "flip":
            text[a] ^= 1 << rng.randrange(8)
        elif how == "dup":
            text[a:a] = text[a:b]
        else:
            text[a:b] = SESSIONS[rng.choice(sorted(SESSIONS))].encode()[a:b]
        if not text:
            break
    ex = FRESH[kind]()
    try:
        state = loads_session(bytes(text), kind=kind)
    except SessionError:
        assert ex.import_session(bytes(text)) is False and "could not import" in ex.message
        return
    ok = ex.import_session(state)  # parsed: then the explorer reads it field by field
    assert ok or ("could not import" in ex.message), ex.message


SESSIONS = {kind: make().session_json() for kind, make in MAKERS.items()}


NOW = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)


def test_the_import_button_takes_a_file_and_is_ready_for_the_next() -> None:
    text = _merge().session_json()
    ml = MergeLab()
    ml.widget  # noqa: B018
    upload = ml._ui["import"]
    upload.value = ({"name": "class.json", "type": "application/json", "size": len(text), "last_modified": NOW,
                     "content": memoryview(text.encode())},)
    assert ml.session_json() == text and "session imported" in message(ml)
    assert upload.value == ()  # the same file can be chosen again
    upload.value = ({"name": "notes.txt", "type": "text/plain", "size": 5, "last_modified": NOW,
                     "content": memoryview(b"hello")},)
    assert "could not import that session: notes.txt: not JSON" in message(ml) and ml.session_json() == text


# The field each explorer reads last (or late) in its session, and a value it must refuse: the
# session is otherwise another valid state, so a half-applied import would show.
LATE_FIELDS: list[tuple[str, str, Any]] = [
    ("playground", "theta", {"type_priority": 5}),
    ("playground", "realisation", "neither"),
    ("playground", "start_name", 7),
    ("ancestry", "content", ["not", "text"]),
    ("ancestry", "start_name", None),
    ("ancestry", "other", "id9999"),
    ("merge", "realisation", "neither"),
    ("merge", "start_name", 3),
    ("bitemporal", "position", 10**9),
    ("bitemporal", "tv", "noon"),
    ("refinement", "round", 10**9),
    ("refinement", "comparison", "no such pair"),
    ("tenants", "repaired", "yes"),
]


@pytest.mark.parametrize("kind, field, bad", LATE_FIELDS)
def test_a_failed_import_leaves_the_explorer_exactly_as_it_was(kind: str, field: str, bad: Any) -> None:
    other = json.loads(FRESH[kind]().session_json())  # a different, valid state …
    other["state"][field] = bad  # … with one field a reader must refuse
    ex = MAKERS[kind]()
    ex.widget  # noqa: B018 — a drawn explorer, as on the page
    before, shown = ex.session_json(), _observable(ex)
    assert ex.import_session(json.dumps(other)) is False
    assert "could not import that session" in message(ex)
    assert ex.session_json() == before
    assert _observable(ex) == shown


def _long_playground_session(records: int, evolves: int) -> str:
    """A playground session: a chain of ``records`` as its start, then ``evolves`` evolve calls."""
    from coalg.model import Record, Relation, Store
    from coalg.model.jsonio import store_to_json

    ids = [f"c{k:05d}" for k in range(records)]
    start = Store.of({i: Record("x") for i in ids}, [(b, Relation.EVOLVED_FROM, a) for a, b in itertools.pairwise(ids)])
    state = json.loads(DerivationPlayground("lineage").session_json())
    word, last = [], ids[-1]
    for k in range(evolves):
        word.append({"call": {"letter": {"op": "evolve", "id": last, "content": f"v{k}"},
                              "allocation": {"ids": [f"n{k:05d}"], "clock": k + 1}},
                     "realisation": "contextfs", "theta": {}})
        last = f"n{k:05d}"
    state["state"].update(start=store_to_json(start), start_name="chain", word=word, redo=[])
    return json.dumps(state)


def test_a_long_session_imports_in_time_linear_in_its_size() -> None:
    import time

    def seconds(n: int) -> float:  # CPU time, best of three: a busy machine pausing us is not our cost
        data = _long_playground_session(n, n)
        best = float("inf")
        for _ in range(3):
            pg = DerivationPlayground("lineage")
            t = time.process_time()
            assert pg.import_session(data), message(pg)
            best = min(best, time.process_time() - t)
        return best

    small, big = seconds(120), seconds(480)  # four times the records and four times the calls
    assert big / small < 8, f"{small:.2f} s → {big:.2f} s: more than linear"  # quadratic would be ~16
    pg = DerivationPlayground("lineage")
    assert pg.import_session(_long_playground_session(3000, 500))  # the size of a 700 kB session
    assert len(pg.steps) == 500 and pg.steps[-1].report.results  # the last step's report, when read


def test_the_refinement_stepper_refuses_a_store_too_long_to_step_through() -> None:
    from coalg.model.jsonio import store_from_json
    from coalg.widgets.refinement_stepper import MAX_STORE

    too_big = json.loads(_long_playground_session(MAX_STORE + 1, 0))["state"]["start"]
    rs = _refinement()
    before = rs.session_json()
    session = json.loads(rs.session_json())
    session["state"].update(store_name="custom", store=too_big, round=0)
    assert rs.import_session(json.dumps(session)) is False
    assert f"at most {MAX_STORE} identifiers" in message(rs) and rs.session_json() == before
    with pytest.raises(ValueError, match="coalg bisim"):
        RefinementStepper(store_from_json(too_big))


@pytest.mark.parametrize("kind", sorted(MAKERS))
def test_a_session_saved_with_a_byte_order_mark_is_read(kind: str, tmp_path: Path) -> None:
    text = SESSIONS[kind]
    plain = loads_session(text, kind=kind)
    marked = b"\xef\xbb\xbf" + text.encode("utf-8")  # what Notepad writes as "UTF-8 with BOM"
    assert loads_session(marked, kind=kind) == plain
    assert loads_session("\ufeff" + text, kind=kind) == plain
    (tmp_path / "s.json").write_bytes(marked)
    assert read_session(tmp_path / "s.json", kind=kind) == plain
    ex = MAKERS[kind]()
    assert ex.import_session(marked, source="bom.json") and ex.session_json() == text
    with pytest.raises(SessionError, match="not JSON"):  # only one mark, and only at the start
        loads_session(b"\xef\xbb\xbf" + marked, kind=kind)


def test_an_upload_over_the_limit_is_refused_with_a_message_and_the_button_works_again() -> None:
    text = _merge().session_json()
    ml = MergeLab()
    ml.widget  # noqa: B018
    before = ml.session_json()
    upload = ml._ui["import"]
    big = text.encode() + b" " * (MAX_BYTES + 1 - len(text.encode()))  # valid JSON, one byte too long
    upload.value = ({"name": "big.json", "type": "application/json", "size": len(big), "last_modified": NOW,
                     "content": memoryview(big)},)
    said = message(ml)
    assert f"big.json: {MAX_BYTES + 1} bytes, more than the limit of {MAX_BYTES}" in said, said
    assert ml.session_json() == before and upload.value == ()
    upload.value = ({"name": "class.json", "type": "application/json", "size": len(text), "last_modified": NOW,
                     "content": memoryview(text.encode())},)
    assert "session imported" in message(ml) and ml.session_json() == text and upload.value == ()


def test_the_page_refuses_the_same_sizes_before_sending() -> None:
    """The Voila page's own check (a file over the limit never reaches the kernel) uses MAX_BYTES."""
    import re

    page = (Path(__file__).resolve().parents[2] / "tools" / "jupyter" / "voila" / "templates" / "coalg"
            / "index.html.j2").read_text(encoding="utf-8")
    limits = re.findall(r"var MAX_BYTES = (\d+);", page)
    assert limits == [str(MAX_BYTES)]
    assert "input.files[i].size > MAX_BYTES" in page and "stopImmediatePropagation" in page
