"""The ``samedeal`` command: the registry, deals and their proofs, random self-play.

One error path serves every subcommand (the server's and the clients' plug in through entry
points): a one-line message on standard error and an exit code, never a traceback. ``0`` done;
``1`` the server or the game refused, a check failed, or a server could not be reached; ``2`` a
mistake on the command line, found before anything is created; ``130`` interrupted (Ctrl-C).
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import random
import re
import sys
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence
from importlib.metadata import entry_points
from typing import Any, NoReturn

from . import registry
from .cards import TEXT
from .core import LOST, PLAYING, WON, IllegalMove, State
from .deal import commitment, verify
from .notation import move_text, parse_move

OK, FAILED, USAGE, INTERRUPTED = 0, 1, 2, 130


class Failed(Exception):
    """The server or the game said no, or could not be reached: exit 1 with this sentence."""


class UsageError(ValueError):
    """A mistake on the command line: exit 2 with this sentence."""


class Parser(argparse.ArgumentParser):
    """argparse, with a usage mistake told in one line (the whole usage is in ``--help``)."""

    def error(self, message: str) -> NoReturn:
        self.exit(USAGE, f"{self.prog}: {message} (see {self.prog} --help)\n")


def hex_seed(text: str) -> bytes:
    """A seed as the command line takes it: 1 to 64 bytes written in hex, two digits a byte."""
    t = text.strip()
    try:
        seed = bytes.fromhex(t) if len(t) % 2 == 0 else b""
    except ValueError:
        seed = b""
    if not 1 <= len(seed) <= 64:
        raise argparse.ArgumentTypeError(
            f"a seed is an even number of hex digits (2 to 128), like 00 or 0a1b, not {text!r}")
    return seed


def hex_commitment(text: str) -> str:
    """A commitment as the command line takes it: a SHA-256 in hex, 64 digits (any case)."""
    t = text.strip().lower()
    if len(t) != 64 or t.strip("0123456789abcdef"):
        raise argparse.ArgumentTypeError(
            f"a commitment is a SHA-256 written in 64 hex digits, not {text!r}")
    return t


def at_least(low: int) -> Callable[[str], int]:
    """An argument type: a whole number no smaller than ``low``."""

    def whole(text: str) -> int:
        try:
            n = int(text)
        except ValueError:
            n = low - 1
        if n < low:
            raise argparse.ArgumentTypeError(f"give a whole number from {low} up, not {text!r}")
        return n

    whole.__name__ = f"at_least_{low}"
    return whole


def positive_seconds(text: str) -> float:
    """An argument type: a positive number of seconds."""
    try:
        x = float(text)
    except ValueError:
        x = 0.0
    if not 0 < x < 1e9:
        raise argparse.ArgumentTypeError(f"give a positive number of seconds, not {text!r}")
    return x


def _games(args: argparse.Namespace) -> int:
    sets = registry.rule_sets()
    if args.json:
        print(json.dumps([r.describe() for r in sets], indent=1))
        return OK
    for r in sets:
        lo, hi = r.players
        players = f"{lo}" if lo == hi else f"{lo}-{hi}"
        print(f"{r.key:32} {r.name:20} players {players:4} scoring {r.scoring}")
    print(f"{len(sets)} rule sets", file=sys.stderr)  # for the eye: a pipe gets one a line
    return OK


def layout(st: State) -> dict[str, Any]:
    """Every card of a deal, bottom to top; fine to print once the seed is public."""
    return {
        name: {"down": st.down[p], "cards": [TEXT[c] for c in st.piles[p]]}
        for p, name in enumerate(st.rules.pile_names)
    }


def _deal(args: argparse.Namespace) -> int:
    rules = registry.get(args.game, args.variant)
    seed: bytes = args.seed
    st = rules.deal(seed)
    piles = layout(st)
    if args.json:
        print(json.dumps({"game": rules.id, "variant": rules.variant, "seed": seed.hex(),
                          "commitment": commitment(seed), "piles": piles}, indent=1))
        return OK
    print(f"{rules.name} ({rules.variant}), seed {seed.hex()}")
    print(f"commitment sha256(seed) = {commitment(seed)}")
    print("piles bottom to top; face-down cards in brackets")
    for name, pile in piles.items():
        cards, down = pile["cards"], pile["down"]
        hidden = f"[{' '.join(cards[:down])}] " if down else ""
        print(f"  {name:4} {hidden}{' '.join(cards[down:])}".rstrip())
    return OK


def _verify(args: argparse.Namespace) -> int:
    seed: bytes = args.seed
    if verify(seed, args.commitment):
        print(f"ok: sha256({seed.hex()}) = {commitment(seed)}")
        return OK
    print(f"MISMATCH: sha256({seed.hex()}) = {commitment(seed)}, not {args.commitment}")
    return FAILED


DECK = list(range(52))


def check_invariants(st: State) -> None:
    cards = sorted(itertools.chain.from_iterable(st.piles))
    if cards != DECK:
        raise AssertionError(f"the deck is not whole: {len(cards)} cards, "
                             f"{len(set(cards))} distinct")
    for p, pile in enumerate(st.piles):
        if not 0 <= st.down[p] <= len(pile):
            raise AssertionError(f"{st.rules.pile_names[p]}: {st.down[p]} down of {len(pile)}")


def selfplay(game: str, variant: str, games: int, seed: bytes = bytes(8),
             max_moves: int = 2000, players: int | None = None) -> dict[str, int]:
    """Play ``games`` random legal games, checking invariants after every move. Game i is
    dealt from ``seed`` + i (the same width), and its moves are chosen by a generator seeded
    with that number, so a run repeats exactly."""
    rules = registry.get(game, variant)
    tally = {"games": 0, "won": 0, "lost": 0, "finished": 0, "capped": 0, "moves": 0,
             "errors": 0}
    first = int.from_bytes(seed, "big")
    for i in range(first, first + games):
        rng = random.Random(i)  # chooses moves only; deals come from engine.deal
        deal_seed = (i % 256 ** len(seed)).to_bytes(len(seed), "big")
        st = rules.deal(deal_seed, players=players)
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
            print(f"error in {rules.key} seed {deal_seed.hex()} after {last}: {e!r}",
                  file=sys.stderr)
            continue
        status = st.status
        key = {WON: "won", LOST: "lost", PLAYING: "capped"}.get(status, "finished")
        tally[key] += 1
    return tally


def _selfplay(args: argparse.Namespace) -> int:
    t = selfplay(args.game, args.variant, args.games, args.seed, args.max_moves, args.players)
    print(f"{args.game}/{args.variant}: " + ", ".join(f"{v} {k}" for k, v in t.items()))
    return FAILED if t["errors"] else OK


def _solve(args: argparse.Namespace) -> int:
    from .solver import Budget, Outcome, solve  # the solver is only loaded when asked for
    from .solver.par import par_line

    rules = registry.get(args.game, args.variant)
    st = rules.deal(args.seed)
    budget = Budget(args.positions, args.seconds)
    shown = [False]

    def progress(positions: int, seconds: float) -> None:
        shown[0] = True
        print(f"\rsearching: {positions:,} positions, {seconds:.0f} s", end="",
              file=sys.stderr, flush=True)

    v = solve(st, budget, progress if sys.stderr.isatty() or args.progress else None)
    if shown[0]:
        print(file=sys.stderr)
    line = " ".join(move_text(rules, m) for m in v.moves)
    # The line made short as a daily deal's par is (docs/daily.md, Par): a won line only.
    par = [move_text(rules, m) for m in par_line(st, v.moves)] if (
        args.par and v.outcome == Outcome.WON) else None
    if args.json:
        print(json.dumps({"game": rules.id, "variant": rules.variant, "seed": args.seed.hex(),
                          "outcome": v.outcome.value, "complete": v.complete, "score": v.score,
                          "moves": [move_text(rules, m) for m in v.moves],
                          "positions": v.positions, "seconds": round(v.seconds, 3),
                          **({"par": par} if par is not None else {})}))
        return OK
    said = {
        Outcome.WON: f"won in {len(v.moves)} moves",
        Outcome.LOST: "lost: no winning line exists (every reachable position was searched)",
        Outcome.UNKNOWN: "unknown: the budget ran out before a win or a proof of loss",
        Outcome.BEST: (f"best score {v.score} in {len(v.moves)} moves"
                       + (" (proved the best)" if v.complete else " (the best found within "
                          "the budget)")),
    }[v.outcome]
    print(f"{rules.name} ({rules.variant}), seed {args.seed.hex()}: {said}")
    if line:
        print(f"moves: {line}")
    if par is not None:
        print(f"par {len(par)}: {' '.join(par)}")
    print(f"searched {v.positions:,} positions in {v.seconds:.2f} s")
    return OK


TRANSCRIPT = "a transcript is the JSON object GET /api/v1/sessions/{id}/moves returns"


def fetch(url: str, token: str | None) -> str:
    """A page's text from a server (a transcript, a day); its refusal, in its own words, as
    ``Failed``."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    request = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return str(response.read().decode())
    except urllib.error.HTTPError as e:
        try:
            body = json.loads(e.read().decode())
            said = f"{body['code']}: {body['message']}"
        except (ValueError, KeyError, TypeError):
            said = f"HTTP {e.code} {e.reason}"
        raise Failed(f"the server refused: {said}") from None
    except urllib.error.URLError as e:
        raise Failed(f"cannot reach {url}: {e.reason}") from None


