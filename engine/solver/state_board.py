"""A board played through the engine's own state, for the rule sets a ``Board`` does not play.

A rule set with rules of its own (a hook of ``board.OWN_HOOKS``, a discard pile, a game
played for points) lists and plays its moves only through ``State``. So the searches run on
it through this board: the same searches as on a ``Board`` (``depth.py``, ``bestfirst.py``,
``beam.py``), asking the state for its moves, status, score and key. Before a position's
moves are chosen or it is scored, the board's bytes (each pile's cards, face-down counts,
the shared vars) are made the state's again,
so that the searches' choice of moves (``depth.Choice``) and their promise read them as they
read a board's (``ready``, before they read them).

Moves are numbered as a board numbers them (``Board.encode``); a move of the rule set's own
kind (a pair removed, a card slid) gets a number from ``EXTRA`` up, kept for the board's
life. Keys are ``position.key_maker``'s; a pack is the state's position as bytes.
"""

from __future__ import annotations

import marshal
from operator import methodcaller

from ..core import _T as JOURNAL_MOVE
from ..core import _V as JOURNAL_VAR
from ..core import MOVE, STOCK, WON, Move, State
from .board import DEAL, EXTRA, STRIDE, VARS, Board, Layout
from .position import key_maker

#: A pile's bytes padded to its place on the board.
PADDED = methodcaller("ljust", STRIDE, b"\0")


