"""``coalg laws``: the law table of a realisation, as text or JSON."""

from __future__ import annotations

import json

from ..laws.clauses import format_law_table, law_table
from ..model.realisation import get_realisation

__all__ = ["run_laws_command"]


def run_laws_command(realisation: str, as_json: bool) -> tuple[int, str]:
    """``python -m coalg laws --realisation NAME [--json]``: (exit code, text to print).

    Parameters
    ----------
    realisation : str
        ``contextfs`` or ``repaired`` (any name of the registry), or
        ``contextfs-runtime``: the released package itself, observed through
        :func:`coalg.contextfs.runtime.pinned_law_table` (needs contextfs 0.2.35).
    as_json : bool
        Print the law table as JSON instead of the human table.

    Returns
    -------
    tuple of (int, str)
        0 and the text; 2 and an error line for an unknown realisation, or for
        ``contextfs-runtime`` when the package is not installed.

    The JSON is :func:`law_table` with sorted keys; it is byte-identical under
    every ``PYTHONHASHSEED``.  An unknown realisation gives exit code 2.

    >>> code, text = run_laws_command("nope", False)
    >>> code, text.splitlines()[0]
    (2, "error: unknown realisation 'nope'; known: contextfs, contextfs-runtime, repaired")
    """
    if realisation == "contextfs-runtime":
        from ..contextfs.adapter import ContextFSUnavailable
        from ..contextfs.runtime import pinned_law_table

        try:
            table = pinned_law_table()
        except ContextFSUnavailable as e:
            return 2, f"error: {e}\n"
    else:
        try:
            r = get_realisation(realisation)
        except KeyError:
            from ..model.realisation import REALISATIONS

            known = ", ".join(sorted([*REALISATIONS, "contextfs-runtime"]))
            return 2, f"error: unknown realisation {realisation!r}; known: {known}\n"
        table = law_table(r)
    if as_json:
        return 0, json.dumps(table, sort_keys=True, indent=2, ensure_ascii=False) + "\n"
    return 0, format_law_table(table)
