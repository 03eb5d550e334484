"""What the kit quotes from a layer: one line, at most the limit, never an exception, and honest lengths.

Every expected string is written out by hand.
"""

from __future__ import annotations

import pytest

from coalg.conformance.quoting import QUOTE_LIMIT, describe, quote


def test_a_short_value_is_its_repr() -> None:
    assert (quote("ab"), quote(7), quote(None), quote([1, "x"])) == ("'ab'", "7", "None", "[1, 'x']")


def test_a_long_string_shows_its_start_and_its_whole_length() -> None:
    assert quote("x" * 500) == "'" + "x" * 176 + "'…(500 chars)"
    assert quote("y" * 100, 40) == "'" + "y" * 16 + "'…(100 chars)"
    assert quote("z" * 38, 40) == "'" + "z" * 38 + "'"  # with its quotes, 40 characters: whole
    assert quote("z" * 39, 40) == "'" + "z" * 16 + "'…(39 chars)"  # a string is counted in its own characters


def test_a_string_whose_escapes_lengthen_it_still_keeps_to_the_limit() -> None:
    q = quote("\x00" * 500)
    assert len(q) <= QUOTE_LIMIT and q.startswith("'\\x00\\x00") and q.endswith("…(500 chars)")


def test_a_long_repr_is_cut_and_counted_whole() -> None:
    big = list(range(1000))
    q = quote(big, 60)
    assert q == repr(big)[:39] + f"…({len(repr(big))} chars)"
    assert len(q) <= 60


def test_a_repr_on_several_lines_is_put_on_one() -> None:
    class Tall:
        def __repr__(self) -> str:
            return "<Tall\n   a=1\n   b=2>"

    assert quote(Tall()) == "<Tall a=1 b=2>"


@pytest.mark.parametrize("bad, raised", [(lambda self: 1 / 0, "ZeroDivisionError"), (lambda self: 5, "TypeError")])
def test_a_repr_that_raises_or_is_not_text_is_named_not_raised(bad, raised) -> None:
    Odd = type("Odd", (), {"__repr__": bad})
    assert quote(Odd()) == f"<Odd whose repr raised {raised}>"


def test_an_exception_is_its_type_and_its_message_on_one_line() -> None:
    assert describe(ValueError("two\nlines  here")) == "ValueError: two lines here"
    assert describe(KeyError()) == "KeyError"
    assert describe(ValueError("   ")) == "ValueError"


def test_a_long_message_is_cut_and_counted_whole() -> None:
    d = describe(RuntimeError("m" * 1000), 50)
    assert d == "RuntimeError: " + "m" * 15 + "…(1014 chars)"
    assert len(d) <= 50


def test_a_message_that_cannot_be_read_is_said_so() -> None:
    class Mute(Exception):
        def __str__(self) -> str:
            raise RuntimeError("no")

    class Number(Exception):
        def __str__(self) -> str:
            return 3  # type: ignore[return-value]  # noqa: PLE0307 - the point of the test

    assert describe(Mute()) == "Mute (its message cannot be read: str() raised RuntimeError)"
    assert describe(Number()) == "Number (its message cannot be read: str() raised TypeError)"
