"""The kit's parts: renaming, sessions, the reordering of saves, declared prefix rules, capabilities."""

from __future__ import annotations

from typing import Any

import conform_layers as layers
import pytest

from coalg.conformance import BadLayer, ProtocolMisuse, conform, inspect_layer
from coalg.conformance.explore import rerun, start
from coalg.conformance.order import permutation
from coalg.conformance.protocol import capabilities_of, factory_spec
from coalg.conformance.session import Session
from coalg.conformance.snapshot import Naming, read_edges, read_records, to_store
from coalg.model import (
    Allocation,
    Call,
    Delete,
    Err,
    Evolve,
    Flag,
    Merge,
    Record,
    Save,
    SaveAt,
    Split,
)

A = Record("a", type="fact", namespace="alice")


def test_ancestry_metadata_is_renamed_and_read_as_a_set():
    class Shows:
        def records(self) -> dict[str, Any]:
            return {"z": {"content": "m", "type": "fact", "namespace": "n",
                          "metadata": {"merged_from": ["y", "x"], "note": "x", "seen": [{"by": "y"}, "xy"],
                                       "part": "7"}},
                    "7": {"content": "c", "type": "fact", "namespace": "n"},
                    "x": {"content": "a", "type": "fact", "namespace": "n"},
                    "y": {"content": "b", "type": "fact", "namespace": "n"}}

        def edges(self) -> list[tuple[str, str, str]]:
            return [("z", "MERGED_FROM", "x"), ("z", "merged_from", "y"), ("z", "supersedes", "gone")]

    names = Naming()
    for real, canon in (("x", "id0001"), ("y", "id0002"), ("z", "id0003"), ("7", "id0004")):
        names.bind(real, canon)
    s = to_store(read_records(Shows()), read_edges(Shows()), names, valid_time=False)
    assert s.records["id0003"].metadata["merged_from"] == ("id0001", "id0002")
    meta = s.records["id0003"].metadata  # an identifier under any key is renamed, a longer string is not
    assert (meta["note"], meta["seen"][0]["by"], meta["seen"][1]) == ("id0001", "id0002", "xy")
    assert meta["part"] == "7"  # digits only: as likely a number written as text, so not renamed
    assert {(e.source, e.relation.value, e.target) for e in s.edges} == {
        ("id0003", "merged_from", "id0001"), ("id0003", "merged_from", "id0002"),
        ("id0003", "supersedes", "unnamed1")}
    # unless the layer draws its identifiers afresh: then "7" being a live identifier is no coincidence
    again = Naming()
    for real, canon in (("x", "id0001"), ("y", "id0002"), ("z", "id0003"), ("7", "id0004")):
        again.bind(real, canon)
    drawn = to_store(read_records(Shows()), read_edges(Shows()), again, valid_time=False, digits=True)
    assert drawn.records["id0003"].metadata["part"] == "id0004"


def test_whether_a_layer_draws_its_identifiers_afresh_is_read_once():
    from layers.dict_both import Memory

    assert inspect_layer(layers.GoodMemory).fresh_ids is True  # uuids
    assert inspect_layer(Memory).fresh_ids is False  # a counter per layer


def test_identifiers_inside_text_are_renamed_for_a_layer_that_writes_them_there():
    class Shows:
        def records(self) -> Any:
            return {"u-1": {"content": "a", "type": "fact", "namespace": "n"},
                    "u-22": {"content": "from u-1 and u-2", "type": "fact", "namespace": "n",
                             "tags": ["part-of:u-1", "a"], "metadata": {"uri": "mem://n/u-22", "v": ["(u-1)"]}},
                    "a": {"content": "a", "type": "fact", "namespace": "n"}}

        def edges(self) -> list[Any]:
            return []

    def read(text: bool) -> Any:
        names = Naming()
        for real, canon in (("u-1", "id0001"), ("u-22", "id0002"), ("a", "id0003")):
            names.bind(real, canon)
        return to_store(read_records(Shows()), read_edges(Shows()), names, valid_time=False, text=text)

    s = read(text=True)
    r = s.records["id0002"]
    # "u-2" is no identifier shown, "u-1" inside "u-22" does not stand alone; the kit's word "a" stays a word
    assert r.content == "from id0001 and u-2" and r.tags == frozenset({"part-of:id0001", "a"})
    assert r.metadata["uri"] == "mem://n/id0002" and r.metadata["v"] == ("(id0001)",)
    assert s.records["id0003"].content == "a"
    plain = read(text=False).records["id0002"]
    assert plain.content == "from u-1 and u-2" and plain.metadata["uri"] == "mem://n/u-22"


