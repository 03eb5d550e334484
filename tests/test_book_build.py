"""The web book builds with zero warnings and every page works offline in a real browser.

The session fixture `built_book` (tests/conftest.py) runs
`jupyter-book build . -W -n --keep-going --all` unless `_build/html/index.html` is newer than every
source; a build warning, an unresolved reference or a failing notebook cell fails it.
Each page listed in `_toc.yml`, plus Sphinx's own genindex and search pages, is then opened
in Debian's chromium from a loopback server, and checked for:

* no request leaving 127.0.0.1 (such requests are also blocked, so the test never uses the network);
* no failed request, no HTTP error, no uncaught page error, no console error (except two harmless
  messages that stock Jupyter Book 1 always emits);
* math typeset by MathJax (every math element holds an `mjx-container`, no MathJax error box, no
  raw `\\(` or `\\[` left in the text, no `$...$` left in widget text);
* every widget view rendered (pages with recorded widget state);
* every <img> loaded;
* every internal link pointing at a file that exists in the build.

Deselect with `-m "not book"`.
"""

from __future__ import annotations

import posixpath
import re
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urljoin, urlsplit

import pytest
import yaml  # type: ignore[import-untyped]

pytestmark = pytest.mark.book

ROOT = Path(__file__).resolve().parent.parent

# Console/page errors that stock Jupyter Book 1 produces on every page and that do no harm:
# sphinx-thebe emits its config <script> twice, and the pydata theme complains about the
# empty theme mode in a fresh browser profile.
HARMLESS_ERRORS = (
    re.compile(r"Identifier 'THEBE_JS_URL' has already been declared"),
    re.compile(r"Got invalid theme mode"),
    # Chromium's own console line for a failed load; the request itself is checked (with its URL).
    re.compile(r"^console\.error: Failed to load resource"),
)
# Requests the browser makes on its own, not the book: without a favicon link it probes this.
BROWSER_PROBES = ("/favicon.ico",)

SPHINX_PAGES = ("genindex.html", "search.html", "prf-prf.html")  # prf-prf: sphinx-proof's index of results
NON_PAGE_DIRS = ("_static", "_sources", "_images", "_sphinx_design_static", "reports")
PAGE_TIMEOUT_MS = 30_000


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


def _book_pages() -> list[str]:
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    docs = [re.sub(r"\.(md|ipynb|rst)$", "", f) for f in _toc_files(toc)]
    return [f"{doc}.html" for doc in docs] + list(SPHINX_PAGES)


BOOK_PAGES = _book_pages()


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


# JavaScript run in the page once it has loaded.
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
          untypeset, errors, undefinedMacros, raw};
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


@pytest.mark.parametrize("page_path", BOOK_PAGES)
def test_page_renders_offline(
    page_path: str, built_book: Path, book_server: str, chromium_browser: Any
) -> None:
    url = urljoin(book_server, page_path)
    local_origin = urlsplit(book_server).netloc

    outside: list[str] = []
    failed: list[str] = []
    errors: list[str] = []

    context = chromium_browser.new_context(viewport={"width": 1280, "height": 900})

    def gatekeeper(route: Any) -> None:
        parts = urlsplit(route.request.url)
        if parts.scheme in ("data", "blob") or parts.netloc == local_origin:
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    context.route("**/*", gatekeeper)
    page = context.new_page()
    page.on("pageerror", lambda exc: errors.append(f"pageerror: {exc}"))
    page.on(
        "console",
        lambda msg: (
            errors.append(f"console.{msg.type}: {msg.text}") if msg.type == "error" else None
        ),
    )

    def probe(url: str) -> bool:
        return urlsplit(url).path in BROWSER_PROBES

    page.on(
        "requestfailed",
        lambda req: None if probe(req.url) else failed.append(f"{req.url} ({req.failure})"),
    )
    page.on(
        "response",
        lambda resp: (
            failed.append(f"{resp.url} (HTTP {resp.status})")
            if resp.status >= 400 and not probe(resp.url)
            else None
        ),
    )
    try:
        response = page.goto(url, wait_until="load", timeout=PAGE_TIMEOUT_MS)
        assert response is not None and response.ok, (
            f"{url} answered {response and response.status}"
        )
        mathjax_state = page.evaluate(_WAIT_FOR_MATHJAX)
        page.evaluate(_WAIT_FOR_WIDGETS)
        page.wait_for_load_state("networkidle", timeout=PAGE_TIMEOUT_MS)

        math = page.evaluate(_MATH_REPORT)
        images = page.evaluate(_IMAGES_REPORT)
        views = page.locator('script[type="application/vnd.jupyter.widget-view+json"]').count()
        rendered_views = page.locator(".widget-subarea").count()
        hrefs = page.evaluate(_LINKS)
    finally:
        context.close()

    assert not outside, f"{page_path} requested URLs outside 127.0.0.1: {outside}"
    assert not failed, f"{page_path} had failed requests: {failed}"
    real_errors = [e for e in errors if not any(h.search(e) for h in HARMLESS_ERRORS)]
    assert not real_errors, f"{page_path} reported errors: {real_errors}"

    if math["count"]:
        assert mathjax_state == "typeset", f"{page_path}: {mathjax_state}"
        assert not math["untypeset"], f"{page_path}: math not typeset: {math['untypeset']}"
        assert math["containers"] >= math["count"]
    assert not math["errors"], f"{page_path}: MathJax errors: {math['errors']}"
    assert not math["undefinedMacros"], (
        f"{page_path}: undefined TeX macros {math['undefinedMacros']} "
        "(define them in _config.yml, sphinx.config.mathjax3_config.tex.macros)"
    )
    assert not math["raw"], f"{page_path}: raw TeX left in the text: {math['raw']}"

    assert rendered_views >= views, (
        f"{page_path}: {rendered_views} of {views} widget views rendered"
    )

    broken_images = [img["src"] for img in images if not img["ok"]]
    assert not broken_images, f"{page_path}: images that did not load: {broken_images}"

    dead = sorted(
        {
            href
            for href in hrefs
            if (t := _internal_target(page_path, href, built_book)) and not t.is_file()
        }
    )
    assert not dead, f"{page_path}: internal links to missing files: {dead}"


def test_root_page_has_math(built_book: Path) -> None:
    """The intro page uses the book's macros, so the math check above is never vacuous."""
    html = (built_book / BOOK_PAGES[0]).read_text(encoding="utf-8")
    assert 'class="math' in html, f"{BOOK_PAGES[0]} has no math"
