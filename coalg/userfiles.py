"""A user's files, read and written safely; shared by every file format of coalg.

* :func:`check_regular` and :func:`read_regular` accept a path only when it
  names a regular file (a symbolic link is followed first).  A directory, a
  FIFO, a socket or a device is refused *before* it is opened, so nothing
  blocks and nothing endless is read; and at most ``max_bytes`` are read.
* :func:`write_atomic` writes to a temporary file in the target's folder and
  renames it over the target only after every byte was written and flushed:
  a failure half-way (a value that cannot be encoded, a full disk) leaves the
  previous file exactly as it was.  It is the one writer of every user file
  (stores, ``.aut`` files, explorer sessions).

Each format passes its own error constructor, so the errors are that
format's type (they name the file and say what is wrong).

>>> import os, tempfile
>>> d = tempfile.mkdtemp()
>>> p = os.path.join(d, "note.txt")
>>> write_atomic(p, [b"hello\\n"], ValueError)
>>> read_regular(p, 100, ValueError)
b'hello\\n'
>>> read_regular(d, 100, ValueError)
Traceback (most recent call last):
...
ValueError: is a directory, not a regular file
"""

from __future__ import annotations

import os
import re
import stat
import time
from collections.abc import Callable, Iterable

__all__ = ["STALE_AFTER", "Fail", "check_regular", "display_name", "kind_of", "read_head", "read_regular", "write_atomic"]

Fail = Callable[[str], Exception]
"""A format's error for a message about the file (the format adds the file's name)."""

_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
)


def display_name(path: str | os.PathLike[str]) -> str:
    """The path as text for messages, quoted when it is empty or holds what does not print.

    >>> display_name("data/a.aut"), display_name(""), display_name("a\\nb")
    ('data/a.aut', "''", "'a\\\\nb'")
    """
    p = os.fspath(path)
    return p if p and p.isprintable() else repr(p)


def _kind(mode: int) -> str | None:
    """What a non-regular file is (``None`` for a regular file)."""
    if stat.S_ISREG(mode):
        return None
    for test, name in _KINDS:
        if test(mode):
            return name
    return "not a regular file"  # pragma: no cover - every POSIX type is listed above


def check_regular(path: str | os.PathLike[str], fail: Fail) -> os.stat_result:
    """``os.stat(path)`` when ``path`` names a regular file; otherwise ``fail`` says what it is.

    Never opens the file: a FIFO or a device cannot block or stream here.
    """
    if os.fspath(path) == "":
        raise fail("no file name given (the path is empty)")
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise fail("no such file") from None
    except NotADirectoryError:
        raise fail("no such file (a folder on its path is a file)") from None
    except OSError as e:
        raise fail(f"cannot read: {e.strerror or e.__class__.__name__}") from None
    except ValueError:  # os.stat refuses a path with a NUL character
        raise fail("the path contains a NUL character") from None
    kind = _kind(st.st_mode)
    if kind is not None:
        raise fail(f"is {kind}, not a regular file")
    return st


def read_regular(path: str | os.PathLike[str], max_bytes: int, fail: Fail) -> bytes:
    """The bytes of a regular file of at most ``max_bytes`` bytes.

    The file is checked with :func:`check_regular` before it is opened, and
    opened without blocking (``O_NONBLOCK``) and checked again on the open
    descriptor, so swapping in a FIFO between the two steps does not hang.
    """
    st = check_regular(path, fail)
    if st.st_size > max_bytes:
        raise fail(f"file is {st.st_size} bytes, more than the limit of {max_bytes}")
    data = _read(path, max_bytes + 1, fail)
    if len(data) > max_bytes:
        raise fail(f"file is more than the limit of {max_bytes} bytes")
    return data


def read_head(path: str | os.PathLike[str], n: int, fail: Fail) -> bytes:
    """The first ``n`` bytes (fewer if the file is shorter) of a regular file, checked as by :func:`read_regular`."""
    check_regular(path, fail)
    return _read(path, n, fail)


