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
* the model's ``≺`` (θ, our parameter for the undeclared orders, law L5) is predicted step by step from the model's
  own outputs: SQLite's row order -- rowid order, i.e. the order in which rows
  were last written, for recall, evolve, merge and split, and the primary key's
  order for delete (the two queries walk different indexes);
* a merge-type tie is compared as the model states it, *for some* θ: the model
  allows any type of the set M of modes, so the package's merged type is
  accepted when it lies in M (the model is then run with the θ whose ``c``
  chooses it) and is a disagreement otherwise.  Nothing of the package's own
  tie order is read;
* identifiers are the allocation's (``uuid4`` pinned while a step runs), and clock
  readings are compared by the step they were taken in, not by value.

What is compared, and the abstractions that comparison makes on purpose, are
:data:`ABSTRACTIONS`; each is counted where it was needed.  The report also
counts the words that reach each part of the input domain the generator draws
(:data:`~coalg.contextfs.random_words.COVERAGE`: mixed-case and wildcard
prefixes, refused types, odd identifiers, non-ASCII text), and every
disagreement carries its word as replayable JSON (:mod:`~coalg.contextfs.word_files`,
:func:`replay`).  Raises
:class:`~coalg.contextfs.offline.ContextFSUnavailable` without the package.
"""

from __future__ import annotations

import json
import os
import random
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from itertools import islice
from pathlib import Path
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
    like_matches,
    modes,
    output_to_json,
    record_to_json,
    step,
)
from .materialise import schema_template
from .offline import CONTEXTFS_VERSION, require, run_with_hashseed
from .package_run import PackageRun, PackageStep, Returned
from .random_words import COVERAGE, IdSupply, WordStep, covers, random_step, resolved_ids
from .word_files import read_word_file, words_to_json

__all__ = ["ABSTRACTIONS", "differential", "format_differential", "replay", "replay_words", "run_words"]

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
    "lookups by equality": "The package has one lookup, id LIKE 'arg%'. A letter that names a record by "
                           "equality (recall, delete, evolve, merge, split) is sent only with an identifier "
                           "that lookup finds alone, or not at all: only then is it the model's lookup by "
                           "equality. The rest of LIKE's domain (case, '_', '%', non-ASCII, NUL) is drawn "
                           "through the letters that resolve by prefix.",
    "prefixes SQLite cannot take": "A prefix longer than SQLite's LIKE pattern limit (50,000 bytes) makes the "
                                   "package raise sqlite3.OperationalError, and a string with an unpaired "
                                   "surrogate cannot be sent to SQLite at all; the model resolves both like any "
                                   "other prefix. The words draw neither.",
    "records of a type the package refuses": "A store built directly (some law checks alter a record's type) "
                                             "may hold a type outside MemoryType; the model reads and derives "
                                             "from such a record like any other, while the package cannot read "
                                             "the row back. No word reaches such a store from the empty one.",
}
"""What the comparison abstracts from, and why (the book's "ContextFS at runtime" chapter prints these)."""

_COUNTED = ("error messages", "delete of an unknown identifier", "supersede's answer")


# =========================================================================== θ, step by step


def _prefixes(a: Any) -> list[str]:
    """The arguments a letter resolves by prefix."""
    if isinstance(a, RecallPrefix):
        return [a.prefix]
    if isinstance(a, Merge):
        return list(a.ids) if a.by_prefix else []
    return [a.id] if isinstance(a, (Evolve, Split, Delete)) and a.by_prefix else []


def _theta(s: Store, ws: WordStep, rows: list[Id]) -> tuple[Theta, dict[str, int]]:
    """θ's ``≺`` for one step, and the ties the step meets (``type``: a merge-type tie;
    ``prefix``: several rows match a prefix)."""
    a = ws.call.letter
    ties = {"type": 0, "prefix": sum(len(list(islice(like_matches(s, p), 2))) > 1 for p in _prefixes(a))}
    if isinstance(a, Delete):
        return Theta(), ties  # _resolve_full_id walks the primary key: smallest identifier first
    theta = Theta(id_priority=tuple(rows))
    if isinstance(a, Merge) and not a.type:
        types = [s.records[i].type for i in resolved_ids(s, a, theta)]
        ties["type"] = int(bool(types) and len(modes(types)) > 1)
    return theta, ties


def _for_some_theta(s: Store, ws: WordStep, theta: Theta, theirs: Output | Returned) -> Theta | None:
    """The θ whose ``c`` chooses the package's merged type, when that type is one of the tied
    modes M the model allows; ``None`` otherwise (no tie, or a type the model does not allow)."""
    a = ws.call.letter
    if not isinstance(a, Merge) or a.type or not isinstance(theirs, Created) or len(theirs.items) != 1:
        return None
    tied = modes(types) if (types := [s.records[i].type for i in resolved_ids(s, a, theta)]) else frozenset()
    chosen = theirs.items[0][1].type
    return replace(theta, type_priority=(chosen,)) if len(tied) > 1 and chosen in tied else None


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


Draw = Callable[[Store, int, list[Id], list[Id]], WordStep | None]
"""The next step of a word at a store (its number, the row order, the deleted identifiers); ``None`` ends it."""


def _random_draw(rng: random.Random, length: int, faults: bool) -> Draw:
    supply, n = IdSupply(rng), rng.randint(1, length)

    def draw(s: Store, k: int, rows: list[Id], gone: list[Id]) -> WordStep | None:
        if k > n:
            return None
        return random_step(rng, s, k, supply, gone, theta=Theta(id_priority=tuple(rows)), faults=faults)

    return draw


def _given(word: Sequence[WordStep]) -> Draw:
    return lambda s, k, rows, gone: word[k - 1] if k <= len(word) else None


def _one_word(index: int, draw: Draw) -> dict[str, Any]:
    package = PackageRun(f"differential-{index}.db")
    try:
        return _compare_word(package, index, draw)
    finally:
        package.close()


def _compare_word(package: PackageRun, index: int, draw: Draw) -> dict[str, Any]:
    s, rows, gone = Store(), [], []  # type: tuple[Store, list[Id], list[Id]]
    word: list[WordStep] = []
    used: Counter[str] = Counter()
    ties: Counter[str] = Counter()
    faulty = 0

    def result(diff: dict[str, Any] | None) -> dict[str, Any]:
        return {"index": index, "steps": len(word), "agree": diff is None, "faulty_steps": faulty,
                "ties": dict(ties), "abstractions": dict(used), "covers": sorted(covers(word)),
                "disagreement": diff}

    while (ws := draw(s, len(word) + 1, rows, gone)) is not None:
        word.append(ws)
        theta, t = _theta(s, ws, rows)
        ties.update(t)
        faulty += bool(ws.call.faults)
        theirs = package.step(ws)
        theta = _for_some_theta(s, ws, theta, theirs.output) or theta
        mine, after = step(s, ws.call.letter, ws.call.allocation, theta=theta, faults=ws.call.faults)
        diff, abstraction = _difference(ws, mine, after, theirs)
        if abstraction is not None:
            used[abstraction] += 1
        if diff is not None:
            return result({"word": [str(w) for w in word], "calls": words_to_json([word])[0],
                           "index": index, "step": len(word), **diff})
        gone += [i for i in s.records if i not in after.records]
        rows, s = _rows_after(rows, after, mine), after
    return result(None)


def run_words(seed: int, indices: Sequence[int], length: int, faults: bool = True) -> list[dict[str, Any]]:
    """Words ``indices`` of the run with ``seed``, each on the model and on the package (in this interpreter).

    :func:`differential` calls this in child interpreters with a fixed ``PYTHONHASHSEED``.
    """
    require()
    return [_one_word(i, _random_draw(random.Random(f"coalg-differential:{seed}:{i}"), length, faults))
            for i in indices]


def replay_words(words: Sequence[Sequence[WordStep]], indices: Sequence[int] | None = None) -> list[dict[str, Any]]:
    """The given words (those at ``indices``), each on the model and on the package, in this interpreter."""
    require()
    return [_one_word(i, _given(words[i])) for i in (range(len(words)) if indices is None else indices)]


def _run_slice(seed: int, start: int, stop: int, step: int, length: int, faults: bool) -> list[dict[str, Any]]:
    """:func:`run_words` for the indices ``range(start, stop, step)`` (what a child interpreter is given)."""
    return run_words(seed, range(start, stop, step), length, faults)


def _replay_slice(path: str, start: int, step: int) -> list[dict[str, Any]]:
    """:func:`replay_words` for every ``step``-th word of a word file from ``start`` (a child's share)."""
    words = read_word_file(path)
    return replay_words(words, range(start, len(words), step))


_CHILD = ("import json, sys\n"
          "from coalg.contextfs.differential_testing import _run_slice, _replay_slice\n"
          "a = json.loads(sys.argv[1]); f = _replay_slice if 'path' in a else _run_slice\n"
          "print(json.dumps(f(**a)))\n")


def _in_children(args: list[dict[str, Any]], hashseed: int) -> list[dict[str, Any]]:
    """Run each share (``_run_slice`` or ``_replay_slice`` arguments) in its own child interpreter."""
    template = str(schema_template())

    def one(arg: dict[str, Any]) -> list[dict[str, Any]]:
        out = run_with_hashseed(_CHILD, json.dumps(arg), hashseed=hashseed, what="the differential run",
                                env={"COALG_CONTEXTFS_TEMPLATE": template})
        result: list[dict[str, Any]] = json.loads(out.strip().splitlines()[-1])
        return result

    with ThreadPoolExecutor(max_workers=max(1, len(args))) as pool:
        return sorted((r for chunk in pool.map(one, args) for r in chunk), key=lambda r: r["index"])


def _report(results: list[dict[str, Any]], cap: int, **head: Any) -> dict[str, Any]:
    bad = sorted((r["disagreement"] for r in results if not r["agree"]), key=lambda d: (len(d["word"]), d["index"]))
    used: Counter[str] = Counter()
    ties: Counter[str] = Counter()
    domain: Counter[str] = Counter()
    for r in results:
        used.update(r["abstractions"])
        ties.update(r["ties"])
        domain.update(r["covers"])
    return {
        **head, "words": len(results), "agree": sum(r["agree"] for r in results), "disagreements": bad[:cap],
        "disagreeing": len(bad), "package": f"contextfs {CONTEXTFS_VERSION}",
        "steps": sum(r["steps"] for r in results), "faulty_steps": sum(r["faulty_steps"] for r in results),
        "words_with_ties": sum(bool(r["ties"].get("type") or r["ties"].get("prefix")) for r in results),
        "ties": {k: ties.get(k, 0) for k in ("type", "prefix")},
        "abstractions": {k: used.get(k, 0) for k in _COUNTED},
        "domain": {k: domain.get(k, 0) for k in COVERAGE},
    }


def differential(words: int, length: int, seed: int, *, hashseed: int = 0, faults: bool = True,
                 workers: int = 2, cap: int = 20) -> dict[str, Any]:
    """Run ``words`` random words of at most ``length`` steps on the model and on the package; the report.

    Returns ``{"words": N, "agree": K, "disagreements": [...], ...}``: the
    disagreeing words, shortest first, at most ``cap`` of them, each as
    ``{"word": [...], "calls": [...], "step": k, "what": ..., "model": ..., "package": ...}``
    (the word up to the step that disagreed, for people and as replayable JSON);
    the other keys count steps, injected faults, ties, the abstractions applied
    (:data:`ABSTRACTIONS`) and the words reaching each part of the input domain
    (``domain``).
    """
    if words < 0 or length < 1 or cap < 0:
        raise InputError("differential: --words must be ≥ 0, --length ≥ 1 and the cap ≥ 0")
    require()
    workers = max(1, min(workers, words))
    shares = [{"seed": seed, "start": k, "stop": words, "step": workers, "length": length, "faults": faults}
              for k in range(workers if words else 0)]
    return _report(_in_children(shares, hashseed), cap, length=length, seed=seed, hashseed=hashseed,
                   faults=faults)


def replay(path: str | os.PathLike[str], *, hashseed: int = 0, workers: int = 2, cap: int = 20) -> dict[str, Any]:
    """Run the words of a word file (:mod:`~coalg.contextfs.word_files`) on the model and on the package.

    The report has the shape of :func:`differential`'s, with ``word_file`` in place of the seed.
    """
    if cap < 0:
        raise InputError("differential: the cap must be ≥ 0")
    words = read_word_file(path)  # read here first: a bad file is one clear error, never a child's
    require()
    workers = max(1, min(workers, len(words)))
    shares = [{"path": str(Path(path).resolve()), "start": k, "step": workers} for k in range(workers)]
    return _report(_in_children(shares, hashseed), cap, word_file=str(path),
                   length=max((len(w) for w in words), default=0), seed=None, hashseed=hashseed, faults=None)


def format_differential(report: dict[str, Any], limit: int = 5) -> str:
    """The report of :func:`differential` in sentences, with at most ``limit`` disagreements shown."""
    n, k = report["words"], report["agree"]
    what = (f"{n} word(s) of {report['word_file']}" if report.get("word_file") is not None
            else f"{n} random words of length ≤ {report['length']} (seed {report['seed']}")
    what += (", " if report.get("word_file") is None else " (") + f"PYTHONHASHSEED {report['hashseed']})"
    domain = report.get("domain", {})
    lines = [
        f"{what} on the ContextFS model and on {report['package']}: {k} agree, {n - k} disagree.",
        (f"{report['steps']} steps compared (output and whole store after each), {report['faulty_steps']} of "
         f"them with injected edge-write faults; θ decided {report['ties']['type']} merge-type tie(s) and "
         f"{report['ties']['prefix']} prefix match(es) with several rows."),
        "abstractions applied: " + ", ".join(f"{name} ×{c}" for name, c in report["abstractions"].items()) + ".",
    ]
    if domain:
        lines.append("words reaching each part of the input domain: "
                     + ", ".join(f"{name} {c}" for name, c in domain.items()) + ".")
    for d in report["disagreements"][:limit]:
        lines.append(f"\nword {d['index']}, step {d['step']} ({d['what']}):")
        lines += [f"  {j}. {w}" for j, w in enumerate(d["word"], start=1)]
        lines.append(f"  model:   {json.dumps(d['model'], ensure_ascii=False)}")
        lines.append(f"  package: {json.dumps(d['package'], ensure_ascii=False)}")
    more = report["disagreeing"] - min(limit, len(report["disagreements"]))
    if more > 0:
        lines.append(f"\n… and {more} more disagreeing word(s) (--json lists up to the cap).")
    return "\n".join(lines)
