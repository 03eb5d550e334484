"""The front end of the derivation playground (:mod:`.playground`): its controls, panels and graph.

Laid out for a projector: the operations first, then the message and the law
panel of the step they made, then the records and fields they act on (so that
at a projector's size the buttons, the law panel and the record list share one
screen), then the realisation, θ and the size; the graph, the word, loading a
store and the session file below.  Every control applies at once (there is
no "set" button whose value could differ from what is in force), and every
button runs through the explorer's gesture guard (one step per click).
"""

from __future__ import annotations

import functools
from typing import Any

from ..model import Output
from .controls import (
    ARGUMENT_ORDER_TIP,
    figure_image,
    ipywidgets,
    preset_picker,
    realisation_picker,
    reverse_box,
    wide,
)
from .figures import FULL_WIDTH, hall, store_svg
from .operations import OPERATIONS
from .steps import laws_panel, word_panel
from .text import esc, output_text, short, theta_text

DerivationPlayground = Any
"""The playground these functions draw (:class:`.playground.DerivationPlayground`; not imported here,
so that the playground and its view do not import each other)."""

__all__ = ["build", "draw", "graph", "laws", "output_sentence", "word"]

TIPS = {
    "save": "Save a new record: the content, type and namespace fields (no record selected).",
    "evolve": "Evolve one selected record to the new content.",
    "merge": "Merge two or more selected records, in the order of the list (tick 'reverse' for the other).",
    "split": "Split one selected record into parts: the content field, parts separated by |.",
    "supersede": "Two selected records: the first (in list order) is superseded by the second.",
    "delete": "Delete one selected record.",
    "save_at": "Replace one selected record in place with the content field (save-at).",
}
"""What each operation button does and which arguments it takes."""

laws = laws_panel
word = word_panel


def output_sentence(o: Output) -> str:
    """The output of a call as the message line says it."""
    return output_text(o)


BESIDE_WIDTH = FULL_WIDTH / 2
"""The graph's width at the lecture hall's size, in inches shown (912 px): half the screen, the law
panel beside it in the other half."""


def graph(pg: DerivationPlayground) -> bytes:
    """The current store; the last step's work highlighted; what it deleted as ghosts.  At the
    lecture hall's size it is half the screen wide, its legend below it in one column."""
    last = pg.last
    beside = hall(pg.scale)
    return store_svg(pg.store, highlight=pg.highlight(), scale=pg.scale,
                     ghosts=None if last is None else last.before,
                     highlight_label="made or changed by the last step",
                     width=BESIDE_WIDTH / pg.scale if beside else 7.5,
                     columns=1 if beside else None)


