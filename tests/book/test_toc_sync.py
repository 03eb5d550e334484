"""The book's table of contents, its chapter files and the paper's section list agree.

The paper's sections are listed here once (``PAPER``); when the paper's text is
available beside the repository (``../shared/seed``), the list is checked against
its headings too.  Chapters are ``book/NN-slug.md`` in the paper's order; a chapter
split into pages has section pages ``book/NN-K-slug.md`` whose ``K`` are subsection
numbers of that paper section, in increasing order.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
SEED = ROOT.parent / "shared" / "seed" / "000_cbe5c3c962f33693.txt"

PAPER: dict[int, tuple[str, int]] = {
    # number: (title, how many numbered subsections)
    1: ("Introduction", 4),
    2: ("Background", 4),
    3: ("The formal model", 7),
    4: ("The system", 5),
    5: ("Law checking", 10),
    6: ("Composition with adjacent layers", 4),
    7: ("Limits and counterexamples", 4),
    8: ("Related work", 0),
    9: ("Open problems", 0),
    10: ("Conclusion", 0),
}


def _toc() -> dict:
    return yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))


def _entries(node: dict | list) -> list[dict]:
    """Every file entry of the toc, depth-first in order."""
    out: list[dict] = []
    items = node if isinstance(node, list) else [node]
    for it in items:
        if "file" in it:
            out.append(it)
        for key in ("parts", "chapters", "sections"):
            if key in it:
                out.extend(_entries(it[key]))
    return out


def _paper_part() -> dict:
    parts = _toc().get("parts", [])
    for p in parts:
        files = [c["file"] for c in p.get("chapters", [])]
        if any(re.match(r"book/0?1-", f) for f in files):
            return p
    pytest.fail("no part of _toc.yml holds the paper's chapters (book/01-...)")


def test_paper_list_matches_the_paper_text() -> None:
    if not SEED.exists():
        pytest.skip(f"the paper's text is not beside the repository ({SEED})")
    text = SEED.read_text(encoding="utf-8")
    heads = dict(re.findall(r"^(\d+) ([A-Z][^\n]*)$", text, flags=re.MULTILINE))
    for n, (title, subs) in PAPER.items():
        assert heads.get(str(n)) == title, f"section {n}: the paper says {heads.get(str(n))!r}"
        found = {int(k) for k in re.findall(rf"^{n}\.(\d+) [A-Z]", text, flags=re.MULTILINE)}
        assert found == set(range(1, subs + 1)), f"section {n}: subsections {sorted(found)}"


def test_every_toc_file_exists_and_every_chapter_file_is_listed() -> None:
    toc = _toc()
    listed = [e["file"] for e in _entries(toc.get("parts", [])) + [{"file": toc["root"]}]]
    for f in listed:
        assert any((ROOT / f"{f}{ext}").exists() for ext in (".md", ".ipynb")), f"{f} is in _toc.yml but missing"
    on_disk = {p.relative_to(ROOT).with_suffix("").as_posix() for p in (ROOT / "book").glob("*.md")}
    on_disk |= {p.relative_to(ROOT).with_suffix("").as_posix() for p in (ROOT / "notebooks").glob("*.ipynb")}
    on_disk -= {"book/STYLE"}
    assert on_disk <= set(listed), f"files not in _toc.yml: {sorted(on_disk - set(listed))}"


def test_paper_chapters_in_order_numbered_like_the_paper() -> None:
    part = _paper_part()
    chapters = part["chapters"]
    numbers = []
    for c in chapters:
        m = re.match(r"book/(\d\d)-[a-z0-9-]+$", c["file"])
        assert m, f"chapter file {c['file']!r} is not book/NN-slug"
        n = int(m[1])
        numbers.append(n)
        subs = [s["file"] for s in c.get("sections", [])]
        ks = []
        for s in subs:
            ms = re.match(rf"book/{m[1]}-(\d+)-[a-z0-9-]+$", s)
            assert ms, f"section page {s!r} of chapter {n} is not book/{m[1]}-K-slug"
            ks.append(int(ms[1]))
        assert ks == sorted(ks) and len(set(ks)) == len(ks), f"chapter {n}: sections out of order {ks}"
        assert all(1 <= k <= max(PAPER[n][1], 1) for k in ks), f"chapter {n}: no such subsection in {ks}"
    assert numbers == sorted(PAPER), f"chapters {numbers}, the paper has {sorted(PAPER)}"


def test_chapter_titles_match_the_paper() -> None:
    for c in _paper_part()["chapters"]:
        n = int(c["file"].split("/")[1][:2])
        text = (ROOT / f"{c['file']}.md").read_text(encoding="utf-8")
        title = re.search(r"^# (.+)$", text, flags=re.MULTILINE)
        assert title, f"{c['file']} has no '# title'"
        assert title[1].strip().lower() == PAPER[n][0].lower(), f"{c['file']}: {title[1]!r} vs {PAPER[n][0]!r}"


def test_the_chapters_the_build_runs_first_are_pages_of_the_book() -> None:
    """``coalg_execution_first`` names pages by toc name; a renamed chapter must not drop out unseen."""
    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    first = config["sphinx"]["config"]["coalg_execution_first"]
    toc = _toc()
    listed = {e["file"].removesuffix(".md") for e in _entries(toc.get("parts", []))}
    assert first and len(set(first)) == len(first)
    assert not [d for d in first if d not in listed]