def test_whether_a_layer_writes_identifiers_inside_text_is_read_once():
    from layers.ids_in_text import TextIds as CorpusTextIds
    from layers.noted_ids import Noted
    from layers.typed_merge_notes import TypedMergeNotes

    assert inspect_layer(layers.TextIds).ids_in_text is True  # uuids inside URIs and notes
    assert inspect_layer(CorpusTextIds).ids_in_text is True
    assert inspect_layer(layers.GoodMemory).ids_in_text is False
    assert inspect_layer(Noted).ids_in_text is False  # whole identifiers as metadata values only

    class SupersedeNote(layers.GoodMemory):  # writes an identifier into text on supersede only (and so breaks L1)
        def supersede(self, old: str, new: str) -> None:
            super().supersede(old, new)
            self._records[old]["metadata"] = {**self._records[old]["metadata"], "note": f"see {new}"}

    assert inspect_layer(SupersedeNote).ids_in_text is True
    # a layer that refuses to merge a fact with a decision, or to derive twice from one record, writes
    # identifiers into text in its merges: each call of the check acts on records of its own
    assert inspect_layer(TypedMergeNotes).ids_in_text is True

    class DerivesOnce(layers.GoodMemory):  # refuses a derivation from a record already derived from
        def _once(self, *ids: str) -> None:
            used = self.__dict__.setdefault("_used", set())
            if used & set(ids):
                raise ValueError("derived from already")
            used.update(ids)

        def evolve(self, id: str, content: str, *, valid_time: Any = None) -> str:
            self._once(id)
            return super().evolve(id, content, valid_time=valid_time)

        def split(self, id: str, parts: list[str], *, valid_time: Any = None) -> list[str]:
            self._once(id)
            return super().split(id, parts, valid_time=valid_time)

        def merge(self, ids: list[str], *, valid_time: Any = None) -> str:
            self._once(*ids)
            new = super().merge(ids, valid_time=valid_time)
            self._records[new]["metadata"] = {**self._records[new]["metadata"], "note": f"from {ids[0]}"}
            return new

    assert inspect_layer(DerivesOnce).ids_in_text is True


def test_an_identifier_a_delete_freed_stays_known_when_its_name_is_taken():
    names = Naming()
    names.bind("u-1", "id0001")
    names.bind("u-9", "id0001")  # u-1 was deleted; a later record took its canonical name
    assert "u-1" in names.unnamed  # at once: metadata still naming u-1 is renamed, alike in every run
    assert names.name("u-9") == "id0001" and names.name("u-1") == "unnamed1"


@pytest.mark.parametrize(("records", "said"), [
    ({"x": {"type": "fact", "namespace": "n"}}, "record 'x' has no 'content'"),
    ({"x": {"content": 3, "type": "fact", "namespace": "n"}}, "record 'x': content must be a string, got int"),
    ({"x": {"content": "c", "type": "fact", "namespace": "n", "tags": "t"}}, "tags must be a collection"),
    ({"x": {"content": "c", "type": "fact", "namespace": "n", "metadata": {"k": object()}}},
     "metadata must hold JSON-like values"),
    ({1: {"content": "c", "type": "fact", "namespace": "n"}}, "records: an identifier must be a string"),
])
def test_records_of_the_wrong_shape_are_misuse(records, said):
    class Shows:
        def records(self) -> Any:
            return records

        def edges(self) -> list[Any]:
            return []

    with pytest.raises(ProtocolMisuse, match=said.replace("(", r"\(").replace(")", r"\)")):
        to_store(read_records(Shows()), read_edges(Shows()), Naming(), valid_time=False)


