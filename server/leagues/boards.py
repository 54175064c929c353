"""A league's boards, read from the public boards themselves, never written twice.

- ``league/<id>/daily/<YYYY-MM-DD or today>/<game>/<variant>``: the public daily board's
  entries of the league's members (one HMGET of its details hash), in the public board's
  order (each entry's ordering number, then its member), ranked among the members. The
  entries go through ``boards.public_entry`` as the public page's do, so a league board never
  shows more than the public board at that moment, and can never disagree with it.
- ``league/<id>/weekly/<YYYY-Www or current>``: points for each daily place among the members
  (``PLACE_POINTS``), summed over the ISO week's days, with each member's current streak of
  days played (the profile's). Which rule sets to look at comes from the public weekly
  boards (one HMGET each); only the days of those rule sets are read.

Live (server/boards/watch.py): a league board's reader listens to the public board's channel
(and, for the week, the public all-games week board's), waking only for a member's result,
and to the league's own channel (members joining or leaving).
"""

from __future__ import annotations

import json
import re
from datetime import date, timedelta
from typing import Any

from .. import boards as boards_mod
from .. import store
from ..accounts import kind_of
from ..boards import Page, board_keys, public_entry
from ..boards.formats import board_format
from ..boards.records import board_name, week_name
from ..daily import daily_rule_sets, day_of
from ..errors import ApiError
from ..transport.messages import BoardGet, BoardSubscribe, BoardUnsubscribe
from ..transport.reply_types import Board, Entry
from . import CHANGED, Leagues, league_channel

#: Points for a place on a league's daily board (1st, 2nd, ...); every other place earns 1.
PLACE_POINTS = (10, 7, 5, 4, 3, 2)


def place_points(rank: int) -> int:
    return PLACE_POINTS[rank - 1] if rank <= len(PLACE_POINTS) else 1


def league_board(board: str) -> bool:
    """Whether a board's name is a league's."""
    return board.strip("/").startswith("league/")


def _bad(board: str) -> ApiError:
    return ApiError("board.unknown", f"there is no board {board[:96]!r}: see docs/protocol.md")


class LeagueBoard:
    """One league board as named, resolved against the day: which public boards it reads."""

    def __init__(self, board: str, kind: str, today: date) -> None:
        parts = board.strip("/").split("/")
        if len(parts) < 4 or parts[0] != "league" or not parts[1]:
            raise _bad(board)
        self.league, self.kind, self.today = parts[1], kind, today
        rest = parts[2:]
        if rest[0] == "daily":
            self.daily, public = board_name("/".join(rest), kind, today)
            self.week = ""
        elif rest[0] == "weekly" and len(rest) == 2:
            self.daily = ""
            self.week = week_name(today) if rest[1] == "current" else rest[1]
            if not re.fullmatch(r"\d{4}-W\d{2}", self.week):
                raise _bad(board)
            public = f"weekly/{self.week}"
        else:
            raise _bad(board)
        self.public = f"league/{self.league}/{public}"
        self.key = f"league:{self.league}:{public}:{kind}"  # the live reader's name

    @property
    def channels(self) -> list[str]:
        """What wakes its live reader: the public board a member's result lands on, and the
        league's membership changes."""
        source = self.daily or f"weekly:{self.week}:all:{self.kind}"
        return [boards_mod.channel(source), league_channel(self.league)]


