"""Two runs of the same word compared up to renaming: what differs, in one sentence.

L5 compares what a layer shows for one word in two interpreters, or for a
word and the same word with independent saves in another order.  Runs are
compared as JSON observations -- per call its output, at the end the store
(:func:`observe`) -- after renaming the second run's identifiers into the
first's (:func:`rename_store`).  :func:`difference` says where they part.

>>> from coalg.model import Record, Store
>>> a = Store.of({"x": Record("m", type="fact")})
>>> b = Store.of({"x": Record("m", type="decision")})
>>> difference({"outputs": [], "after": store_to_json(a)}, {"outputs": [], "after": store_to_json(b)},
...            "first", "second")[0]
'the record x has type fact in the first run and decision in the second'
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..model import (
    META_KEYS,
    Created,
    Edge,
    Found,
    FrozenMap,
    Id,
    Output,
    Record,
    Store,
    Wrote,
    output_to_json,
    store_to_json,
)

__all__ = ["ANCESTRY_KEYS", "difference", "digest", "mapped", "observe", "rename_output", "rename_store",
           "renamed", "store_to_json", "strings"]

ANCESTRY_KEYS = tuple(sorted(META_KEYS.values()))
"""The metadata keys a layer's ancestry is read from: their strings are always identifiers."""


def mapped(x: Any, f: Callable[[Any], Any]) -> Any:
    """A frozen metadata value (:func:`~coalg.model.freeze`) with every leaf ``v`` in it (a value that is
    no tuple, set or map) replaced by ``f(v)``.

    >>> from coalg.model import freeze
    >>> mapped(freeze({"n": 2, "seen": [3, {"k": 4}]}), lambda v: v * 10)
    {'n': 20, 'seen': (30, {'k': 40})}
    """
    if isinstance(x, tuple):
        return tuple(mapped(y, f) for y in x)
    if isinstance(x, frozenset):
        return frozenset(mapped(y, f) for y in x)
    if isinstance(x, FrozenMap):
        return FrozenMap({k: mapped(y, f) for k, y in x.items()})
    return f(x)


def strings(x: Any) -> list[str]:
    """Every string in a JSON-like or frozen metadata value, at any depth (mapping keys left out).

    >>> strings({"k": ["b", ("c", {"d": "e"})], "n": 3})
    ['b', 'c', 'e']
    """
    if isinstance(x, str):
        return [x]
    if isinstance(x, Mapping):
        return [s for v in x.values() for s in strings(v)]
    if isinstance(x, (list, tuple, set, frozenset)):
        return [s for v in x for s in strings(v)]
    return []


def renamed(x: Any, f: Callable[[str], str]) -> Any:
    """A frozen metadata value (:func:`~coalg.model.freeze`) with every string ``v`` in it replaced by ``f(v)``.

    >>> from coalg.model import freeze
    >>> renamed(freeze({"parent": "u-1", "seen": ["u-2", 3]}), {"u-1": "id0001"}.get)
    {'parent': 'id0001', 'seen': (None, 3)}
    """
    return mapped(x, lambda v: f(v) if isinstance(v, str) else v)


def _record(r: Record, f: Callable[[Id], Id], text: Callable[[str], str] | None) -> Record:
    d = {k: renamed(v, text or f) for k, v in r.metadata.items()}
    for k in ANCESTRY_KEYS:
        v = r.metadata.get(k)
        if isinstance(v, tuple):
            d[k] = tuple(sorted(f(x) for x in v if isinstance(x, str)))
    if text is None:
        return r.evolve(metadata=FrozenMap(d))
    return r.evolve(content=text(r.content), tags=frozenset(map(text, r.tags)), metadata=FrozenMap(d))


def rename_store(s: Store, f: Callable[[Id], Id], text: Callable[[str], str] | None = None) -> Store:
    """``s`` with every identifier ``i`` renamed ``f(i)`` (records, edge endpoints, strings in metadata).

    Lists of parents are sorted again after renaming: the kit reads them as sets.  With ``text`` (for a
    layer that writes identifiers inside longer strings), every string of content, tags and metadata
    other than the ancestry is rewritten by ``text`` instead.
    """
    return Store.of({f(i): _record(r, f, text) for i, r in s.records.items()},
                    [Edge(f(e.source), e.relation, f(e.target)) for e in s.edges])


def rename_output(o: Output, f: Callable[[Id], Id], text: Callable[[str], str] | None = None) -> Output:
    """An output with every identifier ``i`` renamed ``f(i)`` (and its records' strings by ``text``, as in
    :func:`rename_store`)."""
    if isinstance(o, Created):
        return Created(tuple((f(i), _record(r, f, text)) for i, r in o.items))
    if isinstance(o, Found):
        return Found(f(o.id), _record(o.record, f, text))
    if isinstance(o, Wrote):
        return Wrote(tuple(Edge(f(e.source), e.relation, f(e.target)) for e in o.edges))
    return o


def observe(outputs: Sequence[Output], after: Store) -> dict[str, Any]:
    """A run as JSON: every call's output, and the store at the end."""
    return {"outputs": [output_to_json(o) for o in outputs], "after": store_to_json(after)}


def digest(obs: Mapping[str, Any]) -> str:
    """A short fingerprint of an observation (equal observations, equal fingerprints)."""
    return hashlib.sha256(json.dumps(obs, sort_keys=True, ensure_ascii=True).encode()).hexdigest()[:20]


def _value(x: Any) -> str:
    return json.dumps(x, ensure_ascii=False, sort_keys=True) if not isinstance(x, str) else x


def _records(a: Mapping[str, Any], b: Mapping[str, Any], la: str, lb: str) -> tuple[str, dict[str, Any]] | None:
    ra, rb = a["records"], b["records"]
    for i in sorted(set(ra) | set(rb)):
        if i not in ra or i not in rb:
            where = la if i in ra else lb
            return f"the record {i} exists only in the {where} run", {"record": i}
        for field in sorted(ra[i]):
            if ra[i][field] != rb[i][field]:
                return ((f"the record {i} has {field} {_value(ra[i][field])} in the {la} run and "
                        f"{_value(rb[i][field])} in the {lb}"),
                        {"record": i, "field": field, la: ra[i][field], lb: rb[i][field]})
    ea, eb = {tuple(e) for e in a["edges"]}, {tuple(e) for e in b["edges"]}
    if ea != eb:
        e = min(ea ^ eb)
        where = la if e in ea else lb
        return f"the edge ({e[0]}, {e[1]}, {e[2]}) exists only in the {where} run", {"edge": list(e)}
    return None


def difference(a: Mapping[str, Any], b: Mapping[str, Any], la: str, lb: str,
               skip: Sequence[int] = ()) -> tuple[str, dict[str, Any]]:
    """Where two observations of one word part: a sentence and the data (outputs at ``skip`` not compared)."""
    for k, (oa, ob) in enumerate(zip(a["outputs"], b["outputs"])):
        if k in skip or oa == ob:
            continue
        if oa.get("out") == ob.get("out") == "created":
            found = _records({"records": oa["records"], "edges": []}, {"records": ob["records"], "edges": []},
                             la, lb)
            if found is not None:
                return f"call {k + 1} created different records: {found[0]}", {"call": k + 1, **found[1]}
        said = [f"{o.get('out')} {o['id']}" if o.get("out") == "found" else str(o.get("out")) for o in (oa, ob)]
        return (f"call {k + 1} answered {said[0]} in the {la} run and {said[1]} in the {lb}",
                {"call": k + 1, la: oa, lb: ob})
    found = _records(a["after"], b["after"], la, lb)
    if found is not None:
        return found
    return "the runs agree", {}
