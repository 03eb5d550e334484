"""The two false failures of issue 26, and the same class of bug: the kit must never fail a correct layer.

* L2 and L3 are redundancy laws: a layer that records ancestry one way only
  (edges without metadata, metadata without edges, edges without inverses)
  cannot disagree with itself and holds "with one representation"; a layer
  that shows both and lets them drift still fails, with the first witness.
* Birth order (the prefix rule ``oldest``) belongs to the record, not to the
  canonical name a delete frees and a later save reuses.
* A canonical name taken by a new record is the new record's only.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import conform_layers as base

from coalg.conformance import conform
from coalg.conformance.blackbox import BlackBox
from coalg.conformance.detect import inspect_layer
from coalg.conformance.explore import rerun, start
from coalg.conformance.judge import Judge
from coalg.conformance.snapshot import Naming
from coalg.model import Record
from coalg.model import alphabet as A

FAST = {"length": 2, "walks": 0, "orders": False}
ANCESTRY_KEYS = ("evolved_from", "merged_from", "split_from")


class EdgesOnly(base.GoodMemory):
    """Lineage as edges both ways; records carry no ancestry metadata."""

    def records(self) -> dict[str, dict[str, Any]]:
        return {i: {**r, "metadata": dict(r["metadata"])} for i, r in self._records.items()}


class MetadataOnly(base.GoodMemory):
    """Lineage as metadata only: no edges at all."""

    def edges(self) -> list[tuple[str, str, str]]:
        return []


class OneWayEdges(EdgesOnly):
    """Ancestry edges only, no inverses."""

    def edges(self) -> list[tuple[str, str, str]]:
        return sorted(e for e in self._edges if e[1] in ANCESTRY_KEYS)


class EvolveForgetsMetadata(base.GoodMemory):
    """Both representations, but an evolved record's metadata leaves out evolved_from: a true L2 failure."""

    def records(self) -> dict[str, dict[str, Any]]:
        out = super().records()
        for r in out.values():
            r["metadata"].pop("evolved_from", None)
        return out


class AncestryAsLists(base.GoodMemory):
    """Both representations, every ancestry key a list (``evolved_from: [parent]``), in the order the call named them."""

    def records(self) -> dict[str, dict[str, Any]]:
        out = super().records()
        for r in out.values():
            for k in ("evolved_from", "split_from"):
                if k in r["metadata"]:
                    r["metadata"][k] = [r["metadata"][k]]
        return out


class SplitForgetsInverse(base.GoodMemory):
    """Edges both ways except split_into: a true L3 failure."""

    def edges(self) -> list[tuple[str, str, str]]:
        return sorted(e for e in self._edges if e[1] != "split_into")


def test_edges_only_lineage_holds_l2_with_one_representation():
    r = conform(EdgesOnly, **FAST)
    l2 = r["clauses"]["L2"]
    assert l2["holds"] is True and l2["reason"].startswith("holds (one representation)")
    assert "only as edges" in l2["reason"] and l2["representations"] == ["edges"]
    assert r["clauses"]["L7"]["reason"].startswith("no reached store has a dangling")  # edges shown: judged
    assert all(e["holds"] is not False for e in r["clauses"].values())


def test_metadata_only_lineage_holds_l2_with_one_representation():
    r = conform(MetadataOnly, **FAST)
    l2 = r["clauses"]["L2"]
    assert l2["holds"] is True and "only as metadata" in l2["reason"] and l2["representations"] == ["metadata"]
    l3 = r["clauses"]["L3"]  # no edge at all: nothing an inverse could be missing from, and the reason says so
    assert l3["holds"] is True and l3["reason"].startswith("holds (nothing to compare): the layer showed no edge")
    assert l3["representations"] == []
    l7 = r["clauses"]["L7"]  # nor one that could dangle: L7 says it judged nothing
    assert l7["holds"] is True and l7["reason"].startswith("holds (nothing to judge): the layer showed no edge")


def test_one_way_edges_hold_l3_with_one_representation():
    r = conform(OneWayEdges, **FAST)
    l3 = r["clauses"]["L3"]
    assert l3["holds"] is True and "one way only" in l3["reason"] and l3["representations"] == ["edge"]
    assert l3["explored"] > 3  # every derivation is still counted, not only those before the first one-way edge


def test_ancestry_metadata_held_in_lists_agrees_with_the_edges():
    r = conform(AncestryAsLists, **FAST)
    l2 = r["clauses"]["L2"]
    assert l2["holds"] is True and l2["representations"] == ["edges", "metadata"]
    assert not l2["reason"].startswith("holds (one representation)")
    assert all(e["holds"] is not False for e in r["clauses"].values())


