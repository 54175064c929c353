"""``samedeal play GAME VARIANT``: any of the 60 rule sets in the terminal.

Locally on the engine (through ``clients.local``, the one adapter allowed to import it) or
against a server through the SDK (``--server URL --token T`` or ``--register NAME``): both give
the same session payload, so one loop draws it and reads the moves. The layout is drawn from the
rule set's description (pile kinds, names, fans), never from the engine's internals; a face-down
card is only ever ``##``. Input and output are arguments, so tests drive it by feeding lines.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from typing import Any, Protocol, TextIO

from .arguments import hex_seed
from .local import LocalGame, MoveRefused

Payload = dict[str, Any]
Layout = dict[str, Any]

HELP = """\
Type a move in the notation (docs/notation.md): t3-f1 (top card of t3 to f1), t3:4-t5 (four
cards), s (the stock), p22+p28 (remove a pair), redeal, left:r2 ... or a command:
  hint (or ?)   list the legal moves; then a number plays that move
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

    def close(self) -> None:
        self.client.close()


# ----- drawing ------------------------------------------------------------------------------

CELL = 4  # characters per card or pile name in a row: "t13 ", "Qh  "


class Painter:
    """Text for cards, with optional ANSI colour (red suits, dim backs)."""

    def __init__(self, color: bool) -> None:
        self.color = color

    def card(self, c: str, width: int = 0) -> str:
        text = c.ljust(width)
        if self.color and c[-1:] in ("d", "h"):
            return f"\x1b[31m{c}\x1b[0m" + text[len(c):]
        if self.color and c == "##":
            return f"\x1b[2m{c}\x1b[0m" + text[len(c):]
        return text

    def cards(self, p: dict[str, Any]) -> list[str]:
        """A pile bottom to top: its face-down cards as ``##`` (only their count is known)."""
        return ["##"] * p["down"] + list(p["up"])


def row_lines(paint: Painter, names: list[str], piles: dict[str, Any],
              indent: int = 0, label: str = "") -> list[str]:
    """A row of one-card places: the names, and under each its top card (``..``: empty)."""
    pad = " " * indent
    head = label.ljust(len(label) and len(label) + 1)
    top = pad + "".join(n.ljust(CELL) for n in names)
    cells = []
    for n in names:
        p = piles[n]
        c = p["up"][-1] if p["up"] else ("##" if p["down"] else "..")
        cells.append(paint.card(c, CELL))
    return [(head + top).rstrip(), (" " * len(head) + pad + "".join(cells)).rstrip()]


def summary(paint: Painter, name: str, p: dict[str, Any], fan: str) -> str:
    """One pile on one line: face-down cards as a count, then the face-up ones (for a fan
    "none" pile only the top, with how many lie under it). Of a fanned pile's cards, written
    bottom to top, the one on top (the one that plays) is named: "w: 9d 7h 3c (3c on top)"."""
    parts = [f"{name}:"]
    if p["down"]:
        parts.append(f"{paint.card('##')} x{p['down']}")
    up = p["up"]
    if fan == "none":
        if up:
            parts.append(paint.card(up[-1]) + (f" ({len(up)})" if len(up) > 1 else ""))
    elif len(up) > 8:
        parts.append(f"(+{len(up) - 8})")
        parts += [paint.card(c) for c in up[-8:]]
    else:
        parts += [paint.card(c) for c in up]
    if fan != "none" and len(up) > 1:
        parts.append(f"({paint.card(up[-1])} on top)")
    if not up and not p["down"]:
        parts.append("--")
    return " ".join(parts)


def columns(paint: Painter, names: list[str], piles: dict[str, Any]) -> list[str]:
    """Columns fanned downwards, side by side; an empty column shows ``--`` where its first
    card would lie, so a free column is seen at a glance."""
    stacks = [paint.cards(piles[n]) or ["--"] for n in names]
    lines = ["".join(n.ljust(CELL) for n in names).rstrip()]
    for i in range(max((len(s) for s in stacks), default=0)):
        cells = [paint.card(s[i], CELL) if i < len(s) else " " * CELL for s in stacks]
        lines.append("".join(cells).rstrip())
    return lines


