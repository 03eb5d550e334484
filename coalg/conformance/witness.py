"""Counterexamples a reader can replay: the word as protocol calls, and a few lines of Python.

Every witness of the kit is JSON-ready data: the word as calls of the
paper's alphabet in canonical names (``word``, replayable through
:mod:`coalg.model` with the same allocations), the same word as the Python
calls a user makes (``calls``), the stores before and after, the offending
records or edges, one sentence, how minimal it is, and ``replay``: a script
that imports the factory and makes the calls again, printing what the layer
then shows.  The script names the layer's identifiers through a dictionary
``ids`` keyed by the kit's names, so it runs whatever identifiers the layer
chooses.

>>> from coalg.model import Allocation, Call, Created, Evolve, Record, Save
>>> word = [Call(Save(Record("a", namespace="alice")), Allocation(("id0001",), 1)),
...         Call(Evolve("id0001", "v2"), Allocation(("id0002",), 2))]
>>> outs = [Created((("id0001", Record("a")),)), Created((("id0002", Record("v2")),))]
>>> print("\\n".join(python_calls(word, outs)))
ids["id0001"] = m.save('a', type='fact', namespace='alice')
ids["id0002"] = m.evolve(ids["id0001"], 'v2')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..model import (
    Call,
    Created,
    Delete,
    Err,
    Evolve,
    Letter,
    Merge,
    Output,
    RecallPrefix,
    Save,
    SaveAt,
    Split,
    Supersede,
    thaw,
)
from .session import NOT_ASKED

__all__ = ["SHARED_PREFIX", "python_calls", "replay_script"]

SHARED_PREFIX = '''def shared_prefix(ids):  # the prefix every identifier shares (a proper prefix of each)
    p = os.path.commonprefix(sorted(ids))
    return p[:-1] if p in ids else p
'''


def _ref(i: str, by_prefix: bool, known: set[str], ids: str) -> str:
    if not by_prefix:
        return f'{ids}["{i}"]' if i in known else repr(i)
    if i in known:
        return f'{ids}["{i}"][:-1]'
    return "shared_prefix(list(m.records()))"


def _save_args(r: Any, valid_time: bool) -> str:
    args = [repr(r.content), f"type={r.type!r}", f"namespace={r.namespace!r}"]
    if r.tags:
        args.append(f"tags={sorted(r.tags)!r}")
    if r.metadata:
        args.append(f"metadata={thaw(r.metadata)!r}")
    if r.valid_time is not None and valid_time:
        args.append(f"valid_time={r.valid_time!r}")
    return ", ".join(args)


def _line(a: Letter, known: set[str], ids: str, valid_time: bool) -> str:
    pfx = getattr(a, "by_prefix", False)

    def ref(i: str) -> str:
        return _ref(i, pfx, known, ids)

    vt = getattr(a, "valid_time", None)
    tail = f", valid_time={vt!r}" if vt is not None and valid_time else ""
    match a:
        case Save(record=r):
            return f"m.save({_save_args(r, valid_time)})"
        case SaveAt(id=i, record=r):
            return f"m.save({_save_args(r, valid_time)}, id={ref(i)})"
        case Evolve(id=i, content=c):
            return f"m.evolve({ref(i)}, {c!r}{tail})"
        case Merge(ids=args):
            return f"m.merge([{', '.join(ref(i) for i in args)}]{tail})"
        case Split(id=i, contents=cs):
            return f"m.split({ref(i)}, {list(cs)!r}{tail})"
        case Supersede(old=o, new=n):
            return f"m.supersede({ref(o)}, {ref(n)})"
        case Delete(id=i):
            return f"m.delete({ref(i)})"
        case RecallPrefix(prefix=p):
            return f"print(m.recall({_ref(p, True, known, ids)}))"
    return f"# {a} is not a call of the protocol"


def python_calls(word: Sequence[Call], outputs: Sequence[Output], *, ids: str = "ids",
                 valid_time: bool = True) -> list[str]:
    """The word as Python statements on a layer ``m``; created identifiers go into the dictionary ``ids``."""
    known: set[str] = set()
    lines: list[str] = []
    for call, out in zip(word, outputs):
        a = call.letter
        line = _line(a, known, ids, valid_time)
        if isinstance(out, Err) and not out.reason.startswith("refused"):
            lines.append(f"# not asked: {line}  ({out.reason.removeprefix(NOT_ASKED)})")
            continue
        if isinstance(out, Created) and not isinstance(a, SaveAt):
            targets = ", ".join(f'{ids}["{i}"]' for i in out.ids)
            line = f"{targets} = {line}"
            known.update(out.ids)
        if isinstance(out, Err):
            lines += [_TRY, f"    {line}", *_EXCEPT]
        else:
            lines.append(line)
    return lines


_TRY, _EXCEPT = "try:", ("except Exception as e:", '    print("refused:", type(e).__name__, e)')
"""How :func:`python_calls` writes a call the layer refuses: inside a try block that prints the refusal."""


def one_line_calls(lines: Sequence[str]) -> list[str]:
    """:func:`python_calls`' lines with each refused call on one line, marked, for a table.

    >>> one_line_calls(["m.save('a')", "try:", "    m.split('x', ['p'])", "except Exception as e:",
    ...                 '    print("refused:", type(e).__name__, e)'])
    ["m.save('a')", "m.split('x', ['p']) (refused)"]
    """
    out: list[str] = []
    k = 0
    while k < len(lines):
        if lines[k] == _TRY and tuple(lines[k + 2:k + 4]) == _EXCEPT:
            out.append(f"{lines[k + 1].strip()} (refused)")
            k += 4
        else:
            out.append(lines[k])
            k += 1
    return out


def replay_script(factory: str | None, runs: Sequence[tuple[str, Sequence[Call], Sequence[Output]]], *,
                  valid_time: bool = True, hashseeds: Sequence[int] = ()) -> str:
    """A script that makes each run's calls on a fresh layer and prints what it shows.

    ``factory`` is ``MODULE:ATTR`` (or ``None`` when the factory cannot be
    imported by name); each run is ``(comment, calls, outputs)``.
    """
    module, _, attr = (factory or "").partition(":")
    head = ["import os", ""] if any(_uses_prefix(calls) for _, calls, _ in runs) else []
    head += ([f"from {module} import {attr.split('.')[0]}"] if factory
             else ["make_layer = ...  # your factory (it cannot be imported by name)"])
    make = attr if factory else "make_layer"
    if hashseeds:
        head.insert(0, "# run this file twice: " + " and ".join(f"PYTHONHASHSEED={h} python replay.py"
                                                                 for h in hashseeds))
    if any(_uses_prefix(calls) for _, calls, _ in runs):
        head += ["", SHARED_PREFIX.rstrip("\n")]
    body: list[str] = []
    for comment, calls, outputs in runs:
        body += ["", f"# {comment}", f"m, ids = {make}(), {{}}"]
        body += python_calls(calls, outputs, valid_time=valid_time)
        body += ["print({name: m.records()[i] for name, i in ids.items() if i in m.records()})",
                 "others = {i: r for i, r in m.records().items() if i not in ids.values()}",
                 "if others:",
                 '    print("records no call returned:", others)',
                 "print(sorted(m.edges()))"]
    return "\n".join(head + body) + "\n"


def _uses_prefix(calls: Sequence[Call]) -> bool:
    return any(getattr(c.letter, "by_prefix", False) or isinstance(c.letter, RecallPrefix) for c in calls)
