"""GreedyBot: an example bot that plays every rule set from the view, the legal moves and the
rule set's description (``learn``), knowing no game by name.

It never imports the engine: like any client it sees only the session payload (docs/protocol.md),
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
import random
import zlib
from collections import Counter
from collections.abc import Iterable
from typing import Any

from . import Bot
from .layout import Layout, letters

RANKS = "A23456789TJQK"
BASE_NAMES = {"Ace": 1, "Jack": 11, "Queen": 12, "King": 13}

Piles = dict[str, dict[str, Any]]
Key = tuple[tuple[str, int, tuple[str, ...]], ...]


def rank(card: str) -> int:
    return RANKS.index(card[0].upper()) + 1


def red(card: str) -> bool:
    return card[1].lower() in "dh"


def parse(move: str) -> tuple[str, list[str], int]:
    """A move's kind, the piles it names (source first) and its count, from its text."""
    if move == "s":
        return "stock", ["s"], 1
    if "-" in move:
        left, _, dst = move.partition("-")
        src, _, count = left.partition(":")
        return "move", [src, dst], int(count) if count else 1
    if "+" in move:
        return "remove", [p for p in move.split("+") if p], 1
    kind, *args = move.split(":")
    names = [a for a in args if not a.isdigit()]
    counts = [int(a) for a in args if a.isdigit()]
    return kind, names, counts[0] if counts else 1


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
            return slide_score(piles, names[0], kind, self.known(view))
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
        return gaps_score(piles, src, dst, layout or Layout())
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


# ----- placing the card turned: grids of hands, pins -------------------------------------------


def placement_score(view: dict[str, Any], dst: str, card: str, layout: Layout) -> float:
    piles: Piles = view["piles"]
    if not card:
        return 20  # a blind fill (a card placed face down): neutral
    kd = letters(dst)
    if kd == "p":  # a pin: an empty one close to where the rank belongs
        if piles[dst]["up"]:
            return 10
        pin = int(dst[1:])
        return 100 - abs(pin - (1 + (rank(card) - 1) * 9 / 12)) * 5
    if kd == "b" or kd == "w":
        return 1  # a discard or a ball: only when nothing fits
    if kd != "g":
        return 0
    row, col = layout.where(dst, piles)
    score = 5.0
    cells = [(r, c, name) for r, line in enumerate(layout.rows(dst, piles))
             for c, name in enumerate(line)]
    for r, c, name in cells:
        if (r == row) == (c == col) or name not in piles or not piles[name]["up"]:
            continue
        other = piles[name]["up"][-1]
        if rank(other) == rank(card):
            score += 6
        if r == row and other[1] == card[1]:
            score += 2
        if c == col and abs(rank(other) - rank(card)) <= 2:
            score += 1
    return score


# ----- grids: cards moved into gaps, rows slid ---------------------------------------------------


def gaps_score(piles: Piles, src: str, dst: str, layout: Layout) -> float:
    """Extend a row's run from its Two; never break one; keep gaps away from Kings."""
    rows = layout.rows(src, piles)
    (ir, ic), (jr, jc) = layout.where(src, piles), layout.where(dst, piles)

    def run_length(row: int) -> int:
        length, suit = 0, None
        for k, name in enumerate(rows[row]):
            cell = piles[name]["up"]
            if not cell or rank(cell[-1]) != k + 2 or (suit and cell[-1][1] != suit):
                break
            suit = cell[-1][1]
            length = k + 1
        return length

    score = 0.0
    if jc == run_length(jr):
        score += 500
    if ic < run_length(ir):
        score -= 800
    left = piles[rows[ir][ic - 1]]["up"] if ic else []
    if left and rank(left[-1]) == 13:
        score -= 50
    return score


