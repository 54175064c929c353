"""Checks a drand beacon round's BLS signature: pure, so that the server and ``samedeal
verify-day`` (no server, no network) share one definition of "this round is genuine".

A round's randomness is SHA-256 of its signature, and the signature is the drand network's
threshold BLS signature on the round (docs/fairness.md, "The beacon"): whoever holds only the
public key can check it, nobody can choose it.
"""

from __future__ import annotations

import hashlib

from .drand import CHAINED, KNOWN_CHAINS, QUICKNET, SCHEMES, UNCHAINED

__all__ = ["CHAINED", "KNOWN_CHAINS", "QUICKNET", "SCHEMES", "UNCHAINED", "public_key",
           "randomness", "round_at", "round_due_ms", "round_message", "sign_round",
           "verify_round"]

KEY_BYTES = {QUICKNET: 96, CHAINED: 48, UNCHAINED: 48}
_SIGNATURE_BYTES = {QUICKNET: 48, CHAINED: 96, UNCHAINED: 96}


def round_message(scheme: str, round: int, previous_signature: bytes | None = None) -> bytes:
    """What the network signs for a round: SHA-256 of the round as an 8-byte big-endian
    number, preceded by the previous round's signature on a chained scheme."""
    if scheme not in SCHEMES:
        raise ValueError(f"unknown drand scheme {scheme!r}")
    prefix = (previous_signature or b"") if scheme == CHAINED else b""
    return hashlib.sha256(prefix + round.to_bytes(8, "big")).digest()


def round_at(genesis: int, period: int, at_ms: int) -> int:
    """The first round published at or after ``at_ms`` (Unix ms), on a chain whose round r is
    published at ``genesis + (r - 1) * period`` (Unix seconds): a day's round is the one at
    its opening."""
    since = at_ms - genesis * 1000
    if since <= 0:
        return 1
    return -(-since // (period * 1000)) + 1


def round_due_ms(genesis: int, period: int, round: int) -> int:
    """When ``round`` is published (Unix ms)."""
    return (genesis + (round - 1) * period) * 1000


def randomness(signature: bytes) -> bytes:
    """A round's randomness: SHA-256 of its signature (so it is as unpredictable as it)."""
    return hashlib.sha256(signature).digest()


def verify_round(scheme: str, public_key: bytes, round: int, signature: bytes,
                 previous_signature: bytes | None = None) -> bool:
    """Whether ``signature`` is the drand network's signature (``public_key``) on ``round``.
    False for anything malformed: a wrong length, a point off the curve or outside the
    prime-order subgroup, the point at infinity, an unknown scheme."""
    if scheme not in SCHEMES or not 1 <= round < 2**64:
        return False
    if len(public_key) != KEY_BYTES[scheme] or len(signature) != _SIGNATURE_BYTES[scheme]:
        return False
    if scheme == CHAINED and previous_signature is None:
        return False
    message = round_message(scheme, round, previous_signature)
    from . import bls  # py_ecc: a third of a second to import, for the few who verify

    try:
        if scheme == QUICKNET:
            return bls.verify_g1_signature(public_key, message, signature)
        return bls.verify_g2_signature(public_key, message, signature)
    except (ValueError, AssertionError):  # py_ecc's answer to bytes that are no point
        return False


def public_key(scheme: str, secret: int) -> bytes:
    """The public key of a secret scalar, for a beacon run for tests and by operators' rigs."""
    from . import bls

    return bls.public_key(scheme == QUICKNET, secret)


def sign_round(scheme: str, secret: int, round: int,
               previous_signature: bytes | None = None) -> bytes:
    """A round's signature under ``secret``, as a single-node drand network would make it."""
    from . import bls

    return bls.sign(scheme == QUICKNET, secret, round_message(scheme, round, previous_signature))
