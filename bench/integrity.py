"""The daily integrity signal (server/fairplay/integrity.py, server/fairplay/openplay.py) and its
flag rule on
honest, scouting and solver-assisted transcripts:

    python -m bench.integrity --deals 40
    python -m bench.integrity --deals 10 --rules klondike/easy eight-off/easy

Honest players: the example GreedyBot (clients/bots) and a random legal mover, each on its own
deals through the local engine, timed like people: log-normal think times whose median grows
with the number of legal moves. Scouts know the deal (as an account that studied it would):
``peek`` plays like a simple honest player (a foundation move first, else a random move) but
at every step takes a move whose reveal it knows to be playable at once, when there is one;
``search`` plays the line a two-move look-ahead on the true deal (face-down cards included)
finds best; both timed like people. Each scout is judged twice: alone (its scout account was
on another network and browser) and as the scripted pair, where a scout account opened the
deal from the same origin and client, resigned within a few moves, and then the main account
played (server/fairplay/linked.py records both in a private redis-server and judges the main).
Solver help: ``solver`` plays the line ``engine.solver`` finds from the deal with a larger budget
than the server's (found again from where it stops), at a machine's steady pace;
``solver-jitter`` the same line with log-normal times that do not depend on the position.
Prints, per rule set and player, the share flagged (for honest players: the false-alarm
rate), the reasons, and the signal's cost per transcript. Deal ``i`` is seed ``i`` as two
bytes, as in ``clients.bots.measure``; the same arguments give the same figures.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import random
import statistics
import time
from collections.abc import Callable, Sequence

import engine
from clients.bots.greedy import GreedyBot
from clients.bots.measure import RandomBot, play_game, seed_of
from clients.local import LocalGame
from engine.core import Move, State
from engine.solver import Budget, Outcome, solve
from server import store
from server.fairplay.integrity import NO_EVIDENCE, Evidence, _useful, _visible, flag, signal
from server.fairplay.linked import Linked

DEFAULT_RULES = ("klondike/easy", "klondike/difficult", "spiderette/easy", "canfield/easy",
                 "eight-off/easy", "fortress/easy", "penguin/easy", "castile/standard")
MAX_MOVES = 400
#: The assisted player's own search: more than the server's budget, so its line is not
#: always the one the server finds.
HELPER = Budget(positions=100_000, seconds=5)

Player = Callable[[engine.RuleSet, bytes, int], list[Move]]
Pace = Callable[[engine.RuleSet, bytes, list[Move], random.Random], list[int]]


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


def assisted(rules: engine.RuleSet, seed: bytes, i: int) -> list[Move]:
    """The solver's line from the deal; where it stops short of the end, found again; with
    no line, a foundation move, else a random one."""
    rng = random.Random(i)
    st = rules.deal(seed, competitive=True)
    line: list[Move] = []
    tries = 0
    while not st.over and st.ply < MAX_MOVES:
        if not line and tries < 3:
            tries += 1
            v = solve(st, HELPER)
            line = list(v.moves) if v.outcome in (Outcome.WON, Outcome.BEST) else []
        if line:
            st.push(line.pop(0))
            continue
        legal = st.legal_moves()
        home = _home(rules, legal)
        st.push(home[0] if home else rng.choice(legal))
    return list(st.history)


def _legal_counts(rules: engine.RuleSet, seed: bytes, moves: list[Move]) -> list[int]:
    st = rules.deal(seed, competitive=True)
    out = []
    for m in moves:
        if m.kind == "resign" or st.over:
            out.append(1)
            continue
        out.append(len(st.legal_moves()))
        st.push(m)
    return out


def human(rules: engine.RuleSet, seed: bytes, moves: list[Move], rng: random.Random) -> list[int]:
    """Log-normal think times, median 0.8 s plus 0.25 s a legal move (a forced move 0.5 s)."""
    return _clock([0.5 if n == 1 else 0.8 + 0.25 * n
                   for n in _legal_counts(rules, seed, moves)], 0.6, rng)


def steady(rules: engine.RuleSet, seed: bytes, moves: list[Move], rng: random.Random) -> list[int]:
    """A machine's pace: 1.5 s a move, give or take 3%."""
    return _clock([1.5] * len(moves), 0.03, rng)


def jitter(rules: engine.RuleSet, seed: bytes, moves: list[Move], rng: random.Random) -> list[int]:
    """Human-like spread (log-normal) around 2 s, whatever the position."""
    return _clock([2.0] * len(moves), 0.6, rng)


def _clock(medians: list[float], sigma: float, rng: random.Random) -> list[int]:
    at, out = 0, []
    for m in medians:
        at += max(1, int(1000 * m * math.exp(rng.gauss(0, sigma))))
        out.append(at)
    return out


