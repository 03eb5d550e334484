"""The live explorers: Voila serves the playground notebook and a real browser drives it.

Starts Voila (as `make explorers` does: the repository's `coalg` template, which drops the
Font Awesome stylesheets Voila would fetch from cdn.jsdelivr.net) on a free 127.0.0.1 port with
`notebooks/explore-playground.ipynb`, opens it in Debian's chromium (playwright-python, never
`playwright install`), selects a record, clicks the `evolve` button and checks that the kernel
answered: the store graph image is replaced and the message names the call.  Every request must
stay on 127.0.0.1 (others are aborted, so the test never uses the network).  The server and its
kernel are killed however the test ends.

Marked `book` (it needs chromium and a running kernel, like the book's browser checks); deselect
with `-m "not book"`.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

pytestmark = pytest.mark.book

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = ROOT / "notebooks" / "explore-playground.ipynb"
START_TIMEOUT_S = 90
KERNEL_TIMEOUT_MS = 90_000
LOCAL_HOSTS = {"127.0.0.1"}


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _voila() -> str:
    beside = Path(sys.executable).parent / "voila"
    if not beside.exists():
        pytest.fail("voila is not installed; run `make setup`")
    return str(beside)


@pytest.fixture(scope="module")
def voila_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Voila serving the playground notebook on 127.0.0.1; the whole process group is killed afterwards."""
    port = _free_port()
    log = tmp_path_factory.mktemp("voila") / "voila.log"
    env = {**os.environ, "JUPYTER_PATH": str(ROOT / "tools" / "jupyter")}
    cmd = [_voila(), str(NOTEBOOK), "--no-browser", "--Voila.ip=127.0.0.1", f"--port={port}",
           "--template=coalg"]
    with open(log, "wb") as out:
        proc = subprocess.Popen(cmd, cwd=ROOT / "notebooks", env=env, stdout=out, stderr=subprocess.STDOUT,
                                start_new_session=True)
    url = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            if proc.poll() is not None:
                pytest.fail(f"voila exited with {proc.returncode}:\n{log.read_text(errors='replace')[-3000:]}")
            try:  # a TCP connect only: a GET of the page would start a kernel of its own
                with socket.create_connection(("127.0.0.1", port), timeout=2):
                    break
            except OSError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"voila did not answer within {START_TIMEOUT_S} s:\n{log.read_text(errors='replace')[-3000:]}")
            time.sleep(0.5)
        yield url
    finally:
        try:
            os.killpg(proc.pid, signal.SIGTERM)  # voila and the kernels it started (same session)
            proc.wait(timeout=15)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            proc.wait(timeout=5)


def _is_local(url: str) -> bool:
    parts = urlsplit(url)
    if parts.scheme in ("data", "blob", "about"):
        return True
    return parts.hostname in LOCAL_HOSTS


def test_playground_click_redraws_in_the_browser(voila_url: str, chromium_browser: Any, tmp_path: Path) -> None:
    outside: list[str] = []
    errors: list[str] = []
    context = chromium_browser.new_context(viewport={"width": 1280, "height": 1400})
    page = context.new_page()

    def guard(route: Any) -> None:
        if _is_local(route.request.url):
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    page.route("**/*", guard)
    page.on("websocket", lambda ws: None if _is_local(ws.url.replace("ws", "http", 1)) else outside.append(ws.url))
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(voila_url, wait_until="domcontentloaded", timeout=KERNEL_TIMEOUT_MS)
        graph = page.locator("img.coalg-graph")
        graph.wait_for(state="visible", timeout=KERNEL_TIMEOUT_MS)
        page.wait_for_function("() => { const i = document.querySelector('img.coalg-graph');"
                               " return i && i.complete && i.naturalWidth > 0; }", timeout=KERNEL_TIMEOUT_MS)
        before = graph.get_attribute("src")
        page.screenshot(path=str(tmp_path / "playground-before.png"), full_page=True)

        select = page.locator("select[multiple]").first
        labels = select.locator("option").all_inner_texts()
        target = next(k for k, text in enumerate(labels) if text.startswith("id0005"))
        select.select_option(index=[target])
        page.locator("button.coalg-op-evolve").click()

        page.wait_for_function(
            "(old) => { const i = document.querySelector('img.coalg-graph');"
            " return i && i.getAttribute('src') !== old && i.complete && i.naturalWidth > 0; }",
            arg=before, timeout=KERNEL_TIMEOUT_MS)
        page.get_by_text("evolve(id0005").first.wait_for(timeout=KERNEL_TIMEOUT_MS)
        body = page.inner_text("body")
        assert "L2" in body and "failed" in body  # the law panel of this step (Proposition 5.14)
        page.screenshot(path=str(tmp_path / "playground-after.png"), full_page=True)
        shots = os.environ.get("COALG_SCREENSHOTS")
        if shots:
            Path(shots).mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(Path(shots) / "explorer-playground-voila.png"), full_page=True)
    finally:
        context.close()
    assert not outside, f"the page requested URLs outside 127.0.0.1: {outside}"
    assert not errors, f"uncaught page errors: {errors}"
