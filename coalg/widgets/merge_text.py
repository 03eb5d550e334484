"""What the merge lab (:mod:`.merge_lab`) says about a merge, in sentences.

Each comparison is stated with what the paper predicts for it: an outcome the
paper predicts — merging twice does not give an equal store (Proposition
5.24), the other order is not allocation-blind bisimilar (5.25) — is shown as
expected, in the colour of a result that holds; only an outcome against the
prediction is shown in the colour of an error.  Record contents are shown, not
just identifiers.
"""

from __future__ import annotations

from typing import Any

from ..model import Store
from ..viz import ADDED, NEUTRAL, REMOVED
from .text import esc, html_table, reason_text, short, witness_culprit

__all__ = ["result_html", "witness_sentence"]


def _as_predicted(text: str, item: str) -> str:
    return f"<b style='color:{ADDED}'>{text}</b>, as Proposition {item} predicts"


def _against(text: str, item: str, predicted: str) -> str:
    return f"<b style='color:{REMOVED}'>{text}</b> — Proposition {item} predicts {predicted}"


def witness_sentence(w: dict[str, Any] | None) -> str:
    """Where two stores differ up to allocation, as a sentence (HTML-escaped)."""
    if not w:
        return ""
    first = w.get("first", w)
    side = "this order's" if first.get("side") == "left" else "the other order's"
    reason = reason_text(str(first.get("reason") or ""))
    where = witness_culprit(first)
    if where != str(first.get("id")):
        reason = (f"it matches {first.get('against')} up to allocation, but following "
                  f"{' · '.join(first.get('path', ()))} leads to {where}, and there {reason}. "
                  f"The difference is in {where}")
    return esc(f"Refinement finds no partner for {side} {first.get('id')}"
               + (f": {reason}." if reason else "."))


def _record(store: Store, i: str) -> str:
    r = store.records[i]
    return f"<code>{esc(i)}</code> “{esc(short(r.content, 40))}” ({esc(r.type)}, {esc(r.namespace)})"


def result_html(r: dict[str, Any] | None, store: Store, message: str) -> str:
    """The merged record and the three comparisons (5.20, 5.24, 5.25) as a table of sentences."""
    if r is None:
        return f"<i>No merge to show: {esc(message)}</i>"
    ids = r["ids"]
    contextfs = r["realisation"] == "contextfs"
    tied = r["tied_types"]
    rows = [
        ["arguments", " then ".join(_record(store, i) for i in ids)],
        ["merged record", (f"<code>{esc(r['id'])}</code>: type <b>{esc(r['type'])}</b>, namespace "
                          f"<b>{esc(r['namespace'])}</b> (the first argument's), content "
                          f"“{esc(short(r['content'], 120))}”")],
    ]
    by = "; ".join(f"{esc(k.removeprefix('θ: '))} → <b>{esc(v)}</b>" for k, v in r["type_by_theta"].items())
    if len(tied) > 1:
        reached = r["types_reached"]
        if contextfs:
            verdict = (_as_predicted(f"every tied type is reached ({', '.join(reached)})", "5.20")
                       if reached == tied else _against(f"only {', '.join(reached)} reached", "5.20", "all of M"))
        else:
            verdict = (_as_predicted(f"always {tied[0]}, the least tied type", "5.20")
                       if reached == [tied[0]] else _against(f"{', '.join(reached)} reached", "5.20",
                                                             f"only {tied[0]} on the repaired realisation"))
        rows.append(["5.20: the type as θ varies",
                     f"The types tie: M = {{{esc(', '.join(tied))}}}. Under each θ: {by}. {verdict}."])
    else:
        rows.append(["5.20: the type as θ varies",
                     (f"No tie: the most frequent type is {esc(tied[0] if tied else r['type'])}, whatever θ says "
                     f"({by}). Proposition 5.20 is about tied types: choose records whose types tie.")])
    equal = (_against("equal", "5.24", "not equal") if r["twice_equal"]
             else _as_predicted("not equal", "5.24"))
    blind = (_as_predicted("≈ (yes)", "5.24") if r["twice_blind_bisimilar"]
             else _against("not ≈", "5.24", "≈"))
    rows.append(["5.24: merging twice",
                 (f"Merging the same records again gives a store that is {equal} (a second merged record with "
                 f"a new identifier); up to allocation the two stores are {blind}.")])
    if r["reversed_ok"]:
        rr = r["reversed_record"]
        both = html_table([["", "this order", "the other order"],
                           ["type", esc(r["type"]), esc(rr["type"])],
                           ["namespace", esc(r["namespace"]), esc(rr["namespace"])],
                           ["content", f"“{esc(short(r['content'], 60))}”", f"“{esc(short(rr['content'], 60))}”"]])
        if r["reversed_blind_bisimilar"]:
            verdict = (f"<b style='color:{NEUTRAL}'>≈ (yes)</b>: here the order makes no observable "
                       "difference (Proposition 5.25 says it can).")
        else:
            verdict = (_as_predicted("not ≈", "5.25") + ": the argument order is observable. "
                       + witness_sentence(r["reversed_witness"]))
        rows.append(["5.25: the other order",
                     f"Merging {esc(', '.join(reversed(ids)))} instead: the two stores are {verdict}{both}"])
    else:
        rows.append(["5.25: the other order", "The other order is refused by this realisation."])
    return html_table(rows)
