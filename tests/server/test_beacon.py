"""server.daily.beacon against a local drand beacon over real sockets (tests/beacon_server.py): the
day's round is the first at or after the opening, verified before use, fetched and checked
once per process; forgeries, a wrong chain and an absent beacon raise BeaconError."""

from __future__ import annotations

import hashlib

import httpx
import pytest

from engine import beacon_check
from server import app as app_module
from server.config import Settings
from server.daily.beacon import Beacon, BeaconError, BeaconRound, Chain
from tests.beacon_server import LocalBeacon, serving
from tests.conftest import free_port


def beacon_for(local: LocalBeacon, **changes: object) -> Beacon:
    """A Beacon as a server process configured by ``local.env()`` would build it."""
    settings = Settings.from_env(local.env(), beacon_timeout=2.0, **changes)
    beacon = Beacon.from_settings(settings)
    assert beacon is not None
    return beacon


def opening(local: LocalBeacon) -> int:
    """Today's opening (00:00 UTC), in ms."""
    return (local.genesis + 86400) * 1000


async def test_the_days_round_is_the_first_at_or_after_its_opening(
        local_beacon: LocalBeacon) -> None:
    beacon = beacon_for(local_beacon)
    got = await beacon.round_for_day(opening(local_beacon))
    assert got.round == 86400 // 3 + 1  # due exactly at the opening
    assert got.signature == local_beacon.signature(got.round)
    assert got.randomness == hashlib.sha256(got.signature).digest()
    assert got.previous_signature is None
    later = await beacon.round_for_day(opening(local_beacon) + 1)
    assert later.round == got.round + 1  # one ms after a round: the next one
    assert beacon_check.verify_round(beacon_check.QUICKNET, local_beacon.public_key,
                                     later.round, later.signature)


async def test_a_round_is_fetched_and_verified_once_per_process(
        local_beacon: LocalBeacon, monkeypatch: pytest.MonkeyPatch) -> None:
    checks: list[int] = []
    real = beacon_check.verify_round

    def counted(*args: object) -> bool:
        checks.append(1)
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(beacon_check, "verify_round", counted)
    beacon = beacon_for(local_beacon)
    first = await beacon.round_for_day(opening(local_beacon))
    for _ in range(3):
        assert await beacon.round_for_day(opening(local_beacon)) == first
    assert await beacon.verified(BeaconRound.from_json(first.to_json())) == first
    assert len(checks) == 1
    rounds = [p for p in local_beacon.requests if "/public/" in p]
    assert rounds == [f"/{local_beacon.chain_hash}/public/{first.round}"]
    assert sum(p.endswith("/info") for p in local_beacon.requests) == 1