def load_transcript(source: str, token: str | None = None) -> dict[str, Any]:
    """A transcript (as ``GET /api/v1/sessions/{id}/moves`` gives it) from a file, ``-`` for
    standard input, or an http(s) URL."""
    if source == "-":
        text = sys.stdin.read()
    elif source.startswith(("http://", "https://")):
        text = fetch(source, token)
    else:
        try:
            with open(source, encoding="utf-8") as f:
                text = f.read()
        except (OSError, UnicodeDecodeError) as e:
            raise UsageError(f"cannot read {source}: {getattr(e, 'strerror', None) or e}") \
                from None
    where = "standard input" if source == "-" else source
    try:
        data = json.loads(text)
    except ValueError:
        raise UsageError(f"{where} is not JSON: {TRANSCRIPT}") from None
    if not isinstance(data, dict) or not {"game", "variant"} <= data.keys():
        raise UsageError(f"{where} is not a transcript: {TRANSCRIPT}")
    return data


def unrevealed(t: dict[str, Any]) -> str | None:
    """Why a transcript cannot be checked yet (its seed is still secret), or None."""
    if t.get("seed"):
        return None
    if t.get("daily"):
        return (f"not revealed yet: the seed of the daily challenge of {t['daily']} is revealed "
                "when the day is over; replay it then")
    return ("not revealed yet: the transcript has no seed (a race's is revealed when the race "
            "ends, a practice game's when it ends)")


