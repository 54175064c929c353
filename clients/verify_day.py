"""``samedeal verify-day DAY``: check a revealed daily day end to end, from its public page.

The day's secret against its chain's anchor, the beacon round (its randomness, and its
signature when a verifier is installed), and each rule set's seed and commitment; one line per
check. The rules are docs/fairness.md's, through engine/fairness.py.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
from collections.abc import Callable
from datetime import date
from typing import Any

from engine import fairness

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
    p.add_argument("--token", metavar="T", default=os.environ.get("SAMEDEAL_TOKEN"),
                   help="a bearer token to read the day's page (default $SAMEDEAL_TOKEN)")
    p.add_argument("--anchor", metavar="HEX",
                   help="the anchor as you had it published elsewhere; checked too")
    p.add_argument("--beacon-public-key", metavar="HEX",
                   help="the beacon chain's public key, as its operators publish it (the "
                   "beacon's signature is checked against it)")
    p.add_argument("--beacon-scheme", metavar="ID", default="bls-unchained-g1-rfc9380",
                   help="the beacon chain's scheme (default bls-unchained-g1-rfc9380, drand's "
                   "quicknet)")
    p.set_defaults(run=run)


def beacon_verifier() -> Callable[..., bool] | None:
    """The beacon part's ``verify_round`` when it is installed (it needs a BLS library)."""
    for name in ("engine.beacon_check", "server.beacon"):
        try:
            module = __import__(name, fromlist=["verify_round"])
        except ImportError:
            continue
        found: Callable[..., bool] | None = getattr(module, "verify_round", None)
        if found is not None:
            return found
    return None


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
        verify = beacon_verifier()
        if verify is None or not beacon_key:
            why = "no beacon verifier installed" if verify is None else \
                "give --beacon-public-key"
            out.append((True, f"beacon round {beacon['round']}: signature not checked "
                        f"({why})"))
        else:
            sig_ok = bool(verify(beacon_scheme, bytes.fromhex(beacon_key),
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
    import httpx

    try:
        date.fromisoformat(args.day)
    except ValueError:
        print(f"samedeal verify-day: a day is written YYYY-MM-DD, not {args.day!r}",
              file=sys.stderr)
        return USAGE
    headers = {"authorization": f"Bearer {args.token}"} if args.token else {}
    base = args.server.rstrip("/") + "/api/v1/daily"
    try:
        with httpx.Client(timeout=30, headers=headers) as http:
            got = http.get(f"{base}/{args.day}")
            chains = http.get(f"{base}/chain")
    except httpx.HTTPError as e:
        print(f"samedeal verify-day: cannot reach {args.server}: {e}", file=sys.stderr)
        return FAILED
    for reply in (got, chains):
        if reply.status_code != 200:
            body = reply.json() if reply.headers.get("content-type", "").startswith(
                "application/json") else {}
            print(f"samedeal verify-day: the server refused ({reply.status_code} "
                  f"{body.get('code', '')}): {body.get('message', reply.text[:200])}",
                  file=sys.stderr)
            return FAILED
    results = checks(got.json(), chains.json()["history"], args.anchor,
                     args.beacon_public_key, args.beacon_scheme)
    for ok, line in results:
        print(("ok    " if ok else "FAIL  ") + line)
    return OK if all(ok for ok, _ in results) else FAILED
