"""L5 on a black box: the same words under two hash seeds, and with independent saves reordered.

A layer must not depend on an order it does not declare (law L5).  The kit
cannot vary a layer's θ, so it varies what a layer could secretly depend on:

* **the hash seed** -- two child interpreters (``PYTHONHASHSEED`` 0 and 1,
  :data:`HASHSEEDS`) each run the exploration of the parent -- every word up
  to the length, then the seeded walks, both alphabets -- and fingerprint
  what the layer shows after every call (:func:`~coalg.conformance.compare.digest`,
  identifiers in canonical names).  The first word whose fingerprints differ
  is run again in both (:func:`probe`), and a word found by a walk is shrunk
  a call at a time while the two still differ;
* **the insertion order** -- in each child, every explored word with two or
  more fresh saves in a row (and the last word of each walk) is made, and made
  again with each such run reversed and the later calls renamed to name the same
  records, each word on a fresh layer (:class:`~coalg.conformance.blackbox.Replay`).
  Where both orders leave the same records and edges after each reversed run, every
  later output and the store at the end must agree once renamed back;
  where they do not, the saves depend on one another and L5 has nothing to compare.
  A word that deletes a record and then allocates its identifier
  again is not reordered: its records cannot be told apart by name.

The prefix every record shares is left out of these words: an ambiguous
prefix is judged in the parent (:mod:`coalg.conformance.judge`), against
the rule the layer declares.  The children import the factory by its name
(``MODULE:ATTR``): a factory defined inside a function cannot be run there.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path as FilePath
from typing import Any

from ..laws import Start, Transition, allocate, show_letter
from ..model import (
    Call,
    Created,
    Id,
    Letter,
    Save,
    Store,
    call_from_json,
    call_to_json,
    letter_to_json,
    output_to_json,
    store_to_json,
)
from .alphabet import ALPHABET_NAMES, alphabet
from .blackbox import BlackBox, Replay
from .compare import difference, digest, observe, rename_output, rename_store
from .detect import inspect_layer
from .explore import levels, rename_letter, rerun, start, walks
from .protocol import Capabilities, ProtocolMisuse, load_factory
from .session import not_asked
from .snapshot import renamer

__all__ = ["HASHSEEDS", "OrderFindings", "across_interpreters", "child", "permutation", "probe"]

HASHSEEDS = (0, 1)
"""The two ``PYTHONHASHSEED`` values the children run under (they order 'fact' and 'decision' differently)."""

TIMEOUT = 1800.0


def order_letters(name: str, caps: Capabilities) -> Callable[[Store], list[Letter]]:
    """The alphabet ``name`` without the prefix all records share (judged in the parent)."""
    base = alphabet(name, caps)

    def letters(s: Store) -> list[Letter]:
        return [a for a in base(s) if not _shared(a, s)]

    return letters


def _shared(a: Letter, s: Store) -> bool:
    if a.kind == "recall_prefix":
        return getattr(a, "prefix", "") not in s.records
    return bool(getattr(a, "by_prefix", False)) and any(i not in s.records for i in _args(a))


def _args(a: Letter) -> tuple[Id, ...]:
    ids = getattr(a, "ids", None)
    return tuple(ids) if ids is not None else (getattr(a, "id", ""),)


def _runs(letters: Sequence[Letter]) -> list[tuple[int, int]]:
    """The runs of two or more consecutive fresh saves, as ``(first, end)`` positions."""
    runs, k = [], 0
    while k < len(letters):
        m = k
        while m < len(letters) and isinstance(letters[m], Save):
            m += 1
        if m - k >= 2:
            runs.append((k, m))
        k = max(m, k + 1)
    return runs


def permutation(letters: Sequence[Letter]) -> list[int] | None:
    """Each run of two or more consecutive fresh saves reversed: position j takes letter ``σ[j]``; ``None`` if
    nothing moves.

    Equal saves keep their order among themselves: two equal calls cannot be told apart, so the
    first made in one order stands for the first made in the other.

    >>> from coalg.model import Record, Save
    >>> a, b = Save(Record("a")), Save(Record("b"))
    >>> permutation([a, b]), permutation([a, a, b]), permutation([a, a])
    ([1, 0], [2, 0, 1], None)
    """
    order = list(range(len(letters)))
    for k, m in _runs(letters):
        free = list(range(k, m))
        for j, i in enumerate(reversed(range(k, m))):
            first = next(x for x in free if letters[x] == letters[i])
            free.remove(first)
            order[k + j] = first
    return order if order != list(range(len(letters))) else None


def compare_orders(runner: Replay, st: Start, letters: Sequence[Letter]) -> tuple[bool, dict[str, Any] | None]:
    """Run ``letters`` and their reordering, each word on a fresh layer (``runner``): whether the two orders
    could be compared, and where they differ once renamed (``None`` when they agree or were not compared).

    L5 asks the same call on the same store to give the same answer.  Saves that depend on one
    another (a layer that refuses a second save of the same content, or holds one record at most)
    reach different stores in different orders, and nothing is compared then; where both orders
    reach the same store after each reordered run, every later output and the store at the end
    must agree.  The outputs of the reordered saves themselves are not compared.

    A later call may read the records' identifiers (merge its sources in identifier order, say), as
    L5 allows, and the two orders give the records the saves make other identifiers wherever the
    layer's identifiers follow the order of creation (a counter, a clock, a sequence shared by all
    layers) or are drawn at random.  So the orders are compared only where every record the
    reordered saves made has the same identifier in both (identifiers derived from the content).
    """
    sigma = permutation(letters)
    if sigma is None:
        return False, None
    rz = runner.realisation
    runs = _runs(letters)
    inside = [j for k, m in runs for j in range(k, m)]  # the positions of the reversed saves
    ends = {m - 1 for _, m in runs}
    orig, shown, shown_again = [], {}, {}  # the fields the kit does not read, after each reversed run
    for j, t in enumerate(rerun(rz, st, letters)):
        orig.append(t)
        if j in ends:
            shown[j] = runner.extras()
    real = runner.real_names()
    made = [t.output.ids if isinstance(t.output, Created) else () for t in orig]
    if len({i for m in made for i in m}) != sum(map(len, made)):
        return False, None  # an identifier freed by a delete and allocated again: records are not named by origin
    to_perm: dict[Id, Id] = {}
    s, outs, calls, stores = st.store, {}, [], []
    for j, k in enumerate(sigma):
        a = rename_letter(letters[k], lambda i: to_perm.get(i, i))
        call = Call(a, allocate(s, a, j + 1))
        out, s = rz.step(s, a, call.allocation)
        outs[k] = out
        calls.append(call)
        stores.append(s)
        if j in ends:
            shown_again[j] = runner.extras()
        to_perm.update(zip(made[k], out.ids if isinstance(out, Created) else ()))
    back = {v: k for k, v in to_perm.items()}
    saved = {i for j in inside for i in made[j]}
    again = runner.real_names()
    if any(real.get(i) != again.get(to_perm.get(i, "")) for i in saved):
        return False, None  # the saves' records have other identifiers in the other order, and calls may read them

    def f(i: Id) -> Id:  # a record, or the name of a prefix of one ("id0002…")
        return back.get(i, back.get(i[:-1], i[:-1]) + "…" if i.endswith("…") else i)

    within = renamer(back, runner.caps.ids_in_text)

    def in_text(v: str) -> str:  # a layer that writes identifiers inside strings: the run's names there too
        return f(v) if v.endswith("…") else within(v)

    if any(not_asked(t.output) for t in orig) or any(not_asked(o) for o in outs.values()):
        return False, None  # a call one of the runs could not ask: the two runs did not make the same calls
    strings = in_text if runner.caps.ids_in_text else None
    if any(rename_store(stores[m - 1], f, strings) != orig[m - 1].after
           or {f(i): x for i, x in shown_again[m - 1].items()} != shown[m - 1] for _, m in runs):
        return False, None  # the orders reached different stores (or records showing other fields calls may read)
    first = observe([t.output for t in orig], orig[-1].after)
    second = observe([rename_output(outs[k], f, strings) for k in range(len(letters))], rename_store(s, f, strings))
    text, data = difference(first, second, "first", "reordered", skip=inside)
    if not data:
        return True, None
    moved = [show_letter(letters[k]) for j, k in enumerate(sigma) if j != k]
    return True, {
        "word": [letter_to_json(a) for a in letters], "reordered": [letter_to_json(c.letter) for c in calls],
        "reordered_outputs": [output_to_json(outs[k]) for k in sigma],
        "explanation": f"the same saves made in another order ({', '.join(moved)}; later calls renamed to "
                       f"name the same records) left the same records and edges, yet {text}.",
        "offending": data, "observations": {"first": first, "reordered": second},
        "reordered_as_shown": store_to_json(s)}


def reordered(runner: Replay, st: Start, letters: Sequence[Letter]) -> dict[str, Any] | None:
    """Where ``letters`` and their reordering differ (:func:`compare_orders`); ``None`` if they agree or were not
    compared."""
    return compare_orders(runner, st, letters)[1]


# =========================================================================== inside a child interpreter


def _words(bb: BlackBox, caps: Capabilities, length: int, n_walks: int, walk_length: int,
           seed: int) -> Iterator[tuple[Transition, bool]]:
    st = start(bb.fresh)
    for name in ALPHABET_NAMES:
        letters = order_letters(name, caps)
        for _, t in levels(bb.realisation, letters, length, st):
            yield t, False
        for _, t in walks(bb.realisation, letters, n_walks, walk_length, seed, st):
            yield t, True


def _observe_all(spec: str, params: dict[str, Any]) -> dict[str, Any]:
    factory = load_factory(spec)
    caps = inspect_layer(factory)
    bb = BlackBox(factory, caps, spec)
    exact = Replay(factory, caps, spec)  # the two orders of a word, each made word for word
    xst = start(exact.fresh)
    rows, reorder, tried = [], None, 0
    unasked: set[str] = set()  # the words with a call this run could not ask, and every word that extends one
    for t, walk in _words(bb, caps, params["length"], params["walks"], params["walk_length"], params["seed"]):
        letters = [c.letter for c in t.word]
        word = [call_to_json(c) for c in t.word]
        if not_asked(t.output) or json.dumps(word[:-1]) in unasked:
            unasked.add(json.dumps(word))
        rows.append([word, digest(observe([t.output], t.after)), walk, json.dumps(word) in unasked])
        if reorder is None and permutation(letters) is not None and (not walk or len(letters) == params["walk_length"]):
            judged, reorder = compare_orders(exact, xst, letters)
            tried += judged
            if reorder is not None and walk:
                reorder = _shrink_reorder(exact, xst, letters) or reorder
                reorder["minimality"] = ("found on a seeded random walk, then shrunk greedily: no single call "
                                         "can be removed")
            elif reorder is not None:
                reorder["minimality"] = "breadth first: no shorter word differs"
    bb.release()
    exact.close()
    return {"rows": rows, "reorder": reorder, "reorders_tried": tried}


def _shrink_reorder(runner: Replay, st: Start, letters: list[Letter]) -> dict[str, Any] | None:
    best, found = letters, reordered(runner, st, letters)
    improved = True
    while improved:
        improved = False
        for k in range(len(best)):
            trial = best[:k] + best[k + 1:]
            got = reordered(runner, st, trial)
            if got is not None:
                best, found, improved = trial, got, True
                break
    return found


def _probe(spec: str, words: list[list[dict[str, Any]]], planned: list[Id]) -> list[dict[str, Any]]:
    factory = load_factory(spec)
    exact = Replay(factory, inspect_layer(factory), spec)
    st = start(exact.fresh)
    out = []
    for w in words:
        ts = list(rerun(exact.realisation, st, [call_from_json(c) for c in w], planned))
        out.append({"calls": [call_to_json(t.call) for t in ts],
                    **observe([t.output for t in ts], ts[-1].after if ts else st.store)})
    exact.close()
    return out


def child(request: str, answer: str) -> None:
    """The child's entry point: read the request (JSON file), write the answer (JSON file)."""
    req = json.loads(FilePath(request).read_text(encoding="utf-8"))
    if req["mode"] == "observe":
        got: Any = _observe_all(req["spec"], req)
    else:
        got = _probe(req["spec"], req["words"], req.get("planned", []))
    FilePath(answer).write_text(json.dumps(got), encoding="utf-8")


