"""A store's lineage coalgebra exported to .aut and read back (coalg.bisim.lineage_aut)."""

from __future__ import annotations

import io

import pytest
from budget import budget
from hypothesis import given
from strategies import stores

from coalg.bisim import (
    behaviour_classes,
    coarsest_partition,
    dumps_lineage_aut,
    loads_lineage_aut,
    read_aut,
    store_to_aut,
)
from coalg.errors import InputError
from coalg.model import Record, Relation, Store


@budget(60)
@given(stores(max_records=5))
def test_round_trip_is_lossless(s: Store) -> None:
    assert loads_lineage_aut(dumps_lineage_aut(s)) == s


@budget(40)
@given(stores(max_records=5))
def test_lts_bisimilarity_of_the_export_is_lineage_bisimilarity(s: Store) -> None:
    """Refining the exported LTS (payloads as observations) gives coalg's behaviour classes."""
    aut = read_aut(io.StringIO(dumps_lineage_aut(s, keep_ids=False)), payload_prefix="rec:")
    assert aut.observations is not None
    blocks = coarsest_partition(aut.n_states, list(aut.observations), list(aut.transitions()))
    ours = behaviour_classes(s)
    order = sorted(s.ids())
    for a in order:
        for b in order:
            same_lts = blocks[order.index(a) + 1] == blocks[order.index(b) + 1]
            assert same_lts == (ours[a] == ours[b]), (a, b)


def test_identifiers_can_be_erased_for_comparison() -> None:
    s = Store.of({"a": Record("x")}, [("a", Relation.SUPERSEDES, "b")])
    t = Store.of({"p": Record("x")}, [("p", Relation.SUPERSEDES, "q")])
    assert dumps_lineage_aut(s, keep_ids=False) == dumps_lineage_aut(t, keep_ids=False)
    assert dumps_lineage_aut(s) != dumps_lineage_aut(t)
    assert store_to_aut(s).n_states == 3  # root, a, b (b dangling: no payload loop)


@pytest.mark.parametrize(
    "text, message",
    [
        ('des (0,1,2)\n(0,"member",1)\n', "expected 'id:<identifier>'"),
        ('des (0,2,3)\n(0,"id:a",1)\n(1,"likes",2)\n', "unknown relation 'likes'"),
        ('des (0,2,2)\n(0,"id:a",1)\n(1,"rec:{nope",1)\n', "record of a: not JSON"),
        ('des (0,2,2)\n(0,"id:a",1)\n(1,"rec:{"content": 3}",1)\n', "expected a string"),
    ],
)
def test_bad_files_name_the_problem(text: str, message: str) -> None:
    with pytest.raises(InputError, match=message):
        loads_lineage_aut(text)
