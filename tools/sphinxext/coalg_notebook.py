"""The notebook a chapter page offers for download, made for a reader's own JupyterLab.

A chapter is written in MyST Markdown for the web book: its text holds directives
(``:::{prf:theorem}``, ``{exercise}``, admonitions), roles (``{prf:ref}``,
``{glue:text}``, ``{cite:p}``) and the book's TeX macros, none of which a plain
JupyterLab understands.  :func:`reader_notebook` turns the chapter and its executed
copy (the build's ``jupyter_execute/<page>.ipynb``) into a notebook that reads and runs
anywhere ``coalg`` is installed:

* its first cell says what the notebook is and how to get ``coalg``, and defines the
  book's macros for the notebook's MathJax;
* every code cell keeps the outputs of the build (and the widgets' saved state);
* directives become ordinary Markdown: a theorem or definition a bold heading and its
  text, an admonition a quotation, an exercise a bold "Exercise" heading, a solution a
  bold "Solution" line; index entries, targets and comments are dropped;
* roles become text: a cross-reference its title (or the text written for it), a glued
  value the value the build computed, a citation "(Author year)";
* ``from myst_nb import glue`` falls back to a function that does nothing when myst-nb
  is not installed (the values it records are already written into the text).

The module is plain Python (no Sphinx), so tests can call it on any chapter.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["GLUE_IMPORT", "plain_markdown", "reader_notebook", "setup_cell"]

GLUE_IMPORT = """\
try:
    from myst_nb import glue  # the web book's build writes these values into the text
