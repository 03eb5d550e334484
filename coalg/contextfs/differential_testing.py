"""Differential testing: the ContextFS model (§3.3) against the released package, on random words.

:func:`differential` draws ``N`` random words of at most ``L`` steps
(:mod:`coalg.contextfs.random_words`), runs each on the ContextFS model
(:data:`coalg.model.CONTEXTFS`) and on contextfs 0.2.35 (:mod:`coalg.contextfs.package_run`),
and compares, after every step, the output and the whole store.  A word agrees
when every step does; the report lists the words that do not, shortest first.

The package's own nondeterminism is pinned, not hoped away:

* the words run in child interpreters with a fixed ``PYTHONHASHSEED`` (the
  package breaks merge-type ties with ``max(set(types), key=types.count)``, i.e.
  by string hashing);
* the model's θ (§3.2, law L5) is derived step by step: ``c`` is the iteration
  order of that ``set(types)`` in the child (the seed's tie order), and ``≺`` is
  SQLite's row order -- rowid order, i.e. the order in which rows were last
  written, for recall, evolve, merge and split, and the primary key's order for
  delete (the two queries walk different indexes);
* identifiers are the allocation's (``uuid4`` pinned while a step runs), and clock
  readings are compared by the step they were taken in, not by value.

What is compared, and the abstractions that comparison makes on purpose, are
:data:`ABSTRACTIONS`; each is counted where it was needed.  Raises
:class:`~coalg.contextfs.offline.ContextFSUnavailable` without the package.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from ..errors import InputError
from ..model import (
    Created,
    Delete,
    Err,
    Evolve,
    Flag,
    Id,
    Merge,
    Output,
    RecallPrefix,
    Split,
    Store,
    Theta,
    Wrote,
    edge_to_json,
    modes,
    output_to_json,
    record_to_json,
    step,
)
from .materialise import schema_template
from .offline import CONTEXTFS_VERSION, modules, require, run_with_hashseed
from .package_run import PackageRun, PackageStep, Returned
from .random_words import IdSupply, WordStep, random_step, resolved_ids

__all__ = ["ABSTRACTIONS", "differential", "format_differential", "run_words"]

ABSTRACTIONS: dict[str, str] = {
    "error messages": "A call the model refuses (err) is compared with the package raising ValueError by kind "
                      "only: the messages are each side's own wording.",
    "delete of an unknown identifier": "The package's delete answers True for an identifier that holds no record "
                                       "(its vector store's delete does not fail); the model answers err. The "
                                       "store is unchanged on both sides, and that is compared.",
    "supersede's answer": "The model reports the edges supersede wrote; the package returns the first edge when "
                          "both writes succeeded and None when its handler caught a failure. The model's answer is "
                          "read that way.",
    "tags as a set": "The package stores tags as a list built with list(set(...)), whose order follows string "
                     "hashing; the model's tags are a set.",
    "clock readings by order": "created_at is naive local time and the lineage timestamps are UTC ISO strings; "
                               "each reading is compared by the step during which it was taken, the model's clock "
                               "reading of that step.",
    "edges as triples": "An edge row also holds a weight, a creation time and metadata (supersede's reason); the "
                        "model's edges are (source, label, target) triples.",
    "columns the model has no field for": "source_file, source_repo, source_tool, project, session_id, "
                                          "structured_data and deleted_at are checked to stay NULL (the words never "
                                          "set them); content_hash, the full-text index and the vector store are "
                                          "not read.",
    "identifiers without LIKE artefacts": "Every identifier named by equality is 12 lower-case hex characters with "
                                          "one hyphen, and every prefix is lower case without '_' or '%': the model "
                                          "resolves prefixes by a plain, case-sensitive test.",
}
"""What the comparison abstracts from, and why (the book's "ContextFS at runtime" chapter prints these)."""

_COUNTED = ("error messages", "delete of an unknown identifier", "supersede's answer")


# =========================================================================== θ, step by step


def tie_order(types: Sequence[str]) -> tuple[str, ...]:
    """The iteration order of ``set(types)`` over the package's ``MemoryType`` members, in this interpreter.

    ``max(set(types), key=types.count)`` returns the first most frequent member in
    this order, so it is θ's ``c`` for the interpreter's ``PYTHONHASHSEED``.
    """
    mt = modules().MemoryType
    members = [mt(x) for x in types]  # the package's `types`: a list of MemoryType members
    return tuple(t.value for t in set(members))


def _theta(s: Store, ws: WordStep, rows: list[Id]) -> tuple[Theta, dict[str, int]]:
    """θ for one step, and the ties it decides (``type``: a merge-type tie; ``prefix``: several rows match)."""
    a = ws.call.letter
    ties = {"type": 0, "prefix": 0}
    if isinstance(a, RecallPrefix):
        prefixes = [a.prefix]
    elif isinstance(a, Merge):
        prefixes = list(a.ids) if a.by_prefix else []
    else:
        prefixes = [a.id] if isinstance(a, (Evolve, Split, Delete)) and a.by_prefix else []
    ties["prefix"] = sum(sum(1 for i in s.records if i.startswith(p)) > 1 for p in prefixes)
    if isinstance(a, Delete):
        return Theta(), ties  # _resolve_full_id walks the primary key: smallest identifier first
    theta = Theta(id_priority=tuple(rows))
    if isinstance(a, Merge) and a.type is None:
        types = [s.records[i].type for i in resolved_ids(s, a, theta)]
        if types:
            ties["type"] = int(len(modes(types)) > 1)
            theta = Theta(type_priority=tie_order(types), id_priority=tuple(rows))
    return theta, ties


def _rows_after(rows: list[Id], after: Store, out: Output) -> list[Id]:
    """Live rows in rowid order after a step: a written row (INSERT OR REPLACE) moves to the end."""
    written = [i for i, _ in out.items] if isinstance(out, Created) else []
    keep = [i for i in rows if i in after.records and i not in written]
    stray = sorted(i for i in after.records if i not in keep and i not in written)
    return keep + stray + written


# =========================================================================== comparing one step


def _compare_output(ws: WordStep, mine: Output, theirs: Output | Returned) -> tuple[bool, str | None]:
    """Whether the package's answer is the model's, and the abstraction that made it so (if any)."""
    if isinstance(theirs, Returned):
        edges = mine.edges if isinstance(mine, Wrote) else ()
        return theirs.edge == (edges[0] if len(edges) == 2 else None), "supersede's answer"
    if isinstance(mine, Err) and isinstance(theirs, Err):
        return True, "error messages"
    if isinstance(mine, Err) and isinstance(ws.call.letter, Delete) and theirs == Flag(True):
        return True, "delete of an unknown identifier"
    return mine == theirs, None


def _output_json(o: Output | Returned) -> dict[str, Any]:
    if isinstance(o, Returned):
        return {"out": "edge", "edge": None if o.edge is None else edge_to_json(o.edge)}
    return output_to_json(o)


def _store_diff(mine: Store, theirs: Store) -> tuple[dict[str, Any], dict[str, Any]]:
    """The parts of two stores that differ: records at identifiers where they differ, and edges of one only."""
    ids = sorted(i for i in set(mine.records) | set(theirs.records) if mine.records.get(i) != theirs.records.get(i))

    def part(s: Store, other: Store) -> dict[str, Any]:
        return {"records": {i: record_to_json(s.records[i]) if i in s.records else None for i in ids},
                "edges": [edge_to_json(e) for e in sorted(s.edges - other.edges)]}

    return part(mine, theirs), part(theirs, mine)


def _difference(ws: WordStep, mine: Output, after: Store, pkg: PackageStep) -> tuple[dict[str, Any] | None, str | None]:
    if pkg.raised is not None:
        return {"what": "the package raised", "model": _output_json(mine), "package": pkg.raised}, None
    ok, used = _compare_output(ws, mine, pkg.output)
    if not ok:
        return {"what": "output", "model": _output_json(mine), "package": _output_json(pkg.output)}, None
    if pkg.unmodelled:
        return {"what": "a column the model has no field for", "model": None, "package": list(pkg.unmodelled)}, None
    if after != pkg.store:
        m, p = _store_diff(after, pkg.store)
        return {"what": "store", "model": m, "package": p}, None
    return None, used


# =========================================================================== one word, a batch of words


def _one_word(seed: int, index: int, length: int, faults: bool) -> dict[str, Any]:
    rng = random.Random(f"coalg-differential:{seed}:{index}")
    package = PackageRun(f"differential-{index}.db")
    try:
        return _compare_word(rng, package, index, length, faults)
    finally:
        package.close()


def _compare_word(rng: random.Random, package: PackageRun, index: int, length: int, faults: bool) -> dict[str, Any]:
    supply = IdSupply(rng)
    s, rows, gone = Store(), [], []  # type: tuple[Store, list[Id], list[Id]]
    word: list[WordStep] = []
    used: Counter[str] = Counter()
    ties: Counter[str] = Counter()
    faulty = 0
    for k in range(1, rng.randint(1, length) + 1):
        ws = random_step(rng, s, k, supply, gone, theta=Theta(id_priority=tuple(rows)), faults=faults)
        word.append(ws)
        theta, t = _theta(s, ws, rows)
        ties.update(t)
        faulty += bool(ws.call.faults)
        mine, after = step(s, ws.call.letter, ws.call.allocation, theta=theta, faults=ws.call.faults)
        diff, abstraction = _difference(ws, mine, after, package.step(ws))
        if abstraction is not None:
            used[abstraction] += 1
        if diff is not None:
            return {"index": index, "steps": k, "agree": False, "faulty_steps": faulty, "ties": dict(ties),
                    "abstractions": dict(used),
                    "disagreement": {"word": [str(w) for w in word], "index": index, "step": k, **diff}}
        gone += [i for i in s.records if i not in after.records]
        rows, s = _rows_after(rows, after, mine), after
    return {"index": index, "steps": len(word), "agree": True, "faulty_steps": faulty, "ties": dict(ties),
            "abstractions": dict(used), "disagreement": None}


def run_words(seed: int, indices: Sequence[int], length: int, faults: bool = True) -> list[dict[str, Any]]:
    """Words ``indices`` of the run with ``seed``, each on the model and on the package (in this interpreter).

    :func:`differential` calls this in child interpreters with a fixed ``PYTHONHASHSEED``.
    """
    require()
    return [_one_word(seed, i, length, faults) for i in indices]


def _run_slice(seed: int, start: int, stop: int, step: int, length: int, faults: bool) -> list[dict[str, Any]]:
    """:func:`run_words` for the indices ``range(start, stop, step)`` (what a child interpreter is given)."""
    return run_words(seed, range(start, stop, step), length, faults)


_CHILD = ("import json, sys\n"
          "from coalg.contextfs.differential_testing import _run_slice\n"
          "print(json.dumps(_run_slice(**json.loads(sys.argv[1]))))\n")


def differential(words: int, length: int, seed: int, *, hashseed: int = 0, faults: bool = True,
                 workers: int = 2, cap: int = 20) -> dict[str, Any]:
    """Run ``words`` random words of at most ``length`` steps on the model and on the package; the report.

    Returns ``{"words": N, "agree": K, "disagreements": [...], ...}``: the
    disagreeing words, shortest first, at most ``cap`` of them, each as
    ``{"word": [...], "step": k, "what": ..., "model": ..., "package": ...}`` (the
    word up to the step that disagreed); the other keys count steps, injected
    faults, ties that θ decided and the abstractions applied (:data:`ABSTRACTIONS`).
    """
    if words < 0 or length < 1 or cap < 0:
        raise InputError("differential: --words must be ≥ 0, --length ≥ 1 and the cap ≥ 0")
    require()
    template = str(schema_template())
    workers = max(1, min(workers, words))

    def one(start: int) -> list[dict[str, Any]]:
        arg = json.dumps({"seed": seed, "start": start, "stop": words, "step": workers, "length": length,
                          "faults": faults})
        out = run_with_hashseed(_CHILD, arg, hashseed=hashseed, what="the differential run",
                                env={"COALG_CONTEXTFS_TEMPLATE": template})
        result: list[dict[str, Any]] = json.loads(out.strip().splitlines()[-1])
        return result

    with ThreadPoolExecutor(max_workers=workers) as pool:
        results = sorted((r for chunk in pool.map(one, range(workers if words else 0)) for r in chunk),
                         key=lambda r: r["index"])
    bad = sorted((r["disagreement"] for r in results if not r["agree"]), key=lambda d: (len(d["word"]), d["index"]))
    used: Counter[str] = Counter()
    ties: Counter[str] = Counter()
    for r in results:
        used.update(r["abstractions"])
        ties.update(r["ties"])
    return {
        "words": words, "agree": sum(r["agree"] for r in results), "disagreements": bad[:cap],
        "disagreeing": len(bad), "length": length, "seed": seed, "hashseed": hashseed, "faults": faults,
        "package": f"contextfs {CONTEXTFS_VERSION}",
        "steps": sum(r["steps"] for r in results), "faulty_steps": sum(r["faulty_steps"] for r in results),
        "words_with_ties": sum(bool(r["ties"].get("type") or r["ties"].get("prefix")) for r in results),
        "ties": {k: ties.get(k, 0) for k in ("type", "prefix")},
        "abstractions": {k: used.get(k, 0) for k in _COUNTED},
    }


def format_differential(report: dict[str, Any], limit: int = 5) -> str:
    """The report of :func:`differential` in sentences, with at most ``limit`` disagreements shown."""
    n, k = report["words"], report["agree"]
    lines = [
        (f"{n} random words of length ≤ {report['length']} (seed {report['seed']}, PYTHONHASHSEED "
         f"{report['hashseed']}) on the ContextFS model and on {report['package']}: "
         f"{k} agree, {n - k} disagree."),
        (f"{report['steps']} steps compared (output and whole store after each), {report['faulty_steps']} of "
         f"them with injected edge-write faults; θ decided {report['ties']['type']} merge-type tie(s) and "
         f"{report['ties']['prefix']} prefix match(es) with several rows."),
        "abstractions applied: " + ", ".join(f"{name} ×{c}" for name, c in report["abstractions"].items()) + ".",
    ]
    for d in report["disagreements"][:limit]:
        lines.append(f"\nword {d['index']}, step {d['step']} ({d['what']}):")
        lines += [f"  {j}. {w}" for j, w in enumerate(d["word"], start=1)]
        lines.append(f"  model:   {json.dumps(d['model'], ensure_ascii=False)}")
        lines.append(f"  package: {json.dumps(d['package'], ensure_ascii=False)}")
    more = report["disagreeing"] - min(limit, len(report["disagreements"]))
    if more > 0:
        lines.append(f"\n… and {more} more disagreeing word(s) (--json lists up to the cap).")
    return "\n".join(lines)
