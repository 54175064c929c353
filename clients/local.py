"""A practice game on the local engine, answering with the server's session payload.

This is the one module of ``clients/`` that imports the engine: playing without a server needs
the rules themselves. Everything else in ``clients/`` speaks the protocol only, and reaches the
engine through this adapter, so the terminal player and the bot measurements run the same code
on a local game as on a remote session (same payload fields, same refusals by code and sentence).
"""

from __future__ import annotations

import os
from typing import Any

import engine
from engine.hints import Hint, hint
from engine.safe import safe_moves
from engine.solver import Budget

#: A local hint's search: the server's default budget (docs/solver.md, "Hints").
HINT_BUDGET = Budget(positions=20_000, seconds=0.3)


class MoveRefused(Exception):
    """A refused move, undo or resign: the engine's stable ``code`` and its ``message``, as a
    server's ``error`` carries them (the same fields as the SDK's ``ServerError``)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


def parse_seed(seed: bytes | str | None) -> tuple[bytes, bool]:
    """The seed as bytes and whether the player chose it (hex text as the server takes it;
    none: 32 random bytes, as the server deals a practice game)."""
    if seed is None:
        return os.urandom(32), False
    if isinstance(seed, str):
        text = seed.strip()
        try:
            data = bytes.fromhex(text)
        except ValueError:
            raise ValueError(f"a seed is written in hex, not {seed!r}") from None
        seed = data
    if not 1 <= len(seed) <= 64:
        raise ValueError("a seed is 1 to 64 bytes (2 to 128 hex digits)")
    return seed, True


class LocalGame:
    """One practice session of a rule set on the engine. Every method returns the session
    payload (``session``, ``rev``, ``mode``, ``view``, ``legal``, ``safe``, ``can_undo``,
    ``commitment``, and ``seed`` when chosen or once the game is over), like ``solo.start`` and
    ``ack`` (no ``created``: no server clock here)."""

    def __init__(self, game: str, variant: str, seed: bytes | str | None = None,
                 session: str = "local") -> None:
        self.rules = engine.get(game, variant)  # raises engine.UnknownGame
        self.seed, self.chosen = parse_seed(seed)
        self.session = session
        self.state = self.rules.deal(self.seed)
        self.rev = 0
        self.hints = 0
        self._line: tuple[list[engine.Move], Hint] | None = None  # moves then, the hint

    def layout(self) -> dict[str, Any]:
        """The rule set's description (names, pile kinds and fans), as
        ``GET /api/v1/games/{game}/{variant}`` gives it."""
        return self.rules.describe()

    @property
    def payload(self) -> dict[str, Any]:
        st = self.state
        out: dict[str, Any] = {
            "session": self.session,
            "rev": self.rev,
            "mode": "practice",
            "view": st.view(),
            "legal": [engine.move_text(self.rules, m) for m in st.legal_moves()],
            "safe": [engine.move_text(self.rules, m) for m in safe_moves(st)],
            "can_undo": st.can_undo() is None,
            "commitment": engine.commitment(self.seed),
        }
        if self.chosen or st.status != engine.PLAYING:
            out["seed"] = self.seed.hex()
        return out

    def move(self, move: str | dict[str, Any]) -> dict[str, Any]:
        """Play a move in text or JSON form; ``MoveRefused`` says why not."""
        try:
            if isinstance(move, str):
                m = engine.parse_move(self.rules, move)
            else:
                m = engine.move_from_json(self.rules, move)
            self.state.play(m)
        except engine.IllegalMove as e:
            raise MoveRefused(e.code, e.message) from None
        self.rev += 1
        return self.payload

    def undo(self) -> dict[str, Any]:
        try:
            self.state.undo()
        except engine.IllegalMove as e:
            raise MoveRefused(e.code, e.message) from None
        self.rev += 1
        return self.payload

    def resign(self) -> dict[str, Any]:
        if self.state.over:
            raise MoveRefused("game.over", f"the game is over ({self.state.status})")
        self.state.resign()
        self.rev += 1
        return self.payload

    def hint(self) -> dict[str, Any]:
        """The next move, as the server's ``suggestion`` gives it; a solver line is followed
        while its moves are played (as the server keeps it), else searched for again."""
        st = self.state
        if st.over:
            raise MoveRefused("game.over", f"the game is over ({st.status})")
        h = None
        if self._line is not None:
            before, h = self._line
            done = st.history[len(before):]
            if st.history[:len(before)] != before or list(h.line[:len(done)]) != done:
                h = None
            else:
                for _ in done:
                    h = h.after() if h is not None else None
        if h is None:
            h = hint(st, HINT_BUDGET)
        self._line = (list(st.history), h) if h.line else None
        self.hints += 1
        out: dict[str, Any] = {
            "session": self.session, "rev": self.rev, "source": h.source, "hints": self.hints,
            "move": engine.move_text(self.rules, h.move) if h.move is not None else None}
        if h.line:
            out["line_left"] = h.line_left
        if h.lost:
            out["lost"] = True
        return out
