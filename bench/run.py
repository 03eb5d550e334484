"""The performance benchmark (issue 8): bisimilarity and lineage unfolding against the peers.

Run with ``python bench/run.py [--quick] [--sizes 100k/500k 1m/5m] [--reps 3]
[--out bench/results/results.json]``.

Inputs are generated deterministically (``bench/gen_lts.py``: random LTS, deep
chains pure and with 10 % extra edges, c identical copies, payload-labelled
stores, id-permuted and perturbed copies) into ``--workdir`` and reused.  Every
peer available runs on the same bytes, one at a time:

bisimilarity
    ``ours`` (``python -m coalg bisim FILE --json`` as a subprocess: end-to-end
    wall time and peak RSS from ``os.wait4``); ``cpp-incr`` (the compiled
    reference, ``shared/bench/cpp_refine.cpp`` built with ``g++ -O2`` into a
    temporary directory, if g++ and the source are there); ``naive``
    (:func:`coalg.bisim.partition.naive_partition`, small inputs only); ``bispy``
    (Paige--Tarjan, when ``BISPY_PY`` names a Python with ``bispy``, at most
    ``BISPY_MAX`` = 100,000 states); ``mcrl2`` (``ltsconvert -ebisim`` if on
    ``PATH``).
ancestry
    ``ours`` (:class:`coalg.model.index.LineageIndex`), ``scipy``
    (``scipy.sparse.csgraph.breadth_first_order``, the reference),
    ``networkx`` (``nx.descendants``; skipped above 2.6M edges), ``sqlite``
    (a recursive CTE).  Per-query milliseconds, averaged over the queries.

Correctness gate: all peers must agree on class counts (bisimilarity), on the
expected verdict of the permuted/perturbed comparisons, and on every answer size
(ancestry); any disagreement makes the run exit 1.  The table shows medians of
``--reps`` runs and ratios to the compiled reference; the JSON also records the
machine.  Python peers run as subprocesses of this script (``--peer``), so this
file imports only the standard library at the top.

Before measuring, ``coalg``'s modules are byte-compiled (``compileall``), as
``pip`` does when it installs a package: where ``PYTHONDONTWRITEBYTECODE`` is
set (as in our sandbox and CI) every run would otherwise recompile them.  The
JSON also records *start-up floors* -- a bare ``python -c pass``, ``import
numpy``, and BisPy's interpreter importing ``networkx`` and ``bispy`` -- since
on small inputs they are most of every peer's time.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
CPP_SRC = [ROOT.parent / "shared" / "bench" / "cpp_refine.cpp", HERE / "cpp_refine.cpp"]


# --------------------------------------------------------------------------- helpers


def parse_size(text: str) -> tuple[int, int]:
    def num(x: str) -> int:
        x = x.lower()
        mult = {"k": 1_000, "m": 1_000_000}.get(x[-1], 1)
        return int(float(x[:-1] if x[-1] in "km" else x) * mult)

    n, _, m = text.partition("/")
    return num(n), num(m or str(5 * num(n)))


def run_measured(cmd: list[str], timeout: float = 600) -> tuple[float, float, str]:
    """Run ``cmd``: (wall seconds, peak RSS MB, stdout).

    The peak RSS comes from ``/usr/bin/time`` when it exists (``os.wait4``'s
    ``ru_maxrss`` would count the pages of this Python process inherited at the
    fork, a floor of ~35 MB), else from ``os.wait4``.
    """
    timer = "/usr/bin/time" if os.path.exists("/usr/bin/time") else None
    with tempfile.TemporaryDirectory() as td:
        wall, rss, out = _wait_measured(
            ([timer, "-f", "%M", "-o", td + "/rss"] + cmd) if timer else cmd, timeout
        )
        if timer:
            rss = int(Path(td + "/rss").read_text().split()[-1]) / 1024.0
    return wall, rss, out


def _wait_measured(cmd: list[str], timeout: float) -> tuple[float, float, str]:
    with tempfile.TemporaryFile("w+") as fo, tempfile.TemporaryFile("w+") as fe:
        t0 = time.perf_counter()
        p = subprocess.Popen(cmd, stdout=fo, stderr=fe, text=True)
        deadline = t0 + timeout
        while True:
            pid, status, ru = os.wait4(p.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() > deadline:
                p.kill()
                os.wait4(p.pid, 0)
                raise TimeoutError(" ".join(cmd[:4]))
            time.sleep(0.002)
        wall = time.perf_counter() - t0
        p.returncode = os.waitstatus_to_exitcode(status)
        fo.seek(0)
        fe.seek(0)
        out, err = fo.read(), fe.read()
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd[:4])} failed ({p.returncode}): {err.strip()[-500:]}")
    return wall, ru.ru_maxrss / 1024.0, out


def machine() -> dict[str, object]:
    cpu = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = 0.0
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal"):
                mem = int(line.split()[1]) / 1024 / 1024
    except OSError:
        pass
    info: dict[str, object] = {
        "cores": os.cpu_count(),
        "memory_gib": round(mem, 1),
        "cpu": cpu,
        "os": platform.platform(),
        "python": platform.python_version(),
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
    }
    try:
        import numpy
        import scipy

        info["numpy"], info["scipy"] = numpy.__version__, scipy.__version__
    except ImportError:
        pass
    gxx = shutil.which("g++")
    if gxx:
        info["gxx"] = subprocess.run([gxx, "--version"], capture_output=True, text=True, check=False).stdout.splitlines()[0]
    return info


# --------------------------------------------------------------------------- peers run as subprocesses


def peer_main(peer: str, path: str, extra: list[str]) -> None:
    """``--peer NAME FILE``: run one in-Python peer and print one JSON line."""
    if peer == "naive":
        sys.path.insert(0, str(ROOT))
        from coalg.bisim import naive_partition, read_aut

        a = read_aut(path)
        part = naive_partition(a.n_states, None, list(a.transitions()))
        print(json.dumps({"classes": max(part) + 1}))
    elif peer == "bispy":  # runs under BISPY_PY: stdlib + bispy + networkx only
        import threading

        sys.setrecursionlimit(10**7)
        threading.stack_size(1 << 29)
        res: dict[str, int] = {}

        def work() -> None:
            import networkx as nx
            from bispy import Algorithms, compute_maximum_bisimulation

            with open(path) as f:
                n = int(f.readline().split(",")[2].rstrip(")\n "))
                trans = []
                for line in f:
                    s, rest = line[1:].split(",", 1)
                    a, t = rest.rsplit(",", 1)
                    trans.append((int(s), a, int(t.rstrip(")\n "))))
            # one node per distinct (label, target) pair: s -> (a, t) -> t
            pair: dict[tuple[str, int], int] = {}
            g = nx.DiGraph()
            g.add_nodes_from(range(n))
            by_label: dict[str, list[int]] = {}
            for s, a, t in trans:
                k = pair.get((a, t))
                if k is None:
                    k = pair[(a, t)] = n + len(pair)
                    by_label.setdefault(a, []).append(k)
                    g.add_edge(k, t)
                g.add_edge(s, k)
            part = [tuple(range(n))] + [tuple(v) for v in by_label.values()]
            blocks = compute_maximum_bisimulation(g, part, algorithm=Algorithms.PaigeTarjan)
            res["classes"] = sum(1 for b in blocks if min(b) < n)

        th = threading.Thread(target=work)
        th.start()
        th.join()
        print(json.dumps(res))
    else:
        raise SystemExit(f"unknown peer {peer}")


# --------------------------------------------------------------------------- bisimilarity


def bisim_inputs(n: int, m: int, work: Path) -> list[dict[str, object]]:
    """Generate (or reuse) the .aut files of one size."""
    sys.path.insert(0, str(HERE))
    import gen_lts as G

    specs = [
        ("random", "random", n, m, {}),
        ("copies10", "copies", n, m, {}),
        ("chain", "chain", n, n - 1, {}),
        ("chain/10", "chain", max(2, n // 10), max(2, n // 10) - 1, {}),
        ("chain+10%", "chain", n, n - 1 + n // 10, {}),
        ("payload", "payload", n, m, {"payload": True}),
    ]
    out = []
    for name, shape, nn, mm, opts in specs:
        path = work / f"{name.replace('/', '_').replace('+', 'x').replace('%', '')}_{nn}_{mm}.aut"
        perm, pert = work / f"perm_{nn}_{mm}.aut", work / f"pert_{nn}_{mm}.aut"
        pair = name == "random"  # and the allocation-blind pair: permuted, perturbed
        if not path.exists() or (pair and not (perm.exists() and pert.exists())):
            N, edges = G.generate(shape, nn, mm)
            G.write_aut(path, N, edges)
            if pair:
                init, pe = G.permute(N, edges, seed=5)
                G.write_aut(perm, N, pe, init)
                init, pe = G.permute(N, edges, seed=5, perturb=1)
                G.write_aut(pert, N, pe, init)
        out.append({"input": name, "shape": shape, "states": nn, "transitions": mm, "path": str(path), **opts})
    base = work / f"random_{n}_{m}.aut"
    for name, other, expect in (("random vs permuted", "perm", True), ("random vs perturbed", "pert", False)):
        out.append({"input": name, "shape": "compare", "states": 2 * n, "transitions": 2 * m,
                    "path": str(base), "other": str(work / f"{other}_{n}_{m}.aut"), "expect": expect})
    return out


def bisim_peers(inp: dict[str, object], cpp: str | None) -> list[tuple[str, list[str]]]:
    py = sys.executable
    path = str(inp["path"])
    n = int(inp["states"])  # type: ignore[arg-type]
    peers: list[tuple[str, list[str]]] = []
    cmd = [py, "-m", "coalg", "bisim", path, "--json"]
    if "other" in inp:
        cmd.insert(5, str(inp["other"]))
    if inp.get("payload"):
        cmd += ["--payload-prefix", "rec:"]
    peers.append(("ours", cmd))
    if "other" in inp:
        return peers
    if cpp:
        peers.append(("cpp-incr", [cpp, "incr", path]))
    if n <= 20_000 and not (inp["shape"] == "chain" and n > 2_000):
        peers.append(("naive", [py, __file__, "--peer", "naive", path]))
    bispy = os.environ.get("BISPY_PY")
    if bispy and n <= int(os.environ.get("BISPY_MAX", "100000")):
        peers.append(("bispy-pt", [bispy, __file__, "--peer", "bispy", path]))
    if shutil.which("ltsconvert"):
        peers.append(("mcrl2", ["ltsconvert", "--no-reach", "-ebisim", path, path + ".min.aut"]))
    return peers


def classes_of(peer: str, out: str, inp: dict[str, object]) -> object:
    if peer == "mcrl2":
        with open(str(inp["path"]) + ".min.aut") as f:
            return int(f.readline().split(",")[2].rstrip(")\n "))
    d = json.loads(out.strip().splitlines()[-1])
    if "bisimilar" in d:
        return d["bisimilar"]
    return d["classes"]


def run_bisim(sizes: list[tuple[int, int]], reps: int, work: Path, cpp: str | None,
              log: list[str]) -> tuple[list[dict[str, object]], bool]:
    rows: list[dict[str, object]] = []
    ok = True
    for n, m in sizes:
        for inp in bisim_inputs(n, m, work):
            answers: dict[str, object] = {}
            block = []
            for peer, cmd in bisim_peers(inp, cpp):
                reps_here = 1 if peer.startswith("bispy") else reps
                walls, rss = [], []
                ans: object = None
                for _ in range(reps_here):
                    w, r, out = run_measured(cmd)
                    walls.append(w)
                    rss.append(r)
                    ans = classes_of(peer, out, inp)
                answers[peer] = ans
                block.append({"input": inp["input"], "shape": inp["shape"], "states": inp["states"],
                              "transitions": inp["transitions"], "peer": peer,
                              "seconds": statistics.median(walls), "runs": walls,
                              "rss_mb": round(max(rss), 1), "answer": ans})
            ref = next((b["seconds"] for b in block if b["peer"] == "cpp-incr"), None)
            for b in block:
                b["ratio"] = None if ref is None else round(float(b["seconds"]) / float(ref), 2)  # type: ignore[arg-type]
            agree = len({json.dumps(v) for v in answers.values()}) == 1
            if "expect" in inp:
                agree = answers.get("ours") == inp["expect"]
            if not agree:
                ok = False
                log.append(f"DISAGREEMENT on {inp['input']} {n}/{m}: {answers}")
            for b in block:
                b["agree"] = agree
            rows += block
            print_rows(block)
    return rows, ok


# --------------------------------------------------------------------------- ancestry


def anc_graph(kind: str, n: int, m: int, seed: int = 11):
    """Edge arrays (child -> parent: 'derived from', ids decreasing) and labels 0..3."""
    import numpy as np

    rng = np.random.default_rng(seed)
    if kind == "chain":
        src = np.arange(1, n, dtype=np.int64)
        return src, src - 1, np.zeros(n - 1, dtype=np.int64)
    child = np.arange(1, n, dtype=np.int64)
    parent = (rng.random(n - 1) * child).astype(np.int64)  # a random recursive tree
    extra = m - (n - 1)
    c2 = rng.integers(1, n, size=extra)
    p2 = (rng.random(extra) * c2).astype(np.int64)
    src = np.concatenate([child, c2])
    dst = np.concatenate([parent, p2])
    return src, dst, rng.integers(0, 4, size=src.size)


def run_ancestry(sizes: list[tuple[int, int]], reps: int, log: list[str], quick: bool) -> tuple[list[dict[str, object]], bool]:
    import sqlite3

    import numpy as np
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import breadth_first_order

    sys.path.insert(0, str(ROOT))
    from coalg.model import LineageIndex

    try:
        import networkx as nx
    except ImportError:  # pragma: no cover
        nx = None
    rows: list[dict[str, object]] = []
    ok = True
    n_chain = 1_000 if quick else 100_000
    cases = []
    for n, m in sizes:
        cases += [("dag, 1 of 4 labels", "dag", n, m, 1, "ancestors"),  # small answers
                  ("dag, 2 of 4 labels", "dag", n, m, 2, "ancestors"),
                  ("dag, all labels", "dag", n, m, 4, "ancestors"),
                  ("dag, all labels", "dag", n, m, 4, "descendants")]
    cases.append(("deep chain", "chain", n_chain, n_chain - 1, 4, "ancestors"))
    for name, kind, n, m, keep, direction in cases:
        src, dst, lab = anc_graph(kind, n, m)
        sel = lab < keep
        s, t = src[sel], dst[sel]
        if direction == "descendants":
            s, t = t, s
        rng = np.random.default_rng(3)
        if kind == "chain":
            queries = [n - 1] * 5
        elif direction == "ancestors":
            queries = rng.integers(n - n // 10, n, size=10 if keep == 4 else 50 if keep == 2 else 200).tolist()
        else:  # from the middle tenth: descendant sets of all sizes
            queries = rng.integers(n // 2, n // 2 + max(1, n // 10), size=50).tolist()
        peers = {}
        t0 = time.perf_counter()
        ix = LineageIndex.from_arrays(n, s, t, t, s)
        peers["ours"] = (time.perf_counter() - t0, lambda q, ix=ix: len(ix.ancestors(q)))
        t0 = time.perf_counter()
        mat = csr_matrix((np.ones(s.size, dtype=np.int8), (s, t)), shape=(n, n))
        mat.sum_duplicates()
        peers["scipy"] = (time.perf_counter() - t0,
                          lambda q, mat=mat: len(breadth_first_order(mat, q, directed=True, return_predecessors=False)) - 1)
        if nx is not None and s.size <= 2_600_000:
            t0 = time.perf_counter()
            G = nx.DiGraph()
            G.add_nodes_from(range(n))
            G.add_edges_from(zip(s.tolist(), t.tolist()))
            peers["networkx"] = (time.perf_counter() - t0, lambda q, G=G: len(nx.descendants(G, q)))
        t0 = time.perf_counter()
        db = sqlite3.connect(":memory:")
        db.execute("CREATE TABLE e(s INTEGER, t INTEGER)")
        db.executemany("INSERT INTO e VALUES (?, ?)", zip(s.tolist(), t.tolist()))
        db.execute("CREATE INDEX es ON e(s, t)")
        sql = ("WITH RECURSIVE r(x) AS (SELECT t FROM e WHERE s = ? UNION "
               "SELECT e.t FROM e JOIN r ON e.s = r.x) SELECT count(*) FROM r")
        peers["sqlite"] = (time.perf_counter() - t0, lambda q, db=db, sql=sql: db.execute(sql, (q,)).fetchone()[0])
        sizes_of: dict[str, list[int]] = {}
        block = []
        for peer, (setup, fn) in peers.items():
            qs = queries if peer != "sqlite" or kind != "chain" else queries[:1]
            per = []
            for _ in range(reps):
                t0 = time.perf_counter()
                got = [fn(q) for q in qs]
                per.append((time.perf_counter() - t0) / len(qs))
            sizes_of[peer] = got
            block.append({"input": name, "direction": direction, "states": n, "edges": int(s.size),
                          "peer": peer, "ms_per_query": statistics.median(per) * 1e3,
                          "setup_s": round(setup, 3), "avg_answer": sum(got) / len(got)})
        db.close()
        ref = next(b["ms_per_query"] for b in block if b["peer"] == "scipy")
        base = sizes_of["ours"]
        agree = all(v == base[: len(v)] for v in sizes_of.values())
        if not agree:
            ok = False
            log.append(f"DISAGREEMENT on ancestry {name} {direction} {n}: "
                       + str({k: v[:5] for k, v in sizes_of.items()}))
        for b in block:
            b["ratio"] = round(float(b["ms_per_query"]) / float(ref), 2)  # type: ignore[arg-type]
            b["agree"] = agree
        rows += block
        for b in block:
            print(f"  {b['input'][:20]:<20} {b['direction'][:4]} {b['states']:>9,} {b['edges']:>10,} "
                  f"{b['peer']:<9} {b['ms_per_query']:>9.3f} ms {b['ratio']:>7.2f}x  "
                  f"setup {b['setup_s']:>6.2f}s  avg {b['avg_answer']:>10,.0f}", flush=True)
    return rows, ok


# --------------------------------------------------------------------------- main


def print_rows(block: list[dict[str, object]]) -> None:
    for b in block:
        ratio = "" if b["ratio"] is None else f"{b['ratio']:>7.2f}x"
        print(f"  {str(b['input'])[:20]:<20} {b['states']:>9,} {b['transitions']:>10,} {b['peer']:<9} "
              f"{b['seconds']:>8.3f} s {ratio:>8} {b['rss_mb']:>8.1f} MB  -> {b['answer']}", flush=True)


def compile_bytecode() -> None:
    """Byte-compile coalg (what an installed package has) so no run pays for compiling."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "coalg")], check=True)


