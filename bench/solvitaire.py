"""Our solver beside Solvitaire (Blake and Gent's general solitaire solver) on the same deals.

``python -m bench.solvitaire --solvitaire PATH [RULE_SET ...] [--deals N] [--seconds S]
[--deal I ...] [--depth-first]``: for each deal (seed ``i`` as four big-endian bytes, as
bench/winnability.py deals them) Solvitaire is given the deal's cards where our ``State``
has them, as its deal JSON, and ``--timeout``; then our solver the same seconds
(``bench.winnability.judge``; both limits are wall-clock, as the census's; with
``--depth-first``, our depth-first search alone). One after the other, one process at a
time. Prints, per rule set, the deals each decides (won / lost), the median CPU seconds of
each, and every deal where both decide and differ.

``RULES`` holds Solvitaire's rules JSON for the rule sets it can state, with how they relate
to ours: ``exact``, ``superset`` (it allows every move we do and more: a loss it proves is
ours too, a win is not) or ``subset`` (it allows only some of ours: a win it finds is ours
too, a loss is not); a key with ``:NAME`` after the rule set states its rules a second way,
or (``:their-tableau``) searches ours with Solvitaire's Canfield columns (``their_tableau``).
``SKIPPED`` says why the others cannot be stated. Where ``REPLAY`` can, a win's line is
played through our engine: a win by more moves than ours counts only then.
"""

from __future__ import annotations

import argparse
import functools
import itertools
import json
import os
import re
import resource
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import engine
from bench.winnability import judge, seed
from engine.cards import RANK, SUIT
from engine.core import WON, IllegalMove, Move
from engine.piles import CELL, FOUNDATION, GRID, RESERVE, STOCK_PILE, TABLEAU, WASTE, Group
from engine.rules import RuleSet
from engine.solver import Budget, Verdict, solve
from engine.solver.depth import DepthFirst

Rules = dict[str, Any]


def canfield(reserve: int, unit: str) -> Rules:
    # auto-reserve-then-waste: Solvitaire also refuses every column move while a column is
    # empty and the reserve is out, and its columns never take the base rank's lower
    # neighbour on a base-rank card (ours wrap through K-A): so fewer moves than ours.
    return {"tableau piles": {"count": 4, "build policy": "red-black", "move built group": unit,
                              "spaces policy": "auto-reserve-then-waste"},
            "foundations": {"initial cards": "one", "base card": "random"},
            "stock": {"size": 52 - 4 - 1 - reserve, "deal count": 3, "redeal": True},
            "reserve": {"size": reserve, "stacked": True}}


@functools.cache
def their_tableau(variant: str, base: int) -> RuleSet:
    """Our Canfield with Solvitaire's columns: a card of the base rank takes nothing, so a
    column's run ends at the base where ours wraps through K-A without end. Fewer moves than
    ours (a win is ours too, a loss is not); still more than Solvitaire's (columns move
    while one is empty and the reserve is out). Measures our search on the space Solvitaire
    searches, beside it."""
    ours = engine.get("canfield", variant)

    class TheirTableau(type(ours)):  # type: ignore[misc]
        def declare(self) -> tuple[Group, ...]:
            columns, *rest = super().declare()
            assert columns.kind == TABLEAU and columns.build is not None
            return (replace(columns, build=replace(columns.build, closed=(base,))), *rest)

    return TheirTableau(variant)


def flower_garden(reserve: int) -> Rules:
    return {"tableau piles": {"count": 6, "build policy": "any-suit", "spaces policy": "any"},
            "reserve": {"size": reserve}}


#: Solvitaire's rules JSON per rule set, and how its moves relate to ours.
RULES: dict[str, tuple[str, Rules]] = {
    "canfield/easy": ("subset", canfield(10, "yes")),
    "canfield/difficult": ("subset", canfield(14, "whole-pile")),
    # Ours searched with Solvitaire's columns (``their_tableau``): still more moves.
    "canfield/easy:their-tableau": ("subset", canfield(10, "yes")),
    "canfield/difficult:their-tableau": ("subset", canfield(14, "whole-pile")),
    "flower-garden/easy": ("exact", flower_garden(22)),
    "flower-garden/difficult": ("exact", flower_garden(16)),
    # No cap of 13 cards a column: more moves than ours.
    "beleaguered-castle/difficult": ("superset", {
        "tableau piles": {"count": 8, "build policy": "any-suit", "spaces policy": "kings"},
        "foundations": {"initial cards": "all"}}),
    "eight-off/easy": ("exact", {
        "tableau piles": {"count": 8, "build policy": "same-suit", "spaces policy": "any"},
        "cells": {"count": 8, "pre-filled": 0}}),
    # A gap in the last column takes a King, and a row's first Two may move before a Three:
    # more moves than ours.
    "gaps/easy": ("superset", {
        "foundations": {"present": False}, "tableau piles": {"count": 0},
        "sequences": {"count": 4, "direction": "LR", "build policy": "same-suit",
                      "fixed suit": False}}),
    # Its difficult rule, the left neighbour only: fewer moves than ours.
    "gaps/easy:left": ("subset", {
        "foundations": {"present": False}, "tableau piles": {"count": 0},
        "sequences": {"count": 4, "direction": "L", "build policy": "same-suit",
                      "fixed suit": True}}),
}

