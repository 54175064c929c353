"""The daily integrity signal (server/integrity.py) on honest and scouting transcripts:

    python -m bench.integrity --deals 40
    python -m bench.integrity --deals 10 --rules klondike/easy spiderette/easy

Honest players: the example GreedyBot (clients/bots) and a random legal mover, each on its own
deals through the local engine. Scouts know the deal (as an account that studied it would):
``peek`` plays like a simple honest player (a foundation move first, else a random move) but
at every step takes a move whose reveal it knows to be playable at once, when there is one;
``search`` plays the line a two-move look-ahead on the true deal (face-down cards included)
finds best. Prints, per rule set and player, the share of transcripts whose foresight reaches
the flag (for honest players: the false-positive rate), the share reaching 2, the mean, and
the signal's cost per transcript. Deal ``i`` is seed ``i`` as two bytes, as in
``clients.bots.measure``; the same arguments give the same figures.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable, Sequence

import engine
from clients.bots.greedy import GreedyBot
from clients.bots.measure import RandomBot, play_game, seed_of
from clients.local import LocalGame
from engine.core import Move, State
from server.integrity import FLAG, _useful, _visible, foresight

DEFAULT_RULES = ("klondike/easy", "klondike/difficult", "spiderette/easy", "canfield/easy")
MAX_MOVES = 400

Player = Callable[[engine.RuleSet, bytes, int], list[Move]]


def honest(bot: str) -> Player:
    def play(rules: engine.RuleSet, seed: bytes, i: int) -> list[Move]:
        game = LocalGame(rules.id, rules.variant, seed)
        play_game(GreedyBot() if bot == "greedy" else RandomBot(i), game, MAX_MOVES)
        return list(game.state.history)
    return play


def _home(rules: engine.RuleSet, legal: list[Move]) -> list[Move]:
    return [m for m in legal if m.dst >= 0 and rules.pile_names[m.dst].startswith("f")]


def peek(rules: engine.RuleSet, seed: bytes, i: int) -> list[Move]:
    rng, low = random.Random(i), rules.scoring == "low"
    st = rules.deal(seed, competitive=True)
    seen = _visible(st)
    while not st.over and st.ply < MAX_MOVES:
        legal = st.legal_moves()
        choice = next((a for a in legal if _knows_useful(st, a, seen, low)), None)
        if choice is None:
            home = _home(rules, legal)
            choice = home[0] if home else rng.choice(legal)
        st.push(choice)
        seen |= _visible(st)
    return list(st.history)


def _knows_useful(st: State, a: Move, seen: set[int], low: bool) -> bool:
    st.push(a)
    try:
        shown = _visible(st) - seen
        return bool(shown) and _useful(st, shown, low)
    finally:
        st.pop()


def search(rules: engine.RuleSet, seed: bytes, i: int) -> list[Move]:
    rng, sign = random.Random(i), -1 if rules.scoring == "low" else 1
    st = rules.deal(seed, competitive=True)
    been = {st.snapshot()}
    while not st.over and st.ply < MAX_MOVES:
        best, best_value = None, -1e18
        for a in st.legal_moves():
            st.push(a)
            value = sign * st.score
            after = st.legal_moves()
            for b in after:
                st.push(b)
                value = max(value, sign * st.score)
                st.pop()
            value += 0.01 * len(after) - (100 if st.snapshot() in been else 0)
            value += rng.random() * 1e-3
            st.pop()
            if value > best_value:
                best, best_value = a, value
        assert best is not None
        st.push(best)
        been.add(st.snapshot())
    return list(st.history)


PLAYERS: dict[str, tuple[str, Player]] = {
    "greedy": ("honest", honest("greedy")), "random": ("honest", honest("random")),
    "peek": ("scout", peek), "search": ("scout", search)}


def run(rule: str, name: str, deals: int) -> dict[str, float]:
    game, _, variant = rule.partition("/")
    rules = engine.get(game, variant)
    _, player = PLAYERS[name]
    zs, costs = [], []
    for i in range(deals):
        seed = seed_of(i)
        moves = player(rules, seed, i)
        t0 = time.perf_counter()
        zs.append(foresight(rules, seed, moves)["foresight"])
        costs.append(time.perf_counter() - t0)
    return {"n": deals, "flagged": sum(z >= FLAG for z in zs) / deals,
            "over2": sum(z >= 2 for z in zs) / deals, "mean": statistics.fmean(zs),
            "ms": 1000 * statistics.median(costs)}


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.integrity", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--deals", type=int, default=40, help="deals per rule set and player")
    p.add_argument("--rules", nargs="+", default=list(DEFAULT_RULES), metavar="GAME/VARIANT")
    p.add_argument("--players", nargs="+", default=list(PLAYERS), choices=list(PLAYERS))
    args = p.parse_args(argv)
    print(f"| rule set | player | kind | transcripts | foresight ≥ {FLAG:g} | ≥ 2 | mean "
          "| signal cost (median ms) |")
    print("| --- | --- | --- | ---: | ---: | ---: | ---: | ---: |")
    totals: dict[str, list[float]] = {"honest": [], "scout": []}
    for rule in args.rules:
        for name in args.players:
            kind, _ = PLAYERS[name]
            r = run(rule, name, args.deals)
            totals[kind] += [r["flagged"]] * int(r["n"])
            print(f"| {rule} | {name} | {kind} | {r['n']:.0f} | {r['flagged']:.1%} | "
                  f"{r['over2']:.1%} | {r['mean']:+.2f} | {r['ms']:.0f} |", flush=True)
    for kind, flags in totals.items():
        if flags:
            print(f"\n{kind}: {statistics.fmean(flags):.1%} of {len(flags)} transcripts reach "
                  f"foresight {FLAG:g}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
