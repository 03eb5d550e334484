"""Ancestry against descendants: the unfoldings of one record before and after a step.

Paper §3.4 and §5: evolve, merge or split anything and the focus record's
ancestry ⟦i⟧⁻ does not change (Theorem 5.7) while its descendants may grow
(Proposition 5.13); delete one of its ancestors and its ancestry changes
(Proposition 5.2).  The four unfoldings are drawn with
:func:`coalg.viz.plot_unfoldings`, what changed in colour.

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
    descendants,
    preset,
)
from ..model import names as preset_names
from ..viz import (
    ADDED,
    REMOVED,
    plot_unfoldings,
    unfolding_diff,
    unfolding_extent,
    unfolding_layout,
)
from .allocation import next_allocation
from .base import Explorer, action
from .controls import button, figure_image, ipywidgets, preset_picker
from .figures import render_png
from .text import esc, output_text, short

__all__ = ["AncestryExplorer"]


class AncestryExplorer(Explorer):
    """Ancestry and descendant unfoldings of one record, before and after a step.

    Evolve, merge or split anything: the focus record's ancestry ⟦i⟧⁻ does not
    change (Theorem 5.7) while its descendants may grow (Proposition 5.13).
    Delete one of its ancestors: its ancestry changes (Proposition 5.2).
    Methods: :meth:`select`, :meth:`evolve`, :meth:`merge_with`, :meth:`split`,
    :meth:`delete`, :meth:`reset`.
    """

    def __init__(self, start: str | Store = "meeting notes", focus: Id | None = None) -> None:
        super().__init__("Choose a record, then derive from it — or delete one of its ancestors.")
        self.start_name = start if isinstance(start, str) else "custom"
        self.initial = preset(start) if isinstance(start, str) else start
        self.before = self.after = self.initial
        ids = sorted(self.initial.dom())
        self.focus: Id = focus if focus is not None else (
            "id0004" if "id0004" in self.initial.records else (ids[0] if ids else ""))
        self.last: str = "no step yet"
        self.clocks: list[int] = []

    # ----------------------------------------------------------------- state
    def unfoldings(self) -> dict[str, Unfolding]:
        """The four unfoldings of the focus: ancestry and descendants, before and after the last step."""
        i = self.focus
        return {"ancestry_before": ancestry(self.before, i), "ancestry_after": ancestry(self.after, i),
                "descendants_before": descendants(self.before, i), "descendants_after": descendants(self.after, i)}

    @property
    def state(self) -> dict[str, Any]:
        """A JSON-ready summary: the focus, the last step, what its ancestry lost and its descendants gained."""
        u = self.unfoldings()
        da = unfolding_diff(u["descendants_before"], u["descendants_after"])
        aa = unfolding_diff(u["ancestry_before"], u["ancestry_after"])
        return {
            "focus": self.focus,
            "last": self.last,
            "ancestry_unchanged": u["ancestry_before"] == u["ancestry_after"],
            "ancestry_removed": sorted({i for i, _ in aa["removed_nodes"]}),
            "descendants_added": sorted({i for i, _ in da["added_nodes"]}),
            "descendants_unchanged": u["descendants_before"] == u["descendants_after"],
            "records": sorted(self.after.dom()),
            "message": self.message,
        }

    def verdict_html(self) -> str:
        """What the last step did to the focus, with the result of the paper that says so."""
        st = self.state
        if self.last == "no step yet":
            return "<i>No step yet: both columns show the same store.</i>"
        lines = []
        if st["ancestry_unchanged"]:
            lines.append(f"⟦{esc(self.focus)}⟧⁻ is <b>unchanged</b> — Theorem 5.7 (ancestry is stable under "
                         "fresh saves and derivations).")
        else:
            lines.append(f"⟦{esc(self.focus)}⟧⁻ <b style='color:{REMOVED}'>changed</b>: lost "
                         f"{esc(', '.join(st['ancestry_removed']) or 'an edge')} — Proposition 5.2 (delete breaks "
                         "ancestry).")
        if st["descendants_added"]:
            lines.append(f"Its descendants <b style='color:{ADDED}'>grew</b>: "
                         f"{esc(', '.join(st['descendants_added']))} — Proposition 5.13 (full lineage is not "
                         "stable).")
        elif st["descendants_unchanged"]:
            lines.append("Its descendants are unchanged.")
        else:
            lines.append("Its descendants changed.")
        return f"<div>last step: <code>{esc(self.last)}</code></div><ul><li>" + "</li><li>".join(lines) + "</li></ul>"

    # ----------------------------------------------------------------- actions
    def _check(self, *ids: Id) -> bool:
        missing = [i for i in ids if i not in self.after.records]
        if not ids or not all(ids):
            self._say("select a record first.", error=True)
            return False
        if missing:
            self._say(f"unknown identifier {', '.join(missing)}: the store holds no record there.", error=True)
            return False
        return True

    def _step(self, letter: Letter) -> bool:
        xi = next_allocation([self.initial, self.before, self.after], letter, self.clocks)
        out, nxt = CONTEXTFS.step(self.after, letter, xi)
        if isinstance(out, Err):
            self._say(f"refused: {out.reason}", error=True)
            return False
        self.clocks.append(xi.clock)
        self.before, self.after = self.after, nxt
        self.last = show_letter(letter)
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
    def evolve(self, content: str | None = None, target: Id | None = None) -> bool:
        """Evolve ``target`` (default: the focus) to ``content``."""
        i = target or self.focus
        return self._check(i) and self._step(Evolve(i, content or f"{i}, revised"))

    @action
    def merge_with(self, other: Id) -> bool:
        """Merge the focus with ``other`` (the focus first)."""
        if other == self.focus:
            self._say("merge needs two different records.", error=True)
            return False
        return self._check(self.focus, other) and self._step(Merge((self.focus, other)))

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
    def delete(self, victim: Id) -> bool:
        """Delete record ``victim`` (an ancestor of the focus, to see Proposition 5.2)."""
        return self._check(victim) and self._step(Delete(victim))

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
        self.last = "no step yet"
        self.clocks.clear()
        self._say("reset.")
        self._refresh()
        return True

    # ----------------------------------------------------------------- views
    def figure_png(self) -> bytes:
        """The four unfoldings, before on the left and after on the right (PNG)."""
        u = self.unfoldings()
        extents = [unfolding_extent(unfolding_layout(x)) for x in u.values()]
        width = max(w for w, _d in extents)
        depth = max(d for _w, d in extents)
        figsize = (max(7.5, 2 * (1.6 * width + 1)), 2 * max(2.2, 0.95 * depth + 0.9))

        def draw(axes: list[Any]) -> None:
            i = self.focus
            plot_unfoldings(u["ancestry_before"], u["ancestry_after"], axes=axes[0:2],
                            title_left=f"ancestry of {i}, before", title_right=f"ancestry of {i}, after")
            plot_unfoldings(u["descendants_before"], u["descendants_after"], axes=axes[2:4],
                            title_left=f"descendants of {i}, before",
                            title_right=f"descendants of {i}, after")

        return render_png(draw, figsize, ncols=2, nrows=2)

    def _build(self, ui: dict[str, Any]) -> None:
        w = ipywidgets()
        ui["message"] = w.HTML()
        ui["preset"] = preset_picker(self.start_name)
        self._observe(ui["preset"], lambda v: self.reset(v) if v else None)
        ui["focus"] = w.Dropdown(options=[], description="record")
        self._observe(ui["focus"], lambda v: self.select(v) if v and v != self.focus else None)
        ui["other"] = w.Dropdown(options=[], description="other")
        ui["content"] = w.Text(placeholder="new content", description="content")
        buttons = [
            button("evolve it", lambda: self.evolve(ui["content"].value or None), style="info"),
            button("split it", lambda: self.split(), style="info"),
            button("merge it with other", lambda: self.merge_with(ui["other"].value), style="info"),
            button("delete other", lambda: self.delete(ui["other"].value), style="warning"),
            button("reset", lambda: self.reset()),
        ]
        ui["figure"] = figure_image()
        ui["verdict"] = w.HTML()
        ui["root"] = w.VBox([w.HBox([ui["preset"], ui["focus"], ui["other"]]), ui["content"], w.HBox(buttons),
                             ui["message"], ui["verdict"], ui["figure"]])

    def _draw(self, ui: dict[str, Any]) -> None:
        ids = sorted(self.after.dom())
        opts = [(f"{i}  {short(self.after.records[i].content, 28)}", i) for i in ids]
        focus_opts = opts if self.focus in self.after.records else opts + [(f"{self.focus} (deleted)", self.focus)]
        ui["focus"].options = focus_opts
        ui["focus"].value = self.focus if self.focus else None
        ui["other"].options = opts
        ui["figure"].value = self.figure_png()
        ui["verdict"].value = self.verdict_html()

