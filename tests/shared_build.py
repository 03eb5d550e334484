"""The web book built once for a whole test run, shared by every test process that needs it.

:func:`ensure_built` returns ``_build/html``, building it exactly as ``make book`` does unless
it is newer than every source; under pytest-xdist one process builds while holding a lock
in ``_build`` and the others wait for it, then reuse the build.  The book's tests reach it
through the ``built_book`` fixture (``tests/book/conftest.py``).  :func:`build_law_tables` hands
a test process the law tables that build computed, so the tests that read whole law tables
(the lab's kernels, tests/laws) do not search them again.
"""

from __future__ import annotations

import contextlib
import fcntl
import importlib.util
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]
BUILD_DIR = ROOT / "_build"
HTML_DIR = BUILD_DIR / "html"

# Everything that can change the built HTML besides what the chapters' outputs depend on, which the
# build names itself (CACHE_INPUTS of tools/sphinxext/coalg_book.py: coalg/, the data, the corpus of
# layers, the benchmark results the appendix shows).
SOURCE_GLOBS = (
    "_config.yml",
    "_toc.yml",
    "book/**/*",
    "notebooks/**/*",
    "tools/sphinxext/**/*",
    "_vendor/offline/**/*",
)


def _build_module(name: str) -> ModuleType:
    """The module ``name`` of the book build (tools/sphinxext), loaded from its file."""
    spec = importlib.util.spec_from_file_location(f"_build_{name}", ROOT / "tools" / "sphinxext" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _chapter_inputs() -> tuple[str, ...]:
    return tuple(_build_module("coalg_book").CACHE_INPUTS)


def _newest_source_mtime() -> float:
    newest = 0.0
    for pattern in (*SOURCE_GLOBS, *_chapter_inputs()):
        for path in ROOT.glob(pattern):
            if ".ipynb_checkpoints" in path.parts or "__pycache__" in path.parts:
                continue
            if path.is_file():
                newest = max(newest, path.stat().st_mtime)
    return newest


def _jupyter_book() -> str:
    beside = Path(sys.executable).parent / "jupyter-book"
    if beside.exists():
        return str(beside)
    found = shutil.which("jupyter-book")
    if found is None:
        pytest.fail("jupyter-book is not installed; run `make setup`")
    return found


def build_book(extra_args: tuple[str, ...] = ()) -> subprocess.CompletedProcess[str]:
    """Run the book build exactly as `make book` does; return the finished process."""
    shutil.rmtree(HTML_DIR, ignore_errors=True)
    cmd = [_jupyter_book(), "build", ".", "-W", "-n", "--keep-going", "--all", *extra_args]
    return subprocess.run(
        cmd, cwd=ROOT, text=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, check=False
    )


BUILD_LOCK_SECONDS = 3600
"""How long a test process waits for another one's book build before it fails."""


@contextlib.contextmanager
def build_lock() -> Iterator[None]:
    """Hold `_build/.book-build.lock`: one process of a parallel run (pytest -n) builds, the others wait.

    The lock is taken without blocking, retried every second until
    ``BUILD_LOCK_SECONDS``; a process that waits longer fails with a clear message.
    """
    BUILD_DIR.mkdir(exist_ok=True)
    fd = os.open(BUILD_DIR / ".book-build.lock", os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
    try:
        deadline = time.monotonic() + BUILD_LOCK_SECONDS
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    pytest.fail(f"another test process held the book build lock for {BUILD_LOCK_SECONDS} s")
                time.sleep(1)
        yield
    finally:
        os.close(fd)  # releases the lock


def ensure_built() -> Path:
    """`_build/html`, rebuilt unless its index.html is newer than every source file.

    Under pytest-xdist each worker asks; the first builds while holding the build
    lock, and the others, once they get the lock, find the fresh build and reuse it.
    """
    index = HTML_DIR / "index.html"
    with build_lock():
        if index.exists() and index.stat().st_mtime > _newest_source_mtime():
            return HTML_DIR
        if not (ROOT / "_vendor" / "offline").is_dir():
            pytest.fail("_vendor/offline is missing; run `make setup` (npm ci + tools/vendor_js.sh)")
        proc = build_book()
        if proc.returncode != 0 or not index.exists():
            tail = "\n".join(proc.stdout.splitlines()[-80:])
            pytest.fail(f"book build failed (exit {proc.returncode}); last lines:\n{tail}")
    return HTML_DIR


def build_law_tables() -> Path | None:
    """The folder in which a book build wrote the law tables of both model realisations, each a
    valid table of this very code (``None``: there is none, or it is not valid).

    Loading it hands this process the verdicts (:func:`law_tables.load`): a test that then asks
    for a law table at the default bound gets exactly the computed verdicts without searching
    again (tests/book/test_law_tables.py checks that a loaded verdict is the computed one).
    """
    law_tables = _build_module("law_tables")
    for folder in sorted((BUILD_DIR / ".jupyter_cache").glob("*/law-tables")):
        if sorted(law_tables.load(folder)) == ["contextfs", "repaired"]:
            return folder
    return None
