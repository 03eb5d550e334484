"""The book's two realisations behind the protocol (the ContextFS model and our repaired one): one code path for
the book's check and a user's.

:class:`RealisationLayer` puts any :class:`~coalg.model.Realisation` behind
the memory-layer protocol: it holds a store, and each call is one step
α(s)(a, ξ) of the realisation, with an allocation the layer makes itself
(ContextFS-shaped identifiers, :func:`~coalg.model.uuid_like_ids`).  A step
that outputs ``Err`` raises ``ValueError`` -- a refusal.  The factories:

* :func:`contextfs` -- the released ``contextfs`` 0.2.35 itself, through the
  runtime adapter :data:`coalg.contextfs.RUNTIME` (each call runs the
  package on a SQLite file; needs the package installed).  ``coalg conform
  coalg.conformance.examples:contextfs`` reproduces Table 2 on the package:
  L1, L3, L4(i) and S1–S4 hold, L2, L4(ii), L5, L6 and L7 fail;
* :func:`contextfs_model` -- the same through the model of §3.3
  (:data:`coalg.model.CONTEXTFS`), fast, with the same verdicts;
* :func:`repaired` -- :data:`coalg.model.REPAIRED`: every clause holds.

The ContextFS layers take prefixes (``prefix_arguments``, ``recall``) and
ids for ``save`` (``save_at``), as the package does; the repaired layer takes
ids and valid times and answers ``recall`` only for a unique prefix.

Two choices are the layer's, not the realisation's.  ``records()`` shows a
record through the realisation's reader (REPAIRED derives ancestry metadata
from the edges) with its clock readings erased (:func:`~coalg.model.erase_allocation`).
And every call is stamped at clock 0: the protocol carries no transaction
time, and a clock counting the layer's calls would be state that every
namespace shares -- a record's default valid time would then tell a reader
in one namespace how busy another one is, and L4 would rightly say so.

>>> m = repaired()
>>> a = m.save("the meeting is at 10", namespace="team")
>>> b = m.evolve(a, "the meeting is at 11")
>>> m.records()[b]["metadata"]["evolved_from"] == a, sorted(r for _, r, _ in m.edges())
(True, ['evolved_from', 'evolved_into'])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..model import (
    CONTEXTFS,
    EMPTY,
    REPAIRED,
    Allocation,
    Created,
    Err,
    Found,
    FrozenMap,
    Letter,
    Oracle,
    Output,
    Realisation,
    Record,
    Store,
    creates,
    erase_allocation,
    thaw,
    uuid_like_ids,
)
from ..model import alphabet as A

__all__ = [
    "ContextFSModelLayer",
    "ContextFSRuntimeLayer",
    "RealisationLayer",
    "RepairedLayer",
    "contextfs",
    "contextfs_model",
    "repaired",
]

CLOCK = 0
"""The clock reading every call of a :class:`RealisationLayer` is stamped with."""

_IDS = tuple(uuid_like_ids(4096, seed=2025))


class RealisationLayer:
    """A realisation behind the protocol (subclasses choose the realisation and the signatures)."""

    realisation: Realisation = CONTEXTFS
    prefix_arguments = False

    def __init__(self) -> None:
        self._store: Store = EMPTY
        self._oracle = Oracle(ids=_IDS)

    def _do(self, a: Letter, ids: Sequence[str] | None = None) -> Output:
        fresh = tuple(ids) if ids is not None else tuple(self._oracle.fresh_id(self._store) for _ in range(creates(a)))
        out, self._store = self.realisation.step(self._store, a, Allocation(fresh, CLOCK))
        refused = out.reason if isinstance(out, Err) else None
        if refused is not None:
            raise ValueError(refused)  # a refusal, as the protocol has it
        return out

    def _made(self, a: Letter, ids: Sequence[str] | None = None) -> list[str]:
        out = self._do(a, ids)
        assert isinstance(out, Created)
        return list(out.ids)

    def _pfx(self, *refs: str) -> bool:
        return self.prefix_arguments and any(r not in self._store.records for r in refs)

    def _save(self, content: str, type: str, namespace: str, tags: Sequence[str],
              metadata: Mapping[str, Any] | None, id: str | None, valid_time: Any = None) -> str:
        r = Record(content, type=type, namespace=namespace, tags=frozenset(tags), metadata=FrozenMap(metadata or {}),
                   valid_time=valid_time)
        if id is not None and id in self._store.records:
            return self._made(A.SaveAt(id, r), ())[0]
        return self._made(A.Save(r), None if id is None else (id,))[0]

    def _recall(self, ref: str) -> str | None:
        out = self._do(A.RecallPrefix(ref))
        return out.id if isinstance(out, Found) else None

    def supersede(self, old: str, new: str) -> None:
        self._do(A.Supersede(old, new))

    def delete(self, id: str) -> None:
        self._do(A.Delete(id, by_prefix=self._pfx(id)))

    def records(self) -> dict[str, dict[str, Any]]:
        view = getattr(self.realisation, "record_view", None)
        out = {}
        for i, stored in self._store.records.items():
            r = erase_allocation(view(self._store, i) if view is not None else stored)
            out[i] = {"content": r.content, "type": r.type, "namespace": r.namespace, "tags": sorted(r.tags),
                      "metadata": thaw(r.metadata), "valid_time": r.valid_time}
        return out

    def edges(self) -> list[tuple[str, str, str]]:
        return [(e.source, e.relation.value, e.target) for e in sorted(self._store.edges)]


class ContextFSModelLayer(RealisationLayer):
    """The ContextFS model of §3.3 behind the protocol: prefixes accepted, ``save`` at a given id."""

    realisation = CONTEXTFS
    prefix_arguments = True

    def save(self, content: str, *, type: str = "fact", namespace: str = "global", tags: Sequence[str] = (),
             metadata: Mapping[str, Any] | None = None, id: str | None = None) -> str:
        return self._save(content, type, namespace, tags, metadata, id)

    def recall(self, ref: str) -> str | None:
        return self._recall(ref)

    def evolve(self, id: str, content: str) -> str:
        return self._made(A.Evolve(id, content, by_prefix=self._pfx(id)))[0]

    def merge(self, ids: Sequence[str]) -> str:
        return self._made(A.Merge(tuple(ids), by_prefix=self._pfx(*ids)))[0]

    def split(self, id: str, parts: Sequence[str]) -> list[str]:
        return self._made(A.Split(id, tuple(parts), by_prefix=self._pfx(id)))

    def records(self) -> dict[str, dict[str, Any]]:
        out = super().records()
        for r in out.values():
            del r["valid_time"]  # ContextFS has no valid time
        return out


class ContextFSRuntimeLayer(ContextFSModelLayer):
    """The released ``contextfs`` 0.2.35 behind the protocol, through the runtime adapter."""

    def __init__(self) -> None:
        from ..contextfs import RUNTIME, require

        require()
        super().__init__()
        self.realisation = RUNTIME


class RepairedLayer(RealisationLayer):
    """The repaired realisation behind the protocol: ids for ``save``, valid times, unique prefixes in ``recall``."""

    realisation = REPAIRED

    def save(self, content: str, *, type: str = "fact", namespace: str = "global", tags: Sequence[str] = (),
             metadata: Mapping[str, Any] | None = None, id: str | None = None, valid_time: int | None = None) -> str:
        return self._save(content, type, namespace, tags, metadata, id, valid_time)

    def recall(self, ref: str) -> str | None:
        return self._recall(ref)

    def evolve(self, id: str, content: str, *, valid_time: int | None = None) -> str:
        return self._made(A.Evolve(id, content, valid_time=valid_time))[0]

    def merge(self, ids: Sequence[str], *, valid_time: int | None = None) -> str:
        return self._made(A.Merge(tuple(ids), valid_time=valid_time))[0]

    def split(self, id: str, parts: Sequence[str], *, valid_time: int | None = None) -> list[str]:
        return self._made(A.Split(id, tuple(parts), valid_time=valid_time))


def contextfs() -> ContextFSRuntimeLayer:
    """A fresh layer on the released ``contextfs`` package (raises when it is not installed)."""
    return ContextFSRuntimeLayer()


def contextfs_model() -> ContextFSModelLayer:
    """A fresh layer on the ContextFS model."""
    return ContextFSModelLayer()


def repaired() -> RepairedLayer:
    """A fresh layer on the repaired realisation."""
    return RepairedLayer()
