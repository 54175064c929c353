"""``samedeal play GAME VARIANT``: any of the 60 rule sets in the terminal.

Locally on the engine (through ``clients.local``, the one adapter allowed to import it) or
against a server through the SDK (``--server URL --token T`` or ``--register NAME``): both give
the same session payload, so one loop draws it and reads the moves. The layout is drawn from the
rule set's description (clients/drawing.py), never from the engine's internals; a face-down
card is only ever ``##``. Input and output are arguments, so tests drive it by feeding lines.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from typing import Any, Protocol, TextIO

from .arguments import hex_seed
from .drawing import Layout, Payload, render
from .local import LocalGame, MoveRefused

HELP = """\
Type a move in the notation (docs/notation.md): t3-f1 (top card of t3 to f1), t3:4-t5 (four
cards), s (the stock), p22+p28 (remove a pair), redeal, left:r2 ... or a command:
  hint          the move to play next (from a winning line the solver found, or a likely
                move), then the legal moves; then a number plays that move
  ? (or moves)  list the legal moves; then a number plays that move
  undo          take back the last move
  new           a new deal of the same rule set
  resign        give up this game
  quit          leave (also q, exit, or end of input)
  help          this text
On the table, ## is a face-down card, -- an empty pile, .. an empty place; piles are written
bottom to top, and a fanned pile names its top card."""


class Game(Protocol):
    """Where the moves go: the local engine or a server session. Each call returns the new
    session payload or raises ``MoveRefused`` with the rule's code and sentence."""

    layout: Layout

    def start(self, seed: str | None) -> Payload: ...
    def move(self, text: str, rev: int) -> Payload: ...
    def undo(self) -> Payload: ...
    def resign(self) -> Payload: ...
    def hint(self) -> Payload: ...
    def close(self) -> None: ...


class Local:
    """A practice game on the local engine."""

    def __init__(self, game: str, variant: str) -> None:
        self.game, self.variant = game, variant
        self.current = LocalGame(game, variant, seed="00")  # checks the rule set exists
        self.layout = self.current.layout()

    def start(self, seed: str | None) -> Payload:
        self.current = LocalGame(self.game, self.variant, seed)
        return self.current.payload

    def move(self, text: str, rev: int) -> Payload:
        return self.current.move(text)

    def undo(self) -> Payload:
        return self.current.undo()

    def resign(self) -> Payload:
        return self.current.resign()

    def hint(self) -> Payload:
        return self.current.hint()

    def close(self) -> None:
        pass


class Remote:
    """A practice session on a server, through the SDK (loaded only when asked for)."""

    def __init__(self, game: str, variant: str, url: str, token: str) -> None:
        from clients.sdk import BlockingClient, SdkError

        self.game, self.variant = game, variant
        self.errors: tuple[type[BaseException], ...] = (SdkError,)
        self.client = BlockingClient(url, token)
        self.session = ""
        try:
            self.call(self.client.connect)
            self.layout = self.call(self.client.rule_set, game, variant)
        except BaseException:
            self.close()
            raise

    def call(self, f: Callable[..., Any], *args: Any, **kw: Any) -> Any:
        try:
            return f(*args, **kw)
        except self.errors as e:  # a refusal keeps the server's code; a lost link says so
            raise MoveRefused(getattr(e, "code", "connection"),
                              getattr(e, "message", str(e))) from None

    def payload(self, session: Any) -> Payload:
        self.session = session.id
        return dict(session.raw)

    def start(self, seed: str | None) -> Payload:
        return self.payload(self.call(self.client.solo, self.game, self.variant, seed=seed))

    def move(self, text: str, rev: int) -> Payload:
        return self.payload(self.call(self.client.move, self.session, text, rev=rev))

    def undo(self) -> Payload:
        return self.payload(self.call(self.client.undo, self.session))

    def resign(self) -> Payload:
        return self.payload(self.call(self.client.resign, self.session))

    def hint(self) -> Payload:
        return dict(self.call(self.client.hint, self.session).raw)

    def close(self) -> None:
        self.client.close()


# ----- the loop -----------------------------------------------------------------------------

END = {"won": "You won!", "lost": "The game is lost.",
       "finished": "The game is over."}


