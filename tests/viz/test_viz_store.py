"""Store graphs, unfoldings and refinement rounds (coalg.viz, coalg.bisim.bisimilarity.refinement_rounds), Agg backend."""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys

import pytest
from budget import budget
from hypothesis import given

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")

import matplotlib.pyplot as plt
from matplotlib.colors import to_hex
from strategies import stores

from coalg.bisim import behaviour_classes, refinement_rounds
from coalg.model import (
    ANCESTRY,
    Delete,
    Evolve,
    Merge,
    Record,
    Relation,
    Save,
    SaveAt,
    Split,
    Supersede,
    ancestry,
    descendants,
    dumps_store,
    run,
)
from coalg.model.store import EMPTY, Edge, Store
from coalg.viz import (
    ADDED,
    HIGHLIGHT,
    NEUTRAL,
    PALETTE,
    REMOVED,
    colour_map,
    plot_refinement,
    plot_store,
    plot_unfolding,
    plot_unfoldings,
    store_layout,
    unfolding_diff,
)
from coalg.viz.charts import stable_block_numbers
from coalg.viz.store import legend_size


@pytest.fixture(autouse=True)
def _close_figures() -> None:
    yield
    plt.close("all")


def _store() -> Store:
    """Two namespaces, an evolve, a merge, a split, a supersede (all inverse pairs) and one dangling edge."""
    s = run(EMPTY, [
        Save(Record("meeting at 10", namespace="alice")),
        Save(Record("room 4", namespace="alice")),
        Save(Record("bob's note", namespace="bob")),
        Evolve("id0001", "meeting at 11"),
        Merge(("id0004", "id0002")),
        Split("id0003", ("part a", "part b")),
        Supersede("id0001", "id0004"),
    ]).final
    return s.with_edges([Edge("id0005", Relation.REFERENCES, "zzz")])


def _nodes(ax: plt.Axes) -> dict[str, object]:
    return {str(l.get_label())[len("_node "):]: l for l in ax.lines if str(l.get_label()).startswith("_node ")}


def _edges(ax: plt.Axes) -> list[str]:
    return [str(p.get_label())[len("_edge "):] for p in ax.patches if str(p.get_label()).startswith("_edge ")]


# --------------------------------------------------------------------------- plot_store


def test_store_one_marker_per_identifier_one_patch_per_drawn_edge() -> None:
    s = _store()
    ax = plot_store(s)
    assert set(_nodes(ax)) == set(s.ids()) and len(s.ids()) == 8
    # 5 inverse pairs drawn once (evolve 1, merge 2, split 2, supersede 1 = 6 pairs) + 1 one-way edge
    assert len(s.edges) == 13
    assert len(ax.patches) == 7 == len(_edges(ax))
    assert all(Relation.EVOLVED_INTO.value not in e and "merged_into" not in e for e in _edges(ax))
    assert any("SUPERSEDES" in e for e in _edges(ax)) and not any("SUPERSEDED_BY" in e for e in _edges(ax))
    # every edge with descendants=True
    assert len(plot_store(s, descendants=True).patches) == len(s.edges)
    # labels: one per node, one per drawn 'other' edge (supersedes, references)
    texts = [t.get_text() for t in ax.texts]
    assert sorted(t for t in texts if t in s.ids()) == sorted(s.ids())
    assert sorted(t for t in texts if t not in s.ids()) == ["references", "supersedes"]
    assert ax.get_title() == "" and ax.get_xlabel() == "ancestry depth"


def test_store_one_way_descendant_edge_is_drawn() -> None:
    s = Store.of({"a": Record("x"), "b": Record("y")}, [("a", Relation.EVOLVED_INTO, "b")])
    ax = plot_store(s)
    assert _edges(ax) == ["(a, EVOLVED_INTO, b)"]
    assert ax.patches[0].get_linestyle() in ("--", "dashed")
    assert store_layout(s) == {"a": (0.0, 0.0), "b": (1.0, 0.0)}  # R⁺ read backwards for depth


