"""The daily with a real beacon: a local drand beacon over HTTP (tests/beacon_server.py), the
server's own Beacon fetching and verifying its round, the day's seeds mixing it in, and the
reveal checked end to end from the public page alone, as a player would check it."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import jsonschema
import pytest

import engine
from clients.verify_day import checks
from engine import beacon_check, fairness
from server.app import build_services
from server.boards.records import opens_at
from server.config import Settings
from server.errors import ApiError
from server.transport import replies
from tests.beacon_server import LocalBeacon

from .test_chain import empty_database
from .test_daily import HOUR, Clock, start


async def test_a_beacon_day_waits_for_the_round_then_reveals_seeds_anyone_can_check(
        local_beacon: LocalBeacon, redis_url: str) -> None:
    today = datetime.now(UTC).date()
    clock = Clock(today - timedelta(days=1))
    env = local_beacon.env()
    settings = Settings(
        redis_url=await empty_database(redis_url), daily_secret="old secret",
        daily_rank_new_accounts=True, beacon_url=env["SAMEDEAL_BEACON_URL"],
        beacon_chain=local_beacon.chain_hash, beacon_public_key=local_beacon.public_key.hex(),
        beacon_scheme=local_beacon.scheme, beacon_genesis=local_beacon.genesis,
        beacon_period=local_beacon.period)
    sv = build_services(settings, clock)
    assert sv.beacon is not None
    yesterday = await sv.daily.info()  # the first use makes the chain; it starts today
    assert yesterday["chain"] is None

    clock.at(today)
    ann, _ = await sv.accounts.register("Ann", "human")
    local_beacon.hold = True  # the round is not out: nobody, the server included, has the deal
    with pytest.raises(ApiError) as e:
        await start(sv, ann, "klondike", "easy")
    assert e.value.code == "daily.waiting"
    page = await sv.daily.info()
    assert page["waiting"] and all("commitment" not in d for d in page["deals"])

    local_beacon.hold = False
    s = await start(sv, ann, "klondike", "easy")
    page = await sv.daily.info()
    stored = page["beacon"]
    assert stored["round"] == beacon_check.round_at(local_beacon.genesis, local_beacon.period,
                                                    opens_at(today))
    deal = next(d for d in page["deals"] if d["game"] == "klondike" and d["variant"] == "easy")
    assert s["commitment"] == deal["commitment"] and "seed" not in deal and "secret" not in page

    clock.at(today + timedelta(days=1), 2 * HOUR)  # past the deadline: the reveal
    await sv.daily.close_due()
    revealed = await sv.daily.info(today)
    assert revealed["state"] == "revealed" and not revealed["overdue"]
    # The round as published, with the chain a checker needs, is what the reply schema states.
    jsonschema.validate(revealed["beacon"], replies.ROUND)
    assert set(revealed["beacon"]) <= set(replies.ROUND["properties"])
    assert set(revealed["beacon"]["chain"]) == set(replies.BEACON_CHAIN["required"])
    # Everything below uses the public page and the beacon's public key only.
    secret, chain = bytes.fromhex(revealed["secret"]), revealed["chain"]
    k = fairness.day_index(date.fromisoformat(chain["start"]), today)
    assert k == 0 and fairness.verify_day_secret(bytes.fromhex(chain["anchor"]), k, secret)
    signature = bytes.fromhex(revealed["beacon"]["signature"])
    assert beacon_check.verify_round(local_beacon.scheme, local_beacon.public_key,
                                     revealed["beacon"]["round"], signature, None)
    randomness = bytes.fromhex(revealed["beacon"]["randomness"])
    assert randomness == beacon_check.randomness(signature)
    for d in revealed["deals"]:
        seed = fairness.daily_seed(secret, today, d["game"], d["variant"], randomness)
        assert d["seed"] == seed.hex() and engine.commitment(seed) == d["commitment"]
        # Without the beacon the same secret deals another game: the round is really in it.
        assert fairness.daily_seed(secret, today, d["game"], d["variant"]) != seed
    # And samedeal verify-day's checks agree, given the local beacon's key.
    results = checks(revealed, [chain], beacon_key=local_beacon.public_key.hex(),
                     beacon_scheme=local_beacon.scheme)
    assert all(ok for ok, _ in results), [line for ok, line in results if not ok]
    assert f"beacon round {stored['round']}: signature verified" in [t for _, t in results]
    await sv.redis.aclose()
