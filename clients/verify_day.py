"""``samedeal verify-day DAY``: check a revealed daily day end to end, from its public page.

The day's secret against its chain's anchor, the beacon round (its randomness, and its
signature against the public key you give), and each rule set's seed and commitment; one line
per check. The rules are docs/fairness.md's, through engine/fairness.py. The page is public:
no account is needed to check a day.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
from datetime import date
from typing import Any

from engine import beacon_check, fairness
from engine.cli import Failed, fetch

DEFAULT_SERVER = "http://127.0.0.1:8000"
OK, FAILED, USAGE = 0, 1, 2


def add_command(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("verify-day", help="check a revealed daily day against its chain "
                       "and commitments (docs/fairness.md)",
                       description="Check a revealed daily day end to end: the day's secret "
                       "against the chain's anchor, the beacon round, and every rule set's "
                       "seed and commitment. One line per check; exit 0 when all pass, 1 when "
                       "one fails or the server refuses, 2 for a usage mistake.")
    p.add_argument("day", help="the day, YYYY-MM-DD")
    p.add_argument("--server", metavar="URL",
                   default=os.environ.get("SAMEDEAL_SERVER", DEFAULT_SERVER),
                   help=f"the server's URL (default $SAMEDEAL_SERVER or {DEFAULT_SERVER})")
    p.add_argument("--anchor", metavar="HEX",
                   help="the anchor as you had it published elsewhere; checked too")
    p.add_argument("--beacon-public-key", metavar="HEX",
                   help="the beacon chain's public key, as its operators publish it (the "
                   "beacon's signature is checked against it)")
    p.add_argument("--beacon-scheme", metavar="ID", default="bls-unchained-g1-rfc9380",
                   help="the beacon chain's scheme (default bls-unchained-g1-rfc9380, drand's "
                   "quicknet)")
    p.set_defaults(run=run)


def checks(page: dict[str, Any], history: list[dict[str, Any]], anchor: str | None = None,
           beacon_key: str | None = None,
           beacon_scheme: str = "bls-unchained-g1-rfc9380") -> list[tuple[bool, str]]:
    """Every check of a day's page: (passed, line). Pure, for the command and the tests."""
    out: list[tuple[bool, str]] = []
    day = date.fromisoformat(page["day"])
    if page.get("state") != "revealed":
        return [(False, f"{day}: not revealed yet (reveal due at {page.get('reveal_due')} ms"
                 f"{', overdue' if page.get('overdue') else ''})")]
    chain, secret_hex = page.get("chain"), page.get("secret")
    secret = None
    if chain is None:
        out.append((True, f"{day}: before the first chain; the secret is not published, "
                    "so only the commitments are checked"))
    else:
        k = fairness.day_index(date.fromisoformat(chain["start"]), day)
        secret = bytes.fromhex(secret_hex or "")
        ok = fairness.verify_day_secret(bytes.fromhex(chain["anchor"]), k, secret)
        out.append((ok, f"day secret: link^{k + 1} of it is the anchor {chain['anchor']}"
                    if ok else f"day secret: does not hash to the anchor in {k + 1} links"))
        listed = any(r["anchor"] == chain["anchor"] and r["start"] == chain["start"]
                     for r in history)
        out.append((listed, "chain: in the server's public history" if listed
                    else "chain: missing from the server's public history"))
        if anchor is not None:
            same = anchor.lower() == chain["anchor"]
            out.append((same, "chain: the anchor you gave" if same
                        else f"chain: the anchor is not the one you gave ({anchor})"))
    beacon = page.get("beacon")
    randomness = None
    if beacon is not None:
        signature = bytes.fromhex(beacon["signature"])
        randomness = bytes.fromhex(beacon["randomness"])
        ok = hashlib.sha256(signature).digest() == randomness
        out.append((ok, f"beacon round {beacon['round']}: randomness is SHA-256 of the "
                    "signature" if ok else f"beacon round {beacon['round']}: randomness is "
                    "not SHA-256 of the signature"))
        if not beacon_key:
            out.append((True, f"beacon round {beacon['round']}: signature not checked "
                        "(give --beacon-public-key)"))
        else:
            sig_ok = bool(beacon_check.verify_round(beacon_scheme, bytes.fromhex(beacon_key),
                                 beacon["round"], signature,
                                 bytes.fromhex(beacon["previous_signature"])
                                 if beacon.get("previous_signature") else None))
            out.append((sig_ok, f"beacon round {beacon['round']}: signature "
                        + ("verified" if sig_ok else "does NOT verify")))
    for deal in page["deals"]:
        name = f"{deal['game']}/{deal['variant']}"
        seed = bytes.fromhex(deal.get("seed", ""))
        if secret is not None:
            want = fairness.daily_seed(secret, day, deal["game"], deal["variant"], randomness)
            out.append((want == seed, f"{name}: seed from the day's secret" if want == seed
                        else f"{name}: seed is not the one the day's secret gives"))
        ok = hashlib.sha256(seed).hexdigest() == deal.get("commitment")
        out.append((ok, f"{name}: commitment" if ok
                    else f"{name}: seed does not match its commitment"))
    return out


def run(args: argparse.Namespace) -> int:
    try:
        date.fromisoformat(args.day)
    except ValueError:
        print(f"samedeal verify-day: a day is written YYYY-MM-DD, not {args.day!r}",
              file=sys.stderr)
        return USAGE
    base = args.server.rstrip("/") + "/api/v1/daily"
    try:
        page = json.loads(fetch(f"{base}/{args.day}", None))
        history = json.loads(fetch(f"{base}/chain", None))["history"]
    except Failed as e:
        print(f"samedeal verify-day: {e}", file=sys.stderr)
        return FAILED
    results = checks(page, history, args.anchor,
                     args.beacon_public_key, args.beacon_scheme)
    for ok, line in results:
        print(("ok    " if ok else "FAIL  ") + line)
    return OK if all(ok for ok, _ in results) else FAILED
