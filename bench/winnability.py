"""How often each rule set's deals can be won: the solver (engine/solver) over many deals.

``python -m bench.winnability [RULE_SET ...] [--deals N] [--positions P] [--jobs J]``: the
whole table, docs/winnability.md, from bench/winnability.json. Deal ``i`` is seed ``i`` as
four big-endian bytes; each deal gets the same budget of positions (so the verdicts are the
same on any machine), with a cap of seconds as a guard; each rule set stops early once its
deals have used its allowance of CPU seconds (the table says how many deals it has). It
resumes where the file stops, so a long run can be done in parts. ``--deep`` runs the same
census with a larger budget on the rule sets that have a published figure (``PUBLISHED``),
so that their rows can be held against it. ``--within SECONDS`` measures instead how many
deals each rule set decides within that time, and ``--longer SECONDS`` what more time
gives the deals it left undecided (bench/longer.py). ``--again RULE_SET ...`` searches
those rows of the table again with this solver. ``make bench``'s small sample is
bench/solver.py.
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import os
import statistics
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from itertools import groupby
from typing import Any

import engine
from bench.common import ROOT, fmt
from engine.compiled import MODULES, compiled
from engine.core import WON
from engine.rules import RuleSet
from engine.solver import VERSION, Budget, Outcome, Verdict, solve
from engine.solver.search import collector_paused

DATA = ROOT / "bench" / "winnability.json"
DOC = ROOT / "docs" / "winnability.md"
#: The census budget: positions decide (the same verdicts on any machine); seconds only guard.
POSITIONS = 20_000
SECONDS = 30.0
ALLOWANCE = 1200.0  # CPU seconds a rule set may spend: 1,000 deals at 1.2 s
ROUND = 50  # deals each rule set gets in a round of the census
#: The deeper census's budget: enough positions that few deals of the rule sets compared
#: with a published figure stay unknown (about 7 seconds of Klondike easy's search).
DEEP_POSITIONS = 500_000
DEEP_SECONDS = 120.0
DEEP_ALLOWANCE = 1800.0


def seed(i: int) -> bytes:
    return i.to_bytes(4, "big")


@dataclass(frozen=True)
class Deal:
    """One deal's verdict: W won, L proved lost, U unknown (budget spent)."""

    outcome: str
    positions: int
    cpu: float  # CPU seconds of the search
    moves: int  # the winning line's length (0 unless won)


