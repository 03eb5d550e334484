"""The book's chapter runner (tools/sphinxext/coalg_execute.py), without a build.

The build runs the chapters on every core and joins the pieces a kernel sent for one
``print``; these tests pin the joining, which keeps a page the same from build to build.
"""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools" / "sphinxext"))
from coalg_execute import join_streams


def _stream(name: str, text: str) -> nbformat.NotebookNode:
    return nbformat.v4.new_output("stream", name=name, text=text)


def test_pieces_of_one_print_are_joined_exactly() -> None:
    cell = nbformat.v4.new_code_cell("print(v.holds, v.explored)")
    cell.outputs = [_stream("stdout", "True"), _stream("stdout", " 502\n")]
    nb = nbformat.v4.new_notebook(cells=[cell, nbformat.v4.new_markdown_cell("text")])
    join_streams(nb)
    assert [(o.output_type, o.text) for o in cell.outputs] == [("stream", "True 502\n")]


def test_other_outputs_and_the_other_stream_stay_apart_in_order() -> None:
    cell = nbformat.v4.new_code_cell("...")
    figure = nbformat.v4.new_output("display_data", data={"text/plain": "<Figure>"})
    cell.outputs = [_stream("stdout", "a\n"), figure, _stream("stdout", "b"), _stream("stdout", "c\n"),
                    _stream("stderr", "warning\n"), _stream("stdout", "d\n")]
    nb = nbformat.v4.new_notebook(cells=[cell])
    join_streams(nb)
    assert [(o.output_type, o.get("name"), o.get("text")) for o in cell.outputs] == [
        ("stream", "stdout", "a\n"), ("display_data", None, None), ("stream", "stdout", "bc\n"),
        ("stream", "stderr", "warning\n"), ("stream", "stdout", "d\n")]
