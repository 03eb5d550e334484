"""Integer buffers for the bisimilarity engine, and the optional NumPy behind them.

A labelled transition system is kept as flat integer buffers.  Inside the
frozen values (:class:`~coalg.bisim.lts.LTS`, :class:`~coalg.bisim.aut.AutLTS`)
a buffer is a read-only ``memoryview`` over ``bytes``: nothing can write to it,
and NumPy views of it are read-only too.  The refinement engine works on
writable ``array`` buffers of its own.

NumPy is optional: everything runs, more slowly, without it.  It is imported
only when an input is large enough to repay its import (~50 ms):
``backend="auto"`` takes the vectorised paths for inputs of at least
:data:`NUMPY_MIN_SIZE` states plus transitions, so small inputs never load it.

>>> buf = frozen("i", array("i", [3, 1, 2]))
>>> buf[0], buf.readonly, writable(buf).tolist()
(3, True, [3, 1, 2])
>>> use_numpy("auto", 10), use_numpy("python")
(False, False)
"""

from __future__ import annotations

import functools
from array import array
from typing import Any, Literal

__all__ = [
    "INT32_MAX",
    "INT64_MAX",
    "NUMPY_MIN_SIZE",
    "Backend",
    "IntCode",
    "expand",
    "frozen",
    "load_numpy",
    "np_view",
    "use_numpy",
    "writable",
    "zeros",
]

Backend = Literal["auto", "numpy", "python"]
"""Which code paths to take: ``"numpy"`` (vectorised), ``"python"``, or ``"auto"`` (by size)."""

IntCode = Literal["i", "q"]
"""The item types of the buffers: ``"i"`` (int32) and ``"q"`` (int64)."""

INT32_MAX = 2**31 - 1
INT64_MAX = 2**63 - 1

NUMPY_MIN_SIZE = 32_768
"""``backend="auto"`` uses NumPy only for inputs of at least this many states plus
transitions: below it, plain Python finishes before NumPy would be imported."""

_DTYPES = {"i": "int32", "q": "int64"}


@functools.cache
def load_numpy() -> Any:
    """The numpy module, imported on the first call; ``None`` when it is not installed."""
    try:
        import numpy
    except ImportError:  # pragma: no cover - exercised only where NumPy is absent
        return None
    return numpy


def use_numpy(backend: Backend, size: int | None = None) -> bool:
    """Whether to take the vectorised paths: ``"numpy"`` always, ``"python"`` never,
    ``"auto"`` when NumPy is installed and ``size`` (states plus transitions, if
    known) is at least :data:`NUMPY_MIN_SIZE`."""
    if backend == "python":
        return False
    if backend == "numpy":
        if load_numpy() is None:
            raise RuntimeError("backend='numpy' requested but NumPy is not installed")
        return True
    if backend != "auto":
        raise ValueError(f"unknown backend {backend!r}")
    if size is not None and size < NUMPY_MIN_SIZE:
        return False
    return load_numpy() is not None


def zeros(code: IntCode, n: int) -> array[int]:
    """A zero-filled writable ``array`` of ``n`` items of type ``code``."""
    a = array(code)
    a.frombytes(bytes(a.itemsize * n))
    return a


def frozen(code: IntCode, data: Any) -> memoryview:
    """A read-only buffer of ``code`` items (``"i"``: int32, ``"q"``: int64) holding ``data``.

    ``data`` is an ``array`` of that type, or a NumPy array (converted to the
    type).  The buffer is a copy over immutable ``bytes``.
    """
    if isinstance(data, array):
        if data.typecode != code:
            data = array(code, data)
        raw = data.tobytes()
    else:
        np = load_numpy()
        raw = np.ascontiguousarray(data, dtype=getattr(np, _DTYPES[code])).tobytes()
    return memoryview(raw).cast(code)


def writable(buf: memoryview) -> array[int]:
    """A writable ``array`` copy of a buffer (a memory copy: indexing an ``array``
    is about twice as fast as indexing a ``memoryview`` in the Python loops)."""
    a = array(buf.format)
    a.frombytes(buf.cast("B"))
    return a


def np_view(a: array[int] | memoryview, dtype: Any) -> Any:
    """A NumPy view (no copy) of a buffer; read-only when the buffer is."""
    np = load_numpy()
    if len(a) == 0:
        return np.zeros(0, dtype=dtype)
    return np.frombuffer(a, dtype=dtype)


def expand(starts: Any, lengths: Any) -> Any:
    """Concatenation of ``arange(starts[i], starts[i] + lengths[i])`` (int64)."""
    np = load_numpy()
    total = int(lengths.sum())
    if total == 0:
        return np.zeros(0, dtype=np.int64)
    csum = np.cumsum(lengths)
    shift = np.repeat(starts - (csum - lengths), lengths)
    return np.arange(total, dtype=np.int64) + shift
