"""Benchmark (not a test): how many words the conformance kit explores per second, and a default run's time.

Run with ``PYTHONPATH=. python3 bench/conform_bench.py [--repeat N] [--skip-contextfs] [--full-contextfs]``.

For each layer -- a small dict-backed layer defined here (:class:`DictLayer`,
law-abiding, uuid identifiers) and the released ContextFS package through
:func:`coalg.conformance.examples.contextfs` -- it measures:

* **words/s**: the judged exploration in this interpreter (every word up to
  the length, then the walks, both alphabets, every step clause judged; L5's
  child interpreters and L6 left out), as words judged per second, with the
  layer calls per second behind them (replaying words costs calls);
* **default run**: :func:`coalg.conformance.conform` with the command line's
  defaults (``--length 3 --walks 200 --seed 0``), children and L6 included,
  wall-clock seconds (the dict layer always; the package with ``--full-contextfs``,
  which takes minutes).

Results go to ``bench/results/conform.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import time
import uuid
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from coalg.conformance import conform, inspect_layer
from coalg.conformance.blackbox import BlackBox
from coalg.conformance.examples import contextfs
from coalg.conformance.judge import Judge

OUT = Path(__file__).resolve().parent / "results" / "conform.json"
INVERSE = {"evolved_from": "evolved_into", "merged_from": "merged_into", "split_from": "split_into",
           "supersedes": "superseded_by"}


class DictLayer:
    """A small law-abiding memory layer on two dicts (what a user might write first)."""

    def __init__(self) -> None:
        self.recs: dict[str, dict[str, Any]] = {}
        self.links: set[tuple[str, str, str]] = set()

    def _new(self, content: str, like: dict[str, Any], vt: Any) -> str:
        i = uuid.uuid4().hex[:12]
        self.recs[i] = {"content": content, "type": like["type"], "namespace": like["namespace"],
                        "tags": list(like["tags"]), "valid_time": vt}
        return i

    def _link(self, a: str, rel: str, b: str) -> None:
        self.links |= {(a, rel, b), (b, INVERSE[rel], a)}

    def save(self, content: str, *, type: str = "fact", namespace: str = "global", tags: Sequence[str] = (),
             metadata: Any = None, valid_time: Any = None) -> str:
        return self._new(content, {"type": type, "namespace": namespace, "tags": sorted(tags)}, valid_time)

    def evolve(self, id: str, content: str, *, valid_time: Any = None) -> str:
        r = self.recs[id]
        j = self._new(content, r, r["valid_time"] if valid_time is None else valid_time)
        self._link(j, "evolved_from", id)
        return j

    def merge(self, ids: Sequence[str], *, valid_time: Any = None) -> str:
        rs = [self.recs[i] for i in ids]
        if len(set(ids)) < 2 or len({r["namespace"] for r in rs}) > 1:
            raise ValueError("merge distinct records of one namespace")
        like = {"type": min(r["type"] for r in rs), "namespace": rs[0]["namespace"],
                "tags": sorted({t for r in rs for t in r["tags"]})}
        j = self._new(" + ".join(r["content"] for r in rs), like, valid_time)
        for i in ids:
            self._link(j, "merged_from", i)
        return j

    def split(self, id: str, parts: Sequence[str], *, valid_time: Any = None) -> list[str]:
        r = self.recs[id]
        out = [self._new(p, r, r["valid_time"] if valid_time is None else valid_time) for p in parts]
        for j in out:
            self._link(j, "split_from", id)
        return out

    def supersede(self, old: str, new: str) -> None:
        if old not in self.recs or new not in self.recs or old == new:
            raise KeyError("supersede two distinct records")
        self._link(new, "supersedes", old)

    def delete(self, id: str) -> None:
        del self.recs[id]
        self.links = {e for e in self.links if id not in (e[0], e[2])}

    def records(self) -> dict[str, dict[str, Any]]:
        out = {}
        for i, r in self.recs.items():
            meta: dict[str, Any] = {}
            for a, rel, b in self.links:
                if a == i and rel in ("evolved_from", "split_from"):
                    meta[rel] = b
                elif a == i and rel == "merged_from":
                    meta.setdefault("merged_from", []).append(b)
            out[i] = {**r, "metadata": meta}
        return out

    def edges(self) -> list[tuple[str, str, str]]:
        return sorted(self.links)


def explore_rate(factory: Callable[[], Any], length: int, walks: int, repeat: int) -> dict[str, Any]:
    """Words judged per second in this interpreter (median of ``repeat``)."""
    rows = []
    for _ in range(repeat):
        caps = inspect_layer(factory)
        bb = BlackBox(factory, caps)
        judge = Judge(bb)
        t0 = time.perf_counter()
        judge.run(length, walks, 8, 0)
        dt = time.perf_counter() - t0
        rows.append((dt, judge.transitions, bb.calls, bb.sessions))
        bb.release()
    dt = statistics.median(r[0] for r in rows)
    _, words, calls, sessions = rows[-1]
    return {"length": length, "walks": walks, "seconds": round(dt, 3), "words": words, "layer_calls": calls,
            "fresh_layers": sessions, "words_per_second": round(words / dt, 1),
            "calls_per_second": round(calls / dt, 1)}


def default_run(factory: Callable[[], Any] | str) -> dict[str, Any]:
    t0 = time.perf_counter()
    report = conform(factory)
    dt = time.perf_counter() - t0
    return {"seconds": round(dt, 2), "holds": {k: e["holds"] for k, e in report["clauses"].items()}}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--skip-contextfs", action="store_true")
    ap.add_argument("--full-contextfs", action="store_true", help="also time the default run on the package")
    args = ap.parse_args()
    res: dict[str, Any] = {"machine": {"python": platform.python_version(), "cores": os.cpu_count(),
                                       "load_average": [round(x, 2) for x in os.getloadavg()]}}
    print("dict-backed layer (DictLayer):")
    res["dict"] = {"explore": [explore_rate(DictLayer, L, w, args.repeat) for L, w in ((2, 50), (3, 200))]}
    for r in res["dict"]["explore"]:
        print(f"  length {r['length']}, {r['walks']} walks: {r['words']} words in {r['seconds']} s = "
              f"{r['words_per_second']} words/s ({r['calls_per_second']} layer calls/s)")
    res["dict"]["default_run"] = default_run("conform_bench:DictLayer")
    print(f"  default run (coalg conform, children and L6 included): {res['dict']['default_run']['seconds']} s")
    if not args.skip_contextfs:
        print("released contextfs 0.2.35 (coalg.conformance.examples:contextfs):")
        res["contextfs"] = {"explore": [explore_rate(contextfs, L, w, 1) for L, w in ((2, 10), (3, 0))]}
        for r in res["contextfs"]["explore"]:
            print(f"  length {r['length']}, {r['walks']} walks: {r['words']} words in {r['seconds']} s = "
                  f"{r['words_per_second']} words/s ({r['calls_per_second']} package calls/s)")
        if args.full_contextfs:
            res["contextfs"]["default_run"] = default_run("coalg.conformance.examples:contextfs")
            print(f"  default run: {res['contextfs']['default_run']['seconds']} s")
    OUT.write_text(json.dumps(res, indent=2, sort_keys=True) + "\n")
    print(f"written to {OUT}")


if __name__ == "__main__":
    main()
