#!/usr/bin/env python3
"""Screenshots of built book pages, to look at them: ``_build/screenshots/<width>/<page>.png``.

Usage: ``python tools/book_shots.py [--width 1280 --width 390] [--full] PAGE ...``
where PAGE is a path under ``_build/html`` (``book/05-8-bitemporality.html``) or a
chapter stem (``05-8``).  Serves ``_build/html`` on 127.0.0.1 only and uses Debian's
chromium through playwright; nothing is fetched from outside.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import shutil
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HTML = ROOT / "_build" / "html"
OUT = ROOT / "_build" / "screenshots"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]

WAIT = """
async () => {
  if (document.querySelector('.math')) {
    const t0 = Date.now();
    while (!(window.MathJax && MathJax.startup && MathJax.startup.promise)) {
      if (Date.now() - t0 > 20000) break;
      await new Promise(r => setTimeout(r, 50));
    }
    if (window.MathJax && MathJax.startup) await MathJax.startup.promise;
  }
  const views = document.querySelectorAll('script[type="application/vnd.jupyter.widget-view+json"]');
  const t0 = Date.now();
  while (document.querySelectorAll('.widget-subarea').length < views.length
         && Date.now() - t0 < 20000) await new Promise(r => setTimeout(r, 50));
}
"""


def resolve(html: Path, page: str) -> str:
    if (html / page).is_file():
        return page
    hits = sorted(p.relative_to(html).as_posix() for p in html.glob(f"**/{page}*.html"))
    if not hits:
        sys.exit(f"no built page matches {page!r}")
    return hits[0]


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pages", nargs="+")
    ap.add_argument("--width", type=int, action="append")
    ap.add_argument("--full", action="store_true", help="the whole page, not only the first screen")
    ap.add_argument("--html", type=Path, default=HTML, help="the built site (default _build/html)")
    ap.add_argument("--scroll-to", help="a CSS selector to scroll into view first")
    a = ap.parse_args()
    html = a.html.resolve()
    widths = a.width or [1280, 390]
    from playwright.sync_api import sync_playwright

    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(Quiet, directory=str(html)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=shutil.which("chromium"), args=ARGS)
        for width in widths:
            ctx = browser.new_context(viewport={"width": width, "height": 900})
            ctx.route("**/*", lambda r: r.continue_() if r.request.url.startswith(base)
                      or r.request.url.startswith("data:") else r.abort())
            page = ctx.new_page()
            for name in a.pages:
                path = resolve(html, name)
                page.goto(base + path, wait_until="load")
                page.evaluate(WAIT)
                if a.scroll_to:
                    page.locator(a.scroll_to).first.scroll_into_view_if_needed()
                page.wait_for_timeout(300)
                out = OUT / str(width) / (path.replace("/", "__").removesuffix(".html") + ".png")
                out.parent.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(out), full_page=a.full)
                print(out.relative_to(ROOT))
            ctx.close()
        browser.close()
    server.shutdown()


if __name__ == "__main__":
    main()
