"""A witness found on a random walk is shrunk to a 1-minimal word: checked by making its words on the layer here.

The kit enumerates every word up to ``length`` breadth first, so a flaw that
needs a longer word is found by a seeded random walk, whose word is then cut
a call at a time while the clause still fails (``explore.shrink``, through
``Judge._shrunk``; for an insertion order, ``order._shrink_reorder``), and
the report says "no single call can be removed".  No other test checked that
claim (mutants that skip the shrinking, stop after one removal, or drop what
the shrunk witness cites survived).  Here four small layers, each written for
this file with one slip that needs more calls than the breadth-first length,
go through :func:`~coalg.conformance.conform`, and each witness's word is made
on fresh layers by this file's own interpreter of the letters (:func:`made`),
never by the kit's replay or shrink:

* the word shows the flaw at its last call, and the word less any one call
  shows it nowhere (1-minimal): the left-out call's records are named by
  nothing, the later calls name the records they named before;
* the walk the report names, made again from its seed, first showed the flaw
  at least two calls later than the witness: there was shrinking to do, and
  more than one step of it;
* what a shrunk witness cites besides its word holds: the other run L4(ii)
  compared with, and, on the full alphabet, the refusal an L1 witness is.

A fifth test gives ``explore.shrink`` a word and a predicate directly: a call
that named a left-out call's record must then name nothing.  The layers keep
plain Python state (no sets of strings, no hashing), so nothing here depends
on ``PYTHONHASHSEED``; every seed is fixed.
"""

from __future__ import annotations

import copy
import hashlib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from coalg.conformance import conform
from coalg.conformance.alphabet import SAVED, alphabet
from coalg.conformance.blackbox import BlackBox
from coalg.conformance.detect import inspect_layer
from coalg.conformance.explore import rerun, shrink, start, walks
from coalg.conformance.protocol import factory_spec
from coalg.laws import UNKNOWN, Transition
from coalg.model import Letter, call_to_json
from coalg.model import alphabet as A

INVERSE = {"evolved_from": "evolved_into", "merged_from": "merged_into", "split_from": "split_into",
           "supersedes": "superseded_by"}
T = TypeVar("T")
WALK = 8  # the kit's walk length (coalg.conformance.WALK_LENGTH), passed explicitly below


# =========================================================================== a correct layer, and four slips


class Notebook:
    """A plain dict layer, correct as far as this file goes: counter identifiers ``r1, r2, ...``, edges both
    ways, ancestry as edges only.  Each subclass below changes one thing."""

    def __init__(self) -> None:
        self.rows: dict[str, dict[str, Any]] = {}
        self.links: set[tuple[str, str, str]] = set()
        self.count = 0

    def _put(self, fields: dict[str, Any]) -> str:
        self.count += 1
        k = f"r{self.count}"
        self.rows[k] = fields
        return k

    def _row(self, k: str) -> dict[str, Any]:
        if k not in self.rows:
            raise KeyError(k)
        return self.rows[k]

    def _link(self, a: str, rel: str, b: str) -> None:
        self.links |= {(a, rel, b), (b, INVERSE[rel], a)}

    def save(self, content: str, *, type: str = "fact", namespace: str = "global", tags: Sequence[str] = (),
             metadata: dict[str, Any] | None = None) -> str:
        return self._put({"content": content, "type": type, "namespace": namespace, "tags": sorted(tags),
                          "metadata": dict(metadata or {})})

    def evolve(self, id: str, content: str) -> str:
        r = self._row(id)
        k = self._put({**r, "content": content, "metadata": {}})
        self._link(k, "evolved_from", id)
        return k

    def merge(self, ids: Sequence[str]) -> str:
        rs = [self._row(i) for i in ids]
        if len(set(ids)) < 2 or len({r["namespace"] for r in rs}) > 1:
            raise ValueError("merge two or more records of one namespace")
        k = self._put({"content": "+".join(r["content"] for r in rs), "type": min(r["type"] for r in rs),
                       "namespace": rs[0]["namespace"], "tags": sorted({t for r in rs for t in r["tags"]}),
                       "metadata": {}})
        for i in ids:
            self._link(k, "merged_from", i)
        return k

    def split(self, id: str, parts: Sequence[str]) -> list[str]:
        r = self._row(id)
        if len(parts) < 2:
            raise ValueError("split into two parts or more")
        out = [self._put({**r, "content": p, "metadata": {}}) for p in parts]
        for k in out:
            self._link(k, "split_from", id)
        return out

    def supersede(self, old: str, new: str) -> None:
        self._row(old)
        self._row(new)
        if old == new:
            raise ValueError("supersede needs two records")
        self._link(new, "supersedes", old)

    def delete(self, id: str) -> None:
        self._row(id)
        del self.rows[id]
        self.links = {e for e in self.links if id not in (e[0], e[2])}

    def records(self) -> dict[str, dict[str, Any]]:
        return {k: {**r, "tags": list(r["tags"]), "metadata": dict(r["metadata"])} for k, r in self.rows.items()}

    def edges(self) -> list[tuple[str, str, str]]:
        return sorted(self.links)