def test_a_refusal_keeps_the_store_and_the_message_and_the_layer_is_not_asked_what_it_cannot_do():
    caps = inspect_layer(layers.GoodMemory)
    sess = Session(layers.GoodMemory, caps)
    assert sess.apply(Call(Save(A), Allocation(("id0001",), 1))).ids == ("id0001",)  # type: ignore[union-attr]
    before = sess.store
    out = sess.apply(Call(Evolve("missing", "v2"), Allocation(("id0002",), 2)))
    assert out == Err("refused (KeyError)") and sess.store == before
    assert sess.messages[-1] == "KeyError: 'no record missing'"
    out = sess.apply(Call(Delete("id0001", by_prefix=True), Allocation((), 3)))
    assert out == Err("delete by prefix needs the prefix_arguments capability") and sess.store == before
    assert sess.apply(Call(Delete("id0001"), Allocation((), 4))) == Flag(True) and not sess.store.records


def test_runs_of_fresh_saves_are_reversed():
    s, t, u = Save(A), Save(Record("b")), Save(Record("c"))
    assert permutation([s, t, Evolve("id0001", "v2"), s, t, u]) == [1, 0, 2, 5, 4, 3]
    # equal saves keep their order among themselves: only what differs moves
    assert permutation([s, s, Evolve("id0001", "v2"), s, t, u]) == [0, 1, 2, 5, 4, 3]
    assert permutation([s, s]) is None and permutation([s, t, s]) is None
    assert permutation([s, s, t]) == [2, 0, 1]
    assert permutation([s, Evolve("id0001", "v2"), s]) is None


def test_a_shrunk_word_names_the_same_records_as_before():
    caps = inspect_layer(layers.GoodMemory)
    from coalg.conformance.blackbox import BlackBox

    bb = BlackBox(layers.GoodMemory, caps)
    st = start(bb.fresh)
    word = [t.call for t in rerun(bb.realisation, st, [Save(A), Save(A), Split("id0002", ("p", "q")),
                                                        Merge(("id0003", "id0004"))])]
    shorter = list(rerun(bb.realisation, st, word[1:]))  # the first save left out
    assert [t.call.letter for t in shorter][1:] == [Split("id0001", ("p", "q")), Merge(("id0002", "id0003"))]
    assert all(t.ok for t in shorter)
    planned = [j for c in word for j in c.allocation.ids]
    gone = list(rerun(bb.realisation, st, word[2:], planned))  # both saves left out: the split names nothing
    assert gone[0].call.letter == Split("id0002-gone", ("p", "q")) and not gone[0].ok
    bb.release()


def test_a_declared_rule_that_is_not_followed_breaks_l5():
    class Newest(layers.PlantedL5Prefix):
        prefix_rule = "newest"   # but it resolves to the oldest match

    report = conform(Newest, length=3, walks=0, orders=False)
    assert report["clauses"]["L5"]["holds"] is False
    assert "declared rule 'newest' picks id0002 among id0001, id0002" in report["clauses"]["L5"]["reason"]


def test_capabilities_are_read_from_keywords_and_attributes_and_save_at_not_from_kwargs():
    """**kw may carry a valid time (L6 then judges what the layer does with it), never the id to save at."""
    class Loose(layers.GoodMemory):
        prefix_arguments = True
        prefix_rule = "least"

        def save(self, content: str, **kw: Any) -> str:  # type: ignore[override]
            return super().save(content, **kw)

        def recall(self, ref: str) -> str | None:
            return None

        def close(self) -> None:
            pass

    caps = capabilities_of(Loose())
    assert caps.names == ("prefix_arguments", "prefix_recall", "valid_time", "close") and caps.prefix_rule == "least"

    class Unknown(layers.GoodMemory):
        prefix_rule = "first"

    with pytest.raises(ProtocolMisuse, match="prefix_rule: expected one of least, newest, oldest"):
        inspect_layer(Unknown)


def test_a_factory_defined_in_a_function_cannot_run_in_child_interpreters():
    class Local(layers.GoodMemory):
        pass

    assert factory_spec(Local) is None and factory_spec(layers.GoodMemory) == "conform_layers:GoodMemory"
    report = conform(Local, length=2, walks=0)
    assert report["clauses"]["L5"]["holds"] is None
    assert "cannot be imported by name" in report["clauses"]["L5"]["reason"]
    with pytest.raises(BadLayer, match="not a factory"):
        conform("conform_layers:a_layer_instance")