#: Why Solvitaire's rules cannot state the others, one line each.
SKIPPED: dict[str, str] = {
    "yukon/difficult": "any face-up card moving with all on it (its groups must be built)",
    "scorpion/easy": "any face-up card moving with all on it, and runs built in place as goal",
    "scorpion/difficult": "any face-up card moving with all on it, and runs built in place",
    "spiderette/easy": "runs of any suits leaving from under other cards (it takes only a "
                       "whole 13-card pile of one suit)",
    "spiderette/difficult": "as easy",
    "shamrocks/difficult": "fans of at most three, built up or down",
    "bristol/easy": "three waste piles, one card dealt onto each",
    "agnes-sorel/standard": "columns built in the same colour; the stock's last two to a reserve",
    "aces-up/easy": "discarding a card below a higher one of its suit",
    "aces-up/difficult": "discarding a card below a higher one of its suit",
    "pyramid/easy": "pairs adding to 13",
}

RANK_NAMES = ("", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


def name(c: int) -> str:
    """Solvitaire's name of card ``c``: rank, then suit letter (C, D, H, S)."""
    return RANK_NAMES[RANK[c]] + "CDHS"[SUIT[c]]


def deal_json(key: str, i: int) -> dict[str, list[Any]]:
    """Deal ``i`` of ``key`` as Solvitaire's deal JSON: every pile listed bottom to top, as
    our piles are; the stock's last card is dealt first in both."""
    game, variant = key.split(":")[0].split("/")
    rs = engine.get(game, variant)
    st = rs.deal(seed(i))
    piles, kinds = st.piles, rs.by_kind

    def cards(k: Any) -> list[list[str]]:
        return [[name(c) for c in piles[p]] for p in kinds.get(k, [])]

    out: dict[str, list[Any]] = {}
    if GRID in kinds:  # Gaps: four rows of thirteen, gaps as ""
        grid = [p[0] if p else "" for p in cards(GRID)]
        return {"sequences": [grid[r * 13:(r + 1) * 13] for r in range(4)]}
    if TABLEAU in kinds:
        out["tableau piles"] = cards(TABLEAU)
    found = [c for p in cards(FOUNDATION) for c in p]
    if found:
        out["foundations"] = found
    reserve = cards(RESERVE)
    if reserve:  # one pile of a stacked reserve, or one pile per card of a fanned one
        out["reserve"] = [c for p in reserve for c in p]
    stock = cards(STOCK_PILE)
    if stock and stock[0]:
        out["stock"] = stock[0]
    assert not any(p for p in cards(WASTE) + cards(CELL)), f"{key}: cards start elsewhere"
    return out


@dataclass
class Result:
    outcome: str  # W won, L lost, U undecided
    cpu: float
    out: str = ""  # Solvitaire's output: a win's line, state by state


def solvitaire(exe: str, rules_path: str, deal: dict[str, list[Any]], seconds: float) -> Result:
    """Run Solvitaire once on ``deal``: its verdict, and the CPU seconds it used."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(deal, f)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        p = subprocess.run([exe, "--custom-rules", rules_path,
                            "--timeout", str(int(seconds * 1000)), f.name],
                           capture_output=True, text=True, timeout=seconds + 120)
    finally:
        os.unlink(f.name)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    said = [ln.split(":", 1)[1].strip() for ln in p.stdout.splitlines()
            if ln.startswith("Solution Type:")]
    verdict = said[-1] if said else ""
    outcome = {"solved": "W", "unsolvable": "L"}.get(verdict)
    if outcome is None and verdict not in ("timed-out", "memory-limit-reached"):
        raise RuntimeError(f"Solvitaire said {p.stdout[-300:]!r} {p.stderr[-300:]!r}")
    return Result(outcome or "U", cpu, p.stdout if outcome == "W" else "")


def replay_gaps(key: str, i: int, out: str) -> bool:
    """Whether Solvitaire's winning line for Gaps (its grids, state by state) plays through
    our engine to a win: each step moves one card into a gap, which we must allow."""
    game, variant = key.split(":")[0].split("/")
    st = engine.get(game, variant).deal(seed(i))
    grids = [[c for ln in block.splitlines() if ln.strip() and not ln.startswith("-")
              for c in ln.split()]
             for block in re.split(r"\n=+\n", out.split("Solution:", 1)[1])[:-1]]
    for a, b in itertools.pairwise(grids):
        moved = [j for j in range(52) if a[j] != b[j]]
        src = next(j for j in moved if b[j] == "__")
        dst = next(j for j in moved if a[j] == "__")
        try:
            st.play(Move("move", src, dst, 1))
        except IllegalMove:
            return False
    return bool(st.status == WON)


Layout = tuple[Any, ...]


def canfield_layout(block: str) -> Layout:
    """One state of Solvitaire's printed Canfield line: columns, foundation tops, reserve,
    stock and waste, each pile bottom to top."""
    sec: dict[str, list[list[str]]] = {}
    for ln in block.splitlines():
        if ln.startswith("---"):
            cur = sec.setdefault(ln.strip("- ").split()[0], [])
        elif ln.strip():
            cur.append([c.strip() if c.strip() != "[]" else "" for c in ln.split("\t")])
    cols: list[list[str]] = [[] for _ in range(4)]
    for row in sec["Tableau"]:
        for j, c in enumerate(row[:4]):
            cols[j] += [c] if c else []
    column = [[row[j] for row in sec["Stock"] if len(row) > j and row[j]] for j in (0, 1)]
    return (tuple(map(tuple, cols)), frozenset(c for c in sec["Foundations"][0] if c),
            tuple(row[0] for row in sec.get("Reserve", []) if row[0]),
            tuple(column[0]), tuple(column[1]))


def our_layout(rs: Any, st: Any) -> Layout:
    """Our Canfield state as ``canfield_layout`` reads Solvitaire's: an empty stock with a
    waste is the waste turned over (Solvitaire turns it as it takes the last card)."""
    k, p = rs.by_kind, st.piles
    stock = [name(c) for c in p[k[STOCK_PILE][0]]]
    waste = [name(c) for c in p[k[WASTE][0]]]
    if not stock:
        stock, waste = waste[::-1], []
    return (tuple(tuple(name(c) for c in p[t]) for t in k[TABLEAU]),
            frozenset(name(p[f][-1]) for f in k[FOUNDATION] if p[f]),
            tuple(name(c) for r in k[RESERVE] for c in p[r]), tuple(stock), tuple(waste))


def replay_canfield(key: str, i: int, out: str) -> bool:
    """Whether Solvitaire's winning line for Canfield plays through our engine to a win:
    each of its steps is found as our draws then one move (or none: its forced fill from
    the reserve is part of our move before)."""
    game, variant = key.split(":")[0].split("/")
    rs = engine.get(game, variant)
    st = rs.deal(seed(i))
    want = [canfield_layout(b) for b in re.split(r"\n=+\n", out.split("Solution:", 1)[1])[:-1]]
    j = 1
    while j < len(want):
        if our_layout(rs, st) == want[j]:
            j += 1
            continue
        for _ in range(2 * 52):  # draws enough to go round the stock twice
            nxt = step(rs, st, want[j:j + 2])
            if nxt:
                st, j = nxt[0], j + nxt[1] + 1
                break
            st.play(Move("stock", -1, -1, 1))
        else:
            return False
    return bool(st.status == WON)


def step(rs: Any, st: Any, want: list[Layout]) -> tuple[Any, int] | None:
    """The state after one of our moves (not a draw) that reaches ``want[d]``, and ``d``."""
    for m in st.legal_moves():
        if m.kind == "stock":
            continue
        after = st.copy()
        after.play(m)
        got = our_layout(rs, after)
        for d, w in enumerate(want):
            if got == w:
                return after, d
    return None


#: Replays of Solvitaire's winning lines through our engine: where it allows more moves a
#: win counts only when replayed; where it allows the same or fewer, each should replay.
REPLAY = {"gaps/easy": replay_gaps, "canfield/easy": replay_canfield,
          "canfield/difficult": replay_canfield, "canfield/easy:their-tableau": replay_canfield,
          "canfield/difficult:their-tableau": replay_canfield}


def disagree(relation: str, theirs: str, ours: str) -> bool:
    """Whether two verdicts contradict each other, given how the rules relate: a win by
    more moves than ours (``w``: not replayed through our engine) and a loss with fewer
    moves than ours prove nothing for us."""
    if "U" in (theirs, ours) or theirs.upper() == ours:
        return False
    return not (theirs == "w" or (relation == "subset" and theirs == "L"))


def depth_first(st: engine.State, budget: Budget) -> Verdict:
    """Our depth-first search alone (``--depth-first``), the one of our turns that proves
    losses, within the budget's seconds: beside Solvitaire's, itself a depth-first search."""
    deadline = None if budget.seconds is None else time.perf_counter() + budget.seconds
    return DepthFirst(st, None).run(None, deadline)


def run(exe: str, key: str, deals: list[int], seconds: float,
        search: Callable[[engine.State, Budget], Verdict] = solve) -> dict[str, Any]:
    relation, rules = RULES[key]
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(rules, f)
    rows = []
    try:
        for i in deals:
            s = solvitaire(exe, f.name, deal_json(key, i), seconds)
            if s.outcome == "W" and (key in REPLAY or relation == "superset"):
                # A win counts for us only if its line is legal for us (``w``: not shown).
                s.outcome = "W" if key in REPLAY and REPLAY[key](key, i, s.out) else "w"
            plain, _, how = key.partition(":")
            ours = None
            if how == "their-tableau":
                variant = plain.split("/")[1]
                ours = their_tableau(variant, engine.get("canfield", variant).deal(
                    seed(i)).vars["base"])
            d = judge(plain, i, None, seconds, search, ours)
            rows.append((i, s.outcome, s.cpu, d.outcome, d.cpu))
            print(f"{key} {i}: solvitaire {s.outcome} {s.cpu:.2f}s, ours {d.outcome} "
                  f"{d.cpu:.2f}s", flush=True)
    finally:
        os.unlink(f.name)
    return {"key": key, "relation": relation, "rows": rows}


def decided(rows: list[Any], at: int) -> str:
    o = "".join(row[at] for row in rows)
    more = f", {o.count('w')} by moves we lack" if "w" in o else ""
    return f"{len(o) - o.count('U')} ({o.count('W') + o.count('w')}{more} / {o.count('L')})"


def median(rows: list[Any], at: int) -> str:
    return f"{statistics.median(row[at] for row in rows):.2f}" if rows else "-"


def table(results: list[dict[str, Any]], seconds: float) -> list[str]:
    out = ["| Rule set | Rules | Deals | Solvitaire decided (won / lost) | median s | "
           "Ours decided (won / lost) | median s | Differ |",
           "|---|---|--:|--:|--:|--:|--:|---|"]
    for r in results:
        rows = r["rows"]
        differ = [f"{i} ({s} vs {o}: {'a bug' if disagree(r['relation'], s, o) else 'rules'})"
                  for i, s, _, o, _ in rows if "U" not in (s, o) and s.upper() != o]
        out.append(f"| {r['key']} | {r['relation']} | {len(rows)} | {decided(rows, 1)} | "
                   f"{median(rows, 2)} | {decided(rows, 3)} | {median(rows, 4)} | "
                   f"{', '.join(differ) or '-'} |")
    out.append(f"\n{seconds:g} s each; times are CPU seconds (an undecided deal's, about the "
               "whole limit). Differ: Solvitaire's verdict vs ours, a bug or allowed by the "
               "rules' difference.")
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--solvitaire", required=True, help="the solvitaire executable")
    ap.add_argument("keys", nargs="*", metavar="RULE_SET", help="default: every one in RULES")
    ap.add_argument("--deals", type=int, default=30, help="deals 0..N-1 (default 30)")
    ap.add_argument("--deal", type=int, action="append", help="these deals instead")
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--depth-first", action="store_true",
                    help="ours as depth first alone, not our turns")
    ap.add_argument("--json", help="also write the rows here")
    a = ap.parse_args(argv)
    for k in a.keys:
        if k not in RULES:
            ap.error(f"{k}: {SKIPPED.get(k, 'not a rule set Solvitaire can state here')}")
    deals = a.deal or list(range(a.deals))
    search = depth_first if a.depth_first else solve
    results = [run(a.solvitaire, k, deals, a.seconds, search) for k in a.keys or list(RULES)]
    print("\n".join(table(results, a.seconds)))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
