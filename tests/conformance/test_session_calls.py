"""One call of a live layer (:class:`coalg.conformance.session.Session`), directly: what the kit does
not ask, and the one-line misuse for each answer the protocol does not allow.

Each layer is :class:`GoodMemory` with one method changed; every message is written out by hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import conform_layers as layers
import pytest

from coalg.conformance import inspect_layer
from coalg.conformance.protocol import Capabilities, ProtocolMisuse
from coalg.conformance.session import NOT_ASKED, Session, unsupported
from coalg.model import (
    Allocation,
    Call,
    Delete,
    Err,
    Evolve,
    Flag,
    Found,
    Link,
    Merge,
    Nothing,
    Recall,
    RecallPrefix,
    Record,
    Relation,
    Save,
    SaveAt,
    Split,
    Supersede,
)

A = Record("a", type="fact", namespace="alice")
B = Record("b", type="fact", namespace="alice")


def _session(factory: Any, *saves: Record) -> Session:
    sess = Session(factory, inspect_layer(factory))
    for k, r in enumerate(saves, 1):
        sess.apply(Call(Save(r), Allocation((f"id{k:04d}",), k)))
    return sess


def _misuse(sess: Session, call: Call) -> str:
    with pytest.raises(ProtocolMisuse) as e:
        sess.apply(call)
    return str(e.value)


NONE = Capabilities((), None)
ALL = Capabilities(("save_at", "prefix_arguments", "prefix_recall", "valid_time", "close"), None)


@pytest.mark.parametrize("letter, caps, why", [
    (Link("id0001", Relation.EVOLVED_FROM, "id0002"), ALL, "link is not a call of the protocol"),
    (SaveAt("id0001", A), NONE, "save at a chosen identifier needs the save_at capability"),
    (Split("id0001", ("p",), by_prefix=True), NONE, "split by prefix needs the prefix_arguments capability"),
    (RecallPrefix("id"), NONE, "recall by prefix needs the prefix_recall capability"),
    (Evolve("id0001", "v2", summary="s"), ALL, "evolve takes no summary or tags in the protocol"),
    (Evolve("id0001", "v2", tags=frozenset({"t"})), ALL, "evolve takes no summary or tags in the protocol"),
    (Merge(("id0001", "id0002"), content="c"), ALL,
     "merge takes no content, type, summary or namespace in the protocol"),
    (Merge(("id0001", "id0002"), namespace="n"), ALL,
     "merge takes no content, type, summary or namespace in the protocol"),
])
def test_a_call_the_protocol_cannot_say_is_not_asked_and_says_why(letter: Any, caps: Capabilities, why: str) -> None:
    assert unsupported(letter, caps) == why


@pytest.mark.parametrize("letter", [Save(A), SaveAt("id0001", A), Evolve("id0001", "v2"), Merge(("id0001", "id0002")),
                                    Split("id0001", ("p",), by_prefix=True), RecallPrefix("id"), Delete("id0001")])
def test_a_call_the_layer_can_take_is_asked(letter: Any) -> None:
    assert unsupported(letter, ALL) is None


class NoRecall(layers.GoodMemory):
    def records(self) -> Any:
        if getattr(self, "closed_for_reading", False):
            raise AssertionError("read")
        return super().records()


def test_recall_by_identifier_reads_the_store_and_asks_the_layer_nothing() -> None:
    sess = _session(NoRecall, A)
    sess.layer.closed_for_reading = True  # a read of the layer now fails
    assert sess.apply(Call(Recall("id0001"))) == Found("id0001", sess.store.records["id0001"])
    assert sess.apply(Call(Recall("id0009"))) == Nothing()


def test_an_injected_fault_cannot_be_run_on_a_layer() -> None:
    sess = _session(layers.GoodMemory)
    with pytest.raises(ValueError, match=r"^a black-box layer cannot be run with injected edge-write faults$"):
        sess.apply(Call(Save(A), Allocation(("id0001",), 1)).with_faults(0))
    assert sess.calls == []


def test_a_shared_prefix_of_one_record_is_not_asked() -> None:
    sess = _session(layers.DeclaredPrefix, A)
    out = sess.apply(Call(Delete("all", by_prefix=True), Allocation((), 2)))
    assert out == Err(NOT_ASKED + "a shared prefix needs two records")
    assert set(sess.store.records) == {"id0001"}


class SplitAnswers(layers.GoodMemory):
    answer: Any = None

    def split(self, id: str, parts: Sequence[str], *, valid_time: Any = None) -> Any:
        made = super().split(id, parts, valid_time=valid_time)
        return type(self).answer(made)


def _split_with(answer: Any) -> str:
    Layer = type("Layer", (SplitAnswers,), {"answer": staticmethod(answer)})
    return _misuse(_session(Layer, A), Call(Split("id0001", ("p", "q")), Allocation(("id0002", "id0003"), 2)))


class Unreadable(Sequence):
    def __len__(self) -> int:
        return 2

    def __getitem__(self, k: int) -> str:
        raise RuntimeError("gone")


def test_what_a_split_returns_must_be_its_new_identifiers_one_per_part_in_order() -> None:
    assert _split_with(lambda m: "".join(m)).startswith("split: expected a sequence of identifiers (strings), got '")
    assert _split_with(lambda m: Unreadable()) == "split: reading the returned sequence raised RuntimeError: gone"
    assert _split_with(lambda m: [1, 2]) == "split: expected a sequence of identifiers (plain strings), got [1, 2]"
    assert _split_with(lambda m: m[:1]).startswith("split: expected 2 distinct identifiers, one per part, got ['")
    assert _split_with(lambda m: [m[0], m[0]]).startswith("split: expected 2 distinct identifiers, one per part")
    assert _split_with(lambda m: m[::-1]) == (
        "split: the identifiers came back in another order than the parts (identifier 1 names the part 'q', not "
        "'p'); expected one identifier per part, in the parts' order")


class Text(str):
    pass


class SaveAnswers(layers.GoodMemory):
    answer: Any = None

    def save(self, content: str, **kw: Any) -> Any:
        made = super().save(content, **kw)
        return type(self).answer(self, made)


def _save_with(answer: Any, *before: Record) -> str:
    Layer = type("Layer", (SaveAnswers,), {"answer": staticmethod(lambda self, made: made)})
    sess = _session(Layer, *before)
    Layer.answer = staticmethod(answer)
    return _misuse(sess, Call(Save(B), Allocation((f"id{len(before) + 1:04d}",), 9)))


def test_what_a_save_returns_must_be_a_new_identifier_records_lists() -> None:
    assert _save_with(lambda self, made: 5) == "save: expected the new record's identifier (a string), got int 5"
    assert _save_with(lambda self, made: Text(made)).startswith(
        "save: expected the new record's identifier (a string), got a str subclass '")
    assert _save_with(lambda self, made: "ghost") == "save: returned 'ghost', which records() does not list"
    first = _save_with(lambda self, made: min(self._born, key=self._born.__getitem__), A)
    assert first.startswith("save: returned '") and first.endswith(
        "', the identifier of a record that was there before the call; expected the new record's identifier")


class Mute(Exception):
    def __str__(self) -> str:
        raise RuntimeError("no")


class MuteSupersede(layers.GoodMemory):
    def supersede(self, old: str, new: str) -> None:
        raise Mute


class RecallAnswers(layers.DeclaredPrefix):
    def recall(self, prefix: str) -> Any:
        return 5


def test_a_refusal_whose_message_cannot_be_read_is_a_misuse() -> None:
    sess = _session(MuteSupersede, A, B)
    assert _misuse(sess, Call(Supersede("id0001", "id0002"), Allocation((), 3))) == (
        "supersede: the layer raised Mute (its message cannot be read: str() raised RuntimeError)")


def test_recall_by_prefix_must_answer_an_identifier_records_lists_or_none() -> None:
    sess = _session(RecallAnswers, A)
    assert _misuse(sess, Call(RecallPrefix("id0001"), Allocation((), 2))) == (
        "recall: expected an identifier records() lists, or None, got 5 (a method recall(ref) is read as recall by "
        "identifier or prefix, the prefix_recall capability)")


def test_a_close_that_raises_is_a_misuse() -> None:
    sess = _session(layers.GoodMemory)
    sess.caps = Capabilities(("close",), None)
    sess.layer.close = lambda: (_ for _ in ()).throw(OSError("busy"))  # type: ignore[attr-defined]
    with pytest.raises(ProtocolMisuse, match=r"^close: raised OSError: busy$"):
        sess.close()


def test_supersede_and_delete_answer_a_flag_and_recall_reads_the_store() -> None:
    sess = _session(layers.GoodMemory, A, B)
    assert sess.apply(Call(Supersede("id0001", "id0002"), Allocation((), 3))) == Flag(True)
    assert sess.apply(Call(Delete("id0002"), Allocation((), 4))) == Flag(True)
    assert set(sess.store.records) == {"id0001"}


class PhraseInMessage(layers.GoodMemory):
    def supersede(self, old: str, new: str) -> None:
        raise KeyError("lookup failed (its message cannot be read by humans either)")


def test_a_refusal_whose_message_reads_like_the_kits_words_is_a_refusal() -> None:
    sess = _session(PhraseInMessage, A, B)
    assert sess.apply(Call(Supersede("id0001", "id0002"), Allocation((), 3))) == Err("refused (KeyError)")
    assert sess.messages[-1] == "KeyError: 'lookup failed (its message cannot be read by humans either)'"
