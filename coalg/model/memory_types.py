"""The record types ContextFS accepts: the values of its ``MemoryType`` (``schemas.py:23``).

A ``Memory``'s ``type`` field is a ``MemoryType``, a string enum with 22 members.
Pydantic validates it when the ``Memory`` is built, before anything is written:
a value outside the enum (``"banana"``, ``"Fact"``, ``""``) raises
``pydantic.ValidationError``, a ``ValueError``, and the database is unchanged.
The model refuses the same saves, save_ats and merge types with ``Err``
(:func:`~coalg.model.coalgebra.type_refusal`).

A record of any type string is still a record, and a store may hold one (a law
check builds such stores): Definition 3.15's ``Mem`` is one colour, not a family
indexed by types.  Only the calls that write a type the caller chose are refused.

>>> len(MEMORY_TYPES), is_memory_type("episodic"), is_memory_type("Fact")
(22, True, False)
"""

from __future__ import annotations

__all__ = ["MEMORY_TYPES", "is_memory_type"]

MEMORY_TYPES: tuple[str, ...] = (
    "fact", "decision", "procedural", "episodic", "user", "code", "error", "commit",
    "todo", "issue", "api", "schema", "test", "review", "release", "config", "dependency", "doc",
    "workflow", "task", "step", "agent_run",
)
"""The values of ContextFS 0.2.35's ``MemoryType``, in the enum's order."""

_VALID = frozenset(MEMORY_TYPES)


def is_memory_type(t: object) -> bool:
    """Whether ContextFS accepts ``t`` as a ``Memory``'s type (exactly, case included)."""
    return isinstance(t, str) and t in _VALID
