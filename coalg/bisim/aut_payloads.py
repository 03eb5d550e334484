"""State payloads in ``.aut`` files: self-loops ``<prefix><payload>`` read as observations.

The convention is described in :mod:`coalg.bisim.aut`.  :func:`extract_payloads`
turns an :class:`~coalg.bisim.aut.AutLTS` read with all its transitions into
one whose payload loops are state observations, and refuses a payload label
on a transition that is not a self-loop and a state with two payloads -- the
first such transition in file order, with either backend.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable
from dataclasses import replace

from ..errors import InputError
from .aut import AutLTS
from .buffers import frozen, load_numpy, zeros

__all__ = ["FailAt", "extract_payloads"]

FailAt = Callable[[int, str], InputError]
"""The error for the transition at an index (0-based, in file order), with a message."""


def extract_payloads(aut: AutLTS, prefix: str, use_np: bool, fail_at: FailAt) -> AutLTS:
    """``aut`` with every self-loop labelled ``<prefix><payload>`` turned into a state observation.

    >>> aut = AutLTS.from_transitions(0, 2, [(0, "go", 1), (1, "rec:x", 1)])
    >>> got = extract_payloads(aut, "rec:", False, lambda k, msg: InputError(msg))
    >>> got.labels, got.payloads, list(got.observations), got.n_transitions
    (('go',), ('x',), [0, 1], 1)
    """
    is_payload = [x.startswith(prefix) for x in aut.labels]
    if not any(is_payload):
        return replace(aut, observations=frozen("i", zeros("i", aut.n_states)), payloads=(),
                       payload_prefix=prefix)  # fmt: skip
    # payload label index -> payload id (1-based, in order of first appearance)
    pay_names: list[str] = []
    pay_of_label = [0] * len(aut.labels)
    new_label = [-1] * len(aut.labels)
    kept_names: list[str] = []
    for i, name in enumerate(aut.labels):
        if is_payload[i]:
            pay_names.append(name[len(prefix) :])
            pay_of_label[i] = len(pay_names)
        else:
            new_label[i] = len(kept_names)
            kept_names.append(name)
    split = _split_np if use_np and aut.n_transitions else _split_py
    obs, src, lab, dst, error = split(aut, pay_of_label, new_label)
    if error is not None:
        k, s = error
        a = aut.label[k]
        if aut.src[k] != aut.dst[k]:
            raise fail_at(k, f"payload label {aut.labels[a]!r} on a transition that is not a self-loop")
        raise fail_at(k, f"state {s} has a second payload {aut.labels[a]!r}")
    return AutLTS(aut.initial, aut.n_states, tuple(kept_names), src, lab, dst, obs, tuple(pay_names), prefix)


_Split = tuple[memoryview, memoryview, memoryview, memoryview, tuple[int, int] | None]


def _split_py(aut: AutLTS, pay_of_label: list[int], new_label: list[int]) -> _Split:
    """Observations and the other transitions, or the first bad transition ``(k, state)``."""
    obs = zeros("i", aut.n_states)
    src, lab, dst = array("i"), array("i"), array("i")
    error = None
    for k, (s, a, t) in enumerate(zip(aut.src, aut.label, aut.dst)):
        p = pay_of_label[a]
        if p:
            if s != t or (obs[s] and obs[s] != p):
                error = (k, s)
                break
            obs[s] = p
        else:
            src.append(s)
            lab.append(new_label[a])
            dst.append(t)
    return frozen("i", obs), frozen("i", src), frozen("i", lab), frozen("i", dst), error


def _split_np(aut: AutLTS, pay_of_label: list[int], new_label: list[int]) -> _Split:
    """:func:`_split_py` in array passes."""
    np = load_numpy()
    src = np.frombuffer(aut.src, dtype=np.int32)
    lab = np.frombuffer(aut.label, dtype=np.int32)
    dst = np.frombuffer(aut.dst, dtype=np.int32)
    pay = np.asarray(pay_of_label, dtype=np.int32)[lab]
    isp = pay > 0
    bad = [int(k) for k in np.flatnonzero(isp & (src != dst))[:1]]
    where = np.flatnonzero(isp)
    ps, pv = src[where], pay[where]
    first = np.zeros(aut.n_states, dtype=np.int32)
    first[ps[::-1]] = pv[::-1]  # the first payload of each state (later writes win)
    bad += [int(where[k]) for k in np.flatnonzero(first[ps] != pv)[:1]]
    # a clash before the first non-loop is a clash in file order too: the payloads
    # it compares come from earlier transitions, which are all self-loops
    error = None if not bad else (min(bad), int(src[min(bad)]))
    keep = ~isp
    return (
        frozen("i", first),
        frozen("i", src[keep]),
        frozen("i", np.asarray(new_label, dtype=np.int32)[lab[keep]]),
        frozen("i", dst[keep]),
        error,
    )
