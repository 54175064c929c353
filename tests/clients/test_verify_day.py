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