# =========================================================================== in the parent


def _run_children(request: dict[str, Any]) -> list[Any]:
    path = os.pathsep.join([os.getcwd(), *(p for p in sys.path if p)])
    code = ("import os, sys; from coalg.conformance.order import child; child(sys.argv[1], sys.argv[2]); "
            "sys.stdout.flush(); sys.stderr.flush(); os._exit(0)")  # a thread the layer left must not hold it
    with tempfile.TemporaryDirectory(prefix="coalg-conform-") as tmp:
        req = FilePath(tmp) / "request.json"
        req.write_text(json.dumps(request), encoding="utf-8")

        def one(seed: int) -> Any:
            ans = FilePath(tmp) / f"answer-{seed}.json"
            env = {**os.environ, "PYTHONHASHSEED": str(seed), "PYTHONPATH": path}
            p = subprocess.run([sys.executable, "-c", code, str(req), str(ans)], capture_output=True, text=True,
                               env=env, timeout=TIMEOUT, check=False)
            if p.returncode != 0:
                last = (p.stderr.strip().splitlines() or ["no message"])[-1]
                misuse = f"{ProtocolMisuse.__module__}.{ProtocolMisuse.__qualname__}: "
                if last.startswith(misuse):  # the layer misused the protocol there: as in the parent, exit 2
                    raise ProtocolMisuse(f"{last.removeprefix(misuse)} (in the child interpreter with "
                                         f"PYTHONHASHSEED={seed})")
                raise RuntimeError(f"the child interpreter with PYTHONHASHSEED={seed} failed: {last}")
            return json.loads(ans.read_text(encoding="utf-8"))

        with ThreadPoolExecutor(max_workers=len(HASHSEEDS)) as pool:
            return list(pool.map(one, HASHSEEDS))


