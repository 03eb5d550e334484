"""Tests of coalg.bisim.partition, engine, acyclic and witness: the worklist refiner against the naive oracle, witnesses against an HML evaluator."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from budget import budget
from hypothesis import given
from hypothesis import strategies as st

from coalg.bisim import (
    LTS,
    acyclic,
    bisimilar_states,
    blocks,
    coarsest_partition,
    distinguishing_witness,
    naive_partition,
    refine,
    rounds_numpy,
)
from coalg.bisim.buffers import load_numpy
from coalg.bisim.engine import refined

ROOT = Path(__file__).resolve().parents[2]
BACKENDS = ["python", "numpy"] if load_numpy() is not None else ["python"]
Triple = tuple[int, int, int]

# --------------------------------------------------------------------------- strategies


@st.composite
def ltss(
    draw: Any, max_states: int = 9, max_labels: int = 3, max_obs: int = 2
) -> tuple[int, list[int], list[Triple]]:
    n = draw(st.integers(1, max_states))
    labels = draw(st.integers(1, max_labels))
    obs = draw(st.integers(1, max_obs))
    initial = draw(st.lists(st.integers(0, obs - 1), min_size=n, max_size=n))
    trans = draw(
        st.lists(
            st.tuples(st.integers(0, n - 1), st.integers(0, labels - 1), st.integers(0, n - 1)),
            max_size=3 * n,
        )
    )
    return n, initial, trans


# --------------------------------------------------------------------------- helpers


def naive_levels(n: int, initial: Sequence[int], trans: list[Triple]) -> list[list[int]]:
    """P_0, P_1, ... of naive round-based refinement, up to the stable one."""
    succ: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    for s, a, t in trans:
        succ[s].append((a, t))
    ids: dict[Any, int] = {}
    blk = [ids.setdefault(v, len(ids)) for v in initial]
    levels = [blk]
    while True:
        ids = {}
        new = [
            ids.setdefault((blk[s], frozenset((a, blk[t]) for a, t in succ[s])), len(ids))
            for s in range(n)
        ]
        if len(set(new)) == len(set(blk)):
            return levels
        levels.append(new)
        blk = new


def naive_sep(levels: list[list[int]], s: int, t: int) -> int | None:
    for r, p in enumerate(levels):
        if p[s] != p[t]:
            return r
    return None


def is_stable(n: int, initial: Sequence[int], trans: list[Triple], part: Sequence[int]) -> bool:
    sig: list[set[tuple[int, int]]] = [set() for _ in range(n)]
    for s, a, t in trans:
        sig[s].add((a, part[t]))
    rep: dict[int, int] = {}
    for s in range(n):
        r = rep.setdefault(part[s], s)
        if initial[r] != initial[s] or sig[r] != sig[s]:
            return False
    return True


def is_canonical(part: Sequence[int]) -> bool:
    seen = -1
    for b in part:
        if b > seen + 1:
            return False
        seen = max(seen, b)
    return True


# a tiny Hennessy-Milner logic evaluator for the witness formulas

_TOKEN = re.compile(
    r'\s*(&&|\|\||true|false|obs\(|<|>|\[|\]|\(|\)|"(?:[^"\\]|\\.)*"|[A-Za-z0-9_-]+)'
)


def _tokens(text: str) -> list[str]:
    out, i = [], 0
    while i < len(text):
        m = _TOKEN.match(text, i)
        assert m, f"cannot tokenise {text[i:]!r}"
        out.append(m.group(1))
        i = m.end()
        while i < len(text) and text[i].isspace():
            i += 1
    return out


def _name(tok: str) -> str:
    return json.loads(tok) if tok.startswith('"') else tok


def parse_hml(text: str) -> Any:
    toks = _tokens(text)
    pos = 0

    def formula() -> Any:
        nonlocal pos
        tok = toks[pos]
        pos += 1
        if tok in ("true", "false"):
            return (tok,)
        if tok == "obs(":
            value = _name(toks[pos])
            assert toks[pos + 1] == ")"
            pos += 2
            return ("obs", value)
        if tok in ("<", "["):
            label = _name(toks[pos])
            assert toks[pos + 1] == (">" if tok == "<" else "]")
            pos += 2
            return ("dia" if tok == "<" else "box", label, formula())
        if tok == "(":
            parts = [formula()]
            op = None
            while toks[pos] in ("&&", "||"):
                assert op in (None, toks[pos]), "mixed && and || without parentheses"
                op = toks[pos]
                pos += 1
                parts.append(formula())
            assert toks[pos] == ")"
            pos += 1
            return ("and" if op == "&&" else "or", parts)
        raise AssertionError(f"unexpected token {tok!r}")

    f = formula()
    assert pos == len(toks), "trailing tokens"
    return f


def depth(f: Any) -> int:
    if f[0] in ("dia", "box"):
        return 1 + depth(f[2])
    if f[0] in ("and", "or"):
        return max(depth(x) for x in f[1])
    return 0


def holds(
    f: Any, s: int, succ: list[list[tuple[int, int]]], obs: Sequence[int], name: Any = str
) -> bool:
    kind = f[0]
    if kind == "true":
        return True
    if kind == "false":
        return False
    if kind == "obs":
        return name(obs[s]) == f[1]
    if kind == "and":
        return all(holds(x, s, succ, obs, name) for x in f[1])
    if kind == "or":
        return any(holds(x, s, succ, obs, name) for x in f[1])
    targets = [t for a, t in succ[s] if str(a) == f[1]]
    if kind == "dia":
        return any(holds(f[2], t, succ, obs, name) for t in targets)
    return all(holds(f[2], t, succ, obs, name) for t in targets)


def successors(n: int, trans: list[Triple]) -> list[list[tuple[int, int]]]:
    succ: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    for s, a, t in trans:
        succ[s].append((a, t))
    return succ


# --------------------------------------------------------------------------- partition


def engine_only(lts: LTS, backend: str) -> list[int]:
    """The worklist engine's partition, bypassing the one-pass route for acyclic inputs."""
    return refined(lts, backend == "numpy").canonical().tolist()


