"""Every chapter opens and runs as a notebook in JupyterLab (`make lab`), and saving changes nothing.

* Chapters are stored in the form JupyterLab saves them (tools/chapter_form.py): opening,
  running and saving any chapter without an edit leaves its file byte for byte as it was.
* The "coalg-chapter" file type (tools/lab/labextensions/coalg-chapters) picks exactly the
  chapters: README.md, book/STYLE.md and book/intro.md stay plain Markdown.
* tools/lab_prepare.py copies chapters, explorers and data into a git-ignored scratch folder
  (never overwriting a copy) and writes the landing notebook: every page of _toc.yml, in order.
* JupyterLab, started as `make lab` starts it (tools/lab/jupyter_lab_config.py) on 127.0.0.1:
  the contents API opens a chapter as a notebook and saves it back unchanged; an edit reaches
  the MyST file without outputs; news and update checks are off.
* In Debian's chromium (playwright, never `playwright install`): the landing page, a chapter
  opened from it, Run All, outputs and no error, the save leaves the copy identical to the
  book's source; an explorer the same way; a double-click in the file browser opens a chapter
  as a notebook and README.md as text. No request leaves 127.0.0.1.
* The lab runs the code the book build runs: jupytext (how JupyterLab opens a chapter) and
  MyST-NB (how the build reads it, then runs it in a fresh kernel with -W) find the same code
  cells in every chapter. One chapter also runs top to bottom in a fresh kernel outside the
  build (jupytext in memory, nbclient), and one that reads project files runs from its copy;
  the kernels start with the law verdicts the book build computed, as the build's kernels do.
  COALG_LAB_ALL=1 (part of `make verify`) runs every chapter in a fresh kernel and every
  chapter that reads project files from its copy.

The tests that need chromium or run every chapter are marked `book`.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any
from urllib.parse import quote, urlsplit

import pytest
import yaml  # type: ignore[import-untyped]
from shared_build import build_law_tables

ROOT = Path(__file__).resolve().parents[2]
LAB_DIR = ROOT / "tools" / "lab"
EXTENSION_JS = LAB_DIR / "labextensions" / "coalg-chapters" / "static" / "remoteEntry.js"
START_TIMEOUT_S = 90
RUN_TIMEOUT_MS = 300_000


def _load_tool(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses resolve their module by name
    spec.loader.exec_module(module)
    return module


chapter_form = _load_tool("chapter_form")
lab_prepare = _load_tool("lab_prepare")
CHAPTERS = chapter_form.chapters()
# Chapters that name a folder of the project in a string ("data", "bench", ...) may open files
# by relative path, so they must also run from their copy in the scratch folder.
_FOLDERS = sorted(d.name for d in ROOT.iterdir()
                  if d.is_dir() and not d.name.startswith((".", "_")) and d.name != "scratch")
READS_PROJECT_FILES = [_c for _c in CHAPTERS if re.search(
    r"""["'](%s)["'/]""" % "|".join(_FOLDERS), _c.read_text(encoding="utf-8"))]
# Every chapter in a fresh kernel outside the build, and every chapter that reads project files
# from its copy, is a deep check (the build itself runs each chapter once); the fast suite runs
# one of each, a short one.
ALL = os.environ.get("COALG_LAB_ALL") == "1"
FRESH_KERNEL = CHAPTERS if ALL else [_c for _c in CHAPTERS if _c.name == "03-3-store-coalgebra.md"]
FROM_COPY = READS_PROJECT_FILES if ALL else [
    _c for _c in READS_PROJECT_FILES if _c.name == "appendix-e-performance.md"]


def _rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def _toc_pages() -> list[str]:
    """Every page of _toc.yml after the root, in reading order, as repository paths."""
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    stems = [c["file"] for part in toc["parts"] for ch in part["chapters"]
             for c in [ch, *ch.get("sections", [])]]
    return [next(f"{s}{x}" for x in (".md", ".ipynb") if (ROOT / f"{s}{x}").is_file()) for s in stems]


# --- the stored form and the file type -------------------------------------------------------

def test_there_are_chapters_and_explorers() -> None:
    assert len(CHAPTERS) >= 30 and len(READS_PROJECT_FILES) >= 2
    assert any(p.endswith(".ipynb") for p in _toc_pages())


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda p: p.name)
def test_chapter_is_stored_as_jupyterlab_saves_it(chapter: Path) -> None:
    """Open, run (kernel metadata, outputs) and save without an edit: the same bytes."""
    assert chapter_form.lab_form(chapter) == chapter.read_bytes(), (
        f"{_rel(chapter)} is not in the form JupyterLab saves it; a save in JupyterLab would "
        f"rewrite it. Run: python tools/chapter_form.py {_rel(chapter)}")


