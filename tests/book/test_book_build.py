"""The web book builds with zero warnings, and every page works and reads well offline.

The session fixture `built_book` (tests/book/conftest.py) runs
`jupyter-book build . -W -n --keep-going --all` unless `_build/html/index.html` is newer than every
source; a build warning, an unresolved reference or a failing notebook cell fails it.
Each page listed in `_toc.yml`, plus Sphinx's own genindex and search pages, is then opened
once in Debian's chromium from a loopback server, at 1280 px and again at 390 px wide, and
checked for:

* no request leaving 127.0.0.1 (such requests are also blocked, so the test never uses the network);
* no failed request, no HTTP error, no uncaught page error, no console error or warning;
* math typeset by MathJax (every math element holds an `mjx-container`, no MathJax error box, no
  raw `\\(` or `\\[` left in the text, no `$...$` left in widget text), and no backslash shown
  inside typeset math (an escape MathJax printed literally);
* no Markdown table left as raw pipe text;
* every widget view rendered (pages with recorded widget state); every <img> loaded;
* every internal link pointing at a file that exists in the build;
* layout: at 1280 px no code block and no output is wider than its box (wide tables may scroll
  inside their own container, a few per page); at 390 px the page never scrolls sideways, and
  whatever is wider than the column scrolls inside its own box;
* every chapter page offers its notebook as a `.ipynb` download, and the file is the chapter's
  source as an outputs-free notebook.
* on each explorer page, the recorded tour (`.coalg-tour`) steps with no kernel: its slider moved
  by the arrow keys, by a click on its track and by a drag changes the frame shown (its text, its
  figure and the readout), with nothing logged on the console.

Screenshots of a few pages at both widths are kept in `_build/screenshots/<width>/` (CI keeps
them as artifacts). Deselect with `-m "not book"`.
"""

from __future__ import annotations

import json
import posixpath
import re
import sys
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urljoin, urlsplit

import pytest
import yaml  # type: ignore[import-untyped]

pytestmark = pytest.mark.book

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "_build" / "screenshots"

# Chromium's own console line for a failed load; the request itself is checked (with its URL).
HARMLESS_CONSOLE = (re.compile(r"^Failed to load resource"),)
# Requests the browser makes on its own, not the book. None: every page links its icon
# (html_favicon), so the browser's probe of /favicon.ico (a 404) never happens.
BROWSER_PROBES: tuple[str, ...] = ()

SPHINX_PAGES = ("genindex.html", "search.html", "prf-prf.html")  # prf-prf: sphinx-proof's index
NON_PAGE_DIRS = ("_static", "_sources", "_images", "_sphinx_design_static", "reports")
PAGE_TIMEOUT_MS = 30_000
WIDE, NARROW = 1280, 390
# Wide tables that may scroll sideways inside their own container at 1280 px, per page: none
# (a table too wide for the column is split, transposed or abbreviated where it is made).
MAX_SCROLLING_TABLES = 0
# The smallest text a figure of a tour or an explorer may show on a phone, in CSS px.
MIN_FIGURE_TEXT_PX = 10
SCREENSHOT_PAGES = (
    "book/intro.html",
    "book/03-4-lineage-coalgebra.html",
    "book/05-8-bitemporality.html",
    "book/05-10-summary.html",
    "book/appendix-e-performance.html",
    "notebooks/explore-playground.html",
)


def _toc_files(node: Any) -> list[str]:
    """Document paths named in a jb-book _toc.yml (root first, then in reading order)."""
    found: list[str] = []
    if isinstance(node, dict):
        for key in ("root", "file"):
            if isinstance(node.get(key), str):
                found.append(node[key])
        for key in ("parts", "chapters", "sections"):
            for child in node.get(key, []) or []:
                found.extend(_toc_files(child))
    elif isinstance(node, list):
        for child in node:
            found.extend(_toc_files(child))
    return found


def _toc_docs() -> list[str]:
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    return [re.sub(r"\.(md|ipynb|rst)$", "", f) for f in _toc_files(toc)]


BOOK_PAGES = [f"{doc}.html" for doc in _toc_docs()] + list(SPHINX_PAGES)


def _source(doc: str) -> Path | None:
    for ext in (".md", ".ipynb"):
        if (ROOT / f"{doc}{ext}").is_file():
            return ROOT / f"{doc}{ext}"
    return None


def _is_notebook_page(doc: str) -> bool:
    """A chapter that is a notebook: an .ipynb, or MyST Markdown with a jupytext header."""
    src = _source(doc)
    if src is None:
        return False
    if src.suffix == ".ipynb":
        return True
    head = src.read_text(encoding="utf-8")[:400]
    return head.startswith("---\n") and "jupytext:" in head and "kernelspec:" in head


NOTEBOOK_PAGES = [f"{doc}.html" for doc in _toc_docs() if _is_notebook_page(doc)]

# Every page, explorers and the API reference included, passes the layout checks strictly.
LAYOUT_PAGES = list(BOOK_PAGES)


def _built_pages(html_dir: Path) -> set[str]:
    pages = set()
    for path in html_dir.rglob("*.html"):
        rel = path.relative_to(html_dir).as_posix()
        if rel.split("/", 1)[0] not in NON_PAGE_DIRS:
            pages.add(rel)
    return pages


def test_index_redirects_to_the_root_page(built_book: Path) -> None:
    index = (built_book / "index.html").read_text(encoding="utf-8")
    match = re.search(r'http-equiv="Refresh" content="0; url=([^"]+)"', index, re.IGNORECASE)
    assert match, "index.html is not the redirect Jupyter Book writes"
    assert match.group(1) == BOOK_PAGES[0], f"index.html redirects to {match.group(1)}"
    assert (built_book / match.group(1)).is_file()


def test_every_built_page_is_checked(built_book: Path) -> None:
    unchecked = _built_pages(built_book) - set(BOOK_PAGES) - {"index.html"}
    assert not unchecked, (
        f"HTML pages not listed in _toc.yml (so never checked): {sorted(unchecked)}"
    )
    missing = set(BOOK_PAGES) - _built_pages(built_book)
    assert not missing, f"pages listed in _toc.yml but not built: {sorted(missing)}"


