"""SQLite's ``LIKE``, as ContextFS resolves identifiers with it (paper §3.3, Lemma 5.6).

Every lookup ContextFS makes by identifier (recall, delete, and the records an
evolve, merge or split reads) runs ``SELECT … WHERE id LIKE ?`` with the
pattern ``f"{arg}%"`` and takes the first row.  The package escapes nothing and
sets no pragma, so the argument is read with SQLite's default ``LIKE``:

* case is folded for the 26 ASCII letters only (``'A0' LIKE 'a0'``, but ``'É'``
  and ``'é'`` differ);
* ``_`` matches exactly one character and ``%`` any run of characters, the
  empty run included; there is no escape character;
* both strings are read as C strings: each ends at its first NUL character, so
  an argument holding a NUL loses the ``%`` that ContextFS appends and must
  then match the whole (truncated) identifier.

:func:`like` is that predicate; :func:`like_prefix` is ContextFS's pattern
``arg%``; :func:`like_matches` enumerates the matching identifiers of a store in
ascending order, from its sorted index: the part of the argument before its
first wildcard fixes a range of the index for each ASCII case variant, and only
identifiers in those ranges are tested.  A property test compares all three
with a real ``SELECT … LIKE`` of Python's ``sqlite3``.

>>> like_prefix("A0", "a0123456-789"), like_prefix("a_2", "a02"), like_prefix("é", "É1")
(True, True, False)
>>> like_prefix("a%9", "ab-789"), like_prefix("a\\x00z", "a"), like_prefix("a\\x00z", "ab")
(True, True, False)
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Protocol

from .records import Id

__all__ = ["ascii_fold", "like", "like_prefix", "like_matches", "has_like_artefacts", "PrefixIndex"]

_FOLD = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
_WILDCARDS = "%_"


def ascii_fold(s: str) -> str:
    """``s`` with the ASCII capitals made small, nothing else changed (SQLite's ``LIKE`` folding).

    >>> ascii_fold("AbÉ-Z")
    'abÉ-z'
    """
    return s.translate(_FOLD)


def _c_string(s: str) -> str:
    """``s`` as SQLite's ``LIKE`` reads it: up to its first NUL."""
    cut = s.find("\0")
    return s if cut < 0 else s[:cut]


def _regex(pattern: str) -> re.Pattern[str]:
    parts = []
    for ch in ascii_fold(pattern):
        parts.append(".*" if ch == "%" else "." if ch == "_" else re.escape(ch))
    return re.compile("".join(parts), re.DOTALL)


def like(value: str, pattern: str) -> bool:
    """``value LIKE pattern`` in SQLite (default settings, no ``ESCAPE``).

    >>> like("Hello", "h%O"), like("hé", "h_"), like("ab", "a"), like("a\\x00b", "a")
    (True, True, False, True)
    """
    return _regex(_c_string(pattern)).fullmatch(ascii_fold(_c_string(value))) is not None


def like_prefix(p: str, i: Id) -> bool:
    """Whether ContextFS's lookup of ``p`` finds ``i``: ``i LIKE p || '%'``."""
    return like(i, p + "%")


def has_like_artefacts(i: Id) -> bool:
    """Whether ``i`` holds an ASCII capital, a wildcard or a NUL: what makes the lookup ``LIKE 'i%'``
    reach identifiers other than the extensions of ``i`` even when no stored identifier has a
    capital (as the package's own never do).  Without them, and among such identifiers, the
    lookup finds exactly the extensions of ``i``.

    >>> has_like_artefacts("a0123456-789"), has_like_artefacts("A0"), has_like_artefacts("a_")
    (False, True, True)
    """
    return ascii_fold(i) != i or any(c in i for c in _WILDCARDS + "\0")


class PrefixIndex(Protocol):
    """What :func:`like_matches` reads: a sorted index with plain-prefix ranges (a store)."""

    def ids_with_prefix(self, p: str) -> Iterator[Id]: ...

    def first_with_prefix(self, p: str) -> Id | None: ...


def _literal_head(pattern: str) -> str:
    """The folded part of a pattern before its first wildcard."""
    for k, ch in enumerate(pattern):
        if ch in _WILDCARDS:
            return ascii_fold(pattern[:k])
    return ascii_fold(pattern)


def _ranges(index: PrefixIndex, done: str, rest: str) -> Iterator[str]:
    """The plain prefixes ``q`` (ascending) with ``ascii_fold(q) == done + rest`` that some
    identifier of ``index`` extends; ``done`` is already such a prefix."""
    if not rest:
        yield done
        return
    ch = rest[0]
    variants = (ch.upper(), ch) if "a" <= ch <= "z" else (ch,)  # capitals sort first
    for v in variants:
        if index.first_with_prefix(done + v) is not None:
            yield from _ranges(index, done + v, rest[1:])


def like_matches(index: PrefixIndex, p: str) -> Iterator[Id]:
    """The identifiers of ``index`` that ContextFS's lookup of ``p`` finds, in ascending order.

    O(log n) per candidate range, then one test per identifier in those ranges:
    the identifiers in the ranges of the literal head of ``p`` (ASCII case
    variants included), filtered by the whole pattern.  With no literal head
    (``p`` starts with a wildcard) every identifier is a candidate.
    """
    pattern = _c_string(p + "%")
    rx = _regex(pattern)
    for q in _ranges(index, "", _literal_head(pattern)):
        for i in index.ids_with_prefix(q):
            if rx.fullmatch(ascii_fold(_c_string(i))) is not None:
                yield i
