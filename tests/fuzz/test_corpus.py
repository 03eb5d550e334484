"""The regression corpus: minimal hostile inputs, each with the documented error it must end in.

The first ten groups are the ten cases of the hostile-input report (numbers over 4,300 digits,
deep nesting, FIFOs, a symlink past the live-log check, a failed save, non-finite numbers, memory
far beyond the input, backends that disagreed, non-ASCII digits, SQLite messages that are not
UTF-8); the rest are minimal cases the fuzzers found.  Each runs as a library call (the format's
error type) and, where a command reads the file, as a command (exit 2, one line on stderr).
"""

from __future__ import annotations

import io
import os
import sqlite3
import subprocess
import sys
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from mutate import within
from test_fuzz_audit import make_db

from coalg.bisim import AutInputError, count_classes, read_aut, write_aut
from coalg.contextfs import AuditError, audit
from coalg.model import (
    JsonInputError,
    Record,
    Store,
    dumps_store,
    load_store,
    loads_store,
    save_store,
)

ROOT = Path(__file__).resolve().parents[2]
BACKENDS = ("python", "numpy")


def store_doc(record: str) -> str:
    return '{"format": "coalg-store", "version": 1, "records": {"a": %s}, "edges": []}' % record


def cli(*argv: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "coalg", *argv], capture_output=True, text=True, timeout=timeout,
                          env=env, cwd=ROOT, check=False)


def one_error_line(p: subprocess.CompletedProcess[str], command: str, fragment: str) -> None:
    lines = p.stderr.splitlines()
    assert p.returncode == 2 and len(lines) == 1, p.stderr
    assert lines[0].startswith(f"coalg {command}: error: ") and fragment in lines[0], lines[0]
    assert "Traceback" not in p.stdout + p.stderr


# =========================================================================== .aut


