"""The mix of the differential's random words: how often each kind of call, each option and
each odd input is drawn.

The words are only as good as the input domain they reach, so the mix is part of what the
differential promises. Each share below is worked out by hand from the proportions the
generator is written with (a kind of call drawn from a list of fifteen, a prefix length from a
list of eight, ...), and compared with the share in many draws from a fixed seed, within 4.5
standard deviations. Everything here runs on the model alone, in a second or two.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Iterable
from fractions import Fraction as F
from itertools import permutations
from math import prod

import pytest

import coalg.contextfs.random_words as rw
from coalg.model import (
    Delete,
    Evolve,
    Merge,
    Recall,
    RecallPrefix,
    Record,
    Relation,
    Save,
    SaveAt,
    Split,
    Store,
    Supersede,
    Theta,
)
from coalg.model.alphabet import creates, edge_writes

N = 24_000


def near(draws: Iterable[object], is_one: Callable[[object], bool], p: F | float) -> None:
    """The share of ``draws`` for which ``is_one`` holds is ``p``, up to sampling error."""
    draws = list(draws)
    n, p = len(draws), float(p)
    seen = sum(map(is_one, draws)) / n
    assert abs(seen - p) <= 4.5 * math.sqrt(p * (1 - p) / n) + 1e-12, f"share {seen:.4f}, expected {p:.4f} of {n}"


def shares(draws: Iterable[object], expected: dict[object, F | float], key: Callable[[object], object]) -> None:
    draws = list(draws)
    assert set(map(key, draws)) <= set(expected), set(map(key, draws)) - set(expected)
    for value, p in expected.items():
        near(draws, lambda d, v=value: key(d) == v, p)


def _rng(name: str) -> random.Random:
    return random.Random(f"mix:{name}")


# --------------------------------------------------------------------------- the pieces of a record


def test_types_valid_mostly_the_two_common_ones_and_some_invalid() -> None:
    rng = _rng("type")
    draws = [rw._type(rng) for _ in range(N)]
    # 6 in 100 invalid (uniform); else 7 in 10 one of the first two types, 3 in 10 any of six
    expected: dict[object, F] = {t: F(6, 100) / len(rw.INVALID_TYPES) for t in rw.INVALID_TYPES}
    for t in rw.TYPES:
        expected[t] = F(94, 100) * (F(7, 10) * (F(1, 2) if t in rw.TYPES[:2] else 0) + F(3, 10) / 6)
    assert sum(expected.values()) == 1
    shares(draws, expected, key=lambda t: t)


def test_contents_three_plain_in_a_hundred_long_and_seven_unicode() -> None:
    rng = _rng("content")
    draws = [rw._content(rng) for _ in range(N)]
    expected = {"x" * 600: F(3, 100), "naïve ☃ 雪": F(7, 100), **{c: F(9, 10) / 4 for c in ("alpha", "beta", "gamma", "")}}
    shares(draws, expected, key=lambda c: c)


def test_a_record_s_fields() -> None:
    rng = _rng("record")
    draws = [rw._record(rng) for _ in range(N)]
    shares(draws, {ns: F(1, 3) for ns in ("ns-a", "ns-b", "ns-é")}, key=lambda r: r.namespace)
    shares(draws, {None: F(1, 2), "sum": F(1, 4), "": F(1, 4)}, key=lambda r: r.summary)
    for tag in ("t1", "t2", "evolved", "t-é"):
        near(draws, lambda r, t=tag: t in r.tags, F(1, 5))
    shares(draws, {0: F(1, 2), 1: F(1, 4), 2: F(1, 4)}, key=lambda r: len(r.metadata))
    near(draws, lambda r: r.type == "fact", F(94, 100) * (F(7, 20) + F(1, 20)))
    near(draws, lambda r: r.content == "x" * 600, F(3, 100))


# --------------------------------------------------------------------------- identifiers and prefixes


def test_fresh_identifiers_are_shaped_like_the_package_s_and_never_repeat() -> None:
    supply = rw.IdSupply(_rng("ids"))
    ids = [supply.fresh() for _ in range(N)]
    assert len(set(ids)) == N and supply.issued == set(ids)
    for j in ids:
        assert len(j) == 12 and j[8] == "-" and j[0] in "ab" and j[1] in "01"
        assert set(j[:8] + j[9:]) <= set("0123456789abcdef")
    shares(ids, {c: F(1, 2) for c in "ab"}, key=lambda j: j[0])
    shares(ids, {c: F(1, 2) for c in "01"}, key=lambda j: j[1])
    shares(ids, {c: F(1, 16) for c in "0123456789abcdef"}, key=lambda j: j[11])


def _unchanged_by_odd(p: str) -> F:
    """How often the change that makes a prefix odd leaves it as it was: upper case of an empty
    string, or of one character past the end or on a digit (one of six changes each)."""
    whole = F(int(p == "" or p.upper() == p), 6)
    one = F(sum(not c.isalpha() for c in p) + 1, len(p) + 1) / 6
    return whole + one


def test_prefix_lengths_mostly_short() -> None:
    rng = _rng("prefix")
    ident = "fedcbafedcbafedc"  # 16 letters: a cut at 12 shows as such
    draws = [rw._prefix(rng, [ident]) for _ in range(N)]
    # 1 in 10: a fixed string matching nothing; else a cut at 0, 1, 1, 2, 2, 3, 8 or 12 characters;
    # then, 4 in 10, made odd (which now and then changes nothing)
    for length, weight in {0: 1, 1: 2, 2: 2, 3: 1, 8: 1, 12: 1}.items():
        cut = ident[:length]
        near(draws, lambda p, c=cut: p == c, F(9, 10) * F(weight, 8) * (F(6, 10) + F(4, 10) * _unchanged_by_odd(cut)))
    assert not any(ident.startswith(p) and len(p) not in (0, 1, 2, 3, 8, 12) for p in draws)


def test_a_named_identifier_is_mostly_a_record() -> None:
    rng = _rng("named")
    draws = [rw._named(rng, ["p1", "p2"], ["q1"]) for _ in range(N)]
    shares(draws, {"p1": F(85, 200), "p2": F(85, 200), "q1": F(15, 100)}, key=lambda j: j)
    assert {rw._named(rng, [], ["q1", "q2"]) for _ in range(50)} == {"q1", "q2"}


# --------------------------------------------------------------------------- the calls


def _store(n: int) -> Store:
    supply = rw.IdSupply(_rng(f"store{n}"))
    types = ("fact", "decision")
    return Store.of({supply.fresh(): Record(f"r{k}", type=types[k % 2]) for k in range(n)})


def _steps(s: Store, name: str, n: int = N, faults: bool = True) -> list[rw.WordStep]:
    rng = _rng(name)
    out = []
    for k in range(n):
        supply = rw.IdSupply(random.Random(k))
        supply.issued |= set(s.records)
        out.append(rw.random_step(rng, s, 7, supply, [], theta=Theta(id_priority=tuple(sorted(s.records))),
                                  faults=faults))
    return out


@pytest.fixture(scope="module")
def store() -> Store:
    return _store(4)


@pytest.fixture(scope="module")
def steps(store: Store) -> list[rw.WordStep]:
    """Steps drawn at a store of four records (fact, decision, fact, decision)."""
    return _steps(store, "at four records", n=N // 2)


def _kind(ws: rw.WordStep) -> str:
    a = ws.call.letter
    if isinstance(a, Save) and ws.explicit_id:
        return "explicit save"
    return type(a).__name__


# of fifteen: save 2, save under a chosen identifier 1, save under an odd one 1, recall 1,
# recall by prefix 2, evolve 2, merge 3, split 1, supersede 1, delete 1
KINDS = {"Save": 2, "explicit save": 2, "SaveAt": 0, "Recall": 1, "RecallPrefix": 2, "Evolve": 2, "Merge": 3,
         "Split": 1, "Supersede": 1, "Delete": 1}


def test_the_kinds_of_call_at_a_store_of_several_records(store: Store, steps: list[rw.WordStep]) -> None:
    s = store
    # a save under a chosen identifier takes a record's 6 times in 10 (SaveAt), else a free one
    expected = {k: F(w, 15) for k, w in KINDS.items()}
    expected["SaveAt"] = F(1, 15) * F(6, 10)
    expected["explicit save"] = F(1, 15) * F(4, 10) + F(1, 15)
    shares(steps, expected, key=_kind)
    for ws in steps:
        assert ws.call.allocation.clock == 7
        assert len(ws.call.allocation.ids) == creates(ws.call.letter) or ws.explicit_id
        assert not set(ws.call.allocation.ids) & set(s.records)


@pytest.mark.parametrize(("records", "extra_saves"), [(0, 24), (1, 8)])
def test_a_small_store_is_mostly_saved_into_first(records: int, extra_saves: int) -> None:
    steps = _steps(_store(records), f"small{records}", n=N // 4)
    total = 15 + extra_saves
    near(steps, lambda ws: _kind(ws) == "Save", F(2 + extra_saves, total))
    near(steps, lambda ws: _kind(ws) == "Merge", F(3, total))


def test_the_options_of_each_kind(steps: list[rw.WordStep]) -> None:

    def of(kind: type) -> list[object]:
        return [ws.call.letter for ws in steps if isinstance(ws.call.letter, kind)]

    near(of(Delete), lambda a: a.by_prefix, F(1, 5))
    evolves = of(Evolve)
    near(evolves, lambda a: a.by_prefix, F(1, 5))
    shares(evolves, {None: F(1, 2), "new": F(1, 4), "": F(1, 4)}, key=lambda a: a.summary)
    for tag in ("t1", "t2"):
        near(evolves, lambda a, t=tag: t in a.tags, F(3, 10))
    near(evolves, lambda a: a.content == "x" * 600, F(3, 100))
    merges = of(Merge)
    near(merges, lambda a: a.by_prefix, F(15, 100))
    shares(merges, {2: F(3, 4), 3: F(1, 4)}, key=lambda a: len(a.ids))
    shares(merges, {None: F(3, 4), "merged text": F(1, 4)}, key=lambda a: a.content)
    near(merges, lambda a: a.type is not None, F(3, 10))
    shares(merges, {None: F(1, 2), "joined": F(1, 4), "": F(1, 4)}, key=lambda a: a.summary)
    # distinct records 7 times in 10 (when not by prefix): two of the same record otherwise only by chance
    by_equality = [a for a in merges if not a.by_prefix]
    near(by_equality, lambda a: len(set(a.ids)) < len(a.ids), _repeats())
    splits = of(Split)
    near(splits, lambda a: a.by_prefix, F(15, 100))
    shares(splits, {1: F(1, 4), 2: F(1, 2), 3: F(1, 4)}, key=lambda a: len(a.contents))
    near(of(Supersede), lambda a: a.old == a.new, _supersede_same())


def test_prefixes_are_cut_from_the_stored_identifiers(store: Store, steps: list[rw.WordStep]) -> None:
    ids = sorted(store.records)
    assert not any(j.startswith(("c", "a2", "b1f")) for j in ids)  # the strings that match nothing do not
    cuts = {j[:k] for j in ids for k in (0, 1, 2, 3, 8, 12)}
    # a cut of one of the four identifiers, 9 times in 10, and then left as it is
    plain = F(9, 10) * sum(F(w, 8) * (F(6, 10) + F(4, 10) * _unchanged_by_odd(j[:k]))
                           for j in ids for k, w in {0: 1, 1: 2, 2: 2, 3: 1, 8: 1, 12: 1}.items()) / 4
    letters = [ws.call.letter for ws in steps]
    by_kind: dict[str, list[str]] = {
        "recall": [a.prefix for a in letters if isinstance(a, RecallPrefix)],
        "delete": [a.id for a in letters if isinstance(a, Delete) and a.by_prefix],
        "evolve": [a.id for a in letters if isinstance(a, Evolve) and a.by_prefix],
        "split": [a.id for a in letters if isinstance(a, Split) and a.by_prefix],
        "merge": [i for a in letters if isinstance(a, Merge) and a.by_prefix for i in a.ids],
    }
    for prefixes in by_kind.values():
        near(prefixes, lambda p: p in cuts, plain)
    assert all(isinstance(a, (Recall, RecallPrefix, Save, SaveAt, Delete, Evolve, Merge, Split, Supersede))
               for a in (ws.call.letter for ws in steps))


def _repeats() -> F:
    """The share of merges by equality that name one identifier twice: drawn with replacement
    from 4 records (85 in 100) and one free identifier (15 in 100), 3 times in 10."""
    return F(3, 10) * (F(3, 4) * _dup(2) + F(1, 4) * _dup(3))


def _dup(n: int) -> F:
    """The chance that ``n`` draws from the pool (4 records, 85 in 100 between them; one free
    identifier, 15 in 100) name one identifier twice."""
    probs = [F(85, 100) / 4] * 4 + [F(15, 100)]
    distinct = sum((prod(probs[i] for i in pick) for pick in permutations(range(len(probs)), n)), F(0))
    return 1 - distinct


def _supersede_same() -> F:
    """Both ends drawn from one pool: 4 records and one free identifier, and 2 times in 10 a
    prefix besides, which is a whole stored identifier when cut at 12 and left plain."""
    whole = F(9, 10) * F(1, 8) * F(6, 10)  # the prefix is a record's identifier: that one is in the pool twice
    return F(8, 10) * F(1, 5) + F(2, 10) * ((1 - whole) * F(1, 6) + whole * F(8, 36))


def _writes(s: Store, ws: rw.WordStep) -> int:
    """The edge writes a fault may fail: a merge's are those of the records it reads, and none
    when it reads one twice (a trigger cannot fail one of two writes of the same edge)."""
    a = ws.call.letter
    if isinstance(a, Merge):
        ids = rw.resolved_ids(s, a, Theta(id_priority=tuple(sorted(s.records))))
        return 0 if len(set(ids)) < len(ids) else 2 * len(ids)
    return edge_writes(a)


def test_faults_on_four_calls_in_ten_that_write_edges(store: Store, steps: list[rw.WordStep]) -> None:
    s = store
    writing = [ws for ws in steps if _writes(s, ws)]
    near(writing, lambda ws: bool(ws.call.faults), F(4, 10))
    faulty = [ws for ws in writing if ws.call.faults]
    near(faulty, lambda ws: len(ws.call.faults) == 2, F(1, 3))
    for ws in faulty:
        assert all(0 <= i < _writes(s, ws) for i in ws.call.faults)
    assert not any(ws.call.faults for ws in steps if not _writes(s, ws))
    assert not any(ws.call.faults for ws in _steps(s, "no faults", n=2000, faults=False))


def test_identifiers_to_name_by_equality() -> None:
    # a record, a dangling edge end shaped like the package's identifiers (12 characters), one that is
    # not (it came from an odd save), and a deleted identifier
    s = Store.of({"a0000000-001": Record("x")},
                 [("a0000000-001", Relation.EVOLVED_FROM, "b1000000-002"),
                  ("a0000000-001", Relation.RELATED_TO, "b1_odd")])
    present, absent = rw._pools(s, ["a1000000-003", "a0000000-001"], rw.IdSupply(_rng("pools")))
    assert present == ["a0000000-001"]
    assert absent == ["a1000000-003", "b1000000-002"]  # the record named again is not absent
    # with nothing absent, one fresh identifier (found alone by the package's lookup)
    supply = rw.IdSupply(_rng("pools"))
    present, absent = rw._pools(Store.of({"a0000000-001": Record("x")}), [], supply)
    assert len(absent) == 1 and absent[0] in supply.issued and absent[0] != "a0000000-001"


class _Spy(random.Random):
    """A generator that notes the sequence of its first ``choice``: the kinds a step draws from."""

    def __init__(self, seed: str) -> None:
        super().__init__(seed)
        self.first: list[object] | None = None

    def choice(self, seq):  # type: ignore[no-untyped-def, override]
        if self.first is None:
            self.first = list(seq)
        return super().choice(seq)


@pytest.mark.parametrize(("records", "saves"), [(0, 2 + 24), (1, 2 + 8), (2, 2), (3, 2)])
def test_the_kinds_a_step_draws_from(records: int, saves: int) -> None:
    """Fifteen kinds (save twice, merge three times, ...), and on a store of fewer than two
    records 24 more saves (empty) or 8 (one record)."""
    rng = _Spy(f"kinds{records}")
    s = _store(records)
    rw.random_step(rng, s, 1, rw.IdSupply(random.Random(0)), [], theta=Theta(), faults=True)
    assert Counter(rng.first) == Counter({"save": saves, "save_id": 1, "save_odd": 1, "recall": 1,
                                          "recall_prefix": 2, "evolve": 2, "merge": 3, "split": 1,
                                          "supersede": 1, "delete": 1})


def test_a_call_by_equality_names_a_record_85_times_in_100(store: Store, steps: list[rw.WordStep]) -> None:
    letters = [ws.call.letter for ws in steps]
    for named in ([a.id for a in letters if isinstance(a, Recall)],
                  [a.id for a in letters if isinstance(a, Delete) and not a.by_prefix]):
        near(named, lambda i: i in store.records, F(85, 100))


def test_supersede_names_a_prefix_now_and_then(store: Store, steps: list[rw.WordStep]) -> None:
    """Two times in ten the pool of a supersede's ends holds a prefix besides the records and one free
    identifier: an end that is neither a record nor shaped like the package's identifiers is one."""
    ends = [i for ws in steps if isinstance(ws.call.letter, Supersede) for i in (ws.call.letter.old, ws.call.letter.new)]

    def shaped(i: str) -> bool:
        return len(i) == 12 and i[8] == "-"

    odd = [i for i in ends if i not in store.records and not shaped(i)]
    # a sixth of the ends, two times in ten, less the prefixes that are a whole identifier (a wide
    # margin: a pool that always or never holds a prefix is far outside it)
    expected = F(2, 10) / 6 * len(ends)
    assert 0.4 * expected < len(odd) < 2 * expected
    cuts = {j[:k] for j in store.records for k in (0, 1, 2, 3, 8)}
    assert sum(i in cuts for i in odd) > 0.35 * len(odd)  # about half are plain cuts of a stored identifier


def test_faults_are_drawn_unless_the_caller_says_not() -> None:
    rng, s = _rng("default faults"), _store(4)
    steps = [rw.random_step(rng, s, 1, rw.IdSupply(random.Random(k)), [], theta=Theta()) for k in range(300)]
    assert any(ws.call.faults for ws in steps)


def test_a_fresh_identifier_the_package_s_lookup_would_confuse_is_not_named() -> None:
    first = rw.IdSupply(random.Random(5)).fresh()  # the identifier the supply below draws first
    s = Store.of({first + "x": Record("an odd save under a longer identifier")})
    supply = rw.IdSupply(random.Random(5))
    _, absent = rw._pools(s, [], supply)
    # LIKE 'first%' finds the longer identifier too: the next fresh one is named instead
    assert first in supply.issued and absent != [first] and len(absent) == 1 and absent[0] in supply.issued
