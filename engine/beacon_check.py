"""Checks a drand beacon round's BLS signature: pure, so that the server and ``samedeal
verify-day`` (no server, no network) share one definition of "this round is genuine".

A round's randomness is SHA-256 of its signature, and the signature is the drand network's
threshold BLS signature on the round (docs/fairness.md, "The beacon"): whoever holds only the
public key can check it, nobody can choose it.
"""

# ruff: noqa: E402 - py_ecc's imports sit between saving the recursion limit and restoring it
from __future__ import annotations

import hashlib
import sys
from typing import Any

# py_ecc raises the interpreter's recursion limit to 100,000 when it is imported. Left so, a
# deeply nested JSON or msgpack message would recurse in the server until the C stack overflows
# and the process dies, instead of being refused as frame.malformed. Its arithmetic used here
# needs no deep recursion, so the limit goes back to what it was once py_ecc is in.
_RECURSION_LIMIT = sys.getrecursionlimit()

from eth_typing import BLSPubkey, BLSSignature
from py_ecc.bls.g2_primitives import (
    G1_to_pubkey,
    G2_to_signature,
    pubkey_to_G1,
    signature_to_G2,
    subgroup_check,
)
from py_ecc.bls.hash import os2ip
from py_ecc.bls.hash_to_curve import hash_to_G1, hash_to_G2
from py_ecc.bls.point_compression import compress_G2, decompress_G2
from py_ecc.bls.typing import G2Compressed
from py_ecc.fields import optimized_bls12_381_FQ12 as FQ12
from py_ecc.optimized_bls12_381.optimized_curve import G1, G2, is_inf, multiply, neg
from py_ecc.optimized_bls12_381.optimized_pairing import final_exponentiate, pairing

sys.setrecursionlimit(_RECURSION_LIMIT)

from .drand import CHAINED, KNOWN_CHAINS, QUICKNET, SCHEMES, UNCHAINED

__all__ = ["CHAINED", "KNOWN_CHAINS", "QUICKNET", "SCHEMES", "UNCHAINED", "public_key",
           "randomness", "round_at", "round_due_ms", "round_message", "sign_round",
           "verify_round"]

DST_G1 = b"BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_"
DST_G2 = b"BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_NUL_"

# py_ecc annotates its hash argument as a hash object but calls it as a constructor.
_SHA256: Any = hashlib.sha256

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
    try:
        if scheme == QUICKNET:
            return _verify_g1_signature(public_key, message, signature)
        return _verify_g2_signature(public_key, message, signature)
    except (ValueError, AssertionError):  # py_ecc's answer to bytes that are no point
        return False


def _verify_g1_signature(public_key: bytes, message: bytes, signature: bytes) -> bool:
    """e(signature, g2) == e(H(message), public_key), signature on G1 and key on G2."""
    key = decompress_G2(G2Compressed((os2ip(public_key[:48]), os2ip(public_key[48:]))))
    point = pubkey_to_G1(BLSPubkey(signature))  # a compressed G1 point, whatever it is used for
    if is_inf(key) or is_inf(point) or not subgroup_check(key) or not subgroup_check(point):
        return False
    hashed = hash_to_G1(message, DST_G1, _SHA256)
    product = (pairing(G2, point, final_exponentiate=False)
               * pairing(key, neg(hashed), final_exponentiate=False))
    return bool(final_exponentiate(product) == FQ12.one())


def _verify_g2_signature(public_key: bytes, message: bytes, signature: bytes) -> bool:
    """e(g1, signature) == e(public_key, H(message)), key on G1 and signature on G2."""
    key = pubkey_to_G1(BLSPubkey(public_key))
    point = signature_to_G2(BLSSignature(signature))
    if is_inf(key) or is_inf(point) or not subgroup_check(key) or not subgroup_check(point):
        return False
    hashed = hash_to_G2(message, DST_G2, _SHA256)
    product = (pairing(point, G1, final_exponentiate=False)
               * pairing(hashed, neg(key), final_exponentiate=False))
    return bool(final_exponentiate(product) == FQ12.one())


def public_key(scheme: str, secret: int) -> bytes:
    """The public key of a secret scalar, for a beacon run for tests and by operators' rigs."""
    if scheme == QUICKNET:
        x, y = compress_G2(multiply(G2, secret))
        return x.to_bytes(48, "big") + y.to_bytes(48, "big")
    return bytes(G1_to_pubkey(multiply(G1, secret)))


def sign_round(scheme: str, secret: int, round: int,
               previous_signature: bytes | None = None) -> bytes:
    """A round's signature under ``secret``, as a single-node drand network would make it."""
    message = round_message(scheme, round, previous_signature)
    if scheme == QUICKNET:
        return bytes(G1_to_pubkey(multiply(hash_to_G1(message, DST_G1, _SHA256),
                                           secret)))
    return bytes(G2_to_signature(multiply(hash_to_G2(message, DST_G2, _SHA256),
                                          secret)))
