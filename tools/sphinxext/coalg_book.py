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
* **Every notebook page offers its notebook**, one a reader can run elsewhere: the
  chapter with the outputs of this build, its MyST text rendered to plain Markdown and a
  first cell saying how to get ``coalg`` (``coalg_notebook.py``), written to
  ``_sources/<page>.ipynb`` and linked from the page's download menu.
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
import json
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


# ------------------------------------------------------------------ sphinx-proof's index

_TEX_SYMBOLS = {"approx": "≈", "uplus": "⊎", "to": "→", "oplus": "⊕", "cup": "∪", "cap": "∩",
                "subseteq": "⊆", "in": "∈", "times": "×", "circ": "∘", "le": "≤", "ge": "≥",
                "theta": "θ", "beta": "β", "lambda": "λ", "Psi": "Ψ", "tau": "τ", "sim": "∼"}


def plain_title(title: str) -> str:
    r"""A title's ``$…$`` math as plain text (``$\approx$`` → ``≈``), for places MathJax does not reach.

    >>> plain_title(r"3.15 (The type $\mathsf{Mem}$)"), plain_title(r"5.24 (Up to $\approx$)")
    ('3.15 (The type Mem)', '5.24 (Up to ≈)')
    """
    def math(m: re.Match[str]) -> str:
        tex = re.sub(r"\\(?:math\w+|text\w*|operatorname)\{([^{}]*)\}", r"\1", m[1])
        tex = re.sub(r"\\([A-Za-z]+)", lambda c: _TEX_SYMBOLS.get(c[1], c[1]), tex)
        return re.sub(r"[{}]|\\.", "", tex).strip()

    return re.sub(r"\$([^$]+)\$", math, title)


def _titled_proof_index(self: Any, docnames: Any = None) -> tuple[list[Any], bool]:
    """sphinx-proof's index (``prf-prf.html``), by title and in the paper's order, not by label."""
    env = self.domain.env
    found = getattr(env, "coalg_results", {})
    captions = {0: "The paper's numbered items", 1: "The book's own results",
                2: "Standard definitions recalled"}
    groups: dict[int, list[tuple[Any, list[Any]]]] = {0: [], 1: [], 2: []}
    for label, values in getattr(env, "proof_list", {}).items():
        info = found.get(label)
        kind = values["realtype"].title()
        title = plain_title(info["title"]) if info else ""
        group, order = _sort_key(title) if title else (2, (label,))
        name = f"{kind} {title}" if title else f"{kind} ({label})"
        page = env.titles[values["docname"]].astext() if values["docname"] in env.titles else ""
        groups[group].append((order, [name, 0, values["docname"], label, page, "", ""]))
    content = []
    for group in (0, 1, 2):
        if groups[group]:
            entries = [e for _, e in sorted(groups[group], key=lambda x: (x[0], x[1][2]))]
            content.append((captions[group], entries))
    return content, False


# ------------------------------------------------------------------ notebooks to download


def _is_myst_notebook(path: Path) -> bool:
    if path.suffix != ".md" or not path.is_file():
        return False
    head = path.read_text(encoding="utf-8")[:400]
    return head.startswith("---\n") and "jupytext:" in head and "kernelspec:" in head


INSTALL = ("in a copy of the book's repository, run `make setup` (or `pip install -e \".[book]\"`), "
           "then open this notebook in JupyterLab (`make lab`).")
"""How a download says to get ``coalg`` (the repository's own set-up, in one line)."""