def probe(spec: str, words: list[list[dict[str, Any]]], planned: Sequence[Id] = ()) -> list[list[dict[str, Any]]]:
    """Each word (calls as JSON) run once in each child: ``[observations under seed 0, under seed 1]``.

    A word with calls left out is run with the later calls renamed to name the
    same records, ``planned`` being the identifiers of the word it was cut
    from (:func:`~coalg.conformance.explore.rerun`).
    """
    return _run_children({"mode": "probe", "spec": spec, "words": words, "planned": list(planned)})


@dataclass(frozen=True)
class OrderFindings:
    """What the children found: cases compared (words reordered among them), a hash-seed witness, an
    insertion-order witness."""

    explored: int
    hashseed: dict[str, Any] | None
    reorder: dict[str, Any] | None
    reorders: int = 0


def _seen(obs: dict[str, Any]) -> dict[str, Any]:
    """What a run showed, without the calls it made."""
    return {"outputs": obs["outputs"], "after": obs["after"]}


def _hash_witness(spec: str, word: list[dict[str, Any]], walk: bool) -> dict[str, Any]:
    labels = [f"PYTHONHASHSEED={h}" for h in HASHSEEDS]
    obs = [_seen(o[0]) for o in probe(spec, [word])]
    how = "breadth first: no shorter word differs"
    while walk:
        cands = [word[:k] + word[k + 1:] for k in range(len(word))]
        got = probe(spec, cands, [j for c in word for j in c["allocation"]["ids"]])
        keep = [k for k in range(len(cands)) if _seen(got[0][k]) != _seen(got[1][k])]
        if not keep:
            break
        word, obs = got[0][keep[0]]["calls"], [_seen(got[0][keep[0]]), _seen(got[1][keep[0]])]
        how = "found on a seeded random walk, then shrunk greedily: no single call can be removed"
    text, data = difference(obs[0], obs[1], labels[0], labels[1])
    if not data:
        text = ("what the layer showed differed between the two interpreters during the exploration, but not when "
                "the word was run again: its observations vary from run to run")
    return {"word": [c["letter"] for c in word], "explanation": f"the same word run in two interpreters: {text}.",
            "offending": data,
            "observations": dict(zip(labels, obs)), "minimality": how}