def test_recall_answering_none_refuses_an_ambiguous_prefix():
    from layers.dotted_prefix import DottedMemory

    class RecallOnly(DottedMemory):
        prefix_arguments = False  # only recall takes a prefix: every prefix judged is a recall

    report = conform(RecallOnly, length=3, walks=0, orders=False)
    assert report["capabilities"] == ["prefix_recall", "valid_time"]
    l5 = report["clauses"]["L5"]  # judged only on prefixes without the child interpreters
    assert l5["holds"] is not False, l5["reason"]
    assert "every ambiguous prefix was refused or resolved by the declared rule (15 calls)" in l5["reason"]


def test_a_prefix_the_kit_cannot_say_is_the_same_refusal_whichever_record_it_names():
    from layers.dotted_prefix import DottedMemory

    from coalg.conformance.blackbox import Replay
    from coalg.conformance.order import reordered

    runner = Replay(DottedMemory, inspect_layer(DottedMemory))
    st = start(runner.fresh)
    word = [Save(A), Save(A), Evolve("id0001", "v2", by_prefix=True)]
    runs = list(rerun(runner.realisation, st, word))
    assert not runs[-1].ok  # 'r' matches both records: no prefix names id0001 alone
    assert reordered(runner, st, word) is None  # reversed saves: id0002 cannot be said either, alike
    runner.close()


class Beside:
    """A realisation stepped from the empty store beside an example layer, its fresh identifiers drawn from the
    layer's supply (or given), each call stamped with the layer's clock: ``beside(letter)`` is the output."""

    def __init__(self, realisation: Any, ids: Any) -> None:
        from coalg.model import EMPTY, Oracle

        self.realisation, self.oracle, self.store = realisation, Oracle(ids=ids), EMPTY

    def __call__(self, a: Any, ids: tuple[str, ...] | None = None) -> Any:
        from coalg.conformance.examples import CLOCK
        from coalg.model import creates

        fresh = ids if ids is not None else tuple(self.oracle.fresh_id(self.store) for _ in range(creates(a)))
        out, self.store = self.realisation.step(self.store, a, Allocation(fresh, CLOCK))
        return out


def test_the_contextfs_model_layer_is_the_model_behind_the_protocol():
    """Each protocol method of the model's layer does what one step of the ContextFS model does, with the
    same identifiers: the same store, the same answers, refusals raised, and no valid time shown."""
    from coalg.conformance.examples import ContextFSModelLayer
    from coalg.model import CONTEXTFS, RecallPrefix, erase_allocation, thaw
    from coalg.model import Found as FoundOut

    m = ContextFSModelLayer()
    model = Beside(CONTEXTFS, m._oracle.ids)

    a = m.save("a", type="fact", namespace="alice", tags=["t"])
    b = m.save("b", type="decision", namespace="alice", metadata={"k": 1})
    assert [a] == list(model(Save(Record("a", namespace="alice", tags=frozenset({"t"})))).ids)
    assert [b] == list(model(Save(Record("b", type="decision", namespace="alice", metadata={"k": 1}))).ids)
    e = m.evolve(a[:-1], "a2")  # by a prefix that names a alone
    assert [e] == list(model(Evolve(a[:-1], "a2", by_prefix=True)).ids)
    j = m.merge([e, b])
    assert [j] == list(model(Merge((e, b))).ids)
    parts = m.split(b, ["p", "q"])
    assert parts == list(model(Split(b, ("p", "q"))).ids) and len(parts) == 2
    found = model(RecallPrefix(j[:-1]))
    assert m.recall(j[:-1]) == j and isinstance(found, FoundOut) and found.id == j
    assert m.recall(j) == j
    first = model(RecallPrefix(""))  # every identifier extends it: ContextFS answers with the first row
    assert isinstance(first, FoundOut) and m.recall("") == first.id
    with pytest.raises(ValueError):
        m.evolve("nothing-here", "x")
    shown = {i: {"content": r.content, "type": r.type, "namespace": r.namespace, "tags": sorted(r.tags),
                 "metadata": thaw(r.metadata)} for i, r in ((i, erase_allocation(r)) for i, r in model.store.records.items())}
    assert m.records() == shown  # and no "valid_time": ContextFS has none
    assert m.edges() == [(x.source, x.relation.value, x.target) for x in sorted(model.store.edges)]


