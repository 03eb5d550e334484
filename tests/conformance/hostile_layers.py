"""Hostile memory layers: each tries to end, hang, crash or fake a ``coalg conform`` run.

Every class here is :class:`~conform_layers.GoodMemory` (which keeps every
law) with one method made hostile, so that nothing but the hostility can
make the run fail.  ``HOSTILE`` maps each to what the one line on stderr
must say; ``FINISHING`` are the layers whose run must end normally (exit 0,
valid ``--json``) although they print or leave a thread running.
"""

from __future__ import annotations

import os
import random
import signal
import sys
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from conform_layers import GoodMemory


class Escape(BaseException):
    """A BaseException of the layer's own."""


def _nested(depth: int) -> dict[str, Any]:
    d: dict[str, Any] = {"leaf": 1}
    for _ in range(depth):
        d = {"x": d}
    return d


class SysExitInSave(GoodMemory):
    def save(self, content: str, **kw: Any) -> str:
        sys.exit(0)


class SysExitOneInEvolve(GoodMemory):
    def evolve(self, id: str, content: str, **kw: Any) -> str:
        sys.exit(1)


class OsExitInSave(GoodMemory):
    def save(self, content: str, **kw: Any) -> str:
        os._exit(0)


class OsExitInMerge(GoodMemory):
    def merge(self, ids: Sequence[str], **kw: Any) -> str:
        os._exit(1)


class SystemExitInRecords(GoodMemory):
    def records(self) -> dict[str, dict[str, Any]]:
        raise SystemExit(0)


class KeyboardInterruptInSave(GoodMemory):
    def save(self, content: str, **kw: Any) -> str:
        raise KeyboardInterrupt


class GeneratorExitInDelete(GoodMemory):
    def delete(self, id: str) -> None:
        raise GeneratorExit


class OwnBaseExceptionInSplit(GoodMemory):
    def split(self, id: str, parts: Sequence[str], **kw: Any) -> list[str]:
        raise Escape("not an Exception")


class SigkillSelf(GoodMemory):
    def save(self, content: str, **kw: Any) -> str:
        os.kill(os.getpid(), signal.SIGKILL)
        return "unreachable"


class SigtermSelfInEdges(GoodMemory):
    def edges(self) -> list[tuple[str, str, str]]:
        if self._records:
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(5)
        return super().edges()


class SleepInSave(GoodMemory):
    def save(self, content: str, **kw: Any) -> str:
        time.sleep(3600)
        return "late"


class SleepInFactory(GoodMemory):
    def __init__(self) -> None:
        super().__init__()
        time.sleep(3600)


class RaisingStr(Exception):
    def __str__(self) -> str:
        raise RuntimeError("no message for you")


class RaisingStrInSave(GoodMemory):
    def save(self, content: str, **kw: Any) -> str:
        raise RaisingStr()


class DeepMetadata(GoodMemory):
    def records(self) -> dict[str, dict[str, Any]]:
        out = super().records()
        for r in out.values():
            r["metadata"] = {"deep": _nested(150)}
        return out


class SelfReferentialMetadata(GoodMemory):
    def records(self) -> dict[str, dict[str, Any]]:
        out = super().records()
        for r in out.values():
            loop: dict[str, Any] = {}
            loop["me"] = loop
            r["metadata"] = loop
        return out


class _Exploding(Mapping[str, Any]):
    def __init__(self, data: dict[str, Any]) -> None:
        self._data = data

    def __getitem__(self, key: str) -> Any:
        return self._data[key]

    def __len__(self) -> int:
        return len(self._data)

    def __iter__(self) -> Iterator[str]:
        raise RuntimeError("iteration refused")


class RecordsIterationRaises(GoodMemory):
    def records(self) -> Any:
        return _Exploding(super().records())


class CloseRaises(GoodMemory):
    def close(self) -> None:
        raise OSError("the database is already closed")


