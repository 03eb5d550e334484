"""The five defects a teacher met in class, each pinned headlessly (controls set, buttons clicked).

1. deleting the focus record is not "its descendants grew" (Proposition 5.13 does not apply);
2. after an invalid action the result shown is the result of the controls shown, or none;
3. a double-click applies one step, and controls are disabled while a step runs;
4. a selection never moves on its own (ancestry "delete other");
5. the merge lab recomputes on every control change, and outcomes the paper predicts are
   shown as expected, not in error colour.
"""

from __future__ import annotations

import html
from typing import Any

import pytest

pytest.importorskip("ipywidgets")
matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")

from explorer_helpers import FakeClock, buttons, controls, message

from coalg.model import preset
from coalg.viz import REMOVED
from coalg.widgets import AncestryExplorer, DerivationPlayground, MergeLab, TenantsLab

# =========================================================================== 1. the focus deleted


def test_deleting_the_focus_is_not_descendants_growing() -> None:
    ae = AncestryExplorer("meeting notes", focus="id0005")
    ae.widget  # noqa: B018
    assert ae.delete("id0005")
    st = ae.state
    assert st["focus_deleted"] and st["focus_status"] == "deleted" and st["descendants_added"] == []
    # what the lists say is true: after the delete the focus holds no record, so none of its ancestry is left
    assert st["ancestry_removed"] == ["id0001", "id0002", "id0004", "id0005"] and st["ancestry_added"] == []
    verdict = html.unescape(ae._ui["verdict"].value)
    assert "was deleted" in verdict and "grew" not in verdict
    assert "5.13" not in verdict and "5.2" not in verdict and "5.7" not in verdict


def test_propositions_are_cited_only_where_they_apply() -> None:
    ae = AncestryExplorer("meeting notes", focus="id0005")
    ae.delete("id0007")  # neither an ancestor nor a descendant of id0005
    st = ae.state
    assert st["ancestry_unchanged"] and st["descendants_unchanged"] and not st["focus_deleted"]
    verdict = ae.verdict_html()
    assert "5.2" not in verdict and "5.13" not in verdict
    ae.delete("id0001")  # an ancestor: Proposition 5.2
    assert "Proposition 5.2" in ae.verdict_html() and not ae.state["ancestry_unchanged"]
    ae.reset()
    ae.select("id0001")
    ae.delete("id0004")  # a descendant is deleted: nothing grew, the descendants shrank
    st = ae.state
    assert st["descendants_added"] == [] and st["descendants_removed"] == ["id0004", "id0005"]
    assert "5.13" not in ae.verdict_html() and "lost" in ae.verdict_html()


# =========================================================================== 2. no stale result


def test_merge_lab_clears_the_result_when_the_selection_is_invalid() -> None:
    ml = MergeLab("merge tie", ids=["id0001", "id0002"])
    ml.widget  # noqa: B018
    ui = ml._ui
    assert ml.result is not None and "id0006" in ui["result"].value
    ui["ids"].value = ("id0001",)  # "merge with one record"
    assert ml.result is None and "merge needs at least two records" in message(ml)
    assert "id0006" not in ui["result"].value and "No merge" in ui["result"].value
    ui["ids"].value = ("id0001", "id0002")
    assert ml.result is not None and ml.result["ids"] == ["id0001", "id0002"]


def test_tenants_lab_never_shows_or_acts_on_a_build_the_controls_do_not_ask_for() -> None:
    tl = TenantsLab(n=4, records_per_tenant=8, seed=1, prefix_collisions=1, dangling_edges=1)
    tl.widget  # noqa: B018
    ui, b = tl._ui, buttons(tl.widget)
    assert tl.state["built"] and len(tl.stores) == 4
    ui["records_per_tenant"].value = 1
    ui["prefix_collisions"].value = 3  # cannot be built
    assert "cannot build those tenants" in message(tl)
    assert not tl.state["built"] and tl.stores == [] and "no tenants" in ui["report"].value.lower()
    b["drop cross-tenant edges"].click()
    assert "no tenants" in message(tl).lower() and not tl.state["repaired"]
    ui["prefix_collisions"].value = 0
    assert tl.state["built"] and tl.state["params"]["records_per_tenant"] == 1
    assert [len(s.records) for s in tl.stores] == [1, 1, 1, 1]


