"""``coalg witness``: run the executable counterpart of a numbered item of the paper."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from .. import paper
from .common import Formatter, UsageError, emit

__all__ = ["register"]

_WITNESS_HELP = """\
Run the executable counterpart of one numbered item of the paper (a definition,
proposition, theorem, corollary or remark) and print its verdict: whether the
paper's statement is confirmed, how much was explored, and the witness.

kinds:
  property         checked over many stores and words (property-style);
                   "holds" says whether it held everywhere explored
  counterexample   a constructed counterexample; "holds" says whether the
                   counterexample was exhibited (so the paper's claim is confirmed)
"""


def register(sub: Any) -> None:
    p = sub.add_parser(
        "witness",
        help="construct or check one numbered result of the paper",
        description=_WITNESS_HELP,
        epilog="examples:\n  coalg witness --list\n  coalg witness 5.7\n  coalg witness 5.20 --json",
        formatter_class=Formatter,
    )
    p.add_argument("item", nargs="?", help="a paper number such as 5.7, 5.20 or 6.3")
    p.add_argument("--list", action="store_true", help="list every item this coalg knows")
    p.add_argument("--json", action="store_true", help="print the verdict as JSON")
    p.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    items = paper.known_items()
    if args.list or args.item is None:
        if not args.list:
            raise UsageError("name an item (e.g. 5.7) or use --list")
        listed = [(i, paper.get_item(i)) for i in items]
        if args.json:
            sys.stdout.write(json.dumps([{"item": i, "title": it.title, "kind": it.kind, "nature": it.nature}
                                         for i, it in listed]) + "\n")
        else:
            width = max(len(i) for i in items)
            for i, it in listed:
                sys.stdout.write(f"{i:<{width}}  {it.nature:<13}  {it.kind:<14}  {it.title}\n")
        return 0
    if args.item not in items:
        raise UsageError(f"unknown item {args.item!r}; known items: {', '.join(items)}")
    it = paper.get_item(args.item)
    verdict = it.check()
    data = verdict.to_json()
    if args.json:
        sys.stdout.write(json.dumps(data, sort_keys=True, ensure_ascii=False) + "\n")
        return 0
    status = "confirmed" if verdict.holds else "NOT confirmed"
    lines = [f"{it.item}  {it.title}", f"  nature: {it.nature}; kind: {it.kind}; {status}; explored {verdict.explored}"]
    if verdict.summary:
        lines.append("  " + verdict.summary)
    if verdict.witness is not None:
        lines.append("  witness:")
        lines.extend("    " + ln for ln in json.dumps(data["witness"], indent=2, sort_keys=True,
                                                      ensure_ascii=False).splitlines())
    emit(args, data, "\n".join(lines))
    return 0