def _read(path: str | os.PathLike[str], n: int, fail: Fail) -> bytes:
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except OSError as e:
        raise fail(f"cannot read: {e.strerror or e.__class__.__name__}") from None
    with os.fdopen(fd, "rb") as f:
        kind = _kind(os.fstat(fd).st_mode)
        if kind is not None:
            raise fail(f"is {kind}, not a regular file")
        try:
            return f.read(n)
        except OSError as e:
            raise fail(f"cannot read: {e.strerror or e.__class__.__name__}") from None


def kind_of(path: str | os.PathLike[str]) -> str | None:
    """What ``path`` is when it exists and is not a regular file (``"a FIFO (named pipe)"``, ...); else None.

    Never opens it.
    """
    try:
        return _kind(os.stat(path).st_mode)
    except OSError:
        return None


def write_atomic(path: str | os.PathLike[str], chunks: Iterable[bytes], fail: Fail) -> None:
    """Write ``chunks`` to ``path`` all or nothing.

    The bytes go to a new file beside the target (beside the file a symbolic
    link points to, so the link stays a link), which is flushed to disk and
    renamed over the target only after the last chunk was written; then the
    folder is flushed too, so that the rename survives a crash.  The target
    keeps its permission bits; a new file gets the usual ``0o666`` less the
    umask.  A target that exists and is not a regular file is refused.
    Temporary files of this writer's naming left beside the target by a write
    that was killed (older than :data:`STALE_AFTER` seconds, owned by the
    current user) are removed first.  On any failure the temporary file is
    removed; a chunk that cannot be encoded (``UnicodeError``, ``ValueError``
    while producing it) is ``fail``'s error, the format's own; ``OSError``
    propagates.
    """
    if os.fspath(path) == "":
        raise fail("no file name given (the path is empty)")
    if "\0" in os.fspath(path):
        raise fail("the path contains a NUL character")
    target = os.path.realpath(path)
    try:
        old: os.stat_result | None = os.stat(target)
    except FileNotFoundError:
        old = None
    if old is not None:
        kind = _kind(old.st_mode)
        if kind is not None:
            raise fail(f"is {kind}, not a regular file: refusing to replace it")
    folder, base = os.path.split(target)
    _remove_stale(folder, base)
    fd, tmp = _create_beside(folder, base)
    try:
        with os.fdopen(fd, "wb") as f:
            try:
                for chunk in chunks:
                    f.write(chunk)
            except (UnicodeError, ValueError) as e:
                raise fail(f"cannot be written: {' '.join(str(e).split())[:300]}") from None
            f.flush()
            os.fsync(f.fileno())
        if old is not None:
            os.chmod(tmp, stat.S_IMODE(old.st_mode))
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    _sync_folder(folder)


STALE_AFTER = 600.0
"""Seconds after which a temporary file of :func:`write_atomic`'s naming is a leftover of a killed write."""


def _temp_pattern(base: str) -> re.Pattern[str]:
    return re.compile(re.escape(f".{base[:200]}.") + r"[0-9a-f]{12}\.tmp")


def _remove_stale(folder: str, base: str) -> None:
    """Remove leftovers of killed writes of ``base``: regular files of our naming, ours, not written lately."""
    pattern, now = _temp_pattern(base), time.time()
    try:
        names = [n for n in os.listdir(folder or ".") if pattern.fullmatch(n)]
    except OSError:
        return
    for name in names:
        p = os.path.join(folder, name)
        try:
            st = os.lstat(p)
            if stat.S_ISREG(st.st_mode) and st.st_uid == os.geteuid() and now - st.st_mtime > STALE_AFTER:
                os.unlink(p)
        except OSError:
            continue


def _sync_folder(folder: str) -> None:
    """Flush the folder's entries (the rename) to disk; a folder that cannot be opened so is left as it is."""
    try:
        fd = os.open(folder or ".", os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _create_beside(folder: str, base: str) -> tuple[int, str]:
    """A new, empty file ``.<base>.<random>.tmp`` in ``folder`` (mode 0o666 less the umask)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
    for _ in range(100):
        tmp = os.path.join(folder, f".{base[:200]}.{os.urandom(6).hex()}.tmp")
        try:
            return os.open(tmp, flags, 0o666), tmp
        except FileExistsError:
            continue
    raise FileExistsError(f"cannot create a temporary file beside {base!r}")  # pragma: no cover