def judge(key: str, i: int, positions: int | None, seconds: float | None,
          search: Callable[[engine.State, Budget], Verdict] = solve,
          rules: RuleSet | None = None) -> Deal:
    """Solve deal ``i`` (with ``search``, the solver by default; of ``rules``, where given
    in place of ``key``'s); a scored game's best line counts as a win when it ends won (its
    target reached), as a loss when no line can (the whole search found none). A win is
    counted only once its line has replayed through the engine to a win."""
    game, variant = key.split("/")
    st = (rules or engine.get(game, variant)).deal(seed(i))
    t0 = time.process_time()
    with collector_paused():
        v = search(st, Budget(positions=positions, seconds=seconds))
    cpu = time.process_time() - t0
    won = False
    if v.outcome in (Outcome.WON, Outcome.BEST):
        end = st.copy()
        for m in v.moves:
            end.play(m)  # checked as a player's move: a line the engine refuses raises
        won = end.status == WON
        if v.outcome is Outcome.WON and not won:
            raise AssertionError(f"{key} deal {i}: the winning line does not win")
    outcome = "W" if won else "L" if v.complete else "U"
    return Deal(outcome, v.positions, cpu, len(v.moves) if won else 0)


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% interval of a share k/n (Wilson's score interval: sound at 0 and n too)."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    d = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, mid - half), min(1.0, mid + half)


def share(k: int, n: int) -> str:
    lo, hi = wilson(k, n)
    return f"{100 * k / n:.1f}% ({100 * lo:.1f}-{100 * hi:.1f})" if n else "-"


# ----- the whole table ---------------------------------------------------------------------------

#: Published figures for rules that match ours, and where they differ.
PUBLISHED: dict[str, str] = {
    "klondike/easy": "81.536 ± 0.055% (thoughtful Klondike, draw three, no card back from a "
                     "foundation, two million deals; Dang, Gent, Nightingale, Ulrich-Oltean and "
                     "Waller, CP 2025, where Blake and Gent's Solvitaire gave 81.524 ± 0.089%): "
                     "the same rules",
    "eight-off/difficult": "about 99.9% (Eight Off; Blake and Gent's Solvitaire): the same "
                           "deal (columns of six, four cells filled, Kings alone fill a column)",
    "eight-off/easy": "about 99.9% for Eight Off's usual deal (see eight-off/difficult); this "
                      "variant deals all 52 cards to the columns and lets any card fill one",
    "golf/easy": "at least about 45.1% (Golf; Blake and Gent's Solvitaire): their foundation "
                 "starts with the stock's first card, ours may also start with a column's top "
                 "card, so theirs is a lower bound",
    "beleaguered-castle/difficult": "at most about 68.2% (Beleaguered Castle; Blake and Gent's "
                                    "Solvitaire): any card fills their spaces and their "
                                    "columns have no cap; ours take only Kings and hold 13, "
                                    "so theirs is an upper bound",
    "canfield/easy": "about 71.2% (Canfield; Blake and Gent's Solvitaire): their reserve has 13 "
                     "cards, ours 10, and once it is empty any card fills their spaces, ours "
                     "only the waste's top card; a bound neither way",
    "canfield/difficult": "about 67.6% (Canfield, whole pile moves; Blake and Gent's "
                          "Solvitaire): their reserve has 13 cards, ours 14, and their spaces "
                          "may take any card once it is empty; a bound neither way",
    "fortress/easy": "at least about 20.2% (Fortress; Jan Wolter's Politaire analysis, "
                     "1,000,000 deals): he builds in suit and from Aces, we in any suit from "
                     "a chosen base, so his is a lower bound",
    "klondike/difficult": "at most about 90.2% (thoughtful Klondike, draw one, no card back "
                          "from a foundation; Blake and Gent's Solvitaire): they turn the "
                          "stock over without limit, we never, so theirs is an upper bound",
    "spiderette/easy": "not comparable: the usual Spiderette (about 99.6%, Blake and Gent's "
                       "Solvitaire) deals Klondike's 28 cards and moves and removes only runs "
                       "in one suit; here 21 cards in columns of three, a top card or a whole "
                       "packed run moves, and a King-to-Ace run of any suits leaves",
    "spiderette/difficult": "as spiderette/easy; this variant deals seven columns of four "
                            "(three face down) and a 24-card stock",
}


def load() -> dict[str, Any]:
    return json.loads(DATA.read_text()) if DATA.exists() else {}


def save(data: dict[str, Any]) -> None:
    """The file as it stands, written after each deal or row: a stopped run keeps it."""
    DATA.write_text(json.dumps(data, separators=(",", ":")) + "\n")


def records(holder: dict[str, Any], budget: dict[str, Any]) -> dict[str, Any]:
    """``holder``'s records by rule set, made with ``budget`` (set on a new holder): a run
    with another budget or solver version must not add to them."""
    if holder.get("budget") not in (None, budget):
        raise SystemExit(f"{DATA} holds records made with {holder['budget']}, not {budget}: "
                         "keep them, or delete them to start again")
    holder["budget"] = budget
    sets: dict[str, Any] = holder.setdefault("sets", {})
    return sets


def add(rec: dict[str, Any], d: Deal) -> None:
    """One more deal's verdict at the end of a rule set's record of the table."""
    rec["outcomes"] += d.outcome
    rec["positions"].append(d.positions)
    rec["cpu"].append(round(d.cpu, 3))
    rec["moves"].append(d.moves)


def census(keys: list[str], deals: int, positions: int, seconds: float, allowance: float,
           jobs: int, deep: bool = False) -> dict[str, Any]:
    """Solve deals 0..deals-1 of each rule set (resuming from the file), in rounds of
    ``ROUND`` deals for every rule set, so that a run stopped at any point leaves every row
    about as far along. A round's deals of every rule set go to the pool at once, so no
    core waits for another at the end of a batch; the results are taken in order, a rule
    set's last one the deal with which its CPU seconds reach its allowance, and the file is
    written as each rule set's deals of the round are in, so a stopped run keeps what it
    did. ``deep``: the records go under the file's ``deep`` key (the deeper census)."""
    data = load()
    sets = records(data.setdefault("deep", {}) if deep else data,
                   {"positions": positions, "seconds": seconds, "solver": VERSION})
    with ProcessPoolExecutor(jobs) as pool:
        for goal in range(ROUND, deals + ROUND, ROUND):
            recs = {key: sets.setdefault(key, {"outcomes": "", "positions": [], "cpu": [],
                                               "moves": []}) for key in keys}
            tasks = [(key, i) for key, rec in recs.items() if sum(rec["cpu"]) < allowance
                     for i in range(len(rec["outcomes"]), min(goal, deals))]
            results = pool.map(judge, [k for k, _ in tasks], [i for _, i in tasks],
                               [positions] * len(tasks), [seconds] * len(tasks))
            for key, done in groupby(zip(tasks, results, strict=True), lambda t: t[0][0]):
                rec = recs[key]
                for _, d in done:
                    if sum(rec["cpu"]) < allowance:  # in order: the deals after it are dropped
                        add(rec, d)
                save(data)
                print(f"{key}: {row(key, rec)[1:5]}", flush=True)
    return data


def again(keys: list[str], jobs: int, deep: bool = False) -> dict[str, Any]:
    """Search the table's rows of ``keys`` again, the same deals with the same budget, with
    this solver, whose version then marks each row: for when a later version changes what
    the search proves on those rule sets (docs/solver.md: its safe moves from a draw-three
    waste), where running the whole table again would take hours. ``deep``: the deeper
    census's rows."""
    data = load()
    holder = data["deep"] if deep else data
    b = holder["budget"]
    with ProcessPoolExecutor(jobs) as pool:
        for key in keys:
            n = len(holder["sets"][key]["outcomes"])
            rec: dict[str, Any] = {"outcomes": "", "positions": [], "cpu": [], "moves": [],
                                   "solver": VERSION}
            for d in pool.map(judge, [key] * n, range(n), [b["positions"]] * n,
                              [b["seconds"]] * n):
                add(rec, d)
            holder["sets"][key] = rec
            save(data)
            print(f"{key}: {row(key, rec)[1:5]}", flush=True)
    return data


def within_again(keys: list[str], jobs: int) -> dict[str, Any]:
    """``again`` for the rows within the time: the same deals with the same seconds each,
    with this solver, whose version then marks each row."""
    data = load()
    seconds = data["within"]["budget"]["seconds"]
    sets = data["within"]["sets"]
    with ProcessPoolExecutor(jobs) as pool:
        for key in keys:
            n = len(sets[key]["outcomes"])
            rec: dict[str, Any] = {"outcomes": "", "cpu": [], "solver": VERSION}
            for d in pool.map(judge, [key] * n, range(n), [None] * n, [seconds] * n):
                rec["outcomes"] += d.outcome
                rec["cpu"].append(round(d.cpu, 3))
            sets[key] = rec
            save(data)
            print(f"{key}: {rec['outcomes']}", flush=True)
    return data


def within(keys: list[str], deals: int, seconds: float, jobs: int) -> dict[str, Any]:
    """The issue's other measure: each rule set's deals 0..deals-1, each with ``seconds`` of
    search (a time budget, so machine-dependent, unlike the table's), decided or not;
    resumed and written like ``census``, under the file's ``within`` key."""
    data = load()
    sets = records(data.setdefault("within", {}), {"seconds": seconds, "solver": VERSION,
                                                   "engine": engine_kind()})
    with ProcessPoolExecutor(jobs) as pool:
        for key in keys:
            rec = sets.setdefault(key, {"outcomes": "", "cpu": []})
            start = len(rec["outcomes"])
            for d in pool.map(judge, [key] * (deals - start), range(start, deals),
                              [None] * (deals - start), [seconds] * (deals - start)):
                rec["outcomes"] += d.outcome
                rec["cpu"].append(round(d.cpu, 3))
                save(data)
            print(f"{key}: {rec['outcomes']}", flush=True)
    return data


def steps(keys: list[str], deals: int, seconds: float, jobs: int) -> dict[str, Any]:
    """The rule sets the step search plays, each deal with ``seconds`` of search (nearly
    every one decided): deals 0..deals-1, resumed and written like ``census``, under the
    file's ``steps`` key."""
    data = load()
    sets = records(data.setdefault("steps", {}), {"seconds": seconds, "solver": VERSION,
                                                  "engine": engine_kind()})
    with ProcessPoolExecutor(jobs) as pool:
        for key in keys:
            rec = sets.setdefault(key, {"outcomes": "", "positions": [], "cpu": [],
                                        "moves": []})
            start = len(rec["outcomes"])
            for at in range(start, deals, ROUND * 10):
                stop = min(deals, at + ROUND * 10)
                for d in pool.map(judge, [key] * (stop - at), range(at, stop),
                                  [None] * (stop - at), [seconds] * (stop - at), chunksize=8):
                    add(rec, d)
                save(data)
                print(f"{key}: {row(key, rec)[1:5]}", flush=True)
    return data


def render_steps(rec_all: dict[str, Any]) -> list[str]:
    b = rec_all["budget"]
    sets = rec_all["sets"]
    counts = {len(r["outcomes"]) for r in sets.values()}
    lines = [
        "",
        "## The step search: nearly every deal decided",
        "",
        "The rule sets the step search plays ([solver.md](solver.md#the-step-search)), each",
        f"deal searched with {b['seconds']:g} seconds of wall time on one of two cores",
        f"(engine/solver `VERSION` {b['solver']}, the engine {b['engine']}), the other core",
        "running another deal: so few deals are left unknown that the shares bound the true",
        "winnability closely. Each won deal's line replayed through the engine. Regenerate",
        "(it resumes like the tables above) with",
        "",
        f"    python -m bench.winnability --steps {b['seconds']:g} --deals {max(counts)} "
        "--jobs 2 " + " ".join(sorted(sets)),
        "",
        "| rule set | deals | won | proved lost | unknown | median CPU s | positions/s "
        "| published figure, and how its rules compare |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    for key in sorted(sets):
        lines.append("| " + " | ".join(row(key, sets[key])) + " |")
    return lines


def engine_kind() -> str:
    """"compiled" when every module of the engine's inner loop runs compiled here, else "pure
    Python": a time budget buys more search compiled. Each is imported first: a module not
    yet imported is not yet known to run compiled."""
    for name in MODULES:
        importlib.import_module(name)
    return "compiled" if set(compiled()) == set(MODULES) else "pure Python"


def row(key: str, rec: dict[str, Any]) -> list[str]:
    out = rec["outcomes"]
    n = len(out)
    cpu = rec["cpu"]
    rate = sum(rec["positions"]) / sum(cpu) if sum(cpu) else 0.0
    name = f"`{key}`" + (f" (version {rec['solver']})" if "solver" in rec else "")
    return [name, f"{n:,}", share(out.count("W"), n), share(out.count("L"), n),
            f"{100 * out.count('U') / n:.1f}%" if n else "-",
            fmt(statistics.median(cpu)) if cpu else "-", f"{rate:,.0f}",
            PUBLISHED.get(key, "")]


def render(data: dict[str, Any]) -> str:
    b = data["budget"]
    counts = [len(r["outcomes"]) for r in data["sets"].values() if r["outcomes"]]
    done = (f"{min(counts):,}" if min(counts) == max(counts)
            else f"{min(counts):,} to {max(counts):,}") if counts else "no"
    measured, total = len(counts), len(engine.rule_sets())
    cpu = [c for r in data["sets"].values() for c in r["cpu"]]
    per_deal = sum(cpu) / len(cpu) if cpu else 0.0
    if measured == total and min(counts) >= 1000:
        so_far = [
            f"**Done:** {done} deals of every rule set, in {sum(cpu) / 3600:.1f} hours of one",
            f"core ({fmt(per_deal)} CPU seconds a deal on average).",
        ]
    else:
        hours = per_deal * 1000 * total / 3600
        so_far = [
            f"**So far:** {done} deals per rule set ({measured} of {total} rule sets measured).",
            f"The aim is 1,000 deals each; at the {fmt(per_deal)} CPU seconds a deal took here",
            f"on average, that is some {hours:.0f} hours of one core for the {total} rule sets",
            "(less the ones that stop short), so the table grows run by run: the command below",
            f"goes on from where the file stops, in rounds of {ROUND} deals for every rule set.",
        ]
    lines = [
        "# Winnability",
        "",
        "How often a random deal of each rule set can be won, as the solver",
        "([solver.md](solver.md)) finds it: *thoughtful*, knowing the whole deal, face-down",
        "cards included. Deal `i` is seed `i` as four big-endian bytes, dealt as the server",
        "deals (`samedeal deal GAME VARIANT --seed 0000002a` shows deal 42).",
        "",
        f"Each deal had a budget of {b['positions']:,} positions (the same verdicts on any",
        f"machine with the same search: engine/solver `VERSION` {b['solver']}), and",
        f"{b['seconds']:g} seconds as a guard. **Won**: a winning line was found",
        "and replays to a win. **Proved lost**: every position reachable was searched and none",
        "is won. **Unknown**: the budget ran out first. A scored game (Poker Square, Cribbage",
        "Square, Bowling, Slide) counts as won when its best line found reaches the rule set's",
        "target, as lost when its whole search found none that does. Shares with their 95%",
        "interval (Wilson's). A rule set whose deals cost much stops short of 1,000 deals once",
        "its deals have used its allowance of CPU seconds: its row says how many it has.",
        "A row marked with a version was searched again with that one, the same deals with",
        "the same budget (`--again`), as a later version changed what the search proves there",
        "([solver.md](solver.md): safe moves from a draw-three waste, or before a shuffled",
        "redeal, could make a win look lost; Eight Off and Penguin searched on a board).",
        "",
        *so_far,
        "",
        "Regenerate it (it resumes where bench/winnability.json stops; delete that file to",
        "start again, for instance with another budget):",
        "",
        "    python -m bench.winnability --deals 1000 --jobs 2",
        "",
        "`make bench` measures a small sample beside the engine's own play (bench/results.md,",
        "\"Solver\").",
        "",
        "| rule set | deals | won | proved lost | unknown | median CPU s | positions/s "
        "| published figure, and how its rules compare |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    for key in sorted(r.key for r in engine.rule_sets()):
        rec = data["sets"].get(key)
        lines.append("| " + " | ".join(row(key, rec) if rec and rec["outcomes"] else
                                       [f"`{key}`", "0", "not measured yet", "", "", "", "",
                                        PUBLISHED.get(key, "")]) + " |")
    if "steps" in data:
        lines += render_steps(data["steps"])
    if "deep" in data:
        lines += render_deep(data["deep"])
    if "within" in data:
        lines += render_within(data["within"])
    if "longer" in data:
        from bench.longer import render_longer  # (it imports this module)

        lines += render_longer(data["longer"], data["within"])
    return "\n".join(lines) + "\n"


def render_deep(deep: dict[str, Any]) -> list[str]:
    b = deep["budget"]
    counts = [len(r["outcomes"]) for r in deep["sets"].values()]
    lines = [
        "",
        "## Against the published figures",
        "",
        "Rule sets with a published figure, again with a budget of",
        f"{b['positions']:,} positions a deal (engine/solver `VERSION` {b['solver']};",
        f"{b['seconds']:g} seconds as a guard), so that fewer of their deals stay unknown.",
        "The share won can only be below the true share of winnable deals, and the share",
        "proved lost only below the rest, so where the rules are the same the published",
        "figure should lie between the share won and 100% less the share proved lost",
        "(each with its interval).",
        f"A rule set stops short of {max(counts):,} deals once its deals have used its",
        f"allowance ({DEEP_ALLOWANCE:,.0f} CPU seconds unless `--allowance` says). Regenerate",
        "(it resumes like the table above) with",
        "",
        f"    python -m bench.winnability --deep --deals {max(counts)} --jobs 2 "
        + " ".join(sorted(deep["sets"])),
        "",
        "| rule set | deals | won | proved lost | unknown | median CPU s | positions/s "
        "| published figure, and how its rules compare |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    for key in sorted(deep["sets"]):
        lines.append("| " + " | ".join(row(key, deep["sets"][key])) + " |")
    return lines


#: The share of its deals, in percent, each rule set is to decide within the time (the
#: issue's target), but those out of reach for their state space (``WHY_NOT``).
TARGET = 98

#: Why a rule set is decided for fewer than ``TARGET`` of its deals within the time: out of
#: reach for any search where the game's positions are too many to go through (the first
#: two), else this search's speed.
WHY = {
    "state space: scored": "a scored game is decided when its best score is proved the best, "
                           "which takes every line of play, every order of laying out the cards",
    "state space: placed": "every stock card goes on one of four to eight piles, so a loss is "
                           "proved only by trying every way of laying out some forty cards",
    "speed": "this search's, not the game's: the undecided deals neither showed a win nor ran "
             "out of positions within the time (below: what more time gives some of them; "
             "docs/solver.md, What is left, what more time, a faster search and other searches "
             "gave)",
}
WHY_NOT: dict[str, str] = {
    **{f"{game}/{v}": "state space: scored" for v in ("easy", "difficult")
       for game in ("bowling", "cribbage-square", "poker-square", "slide")},
    **{f"{game}/{v}": "state space: placed" for v in ("easy", "difficult")
       for game in ("calculation", "strategy")},
    "lady-betty/standard": "state space: placed",
}


def undecided(rec: dict[str, Any]) -> int:
    return int(rec["outcomes"].count("U"))


def short_of_target(rec: dict[str, Any]) -> bool:
    """Whether a rule set's record within the time decides fewer than ``TARGET`` percent."""
    return 100 * undecided(rec) > (100 - TARGET) * len(rec["outcomes"])


def span(counts: set[int]) -> str:
    return f"{min(counts)}" if len(counts) == 1 else f"{min(counts)} to {max(counts)}"


def render_within(rec_all: dict[str, Any]) -> list[str]:
    b = rec_all["budget"]
    sets = rec_all["sets"]
    reached = [k for k in sorted(sets) if not short_of_target(sets[k])]
    secs = f"{b['seconds']:g}"
    held = {len(r["outcomes"]) for k, r in sets.items() if k not in WHY_NOT}
    others = {len(r["outcomes"]) for k, r in sets.items() if k in WHY_NOT} or held
    n, rest = max(held), min(others)
    command = f"    python -m bench.winnability --within {secs} --deals"
    if held == others == {n}:
        sample = [f"target is at least {TARGET}% for every rule set; {n} deals each are a small "
                  f"sample (one deal is {100 / n:g} points).", "", f"{command} {n} --jobs 2"]
    else:  # the rule sets held to the target measured on more deals than the others
        sample = [f"target is at least {TARGET}% for every rule set but those out of reach for "
                  f"their state space (below); each rule set held to it has {span(held)} deals "
                  f"(one deal is {100 / n:g} points), each of the others {span(others)}.",
                  "", f"{command} {n} --held --jobs 2", f"{command} {rest} --jobs 2"]
    lines = [
        "",
        f"## Decided within {secs} seconds",
        "",
        f"Each deal searched with a budget of {secs} seconds of wall time on one of",
        f"two cores (engine/solver `VERSION` {b['solver']}, the engine "
        f"{b.get('engine', 'pure Python')}), the other core",
        "running another deal. **Decided**: won, or proved lost",
        "(a scored game: its target reached, or its best score proved the best there is). The",
        sample[0],
        "Times are CPU seconds; the median counts an undecided deal as slower than any.",
        "A row marked with a version was searched again with that one (`--again`).",
        "Regenerate with",
        *sample[1:],
        "",
        f"**{len(reached)} of {len(sets)} rule sets reach {TARGET}%:** "
        + ", ".join(f"`{k}`" for k in reached) + ". Why the others do not:",
        "",
        *[f"- **{tag}**: {text}." for tag, text in WHY.items()],
        "",
        f"| rule set | deals | won | proved lost | decided | median CPU s | under {TARGET}%: why |",
        "| --- | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    for key in sorted(sets):
        rec = sets[key]
        out, n = rec["outcomes"], len(rec["outcomes"])
        if not n:
            continue
        times = sorted(c if o != "U" else math.inf for o, c in zip(out, rec["cpu"], strict=True))
        med = times[n // 2]
        name = f"`{key}`" + (f" (version {rec['solver']})" if "solver" in rec else "")
        lines.append(f"| {name} | {n} | {out.count('W')} | {out.count('L')} | "
                     f"{100 * (n - undecided(rec)) / n:.0f}% | "
                     f"{fmt(med) if math.isfinite(med) else '-'} | "
                     f"{WHY_NOT.get(key, 'speed') if short_of_target(rec) else ''} |")
    return lines


def main() -> None:
    p = argparse.ArgumentParser(prog="python -m bench.winnability", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("keys", nargs="*", help="rule sets as game/variant (default: all)")
    p.add_argument("--deals", type=int, default=1000)
    p.add_argument("--positions", type=int)
    p.add_argument("--seconds", type=float)
    p.add_argument("--allowance", type=float,
                   help="CPU seconds per rule set before it stops short of --deals")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    p.add_argument("--render", action="store_true", help="only write docs/winnability.md")
    p.add_argument("--deep", action="store_true",
                   help=f"the deeper census: the rule sets with a published figure (or those "
                   f"named), {DEEP_POSITIONS:,} positions a deal unless --positions says")
    p.add_argument("--within", type=float, metavar="SECONDS",
                   help="instead: how many of --deals deals each are decided within SECONDS")
    p.add_argument("--longer", type=float, metavar="SECONDS",
                   help="instead: the deals --within left undecided, searched again with "
                   "SECONDS (bench/longer.py)")
    p.add_argument("--per", type=int, default=2,
                   help="with --longer: how many deals of each rule set")
    p.add_argument("--steps", type=float, metavar="SECONDS",
                   help="instead: the rule sets the step search plays (or those named), "
                   "--deals deals each with SECONDS")
    p.add_argument("--again", action="store_true",
                   help="search the named rule sets' rows of the table (with --within: of "
                   "the time's table; with --deep: of the deeper census) again with this "
                   "solver, the same deals and budget, its version marking each row")
    p.add_argument("--held", action="store_true",
                   help=f"only the rule sets held to the {TARGET}%% target (not out of reach for "
                   "their state space)")
    args = p.parse_args()
    keys = args.keys or (sorted(PUBLISHED) if args.deep else [r.key for r in engine.rule_sets()])
    if args.held:
        keys = [k for k in keys if k not in WHY_NOT]
    if args.render:
        data = load()
    elif args.again and args.within:
        data = within_again(args.keys, args.jobs)
    elif args.again:
        data = again(args.keys, args.jobs, args.deep)
    elif args.longer:
        from bench.longer import longer

        data = longer(args.keys, args.longer, args.per, args.jobs)
    elif args.within:
        data = within(keys, args.deals, args.within, args.jobs)
    elif args.steps:
        from engine.solver.step_rules import plan

        named = args.keys or [r.key for r in engine.rule_sets() if plan(r).fits]
        data = steps(named, args.deals, args.steps, args.jobs)
    else:
        deep = args.deep
        data = census(keys, args.deals, args.positions or (DEEP_POSITIONS if deep else POSITIONS),
                      args.seconds or (DEEP_SECONDS if deep else SECONDS),
                      args.allowance or (DEEP_ALLOWANCE if deep else ALLOWANCE), args.jobs, deep)
    DOC.write_text(render(data))


if __name__ == "__main__":
    main()