class OneLiveSuccessor(Notebook):
    """Evolving a record again marks the successor it had as stale: an existing record changes (L1).  It
    takes three calls (a save, two evolves of it), and other calls of a walk come in between."""

    def evolve(self, id: str, content: str) -> str:
        for a, rel, b in self.links:
            if rel == "evolved_from" and b == id:
                self.rows[a]["metadata"] = {"stale": True}
        return super().evolve(id, content)


class GlobalVersion(Notebook):
    """An evolved record is numbered among every record with its content, in every namespace: what it is
    made of depends on records outside its namespace (L4(ii)).  It takes a record of that content in
    another namespace first: four calls."""

    def evolve(self, id: str, content: str) -> str:
        k = super().evolve(id, content)
        self.rows[k]["metadata"] = {"version": sum(r["content"] == content for r in self.rows.values())}
        return k


class Drafts(Notebook):
    """``save(..., id=x)`` replaces record x as a draft, kept until a later call succeeds; a call that fails
    undoes the draft, so a refusal changes a record (L1).  A replacement is a call of the full alphabet only,
    and the slip takes three calls: a save, its replacement, a refusal."""

    def __init__(self) -> None:
        super().__init__()
        self.drafts: dict[str, dict[str, Any]] = {}

    def _unit(self, act: Callable[..., T], *args: Any) -> T:
        try:
            out = act(*args)
        except Exception:
            self.rows.update(self.drafts)
            self.drafts.clear()
            raise
        self.drafts.clear()
        return out

    def save(self, content: str, *, type: str = "fact", namespace: str = "global", tags: Sequence[str] = (),
             metadata: dict[str, Any] | None = None, id: str | None = None) -> str:
        if id is None:
            return self._unit(lambda: super(Drafts, self).save(content, type=type, namespace=namespace, tags=tags,
                                                               metadata=metadata))
        if id not in self.rows:  # nothing to replace: refused, and this refusal too undoes the drafts
            return self._unit(lambda: str(self._row(id)))
        self.drafts.setdefault(id, self.rows[id])
        self.rows[id] = {"content": content, "type": type, "namespace": namespace, "tags": sorted(tags),
                         "metadata": dict(metadata or {})}
        return id

    def evolve(self, id: str, content: str) -> str:
        return self._unit(super().evolve, id, content)

    def merge(self, ids: Sequence[str]) -> str:
        return self._unit(super().merge, ids)

    def split(self, id: str, parts: Sequence[str]) -> list[str]:
        return self._unit(super().split, id, parts)

    def supersede(self, old: str, new: str) -> None:
        self._unit(super().supersede, old, new)

    def delete(self, id: str) -> None:
        self._unit(super().delete, id)


