"""``samedeal bot``: runs a bot class against any SameDeal server. The SDK connects, joins,
waits out countdowns and reconnects; this module adds the command line, what the terminal
shows while it plays, and a summary at the end."""

from __future__ import annotations

import argparse
import asyncio
import importlib
import json
import os
import sys
from collections.abc import Callable
from typing import Any, TextIO

from .arguments import at_least, hex_seed, option
from .sdk import Client, ConnectionLost, Event, Notice, SdkError, ServerError, Session, ghosts
from .sdk import play as sdk_play
from .sdk.messages import RaceEnded, RaceJoined, RaceLeft, RaceProgress, RaceStarted

DEFAULT_SERVER = "http://127.0.0.1:8000"


def add_command(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "bot", help="run a bot against a SameDeal server",
        description="Run a bot (a class with choose(view, legal) -> move) in a race, today's "
                    "daily challenge, a match, or a series of practice games.")
    p.add_argument("bot", metavar="BOTCLASS",
                   help="module:Class, e.g. clients.bots.random:RandomBot")
    p.add_argument("--server", metavar="URL",
                   default=os.environ.get("SAMEDEAL_SERVER", DEFAULT_SERVER),
                   help=f"the server's URL (default $SAMEDEAL_SERVER or {DEFAULT_SERVER})")
    p.add_argument("--token", metavar="T", default=os.environ.get("SAMEDEAL_TOKEN"),
                   help="the bot account's bearer token (default $SAMEDEAL_TOKEN)")
    p.add_argument("--register", metavar="NAME",
                   help="register a new bot account NAME first (even if $SAMEDEAL_TOKEN is "
                        "set) and print its token")
    p.add_argument("--encoding", choices=("json", "msgpack"), default="json",
                   help="the wire encoding, json or msgpack (default json)")
    mode = p.add_mutually_exclusive_group(required=True)
    mode.add_argument("--race", metavar="ID", help="join race ID and play it to the end")
    mode.add_argument("--daily", nargs=2, metavar=("GAME", "VARIANT"),
                      help="play today's ranked attempt at GAME VARIANT")
    mode.add_argument("--match", metavar="ID", help="join match ID and play every turn")
    mode.add_argument("--ghost", metavar="ID",
                      help="enter ghost race ID (or resume your run in it) and play your run "
                           "against the earlier entrants' recorded runs")
    mode.add_argument("--arena", metavar="ID",
                      help="join arena ID and play each of its rounds as it comes, to its end")
    mode.add_argument("--solo", nargs=2, metavar=("GAME", "VARIANT"),
                      help="play practice games of GAME VARIANT")
    mode.add_argument("--accept-challenges", action="store_true",
                      help="wait for players' challenges, accept each and race them "
                           "(--games of them; docs/protocol.md#challenges)")
    p.add_argument("--games", metavar="N", type=at_least(1), default=1,
                   help="--solo: how many games; --accept-challenges: how many challenges "
                        "(default 1)")
    p.add_argument("--seed", metavar="HEX", type=hex_seed,
                   help="--solo: the first game's seed in hex; game i uses seed+i, same width "
                        "(default: random deals)")
    p.add_argument("--parallel", metavar="K", type=at_least(1), default=1,
                   help="--solo: games at once, one bot instance each (default 1)")
    p.add_argument("--max-moves", metavar="N", type=at_least(0), default=1000,
                   help="resign a game after this many moves (default 1000; 0: never)")
    p.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE",
                   type=option, help="passed to the bot's constructor (VALUE read as JSON if "
                   "it parses), e.g. -o seed=7; repeatable (default: none)")
    p.add_argument("--json", action="store_true",
                   help="print the summary as one JSON object (default: text)")
    p.add_argument("--quiet", action="store_true",
                   help="no progress, only the summary (default: progress on standard error)")
    p.set_defaults(run=run)


# ----- loading the bot ----------------------------------------------------------------------


def bot_options(pairs: list[tuple[str, str]]) -> dict[str, Any]:
    """The ``-o KEY=VALUE`` pairs as keyword arguments, each value read as JSON if it parses."""
    options: dict[str, Any] = {}
    for key, value in pairs:
        try:
            options[key] = json.loads(value)
        except ValueError:
            options[key] = value
    return options


