"""The ``samedeal`` command: the registry, deals and their proofs, random self-play."""

from __future__ import annotations

import argparse
import json
import random
import sys
import urllib.request
from collections.abc import Sequence
from importlib.metadata import entry_points
from typing import Any

from . import registry
from .cards import TEXT
from .core import LOST, PLAYING, WON, IllegalMove, State
from .deal import commitment, parse_seed, verify
from .notation import move_text, parse_move


def _games(args: argparse.Namespace) -> int:
    sets = registry.rule_sets()
    if args.json:
        print(json.dumps([r.describe() for r in sets], indent=1))
        return 0
    for r in sets:
        lo, hi = r.players
        players = f"{lo}" if lo == hi else f"{lo}-{hi}"
        print(f"{r.key:32} {r.name:20} players {players:4} scoring {r.scoring}")
    print(f"{len(sets)} rule sets")
    return 0


def layout(st: State) -> dict[str, Any]:
    """Every card of a deal, bottom to top; fine to print once the seed is public."""
    return {
        name: {"down": st.down[p], "cards": [TEXT[c] for c in st.piles[p]]}
        for p, name in enumerate(st.rules.pile_names)
    }


def _deal(args: argparse.Namespace) -> int:
    rules = registry.get(args.game, args.variant)
    seed = parse_seed(args.seed)
    st = rules.deal(seed)
    piles = layout(st)
    if args.json:
        print(json.dumps({"game": rules.id, "variant": rules.variant, "seed": seed.hex(),
                          "commitment": commitment(seed), "piles": piles}, indent=1))
        return 0
    print(f"{rules.name} ({rules.variant}), seed {seed.hex()}")
    print(f"commitment sha256(seed) = {commitment(seed)}")
    print("piles bottom to top; face-down cards in brackets")
    for name, pile in piles.items():
        cards, down = pile["cards"], pile["down"]
        hidden = f"[{' '.join(cards[:down])}] " if down else ""
        print(f"  {name:4} {hidden}{' '.join(cards[down:])}".rstrip())
    return 0


def _verify(args: argparse.Namespace) -> int:
    seed = parse_seed(args.seed)
    if verify(seed, args.commitment):
        print(f"ok: sha256({seed.hex()}) = {commitment(seed)}")
        return 0
    print(f"MISMATCH: sha256({seed.hex()}) = {commitment(seed)}, not {args.commitment}")
    return 1


def check_invariants(st: State) -> None:
    cards = sorted(c for pile in st.piles for c in pile)
    if cards != list(range(52)):
        raise AssertionError(f"the deck is not whole: {len(cards)} cards, "
                             f"{len(set(cards))} distinct")
    for p, pile in enumerate(st.piles):
        if not 0 <= st.down[p] <= len(pile):
            raise AssertionError(f"{st.rules.pile_names[p]}: {st.down[p]} down of {len(pile)}")


def selfplay(game: str, variant: str, games: int, first_seed: int = 0,
             max_moves: int = 2000, players: int | None = None) -> dict[str, int]:
    """Play ``games`` random legal games, checking invariants after every move."""
    rules = registry.get(game, variant)
    tally = {"games": 0, "won": 0, "lost": 0, "finished": 0, "capped": 0, "moves": 0,
             "errors": 0}
    for i in range(first_seed, first_seed + games):
        rng = random.Random(i)  # chooses moves only; deals come from engine.deal
        st = rules.deal(i.to_bytes(8, "big"), players=players)
        tally["games"] += 1
        try:
            check_invariants(st)
            while st.status == PLAYING and len(st.history) < max_moves:
                moves = st.legal_moves()
                move = rng.choice(moves)
                st.play(move)
                check_invariants(st)
                tally["moves"] += 1
        except (IllegalMove, AssertionError, IndexError, KeyError, ValueError) as e:
            tally["errors"] += 1
            last = move_text(rules, st.history[-1]) if st.history else "the deal"
            print(f"error in {rules.key} seed {i} after {last}: {e!r}", file=sys.stderr)
            continue
        status = st.status
        key = {WON: "won", LOST: "lost", PLAYING: "capped"}.get(status, "finished")
        tally[key] += 1
    return tally