def _resolver(app: Sphinx, docname: str) -> Any:
    """A cross-reference's title as the web page shows it, for the download's text."""
    env = app.env

    def resolve(role: str, target: str) -> str | None:
        if role == "prf:ref":
            info = getattr(env, "coalg_results", {}).get(target)
            return f"{info['realtype'].title()} {info['title']}" if info else None
        if role == "doc":
            from sphinx.util import docname_join

            doc = docname_join(docname, target.removesuffix(".md").removesuffix(".ipynb"))
            title = env.titles.get(doc)
            return title.astext() if title is not None else None
        if role.startswith("numref"):
            std = env.get_domain("std")
            found = std.labels.get(target.lower()) or std.anonlabels.get(target.lower())
            if found:
                for figtype, numbers in env.toc_fignumbers.get(found[0], {}).items():
                    if found[1] in numbers:
                        number = ".".join(map(str, numbers[found[1]]))
                        if role == "numref:number":
                            return number
                        fmt = app.config.numfig_format.get(figtype, f"{figtype.title()} %s")
                        return str(fmt % number)
        label = env.get_domain("std").labels.get(target.lower())
        if label and label[2]:
            return str(label[2])
        anon = env.get_domain("std").anonlabels.get(target.lower())
        if anon and anon[0] in env.titles and not anon[1]:
            return env.titles[anon[0]].astext()
        return None

    return resolve


def _citer(app: Sphinx) -> Any:
    """``{cite:p}`` as "(Author year)", ``{cite:t}`` as "Author (year)", from the book's .bib files."""
    cache = getattr(app, "_coalg_bib", None)
    if cache is None:
        from pybtex.database import parse_file

        cache = {}
        for bib in app.config.bibtex_bibfiles:
            for key, entry in parse_file(Path(app.srcdir, bib)).entries.items():
                names = [" ".join(p.last_names).replace("{", "").replace("}", "")
                         for p in entry.persons.get("author", [])]
                who = (names[0] if len(names) == 1 else " and ".join(names) if len(names) == 2
                       else f"{names[0]} et al." if names else key)
                cache[key] = (who, entry.fields.get("year", ""))
        setattr(app, "_coalg_bib", cache)  # noqa: B010 (Sphinx has no such attribute)

    def cite(role: str, keys: list[str]) -> str:
        found = [cache.get(k, (k, "")) for k in keys]
        if role.endswith(":t"):
            return "; ".join(f"{who} ({year})" for who, year in found)
        return "(" + "; ".join(f"{who} {year}".strip() for who, year in found) + ")"

    return cite


def _exercises(app: Sphinx, docname: str) -> Any:
    numbers = app.env.toc_fignumbers.get(docname, {}).get("exercise", {})

    def number(label: str) -> str:
        return ".".join(map(str, numbers[label])) if label in numbers else ""

    return number


def _executed(app: Sphinx, source: Path, ran: Path) -> Any:
    """The page's notebook with the outputs of this build, or None if there are none.

    myst-nb saves the page's notebook in ``jupyter_execute/``, but with ``execute_notebooks:
    cache`` that copy has no outputs (they are merged into another copy, on the page): they
    are taken from the execution cache, matched on the code as myst-nb read it.
    """
    import nbformat

    executed = nbformat.read(ran, as_version=4) if ran.is_file() else None
    if executed is not None and any(c.get("outputs") for c in executed.cells):
        return executed
    if app.config.nb_execution_mode != "cache" or executed is None:
        return executed
    from jupyter_cache import get_cache

    try:
        return get_cache(app.config.nb_execution_cache_path).merge_match_into_notebook(executed)[1]
    except KeyError:  # not in the cache: the page was built without running it
        return executed


