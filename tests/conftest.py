"""Shared fixture for the tests that drive a real browser.

* ``chromium_browser`` -- Debian's ``chromium`` driven by playwright-python. Playwright's own
                          browser downloads (``playwright install``) are never used.

The book's own fixtures (building it, serving ``_build/html``) are in ``tests/book/conftest.py``.
Nothing here touches the ``coalg`` library; playwright is imported only when a browser is needed.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from typing import Any

import pytest

# --doctest-modules would import every conftest.py as a doctest module named 'conftest', and
# two of them (tests/, tests/book/) then clash; they hold fixtures, not doctests.
collect_ignore_glob = ["*conftest.py"]

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="session")
def chromium_browser() -> Iterator[Any]:
    """A headless Debian chromium under playwright; skips only if chromium is absent."""
    executable = shutil.which("chromium")
    if executable is None:
        pytest.skip(
            "Debian's chromium is not on PATH; install it with `apt-get install chromium` "
            "(tools/setup.sh does this when run as root)"
        )
    from playwright.sync_api import sync_playwright

    os.environ.setdefault("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()
