"""Random legal walks through any rule set, checking the engine's invariants on the way."""

from __future__ import annotations

import json

import engine
from engine import State
from engine.cards import TEXT
from engine.core import MOVE, Move


def assert_whole_deck(st: State) -> None:
    cards = sorted(c for pile in st.piles for c in pile)
    assert cards == list(range(52)), f"{st.rules.key}: deck not whole"
    for p, pile in enumerate(st.piles):
        assert 0 <= st.down[p] <= len(pile)


def assert_view_hides(st: State) -> None:
    for player in range(st.rules.players[1]):
        text = json.dumps(st.view(player))
        for c in st.hidden_cards():
            assert f'"{TEXT[c]}"' not in text, f"{st.rules.key}: hidden {TEXT[c]} in view"


def candidates(st: State) -> list[Move]:
    """Every pile-to-pile move of every size, plus the legal moves of other kinds."""
    out = [Move(MOVE, s, d, n) for s in range(len(st.piles)) for d in range(len(st.piles))
           if s != d for n in range(1, len(st.piles[s]) + 1)]
    return out + [m for m in st.legal_moves() if m.kind != MOVE]


def fingerprint(st: State) -> tuple[bytes, str, list[Move]]:
    return st.snapshot(), json.dumps(st.view(), sort_keys=True), st.legal_moves()


def walk(st: State, choices: list[int], check_every: int = 1) -> State:
    """Play legal moves chosen by ``choices`` (an undo when a choice is negative)."""
    for i, choice in enumerate(choices):
        if st.over:
            break
        moves = st.legal_moves()
        assert moves, f"{st.rules.key}: playing but no legal move"
        if choice < 0 and st.history and st.can_undo() is None:
            before = st.history[-1]
            assert st.undo() == before
            continue
        move = moves[abs(choice) % len(moves)]
        if i % check_every == 0:
            before_fp = fingerprint(st)
            st.play(move)
            st.pop()
            assert fingerprint(st) == before_fp, f"{st.rules.key}: undo of {move} not exact"
        st.play(move)
        assert_whole_deck(st)
    return st


def replay_of(st: State) -> State:
    return engine.replay(st.rules.id, st.rules.variant, st.seed, list(st.history),
                         st.competitive, st.vars.get("players"))