@pytest.mark.parametrize("route", ["refine", "engine"])
@pytest.mark.parametrize("backend", BACKENDS)
@budget(150)
@given(data=ltss())
def test_matches_naive_and_is_stable(
    route: str, backend: str, data: tuple[int, list[int], list[Triple]]
) -> None:
    n, initial, trans = data
    lts = LTS.build(n, initial, trans)
    if route == "refine":
        got = refine(lts, backend=backend).tolist()  # type: ignore[arg-type]
    else:
        got = engine_only(lts, backend)
    assert got == naive_partition(n, initial, trans)
    assert is_canonical(got)
    assert is_stable(n, initial, trans, got)


@st.composite
def dags(draw: Any, max_states: int = 12) -> tuple[int, list[int], list[Triple]]:
    """Acyclic LTSs; ids either in a topological order (up or down) or shuffled."""
    n = draw(st.integers(1, max_states))
    initial = draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))
    pairs = draw(
        st.lists(
            st.tuples(st.integers(0, n - 1), st.integers(0, 2), st.integers(0, n - 1)),
            max_size=3 * n,
        )
    )
    trans = [(min(s, t), a, max(s, t)) for s, a, t in pairs if s != t]  # edges go up
    ids = draw(st.sampled_from(["up", "down", "shuffled"]))
    if ids == "down":
        trans = [(n - 1 - s, a, n - 1 - t) for s, a, t in trans]
    elif ids == "shuffled":
        perm = draw(st.permutations(range(n)))
        trans = [(perm[s], a, perm[t]) for s, a, t in trans]
    return n, initial, trans


def has_cycle(n: int, trans: list[Triple]) -> bool:
    succ: list[set[int]] = [set() for _ in range(n)]
    for s, _, t in trans:
        succ[s].add(t)
    reach = [set(x) for x in succ]
    for _ in range(n):  # transitive closure by repeated steps (tiny n)
        reach = [r.union(*(succ[t] for t in r)) for r in reach]
    return any(s in reach[s] for s in range(n))


