"""Namespace locality and resolution, tested from the definitions: Remark 3.22, Proposition 5.17
(with its strict-freshness boundary), Proposition 5.18, Remark 5.19 and Proposition 5.20.

π_ν is the reference restriction (records of the fibre, edges inside it); the
merged type is compared with the modes computed here.
"""

from __future__ import annotations

import itertools
from collections import Counter

from hypothesis import assume, given
from hypothesis import strategies as st
from strategies import NAMESPACES, TYPES, fragment_letters, records
from thm_reference import fibre, restrict
from thm_strategies import CLOCK, PROPERTY, SCHEMA, any_stores, strictly_fresh

from coalg.model import (
    CONTEXTFS,
    Allocation,
    Created,
    Edge,
    Err,
    Evolve,
    Found,
    Merge,
    Nothing,
    Realisation,
    Recall,
    Record,
    Relation,
    Save,
    Store,
    Theta,
    named,
)

realisations = st.sampled_from(SCHEMA)


@PROPERTY
@given(s=any_stores(min_records=1), nu=st.sampled_from(NAMESPACES))
def test_3_22_recall_outside_the_fibre_cannot_commute_with_restriction(s: Store, nu: str) -> None:
    outside = sorted(i for i, r in s.records.items() if r.namespace != nu)
    assume(outside)
    for real in SCHEMA:
        assert isinstance(real.step(s, Recall(outside[0]))[0], Found)
        assert isinstance(real.step(restrict(s, nu), Recall(outside[0]))[0], Nothing)


# --------------------------------------------------------------------------- Proposition 5.17


@st.composite
def _confined_call(draw: st.DrawFn) -> tuple[Store, str, object]:
    """A store, a namespace ν and a letter of A_ν(s): a fragment call naming only records of ν."""
    s = draw(any_stores())
    nu = draw(st.sampled_from(NAMESPACES))
    a = draw(fragment_letters(restrict(s, nu), missing=False))
    if isinstance(a, Save):
        a = Save(Record(a.record.content, a.record.type, nu, a.record.tags, a.record.summary, a.record.metadata))
    assume(set(named(a)) <= fibre(s, nu))
    return s, nu, a


@PROPERTY
@given(case=_confined_call(), real=realisations)
def test_5_17_confinement_with_strictly_fresh_allocations(case: tuple[Store, str, object], real: Realisation) -> None:
    s, nu, a = case
    xi = strictly_fresh(s, a)  # type: ignore[arg-type]
    out, s2 = real.step(s, a, xi)  # type: ignore[arg-type]
    out_r, s2_r = real.step(restrict(s, nu), a, xi)  # type: ignore[arg-type]
    assert (out_r, s2_r) == (out, restrict(s2, nu))  # α(π_ν s)(a) = (o, π_ν s')
    for other in set(NAMESPACES) - {nu}:
        assert restrict(s2, other) == restrict(s, other)  # other namespaces untouched


@PROPERTY
@given(s=any_stores(), n_rec=records(namespaces=("alice",)))
def test_5_17_fails_when_the_allocation_lands_on_a_dangling_endpoint(s: Store, n_rec: Record) -> None:
    # n in alice, and an edge into n from an identifier o that holds no record
    base = Store.of({**dict(s.records), "nn": n_rec}, set(s.edges) | {Edge("zo", Relation.SUPERSEDED_BY, "nn")})
    a = Evolve("nn", "v2")
    xi = Allocation(("zo",), CLOCK)  # admissible, but o is mentioned: not strictly fresh
    out, s2 = CONTEXTFS.step(base, a, xi)
    out_r, s2_r = CONTEXTFS.step(restrict(base, "alice"), a, xi)
    assert out_r == out and s2_r != restrict(s2, "alice")  # π_alice s' has the edge from o; α(π_alice s) does not
    assert Edge("zo", Relation.SUPERSEDED_BY, "nn") in restrict(s2, "alice").edges
    for other in set(NAMESPACES) - {"alice"}:
        assert restrict(s2, other) == restrict(base, other)  # the first clause needs no freshness


# --------------------------------------------------------------------------- Proposition 5.18, Remark 5.19