def test_store_namespace_colours_dangling_hollow_and_legend() -> None:
    s = _store()
    ax = plot_store(s)
    nodes = _nodes(ax)
    colours = colour_map(["alice", "bob"])
    assert to_hex(nodes["id0001"].get_markerfacecolor()) == colours["alice"].lower()
    assert to_hex(nodes["id0003"].get_markerfacecolor()) == colours["bob"].lower()
    assert to_hex(nodes["zzz"].get_markerfacecolor()) == "#ffffff"
    assert to_hex(nodes["zzz"].get_markeredgecolor()) == NEUTRAL
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert legend == ["namespace alice", "namespace bob", "dangling (no record)", "ancestry R⁻", "other relation"]
    hidden = plot_store(s, show_dangling=False)
    assert "zzz" not in _nodes(hidden) and len(hidden.patches) == 6
    assert "dangling (no record)" not in [t.get_text() for t in hidden.get_legend().get_texts()]


def test_store_highlight_nodes_and_edges() -> None:
    s = _store()
    e = ("id0005", Relation.MERGED_FROM, "id0004")
    hidden = ("id0004", Relation.MERGED_INTO, "id0005")  # the R⁺ half, normally not drawn
    ax = plot_store(s, highlight=["id0005", e, hidden])
    nodes = _nodes(ax)
    assert to_hex(nodes["id0005"].get_markeredgecolor()) == HIGHLIGHT
    assert nodes["id0005"].get_markersize() > nodes["id0001"].get_markersize()
    assert to_hex(nodes["id0001"].get_markeredgecolor()) != HIGHLIGHT
    by_label = {str(p.get_label())[6:]: p for p in ax.patches}
    assert to_hex(by_label[str(Edge(*e))].get_edgecolor()) == HIGHLIGHT
    assert str(Edge(*hidden)) not in by_label and len(ax.patches) == 7  # the drawn half carries it
    assert to_hex(by_label["(id0004, EVOLVED_FROM, id0001)"].get_edgecolor()) != HIGHLIGHT
    only_hidden = plot_store(s, highlight=[hidden])
    by_label = {str(p.get_label())[6:]: p for p in only_hidden.patches}
    assert to_hex(by_label[str(Edge(*e))].get_edgecolor()) == HIGHLIGHT
    both = plot_store(s, highlight=[hidden], descendants=True)
    by_label = {str(p.get_label())[6:]: p for p in both.patches}
    assert to_hex(by_label[str(Edge(*hidden))].get_edgecolor()) == HIGHLIGHT
    assert to_hex(by_label[str(Edge(*e))].get_edgecolor()) != HIGHLIGHT


def test_store_labels_options() -> None:
    s = _store()
    assert "id0001: meeting at 10" in [t.get_text() for t in plot_store(s, labels="both").texts]
    assert "meeting at 10" in [t.get_text() for t in plot_store(s, labels="content").texts]
    assert not [t for t in plot_store(s, labels=None).texts if t.get_text() in s.ids()]
    with pytest.raises(ValueError):
        plot_store(s, labels="nope")


def test_store_empty_and_cycle() -> None:
    assert len(plot_store(EMPTY).lines) == 0
    cyc = Store.of({"a": Record("x"), "b": Record("y")},
                   [("a", Relation.EVOLVED_FROM, "b"), ("b", Relation.EVOLVED_FROM, "a"), ("a", Relation.SPLIT_FROM, "a")])
    pos = store_layout(cyc)
    assert pos == {"a": (1.0, 0.0), "b": (0.0, 0.0)}
    assert len(plot_store(cyc).patches) == 3  # the self-loop is an arc


