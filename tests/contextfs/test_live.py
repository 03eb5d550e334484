"""A live ContextFS database (``LiveStore``): the package's own link, its whole-store calls, and reading it back.

Runtime observations on the released package: the expected rows come from the
model's reading of the code (``coalg.model.inverse``, the records saved), not
from ``coalg.contextfs.live``.
"""

from __future__ import annotations

import re

import pytest

from coalg.contextfs import AVAILABLE, unavailable_reason

pytestmark = pytest.mark.skipif(not AVAILABLE, reason=f"runtime tests need contextfs 0.2.35: {unavailable_reason()}")

from coalg.model import Relation, inverse

A, B = "aaaa0000-001", "bbbb0000-002"


@pytest.fixture()
def live(request):
    from coalg.contextfs import LiveStore

    live = LiveStore.open(f"live-{request.node.name[:40]}.db")
    live.save("first", id=A, namespace="x")
    live.save("second", id=B, namespace="y")
    return live


@pytest.mark.parametrize("relation", list(Relation), ids=str)
def test_a_bidirectional_link_writes_the_edge_and_its_inverse_as_the_model_reads_the_table(live, relation):
    assert live.link(A, B, relation=relation.value, bidirectional=True) is True
    assert set(live.edges()) == {(A, relation.value, B), (B, inverse(relation).value, A)}


def test_a_one_way_link_writes_one_edge_and_a_link_to_no_record_writes_none(live):
    assert live.link(A, B) is True  # the facade's default label
    assert live.edges() == [(A, "references", B)]
    assert live.link(A, "cccc") is False
    assert live.edges() == [(A, "references", B)]


def test_the_store_read_back_holds_the_saved_records_and_edges_and_soft_deleted_ones_only_when_asked(live):
    live.link(A, B, relation="supersedes")
    s = live.store()
    assert sorted(s.dom()) == [A, B]
    assert (s.records[A].content, s.records[A].namespace) == ("first", "x")
    assert (s.records[B].content, s.records[B].namespace) == ("second", "y")
    assert sorted((e.source, e.relation.value, e.target) for e in s.edges) == [(A, "supersedes", B)]
    assert live.soft_delete(B) is True
    assert sorted(live.store().dom()) == [A]
    assert sorted(live.store(live_only=False).dom()) == [A, B]


def test_a_save_keeps_the_summary_and_the_time_it_is_given_and_without_an_id_gets_the_packages_own(live):
    from datetime import datetime

    when = datetime(2026, 1, 2, 3, 4, 5)
    live.save("third", id="cccc0000-003", namespace="x", summary="in short", created_at=when)
    mem = live.recall("cccc0000-003")
    assert (mem.content, mem.summary, mem.created_at, mem.updated_at) == ("third", "in short", when, when)
    fresh = live.save("fourth")
    assert fresh.id not in (A, B, "cccc0000-003") and len(fresh.id) == 12 and fresh.summary is None  # str(uuid4())[:12]
    assert live.recall(fresh.id).content == "fourth"


def test_the_routers_whole_store_calls_run_offline_on_the_null_vector_backend(live):
    from coalg.contextfs.offline import modules

    m = modules()
    with live.calling():
        stats = live.router.get_stats()  # the vector side is empty, the SQLite side holds both records
        assert (stats["sqlite_memories"], stats["chromadb_memories"], stats["in_sync"]) == (2, 0, False)
        assert live.router.save_batch([m.Memory(content="third", type=m.MemoryType("fact"),
                                                namespace_id="y")]) == 1
        assert live.router.delete_by_namespace("nothing here") == 0  # max(SQLite's 0, the null backend's)
        assert live.router.delete_by_namespace("x") == 1
        rebuilt = live.router.rebuild_chromadb_from_sqlite()
    assert (rebuilt["success"], rebuilt["rebuilt"], rebuilt["errors"]) == (True, 2, 0)
    assert sorted(ns for (ns,) in live.sql("SELECT namespace_id FROM memories")) == ["y", "y"]


def test_the_null_vector_backend_has_the_packages_surface_properties_as_properties():
    import inspect

    from coalg.contextfs.live import NullRAG
    from coalg.contextfs.offline import modules, sandbox

    modules()  # the package imported in the sandbox (its config reads HOME)
    with sandbox().env():
        from contextfs.rag import RAGBackend as backend  # type: ignore[import-untyped]
    mine = [n for n in vars(NullRAG) if not n.startswith("__") and "mutmut" not in n]  # (mutation runs add names)
    assert "needs_rebuild" in mine and "get_stats" in mine
    for name in mine:
        theirs = inspect.getattr_static(backend, name, None)
        assert theirs is not None, f"{name} is not part of the package's RAGBackend"
        assert isinstance(vars(NullRAG)[name], property) == isinstance(theirs, property), name


def test_a_facade_lives_in_its_own_sandbox_folder_with_every_vector_slot_null():
    from coalg.contextfs.live import NullRAG, facade
    from coalg.contextfs.offline import sandbox

    ctx = facade("team", "own-folder")
    folder = sandbox().root / "data" / "own-folder"
    assert (ctx.namespace_id, ctx.data_dir, ctx._db_path) == ("team", folder, folder / "context.db")
    assert all(type(r) is NullRAG for r in (ctx.rag, ctx._storage._rag, ctx._hybrid.rag))
    assert ctx._auto_index is False
    with sandbox().env():
        ctx.save("kept", type="fact", namespace_id="team")
        assert len(ctx.list_recent()) == 1
        assert len(facade("team", "own-folder").list_recent()) == 0  # made again: the folder starts empty