def test_two_representations_that_drift_still_fail_l2_with_the_shortest_witness():
    r = conform(EvolveForgetsMetadata, **FAST)
    l2 = r["clauses"]["L2"]
    assert l2["holds"] is False and l2["representations"] == ["edges", "metadata"]
    assert l2["witness"]["length"] == 2 and "evolve(" in l2["witness"]["calls"][-1]
    assert "records this both ways" in l2["reason"] and "split(" in l2["reason"]


def test_edges_both_ways_that_drift_still_fail_l3():
    r = conform(SplitForgetsInverse, **FAST)
    assert r["clauses"]["L3"]["holds"] is False
    assert "split(" in r["clauses"]["L3"]["witness"]["calls"][-1]


class OldestRule:
    """Resolves an ambiguous prefix to the record created first; identifiers are never reused."""

    prefix_arguments = True
    prefix_rule = "oldest"

    def __init__(self) -> None:
        self.rs: dict[str, dict[str, Any]] = {}
        self.n = 0

    def _ref(self, ref: str) -> str:
        hits = [i for i in self.rs if i.startswith(ref)]  # dicts keep insertion order: oldest first
        if not hits:
            raise KeyError(ref)
        return ref if ref in self.rs else hits[0]

    def recall(self, ref: str) -> str | None:
        try:
            return self._ref(ref)
        except KeyError:
            return None

    def save(self, content: str, *, type: str = "fact", namespace: str = "global", tags: Sequence[str] = (),
             metadata: Any = None) -> str:
        self.n += 1
        i = f"{self.n}q"
        self.rs[i] = {"content": content, "type": type, "namespace": namespace, "tags": sorted(tags)}
        return i

    def evolve(self, id: str, content: str) -> str:
        raise NotImplementedError

    def merge(self, ids: Sequence[str]) -> str:
        raise NotImplementedError

    def split(self, id: str, parts: Sequence[str]) -> list[str]:
        raise NotImplementedError

    def supersede(self, old: str, new: str) -> None:
        raise NotImplementedError

    def delete(self, id: str) -> None:
        del self.rs[self._ref(id)]

    def records(self) -> dict[str, dict[str, Any]]:
        return {i: dict(r) for i, r in self.rs.items()}

    def edges(self) -> list[tuple[str, str, str]]:
        return []


def test_birth_order_follows_the_record_not_its_reused_canonical_name():
    # the witness: save, save, merge (refused), delete(id0001), save, recall by prefix
    bb = BlackBox(OldestRule, inspect_layer(OldestRule))
    word = [A.Save(Record("a", namespace="alice")), A.Save(Record("k", namespace="bob")),
            A.Merge(("id0001", "id0002")), A.Delete("id0001"), A.Save(Record("b", namespace="alice")),
            A.RecallPrefix("id000")]
    ts = list(rerun(bb.realisation, start(bb.fresh), word))
    assert [t.ok for t in ts] == [True, True, False, True, True, True]
    assert sorted(ts[4].after.records) == ["id0001", "id0002"]  # the new record took the freed name
    note = bb.notes[(ts[5].before, ts[5].call)]
    assert note.rule_choice == "id0002" == note.resolved  # 'k', saved second, is now the oldest record
    n, problem, _ = Judge(bb).check("L5", ts[5])
    assert n == 1 and problem is None
    bb.release()


def test_a_reused_canonical_name_is_the_new_records_only():
    names = Naming()
    names.bind("u-1", "id0001")
    names.bind("u-9", "id0001")  # u-1 was deleted; a new record took its name
    assert names.name("u-9") == "id0001" and names.real["id0001"] == "u-9"
    assert names.name("u-1").startswith("unnamed")  # an edge a delete left behind names no live record


def test_parents_shown_from_the_parents_side_are_compared_with_the_metadata():
    """A layer that writes only evolved_into/merged_into/split_into edges shows each record's parents from the
    parent's side; with ancestry metadata beside them it shows ancestry twice, and L2 compares the two
    (it held "with one representation" before, whatever the metadata said)."""
    good = conform(base.IntoOnly, length=3, walks=0, orders=False)["clauses"]
    assert good["L2"]["holds"] is True and not good["L2"]["reason"].startswith("holds (one representation)")
    assert good["L3"]["reason"].startswith("holds (one representation)")
    bad = conform(base.PlantedL2IntoOnly, length=3, walks=0, orders=False)["clauses"]
    assert bad["L2"]["holds"] is False and "merge(" in " ".join(bad["L2"]["witness"]["calls"])
    assert {k for k, e in bad.items() if e["holds"] is False} == {"L2"}
