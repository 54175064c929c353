"""The daily challenge: one deal per UTC day and rule set, from a server secret.

``seed = HMAC-SHA256(secret, "samedeal-daily/<YYYY-MM-DD>/<game>/<variant>")`` (the raw 32
bytes), so every node derives the same deal without storing it, nobody without the secret can
predict tomorrow's, and the commitment (SHA-256 of the seed) can be published when the day opens.
docs/fairness.md gives the rule and a test vector.
"""

from __future__ import annotations

import hashlib
import hmac
from datetime import date

import engine


def label(day: date, rules: engine.RuleSet) -> bytes:
    return f"samedeal-daily/{day.isoformat()}/{rules.id}/{rules.variant}".encode()


def daily_seed(secret: bytes, day: date, rules: engine.RuleSet) -> bytes:
    return hmac.new(secret, label(day, rules), hashlib.sha256).digest()
