"""Tests of coalg.bisim.aut, aut_read and aut_write: round trips, both parsers agreeing, and every hostile input naming its location."""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest
from budget import budget
from hypothesis import given
from hypothesis import strategies as st

from coalg.bisim import AutLTS, coarsest_partition, disjoint_union, read_aut, refine, write_aut
from coalg.bisim.buffers import load_numpy
from coalg.errors import InputError

BACKENDS = ["python", "numpy"] if load_numpy() is not None else ["python"]

label_names = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters='\n\r"'), max_size=12
).map(str.strip).filter(bool) | st.sampled_from(
    ["a", "tau", "a(1,2)", "x, y", "ünï", 'a"b', "(", ")"]
)


@st.composite
def auts(draw: st.DrawFn) -> AutLTS:
    n = draw(st.integers(1, 8))
    names = draw(st.lists(label_names, min_size=1, max_size=4, unique=True))
    trans = draw(
        st.lists(
            st.tuples(st.integers(0, n - 1), st.sampled_from(names), st.integers(0, n - 1)),
            max_size=20,
        )
    )
    return AutLTS.from_transitions(draw(st.integers(0, n - 1)), n, trans)


def text_of(aut: AutLTS) -> str:
    out = io.StringIO()
    write_aut(out, aut)
    return out.getvalue()


def same(a: AutLTS, b: AutLTS) -> bool:
    return (a.initial, a.n_states, list(a.named_transitions())) == (
        b.initial,
        b.n_states,
        list(b.named_transitions()),
    ) and a.labels == b.labels


# --------------------------------------------------------------------------- round trips


@pytest.mark.parametrize("backend", BACKENDS)
@budget(120)
@given(aut=auts())
def test_round_trip(backend: str, aut: AutLTS) -> None:
    back = read_aut(io.StringIO(text_of(aut)), backend=backend)  # type: ignore[arg-type]
    assert same(aut, back)


@budget(80)
@given(aut=auts(), seed=st.integers(0, 2**32 - 1))
def test_layout_variants_parse_alike(aut: AutLTS, seed: int) -> None:
    """Unquoted labels, blanks, CRLF and blank lines (slow path) give what the strict layout gives."""
    rng = random.Random(seed)
    lines = [f"des ({aut.initial},{aut.n_transitions},{aut.n_states})"]
    for s, a, t in aut.named_transitions():
        quoted = '"' + a + '"'
        lab = (
            a
            if (rng.random() < 0.5 and "," not in a and not a.startswith('"') and a == a.strip())
            else quoted
        )
        sp = " " if rng.random() < 0.3 else ""
        lines.append(f"({sp}{s},{sp}{lab}{sp},{sp}{t}{sp})")
        if rng.random() < 0.1:
            lines.append("")
    eol = "\r\n" if rng.random() < 0.5 else "\n"
    text = eol.join(lines) + (eol if rng.random() < 0.7 else "")
    for backend in BACKENDS:
        assert same(aut, read_aut(io.StringIO(text), backend=backend))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "text",
    [
        'des (0,3,8)\n(00000005,a,00000007)\n(0,"b",7)\n(00000007,a,0)',  # 8 digits, no final newline
        'des (0,2,65541)\n(65540,a,12345)\n(00065540,"b",00000000)\n',  # as many lone states as allowed
        "des (0,2,3)\n(0000001,a,00000002)\n(2,b,0)\n",  # leading zeros
        "des (0,1,2)\n(1,a,0)",  # a short last line at the very end of the data
        "des (0,2,12)\r\n(10,xyz,11)\r\n(11,xyz,10)\r\n",
    ],
)
def test_number_layouts_parse_alike(text: str) -> None:
    parsed = [read_aut(io.StringIO(text), backend=b) for b in BACKENDS]  # type: ignore[arg-type]
    assert all(same(p, parsed[0]) for p in parsed)
    first = text.split("\n")[1].strip()
    src = int(first[1 : first.index(",")])
    assert parsed[0].src[0] == src


def test_quoted_and_unquoted_are_the_same_label() -> None:
    aut = read_aut(io.StringIO('des (0,3,2)\n(0,"a",1)\n(1,a,0)\n(0,"b(1,2)",0)\n'))
    assert aut.labels == ("a", "b(1,2)")
    assert list(aut.transitions()) == [(0, 0, 1), (1, 0, 0), (0, 1, 0)]


def test_file_and_binary_stream(tmp_path: Path) -> None:
    aut = AutLTS.from_transitions(1, 3, [(0, "x", 1), (1, "y", 2), (2, "x", 0)])
    p = tmp_path / "t.aut"
    write_aut(p, aut)
    assert same(read_aut(p), aut)
    assert same(read_aut(str(p)), aut)
    with open(p, "rb") as f:
        assert same(read_aut(f), aut)