@pytest.mark.parametrize("backend", BACKENDS)
@budget(200)
@given(data=dags())
def test_acyclic_one_pass_matches_naive(backend: str, data: tuple[int, list[int], list[Triple]]) -> None:
    """Theorem-style check of the successors-first pass: on a DAG it is bisimilarity."""
    n, initial, trans = data
    lts = LTS.build(n, initial, trans)
    got = acyclic.well_founded(lts, backend == "numpy")
    if got is None:  # only a dense input under NumPy may be left to the engine
        assert backend == "numpy" and not acyclic.one_pass_pays(n, len(trans), False, True)
        return
    assert got.tolist() == naive_partition(n, initial, trans)
    assert got.tolist() == engine_only(lts, backend)


@pytest.mark.parametrize("backend", BACKENDS)
@budget(150)
@given(data=ltss())
def test_one_pass_declines_exactly_the_cyclic_inputs(
    backend: str, data: tuple[int, list[int], list[Triple]]
) -> None:
    n, initial, trans = data
    got = acyclic.well_founded(LTS.build(n, initial, trans), backend == "numpy")
    if has_cycle(n, trans):
        assert got is None
    elif backend == "python":
        assert got is not None
    else:  # NumPy may leave a dense input to the vectorised engine
        assert got is not None or not acyclic.one_pass_pays(n, len(trans), False, True)


@pytest.mark.parametrize("threshold", [1, 2, 4])
@budget(120)
@given(data=ltss(max_states=14, max_obs=3))
def test_vectorised_rounds_match_naive(
    threshold: int, data: tuple[int, list[int], list[Triple]]
) -> None:
    if load_numpy() is None:
        pytest.skip("NumPy not installed")
    n, initial, trans = data
    old = blocks.NUMPY_MIN_ROUND
    blocks.NUMPY_MIN_ROUND = threshold
    try:
        got = refine(LTS.build(n, initial, trans), backend="numpy").tolist()
    finally:
        blocks.NUMPY_MIN_ROUND = old
    assert got == naive_partition(n, initial, trans)


def test_hash_collisions_are_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """With a useless signature hash every round collides; the verification must regroup exactly."""
    np = load_numpy()
    if np is None:
        pytest.skip("NumPy not installed")
    monkeypatch.setattr(rounds_numpy, "mix64", lambda x: np.zeros_like(x))
    monkeypatch.setattr(blocks, "NUMPY_MIN_ROUND", 1)
    rng = random.Random(7)
    for _ in range(60):
        n = rng.randint(1, 25)
        trans = [
            (rng.randrange(n), rng.randrange(3), rng.randrange(n))
            for _ in range(rng.randint(0, 3 * n))
        ]
        initial = [rng.randrange(2) for _ in range(n)]
        assert refine(LTS.build(n, initial, trans), backend="numpy").tolist() == naive_partition(
            n, initial, trans
        )


@budget(100)
@given(data=ltss(), seed=st.integers(0, 2**32 - 1))
def test_canonical_numbering_independent_of_transition_order(
    data: tuple[int, list[int], list[Triple]], seed: int
) -> None:
    n, initial, trans = data
    shuffled = list(trans)
    random.Random(seed).shuffle(shuffled)
    assert coarsest_partition(n, initial, trans) == coarsest_partition(n, initial, shuffled)


def test_initial_values_are_opaque() -> None:
    assert coarsest_partition(3, [-5, 10**15, -5], []) == [0, 1, 0]
    assert coarsest_partition(4, None, [(0, 0, 1), (2, 0, 3)]) == [0, 1, 0, 1]
    assert coarsest_partition(0, [], []) == []


def _permuted_union(
    n: int, initial: list[int], trans: list[Triple], rng: random.Random
) -> tuple[list[int], list[Triple], list[int]]:
    perm = list(range(n))
    rng.shuffle(perm)
    copy = [(perm[s] + n, a, perm[t] + n) for s, a, t in trans]
    rng.shuffle(copy)
    init2 = [0] * n
    for s in range(n):
        init2[perm[s]] = initial[s]
    return initial + init2, trans + copy, perm


