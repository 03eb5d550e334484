"""The book build's law tables: computed once per build, handed to every chapter's kernel.

Many chapters show verdicts of the same law tables (``law_table(CONTEXTFS)``,
``check_L5(REPAIRED)``, ...), and one table takes up to a minute of searching.
The library remembers a verdict only for the life of one process, so the build
(:mod:`coalg_execute`) computes the tables named in ``coalg_verdicts_first``
before any chapter runs, writes them as JSON files in a folder under
``_build/``, and puts an IPython startup file in the build's private
``IPYTHONDIR`` that calls :func:`load` in each kernel: the verdicts are handed to
:func:`coalg.laws.clause.remember`, and a chapter that shows them finds them
already computed.  Nothing else changes: a chapter whose table is missing or
refused computes it itself, as it does outside the build.

What is read is not trusted blindly.  :func:`load` accepts a file only when

- its folder and the file are owned by the current user and writable by no one
  else, the file is opened without following a symbolic link and is a regular
  file of at most :data:`MAX_BYTES`;
- it holds exactly the schema :func:`table_json` writes: the format number, the
  digest of the code that computed it (:func:`code_digest`, the same as the
  reader's), a registered realisation, and one verdict of the right types for
  every clause of the law table, each under the library's own query.

Any other file is ignored as a whole (nothing of it is remembered).  There are
no locks: the build writes each file once, atomically (a new file renamed over
the old name), before any kernel starts, and kernels only read.
"""

from __future__ import annotations

import dataclasses
import hashlib
import importlib.metadata
import json
import os
import stat
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

FORMAT = 1
"""The version of the file layout; a file of another version is ignored."""

MAX_BYTES = 8 << 20
"""A table file larger than this is not read (a law table is about 100 kB)."""

_VERDICT_FIELDS: dict[str, type | tuple[type, ...]] = {"item": str, "kind": str, "holds": bool, "explored": int, "witness": (dict, type(None)),
                   "summary": str, "details": dict}