class OldestFirst(Notebook):
    """A merge joins its parents' contents oldest first, whatever order the call names them in: two saves
    made in the other order give another merged record (L5, insertion order).  Two saves in a row and their
    merge: words of one call cannot show it, the walks can.  Its identifiers are derived from the content
    (and how many equal records came before), so the order of creation is hidden and two saves made in the
    other order keep their identifiers (with counter identifiers the order would be the identifiers',
    which a call may read)."""

    def _put(self, fields: dict[str, Any]) -> str:
        self.count += 1
        key = f"{fields['content']}|{fields['type']}|{fields['namespace']}"
        seen = self.__dict__.setdefault("seen", {})
        seen[key] = seen.get(key, 0) + 1
        k = "r" + hashlib.sha1(f"{key}|{seen[key]}".encode()).hexdigest()[:10]
        self.rows[k] = {**fields, "_born": self.count}
        return k

    def records(self) -> dict[str, dict[str, Any]]:
        return {k: {f: v for f, v in r.items() if f != "_born"} for k, r in super().records().items()}

    def merge(self, ids: Sequence[str]) -> str:
        k = super().merge(ids)
        self.rows[k]["content"] = "+".join(self.rows[i]["content"]
                                           for i in sorted(ids, key=lambda i: self.rows[i]["_born"]))
        return k


# =========================================================================== making words on the layer, here


@dataclass(frozen=True)
class Step:
    """One call as made: its letter, whether it raised (and what), and what the layer showed before and after."""

    letter: dict[str, Any]
    raised: str | None
    before: tuple[dict[str, Any], frozenset[tuple[str, str, str]]]
    after: tuple[dict[str, Any], frozenset[tuple[str, str, str]]]


def _shown(m: Any) -> tuple[dict[str, Any], frozenset[tuple[str, str, str]]]:
    return copy.deepcopy(dict(m.records())), frozenset(tuple(e) for e in m.edges())


def _call(m: Any, a: dict[str, Any], ref: Callable[[str], str]) -> list[str]:
    """The layer's method for letter ``a`` (the JSON of a witness), its identifiers named through ``ref``."""
    op = a["op"]
    if op in ("save", "save_at"):
        r = a["record"]
        kw = {"type": r["type"], "namespace": r["namespace"], "tags": list(r["tags"]), "metadata": r["metadata"]}
        return [str(m.save(r["content"], **kw, **({"id": ref(a["id"])} if op == "save_at" else {})))]
    if op == "evolve":
        return [str(m.evolve(ref(a["id"]), a["content"]))]
    if op == "merge":
        return [str(m.merge([ref(i) for i in a["ids"]]))]
    if op == "split":
        return [str(i) for i in m.split(ref(a["id"]), list(a["contents"]))]
    if op == "supersede":
        m.supersede(ref(a["old"]), ref(a["new"]))
        return []
    assert op == "delete", a
    m.delete(ref(a["id"]))
    return []


def made(factory: Callable[[], Any], letters: Sequence[dict[str, Any]],
         names: Sequence[Sequence[str]] | None = None) -> tuple[list[Step], list[list[str]], dict[str, str]]:
    """``letters`` made on a fresh layer, in the witness's names: each call's steps, the names of the records
    each call created, and the layer's identifier of each name.

    ``names[k]`` names what call k creates (a step witness's allocations); without them the records are
    named ``id0001, id0002, ...`` as they come, as the kit names a word without deletes.  A name nothing has
    created (a record of a call left out, ``missing``) is passed on as a string the layer never gave out.
    """
    m = factory()
    ids: dict[str, str] = {}
    steps, created = [], []
    for k, a in enumerate(letters):
        before = _shown(m)
        try:
            out, raised = _call(m, a, lambda i: ids.get(i, f"{i}-nothing")), None
        except Exception as e:  # noqa: BLE001 - any exception is the layer's refusal
            out, raised = [], type(e).__name__
        fresh = [f"id{len(ids) + j + 1:04d}" for j in range(len(out))]
        mine = list(names[k])[:len(out)] if names is not None else fresh
        ids.update(zip(mine, out))
        created.append(mine)
        steps.append(Step(a, raised, before, _shown(m)))
    return steps, created, ids