# --------------------------------------------------------------------------- in the page

_WAIT_FOR_MATHJAX = """
async () => {
  if (!document.querySelector('.math')) return 'no math';
  const t0 = Date.now();
  while (!(window.MathJax && MathJax.startup && MathJax.startup.promise)) {
    if (Date.now() - t0 > 20000) return 'MathJax never started';
    await new Promise(r => setTimeout(r, 50));
  }
  await MathJax.startup.promise;
  return 'typeset';
}
"""

_WAIT_FOR_WIDGETS = """
async () => {
  const views = document.querySelectorAll('script[type="application/vnd.jupyter.widget-view+json"]');
  if (views.length === 0) return 0;
  const t0 = Date.now();
  while (document.querySelectorAll('.widget-subarea').length < views.length) {
    if (Date.now() - t0 > 20000) break;
    await new Promise(r => setTimeout(r, 50));
  }
  return views.length;
}
"""

_MATH_REPORT = """
() => {
  const maths = Array.from(document.querySelectorAll('.math'));
  const untypeset = maths.filter(m => !m.querySelector('mjx-container'))
                         .map(m => m.textContent.trim().slice(0, 80));
  const errors = Array.from(document.querySelectorAll('mjx-merror'))
                      .map(e => e.getAttribute('data-mjx-error') || e.textContent.slice(0, 80));
  // MathJax's noundefined extension shows an unknown macro as red text starting with '\\'.
  const undefinedMacros = Array.from(document.querySelectorAll('mjx-mtext'))
    .filter(t => t.style.color === 'red' && t.querySelector('mjx-c.mjx-c5C:first-child'))
    .map(t => Array.from(t.querySelectorAll('mjx-c'), c => {
      const code = Array.from(c.classList).find(k => /^mjx-c[0-9A-F]+$/.test(k));
      return code ? String.fromCodePoint(parseInt(code.slice(5), 16)) : '?';
    }).join(''));
  // A backslash glyph in typeset math is an escape MathJax printed as it was written.
  const backslashes = Array.from(document.querySelectorAll('mjx-container'))
    .filter(c => c.querySelector('mjx-c.mjx-c5C') ||
                 Array.from(c.querySelectorAll('mjx-utext')).some(u => u.textContent.includes('\\\\')))
    .map(c => (c.parentElement.closest('p, li, td, div') || c).textContent.trim().slice(0, 100));
  const raw = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (n.parentElement.closest('pre, code, script, style, textarea, mjx-container, .highlight')) continue;
    const text = n.textContent;
    if (/\\\\[(\\[]/.test(text) ||
        (n.parentElement.closest('.widget-subarea') && /\\$[^$\\s][^$]*\\$/.test(text))) {
      raw.push(text.trim().slice(0, 80));
    }
  }
  return {count: maths.length, containers: document.querySelectorAll('mjx-container').length,
          untypeset, errors, undefinedMacros, raw, backslashes};
}
"""

# Text that is a Markdown table nobody parsed: a delimiter row, or a line of three pipes.
_RAW_TABLES = """
() => {
  const found = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (n.parentElement.closest('pre, code, script, style, textarea, mjx-container, .highlight'))
      continue;
    const text = n.textContent;
    if (/\\|\\s*[-\\u2013\\u2014:]{2,}\\s*\\|/.test(text) || /^\\s*\\|[^|\\n]+\\|[^|\\n]+\\|/m.test(text))
      found.push(text.trim().slice(0, 80));
  }
  return found;
}
"""

_IMAGES_REPORT = """
async () => {
  const imgs = Array.from(document.images);
  await Promise.all(imgs.map(img => {
    img.loading = 'eager';
    if (img.complete) return null;
    return new Promise(r => { img.addEventListener('load', r); img.addEventListener('error', r);
                              setTimeout(r, 10000); });
  }));
  return imgs.map(img => ({src: img.getAttribute('src'), ok: img.complete && img.naturalWidth > 0}));
}
"""

_LINKS = "() => Array.from(document.querySelectorAll('a[href]'), a => a.getAttribute('href'))"

# Blocks wider than their box (an API signature, `dl.py > dt`, counts as one). `spills`: content
# overflows a box that does not scroll (cut off or running over what is beside it). `beyond`: a
# box that itself sticks out of the text column, not inside a scrolling container that fits.
# `scrolls`: boxes that scroll sideways.
_LAYOUT = """
() => {
  const article = document.querySelector('article.bd-article') || document.querySelector('main')
                  || document.body;
  const col = article.getBoundingClientRect();
  const shown = el => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  const scroller = el => ['auto', 'scroll'].includes(getComputedStyle(el).overflowX);
  const describe = el => {
    const where = el.closest('.cell_input') ? 'code' : el.closest('.cell_output') ? 'output' : 'text';
    const cls = typeof el.className === 'string' && el.className ? '.' + el.className.split(' ')[0] : '';
    const text = (el.innerText || el.getAttribute('src') || '').trim().split('\\n')[0].slice(0, 60);
    return `${where} <${el.tagName.toLowerCase()}${cls}> ${el.scrollWidth}px in `
           + `${el.clientWidth}px: ${text}`;
  };
  const spills = [], beyond = [], scrolls = [];
  const selector = 'pre, div.cell_output, div.cell_output > *, table, img, .jupyter-widgets, '
                 + '.pst-scrollable-table-container, div.math, dl.py > dt';
  for (const el of article.querySelectorAll(selector)) {
    if (!shown(el) || el.closest('details:not([open])')) continue;
    if (el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0) {
      if (scroller(el)) {
        scrolls.push({desc: describe(el),
                      table: el.matches('.pst-scrollable-table-container')
                             && !!el.querySelector(':scope > table')});
      } else if (!el.matches('table')) {
        spills.push(describe(el));
      }
    }
    const r = el.getBoundingClientRect();
    if (r.width > 0 && (r.right > col.right + 1 || r.left < col.left - 1)) {
      let a = el.parentElement, ok = false;
      while (a && a !== article) {
        if (scroller(a)) {
          const ar = a.getBoundingClientRect();
          ok = ar.right <= col.right + 1 && ar.left >= col.left - 1;
          break;
        }
        a = a.parentElement;
      }
      if (!ok) beyond.push(describe(el));
    }
  }
  return {pageOverflow: document.documentElement.scrollWidth - window.innerWidth,
          spills, beyond, scrolls};
}
"""


