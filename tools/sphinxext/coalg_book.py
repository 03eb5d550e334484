"""Sphinx extension for the web book (loaded from _config.yml, ``sphinx.local_extensions``).

What it does, each for a reason a reader meets:

* **Exercise numbers** say which page they are on: ``Exercise 3.3.1`` is the first
  exercise of the §3.3 page, ``Exercise 5.0.2`` the second on the page that opens
  chapter 5, ``Exercise 6.1`` the first of chapter 6 (a chapter on one page), and
  ``Exercise R.1`` the first on an unnumbered page (its letter comes from
  ``coalg_exercise_prefix``).  Stock numbering counts across a whole chapter, so
  "Exercise 3.7" sat on the §3.3 page next to the paper's Definition 3.7.
* **An index of results in the paper's order**: the directive ``results-index``
  lists every definition, law, proposition, theorem … of the book, the paper's items
  sorted by their numbers, then the book's own.  Sphinx-proof's own index sorts by
  label as text (``def-3-10`` before ``def-3-2``).
* **Every notebook page offers its notebook**: a MyST notebook page
  (``book/*.md`` with a jupytext header) is converted with jupytext, outputs-free,
  to ``_sources/<page>.ipynb``, and the page's download menu links it.
* **No stock console errors**: thebe is off in this book, but sphinx-thebe still
  emits its configuration script twice on every page (``Identifier 'THEBE_JS_URL'
  has already been declared``); its scripts are dropped from every page.
* **Figures as vector graphics** (SVG on the page, a 2x PNG beside it for the PDF):
  every kernel the build starts reads ``tools/sphinxext/ipython_kernel_config.py``
  (through a private ``IPYTHONDIR`` under ``_build/``).
* **Small saved pages**: nodes parsed from ``{eval-rst}`` blocks are re-homed in
  their page's document, so a saved API page no longer carries the whole build
  environment (the build reads every saved page back at least twice).
* **One mark for a reconstructed statement**: ``{recon}`recon-def-3-4``` renders a small
  superscript R linking the statement's entry in Appendix D (the label it names), the
  same on every page and in the PDF.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import os
import re
import shutil
import sys
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import make_refnode

logger = logging.getLogger(__name__)
HERE = Path(__file__).resolve().parent

# ------------------------------------------------------------------ exercise numbers


def _restore_stock_numbers(app: Sphinx, env: BuildEnvironment) -> list[str]:
    """Before Sphinx renumbers: put back the numbers it gave last time.

    Sphinx rewrites every page whose numbers differ from the last build's; with the page
    numbers below in place it would see a difference on every page with exercises, every
    time. Restoring its own numbers first keeps an incremental build incremental.
    """
    stock = getattr(env, "coalg_stock_exercises", None)
    if stock is not None:
        for doc, numbers in stock.items():
            if doc in env.toc_fignumbers:
                env.toc_fignumbers[doc]["exercise"] = dict(numbers)
    return []


def _renumber_exercises(app: Sphinx, env: BuildEnvironment) -> list[str]:
    """Give each page's exercises the page's own number plus their place on the page."""
    env.coalg_stock_exercises = {
        doc: dict(types["exercise"]) for doc, types in env.toc_fignumbers.items()
        if types.get("exercise")
    }
    previous = getattr(env, "coalg_page_exercises", {})
    prefixes: dict[str, str] = app.config.coalg_exercise_prefix
    has_sections = {
        doc for doc, children in env.toctree_includes.items() if children
    }
    changed = []
    for doc, types in env.toc_fignumbers.items():
        numbers = types.get("exercise")
        if not numbers:
            continue
        page = env.toc_secnumbers.get(doc, {}).get("")
        if page:
            base: tuple[Any, ...] = tuple(page)
            if doc in has_sections:
                base += (0,)
        elif doc in prefixes:
            base = (prefixes[doc],)
        else:
            logger.warning(
                f"{doc}: exercises on an unnumbered page need a letter in "
                "coalg_exercise_prefix (_config.yml)",
                location=doc,
            )
            continue
        ordered = sorted(numbers, key=lambda i: tuple(numbers[i]))
        new = {ident: (*base, k) for k, ident in enumerate(ordered, start=1)}
        types["exercise"] = new
        if previous.get(doc) != new:
            changed.append(doc)
    env.coalg_page_exercises = {
        doc: dict(types["exercise"]) for doc, types in env.toc_fignumbers.items()
        if types.get("exercise")
    }
    return changed


# ------------------------------------------------------------------ index of results

_PROOF_TYPES = {
    "axiom", "theorem", "lemma", "algorithm", "definition", "remark", "conjecture",
    "corollary", "criterion", "example", "property", "observation", "proposition",
    "assumption", "notation",
}
_PAPER_NUMBER = re.compile(r"^(\d+)\.(\d+)\b")
_CLAUSE = re.compile(r"^([LS])(\d+)\b")
# Laws L1-L7 are the clauses of Definition 3.21, schema S1-S4 those of Definition 3.23.
_CLAUSE_OF = {"L": (3, 21), "S": (3, 23)}
_OWN_NUMBER = re.compile(r"^([A-Z]+)(\d+)(?:\.(\d+))?\b")
# The standard definitions recalled in the background chapter: B1, B2, …
_BACKGROUND_NUMBER = re.compile(r"^B(\d+)\b")


def _sort_key(title: str) -> tuple[int, tuple[Any, ...]]:
    """(group, order): 0 = the paper's items by number, 1 = the book's own, 2 = the background
    chapter's standard definitions (B1, B2, … first, then any unnumbered block)."""
    if m := _PAPER_NUMBER.match(title):
        return 0, (int(m[1]), int(m[2]), 0)
    if m := _CLAUSE.match(title):
        return 0, (*_CLAUSE_OF[m[1]], int(m[2]))
    if m := _BACKGROUND_NUMBER.match(title):
        return 2, (int(m[1]), title)
    if m := _OWN_NUMBER.match(title):
        return 1, (m[1], int(m[2]), int(m[3] or 0))
    return 2, (1 << 30, title)