def code_digest() -> str:
    """A hash of ``coalg``'s source files, the Python version and the installed distributions."""
    import coalg

    digest = hashlib.sha256(sys.version.encode() + b"\0")
    # A set: one distribution can be found twice on sys.path (an editable install run from its
    # own folder), and the hash must not depend on how the process was started.
    for dist in sorted({f"{d.metadata['Name']}=={d.version}" for d in importlib.metadata.distributions()}):
        digest.update(dist.encode() + b"\n")
    package = Path(coalg.__file__).resolve().parent
    for path in sorted(package.rglob("*.py")):
        digest.update(path.relative_to(package).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def compute(realisation: str, clauses: Sequence[str]) -> list[dict[str, Any]]:
    """The verdicts of ``clauses`` on ``realisation`` under the library's own query, as JSON.

    Clauses sharing an exploration are checked in one pass (give
    :func:`coalg.laws.clause.exploration_groups` to run groups in separate
    processes).  A verdict whose JSON does not read back equal to it is left out.
    """
    from coalg.laws.clause import check_many
    from coalg.laws.table import get_clause
    from coalg.model import get_realisation

    verdicts = check_many([get_clause(k) for k in clauses], get_realisation(realisation))
    entries = []
    for key, verdict in zip(clauses, verdicts):
        fields = dataclasses.asdict(verdict)
        if json.loads(json.dumps(fields)) == fields:
            entries.append({"clause": key, "verdict": fields})
    return entries


def table_json(realisation: str, entries: list[dict[str, Any]], digest: str) -> str:
    """The text of one table file: ``entries`` (from :func:`compute`) of ``realisation``."""
    return json.dumps({"format": FORMAT, "code": digest, "realisation": realisation, "verdicts": entries})


def private_folder(folder: Path) -> Path | None:
    """``folder``, created with mode 0700 if absent; ``None`` unless it is a real folder only we can write."""
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        st = os.lstat(folder)
    except OSError:
        return None
    return folder if _private(st, stat.S_ISDIR) else None


def _private(st: os.stat_result, kind: Any) -> bool:
    return bool(kind(st.st_mode)) and st.st_uid == os.geteuid() and not st.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def write(folder: Path, realisation: str, text: str) -> Path:
    """Write ``text`` as ``folder/<realisation>.json``, all or nothing, readable only by us.

    A new file in ``folder`` is renamed over the name, so an entry that is a
    symbolic link is replaced, never written through.
    """
    target = folder / f"{realisation}.json"
    fd, tmp = tempfile.mkstemp(prefix=".law-table-", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return target


def _read(path: Path) -> str | None:
    """The text of ``path`` if it is a private regular file of at most :data:`MAX_BYTES`, else ``None``."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return None
    with os.fdopen(fd, "rb") as f:
        st = os.fstat(f.fileno())
        if not _private(st, stat.S_ISREG) or st.st_size > MAX_BYTES:
            return None
        data = f.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _verdict_fields(value: Any, key: str) -> dict[str, Any] | None:
    """``value`` if it has exactly the fields and types of a verdict of clause ``key``."""
    if not isinstance(value, dict) or set(value) != set(_VERDICT_FIELDS):
        return None
    for name, types in _VERDICT_FIELDS.items():
        if not isinstance(value[name], types) or (types is int and isinstance(value[name], bool)):
            return None
    holds = value["holds"]
    if (value["item"] != key or value["explored"] < 0 or value["kind"] != ("property" if holds else "counterexample")
            or (value["witness"] is None) != holds):
        return None
    return value


def parse(text: str, digest: str) -> tuple[str, list[tuple[str, dict[str, Any]]]] | None:
    """The realisation and ``(clause, verdict fields)`` of a table file, or ``None`` if it is not one.

    The file must be of :data:`FORMAT`, computed by code of ``digest``, of a
    registered realisation, with one well-typed verdict for every clause of the
    law table, in the table's order.
    """
    from coalg.laws.table import CLAUSES
    from coalg.model import REALISATIONS

    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if (not isinstance(data, dict) or set(data) != {"format", "code", "realisation", "verdicts"}
            or data["format"] != FORMAT or data["code"] != digest or not isinstance(data["realisation"], str)
            or data["realisation"] not in REALISATIONS or not isinstance(data["verdicts"], list)):
        return None
    entries = []
    for entry in data["verdicts"]:
        if not isinstance(entry, dict) or set(entry) != {"clause", "verdict"}:
            return None
        fields = _verdict_fields(entry["verdict"], entry["clause"])
        if fields is None:
            return None
        entries.append((entry["clause"], fields))
    if [k for k, _ in entries] != list(CLAUSES):
        return None
    return data["realisation"], entries


def load(folder: str | os.PathLike[str]) -> list[str]:
    """Hand every valid table file in ``folder`` to the library; the realisations whose verdicts it took.

    Never raises: a folder or file that is not ours, not private, not a regular
    file, too large or not exactly a table of this code is skipped as a whole.
    """
    try:
        from coalg.laws.clause import query, remember
        from coalg.laws.table import get_clause
        from coalg.model import get_realisation
        from coalg.paper import Verdict

        root = Path(folder)
        if not _private(os.lstat(root), stat.S_ISDIR):
            return []
        digest = code_digest()
        taken = []
        for path in sorted(root.glob("*.json")):
            text = _read(path)
            parsed = None if text is None else parse(text, digest)
            if parsed is None:
                continue
            name, entries = parsed
            realisation = get_realisation(name)
            for key, fields in entries:
                remember(query(get_clause(key), realisation), Verdict(**fields))
            taken.append(name)
        return taken
    except Exception:  # noqa: BLE001 (the chapters then compute the verdicts themselves)
        return []


STARTUP = '''\
# Written by tools/sphinxext/coalg_execute.py for the book build: hands the law tables the
# build computed to this kernel (see tools/sphinxext/law_tables.py). Prints nothing.
def _coalg_law_tables():
    import importlib.util
    spec = importlib.util.spec_from_file_location("_coalg_law_tables", {module!r})
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.load({folder!r})
try:
    _coalg_law_tables()
except Exception:
    pass
del _coalg_law_tables
'''


def startup_file(folder: Path) -> str:
    """The text of the IPython startup file that calls :func:`load` on ``folder``."""
    return STARTUP.format(module=str(Path(__file__).resolve()), folder=str(folder.resolve()))
