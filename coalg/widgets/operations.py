"""The operations of the derivation playground, and the letter a reader's choice makes.

The seven operations are letters of the store coalgebra's alphabet (paper
§3.2): save, evolve, merge, split, supersede, delete and save-at.
:func:`letter_for` turns what a reader picked (an operation, identifiers in
argument order, a content, a type, a namespace) into that letter, or into the
sentence saying why it is not one — the playground shows the sentence and
changes nothing.

>>> from coalg.model import preset
>>> letter_for(preset("meeting notes"), "merge", ["id0001"])
'merge needs at least two records; 1 selected.'
>>> letter_for(preset("meeting notes"), "evolve", ["id0004"], "v2") == Evolve("id0004", "v2")
True
"""

from __future__ import annotations

from collections.abc import Sequence

from ..model import Delete, Evolve, Id, Letter, Merge, Record, Save, SaveAt, Split, Store, Supersede

__all__ = ["OPERATIONS", "letter_for"]

OPERATIONS = ("save", "evolve", "merge", "split", "supersede", "delete", "save_at")
"""The operations the playground offers, in button order."""

ARITY = {"save": 0, "evolve": 1, "split": 1, "delete": 1, "save_at": 1, "supersede": 2}
"""How many records each operation takes (merge: two or more)."""


def letter_for(s: Store, kind: str, ids: Sequence[Id | None] = (), content: str | None = None,
               type_: str | None = None, namespace: str | None = None, by_prefix: bool = False) -> Letter | str:
    """The letter for operation ``kind`` on store ``s``, or the sentence saying why the choice is invalid.

    ``ids`` are in argument order (merge: the arguments; supersede: ``[old,
    new]``); blank entries are ignored.  ``content`` is the new content (split:
    parts separated by ``|``); what is left empty gets a default.
    """
    chosen = [str(i).strip() for i in ids if i is not None and str(i).strip()]
    if kind not in OPERATIONS:
        return f"unknown operation {kind!r}; choose one of {', '.join(OPERATIONS)}."
    if kind == "merge" and len(chosen) < 2:
        return f"merge needs at least two records; {len(chosen)} selected."
    need = ARITY.get(kind)
    if need is not None and len(chosen) != need:
        if need == 0:
            chosen = []
        elif not chosen:
            return f"{kind} needs {'a record' if need == 1 else 'two records (old, new)'}: select " \
                   f"{'one' if need == 1 else 'two'} first."
        else:
            return f"{kind} takes {need} record(s); {len(chosen)} selected."
    if not by_prefix and kind != "supersede":
        unknown = [i for i in chosen if i not in s.records]
        if unknown:
            return f"unknown identifier {', '.join(unknown)}: the store holds no record there."
    if kind == "merge" and len(set(chosen)) != len(chosen):
        return "merge: each record may be named once."
    text = (content or "").strip()
    if kind == "save":
        return Save(Record(text or "a new note", type=type_ or "fact", namespace=namespace or "alice"))
    if kind == "save_at":
        old = s.records.get(chosen[0])
        return SaveAt(chosen[0], Record(text or "replaced content",
                                        type=type_ or (old.type if old else "fact"),
                                        namespace=namespace or (old.namespace if old else "alice")))
    if kind == "evolve":
        return Evolve(chosen[0], text or f"{chosen[0]}, revised", by_prefix=by_prefix)
    if kind == "merge":
        return Merge(tuple(chosen), content=text or None, type=type_ or None, by_prefix=by_prefix)
    if kind == "split":
        parts = [p.strip() for p in (text.split("|") if text else []) if p.strip()]
        if not parts:
            parts = [f"{chosen[0]}, part 1", f"{chosen[0]}, part 2"]
        if len(parts) < 2:
            return "split needs at least two parts: separate them with '|'."
        return Split(chosen[0], tuple(parts), by_prefix=by_prefix)
    if kind == "supersede":
        return Supersede(chosen[0], chosen[1])
    return Delete(chosen[0], by_prefix=by_prefix)