def check_transcript(t: dict[str, Any]) -> list[str]:
    """Replay a transcript on the engine; every way it disagrees with what it claims."""
    if not t.get("seed"):
        return ["the transcript has no seed (it is revealed when the game or race is over)"]
    try:
        seed = hex_seed(str(t["seed"]))
    except argparse.ArgumentTypeError as e:
        return [f"the transcript's seed: {e}"]
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


def _replay_line(args: argparse.Namespace) -> int:
    """``replay GAME VARIANT --seed HEX --line "..."``: does the line win from the seed?"""
    from .winnable import line_wins  # only where a line is replayed

    if args.variant is None or args.seed is None or args.line is None:
        raise UsageError("replay GAME VARIANT --seed HEX --line MOVES: give the game, its "
                         "variant and the seed with a line")
    registry.get(args.transcript, args.variant)  # an unknown game is a usage mistake
    won, why = line_wins(args.transcript, args.variant, args.seed, args.line)
    print(f"{'ok' if won else 'NOT WON'}: {args.transcript}/{args.variant}: {why}")
    return OK if won else FAILED


def _replay(args: argparse.Namespace) -> int:
    if args.line is not None or args.variant is not None:
        return _replay_line(args)
    t = load_transcript(args.transcript, args.token)
    name = f"{t.get('game')}/{t.get('variant')}"
    why = unrevealed(t)
    if why:
        raise Failed(f"{name}: {why}")
    problems = check_transcript(t)
    if problems:
        for p in problems:
            print(f"MISMATCH {name}: {p}")
        return FAILED
    print(f"ok: {name}, {len(t.get('moves', []))} moves replay to {t.get('status')} "
          f"with score {t.get('score')}")
    return OK