class LeagueBoards:
    def __init__(self, leagues: Leagues, clock: Any) -> None:
        self.leagues = leagues
        self.redis = leagues.redis
        self.clock = clock

    async def resolve(self, pid: str, board: str, kind: str
                      ) -> tuple[LeagueBoard, list[str]]:
        """The board, and the league's members of the board's kind (``league.unknown``
        unless ``pid`` is one of its members)."""
        b = LeagueBoard(board, kind, day_of(await self.clock()))
        joined, members = await self.members(b)
        if pid not in joined:
            raise ApiError("league.unknown", "there is no such league, or you are not in it")
        return b, members

    async def members(self, b: LeagueBoard) -> tuple[set[str], list[str]]:
        """Every member of the board's league (none once it is closed), and those of the
        board's kind (humans and bots are ranked apart, as on the public boards)."""
        fields, joined = await self.leagues.members(b.league)
        if not fields:
            return set(), []
        people = await self.leagues.players(list(joined))
        return set(joined), sorted(p for p, (_, k) in people.items() if k == b.kind)

    async def read(self, b: LeagueBoard, members: list[str]) -> list[Entry]:
        """Every entry of the board, ranked."""
        if b.daily:
            return await self.daily(b.daily, members)
        return await self.weekly(b, members)

    async def daily(self, board: str, members: list[str]) -> list[Entry]:
        if not members:
            return []
        rows = await self.redis.hmget(board_keys(board)[1], members)
        entries = [json.loads(r) for r in rows if r]
        entries.sort(key=lambda e: (int(e["key"]), e["member"]))  # the public board's order
        return [public_entry(e, i + 1) for i, e in enumerate(entries)]

    async def weekly(self, b: LeagueBoard, members: list[str]) -> list[Entry]:
        year, week = (int(x) for x in b.week.split("-W"))
        try:
            monday = date.fromisocalendar(year, week, 1)
        except ValueError:
            raise _bad(f"league/{b.league}/weekly/{b.week}") from None
        days = [monday + timedelta(n) for n in range(7) if monday + timedelta(n) <= b.today]
        rule_sets = daily_rule_sets()
        tally = {p: {"points": 0, "results": 0, "wins": 0, "firsts": 0} for p in members}
        if members and days:
            async with self.redis.pipeline(transaction=False) as pipe:
                for r in rule_sets:  # who played what this week, from the public boards
                    pipe.hmget(board_keys(f"weekly:{b.week}:{r.id}:{r.variant}:{b.kind}")[1],
                               members)
                rows = await pipe.execute()
            played = [r for r, row in zip(rule_sets, rows, strict=True) if any(row)]
            boards = [f"daily:{d.isoformat()}:{r.id}:{r.variant}:{b.kind}"
                      for r in played for d in days]
            async with self.redis.pipeline(transaction=False) as pipe:
                for name in boards:
                    pipe.hmget(board_keys(name)[1], members)
                rows = await pipe.execute()
            for row in rows:
                entries = sorted((json.loads(r) for r in row if r),
                                 key=lambda e: (int(e["key"]), e["member"]))
                for place, e in enumerate(entries, 1):
                    t = tally[e["player"]]
                    t["points"] += place_points(place)
                    t["results"] += 1
                    t["wins"] += e.get("status") == "won"
                    t["firsts"] += place == 1
        people = await self.leagues.players(members)
        streaks = await self.streaks(members, b.today)
        order = sorted(members, key=lambda p: (-tally[p]["points"], -tally[p]["firsts"],
                                               -tally[p]["wins"], people[p][0].lower(), p))
        kind = kind_of(b.kind)
        return [{"rank": i + 1, "player": p, "name": people[p][0], "kind": kind,
                 "points": tally[p]["points"], "results": tally[p]["results"],
                 "wins": tally[p]["wins"], "firsts": tally[p]["firsts"], "streak": streaks[p]}
                for i, p in enumerate(order)]

    async def streaks(self, members: list[str], today: date) -> dict[str, int]:
        """Each member's current run of days played, as the profile shows it (0 once a whole
        day has passed without a ranked attempt)."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for p in members:
                pipe.hmget(store.player_key(p), "streak:played:last", "streak:played:days")
            rows = await pipe.execute()
        out = {}
        for p, (last, days) in zip(members, rows, strict=True):
            current = last is not None and int(last) >= today.toordinal() - 1
            out[p] = int(days or 0) if current else 0
        return out

    async def page(self, pid: str, body: BoardGet) -> Board:
        """``board.get`` of a league board: a member's page (anyone else: league.unknown)."""
        kind = body.get("kind", "human")
        b, members = await self.resolve(pid, body["board"], kind)
        entries = await self.read(b, members)
        start, count = body.get("start", 0), body.get("count", 20)
        out: Board = {"board": b.public, "kind": kind, "format": board_format(b.public),
                      "total": len(entries),
                      "entries": entries[start:start + count]}
        if body.get("around") == "me":
            out["you"] = next((e["rank"] for e in entries if e["player"] == pid), None)
        return out

    async def named(self, body: BoardSubscribe | BoardUnsubscribe) -> LeagueBoard:
        """The board as named, resolved against today, without looking at its league."""
        return LeagueBoard(body["board"], body.get("kind", "human"), day_of(await self.clock()))

    async def source(self, pid: str, body: BoardSubscribe) -> LeagueSource:
        """What a live reader of the board watches and reads (members only)."""
        b, _ = await self.resolve(pid, body["board"], body.get("kind", "human"))
        return LeagueSource(self, b)


class LeagueSource:
    """A league board's live reader's side (server/boards/watch.py ``Source``): its channels,
    which messages on them wake it (a member's result, a membership change), and its read."""

    def __init__(self, boards: LeagueBoards, b: LeagueBoard) -> None:
        self.boards = boards
        self.board = b
        self.channels = b.channels
        self.members: set[str] = set()  # as of the last read

    def wakes(self, data: bytes | None) -> bool:
        if data is None:
            return True  # pub/sub made again: writes may have been missed
        text = store.text(data)
        return text == CHANGED or text in self.members

    async def read(self, count: int, players: list[str]
                   ) -> tuple[Page, dict[str, Entry], set[str]]:
        b = self.board
        self.members, members = await self.boards.members(b)
        entries = await self.boards.read(b, members)
        own = {e["player"]: e for e in entries if e["player"] in players}
        return Page(len(entries), entries[:count]), own, self.members