def slide_score(piles: Piles, row_name: str, direction: str, layout: Layout) -> float:
    """Slide a row where vertical threes (or at least pairs) of a rank line up afterwards."""
    first = min((n for n in piles if letters(n) == "g"), key=lambda n: int(n[1:]), default="g1")
    lines = layout.rows(first, piles)
    width = max((len(line) for line in lines), default=1)
    row = int(row_name[1:]) - 1
    grid = [piles[n]["up"][-1] if piles[n]["up"] else "" for line in lines for n in line]
    line = grid[row * width:(row + 1) * width]
    line = (["", *line[:-1]]) if direction == "right" else ([*line[1:], ""])
    grid[row * width:(row + 1) * width] = line
    rows = len(grid) // width
    score = 0.0
    for c in range(width):
        col = [grid[r * width + c] for r in range(rows)]
        for r in range(rows - 1):
            if col[r] and col[r + 1] and col[r][0] == col[r + 1][0]:
                score += 30
                if r + 2 < rows and col[r + 2] and col[r + 2][0] == col[r][0]:
                    score += 1000
    return score


# ----- discarding one rank up or down: the longest chain --------------------------------------


def stock_and_waste(layout: Layout) -> bool:
    """Columns built from a stock turned onto one waste pile, with four foundations (one a
    suit) and nothing else to hold cards (no reserve, no cells): the column planner's layout."""
    counts = layout.counts()
    return (layout.play == "build" and counts["stock"] == 1 and counts["waste"] == 1
            and counts["foundation"] == 4 and counts["tableau"] >= 1
            and set(counts) == {"tableau", "foundation", "stock", "waste"})


def one_discard(layout: Layout) -> bool:
    """Columns discarding onto one pile, with a stock and nothing else: where a chain of
    discards may run one rank up or down (``GreedyBot.by_one`` checks it as the game goes)."""
    counts = layout.counts()
    return (layout.play == "build" and counts["foundation"] == 1 and counts["stock"] == 1
            and set(counts) == {"tableau", "foundation", "stock"})


def chain_scores(view: dict[str, Any], legal: list[str], kings_close: bool = False
                 ) -> dict[str, float]:
    """Play the column card that starts the longest chain of plays from the columns; among
    equal chains, the one from the longest column. The stock only when no card fits."""
    piles: Piles = view["piles"]
    names = sorted((n for n in piles if letters(n) == "t"), key=lambda n: int(n[1:]))
    cols = [list(piles[n]["up"]) for n in names]
    budget = [20000]

    def fits(card: int, top: int) -> bool:
        return abs(card - top) == 1 and not (kings_close and top == 13)

    seen = Counter(rank(c) for name in piles if letters(name) in "tf"
                   for c in piles[name]["up"])
    unseen = {r: 4 - seen[r] for r in range(1, 14)}

    def chain(heights: tuple[int, ...], top: int) -> float:
        """The longest chain of column plays onto ``top`` (x100), then how many unseen
        cards would continue from where it ends (the stock's chances)."""
        budget[0] -= 1
        best = float(sum(unseen.get(r, 0) for r in (top - 1, top + 1) if fits(r, top)))
        if budget[0] <= 0:
            return best
        for c, h in enumerate(heights):
            if h and fits(rank(cols[c][h - 1]), top):
                hs = (*heights[:c], h - 1, *heights[c + 1:])
                best = max(best, 100 + chain(hs, rank(cols[c][h - 1])))
        return best

    out: dict[str, float] = {}
    heights = tuple(len(c) for c in cols)
    for move in legal:
        kind, ps, _ = parse(move)
        if kind != "move" or letters(ps[0]) != "t":
            continue
        c = names.index(ps[0])
        card = rank(cols[c][-1])
        hs = (*heights[:c], heights[c] - 1, *heights[c + 1:])
        out[move] = 1000 + chain(hs, card) + heights[c]
    return out


# ----- piles covering piles, cards removed in pairs: the best run of pairs -----------------------


class Covering:
    """The covering group as the searches index it: its piles top row first, each one's row,
    and the positions of the piles lying over each (``covered_by``)."""

    def __init__(self, layout: Layout) -> None:
        rows = layout.covering_group()
        self.names = [name for row in rows for name in row]
        self.index = {name: k for k, name in enumerate(self.names)}
        self.rows = len(rows)
        self.row = [r for r, row in enumerate(rows) for _ in row]
        self.cover = [tuple(self.index[q] for q in layout.covered_by.get(name, ())
                            if q in self.index) for name in self.names]


