"""JSON for letters, calls, θ and outputs (paper §3.2–3.3): runs as data.

A letter is ``{"op": kind, ...arguments}`` (a record argument is the record
object of :mod:`coalg.model.jsonio`); a call adds its allocation and faults;
an output of the store coalgebra is ``{"out": kind, ...}``.  Reading
validates every argument and names the JSON path of what is wrong; the
values are first held to the limits of :mod:`coalg.model.jsoncheck` (depth,
number size, finite numbers, valid Unicode), and every error is a
:class:`~coalg.model.jsoncheck.JsonInputError`.

>>> from coalg.model.alphabet import Evolve
>>> letter_to_json(Evolve("id0001", "y"))
{'op': 'evolve', 'id': 'id0001', 'content': 'y', 'summary': None, 'tags': [], 'by_prefix': False, 'valid_time': None}
>>> letter_from_json(letter_to_json(Evolve("id0001", "y"))) == Evolve("id0001", "y")
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import alphabet as A
from .alphabet import Allocation, Call, Letter
from .coalgebra import Created, Err, Flag, Found, Nothing, Output, Wrote
from .jsoncheck import ReadContext, check_value, expect_str, opt_int, relation_from_json, type_name
from .jsonio import edge_to_json, record_from_json, record_to_json
from .records import Record, Relation
from .theta import Theta

__all__ = [
    "call_from_json",
    "call_to_json",
    "letter_from_json",
    "letter_to_json",
    "output_to_json",
    "theta_from_json",
    "theta_to_json",
]


def _checked(obj: Any, where: str, source: str) -> ReadContext:
    """The context for reading ``obj``, once ``obj`` is within the JSON limits."""
    ctx = ReadContext(source)
    check_value(obj, where, ctx)
    ctx.checked = True
    return ctx


def theta_to_json(theta: Theta) -> dict[str, Any]:
    """θ as a JSON object."""
    return theta.as_dict()


def theta_from_json(obj: Any) -> Theta:
    """θ from its JSON object, validated."""
    ctx = _checked(obj, "theta", "<theta>")
    if not isinstance(obj, dict):
        raise ctx.fail("theta", "expected an object")
    unknown = sorted(set(obj) - {"type_priority", "id_priority", "descending"})
    if unknown:
        raise ctx.fail("theta", f"unknown field(s) {', '.join(unknown)}")
    lists = {}
    for key in ("type_priority", "id_priority"):
        v = obj.get(key, [])
        if not isinstance(v, list):
            raise ctx.fail(f"theta.{key}", f"expected a list of strings, got {type_name(v)}")
        lists[key] = tuple(expect_str(x, f"theta.{key}[{k}]", ctx) for k, x in enumerate(v))
    descending = obj.get("descending", False)
    if not isinstance(descending, bool):
        raise ctx.fail("theta.descending", f"expected true or false, got {type_name(descending)}")
    return Theta(type_priority=lists["type_priority"], id_priority=lists["id_priority"], descending=descending)


def letter_to_json(a: Letter) -> dict[str, Any]:
    """A letter as ``{"op": kind, ...arguments}``; records appear as JSON objects."""
    d: dict[str, Any] = {"op": a.kind}
    for name in a.__dataclass_fields__:
        if name == "kind":
            continue
        v = getattr(a, name)
        if isinstance(v, Record):
            v = record_to_json(v)
        elif isinstance(v, Relation):
            v = v.value
        elif isinstance(v, frozenset):
            v = sorted(v)
        elif isinstance(v, tuple):
            v = list(v)
        d[name] = v
    return d


_LETTERS: Mapping[str, type[Letter]] = {
    "save": A.Save, "save_at": A.SaveAt, "recall": A.Recall, "recall_prefix": A.RecallPrefix,
    "delete": A.Delete, "evolve": A.Evolve, "merge": A.Merge, "split": A.Split,
    "supersede": A.Supersede, "link": A.Link,
}


def letter_from_json(obj: Any, where: str = "letter", source: str = "<string>") -> Letter:
    """Parse a letter written by :func:`letter_to_json`, validating its arguments."""
    ctx = _checked(obj, where, source)
    if not isinstance(obj, dict) or not isinstance(obj.get("op"), str):
        raise ctx.fail(where, "expected an object with a string field 'op'")
    cls = _LETTERS.get(obj["op"])
    if cls is None:
        raise ctx.fail(f"{where}.op", f"unknown operation {obj['op']!r}; known: {', '.join(_LETTERS)}")
    fields = {k for k in cls.__dataclass_fields__ if k != "kind"}
    unknown = sorted(set(obj) - fields - {"op"})
    if unknown:
        raise ctx.fail(where, f"unknown argument(s) {', '.join(unknown)} for {obj['op']}")
    kwargs: dict[str, Any] = {}
    for k in fields & set(obj):
        v = obj[k]
        if k == "record":
            v = record_from_json(v, f"{where}.record", ctx)
        elif k == "relation":
            v = relation_from_json(v, f"{where}.relation", ctx)
        elif k in ("ids", "contents", "tags"):
            if not isinstance(v, list):
                raise ctx.fail(f"{where}.{k}", f"expected a list, got {type_name(v)}")
            v = [expect_str(x, f"{where}.{k}[{n}]", ctx) for n, x in enumerate(v)]
        elif k in ("by_prefix", "bidirectional"):
            if not isinstance(v, bool):
                raise ctx.fail(f"{where}.{k}", f"expected true or false, got {type_name(v)}")
        elif k == "valid_time":
            v = opt_int(v, f"{where}.{k}", ctx)
        else:
            optional = k in ("summary", "type", "namespace") or (k == "content" and cls is A.Merge)
            v = expect_str(v, f"{where}.{k}", ctx, optional=optional)
        kwargs[k] = v
    try:
        letter: Letter = cls(**kwargs)
    except TypeError as e:
        raise ctx.fail(where, f"missing argument(s) for {obj['op']}: {e}") from None
    return letter


def call_to_json(c: Call) -> dict[str, Any]:
    """A call as ``{"letter": ..., "allocation": {"ids": [...], "clock": t}}`` (plus ``faults`` if any)."""
    d: dict[str, Any] = {"letter": letter_to_json(c.letter), "allocation": {"ids": list(c.allocation.ids), "clock": c.allocation.clock}}
    if c.faults:
        d["faults"] = sorted(c.faults)
    return d


def call_from_json(obj: Any, where: str = "call", source: str = "<string>") -> Call:
    """Parse a call written by :func:`call_to_json`, validating every field."""
    ctx = _checked(obj, where, source)
    if not isinstance(obj, dict):
        raise ctx.fail(where, "expected an object")
    unknown = sorted(set(obj) - {"letter", "allocation", "faults"})
    if unknown:
        raise ctx.fail(where, f"unknown field(s) {', '.join(unknown)}; known: letter, allocation, faults")
    alloc = obj.get("allocation", {})
    if not isinstance(alloc, dict):
        raise ctx.fail(f"{where}.allocation", "expected an object")
    unknown = sorted(set(alloc) - {"ids", "clock"})
    if unknown:
        raise ctx.fail(f"{where}.allocation", f"unknown field(s) {', '.join(unknown)}; known: ids, clock")
    ids = alloc.get("ids", [])
    if not isinstance(ids, list):
        raise ctx.fail(f"{where}.allocation.ids", "expected a list")
    clock = opt_int(alloc.get("clock", 0), f"{where}.allocation.clock", ctx) or 0
    faults = obj.get("faults", [])
    if not isinstance(faults, list) or not all(isinstance(x, int) and not isinstance(x, bool) for x in faults):
        raise ctx.fail(f"{where}.faults", "expected a list of integers")
    return Call(
        letter_from_json(obj.get("letter"), f"{where}.letter", source),
        Allocation(tuple(expect_str(x, f"{where}.allocation.ids[{k}]", ctx) for k, x in enumerate(ids)), clock),
        frozenset(faults),
    )


def output_to_json(o: Output) -> dict[str, Any]:
    """An output of the store coalgebra as JSON."""
    match o:
        case Err(reason=r):
            return {"out": "err", "reason": r}
        case Nothing():
            return {"out": "bottom"}
        case Found(id=i, record=r):
            return {"out": "found", "id": i, "record": record_to_json(r)}
        case Created(items=items):
            return {"out": "created", "records": {i: record_to_json(r) for i, r in items}, "ids": [i for i, _ in items]}
        case Wrote(edges=es):
            return {"out": "wrote", "edges": [edge_to_json(e) for e in es]}
        case Flag(value=v):
            return {"out": "flag", "value": v}
    raise TypeError(f"not an output: {o!r}")