# Inline formulas that the reader cannot see whole: a part outside the text column, or cut off
# by a box that hides what does not fit (the theme's inline-flex math box did that on phones).
# A formula inside a box that scrolls sideways (a table, an output) can be scrolled to.
_CLIPPED_MATH = """
() => {
  const article = document.querySelector('article.bd-article') || document.querySelector('main')
                  || document.body;
  const col = article.getBoundingClientRect();
  const out = [];
  for (const c of article.querySelectorAll('mjx-container:not([display="true"])')) {
    if (c.closest('details:not([open])') || c.getClientRects().length === 0) continue;
    const math = c.querySelector(':scope > mjx-math') || c;
    let box = col, scrolls = false;
    for (let a = c.parentElement; a && a !== article; a = a.parentElement) {
      const ox = getComputedStyle(a).overflowX;
      if (ox === 'auto' || ox === 'scroll') { scrolls = true; break; }
      if (ox === 'hidden' || ox === 'clip') { box = a.getBoundingClientRect(); break; }
    }
    if (scrolls) continue;
    const bad = Array.from(math.getClientRects()).filter(
      r => r.width > 0 && (r.right > box.right + 1 || r.left < box.left - 1));
    if (bad.length) {
      const r = bad[0];
      out.push(`${Math.round(Math.max(r.right - box.right, box.left - r.left))}px cut: `
               + (c.closest('p, li, td, dd, div') || c).textContent.trim().slice(0, 70));
    }
  }
  return out;
}
"""

# Every frame of the page's tours shown at once (the slider shows one), to measure them all.
_SHOW_ALL_FRAMES = """
() => {
  const style = document.createElement('style');
  style.id = 'coalg-test-all-frames';
  style.textContent = '.coalg-tour-frames > .widget-tab-contents > .lm-Widget.lm-mod-hidden,'
    + '.coalg-tour-frames > .widget-tab-contents > .p-Widget.p-mod-hidden'
    + '{display: flex !important;}';
  document.head.appendChild(style);
  return document.querySelectorAll('.coalg-tour .coalg-tour-frame').length;
}
"""
_SHOW_ONE_FRAME = "() => document.getElementById('coalg-test-all-frames')?.remove()"

# Words of a tour's text broken across two lines (a break inside a run of letters or digits).
_TOUR_BREAKS = """
() => {
  const found = [];
  for (const frame of document.querySelectorAll('.coalg-tour .coalg-tour-frame')) {
    const walker = document.createTreeWalker(frame, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      for (const m of n.textContent.matchAll(/[A-Za-z0-9\\u00C0-\\u024F\\u0370-\\u03FF]{2,}/g)) {
        const range = document.createRange();
        range.setStart(n, m.index);
        range.setEnd(n, m.index + m[0].length);
        const tops = new Set(Array.from(range.getClientRects())
                              .filter(r => r.width > 0).map(r => Math.round(r.bottom)));
        if (tops.size > 1) found.push(m[0]);
      }
    }
  }
  return found;
}
"""

# The smallest text (CSS px on the screen) in the SVG figures of tours and explorers. Each
# figure's SVG is laid out at the size the <img> is shown at; a text's size is its font size
# times the scale from the SVG's units to the screen.
_FIGURE_TEXT = """
async () => {
  const imgs = Array.from(document.querySelectorAll('.coalg-tour img, .coalg-explorer img'))
                    .filter(i => i.getClientRects().length > 0 && i.clientWidth > 0);
  const out = [];
  for (const img of imgs) {
    let text;
    try { text = await (await fetch(img.src)).text(); } catch (e) { continue; }
    if (!text.includes('<svg')) continue;
    const svg = new DOMParser().parseFromString(text, 'image/svg+xml').documentElement;
    const holder = document.createElement('div');
    holder.style.cssText = 'position:absolute;left:-10000px;top:0;';
    holder.appendChild(document.importNode(svg, true));
    document.body.appendChild(holder);
    const shown = holder.firstElementChild;
    shown.style.width = img.clientWidth + 'px';
    shown.style.height = img.clientHeight + 'px';
    let least = Infinity, which = '';
    for (const t of shown.querySelectorAll('text')) {
      if (!t.textContent.trim()) continue;
      const m = t.getScreenCTM();
      const px = parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b);
      if (px < least) { least = px; which = t.textContent.trim().slice(0, 30); }
    }
    holder.remove();
    if (least < Infinity) out.push({least: Math.round(least * 10) / 10, which, width: img.clientWidth,
                                    tour: !!img.closest('.coalg-tour')});
  }
  return out;
}
"""


@dataclass
class PageReport:
    """What one visit of a page saw: requests, console, math, images, links, layout."""

    outside: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    console: list[str] = field(default_factory=list)
    mathjax_state: str = ""
    math: dict[str, Any] = field(default_factory=dict)
    raw_tables: list[str] = field(default_factory=list)
    images: list[dict[str, Any]] = field(default_factory=list)
    views: int = 0
    rendered_views: int = 0
    hrefs: list[str] = field(default_factory=list)
    layout: dict[int, dict[str, Any]] = field(default_factory=dict)
    clipped_math: dict[int, list[str]] = field(default_factory=dict)
    tour_breaks: dict[int, list[str]] = field(default_factory=dict)
    figure_text: dict[int, list[dict[str, Any]]] = field(default_factory=dict)


