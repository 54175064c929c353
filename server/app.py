"""The app factory: builds the services and wires the routes, explicitly."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route, WebSocketRoute

from . import openapi, rest, store, ws
from .accounts import Accounts
from .api import Services
from .config import Settings
from .errors import ApiError
from .events import Hub
from .metrics import Metrics
from .races import Races
from .sessions import Sessions

log = logging.getLogger("samedeal")


def build_services(settings: Settings) -> Services:
    redis = store.connect(settings.redis_url)
    races: Races | None = None

    async def on_race_change(rid: str, result: list[Any]) -> None:
        assert races is not None
        await races.on_change(rid, result)

    sessions = Sessions(redis, settings, on_race_change)
    races = Races(redis, settings, sessions)
    return Services(settings, redis, Accounts(redis), sessions, races, Hub(redis), Metrics())


def create_app(settings: Settings | None = None) -> Starlette:
    settings = settings or Settings.from_env()
    sv = build_services(settings)

    async def healthz(request: Request) -> Response:
        return JSONResponse({"status": "ok"})

    async def readyz(request: Request) -> Response:
        try:
            await asyncio.wait_for(sv.redis.ping(), 2.0)
        except Exception:
            return JSONResponse({"status": "store unreachable"}, 503)
        return JSONResponse({"status": "ready", "store": "redis" if settings.redis_url
                             else "embedded"})

    routes: list[Any] = [
        *rest.ROUTES,
        WebSocketRoute(f"{rest.API}/ws", ws.endpoint),
        Route("/healthz", healthz, methods=["GET"]),
        Route("/readyz", readyz, methods=["GET"]),
        Route("/metrics", sv.metrics.endpoint, methods=["GET"]),
    ]
    doc: dict[str, Any] = {}

    async def openapi_json(request: Request) -> Response:
        return JSONResponse(doc)

    routes.append(Route("/openapi.json", openapi_json, methods=["GET"]))
    doc.update(openapi.document(routes))

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await sv.hub.start()
        sweeper = asyncio.create_task(sv.races.sweep())
        try:
            yield
        finally:
            sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await sweeper
            await sv.hub.stop()
            await sv.redis.aclose()

    app = Starlette(routes=routes, lifespan=lifespan, exception_handlers={
        ApiError: api_error, HTTPException: http_error, Exception: server_error})
    app.state.services = sv
    return app


async def api_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ApiError)
    request.app.state.services.metrics.errors.labels(exc.code).inc()
    return rest.respond(request, exc.body(), exc.status)


async def http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    code = {404: "not_found", 405: "method.not_allowed"}.get(exc.status_code, "frame.malformed")
    return rest.respond(request, {"code": code, "message": str(exc.detail).lower()},
                        exc.status_code)


async def server_error(request: Request, exc: Exception) -> Response:
    log.error("request failed: %s %s", request.method, request.url.path, exc_info=exc)
    return JSONResponse({"code": "server.error", "message": "the server failed; it changed "
                         "nothing"}, 500)