def test_layout_is_deterministic_and_independent_of_construction_order() -> None:
    s = _store()
    reversed_store = Store.of(dict(reversed(list(s.records.items()))), sorted(s.edges, reverse=True))
    assert store_layout(s) == store_layout(reversed_store)
    a, b = plot_store(s), plot_store(reversed_store)
    assert [l.get_xydata().tolist() for l in a.lines] == [l.get_xydata().tolist() for l in b.lines]
    layout = store_layout(s)
    assert layout["id0001"][0] == 0 and layout["id0004"][0] == 1 and layout["id0005"][0] == 2
    code = (
        "import json, sys; from coalg.model.jsonio import loads_store; from coalg.viz import store_layout;"
        "print(json.dumps(store_layout(loads_store(sys.stdin.read()))))"
    )
    outs = {
        subprocess.run([sys.executable, "-c", code], input=dumps_store(s), capture_output=True, text=True, check=True,
                       env={**os.environ, "PYTHONHASHSEED": seed}).stdout
        for seed in ("0", "12345")
    }
    assert len(outs) == 1 and json.loads(outs.pop()) == {k: list(v) for k, v in layout.items()}


# --------------------------------------------------------------------------- unfoldings


def test_unfolding_tree_marks_shared_and_cycle() -> None:
    s = run(EMPTY, [Save(Record("a")), Evolve("id0001", "b"), Merge(("id0001", "id0002"))]).final
    u = ancestry(s, "id0003")
    ax = plot_unfolding(u)
    nodes = [l for l in ax.lines if str(l.get_label()).startswith("_node ")]
    assert len(nodes) == len(u.nodes) == 4
    assert [n.mark for n in u.nodes].count("shared") == 1
    assert len([l for l in ax.lines if str(l.get_label()).startswith("_shared ")]) == 1
    assert any("(shared)" in t.get_text() for t in ax.texts)
    assert len([l for l in ax.lines if str(l.get_label()).startswith("_edge ")]) == 3
    assert ax.get_title() == "" and ax.get_ylabel() == "depth"
    cyc = Store.of({"a": Record("x"), "b": Record("y")},
                   [("a", Relation.EVOLVED_FROM, "b"), ("b", Relation.EVOLVED_FROM, "a")])
    ax = plot_unfolding(ancestry(cyc, "a"), highlight=["b"])
    assert any("↺ cycle" in t.get_text() for t in ax.texts)
    hi = [l for l in ax.lines if str(l.get_label()) == "_node 1 b"]
    assert to_hex(hi[0].get_markeredgecolor()) == HIGHLIGHT


def test_unfoldings_equal_ancestry_after_derivation_has_no_colour() -> None:
    """Theorem 5.7 on a picture: a derivation leaves ⟦i⟧⁻ unchanged, so nothing is coloured."""
    s = _store()
    t = run(s, [Evolve("id0005", "merged, revised")]).final
    left, right = plot_unfoldings(ancestry(s, "id0005"), ancestry(t, "id0005"))
    for ax in (left, right):
        colours = {to_hex(l.get_color()) for l in ax.lines} | {to_hex(l.get_markeredgecolor()) for l in ax.lines}
        assert not colours & {ADDED.lower(), REMOVED.lower()}
    assert [t.get_text() for t in left.texts if t.get_text() in ("before", "after")] == ["before"]
    assert left.get_title() == right.get_title() == ""


def test_unfoldings_descendants_grow_green_and_delete_shows_red() -> None:
    s = _store()
    t = run(s, [Evolve("id0005", "merged, revised")]).final
    d = unfolding_diff(descendants(s, "id0001"), descendants(t, "id0001"))
    new = next(iter(t.dom() - s.dom()))
    assert {i for i, _ in d["added_nodes"]} == {new} and not d["removed_nodes"]
    _, right = plot_unfoldings(descendants(s, "id0001"), descendants(t, "id0001"))
    green = [l for l in right.lines if to_hex(l.get_color()) == ADDED.lower() or to_hex(l.get_markeredgecolor()) == ADDED.lower()]
    assert {str(l.get_label()) for l in green} == {f"_node 3 {new}", f"_edge id0005 evolved_into {new}"}
    # Proposition 5.2: deleting id0004 changes the ancestry of the survivor id0005
    u = run(s, [Delete("id0004")]).final
    left, _ = plot_unfoldings(ancestry(s, "id0005"), ancestry(u, "id0005"))
    red = {str(l.get_label()) for l in left.lines
           if to_hex(l.get_color()) == REMOVED.lower() or to_hex(l.get_markeredgecolor()) == REMOVED.lower()}
    assert "_edge id0005 merged_from id0004" in red and any(x.endswith(" id0001") for x in red)