def test_a_facade_on_the_null_backend_has_nothing_to_repair():
    from coalg.contextfs.live import facade
    from coalg.contextfs.offline import sandbox

    ctx = facade(name="repair")
    with sandbox().env():
        assert ctx.check_and_repair_chromadb() is False
        assert ctx.rag.get_stats()["total_memories"] == 0


def test_update_replaces_the_content_under_the_same_identifier(live):
    live.update(A, "first, corrected")
    assert live.recall(A).content == "first, corrected"
    assert sorted(live.store().dom()) == [A, B]


def test_the_demo_database_is_what_the_package_writes_for_an_evolve_by_prefix(tmp_path):
    """The audit's doctest database, checked against the package: the same rows where the audit reads."""
    import json
    import sqlite3

    from coalg.contextfs import LiveStore, make_demo_database

    live = LiveStore.open("demo-like.db")
    live.save("v1", id="ab12cd34-001")
    child = live.evolve("ab12cd34", "v2").id
    make_demo_database(tmp_path / "demo.db")
    demo = sqlite3.connect(tmp_path / "demo.db")
    try:
        rows = {i: (c, t, ns, json.loads(m)) for i, c, t, ns, m in
                demo.execute("SELECT id, content, type, namespace_id, metadata FROM memories")}
        edges = sorted(demo.execute("SELECT from_id, relation, to_id FROM memory_edges"))
        times = [t for row in demo.execute("SELECT created_at, updated_at FROM memories") for t in row]
        times += [t for (t,) in demo.execute("SELECT created_at FROM memory_edges")]
    finally:
        demo.close()
    named = {child: "ab12cd34-002"}
    assert edges == sorted((named.get(a, a), r, named.get(b, b)) for a, r, b in live.edges())
    package = {named.get(i, i): (c, t, ns, json.loads(m)) for i, c, t, ns, m in
               live.sql("SELECT id, content, type, namespace_id, metadata FROM memories")}
    assert rows.keys() == package.keys() == {"ab12cd34-001", "ab12cd34-002"}
    for i in rows:
        assert rows[i][:3] == package[i][:3], i
        assert rows[i][3].get("evolved_from") == package[i][3].get("evolved_from"), i
    # its times have the shape the package writes, datetime.isoformat()
    shape = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?")
    package_times = [t for row in live.sql("SELECT created_at, updated_at FROM memories") for t in row]
    assert len(times) == 6 and all(shape.fullmatch(t) for t in times + package_times), (times, package_times)


def test_history_of_a_derived_record_names_its_parent(live):
    child = live.evolve(A, "first, again").id
    history = live.history_of(child)
    assert history["memory"].id == child and history["root"] == A
    assert history["ancestors"] == [{"id": A, "relation": "evolved_from", "depth": 1}]
    assert [d["id"] for d in live.history_of(A)["descendants"]] == [child]


def test_the_installed_files_are_the_distributions_files_without_byte_code():
    from importlib.metadata import files
    from pathlib import Path

    from coalg.contextfs.offline import installed_files

    got = installed_files()
    assert got == sorted(got) and all(p.is_file() for p in got)
    recorded = {Path(f.locate()).resolve() for f in files("contextfs")
                if f.parts[0] == "contextfs" and "__pycache__" not in f.parts}
    assert {p.resolve() for p in got} == recorded


def test_evolve_and_split_hand_their_options_to_the_package(live):
    child = live.evolve(A, "first, revised", summary="revised")
    assert (live.recall(child.id).content, live.recall(child.id).summary) == ("first, revised", "revised")
    parts = live.split(B, ["sec", "ond"], summaries=["one half", "other half"])
    assert [live.recall(p.id).summary for p in parts] == ["one half", "other half"]


def test_a_facade_loads_nothing_at_start_and_files_under_the_global_namespace(monkeypatch):
    from coalg.contextfs.live import facade
    from coalg.contextfs.offline import modules

    loads = []
    monkeypatch.setattr(modules().ContextFS, "_load_startup_context", lambda self: loads.append(self))
    assert facade().namespace_id == "global"
    assert loads == []  # the package's own start-up loading would read the real vector backend


def test_a_live_store_opens_holding_the_store_it_is_given() -> None:
    """The records and edges of the given store are the database's rows (a type ContextFS does not
    know is stored under an unused one of its own and read back as itself)."""
    from coalg.contextfs.live import LiveStore
    from coalg.model import Record, Relation, Store

    s = Store.of({"a0000000-001": Record("first", type="decision"), "a0000000-002": Record("odd", type="banana")},
                 [("a0000000-002", Relation.EVOLVED_FROM, "a0000000-001")])
    live = LiveStore.open("holding.db", s)
    rows = dict(live.sql("SELECT id, content FROM memories"))
    assert rows == {"a0000000-001": "first", "a0000000-002": "odd"}
    assert ("a0000000-002", "evolved_from", "a0000000-001") in live.edges()
    types = dict(live.sql("SELECT id, type FROM memories"))
    assert types["a0000000-001"] == "decision" and types["a0000000-002"] != "banana"  # stored as a known type
    assert LiveStore.open("empty.db").sql("SELECT COUNT(*) FROM memories") == [(0,)]