except ImportError:  # elsewhere the values are already in the text: glue records nothing

    def glue(name, value, display=True):
        return None"""

_FENCE = re.compile(r"^(?P<indent> {0,3})(?P<fence>`{3,}|:{3,})(?P<rest>.*)$")
_DIRECTIVE = re.compile(r"^\{(?P<name>[\w:.-]+)\}\s*(?P<arg>.*)$")
_OPTION = re.compile(r"^:(?P<key>[\w-]+):\s*(?P<value>.*)$")
_TARGET = re.compile(r"^\s*\([\w:.-]+\)=\s*$")
_COMMENT = re.compile(r"^\s*%")
# A role, or an inline code span (kept as written: a role inside code is code).
_INLINE = re.compile(r"\{(?P<role>[\w:.-]+)\}(?P<tick>`+)(?P<body>.+?)(?P=tick)|(?P<code>(`+).+?\5)",
                     re.DOTALL)
_EXPLICIT = re.compile(r"^(?P<text>.*?)\s*<(?P<target>[^<>]+)>$", re.DOTALL)
_GLUE_LINE = re.compile(r"^from myst_nb import glue[ \t]*$", re.MULTILINE)

ADMONITIONS = ("admonition", "note", "tip", "hint", "important", "warning", "caution",
               "attention", "danger", "error", "seealso")
DROPPED = ("index", "tableofcontents", "results-index", "nb-exec-table", "eval-rst")

# Resolves a cross-reference without text of its own: (role, target) -> title, or None.
Resolver = Callable[[str, str], "str | None"]


def _glue_text(data: Mapping[str, Any], mime: str, spec: str) -> str | None:
    value = data.get(mime)
    if value is None:
        return None
    text = value if isinstance(value, str) else "".join(value)
    if mime == "text/plain":
        text = text.strip()
        if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
            text = text[1:-1]
        if spec:
            try:
                number: float = int(text) if re.fullmatch(r"-?\d+", text) else float(text)
                text = format(number, spec)
            except ValueError:
                pass
    return text


class _Converter:
    def __init__(self, glue: Mapping[str, Mapping[str, Any]], resolve: Resolver,
                 cite: Callable[[str, list[str]], str], exercise: Callable[[str], str]) -> None:
        self.glue = glue
        self.resolve = resolve
        self.cite = cite
        self.exercise = exercise

    # ---------------------------------------------------------------- roles

    def role(self, name: str, body: str) -> str:
        if name in ("glue", "glue:", "glue:any", "glue:text", "glue:md"):
            key, _, spec = body.strip().partition(":")
            key = key.split("::")[-1]
            data = self.glue.get(key, {})
            mimes = ("text/markdown", "text/plain") if name in ("glue:md", "glue", "glue:any") else ("text/plain",)
            for mime in mimes:
                text = _glue_text(data, mime, spec)
                if text is not None:
                    return text
            return key
        if name == "math":
            return f"${body}$"
        if name in ("sub", "sup"):
            return f"<{name}>{body}</{name}>"
        if name.startswith("cite"):
            return self.cite(name, [k.strip() for k in body.split(",") if k.strip()])
        explicit = _EXPLICIT.match(body)
        if explicit and explicit["text"]:
            text = explicit["text"]
            if name == "numref" and ("{number}" in text or "%s" in text):
                number = self.resolve("numref:number", explicit["target"]) or ""
                text = text.replace("{number}", number).replace("%s", number)
            return " ".join(text.split())
        target = explicit["target"] if explicit else body
        if name == "eq":
            return f"({target})"
        if name.startswith("py:") or name in ("func", "class", "mod", "meth", "attr", "data"):
            return f"`{target.lstrip('~.!')}`"
        if name in ("ref", "numref", "doc", "prf:ref", "any", "term", "index", "abbr", "download"):
            found = self.resolve(name, target)
            return found if found else target
        return body

    def inline(self, text: str) -> str:
        def one(m: re.Match[str]) -> str:
            if m["code"] is not None:
                return m["code"]
            return self.role(m["role"], m["body"])

        return _INLINE.sub(one, text)

    # ---------------------------------------------------------------- blocks

    def block(self, lines: list[str]) -> list[str]:
        out: list[str] = []
        i = 0
        while i < len(lines):
            line = lines[i]
            fence = _FENCE.match(line)
            if fence is None:
                if not (_TARGET.match(line) or _COMMENT.match(line)):
                    out.append(self.inline(line))
                i += 1
                continue
            mark = fence["fence"]
            end = self._closing(lines, i + 1, mark)
            body = lines[i + 1:end]
            i = end + 1
            directive = _DIRECTIVE.match(fence["rest"].strip())
            if directive is None:  # an ordinary code block: verbatim
                out += [line, *body, mark[0] * len(mark)]
                continue
            out += self.directive(directive["name"], directive["arg"].strip(), body)
        return out

    @staticmethod
    def _closing(lines: list[str], start: int, mark: str) -> int:
        depth = 0
        for j in range(start, len(lines)):
            m = _FENCE.match(lines[j])
            if m is None or m["fence"][0] != mark[0] or len(m["fence"]) < len(mark):
                continue
            if m["rest"].strip():
                depth += 1
            elif depth:
                depth -= 1
            else:
                return j
        return len(lines)

    @staticmethod
    def _options(body: list[str]) -> tuple[dict[str, str], list[str]]:
        options: dict[str, str] = {}
        k = 0
        if body and body[0].strip() == "---":
            end = next((j for j in range(1, len(body)) if body[j].strip() == "---"), 0)
            for line in body[1:end]:
                key, _, value = line.partition(":")
                options[key.strip()] = value.strip()
            k = end + 1
        while k < len(body) and (m := _OPTION.match(body[k].strip())):
            options[m["key"]] = m["value"]
            k += 1
        return options, body[k:]

    def directive(self, name: str, arg: str, raw: list[str]) -> list[str]:
        options, body = self._options(raw)
        if name in DROPPED or name == "solution-end":
            return []
        if name == "bibliography":
            return ["*The references are listed at the end of this page in the web book.*"]
        inner = self.block(body)
        while inner and not inner[0].strip():
            inner.pop(0)
        if name.startswith("prf:"):
            kind = name[4:].title()
            head = f"**{kind} {self.inline(arg)}.**" if arg else f"**{kind}.**"
            return ["", head, "", *inner, ""]
        if name in ADMONITIONS:
            title = self.inline(arg) if arg else name.title()
            quoted = [f"> {line}" if line.strip() else ">" for line in ["", *inner]]
            while quoted and quoted[-1] == ">":
                quoted.pop()
            return ["", f"> **{title}**", *quoted, ""]
        if name == "exercise":
            number = self.exercise(options.get("label", ""))
            head = f"**Exercise {number}**" if number else "**Exercise**"
            head += f" ({self.inline(arg)})" if arg else ""
            return ["", head, "", *inner, ""]
        if name == "solution-start":
            return ["", "**Solution**", ""]
        if name == "rubric":
            return ["", f"**{self.inline(arg)}**", ""]
        if name == "math":
            return ["", "$$", *body, "$$", ""]
        if name in ("code-block", "code"):
            return ["```" + arg, *body, "```"]
        if name in ("figure", "image"):
            return ["", f"![{' '.join(inner).strip()}]({arg})", ""]
        return ["", *( [f"**{self.inline(arg)}**", ""] if arg else []), *inner, ""]


def plain_markdown(text: str, *, glue: Mapping[str, Mapping[str, Any]] | None = None,
                   resolve: Resolver | None = None,
                   cite: Callable[[str, list[str]], str] | None = None,
                   exercise: Callable[[str], str] | None = None) -> str:
    """MyST Markdown ``text`` as Markdown a plain Jupyter renders (see the module docstring).

    >>> print(plain_markdown(":::{prf:theorem} 5.7 (Stability)\\n:label: thm-5-7\\nIt holds.\\n:::"))
    **Theorem 5.7 (Stability).**
    <BLANKLINE>
    It holds.
    >>> plain_markdown("see {prf:ref}`Lemma 5.6 <lem-5-6>` and `{x}`")
    'see Lemma 5.6 and `{x}`'
    """
    conv = _Converter(glue or {}, resolve or (lambda role, target: None),
                      cite or (lambda role, keys: "(" + "; ".join(keys) + ")"),
                      exercise or (lambda label: ""))
    lines = conv.block(text.splitlines())
    squeezed: list[str] = []
    for line in lines:
        if not line.strip() and (not squeezed or not squeezed[-1].strip()):
            continue
        squeezed.append(line.rstrip())
    while squeezed and not squeezed[-1].strip():
        squeezed.pop()
    return "\n".join(squeezed)


def setup_cell(title: str, macros: Mapping[str, Any], install: str) -> str:
    """The first cell: what the notebook is, how to get ``coalg``, the book's TeX macros."""
    defs = []
    for name, body in macros.items():
        if isinstance(body, list):
            defs.append(f"\\newcommand{{\\{name}}}[{int(body[1])}]{{{body[0]}}}")
        else:
            defs.append(f"\\newcommand{{\\{name}}}{{{body}}}")
    lines = [(f"*{title}*, a page of the web book *Coalgebraic Memory, an executable textbook*, "
              "with the outputs of the book's build."), "",
             f"To run it you need the `coalg` library: {install}"]
    if defs:
        lines += ["", "$" + " ".join(defs) + "$"]
    return "\n".join(lines)


