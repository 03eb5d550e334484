"""What the kit takes from a layer's calls and values (:mod:`coalg.conformance.guard`), directly.

The hostile-layer tests reach these through whole runs; here each rule is checked on its
own, with every expected value written out by hand.
"""

from __future__ import annotations

import enum
import os

import pytest

from coalg.conformance.guard import WATCH_ENV, LayerEscape, layer_call, plain, plain_str, watched
from coalg.conformance.protocol import ProtocolMisuse
from coalg.model import MAX_DEPTH


class Colour(str, enum.Enum):
    RED = "red"


class Count(int):
    pass


class Ratio(float):
    pass


class Flag(int):  # a bool cannot be subclassed; an int subclass is read as a number
    pass


def test_plain_values_come_back_as_they_are() -> None:
    for x in (None, True, False, "", "a", 0, -7, 2**70, 0.5, -0.0, float("inf")):
        got = plain(x, "v")
        assert got == x and type(got) is type(x)
    assert plain(True, "v") is True and plain(False, "v") is False


def test_subclasses_of_builtins_are_copied_into_the_builtin() -> None:
    got = plain([Colour.RED, Count(3), Ratio(1.5)], "v")
    assert got == ["red", 3, 1.5]
    assert [type(x) for x in got] == [str, int, float]
    assert type(plain_str(Colour.RED, "id")) is str and plain_str(Colour.RED, "id") == "red"
    assert plain_str("x", "id") == "x"


def test_containers_become_lists_dicts_and_frozensets() -> None:
    assert plain((1, (2, 3)), "v") == [1, [2, 3]]
    assert type(plain((1,), "v")) is list
    assert plain({"a": (1,), "b": {"c": None}}, "v") == {"a": [1], "b": {"c": None}}
    got = plain({"x", "y"}, "v")
    assert got == frozenset({"x", "y"}) and type(got) is frozenset
    assert plain(frozenset({1}), "v") == frozenset({1})


def test_number_keys_become_their_text_and_str_subclass_keys_plain_text() -> None:
    got = plain({3: "three", 2.5: "x", False: "f", None: "n", Colour.RED: "r"}, "v")
    assert got == {"3": "three", "2.5": "x", "False": "f", "None": "n", "red": "r"}
    assert all(type(k) is str for k in got)


def test_a_key_that_is_not_a_string_or_a_number_is_refused() -> None:
    with pytest.raises(ProtocolMisuse, match=r"^metadata: a key must be a string or a number, got tuple$"):
        plain({(1, 2): "x"}, "metadata")
    with pytest.raises(ProtocolMisuse, match=r"^metadata: a key must be a string or a number, got frozenset$"):
        plain({frozenset(): "x"}, "metadata")
    with pytest.raises(ProtocolMisuse, match=r"^metadata: a key must hold JSON-like values .*, got bytes b'k'$"):
        plain({b"k": "x"}, "metadata")


def test_nan_is_refused_with_the_reason() -> None:
    with pytest.raises(ProtocolMisuse, match=r"^m: NaN is not a value the kit can compare: it equals nothing"):
        plain([1.0, float("nan")], "m")


def test_a_set_of_unhashable_values_is_refused() -> None:
    class Odd(set):
        pass

    with pytest.raises(ProtocolMisuse, match=r"^m: a set may hold only strings, numbers, booleans and None$"):
        plain(Odd({(1, 2)}), "m")  # its tuple becomes a list, which a frozenset cannot hold


def test_any_other_type_is_refused_naming_the_type_and_quoting_the_value() -> None:
    with pytest.raises(ProtocolMisuse, match=r"^tags must hold JSON-like values \(strings, numbers, booleans, "
                                             r"None, lists, mappings\), got bytes b'ab'$"):
        plain(b"ab", "tags")
    with pytest.raises(ProtocolMisuse, match=r"^id must be a string, got int 5$"):
        plain_str(5, "id")