def cover_scores(view: dict[str, Any], legal: list[str], layout: Layout) -> dict[str, float]:
    """Search the removals possible without the stock (every card there is in sight) and
    play the first of the line that clears the most covering and reserve cards, the higher
    rows counting a little more; waste-only pairs when nothing else; the stock last."""
    piles: Piles = view["piles"]
    group = Covering(layout)
    if any(name not in piles for name in group.names):
        return {}
    size, cover = len(group.names), group.cover
    pyr = [piles[name]["up"][-1] if piles[name]["up"] else "" for name in group.names]
    reserve = sorted((n for n in piles if letters(n) == "r"), key=lambda n: int(n[1:]))
    res = [piles[n]["up"][-1] if piles[n]["up"] else "" for n in reserve]
    w1 = list(piles.get("w1", {"up": []})["up"])
    w2 = list(piles.get("w2", {"up": []})["up"])
    budget = [30000]

    def cards(state: tuple[int, int, int, int]) -> list[tuple[str, str, float]]:
        """The available cards: (pile name, card, worth of clearing it)."""
        pm, rm, n1, n2 = state
        out: list[tuple[str, str, float]] = []
        for k in range(size):
            if pyr[k] and not pm >> k & 1 and all(not pyr[q] or pm >> q & 1 for q in cover[k]):
                out.append((group.names[k], pyr[k], 10.0 + (group.rows - group.row[k])))
        for i, c in enumerate(res):
            if c and not rm >> i & 1:
                out.append((reserve[i], c, 9.0))
        if n1:
            out.append(("w1", w1[n1 - 1], 0.5))
        if n2:
            out.append(("w2", w2[n2 - 1], 0.5))
        return out

    def apply(state: tuple[int, int, int, int], names: Iterable[str]) -> tuple[int, ...]:
        pm, rm, n1, n2 = state
        for name in names:
            if name == "w1":
                n1 -= 1
            elif name == "w2":
                n2 -= 1
            elif name in group.index:
                pm |= 1 << group.index[name]
            else:
                rm |= 1 << reserve.index(name)
        return pm, rm, n1, n2

    def removals(state: tuple[int, int, int, int]) -> list[tuple[list[str], float]]:
        avail = cards(state)
        out = []
        for i, (a, ca, wa) in enumerate(avail):
            if rank(ca) == 13:
                out.append(([a], wa))
            for b, cb, wb in avail[i + 1:]:
                if rank(ca) + rank(cb) == 13:
                    out.append(([a, b], wa + wb))
        return out

    memo: dict[tuple[int, ...], float] = {}

    def best(state: tuple[int, int, int, int]) -> float:
        if state in memo:
            return memo[state]
        budget[0] -= 1
        value = 0.0
        if budget[0] > 0:
            for names, worth in removals(state):
                value = max(value, worth + best(apply(state, names)))  # type: ignore[arg-type]
        memo[state] = value
        return value

    start = (0, 0, len(w1), len(w2))
    order = {n: i for i, n in enumerate(list(piles))}
    out: dict[str, float] = {}
    for names, worth in removals(start):
        text = "+".join(sorted(names, key=order.__getitem__))
        text = text if len(names) > 1 else text + "+"
        if text in legal:
            out[text] = 1000 + 10 * (worth + best(apply(start, names)))  # type: ignore[arg-type]
    return out


# ----- predicting a move's position, when the view tells it -------------------------------------


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


# ----- columns with a stock and a waste: a plan over the cards in sight ------------------------

HIDDEN = "??"  # a column card turned up during a plan: unknown, so nothing moves it or onto it
SUITS = "cdhs"

Cols = tuple[tuple[int, tuple[str, ...]], ...]
KState = tuple[Cols, tuple[int, ...], tuple[str, ...], int]  # columns, foundations, cycle, waste


def builds_on(card: str, top: str) -> bool:
    return (top != HIDDEN and card != HIDDEN and rank(top) == rank(card) + 1
            and red(top) != red(card))


def column_value(state: KState) -> float:
    """What a position is worth: face-down cards dominate (the deepest columns first), then
    foundation cards, then cards gone from the stock and empty columns."""
    cols, found, cycle, _ = state
    return (-1000 * sum(d for d, _ in cols) - 10 * sum(d * d for d, _ in cols)
            + 60 * sum(found) - len(cycle) + 20 * sum(1 for d, up in cols if not d and not up))


