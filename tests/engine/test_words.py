"""Moves in card words (engine/words.py), as hints and the analysis say them: for every rule
set, every legal move along a played game reads in players' words, never in pile codes, and
names the cards the board shows face up."""

from __future__ import annotations

import random
import re

import pytest

import engine
from engine.core import MOVE, REMOVE, STOCK
from engine.words import move_words

#: A pile code of the notation ("t3", "g36", "f1", "p27"): never in the words.
CODE = re.compile(r"\b[a-z]{1,2}\d+\b")
SUIT = re.compile(r"(?:[2-9]|10|[AJQK])[♠♥♦♣]")


@pytest.mark.parametrize("rules", engine.rule_sets(), ids=lambda r: f"{r.id}-{r.variant}")
def test_every_legal_move_reads_in_card_words(rules: engine.RuleSet) -> None:
    rnd = random.Random(7)
    kinds: set[str] = set()
    for seed in range(2):
        st = rules.deal(bytes([seed, 7]))
        for _ in range(40):
            legal = [] if st.over else st.legal_moves()
            if not legal:
                break
            for m in legal:
                said = move_words(st, m)
                kinds.add(m.kind)
                assert said and not CODE.search(said), (engine.move_text(rules, m), said)
                if m.kind == STOCK:
                    assert said in ("draw from the stock", "deal from the stock",
                                    "turn the waste over"), said
                elif m.kind == MOVE and st.down[m.src] <= len(st.piles[m.src]) - m.n:
                    assert said.startswith("the ") and SUIT.search(said), said
                    assert " onto the " in said or " to " in said, said
                elif m.kind == REMOVE:
                    assert said.endswith(" removed"), said
            st.play(rnd.choice(legal))
    assert kinds  # the game was played