AUT_CASES = [
    # 1: numbers over 4,300 digits (Python's int-string limit), and padded with 5,000 zeros
    ("1 header digits", b"des (0,1," + b"1" * 4301 + b")\n(0,a,0)\n", 1, "has 4301 digits, more than 18"),
    ("1 transition digits", b"des (0,1,2)\n(" + b"1" * 4301 + b",a,0)\n", 2, "out of range 0..1 (4301 digits)"),
    ("1 leading zeros", b"des (0,1,2)\n(" + b"0" * 5000 + b"1,a,0)\n", 2, "has 5001 digits, more than 18"),
    ("1 header zeros", b"des (0,1," + b"0" * 5000 + b"2)\n(1,a,0)\n", 1, "has 5001 digits"),
    # 7: a 43-byte file announcing 20 million states
    ("7 announced states", b"des (0,1,20000000)\n(0,a,19999999)\n", 1, "can touch at most 3"),
    ("7 long line", b"des (0,1,2)\n(0," + b"x" * 70000 + b",1)\n", 2, "more than the limit of 65536"),
    ("7 long header", b"des (0,1,2" + b" " * 70000 + b")\n(0,a,1)\n", 1, "more than the limit of 65536"),
    # 9: non-ASCII digits
    ("9 arabic-indic digit", "des (0,1,2)\n(\u0661,a,0)\n".encode(), 2, "ASCII digits 0-9), got '\u0661'"),
    ("9 in the target", "des (0,1,2)\n(0,a,\u0663)\n".encode(), 2, "target state number (ASCII"),
    ("9 fullwidth in header", "des (0,1,\uff12)\n(0,a,1)\n".encode(), 1, "expected header"),
    # 8: the two backends once named different lines; the first bad transition, in file order
    ("8 second payload first", b'des (0,3,2)\n(0,"rec:x",0)\n(0,"rec:y",0)\n(0,"rec:z",1)\n', 3, "second payload"),
    ("8 not a loop first", b'des (0,3,2)\n(0,"rec:z",1)\n(0,"rec:x",0)\n(0,"rec:y",0)\n', 2, "not a self-loop"),
    ("8 blank lines before", b'des (0,2,2)\n\n\n(0,"rec:x",0)\n\n(0,"rec:y",0)\n', 6, "second payload"),
    # minimal cases of the fuzzers
    ("fuzz negative header", b"des (0,-1,2)\n", 1, "negative"),
    ("fuzz plus sign", b"des (0,1,3)\n(+1,a,1)\n", 2, "got '+1'"),
    ("fuzz NUL after line", b"des (0,1,3)\n(0,a,1)\x00\n", 2, "expected '(src,label,dst)'"),
    ("fuzz bad UTF-8", b'des (0,1,3)\n(0,"\xff",1)\n', 2, "not UTF-8"),
    ("fuzz nothing after header", b"des (0,1000,2)\n", 2, "truncated"),
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(("name", "data", "line", "fragment"), AUT_CASES, ids=[c[0] for c in AUT_CASES])
def test_aut_corpus(name: str, data: bytes, line: int, fragment: str, backend: str) -> None:
    with pytest.raises(AutInputError) as info, within():
        read_aut(io.BytesIO(data), payload_prefix="rec:", backend=backend)  # type: ignore[arg-type]
    assert info.value.line == line and fragment in str(info.value), str(info.value)


@pytest.mark.parametrize(("name", "data", "line", "fragment"), AUT_CASES[:6], ids=[c[0] for c in AUT_CASES[:6]])
def test_aut_corpus_on_the_command_line(tmp_path: Path, name: str, data: bytes, line: int, fragment: str) -> None:
    (tmp_path / "x.aut").write_bytes(data)
    one_error_line(cli("bisim", str(tmp_path / "x.aut")), "bisim", fragment)


def test_7_memory_follows_the_file_not_the_header() -> None:
    tracemalloc.start()
    try:
        with pytest.raises(AutInputError):
            read_aut(io.BytesIO(b"des (0,0,20000000)\n"))
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.reset_peak()
        a = read_aut(io.BytesIO(b"des (0,0,65537)\n"))  # every state stands alone: as many as allowed
        count_classes(a)
        _, peak_allowed = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1 << 20 and peak_allowed < 64 << 20


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
def test_7_an_endless_device_is_refused() -> None:
    with pytest.raises(AutInputError, match="/dev/zero: is a character device, not a regular file"), within(5):
        read_aut("/dev/zero")
    one_error_line(cli("bisim", "/dev/zero"), "bisim", "character device")


def test_a_carriage_return_inside_a_label_round_trips(tmp_path: Path) -> None:
    """Found by the fuzzer: the reader accepted a label the writer refused to write."""
    a = read_aut(io.BytesIO(b"des (0,1,4)\n(0,\rc,3)\n"))
    write_aut(tmp_path / "x.aut", a)
    assert read_aut(tmp_path / "x.aut").labels == ("\rc",)


def test_a_failed_write_aut_leaves_the_old_file(tmp_path: Path) -> None:
    from coalg.bisim import AutLTS

    target = tmp_path / "x.aut"
    target.write_bytes(b"precious")
    with pytest.raises(ValueError, match="line break"):
        write_aut(target, AutLTS.from_transitions(0, 1, [(0, "a", 0), (0, "b\nc", 0)]))
    assert target.read_bytes() == b"precious" and sorted(p.name for p in tmp_path.iterdir()) == ["x.aut"]


# =========================================================================== JSON store


JSON_CASES = [
    ("1 created_at digits", store_doc('{"content": "x", "created_at": %s}' % ("1" * 4301)),
     'records.a.created_at: number 1111111111...111111 (4301 characters) is longer than 100 characters'),
    ("1 metadata digits", store_doc('{"content": "x", "metadata": {"k": -%s}}' % ("9" * 200)), "records.a.metadata.k"),
    ("2 nested objects", store_doc('{"content": "x", "metadata": {"k": %s1%s}}' % ('{"a":' * 250, "}" * 250)),
     "nested more than 100 levels deep"),
    ("2 nested lists", store_doc('{"content": "x", "metadata": {"k": %s%s}}' % ("[" * 500, "]" * 500)),
     "records.a.metadata.k[0][0][0][0]...(88 more)...[0][0][0][0]: nested more than 100 levels deep"),
    ("2 nested past the stack", "[" * 100_000, "JSON nested too deeply"),
    ("5 lone surrogate", store_doc('{"content": "\\ud800"}'),
     "records.a.content: text holds a lone surrogate \\ud800 at character 0"),
    ("5 lone surrogate key", store_doc('{"content": "x", "metadata": {"\\udfff": 1}}'), "records.a.metadata: a key"),
    ("5 surrogate identifier", '{"format": "coalg-store", "version": 1, "records": {"\\ud800": {"content": "x"}}}',
     "records: a key: text holds a lone surrogate"),
    ("6 non-finite", store_doc('{"content": "x", "metadata": {"k": [1, 1e999]}}'),
     "records.a.metadata.k[1]: 1e999 is not a finite number"),
    ("6 negative non-finite", store_doc('{"content": "x", "metadata": {"k": -1e400}}'), "-1e400 is not a finite"),
    ("fuzz NaN", store_doc('{"content": "x", "metadata": {"k": NaN}}'), "NaN is not a JSON number"),
]


@pytest.mark.parametrize(("name", "text", "fragment"), JSON_CASES, ids=[c[0] for c in JSON_CASES])
def test_json_corpus(name: str, text: str, fragment: str, tmp_path: Path) -> None:
    with pytest.raises(JsonInputError) as info, within():
        loads_store(text, source="s.json")
    assert str(info.value).startswith("s.json: ") and fragment in str(info.value), str(info.value)
    path = tmp_path / "s.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(JsonInputError, match="^" + str(path).replace("\\", "\\\\")), within():
        load_store(path)


def test_2_a_deep_record_value_built_in_code_is_refused_not_overflowed() -> None:
    deep: Any = 0
    for _ in range(5000):
        deep = [deep]
    with pytest.raises(ValueError, match="nested more than 100 levels"):
        Record("x", metadata={"k": deep})


def test_5_a_failed_save_leaves_the_previous_file(tmp_path: Path) -> None:
    target = tmp_path / "store.json"
    good = Store.of({"a": Record("fine")}, [])
    save_store(good, target)
    before = target.read_bytes()
    bad = Store.of({"a": Record("\ud800")}, [])
    with pytest.raises(JsonInputError, match=r"store.json: records.a.content: cannot save: text holds a lone"):
        save_store(bad, target)
    assert target.read_bytes() == before and sorted(p.name for p in tmp_path.iterdir()) == ["store.json"]
    assert load_store(target) == good


def test_6_a_non_finite_number_is_never_written() -> None:
    with pytest.raises(JsonInputError, match=r"records.a.metadata.k\[0\]: inf is not a finite number"):
        dumps_store(Store.of({"a": Record("x", metadata={"k": [float("inf")]})}, []))


def test_save_keeps_the_mode_and_writes_through_a_symlink(tmp_path: Path) -> None:
    real = tmp_path / "real.json"
    save_store(Store(), real)
    real.chmod(0o640)
    link = tmp_path / "link.json"
    link.symlink_to(real)
    s = Store.of({"a": Record("x")}, [])
    save_store(s, link)
    assert link.is_symlink() and load_store(real) == s and (real.stat().st_mode & 0o777) == 0o640


# =========================================================================== FIFOs (3) and other non-files


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "pipe"
    os.mkfifo(path)
    return path


@pytest.mark.parametrize(("reader", "error"), [
    (lambda p: read_aut(p), AutInputError),
    (lambda p: load_store(p), JsonInputError),
    (lambda p: audit(p), AuditError),
], ids=["read_aut", "load_store", "audit"])
def test_3_a_fifo_is_refused_before_it_is_opened(fifo: Path, reader: Callable[[Path], Any], error: type) -> None:
    with pytest.raises(error, match="is a FIFO \\(named pipe\\), not a regular file"), within(5):
        reader(fifo)


@pytest.mark.parametrize("command", ["bisim", "audit"])
def test_3_a_fifo_on_the_command_line(fifo: Path, command: str) -> None:
    one_error_line(cli(command, str(fifo), timeout=30), command, "is a FIFO (named pipe), not a regular file")


def test_3_a_fifo_beside_the_database(tmp_path: Path) -> None:
    db = make_db(tmp_path / "k.db", [("a0000000-001", "[]", "{}")])
    os.mkfifo(str(db) + "-journal")
    with pytest.raises(AuditError, match="k.db-journal is a FIFO"), within(5):
        audit(db)


@pytest.mark.parametrize("command", ["bisim", "audit"])
def test_an_empty_path_is_named(command: str) -> None:
    one_error_line(cli(command, ""), command, "'': no file name given (the path is empty)")


# =========================================================================== the database (2, 4, 10)


@pytest.mark.parametrize(("column", "text"), [
    ("metadata", '{"k": ' + "[" * 100_000 + "]" * 100_000 + "}"),
    ("metadata", '{"k": ' + '{"a": ' * 300 + "1" + "}" * 300 + "}"),
    ("tags", "[" * 300 + "]" * 300),
])
def test_2_deep_cells_in_the_database(tmp_path: Path, column: str, text: str) -> None:
    cells = [("a0000000-001", text if column == "tags" else "[]", text if column == "metadata" else "{}")]
    db = make_db(tmp_path / "deep.db", cells)
    with pytest.raises(AuditError, match=f"row id 'a0000000-001': {column}: "), within():
        audit(db)
    one_error_line(cli("audit", str(db)), "audit", f"{column}: ")


def _live_wal(db: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.close()
    writer = sqlite3.connect(db)
    writer.execute("PRAGMA wal_autocheckpoint=0")
    writer.execute("UPDATE memories SET content = 'changed'")
    writer.commit()
    return writer


def test_4_a_symlink_does_not_hide_the_live_log(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    db = make_db(tmp_path / "real" / "w.db", [("a0000000-001", "[]", "{}")])
    link = tmp_path / "link.db"
    link.symlink_to(db)
    writer = _live_wal(db)
    try:
        for path in (db, link):
            with pytest.raises(AuditError, match="write-ahead log \\(w.db-wal\\)"):
                audit(path)
        one_error_line(cli("audit", str(link)), "audit", "write-ahead log")
    finally:
        writer.close()


def test_4_a_hot_journal_says_so(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    db = make_db(tmp_path / "real" / "j.db", [("a0000000-001", "[]", "{}")])
    Path(str(db) + "-journal").write_bytes(b"\x00" * 512)
    link = tmp_path / "link.db"
    link.symlink_to(db)
    for path in (db, link):
        with pytest.raises(AuditError, match="hot journal") as info:
            audit(path)
        assert "readonly" not in str(info.value)


def test_10_a_sqlite_message_that_is_not_utf8(tmp_path: Path) -> None:
    db = make_db(tmp_path / "u.db", [("a0000000-001", "[]", "{}")])
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE zz (a)")
    conn.commit()
    conn.close()
    data = db.read_bytes()
    db.write_bytes(data.replace(b"CREATE TABLE zz (a)", b"CREATE TABLE zz(a)\xff"))
    with pytest.raises(AuditError, match="not UTF-8"):
        audit(db)
    one_error_line(cli("audit", str(db)), "audit", "corrupt or not a database")


# =========================================================================== the command line (minor items)


@pytest.mark.parametrize(("argv", "fragment"), [
    (["audit", "--limit", "-1"], "expected a whole number 0 or more, got '-1'"),
    (["bisim", "--max-size", "-5", "x.aut"], "expected a whole number 0 or more"),
    (["bisim"], "the following arguments are required: FILE.aut"),
    (["bisim", "x.aut", "--bogus"], "unrecognized arguments: --bogus"),
    (["audit", "--view", "nope"], "invalid choice: 'nope'"),
])
def test_usage_errors_are_one_line(argv: list[str], fragment: str) -> None:
    one_error_line(cli(*argv), argv[0], fragment)


def test_help_states_the_limits() -> None:
    bisim = cli("bisim", "--help").stdout
    assert "limits" in bisim and "ASCII digits 0-9, at most 18" in bisim and "65,536" in bisim
    assert "1,073,741,824" in bisim and "FIFO" in bisim
    audit_help = cli("audit", "--help").stdout
    assert "limits" in audit_help and "100 levels" in audit_help and "symbolic link" in audit_help
