"""The game state every rule set shares: piles of small-int cards, a journal for undo.

A rule set (``RuleSet``) says what is legal and what a move does; the ``State`` holds the
cards and records every change it is asked to make as a journal entry, so that undo is
exact for every game without per-game undo code. Face-down cards are always the bottom
``down[p]`` cards of pile ``p``; that single number per pile is the whole of the hidden-card
model (a stock is all face down, a squared reserve all but its top).
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final, Literal, NamedTuple

from .cards import TEXT

if TYPE_CHECKING:
    from .rules import RuleSet
    from .views import View

#: A game's status: on, or over by a win, a loss, or (a game played for points) its end.
Status = Literal["playing", "won", "lost", "finished"]
PLAYING: Final = "playing"
WON: Final = "won"
LOST: Final = "lost"
FINISHED: Final = "finished"
STATUSES: tuple[Status, ...] = (PLAYING, WON, LOST, FINISHED)


def status_of(text: str) -> Status:
    """A status read back as text (a stored game's), as the type it is: ValueError if it is
    none of the four."""
    for status in STATUSES:
        if status == text:
            return status
    raise ValueError(f"no game status {text!r}")

# Move kinds shared by the generic rules; odd games may add their own.
MOVE, STOCK, REMOVE, REDEAL = "move", "stock", "remove", "redeal"


class Move(NamedTuple):
    """One player action; immutable and hashable, like a python-chess ``Move``.

    ``move``: the top ``n`` cards of pile ``src`` go to pile ``dst``.
    ``stock``: deal or turn the stock as the game's stock rule says.
    ``remove``: the top cards of ``piles`` leave together (pairs, triplets, a King).
    Other kinds carry their arguments in ``src``/``dst``/``n``/``piles`` as their game says.
    """

    kind: str
    src: int = -1
    dst: int = -1
    n: int = 1
    piles: tuple[int, ...] = ()


class Refusal:
    """Why a move is illegal: a stable code for programs, a sentence for players.

    The sentence may be given as a function, so that enumerating legal moves, which refuses
    many candidates, never pays for formatting sentences nobody reads.
    """

    __slots__ = ("_message", "code")

    def __init__(self, code: str, message: str | Callable[[], str]) -> None:
        self.code = code
        self._message = message

    @property
    def message(self) -> str:
        if not isinstance(self._message, str):
            self._message = self._message()
        return self._message

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Refusal) and (self.code, self.message) == (
            other.code, other.message)

    def __hash__(self) -> int:
        return hash(self.code)

    def __repr__(self) -> str:
        return f"Refusal({self.code!r}, {self.message!r})"


class IllegalMove(ValueError):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


# Journal entry tags.
_T, _D, _V, _P = 0, 1, 2, 3


class State:
    """A game in progress. Rules mutate it only through the journaled primitives."""

    __slots__ = (
        "_journal",
        "_legal",
        "_marks",
        "_shown",
        "_status",
        "competitive",
        "down",
        "history",
        "piles",
        "ply0",
        "revealed",
        "rules",
        "seed",
        "vars",
    )

    def __init__(
        self,
        rules: RuleSet,
        seed: bytes,
        piles: list[list[int]],
        down: list[int],
        vars: dict[str, int],
        competitive: bool = False,
    ) -> None:
        self.rules = rules
        self.seed = seed
        self.piles = piles
        self.down = down
        self.vars = vars
        self.competitive = competitive
        self.history: list[Move] = []
        self.ply0 = 0  # moves made before this object's history began (a restored snapshot)
        self.revealed: list[bool] = []  # per played move: did it show a hidden card?
        self._journal: list[tuple[Any, ...]] = []
        self._marks: list[int] = []
        self._shown = False
        self._status: Status | None = None
        self._legal: list[Move] | None = None  # until the position changes

    # ----- what players ask -------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        """Kept until the position changes. When the status is not known yet the same search
        answers it: a server replying with the moves needs both."""
        legal = self._legal
        if legal is None:
            rules = self.rules
            status = self._status if self._status is not None else rules.settled(self)
            if status is None:  # not settled by itself: the moves decide whether it goes on
                legal = rules.legal_moves(self)
                status = rules.going_on(self, legal)
            elif status == PLAYING:
                legal = rules.legal_moves(self)
            self._status = status
            self._legal = legal = legal if status == PLAYING and legal is not None else []
        return list(legal)

    def refusal(self, move: Move, player: int | None = None) -> Refusal | None:
        """``None`` when ``move`` is legal now, else why not."""
        rules = self.rules
        status = self._status if self._status is not None else rules.settled(self)
        if status is not None and status != PLAYING:
            return Refusal("game.over", f"the game is over ({status})")
        if player is not None and player != self.turn:
            return Refusal("turn.wrong", f"it is player {self.turn + 1}'s turn, not yours")
        if not rules.valid_shape(self, move):
            return Refusal("move.malformed", "that move does not name places in this game")
        why = rules.refusal(self, move)
        if why is None and status is None:
            if rules.useful(self, move):
                self._status = PLAYING  # a useful move is left: this one
            elif self.status != PLAYING:
                return Refusal("game.over", f"the game is over ({self.status})")
        return why

    def is_legal(self, move: Move) -> bool:
        return self.refusal(move) is None

    def play(self, move: Move, player: int | None = None) -> None:
        """Validate and apply ``move``, or raise ``IllegalMove`` and change nothing."""
        why = self.refusal(move, player)
        if why is not None:
            raise IllegalMove(why.code, why.message)
        self.push(move)

    def push(self, move: Move) -> None:
        """Apply a move already known to be legal (solvers, replays of checked logs)."""
        self._marks.append(len(self._journal))
        self._shown = False
        self.rules.apply(self, move)
        self.rules.after_move(self)
        self.history.append(move)
        self.revealed.append(self._shown)
        self._status = self._legal = None

    def can_undo(self) -> Refusal | None:
        if not self._marks:
            return Refusal("undo.nothing", "there is no move to undo")
        if self.vars.get("resigned"):
            return Refusal("undo.resigned", "a resigned game can't be taken back")
        if self.competitive and self.revealed[-1]:
            return Refusal(
                "undo.revealed", "in competitive play a move that showed a card can't be undone"
            )
        return None

    def undo(self) -> Move:
        why = self.can_undo()
        if why is not None:
            raise IllegalMove(why.code, why.message)
        return self.pop()

    def pop(self) -> Move:
        """Take back the last move, whatever the competitive rule says."""
        mark = self._marks.pop()
        journal = self._journal
        while len(journal) > mark:
            self._revert(journal.pop())
        self.revealed.pop()
        self._status = self._legal = None
        return self.history.pop()

    def resign(self) -> None:
        if self.status == PLAYING:
            self.record(Move("resign"), lambda: self.set_var("resigned", 1))

    def record(self, move: Move, change: Callable[[], None]) -> None:
        """Make a change that is not a move on the cards (a resignation, a bowler's forfeit)
        one step of the history, so undo and ``revealed`` treat it like a move."""
        self._marks.append(len(self._journal))
        self._shown = False
        change()
        self.history.append(move)
        self.revealed.append(self._shown)
        self._status = self._legal = None

    @property
    def status(self) -> Status:
        if self._status is None:  # stops at the first useful move; legal_moves sets it too
            self._status = self.rules.status(self)
        return self._status

    @property
    def score(self) -> int:
        return self.rules.score(self)

    @property
    def ply(self) -> int:
        """Moves made in the whole game so far."""
        return self.ply0 + len(self.history)

    @property
    def turn(self) -> int:
        return self.vars.get("turn", 0)

    @property
    def over(self) -> bool:
        return self.status != PLAYING

    def view(self, player: int | None = None) -> View:
        """What a player may see: face-down cards and the stock order only as counts."""
        return self.rules.view(self, player)

    def view_after(self, before: View, piles: set[int]) -> View:
        """``view()``, built from ``before`` (the view before the last change) and the piles
        that change touched (``moved_piles``): a server sending what changed does not
        build every pile again."""
        return self.rules.view_after(self, before, piles)

    def moved_piles(self) -> set[int]:
        """The piles the last move (or recorded change) touched, by its journal entries: a
        pile not among them is as it was before it. Ask before undoing it."""
        out: set[int] = set()
        for e in self._journal[self._marks[-1] :] if self._marks else ():
            if e[0] == _T:
                out.update(e[1:3])
            elif e[0] != _V:
                out.add(e[1])
        return out

    def visible(self, p: int) -> list[int]:
        return self.piles[p][self.down[p] :]

    def hidden_cards(self) -> set[int]:
        return {c for p, pile in enumerate(self.piles) for c in pile[: self.down[p]]}

    def copy(self) -> State:
        """An independent state at the same position (no undo history)."""
        st = State(self.rules, self.seed, [list(p) for p in self.piles], list(self.down),
                   dict(self.vars), self.competitive)
        st.ply0 = self.ply
        return st

    # ----- journaled primitives, for rules only ----------------------------------------

    def move_cards(self, src: int, dst: int, n: int, reverse: bool = False,
                   hide: bool = False) -> None:
        """Move the top ``n`` cards of ``src`` onto ``dst``.

        ``reverse`` deals them one at a time (the order flips, as from a stock to a waste);
        ``hide`` lays them face down (a waste turned back into the stock).
        """
        s, d = self.piles[src], self.piles[dst]
        old_sd, old_dd = self.down[src], self.down[dst]
        cards = s[-n:]
        del s[-n:]
        if reverse:
            cards.reverse()
        d.extend(cards)
        if old_sd > len(s):
            self.down[src] = len(s)
        if hide:
            self.down[dst] = len(d)
        elif old_sd > len(s):
            self._shown = True
        self._journal.append((_T, src, dst, n, reverse, old_sd, old_dd))

    def turn_up(self, p: int, k: int = 1) -> None:
        """Turn ``k`` face-down cards of pile ``p`` face up (from the top of the hidden part)."""
        self.set_down(p, max(0, self.down[p] - k))

    def set_down(self, p: int, down: int) -> None:
        old = self.down[p]
        self.down[p] = down
        if down < old and self.piles[p]:
            self._shown = True
        self._journal.append((_D, p, old))

    def set_var(self, name: str, value: int) -> None:
        self._journal.append((_V, name, self.vars.get(name)))
        self.vars[name] = value

    def set_pile(self, p: int, cards: list[int], down: int) -> None:
        """Replace a whole pile (a reshuffle, a redeal); the old one is kept for undo."""
        old_cards, old_down = self.piles[p], self.down[p]
        self.piles[p] = list(cards)
        self.down[p] = down
        if set(cards[down:]) - set(old_cards[old_down:]):
            self._shown = True
        self._journal.append((_P, p, old_cards, old_down))

    def _revert(self, e: tuple[Any, ...]) -> None:
        tag = e[0]
        if tag == _T:
            _, src, dst, n, reverse, old_sd, old_dd = e
            d = self.piles[dst]
            cards = d[-n:]
            del d[-n:]
            if reverse:
                cards.reverse()
            self.piles[src].extend(cards)
            self.down[src], self.down[dst] = old_sd, old_dd
        elif tag == _D:
            self.down[e[1]] = e[2]
        elif tag == _V:
            if e[2] is None:
                del self.vars[e[1]]
            else:
                self.vars[e[1]] = e[2]
        else:
            self.piles[e[1]] = e[2]
            self.down[e[1]] = e[3]

    # ----- snapshot ---------------------------------------------------------------------

    def snapshot(self) -> bytes:
        """Compact bytes of the position: rule set, seed, piles, face-down counts, vars.

        The undo history is not included; rebuild it with ``replay`` when needed.
        """
        head = f"{self.rules.id}/{self.rules.variant}".encode()
        out = bytearray(b"SD1")
        out += struct.pack(">B", len(head)) + head
        out += struct.pack(">B", len(self.seed)) + self.seed
        out += struct.pack(">BBI", len(self.piles), self.competitive, self.ply)
        for pile, d in zip(self.piles, self.down, strict=True):
            out += struct.pack(">BB", len(pile), d) + bytes(pile)
        items = sorted(self.vars.items())
        out += struct.pack(">B", len(items))
        for name, value in items:
            key = name.encode()
            out += struct.pack(">B", len(key)) + key + struct.pack(">i", value)
        return bytes(out)

    def __repr__(self) -> str:
        piles = " ".join(
            f"{self.rules.pile_names[p]}:{self.down[p]}/"
            + ",".join(TEXT[c] for c in pile)
            for p, pile in enumerate(self.piles)
        )
        return f"<State {self.rules.key} {self.status} {piles}>"


def restore_into(rules_lookup: Any, data: bytes) -> State:
    """Rebuild a ``State`` from ``State.snapshot`` bytes (see ``engine.restore``)."""
    if data[:3] != b"SD1":
        raise ValueError("not a SameDeal snapshot")
    pos = 3

    def take(n: int) -> bytes:
        nonlocal pos
        chunk = data[pos : pos + n]
        if len(chunk) != n:
            raise ValueError("truncated snapshot")
        pos += n
        return chunk

    key = take(take(1)[0]).decode()
    game_id, variant = key.split("/")
    rules = rules_lookup(game_id, variant)
    seed = take(take(1)[0])
    npiles, competitive, ply = struct.unpack(">BBI", take(6))
    piles: list[list[int]] = []
    down: list[int] = []
    for _ in range(npiles):
        size, d = take(2)
        piles.append(list(take(size)))
        down.append(d)
    vars: dict[str, int] = {}
    for _ in range(take(1)[0]):
        name = take(take(1)[0]).decode()
        vars[name] = struct.unpack(">i", take(4))[0]
    if npiles != len(rules.pile_names):
        raise ValueError("snapshot does not fit its rule set")
    st = State(rules, seed, piles, down, vars, bool(competitive))
    st.ply0 = ply
    return st