def startup_floors(reps: int) -> dict[str, float]:
    """Median wall seconds of interpreters that start and do (almost) nothing."""
    cmds = {
        "python": [sys.executable, "-c", "pass"],
        "python + import numpy": [sys.executable, "-c", "import numpy"],
        "coalg bisim --help": [sys.executable, "-m", "coalg", "bisim", "--help"],
    }
    bispy = os.environ.get("BISPY_PY")
    if bispy:
        cmds["bispy python + import networkx, bispy"] = [bispy, "-c", "import networkx, bispy"]
    out = {}
    for name, cmd in cmds.items():
        walls = [run_measured(cmd)[0] for _ in range(max(reps, 5))]
        out[name] = round(statistics.median(walls), 4)
        print(f"  start-up floor: {name:<40} {out[name] * 1000:7.1f} ms", flush=True)
    return out


def build_cpp(tmp: Path) -> str | None:
    if not shutil.which("g++"):
        return None
    src = next((p for p in CPP_SRC if p.exists()), None)
    if src is None:
        return None
    exe = tmp / "cpp_refine"
    subprocess.run(["g++", "-O2", "-std=c++17", "-o", str(exe), str(src)], check=True)
    return str(exe)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--peer"]:
        peer_main(argv[1], argv[2], argv[3:])
        return 0
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="tiny sizes, 1 repetition: a smoke test")
    ap.add_argument("--sizes", nargs="+", default=None, help="STATES/TRANSITIONS, e.g. 100k/500k 1m/5m")
    ap.add_argument("--reps", type=int, default=None)
    ap.add_argument("--out", default=None, help="results JSON (default: none with --quick, else bench/results/results.json)")
    ap.add_argument("--workdir", default=None, help="where generated inputs are kept (default: a temp dir)")
    ap.add_argument("--skip", nargs="*", default=[], choices=["bisim", "ancestry"])
    args = ap.parse_args(argv)
    sizes = [parse_size(x) for x in (args.sizes or (["2k/10k"] if args.quick else ["100k/500k"]))]
    reps = args.reps or (1 if args.quick else 3)
    out = args.out or (None if args.quick else str(HERE / "results" / "results.json"))
    tmp = Path(tempfile.mkdtemp(prefix="coalg-bench-"))
    work = Path(args.workdir) if args.workdir else tmp
    work.mkdir(parents=True, exist_ok=True)
    log: list[str] = []
    try:
        cpp = build_cpp(tmp)
        print(f"machine: {machine()}\ncompiled reference: {cpp or 'not available'}", flush=True)
        compile_bytecode()
        floors = startup_floors(reps)
        bis, ok1 = ([], True) if "bisim" in args.skip else run_bisim(sizes, reps, work, cpp, log)
        anc, ok2 = ([], True) if "ancestry" in args.skip else run_ancestry(sizes, reps, log, args.quick)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    for line in log:
        print(line, file=sys.stderr)
    result = {"machine": machine(), "sizes": [list(s) for s in sizes], "reps": reps,
              "startup": floors, "bisim": bis, "ancestry": anc, "ok": ok1 and ok2}
    if out:
        Path(out).parent.mkdir(parents=True, exist_ok=True)
        Path(out).write_text(json.dumps(result, indent=1) + "\n")
        print(f"wrote {out}")
    print("all peers agree" if result["ok"] else "PEERS DISAGREE", flush=True)
    return 0 if result["ok"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
