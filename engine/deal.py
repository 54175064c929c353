"""Provably fair deals: a deal is a function of the seed bytes alone.

The algorithm is specified in docs/fairness.md precisely enough to re-implement it in
another language; the tests check its test vectors. No ``random`` module anywhere: the
same seed gives the same deal on every machine and Python version.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterator

DEAL_LABEL = "deal"


class Stream:
    """SHA-256 in counter mode over (seed, label): an endless, reproducible byte stream.

    Block ``i`` is ``SHA-256(u32be(len(seed)) || seed || u32be(len(label)) || label ||
    u64be(i))``; the stream is blocks 0, 1, 2, ... concatenated.
    """

    __slots__ = ("_blocks", "_buf", "_pos")

    def __init__(self, seed: bytes, label: str = DEAL_LABEL) -> None:
        lab = label.encode()
        prefix = len(seed).to_bytes(4, "big") + seed + len(lab).to_bytes(4, "big") + lab
        self._blocks: Iterator[bytes] = (
            hashlib.sha256(prefix + i.to_bytes(8, "big")).digest() for i in _count()
        )
        self._buf = b""
        self._pos = 0

    def read(self, n: int) -> bytes:
        while len(self._buf) - self._pos < n:
            self._buf = self._buf[self._pos :] + next(self._blocks)
            self._pos = 0
        out = self._buf[self._pos : self._pos + n]
        self._pos += n
        return out

    def below(self, n: int) -> int:
        """An unbiased integer in ``[0, n)``: 32-bit draws, rejecting the biased tail."""
        if not 0 < n <= 1 << 32:
            raise ValueError("n out of range")
        limit = (1 << 32) - (1 << 32) % n
        while True:
            x = int.from_bytes(self.read(4), "big")
            if x < limit:
                return x % n


def _count() -> Iterator[int]:
    i = 0
    while True:
        yield i
        i += 1


def shuffle(cards: list[int], stream: Stream) -> list[int]:
    """Fisher-Yates from the top index down; returns a new list."""
    out = list(cards)
    for i in range(len(out) - 1, 0, -1):
        j = stream.below(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def shuffled_deck(seed: bytes, label: str = DEAL_LABEL) -> list[int]:
    """The canonical deck (card ids 0..51) shuffled by the stream for ``label``."""
    return shuffle(list(range(52)), Stream(seed, label))


def commitment(seed: bytes) -> str:
    """What is published before play: the hex SHA-256 of the raw seed bytes."""
    return hashlib.sha256(seed).hexdigest()


def verify(seed: bytes, commitment_hex: str) -> bool:
    return hmac.compare_digest(commitment(seed), commitment_hex.strip().lower())


def parse_seed(text: str) -> bytes:
    """Seeds travel as hex; refuse anything else loudly rather than guess."""
    try:
        return bytes.fromhex(text.strip())
    except ValueError:
        raise ValueError(f"a seed is written in hex, not {text!r}") from None
