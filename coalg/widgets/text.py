"""What the explorers write: escaped HTML, short forms of contents, θ and outputs, tables.

θ is this book's explicit form of the enumeration orders ContextFS leaves
undeclared (law L5); an output is what one call of the store coalgebra answers
(§3.3).  Every explorer shows them the same way.

>>> theta_text(Theta(type_priority=("decision",), descending=True))
'θ: types decision, descending'
>>> short("a very long content", 10)
'a very lo…'
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from typing import Any

from ..model import Created, Err, Flag, Found, Output, Theta, Wrote

__all__ = ["data_html", "esc", "html_table", "message_html", "notation_html", "output_text", "reason_text", "short", "theta_text",
           "witness_culprit"]


def esc(x: object) -> str:
    """``x`` as text, escaped for HTML."""
    return html.escape(str(x))


_NOTATION = re.compile(r"(?<![\w])(Hist|Obs|Ψ|τv|τt|a)([_^])(rec|vt|k)(?![\w])")


def notation_html(text: str) -> str:
    """``text`` escaped, with the book's sub- and superscripts set as such: ``Hist_rec`` becomes
    Hist<sub>rec</sub>, ``Obs^vt`` Obs<sup>vt</sup>, ``τv_k`` τv<sub>k</sub>.

    >>> notation_html("Obs^vt on Hist_rec, κ(a_k, τv_k); created_at stays")
    'Obs<sup>vt</sup> on Hist<sub>rec</sub>, κ(a<sub>k</sub>, τv<sub>k</sub>); created_at stays'
    """
    return _NOTATION.sub(lambda m: f"{m[1]}<{'sub' if m[2] == '_' else 'sup'}>{m[3]}"
                                   f"</{'sub' if m[2] == '_' else 'sup'}>", esc(text))


def reason_text(reason: str) -> str:
    r"""A witness's reason as a reader reads it: a line break quoted inside a content (``\\n``) is a space.

    >>> reason_text("observation differs: record 'a\\nb' vs record 'c'")
    "observation differs: record 'a b' vs record 'c'"
    """
    return reason.replace("\\n", " ").replace("\n", " ")


def witness_culprit(first: dict[str, Any]) -> str:
    """The identifier where an allocation-blind witness's difference is immediate: the end of its
    path (on the side of the identifier without a partner), or that identifier when there is no path."""
    reached = first.get("reached")
    return str(reached[0]) if reached and first.get("path") else str(first.get("id"))


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
    """An output in a few words.

    >>> from coalg.model import Nothing
    >>> output_text(Flag(True)), output_text(Nothing())
    ('deleted: true', 'nothing found (⊥)')
    """
    if isinstance(o, Err):
        return f"err: {o.reason}"
    if isinstance(o, Created):
        return "created " + ", ".join(o.ids)
    if isinstance(o, Found):
        return f"found {o.id}: {short(o.record.content, 40)!r}"
    if isinstance(o, Wrote):
        return "wrote " + (", ".join(f"{e.source} {e.relation.value} {e.target}" for e in o.edges) or "no edge")
    if isinstance(o, Flag):
        return f"deleted: {'true' if o.value else 'false'}"
    return "nothing found (⊥)"


def data_html(x: Any, depth: int = 0) -> str:
    """JSON-like data as the reader reads it: nested lists of ``key: value`` lines (HTML), never raw JSON.

    >>> print(data_html({"id": "a", "path": ["x", "y"]}))
    <ul style='margin:0;padding-left:1.2em'><li><b>id</b>: a</li><li><b>path</b>: x · y</li></ul>
    """
    if isinstance(x, dict):
        if not x:
            return "(none)"
        items = "".join(f"<li><b>{esc(k)}</b>: {data_html(v, depth + 1)}</li>" for k, v in x.items())
        return f"<ul style='margin:0;padding-left:1.2em'>{items}</ul>"
    if isinstance(x, list | tuple):
        if all(not isinstance(v, dict | list | tuple) for v in x):
            return " · ".join(esc(short(str(v), 80)) for v in x) or "(none)"
        return "<ol style='margin:0;padding-left:1.4em'>" + "".join(
            f"<li>{data_html(v, depth + 1)}</li>" for v in x) + "</ol>"
    if x is None:
        return "–"
    if isinstance(x, bool):
        return "yes" if x else "no"
    return esc(short(str(x), 200))


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
