"""The four observed behaviours of contextfs 0.2.35 (:mod:`coalg.contextfs.behaviours`), looked at closely.

Besides the verdicts (``test_runtime.py``), each observation leaves a database
behind: its records are the ones the chapter describes.  And each check looks at
the right thing: where the package is made to do otherwise in just that spot, the
verdict changes.  Skipped, with the reason, where the package is not installed.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from test_runtime import no_network  # noqa: F401 - the fixture

from coalg.contextfs import AVAILABLE, unavailable_reason

pytestmark = [pytest.mark.skipif(not AVAILABLE, reason=f"runtime tests need contextfs 0.2.35: {unavailable_reason()}"),
              pytest.mark.usefixtures("no_network")]

from coalg.contextfs import LiveStore, behaviours


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The live stores and facades the behaviours open, in order."""
    made: list[Any] = []
    open_store = LiveStore.open.__func__  # type: ignore[attr-defined]

    def spy_open(cls: type[LiveStore], *a: Any, **kw: Any) -> LiveStore:
        made.append(open_store(cls, *a, **kw))
        return made[-1]

    facade = behaviours.facade

    def spy_facade(*a: Any) -> Any:
        made.append(facade(*a))
        return made[-1]

    monkeypatch.setattr(LiveStore, "open", classmethod(spy_open))
    monkeypatch.setattr(behaviours, "facade", spy_facade)
    return made


def rows(db: Path | str) -> list[tuple[str, str, str, str, bool]]:
    """Every record of a ContextFS database as (id, content, type, namespace, soft-deleted), by content."""
    conn = sqlite3.connect(db)
    try:
        got = conn.execute("SELECT id, content, type, namespace_id, deleted_at IS NOT NULL FROM memories")
        return sorted(((i, c, t, n, bool(d)) for i, c, t, n, d in got), key=lambda r: r[1])
    finally:
        conn.close()


def test_prefix_evolve_keeps_its_two_records(opened: list[Any]) -> None:
    """The original and its child, both facts in namespace ns (evolve copies type and namespace), in b-prefix.db."""
    v = behaviours.behaviour_prefix_evolve_dangles()
    [live] = opened
    assert live.path.name == "b-prefix.db"
    assert rows(live.path) == [("7d52ac39-b54", "the meeting is at 10", "fact", "ns", False),
                               (v.witness["child"], "the meeting is at 11", "fact", "ns", False)]


def test_metadata_inherited_keeps_four_records(opened: list[Any]) -> None:
    """r1, its evolution and the two parts of the split, in b-inherit.db; the part looked at is the first one."""
    v = behaviours.behaviour_metadata_inherited()
    [live] = opened
    assert live.path.name == "b-inherit.db"
    parent = v.witness["metadata"]["split_from"]
    got = rows(live.path)
    assert [r[1:] for r in got] == [("JWT tokens", "fact", "ns", False),
                                    ("JWT tokens; 15 min expiry; refresh tokens", "fact", "ns", False),
                                    ("JWT tokens; 1h expiry", "fact", "ns", False),
                                    ("refresh tokens", "fact", "ns", False)]
    assert [got[0][0], got[1][0], got[2][0]] == [v.witness["part"], parent, "r1000000-001"]


def test_soft_delete_keeps_its_three_records(opened: list[Any]) -> None:
    """v1, v2 (soft-deleted) and v3 in namespace ns, in the facade's own data folder soft-delete."""
    v = behaviours.behaviour_soft_delete_keeps_edges()
    [ctx] = opened
    assert ctx.namespace_id == "ns"
    db = Path(ctx._db_path)
    assert db.parent.name == "soft-delete"
    got = rows(db)
    assert [r[1:] for r in got] == [("v1", "fact", "ns", False), ("v2", "fact", "ns", True),
                                    ("v3", "fact", "ns", False)]
    assert got[1][0] == v.witness["deleted"]
    assert v.witness["lineage_of_child"] == [[got[1][0], 1], [got[0][0], 2]]


def test_update_drops_edges_keeps_its_two_records(opened: list[Any]) -> None:
    """The parent and the updated child (its new content), in b-update.db."""
    v = behaviours.behaviour_update_drops_edges()
    [live] = opened
    assert live.path.name == "b-update.db"
    assert rows(live.path) == [("u0000000-001", "first", "fact", "ns", False),
                               (v.witness["record"], "second, corrected", "fact", "ns", False)]


# --------------------------------------------------------------------------- each check looks at the right thing


def _add_edge(live: LiveStore, a: str, relation: str, b: str) -> None:
    conn = sqlite3.connect(live.path)
    try:
        with conn:
            conn.execute("INSERT INTO memory_edges (from_id, to_id, relation, created_at) VALUES (?, ?, ?, ?)",
                         (a, b, relation, "2025-01-01T00:00:00+00:00"))
    finally:
        conn.close()


def test_prefix_evolve_is_not_seen_when_an_edge_also_names_the_original(monkeypatch: pytest.MonkeyPatch) -> None:
    """If the child's evolved_from edge also named the original's full id, get_lineage would list it: not seen."""
    evolve = LiveStore.evolve

    def evolve_and_link(self: LiveStore, p: str, content: str, **kw: Any) -> Any:
        child = evolve(self, p, content, **kw)
        _add_edge(self, child.id, "evolved_from", self.recall(p).id)
        return child

    monkeypatch.setattr(LiveStore, "evolve", evolve_and_link)
    v = behaviours.behaviour_prefix_evolve_dangles()
    assert v.holds is False
    assert ["7d52ac39", "evolved_into", v.witness["child"]] in v.witness["edges"]
    assert [d["id"] for d in v.witness["descendants_of_original"]] == [v.witness["child"]]


def test_metadata_inherited_is_read_on_the_first_part(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check reads the first part of the split: stripping the second part's lineage does not change it."""
    split = LiveStore.split

    def split_and_strip_second(self: LiveStore, p: str, parts: list[str], **kw: Any) -> Any:
        made = split(self, p, parts, **kw)
        second = made[1].id
        conn = sqlite3.connect(self.path)
        try:
            with conn:
                conn.execute("DELETE FROM memory_edges WHERE from_id = ? OR to_id = ?", (second, second))
                conn.execute("UPDATE memories SET metadata = ? WHERE id = ?", (json.dumps({}), second))
        finally:
            conn.close()
        return made

    monkeypatch.setattr(LiveStore, "split", split_and_strip_second)
    v = behaviours.behaviour_metadata_inherited()
    assert v.holds is True
    assert v.witness["metadata"] == {"evolved_from": "r1000000-001", "split_from": v.witness["ancestry_edges"][0][1]}


def test_soft_delete_is_not_seen_when_delete_does_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """A facade whose delete leaves the record: recall still finds it, so the behaviour is not seen."""
    facade = behaviours.facade

    def keeping(*a: Any) -> Any:
        ctx = facade(*a)
        ctx.delete = lambda i: False
        return ctx

    monkeypatch.setattr(behaviours, "facade", keeping)
    v = behaviours.behaviour_soft_delete_keeps_edges()
    assert v.holds is False
    w = v.witness
    assert w["recall"] == w["deleted"] and w["edges_still_returned"] == 4
    assert [d for _, d in w["lineage_of_child"]] == [1, 2] and w["lineage_of_child"][0][0] == w["deleted"]