@st.composite
def _two_namespaces(draw: st.DrawFn) -> tuple[Store, str, str]:
    s = draw(any_stores())
    ri = draw(records(namespaces=("alice",)))
    rk = draw(records(namespaces=("bob",)))
    return Store.of({**dict(s.records), "ii": ri, "kk": rk}, s.edges), "ii", "kk"


@PROPERTY
@given(case=_two_namespaces(), other=st.text(alphabet="uvw", min_size=1, max_size=4))
def test_5_18_merge_carries_payload_across_the_boundary(case: tuple[Store, str, str], other: str) -> None:
    s, i, k = case
    assume(s.records[k].content[:500] != other)
    t = s.with_record(k, s.records[k].with_content(other))  # differs from s only outside alice
    assert restrict(s, "alice") == restrict(t, "alice")
    a = Merge((i, k))
    xi = strictly_fresh(s, a)
    (o1, s1), (o2, t1) = CONTEXTFS.step(s, a, xi), CONTEXTFS.step(t, a, xi)
    assert isinstance(o1, Created) and isinstance(o2, Created)
    j = xi.ids[0]
    assert s1.records[j].namespace == t1.records[j].namespace == "alice"
    assert s1.records[j] != t1.records[j]  # the record created in alice depends on bob's record
    assert f"[Source 2]: {s.records[k].content[:500]}" in s1.records[j].content
    assert s.records[k].tags <= s1.records[j].tags


@PROPERTY
@given(s=any_stores(min_records=2), data=st.data())
def test_5_19_merge_files_in_its_first_resolved_arguments_namespace(s: Store, data: st.DataObject) -> None:
    ids = data.draw(st.lists(st.sampled_from(sorted(s.records) + ["zz"]), min_size=2, max_size=4))
    resolved = [i for i in ids if i in s.records]
    a = Merge(tuple(ids))
    out, _ = CONTEXTFS.step(s, a, strictly_fresh(s, a))
    if len(resolved) < 2:
        assert isinstance(out, Err)
        return
    assert isinstance(out, Created)
    assert out.items[0][1].namespace == s.records[resolved[0]].namespace


# --------------------------------------------------------------------------- Proposition 5.20


def _modes(types: list[str]) -> set[str]:
    c = Counter(types)
    return {t for t, n in c.items() if n == max(c.values())}


@PROPERTY
@given(types=st.lists(st.sampled_from(TYPES), min_size=2, max_size=4))
def test_5_20_the_merged_type_ranges_over_exactly_the_modes(types: list[str]) -> None:
    s = Store.of({f"r{k}": Record(f"c{k}", type=t) for k, t in enumerate(types)})
    a = Merge(tuple(s.records))
    xi = strictly_fresh(s, a)
    seen = set()
    for order in itertools.permutations(sorted(set(types))):
        out, _ = CONTEXTFS.step(s, a, xi, theta=Theta(type_priority=order))
        assert isinstance(out, Created)
        seen.add(out.items[0][1].type)
    assert seen == _modes(types)  # {ty(α_θ(s)(a)) : θ} = M: L5 fails exactly when |M| ≥ 2
    repaired = {SCHEMA[1].step(s, a, xi, theta=Theta(type_priority=o))[0] for o in itertools.permutations(
        sorted(set(types)))}
    assert len(repaired) == 1  # the repair's declared tie-break reads no θ


def test_5_18_the_summary_says_what_its_witness_shows() -> None:
    from coalg.paper import run_item

    v = run_item("5.18")
    off = v.witness["offending"]
    rec, other = off["record_after"], off["other_record_after"]
    after = v.witness["after"]["records"]
    outside = [r for r in after.values() if r["namespace"] != off["namespace"]]
    facts = {
        "content after '[Source 2]: '": any(f"[Source 2]: {r['content'][:500]}" in rec["content"] for r in outside),
        "tag 'secret'": "secret" in rec["tags"] and any("secret" in r["tags"] for r in outside),
        "a content that changes": rec["content"] != other["content"],
    }
    for phrase, true in facts.items():
        assert (phrase in v.summary) == true, phrase  # each claim of the sentence is read off the witness
