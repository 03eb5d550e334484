"""Deterministic benchmark inputs (LTSs in Aldebaran ``.aut`` format).

Attribution: the shapes, and the code of ``gen_random``, ``gen_chain``,
``gen_dag_block``, ``gen_cyclic_block``, ``gen_copies``, ``write_aut`` and
``permute``, are copied from the perf-anchors probe scripts
``shared/bench/gen_lts.py`` and ``shared/bench/permute_aut.py`` (our own code,
written for the perf-anchors study), so that the benchmark does not depend on
``../shared`` being present.  Identical seeds give byte-identical files.

Every generated state is reachable from state 0, so tools that prune
unreachable states (mCRL2's ``ltsconvert``) and tools that do not agree on the
number of classes.

Shapes
------
random   n states, m transitions, k labels: a random recursive tree (parent of
         ``i`` uniform in ``[0, i)``) plus ``m - n + 1`` uniform transitions.
chain    deep ancestry: the chain ``0 -> 1 -> ... -> n-1`` plus ``m - n + 1``
         forward edges ``i -> j > i`` (with ``m = n - 1`` a pure chain).
dag      c identical copies of one random DAG under fresh ids (quotient ~n/c).
copies   c identical copies of one random cyclic LTS.
payload  a random LTS whose states carry payloads (Zipf-like over 1,000
         values, 30 % none), written as ``rec:<k>`` self-loops.

``permute`` re-allocates ids (a random permutation, transitions shuffled) and
optionally retargets ``perturb`` transitions.
"""

from __future__ import annotations

import random


def gen_random(n, m, k, rng):
    edges = []
    for i in range(1, n):
        edges.append((rng.randrange(i), rng.randrange(k), i))
    for _ in range(m - (n - 1)):
        edges.append((rng.randrange(n), rng.randrange(k), rng.randrange(n)))
    return n, edges


def gen_chain(n, m, k, rng):
    edges = [(i, 0, i + 1) for i in range(n - 1)]
    for _ in range(m - (n - 1)):
        i = rng.randrange(n - 1)
        j = rng.randrange(i + 1, n)
        edges.append((i, rng.randrange(k), j))
    return n, edges


def gen_dag_block(n, deg, k, rng):
    edges = []
    for i in range(1, n):
        edges.append((rng.randrange(i), rng.randrange(k), i))
    extra = max(0, deg * n - (n - 1))
    for _ in range(extra):
        a = rng.randrange(n - 1)
        b = rng.randrange(a + 1, n)
        edges.append((a, rng.randrange(k), b))
    return edges


def gen_cyclic_block(n, deg, k, rng):
    edges = []
    for i in range(1, n):
        edges.append((rng.randrange(i), rng.randrange(k), i))
    for _ in range(max(0, deg * n - (n - 1))):
        edges.append((rng.randrange(n), rng.randrange(k), rng.randrange(n)))
    return edges


def gen_copies(n, m, k, rng, c, cyclic):
    b = max(2, (n - 1) // c)
    deg = max(1, m // max(1, n))
    block = gen_cyclic_block(b, deg, k, rng) if cyclic else gen_dag_block(b, deg, k, rng)
    edges = []
    total = 1
    for _ in range(c):
        off = total
        edges.append((0, 0, off))
        for (s, a, t) in block:
            edges.append((s + off, a, t + off))
        total += b
    return total, edges


def gen_payload(n, m, k, rng, values=1000, none=0.3):
    """A random LTS plus payload labels (as extra self-loop edges with label ``-1 - value``)."""
    n, edges = gen_random(n, m, k, rng)
    weights = [1.0 / (r + 1) for r in range(values)]
    pays = rng.choices(range(values), weights=weights, k=n)
    for s in range(n):
        if rng.random() >= none:
            edges.append((s, -1 - pays[s], s))
    return n, edges


def generate(shape, n, m, k=4, seed=1, c=10):
    """``(n_states, [(src, label, dst)])`` for a shape (labels < 0 are payloads)."""
    rng = random.Random(seed)
    if shape == "random":
        return gen_random(n, m, k, rng)
    if shape == "chain":
        return gen_chain(n, m, k, rng)
    if shape == "dag":
        return gen_copies(n, m, k, rng, c, cyclic=False)
    if shape == "copies":
        return gen_copies(n, m, k, rng, c, cyclic=True)
    if shape == "payload":
        return gen_payload(n, m, k, rng)
    raise ValueError("unknown shape " + shape)


def _label(a):
    return '"rec:%d"' % (-1 - a) if a < 0 else '"a%d"' % a


def write_aut(path, n, edges, init=0):
    with open(path, "w") as f:
        f.write("des (%d,%d,%d)\n" % (init, len(edges), n))
        step = 1 << 16
        for i in range(0, len(edges), step):
            f.write("".join("(%d,%s,%d)\n" % (s, _label(a), t) for s, a, t in edges[i : i + step]))


def permute(n, edges, seed, perturb=0):
    """Same behaviour under fresh ids (and ``perturb`` retargeted transitions); returns (init, edges)."""
    rng = random.Random(seed)
    perm = list(range(n))
    rng.shuffle(perm)
    out = [[perm[s], a, perm[t]] for s, a, t in edges]
    for _ in range(perturb):
        e = out[rng.randrange(len(out))]
        if e[1] >= 0:  # never turn a payload loop into a non-loop
            e[2] = rng.randrange(n)
    rng.shuffle(out)
    return perm[0], [tuple(e) for e in out]