def _visit(page_path: str, book_server: str, browser: Any) -> PageReport:
    url = urljoin(book_server, page_path)
    local_origin = urlsplit(book_server).netloc
    rep = PageReport()
    context = browser.new_context(viewport={"width": WIDE, "height": 900})

    def gatekeeper(route: Any) -> None:
        parts = urlsplit(route.request.url)
        if parts.scheme in ("data", "blob") or parts.netloc == local_origin:
            route.continue_()
        else:
            rep.outside.append(route.request.url)
            route.abort()

    def probe(u: str) -> bool:
        return urlsplit(u).path in BROWSER_PROBES

    context.route("**/*", gatekeeper)
    page = context.new_page()
    page.on("pageerror", lambda exc: rep.console.append(f"pageerror: {exc}"))
    page.on(
        "console",
        lambda msg: (
            rep.console.append(f"console.{msg.type}: {msg.text}")
            if msg.type in ("error", "warning")
            and not any(h.search(msg.text) for h in HARMLESS_CONSOLE)
            else None
        ),
    )
    page.on(
        "requestfailed",
        lambda req: None if probe(req.url) else rep.failed.append(f"{req.url} ({req.failure})"),
    )
    page.on(
        "response",
        lambda resp: (
            rep.failed.append(f"{resp.url} (HTTP {resp.status})")
            if resp.status >= 400 and not probe(resp.url)
            else None
        ),
    )
    try:
        response = page.goto(url, wait_until="load", timeout=PAGE_TIMEOUT_MS)
        assert response is not None and response.ok, f"{url} answered {response and response.status}"
        rep.mathjax_state = page.evaluate(_WAIT_FOR_MATHJAX)
        page.evaluate(_WAIT_FOR_WIDGETS)
        page.wait_for_load_state("networkidle", timeout=PAGE_TIMEOUT_MS)
        rep.math = page.evaluate(_MATH_REPORT)
        rep.raw_tables = page.evaluate(_RAW_TABLES)
        rep.images = page.evaluate(_IMAGES_REPORT)
        rep.views = page.locator('script[type="application/vnd.jupyter.widget-view+json"]').count()
        rep.rendered_views = page.locator(".widget-subarea").count()
        rep.hrefs = page.evaluate(_LINKS)
        for width in (WIDE, NARROW):
            page.set_viewport_size({"width": width, "height": 900})
            page.wait_for_timeout(150)
            rep.layout[width] = page.evaluate(_LAYOUT)
            rep.clipped_math[width] = page.evaluate(_CLIPPED_MATH)
            if page.evaluate(_SHOW_ALL_FRAMES):
                page.wait_for_timeout(150)
                rep.tour_breaks[width] = page.evaluate(_TOUR_BREAKS)
                rep.figure_text[width] = page.evaluate(_FIGURE_TEXT)
            else:
                rep.figure_text[width] = page.evaluate(_FIGURE_TEXT)
            page.evaluate(_SHOW_ONE_FRAME)
            if page_path in SCREENSHOT_PAGES:
                shot = SHOTS / str(width) / (page_path.replace("/", "__").removesuffix(".html") + ".png")
                shot.parent.mkdir(parents=True, exist_ok=True)
                page.evaluate("() => window.scrollTo(0, 0)")
                page.screenshot(path=str(shot))
    finally:
        context.close()
    return rep


@pytest.fixture(scope="session")
def page_report(
    built_book: Path, book_server: str, chromium_browser: Any
) -> Callable[[str], PageReport]:
    """Visit a page once per session; every test below reads the same report."""
    cache: dict[str, PageReport] = {}

    def get(page_path: str) -> PageReport:
        if page_path not in cache:
            cache[page_path] = _visit(page_path, book_server, chromium_browser)
        return cache[page_path]

    return get


def _internal_target(page: str, href: str, html_dir: Path) -> Path | None:
    """The file an internal link points at, or None for links the test does not follow."""
    if href.startswith(("http:", "https:", "mailto:", "#", "javascript:", "data:")) or not href:
        return None
    path = unquote(urlsplit(href).path)
    if not path:
        return None
    target = posixpath.normpath(posixpath.join(posixpath.dirname(page), path))
    full = html_dir / target
    return full / "index.html" if path.endswith("/") or full.is_dir() else full


# --------------------------------------------------------------------------- the checks


@pytest.mark.parametrize("page_path", BOOK_PAGES)
def test_page_renders_offline(
    page_path: str, built_book: Path, page_report: Callable[[str], PageReport]
) -> None:
    rep = page_report(page_path)
    assert not rep.outside, f"{page_path} requested URLs outside 127.0.0.1: {rep.outside}"
    assert not rep.failed, f"{page_path} had failed requests: {rep.failed}"
    assert not rep.console, f"{page_path} logged errors or warnings: {rep.console}"

    math = rep.math
    if math["count"]:
        assert rep.mathjax_state == "typeset", f"{page_path}: {rep.mathjax_state}"
        assert not math["untypeset"], f"{page_path}: math not typeset: {math['untypeset']}"
        assert math["containers"] >= math["count"]
    assert not math["errors"], f"{page_path}: MathJax errors: {math['errors']}"
    assert not math["undefinedMacros"], (
        f"{page_path}: undefined TeX macros {math['undefinedMacros']} "
        "(define them in _config.yml, sphinx.config.mathjax3_config.tex.macros)"
    )
    assert not math["raw"], f"{page_path}: raw TeX left in the text: {math['raw']}"

    assert rep.rendered_views >= rep.views, (
        f"{page_path}: {rep.rendered_views} of {rep.views} widget views rendered"
    )
    broken_images = [img["src"] for img in rep.images if not img["ok"]]
    assert not broken_images, f"{page_path}: images that did not load: {broken_images}"

    dead = sorted(
        {
            href
            for href in rep.hrefs
            if (t := _internal_target(page_path, href, built_book)) and not t.is_file()
        }
    )
    assert not dead, f"{page_path}: internal links to missing files: {dead}"


