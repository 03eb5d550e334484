"""Tables and small Markdown pieces for the book's pages.

A chapter that shows a table builds a :class:`Table` and leaves it as the
cell's value.  The notebook then carries the table as ``text/markdown`` (a
pipe table) and as ``text/plain`` (aligned columns).  The book renders the
Markdown as a real table in every builder: as an HTML ``<table>`` on the web
page and as a LaTeX table in the PDF, so no chapter has to emit HTML.

Cells are Markdown: code spans, ``**bold**``, ``$math$`` and links work.  A
``|`` inside a cell is escaped for the table; text that is *not* meant as
Markdown (a docstring, an explanation string) goes through :func:`escape`
first, and identifiers through :func:`code`.

>>> t = md_table(["clause", "holds"], [["L1", "yes"], ["L5", "**no**"]], align="lc")
>>> print(t.markdown())
| clause | holds |
|:---|:---:|
| L1 | yes |
| L5 | **no** |
>>> print(repr(t))
clause  holds
------  ------
L1      yes
L5      **no**
>>> code("a`b"), escape("x_1 | *y*")
('`` a`b ``', 'x\\\\_1 \\\\| \\\\*y\\\\*')
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..errors import InputError

__all__ = ["Table", "md_table", "code", "escape"]

_ALIGN = {"l": ":---", "r": "---:", "c": ":---:", "-": "---"}
_PUNCTUATION = re.compile(r"([\\`*_\[\]<>$|#{}])")


def _cell(value: object) -> str:
    """One cell's Markdown: ``str(value)`` on one line, with ``|`` escaped for the table."""
    text = " ".join(str(value).split())
    return re.sub(r"(?<!\\)\|", r"\\|", text)


@dataclass(frozen=True)
class Table:
    """A table whose cells are Markdown; shown by Jupyter as Markdown and as text.

    ``align`` has one letter per column: ``l`` (left), ``r`` (right), ``c``
    (centre) or ``-`` (the renderer's default); empty means all default.
    """

    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    align: str = ""

    def __post_init__(self) -> None:
        width = len(self.header)
        if width == 0:
            raise InputError("a table needs at least one column")
        for k, row in enumerate(self.rows, start=1):
            if len(row) != width:
                raise InputError(
                    f"row {k} has {len(row)} cells, the header has {width}: {row!r}"
                )
        if self.align and len(self.align) != width:
            raise InputError(
                f"align {self.align!r} has {len(self.align)} letters for {width} columns"
            )
        bad = sorted(set(self.align) - set(_ALIGN))
        if bad:
            raise InputError(f"align letters must be l, r, c or -; got {''.join(bad)!r}")

    def markdown(self) -> str:
        """The table as a pipe table (GitHub-flavoured, which MyST parses)."""
        align = self.align or "-" * len(self.header)
        lines = ["| " + " | ".join(self.header) + " |"]
        lines.append("|" + "|".join(_ALIGN[a] for a in align) + "|")
        lines += ["| " + " | ".join(row) + " |" for row in self.rows]
        return "\n".join(lines)

    def _repr_markdown_(self) -> str:
        return self.markdown()

    def __repr__(self) -> str:
        """Aligned plain-text columns (what a terminal or a text-only reader sees)."""
        table = [self.header, *self.rows]
        widths = [max(len(r[c]) for r in table) for c in range(len(self.header))]

        def line(cells: Sequence[str]) -> str:
            return "  ".join(x.ljust(w) for x, w in zip(cells, widths, strict=True)).rstrip()

        rule = line(["-" * w for w in widths])
        return "\n".join([line(self.header), rule, *(line(r) for r in self.rows)])

    def __len__(self) -> int:
        return len(self.rows)


def md_table(
    header: Sequence[object], rows: Iterable[Sequence[object]], align: str = ""
) -> Table:
    """A :class:`Table` from a header and rows of any values (each shown with ``str``)."""
    return Table(
        tuple(_cell(h) for h in header),
        tuple(tuple(_cell(x) for x in row) for row in rows),
        align,
    )


def code(value: object) -> str:
    """``value`` as a Markdown code span, whatever backticks it contains."""
    text = str(value)
    runs = [len(m) for m in re.findall(r"`+", text)]
    fence = "`" * (max(runs, default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") or runs else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def escape(value: object) -> str:
    """Plain text made safe for Markdown: its punctuation is shown, never interpreted."""
    return _PUNCTUATION.sub(r"\\\1", str(value))
