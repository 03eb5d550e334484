"""Prepare JupyterLab for `make lab`: copies to play with, and the landing notebook.

    python tools/lab_prepare.py [--scratch DIR]      (DIR defaults to scratch/)

1. Copies every chapter and explorer listed in _toc.yml, and the folders chapters read files
   from (data/, bench/), into DIR (git-ignored), keeping their paths:
   book/03-6-laws.md -> scratch/book/03-6-laws.md. A copy that already exists is never
   overwritten, so your edits survive the next start; delete a copy to get a fresh one.
   Chapters find their files the same way from a copy: `../data/sample-contextfs.db` from
   scratch/book/ is scratch/data/sample-contextfs.db, `../bench` is scratch/bench.
2. Writes DIR/START.ipynb, the page `make lab` opens on: the chapters in book order and the
   explorers, each a link to its copy and to its source.

Only the standard library and PyYAML (installed with Jupyter Book) are used.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
LANDING = "START.ipynb"
# Folders whose files chapters open by relative path (the sample database; the benchmark
# generator and the committed results). tests/test_lab.py runs those chapters from a copy.
SUPPORT = ("data", "bench")
SKIP_PARTS = ("__pycache__", "tmp", ".ipynb_checkpoints")
JUPYTEXT_HEADER = "---\njupytext:"


class PrepareError(Exception):
    """Bad input (a broken _toc.yml, a missing chapter, an unusable scratch directory)."""


@dataclass(frozen=True)
class Entry:
    """One page of the table of contents."""

    path: str  # relative to ROOT, with its suffix
    title: str
    number: str  # "3.1" in numbered parts, "" elsewhere
    depth: int  # 0 for a chapter, 1 for its sections
    notebook: bool  # a jupytext chapter or an .ipynb (False for plain Markdown pages)


@dataclass(frozen=True)
class Part:
    caption: str
    entries: tuple[Entry, ...]


def _resolve(stem: str) -> Path:
    for suffix in (".md", ".ipynb"):
        path = ROOT / f"{stem}{suffix}"
        if path.is_file():
            return path
    raise PrepareError(f"_toc.yml lists {stem!r}, but neither {stem}.md nor {stem}.ipynb exists")


def _title(path: Path) -> str:
    if path.suffix == ".ipynb":
        cells = json.loads(path.read_text(encoding="utf-8")).get("cells", [])
        lines = [line for c in cells if c.get("cell_type") == "markdown"
                 for line in "".join(c.get("source", "")).splitlines()]
    else:
        lines = path.read_text(encoding="utf-8").splitlines()
    for line in lines:
        if line.startswith("# "):
            return line[2:].strip()
    return path.stem


def _entry(stem: str, number: str, depth: int) -> Entry:
    path = _resolve(stem)
    notebook = path.suffix == ".ipynb" or path.read_text(encoding="utf-8").startswith(JUPYTEXT_HEADER)
    return Entry(path.relative_to(ROOT).as_posix(), _title(path), number, depth, notebook)


def read_toc(toc: Path = ROOT / "_toc.yml") -> tuple[Entry, tuple[Part, ...]]:
    """The root page and the parts of the table of contents, in book order."""
    try:
        data = yaml.safe_load(toc.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as err:
        raise PrepareError(f"cannot read {toc.name}: {err}") from err
    if not isinstance(data, dict) or "root" not in data or not isinstance(data.get("parts"), list):
        raise PrepareError(f"{toc.name} is not a jb-book table of contents with 'root' and 'parts'")
    parts = []
    for part in data["parts"]:
        numbered = bool(part.get("numbered", False))
        entries = []
        for i, chapter in enumerate(part.get("chapters", []), start=1):
            entries.append(_entry(chapter["file"], str(i) if numbered else "", 0))
            for j, section in enumerate(chapter.get("sections", []), start=1):
                entries.append(_entry(section["file"], f"{i}.{j}" if numbered else "", 1))
        parts.append(Part(str(part.get("caption", "")), tuple(entries)))
    return _entry(data["root"], "", 0), tuple(parts)


def _scratch_dir(arg: str) -> Path:
    scratch = (ROOT / arg).resolve() if not Path(arg).is_absolute() else Path(arg).resolve()
    if scratch == ROOT or ROOT not in scratch.parents:
        raise PrepareError(f"--scratch {arg}: must be a directory inside {ROOT} (chapters look "
                           "for the project's bench/ above their copy), not the project itself")
    for tracked in ("book", "notebooks", *SUPPORT, "coalg", "tools", "tests"):
        if scratch == ROOT / tracked or ROOT / tracked in scratch.parents:
            raise PrepareError(f"--scratch {arg}: must not be inside the tracked folder {tracked}/")
    if scratch.exists() and not scratch.is_dir():
        raise PrepareError(f"--scratch {arg}: exists and is not a directory")
    return scratch


def _copy_missing(relative: str, scratch: Path) -> bool:
    target = scratch / relative
    if target.exists():
        return False
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(ROOT / relative, target)
    return True


def _differs(relative: str, scratch: Path) -> bool:
    return (scratch / relative).read_bytes() != (ROOT / relative).read_bytes()


def _line(entry: Entry, scratch: Path) -> str:
    source = Path(os.path.relpath(ROOT / entry.path, scratch)).as_posix()
    number = f"{entry.number} " if entry.number else ""
    indent = "    " * entry.depth
    if not entry.notebook:
        return f"{indent}- {number}[{entry.title}]({source})"
    mark = " · *your copy differs*" if _differs(entry.path, scratch) else ""
    return f"{indent}- {number}[{entry.title}]({entry.path}) · [source]({source}){mark}"


def landing_notebook(root: Entry, parts: tuple[Part, ...], scratch: Path) -> str:
    """The text of START.ipynb: markdown cells only, deterministic (ids included)."""
    here = scratch.relative_to(ROOT).as_posix()
    intro_link = Path(os.path.relpath(ROOT / root.path, scratch)).as_posix()
    cells = [f"""# Coalgebraic Memory in JupyterLab