#: name -> (kind, moves, pace, scouted from the same origin and client)
PLAYERS: dict[str, tuple[str, Player, Pace, bool]] = {
    "greedy": ("honest", honest("greedy"), human, False),
    "random": ("honest", honest("random"), human, False),
    "peek": ("scout", peek, human, False), "search": ("scout", search, human, False),
    "peek+pair": ("scout", peek, human, True), "search+pair": ("scout", search, human, True),
    "solver": ("assisted", assisted, steady, False),
    "solver-jitter": ("assisted", assisted, jitter, False)}
OPEN_ONLY = {"solver", "solver-jitter"}  # solver help is measured where nothing is hidden


async def pair_evidence(redis_url: str, n: int) -> list[Evidence]:
    """The scripted pair, ``n`` times on a real Redis: a scout account starts the deal from
    an origin and client, resigns after 3 moves; then the main account starts it from the
    same; what ``Linked.evidence`` finds for the main's attempt."""
    redis = store.connect(redis_url)
    linked = Linked(redis)
    deal = "2041-03-04:klondike:easy"
    out = []
    try:
        for i in range(n):
            scout, main = f"d20410304-klondike-easy-ps{i}", f"d20410304-klondike-easy-pm{i}"
            where = (f"198.51.{i % 250}.{i % 200}", "Mozilla/5.0 (bench)", f"i{i}")
            for sid, player, created, entries in (
                    (scout, f"scout{i}", 1000, ["1100 m1", "1200 m2", "1300 m3", "1400 resign"]),
                    (main, f"main{i}", 5000, [])):
                key, moves = store.session_keys(sid)
                await redis.hset(key, mapping={"created": created, "player": player})
                if entries:
                    await redis.rpush(moves, *entries)
                    await redis.hset(key, "finished_at", 1400)
                await linked.saw(sid, deal, *where)
            out.append(await linked.evidence(main, deal, f"main{i}", 5000))
    finally:
        await redis.aclose()
    return out


def run(rule: str, name: str, deals: int, pairs: list[Evidence]) -> dict[str, object]:
    game, _, variant = rule.partition("/")
    rules = engine.get(game, variant)
    _, player, pace, paired = PLAYERS[name]
    flagged, costs, reasons = 0, [], {}  # type: ignore[var-annotated]
    for i in range(deals):
        seed = seed_of(i)
        moves = player(rules, seed, i)
        times = pace(rules, seed, moves, random.Random(i))
        t0 = time.perf_counter()
        measured = signal(rules, seed, moves, times, 0)
        costs.append(time.perf_counter() - t0)
        sig = flag(measured, pairs[i % len(pairs)] if paired else NO_EVIDENCE)
        flagged += sig["flagged"]
        for r in sig["reasons"]:
            reasons[r] = reasons.get(r, 0) + 1
    return {"n": deals, "flagged": flagged, "reasons": reasons,
            "ms": 1000 * statistics.median(costs), "max_ms": 1000 * max(costs)}


def bound(hits: int, n: int) -> str:
    """The rate, and where it is 0 the 95% upper bound (the rule of three's exact form)."""
    if hits:
        return f"{hits / n:.1%}"
    return f"0 (< {1 - 0.05 ** (1 / n):.1%})"


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.integrity", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--deals", type=int, default=40, help="deals per rule set and player")
    p.add_argument("--rules", nargs="+", default=list(DEFAULT_RULES), metavar="GAME/VARIANT")
    p.add_argument("--players", nargs="+", default=list(PLAYERS), choices=list(PLAYERS))
    args = p.parse_args(argv)
    from .common import start_redis

    proc, url = start_redis()
    try:
        pairs = asyncio.run(pair_evidence(url, 20))
    finally:
        proc.terminate()
        proc.wait(10)
    print("| rule set | player | kind | transcripts | flagged | reasons | signal cost "
          "(median / max ms) |")
    print("| --- | --- | --- | ---: | ---: | --- | ---: |")
    totals: dict[str, list[int]] = {}
    for rule in args.rules:
        rules = engine.get(*rule.split("/"))
        opened = not any(rules.deal(seed_of(0), competitive=True).down)
        for name in args.players:
            kind, *_ = PLAYERS[name]
            if (name in OPEN_ONLY) != opened and (name in OPEN_ONLY or kind == "scout"):
                continue  # scouts where cards are hidden, solver help where none is
            r = run(rule, name, args.deals, pairs)
            t = totals.setdefault(f"{kind} {name}" if kind != "honest" else kind, [0, 0])
            t[0] += int(r["flagged"])  # type: ignore[call-overload]
            t[1] += int(r["n"])  # type: ignore[call-overload]
            why = ", ".join(f"{k} {v}" for k, v in sorted(r["reasons"].items()))  # type: ignore[attr-defined]
            print(f"| {rule} | {name} | {kind} | {r['n']} | "
                  f"{bound(int(r['flagged']), int(r['n']))} | {why or '-'} | "  # type: ignore[call-overload]
                  f"{r['ms']:.0f} / {r['max_ms']:.0f} |", flush=True)
    print()
    for who, (hits, n) in totals.items():
        print(f"{who}: flagged {hits} of {n} transcripts, {bound(hits, n)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
