"""The daily integrity signal: a scout who knows the deal picks reveals that pay off, and the
signal (computed by the server when the attempt is recorded, stored on the board entry, and
listed for moderators by ``samedeal moderate``) tells that line from an honest one.

The deal is a fixed day's Klondike under a fixed secret, a day on which the scout's line
reaches the flag and the honest one does not (bench/integrity.py measures the rates over
many deals)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from datetime import date, timedelta

import engine
from engine.core import Move
from server.app import build_services
from server.config import Settings
from server.daily import daily_seed
from server.daily import feature as daily_feature
from server.fairplay.integrity import FLAG, _useful, _visible, foresight
from tests.conftest import ROOT, SUITE_NICE

from .test_daily import Clock, board

DAY, SECRET = date(2041, 3, 4), "integrity test"
RULES = engine.get("klondike", "easy")


def line(seed: bytes, knows_the_deal: bool, limit: int = 200) -> list[Move]:
    """A foundation move first, else a random one; the scout first takes any move whose
    reveal it knows to be playable at once."""
    rng = random.Random(1)
    st = RULES.deal(seed, competitive=True)
    seen = _visible(st)
    while not st.over and st.ply < limit:
        legal = st.legal_moves()
        choice = None
        for a in legal if knows_the_deal else []:
            st.push(a)
            shown = _visible(st) - seen
            good = bool(shown) and _useful(st, shown, low=False)
            st.pop()
            if good:
                choice = a
                break
        if choice is None:
            home = [m for m in legal if m.kind == "move"
                    and RULES.pile_names[m.dst].startswith("f")]
            choice = home[0] if home else rng.choice(legal)
        st.push(choice)
        seen |= _visible(st)
    return list(st.history)


def test_the_signal_tells_a_scout_from_an_honest_player() -> None:
    seed = daily_seed(SECRET.encode(), DAY, RULES)
    scout, honest = foresight(RULES, seed, line(seed, True)), foresight(
        RULES, seed, line(seed, False))
    assert scout["foresight"] >= FLAG > honest["foresight"], (scout, honest)
    assert scout["useful"] > scout["expected"] and scout["blind"] >= 5
    # A line with no choice between different unseen cards carries no evidence either way.
    assert foresight(RULES, seed, [])["foresight"] == 0


async def test_the_signal_is_stored_on_the_entry_and_sorted_for_moderators(
        clocked_redis_url: str) -> None:
    redis_url = clocked_redis_url
    clock = Clock(DAY - timedelta(days=1))
    # The old derivation from SECRET: the scout's line is for that one deal (a chain's random
    # root would deal another).
    sv = build_services(Settings(redis_url=redis_url, daily_secret=SECRET, daily_chain=False,
                                 **SUITE_NICE),
                        clock)
    scout, _ = await sv.accounts.register("Scout", "human")
    honest, _ = await sv.accounts.register("Honest", "human")
    clock.at(DAY)
    seed = daily_seed(SECRET.encode(), DAY, RULES)
    for p, knows in ((scout, True), (honest, False)):
        s = await daily_feature.daily_start(sv, p, {"game": "klondike", "variant": "easy"})
        for m in line(seed, knows):
            s = await sv.operations["move"].handler(sv, p, {
                "type": "move", "session": s["session"], "move": engine.move_text(RULES, m)})
        if s["view"]["status"] == "playing":
            await sv.operations["resign"].handler(sv, p, {"type": "resign",
                                                          "session": s["session"]})
    clock.at(DAY + timedelta(days=1), 2 * 3_600_000)
    await sv.daily.close_due()
    entries = {json.loads(v)["player"]: json.loads(v) for v in await sv.redis.hvals(
        f"sd:{{board:daily:{DAY}:klondike:easy:human}}:entries")}
    # The flagged result waits for review, off the board; the honest one ranks at once.
    assert scout.id not in entries and not entries[honest.id]["integrity"]["flagged"]
    assert sv.daily.reviews is not None
    # The database is shared with the other clocked tests, whose days are not this one.
    held = [h for h in await sv.daily.reviews.queue() if h["day"] == DAY.isoformat()]
    assert [h["player"] for h in held] == [scout.id], held
    flagged = held[0]["integrity"]
    assert flagged["flagged"] and flagged["foresight"] >= FLAG
    assert "foresight" in flagged["reasons"] and held[0]["status"] == "pending"
    assert flagged["median_move_ms"] is not None and flagged["median_move_ms"] >= 0
    # The public board does not show it, nor anyone's signal.
    page = await board(sv, scout, f"daily/{DAY}/klondike/easy")
    assert page["total"] == 1 and all("integrity" not in e for e in page["entries"])
    await sv.redis.aclose()

    def moderate(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "engine.cli", "moderate", *args,
                               "--redis-url", redis_url], cwd=ROOT, capture_output=True,
                              text=True)

    out = moderate("queue")
    assert out.returncode == 0 and held[0]["session"] in out.stdout, out.stderr
    assert "foresight" in out.stdout
    out = moderate("clear", held[0]["session"])
    assert out.returncode == 0 and "cleared" in out.stdout, out.stderr
    out = moderate("daily", DAY.isoformat(), "klondike", "easy")
    assert out.returncode == 0, out.stderr
    rows = [r for r in out.stdout.splitlines() if scout.id in r or honest.id in r]
    assert scout.id in rows[0] and "!" in rows[0] and honest.id in rows[1], out.stdout
    out = moderate("daily", DAY.isoformat(), "klondike", "easy", "--json")
    first = json.loads(out.stdout.splitlines()[0])
    assert first["player"] == scout.id and first["integrity"]["flagged"]


def test_a_player_copying_the_solvers_line_in_an_open_game_is_flagged_and_play_is_not(
        ) -> None:
    """La Belle Lucie is dealt face up: foresight sees nothing there, solver help does."""
    from engine.solver import Budget, solve
    from server.fairplay import openplay
    from server.fairplay.integrity import flag, signal

    rules = engine.get("la-belle-lucie", "easy")
    seed = bytes([0, 1])  # a deal the solver wins in under a hundred positions
    st = rules.deal(seed, competitive=True)
    assert openplay.is_open(st)
    copied = list(solve(st, Budget(positions=openplay.FIRST)).moves)
    assert copied
    metronome = [1500 * (i + 1) for i in range(len(copied))]
    cheat = flag(signal(rules, seed, copied, metronome, 0))
    assert cheat["follow"] == 1.0 and cheat["judged"] >= 20 and cheat["pace_cv"] == 0
    assert cheat["reasons"] == ["solver"] and cheat["foresight"] == 0

    # The same moves timed as a person thinks (longer where there is more to choose from) are
    # not flagged for solver help; nor is a line of the player's own.
    at, human = 0, []
    replay = rules.deal(seed, competitive=True)
    rng = random.Random(3)
    for m in copied:
        at += int(300 * len(replay.legal_moves()) * rng.uniform(0.7, 1.3))
        human.append(at)
        replay.push(m)
    person = flag(signal(rules, seed, copied, human, 0))
    assert person["pace_corr"] is not None and person["pace_corr"] > 0.1
    assert person["pace_cv"] > 0.3 and not person["flagged"], person
    own = random.Random(5)
    mine = rules.deal(seed, competitive=True)
    while not mine.over and mine.ply < 60:
        mine.push(own.choice(mine.legal_moves()))
    moves = list(mine.history)
    played = flag(signal(rules, seed, moves, [1500 * (i + 1) for i in range(len(moves))], 0))
    assert played["follow"] is not None and played["follow"] < 0.6 and not played["flagged"]


def test_an_attempt_too_short_for_any_rule_costs_no_search() -> None:
    """Fewer than 10 choices (the fewest the flag rule counts): no solver search, no evidence;
    10 or more: searched as before."""
    from server.fairplay import openplay
    from server.fairplay.integrity import STEADY_JUDGED, signal

    rules = engine.get("la-belle-lucie", "easy")
    seed = bytes([0, 1])
    st, rng = rules.deal(seed, competitive=True), random.Random(2)
    while openplay.choices(rules, seed, list(st.history)) < STEADY_JUDGED:
        st.push(rng.choice(st.legal_moves()))
    moves = list(st.history)
    assert openplay.choices(rules, seed, moves, 3) == 3  # counted no further than asked
    short = signal(rules, seed, moves[:-1], [1000 * (i + 1) for i in range(len(moves) - 1)], 0)
    assert (short["follow"], short["judged"], short["solver_positions"]) == (None, 0, 0)
    whole = signal(rules, seed, moves, [1000 * (i + 1) for i in range(len(moves))], 0)
    assert whole["solver_positions"] > 0 and whole["follow"] is not None


def test_the_flag_rule_names_each_reason() -> None:
    from server.fairplay.integrity import flag

    quiet = {"foresight": 0.5, "follow": 0.3, "judged": 40, "pace_cv": 0.9, "pace_corr": 0.4}
    alone = {"linked": 0, "linked_early": 0, "linked_attempts": []}
    household = alone | {"linked": 1}
    assert flag(quiet, alone)["reasons"] == [] and not flag(quiet, alone)["flagged"]
    assert flag(quiet)["reasons"] == []  # no evidence given: nobody else's attempts known
    assert flag(quiet | {"foresight": 3.0})["reasons"] == ["foresight"]
    # Another account from the same place looked at the deal first: scouted.
    assert flag(quiet, household | {"linked_early": 1})["reasons"] == ["scouted"]
    # The same place alone (a household) is not enough; with weaker evidence it is.
    assert not flag(quiet, household)["flagged"]
    assert flag(quiet | {"foresight": 2.0}, household)["reasons"] == ["linked"]
    assert flag(quiet | {"follow": 0.6}, household)["reasons"] == ["linked"]
    # What the flag keeps: the parts, the evidence, the reasons.
    kept = flag(quiet, household)
    assert kept == quiet | household | {"reasons": [], "flagged": False}
    # On the solver's line: at a metronome's pace, or nearly always at a pace blind to the
    # choice; too few choices say nothing.
    assert flag(quiet | {"follow": 0.7, "pace_cv": 0.1})["reasons"] == ["solver"]
    assert flag(quiet | {"follow": 0.95, "pace_corr": 0.0})["reasons"] == ["solver"]
    assert not flag(quiet | {"follow": 0.95})["flagged"]  # a person's pace
    assert not flag(quiet | {"follow": 1.0, "judged": 5, "pace_cv": 0.0})["flagged"]
