"""Benchmark (not a test): runs of the store coalgebra from 1,000 to 1,000,000 calls.

Run with ``PYTHONPATH=. python3 bench/store_bench.py [--out bench/results/store.json]
[--quick]``.  Takes about ten minutes on two cores; ``--quick`` runs small sizes only.

Every measurement runs in a fresh subprocess (so its peak memory is its own) and
times one call, ``run(EMPTY, word)`` or its equivalent, with the word built
beforehand.  The words (:mod:`coalg.model.workloads`):

* ``saves``: n fresh saves;
* ``mixed``: n calls, about 45% save, 20% evolve, 10% merge, 5% split,
  5% supersede and 15% delete, each naming live records.

The peers run the same words:

* ``model``: :func:`coalg.model.coalgebra.run` on persistent, indexed stores, keeping
  the word, the outputs and the final store (``model+states`` also keeps every
  intermediate store);
* ``dict``: a plain mutable baseline, one dict of records and a dict of edge sets
  by endpoint, doing the same record construction, no persistence and no trace;
* ``contextfs``: the real ContextFS 0.2.35 through its ``StorageRouter`` and
  ``MemoryLineage`` into SQLite, with the offline null vector backend
  (:class:`coalg.contextfs.LiveStore`), its identifiers substituted in creation order;
* ``before``: the model as it was before stores became persistent (commit
  ``BEFORE``, extracted with ``git archive``), on small sizes only: it is quadratic.

Rows of the model and the dict up to 100,000 calls are run three times and the
fastest run is reported (the one least disturbed by other work on the machine);
the others, and every row of a million calls, once.  A correctness gate compares
the final stores: every peer must end with the same
identifiers and the same edges (a digest), and no call may fail.  Each row has
wall and CPU seconds, operations per second, peak memory, and the machine's load
average around the run (other work on the machine slows the wall clock, not the
CPU time).  For saves, ``marginal_us`` is the cost per save of 20,000 more saves
into the store the run built: the cost of one operation *at* that size.
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import json
import os
import platform
import resource
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from io import BytesIO
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BEFORE = "c3860af"  # the last commit with dict-and-frozenset stores
SIZES = (1_000, 10_000, 100_000, 1_000_000)
PLAN: list[tuple[str, str, int]] = (
    [("model", k, n) for k in ("saves", "mixed") for n in SIZES]
    + [("dict", k, n) for k in ("saves", "mixed") for n in SIZES]
    + [("model+states", "mixed", n) for n in (10_000, 100_000)]
    + [("contextfs", k, n) for k in ("saves", "mixed") for n in (1_000, 10_000)]
    + [("before", "saves", n) for n in (1_000, 2_000, 4_000)]
)
QUICK: list[tuple[str, str, int]] = [
    (p, k, n) for p in ("model", "dict", "contextfs") for k in ("saves", "mixed") for n in (500, 2_000)
] + [("model+states", "mixed", 2_000), ("before", "saves", 500)]
MARGINAL = 20_000


# --------------------------------------------------------------------------- helpers


def rss_mb() -> float:
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def digest(ids: Iterable[str], edges: Iterable[tuple[str, str, str]]) -> str:
    h = hashlib.sha256()
    for i in sorted(ids):
        h.update(i.encode() + b"\0")
    h.update(b"\1")
    for e in sorted(edges):
        h.update("\0".join(e).encode() + b"\1")
    return h.hexdigest()[:16]


def timed(fn: Any) -> tuple[Any, float, float]:
    gc.collect()
    w, c = time.perf_counter(), time.process_time()
    out = fn()
    return out, time.perf_counter() - w, time.process_time() - c


def the_word(kind: str, n: int) -> list[Any]:
    from coalg.model.workloads import mixed_word, saves

    return saves(n) if kind == "saves" else mixed_word(n, seed=1)


# --------------------------------------------------------------------------- peers


def measure_model(kind: str, n: int, keep: bool) -> dict[str, Any]:
    from coalg.model import EMPTY, Created, Err, Oracle, run
    from coalg.model.workloads import created_ids, saves

    word = the_word(kind, n)
    before = rss_mb()
    t, wall, cpu = timed(lambda: run(EMPTY, word, keep_states=keep))
    peak = peak_mb()
    made = [o.ids for o in t.outputs if isinstance(o, Created)]
    ok = not any(isinstance(o, Err) for o in t.outputs) and made == [c for c in created_ids(word) if c]
    s = t.final
    row = {"wall_s": wall, "cpu_s": cpu, "peak_mb": peak, "word_mb": before, "ok": ok,
           "records": len(s.records), "edges": len(s.edges),
           "digest": digest(s.records, ((e.source, e.relation.value, e.target) for e in s.edges))}
    if keep:
        row["states"] = len(t.states)
    if kind == "saves" and not keep:
        more = saves(MARGINAL)
        oracle = Oracle(prefix="m", clock=s.latest_clock())
        _, w2, c2 = timed(lambda: run(s, more, oracle=oracle))
        row["marginal_us"] = w2 / MARGINAL * 1e6
        row["marginal_cpu_us"] = c2 / MARGINAL * 1e6
    return row


class DictStore:
    """The plain mutable baseline: records in a dict, edges in sets by endpoint, changed in place."""

    def __init__(self) -> None:
        self.records: dict[str, Any] = {}
        self.inc: dict[str, set[tuple[str, str, str]]] = {}
        self.made = 0
        self.clock = 0

    def new_id(self) -> str:
        self.made += 1
        return f"id{self.made:04d}"

    def link(self, x: str, r: str, y: str, inv: str) -> None:
        for e in ((x, r, y), (y, inv, x)):
            self.inc.setdefault(e[0], set()).add(e)
            self.inc.setdefault(e[2], set()).add(e)

    def apply(self, a: Any) -> None:
        from coalg.model import Record

        self.clock += 1
        tau, k = self.clock, a.kind
        if k == "save":
            r = a.record
            self.records[self.new_id()] = Record(r.content, r.type, r.namespace, r.tags, r.summary, r.metadata,
                                                 tau, tau)
        elif k == "evolve":
            p, j = self.records[a.id], self.new_id()
            self.records[j] = Record(a.content, p.type, p.namespace, p.tags | {"evolved"}, p.summary,
                                     p.metadata.merged({"evolved_from": a.id, "evolution_timestamp": tau}), tau, tau)
            self.link(j, "evolved_from", a.id, "evolved_into")
        elif k == "merge":
            ps, j = [self.records[i] for i in a.ids], self.new_id()
            self.records[j] = Record("\n\n".join(p.content for p in ps), ps[0].type, ps[0].namespace,
                                     frozenset().union(*(p.tags for p in ps)) | {"merged"}, None,
                                     ps[0].metadata.merged({"merged_from": list(a.ids), "merge_timestamp": tau}),
                                     tau, tau)
            for i in a.ids:
                self.link(j, "merged_from", i, "merged_into")
        elif k == "split":
            p = self.records[a.id]
            for c in a.contents:
                j = self.new_id()
                self.records[j] = Record(c, p.type, p.namespace, p.tags | {"split"}, None,
                                         p.metadata.merged({"split_from": a.id, "split_timestamp": tau}), tau, tau)
                self.link(j, "split_from", a.id, "split_into")
        elif k == "supersede":
            self.link(a.new, "supersedes", a.old, "superseded_by")
        elif k == "delete":
            del self.records[a.id]
            for e in self.inc.pop(a.id, set()):
                other = e[2] if e[0] == a.id else e[0]
                if other in self.inc:
                    self.inc[other].discard(e)
                    if not self.inc[other]:
                        del self.inc[other]


def measure_dict(kind: str, n: int) -> dict[str, Any]:
    word = the_word(kind, n)
    before = rss_mb()

    def go() -> DictStore:
        d = DictStore()
        for a in word:
            d.apply(a)
        return d

    d, wall, cpu = timed(go)
    edges = {e for es in d.inc.values() for e in es}
    return {"wall_s": wall, "cpu_s": cpu, "peak_mb": peak_mb(), "word_mb": before, "ok": True,
            "records": len(d.records), "edges": len(edges), "digest": digest(d.records, edges)}


def measure_contextfs(kind: str, n: int) -> dict[str, Any]:
    from coalg.contextfs import LiveStore
    from coalg.model.workloads import created_ids

    word = the_word(kind, n)
    live = LiveStore.open(f"bench-{kind}-{n}.db")
    theirs: dict[str, str] = {}

    def go() -> bool:
        ok = True
        for a, made in zip(word, created_ids(word)):
            k = a.kind
            if k == "save":
                r = a.record
                got = [live.save(r.content, type=r.type, namespace=r.namespace).id]
            elif k == "evolve":
                got = [live.evolve(theirs[a.id], a.content).id]
            elif k == "merge":
                got = [live.merge([theirs[i] for i in a.ids]).id]
            elif k == "split":
                got = [m.id for m in live.split(theirs[a.id], list(a.contents))]
            elif k == "supersede":
                got = []
                ok = live.supersede(theirs[a.old], theirs[a.new]) is not None and ok
            else:
                got = []
                ok = live.delete(theirs[a.id]) and ok
            ok = ok and len(got) == len(made)
            theirs.update(zip(made, got))
        return ok

    ok, wall, cpu = timed(go)
    ours = {v: k for k, v in theirs.items()}
    ids = [ours[i] for (i,) in live.sql("SELECT id FROM memories")]
    edges = [(ours[a], r, ours[b]) for a, r, b in live.sql("SELECT from_id, relation, to_id FROM memory_edges")]
    return {"wall_s": wall, "cpu_s": cpu, "peak_mb": peak_mb(), "ok": ok, "records": len(ids),
            "edges": len(edges), "digest": digest(ids, edges)}


def measure_before(n: int) -> dict[str, Any]:
    from coalg.model import EMPTY, Record, Save, run  # the old package: PYTHONPATH points at it

    word = [Save(Record(f"note {k}", type=("fact", "decision", "episodic", "procedural")[k % 4],
                        namespace=("alice", "bob", "carol", "dave")[k % 4])) for k in range(n)]
    t, wall, cpu = timed(lambda: run(EMPTY, word))
    s = t.final
    return {"wall_s": wall, "cpu_s": cpu, "peak_mb": peak_mb(), "ok": len(s.records) == n,
            "records": len(s.records), "edges": len(s.edges),
            "digest": digest(s.records, ((e.source, e.relation.value, e.target) for e in s.edges))}


def one(peer: str, kind: str, n: int) -> dict[str, Any]:
    load = os.getloadavg()[0]
    if peer in ("model", "model+states"):
        row = measure_model(kind, n, keep=peer == "model+states")
    elif peer == "dict":
        row = measure_dict(kind, n)
    elif peer == "contextfs":
        row = measure_contextfs(kind, n)
    else:
        row = measure_before(n)
    row = {"peer": peer, "word": kind, "n": n, **row, "load_before": load, "load_after": os.getloadavg()[0]}
    row["ops_per_s"] = n / row["wall_s"]
    row["us_per_op"] = row["wall_s"] / n * 1e6
    row["cpu_us_per_op"] = row["cpu_s"] / n * 1e6
    return {k: round(v, 3) if isinstance(v, float) else v for k, v in row.items()}


# --------------------------------------------------------------------------- driver


def before_tree(into: Path) -> Path:
    blob = subprocess.run(["git", "-C", str(ROOT), "archive", BEFORE, "coalg"], capture_output=True, check=True)
    with tarfile.open(fileobj=BytesIO(blob.stdout)) as tar:
        tar.extractall(into, filter="data")
    return into


def spawn(peer: str, kind: str, n: int, before: Path | None) -> dict[str, Any]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(before if peer == "before" and before else ROOT)
    cmd = [sys.executable, str(Path(__file__).resolve()), "--one", peer, kind, str(n)]
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=ROOT, timeout=3600, check=False)
    if p.returncode != 0:
        raise RuntimeError(f"{peer} {kind} {n} failed: {p.stderr.strip()[-1500:]}")
    return json.loads(p.stdout.strip().splitlines()[-1])


def reps(peer: str, n: int) -> int:
    """Fast rows are run three times and the fastest is kept; slow ones (and 1M) once."""
    return 3 if peer in ("model", "model+states", "dict") and n <= 100_000 else 1


def find(rows: Sequence[dict[str, Any]], peer: str, kind: str, n: int) -> dict[str, Any] | None:
    return next((r for r in rows if (r["peer"], r["word"], r["n"]) == (peer, kind, n)), None)


def targets(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []

    def target(name: str, value: float | None, limit: float, unit: str, below: bool = True) -> None:
        if value is not None:
            met = value < limit if below else value >= limit
            out.append({"target": name, "value": round(value, 3), "limit": limit, "unit": unit, "met": met})

    def get(peer: str, kind: str, n: int, key: str) -> float | None:
        r = find(rows, peer, kind, n)
        return None if r is None else r[key]

    target("100,000 saves", get("model", "saves", 100_000, "wall_s"), 3, "s")
    target("mixed word of 100,000 calls", get("model", "mixed", 100_000, "wall_s"), 10, "s")
    target("1,000,000 saves", get("model", "saves", 1_000_000, "wall_s"), 40, "s")
    target("1,000,000 saves: peak memory", get("model", "saves", 1_000_000, "peak_mb"), 2048, "MB")
    a, b = get("model", "saves", 1_000_000, "us_per_op"), get("model", "saves", 10_000, "us_per_op")
    target("cost per save, 1M run / 10k run", a / b if a and b else None, 1.5, "×")
    a, b = get("model", "saves", 1_000_000, "marginal_us"), get("model", "saves", 10_000, "marginal_us")
    target("cost of a save at 1M records / at 10k", a / b if a and b else None, 1.5, "×")
    for kind in ("saves", "mixed"):
        a, b = get("model", kind, 10_000, "ops_per_s"), get("contextfs", kind, 10_000, "ops_per_s")
        target(f"model / ContextFS operations per second ({kind}, 10,000)", a / b if a and b else None, 10, "×",
               below=False)
    return out


def machine() -> dict[str, Any]:
    cpu = next((ln.split(":", 1)[1].strip() for ln in Path("/proc/cpuinfo").read_text().splitlines()
                if ln.startswith("model name")), "")
    head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True,
                          text=True, check=False).stdout.strip()
    return {"cores": os.cpu_count(), "cpu": cpu, "python": platform.python_version(),
            "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"), "commit": head or None}


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=str(ROOT / "bench" / "results" / "store.json"))
    ap.add_argument("--quick", action="store_true", help="small sizes only (a smoke test)")
    ap.add_argument("--one", nargs=3, metavar=("PEER", "WORD", "N"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.one:
        print(json.dumps(one(args.one[0], args.one[1], int(args.one[2]))))
        return 0
    plan = QUICK if args.quick else PLAN
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        before = before_tree(Path(tmp))
        for peer, kind, n in plan:
            tries = [spawn(peer, kind, n, before) for _ in range(reps(peer, n))]
            row = min(tries, key=lambda r: r["wall_s"])  # the run least disturbed by other work
            row = {**row, "reps": len(tries), "walls_s": [r["wall_s"] for r in tries],
                   "peak_mb": max(r["peak_mb"] for r in tries), "ok": all(r["ok"] for r in tries)}
            rows.append(row)
            print(f"{peer:13} {kind:6} {n:>9,}  {row['wall_s']:8.2f} s wall {row['cpu_s']:8.2f} s cpu "
                  f"{row['us_per_op']:8.1f} us/op {row['peak_mb']:8.0f} MB  load {row['load_before']:.1f}"
                  f"{'' if row['ok'] else '  FAILED'}", flush=True)
    problems = [f"{r['peer']} {r['word']} {r['n']}: a call failed" for r in rows if not r["ok"]]
    for kind in ("saves", "mixed"):
        for n in sorted({r["n"] for r in rows if r["word"] == kind}):
            ds = {r["digest"] for r in rows if r["word"] == kind and r["n"] == n and r["peer"] != "before"}
            if len(ds) > 1:
                problems.append(f"{kind} {n}: the peers' final stores differ")
    result = {"machine": machine(), "before_commit": BEFORE, "marginal_saves": MARGINAL, "rows": rows,
              "targets": targets(rows), "ok": not problems, "problems": problems}
    Path(args.out).write_text(json.dumps(result, indent=1) + "\n")
    for t in result["targets"]:
        print(f"{'met ' if t['met'] else 'MISS'} {t['target']}: {t['value']} {t['unit']} (limit {t['limit']})")
    for p in problems:
        print("PROBLEM", p, file=sys.stderr)
    return 0 if not problems else 1


if __name__ == "__main__":
    sys.exit(main())
