"""SQLite's ``LIKE`` as the model reads it, checked against a real ``SELECT … LIKE`` (sqlite3).

The expected answers come from Python's own ``sqlite3`` (the SQLite ContextFS
runs on), never from :mod:`coalg.model.sqlite_like`: identifiers and prefixes
are drawn over mixed case, ``_``, ``%``, non-ASCII letters (whose case SQLite
does not fold), a NUL, a newline, and the hyphen and hex digits of the package's ids.
"""

from __future__ import annotations

import sqlite3

import pytest
from budget import budget
from hypothesis import given
from hypothesis import strategies as st

from coalg.model import (
    EMPTY,
    Allocation,
    Delete,
    Err,
    Evolve,
    Found,
    Merge,
    RecallPrefix,
    Record,
    Save,
    SaveAt,
    Store,
    Theta,
    first_match,
    has_like_artefacts,
    like,
    like_matches,
    like_prefix,
    resolve_prefix,
    step,
)

_ALPHABET = "aAbBfF01-_%éÉßẞz\0Zk\u212a\n"
ids = st.text(alphabet=_ALPHABET, min_size=0, max_size=6)
prefixes = st.text(alphabet=_ALPHABET, min_size=0, max_size=4)


@pytest.fixture(scope="module")
def db() -> sqlite3.Connection:
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE TABLE memories (id TEXT PRIMARY KEY)")
    return conn


def _sqlite_matches(conn: sqlite3.Connection, keys: list[str], p: str) -> list[str]:
    conn.execute("DELETE FROM memories")
    conn.executemany("INSERT INTO memories (id) VALUES (?)", [(k,) for k in keys])
    rows = conn.execute("SELECT id FROM memories WHERE id LIKE ? ORDER BY id", (f"{p}%",))
    return [r[0] for r in rows]


@budget(400)
@given(value=ids, pattern=prefixes)
def test_like_is_sqlites(db: sqlite3.Connection, value: str, pattern: str) -> None:
    (expected,) = db.execute("SELECT ? LIKE ?", (value, pattern)).fetchone()
    assert like(value, pattern) is bool(expected)


@budget(300)
@given(keys=st.sets(ids, max_size=12), p=prefixes)
def test_like_matches_are_sqlites_rows(db: sqlite3.Connection, keys: set[str], p: str) -> None:
    expected = _sqlite_matches(db, sorted(keys), p)
    s = Store.of({k: Record("x") for k in keys})
    assert list(like_matches(s, p)) == expected
    assert [k for k in sorted(keys) if like_prefix(p, k)] == expected
    assert first_match(s, p) == (expected[0] if expected else None)
    assert first_match(s, p, Theta(descending=True)) == (expected[-1] if expected else None)


@budget(300)
@given(i=ids, keys=st.sets(ids, max_size=8))
def test_without_like_artefacts_an_identifier_finds_exactly_its_extensions(
        db: sqlite3.Connection, i: str, keys: set[str]) -> None:
    if has_like_artefacts(i):
        return
    keys = {k for k in keys if not any("A" <= c <= "Z" for c in k)}  # stored ids without capitals
    assert _sqlite_matches(db, sorted(keys), i) == sorted(k for k in keys if k.startswith(i))


def _reads_past(i: str) -> str:
    """A string SQLite's ``i%`` matches that does not start with ``i`` (capitals folded, wildcards filled)."""
    return "".join(c.lower() if "A" <= c <= "Z" else {"_": "q", "%": "qq"}.get(c, c) for c in i)


@budget(300)
@given(i=ids)
def test_an_identifier_with_like_artefacts_finds_a_string_it_does_not_start(db: sqlite3.Connection, i: str) -> None:
    if not has_like_artefacts(i):
        return
    if "\0" in i:  # a NUL ends the pattern where SQLite reads it
        assert any(c in "\0" for c in i)
        return
    w = _reads_past(i)
    assert not w.startswith(i) and _sqlite_matches(db, [w], i) == [w]


def test_like_artefacts_by_example() -> None:
    assert [has_like_artefacts(i) for i in ("a0123456-789", "é1", "", "A", "z_", "50%", "a\0")] == \
        [False, False, False, True, True, True, True]


