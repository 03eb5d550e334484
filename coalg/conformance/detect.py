"""Before exploring: one fresh layer, its methods, signatures and observations checked, its capabilities read.

>>> from coalg.conformance.examples import repaired
>>> inspect_layer(repaired).names
('save_at', 'prefix_recall', 'valid_time')
>>> inspect_layer(lambda: 42)
Traceback (most recent call last):
...
coalg.conformance.protocol.ProtocolMisuse: save: the layer has no method save; expected save(content, *, type='fact', namespace='global', tags=(), metadata=None) -> str
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import partial
from typing import Any

from .compare import ANCESTRY_KEYS, strings
from .guard import describe, layer_call
from .protocol import (
    Capabilities,
    ProtocolMisuse,
    capabilities_of,
    check_methods,
    close_layer,
    make_layer,
)
from .snapshot import bounded_pattern, read_edges, read_records, searchable

__all__ = ["inspect_layer"]


def inspect_layer(factory: Callable[[], Any]) -> Capabilities:
    """Check the protocol on a fresh layer and read its capabilities.

    Raises :class:`~coalg.conformance.protocol.BadLayer` when the factory
    cannot make a layer, and :class:`~coalg.conformance.protocol.ProtocolMisuse`
    (one line naming the method and what was expected) when a method is
    missing, has the wrong signature, or ``records()``/``edges()`` of the fresh
    layer have the wrong shape -- or it already holds records or edges.
    """
    with layer_call("factory"):
        layer = make_layer(factory)
    try:
        with layer_call("attributes"):
            check_methods(layer)
            caps = capabilities_of(layer)
    except ProtocolMisuse:
        raise
    except Exception as e:  # noqa: BLE001 - a property of the layer raised
        raise ProtocolMisuse(f"reading the layer's methods and attributes raised {describe(e)}") from None
    records, edges = read_records(layer), read_edges(layer)
    if records:
        raise ProtocolMisuse(f"records: a fresh layer must hold no record; this one holds {len(records)}")
    if edges:
        raise ProtocolMisuse(f"edges: a fresh layer must hold no edge; this one holds {len(edges)}")
    try:
        with layer_call("close"):
            close_layer(layer, caps)
    except ProtocolMisuse:
        raise
    except Exception as e:  # noqa: BLE001 - closing must not fail
        raise ProtocolMisuse(f"close: raised {describe(e)}") from None
    fresh = _fresh_ids(factory, caps)
    inside, whole = _ids_written(factory, caps, fresh)
    return replace(caps, fresh_ids=fresh, ids_in_text=inside, ids_in_metadata=whole)


def _fresh_ids(factory: Callable[[], Any], caps: Capabilities) -> bool:
    """Whether two fresh layers answer the same first save with other identifiers (``False`` if either
    save fails: the exploration then says what went wrong)."""
    got = []
    for _ in range(2):
        try:
            with layer_call("save"):
                layer = make_layer(factory)
                try:
                    got.append(layer.save("a", type="fact", namespace="alice"))
                finally:
                    close_layer(layer, caps)
        except Exception:  # noqa: BLE001 - a refusal or a misuse: the exploration meets it and says so
            return False
    return type(got[0]) is str and type(got[1]) is str and got[0] != got[1]


PROBE_WORDS = ("note one", "note two", "note three", "note four", "note five", "note six")
"""The contents of the records :func:`_ids_written` saves, evolves and splits: words the kit writes nowhere
else, so that a layer's identifier spelled like one of the kit's words (``a``, ``p1``) is not taken for
the content a layer copied."""


def _ids_written(factory: Callable[[], Any], caps: Capabilities, digits: bool) -> tuple[bool, bool]:
    """Whether a fresh layer, after an evolve, a split, a merge and a supersede, shows one of the
    identifiers it returned standing inside a longer string of a record (content, a tag, a metadata
    string at any depth; only identifiers :func:`~coalg.conformance.snapshot.searchable` count); and
    whether it shows one whole as a metadata string other than the ancestry keys (a ``"root"``, a
    ``"see_also"``).

    Each call acts on records saved for it alone, all facts of one namespace, so that a layer which
    refuses some derivations (of a record already derived from, of records of different types) still
    makes the others. A call the layer refuses is left out; a misuse is ``(False, False)`` (the
    exploration meets it and says so)."""
    try:
        with layer_call("save"):
            layer = make_layer(factory)
        try:
            ids: list[str] = []

            def call(f: Callable[[], Any]) -> None:
                try:
                    with layer_call("save"):
                        got = f()
                except ProtocolMisuse:
                    raise
                except Exception:  # noqa: BLE001 - a refusal: the probe goes on without it
                    return
                many = isinstance(got, Sequence) and not isinstance(got, (str, bytes))  # a split's identifiers
                ids.extend(x for x in (list(got) if many else [got]) if type(x) is str)

            def saved(n: int) -> list[str]:
                before = len(ids)
                for content in PROBE_WORDS[:n]:
                    call(partial(layer.save, content, type="fact", namespace="alice"))
                return ids[before:] if len(ids) - before == n else []

            if one := saved(1):
                call(lambda: layer.evolve(one[0], PROBE_WORDS[-1]))
            if one := saved(1):
                call(lambda: layer.split(one[0], list(PROBE_WORDS[-2:])))
            if two := saved(2):
                call(lambda: layer.merge(two))
            if two := saved(2):
                call(lambda: layer.supersede(two[0], two[1]))
            records = read_records(layer)
        finally:
            close_layer(layer, caps)
    except Exception:  # noqa: BLE001 - a misuse: the exploration meets it and says so
        return False, False
    whole = any(s in ids for *_, meta, _ in records.values() for k, v in meta.items() if k not in ANCESTRY_KEYS
                for s in strings(v))
    pattern = bounded_pattern(i for i in ids if searchable(i, digits))
    if pattern is None:
        return False, whole
    texts = [s for content, _, _, tags, meta, _ in records.values() for s in (content, *tags, *strings(meta))]
    return any(s not in ids and pattern.search(s) is not None for s in texts), whole