class PropertyRaises(GoodMemory):
    @property
    def prefix_arguments(self) -> bool:
        raise RuntimeError("not configured")


class RandomHashStr(str):
    def __hash__(self) -> int:
        return random.getrandbits(60)

    def __eq__(self, other: object) -> bool:
        return random.random() < 0.5


class RandomHashIds(GoodMemory):
    def _new(self, *args: Any) -> str:
        i = super()._new(*args)
        j = RandomHashStr(i)
        self._records[j] = self._records.pop(i)
        return j


class HugeId(GoodMemory):
    def save(self, content: str, **kw: Any) -> str:
        super().save(content, **kw)
        return "x" * 3_000_000


class HugeMessage(GoodMemory):
    def __init__(self) -> None:
        raise ValueError("y" * 3_000_000)


class ExitInClose(GoodMemory):
    def close(self) -> None:
        sys.exit(0)


class PrintingLayer(GoodMemory):
    def save(self, content: str, *, type: str = "fact", namespace: str = "global", tags: Sequence[str] = (),
             metadata: Mapping[str, Any] | None = None, valid_time: Any = None) -> str:
        print("saving", content, "{not json")
        return super().save(content, type=type, namespace=namespace, tags=tags, metadata=metadata,
                            valid_time=valid_time)


class NonDaemonThread(GoodMemory):
    def __init__(self) -> None:
        super().__init__()
        threading.Thread(target=time.sleep, args=(3600,), daemon=False).start()


class SteadyButSlow(GoodMemory):
    """Keeps every law; each save takes 0.2 s, so a whole run lasts seconds and a short ``--timeout`` ends it."""

    def save(self, content: str, *, type: str = "fact", namespace: str = "global", tags: Sequence[str] = (),
             metadata: Mapping[str, Any] | None = None, valid_time: Any = None) -> str:
        time.sleep(0.2)
        return super().save(content, type=type, namespace=namespace, tags=tags, metadata=metadata,
                            valid_time=valid_time)


HOSTILE: dict[str, str] = {
    "SysExitInSave": "save: the layer raised SystemExit",
    "SysExitOneInEvolve": "evolve: the layer raised SystemExit",
    "OsExitInSave": "exited with status 0 before its report was complete",
    "OsExitInMerge": "exited with status 1 before its report was complete",
    "SystemExitInRecords": "records: the layer raised SystemExit",
    "KeyboardInterruptInSave": "save: the layer raised KeyboardInterrupt",
    "GeneratorExitInDelete": "delete: the layer raised GeneratorExit",
    "OwnBaseExceptionInSplit": "split: the layer raised Escape: not an Exception",
    "SigkillSelf": "killed by signal SIGKILL (9)",
    "SigtermSelfInEdges": "killed by signal SIGTERM (15)",
    "SleepInSave": "timed out: a save call of the layer ran for more than 2 s",
    "SleepInFactory": "timed out: a factory call of the layer ran for more than 2 s",
    "RaisingStrInSave": "RaisingStr (its message cannot be read: str() raised RuntimeError)",
    "DeepMetadata": "nested more than 100 levels deep",
    "SelfReferentialMetadata": "nested more than 100 levels deep (or refers to itself)",
    "RecordsIterationRaises": "records: raised RuntimeError: iteration refused",
    "CloseRaises": "close: raised OSError: the database is already closed",
    "PropertyRaises": "reading the layer's methods and attributes raised RuntimeError: not configured",
    "RandomHashIds": "a str subclass",
    "HugeId": "which records() does not list",
    "HugeMessage": "calling the factory HugeMessage() raised ValueError: yyy",
    "ExitInClose": "close: the layer raised SystemExit",
}
"""Each hostile layer and what the one line on stderr must contain (exit status 2)."""

FINISHING = ("PrintingLayer", "NonDaemonThread")
"""Layers that print or leave a thread behind but keep every law: the run ends, exit 0."""