class Player:
    """Reads lines, plays them, draws the table after every change."""

    def __init__(self, game: Game, seed: str | None, input: TextIO, output: TextIO,
                 color: bool) -> None:
        self.game, self.seed = game, seed
        self.input, self.output = input, output
        self.color = color
        self.hints: list[str] = []
        self.payload: Payload = {}

    def say(self, text: str) -> None:
        self.output.write(text + "\n")
        self.output.flush()

    def show(self) -> None:
        self.say(render(self.game.layout, self.payload, self.color))
        status = self.payload["view"]["status"]
        if status != "playing":
            seed = self.payload.get("seed")
            self.say(f"{END.get(status, status)} Score {self.payload['view']['score']}."
                     + (f" Seed {seed}." if seed else "") + " Type new or quit.")

    def new(self, seed: str | None) -> None:
        self.payload = self.game.start(seed)
        self.hints = []
        seed_text = self.payload.get("seed")
        self.say("New deal" + (f", seed {seed_text}" if seed_text else "")
                 + f", commitment {self.payload.get('commitment', '')[:16]}...")
        self.show()

    def step(self, line: str) -> bool:
        """Act on one line; False to stop."""
        text = line.strip()
        word = text.lower()
        if not text:
            return True
        if word in ("quit", "q", "exit"):
            return False
        if word in ("help", "h"):
            self.say(HELP)
            return True
        if word == "hint":
            try:
                self.say(hint_text(self.game.hint()))
            except MoveRefused as e:
                self.say(f"{e.message} [{e.code}]")
        if word in ("hint", "?", "moves"):
            self.hints = list(self.payload["legal"])
            if not self.hints:
                self.say("No legal move: the game is over.")
            else:
                self.say("Legal moves: " + "  ".join(
                    f"{i}) {m}" for i, m in enumerate(self.hints, 1)))
            return True
        if word.isdigit() and self.hints:
            i = int(word)
            if not 1 <= i <= len(self.hints):
                self.say(f"Pick a number from 1 to {len(self.hints)}.")
                return True
            text = self.hints[i - 1]
        try:
            if word == "new":
                self.new(None)
                return True
            if word == "undo":
                self.payload = self.game.undo()
            elif word == "resign":
                self.payload = self.game.resign()
            else:
                self.payload = self.game.move(text, self.payload["rev"])
        except MoveRefused as e:
            self.say(f"{e.message} [{e.code}]")
            return True
        self.hints = []
        self.show()
        return True

    def run(self) -> int:
        self.new(self.seed)
        self.say("Type a move, hint, undo, new, resign, help or quit.")
        while True:
            self.output.write("> ")
            self.output.flush()
            line = self.input.readline()
            if not line:
                self.say("")
                return 0
            if not self.step(line):
                return 0


def hint_text(h: Payload) -> str:
    """A ``suggestion`` in words."""
    if h.get("move") is None:
        return "No hint: no legal move is left."
    if h["source"] == "solver" and "score" in h:
        return (f"Hint: {h['move']} (the next move of the best line found, to a score of "
                f"{h['score']}: {h['line_left']} moves to go)")
    if h["source"] == "solver":
        return (f"Hint: {h['move']} (the next move of a winning line: "
                f"{h['line_left']} moves to go)")
    if h.get("lost"):
        return f"Hint: {h['move']} (no winning line is left from here: a likely move)"
    return f"Hint: {h['move']} (no winning line found: a likely move)"


def open_game(args: argparse.Namespace, output: TextIO) -> Game:
    if not args.server:
        if args.register:
            raise ValueError("--register needs --server URL")
        return Local(args.game, args.variant)
    token = args.token
    if args.register:
        from clients.sdk import BlockingClient, SdkError

        try:
            player, token = BlockingClient.register(args.server, args.register, kind="human")
        except SdkError as e:  # refused (a name taken, a limit) or no server there
            raise MoveRefused(getattr(e, "code", "connection"),
                              getattr(e, "message", str(e))) from None
        output.write(f"Registered {player.get('name')} ({player.get('id')}); your token, shown "
                     f"only once:\n{token}\n")
    if not token:
        raise ValueError("--server needs --token T or --register NAME")
    return Remote(args.game, args.variant, args.server, token)


def run(args: argparse.Namespace, input: TextIO | None = None,
        output: TextIO | None = None) -> int:
    """Play until quit or the end of the input; the exit code."""
    inp = input if input is not None else sys.stdin
    out = output if output is not None else sys.stdout
    color = args.color if args.color is not None else (
        out.isatty() and not os.environ.get("NO_COLOR"))
    try:
        game = open_game(args, out)
    except MoveRefused as e:  # the server refused, or could not be reached: as samedeal bot
        print(f"samedeal play: {e.message} [{e.code}]", file=sys.stderr)
        return 1
    try:
        return Player(game, args.seed, inp, out, bool(color)).run()
    except MoveRefused as e:  # a refused deal
        print(f"samedeal play: {e.message} [{e.code}]", file=sys.stderr)
        return 1
    finally:
        game.close()


def add_command(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("play", help="play a rule set in the terminal (locally or on a server)",
                       description="Play any rule set in the terminal: on the local engine, "
                       "or on a SameDeal server with --server.")
    p.add_argument("game", help="the game, e.g. klondike (samedeal games lists them)")
    p.add_argument("variant", help="the variant, e.g. easy")
    p.add_argument("--seed", metavar="HEX", type=hex_seed,
                   help="the deal's seed, an even number of hex digits (default: a random deal)")
    p.add_argument("--server", metavar="URL",
                   help="a server URL, like http://127.0.0.1:8000 (default: play locally "
                        "on the engine)")
    p.add_argument("--token", metavar="T", default=os.environ.get("SAMEDEAL_TOKEN"),
                   help="your bearer token, with --server (default $SAMEDEAL_TOKEN)")
    p.add_argument("--register", metavar="NAME",
                   help="register a new player NAME on the server and print its token "
                        "(default: use --token)")
    p.add_argument("--color", action=argparse.BooleanOptionalAction, default=None,
                   help="colour the red suits (default: when the output is a terminal)")
    p.set_defaults(run=run)
