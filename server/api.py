"""The services every feature's operations are given (``Services``, wired by the app
factory), and what several features share: a change of a session, the day's page, the board
a name means, where a ranked attempt came from, and whether a game's moves are public yet.
Each feature's operations are its own (server/<feature>/feature.py, server/feature.py)."""

from __future__ import annotations

from collections.abc import Mapping
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
from .boards.records import Records, board_name
from .boards.watch import BoardWatch
from .botrace import BotRaces
from .challenges import Challenges
from .config import Settings
from .daily import Daily, day_of, deal_id, parse_day
from .daily.beacon_rounds import DayBeacon
from .daily.live import DailyLive
from .daily.winnable import Winnable
from .errors import ApiError
from .feature import Features, Operation
from .followups import FollowUps
from .ghosts import Ghosts
from .ghosts.record import board_key as ghost_board_key
from .hints import Hints
from .leagues import Leagues
from .leagues.boards import LeagueBoards
from .matches import Matches
from .metrics import Metrics
from .races import Races
from .sessions import Session, Sessions
from .transport.drain import Drain
from .transport.events import Hub
from .transport.messages import (
    BoardGet,
    BoardSubscribe,
    BoardUnsubscribe,
    DailyGet,
    Move,
    Resign,
    Undo,
)
from .transport.reply_types import Daily as DailyPayload
from .transport.reply_types import SessionTranscript


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
    board_watch: BoardWatch  # boards published live to the sockets watching
    bot_races: BotRaces  # races against a server-run bot
    ghosts: Ghosts  # ghost races (server/ghosts/__init__.py)
    hints: Hints  # hints in practice games, searched in a process pool
    leagues: Leagues  # private groups (server/leagues/__init__.py)
    league_boards: LeagueBoards  # their boards (server/leagues/boards.py)
    winnable: Winnable  # the winnable daily deals' choices and par
    arenas: Arenas  # scheduled events: a deal every few minutes (server/arenas/__init__.py)
    challenges: Challenges  # challenges by name (server/challenges/__init__.py)
    daily_live: DailyLive  # the daily's live edition (server/daily/live.py)
    limits: Limits  # per account, per address, sockets (server/accounts/limits.py)
    analyses: Analyses  # post-game analysis (server/analyses/__init__.py)
    #: Every feature's operations, socket messages and routes (server/feature.py), as the
    #: app factory registered them.
    features: Features
    beacon: DayBeacon | None = None  # the public randomness beacon, when one is configured
    drain: Drain = field(default_factory=Drain)

    @property
    def operations(self) -> Mapping[str, Operation[Any]]:
        return self.features.operations


#: A change to a session: its message.
Change = Move | Undo | Resign


async def changed(sv: Services, player: Player, body: Change,
                  op: str) -> tuple[Session, bool]:
    """Play, undo or resign (``op``) as ``body`` says; the session once stored, and whether
    the change was made before (sent again with the ``rev`` it was made at)."""
    move = body["move"] if body["type"] == "move" else None
    return await sv.sessions.change(player, body["session"], op, move, body.get("rev"))


async def daily_page(sv: Services, body: DailyGet) -> DailyPayload:
    """A day's page is the same for everyone, account or not, so that anyone can check a
    reveal (``samedeal verify-day``); with its live edition's section (``null``: off)."""
    out = await sv.daily.info(parse_day(body["day"]) if "day" in body else None)
    out["live"] = await sv.daily_live.page(parse_day(out["day"]))
    return out


def live_of(sv: Services) -> DailyLive:
    if not sv.settings.daily_live:
        raise ApiError("daily_live.off", "this server holds no live edition of the daily")
    return sv.daily_live


async def board_of(sv: Services, body: BoardGet | BoardSubscribe | BoardUnsubscribe
                   ) -> tuple[str, str, str]:
    """The board a ``board.get`` or ``board.subscribe`` names: its key name, its public name
    ('today' and 'current' resolved by the server's clock) and its kind."""
    kind = body.get("kind", "human")
    if body["board"].startswith("ghost/"):
        return await ghost_board(sv, body["board"], kind)
    if body["board"].startswith("arena/"):  # one board of every player, whatever the kind
        return arena_board(body["board"]), body["board"], kind
    name, public = board_name(body["board"], kind, day_of(await sv.daily.clock()))
    return name, public, kind


async def ghost_board(sv: Services, public: str, kind: str) -> tuple[str, str, str]:
    """``ghost/<id>``: a ghost race's ranking, humans and bots on one board as in a race."""
    gid = public[len("ghost/"):]
    if not gid or "/" in gid or not await sv.ghosts.exists(gid):
        raise ApiError("board.unknown", f"there is no board {public[:96]!r}: see "
                       "docs/protocol.md")
    return ghost_board_key(gid), f"ghost/{gid}", kind


def arena_board(public: str) -> str:
    """An arena's board (``arena/<id>``) by its key name, for any well-formed id."""
    aid = public.partition("/")[2]
    if not ARENA_ID.fullmatch(aid):
        raise ApiError("board.unknown", f"there is no board {public[:96]!r}: see "
                       "docs/protocol.md")
    return arena_board_key(aid)


async def seen_from(sv: Services, body: dict[str, Any], reply: Mapping[str, Any],
                    address: str, agent: str) -> None:
    """After an operation that is ``noted`` succeeded: note where a ranked daily attempt was
    played from (server/fairplay/linked.py; any other session is left alone). The session
    says what it is (this node has it at hand: the operation just played or made it)."""
    sid = reply.get("session") or body.get("session")
    if not isinstance(sid, str) or sv.daily.linked is None:
        return
    s = await sv.sessions.load(sid, check=False)  # the cached one, if this node has it
    if s.daily and s.competitive:
        await sv.daily.linked.saw(sid, deal_id(parse_day(s.daily), s.rules), address, agent,
                                  body.get("install", ""))


async def transcript(sv: Services, player: Player | None, sid: str) -> SessionTranscript:
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
            return await sv.ghosts.revealed(summary["ghost"])
        return summary["state"] == "ended"
    return await sv.daily.revealed(parse_day(daily))
