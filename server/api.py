"""The operations behind both transports: each takes the caller and a checked body and
returns the reply's payload. REST routes and WebSocket messages are thin layers over these."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from redis.asyncio import Redis

from .accounts import Accounts, Player
from .accounts.limits import Limits
from .accounts.signups import SignupLimit
from .analyses import Analyses
from .arenas import ARENA_ID, Arenas
from .arenas import board_key as arena_board_key
from .boards import Boards
from .boards.formats import board_format
from .boards.records import Records, board_name
from .boards.watch import BoardWatch
from .botrace import BotRaces
from .challenges import Challenges
from .config import Settings
from .daily import Daily, day_of, parse_day
from .daily.beacon_rounds import DayBeacon
from .daily.live import DailyLive
from .daily.winnable import Winnable, add_par
from .errors import ApiError
from .followups import FollowUps
from .ghosts import Ghosts
from .ghosts import board_key as ghost_board_key
from .hints import Hints
from .leagues import Leagues
from .leagues.boards import LeagueBoards, league_board
from .matches import Matches
from .metrics import Metrics
from .races import Races
from .sessions import Session, Sessions, race_of, session_payload
from .transport.drain import Drain
from .transport.events import Hub


@dataclass
class Services:
    settings: Settings
    redis: Redis
    accounts: Accounts
    sessions: Sessions
    races: Races
    matches: Matches
    daily: Daily
    boards: Boards
    records: Records
    hub: Hub
    metrics: Metrics
    signups: SignupLimit
    followups: FollowUps  # the due follow-ups of ended games: every node sweeps
    beacon: DayBeacon | None = None  # the public randomness beacon, when one is configured
    drain: Drain = field(default_factory=Drain)
    board_watch: BoardWatch | None = None  # boards published live to the sockets watching
    bot_races: BotRaces | None = None  # races against a server-run bot
    ghosts: Ghosts | None = None  # ghost races (server/ghosts/__init__.py)
    hints: Hints | None = None  # hints in practice games, searched in a process pool
    leagues: Leagues | None = None  # private groups (server/leagues/__init__.py)
    league_boards: LeagueBoards | None = None  # their boards (server/leagues/boards.py)
    winnable: Winnable | None = None  # the winnable daily deals' choices and par
    arenas: Arenas | None = None  # scheduled events: a deal every few minutes (arenas.py)
    challenges: Challenges | None = None  # challenges by name (server/challenges/__init__.py)
    daily_live: DailyLive | None = None  # the daily's live edition (server/daily/live.py)
    limits: Limits | None = None  # per account, per address, sockets (server/accounts/limits.py)
    analyses: Analyses | None = None  # post-game analysis (server/analyses/__init__.py)


Handler = Callable[[Services, Player, dict[str, Any]], Awaitable[dict[str, Any]]]


async def player_rename(sv: Services, player: Player, body: dict[str, Any]) -> dict[str, Any]:
    return {"player": (await sv.accounts.rename(player, body["name"])).public()}


async def solo_start(sv: Services, player: Player, body: dict[str, Any]) -> dict[str, Any]:
    s = await sv.sessions.start_solo(player, body["game"], body["variant"], body.get("seed"))
    return session_payload(s)


async def session_get(sv: Services, player: Player, body: dict[str, Any]) -> dict[str, Any]:
    return session_payload(await sv.sessions.get(player, body["session"]))


def _change(op: str) -> Handler:
    async def change(sv: Services, player: Player, body: dict[str, Any]) -> dict[str, Any]:
        t0 = time.perf_counter()
        s, repeated = await changed(sv, player, body, op)
        out = session_payload(s)
        if repeated:
            out["repeated"] = True
        sv.metrics.moved(op, time.perf_counter() - t0)
        return out

    return change


async def changed(sv: Services, player: Player, body: dict[str, Any],
                  op: str) -> tuple[Session, bool]:
    """Play, undo or resign (``op``) as ``body`` says; the session once stored, and whether
    the change was made before (sent again with the ``rev`` it was made at)."""
    return await sv.sessions.change(player, body["session"], op, body.get("move"),
                                    body.get("rev"))


async def race_create(sv: Services, player: Player, body: dict[str, Any]) -> dict[str, Any]:
    sv.metrics.races.labels("created").inc()
    return await sv.races.create(player, body)


async def race_join(sv: Services, player: Player, body: dict[str, Any]) -> dict[str, Any]:
    return await sv.races.join(player, body["race"])


async def race_leave(sv: Services, player: Player, body: dict[str, Any]) -> dict[str, Any]:
    return await sv.races.leave(player, body["race"])


async def race_start(sv: Services, player: Player, body: dict[str, Any]) -> dict[str, Any]:
    sv.metrics.races.labels("started").inc()
    return await sv.races.start(player, body["race"])


async def race_rematch(sv: Services, player: Player, body: dict[str, Any]) -> dict[str, Any]:
    return await sv.races.rematch(player, body["race"])


async def race_bot(sv: Services, player: Player, body: dict[str, Any]) -> dict[str, Any]:
    if sv.bot_races is None:
        raise ApiError("race.bot_capacity", "this server runs no bots")
    sv.metrics.races.labels("created").inc()
    return await sv.bot_races.start(player, body)


async def match_rematch(sv: Services, player: Player, body: dict[str, Any]) -> dict[str, Any]:
    return await sv.matches.rematch(player, body["match"], body.get("present", False))


async def match_create(sv: Services, player: Player, body: dict[str, Any]) -> dict[str, Any]:
    return await sv.matches.create(player, body, body.get("present", False))


async def match_join(sv: Services, player: Player, body: dict[str, Any]) -> dict[str, Any]:
    return await sv.matches.join(player, body["match"], body.get("present", False))


async def match_leave(sv: Services, player: Player, body: dict[str, Any]) -> dict[str, Any]:
    return await sv.matches.leave(player, body["match"])


async def match_start(sv: Services, player: Player, body: dict[str, Any]) -> dict[str, Any]:
    return await sv.matches.start(player, body["match"])


async def match_get(sv: Services, player: Player, body: dict[str, Any]) -> dict[str, Any]:
    return await sv.matches.summary(body["match"], player.id)


async def match_move(sv: Services, player: Player, body: dict[str, Any]) -> dict[str, Any]:
    return await sv.matches.move(player, body["match"], body["move"])


async def daily_start(sv: Services, player: Player, body: dict[str, Any]) -> dict[str, Any]:
    """A ranked attempt or an unranked replay. The transports note where a ranked attempt's
    start and moves come from (``seen_from``)."""
    s = await sv.daily.start(player, body["game"], body["variant"], body.get("ranked", True),
                             body.get("day"))
    out = session_payload(s)
    why = await sv.daily.unranked_reason(player.id, parse_day(s.daily)) if s.competitive else ""
    out["ranked"] = s.competitive and not why
    if why:
        out["unranked_reason"] = why
    return out


async def daily_get(sv: Services, player: Player, body: dict[str, Any]) -> dict[str, Any]:
    """The day's page, and in each deal ``you``: the caller's standing on it."""
    page = await daily_page(sv, body)
    yours = await sv.daily.yours(player, parse_day(page["day"]))
    for deal in page["deals"]:
        deal["you"] = yours[(deal["game"], deal["variant"])]
    return page


async def daily_page(sv: Services, body: dict[str, Any]) -> dict[str, Any]:
    """A day's page is the same for everyone, account or not, so that anyone can check a
    reveal (``samedeal verify-day``); with its live edition's section (``null``: off)."""
    out = await sv.daily.info(parse_day(body["day"]) if "day" in body else None)
    if sv.daily_live is not None:
        out["live"] = await sv.daily_live.page(parse_day(out["day"]))
    return out


