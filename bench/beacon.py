"""The beacon's BLS check (engine/beacon_check.py, pure-Python py_ecc): what one verification
of a drand round costs, beside dealing one deal in the same run. The server verifies a day's
round once per node (server/daily/beacon.py remembers it), so this is a cost per day, not per
request.

    python -m bench beacon
"""

from __future__ import annotations

import time
from collections.abc import Callable

from engine import beacon_check as bc
from engine.registry import rule_sets

# Real published rounds: the test vectors of the verifier's tests, measured as they are checked.
from tests.engine.test_beacon_check import (
    DEFAULT_72784,
    DEFAULT_72785,
    DEFAULT_KEY,
    QUICKNET_1000,
    QUICKNET_KEY,
)

from .common import Section, median


def timed(work: Callable[[], object], runs: int) -> list[float]:
    """Seconds per call of ``work``, ``runs`` times."""
    out = []
    for _ in range(runs):
        t0 = time.perf_counter()
        work()
        out.append(time.perf_counter() - t0)
    return out


def run(quick: bool = False) -> Section:
    runs = 3 if quick else 7
    rules = rule_sets()[0]
    seed = bytes(32)
    deal = median(timed(lambda: rules.deal(seed, competitive=True), runs * 20))
    cases = {
        "quicknet round 1000 (bls-unchained-g1-rfc9380)": lambda: bc.verify_round(
            bc.QUICKNET, QUICKNET_KEY, 1000, QUICKNET_1000),
        "default chain round 72785 (pedersen-bls-chained)": lambda: bc.verify_round(
            bc.CHAINED, DEFAULT_KEY, 72785, DEFAULT_72785, DEFAULT_72784),
    }
    rows: list[list[object]] = []
    raw: dict[str, object] = {"deal_s": deal, "runs": runs}
    for name, work in cases.items():
        assert work(), name  # a figure for a check that fails would measure nothing
        took = timed(work, runs)
        raw[name] = took
        rows.append([name, f"{median(took) * 1000:.0f}", f"{deal * 1000:.2f}",
                     f"{median(took) / deal:.0f}"])
    method = (f"Median of {runs} verifications of a real published round (`verify_round`: "
              "the key and signature decoded and subgroup-checked, the message hashed to the "
              "curve, two Miller loops and one final exponentiation), beside the median of "
              f"{runs * 20} deals (`{rules.id}/{rules.variant}`) in the same run. "
              "A node verifies a day's round once (server/daily/beacon.py), in a thread, so "
              "players never wait for it.")
    return Section("The beacon's BLS verification", method,
                   ["round", "ms per verification", "ms per deal (baseline)",
                    "verification / deal"], rows, raw=raw)