def _sub(sub: argparse._SubParsersAction,  # type: ignore[type-arg]
         name: str, help: str, description: str) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = sub.add_parser(name, help=help, description=description)
    return p


def build_parser() -> argparse.ArgumentParser:
    p = Parser(prog="samedeal", description="SameDeal: competitive solitaire. Exit codes: 0 "
               "done; 1 the server or the game refused, a check failed, or the server could "
               "not be reached; 2 a mistake on the command line; 130 interrupted.")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    g = _sub(sub, "games", "list the rule sets, one per line",
             "List every rule set: its key (game/variant), name, players and scoring.")
    g.add_argument("--json", action="store_true",
                   help="print each rule set's whole description as JSON (default: a table)")
    g.set_defaults(run=_games)
    d = _sub(sub, "deal", "print the deal a seed makes, and its commitment",
             "Print every card of the deal a seed makes for a rule set, bottom to top, and "
             "the commitment (SHA-256 of the seed) a server publishes before play.")
    d.add_argument("game", help="the game, e.g. klondike (samedeal games lists them)")
    d.add_argument("variant", help="the variant, e.g. easy")
    d.add_argument("--seed", metavar="HEX", required=True, type=hex_seed,
                   help="the seed: an even number of hex digits, e.g. 00 (required)")
    d.add_argument("--json", action="store_true", help="print JSON (default: text)")
    d.set_defaults(run=_deal)
    v = _sub(sub, "verify", "check a revealed seed against its commitment",
             "Check that a seed revealed after play hashes to the commitment published "
             "before it; exit 1 on a mismatch.")
    v.add_argument("--seed", metavar="HEX", required=True, type=hex_seed,
                   help="the revealed seed, in hex (required)")
    v.add_argument("--commitment", metavar="HEX", required=True, type=hex_commitment,
                   help="the published commitment, 64 hex digits (required)")
    v.set_defaults(run=_verify)
    s = _sub(sub, "selfplay", "play random legal games and report",
             "Play random legal games on the engine, checking its invariants after every "
             "move; exit 1 on any engine error.")
    s.add_argument("game", help="the game, e.g. golf")
    s.add_argument("variant", help="the variant, e.g. easy")
    s.add_argument("--games", metavar="N", type=at_least(1), default=100,
                   help="how many games (default 100)")
    s.add_argument("--seed", metavar="HEX", type=hex_seed, default=bytes(8),
                   help="the first game's seed in hex; game i is dealt from seed+i, same width "
                        "(default 0000000000000000)")
    s.add_argument("--max-moves", metavar="N", type=at_least(1), default=2000,
                   help="stop a game after this many moves (default 2000)")
    s.add_argument("--players", metavar="N", type=at_least(1),
                   help="players in one state, for the games several play (default: one)")
    s.set_defaults(run=_selfplay)
    o = _sub(sub, "solve", "solve a deal: won, lost or unknown, and the winning moves",
             "Search a deal with the whole deal known (face-down cards included): print whether "
             "it can be won (and the moves that win, in move notation), is proved lost, or is "
             "unknown within the budget; for games played for a score, the best score found and "
             "its moves. Then the positions searched and the time.")
    o.add_argument("game", help="the game, e.g. klondike (samedeal games lists them)")
    o.add_argument("variant", help="the variant, e.g. easy")
    o.add_argument("--seed", metavar="HEX", required=True, type=hex_seed,
                   help="the seed: an even number of hex digits, e.g. 00 (required)")
    o.add_argument("--positions", metavar="N", type=at_least(1),
                   help="stop after this many positions (default: no cap)")
    o.add_argument("--seconds", metavar="S", type=positive_seconds, default=60.0,
                   help="stop after this many seconds (default 60)")
    o.add_argument("--progress", action="store_true",
                   help="a progress line on standard error even when it is not a terminal")
    o.add_argument("--par", action="store_true",
                   help="a won line made short as a daily deal's par is, and its length")
    o.add_argument("--json", action="store_true", help="print JSON (default: text)")
    o.set_defaults(run=_solve)
    r = _sub(sub, "replay", "re-check a game's transcript, or a line, against the engine",
             "Replay a transcript (GET /api/v1/sessions/{id}/moves) on the engine and report "
             "every way it disagrees with its seed, commitment, status and score; exit 1 on a "
             "mismatch, or while its seed is not revealed yet. With GAME VARIANT --seed HEX "
             "--line MOVES: replay a line of moves (move notation, space-separated) from the "
             "seed's deal and say whether it wins; exit 1 when it does not.")
    r.add_argument("transcript", metavar="TRANSCRIPT | GAME",
                   help="a JSON file, - for standard input, or a URL; or, with --line, a game")
    r.add_argument("variant", nargs="?", help="with --line: the variant, e.g. easy")
    r.add_argument("--seed", metavar="HEX", type=hex_seed,
                   help="with --line: the seed the line starts from, in hex")
    r.add_argument("--line", metavar="MOVES",
                   help="moves in move notation, space-separated (docs/notation.md), "
                        "e.g. the winning line a revealed daily day publishes")
    r.add_argument("--token", metavar="T", help="a bearer token, for a URL on a SameDeal server "
                                   "(default: none; public transcripts need none)")
    r.set_defaults(run=_replay)
    from . import analyse_cli  # beside replay, reading the same transcripts

    analyse_cli.add_command(sub)
    for ep in entry_points(group="samedeal.commands"):  # the server's, the clients'
        ep.load()(sub)
    return p