@pytest.mark.parametrize("p", ["z", "Z", "a", "A", "ab", "[", "`", "^"])
def test_case_variants_at_the_ends_of_the_alphabet_and_the_signs_between_the_cases(
        db: sqlite3.Connection, p: str) -> None:
    keys = ["Zk", "zk", "ab", "Ab", "AB", "aB", "[x", "`y", "^z", "_q"]
    expected = _sqlite_matches(db, keys, p)
    assert list(like_matches(Store.of({k: Record("x") for k in keys}), p)) == expected


@pytest.mark.parametrize("p", ["a_b", "a%b", "_", "%\n", "a\n"])
def test_a_wildcard_matches_a_newline_as_sqlite_does(db: sqlite3.Connection, p: str) -> None:
    keys = ["a\nb", "\n", "ab", "a\n\nb"]
    assert list(like_matches(Store.of({k: Record("x") for k in keys}), p)) == _sqlite_matches(db, keys, p)
    assert [like(k, p) for k in keys] == [bool(db.execute("SELECT ? LIKE ?", (k, p)).fetchone()[0]) for k in keys]


def test_the_cases_the_package_meets() -> None:
    s = Store.of({"a0123456-789": Record("x"), "b1000000-000": Record("y")})
    assert resolve_prefix(s, "A0") == "a0123456-789"  # ASCII case folded
    assert resolve_prefix(s, "a_") == "a0123456-789"  # `_` is any one character
    assert resolve_prefix(s, "%0-") == "b1000000-000"  # `%` any run
    assert resolve_prefix(s, "%") == "a0123456-789"
    assert resolve_prefix(s, "B1000000-000", Theta(descending=True)) == "b1000000-000"
    assert resolve_prefix(Store.of({"é1": Record("x")}), "É") is None  # non-ASCII case is kept


def test_every_prefix_letter_resolves_by_like() -> None:
    s = Store.of({"a0123456-789": Record("x", type="fact"), "b1000000-000": Record("y")})
    out = step(s, RecallPrefix("A0"), Allocation((), 5))[0]
    assert isinstance(out, Found) and out.id == "a0123456-789"
    assert step(s, Delete("A_", by_prefix=True), Allocation((), 5))[1].dom() == {"b1000000-000"}
    out, after = step(s, Evolve("A0", "z", by_prefix=True), Allocation(("n1",), 5))
    assert not isinstance(out, Err) and after.records["n1"].metadata["evolved_from"] == "A0"
    out, _ = step(s, Merge(("A%", "%-0"), by_prefix=True), Allocation(("n1",), 5))
    assert not isinstance(out, Err)


@pytest.mark.parametrize("bad", ["banana", "Fact", "FACT", " fact", "", "événement", "agent-run"])
def test_types_outside_memory_type_are_refused_and_nothing_is_written(bad: str) -> None:
    s = step(EMPTY, Save(Record("x", type="fact")), Allocation(("a",), 1))[1]
    for letter, xi in [(Save(Record("y", type=bad)), Allocation(("b",), 2)),
                       (SaveAt("a", Record("y", type=bad)), Allocation((), 2))]:
        out, after = step(s, letter, xi)
        assert isinstance(out, Err) and after == s
        assert out.reason.startswith(f"{letter.kind}: type {bad!r} is not one of ContextFS's ")
    s2 = step(s, Save(Record("z", type="decision")), Allocation(("c",), 2))[1]
    out, after = step(s2, Merge(("a", "c"), type=bad), Allocation(("m",), 3))
    if bad == "":  # the package's `if memory_type:`: an empty type is no type
        assert after.records["m"].type in {"fact", "decision"}
    else:
        assert isinstance(out, Err) and after == s2
        assert out.reason.startswith(f"merge: type {bad!r} is not one of ContextFS's ")


@pytest.mark.parametrize("good", ["fact", "user", "agent_run", "episodic"])
def test_memory_types_are_accepted(good: str) -> None:
    _, after = step(EMPTY, Save(Record("x", type=good)), Allocation(("a",), 1))
    assert after.records["a"].type == good