@budget(100)
@given(data=ltss(), seed=st.integers(0, 2**32 - 1))
def test_permuted_copy_is_bisimilar(data: tuple[int, list[int], list[Triple]], seed: int) -> None:
    n, initial, trans = data
    init, union, perm = _permuted_union(n, initial, trans, random.Random(seed))
    part = coarsest_partition(2 * n, init, union)
    assert all(part[s] == part[perm[s] + n] for s in range(n))
    lts = LTS.build(2 * n, init, union)
    assert bisimilar_states(lts, 0, perm[0] + n)
    assert distinguishing_witness(lts, None, 0, perm[0] + n) is None


def test_perturbed_copy_usually_not_bisimilar() -> None:
    rng = random.Random(11)
    differ = 0
    for _ in range(80):
        n = rng.randint(3, 12)
        trans = [
            (s, rng.randrange(2), rng.randrange(n))
            for s in range(n)
            for _ in range(rng.randint(1, 3))
        ]
        initial = [0] * n
        init, union, perm = _permuted_union(n, initial, trans, rng)
        k = rng.randrange(n, len(union))
        s, a, _ = union[k]
        union[k] = (s, a, n + rng.randrange(n))
        part = coarsest_partition(2 * n, init, union)
        assert part == naive_partition(2 * n, init, union)
        lts = LTS.build(2 * n, init, union)
        same = bisimilar_states(lts, 0, perm[0] + n)
        assert same == (part[0] == part[perm[0] + n])
        differ += not same
    assert differ >= 20  # most perturbations are visible from the root


# --------------------------------------------------------------------------- witnesses


def check_witness(
    n: int, initial: list[int], trans: list[Triple], s: int, t: int, backend: str = "auto"
) -> None:
    lts = LTS.build(n, initial, trans)
    part = coarsest_partition(n, initial, trans)
    w = distinguishing_witness(lts, part, s, t, backend=backend)  # type: ignore[arg-type]
    levels = naive_levels(n, initial, trans)
    k = naive_sep(levels, s, t)
    if part[s] == part[t]:
        assert w is None and k is None
        return
    assert w is not None and k is not None
    succ = successors(n, trans)
    f = parse_hml(w.formula)
    assert holds(f, s, succ, initial), w
    assert not holds(f, t, succ, initial), w
    assert depth(f) == w.depth == k, (w, k)  # shortest: the naive separation level
    # the path is one branch: both sides can follow it to left/right ...
    left, right = {s}, {t}
    for a in w.path:
        left = {y for x in left for b, y in succ[x] if b == a}
        right = {y for x in right for b, y in succ[x] if b == a}
    assert w.left in left and w.right in right
    # ... where the reason is immediate
    if w.reason.startswith("observation differs"):
        assert initial[w.left] != initial[w.right]
        assert w.depth == len(w.path)
    else:
        m = re.fullmatch(r"label (\d+) possible on the (left|right) only", w.reason)
        assert m, w.reason
        a, side = int(m.group(1)), m.group(2)
        has_l = any(b == a for b, _ in succ[w.left])
        has_r = any(b == a for b, _ in succ[w.right])
        assert (has_l, has_r) == ((True, False) if side == "left" else (False, True))
        assert w.depth == len(w.path) + 1


@pytest.mark.parametrize("backend", BACKENDS)
@budget(150)
@given(data=ltss(max_states=8), pair=st.tuples(st.integers(0, 7), st.integers(0, 7)))
def test_witness_distinguishes_with_shortest_depth(
    backend: str, data: tuple[int, list[int], list[Triple]], pair: tuple[int, int]
) -> None:
    n, initial, trans = data
    s, t = pair[0] % n, pair[1] % n
    check_witness(n, initial, trans, s, t, backend)