@pytest.mark.parametrize("page_path", BOOK_PAGES)
def test_typeset_math_shows_no_backslash(
    page_path: str, page_report: Callable[[str], PageReport]
) -> None:
    shown = page_report(page_path).math["backslashes"]
    assert not shown, f"{page_path}: a backslash is visible in typeset math near: {shown}"


@pytest.mark.parametrize("page_path", BOOK_PAGES)
def test_no_markdown_table_is_left_as_text(
    page_path: str, page_report: Callable[[str], PageReport]
) -> None:
    raw = page_report(page_path).raw_tables
    assert not raw, f"{page_path}: Markdown table text that was never parsed: {raw}"


@pytest.mark.parametrize("page_path", LAYOUT_PAGES)
def test_every_block_fits_its_box_at_1280(
    page_path: str, page_report: Callable[[str], PageReport]
) -> None:
    lay = page_report(page_path).layout[WIDE]
    assert lay["pageOverflow"] <= 1, f"{page_path}: the page scrolls sideways at {WIDE} px"
    assert not lay["spills"], f"{page_path}: content cut off or spilling: {lay['spills']}"
    assert not lay["beyond"], f"{page_path}: blocks wider than the column: {lay['beyond']}"
    not_tables = [s["desc"] for s in lay["scrolls"] if not s["table"]]
    assert not not_tables, f"{page_path}: code or output scrolls sideways at {WIDE} px: {not_tables}"
    tables = [s["desc"] for s in lay["scrolls"] if s["table"]]
    assert len(tables) <= MAX_SCROLLING_TABLES, (
        f"{page_path}: {len(tables)} tables scroll sideways at {WIDE} px: {tables}"
    )


@pytest.mark.parametrize("page_path", LAYOUT_PAGES)
def test_nothing_widens_the_page_at_390(
    page_path: str, page_report: Callable[[str], PageReport]
) -> None:
    lay = page_report(page_path).layout[NARROW]
    assert lay["pageOverflow"] <= 1, (
        f"{page_path}: the page scrolls sideways by {lay['pageOverflow']} px at {NARROW} px"
    )
    assert not lay["spills"], f"{page_path}: content cut off or spilling: {lay['spills']}"
    assert not lay["beyond"], f"{page_path}: blocks outside the column: {lay['beyond']}"
    tables = [s["desc"] for s in lay["scrolls"] if s["table"]]
    assert not tables, f"{page_path}: tables scroll sideways at {NARROW} px (not stacked): {tables}"


@pytest.mark.parametrize("page_path", LAYOUT_PAGES)
def test_inline_math_is_never_cut_off(
    page_path: str, page_report: Callable[[str], PageReport]
) -> None:
    rep = page_report(page_path)
    for width in (WIDE, NARROW):
        cut = rep.clipped_math[width]
        assert not cut, f"{page_path}: {len(cut)} inline formulas cut off at {width} px: {cut}"


# What a plain Jupyter shows as text, not as the book's markup: directive fences, roles,
# MyST targets.
_MYST_MARKUP = re.compile(r"^\s*(?:`{3,}|:{3,})\{[\w:.-]+\}|\{[\w:.-]+\}`|^\s*\([\w:.-]+\)=\s*$",
                          re.MULTILINE)


def _download(page_path: str, book_server: str, rep: PageReport) -> tuple[str, Any]:
    import nbformat

    links = [h for h in rep.hrefs if urlsplit(h).path.endswith(".ipynb")]
    assert links, f"{page_path} links no .ipynb"
    url = urljoin(urljoin(book_server, page_path), links[0])
    assert urlsplit(url).hostname == "127.0.0.1"
    with urllib.request.urlopen(url, timeout=10) as resp:  # 127.0.0.1 only
        nb = nbformat.reads(resp.read().decode("utf-8"), as_version=4)
    nbformat.validate(nb)
    return url, nb


@pytest.mark.parametrize("page_path", NOTEBOOK_PAGES)
def test_chapter_offers_its_notebook(
    page_path: str, book_server: str, built_book: Path,
    page_report: Callable[[str], PageReport]
) -> None:
    """The download is the chapter, with the build's outputs, in Markdown a plain Jupyter reads."""
    import jupytext

    url, nb = _download(page_path, book_server, page_report(page_path))
    source = _source(page_path.removesuffix(".html"))
    assert source is not None
    expected = jupytext.read(source)
    want = [c.source for c in expected.cells if c.cell_type == "code"]
    code = [c for c in nb.cells if c.cell_type == "code"]
    # the one change: the glue import falls back when myst-nb is missing (test_downloads.py)
    sys.path.insert(0, str(ROOT / "tools" / "sphinxext"))
    import coalg_notebook

    got = [c.source.replace(coalg_notebook.GLUE_IMPORT, "from myst_nb import glue") for c in code]
    assert got == want, f"{url} is not the notebook of {source.name}"
    # The outputs: as many code cells show something in the download as on the page (cells
    # the page removes, or whose output it removes, aside).
    html = (built_book / page_path).read_text(encoding="utf-8")
    on_page = html.count('class="cell_output docutils container"')
    hidden = {"remove-cell", "remove-output"}
    with_output = [c for c in code if c.get("outputs")
                   and not hidden & set(c.metadata.get("tags", []))]
    assert len(with_output) == on_page, (
        f"{url}: {len(with_output)} code cells with outputs, the page shows {on_page}")
    assert on_page or not code, f"{url}: no code cell has an output"
    # Plain Markdown: no directive, role or target left; the book's macros defined.
    markdown = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    prose = re.sub(r"^(`{3,})(?!\{).*?^\1\s*$", "", markdown, flags=re.MULTILINE | re.DOTALL)
    raw = _MYST_MARKUP.findall(re.sub(r"(?<!\})(`+).+?\1", "", prose, flags=re.DOTALL))
    assert not raw, f"{url}: MyST markup a plain Jupyter shows as text: {raw[:5]}"
    first = nb.cells[0]
    assert first.cell_type == "markdown" and "coalg" in first.source
    assert "make setup" in first.source and "pip install -e" in first.source, first.source
    assert "\\newcommand{\\Rec}" in first.source


