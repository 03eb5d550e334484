"""Ancestry against descendants: the unfoldings of one record before and after a step.

Paper §3.4 and §5: evolve, merge or split anything and the focus record's
ancestry ⟦i⟧⁻ does not change (Theorem 5.7) while its descendants may grow
(Proposition 5.13); delete one of its ancestors and its ancestry changes
(Proposition 5.2).  Each result is cited only when the step is one it speaks
about: deleting the focus itself, or a record outside its lineage, is said in
plain words.  The four unfoldings are drawn with :func:`coalg.viz.plot_unfoldings`.

>>> ae = AncestryExplorer("meeting notes", focus="id0004")
>>> ae.evolve()
True
>>> ae.state["ancestry_unchanged"], ae.state["descendants_added"]
(True, ['id0008'])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..laws import show_letter
from ..model import (
    CONTEXTFS,
    Call,
    Delete,
    Err,
    Evolve,
    Id,
    Letter,
    Merge,
    Split,
    Store,
    Unfolding,
    ancestry,
    call_to_json,
    descendants,
    preset,
    store_to_json,
)
from ..model import names as preset_names
from ..viz import ADDED, FONT_SIZE, REMOVED, plot_unfoldings, text_size, unfolding_figsize
from .allocation import next_allocation
from .base import Explorer, action
from .controls import figure_image, ipywidgets, preset_picker, wide
from .fields import Fields
from .figures import FULL_WIDTH_FROM, hall, max_width, render
from .session import SessionError
from .text import esc, output_text, short
from .tree_rows import rows_svg

__all__ = ["AncestryExplorer"]

def _with_record(u: Unfolding) -> set[Id]:
    return {n.id for n in u.nodes if n.record is not None}


def _tree_edges(u: Unfolding) -> set[tuple[Id, str, Id]]:
    """The edges of an unfolding's tree: (parent, label, child), read off its preorder."""
    out: set[tuple[Id, str, Id]] = set()
    path: list[Id] = []
    for n in u.nodes:
        del path[n.depth:]
        if path and n.via is not None:
            out.add((path[-1], n.via.value, n.id))
        path.append(n.id)
    return out


def _edge(e: Sequence[str]) -> str:
    return f"{e[0]} —{e[1]}→ {e[2]}"


def _ids(ids: Sequence[Id]) -> str:
    return ", ".join(ids) if ids else "no other record"


