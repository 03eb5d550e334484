"""Resolution independence: law L5 (Def. 3.21) and Proposition 5.20.

Proposition 5.20: the merged type depends on an undeclared order, so L5 fails.

L5 says α_θ(s)(a) = α_θ′(s)(a) for every resolution θ = (c, ≺): the choice c among
tied merge types and the row order ≺ among identifiers a prefix matches.  Every
call of the full alphabet (prefix naming included) is run under the default θ and
under each relevant variant (:func:`theta_variants`) — unless it does not read θ
at all (:func:`consults_theta`), in which case no θ′ can change it.
"""

from __future__ import annotations

from typing import Any, cast

from ..model import (
    CONTEXTFS,
    REPAIRED,
    Call,
    Created,
    Found,
    Merge,
    Output,
    Realisation,
    Store,
    Theta,
    call_from_json,
    modes,
    output_to_json,
    store_from_json,
    store_to_json,
    theta_to_json,
)
from ..paper import Verdict, paper_item
from .clause import Clause, check, checker
from .common import law_item
from .display import show_call
from .exploration import Transition
from .search import Violation

__all__ = ["L5", "check_5_20", "check_L5", "consults_theta", "theta_variants"]


def theta_variants(t: Transition) -> list[Theta]:
    """The resolutions θ = (c, ≺) that matter for the call of ``t``, other than the default.

    A merge without an explicit type: c prefers each type of the store in turn.
    A call that resolves by prefix (``by_prefix``, recall_prefix, the facade's
    link): ≺ puts each identifier first in turn.  Always: the descending order.
    """
    a, s = t.call.letter, t.before
    out: list[Theta] = []
    if isinstance(a, Merge) and a.type is None:
        out += [Theta(type_priority=(ty,)) for ty in sorted({r.type for r in s.records.values()})]
    if getattr(a, "by_prefix", False) or a.kind in ("recall_prefix", "link"):
        out += [Theta(id_priority=(i,)) for i in sorted(s.dom())]
    out.append(Theta(descending=True))
    return out


def _explain(t: Transition, out2: Output) -> tuple[dict[str, Any], str]:
    a, s = t.call.letter, t.before
    if isinstance(a, Merge) and isinstance(t.output, Created) and isinstance(out2, Created):
        r1, r2 = t.output.items[0][1], out2.items[0][1]
        if r1.type != r2.type:
            tied = sorted({s.records[i].type for i in a.ids if i in s.records})
            text = (f"{show_call(t.call)}: the argument types {' and '.join(tied)} tie, and the undeclared choice "
                    f"c decides the merged type — {r1.type} under θ, {r2.type} under θ′.")
            return ({"record": t.output.ids[0], "field": "type", "tied_types": tied,
                     "value": r1.type, "other_value": r2.type}, text)
    if isinstance(t.output, Found) and isinstance(out2, Found) and t.output.id != out2.id:
        text = (f"{show_call(t.call)} returns {t.output.id} under θ and {out2.id} under θ′: several identifiers "
                "match and the row order ≺ picks one.")
        return {"output_id": t.output.id, "other_output_id": out2.id}, text
    return ({"output": output_to_json(t.output), "other_output": output_to_json(out2)},
            f"{show_call(t.call)} gives a different output or store under θ′ than under θ.")


class _Watched:
    """θ behind a proxy that notes the name of every attribute a step reads from it.

    Not a :class:`~coalg.model.Theta` and no change to one: each read is passed on
    to the θ it wraps, so the step computes exactly what it computes under θ.
    """

    def __init__(self, theta: Theta) -> None:
        self.theta = theta
        self.reads: list[str] = []

    def __getattr__(self, name: str) -> Any:  # called only for θ's attributes, not the two above
        self.reads.append(name)
        return getattr(self.theta, name)