Every chapter of the book is a notebook here. **Click a title** below and the chapter opens
as a notebook (a double-click on a chapter in the file browser does the same). Run it top to
bottom with **Run ▸ Run All Cells**, then change a store, a record or a θ and run it again.
The book's cover page is [{root.title}]({intro_link}).

**Your copies, in `{here}/`.** The titles open *your own copies*, which `make lab` put in
`{here}/` the first time it started. `{here}/` is ignored by git, so edit, save and break
things freely: the book does not change. A copy works where it is: the files a chapter reads
(`data/`, `bench/`) are copied too. To start a chapter afresh, delete its copy and run
`make lab` again. *Your copy differs* means you edited it, or the book changed
since the copy was made.

**The book's sources.** A *source* link opens the file the book is built from. Saving it
changes the book: a chapter keeps its prose and code but never its outputs, and a save
without edits leaves the file exactly as it was."""]
    for part in parts:
        lines = [f"## {part.caption}", ""] + [_line(e, scratch) for e in part.entries]
        cells.append("\n".join(lines))
    notebook = {
        "cells": [
            {"cell_type": "markdown", "id": f"landing-{k}", "metadata": {},
             "source": text.splitlines(keepends=True)}
            for k, text in enumerate(cells)
        ],
        "metadata": {
            "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
            "language_info": {"name": "python"},
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    return json.dumps(notebook, indent=1, ensure_ascii=False) + "\n"


def prepare(scratch_arg: str = "scratch") -> tuple[Path, int, int]:
    """Make the copies and the landing notebook; return (landing path, copied, kept)."""
    scratch = _scratch_dir(scratch_arg)
    root, parts = read_toc()
    wanted = [e.path for part in parts for e in part.entries if e.notebook]
    wanted += sorted(p.relative_to(ROOT).as_posix() for folder in SUPPORT for p in (ROOT / folder).rglob("*")
                     if p.is_file() and not set(p.relative_to(ROOT).parts) & set(SKIP_PARTS))
    copied = sum(_copy_missing(relative, scratch) for relative in wanted)
    landing = scratch / LANDING
    text = landing_notebook(root, parts, scratch)
    if not landing.is_file() or landing.read_text(encoding="utf-8") != text:
        landing.write_text(text, encoding="utf-8")
    return landing, copied, len(wanted) - copied


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scratch", default="scratch",
                        help="where the copies and START.ipynb go (inside the project; default scratch)")
    args = parser.parse_args(argv)
    try:
        landing, copied, kept = prepare(args.scratch)
    except PrepareError as err:
        print(f"lab_prepare: {err}", file=sys.stderr)
        return 2
    where = landing.parent.relative_to(ROOT).as_posix()
    print(f"lab_prepare: {where}/ holds your copies ({copied} new, {kept} kept as they were); "
          f"landing page {where}/{LANDING}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
