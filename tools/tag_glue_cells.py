"""Keep the chapters' glue calls off the web page (they stay in the source and still run).

    python tools/tag_glue_cells.py            move and tag the glue calls still shown
    python tools/tag_glue_cells.py --check    only name the chapters that show some (exit 1)
    python tools/tag_glue_cells.py FILE ...   the same for the given chapters only

``glue(name, value, display=False)`` (``myst_nb.glue``) hands a value to the text around a
cell; the value is in the text already, so the call is build plumbing a reader need not see.

* A cell whose every statement is such a call gets the tag ``remove-cell``: the book runs it
  and does not show it; the notebook a reader downloads keeps it.
* A cell that also computes or prints something keeps that part; its top-level glue calls
  (and its ``from myst_nb import glue`` line, when no glue call is left in it) move to a new
  cell right after it, tagged ``remove-cell``.  A call moves only when nothing after it in
  the cell rebinds, or calls a method of, a name it reads: the value glued is then the same.
  A cell is left whole when the move would make another expression its last line (whose
  value the page would then show).

Chapters are rewritten through jupytext and then put back in the form JupyterLab saves
(``tools/chapter_form.py``), so the script changes only cells and tags.
"""

from __future__ import annotations

import argparse
import ast
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import chapter_form  # a sibling script

TAG = "remove-cell"
SUPERSEDED = {"hide-input", "remove-input", "hide-output", "remove-output", "hide-cell"}


def _is_glue(stmt: ast.stmt) -> bool:
    """A top-level ``glue(..., display=False)`` call (one that shows nothing where it runs)."""
    if not (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call)
            and isinstance(stmt.value.func, ast.Name) and stmt.value.func.id == "glue"):
        return False
    return any(k.arg == "display" and isinstance(k.value, ast.Constant) and k.value.value is False
               for k in stmt.value.keywords)


def _is_glue_import(stmt: ast.stmt) -> bool:
    return (isinstance(stmt, ast.ImportFrom) and stmt.module == "myst_nb"
            and [a.name for a in stmt.names] == ["glue"] and stmt.names[0].asname is None)


def _reads(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _touches(stmt: ast.stmt, names: set[str]) -> bool:
    """Whether ``stmt`` may change what ``names`` are: rebinds one, or calls one's method."""
    for n in ast.walk(stmt):
        if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load) and n.id in names:
            return True
        if (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                and isinstance(n.func.value, ast.Name) and n.func.value.id in names):
            return True
    return False


def split(source: str) -> tuple[str, str] | None:
    r"""``(kept, moved)``: the cell without its movable glue calls, and those calls; else None.

    >>> split('n = len(xs)\nglue("n", n, display=False)\nprint(n)')
    ('n = len(xs)\nprint(n)', 'glue("n", n, display=False)')
    >>> split('glue("n", 3, display=False)')
    ('', 'glue("n", 3, display=False)')
    >>> split('glue("n", n, display=False)\nn += 1'), split("print(1)")
    (None, None)
    >>> split('ax.plot(xs)\nglue("n", 3, display=False)') is None  # plot() would be shown
    True
    """
    try:
        tree = ast.parse(source)
    except SyntaxError:  # IPython syntax (a magic): left alone
        return None
    body = tree.body
    moved = []
    for k, stmt in enumerate(body):
        if _is_glue(stmt) and not any(_touches(later, _reads(stmt)) for later in body[k + 1:]):
            moved.append(stmt)
    if not moved:
        return None
    rest = [s for s in body if s not in moved]
    if rest and body[-1] in moved and isinstance(rest[-1], ast.Expr) and not (
            isinstance(rest[-1].value, ast.Call) and isinstance(rest[-1].value.func, ast.Name)
            and rest[-1].value.func.id in ("print", "display")):
        return None  # its value would become the cell's output: the page would change
    still_glued = any(isinstance(n, ast.Name) and n.id == "glue"
                      for stmt in body if stmt not in moved and not _is_glue_import(stmt)
                      for n in ast.walk(stmt))
    if not still_glued:
        moved = [s for s in body if _is_glue_import(s)] + moved
    lines = source.splitlines()
    taken: set[int] = set()
    for stmt in moved:
        taken.update(range(stmt.lineno - 1, (stmt.end_lineno or stmt.lineno)))
    kept = [line for i, line in enumerate(lines) if i not in taken]
    out = [line for i, line in enumerate(lines) if i in taken]
    text = "\n".join(kept).strip("\n")
    text = "\n".join(line.rstrip() for line in text.splitlines())
    while "\n\n\n" in text:
        text = text.replace("\n\n\n", "\n\n")
    return text, "\n".join(out)


def pending(nb: Any) -> list[int]:
    """Indices of the code cells that still show a movable glue call."""
    return [k for k, cell in enumerate(nb.cells)
            if cell.cell_type == "code" and TAG not in cell.metadata.get("tags", [])
            and split(cell.source) is not None]


def tag(path: Path) -> int:
    """Move and tag the glue calls of ``path``; return how many cells were changed."""
    import jupytext  # type: ignore[import-untyped]
    import nbformat

    nb = jupytext.read(path)
    todo = pending(nb)
    for k in reversed(todo):
        cell = nb.cells[k]
        parts = split(cell.source)
        assert parts is not None
        kept, moved = parts
        if not kept.strip():
            tags = [t for t in cell.metadata.get("tags", []) if t not in SUPERSEDED]
            cell.metadata["tags"] = [*tags, TAG]
            continue
        cell.source = kept
        glue_cell = nbformat.v4.new_code_cell(moved, metadata={"tags": [TAG]})  # type: ignore[no-untyped-call]
        nb.cells.insert(k + 1, glue_cell)
    if todo:
        jupytext.write(nb, path, fmt="md:myst")
    return len(todo)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only name the chapters to tag")
    parser.add_argument("files", nargs="*", type=Path)
    args = parser.parse_args(argv)
    paths = args.files or chapter_form.chapters()
    import jupytext

    todo = {p: pending(jupytext.read(p)) for p in paths}
    todo = {p: cells for p, cells in todo.items() if cells}
    if args.check:
        for p, cells in todo.items():
            print(f"{p}: {len(cells)} cells show glue calls on the page")
        return 1 if todo else 0
    for p in todo:
        print(f"{p}: glue calls of {tag(p)} cells moved out of sight ({TAG})")
    if todo:
        return chapter_form.main([str(p) for p in todo])
    return 0


if __name__ == "__main__":
    sys.exit(main())
