"""Winnable daily deals on a beacon day (docs/fairness.md, "Beacon days"): the candidates
cannot be known before the round of the day's opening, so nothing is decided ahead for such a
day; once the round is in, a deal not decided yet shows as pending (no commitment), a ranked
start decides it at once in the worker and deals the chosen candidate, and the page then shows
its commitment. The server's own services over the real redis-server and a local drand beacon
over HTTP (tests/beacon_server.py)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import engine
from engine import winnable
from server.app import build_services
from server.config import Settings
from tests.beacon_server import LocalBeacon

from .test_chain import empty_database
from .test_daily import Clock, start

ONLY = "isabel/standard"


async def test_a_beacon_day_is_decided_at_its_opening_and_pending_until_then(
        local_beacon: LocalBeacon, redis_url: str) -> None:
    today = datetime.now(UTC).date()
    clock = Clock(today)
    env = local_beacon.env()
    settings = Settings(
        redis_url=await empty_database(redis_url), daily_secret="winnable beacon",
        daily_chain=False, daily_rank_new_accounts=True, beacon_url=env["SAMEDEAL_BEACON_URL"],
        beacon_chain=local_beacon.chain_hash, beacon_public_key=local_beacon.public_key.hex(),
        beacon_scheme=local_beacon.scheme, beacon_genesis=local_beacon.genesis,
        beacon_period=local_beacon.period, daily_winnable=True,
        daily_winnable_from=str(today - timedelta(1)), winnable_positions=2000,
        winnable_cap=4, winnable_only=ONLY)
    sv = build_services(settings, clock)
    try:
        local_beacon.hold = True  # the round of the opening is not out: nothing can be decided
        assert not await sv.winnable.step()
        local_beacon.hold = False
        await sv.daily.rounds.fetch_today()
        page = await sv.daily.info()
        deal = next(d for d in page["deals"] if f"{d['game']}/{d['variant']}" == ONLY)
        assert deal["pending"] and deal["winnable_rule"] and "commitment" not in deal
        other = next(d for d in page["deals"] if d["game"] == "klondike")
        assert "commitment" in other and "winnable_rule" not in other  # not under the rule

        ann, _ = await sv.accounts.register("Ann", "human")
        game, variant = ONLY.split("/")
        s = await start(sv, ann, game, variant)  # decided now, in the worker
        rules = engine.get(game, variant)
        beacon = await sv.daily.rounds.randomness(today)
        assert beacon is not None
        choice = await sv.winnable.stored(today, rules, b"winnable beacon", beacon)
        assert choice is not None
        seed = winnable.candidate_seed(b"winnable beacon", today, game, variant, beacon,
                                       choice["k"])
        assert s["commitment"] == engine.commitment(seed)
        page = await sv.daily.info()
        deal = next(d for d in page["deals"] if f"{d['game']}/{d['variant']}" == ONLY)
        assert deal["commitment"] == s["commitment"] and "pending" not in deal
        assert "winnable" not in deal  # not before the reveal
        # Today is decided; tomorrow is a beacon day, not decided ahead: nothing left to do.
        assert not await sv.winnable.step()
    finally:
        sv.winnable.close()
        await sv.redis.aclose()
