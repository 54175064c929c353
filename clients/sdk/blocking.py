"""A synchronous face on the asyncio client, for scripts and notebooks: the client runs on
its own event loop in a background thread, so reconnecting and keep-alive pings go on while
your code thinks."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine, Iterator
from typing import Any, TypeVar

from . import rest
from .analysis import Analysis
from .challenges import Challenge
from .client import Client, MatchState, RaceState
from .hints import Hint
from .messages import Board, Daily, Event, Match, Race, Results, Session
from .payloads import (
    Arena,
    League,
    LeagueLeft,
    LeagueListed,
    MatchTranscript,
    Profile,
    Stats,
    Transcript,
)

T = TypeVar("T")


class BlockingClient:
    """The same calls as ``Client``, each blocking until its reply, but for the live
    streams (``STREAMS``: use the asyncio client for those). Listeners in
    ``client.listeners`` run on the background thread."""

    #: ``Client``'s calls that hand back a live stream, not a reply: not mirrored here.
    STREAMS = frozenset({"subscribe_board", "watch_league_board", "arena_rounds", "wait_for"})

    def __init__(self, url: str, token: str | None = None, *, encoding: str = "json",
                 **options: Any) -> None:
        self.client = Client(url, token, encoding=encoding, **options)
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True,
                                        name="samedeal-sdk")
        self._thread.start()

    def _run(self, coro: Coroutine[Any, Any, T]) -> T:
        if self._loop.is_closed():
            coro.close()
            raise RuntimeError("the client is closed")
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result()

    @staticmethod
    def register(url: str, name: str, kind: str = "human", *, encoding: str = "json"
                 ) -> tuple[dict[str, Any], str]:
        body = rest.call(url, "POST", "/players", {"name": name, "kind": kind}, None, encoding)
        return body["player"], body["token"]

    def __enter__(self) -> BlockingClient:
        self.connect()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def player(self) -> dict[str, Any] | None:
        return self.client.player

    @property
    def url(self) -> str:
        return self.client.url

    def connect(self) -> None:
        self._run(self.client.connect())

    def close(self) -> None:
        """Close the connection and stop the background thread."""
        if self._loop.is_closed():
            return
        self._run(self.client.close())
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join()
        self._loop.close()

    def request(self, message: dict[str, Any]) -> dict[str, Any]:
        return self._run(self.client.request(message))

    def ping(self) -> None:
        self._run(self.client.ping())

    # accounts, catalog, REST reads
    def profile(self, player: str = "me") -> Profile:
        return self._run(self.client.profile(player))

    def stats(self, player: str) -> Stats:
        return self._run(self.client.stats(player))

    def catalog(self) -> list[dict[str, Any]]:
        return self._run(self.client.catalog())

    def rule_set(self, game: str, variant: str) -> dict[str, Any]:
        return self._run(self.client.rule_set(game, variant))

    def rules(self, game: str, variant: str) -> dict[str, Any]:
        return self._run(self.client.rules(game, variant))

    def transcript(self, session: str) -> Transcript:
        return self._run(self.client.transcript(session))

    # sessions
    def solo(self, game: str, variant: str, seed: str | None = None) -> Session:
        return self._run(self.client.solo(game, variant, seed))

    def session(self, session_id: str) -> Session:
        return self._run(self.client.session(session_id))

    def move(self, session_id: str, move: str | dict[str, Any], rev: int | None = None
             ) -> Session:
        return self._run(self.client.move(session_id, move, rev))

    def undo(self, session_id: str, rev: int | None = None) -> Session:
        return self._run(self.client.undo(session_id, rev))

    def resign(self, session_id: str, rev: int | None = None) -> Session:
        return self._run(self.client.resign(session_id, rev))

    def hint(self, session_id: str) -> Hint:
        return self._run(self.client.hint(session_id))

    def analysis(self, session: str, *, wait: float = 120.0) -> Analysis:
        return self._run(self.client.analysis(session, wait=wait))

    # races
    def races(self) -> list[Race]:
        return self._run(self.client.races())

    def race(self, race: str) -> Race:
        return self._run(self.client.race(race))

    def race_results(self, race: str) -> Results:
        return self._run(self.client.race_results(race))

    def create_race(self, game: str, variant: str, seats: int, **options: Any) -> Race:
        return self._run(self.client.create_race(game, variant, seats, **options))

    def join_race(self, race: str) -> Race:
        return self._run(self.client.join_race(race))

    def race_bot(self, game: str, variant: str, strength: str | None = None) -> Race:
        return self._run(self.client.race_bot(game, variant, strength))

    def leave_race(self, race: str) -> Race:
        return self._run(self.client.leave_race(race))

    def start_race(self, race: str) -> Race:
        return self._run(self.client.start_race(race))

    def subscribe_race(self, race: str, after: int | None = None) -> RaceState:
        return self._run(self.client.subscribe_race(race, after))

    def unsubscribe_race(self, race: str) -> None:
        self._run(self.client.unsubscribe_race(race))

    def race_state(self, race: str) -> RaceState | None:
        return self.client.race_state(race)

    def wait_race_session(self, race: str, timeout: float | None = None) -> Session | None:
        return self._run(self.client.wait_race_session(race, timeout))

    def wait_race_end(self, race: str, timeout: float | None = None) -> Results:
        return self._run(self.client.wait_race_end(race, timeout))

    # daily and boards
    def daily(self, day: str | None = None) -> Daily:
        return self._run(self.client.daily(day))

    def start_daily(self, game: str, variant: str, ranked: bool = True,
                    day: str | None = None) -> Session:
        return self._run(self.client.start_daily(game, variant, ranked, day))

    def board(self, name: str, kind: str = "human", start: int = 0, count: int = 20,
              around: str | None = None) -> Board:
        return self._run(self.client.board(name, kind, start, count, around))

    # matches
    def create_match(self, game: str, variant: str, seats: int, **options: Any) -> Match:
        return self._run(self.client.create_match(game, variant, seats, **options))

    def join_match(self, match: str) -> Match:
        return self._run(self.client.join_match(match))

    def leave_match(self, match: str) -> Match:
        return self._run(self.client.leave_match(match))

    def start_match(self, match: str) -> Match:
        return self._run(self.client.start_match(match))

    def match(self, match: str) -> Match:
        return self._run(self.client.match(match))

    def subscribe_match(self, match: str, after: int | None = None) -> MatchState:
        return self._run(self.client.subscribe_match(match, after))

    def unsubscribe_match(self, match: str) -> None:
        self._run(self.client.unsubscribe_match(match))

    def match_move(self, match: str, move: str | dict[str, Any]) -> Match:
        return self._run(self.client.match_move(match, move))

    def match_transcript(self, match: str) -> MatchTranscript:
        return self._run(self.client.match_transcript(match))

    # arenas (their rounds as they come: the asyncio client's ``arena_rounds``)
    def arenas(self) -> list[Arena]:
        return self._run(self.client.arenas())

    def arena(self, arena: str) -> Arena:
        return self._run(self.client.arena(arena))

    def join_arena(self, arena: str) -> Arena:
        return self._run(self.client.join_arena(arena))

    def leave_arena(self, arena: str) -> Arena:
        return self._run(self.client.leave_arena(arena))

    def rematch_race(self, race: str) -> Race:
        return self._run(self.client.rematch_race(race))

    def rematch_match(self, match: str) -> Match:
        return self._run(self.client.rematch_match(match))

    # challenges by name
    def challenge(self, name: str | None = None, game: str = "", variant: str = "", *,
                  player: str | None = None) -> Challenge:
        return self._run(self.client.challenge(name, game, variant, player=player))

    def challenges(self) -> list[Challenge]:
        return self._run(self.client.challenges())

    def accept_challenge(self, challenge: str) -> Race:
        return self._run(self.client.accept_challenge(challenge))

    def decline_challenge(self, challenge: str, block: bool = False) -> Challenge:
        return self._run(self.client.decline_challenge(challenge, block))

    def withdraw_challenge(self, challenge: str) -> Challenge:
        return self._run(self.client.withdraw_challenge(challenge))

    def wait_challenge_answer(self, challenge: str, timeout: float | None = None) -> Challenge:
        return self._run(self.client.wait_challenge_answer(challenge, timeout))

    # leagues (their boards watched live: the asyncio client's ``watch_league_board``)
    def create_league(self, name: str) -> League:
        return self._run(self.client.create_league(name))

    def join_league(self, code: str) -> League:
        return self._run(self.client.join_league(code))

    def leave_league(self, league: str) -> LeagueLeft:
        return self._run(self.client.leave_league(league))

    def remove_from_league(self, league: str, player: str) -> League:
        return self._run(self.client.remove_from_league(league, player))

    def new_league_code(self, league: str) -> League:
        return self._run(self.client.new_league_code(league))

    def league(self, league: str) -> League:
        return self._run(self.client.league(league))

    def leagues(self) -> list[LeagueListed]:
        return self._run(self.client.leagues())

    def league_board(self, league: str, game: str | None = None, variant: str | None = None,
                     day: str = "today", week: str = "current", kind: str = "human") -> Board:
        return self._run(self.client.league_board(league, game, variant, day, week, kind))

    # events
    def next_event(self, timeout: float | None = None) -> Event:
        return self._run(self.client.next_event(timeout))

    def events(self, timeout: float | None = None) -> Iterator[Event]:
        """Pushed events as they come; stops after ``timeout`` s without one (if given)."""
        while True:
            try:
                yield self.next_event(timeout)
            except TimeoutError:
                return
