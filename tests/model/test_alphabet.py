"""The alphabet (Definitions 3.7–3.8): a letter prints itself, as the tables of the book show it."""

from __future__ import annotations

import typing

import pytest
from budget import budget
from hypothesis import given
from hypothesis import strategies as st
from strategies import any_letters, stores

from coalg.laws import show_letter
from coalg.model import (
    Delete,
    Evolve,
    Letter,
    Link,
    Merge,
    Recall,
    RecallPrefix,
    Record,
    Relation,
    Save,
    SaveAt,
    Split,
    Supersede,
)

EVERY_KIND: list[Letter] = [
    Save(Record("a 'quoted' text", namespace="alice")),
    SaveAt("id0001", Record("b")),
    Recall("id0001"),
    RecallPrefix("id"),
    Delete("id0001"),
    Delete("id0", by_prefix=True),
    Evolve("id0001", "c"),
    Evolve("id0", "c", by_prefix=True),
    Merge(("id0001", "id0002")),
    Merge(("id0", "id1", "id2"), by_prefix=True),
    Split("id0001", ("p", "q")),
    Split("id0", ("p", "q"), by_prefix=True),
    Supersede("id0001", "id0002"),
    Link("id0001", Relation.REFERENCES, "id0002", bidirectional=True),
]


def test_every_kind_is_covered() -> None:
    assert {type(a) for a in EVERY_KIND} == set(typing.get_args(Letter))


@pytest.mark.parametrize("letter", EVERY_KIND, ids=lambda a: f"{a.kind}{'-prefix' if getattr(a, 'by_prefix', False) else ''}")
def test_a_letter_prints_as_show_letter_shows_it(letter: Letter) -> None:
    assert str(letter) == show_letter(letter)
    assert f"{letter}" == str(letter) and repr(letter) != str(letter)  # repr stays the dataclass's


def test_printed_forms() -> None:
    assert [str(a) for a in EVERY_KIND] == [
        "save(\"a 'quoted' text\" in alice)", "save_at(id0001, 'b')", "recall(id0001)", "recall_prefix(id…)",
        "delete(id0001)", "delete(id0…) by prefix", "evolve(id0001, 'c')", "evolve(id0…, 'c') by prefix",
        "merge(id0001, id0002)", "merge(id0…, id1…, id2…) by prefix", "split(id0001, 'p', 'q')",
        "split(id0…, 'p', 'q') by prefix", "supersede(id0001, id0002)", "link(id0001, REFERENCES, id0002)",
    ]
    assert str(Link("i", Relation.REFERENCES, "j")) == "link(i, REFERENCES, j)"


@pytest.mark.parametrize("not_a_letter", [5, "save(x)", Record("x"), None])
def test_show_letter_refuses_what_is_not_a_letter(not_a_letter: object) -> None:
    with pytest.raises(TypeError, match="not a letter"):
        show_letter(not_a_letter)  # type: ignore[arg-type]


@budget(200)
@given(data=st.data())
def test_generated_letters_print_as_show_letter_shows_them(data: st.DataObject) -> None:
    s = data.draw(stores())
    letter = data.draw(any_letters(s))
    assert str(letter) == show_letter(letter)
