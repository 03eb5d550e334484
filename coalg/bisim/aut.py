"""The Aldebaran ``.aut`` format (read by mCRL2 and CADP): the LTS a file holds.

Format::

    des (initial, n_transitions, n_states)
    (src,"label",dst)
    (src,label,dst)
    ...

States are ``0 .. n_states - 1``.  A label is either quoted -- ``"a(1,2)"``,
which may contain commas, parentheses and spaces -- or unquoted (``tau``).
The label of a line is everything between its first and its last comma
(state numbers never contain commas), without surrounding blanks and without
the quotes; ``"a"`` and ``a`` name the same label.  Blank lines are ignored;
``\\r\\n`` line ends are accepted.  Nothing in a file is ever evaluated.
Reading, with every check on hostile input, is :mod:`coalg.bisim.aut_read`;
writing (atomic: a temporary file renamed over the target) is
:mod:`coalg.bisim.aut_write`.

Limits (checked before anything is built; both backends share them)
-------------------------------------------------------------------
* a file is a regular file (a FIFO, device or directory is refused before
  it is opened) of at most :data:`DEFAULT_MAX_BYTES` bytes (1 GiB) of UTF-8;
* a line is at most :data:`DEFAULT_MAX_LINE_BYTES` bytes (64 KiB);
* numbers are ASCII digits ``0-9``, at most :data:`MAX_DIGITS` (18) of
  them, leading zeros included;
* the header may announce at most :data:`DEFAULT_MAX_SIZE` (50 million)
  states and as many transitions, no more transitions than the bytes that
  follow could hold, and no more states than its transitions can touch
  (``2 * n_transitions + 1``) plus :data:`SPARE_STATES` (65,536) states no
  transition mentions -- so what is allocated follows what the file holds;
* the body has exactly as many transitions as announced.

Every violation raises :class:`AutInputError` naming the file, the line
and the reason.

State payloads (convention)
---------------------------
An LTS read from ``.aut`` has plain LTS semantics: every state has the same
observation.  To carry a state observation (a *payload*) through the
format, a state may have a self-loop labelled ``<prefix><payload>``, e.g.
``(5,"rec:42",5)`` with prefix ``rec:``.  With
``read_aut(..., payload_prefix="rec:")`` such self-loops are removed from the
transitions and become the state's observation (``AutLTS.observations[s]`` =
1 + index into ``AutLTS.payloads``; 0 = no payload).  A state with two
payload loops, or a payload label on a transition that is not a self-loop, is
an error.  By default (``payload_prefix=None``) they stay ordinary
transitions; for strong bisimilarity both readings agree, since the loop is
visible exactly on the states that carry the payload.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from ..errors import InputError
from .buffers import Backend, frozen, load_numpy, use_numpy, writable, zeros
from .lts import LTS

__all__ = [
    "DEFAULT_MAX_BYTES",
    "DEFAULT_MAX_LINE_BYTES",
    "DEFAULT_MAX_SIZE",
    "MAX_DIGITS",
    "SPARE_STATES",
    "AutInputError",
    "AutLTS",
    "disjoint_union",
]

DEFAULT_MAX_SIZE = 50_000_000
"""Default cap on the number of states and of transitions a header may announce."""

DEFAULT_MAX_BYTES = 1 << 30
"""Default cap on the bytes of a file (1 GiB)."""

DEFAULT_MAX_LINE_BYTES = 1 << 16
"""Default cap on the bytes of one line (64 KiB)."""

MAX_DIGITS = 18
"""A number is written with at most this many digits (leading zeros included)."""

SPARE_STATES = 1 << 16
"""States a header may announce beyond those its transitions can touch."""


class AutInputError(InputError):
    """The error of the ``.aut`` format: the file, the line and the reason.

    >>> str(AutInputError("expected '(src,label,dst)', got 'x'", source="a.aut", line=3))
    "a.aut, line 3: expected '(src,label,dst)', got 'x'"
    """


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class AutLTS:
    """An LTS as read from ``.aut``: initial state, states, label names, transitions.

    ``src``, ``label`` and ``dst`` are parallel read-only int32 buffers
    (``memoryview``); ``label[k]`` indexes :attr:`labels` (names in order of
    first appearance).  ``observations`` is set only when payloads were read
    (see the module docstring): ``observations[s]`` is 0 or 1 + an index into
    ``payloads``.

    >>> aut = AutLTS.from_transitions(0, 2, [(0, "go", 1), (1, "go", 1)])
    >>> aut.labels, aut.n_transitions
    (('go',), 2)
    >>> aut.to_lts().n_states
    2
    >>> aut
    AutLTS(initial=0, n_states=2, n_transitions=2, labels=('go',))
    """

    initial: int
    n_states: int
    labels: tuple[str, ...]
    src: memoryview
    label: memoryview
    dst: memoryview
    observations: memoryview | None = None
    payloads: tuple[str, ...] = ()
    payload_prefix: str | None = None

    def __repr__(self) -> str:
        pay = "" if self.payload_prefix is None else f", payload_prefix={self.payload_prefix!r}"
        return (
            f"AutLTS(initial={self.initial}, n_states={self.n_states}, "
            f"n_transitions={self.n_transitions}, labels={self.labels!r}{pay})"
        )

    @classmethod
    def from_transitions(
        cls, initial: int, n_states: int, transitions: Iterable[tuple[int, str, int]]
    ) -> AutLTS:
        """An :class:`AutLTS` from ``(src, label_name, dst)`` triples."""
        ids: dict[str, int] = {}
        src, lab, dst = array("i"), array("i"), array("i")
        for s, a, t in transitions:
            if not (0 <= s < n_states and 0 <= t < n_states):
                raise ValueError(
                    f"transition ({s}, {a!r}, {t}): state out of range 0..{n_states - 1}"
                )
            src.append(s)
            lab.append(ids.setdefault(str(a), len(ids)))
            dst.append(t)
        if not 0 <= initial < max(n_states, 1):
            raise ValueError(f"initial state {initial} out of range")
        return cls(initial, n_states, tuple(ids), frozen("i", src), frozen("i", lab), frozen("i", dst))

    @property
    def n_transitions(self) -> int:
        """Number of transitions (payload loops excluded when they were read as payloads)."""
        return len(self.src)

    def transitions(self) -> Iterator[tuple[int, int, int]]:
        """``(src, label_index, dst)`` triples in file order."""
        return zip(self.src, self.label, self.dst)

    def named_transitions(self) -> Iterator[tuple[int, str, int]]:
        """``(src, label_name, dst)`` triples in file order."""
        names = self.labels
        return ((s, names[a], t) for s, a, t in zip(self.src, self.label, self.dst))

    def to_lts(self, *, backend: Backend = "auto") -> LTS:
        """The :class:`~coalg.bisim.lts.LTS` with labels = label indices and observations = payloads
        (all equal when there are none: plain LTS semantics)."""
        return LTS.from_arrays(
            self.n_states, self.observations, self.src, self.label, self.dst, backend=backend
        )


def disjoint_union(a: AutLTS, b: AutLTS) -> tuple[AutLTS, int]:
    """``a`` and ``b`` side by side; returns the union and the offset of ``b``'s states.

    Labels (and payloads) with the same name are identified; ``b``'s state
    ``s`` becomes ``offset + s``.  The union's initial state is ``a``'s.

    >>> x = AutLTS.from_transitions(0, 2, [(0, "a", 1)])
    >>> y = AutLTS.from_transitions(0, 1, [(0, "b", 0), (0, "a", 0)])
    >>> u, off = disjoint_union(x, y)
    >>> off, u.labels, list(u.named_transitions())
    (2, ('a', 'b'), [(0, 'a', 1), (2, 'b', 2), (2, 'a', 2)])
    """
    off = a.n_states
    names = {x: i for i, x in enumerate(a.labels)}
    lmap = array("i", [names.setdefault(x, len(names)) for x in b.labels])
    pays = {x: i for i, x in enumerate(a.payloads)}
    pmap = [0] + [pays.setdefault(x, len(pays)) + 1 for x in b.payloads]
    obs: memoryview | None = None
    if a.observations is not None or b.observations is not None:
        ob = zeros("i", a.n_states) if a.observations is None else writable(a.observations)
        if b.observations is not None:
            ob.extend(pmap[o] for o in b.observations)
        else:
            ob.extend(zeros("i", b.n_states))
        obs = frozen("i", ob)
    src, lab, dst = writable(a.src), writable(a.label), writable(a.dst)
    if use_numpy("auto", a.n_states + b.n_states + a.n_transitions + b.n_transitions):
        np = load_numpy()
        if len(b.src):
            src.frombytes((np.frombuffer(b.src, dtype=np.int32) + np.int32(off)).tobytes())
            lab.frombytes(np.frombuffer(lmap, dtype=np.int32)[np.frombuffer(b.label, dtype=np.int32)].tobytes())
            dst.frombytes((np.frombuffer(b.dst, dtype=np.int32) + np.int32(off)).tobytes())
    else:
        src.extend(s + off for s in b.src)
        lab.extend(lmap[x] for x in b.label)
        dst.extend(t + off for t in b.dst)
    union = AutLTS(
        a.initial,
        a.n_states + b.n_states,
        tuple(names),
        frozen("i", src),
        frozen("i", lab),
        frozen("i", dst),
        obs,
        tuple(pays),
        a.payload_prefix or b.payload_prefix,
    )
    return union, off