class AncestryExplorer(Explorer):
    """Ancestry and descendant unfoldings of one record, before and after a step.

    Evolve, merge or split anything: the focus record's ancestry ⟦i⟧⁻ does not
    change (Theorem 5.7) while its descendants may grow (Proposition 5.13).
    Delete one of its ancestors: its ancestry changes (Proposition 5.2).
    Methods: :meth:`select`, :meth:`choose_other`, :meth:`evolve`,
    :meth:`merge_with`, :meth:`split`, :meth:`delete`, :meth:`reset`.
    """

    KIND = "ancestry"

    def __init__(self, start: str | Store = "meeting notes", focus: Id | None = None, *,
                 scale: float = 1.0) -> None:
        super().__init__("Choose a record, then derive from it — or delete one of its ancestors.", scale=scale)
        self.start_name = start if isinstance(start, str) else "custom"
        self.initial = preset(start) if isinstance(start, str) else start
        ids = sorted(self.initial.dom())
        self.focus: Id = focus if focus is not None else (
            "id0004" if "id0004" in self.initial.records else (ids[0] if ids else ""))
        self.other: Id | None = None
        self.content = ""
        self.calls: list[Call] = []
        self.before = self.after = self.initial

    # ----------------------------------------------------------------- state
    @property
    def last(self) -> str:
        """The last step in the book's notation (``"no step yet"`` before the first)."""
        return show_letter(self.calls[-1].letter) if self.calls else "no step yet"

    def unfoldings(self) -> dict[str, Unfolding]:
        """The four unfoldings of the focus: ancestry and descendants, before and after the last step."""
        i = self.focus
        return {"ancestry_before": ancestry(self.before, i), "ancestry_after": ancestry(self.after, i),
                "descendants_before": descendants(self.before, i), "descendants_after": descendants(self.after, i)}

    def focus_status(self) -> str:
        """What the last step did to the focus itself: ``"existing"`` (a record before and after),
        ``"new"`` (no record before, one after), ``"deleted"`` (a record before, none after) or
        ``"absent"`` (no record before or after: an identifier only an edge mentions)."""
        was, now = self.focus in self.before.records, self.focus in self.after.records
        return {(True, True): "existing", (False, True): "new", (True, False): "deleted",
                (False, False): "absent"}[(was, now)]

    @property
    def state(self) -> dict[str, Any]:
        """A JSON-ready summary: the focus and what the last step did to it and to its lineage.

        ``focus_status`` is :meth:`focus_status`; the lists compare the records
        (identifiers holding a record) of the two ancestries and of the two
        descendant sets, and ``ancestry_edges_*`` the edges of the two ancestry
        trees, whatever the status.
        """
        u = self.unfoldings()
        a_before, a_after = _with_record(u["ancestry_before"]), _with_record(u["ancestry_after"])
        d_before, d_after = _with_record(u["descendants_before"]), _with_record(u["descendants_after"])
        e_before, e_after = _tree_edges(u["ancestry_before"]), _tree_edges(u["ancestry_after"])
        status = self.focus_status()
        return {
            "focus": self.focus,
            "last": self.last,
            "focus_status": status,
            "focus_deleted": status == "deleted",
            "ancestry_unchanged": u["ancestry_before"] == u["ancestry_after"],
            "ancestry_removed": sorted(a_before - a_after),
            "ancestry_added": sorted(a_after - a_before),
            "ancestry_edges_removed": sorted(e_before - e_after),
            "ancestry_edges_added": sorted(e_after - e_before),
            "descendants_added": sorted(d_after - d_before),
            "descendants_removed": sorted(d_before - d_after),
            "descendants_unchanged": u["descendants_before"] == u["descendants_after"],
            "records": sorted(self.after.dom()),
            "message": self.message,
        }

    def verdict_html(self) -> str:
        """What the last step did to the focus, in sentences computed from the two stores it compares;
        a result of the paper is cited only where its hypotheses hold."""
        if not self.calls:
            return "<i>No step yet: both columns show the same store.</i>"
        st, i = self.state, esc(self.focus)
        letter = self.calls[-1].letter
        deleted = letter.id if isinstance(letter, Delete) else None
        derivation = isinstance(letter, Evolve | Merge | Split)
        head = f"<div>last step: <code>{esc(self.last)}</code></div>"
        if hall(self.scale) and self.message.startswith(self.last):  # the message line just said it
            head = ""
        status = st["focus_status"]
        if status == "new":
            anc = [x for x in st["ancestry_added"] if x != self.focus]
            desc = [x for x in st["descendants_added"] if x != self.focus]
            lines = [(f"{i} is <b style='color:{ADDED}'>new</b>: it held no record before this step (⊥), "
                     "so its ancestry and its descendants appeared with it."),
                     f"Its ancestry ⟦{i}⟧⁻ reaches {esc(_ids(anc))}; its descendants: {esc(_ids(desc))}.",
                     ("Theorem 5.7 speaks only of records that existed before the step (i ∈ dom(mₛ)), "
                     f"so it says nothing about {i}: choose a record that existed to see it at work.")]
        elif status == "deleted":
            lines = [(f"The focus {i} itself <b style='color:{REMOVED}'>was deleted</b> by this step: "
                     "it holds no record now (⊥), so after the step its ancestry and its descendants are "
                     "those of an identifier without a record."),
                     ("A delete is not a derivation and the focus no longer holds a record, so no result "
                     "about the lineage of existing records speaks of it. Choose another record to follow.")]
        elif status == "absent":
            lines = [(f"{i} holds no record, before or after this step (⊥): it is an identifier an edge "
                     "mentions, and no result about records applies to it. Choose a record to follow.")]
        else:
            lines = [self._ancestry_sentence(st, derivation, deleted), self._descendants_sentence(st, derivation)]
        tight = " style='margin:0'" if hall(self.scale) else ""  # the hall: no line lost to margins
        return head + f"<ul{tight}><li>" + "</li><li>".join(lines) + "</li></ul>"

    def _ancestry_sentence(self, st: dict[str, Any], derivation: bool, deleted: Id | None) -> str:
        i = esc(self.focus)
        if st["ancestry_unchanged"]:
            return (f"The ancestry ⟦{i}⟧⁻ is <b>unchanged</b>"
                    + (f", as Theorem 5.7 says: {i} existed before this derivation, and ancestry is stable "
                       "under derivations." if derivation else
                       f": {esc(deleted)} was not among its ancestors." if deleted else "."))
        parts = []
        if st["ancestry_removed"]:
            parts.append(f"lost the record(s) {esc(', '.join(st['ancestry_removed']))}")
        if st["ancestry_added"]:
            parts.append(f"gained the record(s) {esc(', '.join(st['ancestry_added']))}")
        if st["ancestry_edges_removed"]:
            parts.append("lost the edge(s) " + esc(", ".join(_edge(e) for e in st["ancestry_edges_removed"])))
        if st["ancestry_edges_added"]:
            parts.append("gained the edge(s) " + esc(", ".join(_edge(e) for e in st["ancestry_edges_added"])))
        what = " and ".join(parts) or "holds the same identifiers and edges, with different records"
        cite = (" — Proposition 5.2: deleting an ancestor breaks the ancestry." if deleted
                and deleted in self.unfoldings()["ancestry_before"].ids else ".")
        return f"The ancestry ⟦{i}⟧⁻ <b style='color:{REMOVED}'>changed</b>: it {what}{cite}"

    def _descendants_sentence(self, st: dict[str, Any], derivation: bool) -> str:
        if st["descendants_unchanged"]:
            return "Its descendants are unchanged."
        parts = []
        if st["descendants_added"]:
            parts.append(f"<b style='color:{ADDED}'>grew</b> by {esc(', '.join(st['descendants_added']))}"
                         + (" — Proposition 5.13: the full lineage is not stable" if derivation else ""))
        if st["descendants_removed"]:
            parts.append(f"lost {esc(', '.join(st['descendants_removed']))}")
        return "Its descendants " + ("; they ".join(parts) or "changed: the same records, linked differently") + "."

    # ----------------------------------------------------------------- actions
    def _check(self, *ids: Id | None) -> bool:
        if not ids or not all(ids):
            self._say("select a record first.", error=True)
            return False
        missing = [str(i) for i in ids if i not in self.after.records]
        if missing:
            self._say(f"unknown identifier {', '.join(missing)}: the store holds no record there.", error=True)
            return False
        return True

    def _step(self, letter: Letter) -> bool:
        xi = next_allocation([self.initial, self.before, self.after], letter,
                             [c.allocation.clock for c in self.calls],
                             issued=[j for c in self.calls for j in c.allocation.ids])
        out, nxt = CONTEXTFS.step(self.after, letter, xi)
        if isinstance(out, Err):
            self._say(f"refused: {out.reason}", error=True)
            return False
        self.calls.append(Call(letter, xi))
        self.before, self.after = self.after, nxt
        if self.other is not None and self.other not in nxt.records:
            self.other = None  # a selection never moves on its own: the reader chooses again
        self._say(f"{self.last} → {output_text(out)}")
        self._refresh()
        return True

    @action
    def select(self, i: Id) -> bool:
        """Put the focus on record ``i``."""
        if i not in self.after.ids():
            self._say(f"unknown identifier {i!r}.", error=True)
            return False
        self.focus = i
        self._say(f"focus on {i}.")
        self._refresh()
        return True

    @action
    def choose_other(self, i: Id | None) -> bool:
        """Choose the "other" record (merged with the focus, or deleted); ``None`` clears the choice."""
        if i is not None and i not in self.after.records:
            self._say(f"unknown identifier {i!r}.", error=True)
            return False
        self.other = i
        return True

    @action
    def evolve(self, content: str | None = None, target: Id | None = None) -> bool:
        """Evolve ``target`` (default: the focus) to ``content``."""
        i = target or self.focus
        return self._check(i) and self._step(Evolve(i, content or f"{i}, revised"))

    @action
    def merge_with(self, other: Id | None) -> bool:
        """Merge the focus with ``other`` (the focus first)."""
        if other is not None and other == self.focus:
            self._say("merge needs two different records.", error=True)
            return False
        return self._check(self.focus, other) and self._step(Merge((self.focus, str(other))))

    @action
    def split(self, parts: Sequence[str] = ()) -> bool:
        """Split the focus into ``parts`` (default: two)."""
        i = self.focus
        parts = list(parts) or [f"{i}, part 1", f"{i}, part 2"]
        if len(parts) < 2:
            self._say("split needs at least two parts.", error=True)
            return False
        return self._check(i) and self._step(Split(i, tuple(parts)))

    @action
    def delete(self, victim: Id | None) -> bool:
        """Delete record ``victim`` (an ancestor of the focus, to see Proposition 5.2)."""
        return self._check(victim) and self._step(Delete(str(victim)))

    @action
    def reset(self, start: str | None = None) -> bool:
        """Back to the start store, or to the preset ``start``; the focus stays if it is there."""
        if start is not None:
            if start not in preset_names():
                self._say(f"unknown preset {start!r}.", error=True)
                return False
            self.initial, self.start_name = preset(start), start
            if self.focus not in self.initial.records:
                self.focus = min(self.initial.dom(), default="")
        self.before = self.after = self.initial
        self.calls.clear()
        self.other = None
        self._say("reset.")
        self._refresh()
        return True

    # ----------------------------------------------------------------- sessions
    def _session_state(self) -> dict[str, Any]:
        return {"start_name": self.start_name, "start": store_to_json(self.initial),
                "word": [call_to_json(c) for c in self.calls], "focus": self.focus, "other": self.other,
                "content": self.content}

    def _restore(self, state: dict[str, Any], source: str) -> str:
        f = Fields(state, source=source)
        f.only("start_name", "start", "word", "focus", "other", "content")
        start, calls = f.store("start"), f.calls("word", max_len=500)
        stores = [start]
        for k, c in enumerate(calls):
            out, nxt = CONTEXTFS.step(stores[-1], c.letter, c.allocation)
            if isinstance(out, Err):
                raise SessionError(f"ContextFS refuses this call: {out.reason}", source=source, field=f"state.word[{k}]")
            stores.append(nxt)
        focus, other = f.text("focus", max_len=200), f.text("other", optional=True, max_len=200)
        if focus not in stores[-1].ids() and focus not in stores[-2 if calls else -1].ids():
            raise f.fail("focus", f"{focus!r} is not an identifier of the store")
        if other is not None and other not in stores[-1].records:
            raise f.fail("other", f"{other!r} holds no record in the store")
        start_name, content = f.text("start_name", max_len=200), f.text("content")  # all read before any change
        self.start_name, self.initial, self.calls = start_name, start, calls
        self.before, self.after = stores[-2] if calls else start, stores[-1]
        self.focus, self.other, self.content = focus, other, content
        return f"{self.start_name}, {len(calls)} step(s), focus on {focus}."

    # ----------------------------------------------------------------- views
    def figure_svg(self) -> bytes:
        """The four unfoldings: ancestry above, descendants below; before on the left, after on the right.
        When two trees side by side do not fit the screen at this scale, the four go one under the other."""
        u = self.unfoldings()
        sizes = {k: unfolding_figsize(x) for k, x in u.items()}
        i = self.focus
        titles = {"ancestry_before": f"ancestry of {i}, before", "ancestry_after": f"ancestry of {i}, after",
                  "descendants_before": f"descendants of {i}, before", "descendants_after": f"descendants of {i}, after"}
        title = max(text_size(t, FONT_SIZE)[0] for t in titles.values()) / 72 + 0.7  # a panel's name fits above it
        left = max(sizes["ancestry_before"][0], sizes["descendants_before"][0], title)
        right = max(sizes["ancestry_after"][0], sizes["descendants_after"][0], title)

        contents = not hall(self.scale)  # the hall: one-line labels (identifiers) for closer levels

        def draw(axes: list[Any]) -> None:  # a 2×2 grid, or one column: before, after, before, after
            plot_unfoldings(u["ancestry_before"], u["ancestry_after"], axes=axes[0:2], contents=contents,
                            title_left=titles["ancestry_before"], title_right=titles["ancestry_after"])
            plot_unfoldings(u["descendants_before"], u["descendants_after"], axes=axes[2:4], contents=contents,
                            title_left=titles["descendants_before"], title_right=titles["descendants_after"])

        if self.scale >= FULL_WIDTH_FROM:  # the lecture hall: each pair side by side whenever it fits
            return rows_svg(draw, [(sizes["ancestry_before"], sizes["ancestry_after"]),
                                         (sizes["descendants_before"], sizes["descendants_after"])], title, self.scale)
        if left + right + 0.4 <= max_width(self.scale) / self.scale:
            height = max(sizes["ancestry_before"][1], sizes["ancestry_after"][1]) + max(
                sizes["descendants_before"][1], sizes["descendants_after"][1])
            return render(draw, (left + right + 0.4, height + 0.6), ncols=2, nrows=2, scale=self.scale,
                          width_ratios=(left, right), bottom=0.2, top=0.4, left=0.55)
        return render(draw, (max(left, right) + 0.2, sum(h for _w, h in sizes.values()) + 0.8), ncols=1, nrows=4,
                      scale=self.scale, bottom=0.2, top=0.4, left=0.55)

    def _build(self, ui: dict[str, Any]) -> None:
        w = ipywidgets()
        ui["message"] = w.HTML()
        ui["preset"] = preset_picker(self.start_name)
        self._observe(ui["preset"], lambda v: self.reset(v) if v else None)
        ui["focus"] = w.Dropdown(options=[], description="record", style=wide(),
                                 tooltip="The record whose ancestry and descendants are drawn (the focus).")
        self._observe(ui["focus"], lambda v: self.select(v) if v and v != self.focus else None)
        ui["other"] = w.Dropdown(options=[], description="other", style=wide(),
                                 tooltip="A second record: merged with the focus (focus first), or deleted.")
        self._observe(ui["other"], self.choose_other)
        ui["content"] = w.Text(placeholder="new content", description="content", style=wide(),
                               tooltip="The content evolve writes (empty: '<id>, revised').")
        self._observe(ui["content"], lambda v: setattr(self, "content", v))
        buttons = [
            self._button(ui, "evolve", "evolve it", lambda: self.evolve(self.content or None),
                         tooltip="Evolve the focus to the new content (Theorem 5.7, Proposition 5.13).", style="info"),
            self._button(ui, "split", "split it", self.split, tooltip="Split the focus into two parts.", style="info"),
            self._button(ui, "merge", "merge it with other", lambda: self.merge_with(self.other),
                         tooltip="Merge the focus with the other record, the focus first.", style="info"),
            self._button(ui, "delete", "delete other", lambda: self.delete(self.other),
                         tooltip="Delete the other record (an ancestor of the focus: Proposition 5.2).",
                         style="warning"),
            self._button(ui, "reset", "reset", self.reset, tooltip="Back to the start store."),
        ]
        ui["figure"] = figure_image()
        ui["verdict"] = w.HTML()
        for key in ("verdict", "figure"):  # the main view: what the step did, and the four trees
            ui[key].add_class("coalg-main")
        ui["root"] = w.VBox([w.HBox([ui["preset"], self._size_control(ui)], layout=w.Layout(flex_flow="row wrap")),
                             w.HBox([ui["focus"], ui["other"], ui["content"]], layout=w.Layout(flex_flow="row wrap")),
                             w.HBox(buttons, layout=w.Layout(flex_flow="row wrap")),
                             ui["message"], ui["verdict"], ui["figure"], self._session_bar(ui)])

    def _draw(self, ui: dict[str, Any]) -> None:
        ids = sorted(self.after.dom())
        opts = [(f"{i}  {short(self.after.records[i].content, 28)}", i) for i in ids]
        focus_opts = opts if self.focus in self.after.records else opts + [(f"{self.focus} (deleted)", self.focus)]
        ui["preset"].value = self.start_name if self.start_name in ui["preset"].options else None
        ui["focus"].options = focus_opts
        ui["focus"].value = self.focus if self.focus else None
        ui["other"].options = opts
        ui["other"].value = self.other if self.other in self.after.records else None
        ui["content"].value = self.content
        ui["figure"].value = self.figure_svg()
        ui["verdict"].value = self.verdict_html()
