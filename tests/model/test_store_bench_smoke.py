"""Smoke test of bench/store_bench.py (no timing): its peers run the same words to the same stores."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def bench():  # type: ignore[no-untyped-def]
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        import store_bench
    finally:
        sys.path.remove(str(ROOT / "bench"))
    return store_bench


@pytest.mark.parametrize("kind", ["saves", "mixed"])
def test_model_dict_and_contextfs_end_with_the_same_store(bench, kind: str) -> None:  # type: ignore[no-untyped-def]
    rows = {peer: bench.one(peer, kind, 300) for peer in ("model", "model+states", "dict")}
    try:
        from coalg.contextfs import AVAILABLE
    except ImportError:  # pragma: no cover
        AVAILABLE = False
    if AVAILABLE:
        rows["contextfs"] = bench.one("contextfs", kind, 300)
    assert all(r["ok"] for r in rows.values())
    assert len({r["digest"] for r in rows.values()}) == 1, {p: r["digest"] for p, r in rows.items()}
    assert len({(r["records"], r["edges"]) for r in rows.values()}) == 1
    assert rows["model+states"]["states"] == 301
    if kind == "saves":
        assert rows["model"]["marginal_cpu_us"] > 0


def test_targets_are_read_from_the_rows(bench) -> None:  # type: ignore[no-untyped-def]
    rows = [
        {"peer": "model", "word": "saves", "n": 100_000, "wall_s": 2.0},
        {"peer": "model", "word": "mixed", "n": 100_000, "wall_s": 12.0},
    ]
    got = {t["target"]: t["met"] for t in bench.targets(rows)}
    assert got == {"100,000 saves": True, "mixed word of 100,000 calls": False}