def test_chapter_form_changes_a_hand_written_chapter(tmp_path: Path) -> None:
    """The check above can fail: the old hand-written header and option style are rewritten."""
    text = CHAPTERS[0].read_text(encoding="utf-8")
    old = text.replace("  name: python3\n  display_name: Python 3 (ipykernel)\n  language: python\n",
                       "  display_name: Python 3\n  language: python\n  name: python3\n", 1)
    assert old != text
    hand = tmp_path / CHAPTERS[0].name
    hand.write_text(old, encoding="utf-8")
    saved = chapter_form.lab_form(hand).decode()
    assert saved != old and saved.split("\n---\n", 1)[0] == text.split("\n---\n", 1)[0]
    assert "jupytext_version" not in saved and "format_version" not in saved


def _chapter_pattern() -> re.Pattern[str]:
    found = re.search(r'CHAPTER_PATTERN = "(.+?)";', EXTENSION_JS.read_text(encoding="utf-8"))
    assert found, "CHAPTER_PATTERN not found in the lab extension"
    return re.compile(found.group(1).replace("\\\\", "\\"))


def test_chapter_file_type_matches_exactly_the_chapters() -> None:
    pattern = _chapter_pattern()
    tracked = subprocess.run(["git", "ls-files", "*.md"], cwd=ROOT, capture_output=True, text=True,
                             check=True).stdout.split()
    assert "README.md" in tracked and "book/STYLE.md" in tracked
    for name in tracked:
        is_chapter = (ROOT / name).read_text(encoding="utf-8").startswith(chapter_form.JUPYTEXT_HEADER)
        opens_as_notebook = pattern.match(Path(name).name) is not None
        assert opens_as_notebook == is_chapter, (
            f"{name}: {'a chapter' if is_chapter else 'plain Markdown'}, but JupyterLab would open "
            f"it as {'a notebook' if opens_as_notebook else 'text'} (CHAPTER_PATTERN in "
            f"{_rel(EXTENSION_JS)})")


def test_lab_settings_name_the_file_type_and_turn_off_news() -> None:
    overrides = json.loads((LAB_DIR / "settings" / "overrides.json").read_text(encoding="utf-8"))
    viewers = overrides["@jupyterlab/docmanager-extension:plugin"]["defaultViewers"]
    assert viewers == {"coalg-chapter": "Jupytext Notebook"}
    assert 'name: "coalg-chapter"' in EXTENSION_JS.read_text(encoding="utf-8")
    news = overrides["@jupyterlab/apputils-extension:notification"]
    assert news == {"fetchNews": "false", "checkForUpdates": False}


# --- copies and the landing notebook ---------------------------------------------------------

@pytest.fixture
def scratch() -> Iterator[Path]:
    """A fresh folder under scratch/ (git-ignored), removed afterwards."""
    base = ROOT / "scratch"
    created_base = not base.exists()
    path = base / f"test-{os.getpid()}-{secrets.token_hex(3)}"
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)
        if created_base:
            shutil.rmtree(base, ignore_errors=True)


def _landing_links(landing: Path) -> list[str]:
    cells = json.loads(landing.read_text(encoding="utf-8"))["cells"]
    text = "\n".join("".join(c["source"]) for c in cells[1:])
    return re.findall(r"\]\(([^)]+)\)", text)


def test_scratch_is_ignored_by_git() -> None:
    probe = subprocess.run(["git", "check-ignore", "-q", "scratch/book/01-introduction.md"], cwd=ROOT,
                           check=False)
    assert probe.returncode == 0