class ColumnPlanner:
    """A bounded depth-first search over what the player knows: the columns' face-up cards, the
    foundations and, once the stock has gone round, the whole stock in its order (the waste and
    the stock keep one cyclic order: turning over and drawing never change it). A waste card
    deeper in the cycle is one macro move: draw until it is on top, then play it. It plans as
    if columns build down in alternating colours, only Kings fill a space and foundations
    build up in suit; only a planned move that is legal is played."""

    def __init__(self, draw: int, redeal: bool, known: bool, budget: int = 2500,
                 depth: int = 5) -> None:
        self.draw, self.redeal, self.known = draw, redeal, known
        self.budget, self.depth = budget, depth
        self.open = False  # every column card face up

    def reachable(self, cycle: tuple[str, ...], pos: int) -> list[tuple[int, int]]:
        """(waste size, presses of the stock) for every waste top the stock can bring up."""
        out = [(pos, 0)] if pos else []
        if not self.known:
            return out
        seen, p, presses, n = {pos}, pos, 0, len(cycle)
        while True:
            if p == n:
                if not self.redeal or not n:
                    break
                p = 0
            else:
                p = min(p + self.draw, n)
            presses += 1
            if p in seen:
                break
            seen.add(p)
            if p:
                out.append((p, presses))
        return out

    def moves(self, state: KState) -> Iterable[tuple[tuple[str, str, int, int], KState, float]]:
        """(move: source, target, count, presses; the position after it; its cost)."""
        cols, found, cycle, pos = state

        def fits_found(card: str) -> int:
            if card == HIDDEN:
                return -1
            s = SUITS.index(card[1].lower())
            return s if found[s] + 1 == rank(card) else -1

        def with_found(s: int) -> tuple[int, ...]:
            return (*found[:s], found[s] + 1, *found[s + 1:])

        def safe(card: str) -> bool:
            if self.open:
                return True  # nothing is face down any more: no builder is needed
            r = rank(card)
            other = [found[i] for i in range(4) if (SUITS[i] in "dh") != red(card)]
            return r <= 2 or min(other) >= r - 1

        def set_col(cs: Cols, i: int, down: int, up: tuple[str, ...]) -> Cols:
            if not up and down:
                down, up = down - 1, (HIDDEN,)
            return (*cs[:i], (down, up), *cs[i + 1:])

        # column tops to the foundations
        for i, (down, up) in enumerate(cols):
            if up and (s := fits_found(up[-1])) >= 0:
                after = (set_col(cols, i, down, up[:-1]), with_found(s), cycle, pos)
                yield (f"t{i + 1}", "f", 1, 0), after, 0 if safe(up[-1]) else 70
        # waste cards, on top or deeper in the cycle
        for p, presses in self.reachable(cycle, pos):
            card = cycle[p - 1]
            rest, cost = (*cycle[:p - 1], *cycle[p:]), 0.5 * presses
            if (s := fits_found(card)) >= 0:
                yield ("w", "f", 1, presses), (cols, with_found(s), rest, p - 1), cost + (
                    0 if safe(card) else 70)
            for j, (down, up) in enumerate(cols):
                if (up and builds_on(card, up[-1])) or (not up and not down and rank(card) == 13):
                    after = (set_col(cols, j, down, (*up, card)), found, rest, p - 1)
                    yield ("w", f"t{j + 1}", 1, presses), after, cost
        # runs between columns: a whole run (to turn a card up or empty the column), or the run
        # over a card that can then go to a foundation
        for i, (down, up) in enumerate(cols):
            for k in range(len(up)):
                if up[k] == HIDDEN or (k and fits_found(up[k - 1]) < 0):
                    continue
                # a King from an empty column's bottom: pointless
                kings_only = k == 0 and not down and rank(up[0]) == 13
                for j, (d2, up2) in enumerate(cols):
                    if j == i:
                        continue
                    if up2:
                        if not builds_on(up[k], up2[-1]):
                            continue
                    elif d2 or rank(up[k]) != 13 or kings_only:
                        continue
                    cs = set_col(cols, i, down, up[:k])
                    cs = set_col(cs, j, d2, (*up2, *up[k:]))
                    yield (f"t{i + 1}", f"t{j + 1}", len(up) - k, 0), (cs, found, cycle, pos), 0

    def plan(self, state: KState) -> tuple[tuple[str, str, int, int] | None, float]:
        """The first move of the best line found and how much it gains (0: nothing better)."""
        self.open = not any(d for d, _ in state[0])
        base = column_value(state)
        best: list[Any] = [None, 0.0]
        nodes = [self.budget]
        explored: dict[KState, int] = {}

        def dfs(s: KState, depth: int, cost: float, first: tuple[str, str, int, int]) -> None:
            gain = column_value(s) - base - cost
            if gain > best[1] + 1e-9:
                best[0], best[1] = first, gain
            if depth == 0 or nodes[0] <= 0 or explored.get(s, -1) >= depth:
                return
            explored[s] = depth
            nodes[0] -= 1
            for _, after, c in self.moves(s):
                dfs(after, depth - 1, cost + c, first)

        children = list(self.moves(state))
        for depth in range(1, self.depth + 1):  # deepening: the short lines are all seen
            explored.clear()
            for move, after, c in children:
                dfs(after, depth - 1, c, move)
            if nodes[0] <= 0:
                break
        return best[0], best[1]


