"""The app factory: builds the services and wires the routes, explicitly."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import importlib.util
import logging
import math
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, WebSocketRoute

from . import store
from .accounts import Accounts
from .accounts.feature import FEATURE as ACCOUNTS
from .accounts.limits import Limits
from .accounts.signups import SignupLimit
from .analyses import Analyses
from .analyses.feature import FEATURE as ANALYSES
from .api import Services
from .arenas import Arenas
from .arenas.feature import FEATURE as ARENAS
from .boards import Boards
from .boards.feature import FEATURE as BOARDS
from .boards.ratings import Ratings
from .boards.records import Records
from .boards.watch import BoardWatch
from .botrace import BotRaces
from .botrace.feature import FEATURE as BOTRACE
from .botrace.player import Operations
from .challenges import Challenges
from .challenges.feature import FEATURE as CHALLENGES
from .config import Settings
from .crash_points import CrashAt
from .crash_points import operation as counted
from .daily import Clock, Daily
from .daily.beacon import Beacon
from .daily.beacon_rounds import DayBeacon
from .daily.feature import FEATURE as DAILY
from .daily.live import DailyLive
from .daily.winnable import Winnable
from .ended import GameEnded, MatchEnded, RaceEnded
from .errors import ApiError, store_unavailable
from .fairplay.linked import Linked
from .fairplay.review import Reviews
from .feature import register
from .followups import DONE, IDLE, FollowUps, Outcome, forget
from .ghosts import Ghosts
from .ghosts.feature import FEATURE as GHOSTS
from .hints import Hints
from .hints.feature import FEATURE as HINTS
from .leagues import Leagues
from .leagues.boards import LeagueBoards
from .leagues.feature import FEATURE as LEAGUES
from .loops import pause
from .matches import Matches
from .matches.feature import FEATURE as MATCHES
from .metrics import Metrics
from .races import Races
from .races.feature import FEATURE as RACES
from .sessions import Session, Sessions
from .sessions.feature import FEATURE as SESSIONS
from .store import script_replies
from .store.link import link_of
from .transport import api_docs, asyncapi, logs, openapi, replies, rest, ws
from .transport.endpoints import Endpoint
from .transport.events import Hub
from .transport.headers import NOSNIFF, WithHeaders, api_headers, page_headers
from .transport.reply_types import MatchResults, RaceResults
from .transport.web_files import WebFiles

log = logging.getLogger("samedeal")

#: What the server is made of: each feature's operations, socket messages, REST routes and
#: jobs (server/feature.py), in the order its routes are matched and its sweep steps run.
FEATURES = register(
    MATCHES,
    ACCOUNTS,
    SESSIONS,
    HINTS,
    ANALYSES,
    RACES,
    BOTRACE,
    DAILY,
    BOARDS,
    GHOSTS,
    LEAGUES,
    ARENAS,
    CHALLENGES,
)


def build_services(settings: Settings, clock: Clock | None = None,
                   beacon: DayBeacon | None = None) -> Services:
    """Every service, wired explicitly; ``clock`` (ms) decides the daily challenge's day;
    ``beacon`` (server/daily/beacon.py, built from the beacon settings) mixes the public randomness
    beacon into the daily seeds."""
    redis = store.connect(settings.redis_url, settings.redis_connections,
                          settings.store_timeout)
    if settings.crash_at and (wire := link_of(redis)) is not None:  # a test hook
        wire.crash = CrashAt.parse(settings.crash_at)
    accounts = Accounts(redis, clock)
    if beacon is None:
        beacon = Beacon.from_settings(settings)  # None without a beacon_url
    boards = Boards(redis)
    records = Records(redis, settings, boards, Ratings(redis, boards))
    races: Races | None = None
    daily: Daily | None = None

    async def on_change(s: Session, result: script_replies.Changed) -> None:
        """After a stored change: a race may be over; a game's first end is recorded. Done at
        once here; the change also left it in the due set, in case this node dies first."""
        assert races is not None and daily is not None
        if s.race:
            await races.on_change(s.race, result)
        elif result.first:
            if s.daily and s.competitive:
                await daily.finished(s, result.now)
            else:
                await game_over(s, result.now)

    async def game_over(s: Session, finished_at: int) -> None:
        await sv.features.ended(sv, GameEnded(s, finished_at))
        await forget(redis, store.follow_up("game", s.id))

    async def game_due(sid: str) -> Outcome:
        """A practice game or unranked replay that ended: count it (idempotent per game)."""
        finished = await redis.hget(store.session_keys(sid)[0], "finished_at")
        if finished is None:
            return IDLE  # its last move may still land
        await game_over(await sessions.load(sid), int(finished))
        return DONE

    async def race_over(results: RaceResults) -> None:
        await sv.features.ended(sv, RaceEnded(results))

    sessions = Sessions(redis, settings, on_change)
    races = Races(redis, settings, sessions, race_over)
    ghosts = Ghosts(redis, settings, sessions, races, boards)
    arenas = Arenas(redis, settings, races, boards)

    async def match_over(results: MatchResults) -> None:
        await sv.features.ended(sv, MatchEnded(results))

    matches = Matches(redis, settings, match_over)
    daily = Daily(redis, settings, sessions, accounts, records, clock, beacon)
    followups = FollowUps(redis, settings)
    followups.handle("race", races.follow_up)
    followups.handle("match", matches.follow_up)
    followups.handle("daily", daily.settle)
    followups.handle("game", game_due)
    hub, metrics = Hub(redis), Metrics()
    analyses = Analyses(redis, settings, metrics, daily.clock)
    metrics.cached_sessions.set_function(lambda: sessions.kept)
    leagues = Leagues(redis, settings, daily.clock)
    winnable = daily.winnable = Winnable(redis, settings, daily, metrics)
    daily.linked = Linked(redis)
    daily.reviews = Reviews(redis, accounts, sessions, records,
                            cleared=lambda sid: analyses.queue([sid]))

    def operation(kind: str) -> Any:
        """A bot's call of the operation ``kind``, as either transport makes it."""
        return lambda player, body: FEATURES.operations[kind].handler(sv, player, body)

    bot_races = BotRaces(redis, settings, races, accounts, Operations(
        operation("session.get"), operation("move"), operation("resign"), races.summary,
        lambda: store.now_ms(redis)))
    sv = Services(settings, redis, accounts, sessions, races, matches, daily, boards,
                  records, hub, metrics, SignupLimit(redis, settings), followups,
                  beacon=beacon, board_watch=BoardWatch(boards, hub, metrics,
                                                 settings.board_interval,
                                                 par_of=winnable.board_par),
                  bot_races=bot_races, ghosts=ghosts,
                  hints=Hints(redis, settings, sessions, metrics),
                  leagues=leagues, league_boards=LeagueBoards(leagues, daily.clock),
                  winnable=winnable, arenas=arenas,
                  challenges=Challenges(redis, settings, accounts, races),
                  daily_live=(live := DailyLive(settings, daily, arenas, boards)),
                  limits=Limits(redis, settings), analyses=analyses, features=FEATURES)
    if settings.daily_live:  # the live edition's deals are decided ahead too
        winnable.also = [("live", r) for r in live.rule_sets]
    return sv


