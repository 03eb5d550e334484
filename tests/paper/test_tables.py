"""coalg.paper.tables: the one table form every chapter uses, and that both the web page
and the PDF render as a real table (MyST parses the Markdown in either builder)."""

from __future__ import annotations

import pytest
from markdown_it import MarkdownIt

from coalg.errors import InputError
from coalg.paper import Table, code, escape, md_table


def _parsed_cells(markdown: str) -> list[list[str]]:
    """The cells a GFM table parser reads (MyST's table rule is markdown-it's)."""
    tokens = MarkdownIt("commonmark").enable("table").parse(markdown)
    rows: list[list[str]] = []
    for tok in tokens:
        if tok.type == "tr_open":
            rows.append([])
        elif tok.type == "inline" and rows:
            rows[-1].append(tok.content)
    return rows


def test_markdown_parses_as_a_table_with_the_same_cells() -> None:
    t = md_table(["a", "b | c"], [[1, "x|y"], ["`p|q`", "**no**"]], align="rl")
    cells = _parsed_cells(t._repr_markdown_())
    assert cells == [["a", "b | c"], ["1", "x|y"], ["`p|q`", "**no**"]]
    html = MarkdownIt("commonmark").enable("table").render(t.markdown())
    assert html.count("<tr>") == 3 and ">x|y</td>" in html and "<code>p|q</code>" in html
    assert 'style="text-align:right"' in html


def test_cells_are_one_line_each() -> None:
    t = md_table(["h"], [["two\nlines"], ["  spaced   out "]])
    assert t.rows == (("two lines",), ("spaced out",))
    assert len(t.markdown().splitlines()) == 4


def test_plain_text_repr_aligns_columns() -> None:
    t = md_table(["name", "n"], [["alpha", 1], ["b", 22]])
    assert repr(t).splitlines() == ["name   n", "-----  --", "alpha  1", "b      22"]
    assert len(t) == 2


@pytest.mark.parametrize(
    ("header", "rows", "align", "message"),
    [
        ([], [], "", "at least one column"),
        (["a", "b"], [["1"]], "", "row 1 has 1 cells, the header has 2"),
        (["a", "b"], [], "l", "1 letters for 2 columns"),
        (["a"], [], "x", "l, r, c or -"),
    ],
)
def test_bad_tables_are_refused_with_a_clear_message(
    header: list[str], rows: list[list[str]], align: str, message: str
) -> None:
    with pytest.raises(InputError, match=message):
        md_table(header, rows, align)


def test_table_is_a_value() -> None:
    assert md_table(["a"], [[1]]) == Table(("a",), (("1",),))


@pytest.mark.parametrize("text", ["plain", "a`b", "``", "`start", "end`"])
def test_code_span_shows_its_text_verbatim(text: str) -> None:
    html = MarkdownIt("commonmark").renderInline(code(text))
    inner = html.removeprefix("<code>").removesuffix("</code>")
    assert inner.replace("&quot;", '"') == text


def test_escape_shows_markdown_punctuation_literally() -> None:
    raw = "x_1 * [y](z) | $a$ <b> #c {d}"
    html = MarkdownIt("commonmark").renderInline(escape(raw))
    assert html.replace("&lt;", "<").replace("&gt;", ">") == raw