def test_a_downloaded_chapter_runs_in_a_plain_kernel(
    book_server: str, page_report: Callable[[str], PageReport], tmp_path: Path
) -> None:
    """A downloaded notebook, run top to bottom from an empty folder with nbclient."""
    import nbformat
    from nbclient import NotebookClient

    page = "book/03-1-identifiers-records-relations.html"
    url, nb = _download(page, book_server, page_report(page))
    path = tmp_path / "chapter.ipynb"
    nbformat.write(nb, path)
    fresh = nbformat.read(path, as_version=4)
    for cell in fresh.cells:
        if cell.cell_type == "code":
            cell.outputs = []
    NotebookClient(fresh, timeout=300, kernel_name="python3",
                   resources={"metadata": {"path": str(tmp_path)}}).execute()
    errors = [o for c in fresh.cells if c.cell_type == "code" for o in c.outputs
              if o.output_type == "error"]
    assert not errors
    printed = [c.outputs for c in fresh.cells if c.cell_type == "code"]
    assert sum(map(bool, printed)) >= 3, f"{url} printed almost nothing when run"


def test_screenshots_are_kept(page_report: Callable[[str], PageReport]) -> None:
    for page in SCREENSHOT_PAGES:
        page_report(page)
        for width in (WIDE, NARROW):
            shot = SHOTS / str(width) / (page.replace("/", "__").removesuffix(".html") + ".png")
            assert shot.is_file() and shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", shot


def test_root_page_has_math(built_book: Path) -> None:
    """The intro page uses the book's macros, so the math check above is never vacuous."""
    html = (built_book / BOOK_PAGES[0]).read_text(encoding="utf-8")
    assert 'class="math' in html, f"{BOOK_PAGES[0]} has no math"


# --------------------------------------------------------------------------- numbering, index


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html))


def test_paper_items_keep_the_papers_numbers_in_clean_titles(built_book: Path) -> None:
    html = (built_book / "book/03-4-lineage-coalgebra.html").read_text(encoding="utf-8")
    titles = [_text(t).strip() for t in re.findall(r'<p class="admonition-title"[^>]*>(.*?)</p>', html, re.DOTALL)]
    assert "Definition 3.16 (The lineage functor)" in titles, titles
    for page in _built_pages(built_book):
        text = (built_book / page).read_text(encoding="utf-8")
        for t in re.findall(r'<p class="admonition-title"[^>]*>(.*?)</p>', text, re.DOTALL):
            clean = _text(t).strip()
            assert "((" not in clean and not re.match(r"^\w+ \(\d", clean), f"{page}: {clean!r}"


def test_the_books_own_results_are_numbered_apart_from_the_papers(built_book: Path) -> None:
    html = (built_book / "book/09-1-executable-proposals.html").read_text(encoding="utf-8")
    titles = [_text(t).strip() for t in re.findall(r'<p class="admonition-title"[^>]*>(.*?)</p>', html, re.DOTALL)]
    kinds = ("Definition", "Property", "Algorithm", "Theorem", "Proposition", "Lemma", "Remark")
    blocks = [t for t in titles if t.startswith(kinds)]
    assert blocks and all(re.match(r"^\w+ P9\.\d+ \(", t) for t in blocks), blocks
    assert [int(re.search(r"P9\.(\d+)", t)[1]) for t in blocks] == list(range(1, len(blocks) + 1))


def test_exercises_are_numbered_by_their_page(built_book: Path) -> None:
    cases = {"book/03-3-store-coalgebra.html": "3.3", "book/05-law-checking.html": "5.0",
             "book/06-composition.html": "6", "book/contextfs-at-runtime.html": "R"}
    for page, prefix in cases.items():
        html = (built_book / page).read_text(encoding="utf-8")
        numbers = re.findall(r'caption-number">Exercise ([^ <]+) ', html)
        assert numbers == [f"{prefix}.{k}" for k in range(1, len(numbers) + 1)] and numbers, (
            page, numbers)


def test_results_index_lists_the_papers_items_in_order(built_book: Path) -> None:
    html = (built_book / "book/appendix-f-results-index.html").read_text(encoding="utf-8")
    first = html.split('coalg-results-index', 2)[1]
    items = re.findall(r"(?:Definition|Proposition|Theorem|Lemma|Corollary|Remark) (\d+)\.(\d+)",
                       _text(first))
    order = [(int(a), int(b)) for a, b in items]
    assert len(order) >= 40 and order == sorted(order), order[:20]
    assert "Definition 3.16 (The lineage functor)" in _text(first)


def test_general_index_has_the_key_terms(built_book: Path) -> None:
    text = _text((built_book / "genindex.html").read_text(encoding="utf-8")).lower()
    for term in ("bisimulation", "lineage functor", "valid time", "derivation schema",
                 "allocation oracle", "frame property"):
        assert term in text, f"genindex has no entry {term!r}"


def test_citations_link_to_the_bibliography(built_book: Path) -> None:
    html = (built_book / "book/08-related-work.html").read_text(encoding="utf-8")
    targets = set(re.findall(r'<a class="reference internal" href="#(id\d+)"', html))
    assert len(targets) >= 10, targets
    ids = set(re.findall(r'id="([^"]+)"', html))
    assert targets <= ids, targets - ids
    assert "Universal coalgebra" in html and "Rutten" in html


def test_execution_statistics_cover_every_chapter(built_book: Path) -> None:
    html = (built_book / "book/appendix-g-execution.html").read_text(encoding="utf-8")
    rows = re.findall(r"<tr[^>]*>.*?</tr>", html.split("<tbody>", 1)[1], re.DOTALL)
    assert len(rows) == len(NOTEBOOK_PAGES), (len(rows), len(NOTEBOOK_PAGES))
    assert all("✅" in r or "success" in r.lower() or "True" in r for r in rows), rows[:2]


