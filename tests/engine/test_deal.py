"""Provably fair deals: the documented algorithm, its vectors, and its statistics."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

import engine
from engine.cards import TEXT, parse_card
from engine.deal import Stream, commitment, parse_seed, shuffle, shuffled_deck, verify

DOC = Path(__file__).resolve().parents[2] / "docs" / "fairness.md"


def doc_rows(header: str) -> list[list[str]]:
    text = DOC.read_text()
    table = text[text.index(header):].split("\n\n")[0]
    rows = [line.strip("|").split("|") for line in table.splitlines()[2:]]
    return [[cell.strip() for cell in row] for row in rows]


def seed_of(cell: str) -> bytes:
    return b"" if cell == "(empty)" else bytes.fromhex(cell)


def independent_deck(seed: bytes, label: str) -> list[int]:
    """A second implementation written from docs/fairness.md alone."""
    lab = label.encode()
    blocks = b"".join(
        hashlib.sha256(len(seed).to_bytes(4, "big") + seed + len(lab).to_bytes(4, "big") + lab
                       + i.to_bytes(8, "big")).digest() for i in range(64))
    pos = 0
    deck = list(range(52))
    for i in range(51, 0, -1):
        n = i + 1
        while True:
            x = int.from_bytes(blocks[pos:pos + 4], "big")
            pos += 4
            if x < 2**32 - 2**32 % n:
                break
        j = x % n
        deck[i], deck[j] = deck[j], deck[i]
    return deck


VECTORS = doc_rows("| seed (hex) | label | first bytes |")


def test_the_doc_has_vectors():
    assert len(VECTORS) >= 6


@pytest.mark.parametrize(("seed", "label", "first", "deck"), VECTORS)
def test_vectors(seed, label, first, deck):
    s = seed_of(seed)
    assert Stream(s, label).read(8).hex() == first
    expected = [parse_card(c) for c in deck.split()]
    assert shuffled_deck(s, label) == expected
    assert independent_deck(s, label) == expected


@pytest.mark.parametrize(("seed", "digest"), doc_rows("| seed (hex) | commitment |"))
def test_commitment_vectors(seed, digest):
    assert commitment(seed_of(seed)) == digest == hashlib.sha256(seed_of(seed)).hexdigest()
    assert verify(seed_of(seed), digest.upper())
    assert not verify(seed_of(seed) + b"x", digest)


def test_same_seed_same_deal_and_deals_differ():
    assert shuffled_deck(b"abc") == shuffled_deck(b"abc")
    assert shuffled_deck(b"abc") != shuffled_deck(b"abd")
    rules = engine.get("klondike", "easy")
    assert rules.deal(b"abc").snapshot() == rules.deal(b"abc").snapshot()


def test_labels_give_independent_streams():
    seed = b"one committed seed"
    decks = [shuffled_deck(seed, label) for label in ("deal", "redeal/1", "redeal/2", "frame/1")]
    assert len({tuple(d) for d in decks}) == 4
    # positions agree no more often than chance (1 in 52) would have them
    same = sum(a == b for a, b in zip(decks[0], decks[1], strict=True))
    assert same <= 5
    # the stream is not ambiguous between a seed and a label that share bytes
    assert Stream(b"ab", "c").read(32) != Stream(b"a", "bc").read(32)


def test_below_is_in_range_and_rejects_the_biased_tail():
    s = Stream(b"range")
    assert {s.below(3) for _ in range(300)} == {0, 1, 2}
    with pytest.raises(ValueError):
        s.below(0)


def test_shuffle_is_a_permutation_and_leaves_its_input():
    cards = list(range(52))
    out = shuffle(cards, Stream(b"perm"))
    assert sorted(out) == cards and out != cards and cards == list(range(52))


def test_every_card_lands_in_every_position_about_equally_often():
    """Chi-square over 52 x 52 cells from 5,200 fixed seeds (expected 100 per cell).

    With 51 x 51 = 2,601 degrees of freedom the statistic has mean 2,601 and standard
    deviation about 72; the bound 2,601 + 5 x 72 is never passed by a fair shuffle, while a
    biased one (the classic naive swap with any position) fails it by far.
    """
    games = 5200
    counts = [[0] * 52 for _ in range(52)]
    for i in range(games):
        for pos, c in enumerate(shuffled_deck(i.to_bytes(4, "big"))):
            counts[c][pos] += 1
    expected = games / 52
    chi2 = sum((n - expected) ** 2 / expected for row in counts for n in row)
    assert chi2 < 2601 + 5 * 72, chi2

    naive = [[0] * 52 for _ in range(52)]
    for i in range(games):
        s = Stream(i.to_bytes(4, "big"))
        deck = list(range(52))
        for k in range(52):
            j = s.below(52)
            deck[k], deck[j] = deck[j], deck[k]
        for pos, c in enumerate(deck):
            naive[c][pos] += 1
    assert sum((n - expected) ** 2 / expected for row in naive for n in row) > 2601 + 5 * 72


def test_parse_seed():
    assert parse_seed(" 00ff ") == b"\x00\xff"
    with pytest.raises(ValueError):
        parse_seed("not hex")


def test_cards_round_trip():
    assert [parse_card(t) for t in TEXT] == list(range(52))
    assert parse_card("10h") == parse_card("Th") == parse_card("tH")
