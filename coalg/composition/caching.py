"""What a consumer may cache (paper §6.1, Corollary 6.1; applied in §6.3): ancestries survive later derivations.

A consumer that read ``⟦i⟧⁻_s`` may keep it: every later derivation-only
composite leaves it unchanged (a *theorem*, via Theorem 5.7).
:func:`ancestry_cache_check` reads, runs a word and reads again;
:func:`cache_counterexamples` shows the hypothesis matters: a delete or a save
under an existing identifier breaks a cached ancestry (*counterexamples*).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..model import (
    CONTEXTFS,
    DEFAULT_THETA,
    Letter,
    Oracle,
    Realisation,
    Record,
    Relation,
    Store,
    Theta,
    ancestry,
    letter_to_json,
    run,
    store_to_json,
)
from ..model import alphabet as A
from .inclusion import unfolding_to_json

__all__ = ["ancestry_cache_check", "cache_counterexamples"]


def ancestry_cache_check(
    s: Store,
    word: Iterable[Letter],
    *,
    realisation: Realisation | None = None,
    theta: Theta = DEFAULT_THETA,
    oracle: Oracle | None = None,
) -> dict[str, Any]:
    """Read ``⟦i⟧⁻_s`` for every record of ``s``, run ``word``, read again (Corollary 6.1).

    ``realisation=None`` runs the ContextFS model.  Returns
    ``{"changed": [ids whose ancestry changed], "checked": n, "final": store}``.
    """
    word = list(word)
    before = {i: ancestry(s, i) for i in s.records}
    final = run(
        s,
        word,
        oracle=oracle if oracle is not None else Oracle(prefix="c"),
        theta=theta,
        step_fn=(CONTEXTFS if realisation is None else realisation).step,
    ).final
    changed = sorted(i for i, u in before.items() if ancestry(final, i) != u)
    return {"changed": changed, "checked": len(before), "final": final}


def cache_counterexamples() -> dict[str, Any]:
    """Corollary 6.1's hypothesis matters: a delete or a save under an existing id changes a cached ancestry.

    Base: ``a`` saved, ``b`` evolved from ``a``, ``c`` evolved from ``b``; the
    consumer caches ``⟦c⟧⁻``.  Deleting ``b`` removes its edges, so ``c`` loses its
    ancestry; saving under ``a`` replaces the record at the root of the unfolding.

    >>> w = cache_counterexamples()
    >>> w["derivations_only"]["changed"], w["delete"]["changed"], w["save_at"]["changed"]
    ([], ['b', 'c'], ['a', 'b', 'c'])
    """
    base = Store.of(
        {"a": Record("draft"), "b": Record("revised"), "c": Record("final")},
        [
            ("b", Relation.EVOLVED_FROM, "a"),
            ("a", Relation.EVOLVED_INTO, "b"),
            ("c", Relation.EVOLVED_FROM, "b"),
            ("b", Relation.EVOLVED_INTO, "c"),
        ],
    )
    prelude: list[Letter] = [A.Evolve("c", "final, again")]
    words: dict[str, list[Letter]] = {
        "derivations_only": prelude
        + [A.Merge(("a", "c")), A.Split("b", ("p", "q")), A.Save(Record("new"))],
        "delete": prelude + [A.Delete("b")],
        "save_at": prelude + [A.SaveAt("a", Record("draft, overwritten"))],
    }
    out: dict[str, Any] = {
        "base": store_to_json(base),
        "cached": unfolding_to_json(ancestry(base, "c")),
    }
    for name, w in words.items():
        res = ancestry_cache_check(base, w, oracle=Oracle())
        out[name] = {
            "word": [letter_to_json(a) for a in w],
            "changed": res["changed"],
            "after_c": unfolding_to_json(ancestry(res["final"], "c")),
        }
    return out