def _run(args: argparse.Namespace) -> int:
    code = int(args.run(args))
    sys.stdout.flush()  # a closed pipe is found here, not at exit
    return code


_OLD_TOKEN = re.compile(r"-[A-Za-z0-9_-]{42}")  # 32 random bytes in URL-safe base64


def glue_tokens(argv: Sequence[str]) -> list[str]:
    """``--token -x...`` read as ``--token=-x...``: argparse takes a value that starts with "-"
    for an option, and a token issued before the ``sd_`` prefix may start with one. Only a
    token's shape is glued, so ``--token --json`` is still told as a missing token."""
    out = list(argv)
    for i in range(len(out) - 2, -1, -1):
        if out[i] == "--token" and _OLD_TOKEN.fullmatch(out[i + 1]):
            out[i:i + 2] = [f"--token={out[i + 1]}"]
    return out


def main(argv: Sequence[str] | None = None) -> int:
    try:
        # The commands of the server and the clients load here (their entry points): a
        # Ctrl-C while they do, or while a usage mistake is told, ends as any other.
        parser = build_parser()
        args = parser.parse_args(glue_tokens(sys.argv[1:] if argv is None else argv))
    except SystemExit as e:  # --help (0), or a usage mistake already told in one line (2)
        return e.code if isinstance(e.code, int) else USAGE
    except KeyboardInterrupt:
        print("\nsamedeal: interrupted", file=sys.stderr)
        return INTERRUPTED
    if not getattr(args, "run", None):  # no command: a usage mistake, told in full
        parser.print_help(sys.stderr)
        return USAGE
    prog = f"samedeal {args.command}"
    try:
        return _run(args)
    except BrokenPipeError:  # `samedeal games | head -1`: the reader has all it wanted
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return OK
    except KeyboardInterrupt:
        print(f"\n{prog}: interrupted", file=sys.stderr)
        return INTERRUPTED
    except (registry.UnknownGame, UsageError) as e:
        print(f"{prog}: {e.args[0] if e.args else e}", file=sys.stderr)
        return USAGE
    except ValueError as e:
        print(f"{prog}: {e}", file=sys.stderr)
        return USAGE
    except (Failed, OSError) as e:
        print(f"{prog}: {e}", file=sys.stderr)
        return FAILED


if __name__ == "__main__":
    sys.exit(main())
