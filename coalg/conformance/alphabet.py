"""The words the kit tries: small alphabets over the protocol, built from the store a layer shows.

Two alphabets, like the law search's (:mod:`coalg.laws.seeds`):

* **fragment** -- what the laws L1–L4 and the schema S1–S4 speak about:
  fresh saves of the three records the law search's seed stores are made of
  (a fact and a decision in namespace ``alice``, a fact tagged ``secret`` in
  ``bob``), and evolve, merge, split and supersede naming every record, plus
  :data:`~coalg.laws.UNKNOWN`, an identifier no record has;
* **full** -- every call the layer accepts, for L7 and the prefix part of L5:
  the fragment, delete, and with the capabilities a replacement at each
  record's identifier (``save_at``), and evolve, split, delete and merge by
  prefix and recall by prefix: each record's own prefix, and the prefix all
  records share (ambiguous once there are two).

Every list is built from sorted canonical names, so the words tried never
depend on the layer's identifiers or on hashing.

>>> from coalg.model import EMPTY
>>> from coalg.laws import show_letter
>>> [show_letter(a) for a in fragment_alphabet(EMPTY)]   # doctest: +NORMALIZE_WHITESPACE
["save('a' in alice)", "save('b' in alice)", "save('k' in bob)", "evolve(missing, 'v2')",
 "split(missing, 'p1', 'p2')"]
"""

from __future__ import annotations

import os
from collections.abc import Callable

from ..laws import SEEDS, UNKNOWN
from ..model import Letter, Record, Store
from ..model import alphabet as A
from .protocol import Capabilities

__all__ = ["ALPHABET_NAMES", "PAYLOAD_WORDS", "SAVED", "alphabet", "fragment_alphabet", "full_alphabet", "shared_prefix"]

SAVED: tuple[Record, ...] = tuple(sorted({a.record for sd in SEEDS for a in sd.word if isinstance(a, A.Save)},
                                         key=lambda r: (r.namespace, r.content)))
"""The records a fresh save stores: those the law search's seed stores are built from."""

EVOLVED = "v2"
PARTS = ("p1", "p2")
REPLACED = "replaced"

ALPHABET_NAMES = ("fragment", "full")

PAYLOAD_WORDS: frozenset[str] = frozenset(
    {x for r in SAVED for x in (r.content, r.type, r.namespace, *r.tags)} | {EVOLVED, *PARTS, REPLACED})
"""The words the kit writes into records (contents, types, namespaces, tags): an identifier equal to one
of them is never looked for inside a longer string, where it would as well be the word."""


def shared_prefix(ids: list[str]) -> str:
    """The longest prefix every identifier of ``ids`` has, shortened to a proper prefix of each.

    >>> shared_prefix(["id0001", "id0002"]), shared_prefix(["m1", "m10"])
    ('id000', 'm')
    """
    p = os.path.commonprefix(sorted(ids))
    return p[:-1] if p in ids else p


def fragment_alphabet(s: Store) -> list[Letter]:
    """Fresh saves, then evolve, merge, split and supersede of every record (and of an unknown identifier)."""
    ids = sorted(s.dom())
    named = ids + [UNKNOWN]
    out: list[Letter] = [A.Save(r) for r in SAVED]
    out += [A.Evolve(i, EVOLVED) for i in named]
    out += [A.Merge((i, k)) for i in ids for k in named if k != i]
    out += [A.Split(i, PARTS) for i in named]
    out += [A.Supersede(o, n) for o in named for n in ids if o != n]
    return out


def full_alphabet(s: Store, caps: Capabilities) -> list[Letter]:
    """The fragment, delete, and what the layer's capabilities add (replacement, prefixes)."""
    ids = sorted(s.dom())
    out = fragment_alphabet(s)
    out += [A.Delete(i) for i in ids]
    if caps.has("save_at"):
        out += [A.SaveAt(i, Record(REPLACED, namespace=s.records[i].namespace)) for i in ids]
    shared = [shared_prefix(ids)] if len(ids) >= 2 else []
    if caps.has("prefix_arguments"):
        for p in ids + shared:
            out += [A.Evolve(p, EVOLVED, by_prefix=True), A.Split(p, PARTS, by_prefix=True),
                    A.Delete(p, by_prefix=True)]
        out += [A.Merge((i, p), by_prefix=True) for p in shared for i in ids]
    if caps.has("prefix_recall"):
        out += [A.RecallPrefix(p) for p in ids + shared]
    return out


def alphabet(name: str, caps: Capabilities) -> Callable[[Store], list[Letter]]:
    """The alphabet called ``name`` (``ALPHABET_NAMES``) for a layer with ``caps``."""
    if name == "fragment":
        return fragment_alphabet
    if name == "full":
        return lambda s: full_alphabet(s, caps)
    raise ValueError(f"unknown alphabet {name!r}; known: {', '.join(ALPHABET_NAMES)}")