def live_of(sv: Services) -> DailyLive:
    if sv.daily_live is None or not sv.settings.daily_live:
        raise ApiError("daily_live.off", "this server holds no live edition of the daily")
    return sv.daily_live


async def live_join(sv: Services, player: Player, body: dict[str, Any]) -> dict[str, Any]:
    return await live_of(sv).join(player, body["game"], body["variant"])


async def live_leave(sv: Services, player: Player, body: dict[str, Any]) -> dict[str, Any]:
    return await live_of(sv).leave(player, body["game"], body["variant"])


async def live_get(sv: Services, player: Player, body: dict[str, Any]) -> dict[str, Any]:
    day = parse_day(body["day"]) if "day" in body else day_of(await sv.daily.clock())
    return await live_of(sv).view(day, player.id)


async def board_of(sv: Services, body: dict[str, Any]) -> tuple[str, str, str]:
    """The board a ``board.get`` or ``board.subscribe`` names: its key name, its public name
    ('today' and 'current' resolved by the server's clock) and its kind."""
    kind = body.get("kind", "human")
    if body["board"].startswith("ghost/"):
        return await ghost_board(sv, body["board"], kind)
    if body["board"].startswith("arena/"):  # one board of every player, whatever the kind
        return arena_board(body["board"]), body["board"], kind
    name, public = board_name(body["board"], kind, day_of(await sv.daily.clock()))
    return name, public, kind