def consults_theta(realisation: Realisation, t: Transition) -> bool:
    """Whether the call of ``t`` reads θ at all: run again with θ behind a watching proxy.

    A step is a deterministic function of (s, a, ξ, faults, θ); if it read no
    attribute of θ and gave the same result, every θ′ gives that result too, and
    there is no variant to try.  Otherwise :func:`theta_variants` are tried.
    """
    w = _Watched(t.theta)
    out, after = realisation.step(t.before, t.call.letter, t.call.allocation, theta=cast(Theta, w),
                                  faults=t.call.faults)
    return bool(w.reads) or out != t.output or after != t.after


def _independent(realisation: Realisation, t: Transition) -> tuple[int, Violation | None]:
    a = t.call.letter
    if not consults_theta(realisation, t):
        return 1, None
    for theta2 in theta_variants(t):
        out2, after2 = realisation.step(t.before, a, t.call.allocation, theta=theta2, faults=t.call.faults)
        if out2 != t.output or after2 != t.after:
            offending, text = _explain(t, out2)
            return 1, Violation(offending, text,
                                {"other_theta": theta_to_json(theta2), "other_after": store_to_json(after2),
                                 "output": output_to_json(t.output), "other_output": output_to_json(out2)})
    return 1, None


L5 = Clause(
    "L5",
    statement="L5 resolution independence: α_θ(s)(a) = α_θ′(s)(a) for every θ = (c, ≺).\n\n"
              "Every call of the full alphabet (prefix naming included) is run under the\n"
              "default θ and under each relevant variant (:func:`theta_variants`).  The\n"
              "witness gives θ (for the whole word) and ``other_theta`` (for its last call),\n"
              "with both outputs and stores after.",
    explored="(store, call) pairs, each run under every relevant θ",
    reading="every call of the full alphabet (fragment, prefix naming, deletion, replacement, links), under θ = "
            "(c, ≺) enumerated over tied merge types, ≺-first prefix matches, and the descending order",
    holds="no output or successor depends on θ ({n} calls)",
    step=_independent, random_seed=6, alphabet="full",
)
"""L5 as the search checks it."""

check_L5 = checker(L5, __name__)


def _merged_type(real: Realisation, s: Store, call: Call, theta: Theta) -> str:
    out, _ = real.step(s, call.letter, call.allocation, theta=theta)
    return out.items[0][1].type if isinstance(out, Created) else "err"


@paper_item("5.20")
def check_5_20() -> Verdict:
    """Proposition 5.20: with tied argument types the merged type is c(M) and ranges over all of M as θ varies.

    The L5 search finds the minimal witness; the check then enumerates c over M
    and confirms {ty(α_θ(s)(a)) : θ} = M.  REPAIRED's declared tie-break gives the
    same type for every θ.
    """
    v = check(L5, CONTEXTFS)
    w = v.witness or {}
    s = store_from_json(w["start"])
    for c in w["word"][:-1]:
        cl = call_from_json(c)
        s = CONTEXTFS.step(s, cl.letter, cl.allocation)[1]
    last = call_from_json(w["word"][-1])
    merge = last.letter
    if not isinstance(merge, Merge):
        return law_item("5.20", v, expect_holds=True,
                        summary="Proposition 5.20 NOT confirmed: the first L5 witness is not a merge.")
    tied = modes([s.records[i].type for i in merge.ids if i in s.records])
    got = sorted({_merged_type(CONTEXTFS, s, last, Theta(type_priority=(ty,))) for ty in sorted(tied)})
    rep = sorted({_merged_type(REPAIRED, s, last, Theta(type_priority=(ty,))) for ty in sorted(tied)})
    return law_item("5.20", v, expect_holds=False,
                    extra={"tied_modes": sorted(tied), "types_over_theta": got, "repaired_types_over_theta": rep},
                    summary="Proposition 5.20: " + w.get("explanation", "")
                            + f" Over θ the merged type takes every value of M = {{{', '.join(sorted(tied))}}}; "
                              "ContextFS reads it from max(set(types), key=types.count).")
