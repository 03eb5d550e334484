"""Writing Aldebaran ``.aut`` files: any :class:`~coalg.bisim.aut.AutLTS`, labels quoted.

>>> import io
>>> out = io.StringIO()
>>> write_aut(out, AutLTS.from_transitions(0, 2, [(0, "a(1,2)", 1)]))
>>> print(out.getvalue(), end="")
des (0,1,2)
(0,"a(1,2)",1)
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import IO

from ..userfiles import display_name, write_atomic
from .aut import AutInputError, AutLTS

__all__ = ["write_aut"]


def _quote(name: str) -> str:
    # quoted, a carriage return inside a label is never the end of a line: only a newline cannot be written
    if "\n" in name:
        raise ValueError(f"label {name!r} contains a line break; .aut cannot represent it")
    return f'"{name}"'


def write_aut(dest: str | os.PathLike[str] | IO[str], aut: AutLTS) -> None:
    """Write ``aut`` in ``.aut`` format (labels always quoted) to a path or text stream.

    A path is written atomically (:func:`coalg.userfiles.write_atomic`): to a
    temporary file in the same folder, renamed over ``dest`` only once
    complete, so a failure (a label with a line break, a full disk) leaves
    the previous file as it was.  A label that cannot be written (a line
    break, a character UTF-8 cannot encode) is :class:`AutInputError`.

    Payload observations read with a ``payload_prefix`` are written back as
    ``<prefix><payload>`` self-loops after the other transitions, so that
    ``read_aut(..., payload_prefix=prefix)`` gives the same :class:`AutLTS`.
    """
    source = display_name(dest) if isinstance(dest, (str, os.PathLike)) else "<stream>"
    try:
        qnames = [_quote(x) for x in aut.labels]
        extra: list[str] = []
        if aut.observations is not None and aut.payloads:
            prefix = aut.payload_prefix or ""
            pq = [_quote(prefix + p) for p in aut.payloads]
            extra = [f"({s},{pq[o - 1]},{s})\n" for s, o in enumerate(aut.observations) if o]
    except ValueError as e:
        raise AutInputError(f"cannot be written: {e}", source=source) from None
    m = aut.n_transitions + len(extra)

    def chunks() -> Iterator[str]:
        yield f"des ({aut.initial},{m},{aut.n_states})\n"
        step = 1 << 16
        src, lab, dst = aut.src, aut.label, aut.dst
        for i in range(0, len(src), step):
            yield "".join(
                f"({s},{qnames[a]},{t})\n"
                for s, a, t in zip(src[i : i + step], lab[i : i + step], dst[i : i + step])
            )
        yield "".join(extra)

    if isinstance(dest, (str, os.PathLike)):
        write_atomic(dest, (c.encode("utf-8") for c in chunks()),
                     lambda msg: AutInputError(msg, source=source))
    else:
        try:
            dest.writelines(chunks())
        except UnicodeEncodeError as e:
            raise AutInputError(f"cannot be written: {e}", source=source) from None
