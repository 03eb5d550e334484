"""A store's lineage coalgebra as an Aldebaran ``.aut`` LTS, and back (Definition 3.18).

LTS tools (mCRL2, CADP) read ``.aut``; this module writes the lineage coalgebra
(ids(s), β_s) in it, so they can minimise or compare stores, and reads such a
file back losslessly.

Encoding (documented format, version 1)
----------------------------------------
* State 0 is a synthetic **root**; every identifier of ids(s) is a state
  1, 2, … in sorted order.  The root has one transition to each identifier,
  labelled ``id:<identifier>`` (or ``member`` with ``keep_ids=False``, which
  erases the identifiers so that two exports are bisimilar at their roots
  exactly when the stores have the same set of lineage behaviours).
* Each record is a **payload**: a self-loop labelled ``rec:<canonical JSON of the
  record>`` (the :mod:`coalg.model.jsonio` record object, sorted keys).  An identifier
  without a record (a dangling endpoint, ⊥) has no such loop.
* Each edge ``(i, r, j)`` is a transition labelled with the relation's value
  (``evolved_from``, …).

Reading uses :func:`coalg.bisim.aut_read.read_aut` with ``payload_prefix="rec:"``; anything
else (an unknown relation, a malformed record, a root without ``id:`` labels
when identifiers are asked for) raises :class:`~coalg.errors.InputError`.

>>> from coalg.model.records import Record, Relation
>>> from coalg.model.store import Store
>>> s = Store.of({"a": Record("x"), "b": Record("y")}, [("b", Relation.EVOLVED_FROM, "a")])
>>> text = dumps_lineage_aut(s)
>>> print(text.splitlines()[0])
des (0,5,3)
>>> loads_lineage_aut(text) == s
True
"""

from __future__ import annotations

import io
import json

from ..errors import InputError
from ..model import Edge, Relation, Store, record_from_json, record_to_json
from .aut import AutLTS
from .aut_read import read_aut
from .aut_write import write_aut

__all__ = ["store_to_aut", "dumps_lineage_aut", "loads_lineage_aut", "aut_to_store"]

PAYLOAD = "rec:"
ID = "id:"
MEMBER = "member"


def store_to_aut(s: Store, *, keep_ids: bool = True) -> AutLTS:
    """The lineage coalgebra of ``s`` as an :class:`~coalg.bisim.aut.AutLTS` (encoding in the module docstring)."""
    order = sorted(s.ids())
    state = {i: k + 1 for k, i in enumerate(order)}
    triples: list[tuple[int, str, int]] = [(0, f"{ID}{i}" if keep_ids else MEMBER, state[i]) for i in order]
    for i in order:
        if i in s.records:
            payload = json.dumps(record_to_json(s.records[i]), sort_keys=True, ensure_ascii=False)
            if "\n" in payload:
                raise InputError(f"record {i} cannot be written to .aut: its JSON has a line break")
            triples.append((state[i], PAYLOAD + payload, state[i]))
    for e in sorted(s.edges):
        triples.append((state[e.source], e.relation.value, state[e.target]))
    return AutLTS.from_transitions(0, len(order) + 1, triples)


def dumps_lineage_aut(s: Store, *, keep_ids: bool = True) -> str:
    """The ``.aut`` text of a store's lineage coalgebra."""
    out = io.StringIO()
    write_aut(out, store_to_aut(s, keep_ids=keep_ids))
    return out.getvalue()


def aut_to_store(aut: AutLTS, *, source: str = "<aut>") -> Store:
    """Read back a store written by :func:`store_to_aut` (``aut`` read with ``payload_prefix="rec:"``)."""
    if aut.payload_prefix != PAYLOAD:
        raise InputError(f"read the file with payload_prefix={PAYLOAD!r} to recover records", source=source)
    names: dict[int, str] = {}
    edges: list[Edge] = []
    for s, a, t in aut.transitions():
        label = aut.labels[a]
        if s == aut.initial:
            if not label.startswith(ID):
                raise InputError(f"root transition {label!r}: expected 'id:<identifier>' (export with keep_ids)",
                                 source=source)
            names[t] = label[len(ID):]
    for s, a, t in aut.transitions():
        if s == aut.initial:
            continue
        label = aut.labels[a]
        try:
            rel = Relation(label)
        except ValueError:
            raise InputError(f"unknown relation {label!r} on transition ({s}, {t})", source=source) from None
        if s not in names or t not in names:
            raise InputError(f"transition ({s}, {label}, {t}) leaves the identifiers the root names",
                             source=source)
        edges.append(Edge(names[s], rel, names[t]))
    records = {}
    assert aut.observations is not None
    for state, name in names.items():
        k = aut.observations[state]
        if k:
            where = f"record of {name}"
            try:
                obj = json.loads(aut.payloads[k - 1])
            except json.JSONDecodeError as e:
                raise InputError(f"{where}: not JSON ({e.msg})", source=source) from None
            records[name] = record_from_json(obj, where)
    return Store.of(records, edges)


def loads_lineage_aut(text: str, *, source: str = "<aut>") -> Store:
    """Parse ``.aut`` text written by :func:`dumps_lineage_aut`."""
    return aut_to_store(read_aut(io.StringIO(text), payload_prefix=PAYLOAD), source=source)
