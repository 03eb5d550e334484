"""A memory layer made hostile by a plan: one method, on its n-th call, does one hostile thing.

The plan comes from ``FUZZ_LAYER_PLAN`` (JSON ``{"method", "action", "after"}``),
set by the fuzz test for the ``coalg conform`` child it starts: the child
imports :class:`Planned` by name, so the plan travels in the environment.
Without an action taken, the layer is ``GoodMemory`` and keeps every law.
"""

from __future__ import annotations

import json
import os
import random
import sys
import time
from collections.abc import Callable
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "conformance"))

from conform_layers import GoodMemory

METHODS = ("save", "evolve", "merge", "split", "supersede", "delete", "records", "edges")


class Escape(BaseException):
    pass


class Mute(Exception):
    def __str__(self) -> str:
        raise RuntimeError("unprintable")


class Shifty(str):
    def __hash__(self) -> int:
        return random.getrandbits(40)


def _deep(n: int) -> Any:
    d: Any = 0
    for _ in range(n):
        d = [d]
    return d


def _act(action: str, method: str, normal: Callable[[], Any]) -> Any:
    if action == "sys_exit":
        sys.exit(0)
    if action == "os_exit":
        os._exit(0)
    if action == "base_exception":
        raise Escape("escape")
    if action == "raising_str":
        raise Mute()
    if action == "sleep":
        time.sleep(600)
    got = normal()
    if action == "str_subclass" and isinstance(got, str):
        return Shifty(got)
    if action == "huge_id" and isinstance(got, str):
        return "h" * 1_000_000
    if action == "deep_metadata" and isinstance(got, dict):
        for r in got.values():
            r["metadata"] = {"deep": _deep(300)}
    return got


ACTIONS = ("sys_exit", "os_exit", "base_exception", "raising_str", "sleep", "str_subclass", "huge_id",
           "deep_metadata")


def _wrap(name: str) -> Callable[..., Any]:
    base = getattr(GoodMemory, name)

    def method(self: Planned, *args: Any, **kw: Any) -> Any:
        normal = lambda: base(self, *args, **kw)
        if self.plan.get("method") != name:
            return normal()
        self.calls += 1
        if self.calls - 1 != self.plan.get("after", 0):
            return normal()
        return _act(self.plan["action"], name, normal)

    method.__signature__ = __import__("inspect").signature(base)  # type: ignore[attr-defined]
    return method


class Planned(GoodMemory):
    """GoodMemory, hostile as ``FUZZ_LAYER_PLAN`` says."""

    def __init__(self) -> None:
        super().__init__()
        self.plan: dict[str, Any] = json.loads(os.environ.get("FUZZ_LAYER_PLAN", "{}"))
        self.calls = 0


for _name in METHODS:
    setattr(Planned, _name, _wrap(_name))