@budget(100)
@given(data=ltss(max_states=10), pair=st.tuples(st.integers(0, 9), st.integers(0, 9)))
def test_witness_from_vectorised_rounds(
    data: tuple[int, list[int], list[Triple]], pair: tuple[int, int]
) -> None:
    """Separation levels recorded by vectorised rounds (threshold 1) are the naive levels too."""
    if load_numpy() is None:
        pytest.skip("NumPy not installed")
    n, initial, trans = data
    old = blocks.NUMPY_MIN_ROUND
    blocks.NUMPY_MIN_ROUND = 1
    try:
        check_witness(n, initial, trans, pair[0] % n, pair[1] % n, "numpy")
    finally:
        blocks.NUMPY_MIN_ROUND = old


def test_witness_nondeterminism() -> None:
    # a.(b + c) versus a.b + a.c: not bisimilar at depth 2; the formula must quantify over both a-moves
    trans = [(0, 0, 1), (1, 1, 2), (1, 2, 3), (4, 0, 5), (4, 0, 6), (5, 1, 7), (6, 2, 8)]
    n = 9
    check_witness(n, [0] * n, trans, 0, 4)
    check_witness(n, [0] * n, trans, 4, 0)
    w = distinguishing_witness(LTS.build(n, None, trans), None, 0, 4)
    assert w is not None and w.depth == 2
    # one box with a single continuation is smaller than <0>(<1>true && <2>true)
    assert w.formula in ("[0]<1>true", "[0]<2>true")


def test_witness_observation_and_names() -> None:
    lts = LTS.build(4, [0, 0, 1, 2], [(0, 0, 2), (1, 0, 3)])
    w = distinguishing_witness(
        lts, None, 0, 1, label_names=["go on"], observation_names=lambda o: f"p{o}"
    )
    assert w is not None
    assert w.path == (0,) and (w.left, w.right) == (2, 3)
    assert w.reason == "observation differs: p1 vs p2"
    assert w.formula == '<"go on">obs(p1)'


def test_witness_on_deep_chain_is_linear() -> None:
    # two chains of lengths 3000 and 3001: depth 3001, found without quadratic work
    n1, n2 = 3001, 3002
    trans = [(i, 0, i + 1) for i in range(n1 - 1)] + [
        (n1 + i, 0, n1 + i + 1) for i in range(n2 - 1)
    ]
    lts = LTS.build(n1 + n2, None, trans)
    t0 = time.perf_counter()
    w = distinguishing_witness(lts, None, n1, 0)
    assert w is not None and w.depth == 3001 and len(w.path) == 3000
    assert w.formula == "<0>" * 3001 + "true"
    assert w.reason == "label 0 possible on the left only"
    assert time.perf_counter() - t0 < 10


def test_witness_maps_back_to_original_states() -> None:
    # unreachable junk around the compared states must not matter
    trans = [(5, 0, 6), (7, 0, 8), (8, 1, 9), (0, 0, 1)]
    w = distinguishing_witness(LTS.build(10, None, trans), None, 7, 5)
    assert w is not None and (w.left, w.right) == (8, 6) and w.path == (0,)


# --------------------------------------------------------------------------- scale, determinism, API


@pytest.mark.parametrize("route", ["refine", "engine"])
def test_long_chain_is_not_quadratic(route: str) -> None:
    n = 60_000
    trans = [(i, 0, i + 1) for i in range(n - 1)]
    lts = LTS.build(n, None, trans)
    t0 = time.perf_counter()
    part = refine(lts) if route == "refine" else engine_only(lts, "python")
    elapsed = time.perf_counter() - t0
    assert len(set(part)) == n
    assert elapsed < 10, elapsed  # round-based refinement needs minutes here


def test_small_inputs_do_not_import_numpy() -> None:
    """NumPy costs ~50 ms to import; a small input must not pay it (nor need it)."""
    code = (
        "import sys, io\n"
        "import coalg.bisim.partition as R\n"
        "from coalg.bisim import read_aut\n"
        "a = read_aut(io.StringIO('des (0,2,3)\\n(0,a,1)\\n(1,a,2)\\n'))\n"
        "print(R.refine(a.to_lts()).tolist(), 'numpy' in sys.modules)\n"
    )
    assert fresh_python(code).split() == ["[0,", "1,", "2]", "False"]


