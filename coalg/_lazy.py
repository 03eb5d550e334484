"""Lazy re-exports for the package faces of :mod:`coalg` (PEP 562).

Each ``__init__.py`` of the library lists the names it hands on once, as the
imports of an ``if TYPE_CHECKING:`` block: that is what a type checker and an
IDE read.  At run time nothing is imported up front; :func:`attach` reads the
same block from the file's source and imports a module the first time one of
its names is asked for.  So ``import coalg`` (and ``python -m coalg bisim``)
pays only for the modules it touches, and the list of names exists once.
"""

from __future__ import annotations

import ast
import importlib
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = ["attach"]

def _stub_imports(init_file: str) -> dict[str, str]:
    """``name -> relative module`` for every ``from .mod import name`` under ``if TYPE_CHECKING:``."""
    tree = ast.parse(Path(init_file).read_text(encoding="utf-8"))
    found: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            for imp in node.body:
                if isinstance(imp, ast.ImportFrom) and imp.level >= 1:
                    module = "." * imp.level + (imp.module or "")
                    for alias in imp.names:
                        found[alias.asname or alias.name] = module
    return found

def attach(
    package: str, init_file: str, *, submodules: bool = True
) -> tuple[Callable[[str], Any], Callable[[], list[str]], list[str]]:
    """``(__getattr__, __dir__, __all__)`` for the package ``package`` whose face is ``init_file``.

    ``__all__`` keeps the order of the stub block.  With ``submodules``, an
    unknown attribute that names a submodule is imported too
    (``coalg.model.store`` after ``import coalg.model``).
    """
    lazy = _stub_imports(init_file)
    names = list(lazy)

    def __getattr__(name: str) -> Any:
        mod = lazy.get(name)
        if mod is not None:
            value = getattr(importlib.import_module(mod, package), name)

            setattr(sys.modules[package], name, value)  # later accesses bypass this hook
            return value
        if submodules and not name.startswith("__"):
            try:
                return importlib.import_module(f".{name}", package)
            except ModuleNotFoundError as e:
                if e.name != f"{package}.{name}":
                    raise
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    def __dir__() -> list[str]:

        return sorted(set(vars(sys.modules[package])) | set(names))

    return __getattr__, __dir__, names
