"""Shared fixture for the tests that drive a real browser.

* ``chromium_browser`` -- Debian's ``chromium`` driven by playwright-python. Playwright's own
                          browser downloads (``playwright install``) are never used.

The book's own fixtures (building it, serving ``_build/html``) are in ``tests/book/conftest.py``.
Nothing here touches the ``coalg`` library; playwright is imported only when a browser is needed.

The depth of the property tests (``tests/budget.py``): ``COALG_EXAMPLES=N`` runs every property
test with N random examples from one seed, which the run prints in its header and at its end, and
``COALG_SEED=s`` replays one.  The hooks below pass that seed to Hypothesis and print it.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from typing import Any

import pytest

try:
    import budget
except ValueError as _bad:  # a malformed COALG_EXAMPLES or COALG_SEED: reported by pytest_configure
    budget = None  # type: ignore[assignment]
    _BAD_BUDGET = str(_bad)

# --doctest-modules would import every conftest.py as a doctest module named 'conftest', and
# two of them (tests/, tests/book/) then clash; they hold fixtures, not doctests.
collect_ignore_glob = ["*conftest.py"]
# A hostile layer that ends the interpreter when imported: only `coalg conform` may import it
# (in the child it watches); --doctest-modules must not.
collect_ignore = ["conformance/hostile_import.py"]



@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    """A deep run forces its one seed on every Hypothesis test (unless --hypothesis-seed is given)."""
    if budget is None:
        raise pytest.UsageError(_BAD_BUDGET)  # one line, no traceback
    if budget.SEED is not None:
        os.environ.setdefault("COALG_SEED", str(budget.SEED))  # pytest-xdist workers draw the same seed
        if config.getoption("hypothesis_seed", None) is None:
            config.option.hypothesis_seed = str(budget.SEED)
    config.pluginmanager.register(_DoctestVerdicts(), "coalg-doctest-verdicts")


class _DoctestVerdicts:
    """Before the first doctest of ``coalg/`` in a process: the law verdicts this run's book build
    computed, when there are valid ones (tests/shared_build.py), so a docstring that shows a law
    table does not search it again.  Registered as a plugin because a hook in this file would only
    see the items under tests/."""

    loaded = False

    def pytest_runtest_setup(self, item: pytest.Item) -> None:
        if not self.loaded and isinstance(item, pytest.DoctestItem):
            from shared_build import build_law_tables

            self.loaded = build_law_tables() is not None


LONGEST_FIRST = (
    "tests/book/test_book_build.py",  # builds the book, which writes the law tables in its first minute
    "tests/cli/test_acceptance.py",
    "tests/widgets/test_explorers_browser.py",
    "tests/widgets/test_voila_load.py",
    "tests/conformance/test_conformance.py",
    "tests/contextfs/test_runtime.py",
    "tests/laws/test_reduction.py",
    "tests/laws/test_results.py",
    "tests/book/test_law_tables.py",
    "tests/conformance/test_layer_corpus.py",
    "tests/contextfs/test_differential.py",
    "tests/lab/test_lab.py",
)
"""The test files that take longest, longest first (as a whole run measured them), collected before
the others: pytest-xdist hands each worker whole files in collection order (``--dist loadfile``),
so a run ends with short files on both workers instead of one long file on one.  The files that
read law tables come after the book build has had time to write them (tests/shared_build.py)."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """In a pytest-xdist worker, collect :data:`LONGEST_FIRST` first, in its order; every other
    test keeps its place. A run in one process keeps the order it was given (mutation testing
    hands each mutant's tests fastest first, and most mutants fail their first test)."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return
    rank = {path: k for k, path in enumerate(LONGEST_FIRST)}
    order = {id(item): k for k, item in enumerate(items)}

    def key(item: pytest.Item) -> tuple[int, int]:
        return rank.get(item.nodeid.split("::", 1)[0], len(rank)), order[id(item)]

    items.sort(key=key)


def _profile_line(config: pytest.Config) -> str:
    given = config.getoption("hypothesis_seed", None)
    if budget.SEED is not None and given is not None and given != str(budget.SEED):
        return f"property tests: COALG_EXAMPLES={budget.DEEP} random examples each, --hypothesis-seed {given}"
    return budget.describe()


def pytest_report_header(config: pytest.Config) -> str:
    return _profile_line(config)


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    if budget.DEEP is not None:
        terminalreporter.write_line(_profile_line(config))


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