def test_long_labels_and_many_labels() -> None:
    names = [f"action_with_a_long_name_{i}" for i in range(300)] + [f"s{i}" for i in range(300)]
    trans = [(i % 7, names[(i * 37) % len(names)], (i * 3) % 7) for i in range(5000)]
    aut = AutLTS.from_transitions(0, 7, trans)
    for backend in BACKENDS:
        assert same(read_aut(io.StringIO(text_of(aut)), backend=backend), aut)  # type: ignore[arg-type]


def test_to_lts_and_disjoint_union() -> None:
    a = read_aut(io.StringIO('des (0,2,3)\n(0,"a",1)\n(1,"b",2)\n'))
    b = read_aut(io.StringIO('des (1,2,3)\n(1,"a",2)\n(2,"b",0)\n'))
    u, off = disjoint_union(a, b)
    assert off == 3 and u.labels == ("a", "b") and u.n_states == 6
    part = refine(u.to_lts()).tolist()
    assert part[a.initial] == part[off + b.initial]


# --------------------------------------------------------------------------- payloads


def test_payload_prefix() -> None:
    text = 'des (0,5,3)\n(0,"rec:x",0)\n(0,"a",1)\n(1,"rec:y",1)\n(2,"rec:x",2)\n(1,"a",2)\n'
    plain = read_aut(io.StringIO(text))
    assert plain.n_transitions == 5 and plain.observations is None
    for backend in BACKENDS:
        alt = read_aut(io.StringIO(text), payload_prefix="rec:", backend=backend)  # type: ignore[arg-type]
        assert list(alt.observations or []) == [1, 2, 1] and list(alt.transitions()) == [
            (0, 0, 1),
            (1, 0, 2),
        ]
    aut = read_aut(io.StringIO(text), payload_prefix="rec:")
    assert aut.labels == ("a",) and aut.payloads == ("x", "y") and aut.n_transitions == 2
    assert aut.observations is not None and list(aut.observations) == [1, 2, 1]
    lts = aut.to_lts()
    assert refine(lts).tolist() == coarsest_partition(3, [1, 2, 1], [(0, 0, 1), (1, 0, 2)])
    # both readings give the same classes
    assert refine(plain.to_lts()).tolist() == refine(lts).tolist()
    again = read_aut(io.StringIO(text_of(aut)), payload_prefix="rec:")
    assert list(again.observations or []) == [1, 2, 1] and again.payloads == ("x", "y")


@pytest.mark.parametrize(
    "text, line, msg",
    [
        ('des (0,1,2)\n(0,"rec:x",1)\n', 2, "not a self-loop"),
        ('des (0,2,1)\n(0,"rec:x",0)\n(0,"rec:y",0)\n', 3, "second payload"),
        # the first bad transition in file order, whichever kind it is, with either backend
        ('des (0,3,2)\n(0,"rec:x",0)\n(0,"rec:y",0)\n(0,"rec:z",1)\n', 3, "second payload"),
        ('des (0,3,2)\n(0,"rec:z",1)\n(0,"rec:x",0)\n(0,"rec:y",0)\n', 2, "not a self-loop"),
    ],
)
@pytest.mark.parametrize("backend", BACKENDS)
def test_payload_errors(text: str, line: int, msg: str, backend: str) -> None:
    with pytest.raises(InputError, match=msg) as e:
        read_aut(io.StringIO(text), payload_prefix="rec:", backend=backend)  # type: ignore[arg-type]
    assert e.value.line == line


# --------------------------------------------------------------------------- hostile input

