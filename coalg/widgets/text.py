"""What the explorers write: escaped HTML, short forms of contents, θ and outputs, tables.

θ is the paper's explicit enumeration order (§3.2); an output is what one call of
the store coalgebra answers (§3.3).  Every explorer shows them the same way.

>>> theta_text(Theta(type_priority=("decision",), descending=True))
'θ: types decision, descending'
>>> short("a very long content", 10)
'a very lo…'
"""

from __future__ import annotations

import html
import json
from collections.abc import Sequence

from ..model import Created, Err, Output, Theta, output_to_json

__all__ = ["esc", "html_table", "message_html", "output_text", "short", "theta_text"]


def esc(x: object) -> str:
    """``x`` as text, escaped for HTML."""
    return html.escape(str(x))


def short(text: str, n: int = 40) -> str:
    """``text`` on one line, cut to ``n`` characters with an ellipsis."""
    text = text.replace("\n", " ")
    return text if len(text) <= n else text[: n - 1] + "…"


def theta_text(theta: Theta) -> str:
    """θ as a reader reads it: the types and identifiers put first, and the direction."""
    parts = []
    if theta.type_priority:
        parts.append("types " + " ≺ ".join(theta.type_priority))
    if theta.id_priority:
        parts.append("ids " + " ≺ ".join(theta.id_priority))
    parts.append("descending" if theta.descending else "ascending")
    return "θ: " + ", ".join(parts)


def output_text(o: Output) -> str:
    """An output in a few words: ``err: <reason>``, ``created <ids>``, or its JSON."""
    if isinstance(o, Err):
        return f"err: {o.reason}"
    if isinstance(o, Created):
        return "created " + ", ".join(o.ids)
    return json.dumps(output_to_json(o), ensure_ascii=False)


def html_table(rows: Sequence[Sequence[str]], header: Sequence[str] | None = None) -> str:
    """A compact HTML table of cells that are HTML already (escape what comes from the reader)."""
    head = "" if header is None else "<tr>" + "".join(f"<th style='text-align:left;padding:2px 8px'>{h}</th>"
                                                      for h in header) + "</tr>"
    body = "".join("<tr>" + "".join(f"<td style='padding:2px 8px;vertical-align:top'>{c}</td>" for c in r)
                   + "</tr>" for r in rows)
    return f"<table style='border-collapse:collapse;font-size:90%'>{head}{body}</table>"


def message_html(text: str, colour: str) -> str:
    """The message line of an explorer, in ``colour`` (it keeps its height when empty)."""
    return f"<div style='color:{colour};min-height:1.4em'>{esc(text)}</div>"