def glue_values(executed: Any) -> dict[str, dict[str, Any]]:
    """Every value a notebook glued: ``{name: {mime: data}}`` (the mime prefix removed)."""
    found: dict[str, dict[str, Any]] = {}
    for cell in executed.cells:
        for output in cell.get("outputs", []) if cell.cell_type == "code" else []:
            meta = output.get("metadata", {}).get("scrapbook")
            if not meta:
                continue
            prefix = meta.get("mime_prefix", "")
            found[meta["name"]] = {k[len(prefix):]: v for k, v in output.get("data", {}).items()}
    return found


def reader_notebook(source: Any, executed: Any | None, *, title: str, install: str,
                    macros: Mapping[str, Any] | None = None,
                    glued: Mapping[str, Mapping[str, Any]] | None = None,
                    resolve: Resolver | None = None,
                    cite: Callable[[str, list[str]], str] | None = None,
                    exercise: Callable[[str], str] | None = None) -> Any:
    """The download: ``source`` (the chapter, outputs-free) with ``executed``'s outputs, plain text.

    ``executed`` must hold the same code cells in the same order (the build's executed copy);
    ``ValueError`` says which cell differs.  ``None`` gives a notebook without outputs.
    ``glued``: values glued by the build, ``{name: {mime: data}}`` (myst-nb keeps them beside
    the executed copy, in ``<page>.glue.json``), added to those still in ``executed``.
    """
    import nbformat

    nb = copy.deepcopy(source)
    nb.metadata.pop("jupytext", None)
    glue: dict[str, Any] = dict(glued or {})
    if executed is not None:
        ran = [c for c in executed.cells if c.cell_type == "code"]
        mine = [c for c in nb.cells if c.cell_type == "code"]
        if len(ran) != len(mine):
            raise ValueError(f"the executed notebook has {len(ran)} code cells, the chapter {len(mine)}")
        for k, (cell, done) in enumerate(zip(mine, ran, strict=True)):
            if cell.source.strip() != done.source.strip():
                raise ValueError(f"code cell {k + 1} differs from the executed notebook's")
            cell.outputs = [o for o in copy.deepcopy(done.get("outputs", []))
                            if "scrapbook" not in o.get("metadata", {})
                            or not o["metadata"]["scrapbook"].get("mime_prefix")]
            cell.execution_count = done.get("execution_count")
        glue.update(glue_values(executed))
        for key in ("language_info", "widgets"):
            if key in executed.metadata:
                nb.metadata[key] = copy.deepcopy(executed.metadata[key])
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.source = _GLUE_LINE.sub(GLUE_IMPORT, cell.source)
        elif cell.cell_type == "markdown":
            cell.source = plain_markdown(cell.source, glue=glue, resolve=resolve, cite=cite,
                                         exercise=exercise)
    # A figure's caption (and its number, which the text refers to) under its cell.
    captioned = []
    for cell in nb.cells:
        captioned.append(cell)
        figure = cell.metadata.get("mystnb", {}).get("figure", {}) if cell.cell_type == "code" else {}
        if figure.get("caption"):
            number = (resolve or (lambda role, target: None))("numref", str(figure.get("name", "")))
            caption = plain_markdown(str(figure["caption"]), glue=glue, resolve=resolve, cite=cite)
            captioned.append(nbformat.v4.new_markdown_cell(  # type: ignore[no-untyped-call]
                f"*{number or 'Figure'}: {caption}*"))
    nb.cells = [c for c in captioned if c.cell_type != "markdown" or c.source.strip()]
    first = nbformat.v4.new_markdown_cell(setup_cell(title, macros or {}, install))  # type: ignore[no-untyped-call]
    nb.cells.insert(0, first)
    return nb
