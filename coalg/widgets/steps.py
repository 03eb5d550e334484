"""A recorded step of the derivation playground, and the panels that read a session of them.

A step is one call of the store coalgebra (paper §3.3) with where it ran (the
realisation, θ), its output, the stores before and after, and the per-step law
report (Definition 3.21, :func:`coalg.laws.check_step`).  :func:`laws_panel`
shows which clauses held on a step; :func:`word_panel` lists the word so far.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from ..laws import TITLES, StepReport, check_step, show_call
from ..model import Call, Output, Store, Theta, call_to_json, get_realisation, output_to_json
from ..viz import ADDED, NEUTRAL, REMOVED
from .text import data_html, esc, html_table, output_text, short

__all__ = ["Step", "laws_panel", "word_panel"]


@dataclass(frozen=True)
class Step:
    """One recorded step of the playground: the call, where it ran, and what the laws said."""

    call: Call
    realisation: str
    theta: Theta
    output: Output
    before: Store
    after: Store

    @cached_property
    def report(self) -> StepReport:
        """The step's law report (Definition 3.21), worked out when first read: the explorer shows
        the last step's, so a restored session of many steps checks only the steps someone reads."""
        return check_step(get_realisation(self.realisation), self.before, self.call, self.output,
                          self.after, theta=self.theta)

    def to_json(self) -> dict[str, Any]:
        """JSON-ready: the call, where it ran, its output and each clause's verdict."""
        return {"call": call_to_json(self.call), "realisation": self.realisation,
                "theta": self.theta.as_dict(), "output": output_to_json(self.output),
                "laws": {r.clause: r.status for r in self.report.results}}


def laws_panel(step: Step | None) -> str:
    """Which clauses held on ``step`` (HTML), the witness of each failure shown below it."""
    if step is None:
        return "<i>No step yet: the law panel shows which clauses held on the last call.</i>"
    mark = {"held": f"<span style='color:{ADDED}'>✓ held</span>",
            "failed": f"<b style='color:{REMOVED}'>✗ failed</b>", "n/a": f"<span style='color:{NEUTRAL}'>– n/a</span>"}
    rows = [[f"<b>{r.clause}</b> {esc(TITLES[r.clause])}", mark[r.status], esc(r.explanation)
             + ("" if not r.witness or r.status != "failed" else
                f"<details><summary>the witness</summary>{data_html(r.witness)}</details>")]
            for r in step.report.results]
    return (f"<div><b>Laws on the last step</b> — {esc(show_call(step.call))} on {step.realisation}</div>"
            + html_table(rows))


def word_panel(start_name: str, steps: Sequence[Step]) -> str:
    """The word applied to the start store (HTML): one call per line, its output and realisation."""
    if not steps:
        return f"<i>start: {esc(start_name)}; the word is empty.</i>"
    items = "".join(f"<li><code>{esc(show_call(st.call))}</code> → {esc(short(output_text(st.output), 60))}"
                    f" <span style='color:{NEUTRAL}'>({st.realisation})</span></li>" for st in steps)
    return f"<div>start: {esc(start_name)}</div><ol style='margin:0'>{items}</ol>"
