"""GreedyBot: an example bot that plays every rule set from the view, the legal moves and the
rule set's description (``learn``), knowing no game by name.

It lives in engine/bots (below the server, which races it, and the clients) but knows nothing of
the engine's rules: like any client it sees only the session payload (docs/protocol.md),
the move notation (docs/notation.md) and the catalog's description of the rule set: how moves
are made (``play``), how piles are drawn (``rows``) and which cover which (``covered_by``). Each
legal move gets a score from what the view shows (a card to a foundation, a face-down card
uncovered, a column emptied, the stock last), and the bot remembers the positions it has seen so
it does not move cards back and forth. Where the layout allows more it searches:

- columns with a stock and one waste pile (no reserve, no cells): a plan a few moves ahead over
  the face-up cards and the stock, whose order it learns on the first pass (turning over keeps
  it); how many cards a press draws and whether the waste turns over, it sees as it plays;
- face-up columns discarding one rank up or down onto a single pile, and piles that cover one
  another with cards removed together: each play tried against a few stock orders sampled (with
  a fixed seed) from the unseen cards, the one that clears the most on average played.

Games that can go on for ever (cards trading places) end when the player resigns; ``stuck``
tells the driver when the bot sees no way forward any more.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

from ..collector import paused as collector_paused
from . import Bot
from .cards import SUITS, Piles, parse, rank, red
from .chains import chain_sampled, chain_scores, one_discard
from .columns import ColumnPlanner, stock_and_waste
from .covering import cover_sampled, cover_scores
from .grids import gap_score, placement_score, shift_score
from .layout import Layout, letters

__all__ = ["GreedyBot", "parse", "predict"]

BASE_NAMES = {"Ace": 1, "Jack": 11, "Queen": 12, "King": 13}
Key = tuple[tuple[str, int, tuple[str, ...]], ...]


def position_key(piles: Piles) -> Key:
    return tuple((name, p["down"], tuple(p["up"])) for name, p in sorted(piles.items()))


class GreedyBot(Bot):
    """Scores every legal move and plays the best; deterministic (ties go to the first legal
    move), so a seed always gives the same game. One object follows one game at a time and
    starts afresh when the view's move count falls back to 0 or the rule set changes. Told
    the rule set (``learn``, which the SDK's play helpers and the runner call), it searches
    where the layout allows; not told, it only scores moves."""

    name = "greedy"
    patience = 300  # moves without progress before ``stuck``
    repeats = 4  # visits of one position before ``stuck``

    def __init__(self) -> None:
        self.layout = Layout()
        self.reset()

    def learn(self, rules: dict[str, Any]) -> None:
        super().learn(rules)
        self.layout = Layout(rules)

    def known(self, view: dict[str, Any]) -> Layout:
        """The layout of the view's rule set, if it is the one learned."""
        return self.layout if self.layout.describes(view) else Layout()

    def reset(self) -> None:
        self.game: tuple[str, str] | None = None
        self.seen: Counter[Key] = Counter()
        self.scores: set[int] = set()
        self.least_down = math.inf
        self.least_loose = math.inf
        self.idle = 0
        self.last_moves = -1
        self.stuck = False
        self.cycle: list[str] = []  # the stock and waste cards in their cyclic order
        self.draw = 1  # cards a press of the stock turns over, as seen
        self.turns_over = False  # whether an empty stock takes the waste back, as seen
        self.stock_was: tuple[int, int] | None = None  # (stock, waste) at the last look
        self.kings_close = False  # nothing goes onto a King on the discard pile, as seen
        self.not_by_one = False  # a discard seen that is not one rank up or down

    # ----- memory ---------------------------------------------------------------------------

    def observe(self, view: dict[str, Any]) -> Key:
        """Note the position; count the moves since the last sign of progress (a new score,
        fewer face-down cards, fewer cards in the stock and waste)."""
        game = (view.get("game", ""), view.get("variant", ""))
        moves = int(view.get("moves", 0))
        if game != self.game or moves == 0 or moves < self.last_moves - 1:
            self.reset()
            self.game = game
        self.last_moves = moves
        piles: Piles = view["piles"]
        key = position_key(piles)
        self.seen[key] += 1
        down = sum(p["down"] for n, p in piles.items() if letters(n) != "s")
        loose = sum(p["down"] + len(p["up"]) for n, p in piles.items() if letters(n) in "sw")
        score = int(view.get("score", 0))
        if score not in self.scores or down < self.least_down or loose < self.least_loose:
            self.idle = 0
        else:
            self.idle += 1
        self.scores.add(score)
        self.least_down = min(self.least_down, down)
        self.least_loose = min(self.least_loose, loose)
        self.stuck = self.idle >= self.patience or self.seen[key] >= self.repeats
        if stock_and_waste(self.known(view)) and "w" in piles:
            waste = list(piles["w"]["up"])
            gone = set(waste).union(*(p["up"] for n, p in piles.items() if letters(n) in "tf"))
            self.cycle = waste + [c for c in self.cycle if c not in gone]
            now = (int(piles["s"]["down"]) if "s" in piles else 0, len(waste))
            if self.stock_was is not None:
                drawn = self.stock_was[0] - now[0]
                if drawn > 0 and now[1] - self.stock_was[1] == drawn:
                    self.draw = max(self.draw, drawn)
            self.stock_was = now
        return key

    def choose(self, view: dict[str, Any], legal: list[str]) -> str:
        key = self.observe(view)
        if not legal:
            raise ValueError("no legal move: the game is over")
        piles: Piles = view["piles"]
        layout = self.known(view)
        scores: dict[str, float] = {}
        with collector_paused():
            if layout.play == "remove" and layout.covered_by:
                scores = cover_scores(view, legal, layout)
                scores.update(cover_sampled(view, legal, layout))
            elif one_discard(layout) and self.by_one(view, legal):
                scores = chain_scores(view, legal, self.kings_close)
                scores.update(chain_sampled(view, legal, self.kings_close))
        if stock_and_waste(layout) and self.idle < self.patience:
            if "s" in piles and not piles["s"]["down"] and piles.get("w", {}).get("up"):
                self.turns_over = "s" in legal
            move = self.columns(view, legal)
            if move is not None:
                self.stuck = False  # positions repeat as the stock goes round towards a plan
                return move
        best, best_score = legal[0], -math.inf
        for move in legal:
            score = scores[move] if move in scores else self.score(view, move)
            after = predict(piles, move)
            if after is not None:
                score -= 3000 * self.seen[position_key(after)]
            elif move == "s" and self.seen[key] >= 2:
                score -= 3000 * self.seen[key]  # the stock went round with nothing gained
            if score > best_score:
                best, best_score = move, score
        if best_score <= -POINTLESS:
            self.stuck = True  # only repeats and shuffles are left
        return best

    def by_one(self, view: dict[str, Any], legal: list[str]) -> bool:
        """Whether the columns' cards go to the discard pile one rank up or down from its top
        card (any card onto an empty one), as far as this game has shown: every column card
        face up, each legal discard one rank away, each card one rank away a legal discard.
        A King on top that takes no Queen says nothing goes onto a King."""
        piles: Piles = view["piles"]
        cols = [n for n in piles if letters(n) == "t"]
        found = [n for n in piles if letters(n) == "f"]
        if self.not_by_one or len(found) != 1:
            return False
        if any(piles[n]["down"] for n in cols):
            self.not_by_one = True
            return False
        f = found[0]
        top = rank(piles[f]["up"][-1]) if piles[f]["up"] else 0
        for n in cols:
            if not piles[n]["up"]:
                continue
            card = rank(piles[n]["up"][-1])
            playable = f"{n}-{f}" in legal
            if top == 13 and card == 12:
                self.kings_close = not playable
                continue
            if playable != (not top or abs(card - top) == 1):
                self.not_by_one = True
                return False
        return True

    def columns(self, view: dict[str, Any], legal: list[str]) -> str | None:
        """The first move of the best plan over the known cards; None when no plan gains."""
        piles: Piles = view["piles"]
        names = sorted((n for n in piles if letters(n) == "t"), key=lambda n: int(n[1:]))
        if [int(n[1:]) for n in names] != list(range(1, len(names) + 1)):
            return None
        cols = tuple((int(piles[n]["down"]), tuple(piles[n]["up"])) for n in names)
        found = [0, 0, 0, 0]
        for name, p in piles.items():
            if letters(name) == "f" and p["up"]:
                found[SUITS.index(p["up"][-1][1].lower())] = rank(p["up"][-1])
        stock = int(piles["s"]["down"]) if "s" in piles else 0
        waste = len(piles["w"]["up"])
        known = len(self.cycle) == waste + stock
        planner = ColumnPlanner(self.draw, self.turns_over, known)
        move, gain = planner.plan((cols, tuple(found), tuple(self.cycle), waste))
        if move is None or gain <= 0:
            return "s" if "s" in legal and not known else None
        src, dst, n, presses = move
        if presses:
            return "s" if "s" in legal else None
        if dst == "f":
            return next((m for m in legal if m.startswith(f"{src}-f")), None)
        text = f"{src}:{n}-{dst}" if n > 1 else f"{src}-{dst}"
        return text if text in legal else None

    # ----- the scores -----------------------------------------------------------------------

    def score(self, view: dict[str, Any], move: str) -> float:
        kind, names, n = parse(move)
        piles: Piles = view["piles"]
        if kind == "stock":
            return 10
        if kind == "move":
            return move_score(view, names[0], names[1], n, self.known(view))
        if kind == "remove":
            gain = 1000.0
            for name in names:
                p = piles[name]
                if len(p["up"]) == 1 and p["down"]:
                    gain += 300 + 10 * p["down"]
                if letters(name) == "w":
                    gain += 20  # a waste card is spent anyway
            return gain
        if kind in ("left", "right"):
            return shift_score(piles, names[0], kind, self.known(view))
        if kind == "redeal":
            return 5
        if kind == "finish":
            return -10000 if not self.stuck else 1
        return 0


def foundation_fits(view: dict[str, Any], card: str) -> bool:
    """Whether a card would go to a foundation built up in suit (the common case)."""
    base = BASE_NAMES.get(str((view.get("info") or {}).get("base")))
    if base is None:
        b = str((view.get("info") or {}).get("base") or "")
        base = int(b) if b.isdigit() else 1
    for name, p in view["piles"].items():
        if letters(name) != "f":
            continue
        if not p["up"]:
            if rank(card) == base:
                return True
            continue
        top = p["up"][-1]
        if top[1] == card[1] and (rank(top) % 13) + 1 == rank(card):
            return True
    return False


POINTLESS = 400  # below this a move only shuffles cards: the bot is stuck when that is all


def move_score(view: dict[str, Any], src: str, dst: str, n: int,
               layout: Layout | None = None) -> float:
    piles: Piles = view["piles"]
    s, d = piles[src], piles[dst]
    ks, kd = letters(src), letters(dst)
    up = s["up"]
    moved = up[-n:] if up else []
    rest = up[:-n] if n <= len(up) else []
    reveals = n >= len(up) and s["down"] > 0 and ks != "s"
    empties = n >= len(up) and s["down"] == 0
    dst_empty = not d["up"] and not d["down"]
    score = 0.0
    if ks == "s":
        return placement_score(view, dst, up[-1] if up else "", layout or Layout())
    if ks == "g" and kd == "g":
        return gap_score(piles, src, dst, layout or Layout())
    if kd == "f":
        score += 1000
    elif kd == "c":
        score -= 100  # a free cell is spent
    elif kd in ("t", "r") and ks in ("w", "r", "c"):
        score += 100 if ks == "w" else 80
    if ks == "f":
        score -= 500
    if reveals:
        score += 500 + 10 * s["down"]
    elif empties and dst_empty and ks == kd:
        return -5000  # a whole pile into an empty one changes nothing
    elif empties and ks in ("t", "c"):
        score += 150 if ks == "t" else 60
    elif rest and kd != "f":
        under = rest[-1]
        waste = piles["w"]["up"] if "w" in piles else []
        if foundation_fits(view, under):
            score += 300
        elif waste and rank(under) == rank(waste[-1]) + 1 and red(under) != red(waste[-1]):
            score += 200  # the waste's card can go there next
        elif moved and rank(under) == rank(moved[0]) + 1 and ks == "t":
            score -= POINTLESS  # it already lies where it builds
        if dst_empty:
            score -= 30
    if d["up"] and moved and kd == "t" and d["up"][-1][1] == moved[0][1]:
        score += 20  # a same-suit build
    return score


def predict(piles: Piles, move: str) -> Piles | None:
    """The piles after a move that shows no new card (None when it would show one, or when
    the view can't tell: the stock, a game's own kinds)."""
    try:
        kind, names, n = parse(move)
    except ValueError:
        return None
    if kind == "move":
        src, dst = names
        if src not in piles or dst not in piles:
            return None
        s = piles[src]
        if n > len(s["up"]) or (n == len(s["up"]) and s["down"]) or letters(src) == "s":
            return None
        out = dict(piles)
        out[src] = {"down": s["down"], "up": s["up"][:-n]}
        out[dst] = {"down": piles[dst]["down"], "up": piles[dst]["up"] + s["up"][-n:]}
        return out
    if kind == "remove":
        out = dict(piles)
        for name in names:
            p = piles.get(name)
            if p is None or not p["up"] or (len(p["up"]) == 1 and p["down"]):
                return None
            out[name] = {"down": p["down"], "up": p["up"][:-1]}
        return out
    return None