def test_saved_pages_do_not_carry_the_build_environment(built_book: Path) -> None:
    """Nodes parsed from ``{eval-rst}`` blocks are re-homed in their page (coalg_book._adopt_nodes).

    Before, each API page was saved with a copy of the whole build environment (3 MB a
    page, read back whenever Sphinx numbered figures or wrote a page).
    """
    doctrees = sorted((built_book.parent / ".doctrees").rglob("*.doctree"))
    assert len(doctrees) >= len(NOTEBOOK_PAGES)
    carrying = [p.name for p in doctrees if b"BuildEnvironment" in p.read_bytes()]
    assert carrying == []


def test_the_sources_offer_the_notebooks_they_link(built_book: Path) -> None:
    """Every `_sources/*.ipynb` the build wrote is valid JSON (what a download gets)."""
    written = sorted((built_book / "_sources").rglob("*.ipynb"))
    assert len(written) == len(NOTEBOOK_PAGES), [p.name for p in written]
    for p in written:
        json.loads(p.read_text(encoding="utf-8"))


# --------------------------------------------------------------------------- kernel-free tours

EXPLORER_PAGES = [p for p in BOOK_PAGES if p.startswith("notebooks/explore-")]

# What the reader sees of a tour: the frame shown (its text and its figure) and the readout.
_TOUR_SHOWN = """
(tour) => {
  const shown = el => el && el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  const frames = Array.from(tour.querySelectorAll('.coalg-tour-frames .coalg-tour-frame')).filter(shown);
  const readout = Array.from(tour.querySelectorAll('.coalg-tour-readout .widget-html')).filter(shown);
  const img = frames.length ? frames[0].querySelector('img') : null;
  return {count: frames.length,
          text: frames.length ? frames[0].innerText.trim() : '',
          image: img ? img.getAttribute('src') : null,
          imageOk: img ? img.complete && img.naturalWidth > 0 : null,
          readout: readout.map(r => r.innerText.trim())};
}
"""


def _collect_console(page: Any, into: list[str]) -> None:
    """Append to ``into`` every uncaught page error and every console error or warning of ``page``
    (but :data:`HARMLESS_CONSOLE`)."""
    page.on("pageerror", lambda exc: into.append(f"pageerror: {exc}"))
    page.on("console", lambda msg: into.append(f"console.{msg.type}: {msg.text}")
            if msg.type in ("error", "warning")
            and not any(h.search(msg.text) for h in HARMLESS_CONSOLE) else None)


def test_a_widget_page_is_quiet_when_later_scripts_load_slowly(
    book_server: str, chromium_browser: Any
) -> None:
    """The widget manager may start before the scripts after it have loaded: nothing is logged.

    RequireJS starts the manager from a timer, which can fire while the browser is still
    fetching the book's own script; holding that script back for a second makes the order
    certain. (A CI run once logged the manager's schema warning this way.)
    """
    console: list[str] = []
    context = chromium_browser.new_context(viewport={"width": WIDE, "height": 900})

    def late(route: Any) -> None:
        time.sleep(1.0)
        route.continue_()

    # Only this script is routed: a handler that waits holds back every request it handles.
    context.route("**/_static/coalg-book.js*", late)
    page = context.new_page()
    _collect_console(page, console)
    try:
        page.goto(urljoin(book_server, EXPLORER_PAGES[0]), wait_until="load",
                  timeout=PAGE_TIMEOUT_MS)
        page.evaluate(_WAIT_FOR_WIDGETS)
        assert page.locator(".widget-subarea").count() > 0, "no widget was drawn"
    finally:
        context.close()
    assert not console, f"console errors or warnings: {console}"


@pytest.mark.parametrize("page_path", EXPLORER_PAGES)
def test_the_tour_steps_with_no_kernel(
    page_path: str, book_server: str, chromium_browser: Any
) -> None:
    """On each explorer page the recorded tour moves: by keyboard, by a click and by a drag."""
    assert len(EXPLORER_PAGES) == 6
    console: list[str] = []
    context = chromium_browser.new_context(viewport={"width": WIDE, "height": 900})
    origin = urlsplit(book_server).netloc
    context.route("**/*", lambda route: route.continue_()
                  if urlsplit(route.request.url).netloc in (origin, "") else route.abort())
    page = context.new_page()
    _collect_console(page, console)
    try:
        page.goto(urljoin(book_server, page_path), wait_until="load", timeout=PAGE_TIMEOUT_MS)
        page.evaluate(_WAIT_FOR_WIDGETS)
        tours = page.locator(".coalg-tour")
        assert tours.count() == 1, f"{page_path}: {tours.count()} tours on the page"
        tour = tours.first
        tour.wait_for(state="visible", timeout=PAGE_TIMEOUT_MS)
        tour.scroll_into_view_if_needed()
        # The note above it says what it is, and where the live explorer runs.
        text = page.locator("article").inner_text()
        assert "recorded" in text and "no Python" in text, f"{page_path}: no note on the tour"
        assert "make lab" in text and "make explorers" in text, f"{page_path}: no note on the live explorer"

        def shown() -> dict[str, Any]:
            state: dict[str, Any] = tour.evaluate(_TOUR_SHOWN)
            assert state["count"] == 1, f"{page_path}: {state['count']} frames visible at once"
            assert state["imageOk"] is not False, f"{page_path}: the frame's figure did not load"
            return state

        def moved_from(before: dict[str, Any]) -> dict[str, Any]:
            page.wait_for_function(
                "([t, old]) => { const f = Array.from(t.querySelectorAll('.coalg-tour-frame'))"
                ".find(e => e.getClientRects().length > 0); return f && f.innerText.trim() !== old; }",
                arg=[tour.element_handle(), before["text"]], timeout=5_000)
            after = shown()
            assert after["text"] != before["text"]
            return after

        first = shown()
        n = int(re.search(r"step 1 of (\d+)", first["text"])[1])  # type: ignore[index]
        assert n >= 3 and first["readout"] == [f"step 1 of {n}"], first["readout"]

        handle = tour.locator(".noUi-handle").first
        handle.focus()
        page.keyboard.press("ArrowRight")
        second = moved_from(first)
        assert second["text"].startswith(f"step 2 of {n}:"), second["text"][:80]
        assert second["readout"] == [f"step 2 of {n}"]
        assert second["image"] != first["image"], f"{page_path}: the figure did not change"

        # A click at the right end of the slider's track: the last frame.
        track = tour.locator(".noUi-target").first.bounding_box()
        assert track is not None
        page.mouse.click(track["x"] + track["width"] - 2, track["y"] + track["height"] / 2)
        last = moved_from(second)
        assert last["text"].startswith(f"step {n} of {n}:"), last["text"][:80]

        # A drag of the handle back to the left end: the first frame again.
        handle.hover()  # waits until the handle has stopped moving (the click animates it)
        box = handle.bounding_box()
        assert box is not None and box["x"] > track["x"] + track["width"] / 2
        page.mouse.down()
        page.mouse.move(track["x"] - 40, box["y"] + box["height"] / 2, steps=8)
        page.mouse.up()
        again = moved_from(last)
        assert again["text"] == first["text"] and again["readout"] == first["readout"]
    finally:
        context.close()
    assert not console, f"{page_path}: console errors or warnings while stepping: {console}"