def _offer_notebook(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    """Write the page's download (coalg_notebook.reader_notebook) and link it."""
    if app.builder.format != "html" or doctree is None:
        return
    source = Path(app.env.doc2path(pagename))
    if not (_is_myst_notebook(source) or source.suffix == ".ipynb"):
        return
    import jupytext  # jupyter-book depends on it
    import nbformat

    if str(HERE) not in sys.path:
        sys.path.insert(0, str(HERE))
    import coalg_notebook

    nb = jupytext.read(source, fmt="md:myst" if source.suffix == ".md" else "ipynb")
    ran = Path(app.outdir).parent / "jupyter_execute" / (pagename + ".ipynb")
    executed = _executed(app, source, ran)
    glue_file = ran.with_name(ran.stem + ".glue.json")
    glued = ({k: v.get("data", {}) for k, v in json.loads(glue_file.read_text(encoding="utf-8")).items()}
             if glue_file.is_file() else {})
    title = app.env.titles[pagename].astext() if pagename in app.env.titles else pagename
    number = app.env.toc_secnumbers.get(pagename, {}).get("")
    if number:
        title = ".".join(map(str, number)) + " " + title
    macros = (app.config.mathjax3_config or {}).get("tex", {}).get("macros", {})
    try:
        out = coalg_notebook.reader_notebook(
            nb, executed, title=title, install=INSTALL, macros=macros, glued=glued,
            resolve=_resolver(app, pagename), cite=_citer(app), exercise=_exercises(app, pagename))
    except ValueError as exc:
        logger.warning(f"{pagename}: the notebook to download has no outputs: {exc}", location=pagename)
        out = coalg_notebook.reader_notebook(nb, None, title=title, install=INSTALL, macros=macros)
    target = Path(app.outdir, "_sources", pagename + ".ipynb")
    target.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(out, target)
    if source.suffix == ".md":
        context["ipynb_source"] = pagename + ".ipynb"
    else:  # the page's own source button links this file; Sphinx must not copy the source over it
        context["coalg_download"] = pagename + ".ipynb"


def _keep_the_download(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    """A notebook page (``.ipynb``): Sphinx would copy its source over the download; it does not."""
    if context.get("coalg_download") and context.get("sourcename") == context["coalg_download"]:
        context["sourcename"] = ""


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

CACHE_INPUTS = ("coalg/**/*.py", "bench/results/**/*", "data/**/*", "tests/conformance/layers/*.py",
                "tools/sphinxext/ipython_kernel_config.py", "requirements*.txt", "pyproject.toml")
"""What the chapters' outputs depend on besides their own code, which jupyter-cache hashes itself
(the corpus chapter runs the layers of ``tests/conformance/layers``); a change to any of them runs
every chapter again."""


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


# ------------------------------------------------------------------ tables in the PDF

WIDE_TABLE = 10
"""Columns from which a table is set in a smaller type in the PDF (the corpus grid has 14)."""

LINE_CHARACTERS = 72
"""About how many characters of the body's type the PDF's line holds."""


def _words(text: nodes.Text) -> list[str]:
    """The pieces of ``text`` a line cannot break: LaTeX breaks at spaces and underscores, code
    also at dots; a formula counts by what it shows, without its macro names and braces."""
    t = text.astext()
    if isinstance(text.parent, nodes.math):
        t = re.sub(r"\\[a-zA-Z]+|[{}^]", "", t)
    code = isinstance(text.parent, nodes.literal)
    return [w for w in re.split(r"[\s._]+" if code else r"[\s_]+", t) if w]


def _longest(group: nodes.tgroup) -> tuple[list[int], list[int]]:
    """Each column's longest unbreakable word and longest cell, in characters."""
    cols = int(group.get("cols", 0))
    words, cells = [1] * cols, [1] * cols
    for row in group.findall(nodes.row):
        for k, entry in enumerate(e for e in row.children if isinstance(e, nodes.entry)):
            if k < cols:
                texts = list(entry.findall(nodes.Text))
                words[k] = max([words[k], *(len(w) for t in texts for w in _words(t))])
                cells[k] = max(cells[k], sum(len(t.astext()) for t in texts))
    return words, cells


def _column_widths(words: list[int], cells: list[int]) -> list[int]:
    """Shares of the line for columns whose longest words and cells are ``words`` and ``cells``
    (:func:`_longest`): room for the word (a quarter more for code's wider letters, three for the
    cell's padding), and for the cell six tenths of its length, up to 48 characters (long text
    wraps)."""
    return [max(round(1.25 * w) + 3, round(0.6 * min(c, 48))) for w, c in zip(words, cells)]


def _too_wide(words: list[int]) -> bool:
    """Whether a table whose columns' longest words are ``words`` needs the smaller type:
    :data:`WIDE_TABLE` columns or more, or words (with the cells' padding) that together fill
    more than :data:`LINE_CHARACTERS`."""
    return len(words) >= WIDE_TABLE or sum(w + 3 for w in words) > LINE_CHARACTERS


def _pdf_tables(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """In LaTeX, fit every table to the line.

    * Without given widths, a long table becomes a ``longtable`` of ``l`` columns, which never
      wrap (the traceability table and the notation ran off the page, their last columns lost),
      and a short one a ``tabulary``, which can leave a column narrower than its formulas (the
      letters of Chapter 3.3 were cut). Each table gets column widths in proportion to its
      longest words and cells instead, so its cells wrap and keep their words whole.
    * A table too wide for the body's type (:func:`_too_wide`) is set in ``\\footnotesize``: at
      the body's size its columns get less than their longest words and clip them.
    """
    if app.builder.format != "latex":
        return
    for table in list(doctree.findall(nodes.table)):
        group = next(iter(table.findall(nodes.tgroup)), None)
        if group is None:
            continue
        words, cells = _longest(group)
        if "colwidths-given" not in table["classes"]:
            specs = [c for c in group.children if isinstance(c, nodes.colspec)]
            for spec, width in zip(specs, _column_widths(words, cells)):
                spec["colwidth"] = width
            table["classes"].append("colwidths-given")
        if _too_wide(words):
            parent = table.parent
            at = parent.index(table)
            parent.insert(at + 1, nodes.raw("", "\\endgroup\n", format="latex"))
            parent.insert(at, nodes.raw("", "\\begingroup\\footnotesize\n", format="latex"))


def _pdf_exercise_links(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """In LaTeX, point a link to an exercise on another page at the exercise.

    sphinx-exercise labels an exercise ``exercise:<label>`` in the LaTeX, but a link from another
    page names ``<page>:<label>``, which no label carries: the PDF showed the link's text and led
    nowhere.  Such a link is rewritten to the exercise's own label.
    """
    if app.builder.format != "latex":
        return
    registry = getattr(app.env, "sphinx_exercise_registry", {})
    exercises = {label for label, entry in registry.items() if entry.get("type") == "exercise"}
    for ref in doctree.findall(nodes.reference):
        uri = ref.get("refuri", "")
        _, anchored, label = uri.rpartition("#")
        if uri.startswith("%") and anchored and label in exercises:
            ref["refuri"] = "%exercise#" + label


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_role("recon", _recon_role)
    app.add_config_value("coalg_exercise_prefix", {}, "env")
    app.connect("config-inited", _kernel_profile)
    app.connect("config-inited", _latex_macros)
    app.connect("config-inited", _execution_cache)
    app.connect("env-get-updated", _restore_stock_numbers, priority=100)
    app.connect("env-get-updated", _renumber_exercises, priority=900)
    app.connect("env-get-updated", _rewrite_results_pages)
    app.connect("doctree-resolved", _pdf_tables)
    app.connect("doctree-resolved", _pdf_exercise_links)
    app.add_node(results_index)
    app.add_directive("results-index", ResultsIndexDirective)
    app.connect("doctree-read", _collect_results)
    app.connect("doctree-read", _adopt_nodes, priority=900)
    app.connect("env-purge-doc", _purge_results)
    app.connect("env-merge-info", _merge_results)
    app.connect("doctree-resolved", _fill_results_index)
    app.connect("html-page-context", _offer_notebook)
    app.connect("html-page-context", _keep_the_download, priority=900)
    app.connect("html-page-context", _drop_thebe)
    from sphinx_proof.domain import ProofIndex

    ProofIndex.generate = _titled_proof_index  # type: ignore[method-assign]
    ProofIndex.localname = "Index of definitions and results"
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True,
            "env_version": 1}