class StateBoard(Board):
    """A ``Board`` whose moves the engine's ``State`` lists and plays."""

    def __init__(self, st: State, layout: Layout | None = None, ask: bool = False) -> None:
        self.state = st.copy()
        self.layout = layout or Layout(st.rules, strict=False)
        self.ask = False
        count = self.layout.count
        self.cards = bytearray(count * STRIDE)
        self.size = bytearray(count)
        self.down = bytearray(count)
        self.has = bytes(name in st.vars for name in VARS)
        self.vars = [0] * len(VARS)
        self.used = 0
        self.marks = []
        self.journal = bytearray(8)
        self.key_of = key_maker(st.rules)
        self.numbers: dict[Move, int] = {}  # a move of the rule set's own kind: its number
        self.extras: list[Move] = []  # and back
        self.decoded: dict[int, Move] = {}  # every move met, by its number
        #: The piles whose bytes lag behind the state (``ready``), and whether the vars do.
        self.dirty: set[int] = set(range(count))
        self.vars_dirty = True
        #: After ``unpack``: the piles and face-down counts as packed, for ``ready`` to copy
        #: in one go rather than pile by pile (a best-first or beam search unpacks every
        #: position it expands).
        self.unpacked: tuple[tuple[bytes, ...], bytes] | None = None
        self.ready()

    def ready(self) -> None:
        """The board's bytes made the state's position again where moves changed it since
        the last time: only a position the search chooses moves from or scores needs them
        (most positions it meets are in its table already)."""
        st = self.state
        if self.unpacked is not None:
            packed, down = self.unpacked
            self.unpacked = None
            self.cards[:] = b"".join(map(PADDED, packed))
            self.size[:] = bytes(map(len, packed))
            self.down[:] = down
        dirty = self.dirty
        if dirty:
            cards, size = self.cards, self.size
            piles, downs = st.piles, st.down
            for p in dirty:
                pile = piles[p]
                n = len(pile)
                at = p * STRIDE
                cards[at:at + n] = bytes(pile)
                size[p] = n
                self.down[p] = downs[p]
            dirty.clear()
        if self.vars_dirty:
            for i, name in enumerate(VARS):
                self.vars[i] = st.vars.get(name, 0)
            self.vars_dirty = False

    def code_of(self, m: Move) -> int:
        return self.number(m)

    def number(self, m: Move) -> int:
        if m.kind == STOCK:
            return DEAL
        if m.kind == MOVE:
            return m.src | m.dst << 8 | m.n << 16
        got = self.numbers.get(m)
        if got is None:
            got = self.numbers[m] = EXTRA + len(self.extras)
            self.extras.append(m)
        return got

    def move_of(self, m: int) -> Move:
        got = self.decoded.get(m)
        if got is None:
            got = self.decoded[m] = self.extras[m - EXTRA] if m >= EXTRA else Board.decode(m)
        return got

    # ----- listing, playing, the key ----------------------------------------------------

    def legal(self) -> tuple[list[int], str]:
        st = self.state
        moves = st.legal_moves()  # the status comes with them
        number = self.number
        return [m.src | m.dst << 8 | m.n << 16 if m.kind == MOVE else number(m)
                for m in moves], st.status

    def moves(self, sources: bytes | None = None) -> list[int]:
        st = self.state
        listed = (st.legal_moves() if sources is None
                  else st.rules.moves_from(st, list(sources)))
        return [self.number(m) for m in listed]

    def useful(self, m: int) -> bool:
        return self.state.rules.useful(self.state, self.move_of(m))

    def play(self, m: int) -> None:
        st = self.state
        move = self.decoded.get(m)
        st.push(self.move_of(m) if move is None else move)
        self._touched()

    def undo(self) -> None:
        self._touched()
        self.state.pop()

    def _touched(self) -> None:
        """Mark the piles and vars the last move's journal entries touched, for ``ready``."""
        st, dirty = self.state, self.dirty
        for e in st._journal[st._marks[-1]:]:
            if e[0] == JOURNAL_VAR:
                self.vars_dirty = True
            else:
                dirty.add(e[1])
                if e[0] == JOURNAL_MOVE:
                    dirty.add(e[2])

    def key(self) -> object:
        return self.key_of(self.state)

    def dealt_key(self) -> object:
        return self.key_of(self.state), True

    def exact(self, uncounted: bool) -> bytes:
        st = self.state
        vars = sorted(st.vars.items())
        if uncounted:
            vars = [(k, v) for k, v in vars if k != "pass"]
        return marshal.dumps((tuple(map(bytes, st.piles)), bytes(st.down), tuple(vars)))

    def is_won(self) -> bool:
        # The status without the search for a useful move (``RuleSet.settled``): only that
        # answers won, and par asks this of every position its shortcuts meet.
        st = self.state
        known = st._status
        return (known if known is not None else st.rules.settled(st)) == WON

    def pack(self) -> bytes:
        st = self.state
        return marshal.dumps((tuple(map(bytes, st.piles)), bytes(st.down),
                              tuple(st.vars.items())))

    def unpack(self, packed: bytes) -> None:
        piles, down, vars = marshal.loads(packed)
        old = self.state
        self.state = State(old.rules, old.seed, list(map(list, piles)), list(down),
                           dict(vars), old.competitive)
        self.unpacked = piles, down
        self.dirty.clear()
        self.vars_dirty = True

    # ----- what only the rule set's own rules know --------------------------------------

    def way_back(self, m: int) -> int:
        return -1  # (its state keeps no journal a board reads: it tries the way back)

    def score(self) -> int:
        return self.state.score

    def costless(self, m: int) -> bool:
        return self.state.rules.costless(self.state, self.move_of(m))

    def redeal_ahead(self) -> bool:
        return self.state.rules.redeal_ahead(self.state)

    def piles(self) -> list[list[int]]:
        return [list(p) for p in self.state.piles]

    def var_dict(self) -> dict[str, int]:
        return dict(self.state.vars)


def board_for(st: State) -> Board:
    """The board the searches play ``st`` on: a ``Board`` where one plays its rule set (the
    shared rules alone), a ``GapBoard`` where its moves are cards slid into gaps, a
    ``PairBoard`` or a ``BeatenBoard`` where they discard cards (``discard_board``), else a
    ``StateBoard``."""
    from . import board, gap_board, pair_board

    if board.playable(st):
        return Board(st.copy(), ask=False)
    if gap_board.playable(st):
        return gap_board.GapBoard(st.copy())
    discarding = pair_board.discard_board(st)
    return discarding if discarding is not None else StateBoard(st)


__all__ = ["StateBoard", "board_for"]