@pytest.mark.parametrize("page_path", EXPLORER_PAGES)
def test_tours_break_lines_between_words(
    page_path: str, page_report: Callable[[str], PageReport]
) -> None:
    """Every frame of the tour, at both widths: no word is split across two lines."""
    rep = page_report(page_path)
    for width in (WIDE, NARROW):
        broken = rep.tour_breaks.get(width)
        assert broken is not None, f"{page_path}: no tour frames measured at {width} px"
        assert not broken, f"{page_path}: {len(broken)} words broken mid-word at {width} px: {broken[:10]}"


@pytest.mark.parametrize("page_path", EXPLORER_PAGES)
def test_figure_text_is_readable_on_a_phone(
    page_path: str, page_report: Callable[[str], PageReport]
) -> None:
    """Tour and explorer figures at 390 px: their smallest text is at least 10 CSS px."""
    figures = page_report(page_path).figure_text[NARROW]
    assert any(f["tour"] for f in figures), f"{page_path}: no tour figure measured"
    small = [f for f in figures if f["least"] < MIN_FIGURE_TEXT_PX]
    assert not small, f"{page_path}: figure text below {MIN_FIGURE_TEXT_PX} px at {NARROW} px: {small[:5]}"


def test_pages_link_their_icon(built_book: Path) -> None:
    html = (built_book / BOOK_PAGES[0]).read_text(encoding="utf-8")
    match = re.search(r'<link rel="icon" href="([^"]+)"', html)
    assert match, "the root page links no icon (html_favicon)"
    assert (built_book / posixpath.normpath(posixpath.join(posixpath.dirname(BOOK_PAGES[0]),
                                                           match.group(1)))).is_file()


def test_bibliography_shows_no_tex(built_book: Path) -> None:
    text = _text((built_book / "book/08-related-work.html").read_text(encoding="utf-8"))
    assert "typed lambda calculus" in text
    before = text.rsplit("typed lambda calculus", 1)[0][-40:]  # the entry's title begins there
    assert "λ" in before and "$" not in before and "\\" not in before, before


def test_proof_index_lists_titles_in_the_papers_order(built_book: Path) -> None:
    html = (built_book / "prf-prf.html").read_text(encoding="utf-8")
    entries = [_text(e).strip() for e in re.findall(r'<td>\s*<a [^>]*>(.*?)</a>', html, re.DOTALL)]
    assert "Definition 3.16 (The lineage functor)" in entries, entries[:10]
    raw = [e for e in entries if re.fullmatch(r"[a-z]+(-[\w]+)+", e)]
    assert not raw, f"the proof index lists raw labels: {raw[:5]}"
    numbered = [tuple(map(int, m.groups())) for e in entries
                if (m := re.match(r"\w+ (\d+)\.(\d+)\b", e))]
    assert len(numbered) >= 40 and numbered == sorted(numbered), numbered[:20]


def _search(book_server: str, browser: Any, query: str) -> list[dict[str, str]]:
    context = browser.new_context(viewport={"width": WIDE, "height": 900})
    try:
        page = context.new_page()
        page.goto(urljoin(book_server, f"search.html?q={query}"), wait_until="load",
                  timeout=PAGE_TIMEOUT_MS)
        page.wait_for_function("() => document.querySelectorAll('#search-results li').length > 0"
                               " && document.querySelectorAll('#search-results li p.context').length > 0",
                               timeout=PAGE_TIMEOUT_MS)
        page.wait_for_timeout(1500)  # the snippets are fetched one page at a time
        return page.evaluate(
            "() => Array.from(document.querySelectorAll('#search-results li'), li => ({"
            "href: li.querySelector('a').getAttribute('href'),"
            "snippet: (li.querySelector('p.context') || {textContent: ''}).textContent}))")
    finally:
        context.close()


def test_search_ranks_the_section_above_the_api(book_server: str, chromium_browser: Any) -> None:
    """Searching "L5": the section on L5 (5.6) comes before every entry of the API reference."""
    hrefs = [r["href"] for r in _search(book_server, chromium_browser, "L5")]
    section = [k for k, h in enumerate(hrefs) if "05-6-resolution-independence" in h]
    api = [k for k, h in enumerate(hrefs) if h.startswith("book/api/")]
    assert section and api, hrefs[:10]
    assert section[0] < api[0] and section[0] < 3, hrefs[:10]


def test_search_snippets_show_no_tex(book_server: str, chromium_browser: Any) -> None:
    results = _search(book_server, chromium_browser, "bisimulation")
    snippets = [r["snippet"] for r in results if r["snippet"]]
    assert len(snippets) >= 5, results[:5]
    # TeX commands or delimiters (a "$" alone may be code the snippet quotes)
    tex = [s for s in snippets if re.search(r"\\[A-Za-z]{2,}|\\[(\[]", s)]
    assert not tex, f"search snippets show raw TeX: {tex[:3]}"