def _collect_results(app: Sphinx, doctree: nodes.document) -> None:
    env = app.env
    if any(doctree.findall(results_index)):
        # The titles copied in later hold math: the page must load MathJax. (The math
        # domain has already looked for math in this page and found none.)
        env.get_domain("math").data["has_equations"][env.docname] = True
    found = getattr(env, "coalg_results", {})
    for node in doctree.findall(nodes.Element):
        realtype = node.get("realtype")
        if realtype not in _PROOF_TYPES or not node.get("label"):
            continue
        if not node.children or not isinstance(node[0], nodes.title):
            continue
        found[node["label"]] = {
            "docname": env.docname,
            "realtype": realtype,
            "title": node.get("title", "").strip(),
            "title_nodes": [c.deepcopy() for c in node[0].children],
            "id": node["ids"][0],
        }
    env.coalg_results = found


def _purge_results(app: Sphinx, env: BuildEnvironment, docname: str) -> None:
    found = getattr(env, "coalg_results", {})
    for label in [k for k, v in found.items() if v["docname"] == docname]:
        del found[label]
    getattr(env, "coalg_results_pages", set()).discard(docname)


def _merge_results(
    app: Sphinx, env: BuildEnvironment, docnames: set[str], other: BuildEnvironment
) -> None:
    env.coalg_results = {**getattr(env, "coalg_results", {}),
                         **getattr(other, "coalg_results", {})}
    env.coalg_results_pages = (getattr(env, "coalg_results_pages", set())
                               | getattr(other, "coalg_results_pages", set()))


class results_index(nodes.General, nodes.Element):
    """Placeholder, replaced by the table once every page has been read."""


class ResultsIndexDirective(SphinxDirective):
    has_content = False

    def run(self) -> list[nodes.Node]:
        pages = getattr(self.env, "coalg_results_pages", set())
        pages.add(self.env.docname)
        self.env.coalg_results_pages = pages
        return [results_index("")]


def _rewrite_results_pages(app: Sphinx, env: BuildEnvironment) -> list[str]:
    """The index lists blocks of every page: rewrite it even when only another page changed."""
    return sorted(getattr(env, "coalg_results_pages", set()) & set(env.found_docs))


def _table(header: list[str], rows: list[list[nodes.Node]], widths: list[int]) -> nodes.table:
    # colwidths-given: the LaTeX builder then uses these widths instead of guessing
    table = nodes.table(classes=["coalg-results-index", "colwidths-given"])
    group = nodes.tgroup(cols=len(header))
    table += group
    for w in widths:
        group += nodes.colspec(colwidth=w)
    head = nodes.thead()
    group += head
    row = nodes.row()
    for h in header:
        row += nodes.entry("", nodes.paragraph(text=h))
    head += row
    body = nodes.tbody()
    group += body
    for cells in rows:
        row = nodes.row()
        for c in cells:
            entry = nodes.entry()
            entry += nodes.paragraph("", "", c) if not isinstance(c, nodes.paragraph) else c
            row += entry
        body += row
    return table