def test_nesting_is_allowed_to_the_depth_limit_and_refused_past_it() -> None:
    def nest(n: int) -> object:
        x: object = "leaf"
        for _ in range(n):
            x = [x]
        return x

    assert plain(nest(MAX_DEPTH), "v") == nest(MAX_DEPTH)
    with pytest.raises(ProtocolMisuse, match=rf"^v: nested more than {MAX_DEPTH} levels deep"):
        plain(nest(MAX_DEPTH + 1), "v")
    assert plain({"a": {"b": 1}}, "v", 2) == {"a": {"b": 1}}  # room for two containers
    with pytest.raises(ProtocolMisuse, match=rf"^v: nested more than {MAX_DEPTH} levels deep"):
        plain({"a": {"b": {"c": 1}}}, "v", 2)


def test_a_mapping_changed_while_it_is_read_is_read_from_a_snapshot_of_its_items() -> None:
    class Growing(dict):
        def items(self):  # a layer's mapping that grows when read
            out = list(super().items())
            self["late"] = 1
            return out

    assert plain(Growing(a=1), "v") == {"a": 1}


def test_an_exception_passes_through_a_layer_call() -> None:
    with pytest.raises(KeyError), layer_call("save"):
        raise KeyError("no record")


@pytest.mark.parametrize("escape", [SystemExit(3), GeneratorExit(), type("Mine", (BaseException,), {})("own")])
def test_a_base_exception_becomes_one_line_of_protocol_misuse(escape: BaseException) -> None:
    with pytest.raises(LayerEscape) as e, layer_call("evolve"):
        raise escape
    name = type(escape).__name__
    assert str(e.value).startswith(f"evolve: the layer raised {name}")
    assert str(e.value).endswith("; a layer call must return or raise an Exception")
    assert e.value.__cause__ is None and e.value.__suppress_context__
    assert isinstance(e.value, ProtocolMisuse)


def test_ctrl_c_interrupts_an_unwatched_run_and_is_misuse_in_a_watched_one(monkeypatch) -> None:
    monkeypatch.delenv(WATCH_ENV, raising=False)
    assert watched() is False
    with pytest.raises(KeyboardInterrupt), layer_call("save"):
        raise KeyboardInterrupt
    monkeypatch.setenv(WATCH_ENV, "")
    assert watched() is False  # an empty path watches nothing


def test_a_watched_run_reports_each_call_on_its_channel(monkeypatch, tmp_path) -> None:
    from coalg.conformance import guard

    fifo = tmp_path / "watch"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # open first: a writer needs a reader
    monkeypatch.setenv(WATCH_ENV, str(fifo))
    monkeypatch.setattr(guard, "_channel", [])
    try:
        assert watched() is True
        with layer_call("recall"):
            pass
        with pytest.raises(LayerEscape, match=r"^save: the layer raised KeyboardInterrupt"), layer_call("save"):
            raise KeyboardInterrupt
        long = "x" * 1000
        with layer_call(long):
            pass
        got = os.read(reader, 65536)
    finally:
        for fd in guard._channel:
            os.close(fd)
        os.close(reader)
    pid = os.getpid()
    lines = got.split(b"\n")
    assert lines[:4] == [f"B {pid} recall".encode(), f"E {pid}".encode(), f"B {pid} save".encode(),
                         f"E {pid}".encode()]
    assert lines[4] == f"B {pid} {long}".encode()[:400]  # a line is cut at 400 bytes
    assert lines[5:] == [f"E {pid}".encode(), b""]


def test_a_channel_that_cannot_be_opened_is_left_alone(monkeypatch, tmp_path) -> None:
    from coalg.conformance import guard

    monkeypatch.setenv(WATCH_ENV, str(tmp_path / "absent" / "fifo"))
    monkeypatch.setattr(guard, "_channel", [])
    with layer_call("save"):
        pass
    assert guard._channel == []
