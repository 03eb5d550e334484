"""Fixtures for the tests of the built web book.

* ``built_book``   -- builds the book once per session (or reuses an up-to-date build)
                      and returns ``_build/html``.
* ``book_server``  -- serves ``_build/html`` on 127.0.0.1 at a free port; returns its base URL.

The browser (``chromium_browser``) comes from ``tests/conftest.py``.
"""

from __future__ import annotations

import functools
import http.server
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from shared_build import ensure_built


@pytest.fixture(scope="session")
def built_book() -> Path:
    """`_build/html`, built once per run (or reused when up to date): :func:`shared_build.ensure_built`."""
    return ensure_built()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="session")
def book_server(built_book: Path) -> Iterator[str]:
    """Base URL (ending in '/') of a loopback HTTP server for `_build/html`."""
    handler = functools.partial(_QuietHandler, directory=str(built_book))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, name="book-server", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
