"""Reading a fresh layer before the exploration (:mod:`coalg.conformance.detect`), directly.

Each layer below is :class:`GoodMemory` with one thing changed; the expected messages are
written out by hand.
"""

from __future__ import annotations

from typing import Any, ClassVar

import conform_layers as layers
import pytest

from coalg.conformance.compare import strings as _strings
from coalg.conformance.detect import _fresh_ids, _ids_written, inspect_layer
from coalg.conformance.protocol import BadLayer, Capabilities, ProtocolMisuse

NONE = Capabilities((), None)


class Counted(layers.GoodMemory):
    """Identifiers n1, n2, ... in the order records are made: the same in every fresh layer."""

    def _id(self, content: str, type: str, namespace: str) -> str:
        return f"n{len(self._born) + 1}"


class Preloaded(layers.GoodMemory):
    def __init__(self) -> None:
        super().__init__()
        self.save("left over")


class PreloadedEdges(layers.GoodMemory):
    def edges(self) -> list[tuple[str, str, str]]:
        return [("u1", "evolved_from", "u2"), ("u2", "evolved_into", "u1")]


class RaisingProperty(layers.GoodMemory):
    @property
    def prefix_arguments(self) -> bool:
        raise RuntimeError("not configured")


class FailingClose(layers.GoodMemory):
    def close(self) -> None:
        raise OSError("disk gone")


class Counting(layers.GoodMemory):
    """Counts the layers it made and closed: the kit closes every layer it opens to look."""

    opened: ClassVar[list[Counting]] = []
    closed = 0

    def __init__(self) -> None:
        super().__init__()
        Counting.opened.append(self)

    def close(self) -> None:
        Counting.closed += 1


class RefusingSave(layers.GoodMemory):
    def save(self, content: str, **kw: Any) -> str:
        raise ValueError("read only")


class IdsInContent(Counted):
    """An evolve writes its parent's identifier into the new content: ``"note six (from n1)"``."""

    def evolve(self, id: str, content: str, *, valid_time: Any = None) -> str:
        return super().evolve(id, f"{content} (from {id})", valid_time=valid_time)


class RootInMetadata(Counted):
    """A supersede notes the new record's identifier whole, under a key of its own."""

    def supersede(self, old: str, new: str) -> None:
        super().supersede(old, new)
        self._records[old]["metadata"]["see_also"] = new


def test_a_good_layer_is_read_with_its_capabilities_and_drawn_identifiers() -> None:
    caps = inspect_layer(layers.GoodMemory)
    assert caps.fresh_ids is True
    assert (caps.ids_in_text, caps.ids_in_metadata) == (False, False)
    assert caps.has("valid_time") and not caps.has("close")


def test_identifiers_counted_from_one_are_not_fresh() -> None:
    assert _fresh_ids(Counted, NONE) is False
    assert _fresh_ids(layers.GoodMemory, NONE) is True
    assert inspect_layer(Counted).fresh_ids is False


def test_a_first_save_refused_is_not_read_as_fresh_identifiers() -> None:
    assert _fresh_ids(RefusingSave, NONE) is False
    assert _ids_written(RefusingSave, NONE, False) == (False, False)


def test_identifiers_written_inside_text_or_whole_in_metadata_are_seen() -> None:
    assert _ids_written(Counted, NONE, False) == (False, False)
    assert _ids_written(IdsInContent, NONE, False) == (True, False)
    assert _ids_written(RootInMetadata, NONE, False) == (False, True)
    caps = inspect_layer(IdsInContent)
    assert (caps.ids_in_text, caps.ids_in_metadata) == (True, False)


def test_a_fresh_layer_holding_records_or_edges_is_a_misuse() -> None:
    with pytest.raises(ProtocolMisuse, match=r"^records: a fresh layer must hold no record; this one holds 1$"):
        inspect_layer(Preloaded)
    with pytest.raises(ProtocolMisuse, match=r"^edges: a fresh layer must hold no edge; this one holds 2$"):
        inspect_layer(PreloadedEdges)


def test_an_attribute_that_raises_is_a_misuse_naming_the_error() -> None:
    with pytest.raises(ProtocolMisuse, match=r"^reading the layer's methods and attributes raised "
                                             r"RuntimeError: not configured$"):
        inspect_layer(RaisingProperty)


def test_a_close_that_raises_is_a_misuse_naming_the_error() -> None:
    with pytest.raises(ProtocolMisuse, match=r"^close: raised OSError: disk gone$"):
        inspect_layer(FailingClose)


def test_every_layer_made_to_look_is_closed() -> None:
    Counting.opened, Counting.closed = [], 0
    inspect_layer(Counting)
    assert len(Counting.opened) == 4  # the fresh layer, two for fresh identifiers, one for written ones
    assert Counting.closed == 4


def test_a_factory_that_cannot_be_called_is_a_bad_layer() -> None:
    with pytest.raises(BadLayer, match=r"^calling the factory .*<locals>\.boom\(\) raised ZeroDivisionError: "
                                       r"division by zero$"):
        def boom() -> Any:
            return 1 / 0
        inspect_layer(boom)
    with pytest.raises(BadLayer, match=r"^int is not a factory: calling it with no arguments raised TypeError"):
        inspect_layer(3)  # type: ignore[arg-type]


def test_the_strings_of_a_value_are_found_at_any_depth_but_not_in_keys() -> None:
    assert _strings("a") == ["a"]
    assert _strings({"k": ["b", ("c", {"d": "e"})], "n": 3, "none": None}) == ["b", "c", "e"]
    assert _strings(7) == [] and _strings(None) == []
    assert sorted(_strings(frozenset({"x", "y"}))) == ["x", "y"]  # a set, as plain() copies one


class PartsNoteSiblings(Counted):
    """A split's parts note each other as ``mem://`` links, and the split returns them as a tuple."""

    def split(self, id: str, parts: Any, *, valid_time: Any = None) -> Any:
        made = super().split(id, parts, valid_time=valid_time)
        for j in made:
            self._records[j]["metadata"]["siblings"] = [f"mem://{k}" for k in made if k != j]
        return tuple(made)


def test_the_identifiers_a_split_returns_in_any_sequence_are_looked_for_in_text() -> None:
    assert _ids_written(PartsNoteSiblings, NONE, False) == (True, False)
    as_list = type("AsList", (PartsNoteSiblings,), {"split": lambda self, *a, **k: list(
        PartsNoteSiblings.split(self, *a, **k))})
    assert _ids_written(as_list, NONE, False) == (True, False)


class Awaited(layers.GoodMemory):
    async def records(self) -> Any:  # type: ignore[override]
        return {}


class AwaitedRecall(layers.GoodMemory):
    async def recall(self, ref: str) -> Any:
        return None


def test_an_async_method_is_one_line_saying_so_and_nothing_is_left_unawaited(recwarn) -> None:
    with pytest.raises(ProtocolMisuse, match=r"^records: is a coroutine function \(async def\), and the kit calls "
                                             r"a layer's methods and reads what they return; expected records\(\)"):
        inspect_layer(Awaited)
    with pytest.raises(ProtocolMisuse, match=r"^recall: is a coroutine function \(async def\)"):
        inspect_layer(AwaitedRecall)
    assert not [w for w in recwarn if "never awaited" in str(w.message)]
