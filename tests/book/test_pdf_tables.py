"""How the PDF lays out tables and links to exercises (tools/sphinxext/coalg_book.py), without a build.

LaTeX shares the line among a table's columns. Left to Sphinx, a long table's columns never wrap
(they ran off the page) and a short table's can end narrower than a formula (it was cut), so the
book gives every table widths from its words and cells, and sets very wide tables smaller.
"""

from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace

from docutils import nodes

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools" / "sphinxext"))
from coalg_book import (
    LINE_CHARACTERS,
    WIDE_TABLE,
    _column_widths,
    _longest,
    _pdf_exercise_links,
    _pdf_tables,
    _too_wide,
)


def _table(rows: list[list[nodes.Node | str]]) -> nodes.table:
    cols = len(rows[0])
    group = nodes.tgroup(cols=cols)
    group += [nodes.colspec(colwidth=1) for _ in range(cols)]
    body = nodes.tbody()
    for cells in rows:
        row = nodes.row()
        for c in cells:
            row += nodes.entry("", nodes.paragraph("", "", c if isinstance(c, nodes.Node) else nodes.Text(c)))
        body += row
    group += body
    table = nodes.table()
    table += group
    return table


def _latex() -> SimpleNamespace:
    return SimpleNamespace(builder=SimpleNamespace(format="latex"))


def test_a_column_gets_room_for_its_longest_word_and_part_of_its_longest_cell() -> None:
    long_text = "a sentence of many short words that wraps over several lines in its cell"
    code = nodes.literal("", "coalg.model.coalgebra.step")
    table = _table([["3.10", long_text, code, "test_def_3_10"]])
    item, text, dotted, underscored = _column_widths(*_longest(next(iter(table.findall(nodes.tgroup)))))
    assert item == round(1.25 * 4) + 3  # "3.10" whole: text does not break at a dot
    assert text == round(0.6 * 48)  # long text: six tenths of it, at most 48 characters
    # code breaks at its dots: its longest part is "coalgebra", and the cell's length decides
    assert dotted == max(round(1.25 * len("coalgebra")) + 3, round(0.6 * len("coalg.model.coalgebra.step"))) == 16
    assert underscored == max(round(1.25 * len("test")) + 3, round(0.6 * 13))  # a line breaks after "_"


def test_a_formula_is_measured_by_what_it_shows() -> None:
    formula = nodes.math("", r"\mathsf{supersede}(o, n)")
    table = _table([[formula, "x"]])
    assert _column_widths(*_longest(next(iter(table.findall(nodes.tgroup)))))[0] == round(1.25 * len("supersede(o,")) + 3
    # (a formula breaks nowhere but at its spaces: "\mathsf{supersede}(o," shows as "supersede(o,")


def test_every_table_gets_given_widths_and_a_wide_one_a_smaller_type_in_latex_only() -> None:
    narrow, wide = _table([["a", "b"]]), _table([[str(k) for k in range(WIDE_TABLE)]])
    doc = nodes.section()
    doc += [narrow, wide]
    _pdf_tables(SimpleNamespace(builder=SimpleNamespace(format="html")), doc, "x")  # type: ignore[arg-type]
    assert "colwidths-given" not in narrow["classes"] and len(doc.children) == 2
    _pdf_tables(_latex(), doc, "x")  # type: ignore[arg-type]
    assert "colwidths-given" in narrow["classes"] and "colwidths-given" in wide["classes"]
    assert [c["colwidth"] for c in narrow.findall(nodes.colspec)] == [4, 4]
    kinds = [type(c).__name__ if not isinstance(c, nodes.raw) else c.astext().strip() for c in doc.children]
    assert kinds == ["table", "\\begingroup\\footnotesize", "table", "\\endgroup"]


def test_a_table_whose_longest_words_fill_the_line_is_set_smaller() -> None:
    def longest_words(cells: list[str]) -> list[int]:
        return _longest(next(iter(_table([cells]).findall(nodes.tgroup))))[0]

    fits = ["x" * 10] * 4  # 4 × (10 + 3) characters
    assert not _too_wide(longest_words(fits))
    crowded = ["x" * (LINE_CHARACTERS // 4)] * 4
    assert _too_wide(longest_words(crowded))
    # long text that wraps does not count, only its longest word
    assert not _too_wide(longest_words(["a few words " * 20, "x"]))


def test_a_link_to_an_exercise_on_another_page_leads_to_its_label_in_latex_only() -> None:
    """sphinx-exercise writes ``\\label{exercise:<label>}``; Sphinx links another page's target as
    ``<page>:<label>``: the link is pointed at the exercise's label (the LaTeX writer turns
    ``%a#b`` into ``\\hyperref[a:b]``)."""
    registry = {"ex-5-7-2": {"type": "exercise"}, "sol-5-7-2": {"type": "solution"}}
    refs = {"exercise": nodes.reference("", "Exercise 5.7.2", refuri="%book/05-7-merge#ex-5-7-2"),
            "solution": nodes.reference("", "its solution", refuri="%book/05-7-merge#sol-5-7-2"),
            "section": nodes.reference("", "a section", refuri="%book/05-7-merge#ex-5-7-2-notes"),
            "page": nodes.reference("", "Related work", refuri="%book/08-related-work")}
    doc = nodes.section()
    doc += nodes.paragraph("", "", *refs.values())
    html = SimpleNamespace(builder=SimpleNamespace(format="html"), env=SimpleNamespace(sphinx_exercise_registry=registry))
    _pdf_exercise_links(html, doc, "x")  # type: ignore[arg-type]
    assert refs["exercise"]["refuri"] == "%book/05-7-merge#ex-5-7-2"
    latex = SimpleNamespace(builder=SimpleNamespace(format="latex"), env=SimpleNamespace(sphinx_exercise_registry=registry))
    _pdf_exercise_links(latex, doc, "x")  # type: ignore[arg-type]
    assert {k: r["refuri"] for k, r in refs.items()} == {
        "exercise": "%exercise#ex-5-7-2", "solution": "%book/05-7-merge#sol-5-7-2",
        "section": "%book/05-7-merge#ex-5-7-2-notes", "page": "%book/08-related-work"}
