"""Sphinx glue for Appendix C, the API reference generated from the docstrings of ``coalg``.

Three things autodoc and napoleon do not do on their own:

1. **Cross-references the way the library writes them.**  A docstring names an
   object as Python code would: by a short name imported into its module
   (:class:`Store` inside ``coalg.model.lineage``), through a package face
   (:func:`coalg.bitemporal.believed`, documented where it is defined,
   ``coalg.bitemporal.observations``), or as an attribute of a class that has
   no docstring of its own (:attr:`Record.namespace`).  Sphinx looks such names
   up only as written.  When it finds nothing, :func:`resolve` imports the
   name in the docstring's own module and links to the page where that very
   object is documented.  A name that Python cannot import from there stays
   unresolved, so a reference to a renamed or moved object still fails the
   build under ``-n``.
2. **Docstrings as the library writes them.**  Napoleon reads the first line
   of a constant's or property's docstring as ``type: description`` and turns
   the words before a colon into a type to link.  The library never writes
   types that way (its types are in the annotations), so those docstrings are
   handed to napoleon as ordinary NumPy docstrings.  A docstring's own
   section titles (``The law`` under ``-------``, as several modules have)
   become rubrics, as napoleon's ``Notes`` and ``Examples`` do: a title
   would be a section of the page, and two modules with the same title would
   give two sections the same anchor.
3. **Short values only.**  A constant's value is printed beside its name only
   when its repr fits on a line; the clause table or the numbered items would
   fill screens.  Their docstrings say what they hold, and the chapters and
   Appendix D render them.  For the same reason a default value too long for
   a line is shown in a signature by the name its module gives it
   (``seeds=SEEDS``, not the repr of every seed): a dataclass's ``__init__``
   has no source from which ``autodoc_preserve_defaults`` could take it.
"""

from __future__ import annotations

import importlib
import inspect
import re
import sys
from typing import Any

from docutils import nodes
from sphinx.addnodes import pending_xref
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.ext import napoleon
from sphinx.ext.autodoc import AttributeDocumenter, DataDocumenter
from sphinx.util.inspect import object_description

_MISSING = object()


def _import(dotted: str) -> Any:
    """The object a dotted path names, importing its longest module prefix; ``_MISSING`` if none."""
    parts = dotted.split(".")
    for k in range(len(parts), 0, -1):
        try:
            obj: Any = importlib.import_module(".".join(parts[:k]))
        except ImportError:
            continue
        for attr in parts[k:]:
            obj = getattr(obj, attr, _MISSING)
            if obj is _MISSING:
                return _MISSING
        return obj
    return _MISSING


_FIELD = object()  # stands for a declared field that has no object of its own


def _is_field(cls: Any, name: str) -> bool:
    """Whether ``name`` is a field of the class ``cls``: an annotation, a slot, or set on ``self``."""
    if not isinstance(cls, type):
        return False
    assigned = re.compile(rf"\bself\.{re.escape(name)}\s*(:[^=\n]+)?=[^=]")
    for k in cls.__mro__:
        if name in getattr(k, "__annotations__", {}) or name in getattr(k, "__slots__", ()):
            return True
        if k.__module__.startswith("coalg.") and assigned.search(inspect.getsource(k)):
            return True
    return False


def _walk(scope: Any, attrs: list[str]) -> tuple[Any, Any]:
    """``(object, owning class or None)`` after ``getattr`` along ``attrs`` from ``scope``."""
    obj, owner = scope, None
    for k, attr in enumerate(attrs):
        owner = obj
        obj = getattr(obj, attr, _MISSING)
        if obj is _MISSING:
            last = k == len(attrs) - 1
            return (_FIELD if last and _is_field(owner, attr) else _MISSING), owner
    return obj, owner if isinstance(owner, type) else None


def _lookup(target: str, modname: str | None, clsname: str | None) -> tuple[Any, Any]:
    """``(object, owning class or None)`` for ``target`` as seen from ``modname`` (and ``clsname``).

    A full ``coalg.…`` path to a module-level name must name one of that
    module's public names (its ``__all__``) or its own definitions, so a path to
    a name that has moved to another module, and is only imported where the
    path points, is not accepted.
    """
    target = target.lstrip("~.")
    if target.startswith("coalg."):
        head, _, last = target.rpartition(".")
        owner = _import(head)
        if isinstance(owner, type(sys)):
            obj = getattr(owner, last, _MISSING)
            public = getattr(owner, "__all__", ())
            if last not in public and getattr(obj, "__module__", None) != owner.__name__:
                return _MISSING, None
            return obj, None
        return _walk(owner, [last]) if owner is not _MISSING else (_MISSING, None)
    scopes = [_import(f"{modname}.{clsname}")] if clsname else []
    # imported here, not only looked up: a build that writes pages without reading any (an
    # html-only config change) has not imported the modules through autodoc
    scopes.append(_import(modname) if modname else _MISSING)
    for scope in scopes:
        if scope is not _MISSING:
            obj, owner = _walk(scope, target.split("."))
            if obj is not _MISSING:
                return obj, owner
    return _MISSING, None


