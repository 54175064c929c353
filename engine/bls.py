"""The BLS12-381 arithmetic of drand's signatures (py_ecc), apart from engine/beacon_check.py:
py_ecc takes a third of a second to import, which only a check or a signature needs, not every
process that reads a beacon's round numbers."""

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

DST_G1 = b"BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_"
DST_G2 = b"BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_NUL_"

# py_ecc annotates its hash argument as a hash object but calls it as a constructor.
_SHA256: Any = hashlib.sha256


def verify_g1_signature(public_key: bytes, message: bytes, signature: bytes) -> bool:
    """e(signature, g2) == e(H(message), public_key), signature on G1 and key on G2."""
    key = decompress_G2(G2Compressed((os2ip(public_key[:48]), os2ip(public_key[48:]))))
    point = pubkey_to_G1(BLSPubkey(signature))  # a compressed G1 point, whatever it is used for
    if is_inf(key) or is_inf(point) or not subgroup_check(key) or not subgroup_check(point):
        return False
    hashed = hash_to_G1(message, DST_G1, _SHA256)
    product = (pairing(G2, point, final_exponentiate=False)
               * pairing(key, neg(hashed), final_exponentiate=False))
    return bool(final_exponentiate(product) == FQ12.one())


def verify_g2_signature(public_key: bytes, message: bytes, signature: bytes) -> bool:
    """e(g1, signature) == e(public_key, H(message)), key on G1 and signature on G2."""
    key = pubkey_to_G1(BLSPubkey(public_key))
    point = signature_to_G2(BLSSignature(signature))
    if is_inf(key) or is_inf(point) or not subgroup_check(key) or not subgroup_check(point):
        return False
    hashed = hash_to_G2(message, DST_G2, _SHA256)
    product = (pairing(point, G1, final_exponentiate=False)
               * pairing(hashed, neg(key), final_exponentiate=False))
    return bool(final_exponentiate(product) == FQ12.one())


def public_key(on_g2: bool, secret: int) -> bytes:
    """The compressed public key of ``secret``: on G2 (a signature on G1, quicknet), else on G1."""
    if on_g2:
        x, y = compress_G2(multiply(G2, secret))
        return x.to_bytes(48, "big") + y.to_bytes(48, "big")
    return bytes(G1_to_pubkey(multiply(G1, secret)))


def sign(on_g1: bool, secret: int, message: bytes) -> bytes:
    """``message`` signed under ``secret``: on G1 (quicknet), else on G2."""
    if on_g1:
        return bytes(G1_to_pubkey(multiply(hash_to_G1(message, DST_G1, _SHA256), secret)))
    return bytes(G2_to_signature(multiply(hash_to_G2(message, DST_G2, _SHA256), secret)))
