"""The explorers of coalg.widgets, driven headlessly: set control values, click buttons, read state and images.

Every invalid action must leave the state alone, show a sentence in the widget's
message line, and never raise.  Clicks here are deliberate (a clock that moves a
second per reading), so none is taken for the second half of a double-click.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("ipywidgets")
matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")

from explorer_helpers import Deliberate, buttons, message

from coalg.bisim import behaviour_classes
from coalg.model import (
    Merge,
    call_from_json,
    dumps_store,
    get_realisation,
    preset,
    refinement_example,
    run,
    store_from_json,
)
from coalg.widgets import (
    OPERATIONS,
    AncestryExplorer,
    BitemporalStepper,
    DerivationPlayground,
    MergeLab,
    RefinementStepper,
    TenantsLab,
    next_allocation,
)
from coalg.widgets.playground_view import _uploaded

ROOT = Path(__file__).resolve().parents[2]
SVG = b"<?xml"


def _buttons(root: Any) -> dict[str, Any]:
    return buttons(root)


def _message(ex: Any) -> str:
    return message(ex)


def _svg(value: Any) -> bool:
    return bytes(value).startswith(SVG) and b"<svg" in bytes(value)


# =========================================================================== 1. playground


@pytest.fixture
def pg() -> DerivationPlayground:
    p = DerivationPlayground("meeting notes")
    p.clock = Deliberate()
    p.widget  # noqa: B018 — build the controls and the first figure
    return p


def test_playground_initial_state_is_recorded(pg: DerivationPlayground) -> None:
    ui = pg._ui
    assert _svg(ui["graph"].value) and len(ui["graph"].value) > 5000
    assert "No step yet" in ui["laws"].value
    assert [o[1] for o in ui["ids"].options] == sorted(preset("meeting notes").dom())
    assert set(_buttons(pg.widget)) >= {"save", "evolve", "merge", "split", "supersede", "delete", "save at",
                                        "undo", "redo", "reset", "replay word here", "load JSON"}
    assert "download session" in ui["download"].value


def test_playground_evolve_by_clicking(pg: DerivationPlayground) -> None:
    ui, b = pg._ui, _buttons(pg.widget)
    before = ui["graph"].value
    ui["ids"].value = ("id0005",)
    ui["content"].value = "merged, revised"
    b["evolve"].click()
    st = pg.state
    assert st["word"] == ["evolve(id0005, 'merged, revised')"]
    assert st["laws"] == {"L1": "held", "L2": "failed", "L3": "held", "L4": "held", "L7": "held"}
    assert ui["graph"].value != before and _svg(ui["graph"].value)
    assert "failed" in ui["laws"].value and "merged_from" in ui["laws"].value  # the witness is shown
    assert "id0008" in pg.store.records and pg.highlight()[0] == "id0008"
    assert "evolve(id0005" in ui["word"].value


def test_playground_every_operation(pg: DerivationPlayground) -> None:
    ui, b = pg._ui, _buttons(pg.widget)
    ui["content"].value, ui["namespace"].value, ui["type"].value = "a fresh note", "bob", "fact"
    b["save"].click()
    assert pg.last.call.letter.kind == "save" and pg.store.records["id0008"].namespace == "bob"
    ui["content"].value, ui["type"].value, ui["namespace"].value = "", "", ""
    ui["ids"].value = ("id0001", "id0002")
    b["merge"].click()
    assert pg.last.call.letter.ids == ("id0001", "id0002")
    ui["reverse"].value = True
    b["merge"].click()
    assert pg.last.call.letter.ids == ("id0002", "id0001")
    ui["reverse"].value = False
    ui["ids"].value = ("id0003",)
    ui["content"].value = "left | right | middle"
    b["split"].click()
    assert pg.last.call.letter.contents == ("left", "right", "middle")
    ui["ids"].value = ("id0001", "id0004")
    b["supersede"].click()
    assert pg.last.call.letter.old == "id0001" and pg.state["laws"]["L3"] == "held"
    ui["ids"].value = ("id0002",)
    ui["content"].value = "room 5"
    b["save at"].click()
    assert pg.store.records["id0002"].content == "room 5"
    assert pg.state["laws"]["L1"] == "n/a"
    ui["ids"].value = ("id0001",)
    b["delete"].click()
    assert "id0001" not in pg.store.records
    assert "Proposition 5.2" in pg.last.report.result("L1").explanation
    assert len(pg.word) == 7 and {c.letter.kind for c in pg.word} == set(OPERATIONS) - {"evolve"}


def test_playground_undo_redo_restore_state_and_figure(pg: DerivationPlayground) -> None:
    ui, b = pg._ui, _buttons(pg.widget)
    start_png, start = ui["graph"].value, pg.store
    pg.apply("evolve", ids=["id0004"], content="v2")
    after_png, after = ui["graph"].value, pg.store
    b["undo"].click()
    assert pg.store == start and ui["graph"].value == start_png and pg.state["can_redo"]
    b["redo"].click()
    assert pg.store == after and ui["graph"].value == after_png and not pg.state["can_redo"]
    pg.undo()
    pg.apply("evolve", ids=["id0004"], content="another")  # a new step clears the redo stack
    assert not pg.redo_stack


def test_playground_realisation_and_theta(pg: DerivationPlayground) -> None:
    ui = pg._ui
    ui["realisation"].value = "repaired"
    assert pg.realisation.name == "repaired"
    report = pg.apply("evolve", ids=["id0005"], content="revised")
    assert report is not None and report.failed() == ()  # REPAIRED keeps ancestry in edges only (L2 holds)
    ui["realisation"].value = "contextfs"
    pg.load_preset("merge tie")
    ui["types"].value, ui["descending"].value = "fact", False  # θ applies as soon as it is typed
    assert pg.theta.type_priority == ("fact",) and "types fact" in ui["theta"].value
    pg.apply("merge", ids=["id0001", "id0002"])
    assert pg.store.records[pg.last.call.allocation.ids[0]].type == "fact"
    pg.set_theta("decision")
    assert pg.replay()  # the same word under the new θ
    assert pg.store.records[pg.last.call.allocation.ids[0]].type == "decision"


def test_playground_repaired_refusal_is_a_message(pg: DerivationPlayground) -> None:
    pg.set_realisation("repaired")
    word = list(pg.word)
    assert pg.apply("supersede", ids=["missing", "id0001"]) is None
    assert "refused" in pg.message and "no record missing" in pg.message and pg.word == word


def test_playground_session_replays(pg: DerivationPlayground) -> None:
    pg.apply("evolve", ids=["id0004"], content="v2")
    pg.apply("merge", ids=["id0008", "id0002"])
    pg.apply("delete", ids=["id0001"])
    data = json.loads(pg.session_json())
    assert data["format"] == "coalg-explorer-session" and data["explorer"] == "playground"
    start = store_from_json(data["state"]["start"])
    calls = [call_from_json(c["call"]) for c in data["state"]["word"]]
    assert run(start, calls).final == pg.store
    assert [st.report.result("L2").status for st in pg.steps] == ["held", "failed", "n/a"]


def test_playground_load_json_and_upload(pg: DerivationPlayground) -> None:
    ui, b = pg._ui, _buttons(pg.widget)
    ui["json"].value = dumps_store(preset("lineage"))
    b["load JSON"].click()
    assert pg.store == preset("lineage") and not pg.word and ui["preset"].value is None
    pg.apply("evolve", ids=["id0007"], content="v2")
    session = pg.session_json()
    pg.load_preset("empty")
    _uploaded(pg, {"new": ({"name": "s.json", "content": memoryview(session.encode())},)})
    assert pg.session_json() == session and len(pg.word) == 1
    assert "session imported" in _message(pg)


def test_playground_allocations_never_reuse_a_deleted_identifier(pg: DerivationPlayground) -> None:
    pg.apply("delete", ids=["id0007"])
    pg.apply("save", content="new")
    assert "id0007" not in pg.store.records and "id0008" in pg.store.records
    xi = next_allocation([preset("meeting notes")], Merge(("id0001", "id0002")))
    assert xi.ids == ("id0008",) and xi.clock == 7


@pytest.mark.parametrize(
    ("action", "expected"),
    [
        (lambda p, b, ui: b["merge"].click() if not ui["ids"].__setattr__("value", ("id0001",)) else None,
         "merge needs at least two records; 1 selected."),
        (lambda p, b, ui: b["evolve"].click(), "evolve needs a record: select one first."),
        (lambda p, b, ui: b["supersede"].click() if not ui["ids"].__setattr__("value", ("id0001",)) else None,
         "supersede takes 2 record(s); 1 selected."),
        (lambda p, b, ui: p.apply("evolve", ids=["nope"]), "unknown identifier nope"),
        (lambda p, b, ui: p.apply("merge", ids=["id0001", "id0001"]), "each record may be named once"),
        (lambda p, b, ui: p.apply("fly", ids=["id0001"]), "unknown operation 'fly'"),
        (lambda p, b, ui: p.apply("split", ids=["id0001"], content="only one"), "split needs at least two parts"),
        (lambda p, b, ui: b["load JSON"].click() if not ui["json"].__setattr__("value", "{not json") else None,
         "could not load that JSON"),
        (lambda p, b, ui: p.load_json('{"format": "coalg-store", "version": 1, "records": {"a": {"content": 3}}}'),
         "expected a string, got int"),
        (lambda p, b, ui: _uploaded(p, {"new": ({"name": "x", "content": memoryview(b"\xff\xfe")},)}),
         "could not load that JSON"),
        (lambda p, b, ui: b["undo"].click(), "nothing to undo."),
        (lambda p, b, ui: b["redo"].click(), "nothing to redo."),
        (lambda p, b, ui: p.load_preset("nope"), "unknown preset 'nope'"),
        (lambda p, b, ui: p.set_realisation("nope"), "unknown realisation 'nope'"),
        (lambda p, b, ui: p.apply("evolve", ids=[None]), "evolve needs a record"),
    ],
)
def test_playground_invalid_actions_show_a_message(pg: DerivationPlayground, action: Any, expected: str) -> None:
    ui, b = pg._ui, _buttons(pg.widget)
    store, word, png = pg.store, list(pg.word), ui["graph"].value
    action(pg, b, ui)  # must not raise
    assert expected in pg.message and expected in _message(pg)
    assert pg.store == store and pg.word == word and ui["graph"].value == png


def test_playground_unexpected_error_is_caught(pg: DerivationPlayground, monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(*_a: Any, **_k: Any) -> Any:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(pg, "_allocate", boom)
    assert pg.apply("save", content="x") is None
    assert pg.message == "RuntimeError: disk on fire" and pg.message_is_error


# =========================================================================== 2. ancestry vs descendants


def test_ancestry_explorer_theorem_5_7_prop_5_13_and_5_2() -> None:
    ae = AncestryExplorer("meeting notes", focus="id0004")
    ae.clock = Deliberate()
    ae.widget  # noqa: B018
    b, ui = _buttons(ae.widget), ae._ui
    first = ui["figure"].value
    assert _svg(first) and "No step yet" in ui["verdict"].value
    b["evolve it"].click()
    st = ae.state
    assert st["focus"] == "id0004" and st["ancestry_unchanged"] and st["descendants_added"] == ["id0008"]
    assert "Theorem 5.7" in ui["verdict"].value and "Proposition 5.13" in ui["verdict"].value
    assert ui["figure"].value != first
    ui["other"].value = "id0002"
    b["merge it with other"].click()
    assert ae.state["ancestry_unchanged"] and ae.state["descendants_added"] == ["id0009"]
    b["split it"].click()
    assert ae.state["ancestry_unchanged"] and len(ae.state["descendants_added"]) == 2
    ui["other"].value = "id0001"
    b["delete other"].click()
    st = ae.state
    assert not st["ancestry_unchanged"] and st["ancestry_removed"] == ["id0001"]
    assert "Proposition 5.2" in ui["verdict"].value
    ui["focus"].value = "id0005"
    assert ae.focus == "id0005"
    b["reset"].click()
    assert ae.after == preset("meeting notes") and ae.focus == "id0005"


def test_ancestry_explorer_invalid_actions() -> None:
    ae = AncestryExplorer("meeting notes", focus="id0004")
    ae.widget  # noqa: B018
    after, png = ae.after, ae._ui["figure"].value
    for action, expected in [
        (lambda: ae.merge_with("id0004"), "merge needs two different records"),
        (lambda: ae.delete("nope"), "unknown identifier nope"),
        (lambda: ae.select("nope"), "unknown identifier 'nope'"),
        (lambda: ae.merge_with(None), "select a record first"),
        (lambda: ae.split(["one"]), "split needs at least two parts"),
        (lambda: ae.reset("nope"), "unknown preset 'nope'"),
    ]:
        assert not action()
        assert expected in ae.message and expected in _message(ae)
        assert ae.after == after and ae._ui["figure"].value == png


# =========================================================================== 3. bitemporal stepper


def test_bitemporal_stepper_walks_5_27_then_7_1() -> None:
    bs = BitemporalStepper()
    bs.widget  # noqa: B018
    b, ui = _buttons(bs.widget), bs._ui
    assert bs.state["proof"] == "5.27" and bs.state["conclusion"]
    titles = [f.title for f in bs.frames]
    assert titles[2:4] == ["Recording, call by call: call 1 of 2", "Recording, call by call: call 2 of 2"]
    seen = []
    for _ in range(len(bs.frames) - 1):
        b["next ▶"].click()
        seen.append(bs.state["stores_equal"])
        assert "equal" in ui["step"].value
    assert all(seen) and bs.state["final_stores_equal"]
    ui["realisation"].value = "repaired"
    st = bs.state
    assert st["proof"] == "7.1" and st["conclusion"] and not st["final_stores_equal"]
    bs.goto(2)  # both histories give the first call valid time 1: the stores still agree
    assert bs.state["title"] == "Recording, call by call: call 1 of 2" and bs.state["stores_equal"]
    bs.goto(3)  # the evolve: valid time 5 in h, 2 in h′
    assert bs.state["title"] == "Recording, call by call: call 2 of 2" and bs.state["stores_equal"] is False
    b["◀ back"].click()
    assert bs.index == 2


def test_bitemporal_sliders_answer_believed() -> None:
    bs = BitemporalStepper()
    bs.widget  # noqa: B018
    ui = bs._ui
    before = ui["planes"].value
    ui["tt"].value = 5
    ui["tv"].value = 3
    assert bs.state["believed_h"] == bs.state["believed_h_prime"] == ["meeting at 3pm"]  # ContextFS: equal
    bs.set_realisation("repaired")
    ui["tv"].value = 4
    ui["tv"].value = 3
    assert bs.state["believed_h"] == ["meeting at 3pm"] and bs.state["believed_h_prime"] == ["meeting at 4pm"]
    assert "they differ" in bs.message and ui["planes"].value != before


def test_bitemporal_invalid_actions() -> None:
    bs = BitemporalStepper()
    bs.widget  # noqa: B018
    assert not bs.back() and "first step" in _message(bs)
    assert not bs.goto(99) and "99 is not one" in _message(bs)
    bs.goto(len(bs.frames) - 1)
    assert not bs.next() and "last step" in _message(bs)
    assert not bs.set_realisation("nope") and bs.realisation.name == "contextfs"
    assert bs.query("x", 1) is None and "whole numbers" in bs.message and bs.tt == 5


# =========================================================================== 4. merge lab


def test_merge_lab_5_20_5_24_5_25() -> None:
    ml = MergeLab("merge tie", ids=["id0001", "id0002"])
    ml.widget  # noqa: B018
    r = ml.result
    assert r["tied_types"] == ["decision", "fact"] and r["types_reached"] == ["decision", "fact"]  # 5.20
    assert not r["twice_equal"] and r["twice_blind_bisimilar"]  # 5.24
    assert r["reversed_blind_bisimilar"] is False and r["reversed_witness"]["first"]["id"]  # 5.25
    assert r["namespace"] == "alice"
    html = ml._ui["result"].value
    assert "5.20" in html and "5.24" in html and "5.25" in html
    ui = ml._ui
    png = ui["figure"].value
    ui["first"].value = "fact"  # every control change merges again
    assert ml.result["type"] == "fact"
    ui["realisation"].value = "repaired"
    assert ml.result["type"] == "decision" and ml.result["types_reached"] == ["decision"]  # declared tie-break
    ui["realisation"].value = "contextfs"
    ui["ids"].value = ("id0001", "id0005")  # across namespaces: the first argument's namespace wins
    ui["reverse"].value = True
    assert ml.result["ids"] == ["id0005", "id0001"] and ml.result["namespace"] == "bob"
    assert ui["figure"].value != png
    assert ml.result["reversed_record"]["namespace"] == "alice"
    assert not ml.set_realisation("repaired") and ml.result is None and "refused the merge" in _message(ml)
    assert "No merge to show" in ui["result"].value  # the earlier merge is not left on screen


def test_merge_lab_invalid_actions() -> None:
    ml = MergeLab()
    ml.widget  # noqa: B018
    assert not ml.select(["id0001"]) and "merge needs at least two records; 1 selected." in _message(ml)
    assert not ml.select(["id0001", "nope"]) and "unknown identifier nope" in _message(ml)
    assert not ml.select(["id0001", "id0001"]) and "each record may be named once" in ml.message
    assert not ml.set_realisation("nope")


# =========================================================================== 5. tenants lab


def test_tenants_lab_interference_and_repair() -> None:
    tl = TenantsLab(n=2, records_per_tenant=4, seed=1, prefix_collisions=1, dangling_edges=1)
    tl.clock = Deliberate()
    tl.widget  # noqa: B018
    st = tl.state
    assert st["prefix_collisions"] == 1 and st["acquired_edges"] == 2 and not st["mention_disjoint"]
    assert st["inclusion_failures"]  # 6.4: β changes in the union
    html = tl._ui["report"].value
    assert "6.3 prefix recall" in html and "6.4 acquired edge" in html
    p, (_ka, ia), (_kb, ib) = tl.report.prefix_collisions[0]
    rec = tl.recall_prefix(p)
    assert {rec["union"]["id"], tl.recall_prefix(p, __import__("coalg").Theta(descending=True))["union"]["id"]} == {ia, ib}
    b = _buttons(tl.widget)
    b["try ⊕"].click()
    assert "is undefined" in _message(tl) and "Proposition 6.6" in _message(tl)
    png = tl._ui["figure"].value
    b["drop cross-tenant edges"].click()
    st = tl.state
    assert st["repaired"] and st["mention_disjoint"] and not st["inclusion_failures"]
    assert st["prefix_collisions"] == 1 and "6.6 (d)" in _message(tl)
    assert tl.mention_union() is not None and tl._ui["figure"].value != png
    ui = tl._ui
    ui["n"].value, ui["dangling_edges"].value, ui["prefix_collisions"].value = 3, 0, 0  # each builds again
    assert len(tl.stores) == 3 and tl.state["mention_disjoint"] and tl.mention_union() is not None


def test_tenants_lab_invalid_actions() -> None:
    tl = TenantsLab()
    tl.widget  # noqa: B018
    assert not tl.configure(records_per_tenant=1, prefix_collisions=3)
    assert "cannot build those tenants" in _message(tl) and not tl.state["built"]
    assert tl._ui["records_per_tenant"].value == 1  # the controls keep what the reader chose
    assert not tl.configure(n=9) and "tenants must be a whole number from 2 to 4; 9 is not" in _message(tl)
    assert tl._ui["n"].value == 9  # never clamped to 4
    assert not tl.configure(colour="red") and "unknown value" in tl.message
    assert tl.recall_prefix("") is None and "give a prefix" in tl.message
    assert tl.reset() and tl.state["built"] and tl.state["params"]["n"] == 2


# =========================================================================== 6. refinement stepper


def test_refinement_stepper_rounds_and_comparisons() -> None:
    rs = RefinementStepper("refinement example", comparison="merge a,b vs b,a (5.25)")
    rs.widget  # noqa: B018
    b, ui = _buttons(rs.widget), rs._ui
    assert rs.state["round"] == 0 and rs.state["blocks"] == 2
    png = ui["figure"].value
    while rs.next_round():
        pass
    assert rs.state["partition"] == behaviour_classes(refinement_example()) and ui["figure"].value != png
    assert "stable" in _message(rs)
    b["◀ round"].click()
    assert rs.round == rs.state["rounds"] - 2
    assert not rs.state["blind_bisimilar"] and rs.pair_highlight[0]  # 5.25: the witness is highlighted
    pair_png = ui["pair_figure"].value
    ui["pair"].value = "merge once vs twice (5.24)"
    assert rs.state["blind_bisimilar"] and rs.pair_highlight == ([], []) and ui["pair_figure"].value != pair_png
    w = rs.distinguish("a3", "b2")
    assert w["path"] == ["evolved_from"] and (w["left_id"], w["right_id"]) == ("a2", "b1")
    assert rs.distinguish("a1", "a1") is None and "bisimilar" in rs.message
    ui["store"].value = "lineage"
    assert rs.store == preset("lineage") and rs.round == 0


def test_refinement_stepper_invalid_actions() -> None:
    rs = RefinementStepper()
    rs.widget  # noqa: B018
    assert not rs.previous_round() and "round 0" in _message(rs)
    assert not rs.set_round(17) and "17 is not one" in _message(rs)
    assert not rs.set_store("nope") and not rs.compare("nope")
    assert rs.distinguish("a1", "zz") is None and "unknown identifier zz" in _message(rs)


# =========================================================================== the shared stepping mechanism


def test_both_steppers_walk_with_one_mechanism() -> None:
    from coalg.widgets.stepping import Stepper

    class Three(Stepper):
        def _count(self) -> int:
            return 3

        def _arrived(self) -> str:
            return f"at {self.position}"

        def _draw(self, ui: dict[str, Any]) -> None:
            pass

    s = Three()
    assert s.forward() and s.forward() and s.position == 2 and s.message == "at 2"
    assert not s.forward() and s.message == Stepper.AT_LAST and s.message_is_error and s.position == 2
    assert s.step_to(0) and not s.backward() and s.message == Stepper.AT_FIRST
    assert not s.step_to(3) and "3 is not one" in s.message and s.position == 0
    assert s.step_to("x") is None and s.message.startswith("TypeError")  # an action never raises
    assert BitemporalStepper.goto is RefinementStepper.set_round is Stepper.step_to
    assert BitemporalStepper.next is RefinementStepper.next_round is Stepper.forward


# =========================================================================== notebooks and speed


EXPLORERS = sorted((ROOT / "notebooks").glob("explore-*.ipynb"))


def test_explorer_notebooks_are_clean_and_run() -> None:
    assert [p.stem for p in EXPLORERS] == ["explore-ancestry", "explore-bitemporal", "explore-merge",
                                           "explore-playground", "explore-refinement", "explore-tenants"]
    for path in EXPLORERS:
        nb = json.loads(path.read_text(encoding="utf-8"))
        assert nb["nbformat"] == 4 and nb["metadata"]["kernelspec"]["name"] == "python3"
        code = [c for c in nb["cells"] if c["cell_type"] == "code"]
        assert all(not c["outputs"] and c["execution_count"] is None for c in code), f"{path.name} has outputs"
        assert nb["cells"][0]["cell_type"] == "markdown" and nb["cells"][0]["source"][0].startswith("# Explorer")
        namespace: dict[str, Any] = {}
        tree = ast.parse("".join(code[-1]["source"]))
        *body, last = tree.body
        assert isinstance(last, ast.Expr), f"{path.name}: the last cell ends with its explorer"
        exec(compile(ast.Module(body, type_ignores=[]), path.name, "exec"), namespace)  # noqa: S102 — our own notebooks
        explorer = eval(compile(ast.Expression(last.value), path.name, "eval"), namespace)  # noqa: S307
        assert explorer.widget is not None and explorer.message


def test_realisations_are_the_library_ones() -> None:
    assert DerivationPlayground(realisation="repaired").realisation is get_realisation("repaired")
