"""engine.beacon_check against real published drand rounds, and against rounds signed here.

The real rounds were published by the drand network (League of Entropy) on its two mainnet
chains; they verify only against the chains' public keys, so a round quoted wrongly could not
pass (docs/fairness.md, "The beacon", says where they come from)."""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import beacon_check as bc

# quicknet: chain 52db9ba7…, scheme bls-unchained-g1-rfc9380, genesis 1692803367, period 3 s.
QUICKNET_KEY = bytes.fromhex(
    "83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e760183c8c4b450b6a0a6c3ac6a5776a"
    "2d1064510d1fec758c921cc22b0e17e63aaf4bcb5ed66304de9cf809bd274ca73bab4af5a6e9c76a4bc09e76"
    "eae8991ef5ece45a")
QUICKNET_1000 = bytes.fromhex(
    "b44679b9a59af2ec876b1a6b1ad52ea9b1615fc3982b19576350f93447cb1125e342b73a8dd2bacbe47e4b6b"
    "63ed5e39")
QUICKNET_1000_RANDOMNESS = "fe290beca10872ef2fb164d2aa4442de4566183ec51c56ff3cd603d930e54fdd"
QUICKNET_123 = bytes.fromhex(
    "b75c69d0b72a5d906e854e808ba7e2accb1542ac355ae486d591aa9d43765482e26cd02df835d3546d23c4b1"
    "3e0dfc92")
# the default chain: 8990e7a9…, scheme pedersen-bls-chained, genesis 1595431050, period 30 s.
DEFAULT_KEY = bytes.fromhex(
    "868f005eb8e6e4ca0a47c8a77ceaa5309a47978a7c71bc5cce96366b5d7a569937c529eeda66c7293784a940"
    "2801af31")
DEFAULT_72785 = bytes.fromhex(
    "82f5d3d2de4db19d40a6980e8aa37842a0e55d1df06bd68bddc8d60002e8e959eb9cfa368b3c1b77d18f02a5"
    "4fe047b80f0989315f83b12a74fd8679c4f12aae86eaf6ab5690b34f1fddd50ee3cc6f6cdf59e95526d5a5d8"
    "2aaa84fa6f181e42")
DEFAULT_72784 = bytes.fromhex(  # round 72785's previous_signature
    "a609e19a03c2fcc559e8dae14900aaefe517cb55c840f6e69bc8e4f66c8d18e8a609685d9917efbfb0c37f05"
    "8c2de88f13d297c7e19e0ab24813079efe57a182554ff054c7638153f9b26a60e7111f71a0ff63d9571704905"
    "d3ca6df0b031747")


def flip(data: bytes, at: int = -1) -> bytes:
    at %= len(data)
    return data[:at] + bytes([data[at] ^ 1]) + data[at + 1:]


def test_published_quicknet_rounds_verify_and_their_randomness_is_the_signatures_hash() -> None:
    assert bc.verify_round(bc.QUICKNET, QUICKNET_KEY, 1000, QUICKNET_1000)
    assert bc.verify_round(bc.QUICKNET, QUICKNET_KEY, 123, QUICKNET_123)
    assert bc.randomness(QUICKNET_1000).hex() == QUICKNET_1000_RANDOMNESS


def test_a_published_default_chain_round_verifies_with_its_previous_signature() -> None:
    assert bc.verify_round(bc.CHAINED, DEFAULT_KEY, 72785, DEFAULT_72785, DEFAULT_72784)


@pytest.mark.parametrize("case", ["signature", "round", "key", "scheme"])
def test_a_tampered_quicknet_round_fails(case: str) -> None:
    scheme, key, number, signature = bc.QUICKNET, QUICKNET_KEY, 1000, QUICKNET_1000
    if case == "signature":
        signature = flip(signature)
    elif case == "round":
        number = 1001
    elif case == "key":  # a valid G2 key, not quicknet's
        key = bc.public_key(bc.QUICKNET, 7)
    else:
        scheme = bc.UNCHAINED
    assert not bc.verify_round(scheme, key, number, signature)


@pytest.mark.parametrize("case", ["signature", "previous", "round", "missing previous"])
def test_a_tampered_default_chain_round_fails(case: str) -> None:
    number, signature, previous = 72785, DEFAULT_72785, DEFAULT_72784
    if case == "signature":
        signature = flip(signature, 40)
    elif case == "previous":
        previous = flip(previous)
    elif case == "round":
        number = 72786
    assert not bc.verify_round(bc.CHAINED, DEFAULT_KEY, number, signature,
                               None if case == "missing previous" else previous)


def test_bytes_that_are_no_point_fail_rather_than_raise() -> None:
    infinity = bytes([0xC0]) + bytes(47)  # the compressed point at infinity on G1
    for signature in (b"", bytes(48), b"\xff" * 48, infinity, QUICKNET_1000 + b"\x00"):
        assert not bc.verify_round(bc.QUICKNET, QUICKNET_KEY, 1000, signature)
    assert not bc.verify_round(bc.QUICKNET, QUICKNET_KEY[:48], 1000, QUICKNET_1000)
    assert not bc.verify_round(bc.QUICKNET, QUICKNET_KEY, 0, QUICKNET_1000)
    assert not bc.verify_round("no-such-scheme", QUICKNET_KEY, 1000, QUICKNET_1000)


@pytest.mark.parametrize("scheme", bc.SCHEMES)
def test_a_key_made_here_signs_rounds_that_verify_only_under_it(scheme: str) -> None:
    previous = bytes(range(96))
    signature = bc.sign_round(scheme, 424242, 17, previous)
    assert bc.verify_round(scheme, bc.public_key(scheme, 424242), 17, signature, previous)
    assert not bc.verify_round(scheme, bc.public_key(scheme, 424243), 17, signature, previous)
    assert not bc.verify_round(scheme, bc.public_key(scheme, 424242), 18, signature, previous)


def test_the_round_message_is_drands() -> None:
    """SHA-256 of the round as 8 big-endian bytes, after the previous signature if chained."""
    assert bc.round_message(bc.QUICKNET, 1000) == hashlib.sha256(
        b"\x00\x00\x00\x00\x00\x00\x03\xe8").digest()
    assert bc.round_message(bc.CHAINED, 2, b"ab") == hashlib.sha256(
        b"ab\x00\x00\x00\x00\x00\x00\x00\x02").digest()
    assert bc.round_message(bc.UNCHAINED, 2, b"ab") == bc.round_message(bc.QUICKNET, 2)


@given(st.integers(0, 2**45), st.integers(0, 2**40), st.integers(1, 3600))
def test_the_round_at_a_moment_is_the_first_published_at_or_after_it(
        at_ms: int, genesis: int, period: int) -> None:
    number = bc.round_at(genesis, period, at_ms)
    assert number >= 1 and at_ms <= bc.round_due_ms(genesis, period, number)
    assert number == 1 or bc.round_due_ms(genesis, period, number - 1) < at_ms


def test_importing_the_verifier_leaves_the_recursion_limit_alone() -> None:
    """py_ecc raises it to 100,000 on import; a server with that limit would let a deeply
    nested message overflow the C stack instead of refusing it (tests/server/test_errors.py
    sends one)."""
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", "import sys; before = sys.getrecursionlimit(); "
                          "import engine.bls, server.app; "
                          "print(before == sys.getrecursionlimit())"],
                         capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "True"


def test_a_server_starts_without_the_curve_library() -> None:
    """py_ecc takes a third of a second to import: a node loads it at its first check of a
    round, not at every start."""
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", "import sys, server.app; "
                          "print('py_ecc' in sys.modules)"],
                         capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
