"""The top level of ``coalg`` is what a reader needs: at most 70 names, each one used by a
chapter (``book/``, ``notebooks/``) or the README; every other name lives in its subpackage."""

from __future__ import annotations

import json
import re
from pathlib import Path

import coalg

ROOT = Path(__file__).resolve().parents[1]


def _reading_text() -> str:
    texts = []
    for path in sorted([*ROOT.glob("book/*.md"), *ROOT.glob("notebooks/*.ipynb"), ROOT / "README.md"]):
        text = path.read_text(encoding="utf-8")
        if path.suffix == ".ipynb":
            text = "\n".join("".join(cell["source"]) for cell in json.loads(text)["cells"])
        texts.append(text)
    return "\n".join(texts)


def _used_names(text: str) -> set[str]:
    used = set(re.findall(r"\bcoalg\.([A-Za-z_]\w*)", text))
    for m in re.finditer(r"from coalg import (\([^)]*\)|[^\n]*)", text):
        used |= {n for n in re.split(r"[\s,()]+", m.group(1)) if n.isidentifier()}
    return used


def test_the_top_level_is_small() -> None:
    assert len(coalg.__all__) <= 70
    assert len(set(coalg.__all__)) == len(coalg.__all__)


def test_every_top_level_name_is_used_by_a_chapter_or_the_readme() -> None:
    unused = [n for n in coalg.__all__ if n not in _used_names(_reading_text())]
    assert unused == []


def test_every_top_level_name_resolves_and_names_outside_stay_in_their_subpackage() -> None:
    for name in coalg.__all__:
        assert getattr(coalg, name) is not None
    from coalg.model import REALISATIONS, dumps_store
    from coalg.paper import Verdict

    assert "dumps_store" not in coalg.__all__ and callable(dumps_store)
    assert "Verdict" not in coalg.__all__ and Verdict.__name__ == "Verdict" and "contextfs" in REALISATIONS