def _selfplay(args: argparse.Namespace) -> int:
    t = selfplay(args.game, args.variant, args.games, args.seed, args.max_moves, args.players)
    print(f"{args.game}/{args.variant}: " + ", ".join(f"{v} {k}" for k, v in t.items()))
    return 1 if t["errors"] else 0


def load_transcript(source: str, token: str | None = None) -> dict[str, Any]:
    """A transcript (as ``GET /api/v1/sessions/{id}/moves`` gives it) from a file, ``-`` for
    standard input, or an http(s) URL."""
    if source == "-":
        text = sys.stdin.read()
    elif source.startswith(("http://", "https://")):
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        request = urllib.request.Request(source, headers=headers)
        with urllib.request.urlopen(request, timeout=30) as response:
            text = response.read().decode()
    else:
        with open(source, encoding="utf-8") as f:
            text = f.read()
    data = json.loads(text)
    if not isinstance(data, dict):
        raise ValueError("a transcript is a JSON object")
    return data


def check_transcript(t: dict[str, Any]) -> list[str]:
    """Replay a transcript on the engine; every way it disagrees with what it claims."""
    if not t.get("seed"):
        return ["the transcript has no seed (it is revealed when the game or race is over)"]
    seed = parse_seed(t["seed"])
    problems = []
    if t.get("commitment") and not verify(seed, t["commitment"]):
        problems.append(f"the seed does not match the commitment {t['commitment']}")
    rules = registry.get(t["game"], t["variant"])
    st = rules.deal(seed, competitive=bool(t.get("competitive")))
    for i, text in enumerate(t.get("moves", []), 1):
        try:
            if text == "resign":
                st.resign()
            else:
                st.play(parse_move(rules, text))
        except IllegalMove as e:
            return [*problems, f"move {i} ({text}) is illegal: {e.message} [{e.code}]"]
    for field, value in (("status", st.status), ("score", st.score)):
        if field in t and t[field] != value:
            problems.append(f"{field}: the transcript says {t[field]!r}, the engine {value!r}")
    return problems


def _replay(args: argparse.Namespace) -> int:
    t = load_transcript(args.transcript, args.token)
    problems = check_transcript(t)
    name = f"{t.get('game')}/{t.get('variant')}"
    if problems:
        for p in problems:
            print(f"MISMATCH {name}: {p}")
        return 1
    print(f"ok: {name}, {len(t.get('moves', []))} moves replay to {t.get('status')} "
          f"with score {t.get('score')}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="samedeal", description="SameDeal: competitive solitaire.")
    sub = p.add_subparsers(dest="command")
    g = sub.add_parser("games", help="list the rule sets, one per line")
    g.add_argument("--json", action="store_true")
    g.set_defaults(run=_games)
    d = sub.add_parser("deal", help="print the deal a seed makes, and its commitment")
    d.add_argument("game")
    d.add_argument("variant")
    d.add_argument("--seed", required=True, help="the seed, in hex")
    d.add_argument("--json", action="store_true")
    d.set_defaults(run=_deal)
    v = sub.add_parser("verify", help="check a revealed seed against its commitment")
    v.add_argument("--seed", required=True)
    v.add_argument("--commitment", required=True)
    v.set_defaults(run=_verify)
    s = sub.add_parser("selfplay", help="play random legal games and report")
    s.add_argument("game")
    s.add_argument("variant")
    s.add_argument("--games", type=int, default=100)
    s.add_argument("--seed", type=int, default=0, help="the first game's number")
    s.add_argument("--max-moves", type=int, default=2000)
    s.add_argument("--players", type=int, help="for the games several play in one state")
    s.set_defaults(run=_selfplay)
    r = sub.add_parser("replay", help="re-check a game's transcript against the engine")
    r.add_argument("transcript", help="a JSON file, - for standard input, or a URL")
    r.add_argument("--token", help="a bearer token, for a URL on a SameDeal server")
    r.set_defaults(run=_replay)
    for ep in entry_points(group="samedeal.commands"):  # the server's, the clients'
        ep.load()(sub)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):
        parser.print_help()
        return 0
    try:
        return int(args.run(args))
    except (registry.UnknownGame, ValueError, OSError, KeyError) as e:
        print(f"samedeal: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
