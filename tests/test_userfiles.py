"""One atomic writer for every user file: mode and symbolic links kept, the format's error, no leftovers."""

from __future__ import annotations

import io
import math
import os
import stat
import time
from pathlib import Path

import pytest

from coalg.bisim import AutInputError, AutLTS, read_aut, write_aut
from coalg.userfiles import STALE_AFTER, write_atomic
from coalg.widgets.session import SessionError, read_session, write_session

AUT = AutLTS.from_transitions(0, 2, [(0, "a", 1)])


def _write_session(p: Path, n: int = 2) -> None:
    write_session(p, "tenants", {"params": {"n": n}})


def _write_aut(p: Path, n: int = 2) -> None:
    write_aut(p, AutLTS.from_transitions(0, n, [(0, "a", n - 1)]))


WRITERS = {"session": _write_session, "aut": _write_aut}


@pytest.mark.parametrize("kind", sorted(WRITERS))
def test_the_mode_of_the_file_is_kept(tmp_path, kind):
    p = tmp_path / "f"
    WRITERS[kind](p, 2)
    os.chmod(p, 0o640)
    WRITERS[kind](p, 3)
    assert stat.S_IMODE(os.stat(p).st_mode) == 0o640


@pytest.mark.parametrize("kind", sorted(WRITERS))
def test_a_symbolic_link_stays_a_link_and_its_target_is_written(tmp_path, kind):
    real, link = tmp_path / "real", tmp_path / "link"
    WRITERS[kind](real, 2)
    link.symlink_to(real)
    WRITERS[kind](link, 3)
    assert link.is_symlink() and os.readlink(link) == str(real)
    if kind == "session":
        assert read_session(real, kind="tenants") == {"params": {"n": 3}}
    else:
        assert read_aut(real).n_states == 3


def test_a_session_that_cannot_be_encoded_is_a_session_error_and_the_old_file_stays(tmp_path):
    p = tmp_path / "s.json"
    _write_session(p)
    before = p.read_bytes()
    for bad in ({"params": {"name": "\ud800"}}, {"params": {"x": math.nan}}, {"params": {"x": object()}}):
        with pytest.raises(SessionError, match="cannot be written"):
            write_session(p, "tenants", bad)
        assert p.read_bytes() == before
    assert sorted(x.name for x in tmp_path.iterdir()) == ["s.json"]


def test_an_aut_label_that_cannot_be_encoded_is_an_aut_error_and_the_old_file_stays(tmp_path):
    p = tmp_path / "x.aut"
    _write_aut(p)
    before = p.read_bytes()
    for label in ("\udcff", "two\nlines"):
        with pytest.raises(AutInputError, match="cannot be written"):
            write_aut(p, AutLTS.from_transitions(0, 1, [(0, label, 0)]))
        assert p.read_bytes() == before
    with pytest.raises(AutInputError, match="line break"):
        write_aut(io.StringIO(), AutLTS.from_transitions(0, 1, [(0, "a\nb", 0)]))
    assert sorted(x.name for x in tmp_path.iterdir()) == ["x.aut"]


def test_stale_temporary_files_of_our_naming_are_removed_on_the_next_write(tmp_path):
    p = tmp_path / "s.json"
    old = time.time() - STALE_AFTER - 60
    stale = tmp_path / ".s.json.0123456789ab.tmp"
    fresh = tmp_path / ".s.json.ba9876543210.tmp"  # a write in progress right now: left alone
    other = tmp_path / ".s.json.not-ours.tmp"
    elsewhere = tmp_path / ".t.json.0123456789ab.tmp"  # another file's leftover: that file's next write
    link = tmp_path / ".s.json.aaaaaaaaaaaa.tmp"
    for f in (stale, fresh, other, elsewhere):
        f.write_text("left over")
        if f is not fresh:
            os.utime(f, (old, old))
    link.symlink_to(elsewhere)
    _write_session(p)
    left = sorted(x.name for x in tmp_path.iterdir())
    assert left == sorted(x.name for x in (p, fresh, other, elsewhere, link))


def test_the_folder_is_flushed_after_the_rename(tmp_path, monkeypatch):
    synced: list[bool] = []
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        synced.append(stat.S_ISDIR(os.fstat(fd).st_mode))
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    write_atomic(tmp_path / "f.bin", [b"data"], ValueError)
    assert synced == [False, True]  # the file's bytes, then the folder's entries
    assert (tmp_path / "f.bin").read_bytes() == b"data"
