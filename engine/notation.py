"""The one short text notation for moves, and the structured (JSON) form; see docs/notation.md.

Kept apart from the rules: a rule set only names its piles.

    t3-f2      the top card of column 3 to foundation 2
    t3:4-t5    four cards from column 3 onto column 5
    s          deal, flip or turn over the stock
    t3+t5      remove the top cards of t3 and t5 together (pairs, triplets); t3+ removes one
    redeal     any other kind is its name, then ``:pile`` if it names one, then ``:n`` if n != 1
               (``finish``, ``left:r2``)
"""

from __future__ import annotations

from typing import Any

from .core import MOVE, REMOVE, STOCK, IllegalMove, Move
from .rules import RuleSet


class NotationError(IllegalMove):
    def __init__(self, message: str) -> None:
        super().__init__("move.syntax", message)


def move_text(rules: RuleSet, m: Move) -> str:
    names = rules.pile_names
    if m.kind == MOVE:
        count = f":{m.n}" if m.n != 1 else ""
        return f"{names[m.src]}{count}-{names[m.dst]}"
    if m.kind == STOCK:
        return "s"
    if m.kind == REMOVE:
        text = "+".join(names[p] for p in m.piles)
        return text if len(m.piles) > 1 else text + "+"
    text = m.kind
    if m.src >= 0:
        text += ":" + names[m.src]
    if m.n != 1:
        text += f":{m.n}"
    return text


def _pile(rules: RuleSet, name: str) -> int:
    try:
        return rules.pile_index[name.strip().lower()]
    except KeyError:
        raise NotationError(f"there is no pile called {name.strip()!r} in {rules.name}") from None


def parse_move(rules: RuleSet, text: str) -> Move:
    t = text.strip().lower()
    if not t or len(t) > 64:
        raise NotationError("write a move like t3-f1, t3:2-t5 or s")
    if t == "s":
        return Move(STOCK)
    if "-" in t:
        left, _, right = t.partition("-")
        src, _, count = left.partition(":")
        n = 1
        if count:
            if not count.isdigit() or int(count) < 1:
                raise NotationError(f"{count!r} is not a number of cards")
            n = int(count)
        return Move(MOVE, _pile(rules, src), _pile(rules, right), n)
    if "+" in t:
        return Move(REMOVE, piles=tuple(_pile(rules, p) for p in t.split("+") if p))
    kind, *args = t.split(":")
    if kind.isalpha() and len(args) <= 2:
        pile, n = -1, 1
        for arg in args:
            if arg.isdigit():
                n = int(arg)
            else:
                pile = _pile(rules, arg)
        return Move(kind, pile, -1, n)
    raise NotationError(f"{text.strip()!r} is not a move")


def move_json(rules: RuleSet, m: Move) -> dict[str, Any]:
    names = rules.pile_names
    if m.kind == MOVE:
        return {"kind": MOVE, "from": names[m.src], "to": names[m.dst], "n": m.n}
    if m.kind == REMOVE:
        return {"kind": REMOVE, "piles": [names[p] for p in m.piles]}
    out: dict[str, Any] = {"kind": m.kind}
    if m.src >= 0:
        out["pile"] = names[m.src]
    if m.n != 1:
        out["n"] = m.n
    return out


def move_from_json(rules: RuleSet, d: Any) -> Move:
    if not isinstance(d, dict) or not isinstance(d.get("kind"), str):
        raise NotationError("a move is an object with a 'kind'")
    kind = d["kind"]
    if kind == MOVE:
        n = d.get("n", 1)
        if type(n) is not int or n < 1:
            raise NotationError("'n' is a whole number of cards, 1 or more")
        if not isinstance(d.get("from"), str) or not isinstance(d.get("to"), str):
            raise NotationError("a move names its 'from' and 'to' piles")
        return Move(MOVE, _pile(rules, d["from"]), _pile(rules, d["to"]), n)
    if kind == REMOVE:
        piles = d.get("piles")
        if not isinstance(piles, list) or not piles or not all(isinstance(p, str) for p in piles):
            raise NotationError("a remove names its 'piles'")
        return Move(REMOVE, piles=tuple(_pile(rules, p) for p in piles))
    if not kind.isalpha() or len(kind) > 16:
        raise NotationError(f"{kind[:16]!r} is not a kind of move")
    n = d.get("n", 1)
    if type(n) is not int or n < 1:
        raise NotationError("'n' is a whole number, 1 or more")
    pile = d.get("pile")
    if pile is not None and not isinstance(pile, str):
        raise NotationError("'pile' names a pile")
    return Move(kind, _pile(rules, pile) if pile else -1, -1, n)
