"""The live explorers in a real browser: Voila, as `make explorers` serves them, driven by chromium.

The server runs through tools/jupyter/serve_explorers.py (the repository's ``coalg`` template,
tools/jupyter/voila.py, kernel culling) on a free 127.0.0.1 port; Debian's chromium is driven by
playwright-python (never `playwright install`).  Every request must stay on 127.0.0.1 (others are
aborted, so the test never uses the network), and no page may log an error or a warning.

* a click redraws the playground and its law panel;
* a double-click on a step is one step, and the controls are disabled while it runs;
* an invalid choice clears the result instead of leaving the previous one on screen
  (merge lab: one record; tenants lab: a value that cannot be built);
* closing a tab shuts its kernel down at once (the ``_xsrf`` fix), well before the idle time;
* the index page lists every explorer with its one-line description.

Marked `book` (it needs chromium and a running kernel, like the book's browser checks); deselect
with `-m "not book"`.  ``COALG_SCREENSHOTS=<dir>`` keeps screenshots.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

pytestmark = pytest.mark.book

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools" / "jupyter"))

from explorers_server import Server, running  # noqa: E402

KERNEL_TIMEOUT_MS = 120_000
IDLE = 120  # long: a kernel that goes away in these tests went because its tab said goodbye
NOTEBOOKS = sorted(p.name for p in (ROOT / "notebooks").glob("explore-*.ipynb"))


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running(ROOT / "notebooks", idle=IDLE, log=tmp_path_factory.mktemp("voila") / "voila.log") as s:
        yield s


def _is_local(url: str) -> bool:
    parts = urlsplit(url)
    return parts.scheme in ("data", "blob", "about") or parts.hostname == "127.0.0.1"


class Tab:
    """One browser tab on one explorer, recording what leaves 127.0.0.1 and what the console says."""

    def __init__(self, browser: Any, server: Server, notebook: str, height: int = 1600) -> None:
        self.context = browser.new_context(viewport={"width": 1024, "height": height})
        self.page = self.context.new_page()
        self.outside: list[str] = []
        self.console: list[str] = []
        self.page.route("**/*", self._guard)
        self.page.on("console", lambda m: self.console.append(f"{m.type}: {m.text}")
                     if m.type in ("error", "warning") else None)
        self.page.on("pageerror", lambda e: self.console.append(f"pageerror: {e}"))
        self.page.goto(f"{server.url}voila/render/{notebook}", wait_until="domcontentloaded",
                       timeout=KERNEL_TIMEOUT_MS)
        self.page.locator(".coalg-explorer img").first.wait_for(state="visible", timeout=KERNEL_TIMEOUT_MS)

    def _guard(self, route: Any) -> None:
        if _is_local(route.request.url):
            route.continue_()
        else:
            self.outside.append(route.request.url)
            route.abort()

    def text(self, selector: str) -> str:
        return str(self.page.locator(selector).first.inner_text())

    def wait_text(self, selector: str, needle: str) -> None:
        self.page.wait_for_function(
            "([s, n]) => { const e = document.querySelector(s); return e && e.innerText.includes(n); }",
            arg=[selector, needle], timeout=KERNEL_TIMEOUT_MS)

    def shot(self, name: str) -> None:
        folder = os.environ.get("COALG_SCREENSHOTS")
        if folder:
            Path(folder).mkdir(parents=True, exist_ok=True)
            self.page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=True)

    def close(self) -> None:
        missing = self.page.evaluate("document.body.getAttribute('data-coalg-missing')")
        assert missing is None, f"{missing} explorer cell(s) showed the busy message"
        self.page.close(run_before_unload=True)  # as a reader closing the tab: beforeunload runs
        time.sleep(1.0)  # the page's shutdown beacon leaves before the browser context goes
        self.context.close()
        assert not self.outside, f"the page requested URLs outside 127.0.0.1: {self.outside}"
        assert not self.console, f"the console is not quiet: {self.console}"


def test_a_click_redraws_the_playground(server: Server, chromium_browser: Any) -> None:
    tab = Tab(chromium_browser, server, "explore-playground.ipynb")
    page = tab.page
    graph = page.locator("img.coalg-graph")
    before = graph.get_attribute("src")
    select = page.locator("select[multiple]").first
    labels = select.locator("option").all_inner_texts()
    select.select_option(index=[next(k for k, t in enumerate(labels) if t.startswith("id0005"))])
    page.wait_for_timeout(300)  # the selection reaches the kernel
    page.locator("button.coalg-op-evolve").click()
    page.wait_for_function("(old) => { const i = document.querySelector('img.coalg-graph');"
                           " return i && i.getAttribute('src') !== old && i.complete && i.naturalWidth > 0; }",
                           arg=before, timeout=KERNEL_TIMEOUT_MS)
    tab.wait_text(".coalg-laws", "failed")
    assert "L2" in tab.text(".coalg-laws")  # Proposition 5.14, on this step
    tab.shot("explorer-playground-voila")
    tab.close()


def test_a_double_click_is_one_step(server: Server, chromium_browser: Any) -> None:
    tab = Tab(chromium_browser, server, "explore-playground.ipynb")
    page = tab.page
    select = page.locator("select[multiple]").first
    labels = select.locator("option").all_inner_texts()
    select.select_option(index=[next(k for k, t in enumerate(labels) if t.startswith("id0004"))])
    page.wait_for_timeout(300)  # the selection reaches the kernel
    page.locator("button.coalg-op-evolve").dblclick()
    tab.wait_text(".coalg-word", "evolve(id0004")
    page.wait_for_timeout(2500)  # room for a second step, if one were coming
    word = tab.text(".coalg-word")
    assert word.count("evolve(") == 1, word
    assert page.locator(".coalg-word li").count() == 1
    tab.shot("explorer-playground-double-click")
    tab.close()


def test_an_invalid_choice_clears_the_result(server: Server, chromium_browser: Any) -> None:
    tab = Tab(chromium_browser, server, "explore-merge.ipynb")
    page = tab.page
    tab.wait_text(".coalg-result", "id0006")  # the merge of id0001 and id0002
    page.locator("select[multiple]").first.select_option(index=[0])  # "merge with one record"
    tab.wait_text(".coalg-result", "No merge to show")
    assert "id0006" not in tab.text(".coalg-result")
    assert "merge needs at least two records" in tab.text(".coalg-message")
    tab.shot("explorer-merge-cleared")
    tab.close()

    tab = Tab(chromium_browser, server, "explore-tenants.ipynb")
    page = tab.page
    tab.wait_text(".coalg-report", "6.3 prefix recall")
    box = page.get_by_label("prefix clashes")
    box.fill("9")
    box.press("Enter")
    tab.wait_text(".coalg-report", "No tenants")
    assert "from 0 to 3; 9 is not" in tab.text(".coalg-message")
    assert box.input_value() == "9"  # what the reader typed stays, never clamped
    assert page.get_by_role("button", name="drop cross-tenant edges").is_disabled()
    assert not page.locator(".coalg-tenants img").first.is_visible()  # no stale union on screen
    tab.shot("explorer-tenants-cleared")
    tab.close()


def test_projector_mode_keeps_the_law_panel_on_a_1024_by_768_screen(server: Server, chromium_browser: Any) -> None:
    tab = Tab(chromium_browser, server, "explore-playground.ipynb", height=768)
    page = tab.page
    page.get_by_role("button", name="projector").click()
    page.wait_for_selector(".coalg-scale-160", timeout=KERNEL_TIMEOUT_MS)
    select = page.locator("select[multiple]").first
    labels = select.locator("option").all_inner_texts()
    select.select_option(index=[next(k for k, t in enumerate(labels) if t.startswith("id0005"))])
    page.wait_for_timeout(300)
    page.locator("button.coalg-op-evolve").click()
    tab.wait_text(".coalg-laws", "failed")
    page.evaluate("() => document.querySelector('.coalg-explorer').scrollIntoView()")
    laws = page.locator(".coalg-laws").bounding_box()
    assert laws is not None and laws["y"] >= 0 and laws["y"] + laws["height"] <= 768, laws
    shown = page.evaluate("() => { const i = document.querySelector('img.coalg-graph');"
                          " return [i.naturalWidth, i.clientWidth]; }")
    assert shown[0] == shown[1] <= 1024  # the graph is shown at its own size: never shrunk
    tab.shot("explorer-playground-projector")
    tab.close()


def test_closing_a_tab_ends_its_kernel(server: Server, chromium_browser: Any) -> None:
    assert server.wait_for_kernels(0, timeout=30)  # the tabs of the tests before said goodbye too
    tab = Tab(chromium_browser, server, "explore-refinement.ipynb")
    assert len(server.kernels()) == 1
    tab.close()  # the page's beforeunload posts the shutdown with the _xsrf cookie
    assert server.wait_for_kernels(0, timeout=20), "the shutdown call did not end the kernel"
    log = server.log.read_text()
    assert "403 POST" not in log and "'_xsrf' argument missing" not in log and "Culling 'idle'" not in log


@pytest.mark.parametrize("notebook", NOTEBOOKS)
def test_every_explorer_page_is_quiet(server: Server, chromium_browser: Any, notebook: str) -> None:
    tab = Tab(chromium_browser, server, notebook)
    tab.page.wait_for_timeout(1500)
    tab.shot(notebook.removesuffix(".ipynb"))
    tab.close()


def test_the_index_describes_every_explorer(server: Server, chromium_browser: Any) -> None:
    context = chromium_browser.new_context(viewport={"width": 1024, "height": 768})
    page = context.new_page()
    page.goto(server.url, timeout=KERNEL_TIMEOUT_MS)
    items = page.locator(".coalg-explorers li").all_inner_texts()
    context.close()
    assert len(items) == len(NOTEBOOKS) and all("\n" in item for item in items)
    assert items[0].startswith("Derivation playground")
    assert len(server.kernels()) <= 1  # the index starts no kernel


MEASURE_FIGURES = """async () => {
  // every figure of the explorer: its SVG parsed, its text measured at the size it is shown
  const out = [];
  for (const img of document.querySelectorAll('.coalg-explorer img')) {
    if (!img.src || img.clientWidth === 0) { continue; }
    const svg = new DOMParser().parseFromString(await (await fetch(img.src)).text(),
                                                'image/svg+xml').documentElement;
    const box = svg.getAttribute('viewBox').split(/\\s+/).map(Number);
    const host = document.createElement('div');
    host.style.cssText = 'position:absolute;left:-40000px;top:0';
    host.appendChild(svg);
    document.body.appendChild(host);
    const shown = img.clientWidth / svg.getBoundingClientRect().width;  // image px per px of the SVG
    const texts = [];
    for (const t of svg.querySelectorAll('text')) {
      const r = t.getBoundingClientRect();
      texts.push({text: t.textContent,
                  px: parseFloat(getComputedStyle(t).fontSize) * img.clientWidth / box[2],
                  left: r.left * shown, right: r.right * shown, top: r.top * shown,
                  bottom: r.bottom * shown});
    }
    host.remove();
    const r = img.getBoundingClientRect();
    out.push({natural: img.naturalWidth, width: img.clientWidth, left: r.left, right: r.right, texts});
  }
  return out;
}"""


MAIN_VIEWS = """() => {
  // the union of the boxes of each main view (elements marked coalg-main, coalg-main-compare)
  const out = {};
  for (const name of ['coalg-main', 'coalg-main-compare']) {
    const boxes = [...document.querySelectorAll('.coalg-explorer .' + name)]
      .map(e => e.getBoundingClientRect()).filter(r => r.height > 0);
    if (boxes.length) {
      const top = Math.min(...boxes.map(r => r.top)), bottom = Math.max(...boxes.map(r => r.bottom));
      out[name] = {count: boxes.length, top, bottom, height: bottom - top};
    }
  }
  return out;
}"""

CONTROL_WIDTHS = """() => [...document.querySelectorAll(
    '.coalg-explorer .widget-dropdown select, .coalg-explorer .widget-text input')]
    .map(e => e.getBoundingClientRect().width)"""
SPAN = """(selector) => {
  // the union of the boxes of the elements the selector names (those shown)
  const boxes = [...document.querySelectorAll(selector)].map(e => e.getBoundingClientRect())
    .filter(r => r.height > 0);
  const top = Math.min(...boxes.map(r => r.top)), bottom = Math.max(...boxes.map(r => r.bottom));
  return {count: boxes.length, top, bottom, height: bottom - top};
}"""

SETTLED = """(old) => {
  // the message line says something new, the controls are back (an action disables them while
  // it runs and enables them after its last redraw) and every figure has arrived
  const m = document.querySelector('.coalg-explorer .coalg-message');
  const size = [...document.querySelectorAll('.coalg-explorer button')]
    .find(b => b.innerText.trim() === 'lecture hall');
  const images = [...document.querySelectorAll('.coalg-explorer img')].filter(i => i.src);
  return m && m.innerText !== old && size && !size.disabled
    && images.every(i => i.complete && i.naturalWidth > 0);
}"""


def _evolve_the_merged_record(page: Any) -> None:
    select = page.locator("select[multiple]").first
    labels = select.locator("option").all_inner_texts()
    select.select_option(index=[next(k for k, t in enumerate(labels) if t.startswith("id0005"))])
    page.wait_for_timeout(300)  # the selection reaches the kernel
    page.locator("button.coalg-op-evolve").click()


ACTIONS = {  # one typical action of each explorer, the one its introduction suggests first
    "explore-ancestry.ipynb": lambda page: page.get_by_role("button", name="evolve it").click(),
    "explore-bitemporal.ipynb": lambda page: page.get_by_role("button", name="next ▶").click(),
    "explore-merge.ipynb": lambda page: page.get_by_label("reverse argument order").check(),
    "explore-playground.ipynb": _evolve_the_merged_record,
    "explore-refinement.ipynb": lambda page: page.get_by_role("button", name="round ▶").click(),
    "explore-tenants.ipynb": lambda page: page.get_by_role("button", name="try ⊕").click(),
}

VISIBLE_PX = 1000  # what a 1920×1080 screen shows below the browser's own bars
TALL_AFTER_ACTION: dict[str, str] = {}  # a main view known to outgrow the screen after its action (strict)
NO_OVERLAP = {"explore-refinement.ipynb"}  # figures checked for texts drawn over other texts
PAIRS = {  # the names of the two panels that must stand side by side: before and after, s and t
    "explore-ancestry.ipynb": [(", before", ", after")],
    "explore-bitemporal.ipynb": [("Ψ(h)", "Ψ(h′)")],
    "explore-refinement.ipynb": [("s", "t")],
}


@pytest.mark.parametrize("notebook", NOTEBOOKS)
def test_the_lecture_hall_size_on_a_1080p_screen(server: Server, chromium_browser: Any, notebook: str) -> None:
    """At the largest size on a 1920×1080 screen: every text of every figure is at least 32 px as
    shown, figures use the width (never shrunk, never past the screen), each main view (the figure
    and the line that says what it shows) is at most one screen high, and pairs of panels
    (before and after, the two stores compared) stand side by side.  After one typical action
    the same holds, and the message line that says what the action did is on that screen too."""
    context = chromium_browser.new_context(viewport={"width": 1920, "height": 1080})
    tab = Tab.__new__(Tab)
    tab.context, tab.page, tab.outside, tab.console = context, context.new_page(), [], []
    page = tab.page
    page.route("**/*", tab._guard)
    page.on("console", lambda m: tab.console.append(f"{m.type}: {m.text}") if m.type in ("error", "warning") else None)
    page.goto(f"{server.url}voila/render/{notebook}", wait_until="domcontentloaded",
              timeout=KERNEL_TIMEOUT_MS)
    page.locator(".coalg-explorer img").first.wait_for(state="visible", timeout=KERNEL_TIMEOUT_MS)
    before = page.locator(".coalg-explorer img").first.get_attribute("src")
    normal = page.evaluate(MAIN_VIEWS)
    controls = page.evaluate(CONTROL_WIDTHS)
    page.get_by_role("button", name="lecture hall").click()
    page.wait_for_selector(".coalg-scale-270", timeout=KERNEL_TIMEOUT_MS)
    page.wait_for_function("(old) => { const i = document.querySelector('.coalg-explorer img');"
                           " return i && i.getAttribute('src') !== old && i.complete && i.naturalWidth > 0; }",
                           arg=before, timeout=KERNEL_TIMEOUT_MS)
    page.wait_for_timeout(500)  # the other figures of the explorer arrive in the same update
    figures = page.evaluate(MEASURE_FIGURES)
    assert figures
    for f in figures:
        assert f["width"] == f["natural"] and 0 <= f["left"] and f["right"] <= 1920, f  # shown at its own size
        sizes = [t["px"] for t in f["texts"] if t["text"].strip()]
        assert sizes and min(sizes) >= 32.0, sorted(sizes)[:3]
    views = page.evaluate(MAIN_VIEWS)
    assert "coalg-main" in views and views.keys() == normal.keys(), views
    told = page.evaluate(SPAN, ".coalg-explorer .coalg-main, .coalg-explorer .coalg-message")
    assert told["height"] <= VISIBLE_PX, ("the message and the main view", told)
    for name, box in views.items():
        assert box["count"] >= 2 and box["height"] <= VISIBLE_PX, (name, box)  # a figure and its line
        assert normal[name]["height"] < box["height"], (name, normal[name], box)  # it did grow
    texts = [t for f in figures for t in f["texts"]]
    for f in figures if notebook in NO_OVERLAP else []:  # no text over another text (1 px of slack)
        boxes = [t for t in f["texts"] if t["text"].strip()]
        for k, a in enumerate(boxes):
            for b in boxes[k + 1:]:
                apart = (a["right"] <= b["left"] + 1 or b["right"] <= a["left"] + 1
                         or a["bottom"] <= b["top"] + 1 or b["bottom"] <= a["top"] + 1)
                assert apart, ("texts overlap", a, b)
    for left_name, right_name in PAIRS.get(notebook, []):
        def named(t: dict[str, Any], name: str) -> bool:
            return bool(t["text"] == name or (name.startswith(",") and t["text"].endswith(name)))

        left = next(t for t in texts if named(t, left_name))
        right = next(t for t in texts if named(t, right_name))
        assert left["right"] <= right["left"], (left, right)  # before on the left, after on the right
        assert left["top"] < right["bottom"] and right["top"] < left["bottom"], (left, right)  # on one row
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 1920  # no sideways scrolling
    font = page.evaluate("() => parseFloat(getComputedStyle(document.querySelector("
                         "'.coalg-explorer .widget-html-content')).fontSize)")
    assert font >= 32.0, font  # the explorer's own text too
    # a box grows with its text ("id0004  t" and "new cor" were cut), unless it already spans the row
    grown = page.evaluate(CONTROL_WIDTHS)
    assert len(grown) == len(controls), (controls, grown)
    assert all(b >= min(2 * a, 1600) for a, b in zip(controls, grown)), (controls, grown)
    page.evaluate("() => document.querySelector('.coalg-explorer .coalg-main').scrollIntoView()")
    tab.shot(notebook.removesuffix(".ipynb") + "-lecture-hall")

    said = page.locator(".coalg-explorer .coalg-message").first.inner_text()
    ACTIONS[notebook](page)
    page.wait_for_function(SETTLED, arg=said, timeout=KERNEL_TIMEOUT_MS)
    page.wait_for_timeout(1000)  # the rows the action rearranges settle
    page.wait_for_function(SETTLED, arg=said, timeout=KERNEL_TIMEOUT_MS)
    for f in page.evaluate(MEASURE_FIGURES):
        assert f["width"] == f["natural"] and f["right"] <= 1920, f
        sizes = [t["px"] for t in f["texts"] if t["text"].strip()]
        assert sizes and min(sizes) >= 32.0, sorted(sizes)[:3]
    told = page.evaluate(SPAN, ".coalg-explorer .coalg-main, .coalg-explorer .coalg-message")
    fits = told["height"] <= VISIBLE_PX and all(
        box["height"] <= VISIBLE_PX for box in page.evaluate(MAIN_VIEWS).values())
    if notebook in TALL_AFTER_ACTION:
        assert not fits, f"{notebook} fits one screen after its action now: take it off TALL_AFTER_ACTION"
        tab.close()
        pytest.xfail(TALL_AFTER_ACTION[notebook])
    assert told["count"] >= 2 and fits, ("the message and the main view after the action", told)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 1920
    page.evaluate("() => document.querySelector('.coalg-explorer .coalg-message').scrollIntoView()")
    tab.shot(notebook.removesuffix(".ipynb") + "-lecture-hall-after")
    tab.close()


def test_a_12_mib_upload_is_refused_in_the_page_and_import_works_again(server: Server, chromium_browser: Any) -> None:
    """A session file over the limit gets a message and is never sent (over the server's 10 MiB a
    message to the kernel would close the connection); the next file imports without a reload."""
    import base64

    tab = Tab(chromium_browser, server, "explore-merge.ipynb")
    page = tab.page
    href = page.locator(".coalg-download").first.get_attribute("href")
    assert href is not None and href.startswith("data:application/json")
    session = base64.b64decode(href.split(",", 1)[1])
    button = page.locator(".coalg-explorer .widget-upload").first
    big = session + b" " * (12 * 1024 * 1024)
    for _ in range(2):  # and the same file again, at once
        with page.expect_file_chooser() as chooser:
            button.click()
        chooser.value.set_files([{"name": "big.json", "mimeType": "application/json", "buffer": big}])
        tab.wait_text(".coalg-message", "more than the limit")
        said = tab.text(".coalg-message")
        assert f"big.json: {len(big)} bytes" in said and "not sent" in said, said
        page.evaluate("() => document.querySelector('.coalg-upload-refused').remove()")
    with page.expect_file_chooser() as chooser:
        button.click()
    chooser.value.set_files([{"name": "class.json", "mimeType": "application/json", "buffer": session}])
    tab.wait_text(".coalg-message", "session imported")
    tab.shot("explorer-merge-upload-refused")
    tab.close()
