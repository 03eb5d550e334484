"""Check a memory layer against the laws: :func:`conform` computes the report, :func:`check_layer` asserts it.

>>> from coalg.conformance.examples import contextfs_model
>>> r = conform(contextfs_model, length=2, walks=0, orders=False)
>>> r["clauses"]["L7"]["holds"], r["clauses"]["L1"]["holds"]
(False, True)
>>> for line in r["clauses"]["L7"]["witness"]["calls"]: print(line)
ids["id0001"] = m.save('a', type='fact', namespace='alice')
ids["id0002"] = m.evolve(ids["id0001"][:-1], 'v2')
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..bitemporal import History, theorem_5_27
from ..errors import CoalgError
from ..laws import Transition, get_clause, show_call
from ..laws.bitemporality import TIMES
from ..model import (
    Call,
    Created,
    Err,
    Nothing,
    Output,
    Record,
    call_from_json,
    call_to_json,
    letter_from_json,
    output_to_json,
    store_to_json,
)
from ..paper import Verdict
from .blackbox import BlackBox, Nondeterministic, Replay, Unconstructible, project
from .compare import difference, observe
from .detect import inspect_layer
from .judge import REDUNDANCY_KEYS, REFUSAL_KEYS, STEP_KEYS, Finding, Judge
from .order import HASHSEEDS, OrderFindings, across_interpreters
from .protocol import Capabilities, ProtocolMisuse, factory_spec, load_factory
from .report import clause_entry, exit_status, failing, format_report, format_witness
from .witness import python_calls, replay_script

__all__ = ["WALK_LENGTH", "LawViolation", "check_layer", "conform"]

WALK_LENGTH = 8
"""Calls per random walk (the law search's walks are as long)."""


class LawViolation(AssertionError):
    """A memory layer breaks a law: the message is the report with each failing clause's witness."""

    def __init__(self, report: dict[str, Any]) -> None:
        keys = failing(report)
        super().__init__(f"the memory layer {report['layer']} breaks {', '.join(keys)}\n\n"
                         + format_report(report, witnesses=False) + "\n"
                         + "\n\n".join(format_witness(k, report["clauses"][k]) for k in keys))
        self.report = report


def _cited(bb: BlackBox, runner: Replay, t: Transition) -> tuple[tuple[Call, ...], list[Output]]:
    """The word behind ``t`` -- the word its store ``before`` stands for in the black box, then the call --
    and each call's output when that word is made on a fresh layer, which must be exactly ``t``."""
    path = bb.registry.get(project(t.before, bb.caps.has("valid_time")))
    word = (path.calls if path is not None else t.prefix) + (t.call,)
    made = runner.run(word)
    before = made[-2][1] if len(made) > 1 else runner.fresh
    if observe([made[-1][0]], made[-1][1]) != observe([t.output], t.after) or before != t.before:
        raise Nondeterministic(word, t.after, made[-1][1])
    return word, [out for out, _ in made]


def _step_witness(f: Finding, bb: BlackBox, runner: Replay, spec: str | None) -> dict[str, Any]:
    t, vt = f.transition, bb.caps.has("valid_time")
    word, outs = _cited(bb, runner, t)
    w: dict[str, Any] = {
        "word": [call_to_json(c) for c in word], "calls": python_calls(word, outs, valid_time=vt),
        "before": store_to_json(t.before), "after": store_to_json(t.after), "output": output_to_json(t.output),
        "offending": f.problem.offending, "explanation": f.problem.explanation, "length": len(word),
        "minimality": f.how, **f.problem.extra,
    }
    said = bb.messages.get((t.before, t.call))
    if said:
        w["refusal"] = said
    runs = [("the word", word, outs)]
    if f.other is not None:
        path, call = f.other
        other = path.calls + (call,)
        w["other_word"] = [call_to_json(c) for c in other]
        runs.append(("the same last call on the other store the clause compares with", other,
                     [out for out, _ in runner.run(other)]))
    w["replay"] = replay_script(spec, runs, valid_time=vt)
    return w


_REFUSALS_ONLY = ("; words with a delete, a replacement or a call by prefix (the full alphabet, where the law does "
                  "not speak) were judged only for refused calls, each of which must {}")
"""What the clauses of :data:`~coalg.conformance.judge.REFUSAL_KEYS` judge beyond the fragment."""

_REFUSAL_RULE = {"L1": "remove or change nothing", "S1": "add nothing"}
"""What each of those clauses asks of a refused call (together: that it change nothing)."""


def _reason_holds(key: str, explored: int, skipped: int) -> str:
    text = get_clause(key).holds.format(n=explored) + (_REFUSALS_ONLY.format(_REFUSAL_RULE[key])
                                                       if key in REFUSAL_KEYS else "")
    return text + (f"; {skipped} case(s) needed a store the protocol cannot build, or a call it cannot ask "
                   "there, and were not judged" if skipped else "")


_ONE_WAY = {
    ("L2", "edges"): "the layer records ancestry only as edges (no derived record carries evolved_from, "
                     "merged_from or split_from metadata)",
    ("L2", "metadata"): "the layer records ancestry only as metadata (it shows no evolved_from, merged_from or "
                        "split_from edge)",
    ("L3", "edge"): "the layer records each edge one way only (no edge came with its inverse)",
}


_NONE_SHOWN = {"L2": "the layer showed no ancestry, neither as edges nor as metadata",
               "L3": "the layer showed no edge at all"}


def _trivially_holds(key: str, judge: Judge, n: int) -> str | None:
    """The reason a clause holds because of what the layer never shows (else ``None``): a redundancy law with
    one representation only, or none, and L7 without any edge."""
    if key == "L7" and not judge.shown.of("L3"):
        return f"holds (nothing to judge): the layer showed no edge at all, so none can dangle ({n} cases)"
    if key not in REDUNDANCY_KEYS:
        return None
    shown = judge.shown.of(key)
    if not shown:
        return f"holds (nothing to compare): {_NONE_SHOWN[key]} ({n} cases)"
    if len(shown) != 1:
        return None
    return (f"holds (one representation): {_ONE_WAY[key, shown[0]]}, so the two cannot disagree "
            f"({n} cases)")


def _step_entries(judge: Judge, bb: BlackBox, runner: Replay, spec: str | None) -> dict[str, dict[str, Any]]:
    out = {}
    for key in STEP_KEYS:
        n, skipped = judge.explored[key], judge.skipped[key]
        f = judge.found.get(key)
        one = _trivially_holds(key, judge, n)
        if f is not None:
            out[key] = clause_entry(key, False, n, f.problem.explanation, _step_witness(f, bb, runner, spec),
                                    skipped)
        elif n == 0:
            why = (f"no case came up: {skipped} case(s) needed a store the protocol cannot build, or a call it "
                   "cannot ask there" if skipped
                   else "no call of the explored words is in this clause's scope")
            out[key] = clause_entry(key, None, 0, why, None, skipped)
        elif one is not None:
            out[key] = clause_entry(key, True, n, one, None, skipped)
        else:
            out[key] = clause_entry(key, True, n, _reason_holds(key, n, skipped), None, skipped)
        if key in REDUNDANCY_KEYS:
            out[key]["representations"] = judge.shown.of(key)
    return out


def _shallow(x: dict[str, Any]) -> Output:
    """An output read back from an observation, as much as the replay script needs (ids, refusals)."""
    if x["out"] == "created":
        return Created(tuple((i, Record("")) for i in x["ids"]))
    return Err(x["reason"]) if x["out"] == "err" else Nothing()


def _planned(calls: Sequence[Call]) -> list[Output]:
    return [Created(tuple((i, Record("")) for i in c.allocation.ids)) if c.allocation.ids else Nothing()
            for c in calls]


def _order_witness(w: dict[str, Any], spec: str | None, caps: Capabilities, kind: str) -> dict[str, Any]:
    vt = caps.has("valid_time")
    first = next(iter(w["observations"].values()))
    outs = [_shallow(x) for x in first["outputs"]]
    calls = [Call(letter_from_json(a)) for a in w["word"][:len(outs)]]  # a script reads letters and outputs only
    runs = [("the word", calls, outs)]
    if "reordered" in w:
        rcalls = [Call(letter_from_json(a)) for a in w["reordered"]]
        runs.append(("the same saves in another order (identifiers as this run names them)", rcalls,
                     [_shallow(x) for x in w["reordered_outputs"]]))
    return {**w, "kind": kind, "calls": python_calls(calls, outs, valid_time=vt), "length": len(calls),
            "replay": replay_script(spec, runs, valid_time=vt, hashseeds=HASHSEEDS if kind == "hash seed" else ())}


def _l5_entry(judge: Judge, bb: BlackBox, runner: Replay, spec: str | None, caps: Capabilities,
              order: OrderFindings | None, why_not: str) -> dict[str, Any]:
    found: list[tuple[int, int, dict[str, Any]]] = []
    if order is not None and order.hashseed is not None:
        found.append((len(order.hashseed["word"]), 0, _order_witness(order.hashseed, spec, caps, "hash seed")))
    if order is not None and order.reorder is not None:
        found.append((len(order.reorder["word"]), 1, _order_witness(order.reorder, spec, caps, "insertion order")))
    f = judge.found.get("L5")
    if f is not None:
        found.append((len(f.transition.word), 2, {**_step_witness(f, bb, runner, spec), "kind": "ambiguous prefix"}))
    n = judge.explored["L5"] + (order.explored if order is not None else 0)
    if found:
        w = min(found, key=lambda x: x[:2])[2]
        return clause_entry("L5", False, n, w["explanation"], w, judge.skipped["L5"])
    prefix = (f"every ambiguous prefix was refused or resolved by the declared rule ({judge.explored['L5']} "
              "calls)" if caps.prefixes else "")
    if order is None:
        if not caps.prefixes:
            return clause_entry("L5", None, 0, f"not judged: {why_not}")
        return clause_entry("L5", None, n, f"judged only in part: {prefix}; the rest is not judged: {why_not}",
                            None, judge.skipped["L5"])
    seeds = " and ".join(str(h) for h in HASHSEEDS)
    text = (f"the same words showed the same records and edges under PYTHONHASHSEED={seeds} "
            f"({order.explored - order.reorders} cases)")
    text += (f", and with fresh saves reordered ({order.reorders} words)" if order.reorders else
             "; no reordering of fresh saves could be compared: the records the saves make get other identifiers "
             "in the other order (only identifiers derived from the content keep them), and a call may read them")
    ties = judge.skipped["L5"]
    untold = (f"; {ties} ambiguous prefix(es) were not judged: the declared rule cannot tell its pick (records "
              "born at one call, or a record replaced in place), or the layer's own pick does not show in what the "
              "call did (a merge of a record with itself, say)") if ties else ""
    return clause_entry("L5", True, n, text + (f"; {prefix}" if prefix else "") + untold, None, ties)


def _theorem_5_27(w: dict[str, Any], runner: Replay) -> dict[str, Any] | None:
    """Theorem 5.27's proof run on the layer for the witness's pair of histories (``None`` if it cannot be)."""
    letters = [call_from_json(c).letter for c in w["word"]]
    try:
        h, h2 = (History.of(*((a, x["tt"], x["vt"]) for a, x in zip(letters, w[key]))) for key in ("h", "h_prime"))
        return theorem_5_27(h, h2, realisation=runner.realisation).to_json()
    except (CoalgError, Unconstructible):
        return None


def _recorded(runner: Replay, w: Mapping[str, Any]) -> bool:
    """Whether the witness's two histories, each made on a fresh layer, record one and the same store."""
    stores = []
    for key in ("h", "h_prime"):
        made = runner.run([call_from_json(x["call"]) for x in w[key]])
        if not made or not all(isinstance(out, Created) for out, _ in made):
            return False
        stores.append(made[-1][1])
    return stores[0] == stores[1]


def _l6(bb: BlackBox, runner: Replay, length: int, walks: int, seed: int) -> Verdict:
    """L6 searched on the black box; a failure stands when its two histories, made word for word, record one
    store; otherwise the search is made again on histories made word for word."""
    l6 = get_clause("L6")
    assert l6.search is not None
    bound = max(1, min(length, 3))  # recording histories double with each call: at most three calls exhaustively
    v = l6.search(bb.realisation, bound, walks, seed)
    if v.holds or v.witness is None or _recorded(runner, v.witness):
        return v
    return l6.search(runner.realisation, bound, walks, seed)


def _and(names: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _l6_entry(holds: bool, explored: int, summary: str, witness: Any, bb: BlackBox, runner: Replay,
              spec: str | None) -> dict[str, Any]:
    if holds and explored == 0:
        return clause_entry("L6", True, 0, "holds (nothing to judge): no history with valid times was recorded, "
                            f"the layer refused every save or derivation the kit made with a valid time "
                            f"({' or '.join(map(str, TIMES))})")
    if holds:
        return clause_entry("L6", True, explored, summary.split(": ", 1)[-1])
    w = dict(witness)
    caps = bb.caps
    vt = caps.has("valid_time")
    runs = []
    for key, name in (("h", "history h"), ("h_prime", "history h′, the same calls at other valid times")):
        calls = [call_from_json(x["call"]) for x in w[key]]
        runs.append((f"{name}: valid times {[x['vt'] for x in w[key]]}", calls, _planned(calls)))
    w["calls"] = python_calls(runs[0][1], runs[0][2], valid_time=vt)
    w["replay"] = replay_script(spec, runs, valid_time=vt)
    why = w["explanation"][:1].upper() + w["explanation"][1:]
    if not vt:  # the kit passed no valid time at all: say so, not that the layer dropped one
        why = (f"The layer has no valid_time capability, so the kit passes it no valid time: the histories "
               f"{', '.join(show_call(c) for c in runs[0][1])} at valid times {[x['vt'] for x in w['h']]} and "
               f"{[x['vt'] for x in w['h_prime']]} are the same calls to the layer and record the same store. "
               "No function of the store recovers valid time, so it fails L6 as ContextFS does (Theorem 5.27).")
        if caps.valid_time_in:
            lacking = [m for m in ("save", "evolve", "merge", "split") if m not in caps.valid_time_in]
            why += (f" ({_and(caps.valid_time_in)} {'takes' if len(caps.valid_time_in) == 1 else 'take'} a "
                    f"valid_time parameter, {_and(lacking)} {'does' if len(lacking) == 1 else 'do'} not; the "
                    "capability needs all four.)")
        proof = _theorem_5_27(w, runner)
        if proof is not None:
            w["theorem_5_27"] = proof
            why += (" The theorem's proof, run on this layer with these two histories, is in the witness; its "
                    f"steps {'all check out' if proof['conclusion'] else 'do not all check out'}.")
    w["explanation"] = why
    return clause_entry("L6", False, explored, why, w)


def _least_of_random(caps: Capabilities) -> None:
    """A layer that declares the rule 'least' and draws its identifiers afresh cannot be judged by replays
    (called when a replay showed another store): :class:`ProtocolMisuse` saying so (its behaviour is a
    function of the identifiers it draws, which L5 allows, but no two runs of a word show the same store)."""
    if caps.prefix_rule == "least" and caps.fresh_ids:
        raise ProtocolMisuse("prefix_rule: 'least' orders the identifiers, and this layer draws other identifiers "
                             "for the same calls on every fresh layer, so which record an ambiguous prefix names "
                             "changes from run to run; the kit judges by replaying words: give the layer a "
                             "repeatable source of identifiers (a counter, a seeded generator) to check it")


def _nondeterministic(report: dict[str, Any], e: Nondeterministic, spec: str | None,
                      caps: Capabilities) -> dict[str, Any]:
    outs = _planned(e.calls)
    w: dict[str, Any] = {"word": [call_to_json(c) for c in e.calls], "calls": python_calls(e.calls, outs),
         "after": store_to_json(e.expected), "after_again": store_to_json(e.got), "length": len(e.calls),
         "minimality": "the first word replayed",
         "replay": replay_script(spec, [("the word on a fresh layer", e.calls, outs),
                                        (("the same word on another fresh layer (if both print the same, run this "
                                         "file again: the difference may come from the clock or a random draw)"),
                                         e.calls, outs)], valid_time=caps.has("valid_time"))}
    text, data = difference({"outputs": [], "after": w["after"]}, {"outputs": [], "after": w["after_again"]},
                            "first", "second")
    w["offending"] = data
    w["explanation"] = (f"the same word, run on two fresh layers, showed different stores ({text}): the layer "
                        "depends on something besides the calls (a clock, randomness, state shared between layers)")
    rest = "not judged: the layer showed different stores for the same word, and the kit judges by replaying words"
    report["clauses"] = {k: (clause_entry(k, False, 1, w["explanation"], w) if k == "L5"
                             else clause_entry(k, None, 0, rest))
                         for k in ("L1", "L2", "L3", "L4i", "L4ii", "L5", "L6", "L7", "S1", "S2", "S3", "S4")}
    return report


def conform(factory: Callable[[], Any] | str, *, length: int = 3, walks: int = 200, seed: int = 0,
            walk_length: int = WALK_LENGTH, orders: bool = True) -> dict[str, Any]:
    """Explore a memory layer and judge every clause of Table 2 (see :mod:`coalg.conformance`).

    ``factory`` is a factory or its ``MODULE:ATTR``.  Every word of up to
    ``length`` calls from a fresh layer is judged, then ``walks`` seeded walks
    of ``walk_length`` calls (:mod:`~coalg.conformance.judge`); L6 searches the
    recording histories of up to ``min(length, 3)`` calls and ``walks`` random
    ones (its histories double with each call); L5 runs the exploration again
    in two child interpreters (:mod:`~coalg.conformance.order`), which
    ``orders=False`` leaves out (L5 is then judged on prefixes only).  Raises
    :class:`~coalg.conformance.protocol.BadLayer` when the layer cannot be
    checked.
    """
    spec = factory if isinstance(factory, str) else factory_spec(factory)
    make = load_factory(factory) if isinstance(factory, str) else factory
    caps = inspect_layer(make)
    name = spec or str(getattr(make, "__qualname__", "layer"))
    report: dict[str, Any] = {"layer": name, "capabilities": list(caps.names),
                              "budget": {"length": length, "walks": walks, "walk_length": walk_length, "seed": seed},
                              "clauses": {}}
    bb = BlackBox(make, caps, name)
    runner = Replay(make, caps, name)  # the runs a witness cites, each made word for word
    judge = Judge(bb)
    try:
        judge.run(length, walks, walk_length, seed)
        clauses = _step_entries(judge, bb, runner, spec)
        v6 = _l6(bb, runner, length, walks, seed)
        clauses["L6"] = _l6_entry(v6.holds, v6.explored, v6.summary, v6.witness, bb, runner, spec)
    except Nondeterministic as e:
        bb.release()
        runner.close()
        _least_of_random(caps)
        return _nondeterministic(report, e, spec, caps)
    order, why_not = None, ""
    if not orders:
        why_not = "the runs in child interpreters were not asked for"
    elif spec is None:
        why_not = ("the hash-seed and insertion-order runs import the factory by name in child interpreters, and "
                   "this factory cannot be imported by name (define it at module level)")
    else:
        try:
            order = across_interpreters(spec, length, walks, walk_length, seed)
        except (RuntimeError, OSError, ValueError, subprocess.SubprocessError) as err:
            why_not = str(err)
    try:
        clauses["L5"] = _l5_entry(judge, bb, runner, spec, caps, order, why_not)
    except Nondeterministic as e:
        _least_of_random(caps)
        return _nondeterministic(report, e, spec, caps)
    finally:
        bb.release()
        runner.close()
    report["clauses"] = {k: clauses[k] for k in ("L1", "L2", "L3", "L4i", "L4ii", "L5", "L6", "L7",
                                                  "S1", "S2", "S3", "S4")}
    return report


def check_layer(factory: Callable[[], Any] | str, *, length: int = 3, walks: int = 200, seed: int = 0,
                orders: bool = True) -> dict[str, Any]:
    """Assert that a memory layer keeps every applicable law; the report when it does.

    For a test suite: ``def test_memory_laws(): check_layer(MyMemory)``.
    Raises :class:`LawViolation` (an ``AssertionError``) naming each failing
    clause with its witness and replay script, and
    :class:`~coalg.conformance.protocol.ProtocolMisuse` when the layer does
    not follow the protocol.
    """
    report = conform(factory, length=length, walks=walks, seed=seed, orders=orders)
    if exit_status(report):
        raise LawViolation(report)
    return report