async def test_a_stored_round_from_another_node_is_verified_before_use(
        local_beacon: LocalBeacon) -> None:
    beacon = beacon_for(local_beacon)
    number = 100
    good = BeaconRound.parse(local_beacon.round(number))
    assert await beacon.verified(good) == good
    forged = BeaconRound.parse(local_beacon.round(number + 1) | {"round": number + 2})
    with pytest.raises(BeaconError, match="does not verify"):
        await beacon.verified(forged)
    with pytest.raises(BeaconError, match="not the round of the day's opening"):
        await beacon.verified(good, opening(local_beacon))  # genuine, but not today's
    todays = BeaconRound.parse(local_beacon.round(86400 // 3 + 1))
    assert await beacon.verified(todays, opening(local_beacon)) == todays


@pytest.mark.parametrize("tamper", ["signature", "randomness", "round", "key"])
async def test_a_forged_round_is_refused(local_beacon: LocalBeacon, tamper: str) -> None:
    local_beacon.tamper = tamper
    beacon = beacon_for(local_beacon)
    caught = "randomness is not" if tamper == "randomness" else "does not verify"
    with pytest.raises(BeaconError, match=caught):
        await beacon.round_for_day(opening(local_beacon))
    local_beacon.tamper = ""  # the genuine round, fetched again, is taken
    assert (await beacon.round_for_day(opening(local_beacon))).round == 86400 // 3 + 1


async def test_a_round_verified_against_another_key_is_refused(
        local_beacon: LocalBeacon) -> None:
    """The settings' key is the one trusted: the beacon's own /info claiming another fails."""
    other = beacon_check.public_key(beacon_check.QUICKNET, 99).hex()
    with pytest.raises(BeaconError, match="public_key"):
        await beacon_for(local_beacon, beacon_public_key=other).round_for_day(
            opening(local_beacon))


@pytest.mark.parametrize("setting, value", [
    ("beacon_chain", "00" * 32), ("beacon_period", 30), ("beacon_genesis", 1)])
async def test_a_beacon_that_is_not_the_configured_chain_is_refused(
        local_beacon: LocalBeacon, setting: str, value: object) -> None:
    with pytest.raises(BeaconError):
        await beacon_for(local_beacon, **{setting: value}).round_for_day(opening(local_beacon))


async def test_timing_left_at_zero_is_taken_from_the_info(local_beacon: LocalBeacon) -> None:
    beacon = beacon_for(local_beacon, beacon_genesis=0, beacon_period=0)
    assert (await beacon.round_for_day(opening(local_beacon))).round == 86400 // 3 + 1
    assert (beacon.chain.genesis, beacon.chain.period) == (local_beacon.genesis, 3)
    info = local_beacon.info()
    assert beacon.chain.public() == {k: info[k] for k in beacon.chain.public()}


async def test_a_round_not_published_yet_raises(local_beacon: LocalBeacon) -> None:
    beacon = beacon_for(local_beacon)
    with pytest.raises(BeaconError, match="not published"):
        await beacon.round_for_day(opening(local_beacon) + 2 * 86400 * 1000)
    local_beacon.hold = True
    with pytest.raises(BeaconError, match="not published"):
        await beacon.round_for_day(opening(local_beacon))
    local_beacon.hold = False  # published now: the same Beacon takes it
    assert (await beacon.round_for_day(opening(local_beacon))).round == 86400 // 3 + 1


async def test_a_failing_or_unreachable_beacon_raises_after_its_retries(
        local_beacon: LocalBeacon) -> None:
    local_beacon.broken = True
    with pytest.raises(BeaconError, match="HTTP 500"):
        await beacon_for(local_beacon).round_for_day(opening(local_beacon))
    assert len(local_beacon.requests) == 3
    gone = beacon_for(local_beacon, beacon_url=f"http://127.0.0.1:{free_port()}")
    with pytest.raises(BeaconError, match="did not give"):
        await gone.round_for_day(opening(local_beacon))


async def test_the_default_chains_scheme_is_verified_with_its_previous_signature() -> None:
    local = LocalBeacon(secret=31337, scheme=beacon_check.CHAINED, period=3600,
                        genesis=1_700_000_000)
    with serving(local, free_port()):
        beacon = beacon_for(local)
        got = await beacon.round_for_day((local.genesis + 4 * 3600) * 1000)
        assert got.round == 5
        assert got.previous_signature == local.signature(4)
        with pytest.raises(BeaconError, match="schemeID"):  # a key of the same size
            await beacon_for(local, beacon_scheme=beacon_check.UNCHAINED).round_for_day(
                (local.genesis + 4 * 3600) * 1000)
        local.tamper = "signature"
        with pytest.raises(BeaconError, match="does not verify"):
            await beacon_for(local).round_for_day((local.genesis + 4 * 3600) * 1000)


def test_a_round_round_trips_through_json_and_a_bad_one_does_not() -> None:
    signature = bytes(range(48))
    got = BeaconRound(7, hashlib.sha256(signature).digest(), signature)
    assert BeaconRound.from_json(got.to_json()) == got
    assert Beacon.from_json(Beacon.to_json(got)) == got
    chained = BeaconRound(8, got.randomness, signature, b"\x01" * 96)
    assert BeaconRound.from_json(chained.to_json()) == chained
    for bad in ('{"round": 7, "randomness": "00", "signature": "00"}', "[]", "{", '{"round": 1}',
                got.to_json().replace('"round":7', '"round":-7'),
                got.to_json().replace('"round":7', '"round":true')):
        with pytest.raises(BeaconError):
            BeaconRound.from_json(bad)


def test_chain_rounds_follow_drands_timing() -> None:
    chain = Chain("", b"", beacon_check.QUICKNET, 1692803367, 3)
    assert chain.round_at(0) == 1
    assert chain.round_at(1692803367_000) == 1
    assert chain.round_at(1692803367_001) == 2
    assert chain.round_at(1692803370_000) == 2
    for at in (1764028800_000, 1764028801_000, 1764115199_999):  # opening times in 2025
        number = chain.round_at(at)
        assert chain.due_ms(number - 1) < at <= chain.due_ms(number)
    assert chain.round_at(chain.due_ms(1000)) == 1000


def test_the_factory_builds_a_beacon_only_when_one_is_configured(redis_url: str) -> None:
    assert app_module.build_services(Settings(redis_url=redis_url)).beacon is None
    sv = app_module.build_services(Settings(redis_url=redis_url,
                                            beacon_url="https://api.drand.sh/"))
    assert sv.beacon is not None
    assert sv.beacon.url == "https://api.drand.sh"
    assert sv.beacon.chain.scheme == beacon_check.QUICKNET
    with pytest.raises(ValueError, match="beacon_scheme"):
        app_module.build_services(Settings(redis_url=redis_url, beacon_url="http://x",
                                           beacon_scheme="nope"))
    with pytest.raises(ValueError, match="not hex"):
        app_module.build_services(Settings(redis_url=redis_url, beacon_url="http://x",
                                           beacon_public_key="zz"))
    with pytest.raises(ValueError, match="has 96 bytes; a pedersen-bls-chained key has 48"):
        app_module.build_services(Settings(redis_url=redis_url, beacon_url="http://x",
                                           beacon_scheme=beacon_check.CHAINED))


async def test_the_local_beacon_speaks_drands_api(local_beacon: LocalBeacon) -> None:
    """/info and /public/latest as drand serves them: the latest round verifies too."""
    base = f"{local_beacon.url}/{local_beacon.chain_hash}"
    async with httpx.AsyncClient() as http:
        info = (await http.get(f"{base}/info")).json()
        latest = (await http.get(f"{base}/public/latest")).json()
        future = await http.get(f"{base}/public/{local_beacon.latest() + 100}")
    assert info["schemeID"] == beacon_check.QUICKNET and info["period"] == 3
    assert set(latest) == {"round", "randomness", "signature"}
    assert future.status_code == 404
    got = BeaconRound.parse(latest)
    assert await beacon_for(local_beacon).verified(got) == got
    assert got.round >= 86400 // 3 + 1