def test_unfolding_of_a_replaced_record_counts_as_changed() -> None:
    s = _store()
    t = run(s, [SaveAt("id0002", Record("room 5", namespace="alice"))]).final
    d = unfolding_diff(ancestry(s, "id0005"), ancestry(t, "id0005"))
    assert {i for i, _ in d["removed_nodes"]} == {i for i, _ in d["added_nodes"]} == {"id0002"}


# --------------------------------------------------------------------------- refinement rounds


def test_refinement_rounds_chain() -> None:
    s = run(EMPTY, [Save(Record("x")), Evolve("id0001", "x"), Evolve("id0002", "x")]).final
    s = Store.of({i: r.evolve(created_at=None, updated_at=None, metadata={}, tags=frozenset())
                  for i, r in s.records.items()}, s.edges)
    rounds = refinement_rounds(s, labels=ANCESTRY)
    assert rounds[0] == {"id0001": 0, "id0002": 0, "id0003": 0}
    assert rounds[-1] == {"id0001": 0, "id0002": 1, "id0003": 2}
    assert len(rounds) == 3
    assert rounds[-1] == behaviour_classes(s, labels=ANCESTRY)
    assert refinement_rounds(EMPTY) == [{}]


def _legend(ax: plt.Axes) -> list[str]:
    legend = ax.get_legend()
    return [] if legend is None else [t.get_text() for t in legend.get_texts()]


def test_legend_size_counts_the_entries_plot_store_draws() -> None:
    """A figure sizes the room under its graph by legend_size before it draws: the count must be
    the legend's, read off what plot_store drew, for highlights, ghosts and hidden dangling ends."""
    s = _store()
    hidden = ("id0004", Relation.MERGED_INTO, "id0005")  # an R⁺ half: the drawn R⁻ half is lit
    after = run(s, [Delete("id0002")]).final
    cases = [
        (s, {}), (s, {"highlight": ["id0005"]}), (s, {"highlight": [hidden]}),
        (s, {"show_dangling": False}), (s, {"descendants": True}),
        (s, {"highlight": ["nowhere"]}),  # names no node: nothing is lit, no entry for it
        (after, {"ghosts": s, "highlight": ["id0001"]}),
        (Store.of({"a": Record("x")}), {}), (EMPTY, {}),
    ]
    for store, kw in cases:
        drawn = _legend(plot_store(store, **kw))
        assert legend_size(store, **kw) == len(drawn), (kw, drawn)
    assert len(_legend(plot_store(after, ghosts=s))) == len(_legend(plot_store(after))) + 1  # a ghost adds one


@budget(30, derandomize=False)
@given(stores())
def test_legend_size_on_any_store(s: Store) -> None:
    some = sorted(s.ids())[:2]
    assert legend_size(s, highlight=some) == len(_legend(plot_store(s, highlight=some)))
    plt.close("all")


@budget(60, derandomize=False)
@given(stores())
def test_refinement_rounds_end_at_behaviour_classes(s: Store) -> None:
    rounds = refinement_rounds(s)
    assert rounds[-1] == behaviour_classes(s)
    assert rounds[-1] == behaviour_classes(s) and refinement_rounds(s, labels=ANCESTRY)[-1] == behaviour_classes(s, labels=ANCESTRY)
    for earlier, later in itertools.pairwise(rounds):  # each round refines the one before, strictly
        assert len(set(later.values())) > len(set(earlier.values()))
        pairs = {(earlier[i], later[i]) for i in later}
        assert len(pairs) == len(set(later.values()))