def _fill_results_index(app: Sphinx, doctree: nodes.document, fromdoc: str) -> None:
    found = getattr(app.env, "coalg_results", {})
    titles = app.env.titles
    for placeholder in list(doctree.findall(results_index)):
        groups: dict[int, list[tuple[tuple[Any, ...], dict[str, Any]]]] = {0: [], 1: [], 2: []}
        for info in found.values():
            group, order = _sort_key(info["title"])
            groups[group].append((order, info))
        out: list[nodes.Node] = []
        captions = {
            0: "The paper's numbered items, in the paper's order",
            1: "The book's own results (proposals and runtime observations)",
            2: "Standard definitions recalled in the background chapter",
        }
        for group in (0, 1, 2):
            entries = sorted(groups[group], key=lambda x: (x[0], x[1]["docname"]))
            if not entries:
                continue
            rows = []
            for _, info in entries:
                kind = info["realtype"].title()
                title = nodes.inline()
                for child in info["title_nodes"]:
                    title += child.deepcopy()
                link = make_refnode(
                    app.builder, fromdoc, info["docname"], info["id"],
                    nodes.inline("", "", nodes.Text(f"{kind} "), title),
                )
                page_title = nodes.inline()
                number = app.env.toc_secnumbers.get(info["docname"], {}).get("")
                if number:
                    page_title += nodes.Text(".".join(map(str, number)) + ". ")
                if info["docname"] in titles:
                    page_title += titles[info["docname"]].deepcopy().children
                else:
                    page_title += nodes.Text(info["docname"])
                page = make_refnode(app.builder, fromdoc, info["docname"], "", page_title)
                rows.append([link, page])
            rubric = nodes.rubric(text=captions[group])
            out += [rubric, _table(["result", "page"], rows, [62, 38])]
        placeholder.replace_self(out)


# ------------------------------------------------------------------ notebooks to download


def _is_myst_notebook(path: Path) -> bool:
    if path.suffix != ".md" or not path.is_file():
        return False
    head = path.read_text(encoding="utf-8")[:400]
    return head.startswith("---\n") and "jupytext:" in head and "kernelspec:" in head


