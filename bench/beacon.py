"""The beacon's BLS check (engine/beacon_check.py, pure-Python py_ecc): what one verification
of a drand round costs, beside dealing one deal in the same run. The server verifies a day's
round once per node (server/beacon.py remembers it), so this is a cost per day, not per request.

    python -m bench beacon
"""

from __future__ import annotations

import time
from collections.abc import Callable

from engine import beacon_check as bc
from engine.registry import rule_sets

from .common import Section, median

# Real published rounds (the test vectors of tests/engine/test_beacon_check.py).
QUICKNET_KEY = bytes.fromhex(
    "83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e760183c8c4b450b6a0a6c3ac6a5776a"
    "2d1064510d1fec758c921cc22b0e17e63aaf4bcb5ed66304de9cf809bd274ca73bab4af5a6e9c76a4bc09e76"
    "eae8991ef5ece45a")
QUICKNET_1000 = bytes.fromhex(
    "b44679b9a59af2ec876b1a6b1ad52ea9b1615fc3982b19576350f93447cb1125e342b73a8dd2bacbe47e4b6b"
    "63ed5e39")
DEFAULT_KEY = bytes.fromhex(
    "868f005eb8e6e4ca0a47c8a77ceaa5309a47978a7c71bc5cce96366b5d7a569937c529eeda66c7293784a940"
    "2801af31")
DEFAULT_72785 = bytes.fromhex(
    "82f5d3d2de4db19d40a6980e8aa37842a0e55d1df06bd68bddc8d60002e8e959eb9cfa368b3c1b77d18f02a5"
    "4fe047b80f0989315f83b12a74fd8679c4f12aae86eaf6ab5690b34f1fddd50ee3cc6f6cdf59e95526d5a5d8"
    "2aaa84fa6f181e42")
DEFAULT_72784 = bytes.fromhex(
    "a609e19a03c2fcc559e8dae14900aaefe517cb55c840f6e69bc8e4f66c8d18e8a609685d9917efbfb0c37f05"
    "8c2de88f13d297c7e19e0ab24813079efe57a182554ff054c7638153f9b26a60e7111f71a0ff63d9571704905"
    "d3ca6df0b031747")


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
              "A node verifies a day's round once (server/beacon.py), in a thread, so players "
              "never wait for it.")
    return Section("The beacon's BLS verification", method,
                   ["round", "ms per verification", "ms per deal (baseline)",
                    "verification / deal"], rows, raw=raw)