async def board_get(sv: Services, player: Player, body: dict[str, Any]) -> dict[str, Any]:
    if league_board(body["board"]) and sv.league_boards is not None:
        return await sv.league_boards.page(player.id, body)  # members only
    name, public, kind = await board_of(sv, body)
    around = body.get("around", "")
    start, count = body.get("start", 0), body.get("count", 20)
    page = await sv.boards.page(name, start, count, player.id if around == "me" else around)
    you: dict[str, Any] = {}
    if around == "me":  # your rank, or null: no entry yet (the attempt is still going)
        if page is None:
            page = await sv.boards.page(name, start, count)
        mine = [e["rank"] for e in page.entries if e["player"] == player.id] if page else []
        you["you"] = mine[0] if mine else None
    if page is None:
        raise ApiError("board.absent", "that player has no entry on this board")
    reply = {"board": public, "kind": kind, "format": board_format(public), "total": page.total,
             "entries": page.entries, **you}
    par = None if sv.winnable is None else await sv.winnable.board_par(public)
    return reply if par is None else add_par(reply, par)  # a revealed day's board


def ghosts_of(sv: Services) -> Ghosts:
    assert sv.ghosts is not None  # wired by build_services
    return sv.ghosts


async def ghost_board(sv: Services, public: str, kind: str) -> tuple[str, str, str]:
    """``ghost/<id>``: a ghost race's ranking, humans and bots on one board as in a race."""
    gid = public[len("ghost/"):]
    if not gid or "/" in gid or not await ghosts_of(sv).exists(gid):
        raise ApiError("board.unknown", f"there is no board {public[:96]!r}: see "
                       "docs/protocol.md")
    return ghost_board_key(gid), f"ghost/{gid}", kind


async def ghost_create(sv: Services, player: Player, body: dict[str, Any]) -> dict[str, Any]:
    return await ghosts_of(sv).create(player, body)


async def ghost_enter(sv: Services, player: Player, body: dict[str, Any]) -> dict[str, Any]:
    return await ghosts_of(sv).enter(player, body["ghost"])


async def ghost_get(sv: Services, player: Player, body: dict[str, Any]) -> dict[str, Any]:
    return await ghosts_of(sv).summary(body["ghost"])


async def hint(sv: Services, player: Player, body: dict[str, Any]) -> dict[str, Any]:
    assert sv.hints is not None  # build_services makes it
    return await sv.hints.hint(player, body["session"])


async def analysis_get(sv: Services, player: Player, body: dict[str, Any]) -> dict[str, Any]:
    return await analysis(sv, player, body["session"])


# ----- leagues (server/leagues/__init__.py)
# ----------------------------------------------------------


def _leagues(sv: Services) -> Leagues:
    assert sv.leagues is not None
    return sv.leagues


async def league_create(sv: Services, player: Player, body: dict[str, Any]) -> dict[str, Any]:
    return await _leagues(sv).create(player.id, body["name"])


async def league_join(sv: Services, player: Player, body: dict[str, Any]) -> dict[str, Any]:
    return await _leagues(sv).join(player.id, body["code"])


async def league_leave(sv: Services, player: Player, body: dict[str, Any]) -> dict[str, Any]:
    return await _leagues(sv).leave(player.id, body["league"])


async def league_remove(sv: Services, player: Player, body: dict[str, Any]) -> dict[str, Any]:
    return await _leagues(sv).remove(player.id, body["league"], body["player"])


async def league_code(sv: Services, player: Player, body: dict[str, Any]) -> dict[str, Any]:
    return await _leagues(sv).recode(player.id, body["league"])