def test_words_a_child_could_not_ask_are_compared_by_neither() -> None:
    from coalg.conformance.order import _first_difference

    w1, w2, w3 = [{"letter": "save"}], [{"letter": "save"}, {"letter": "evolve"}], [{"letter": "delete"}]
    same = [[w1, "d1", False, False], [w2, "d2", False, False]]
    assert _first_difference(same, [list(r) for r in same]) == (2, None)
    # the second word's call could not be asked in the first child: its different digest is no difference
    assert _first_difference([[w1, "d1", False, False], [w2, "dA", False, True]], same) == (1, None)
    assert _first_difference(same, [[w1, "d1", False, False], [w2, "dB", False, True]]) == (1, None)
    # a digest that differs, or a word one child never ran, is
    assert _first_difference(same, [[w1, "d1", False, False], [w2, "dB", False, False]]) == (1, same[1])
    assert _first_difference(same, same[:1]) == (1, same[1])
    extra = [w3, "d3", True, False]
    assert _first_difference(same, [*same, extra]) == (2, extra)


def test_the_contextfs_model_layer_takes_the_package_defaults_ids_and_prefixes_everywhere() -> None:
    """save's defaults are a record's (type fact, namespace global), an ``id`` given to save is the
    record's identifier, merge and split take prefixes as evolve does, and a full identifier names its
    own record even where, read as a prefix, it would match an older one."""
    from coalg.conformance.examples import ContextFSModelLayer

    m = ContextFSModelLayer()
    plain = m.save("c")
    shown = m.records()[plain]
    assert (shown["type"], shown["namespace"]) == (Record("c").type, Record("c").namespace) == ("fact", "global")
    assert m.save("mine", id="A", namespace="first") == "A" and m.records()["A"]["content"] == "mine"
    assert m.save("small", id="a", namespace="second") == "a"  # as a prefix, SQLite's LIKE 'a%' finds A too
    e = m.evolve("a", "a2")
    assert m.records()[e]["namespace"] == "second"  # evolve copies the namespace of the record it acts on
    s = m.split("a", ["p", "q"])
    assert [m.records()[i]["namespace"] for i in s] == ["second", "second"]
    x, y = m.save("x"), m.save("y")
    j = m.merge([x[:-1], y[:-1]])  # two prefixes, each naming one record
    assert sorted(m.records()[j]["metadata"]["merged_from"]) == sorted([x, y])
    parts = m.split(x[:-1], ["u", "v"])  # accepted; ContextFS records the prefix as given, not x
    assert [m.records()[i]["content"] for i in parts] == ["u", "v"]
    assert [m.records()[i]["metadata"]["split_from"] for i in parts] == [x[:-1], x[:-1]]


@pytest.mark.skipif(not __import__("coalg.contextfs", fromlist=["AVAILABLE"]).AVAILABLE,
                    reason="the released contextfs is not installed")
def test_the_contextfs_runtime_layer_drives_the_package() -> None:
    from coalg.conformance.examples import contextfs

    m = contextfs()
    a = m.save("a", namespace="alice")
    e = m.evolve(a, "a2")
    assert m.records()[e]["content"] == "a2" and m.records()[a]["content"] == "a"
    assert (e, "evolved_from", a) in m.edges()