def test_plot_store_pairs_join_two_nodes_by_a_dashed_arc_named_in_the_legend() -> None:
    from matplotlib.patches import FancyArrowPatch

    from coalg.viz.store import PAIR_COLOUR

    s = _store()
    ax = plot_store(s, pairs=[("id0002", "id0005", "same prefix id000")])
    arcs = [p for p in ax.patches if str(p.get_label()).startswith("_pair ")]
    assert [str(p.get_label()) for p in arcs] == ["_pair id0002 id0005"]
    assert isinstance(arcs[0], FancyArrowPatch) and to_hex(arcs[0].get_edgecolor()) == PAIR_COLOUR.lower()
    assert arcs[0].get_linestyle() not in ("-", "solid")  # dashed, unlike an ancestry edge
    assert "same prefix id000" in [t.get_text() for t in ax.get_legend().get_texts()]
    assert not any(str(p.get_label()).startswith("_pair ") for p in plot_store(s).patches)
    with pytest.raises(ValueError, match="two different nodes"):
        plot_store(s, pairs=[("id0002", "nowhere", "x")])
    with pytest.raises(ValueError, match="two different nodes"):
        plot_store(s, pairs=[("id0002", "id0002", "x")])


def _colours(ax: object) -> dict[str, str]:
    return {i: to_hex(line.get_markerfacecolor()) for i, line in _nodes(ax).items()}


def test_plot_refinement_a_block_keeps_its_colour_when_it_splits() -> None:
    # Fig. 2.1's store: round 1 splits b off {a, b}; p and q keep their blocks
    s = Store.of(
        {"a": Record("x"), "b": Record("x"), "p": Record("p"), "q": Record("q")},
        [("a", Relation.EVOLVED_FROM, "p"), ("b", Relation.EVOLVED_FROM, "q")],
    )
    first, second = (_colours(ax) for ax in plot_refinement(s))
    assert first["a"] == first["b"] and len({first["a"], first["p"], first["q"]}) == 3
    assert second["a"] == first["a"] and second["p"] == first["p"] and second["q"] == first["q"]
    assert second["b"] not in set(first.values())  # the part that split off: a colour not used before
    # every round of a larger store: a block unchanged since the last round keeps its colour,
    # and each block that splits leaves its colour on exactly one of its parts
    s = _store()
    rounds = refinement_rounds(s)
    drawn = [_colours(ax) for ax in plot_refinement(s)]
    assert len({c for d in drawn for c in d.values()}) <= len(PALETTE)
    for (p0, c0), (p1, c1) in itertools.pairwise(zip(rounds, drawn)):
        for block in set(p0.values()):
            members = {i for i in p0 if p0[i] == block}
            parts = {p1[i] for i in members}
            keepers = {b for b in parts if {c1[i] for i in members if p1[i] == b} == {c0[min(members)]}}
            assert len(keepers) == 1
            if len(parts) == 1:
                assert {c1[i] for i in members} == {c0[min(members)]}


def test_stable_block_numbers_rejects_rounds_that_do_not_refine() -> None:
    with pytest.raises(ValueError, match="does not refine"):
        stable_block_numbers([{"a": 0, "b": 1}, {"a": 0, "b": 0}])
    with pytest.raises(ValueError, match="other identifiers"):
        stable_block_numbers([{"a": 0}, {"b": 0}])


def test_plot_refinement_one_panel_per_round_coloured_by_block() -> None:
    s = _store()
    rounds = refinement_rounds(s)
    axes = plot_refinement(s)
    assert len(axes) == len(rounds)
    for ax, part in zip(axes, rounds):
        nodes = _nodes(ax)
        assert set(nodes) == set(part)
        # same colour exactly when same block of this round (fewer than eight blocks here)
        assert len(set(part.values())) <= len(PALETTE)
        for i, j in itertools.combinations(sorted(nodes), 2):
            same = to_hex(nodes[i].get_markerfacecolor()) == to_hex(nodes[j].get_markerfacecolor())
            assert same == (part[i] == part[j])
        blocks = len(set(part.values()))
        assert any(t.get_text().startswith(f"round {axes.index(ax)}: {blocks} block") for t in ax.texts)
        assert ax.get_title() == ""
