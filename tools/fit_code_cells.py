#!/usr/bin/env python3
"""Keep the book's code cells within 80 columns.

``python tools/fit_code_cells.py [--check] [FILE ...]`` (default: every ``book/*.md``).

Without ``--check`` every statement that has a line longer than 80 columns is
re-wrapped by ``ruff format`` (only that statement: ``--range``; quotes and the
rest of the cell are left as written; a trailing comment that makes a line long moves
above it).  Import statements are exempt while ``IMPORTS_EXEMPT`` is set.  Lines ruff cannot shorten (a long string
or comment) are listed for a person to split.  With ``--check`` nothing is
written and the exit status is 1 when a line is too long.
"""

from __future__ import annotations

import argparse
import ast
import io
import re
import shutil
import subprocess
import sys
import tempfile
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LIMIT = 80
# Import statements are left as written for now: the library's modules are being split,
# and the chapters' import lines are being rewritten for it in parallel. Re-wrapping them
# here too would collide with that work; set this to False once it has landed.
IMPORTS_EXEMPT = False
CELL = re.compile(r"^```\{code-cell\}[^\n]*\n(.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)


def _ruff() -> str:
    beside = Path(sys.executable).parent / "ruff"
    found = str(beside) if beside.exists() else shutil.which("ruff")
    if not found:
        sys.exit("ruff is not installed (it is in requirements.txt)")
    return found


def _split_front_matter(body: str) -> tuple[str, str]:
    """A cell's option lines (``:tags: …`` or a ``---`` YAML block) and its code."""
    if body.startswith("---\n"):
        end = body.index("\n---\n", 4) + 5
        return body[:end], body[end:]
    lines = body.split("\n")
    k = 0
    while k < len(lines) and lines[k].startswith(":"):
        k += 1
    if k and k < len(lines) and lines[k] == "":
        k += 1
    return "\n".join(lines[:k]) + ("\n" if k else ""), "\n".join(lines[k:])


def _lift_trailing_comments(code: str) -> str:
    """A long line whose trailing comment is what makes it long: the comment goes above it."""
    lines = code.split("\n")
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(code).readline))
    except (tokenize.TokenError, SyntaxError):
        return code
    comments = {t.start[0]: t for t in tokens if t.type == tokenize.COMMENT}
    out: list[str] = []
    for n, line in enumerate(lines, start=1):
        tok = comments.get(n)
        if tok is not None and len(line) > LIMIT and line[: tok.start[1]].strip():
            head = line[: tok.start[1]].rstrip()
            indent = line[: len(line) - len(line.lstrip())]
            out.append(indent + tok.string)
            out.append(head)
        else:
            out.append(line)
    return "\n".join(out)


def _import_lines(code: str) -> set[int]:
    """Line numbers of import statements (left as written, see the module's docstring)."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return set()
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found.update(range(node.lineno, (node.end_lineno or node.lineno) + 1))
    return found


def _format_long_statements(code: str, ruff: str) -> str:
    magic = [ln for ln in code.split("\n") if ln.lstrip().startswith(("%", "!"))]
    if magic:
        return code
    code = _lift_trailing_comments(code)
    stuck: set[str] = set()
    for _ in range(60):
        lines = code.split("\n")
        skip = _import_lines(code)
        todo = [n for n, ln in enumerate(lines, 1)
                if len(ln) > LIMIT and ln not in stuck and n not in skip]
        if not todo:
            return code
        n = todo[0]
        with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
            f.write(code)
            tmp = Path(f.name)
        try:
            subprocess.run(
                [ruff, "format", "--no-cache", "--quiet", "--line-length", str(LIMIT),
                 "--config", "format.quote-style='preserve'",
                 f"--range={n}:1-{n + 1}:1", str(tmp)],
                check=False, capture_output=True,
            )
            new = tmp.read_text()
        finally:
            tmp.unlink()
        if new == code or lines[n - 1] in new.split("\n"):
            stuck.add(lines[n - 1])
        code = _keep_final_semicolon(code, new)
    return code


def _keep_final_semicolon(old: str, new: str) -> str:
    """A cell's last line may end in ``;`` to hide its value; ruff drops it, we keep it."""
    old_last = old.rstrip("\n").split("\n")[-1]
    new_lines = new.rstrip("\n").split("\n")
    if old_last.rstrip().endswith(";") and not new_lines[-1].rstrip().endswith(";"):
        new_lines[-1] = new_lines[-1].rstrip() + ";"
    return "\n".join(new_lines) + "\n"


def process(path: Path, *, check: bool, ruff: str) -> list[str]:
    text = path.read_text(encoding="utf-8")
    problems: list[str] = []
    out: list[str] = []
    pos = 0
    for m in CELL.finditer(text):
        head, code = _split_front_matter(m.group(1))
        if not check:
            new = _format_long_statements(code.rstrip("\n") + "\n", ruff)
            code = new
        start_line = text[: m.start(1)].count("\n") + 1 + head.count("\n")
        imports = _import_lines(code) if IMPORTS_EXEMPT else set()
        for k, ln in enumerate(code.split("\n")):
            if len(ln) > LIMIT and k + 1 not in imports:
                problems.append(f"{path.relative_to(ROOT)}:{start_line + k}: {len(ln)} columns")
        out.append(text[pos : m.start(1)] + head + code.rstrip("\n") + "\n")
        pos = m.end(1)
    out.append(text[pos:])
    new_text = "".join(out)
    if not check and new_text != text:
        path.write_text(new_text, encoding="utf-8")
    return problems


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="*", type=Path)
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()
    files = [f.resolve() for f in a.files] or sorted((ROOT / "book").glob("*.md"))
    ruff = "" if a.check else _ruff()
    problems = [p for f in files for p in process(f, check=a.check, ruff=ruff)]
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