@pytest.mark.parametrize("name", ["contextfs_model", "repaired"])
def test_each_example_layer_steps_its_realisation_call_for_call(name: str) -> None:
    """Every protocol method of an example layer is one step of its realisation on the letter it names, with
    the same identifiers: the layer's store and the realisation's stay equal after each call (save with its
    defaults, metadata and a given id, evolve, merge and split with valid times where the layer takes them,
    recall, supersede, delete, and delete by a prefix where prefixes are accepted)."""
    from coalg.conformance import examples
    from coalg.model import FrozenMap, RecallPrefix, Supersede

    m = getattr(examples, name)()
    model = Beside(m.realisation, m._oracle.ids)

    def vt(t: int) -> dict[str, int]:  # each record's own valid time (derived ones not their parents'), if taken
        return {"valid_time": t} if name == "repaired" else {}

    a = m.save("a", **vt(7))
    assert [a] == list(model(Save(Record("a", **vt(7)))).ids) and m._store == model.store
    b = m.save("b", type="decision", metadata={"k": 1}, id="mine")
    assert b == "mine"
    model(Save(Record("b", type="decision", metadata=FrozenMap({"k": 1}), valid_time=None)), ("mine",))
    assert m._store == model.store
    assert m.save("b again", id=b, type="decision") == b  # a taken id: the record is replaced there
    model(SaveAt(b, Record("b again", type="decision", valid_time=None)), ())
    assert m._store == model.store and m.records()[b]["content"] == "b again"
    e = m.evolve(a, "a2", **vt(9))
    assert [e] == list(model(Evolve(a, "a2", **vt(9))).ids) and m._store == model.store
    assert m.records()[e]["metadata"]["evolved_from"] == a  # shown as the realisation's reader shows it
    j = m.merge([e, b], **vt(11))
    assert [j] == list(model(Merge((e, b), **vt(11))).ids) and m._store == model.store
    parts = m.split(j, ["p", "q"], **vt(13))
    assert parts == list(model(Split(j, ("p", "q"), **vt(13))).ids) and len(parts) == 2 and m._store == model.store
    assert m.recall(j) == model(RecallPrefix(j)).id == j
    assert m.recall("nothing-here") is None  # not found: None, as the protocol has it
    model(RecallPrefix("nothing-here"))
    m.supersede(parts[0], parts[1])
    model(Supersede(parts[0], parts[1]))
    assert m._store == model.store and m.edges() != []
    m.delete(e)
    model(Delete(e))
    assert m._store == model.store and m.records().get(e, {"type": "tombstone"})["type"] == "tombstone"  # gone, or a tombstone
    if m.prefix_arguments:
        m.delete(a[:-1])
        model(Delete(a[:-1], by_prefix=True))
        assert m._store == model.store and m.records().get(a, {"type": "tombstone"})["type"] == "tombstone"
        m.save("upper", id="A")
        m.save("lower", id="a")  # as a prefix, "a" would match the older "A" too (SQLite's LIKE)
        model(Save(Record("upper")), ("A",))
        model(Save(Record("lower")), ("a",))
        m.delete("a")
        model(Delete("a"))
        assert m._store == model.store and "A" in m.records() and "a" not in m.records()
    with pytest.raises(ValueError) as refused:  # a refusal is raised with the realisation's reason
        m.evolve("nothing-here", "x")
    said = model(Evolve("nothing-here", "x"))
    assert str(refused.value) == said.reason and m._store == model.store


def test_an_l6_failure_stands_only_when_both_histories_made_call_by_call_create_and_record_one_store() -> None:
    """The black box's L6 failure is confirmed by making the witness's two histories on fresh layers: both must
    create at every call and end in one store; a refusal or two different stores send the search to runs made
    word for word."""
    from coalg.conformance.kit import _recorded
    from coalg.model import Created, Err, Store, call_to_json

    one, two = (Store.of({"id0001": Record(c)}) for c in ("a", "b"))

    class Runner:  # plays the layer: each history's outputs and final store, as given
        def __init__(self, h: list[tuple[Any, Any]], h_prime: list[tuple[Any, Any]]) -> None:
            self.runs = [h, h_prime]

        def run(self, calls: list[Any]) -> list[tuple[Any, Any]]:
            return self.runs.pop(0)

    save = call_to_json(Call(Save(A), Allocation(("id0001",), 1)))
    w = {"h": [{"call": save, "tt": 1, "vt": 1}], "h_prime": [{"call": save, "tt": 1, "vt": 2}]}
    made = Created((("id0001", A),))
    assert _recorded(Runner([(made, one)], [(made, one)]), w) is True
    assert _recorded(Runner([(made, one)], [(made, two)]), w) is False  # two stores: valid time shows
    assert _recorded(Runner([(made, one)], [(Err("no"), one)]), w) is False  # a refusal: not the history
    assert _recorded(Runner([(Err("no"), one)], [(made, one)]), w) is False
    assert _recorded(Runner([], [(made, one)]), w) is False  # nothing made


