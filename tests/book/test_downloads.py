"""The notebook a chapter page offers for download (tools/sphinxext/coalg_notebook.py), without a build.

The built downloads themselves are checked in test_book_build.py (outputs, plain Markdown,
a run in a plain kernel); here the conversion is checked on every chapter's own text and on
small notebooks made in the test.
"""

from __future__ import annotations

import builtins
import re
import sys
from pathlib import Path
from typing import Any

import jupytext
import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools" / "sphinxext"))

import coalg_notebook  # from tools/sphinxext, put on the path above

CHAPTERS = sorted(p for p in (ROOT / "book").glob("*.md")
                  if p.read_text(encoding="utf-8").startswith("---\njupytext:"))
# What a plain Jupyter shows as text, not as the book's markup.
MARKUP = re.compile(r"^\s*(?:`{3,}|:{3,})\{[\w:.-]+\}|\{[\w:.-]+\}`|^\s*\([\w:.-]+\)=\s*$",
                    re.MULTILINE)


def _code_spans_removed(text: str) -> str:
    """The text without code blocks and inline code (where a role is only an example)."""
    text = re.sub(r"^(`{3,})(?!\{).*?^\1\s*$", "", text, flags=re.MULTILINE | re.DOTALL)
    return re.sub(r"(`+).+?\1", "", text, flags=re.DOTALL)


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda p: p.stem)
def test_every_chapter_reads_as_plain_markdown(chapter: Path) -> None:
    nb = jupytext.read(chapter)
    for cell in nb.cells:
        if cell.cell_type != "markdown":
            continue
        plain = coalg_notebook.plain_markdown(cell.source)
        left = MARKUP.findall(_code_spans_removed(plain))
        assert not left, f"{chapter.name}: markup left in {plain[:200]!r}: {left}"


def test_directives_and_roles_become_text() -> None:
    text = """\
(sec-x)=
% a comment
:::{prf:definition} 3.16 (The lineage functor)
:label: def-3-16

A functor {glue:text}`n:.1f` times; see {prf:ref}`def-3-2` and {ref}`the laws <laws>`.
:::

```{admonition} Before you start
:class: reading-path
Read {cite:p}`rutten2000`.
```

```{index} lineage
```

```{exercise}
:label: ex-1
Try it.
```

```python
{x}`kept as code`
```
"""
    plain = coalg_notebook.plain_markdown(
        text,
        glue={"n": {"text/plain": "2.25"}},
        resolve=lambda role, target: {"def-3-2": "Definition 3.2 (Records)"}.get(target),
        cite=lambda role, keys: "(Rutten 2000)",
        exercise=lambda label: "5.10.1" if label == "ex-1" else "",
    )
    assert plain.splitlines()[0] == "**Definition 3.16 (The lineage functor).**"
    assert "A functor 2.2 times; see Definition 3.2 (Records) and the laws." in plain
    assert "> **Before you start**" in plain and "> Read (Rutten 2000)." in plain
    assert "lineage" not in plain.replace("lineage functor", "")
    assert "**Exercise 5.10.1**" in plain and "Try it." in plain
    assert "```python\n{x}`kept as code`\n```" in plain
    assert "(sec-x)=" not in plain and "a comment" not in plain


def _notebook(*sources: str) -> Any:
    return nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell(s) if not s.startswith("#") else nbformat.v4.new_markdown_cell(s)
        for s in sources])


def test_outputs_come_from_the_executed_copy_and_glue_fills_the_text() -> None:
    source = _notebook("# Count: {glue:text}`n`", "from myst_nb import glue\nglue('n', 7, display=False)",
                       "print('hi')")
    ran = _notebook("# Count: {glue:text}`n`", "from myst_nb import glue\nglue('n', 7, display=False)",
                    "print('hi')")
    ran.cells[1].outputs = [nbformat.v4.new_output(
        "display_data", data={"application/papermill.record/text/plain": "7"},
        metadata={"scrapbook": {"name": "n", "mime_prefix": "application/papermill.record/"}})]
    ran.cells[2].outputs = [nbformat.v4.new_output("stream", name="stdout", text="hi\n")]
    out = coalg_notebook.reader_notebook(source, ran, title="T", install="pip install -e .",
                                         macros={"Rec": "\\mathrm{Rec}", "beh": ["[#1]", 1]})
    nbformat.validate(out)
    assert "pip install -e ." in out.cells[0].source
    assert "\\newcommand{\\Rec}{\\mathrm{Rec}}" in out.cells[0].source
    assert "\\newcommand{\\beh}[1]{[#1]}" in out.cells[0].source
    assert out.cells[1].source == "# Count: 7"
    assert out.cells[2].outputs == []  # the glued value is in the text, not shown twice
    assert out.cells[3].outputs[0]["text"] == "hi\n"
    assert source.cells[2].get("outputs") == []  # the chapter itself is not changed


def test_a_different_executed_copy_is_refused() -> None:
    with pytest.raises(ValueError, match="code cell 1 differs"):
        coalg_notebook.reader_notebook(_notebook("x = 1"), _notebook("x = 2"), title="T", install="")
    with pytest.raises(ValueError, match="1 code cells, the chapter 2"):
        coalg_notebook.reader_notebook(_notebook("x = 1", "y = 2"), _notebook("x = 1"), title="T",
                                       install="")


def test_glue_falls_back_when_myst_nb_is_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    real_import = builtins.__import__

    def no_myst_nb(name: str, *args: Any, **kwargs: Any) -> Any:
        if name.startswith("myst_nb"):
            raise ImportError(f"No module named {name!r}")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_myst_nb)
    scope: dict[str, Any] = {}
    exec(coalg_notebook.GLUE_IMPORT + "\nglue('n', 3, display=False)\n", scope)  # noqa: S102
    assert scope["glue"]("n", 3) is None


def test_a_figure_keeps_its_number_and_caption() -> None:
    source = _notebook("plot()")
    source.cells[0].metadata["mystnb"] = {"figure": {"caption": "Time against $n$.", "name": "fig-x"}}
    out = coalg_notebook.reader_notebook(
        source, None, title="T", install="",
        resolve=lambda role, target: "Fig. 4" if (role, target) == ("numref", "fig-x") else None)
    assert [c.cell_type for c in out.cells] == ["markdown", "code", "markdown"]
    assert out.cells[2].source == "*Fig. 4: Time against $n$.*"
    assert coalg_notebook.plain_markdown("see {numref}`fig-x`", resolve=lambda r, t: "Fig. 4") == "see Fig. 4"


def test_no_chapter_shows_a_glue_call() -> None:
    """tools/tag_glue_cells.py --check: every movable glue call sits in a hidden cell."""
    import doctest
    import subprocess

    sys.path.insert(0, str(ROOT / "tools"))
    import tag_glue_cells

    assert doctest.testmod(tag_glue_cells).failed == 0
    proc = subprocess.run([sys.executable, str(ROOT / "tools" / "tag_glue_cells.py"), "--check"],
                          cwd=ROOT, capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