def _qualified(obj: Any) -> str | None:
    module, qual = getattr(obj, "__module__", None), getattr(obj, "__qualname__", None)
    if isinstance(obj, property | classmethod | staticmethod):
        fn = getattr(obj, "fget", None) or getattr(obj, "__func__", None)
        module, qual = getattr(fn, "__module__", None), getattr(fn, "__qualname__", None)
    return f"{module}.{qual}" if isinstance(module, str) and isinstance(qual, str) else None


def _documented_as(env: BuildEnvironment, obj: Any, name: str, owner: Any) -> str | None:
    """The full name under which ``obj`` (called ``name``) is documented, if it is."""
    objects = env.get_domain("py").objects  # type: ignore[attr-defined]
    if obj is not _FIELD:
        full = _qualified(obj)
        if full in objects:
            return full
    if owner is not None:
        member = f"{owner.__module__}.{owner.__qualname__}.{name}"
        if member in objects:
            return member
    # constants and aliases have no __qualname__: find the documented name bound to this object
    for candidate in objects if obj is not _FIELD else ():
        if candidate.rpartition(".")[2] == name and _import(candidate) is obj:
            return str(candidate)
    if owner is not None:
        # a documented class's undocumented field or private method: link to the class
        cls = f"{owner.__module__}.{owner.__qualname__}"
        if cls in objects:
            return cls
    return None


def resolve(app: Sphinx, env: BuildEnvironment, node: pending_xref, contnode: nodes.Element) -> Any:
    """``missing-reference`` handler: link a Python name to where its object is documented."""
    if node.get("refdomain") != "py":
        return None
    target = node["reftarget"]
    obj, owner = _lookup(target, node.get("py:module"), node.get("py:class"))
    if obj is _MISSING:
        return None
    name = target.lstrip("~.").rpartition(".")[2]
    full = _documented_as(env, obj, name, owner)
    if full is None:
        return None
    domain = env.get_domain("py")
    plain = pending_xref("", refdomain="py", reftype="obj", reftarget=full, refexplicit=True)
    return domain.resolve_xref(env, node["refdoc"], app.builder, "obj", full, plain, contnode)


_UNDERLINE = re.compile(r"([=\-~^\"'`#*+])\1{2,}")


def _process_docstring(app: Sphinx, what: str, name: str, obj: Any, options: Any, lines: list[str]) -> None:
    """Napoleon, reading data docstrings as prose; then a docstring's own titles become rubrics."""
    napoleon._process_docstring(app, "function" if what in ("attribute", "data", "property") else what,
                                name, obj, options, lines)
    k = 0
    while k + 1 < len(lines):
        title, under = lines[k], lines[k + 1]
        if title.strip() and _UNDERLINE.fullmatch(under.strip()) and len(under.strip()) == len(title.strip()):
            indent = title[: len(title) - len(title.lstrip())]
            lines[k : k + 2] = [f"{indent}.. rubric:: {title.strip()}", ""]
        k += 1


_MAX_VALUE = 100  # characters of a constant's repr shown beside its name


class _DataDocumenter(DataDocumenter):
    """A module constant, its value shown only when it fits on a line."""

    def should_suppress_value_header(self) -> bool:
        return super().should_suppress_value_header() or len(object_description(self.object)) > _MAX_VALUE


class _AttributeDocumenter(AttributeDocumenter):
    """A class attribute, its value shown only when it fits on a line."""

    def should_suppress_value_header(self) -> bool:
        return super().should_suppress_value_header() or len(object_description(self.object)) > _MAX_VALUE


def _process_signature(app: Sphinx, what: str, name: str, obj: Any, options: Any,
                       signature: str | None, return_annotation: str | None) -> tuple[str, str | None] | None:
    """``autodoc-process-signature``: a long default printed as a repr is shown by its module's name for it."""
    if not signature or len(signature) <= _MAX_VALUE:
        return None
    try:
        params = inspect.signature(obj).parameters.values()
    except (TypeError, ValueError):
        return None
    module = sys.modules.get(getattr(obj, "__module__", None) or "")
    if module is None:
        return None
    for param in params:
        if param.default is param.empty:
            continue
        shown = f"{param.name}={object_description(param.default)}"
        if len(shown) <= _MAX_VALUE or shown not in signature:
            continue
        names = sorted(k for k, v in vars(module).items() if v is param.default and not k.startswith("_"))
        if names:
            signature = signature.replace(shown, f"{param.name}={names[0]}")
    return signature, return_annotation


def setup(app: Sphinx) -> dict[str, Any]:
    app.setup_extension("sphinx.ext.autodoc")
    app.setup_extension("sphinx.ext.napoleon")
    listeners = app.events.listeners["autodoc-process-docstring"]
    for listener in list(listeners):
        if listener.handler is napoleon._process_docstring:
            app.disconnect(listener.id)
    app.connect("autodoc-process-docstring", _process_docstring)
    app.connect("autodoc-process-signature", _process_signature)
    app.add_autodocumenter(_DataDocumenter, override=True)
    app.add_autodocumenter(_AttributeDocumenter, override=True)
    app.connect("missing-reference", resolve)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