# =========================================================================== 3. one step per gesture


def test_a_double_click_applies_one_step(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = FakeClock()
    pg = DerivationPlayground("meeting notes")
    monkeypatch.setattr(pg, "clock", clock)
    pg.widget  # noqa: B018
    b, ui = buttons(pg.widget), pg._ui
    ui["ids"].value = ("id0004",)
    b["evolve"].click()
    clock.advance(0.05)  # the second click of a double-click (or one queued while the step ran)
    b["evolve"].click()
    assert len(pg.word) == 1
    clock.advance(1.0)  # a deliberate second click
    b["evolve"].click()
    assert len(pg.word) == 2


def test_a_double_click_in_ancestry_creates_one_record(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = FakeClock()
    ae = AncestryExplorer("meeting notes", focus="id0004")
    monkeypatch.setattr(ae, "clock", clock)
    b = buttons(ae.widget)
    b["evolve it"].click()
    clock.advance(0.1)
    b["evolve it"].click()
    assert sorted(set(ae.after.dom()) - set(preset("meeting notes").dom())) == ["id0008"]


def test_controls_are_disabled_while_a_step_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    pg = DerivationPlayground("meeting notes")
    pg.widget  # noqa: B018
    seen: list[dict[str, bool]] = []
    real = pg._allocate

    def spy(letter: Any) -> Any:
        seen.append({k: c.disabled for k, c in controls(pg.widget).items()})
        return real(letter)

    monkeypatch.setattr(pg, "_allocate", spy)
    pg._ui["ids"].value = ("id0004",)
    buttons(pg.widget)["evolve"].click()
    assert seen and all(seen[0].values()) and len(seen[0]) > 15  # every control, during the step
    after = {k: c.disabled for k, c in controls(pg.widget).items()}
    assert not after["button:evolve"] and not after["button:undo"]


# =========================================================================== 4. selections stay put


def test_delete_other_does_not_move_the_selection() -> None:
    ae = AncestryExplorer("meeting notes", focus="id0005")
    ae.widget  # noqa: B018
    ui, b = ae._ui, buttons(ae.widget)
    ui["other"].value = "id0001"
    b["delete other"].click()
    assert "id0001" not in ae.after.records and ui["other"].value is None
    ae.clock = lambda: 1e9  # a later, deliberate click
    b["delete other"].click()
    assert "select a record first" in message(ae) and len(ae.after.records) == 6


# =========================================================================== 5. the merge lab follows its controls


def test_merge_lab_recomputes_on_every_control_change() -> None:
    ml = MergeLab("merge tie", ids=["id0001", "id0002"])
    ml.widget  # noqa: B018
    ui = ml._ui
    assert ml.result["type"] == "decision"
    ui["first"].value = "fact"  # no "merge" press
    assert ml.result["type"] == "fact" and "<b>fact</b>" in ui["result"].value
    ui["descending"].value = True
    assert ml.theta.descending and ml.result["theta"] == ml.theta.as_dict()
    ui["realisation"].value = "repaired"
    assert ml.result["type"] == "decision" and ml.realisation.name == "repaired"


def test_merge_lab_shows_predicted_outcomes_as_expected() -> None:
    ml = MergeLab("merge tie", ids=["id0001", "id0002"])
    ml.widget  # noqa: B018
    text = ml._ui["result"].value
    assert REMOVED not in text  # 5.24 "equal stores: no" and 5.25 "≈: no" are what the paper predicts
    assert "as Proposition 5.24 predicts" in text and "as Proposition 5.25 predicts" in text