# ----- discarding one rank up or down: plays tried against sampled stocks ---------------------

CHAIN_SAMPLES = 6  # stock orders drawn from the unseen cards
CHAIN_BUDGET = 400  # positions searched per sample


def chain_sampled(view: dict[str, Any], legal: list[str], kings_close: bool = False
                  ) -> dict[str, float]:
    """When more than one column card fits, play the one that clears the most cards on
    average over stock orders drawn (with a fixed seed) from the cards not in sight, each
    solved as if that order were known: the whole tableau is face up, only the stock is not."""
    piles: Piles = view["piles"]
    plays = [m for m in legal if parse(m)[0] == "move" and letters(parse(m)[1][0]) == "t"]
    if len(plays) < 2:
        return {}
    names = sorted((n for n in piles if letters(n) == "t"), key=lambda n: int(n[1:]))
    cols = [tuple(rank(c) for c in piles[n]["up"]) for n in names]
    seen = Counter(rank(c) for n in piles if letters(n) in "tf" for c in piles[n]["up"])
    unseen = [r for r in range(1, 14) for _ in range(4 - seen[r])]
    rng = random.Random(zlib.crc32(repr(sorted(piles.items())).encode()))

    def fits(card: int, top: int) -> bool:
        return not top or (abs(card - top) == 1 and not (kings_close and top == 13))

    stock: list[int] = []
    memo: dict[tuple[tuple[int, ...], int, int], int] = {}
    budget = [CHAIN_BUDGET]

    def left(hs: tuple[int, ...], top: int, i: int) -> int:
        """The fewest column cards the sampled stock order can leave."""
        key = (hs, top, i)
        if key in memo:
            return memo[key]
        best = sum(hs)
        budget[0] -= 1
        if best and budget[0] > 0:
            for c, h in enumerate(hs):
                if h and fits(cols[c][h - 1], top):
                    best = min(best, left((*hs[:c], h - 1, *hs[c + 1:]), cols[c][h - 1], i))
                    if not best:
                        break
            if best and i < len(stock):
                best = min(best, left(hs, stock[i], i + 1))
        memo[key] = best
        return best

    out = {m: 0.0 for m in plays}
    for _ in range(CHAIN_SAMPLES):
        rng.shuffle(unseen)
        stock[:] = unseen
        memo.clear()
        heights = tuple(len(c) for c in cols)
        for m in plays:
            c = names.index(parse(m)[1][0])
            hs = (*heights[:c], heights[c] - 1, *heights[c + 1:])
            budget[0] = CHAIN_BUDGET  # each play gets the same search
            rest = left(hs, cols[c][-1], 0)
            out[m] -= rest + (0 if rest else -5)  # a win counts extra
    return {m: 1000 + v for m, v in out.items()}


# ----- piles covering piles: the removals tried against sampled stocks ---------------------------

COVER_SAMPLES = 6
COVER_BUDGET = 150