def test_prepare_copies_and_lists_every_page_in_book_order(scratch: Path) -> None:
    assert lab_prepare.main(["--scratch", _rel(scratch)]) == 0
    pages = _toc_pages()
    notebooks = [p for p in pages if p.endswith(".ipynb") or (ROOT / p) in CHAPTERS]
    for page in notebooks:
        assert (scratch / page).read_bytes() == (ROOT / page).read_bytes()
    for support in ("data/sample-contextfs.db", "bench/audit_bench.py", "bench/results/results.json"):
        assert (scratch / support).read_bytes() == (ROOT / support).read_bytes()
    links = _landing_links(scratch / "START.ipynb")
    copies = [link for link in links if not link.startswith("../")]
    sources = [os.path.normpath(scratch / link) for link in links if link.startswith("../")]
    assert copies == notebooks
    assert sources == [str(ROOT / p) for p in pages]
    first = "".join(json.loads((scratch / "START.ipynb").read_text(encoding="utf-8"))["cells"][0]["source"])
    assert f"{_rel(scratch)}/" in first and "ignored by git" in first and "make lab" in first


def test_prepare_keeps_your_copy_and_says_it_differs(scratch: Path) -> None:
    assert lab_prepare.main(["--scratch", _rel(scratch)]) == 0
    mine = scratch / "book" / "03-6-laws.md"
    mine.write_text(mine.read_text(encoding="utf-8") + "\nmy note\n", encoding="utf-8")
    (scratch / "book" / "01-introduction.md").unlink()
    assert lab_prepare.main(["--scratch", _rel(scratch)]) == 0
    assert mine.read_text(encoding="utf-8").endswith("my note\n")
    assert (scratch / "book" / "01-introduction.md").read_bytes() == (ROOT / "book" / "01-introduction.md").read_bytes()
    landing = (scratch / "START.ipynb").read_text(encoding="utf-8")
    marked = [line for line in landing.splitlines() if "your copy differs" in line and "](" in line]
    assert len(marked) == 1 and "03-6-laws.md" in marked[0]