async def league_get(sv: Services, player: Player, body: dict[str, Any]) -> dict[str, Any]:
    return await _leagues(sv).summary(player.id, body["league"])


async def league_list(sv: Services, player: Player, body: dict[str, Any]) -> dict[str, Any]:
    return {"leagues": await _leagues(sv).mine(player.id)}


def arena_board(public: str) -> str:
    """An arena's board (``arena/<id>``) by its key name, for any well-formed id."""
    aid = public.partition("/")[2]
    if not ARENA_ID.fullmatch(aid):
        raise ApiError("board.unknown", f"there is no board {public[:96]!r}: see "
                       "docs/protocol.md")
    return arena_board_key(aid)


def arenas_of(sv: Services) -> Arenas:
    assert sv.arenas is not None
    return sv.arenas


async def arena_join(sv: Services, player: Player, body: dict[str, Any]) -> dict[str, Any]:
    return await arenas_of(sv).join(player, body["arena"])


async def arena_leave(sv: Services, player: Player, body: dict[str, Any]) -> dict[str, Any]:
    return await arenas_of(sv).leave(player, body["arena"])


async def arena_get(sv: Services, player: Player, body: dict[str, Any]) -> dict[str, Any]:
    return await arenas_of(sv).summary(body["arena"], player.id)


def _challenges(sv: Services) -> Challenges:
    assert sv.challenges is not None, "build_services wires them"
    return sv.challenges


async def challenge_send(sv: Services, player: Player, body: dict[str, Any]) -> dict[str, Any]:
    return await _challenges(sv).send(player, body)


async def challenge_list(sv: Services, player: Player, body: dict[str, Any]) -> dict[str, Any]:
    return await _challenges(sv).list(player)


async def challenge_accept(sv: Services, player: Player,
                           body: dict[str, Any]) -> dict[str, Any]:
    return await _challenges(sv).accept(player, body["challenge"])


async def challenge_decline(sv: Services, player: Player,
                            body: dict[str, Any]) -> dict[str, Any]:
    return await _challenges(sv).decline(player, body["challenge"], body.get("block", False))


async def challenge_withdraw(sv: Services, player: Player,
                             body: dict[str, Any]) -> dict[str, Any]:
    return await _challenges(sv).withdraw(player, body["challenge"])


async def challenge_refuse(sv: Services, player: Player, body: dict[str, Any]) -> dict[str, Any]:
    return await _challenges(sv).refuse(player, body["refuse"])


#: message type -> (operation, reply type on the WebSocket)
OPERATIONS: dict[str, tuple[Handler, str]] = {
    "player.rename": (player_rename, "player"),
    "solo.start": (solo_start, "session"),
    "session.get": (session_get, "session"),
    "move": (_change("move"), "ack"),
    "undo": (_change("undo"), "ack"),
    "resign": (_change("resign"), "ack"),
    "race.create": (race_create, "race"),
    "race.join": (race_join, "race"),
    "race.leave": (race_leave, "race"),
    "race.start": (race_start, "race"),
    "race.rematch": (race_rematch, "race"),
    "race.bot": (race_bot, "race"),
    "match.create": (match_create, "match"),
    "match.join": (match_join, "match"),
    "match.leave": (match_leave, "match"),
    "match.start": (match_start, "match"),
    "match.rematch": (match_rematch, "match"),
    "match.get": (match_get, "match"),
    "match.move": (match_move, "match.ack"),
    "daily.start": (daily_start, "session"),
    "daily.get": (daily_get, "daily"),
    "daily_live.join": (live_join, "daily_live"),
    "daily_live.leave": (live_leave, "daily_live"),
    "daily_live.get": (live_get, "daily_live"),
    "board.get": (board_get, "board"),
    "ghost.create": (ghost_create, "ghost"),
    "ghost.enter": (ghost_enter, "ghost.entry"),
    "ghost.get": (ghost_get, "ghost"),
    "hint": (hint, "suggestion"),
    "analysis.get": (analysis_get, "analysis"),
    "league.create": (league_create, "league"),
    "league.join": (league_join, "league"),
    "league.leave": (league_leave, "league.left"),
    "league.remove": (league_remove, "league"),
    "league.code": (league_code, "league"),
    "league.get": (league_get, "league"),
    "league.list": (league_list, "leagues"),
    "arena.join": (arena_join, "arena"),
    "arena.leave": (arena_leave, "arena"),
    "arena.get": (arena_get, "arena"),
    # challenges by name
    "challenge.send": (challenge_send, "challenge"),
    "challenge.list": (challenge_list, "challenges"),
    "challenge.accept": (challenge_accept, "race"),
    "challenge.decline": (challenge_decline, "challenge"),
    "challenge.withdraw": (challenge_withdraw, "challenge"),
    "challenge.refuse": (challenge_refuse, "challenge.settings"),
}