HOSTILE = [
    (b"", 1, "empty file"),
    (b"  \n\n ", 1, "empty file"),
    (b"garbage\n", 1, "expected header"),
    (b"(0,a,1)\n", 1, "expected header"),
    (b"des (0,1)\n(0,a,1)\n", 1, "expected header"),
    (b"des (0,-1,2)\n", 1, "negative"),
    (b"des (0,0,0)\n", 1, "0 states"),
    (b"des (5,0,3)\n", 1, "initial state 5 out of range"),
    (b"des (0,1,99999999999)\n(0,a,1)\n", 1, "cap"),
    (b"des (0,99999999999,2)\n(0,a,1)\n", 1, "cap"),
    (b"des (0,1000000,2)\n(0,a,1)\n", 1, "bytes follow"),
    (b"des (0,1000,2)\n(0,a,1)\n", 3, "truncated"),
    (b"des (0,2,3)\n(0,a,1)\ngarbage\n", 3, "expected '(src,label,dst)', got 'garbage'"),
    (b"des (0,2,3)\n(0,a,1)\n(1,a,3)\n", 3, "target state 3 out of range"),
    (b"des (0,2,3)\n(7,a,1)\n(1,a,2)\n", 2, "source state 7 out of range"),
    (b"des (0,1,3)\n(-1,a,1)\n", 2, "negative source"),
    (b"des (0,1,3)\n(0,a,-2)\n", 2, "negative target"),
    (b"des (0,1,3)\n(+1,a,1)\n", 2, "state number"),
    (b"des (0,3,3)\n(0,a,1)\n(1,a,2)\n", 4, "truncated"),
    (b'des (0,2,3)\n(0,a,1)\n(1,"a', 3, "truncated"),
    (b"des (0,1,3)\n(0,a,1)\n(1,a,2)\n", 3, "more transitions"),
    (b'des (0,1,3)\n(0,"a,1)\n', 2, "unterminated"),
    (b"des (0,1,3)\n(0,,1)\n", 2, "empty label"),
    (b"des (0,1,3)\n(0,a1)\n", 2, "expected '(src,label,dst)'"),
    (b'des (0,1,3)\n(0,"\xff",1)\n', 2, "not UTF-8"),
    (b"des (0,1,3)\xfe\n(0,a,1)\n", 1, "not UTF-8"),
    (b"des (0,1,3)\n(0,a,1) trailing\n", 2, "expected"),
    (b"des (0,1,3)\n(99999999999999999999999,a,1)\n", 2, "out of range"),
    (b"des (0,1,3)\n(0,a,1)\x00\n", 2, "expected"),
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("data, line, msg", HOSTILE)
def test_hostile_input_names_file_and_line(
    tmp_path: Path, backend: str, data: bytes, line: int, msg: str
) -> None:
    p = tmp_path / "bad.aut"
    p.write_bytes(data)
    with pytest.raises(InputError) as e:
        read_aut(p, backend=backend)  # type: ignore[arg-type]
    assert msg in str(e.value)
    assert e.value.line == line and e.value.source == str(p)
    assert str(e.value).startswith(f"{p}, line {line}: ")


def test_caps_are_configurable() -> None:
    text = "des (0,3,4)\n(0,a,1)\n(1,a,2)\n(2,a,3)\n"
    with pytest.raises(InputError, match="max_states"):
        read_aut(io.StringIO(text), max_states=3)
    with pytest.raises(InputError, match="max_transitions"):
        read_aut(io.StringIO(text), max_transitions=2)
    assert read_aut(io.StringIO(text), max_states=4, max_transitions=3).n_transitions == 3


def test_stream_name_in_errors() -> None:
    with pytest.raises(InputError, match=r"^<stream>, line 1: "):
        read_aut(io.StringIO("nonsense"))


def test_nothing_is_evaluated() -> None:
    # a label that looks like code is just a name
    aut = read_aut(io.StringIO("des (0,1,1)\n(0,\"__import__('os').system('false')\",0)\n"))
    assert aut.labels == ("__import__('os').system('false')",)


def test_write_rejects_unrepresentable_label() -> None:
    with pytest.raises(ValueError, match="line break"):
        write_aut(io.StringIO(), AutLTS.from_transitions(0, 1, [(0, "a\nb", 0)]))


# --------------------------------------------------------------------------- immutability


@pytest.mark.parametrize("backend", BACKENDS)
def test_buffers_of_an_autlts_cannot_be_written(backend: str) -> None:
    """An AutLTS is a frozen value: its buffers refuse writes, also through NumPy views."""
    text = 'des (0,3,2)\n(0,"a",1)\n(1,"rec:p",1)\n(1,b,0)\n'
    aut = read_aut(io.StringIO(text), payload_prefix="rec:", backend=backend)  # type: ignore[arg-type]
    union, _ = disjoint_union(aut, AutLTS.from_transitions(0, 1, [(0, "a", 0)]))
    for value in (aut, union, AutLTS.from_transitions(0, 2, [(0, "a", 1)])):
        bufs = [value.src, value.label, value.dst] + ([value.observations] if value.observations else [])
        for buf in bufs:
            assert buf.readonly and isinstance(buf.obj, bytes)  # no writable owner to reach either
            with pytest.raises(TypeError):
                buf[0] = 1
            np = load_numpy()
            if np is not None:
                with pytest.raises(ValueError):
                    np.frombuffer(buf, dtype=np.int32)[0] = 1
        assert "0x" not in repr(value)
    assert list(aut.src) == [0, 1] and list(aut.observations or []) == [0, 1]
