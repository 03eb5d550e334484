"""Appendix C, the API reference, covers the whole library, and its links resolve the way Python does.

The pages (``book/appendix-c-api.md`` and one ``book/api/coalg.<subpackage>.md`` per subpackage) are
generated from the docstrings by ``sphinx.ext.autodoc`` when the book is built; what they list
is written by hand, once: one ``automodule`` per module.  These checks keep that list complete
without building the book: every public module has exactly one entry with its members, every
subpackage face has its page, every page is in ``_toc.yml``.  The build itself (``-W -n``, in
``tests/test_book_build.py``) checks that every cross-reference links.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
import sys
from pathlib import Path

import pytest
import yaml  # type: ignore[import-untyped]

import coalg

ROOT = Path(__file__).resolve().parent.parent
MAIN = ROOT / "book" / "appendix-c-api.md"
PAGES = sorted((ROOT / "book" / "api").glob("*.md"))
AUTOMODULE = re.compile(r"^\.\. automodule:: (\S+)\n((?:   :[^\n]*\n)*)", re.MULTILINE)


def _public_modules() -> list[str]:
    found = [m.name for m in pkgutil.walk_packages(coalg.__path__, "coalg.")]
    return sorted(n for n in found if not any(p.startswith("_") for p in n.split(".")[1:]))


def _entries() -> list[tuple[str, str, dict[str, str]]]:
    """``(page, module, options)`` for every automodule directive of the appendix."""
    out = []
    for page in [MAIN, *PAGES]:
        for name, opts in AUTOMODULE.findall(page.read_text(encoding="utf-8")):
            options = dict(re.findall(r"   :([\w-]+):[ ]?([^\n]*)", opts))
            out.append((page.relative_to(ROOT).as_posix(), name, options))
    return out


def test_every_public_module_is_documented_once_with_its_members() -> None:
    entries = _entries()
    documented = [name for _, name, _ in entries]
    faces = {m for m in _public_modules() if hasattr(importlib.import_module(m), "__path__")}
    for module in _public_modules():
        assert documented.count(module) == 1, f"{module}: {documented.count(module)} automodule entries"
        if module not in faces:
            options = next(o for _, n, o in entries if n == module)
            assert options.get("members") == "", f"{module} is documented without ':members:'"
    assert set(documented) <= set(_public_modules()) | {"coalg"}, "an entry names no public module"


def test_each_subpackage_has_its_page_with_its_modules() -> None:
    for page in PAGES:
        face = page.stem
        names = [n for p, n, _ in _entries() if p == page.relative_to(ROOT).as_posix()]
        assert names[0] == face, f"{page.name} does not open with its face {face}"
        assert all(n.startswith(face + ".") for n in names[1:]), f"{page.name} documents another package"
    subpackages = {m for m in _public_modules() if m.count(".") == 1 and hasattr(importlib.import_module(m), "__path__")}
    assert {p.stem for p in PAGES} == subpackages


def test_what_a_face_defines_itself_is_listed_in_its_members() -> None:
    for _, name, options in _entries():
        module = importlib.import_module(name)
        if not hasattr(module, "__path__") or name == "coalg":
            continue
        own = [n for n in module.__all__ if getattr(getattr(module, n), "__module__", None) == name]
        listed = [m.strip() for m in options.get("members", "").split(",") if m.strip()]
        assert listed == own, f"{name} defines {own} itself; its entry lists {listed}"


def test_every_page_is_in_the_toc_under_appendix_c() -> None:
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    chapters = [c for part in toc["parts"] for c in part.get("chapters", [])]
    appendix = next(c for c in chapters if c["file"] == "book/appendix-c-api")
    listed = [s["file"] for s in appendix.get("sections", [])]
    assert sorted(listed) == sorted(p.relative_to(ROOT).with_suffix("").as_posix() for p in PAGES)


@pytest.fixture(scope="module")
def api_reference():  # type: ignore[no-untyped-def]
    pytest.importorskip("sphinx")
    sys.path.insert(0, str(ROOT / "book" / "_ext"))
    try:
        yield importlib.import_module("api_reference")
    finally:
        sys.path.remove(str(ROOT / "book" / "_ext"))


def test_names_resolve_as_python_resolves_them(api_reference) -> None:  # type: ignore[no-untyped-def]
    from coalg.bitemporal.observations import believed
    from coalg.model.repair_rules import derived_record
    from coalg.model.store import Store

    lookup, missing, field = api_reference._lookup, api_reference._MISSING, api_reference._FIELD
    # through a face, and by a short name imported into the docstring's module
    assert lookup("coalg.bitemporal.believed", None, None)[0] is believed
    assert lookup("derived_record", "coalg.model.repaired", None)[0] is derived_record
    assert lookup("~Store.of", "coalg.model.lineage", None) == (Store.of, Store)
    # a field with no object of its own belongs to its class
    assert lookup("Record.namespace", "coalg.model.lineage", None)[0] in (field, coalg.Record.namespace)
    # a full path to a name that only passes through a module (it moved) does not resolve
    assert lookup("coalg.model.repaired.derived_record", None, None)[0] is missing
    assert lookup("coalg.model.no_such_module.x", None, None)[0] is missing
    assert lookup("no_such_name", "coalg.model.lineage", None)[0] is missing


def test_a_long_default_is_shown_by_its_modules_name(api_reference) -> None:  # type: ignore[no-untyped-def]
    from coalg.laws.exploration import Exploration
    from coalg.model.records import Record

    # autodoc prints a dataclass field's default as its repr: every seed, 1,500 characters
    sig = "(realisation, alphabet='fragment', faults=False, max_len=2, seeds=" + repr(
        Exploration.__dataclass_fields__["seeds"].default) + ", reduce=True)"
    shown, _ = api_reference._process_signature(None, "class", "Exploration", Exploration, None, sig, None)
    assert shown == "(realisation, alphabet='fragment', faults=False, max_len=2, seeds=SEEDS, reduce=True)"
    # short signatures, and short defaults in long ones, are left as autodoc printed them
    short = "(content, type='fact', namespace='global')"
    assert api_reference._process_signature(None, "class", "Record", Record, None, short, None) is None
    long = short[:-1] + ", " + ", ".join(f"p{k}=None" for k in range(30)) + ")"
    assert api_reference._process_signature(None, "class", "Record", Record, None, long, None) == (long, None)
