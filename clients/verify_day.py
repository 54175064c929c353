"""``samedeal verify-day DAY``: check a revealed daily day end to end, from its public page.

The day's secret against its chain's anchor, the beacon round (its randomness, and its
signature against the public key you give), each rule set's seed and commitment, and where the
winnable-deal rule applied its choice (clients/verify_winnable.py); one line per check. The
rules are docs/fairness.md's, through engine/fairness.py. The page is public: no account is
needed to check a day.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
from datetime import UTC, date, datetime, time
from typing import Any

from engine import beacon_check, fairness, winnable
from engine.cli import Failed, fetch
from engine.drand import KNOWN_CHAINS

from . import verify_winnable

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
                   help="the beacon chain's public key, as its operators publish it (default: "
                   "drand's published key for quicknet and the default chain)")
    p.add_argument("--beacon-scheme", metavar="ID",
                   help="the beacon chain's scheme with --beacon-public-key (default: the "
                   "known chain's, else bls-unchained-g1-rfc9380, drand's quicknet)")
    p.set_defaults(run=run)


def checks(page: dict[str, Any], history: list[dict[str, Any]], anchor: str | None = None,
           beacon_key: str | None = None,
           beacon_scheme: str | None = None) -> list[tuple[bool, str]]:
    """Every check of a day's page: (passed, line). Pure, for the command and the tests."""
    out: list[tuple[bool, str]] = []
    day = date.fromisoformat(page["day"])
    if page.get("state") != "revealed":
        due = page.get("reveal_due")
        when = (datetime.fromtimestamp(due / 1000, UTC).strftime("%Y-%m-%d %H:%M UTC")
                if isinstance(due, int | float) else "not known")
        return [(False, f"{day}: not revealed yet (reveal due at {when}"
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
        out += beacon_checks(beacon, day, signature, beacon_key, beacon_scheme)
    for deal in page["deals"]:
        name = f"{deal['game']}/{deal['variant']}"
        seed = bytes.fromhex(deal.get("seed", ""))
        if secret is not None:  # the candidate the winnable-deal rule chose (0 without it)
            want = winnable.candidate_seed(secret, day, deal["game"], deal["variant"],
                                           randomness, verify_winnable.chosen_k(deal))
            out.append((want == seed, f"{name}: seed from the day's secret" if want == seed
                        else f"{name}: seed is not the one the day's secret gives"))
        ok = hashlib.sha256(seed).hexdigest() == deal.get("commitment")
        out.append((ok, f"{name}: commitment" if ok
                    else f"{name}: seed does not match its commitment"))
        out += verify_winnable.checks(deal, day, secret, randomness)
    return out


def beacon_checks(beacon: dict[str, Any], day: date, signature: bytes, key: str | None,
                  scheme: str | None) -> list[tuple[bool, str]]:
    """The round's signature against the chain's key: the one you give, else the one its
    operators publish for a known drand chain (never the server's word alone), and for a known
    chain that the round is the first at or after the day's opening."""
    name = f"beacon round {beacon['round']}"
    chain = beacon.get("chain") or {}
    known = KNOWN_CHAINS.get(chain.get("hash", ""))
    out: list[tuple[bool, str]] = []
    if known is not None:
        given = chain.get("public_key")
        if given is not None:
            same = given == known[1]
            out.append((same, f"{name}: the chain's published key" if same
                        else f"{name}: the page names a key that is not the chain's"))
        opening = int(datetime.combine(day, time(), UTC).timestamp() * 1000)
        due = beacon_check.round_at(known[2], known[3], opening)
        ok = beacon["round"] == due
        out.append((ok, f"{name}: the first round of the day" if ok
                    else f"{name}: not the day's round ({due})"))
    key = key or (known[1] if known else None)
    if not key:
        return [*out, (True, f"{name}: signature not checked (a chain this command does not "
                             "know: give --beacon-public-key)")]
    previous = beacon.get("previous_signature")
    ok = beacon_check.verify_round(
        scheme or (known[0] if known else beacon_check.QUICKNET), bytes.fromhex(key),
        beacon["round"], signature, bytes.fromhex(previous) if previous else None)
    return [*out, (ok, f"{name}: signature " + ("verified" if ok else "does NOT verify"))]


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