def draw_group(paint: Painter, group: dict[str, Any], piles: dict[str, Any],
               labels: list[str] | None = None) -> list[str]:
    """One layout group, drawn as its description says: a group of several rows (a grid, the
    pins, a pyramid) row by row, each centred when its ``align`` says so."""
    names = [n for n in group["piles"] if n in piles]
    fan = group["fan"]
    if fan == "slider":  # the row labels of the grid it slides
        return [] if labels is not None else [" ".join(names) + ": slides a row"]
    rows = [[n for n in row if n in piles] for row in group.get("rows", [names])]
    if len(rows) > 1 or fan == "grid":
        width = max(len(row) for row in rows)
        out = []
        for r, row in enumerate(rows):
            indent = (width - len(row)) * CELL // 2 if group.get("align") == "center" else 0
            label = labels[r] if labels and r < len(labels) else ""
            out += row_lines(paint, row, piles, indent=indent, label=label)
        return out
    if fan == "down":
        return columns(paint, names, piles)
    if fan == "none" and group["kind"] in ("cell", "foundation", "reserve") and len(names) > 1 \
            and all(p["down"] == 0 and len(p["up"]) <= 1 for p in (piles[n] for n in names)):
        return row_lines(paint, names, piles)  # one-card places side by side
    return [summary(paint, n, piles[n], fan) for n in names]


def draw_info(info: Any) -> list[str]:
    """The view's public facts (stock pass, scorecards, line scores) in a line or a few."""
    if not isinstance(info, dict) or not info:
        return []
    out, plain = [], []
    for key, value in info.items():
        if key == "bowlers" and isinstance(value, list):
            for b in value:
                marks = " ".join("".join(f.get("marks", [])) or "." for f in b.get("frames", []))
                out.append(f"bowler {b.get('bowler')}: {marks}  total {b.get('total')}")
        elif key == "lines" and isinstance(value, list):
            out.append("lines: " + ", ".join(
                f"{ln.get('line')} {ln.get('hand') or ''} {ln.get('points')}".replace("  ", " ")
                for ln in value if isinstance(ln, dict)))
        elif isinstance(value, dict):
            plain.append(f"{key} " + " ".join(f"{k}={v}" for k, v in value.items()))
        elif isinstance(value, list):
            plain.append(f"{key} {len(value)}" if value and isinstance(value[0], dict)
                         else f"{key} {' '.join(map(str, value)) or '-'}")
        else:
            plain.append(f"{key} {value if value is not None else '-'}")
    return ([" | ".join(plain)] if plain else []) + out


def render(layout: Layout, payload: Payload, color: bool = False) -> str:
    """The whole table as text: a title line, every group of the layout, the info."""
    paint = Painter(color)
    view = payload["view"]
    piles = view["piles"]
    low = " (lower is better)" if layout.get("scoring") == "low" else ""
    lines = [f"{layout.get('name', view['game'])} ({view['variant']})  score {view['score']}"
             f"{low}  moves {view['moves']}  {view['status']}"]
    groups = layout["layout"]
    sliders = next((g["piles"] for g in groups if g["fan"] == "slider"), None)
    joinable = False
    for g in groups:
        labels = sliders if g["fan"] in ("grid", "slider") else None
        body = draw_group(paint, g, piles, labels)
        if len(body) == 1 and joinable:
            lines[-1] += "    " + body[0]  # short piles (stock, waste) share a line
        elif body:
            lines.append("")
            lines += body
        joinable = len(body) == 1 and len(lines[-1]) < 60
    info = draw_info(view.get("info"))
    if info:
        lines.append("")
        lines += info
    return "\n".join(lines)


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
    p.add_argument("--seed", type=hex_seed,
                   help="the deal's seed, an even number of hex digits (default: a random deal)")
    p.add_argument("--server", help="a server URL, like http://127.0.0.1:8000 (default: play "
                   "locally on the engine)")
    p.add_argument("--token", default=os.environ.get("SAMEDEAL_TOKEN"),
                   help="your bearer token, with --server (default $SAMEDEAL_TOKEN)")
    p.add_argument("--register", metavar="NAME",
                   help="register a new player NAME on the server and print its token "
                        "(default: use --token)")
    p.add_argument("--color", action=argparse.BooleanOptionalAction, default=None,
                   help="colour the red suits (default: when the output is a terminal)")
    p.set_defaults(run=run)