#: The operations on a ranked daily attempt whose origin and client are noted.
SEEN = frozenset({"daily.start", "move", "undo", "resign"})


async def seen_from(sv: Services, kind: str, body: dict[str, Any], reply: dict[str, Any],
                    address: str, agent: str) -> None:
    """After ``kind`` succeeded: note where a ranked daily attempt was played from
    (server/fairplay/linked.py; anything else is left alone)."""
    sid = reply.get("session") or body.get("session")
    if kind in SEEN and isinstance(sid, str) and sv.daily.linked is not None:
        await sv.daily.linked.saw(sid, address, agent, body.get("install", ""))


async def transcript(sv: Services, player: Player | None, sid: str) -> dict[str, Any]:
    """A session's moves: its player's at any time. A ranked game's (a race entrant's, a
    ranked daily attempt's) are public, with the seed, once the race is over or the day's
    seeds are revealed. A practice seed shows when the player chose it or the game ended."""
    s = await sv.sessions.load(sid)
    mine = player is not None and s.player == player.id
    if s.race or (s.daily and s.competitive):
        public = await moves_public(sv, s.race, s.daily)
        if not public and not mine:
            raise ApiError("session.hidden" if player else "auth.required",
                           "a ranked game's moves are public after the race or the day")
        return await sv.sessions.transcript(sid, reveal=public)
    if player is None:
        raise ApiError("auth.required", "send your bearer token (register at /api/v1/players)")
    if not mine:
        raise ApiError("session.not_yours", "that session is another player's")
    reveal = s.reveal or (s.state.over and not s.daily)
    return await sv.sessions.transcript(sid, reveal=reveal)


async def moves_public(sv: Services, race: str, daily: str) -> bool:
    """Whether a ranked game's moves are public: its race is over (a ghost race's run: the
    ghost race is revealed), or its day (``daily``) is revealed."""
    if race:
        summary = await sv.races.summary(race)
        if summary.get("ghost"):
            return await ghosts_of(sv).revealed(summary["ghost"])
        return summary["state"] == "ended"  # type: ignore[no-any-return]
    return await sv.daily.revealed(parse_day(daily))


async def analysis(sv: Services, player: Player | None, sid: str) -> dict[str, Any]:
    """A finished game's analysis (server/analyses/__init__.py), to whoever may see its moves in
    full: a ranked game's to anyone once its transcript is public and to no one before, its own
    player included (no search reaches a game still being raced), a match player's game
    (a called-card grid, a bowler's frames) likewise once the match is over; a practice
    game's to its player once it is over. ``pending`` while it is being computed."""
    assert sv.analyses is not None  # build_services makes it
    meta = await sv.analyses.meta(sid)
    race = "" if meta.get("match") else race_of(sid, meta)
    mine = player is not None and meta["player"] == player.id
    over = meta["status"] != "playing"
    if meta.get("match"):  # a match player's game: public once the match is over
        if meta["ended"] != "1":
            raise ApiError("match.not_over", "a match's analysis is published when it ends, "
                           "as its transcript is")
    elif race or (meta.get("daily") and meta.get("competitive") == "1"):
        if not await moves_public(sv, race, meta.get("daily", "")):
            if mine and not over:
                raise not_over()
            raise ApiError("session.hidden" if player else "auth.required",
                           "a ranked game's analysis is public after the race or the day, "
                           "as its moves are")
    elif player is None:
        raise ApiError("auth.required", "send your bearer token (register at /api/v1/players)")
    elif not mine:
        raise ApiError("session.not_yours", "that session is another player's")
    elif not over:
        raise not_over()
    return await sv.analyses.serve(sid, int(meta["rev"]))


def not_over() -> ApiError:
    return ApiError("analysis.not_over", "the game is still being played: its analysis "
                    "comes once it is over")