def across_interpreters(spec: str, length: int, n_walks: int, walk_length: int, seed: int) -> OrderFindings:
    """Run the exploration in two children and compare them (see the module docstring)."""
    req = {"mode": "observe", "spec": spec, "length": length, "walks": n_walks, "walk_length": walk_length,
           "seed": seed}
    a, b = _run_children(req)
    compared, row = _first_difference(a["rows"], b["rows"])
    hashed = None if row is None else _hash_witness(spec, row[0], bool(row[2]))
    return OrderFindings(compared + a["reorders_tried"], hashed, a["reorder"] or b["reorder"], a["reorders_tried"])


def _first_difference(rows_a: list[list[Any]], rows_b: list[list[Any]]) -> tuple[int, list[Any] | None]:
    """The words both children ran compared, in the first child's order: how many agreed, and the first
    row that differs or that one child never reached (``None``: none).  A word with a call one child could
    not ask (a prefix its identifiers did not allow) is compared by neither."""
    by_word = [{json.dumps(r[0]): r for r in rows} for rows in (rows_a, rows_b)]
    compared = 0
    for mine, theirs in ((rows_a, by_word[1]), (rows_b, by_word[0])):
        for x in mine:
            y = theirs.get(json.dumps(x[0]))
            if x[3] or (y is not None and y[3]):
                continue
            if y is None or x[1] != y[1]:
                return compared, x
            compared += mine is rows_a
    return compared, None
