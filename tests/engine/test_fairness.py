"""The daily chain and seed derivation: docs/fairness.md's vectors against engine/fairness.py and
against two implementations written from that page alone (Python here, JavaScript for Node.js)."""

from __future__ import annotations

import hashlib
import hmac
import json
import shutil
import subprocess
from datetime import date
from pathlib import Path

import pytest

from engine import fairness

DOC = Path(__file__).resolve().parents[2] / "docs" / "fairness.md"
ROOT, N, START = bytes(range(32)), 10, date(2026, 12, 1)
RANDOMNESS = bytes(range(32, 64))


def doc_rows(header: str) -> list[list[str]]:
    text = DOC.read_text()
    table = text[text.index(header):].split("\n\n")[0]
    rows = [line.strip("|").split("|") for line in table.splitlines()[2:]]
    return [[cell.strip().strip("`") for cell in row] for row in rows]


CHAIN = {what: value for what, value in doc_rows("| what | value (hex) |")}
SEEDS = doc_rows("| label | seed | commitment |")  # the first such table: the chain's day


def independent_link(x: bytes) -> bytes:
    """Written from docs/fairness.md alone."""
    return hashlib.sha256(b"samedeal-chain/" + x).digest()


def independent_secrets(root: bytes, n: int) -> list[bytes]:
    s = [b""] * n
    s[n - 1] = root
    for k in range(n - 1, 0, -1):
        s[k - 1] = independent_link(s[k])
    return s


JS = """
const c = require('crypto');
const link = x => c.createHash('sha256')
  .update(Buffer.concat([Buffer.from('samedeal-chain/'), x])).digest();
const root = Buffer.from(process.argv[1], 'hex'), n = Number(process.argv[2]);
const s = new Array(n); s[n - 1] = root;
for (let k = n - 1; k > 0; k--) s[k - 1] = link(s[k]);
const out = {anchor: link(s[0]).toString('hex'), s: s.map(b => b.toString('hex')), seeds: {}};
for (const label of JSON.parse(process.argv[3]))
  out.seeds[label] = c.createHmac('sha256', s[3]).update(label).digest('hex');
console.log(JSON.stringify(out));
"""


def test_the_doc_has_the_vectors() -> None:
    assert len(CHAIN) == 6 and len(SEEDS) == 4
    assert {r[0] for r in SEEDS} == {
        fairness.daily_label(date(2026, 12, 4), g, "easy", b).decode()
        for g in ("klondike", "golf") for b in (None, RANDOMNESS)}


def test_chain_vectors() -> None:
    assert fairness.link(b"").hex() == CHAIN["link of the empty string"]
    assert fairness.anchor(ROOT, N).hex() == CHAIN["anchor, N = 10"]
    assert fairness.anchor(ROOT).hex() == CHAIN["anchor, N = 36500 (same root)"]
    secrets = fairness.all_secrets(ROOT, N)
    for k, name in ((0, "s[0], 2026-12-01"), (3, "s[3], 2026-12-04"), (9, "s[9], 2026-12-10")):
        assert fairness.day_secret(ROOT, N, k).hex() == secrets[k].hex() == CHAIN[name]
        assert independent_secrets(ROOT, N)[k].hex() == CHAIN[name]
        assert fairness.verify_day_secret(bytes.fromhex(CHAIN["anchor, N = 10"]), k, secrets[k])
    assert independent_link(independent_secrets(ROOT, N)[0]).hex() == CHAIN["anchor, N = 10"]


def test_a_day_secret_proves_only_its_own_day() -> None:
    anchor = fairness.anchor(ROOT, N)
    s3 = fairness.day_secret(ROOT, N, 3)
    assert not fairness.verify_day_secret(anchor, 2, s3)  # one link short
    assert not fairness.verify_day_secret(anchor, 4, s3)
    assert not fairness.verify_day_secret(anchor, 3, bytes(32))
    assert not fairness.verify_day_secret(anchor, -1, anchor)
    assert fairness.day_index(START, date(2026, 12, 4)) == 3
    with pytest.raises(ValueError):
        fairness.day_secret(ROOT, N, N)


@pytest.mark.parametrize(("label", "seed", "digest"), SEEDS)
def test_seed_vectors(label: str, seed: str, digest: str) -> None:
    s3 = bytes.fromhex(CHAIN["s[3], 2026-12-04"])
    parts = label.split("/")
    beacon = bytes.fromhex(parts[5]) if len(parts) > 4 else None
    got = fairness.daily_seed(s3, date.fromisoformat(parts[1]), parts[2], parts[3], beacon)
    assert got.hex() == seed == hmac.new(s3, label.encode(), hashlib.sha256).hexdigest()
    assert hashlib.sha256(got).hexdigest() == digest


def test_the_old_secret_vector_still_holds() -> None:
    row = doc_rows("| label | seed | commitment |\n| --- | --- | --- |\n"
                   "| `samedeal-daily/2026-11-23")
    seed = fairness.daily_seed(b"example secret", date(2026, 11, 23), "klondike", "easy")
    assert [[row[0][0], seed.hex(), hashlib.sha256(seed).hexdigest()]] == row


def test_the_live_edition_vectors_hold() -> None:
    """The live label's table: the implementation and an HMAC written from the page agree,
    and no live seed is the all-day daily's of the same day and rule set."""
    rows = doc_rows("| live label | seed | commitment |")
    s3 = bytes.fromhex(CHAIN["s[3], 2026-12-04"])
    assert [r[0] for r in rows] == [fairness.daily_label(date(2026, 12, 4), "klondike", "easy", b,
                                                         "live").decode()
                                    for b in (None, RANDOMNESS)]
    for (label, seed, digest), beacon in zip(rows, (None, RANDOMNESS), strict=True):
        got = fairness.daily_seed(s3, date(2026, 12, 4), "klondike", "easy", beacon, "live")
        assert got.hex() == seed == hmac.new(s3, label.encode(), hashlib.sha256).hexdigest()
        assert hashlib.sha256(got).hexdigest() == digest
        assert seed not in {r[1] for r in SEEDS}


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
def test_a_javascript_implementation_from_the_doc_agrees() -> None:
    labels = [r[0] for r in SEEDS]
    out = json.loads(subprocess.run(
        ["node", "-e", JS, ROOT.hex(), str(N), json.dumps(labels)], capture_output=True,
        check=True, text=True, timeout=60).stdout)
    assert out["anchor"] == CHAIN["anchor, N = 10"]
    assert out["s"][3] == CHAIN["s[3], 2026-12-04"]
    assert [out["seeds"][r[0]] for r in SEEDS] == [r[1] for r in SEEDS]