def create_app(settings: Settings | None = None, clock: Clock | None = None) -> Starlette:
    settings = settings or Settings.from_env()
    sv = build_services(settings, clock)
    logs.quiet_bad_text()  # a text frame that is not UTF-8: one info line, not a traceback

    async def healthz(request: Request) -> Response:
        return JSONResponse({"status": "ok"})

    async def readyz(request: Request) -> Response:
        if sv.drain.draining:  # shutting down: the balancer should send no one here
            return JSONResponse({"status": "draining"}, 503)
        if not sv.hub.ready:  # not subscribed (Redis away): race and match events would miss
            return JSONResponse({"status": "store unreachable"}, 503)
        try:  # the way moves go: over the link, where there is one
            await asyncio.wait_for(store.call(sv.redis, "PING"), 2.0)
        except Exception:
            return JSONResponse({"status": "store unreachable"}, 503)
        return JSONResponse({"status": "ready", "store": "redis"})

    documents: dict[str, dict[str, Any]] = {}

    async def openapi_json(request: Request) -> Response:
        return JSONResponse(documents["openapi"])

    async def asyncapi_json(request: Request) -> Response:
        return JSONResponse(documents["asyncapi"])

    endpoints = [
        *(rest.limited(e) for e in FEATURES.endpoints),
        Endpoint("GET", "/healthz", healthz, "The process is alive",
                 reply=replies.obj({"status": replies.STR}), auth="none"),
        Endpoint("GET", "/readyz", readyz, "The process can reach its store",
                 reply=replies.obj({"status": replies.STR}), auth="none"),
        Endpoint("GET", "/metrics", sv.metrics.endpoint, "Prometheus metrics", auth="none",
                 media="text/plain"),
        Endpoint("GET", "/openapi.json", openapi_json, "This document", auth="none"),
        Endpoint("GET", "/asyncapi.json", asyncapi_json,
                 "The AsyncAPI 3.0 document of the WebSocket's messages", auth="none"),
    ]
    ws_path = f"{rest.API}/ws"
    documents["openapi"] = openapi.document(endpoints)
    documents["asyncapi"] = asyncapi.document(ws_path, FEATURES.ws_types)
    routes: list[Any] = [*(e.route() for e in endpoints), WebSocketRoute(ws_path, ws.endpoint),
                         *api_docs.routes()]
    web = web_root(settings)
    if web is not None:  # last: the API's routes win over a file of the same name
        pages = WithHeaders(WebFiles(directory=web), page_headers)
        routes.append(Mount("/", pages, name="web"))

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        sv.metrics.loop.labels(loop_name()).set(1)  # the uvloop setting, as it took
        await sv.hub.start()  # returns even without Redis: /readyz says 503 until it comes
        FEATURES.start(sv)  # a pool's processes start now, not at its first task
        quiet_collector()
        unwatch = sv.metrics.watch_collector()
        undo_sigterm = sv.drain.on_sigterm()
        stop = asyncio.Event()
        tasks = {asyncio.create_task(background(sv, stop))}
        try:
            yield
        finally:
            undo_sigterm()
            unwatch()
            stop.set()  # the loops end by this flag: a cancellation can be swallowed
            await asyncio.wait(tasks, timeout=5)
            await FEATURES.stop(sv)
            await sv.hub.stop()
            await store.close(sv.redis)

    app = Starlette(routes=routes, lifespan=lifespan, middleware=[
        Middleware(WithHeaders, extra=api_headers)], exception_handlers={
        ApiError: api_error, HTTPException: http_error, RedisConnectionError: store_error,
        RedisTimeoutError: store_error, Exception: server_error})
    app.state.services = sv
    return app