def cover_sampled(view: dict[str, Any], legal: list[str], layout: Layout) -> dict[str, float]:
    """Score every removal and the stock by the cards left on average over stock orders drawn
    (with a fixed seed) from the cards not in sight, each solved as if that order were known."""
    piles: Piles = view["piles"]
    group = Covering(layout)
    if len(legal) < 2 or not group.names or any(name not in piles for name in group.names):
        return {}
    size, cover = len(group.names), group.cover
    pyr = [rank(piles[name]["up"][-1]) if piles[name]["up"] else 0 for name in group.names]
    reserve = sorted((n for n in piles if letters(n) == "r"), key=lambda n: int(n[1:]))
    res = [rank(piles[n]["up"][-1]) if piles[n]["up"] else 0 for n in reserve]
    w1 = [rank(c) for c in piles.get("w1", {"up": []})["up"]]
    w2 = [rank(c) for c in piles.get("w2", {"up": []})["up"]]
    seen = Counter(rank(c) for p in piles.values() for c in p["up"])
    unseen = [r for r in range(1, 14) for _ in range(4 - seen[r])]
    rng = random.Random(zlib.crc32(repr(sorted(piles.items())).encode()))
    PState = tuple[int, int, int, int, tuple[int, ...]]  # covering, reserve, next, w1, w2

    def avail(st: PState) -> list[tuple[str, int]]:
        pm, rm, _, c1, c2 = st
        out = [(group.names[k], pyr[k]) for k in range(size) if pyr[k] and not pm >> k & 1
               and all(not pyr[q] or pm >> q & 1 for q in cover[k])]
        out += [(reserve[i], c) for i, c in enumerate(res) if c and not rm >> i & 1]
        if c1:
            out.append(("w1", c1))
        if c2:
            out.append(("w2", c2[-1]))
        return out

    def remove(st: PState, names: Iterable[str]) -> PState:
        pm, rm, i, c1, c2 = st
        for name in names:
            if name == "w1":
                c1 = 0
            elif name == "w2":
                c2 = c2[:-1]
            elif name in group.index:
                pm |= 1 << group.index[name]
            else:
                rm |= 1 << reserve.index(name)
        return pm, rm, i, c1, c2

    def pairs(st: PState) -> list[list[str]]:
        a = avail(st)
        out = []
        for i, (n1, r1) in enumerate(a):
            if r1 == 13:
                out.append([n1])
            out += [[n1, n2] for n2, r2 in a[i + 1:] if r1 + r2 == 13]
        return out

    total = sum(1 for r in pyr if r) + sum(1 for r in res if r)

    def cleared(st: PState) -> int:
        return bin(st[0]).count("1") + bin(st[1]).count("1")

    start: PState = (0, 0, 0, w1[-1] if w1 else 0, tuple(w2))
    order = {n: i for i, n in enumerate(piles)}
    cands: dict[str, PState | None] = {}
    for names in pairs(start):
        text = "+".join(sorted(names, key=order.__getitem__))
        text = text if len(names) > 1 else text + "+"
        if text in legal:
            cands[text] = remove(start, names)
    if "s" in legal:
        cands["s"] = None
    stock: list[int] = []
    memo: dict[PState, int] = {}
    budget = [COVER_BUDGET]

    def flip(st: PState) -> PState | None:
        pm, rm, i, c1, c2 = st
        if i >= len(stock):
            return None
        return pm, rm, i + 1, stock[i], (*c2, c1) if c1 else c2

    def most(st: PState) -> int:
        """The most cards this stock order lets the player clear."""
        if st in memo:
            return memo[st]
        best = cleared(st)
        budget[0] -= 1
        if best < total and budget[0] > 0:
            for names in pairs(st):
                best = max(best, most(remove(st, names)))
                if best == total:
                    break
            nxt = flip(st)
            if best < total and nxt is not None:
                best = max(best, most(nxt))
        memo[st] = best
        return best

    out = {m: 0.0 for m in cands}
    for _ in range(COVER_SAMPLES):
        rng.shuffle(unseen)
        stock[:] = unseen
        memo.clear()
        for m, st in cands.items():
            budget[0] = COVER_BUDGET
            after = flip(start) if st is None else st
            got = cleared(start) if after is None else most(after)
            out[m] += got + (5 if got == total else 0)
    return {m: 1000 + 10 * v for m, v in out.items()}