def build(pg: DerivationPlayground, ui: dict[str, Any]) -> None:
    """Create the controls of ``pg`` into ``ui``."""
    w = ipywidgets()
    ui["message"] = w.HTML()
    ui["preset"] = preset_picker(pg.start_name)
    pg._observe(ui["preset"], lambda v: pg.load_preset(v) if v else None)
    ui["realisation"] = realisation_picker(pg.realisation.name)
    pg._observe(ui["realisation"], pg.set_realisation)
    ui["ids"] = w.SelectMultiple(options=[], rows=6, description="records", style=wide(),
                                 tooltip=ARGUMENT_ORDER_TIP, layout=w.Layout(width="auto", min_width="min(22em, 100% - 4px)"))
    ui["reverse"] = reverse_box()
    ui["content"] = w.Text(placeholder="new content (split: parts separated by |)", description="content",
                           style=wide(), tooltip="The new content (evolve, save, save at); split: parts "
                                                 "separated by |; merge: the merged content (optional).")
    ui["type"] = w.Text(placeholder="fact, decision, …", description="type", style=wide(),
                        tooltip="The type of a saved record, or of a merge (optional).")
    ui["namespace"] = w.Text(placeholder="alice, bob, …", description="namespace", style=wide(),
                             tooltip="The namespace of a saved record (optional).")
    for key in ("ids", "reverse", "content", "type", "namespace"):
        pg._observe(ui[key], functools.partial(_chose, pg, key))
    ui["types"] = w.Text(placeholder="e.g. decision, fact", description="θ: types first", style=wide(),
                         continuous_update=False,
                         tooltip="θ, the enumeration order of later calls: these types first (Proposition 5.20).")
    ui["descending"] = w.Checkbox(value=False, description="θ descending", indent=False,
                                  tooltip="θ enumerates identifiers from the largest down.")
    for key in ("types", "descending"):
        pg._observe(ui[key], lambda _v: pg.set_theta(ui["types"].value, ui["descending"].value))
    ops = [pg._button(ui, k, k.replace("_", " "), functools.partial(pg.apply_selection, k), tooltip=TIPS[k],
                      style="info") for k in OPERATIONS]
    for b, k in zip(ops, OPERATIONS):
        b.add_class(f"coalg-op-{k}")
    history = [pg._button(ui, "undo", "undo", pg.undo, tooltip="Take back the last step."),
               pg._button(ui, "redo", "redo", pg.redo, tooltip="Apply again the step taken back."),
               pg._button(ui, "reset", "reset", pg.reset, tooltip="Back to the start store; nothing selected."),
               pg._button(ui, "replay", "replay word here", pg.replay,
                          tooltip="Run the whole word again on the realisation and θ now in force.")]
    ui["json"] = w.Textarea(placeholder="paste a coalg-store JSON document or a session here",
                            tooltip="A store to start from (format coalg-store), or a session file's text; "
                                    "then press 'load JSON'.",
                            layout=w.Layout(width="60%", min_width="min(16em, 100%)", height="4em"))
    load = pg._button(ui, "load", "load JSON", lambda: pg.load_json(ui["json"].value),
                      tooltip="Start from the pasted store (or come back to the pasted session).")
    ui["upload"] = w.FileUpload(accept=".json", multiple=False, description="upload store",
                                tooltip="Start from a coalg-store file.")
    ui["upload"].observe(functools.partial(_uploaded, pg), names="value")
    ui["graph"] = figure_image()
    ui["graph"].add_class("coalg-graph")
    ui["laws"] = w.HTML()
    ui["laws"].add_class("coalg-laws")
    ui["word"] = w.HTML()
    ui["word"].add_class("coalg-word")
    ui["theta"] = w.HTML()
    row = {"flex_flow": "row wrap", "align_items": "center"}
    ui["root"] = w.VBox([  # the buttons, then what they did, then what to choose: one screen on a projector
        w.HBox([*ops, w.HTML("&nbsp;"), *history], layout=w.Layout(**row)),
        ui["message"],
        ui["laws"],
        w.HBox([ui["ids"], w.VBox([ui["content"], ui["type"], ui["namespace"], ui["reverse"]])],
               layout=w.Layout(**row)),
        w.HBox([ui["preset"], ui["realisation"], ui["types"], ui["descending"], ui["theta"], pg._size_control(ui)],
               layout=w.Layout(**row)),
        ui["graph"],
        ui["word"],
        w.HBox([ui["json"], w.VBox([load, ui["upload"]])], layout=w.Layout(flex_flow="row wrap")),
        pg._session_bar(ui),
    ])
    # the main view: what the last call gave, which laws held on it, and the store
    for key in ("message", "laws", "graph"):
        ui[key].add_class("coalg-main")
    # at the lecture hall's size the law panel and the graph share a row (the panel: what the
    # graph leaves)
    panel = w.Box([ui["laws"]], layout=w.Layout(flex="1 1 0", min_width="0"))
    ui["beside"] = w.HBox([panel, ui["graph"]], layout=w.Layout(align_items="flex-start"))


def arrange(pg: DerivationPlayground, ui: dict[str, Any]) -> list[Any]:
    """The rows at ``pg``'s size: at the lecture hall's the law panel and the graph side by side
    right under the message line (one screen high, even after a step fills the panel), the record
    list and the choices under them."""
    rows = list(ui["built"])
    if hall(pg.scale):
        rows.remove(ui["graph"])
        rows[rows.index(ui["laws"])] = ui["beside"]
    return rows


def _chose(pg: DerivationPlayground, key: str, value: Any) -> None:
    pg.select(**{key: list(value) if key == "ids" else value})


def _uploaded(pg: DerivationPlayground, change: dict[str, Any]) -> None:
    files = change.get("new") or ()
    if files and not pg._busy:
        f = files[0] if isinstance(files, list | tuple) else next(iter(files.values()))
        pg.load_json(bytes(f["content"]))
        if pg._ui is not None:
            pg._ui["upload"].value = ()  # ready for the next file


def draw(pg: DerivationPlayground, ui: dict[str, Any]) -> None:
    """Set every control and panel of ``pg`` from its state (what the reader sees is what is in force)."""
    s = pg.store
    ui["preset"].value = pg.start_name if pg.start_name in ui["preset"].options else None
    ui["ids"].options = [(f"{i}  {short(r.content, 30)} ({r.namespace})", i) for i, r in s.records.items()]
    sel = pg.selection
    ui["ids"].value = tuple(i for i in sel["ids"] if i in s.records)
    for key in ("reverse", "content", "type", "namespace"):
        ui[key].value = sel[key]
    ui["realisation"].value = pg.realisation.name
    ui["types"].value = ", ".join(pg.theta.type_priority)
    ui["descending"].value = pg.theta.descending
    ui["theta"].value = f"<span style='color:#555'>in force: {esc(theta_text(pg.theta))}</span>"
    ui["graph"].value = graph(pg)
    ui["laws"].value = laws(pg.last)
    ui["word"].value = word(pg.start_name, pg.steps)


