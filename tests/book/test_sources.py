"""The book's sources keep the house rules a reader relies on (no build needed).

* every chapter opens with what it teaches and what it needs (a ``reading-path`` block right
  after its title);
* code cells stay within 80 columns (``tools/fit_code_cells.py --check``);
* tables come from ``coalg.paper.md_table``: no chapter builds HTML or pipe tables by hand, and
  none defines its own table helper;
* numbered blocks: the paper's items carry the paper's number in their title, the book's own
  carry a number that cannot be mistaken for one (P9.n, Rn, and Bn for the standard
  definitions of the background chapter), and every block is ``:nonumber:``
  so that no second, automatic number appears;
* every figure has a caption and a name, and the text refers to it;
* appendices are lettered, in the navigation and in their titles;
* no section repeats its page's title (docutils then drops the page's own name, and the PDF loses
  the targets of every numbered block on the page).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml  # type: ignore[import-untyped]

ROOT = Path(__file__).resolve().parents[2]
BOOK = ROOT / "book"
PAGES = sorted(p for p in BOOK.glob("*.md") if p.name != "STYLE.md")
CELL = re.compile(r"^```\{code-cell\}[^\n]*\n(.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)
BLOCK = re.compile(r"^:::+\{prf:(\w+)\}[ \t]*(.*)\n((?::[^\n]*\n)*)", re.MULTILINE)


def _chapters() -> list[Path]:
    """The pages of the parts 'The paper, executable' and 'Beyond the paper'."""
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    found: list[Path] = []

    def walk(entries: list[dict]) -> None:
        for e in entries:
            found.append(ROOT / f"{e['file']}.md")
            walk(e.get("sections", []))

    for part in toc["parts"]:
        if part["caption"] in ("The paper, executable", "Beyond the paper"):
            walk(part["chapters"])
    return found


@pytest.mark.parametrize("page", _chapters(), ids=lambda p: p.stem)
def test_chapter_opens_with_a_reading_path(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    title = re.search(r"^# .+\n", text, re.MULTILINE)
    assert title, f"{page.name} has no title"
    after = text[title.end():].lstrip("\n")
    after = re.sub(r"^```\{index\}[^\n]*\n```\n\n?", "", after)
    block = re.match(r":::\{admonition\} Before you start\n:class: reading-path\n\n(.*?)\n:::", after, re.DOTALL)
    assert block, f"{page.name}: no reading-path block right after the title"
    assert "**You will learn**" in block[1] and "**You need**" in block[1], page.name


def test_code_cells_fit_80_columns() -> None:
    p = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "fit_code_cells.py"), "--check"],
        capture_output=True, text=True, cwd=ROOT, check=False,
    )
    assert p.returncode == 0, "code lines longer than 80 columns:\n" + p.stdout


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.stem)
def test_tables_come_from_the_library(page: Path) -> None:
    for k, m in enumerate(CELL.finditer(page.read_text(encoding="utf-8"))):
        code = m.group(1)
        assert "<table" not in code and "HTML(" not in code, f"{page.name} cell {k}: HTML table"
        assert not re.search(r"[\"']\|[ :-]*-{3}", code), f"{page.name} cell {k}: hand-made pipe table"
        assert not re.search(r"^def \w*table\w*\(", code, re.MULTILINE) or "md_table(" in code, (
            f"{page.name} cell {k}: a table helper of its own (use coalg.paper.md_table)"
        )


def _blocks() -> list[tuple[str, str, str, str]]:
    out = []
    for page in PAGES:
        for m in BLOCK.finditer(page.read_text(encoding="utf-8")):
            out.append((page.stem, m[1], m[2].strip(), m[3]))
    return out


@pytest.mark.parametrize(("page", "kind", "title", "options"), _blocks(),
                         ids=lambda v: v if isinstance(v, str) and len(v) < 30 else "")
def test_numbered_blocks_are_titled_with_one_number(page: str, kind: str, title: str,
                                                    options: str) -> None:
    if kind == "proof":
        return
    assert ":nonumber:" in options, f"{page}: {kind} {title!r} would get a second number"
    paper = re.match(r"^(\d+\.\d+|[LS]\d) \(.+\)$", title)
    own = re.match(r"^(P9\.\d+|R\d+) \(.+\)$", title)
    background = page == "02-background" and re.match(r"^(B\d+ )?\(.+\)$", title)
    if page == "09-1-executable-proposals":
        assert own and own[1].startswith("P9."), f"{page}: {title!r} is not numbered P9.n"
    elif page == "contextfs-at-runtime":
        assert own and own[1].startswith("R"), f"{page}: {title!r} is not numbered Rn"
    else:
        assert paper or background, f"{page}: {title!r} is not 'N.M (Name)' or 'Ln (Name)'"


def test_every_figure_is_captioned_and_referenced() -> None:
    text = {p: p.read_text(encoding="utf-8") for p in PAGES}
    every = "\n".join(text.values())
    for page, t in text.items():
        for m in CELL.finditer(t):
            code = m.group(1)
            draws = re.search(r"viz\.plot_|plt\.subplots|\.plot\(", code)
            if not draws:
                continue
            head = code.split("\n---\n", 1)[0] if code.startswith("---\n") else ""
            assert "caption:" in head and "name:" in head, (
                f"{page.name}: a figure without caption or name: {code[:80]!r}")
            name = re.search(r"name: (\S+)", head)[1]
            assert f"{{numref}}`{name}`" in every, f"{page.name}: figure {name} is never referred to"


def test_appendices_are_lettered() -> None:
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    part = next(p for p in toc["parts"] if p["caption"] == "Appendices")
    for k, entry in enumerate(part["chapters"]):
        letter = chr(ord("A") + k)
        assert entry["file"].startswith(f"book/appendix-{letter.lower()}-"), entry
        assert entry.get("title", "").startswith(f"{letter}. "), entry
        heading = re.search(r"^# (.+)$", (ROOT / f"{entry['file']}.md").read_text(encoding="utf-8"),
                            re.MULTILINE)
        assert heading and heading[1].startswith(f"Appendix {letter}: "), heading


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.stem)
def test_no_section_repeats_its_pages_title(page: Path) -> None:
    text = CELL.sub("", page.read_text(encoding="utf-8"))
    titles = [m.group(2).strip().lower() for m in re.finditer(r"^(#+) (.+)$", text, re.MULTILINE)]
    assert titles, page.name
    assert titles[0] not in titles[1:], f"{page.name}: a section is titled like the page, {titles[0]!r}"