def test_l1_and_s1_say_that_beyond_the_fragment_only_refusals_were_judged() -> None:
    """L1 and S1 speak of the stores the fragment reaches; on words with the full alphabet's other calls the kit
    checks only that a refused call changed nothing, and a holding verdict says so."""
    r = conform(layers.GoodMemory, length=2, walks=0, orders=False)
    for key, rule in (("L1", "remove or change nothing"), ("S1", "add nothing")):
        why = r["clauses"][key]["reason"]
        assert r["clauses"][key]["holds"] is True
        assert why.endswith("(the full alphabet, where the law does not speak) were judged only for refused "
                            f"calls, each of which must {rule}"), key
    assert "refused" not in r["clauses"]["S4"]["reason"]


@pytest.fixture(scope="module")
def planted_l7() -> dict[str, Any]:
    """The kit's report on a layer whose delete leaves an evolve's edge dangling (L7 fails, L1 holds)."""
    return conform(layers.PlantedL7, length=3, walks=0, orders=False)


def test_the_report_table_gives_a_failing_clause_its_calls_then_its_reason_and_a_holding_one_its_reason(
        planted_l7: dict[str, Any]) -> None:
    from coalg.conformance.report import format_report

    r = planted_l7
    rows = {line.split()[0]: line for line in format_report(r, witnesses=False).splitlines()
            if line[:3].rstrip() in r["clauses"]}
    l7, l1 = r["clauses"]["L7"], r["clauses"]["L1"]
    assert l7["holds"] is False and l1["holds"] is True
    assert rows["L7"].endswith("  " + "; ".join(l7["witness"]["calls"]) + " -- " + l7["reason"])
    assert l7["witness"]["calls"][-1] in rows["L7"] and "delete(" in rows["L7"]
    assert rows["L1"].endswith("  " + l1["reason"]) and " -- " not in rows["L1"]


def test_a_witness_for_a_terminal_reads_title_how_found_calls_then_replay(planted_l7: dict[str, Any]) -> None:
    from coalg.conformance.report import format_witness

    e = planted_l7["clauses"]["L7"]
    w = e["witness"]
    calls, script = w["calls"], w["replay"].rstrip("\n").splitlines()
    assert format_witness("L7", e).splitlines() == [
        f"L7 {e['title']}: {e['reason']}",
        f"  found: {w['minimality']}",
        "  calls:", *(f"    {c}" for c in calls),
        "  replay:", *(f"    {x}" if x else "" for x in script)]
    assert w["minimality"] and calls and script


def test_the_report_as_a_terminal_shows_it() -> None:
    """format_report on a report written here by hand (not by the kit): the heading, the budget, the table with
    one row per clause present (S2 left out), the rule under L7, and the tally."""
    from coalg.conformance.report import clause_entry, format_report, format_witness
    from coalg.laws import CLAUSES

    clauses = {}
    for k in CLAUSES:
        if k in ("L2", "L7", "S3"):
            clauses[k] = clause_entry(k, False, 5, f"{k} broke.", {
                "calls": ["m.save('a')", "m.delete(x)"], "minimality": "breadth first", "replay": "m = M()\n"})
        elif k == "L5":
            clauses[k] = clause_entry(k, None, 0, "not judged: no prefixes")
        elif k != "S2":
            clauses[k] = clause_entry(k, True, 3, f"{k} held.")
    report = {"layer": "mine:Layer", "capabilities": [], "clauses": clauses,
              "budget": {"length": 2, "walks": 0, "walk_length": 8, "seed": 0}}
    assert format_report(report, witnesses=False) == """\
Laws L1–L7 and derivation schema S1–S4 on the memory layer mine:Layer
capabilities: none; explored: every word of up to 2 calls from a fresh layer, then 0 random walks (seed 0)

clause  title                          holds  explored  result / witness
------  -----------------------------  -----  --------  ----------------
L1      record monotonicity            yes    3         L1 held.
L2      edge–record agreement          NO     5         m.save('a'); m.delete(x) -- L2 broke.
L3      inverse closure                yes    3         L3 held.
L4i     confinement                    yes    3         L4i held.
L4ii    construction locality          yes    3         L4ii held.
L5      resolution independence        n/a    0         not judged: no prefixes
L6      bitemporality                  yes    3         L6 held.
L7      lineage referential integrity  NO     5         m.save('a'); m.delete(x) -- L7 broke.
------  -----------------------------  -----  --------  ----------------
S1      additivity                     yes    3         S1 held.
S3      edge support                   NO     5         m.save('a'); m.delete(x) -- S3 broke.
S4      ancestry direction             yes    3         S4 held.

5 of 8 law clauses hold, 2 fail, 1 do not apply; 2 of 3 schema clauses hold, 1 fail.
"""
    report["capabilities"] = ["valid_time", "prefix_recall"]
    assert format_report(report).splitlines()[1].startswith("capabilities: valid_time, prefix_recall; explored:")
    witnesses = [format_witness(k, clauses[k]) for k in ("L2", "L7", "S3")]
    assert format_report(report).endswith("".join(f"\n\n{w}" for w in witnesses) + "\n")


