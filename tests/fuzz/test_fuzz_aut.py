"""Fuzzing the ``.aut`` reader: mutated files give an LTS or an AutInputError -- the same one from
both backends -- within the time limit, and an accepted file allocates what it holds."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from mutate import fuzz, mutants, within

from coalg.bisim import AutInputError, count_classes, read_aut, write_aut

SEEDS = [
    b'des (0,5,3)\n(0,"rec:x",0)\n(0,"a",1)\n(1,"rec:y",1)\n(2,"rec:x",2)\n(1,"a",2)\n',
    b'des (0,4,3)\n(0,"rec:x",0)\n(1,"rec:y",1)\n(0,a,2)\n(1,a,2)\n',
    b"des (0,3,4)\r\n(0,tau,1)\r\n(1,\"b(1,2)\",2)\r\n(2,tau,3)\r\n",
    b"des (2,4,4)\n(3,a,2)\n(0,c,3)\n(2,a,0)\n(0,b,1)\n",
    b"des (0,2,65541)\n(65540,a,12345)\n(00065540,\"b\",00000000)\n",
    b"des (0,1,1)\n(0,\"\xc3\xa9t\xc3\xa9\",0)",
]
TOKENS = [
    b"9" * 4400, b"0" * 5000, "\u0661".encode(), "\u0663\u0663".encode(), b"des (0,1,20000000)\n",
    b"des (0,0,0)\n", b"\n", b"\n" * 50, b"(", b")", b",", b'"', b"rec:", b'"rec:z"', b"-", b"+", b"\r", b"\t",
    b" ", b"\xff", b"\x00", b"\xef\xbb\xbf", b"99999999999", b"2147483648", b"12345678", b"x" * 70000,
]
PREFIXES = [None, "rec:"]


def outcome(data: bytes, prefix: str | None, backend: str) -> tuple[Any, ...]:
    """What reading gives: the LTS as plain tuples, or the error's message (any other exception escapes)."""
    try:
        with within():
            a = read_aut(io.BytesIO(data), payload_prefix=prefix, backend=backend)  # type: ignore[arg-type]
    except AutInputError as e:
        return ("error", str(e))
    obs = None if a.observations is None else tuple(a.observations)
    return ("ok", a.initial, a.n_states, a.labels, tuple(a.src), tuple(a.label), tuple(a.dst), obs, a.payloads)


@fuzz(300)
@given(mutants(SEEDS, TOKENS), st.sampled_from(PREFIXES))
def test_both_backends_give_the_same_lts_or_the_same_error(data: bytes, prefix: str | None) -> None:
    python, numpy = outcome(data, prefix, "python"), outcome(data, prefix, "numpy")
    assert python == numpy


@fuzz(100)
@given(mutants(SEEDS, TOKENS), st.sampled_from(PREFIXES))
def test_accepted_files_round_trip_and_refine(data: bytes, prefix: str | None) -> None:
    got = outcome(data, prefix, "auto")
    if got[0] == "error":
        return
    a = read_aut(io.BytesIO(data), payload_prefix=prefix)
    out = io.StringIO()
    write_aut(out, a)
    again = read_aut(io.StringIO(out.getvalue()), payload_prefix=prefix)
    assert outcome(out.getvalue().encode(), prefix, "auto")[1:3] == got[1:3]
    assert sorted(again.named_transitions()) == sorted(a.named_transitions())
    with within():
        assert 1 <= count_classes(again) <= again.n_states


@fuzz(60)
@given(mutants(SEEDS, TOKENS))
def test_reading_a_path_gives_the_stream_result(tmp_path_factory: pytest.TempPathFactory, data: bytes) -> None:
    path: Path = tmp_path_factory.mktemp("aut") / "m.aut"
    path.write_bytes(data)
    try:
        with within():
            a = read_aut(path, backend="python")
    except AutInputError as e:
        assert str(e).startswith(f"{path}")
        expected = outcome(data, None, "python")
        assert expected[0] == "error" and expected[1].replace("<stream>", str(path), 1) == str(e)
    else:
        assert outcome(data, None, "python")[1:3] == (a.initial, a.n_states)
