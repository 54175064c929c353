"""The positions a search has met, each as a 128-bit fingerprint of its key in one flat table.

The depth-first search's set of keys (``bytes``) cost it a fifth of its time: a key object
made, hashed, compared and freed at every position, in a table of pointers to them that
misses the cache twice a look, and about 130 bytes a position. Here a key is hashed where
the board wrote it (``Board.write_key``) into two unrelated 64-bit halves, and only those 16
bytes are kept, in open addressing: one look, no object, 24 to 48 bytes a position. Two keys
share a fingerprint with a chance of about ``n * n / 2 ** 129`` among ``n`` positions (for a
billion positions, 1 in 10 ** 21): the search is the set's in every run anyone will make.

Compiled only (its words are read through C pointers): where this module runs as its Python
source (``native`` false), the search keeps its set of keys.
"""

from __future__ import annotations

import contextlib

with contextlib.suppress(ImportError):  # C types for the compiled engine; not needed to run
    import cython  # (docs/solver.md "Compiled")

MASK64 = (1 << 64) - 1
#: The two halves' multipliers (odd) and starting values, each distinct, so that the halves
#: of one key are unrelated.
M1 = 0x9E3779B97F4A7C15
M2 = 0xC2B2AE3D27D4EB4F
S1 = 0x243F6A8885A308D3
S2 = 0x13198A2E03707344
#: The finalizer's multipliers (``mix``).
F1 = 0xFF51AFD7ED558CCD
F2 = 0xC4CEB9FE1A85EC53
FIRST_BITS = 16


def native() -> bool:
    """Whether this module runs compiled, so that a ``Table`` can be used."""
    try:
        return bool(cython.compiled)
    except NameError:  # no Cython installed: this module runs as its source
        return False


def mix(h: cython.ulonglong) -> cython.ulonglong:
    """A 64-bit finalizer: every bit of the input reaches every bit of the output."""
    h ^= h >> 33
    h = (h * F1) & MASK64
    h ^= h >> 33
    h = (h * F2) & MASK64
    h ^= h >> 33
    return h


class Table:
    """Fingerprints of the keys added, two 64-bit words a slot (both zero: empty), kept at
    most two thirds full; ``len`` is how many keys it holds."""

    def __init__(self, bits: cython.Py_ssize_t = FIRST_BITS) -> None:
        self.count = 0
        self.make(bits)

    def make(self, bits: cython.Py_ssize_t) -> None:
        """Empty slots, ``2 ** bits`` of them (the sizes in 64-bit integers: a table of a
        hundred million positions has more slots than a C int counts bytes)."""
        slots: cython.Py_ssize_t = 1
        slots <<= bits
        self.bits = bits
        self.mask = slots - 1
        self.most = slots * 2 // 3
        self.slots = bytearray(16 * slots)

    def __len__(self) -> int:
        return self.count

    def add(self, buf: bytearray, n: cython.Py_ssize_t) -> cython.bint:
        """Adds the key in the first ``n`` bytes of ``buf``: whether it was new."""
        data: cython.p_uchar = buf
        words: cython.p_ulonglong = cython.cast(cython.p_ulonglong, data)
        h1: cython.ulonglong = S1
        h2: cython.ulonglong = S2
        w: cython.ulonglong
        i: cython.Py_ssize_t
        for i in range(n >> 3):  # eight bytes at a time, then the last few one by one
            w = words[i]
            h1 = ((h1 ^ w) * M1) & MASK64
            h1 ^= h1 >> 29
            h2 = ((h2 ^ w) * M2) & MASK64
            h2 ^= h2 >> 31
        for i in range(n & ~7, n):
            h1 = ((h1 ^ data[i]) * M1) & MASK64
            h2 = ((h2 ^ data[i]) * M2) & MASK64
        h1 = mix(h1 ^ n)
        h2 = mix(h2) | 1  # never both zero
        if self.count >= self.most:
            self.grow()
        if self.put(h1, h2):
            self.count += 1
            return True
        return False

    def put(self, h1: cython.ulonglong, h2: cython.ulonglong) -> cython.bint:
        """Puts a fingerprint in its slot or the next free one: whether it was not there."""
        slots: bytearray = self.slots
        data: cython.p_uchar = slots
        words: cython.p_ulonglong = cython.cast(cython.p_ulonglong, data)
        mask: cython.ulonglong = self.mask
        at: cython.ulonglong = h1 & mask
        while words[2 * at + 1]:
            if words[2 * at] == h1 and words[2 * at + 1] == h2:
                return False
            at = (at + 1) & mask
        words[2 * at] = h1
        words[2 * at + 1] = h2
        return True

    def grow(self) -> None:
        """Twice the slots, every fingerprint put again."""
        old: bytearray = self.slots
        data: cython.p_uchar = old
        words: cython.p_ulonglong = cython.cast(cython.p_ulonglong, data)
        n: cython.Py_ssize_t = self.mask + 1
        self.make(self.bits + 1)
        i: cython.Py_ssize_t
        for i in range(n):
            if words[2 * i + 1]:
                self.put(words[2 * i], words[2 * i + 1])
