"""verify-day's checks of a page with a beacon round, built from docs/fairness.md's chain
(the server-side path is tests/server/test_verify_day.py)."""

from __future__ import annotations

import hashlib
from datetime import date
from typing import Any

from clients.verify_day import checks
from engine import fairness

ROOT, N, START, DAY = bytes(range(32)), 10, date(2026, 12, 1), date(2026, 12, 4)
SIGNATURE = b"a beacon signature"


def page(randomness: bytes) -> dict[str, Any]:
    secret = fairness.day_secret(ROOT, N, 3)
    seed = fairness.daily_seed(secret, DAY, "golf", "easy", hashlib.sha256(SIGNATURE).digest())
    return {"day": str(DAY), "state": "revealed", "secret": secret.hex(),
            "chain": {"anchor": fairness.anchor(ROOT, N).hex(), "start": str(START),
                      "length": N},
            "beacon": {"round": 12, "randomness": randomness.hex(),
                       "signature": SIGNATURE.hex(), "previous_signature": None},
            "deals": [{"game": "golf", "variant": "easy", "seed": seed.hex(),
                       "commitment": hashlib.sha256(seed).hexdigest()}]}


HISTORY = [{"anchor": fairness.anchor(ROOT, N).hex(), "start": str(START), "length": N}]


def test_a_beacon_day_checks_out_and_says_what_it_did_not_check() -> None:
    results = checks(page(hashlib.sha256(SIGNATURE).digest()), HISTORY)
    assert all(ok for ok, _ in results), results
    lines = [line for _, line in results]
    assert "beacon round 12: randomness is SHA-256 of the signature" in lines
    assert any(line.startswith("beacon round 12: signature not checked") for line in lines)
    assert "golf/easy: seed from the day's secret" in lines


def test_a_beacon_randomness_that_is_not_the_signatures_hash_fails() -> None:
    results = checks(page(bytes(32)), HISTORY)
    failed = [line for ok, line in results if not ok]
    # the randomness check, and the seed, which the server derived from the true randomness
    assert failed == ["beacon round 12: randomness is not SHA-256 of the signature",
                      "golf/easy: seed is not the one the day's secret gives"]


def test_a_known_drand_chain_is_checked_against_its_published_key_not_the_pages() -> None:
    """quicknet's real round 1000 on a page naming quicknet: its signature verifies against
    the key drand publishes (no flag needed); a page naming another key for quicknet fails,
    and so does a round that is not the first of the page's day."""
    from engine.drand import KNOWN_CHAINS, QUICKNET_CHAIN
    from tests.engine.test_beacon_check import QUICKNET_1000, QUICKNET_KEY

    assert KNOWN_CHAINS[QUICKNET_CHAIN][1] == QUICKNET_KEY.hex()
    chain = {"hash": QUICKNET_CHAIN, "public_key": QUICKNET_KEY.hex()}
    beacon = {"round": 1000, "randomness": hashlib.sha256(QUICKNET_1000).hexdigest(),
              "signature": QUICKNET_1000.hex(), "previous_signature": None, "chain": chain}
    lines = dict((line, ok) for ok, line in checks({**page(b""), "beacon": beacon}, HISTORY))
    assert lines["beacon round 1000: signature verified"]
    assert lines["beacon round 1000: the chain's published key"]
    # 2026-12-04 00:00 UTC is 1,796,342,400 s: (1796342400 - 1692803367) / 3 rounds after
    # quicknet's genesis, and round 1 is at the genesis, so that day's first is 34,513,012.
    assert lines["beacon round 1000: not the day's round (34513012)"] is False
    forged = {**beacon, "chain": {**chain, "public_key": "00" * 96}}
    lines = dict((line, ok) for ok, line in checks({**page(b""), "beacon": forged}, HISTORY))
    assert lines["beacon round 1000: the page names a key that is not the chain's"] is False
    assert lines["beacon round 1000: signature verified"]  # against drand's key, not the page's