def bot_factory(spec: str, options: dict[str, Any]) -> Callable[[], Any]:
    """A function making the bot ``module:Class`` with ``options``, checked once up front so
    a typo fails before anything is sent to the server."""
    module_name, sep, class_name = spec.partition(":")
    if not sep or not module_name or not class_name:
        raise ValueError(f"BOTCLASS is module:Class (clients.bots.random:RandomBot), not {spec!r}")
    if os.getcwd() not in sys.path:  # a bot file next to you imports, as with python -m
        sys.path.insert(0, os.getcwd())
    try:
        cls = getattr(importlib.import_module(module_name), class_name)
    except (ImportError, AttributeError) as e:
        raise ValueError(f"cannot load {spec}: {e}") from e
    if not callable(getattr(cls, "choose", None)):
        raise ValueError(f"{spec} has no choose(view, legal) method")
    try:
        cls(**options)  # fail now on bad options
    except TypeError as e:  # an option the constructor does not take
        given = ", ".join(f"-o {k}=..." for k in options) or "no options"
        raise ValueError(f"{spec} cannot be made with {given}: {e}") from None
    return lambda: cls(**options)


# ----- what the terminal shows --------------------------------------------------------------


class Display:
    """Progress on standard error: one rewritten line on a terminal, a few plain lines
    otherwise (logs, CI); the summary goes to standard output."""

    def __init__(self, quiet: bool, stream: TextIO = sys.stderr) -> None:
        self.quiet = quiet
        self.stream = stream
        self.tty = stream.isatty()
        self.open_line = False

    def status(self, text: str) -> None:
        """A transient line: shown in place on a terminal, dropped elsewhere."""
        if self.quiet or not self.tty:
            return
        self.stream.write("\r\033[K" + text)
        self.stream.flush()
        self.open_line = True

    def note(self, text: str) -> None:
        """A line worth keeping."""
        if self.quiet:
            return
        if self.open_line:
            self.stream.write("\r\033[K")
            self.open_line = False
        self.stream.write(text + "\n")
        self.stream.flush()

    def bar(self, done: int, total: int, text: str) -> None:
        width = 30
        filled = width * done // max(total, 1)
        line = f"[{'#' * filled}{'.' * (width - filled)}] {done}/{total} {text}"
        if self.tty:
            self.status(line)
        elif total <= 10 or done == total or done % max(total // 10, 1) == 0:
            self.note(line)

    def done(self) -> None:
        if self.open_line:
            self.stream.write("\n")
            self.stream.flush()
            self.open_line = False


def session_line(s: Session) -> str:
    return f"{s.status}, score {s.score}, {s.view.get('moves', 0)} moves"


def ranking_table(ranking: list[dict[str, Any]], me: str | None) -> list[str]:
    lines = [f"{'rank':>4}  {'player':<20} {'kind':<5} {'status':<8} {'score':>6} "
             f"{'moves':>6} {'time':>8}"]
    for r in ranking:
        mark = " <- you" if r.get("player") == me else ""
        # A resignation ranks as finishing at the race's end: its time is the limit, not play.
        resigned = bool(r.get("resigned"))
        seconds = (f"{r['time_ms'] / 1000:.1f}s" if r.get("time_ms") is not None
                   and not resigned else "-")
        status = "resigned" if resigned else r.get("status", "")
        lines.append(f"{r.get('rank', '?'):>4}  {str(r.get('name', r.get('player')))[:20]:<20} "
                     f"{r.get('kind', ''):<5} {status:<8} {r.get('score', 0):>6} "
                     f"{r.get('moves', 0):>6} {seconds:>8}{mark}")
    return lines


# ----- the modes ----------------------------------------------------------------------------


async def run_race(c: Client, make_bot: Callable[[], Any], race: str, display: Display,
                   max_moves: int | None) -> dict[str, Any]:
    names: dict[str, str] = {}
    progress: dict[str, RaceProgress] = {}
    me = (c.player or {}).get("id")

    def on_event(e: Event) -> None:
        if isinstance(e, RaceJoined):
            names[e.player.get("id", "")] = e.player.get("name", "?")
            display.note(f"{e.player.get('name')} joined")
        elif isinstance(e, RaceLeft):
            display.note(f"{names.get(e.player, e.player)} left")
        elif isinstance(e, RaceStarted):
            display.note(f"race started: {len(e.sessions)} entrants")
        elif isinstance(e, RaceProgress):
            before = progress.get(e.player)
            progress[e.player] = e
            if e.status != "playing" and (before is None or before.status == "playing"):
                who = "you" if e.player == me else names.get(e.player, e.player)
                display.note(f"{who} finished: {e.status}, score {e.score}, {e.moves} moves")
            else:
                display.status("  ".join(
                    f"{'you' if p == me else names.get(p, p)[:12]}: {x.moves} moves "
                    f"score {x.score}" for p, x in sorted(progress.items())))
        elif isinstance(e, RaceEnded):
            display.note("race ended")
        elif isinstance(e, Notice) and e.type.startswith("connection."):
            display.note(f"connection {e.type.split('.')[1]} {e.reason}".rstrip())

    c.listeners.append(on_event)
    summary = await c.race(race)
    for entrant in summary.entrants:
        names[entrant["player"]] = entrant.get("name", entrant["player"])
    display.note(f"race {race}: {summary.name or summary.game} ({summary.game}/"
                 f"{summary.variant}), {len(summary.entrants)}/{summary.seats} seats, "
                 f"commitment {summary.commitment}")
    session, results = await sdk_play.play_race(c, make_bot(), race, max_moves=max_moves)
    display.done()
    mine = next((r for r in results.ranking if r.get("player") == me), None)
    return {"mode": "race", "race": race, "game": results.game, "variant": results.variant,
            "seed": results.seed, "commitment": results.commitment, "ranking": results.ranking,
            "you": mine, "session": session.id if session else None}


async def run_ghost(c: Client, make_bot: Callable[[], Any], ghost: str, display: Display,
                    max_moves: int | None) -> dict[str, Any]:
    """A ghost race: your run, the ghosts' progress on the status line as it comes."""
    run = await ghosts.enter(c, ghost)
    to_beat = run.summary.get("to_beat")
    display.note(f"ghost race {ghost}: {run.summary.get('name')} ({run.summary['game']}/"
                 f"{run.summary['variant']}), {run.summary['entrants']} entrants, commitment "
                 f"{run.summary['commitment']}" + (
                     f"; the ghost to beat: {to_beat.get('name')}, score {to_beat.get('score')}"
                     if to_beat else ""))
    seen: dict[str, ghosts.GhostProgress] = {}

    async def show() -> None:
        async for step in run.progress():
            seen[step.player] = step
            display.status("  ".join(f"{g.name[:12]}: {g.moves} moves score {g.score}"
                                     for g in seen.values()))

    shown = asyncio.create_task(show())
    try:
        session = await sdk_play.play_session(c, make_bot(), run.session, max_moves=max_moves)
    finally:
        shown.cancel()
        run.close()
    display.done()
    summary = await ghosts.get(c, ghost)
    me = (c.player or {}).get("id")
    return {"mode": "ghost", "ghost": ghost, "game": summary["game"],
            "variant": summary["variant"], "state": summary["state"],
            "commitment": summary["commitment"], "seed": summary.get("seed"),
            "ranking": summary["ranking"], "session": session.id,
            "you": next((e for e in summary["ranking"] if e.get("player") == me), None)}


async def run_daily(c: Client, make_bot: Callable[[], Any], game: str, variant: str,
                    display: Display, max_moves: int | None) -> dict[str, Any]:
    display.note(f"daily challenge: {game}/{variant}")
    started = await c.start_daily(game, variant)
    if started.unranked_reason:
        display.note(f"off the boards: {started.unranked_reason}")
    session = await sdk_play.play_session(
        c, make_bot(), started, max_moves=max_moves,
        on_move=lambda s: display.status(f"{s.view.get('moves', 0)} moves, score {s.score}"))
    display.done()
    out: dict[str, Any] = {"mode": "daily", "game": game, "variant": variant,
                           "session": session.id, "day": session.daily,
                           "status": session.status, "score": session.score,
                           "moves": session.view.get("moves", 0),
                           "ranked": started.ranked is not False and not started.unranked_reason,
                           "unranked_reason": started.unranked_reason}
    try:
        board = await c.board(f"daily/today/{game}/{variant}", kind="bot", around="me", count=1)
        out["rank"] = next((e["rank"] for e in board.entries
                            if e.get("player") == (c.player or {}).get("id")), None)
        out["entries"] = board.total
    except ServerError as e:  # not on the board yet (still open) or boards not kept
        out["rank"] = None
        out["board"] = e.code
    if out["rank"] is None:  # held for a moderator's review? The day's page says, to you
        deal = next((d for d in (await c.daily()).deals
                     if (d["game"], d["variant"]) == (game, variant)), None)
        you = deal.get("you") if deal is not None else None
        out["review"] = you.get("review") if you is not None else None
    return out


async def run_solo(c: Client, make_bot: Callable[[], Any], game: str, variant: str,
                   games: int, seed: str | None, parallel: int, display: Display,
                   max_moves: int | None) -> dict[str, Any]:
    tally: dict[str, int] = {}
    scores: list[int] = []

    def on_game(_: int, s: Session) -> None:
        tally[s.status] = tally.get(s.status, 0) + 1
        scores.append(s.score)
        display.bar(len(scores), games, f"won {tally.get('won', 0)}  "
                                        f"mean score {sum(scores) / len(scores):.1f}")

    display.bar(0, games, f"{game}/{variant}")
    sessions = await sdk_play.play_solo(c, make_bot, game, variant, games, seed, parallel,
                                        on_game, max_moves)
    display.done()
    won = sum(1 for s in sessions if s.status == "won")
    return {"mode": "solo", "game": game, "variant": variant, "games": len(sessions),
            "won": won, "win_rate": won / len(sessions) if sessions else 0.0,
            "statuses": tally,
            "mean_score": sum(scores) / len(scores) if scores else 0.0,
            "mean_moves": (sum(int(s.view.get("moves", 0)) for s in sessions) / len(sessions)
                           if sessions else 0.0)}


async def run_match(c: Client, make_bot: Callable[[], Any], match: str,
                    display: Display) -> dict[str, Any]:
    display.note(f"match {match}")
    ended = await sdk_play.play_match(
        c, make_bot(), match, on_event=lambda m: display.status(f"event {m.get('seq')}"))
    display.done()
    return {"mode": "match", "match": match, "ended": ended}


async def run_arena(c: Client, make_bot: Callable[[], Any], arena: str, display: Display,
                    max_moves: int | None) -> dict[str, Any]:
    """Join the arena and play each round (a race) as it is dealt, until the arena ends."""
    rounds = await c.arena_rounds(arena)
    a = await c.arena(arena)
    display.note(f"arena {arena}: {a['name']} ({a['game']}/{a['variant']}), a deal every "
                 f"{a['interval']} s, {len(a['players'])} players")
    played = []
    try:
        async for r in rounds:
            display.note(f"round {r['round']}: race {r['race']}, commitment "
                         f"{r.get('commitment', '?')}")
            if r.get("session") is None:
                continue  # dealt before this player's seat: the next one is theirs
            await c.subscribe_race(str(r["race"]))
            session = await sdk_play.play_session(c, make_bot(), await c.session(r["session"]),
                                                  max_moves=max_moves)
            played.append({"round": r["round"], "race": r["race"], "status": session.status,
                           "score": session.view.get("score")})
            display.note(f"round {r['round']}: {session.status}, score "
                         f"{session.view.get('score')}")
    finally:
        rounds.close()
    display.done()
    board = await c.board(f"arena/{arena}", count=10)
    return {"mode": "arena", "arena": arena, "rounds": played,
            "winner": (rounds.ended or {}).get("winner"),
            "cancelled": (rounds.ended or {}).get("cancelled", False),
            "board": [{k: e.get(k) for k in ("rank", "player", "name", "points")}
                      for e in board.entries]}


async def run_challenges(c: Client, make_bot: Callable[[], Any], count: int,
                         display: Display, max_moves: int | None) -> dict[str, Any]:
    """Accept ``count`` challenges, each as it comes (those waiting first), and race each."""
    display.note(f"waiting for challenges to {(c.player or {}).get('name')}")
    races = []
    async for challenge in c.incoming_challenges():
        what = challenge.name or challenge.game
        display.note(f"{challenge.sender.get('name')} challenges you: {what} "
                     f"({challenge.game}/{challenge.variant})")
        try:
            race = await c.accept_challenge(challenge.id)
        except ServerError as e:  # withdrawn or expired meanwhile: wait for the next
            display.note(f"challenge {challenge.id}: {e.message}")
            continue
        races.append(await run_race(c, make_bot, race.id, display, max_moves))
        if len(races) >= count:
            break
    return {"mode": "challenges", "races": races}


def print_summary(out: dict[str, Any], me: dict[str, Any] | None) -> None:
    mode = out["mode"]
    if mode == "challenges":
        for race in out["races"]:
            print_summary(race, me)
        return
    if mode == "solo":
        print(f"{out['games']} games of {out['game']}/{out['variant']}: won {out['won']} "
              f"({100 * out['win_rate']:.1f}%), mean score {out['mean_score']:.1f}, "
              f"mean moves {out['mean_moves']:.1f}; "
              + ", ".join(f"{v} {k}" for k, v in sorted(out["statuses"].items())))
    elif mode == "race":
        print(f"race {out['race']} ({out['game']}/{out['variant']}) ended")
        for line in ranking_table(out["ranking"], (me or {}).get("id")):
            print(line)
        print(f"seed {out['seed']} (commitment {out['commitment']}): check it with "
              f"samedeal verify --seed {out['seed']} --commitment {out['commitment']}")
    elif mode == "daily":
        if out.get("rank"):
            where = f"rank {out['rank']} of {out['entries']} on the bots' board"
        elif out.get("unranked_reason"):
            where = f"off the boards: {out['unranked_reason']}"
        elif out.get("review") == "pending":
            where = ("held off the boards for a moderator's review: the integrity signal "
                     "flagged it (docs/daily.md, Integrity signal)")
        elif out.get("review") == "removed":
            where = "removed from the boards by a moderator"
        else:
            where = f"not on the bots' board ({out.get('board') or 'not listed yet'})"
        print(f"daily {out['day']} {out['game']}/{out['variant']}: {out['status']}, "
              f"score {out['score']}, {out['moves']} moves; {where}")
    elif mode == "ghost":
        you = out.get("you") or {}
        print(f"ghost race {out['ghost']} ({out['game']}/{out['variant']}), {out['state']}: "
              f"your run ranks {you.get('rank', '?')} of {len(out['ranking'])} so far")
        for line in ranking_table(out["ranking"], (me or {}).get("id")):
            print(line)
        if out.get("seed"):
            print(f"seed {out['seed']} (commitment {out['commitment']})")
        else:
            print("the seed is revealed when the ghost race closes and its last run ends")
    elif mode == "arena":
        winner = out["winner"]
        print(f"arena {out['arena']} {'cancelled' if out['cancelled'] else 'ended'}: "
              f"{len(out['rounds'])} rounds played; winner "
              f"{winner['name'] + ' (' + str(winner['points']) + ' points)' if winner else 'none'}")
        for e in out["board"]:
            print(f"{e['rank']:>4}  {e['name']:<24} {e['points']} points")
    else:
        print(f"match {out['match']} ended: {json.dumps(out['ended'])}")


async def main(args: argparse.Namespace) -> int:
    make_bot = bot_factory(args.bot, bot_options(args.option))
    display = Display(args.quiet)
    token = None if args.register else args.token  # --register makes a new account
    if not token:
        if not args.register:
            print("samedeal bot: no token: pass --token T (or set SAMEDEAL_TOKEN), or "
                  "--register NAME to make a bot account", file=sys.stderr)
            return 2
        player, token = await Client.register(args.server, args.register, "bot",
                                              encoding=args.encoding)
        print(f"registered bot {player['name']} ({player['id']}); its token, shown only "
              f"once (pass it as --token next time):\n{token}", flush=True)
    max_moves = args.max_moves or None
    async with Client(args.server, token, encoding=args.encoding) as c:
        me = c.player or {}
        if me.get("kind") == "human":
            print(f"samedeal bot: warning: {me.get('name')} is a human "
                  "account: its games count on the human boards and statistics. Run bots on a "
                  "bot account (--register NAME makes one).", file=sys.stderr, flush=True)
        if args.race:
            out = await run_race(c, make_bot, args.race, display, max_moves)
        elif args.daily:
            game, variant = args.daily
            out = await run_daily(c, make_bot, game, variant, display, max_moves)
        elif args.solo:
            game, variant = args.solo
            out = await run_solo(c, make_bot, game, variant, args.games, args.seed,
                                 args.parallel, display, max_moves)
        elif args.ghost:
            out = await run_ghost(c, make_bot, args.ghost, display, max_moves)
        elif args.arena:
            out = await run_arena(c, make_bot, args.arena, display, max_moves)
        elif args.accept_challenges:
            out = await run_challenges(c, make_bot, args.games, display, max_moves)
        else:
            out = await run_match(c, make_bot, args.match, display)
        out["player"] = c.player
    if args.json:
        print(json.dumps(out), flush=True)
    else:
        print_summary(out, out["player"])
    return 0


def run(args: argparse.Namespace) -> int:
    try:
        return asyncio.run(main(args))
    except ServerError as e:
        print(f"samedeal bot: the server refused: {e.code}: {e.message}", file=sys.stderr)
        return 1
    except (ConnectionLost, SdkError) as e:
        print(f"samedeal bot: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("samedeal bot: interrupted", file=sys.stderr)
        return 130
