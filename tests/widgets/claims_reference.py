"""Small reference code for the explorers' printed claims, written from the definitions only.

The claim tests compare what an explorer prints with what these functions
compute.  Only values (``Store``, ``Record``, ``Relation``) come from ``coalg``:
reachability, the records an ancestry or a descendant set holds, the fields in
which two records differ and what the bitemporal query answers are all computed
here, naively, so that a bug in the explorer's own helpers cannot make a test
pass.

* Ancestry ⟦i⟧⁻ (Definition 3.19): the records and labelled edges reachable
  from ``i`` along the ancestry labels (evolved_from, merged_from, split_from);
  two ancestries are the same unfolding exactly when these agree.
* Descendants: the same along evolved_into, merged_into, split_into.
* Obs^vt in the asserted mode (Proposition 7.1, as the book reconstructs it):
  the records with ``created_at ≤ τt`` and ``valid_time ≤ τv``.
"""

from __future__ import annotations

from typing import Any

from coalg.model import Record, Relation, Store

R = Relation
ANC = frozenset({R.EVOLVED_FROM, R.MERGED_FROM, R.SPLIT_FROM})
DESC = frozenset({R.EVOLVED_INTO, R.MERGED_INTO, R.SPLIT_INTO})
FIELDS = ("content", "type", "namespace", "tags", "summary", "metadata", "created_at", "updated_at",
          "valid_time")


def reach(s: Store, i: str, labels: frozenset[Relation]) -> tuple[set[str], set[tuple[str, str, str]]]:
    """Identifiers reachable from ``i`` (``i`` included) along ``labels``, and the edges followed."""
    seen, edges, todo = {i}, set(), [i]
    while todo:
        x = todo.pop()
        for e in s.edges:
            if e.source == x and e.relation in labels:
                edges.add((e.source, e.relation.value, e.target))
                if e.target not in seen:
                    seen.add(e.target)
                    todo.append(e.target)
    return seen, edges


def lineage_view(s: Store, i: str, labels: frozenset[Relation]) -> tuple[frozenset[Any], frozenset[Any]]:
    """What an unfolding along ``labels`` from ``i`` determines: each reached identifier with its
    record (``None`` for ⊥) and the edges followed."""
    ids, edges = reach(s, i, labels)
    return frozenset((x, s.records.get(x)) for x in ids), frozenset(edges)


def with_record(s: Store, i: str, labels: frozenset[Relation]) -> set[str]:
    """The reached identifiers that hold a record."""
    return {x for x in reach(s, i, labels)[0] if x in s.records}


def differing_fields(a: Record, b: Record) -> set[str]:
    """The fields in which two records differ."""
    return {f for f in FIELDS if getattr(a, f) != getattr(b, f)}


def asserted(s: Store, tt: int, tv: int) -> dict[str, Record]:
    """Obs^vt in the asserted mode: on file by τt and valid from a time ≤ τv."""
    return {i: r for i, r in sorted(s.records.items())
            if r.created_at is not None and r.created_at <= tt and r.valid_time is not None and r.valid_time <= tv}


def refinement_blocks(s: Store) -> list[int]:
    """The number of blocks after each round of naive partition refinement on ``s``'s identifiers:
    round 0 groups by record (⊥ for an identifier without one); a round splits a block by the set of
    (label, block of the target) its edges give; the last entry is the first stable round."""
    ids = sorted(s.records.keys() | {e.source for e in s.edges} | {e.target for e in s.edges})
    key0 = {i: repr(s.records.get(i)) for i in ids}
    names = {k: n for n, k in enumerate(sorted(set(key0.values())))}
    block = {i: names[key0[i]] for i in ids}
    counts = [len(set(block.values()))]
    while True:
        sig = {i: (block[i], tuple(sorted({(e.relation.value, block[e.target]) for e in s.edges if e.source == i})))
               for i in ids}
        names2 = {k: n for n, k in enumerate(sorted(set(sig.values())))}
        new = {i: names2[sig[i]] for i in ids}
        if len(set(new.values())) == counts[-1]:
            return counts
        block = new
        counts.append(len(set(new.values())))