@pytest.mark.parametrize("where", ["book/x", "/tmp", ".", "README.md"])
def test_prepare_refuses_a_scratch_outside_or_in_the_sources(where: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert lab_prepare.main(["--scratch", where]) == 2
    err = capsys.readouterr().err
    assert err.startswith("lab_prepare: --scratch") and "Traceback" not in err


# --- JupyterLab, as `make lab` starts it -----------------------------------------------------

def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Lab:
    def __init__(self, base: str, token: str, log: Path, scratch: Path) -> None:
        self.base, self.token, self.log, self.scratch = base, token, log, scratch

    def api(self, path: str, method: str = "GET", body: Any = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(f"{self.base}{path}", data=data, method=method,
                                     headers={"Authorization": f"token {self.token}",
                                              "Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=60) as resp:
            return json.loads(resp.read() or b"null")

    def log_problems(self) -> list[str]:
        text = self.log.read_text(encoding="utf-8", errors="replace")
        return [line for line in text.splitlines()
                if line.startswith("[E ") or "Traceback" in line or "https://" in line]


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lab]:
    """JupyterLab with the project's config on a free 127.0.0.1 port, its own user settings,
    workspaces and runtime folders, and its own scratch copies; all killed and removed after."""
    tmp = tmp_path_factory.mktemp("lab")
    base_scratch = ROOT / "scratch"
    created_base = not base_scratch.exists()
    scratch = base_scratch / f"test-lab-{os.getpid()}"
    if lab_prepare.main(["--scratch", _rel(scratch)]) != 0:
        pytest.fail("tools/lab_prepare.py failed")
    port, token = _free_port(), secrets.token_hex(16)
    jupyter = Path(sys.executable).parent / "jupyter"
    if not jupyter.exists():
        pytest.fail("jupyter is not installed; run `make setup`")
    cmd = [str(jupyter), "lab", f"--config={LAB_DIR / 'jupyter_lab_config.py'}", f"--port={port}",
           "--ServerApp.port_retries=0", f"--IdentityProvider.token={token}",
           f"--LabApp.user_settings_dir={tmp / 'user-settings'}",
           f"--LabApp.workspaces_dir={tmp / 'workspaces'}",
           "--LabApp.expose_app_in_browser=True"]  # lets the test read the notebook model
    if os.geteuid() == 0:
        cmd.append("--allow-root")
    env = {**os.environ, "JUPYTER_RUNTIME_DIR": str(tmp / "runtime"), "JUPYTER_CONFIG_DIR": str(tmp / "config")}
    log = tmp / "lab.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                                start_new_session=True)
    server = Lab(f"http://127.0.0.1:{port}", token, log, scratch)
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            if proc.poll() is not None:
                pytest.fail(f"jupyter lab exited with {proc.returncode}:\n{log.read_text(errors='replace')[-3000:]}")
            try:
                server.api("/api/status")
                break
            except OSError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"jupyter lab did not answer within {START_TIMEOUT_S} s:\n{log.read_text(errors='replace')[-3000:]}")
            time.sleep(0.5)
        yield server
    finally:
        try:
            os.killpg(proc.pid, signal.SIGTERM)  # the server and the kernels it started
            proc.wait(timeout=20)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            proc.wait(timeout=5)
        shutil.rmtree(scratch, ignore_errors=True)
        if created_base:
            shutil.rmtree(base_scratch, ignore_errors=True)


def test_lab_serves_the_project_on_loopback_without_news(lab: Lab) -> None:
    assert urlsplit(lab.base).hostname == "127.0.0.1"
    with urllib.request.urlopen(f"{lab.base}/lab?token={lab.token}", timeout=30) as resp:
        page = resp.read().decode()
    found = re.search(r'id="jupyter-config-data"[^>]*>\s*(\{.*?\})\s*</script>', page, re.DOTALL)
    assert found, "no page config in /lab"
    config = json.loads(found.group(1))
    assert config["news"] == {"disabled": True}
    assert config["extensionManager"]["can_install"] is False  # read-only: never searches PyPI
    assert "coalg-chapters" in [e["name"] for e in config["federated_extensions"]]
    assert lab.api("/lab/api/update") == {"notification": None}
    viewers = lab.api("/lab/api/settings/@jupyterlab/docmanager-extension:plugin")
    assert viewers["schema"]["properties"]["defaultViewers"]["default"] == {"coalg-chapter": "Jupytext Notebook"}


def test_lab_saves_a_chapter_unchanged(lab: Lab) -> None:
    """Open a chapter through the Lab server as a notebook, save it back: byte-identical."""
    path = "book/05-10-summary.md"
    before = (ROOT / path).read_bytes()
    stat = (ROOT / path).stat()
    model = lab.api(f"/api/contents/{quote(path)}?type=notebook&content=1")
    assert model["type"] == "notebook" and len(model["content"]["cells"]) > 5
    try:
        saved = lab.api(f"/api/contents/{quote(path)}", "PUT",
                        {"type": "notebook", "format": "json", "content": model["content"]})
        assert saved["path"] == path
        assert (ROOT / path).read_bytes() == before
    finally:
        if (ROOT / path).read_bytes() != before:  # never leave the worktree changed
            (ROOT / path).write_bytes(before)
        os.utime(ROOT / path, ns=(stat.st_atime_ns, stat.st_mtime_ns))


def test_lab_writes_an_edit_without_outputs(lab: Lab) -> None:
    """An edit saved in a copy reaches the MyST file; outputs and run metadata do not."""
    path = f"{_rel(lab.scratch)}/book/03-2-operation-alphabet.md"
    original = (ROOT / path).read_text(encoding="utf-8")
    model = lab.api(f"/api/contents/{quote(path)}?type=notebook&content=1")
    nb = model["content"]
    code = next(c for c in nb["cells"] if c["cell_type"] == "code")
    code["source"] += "\nprint('my experiment')"
    code["outputs"] = [{"output_type": "stream", "name": "stdout", "text": "OUTPUT-MARKER\n"}]
    code["execution_count"] = 7
    nb["metadata"]["language_info"] = {"name": "python", "pygments_lexer": "ipython3"}
    nb["metadata"]["widgets"] = {"application/vnd.jupyter.widget-state+json": {"state": {}}}
    lab.api(f"/api/contents/{quote(path)}", "PUT", {"type": "notebook", "format": "json", "content": nb})
    saved = (ROOT / path).read_text(encoding="utf-8")
    assert "print('my experiment')" in saved and "OUTPUT-MARKER" not in saved
    assert "widget-state" not in saved and "language_info" not in saved
    assert saved.split("\n---\n", 1)[0] == original.split("\n---\n", 1)[0]  # the header as it was
    assert saved.replace("\nprint('my experiment')", "", 1) == original


# --- the real browser ------------------------------------------------------------------------

# The current notebook as its model holds it (independent of which cells the page has drawn).
NOTEBOOK_STATE = """() => {
  const app = window.jupyterapp;
  const w = app && app.shell.currentWidget;
  if (!w || !w.context || !w.content || !w.content.model || !w.content.model.cells) return null;
  const cells = w.content.model.toJSON().cells;
  const code = cells.filter(c => c.cell_type === 'code');
  const mimes = code.flatMap(c => c.outputs.flatMap(o => Object.keys(o.data || {})));
  return {
    path: w.context.path,
    notebook: w.node.classList.contains('jp-NotebookPanel'),
    kernel: w.sessionContext.kernelDisplayStatus,
    dirty: w.context.model.dirty,
    code: code.length,
    run: code.filter(c => c.execution_count !== null).length,
    outputs: code.reduce((n, c) => n + c.outputs.length, 0),
    mimes: [...new Set(mimes)],
    errors: code.flatMap(c => c.outputs.filter(o => o.output_type === 'error')
                                  .map(o => o.ename + ': ' + o.evalue)),
  };
}"""
CURRENT_WIDGET = """() => { const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;
  return w && w.context ? {path: w.context.path, notebook: w.node.classList.contains('jp-NotebookPanel'),
                           editor: !!w.node.querySelector('.jp-FileEditor')} : null; }"""


class Browser:
    """One chromium page on the Lab server; records requests outside 127.0.0.1 and errors."""

    def __init__(self, lab: Lab, chromium: Any) -> None:
        self.lab = lab
        self.context = chromium.new_context(viewport={"width": 1400, "height": 1000})
        self.page = self.context.new_page()
        self.outside: list[str] = []
        self.errors: list[str] = []
        self.page.route("**/*", self._guard)
        self.page.on("websocket", lambda ws: None if urlsplit(ws.url).hostname == "127.0.0.1"
                     else self.outside.append(ws.url))
        self.page.on("pageerror", lambda e: self.errors.append(f"page error: {e}"))
        self.page.on("console", lambda m: self.errors.append(f"console.{m.type}: {m.text}")
                     if m.type == "error" else None)

    def _guard(self, route: Any) -> None:
        parts = urlsplit(route.request.url)
        if parts.scheme in ("data", "blob", "about") or parts.hostname == "127.0.0.1":
            route.continue_()
        else:
            self.outside.append(route.request.url)
            route.abort()

    def wait_for_document(self, path: str) -> dict[str, Any]:
        self.page.wait_for_function(f"() => {{ const s = ({CURRENT_WIDGET})(); return s && s.path === {json.dumps(path)}; }}",
                                    timeout=60_000)
        return dict(self.page.evaluate(CURRENT_WIDGET))

    def run_all_and_save(self) -> dict[str, Any]:
        page = self.page
        page.wait_for_function(f"() => {{ const s = ({NOTEBOOK_STATE})(); return s && s.kernel === 'idle'; }}",
                               timeout=120_000)
        page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(r"^Run$")).click()
        page.locator(".lm-Menu-itemLabel", has_text=re.compile(r"^Run All Cells$")).click()
        page.wait_for_function(f"() => {{ const s = ({NOTEBOOK_STATE})(); return s && s.kernel === 'idle'"
                               " && (s.run === s.code || s.errors.length > 0); }", timeout=RUN_TIMEOUT_MS)
        state = dict(page.evaluate(NOTEBOOK_STATE))
        page.keyboard.press("Control+s")
        page.wait_for_function(f"() => {{ const s = ({NOTEBOOK_STATE})(); return s && !s.dirty; }}", timeout=30_000)
        return state

    def shot(self, name: str) -> None:
        shots = os.environ.get("COALG_SCREENSHOTS")
        if shots:
            Path(shots).mkdir(parents=True, exist_ok=True)
            self.page.screenshot(path=str(Path(shots) / name))


@pytest.mark.book
def test_lab_landing_chapter_and_explorer_in_chromium(lab: Lab, chromium_browser: Any) -> None:
    here = _rel(lab.scratch)
    browser = Browser(lab, chromium_browser)
    page = browser.page
    try:
        page.goto(f"{lab.base}/lab/tree/{here}/START.ipynb?token={lab.token}")
        assert browser.wait_for_document(f"{here}/START.ipynb")["notebook"]
        landing = page.locator(".jp-NotebookPanel:visible .jp-RenderedMarkdown")
        landing.get_by_role("link", name="Introduction", exact=True).wait_for(timeout=60_000)
        notebooks = [q for q in _toc_pages()
                     if q.endswith(".ipynb") or (ROOT / q).read_text(encoding="utf-8").startswith("---\njupytext:")]
        # JupyterLab renders the later cells when it has time (and skips off-screen ones for the
        # accessibility tree), so count the links in the DOM, once every cell has rendered.
        # A plain Markdown page (the API reference) has no copy and so no "source" link.
        count_links = ("() => Array.from(document.querySelectorAll("
                       "'.jp-NotebookPanel:not(.lm-mod-hidden) .jp-RenderedMarkdown a'))"
                       ".map(a => a.textContent.trim())")
        page.wait_for_function(f"() => ({count_links})().filter(t => t === 'source').length >= {len(notebooks)}",
                               timeout=60_000)
        titles = page.evaluate(count_links)
        assert titles.count("source") == len(notebooks) and "Explorer: derivation playground" in titles
        browser.shot("lab-landing.png")

        # a chapter, from its link on the landing page
        landing.get_by_role("link", name="Introduction", exact=True).click()
        chapter = "book/01-introduction.md"
        assert browser.wait_for_document(f"{here}/{chapter}")["notebook"]
        state = browser.run_all_and_save()
        assert state["errors"] == [] and state["run"] == state["code"] > 5
        assert state["outputs"] >= state["code"] // 2 and "image/png" in state["mimes"]
        assert (ROOT / here / chapter).read_bytes() == (ROOT / chapter).read_bytes(), \
            "run and saved without an edit, the chapter's copy no longer equals its source"
        page.locator(".jp-OutputArea-output img").first.wait_for(timeout=30_000)
        browser.shot("lab-chapter-run.png")

        # an explorer, the same way
        page.locator(".lm-TabBar-tab", has_text="START.ipynb").click()
        landing.get_by_role("link", name="Explorer: derivation playground", exact=True).click()
        assert browser.wait_for_document(f"{here}/notebooks/explore-playground.ipynb")["notebook"]
        state = browser.run_all_and_save()
        assert state["errors"] == [] and state["run"] == state["code"]
        assert "application/vnd.jupyter.widget-view+json" in state["mimes"]
        page.locator(".jp-NotebookPanel:visible .jupyter-widgets button").first.wait_for(timeout=60_000)
        browser.shot("lab-explorer-run.png")

        # a double-click in the file browser: a chapter opens as a notebook, README.md and
        # STYLE.md as text. Copies of them in the scratch folder, so that JupyterLab's
        # checkpoints never land in the tracked folders.
        shutil.copyfile(ROOT / "README.md", lab.scratch / "README.md")
        shutil.copyfile(ROOT / "book" / "STYLE.md", lab.scratch / "book" / "STYLE.md")
        page.evaluate(f"() => window.jupyterapp.commands.execute('filebrowser:go-to-path', {{path: '/{here}'}})")
        listing = page.locator(".jp-DirListing-content")

        def double_click(name: str) -> None:
            item = listing.locator(".jp-DirListing-item", has=page.locator(
                ".jp-DirListing-itemText", has_text=re.compile(f"^{re.escape(name)}$")))
            item.dblclick()

        double_click("README.md")
        opened = browser.wait_for_document(f"{here}/README.md")
        assert opened["editor"] and not opened["notebook"]
        double_click("book")
        double_click("02-background.md")
        assert browser.wait_for_document(f"{here}/book/02-background.md")["notebook"]
        page.wait_for_function(f"() => {{ const s = ({NOTEBOOK_STATE})(); return s && s.kernel === 'idle'; }}",
                               timeout=120_000)
        double_click("STYLE.md")
        opened = browser.wait_for_document(f"{here}/book/STYLE.md")
        assert opened["editor"] and not opened["notebook"]
        browser.shot("lab-double-click.png")
        problems = lab.log_problems()  # before the page goes away and drops its connections
    finally:
        browser.context.close()
    assert not browser.outside, f"the page requested URLs outside 127.0.0.1: {browser.outside}"
    assert not browser.errors, f"errors in the page: {browser.errors}"
    assert not problems, "problems in the server log:\n" + "\n".join(problems)


# --- every chapter in a fresh kernel ---------------------------------------------------------

def _execute(path: Path, cwd: Path) -> None:
    import jupytext
    import nbclient

    nb = jupytext.read(path)
    client = nbclient.NotebookClient(nb, timeout=600, kernel_name="python3",
                                     resources={"metadata": {"path": str(cwd)}})
    try:
        client.execute()
    except nbclient.exceptions.CellExecutionError as err:
        pytest.fail(f"{_rel(path)} fails when run top to bottom:\n{str(err)[-3000:]}")


@pytest.fixture(scope="session")
def kernel_profile(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An ``IPYTHONDIR`` whose kernels start with the law tables, as the book build's do.

    The tables are the ones the book build wrote, when its folder holds a valid table
    of this code for both realisations (:func:`shared_build.build_law_tables`); otherwise
    they are computed here, once per session
    (tools/sphinxext/law_tables.py; tests/book/test_law_tables.py checks that a loaded
    verdict equals the computed one).  Every chapter still runs every cell in a fresh
    kernel.
    """
    spec = importlib.util.spec_from_file_location("law_tables", ROOT / "tools" / "sphinxext" / "law_tables.py")
    assert spec is not None and spec.loader is not None
    law_tables = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(law_tables)
    from coalg.laws.table import CLAUSES

    folder = build_law_tables()
    if folder is None:
        folder = law_tables.private_folder(tmp_path_factory.mktemp("build") / "law-tables")
        assert folder is not None
        digest = law_tables.code_digest()
        for name in ("contextfs", "repaired"):
            law_tables.write(folder, name, law_tables.table_json(name, law_tables.compute(name, CLAUSES), digest))
    ipython_dir = tmp_path_factory.mktemp("ipython")
    startup = ipython_dir / "profile_default" / "startup"
    startup.mkdir(parents=True)
    (startup / "50-coalg-law-tables.py").write_text(law_tables.startup_file(folder), encoding="utf-8")
    return ipython_dir


@pytest.fixture
def shared_verdicts(kernel_profile: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The kernels start with the law tables computed once (see ``kernel_profile``)."""
    monkeypatch.setenv("IPYTHONDIR", str(kernel_profile))


def _code_cells(nb: Any) -> list[str]:
    return [c.source for c in nb.cells if c.cell_type == "code"]


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda p: p.name)
def test_the_lab_runs_the_code_the_book_build_runs(chapter: Path) -> None:
    import jupytext
    from myst_nb.core.read import read_myst_markdown_notebook
    from myst_parser.config.main import MdParserConfig

    text = chapter.read_text(encoding="utf-8")
    in_lab = _code_cells(jupytext.read(chapter))
    in_build = _code_cells(read_myst_markdown_notebook(text, MdParserConfig(), path=chapter))
    assert in_lab == in_build, f"{_rel(chapter)}: JupyterLab and the book build see different code cells"
    assert len(in_lab) == text.count("\n```{code-cell}")


def test_one_chapter_at_least_runs_in_a_fresh_kernel() -> None:
    assert FRESH_KERNEL and set(FRESH_KERNEL) <= set(CHAPTERS)
    assert FROM_COPY and set(FROM_COPY) <= set(READS_PROJECT_FILES)


@pytest.mark.book
@pytest.mark.parametrize("chapter", FRESH_KERNEL, ids=lambda p: p.name)
def test_chapter_runs_top_to_bottom_in_a_fresh_kernel(chapter: Path, shared_verdicts: None) -> None:
    _execute(chapter, chapter.parent)


@pytest.mark.book
@pytest.mark.parametrize("chapter", FROM_COPY, ids=lambda p: p.name)
def test_chapter_runs_from_its_copy(chapter: Path, scratch: Path, shared_verdicts: None) -> None:
    assert lab_prepare.main(["--scratch", _rel(scratch)]) == 0
    copy = scratch / _rel(chapter)
    _execute(copy, copy.parent)