def _letters(word: Sequence[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[list[str]]]:
    """A step witness's word (calls as JSON): its letters and each call's allocated names."""
    return [c["letter"] for c in word], [list(c["allocation"]["ids"]) for c in word]


def _less(xs: Sequence[Any], k: int) -> list[Any]:
    return [x for j, x in enumerate(xs) if j != k]


def _changed(s: Step) -> bool:
    """The call removed or changed a record, or removed an edge, that was there before it."""
    (r0, e0), (r1, e1) = s.before, s.after
    return any(r1.get(i) != r for i, r in r0.items()) or not e0 <= e1


def lost_something(s: Step) -> bool:
    """L1 as this file reads it for these layers: a call other than a delete or a replacement lost or changed
    what was there."""
    return s.letter["op"] not in ("delete", "save_at") and _changed(s)


def refused_and_changed(s: Step) -> bool:
    """The full alphabet's L1: a refusal that lost or changed what was there."""
    return s.raised is not None and _changed(s)


def counts_outside(s: Step) -> bool:
    """GlobalVersion's slip at this call: the record it made is numbered among more records than its
    namespace holds with its content."""
    records = s.after[0]
    for i in set(records) - set(s.before[0]):
        r = records[i]
        here = sum(q["content"] == r["content"] and q["namespace"] == r["namespace"] for q in records.values())
        if "version" in r["metadata"] and r["metadata"]["version"] != here:
            return True
    return False


def assert_one_minimal(factory: Callable[[], Any], word: Sequence[dict[str, Any]],
                       shows: Callable[[Step], bool]) -> None:
    """The witness word shows the flaw at its last call, and no word with one call fewer shows it anywhere."""
    letters, names = _letters(word)
    steps = made(factory, letters, names)[0]
    assert shows(steps[-1]), "the witness does not show the flaw at its last call"
    for k in range(len(word)):
        less = made(factory, _less(letters, k), _less(names, k))[0]
        assert not any(shows(s) for s in less), f"call {k + 1} of {len(word)} can be removed: not 1-minimal"


def walked(factory: Callable[[], Any], alphabet_name: str, n: int, seed: int,
           shows: Callable[[Step], bool]) -> tuple[int, int]:
    """The first of the kit's seeded walks on which ``shows`` holds, made again here: (walk number from 1,
    the calls up to and including the first that shows the flaw).  Only the walk's letters come from the kit:
    every prefix is made on a fresh layer by :func:`made` and judged by ``shows``."""
    caps = inspect_layer(factory)
    bb = BlackBox(factory, caps)
    try:
        for w, t in walks(bb.realisation, alphabet(alphabet_name, caps), n, WALK, seed, start(bb.fresh)):
            letters, names = _letters([call_to_json(c) for c in t.word])
            if shows(made(factory, letters, names)[0][-1]):
                return w + 1, len(letters)
    finally:
        bb.release()
    raise AssertionError("no walk shows the flaw")


def _walk_number(minimality: str) -> int:
    found = re.match(r"found on seeded random walk (\d+) of \d+ \(seed \d+\), then shrunk greedily", minimality)
    assert found, minimality
    return int(found.group(1))


# =========================================================================== the step clauses


def assert_shrunk_from_its_walk(factory: Callable[[], Any], alphabet_name: str, walks_: int, seed: int,
                                w: dict[str, Any], shows: Callable[[Step], bool]) -> None:
    """The witness says it was found on walk n and shrunk; walk n, made again, first shows the flaw after
    at least two calls more than the witness has."""
    walk, calls = walked(factory, alphabet_name, walks_, seed, shows)
    assert walk == _walk_number(w["minimality"])
    assert calls >= w["length"] + 2, f"walk {walk} showed the flaw after {calls} calls: little to shrink"


def shrunk_witness(factory: Callable[[], Any], key: str, alphabet_name: str, walks_: int, seed: int,
                   fails: Callable[[Step], bool]) -> dict[str, Any]:
    """The witness the kit reports for ``key`` (which must fail), checked 1-minimal and shrunk from its walk."""
    report = conform(factory, length=2, walks=walks_, seed=seed, walk_length=WALK, orders=False)
    e = report["clauses"][key]
    assert e["holds"] is False
    w: dict[str, Any] = e["witness"]
    assert_one_minimal(factory, w["word"], fails)
    assert_shrunk_from_its_walk(factory, alphabet_name, walks_, seed, w, fails)
    return w


def test_an_l1_violation_found_on_a_walk_is_shrunk_to_a_one_minimal_word() -> None:
    """OneLiveSuccessor: no word of two calls changes a record; walk 1 (seed 4) does, at its eighth call.
    Its word is cut to one from which no call can be left out (here: save, evolve, evolve)."""
    w = shrunk_witness(OneLiveSuccessor, "L1", "fragment", 1, 4, lost_something)
    assert w["length"] == len(w["word"]) == 3


def test_a_shrunk_witness_cites_the_other_run_its_clause_compared_with() -> None:
    """GlobalVersion: L4(ii) runs the witness's last call again on a store that agrees with the witness's
    store on the namespace of the record it creates.  A witness shrunk from a walk must cite that run
    (``other_word``) as it was made for the shrunk word: made here, both runs end with the same call, the
    stores before it agree on that namespace, and the records the call creates differ."""
    w = shrunk_witness(GlobalVersion, "L4ii", "fragment", 7, 19, counts_outside)
    assert "other_word" in w, "the witness does not cite the run on the other store"
    (mine, my_names), (theirs, their_names) = _letters(w["word"]), _letters(w["other_word"])
    assert mine[-1] == theirs[-1] and my_names[-1] == their_names[-1], "the other run ends with another call"
    a, b = made(GlobalVersion, mine, my_names)[0][-1], made(GlobalVersion, theirs, their_names)[0][-1]
    assert a.raised is None and b.raised is None
    (new_a,), (new_b,) = (set(s.after[0]) - set(s.before[0]) for s in (a, b))
    nu = a.after[0][new_a]["namespace"]

    def in_nu(s: Step) -> list[tuple[str, str, str]]:
        return sorted((r["content"], r["type"], repr(r["metadata"])) for r in s.before[0].values()
                      if r["namespace"] == nu)

    assert in_nu(a) == in_nu(b), "the other store does not agree with the witness's on the namespace"
    assert a.after[0][new_a] != b.after[0][new_b], "the call created the same record on both stores"


def test_a_refusal_that_changed_the_store_found_on_a_walk_is_shrunk_and_reported_as_a_refusal() -> None:
    """Drafts: only the full alphabet replaces a record, so L1 is judged there, on refusals alone (a refusal
    must change nothing).  Walk 1 (seed 13) ends in a refused merge that undid a replacement; the witness is
    cut to a 1-minimal word whose last call, made here, is refused and changes a record, and the report says
    so: the call was refused, with the exception the layer raised."""
    w = shrunk_witness(Drafts, "L1", "full", 1, 13, refused_and_changed)
    last = made(Drafts, *_letters(w["word"]))[0][-1]
    assert last.letter["op"] in ("evolve", "merge", "split")  # L1's own predicate judges a derivation, too
    assert last.raised is not None and f"was refused ({last.raised}" in w["explanation"], w["explanation"]


def test_shrink_names_a_removed_calls_records_by_nothing_and_ends_one_minimal() -> None:
    """``explore.shrink`` itself, on a correct layer and a predicate of this file's choosing: a refusal while the
    layer holds an even number of records (two, four, ...).  When a call is left out, a later call that named
    a record it made must name nothing (and be refused), not whichever record took that name in the shorter
    word; only so is the word it returns 1-minimal (each removal made here, by :func:`made`)."""
    save = {r.content: A.Save(r) for r in SAVED}  # 'a' and 'b' in alice, 'k' in bob
    refused = A.Supersede(UNKNOWN, "id0001")
    word: list[Letter] = [save["a"], refused, refused, save["a"], save["k"], A.Evolve("id0002", "v2"),
                          A.Merge(("id0003", "id0001"))]  # across namespaces: refused, with four records

    def even(u: Transition) -> bool:
        return not u.ok and len(u.before.records) in (2, 4, 6, 8)

    def even_here(s: Step) -> bool:
        return s.raised is not None and len(s.before[0]) in (2, 4, 6, 8)

    bb = BlackBox(Notebook, inspect_layer(Notebook))
    try:
        t = list(rerun(bb.realisation, start(bb.fresh), word))[-1]
        assert even(t)
        best = shrink(bb.realisation, t, even)
    finally:
        bb.release()
    got = [call_to_json(c) for c in best.word]
    assert len(got) <= len(word) - 2
    assert_one_minimal(Notebook, got, even_here)


# =========================================================================== the insertion order (L5)


def saves_reversed(letters: Sequence[dict[str, Any]]) -> list[int] | None:
    """Each run of two or more fresh saves in a row reversed: position j takes letter ``order[j]``."""
    order, k = list(range(len(letters))), 0
    while k < len(letters):
        m = k
        while m < len(letters) and letters[m]["op"] == "save":
            m += 1
        order[k:m] = reversed(order[k:m]) if m - k >= 2 else order[k:m]
        k = max(m, k + 1)
    return None if order == list(range(len(letters))) else order


def _at_end(last: Step, ids: dict[str, str]) -> tuple[dict[str, Any], list[tuple[str, str, str]]]:
    """The records and edges after ``last``, in the witness's names."""
    name = {v: k for k, v in ids.items()}
    records, edges = last.after
    return {name[i]: r for i, r in records.items()}, sorted((name[a], rel, name[b]) for a, rel, b in edges)


def order_shows(factory: Callable[[], Any], letters: Sequence[dict[str, Any]],
                names: Sequence[Sequence[str]]) -> bool:
    """The word and the word with its runs of saves reversed (each record keeping its name) show different
    things: a call refused in one order only, or other records or edges at the end."""
    order = saves_reversed(letters)
    if order is None:
        return False
    steps, _, ids = made(factory, letters, names)
    again, _, ids2 = made(factory, [letters[k] for k in order], [names[k] for k in order])
    refused = [s.raised for s in steps]
    refused2 = [again[order.index(k)].raised for k in range(len(letters))]  # each call where it stood first
    return (refused, _at_end(steps[-1], ids)) != (refused2, _at_end(again[-1], ids2))


def test_an_insertion_order_found_on_a_walk_is_shrunk_to_a_one_minimal_word() -> None:
    """OldestFirst: words of one call hold no two saves to swap, the walks' words of eight do; the word
    whose saves, reversed, change what the layer shows is cut to one from which no call can be left out."""
    spec = factory_spec(OldestFirst)  # the children import the layer by this name
    assert spec is not None
    report = conform(spec, length=1, walks=10, seed=11, walk_length=WALK)
    e = report["clauses"]["L5"]
    assert e["holds"] is False
    w = e["witness"]
    assert w["kind"] == "insertion order" and w["minimality"].startswith("found on a seeded random walk")
    letters = w["word"]
    assert all(a["op"] != "delete" for a in letters)  # so the kit named the records id0001, id0002, ... as made
    names = made(OldestFirst, letters)[1]
    assert order_shows(OldestFirst, letters, names), "the witness's two orders show the same"
    for k in range(len(letters)):
        assert not order_shows(OldestFirst, _less(letters, k), _less(names, k)), \
            f"call {k + 1} of {len(letters)} can be removed: not 1-minimal"
    assert len(letters) <= WALK - 2  # a walk's word is reordered only whole: shrinking took several steps


class InIdentifierOrder(Notebook):
    """A merge joins its parents' contents in the order of their (counter) identifiers: a function of what the
    call names, which L5 allows, though with counter identifiers it is also the order of creation."""

    def merge(self, ids: Sequence[str]) -> str:
        k = super().merge(ids)
        self.rows[k]["content"] = "+".join(self.rows[i]["content"] for i in sorted(ids, key=lambda i: int(i[1:])))
        return k


def test_an_order_the_identifiers_show_is_not_an_insertion_order() -> None:
    """Two saves reversed give the two records each other's identifier; a merge that reads identifiers then
    joins them the other way. The kit compares the two orders only where every record keeps its identifier
    (never, with a counter), so L5 holds, and OldestFirst, whose order of creation is hidden, still fails."""
    spec = factory_spec(InIdentifierOrder)
    assert spec is not None
    report = conform(spec, length=3, walks=10, seed=11, walk_length=WALK)
    assert report["clauses"]["L5"]["holds"] is True
    assert conform(factory_spec(OldestFirst), length=3, walks=0)["clauses"]["L5"]["holds"] is False