def fresh_python(code: str) -> str:
    """Standard output of ``code`` run by a new interpreter (imports start from scratch)."""
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    )
    return out.stdout


def test_backends_agree_on_a_medium_random_lts() -> None:
    rng = random.Random(3)
    n = 3000
    trans = [(rng.randrange(n), rng.randrange(3), rng.randrange(n)) for _ in range(2 * n)]
    trans += [(i, 3, i + 1) for i in range(0, n - 1, 2)]
    initial = [rng.randrange(2) for _ in range(n)]
    lts = LTS.build(n, initial, trans)
    parts = {be: refine(lts, backend=be).tolist() for be in BACKENDS}  # type: ignore[arg-type]
    assert all(p == parts["python"] for p in parts.values())
    assert parts["python"] == naive_partition(n, initial, trans)


def test_no_numpy_subprocess() -> None:
    code = (
        "import sys; sys.modules['numpy'] = None\n"
        "import coalg.bisim.partition as R, io\n"
        "from coalg.bisim import read_aut\n"
        "from coalg.bisim.buffers import load_numpy\n"
        "assert load_numpy() is None\n"
        "print(R.coarsest_partition(5, None, [(0, 0, 1), (2, 0, 3), (3, 0, 4)]))\n"
        "a = read_aut(io.StringIO('des (0,2,3)\\n(0,\"a,b\",1)\\n(1,c,2)\\n'))\n"
        "print(a.labels, R.refine(a.to_lts()).tolist())\n"
    )
    assert fresh_python(code).splitlines() == ["[0, 1, 2, 0, 1]", "('a,b', 'c') [0, 1, 2]"]


def test_build_rejects_bad_transitions() -> None:
    with pytest.raises(ValueError, match="out of range"):
        LTS.build(2, None, [(0, 0, 2)])
    with pytest.raises(ValueError, match="label"):
        LTS.build(2, None, [(0, -1, 1)])
    with pytest.raises(ValueError, match="triple"):
        LTS.build(2, None, [(0, 1)])  # type: ignore[list-item]
    with pytest.raises(ValueError, match="entries"):
        LTS.build(2, [0], [])
    with pytest.raises(ValueError, match="out of range"):
        LTS.from_arrays(2, None, [0], [0], [5], backend="python")


def test_lts_accessors() -> None:
    lts = LTS.build(3, [1, 2, 3], [(2, 1, 0), (0, 0, 1), (2, 0, 2)])
    assert lts.n_transitions == 3 and lts.n_labels == 2
    assert sorted(lts.transitions()) == [(0, 0, 1), (2, 0, 2), (2, 1, 0)]
    assert lts.successors(2) == [(1, 0), (0, 2)]
    assert list(lts.initial) == [1, 2, 3]


@pytest.mark.parametrize("backend", BACKENDS)
def test_buffers_of_an_lts_cannot_be_written(backend: str) -> None:
    """An LTS is a frozen value: no buffer of it can be written, also through NumPy views,
    and refining it (which works on buffers of its own) leaves it as it was."""
    lts = LTS.from_arrays(3, [1, 1, 2], [0, 1, 2], [0, 0, 1], [1, 2, 0], backend=backend)  # type: ignore[arg-type]
    fields = ["initial", "out_offsets", "out_labels", "out_targets", "in_offsets", "in_sources"]
    before = {f: getattr(lts, f).tolist() for f in fields}
    refine(lts, backend=backend)  # type: ignore[arg-type]
    assert distinguishing_witness(lts, None, 0, 1, backend=backend) is not None  # type: ignore[arg-type]
    np = load_numpy()
    for f in fields:
        buf = getattr(lts, f)
        assert buf.tolist() == before[f]
        assert buf.readonly and isinstance(buf.obj, bytes)  # no writable owner to reach either
        with pytest.raises(TypeError):
            buf[0] = 7
        if np is not None:
            with pytest.raises(ValueError):
                np.frombuffer(buf, dtype=np.int64 if buf.format == "q" else np.int32)[0] = 7
    assert repr(lts) == "LTS(n_states=3, n_transitions=3, n_labels=2)"