def quiet_collector() -> None:
    """Fewer and shorter garbage-collector pauses on the move path. What is loaded by now
    (modules, the rule sets' tables) lives as long as the process: frozen, a full collection
    no longer walks it. Most of a move's objects are freed by their reference counts, so a
    young collection every 10,000 allocations, not 700, finds the same cycles at a fraction
    of the cost. Measured in bench/results.md (the move path's p99)."""
    gc.freeze()
    gc.set_threshold(10_000, 20, 100)


def loop_name() -> str:
    """``uvloop`` or ``asyncio``: the running event loop's library (server/cli.py
    ``event_loop``)."""
    return type(asyncio.get_running_loop()).__module__.partition(".")[0]


def web_root(settings: Settings) -> Path | None:
    """The browser client's files: found on disk, never imported (the server speaks to clients
    only through the protocol)."""
    if settings.web_root:
        return Path(settings.web_root)
    spec = importlib.util.find_spec("clients")
    if spec is None or not spec.submodule_search_locations:
        return None
    folder = Path(next(iter(spec.submodule_search_locations))) / "web"
    return folder if folder.is_dir() else None


async def background(sv: Services, stop: asyncio.Event) -> None:
    """The sweep and the features' loops (the heartbeat, the match timers), from the moment
    the pub/sub connection is made: a node started before Redis waits here quietly (the
    connection logs each try) instead of failing every second until then."""
    while not sv.hub.ready:
        if await pause(stop, 0.1):
            return
    loops = [sweep(sv, stop), *FEATURES.loops(sv, stop)]
    await asyncio.gather(*loops)


async def sweep(sv: Services, stop: asyncio.Event) -> None:
    """Every node, every ``sweep_interval`` until ``stop``: end races past their time limit,
    close daily attempts past their deadline, record the reveals now due, fetch a missing
    beacon round (until it comes), complete the follow-ups of ended games that no node
    completed within their grace, and expire unanswered challenges (all idempotent, so nodes
    may overlap)."""
    while True:  # the first sweep at once
        for job in FEATURES.sweeps(sv):
            try:
                # A test hook counts each job's store calls (server/crash_points.py); else off.
                with (counted(f"sweep.{job.__qualname__}") if sv.settings.crash_at
                      else contextlib.nullcontext()):
                    await job()
            except (RedisConnectionError, RedisTimeoutError) as e:  # all tried next sweep
                log.warning("sweep: the store is unreachable (%s)", e)
                break  # the next jobs would fail the same way, each after the deadline
            except Exception:
                log.exception("sweep failed: %s", job.__qualname__)
        if await pause(stop, sv.settings.sweep_interval):
            return


async def api_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ApiError)
    request.app.state.services.metrics.errors.labels(exc.code).inc()
    headers = None if exc.retry_after is None else {
        "Retry-After": str(max(1, math.ceil(exc.retry_after)))}  # whole seconds (RFC 9110)
    return rest.respond(request, exc.body(), exc.status, headers)


async def http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    code = {404: "not_found", 405: "method.not_allowed"}.get(exc.status_code, "frame.malformed")
    return rest.respond(request, {"code": code, "message": str(exc.detail).lower()},
                        exc.status_code, dict(exc.headers or {}))  # a 405's Allow


async def store_error(request: Request, exc: Exception) -> Response:
    await store.forget_idle(request.app.state.services.redis)
    return await api_error(request, store_unavailable())


async def server_error(request: Request, exc: Exception) -> Response:
    if store.failed(exc):  # the store's client failing its own way (store.failed)
        return await store_error(request, exc)
    log.error("request failed: %s %s", request.method, request.url.path, exc_info=exc)
    return JSONResponse({"code": "server.error", "message": "the server failed; it changed "
                         "nothing"}, 500, headers=dict(NOSNIFF))  # outside the middleware