def test_a_hash_seed_difference_found_on_a_walk_is_shrunk_in_both_interpreters() -> None:
    """SetJoin joins merged contents in the order of a set of strings: words of one call cannot show it, a walk
    does, and the word is cut in the two child interpreters while their runs still differ. The witness keeps
    both runs' observations, which differ in the merged record's content at the last call."""
    import layers.flaw_hash_order as m

    r = conform(factory_spec(m.FACTORY), length=1, walks=10)
    e = r["clauses"]["L5"]
    w = e["witness"]
    assert e["holds"] is False and w["kind"] == "hash seed"
    assert w["minimality"].startswith("found on a seeded random walk, then shrunk greedily")
    ops = [c["op"] for c in w["word"]]
    assert ops[-1] == "merge" and ops.count("save") == 2 and len(ops) < 8
    first, second = w["observations"].values()
    assert first["after"] != second["after"] and first["outputs"][:-1] == second["outputs"][:-1]
    merged = {i for i in first["after"]["records"] if " " in first["after"]["records"][i]["content"]}
    assert merged and all(first["after"]["records"][i]["content"] != second["after"]["records"][i]["content"]
                          for i in merged)
    assert "varies from run to run" not in e["reason"] and f"call {len(ops)} created different records" in e["reason"]
    assert list(w["observations"]) == ["PYTHONHASHSEED=0", "PYTHONHASHSEED=1"]
    assert "in the PYTHONHASHSEED=0 run and" in e["reason"] and e["reason"].endswith("in the PYTHONHASHSEED=1.")
    assert w["offending"]["record"] in merged


def test_a_hash_seed_difference_on_a_word_of_the_breadth_first_search_needs_no_shrinking() -> None:
    import layers.flaw_hash_order as m

    w = conform(factory_spec(m.FACTORY), length=3, walks=0)["clauses"]["L5"]["witness"]
    assert w["kind"] == "hash seed" and w["minimality"] == "breadth first: no shorter word differs"


def test_the_refusal_diff_lists_each_lost_and_added_edge_under_its_own_key() -> None:
    from coalg.conformance.judge import _store_diff
    from coalg.model import Record, Store

    r = Record(content="x")
    before = Store.of({"a": r, "b": r}, [("a", "references", "b"), ("b", "referenced_by", "a")])
    after = Store.of({"a": Record(content="y"), "c": r}, [("a", "references", "b"), ("a", "related_to", "c")])
    assert _store_diff(before, after) == {
        "lost_records": ["b"], "changed_records": ["a"], "added_records": ["c"],
        "lost_edges": [["b", "referenced_by", "a"]], "added_edges": [["a", "related_to", "c"]]}


def test_a_replay_that_differs_under_the_rule_least_over_identifiers_drawn_afresh_is_a_misuse():
    """When a replay shows another store, a layer that declares 'least' and gives the same calls other
    identifiers on every fresh layer is told it cannot be judged by replays (its picks follow the
    identifiers it draws, which the laws allow); a layer with repeatable identifiers is not."""
    from layers.dict_both import Memory

    from coalg.conformance.kit import _least_of_random

    drawn = layers.MisuseLeastOfRandom
    with pytest.raises(ProtocolMisuse, match=r"^prefix_rule: 'least' orders the identifiers, and this layer draws "
                                             r"other identifiers for the same calls on every fresh layer"):
        _least_of_random(inspect_layer(drawn))

    class Counted(Memory):
        prefix_arguments = True
        prefix_rule = "least"

    _least_of_random(inspect_layer(Counted))  # repeatable identifiers: no misuse, the failure stands
