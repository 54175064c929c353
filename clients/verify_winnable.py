"""``samedeal verify-day``'s checks of the winnable-deal rule (docs/fairness.md, "Winnable
daily deals"): that a revealed deal is the first candidate the solver proves winnable within
the published budget, and that its line wins.

For each skipped candidate the solver is run again with the published budget (positions, so
the verdict is the same on any machine): it must not win, and must answer what the page says.
The chosen candidate's published line is replayed through the engine to a win.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from engine import winnable
from engine.solver import VERSION as SOLVER_VERSION


def chosen_k(deal: dict[str, Any]) -> int:
    """The candidate the page says was dealt: ``winnable.k``, else 0 (the rule did not apply)."""
    w = deal.get("winnable")
    return int(w["k"]) if isinstance(w, dict) else 0


def checks(deal: dict[str, Any], day: date, secret: bytes | None, beacon: bytes | None
           ) -> list[tuple[bool, str]]:
    """Every check of one deal's ``winnable``: (passed, line)."""
    name = f"{deal['game']}/{deal['variant']}"
    w = deal.get("winnable")
    if not isinstance(w, dict):
        return []
    out: list[tuple[bool, str]] = []
    k, cands = int(w["k"]), w.get("candidates") or []
    positions = int(w["budget"]["positions"])
    numbered = [c.get("k") for c in cands] == list(range(len(cands)))
    if w.get("found"):
        shape = (numbered and len(cands) == k + 1 and cands[-1]["verdict"] == "won"
                 and all(c["verdict"] != "won" for c in cands[:-1]))
    else:
        shape = (numbered and k == 0 and len(cands) == int(w["cap"])
                 and all(c["verdict"] != "won" for c in cands) and w.get("line") is None)
    out.append((shape, f"{name}: candidates 0..{len(cands) - 1}, the first won one chosen"
                if shape else f"{name}: the candidates do not end at the first won one (k={k})"))
    if secret is None:
        return out  # no day secret published (a day before the first chain): no seeds
    made_by = w["budget"].get("solver", SOLVER_VERSION)
    if made_by != SOLVER_VERSION:  # another search can answer otherwise within a budget
        out.append((False, f"{name}: the verdicts were made by solver version {made_by}; this "
                    f"samedeal has version {SOLVER_VERSION}: check with a release of "
                    f"version {made_by}"))
        return out
    skipped = cands[:k] if w.get("found") else cands
    for c in skipped:
        seed = winnable.candidate_seed(secret, day, deal["game"], deal["variant"], beacon,
                                       int(c["k"]))
        again = winnable.judge(deal["game"], deal["variant"], seed, positions)
        ok = again.verdict != "won" and again.verdict == c["verdict"] \
            and again.positions == c["positions"]
        out.append((ok, f"{name}: candidate {c['k']} {again.verdict} within {positions} "
                    "positions, as published" if ok else f"{name}: candidate {c['k']} is "
                    f"{again.verdict} in {again.positions} positions, not {c['verdict']} in "
                    f"{c['positions']} as published"))
    if w.get("found"):
        seed = winnable.candidate_seed(secret, day, deal["game"], deal["variant"], beacon, k)
        won, why = winnable.line_wins(deal["game"], deal["variant"], seed, w.get("line") or "")
        out.append((won, f"{name}: candidate {k}'s line: {why}"))
        par_ok = w.get("par") == len((w.get("line") or "").split())
        out.append((par_ok, f"{name}: par is the line's length" if par_ok
                    else f"{name}: par {w.get('par')} is not the line's length"))
    return out