def _offer_notebook(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    if app.builder.format != "html" or doctree is None:
        return
    source = Path(app.env.doc2path(pagename))
    if not _is_myst_notebook(source):
        return
    import jupytext  # jupyter-book depends on it

    nb = jupytext.read(source, fmt="md:myst")
    nb.metadata.pop("jupytext", None)
    target = Path(app.outdir, "_sources", pagename + ".ipynb")
    target.parent.mkdir(parents=True, exist_ok=True)
    jupytext.write(nb, target, fmt="ipynb")
    context["ipynb_source"] = pagename + ".ipynb"


# ------------------------------------------------------------------ scripts we do not want


def _drop_thebe(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    def thebe(script: Any) -> bool:
        name = str(getattr(script, "filename", "") or "")
        body = str(getattr(script, "attributes", {}).get("body", ""))
        return "thebe" in name.lower() or "THEBE" in body

    if "script_files" in context:
        context["script_files"] = [s for s in context["script_files"] if not thebe(s)]


# ------------------------------------------------------------------ the kernels' figure format


def _kernel_profile(app: Sphinx, config: Any) -> None:
    """Point every kernel of this build at the book's IPython kernel configuration."""
    ipython_dir = Path(app.outdir).parent / "ipython"
    profile = ipython_dir / "profile_default"
    profile.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(HERE / "ipython_kernel_config.py", profile / "ipython_kernel_config.py")
    os.environ["IPYTHONDIR"] = str(ipython_dir)


# ------------------------------------------------------------------ execution cache

# What a chapter's outputs depend on besides its own code (which jupyter-cache hashes itself).
CACHE_INPUTS = ("coalg/**/*.py", "bench/results/**/*", "data/**/*",
                "tools/sphinxext/ipython_kernel_config.py", "requirements*.txt", "pyproject.toml")


def _inputs_key(root: Path) -> str:
    digest = hashlib.sha256()
    digest.update(sys.version.encode())
    for dist in sorted({f"{d.metadata['Name']}=={d.version}" for d in importlib.metadata.distributions()}):
        digest.update(dist.encode() + b"\n")
    for pattern in CACHE_INPUTS:
        for path in sorted(root.glob(pattern)):
            if path.is_file() and "__pycache__" not in path.parts:
                digest.update(path.relative_to(root).as_posix().encode() + b"\0")
                digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def _execution_cache(app: Sphinx, config: Any) -> None:
    """With ``execute_notebooks: cache``, one jupyter-cache per state of the library.

    jupyter-cache reuses a notebook's outputs when its code is unchanged. Outputs also
    depend on ``coalg`` and on the data the chapters read, so the cache lives in a folder
    named by a hash of those inputs (and of the installed packages): change any of them
    and every chapter runs again. Older folders are removed.
    """
    if config.nb_execution_mode != "cache":
        return
    base = Path(app.outdir).parent / ".jupyter_cache"
    key = _inputs_key(Path(app.srcdir))
    if base.is_dir():
        for old in base.iterdir():
            if old.is_dir() and old.name != key:
                shutil.rmtree(old, ignore_errors=True)
    config.nb_execution_cache_path = str(base / key)
    logger.info(f"coalg_book: execution cache {base.name}/{key} (keyed on coalg/ and its data)")


# ------------------------------------------------------------------ small doctrees


def _adopt_nodes(app: Sphinx, doctree: nodes.document) -> None:
    """``doctree-read``: every node of a page belongs to the page's own document.

    MyST parses an ``{eval-rst}`` block (every ``automodule`` of Appendix C) into a
    scratch document that shares the page's settings, and the nodes it returns still
    point to that document.  Sphinx clears the build environment from a page's
    settings before it saves the page, but not from the scratch document's, so each
    API page was saved with a copy of the whole environment (3 MB a page, read back
    every time Sphinx numbers figures or writes a page).
    """
    for node in doctree.findall():
        owner = node.__dict__.get("_document")
        if owner is not None and owner is not doctree:
            node.document = doctree


# ------------------------------------------------------------------ the notation in LaTeX


def _latex_macros(app: Sphinx, config: Any) -> None:
    """The MathJax macros of _config.yml as LaTeX ``\\providecommand`` lines (for ``make pdf``)."""
    macros = (config.mathjax3_config or {}).get("tex", {}).get("macros", {})
    lines = []
    for name, body in macros.items():
        if isinstance(body, list):
            text, nargs = body[0], int(body[1])
            lines.append(f"\\providecommand{{\\{name}}}[{nargs}]{{{text}}}")
        else:
            lines.append(f"\\providecommand{{\\{name}}}{{{body}}}")
    elements = dict(config.latex_elements or {})
    elements["preamble"] = elements.get("preamble", "") + "\n" + "\n".join(lines) + "\n"
    config.latex_elements = elements


# ------------------------------------------------------------------ the reconstruction mark


def _recon_role(name: str, rawtext: str, text: str, lineno: int, inliner: Any,
                options: Any = None, content: Any = None) -> tuple[list[nodes.Node], list[Any]]:
    """``{recon}`label```: a superscript "R" that links the Appendix D entry ``label``."""
    label = text.strip()
    ref = addnodes.pending_xref(rawtext, refdomain="std", reftype="ref", reftarget=label,
                                refexplicit=True, refwarn=True)
    ref += nodes.Text("R")
    mark = nodes.superscript("", "", ref, classes=["recon-mark"])
    return [mark], []


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_role("recon", _recon_role)
    app.add_config_value("coalg_exercise_prefix", {}, "env")
    app.connect("config-inited", _kernel_profile)
    app.connect("config-inited", _latex_macros)
    app.connect("config-inited", _execution_cache)
    app.connect("env-get-updated", _restore_stock_numbers, priority=100)
    app.connect("env-get-updated", _renumber_exercises, priority=900)
    app.connect("env-get-updated", _rewrite_results_pages)
    app.add_node(results_index)
    app.add_directive("results-index", ResultsIndexDirective)
    app.connect("doctree-read", _collect_results)
    app.connect("doctree-read", _adopt_nodes, priority=900)
    app.connect("env-purge-doc", _purge_results)
    app.connect("env-merge-info", _merge_results)
    app.connect("doctree-resolved", _fill_results_index)
    app.connect("html-page-context", _offer_notebook)
    app.connect("html-page-context", _drop_thebe)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True,
            "env_version": 1}
