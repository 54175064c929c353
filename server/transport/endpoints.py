"""One declaration per HTTP route: its Starlette route and its OpenAPI operation are both built
from it (server/transport/openapi.py), so the two cannot drift apart."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Literal

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from ..errors import STATUS

Handler = Callable[[Request], Awaitable[Response]]
#: "bearer": a token is required; "optional": a token widens what is shown; "none": public.
Auth = Literal["bearer", "optional", "none"]


@dataclass(frozen=True)
class Endpoint:
    method: str
    path: str
    handler: Handler
    summary: str
    #: The message type (server/transport/schema.py) the body is checked as; for a GET, its query.
    message: str | None = None
    status: int = 200
    #: The reply's JSON Schema (server/transport/replies.py); None: not JSON (metrics) or any
    #: object.
    reply: dict[str, Any] | None = None
    auth: Auth = "bearer"
    #: Codes this route may answer besides those every route of its shape may (bad input,
    #: a missing token: ``common_errors``).
    errors: tuple[str, ...] = ()
    #: The rules may refuse the request (422, with the engine's code: move.*, game.over...).
    refusable: bool = False
    media: str = "application/json"  # the reply's media type when it is not an API reply
    #: The operation the route runs (server/feature.py): its reply schema is that operation's,
    #: filled in when the features are registered.
    operation: str | None = None

    def __post_init__(self) -> None:
        unknown = [c for c in self.errors if c not in STATUS]
        if unknown:  # a misspelt code fails at import, not in a reader's hands
            raise ValueError(f"{self.method} {self.path}: unknown error codes {unknown}")

    @property
    def params(self) -> tuple[str, ...]:
        """The path's parameters, without their converters (``{board:path}`` is ``board``)."""
        return tuple(part[1:-1].partition(":")[0] for part in self.path.split("/")
                     if part.startswith("{"))

    def route(self) -> Route:
        return Route(self.path, self.handler, methods=[self.method])

    def common_errors(self) -> tuple[str, ...]:
        codes: list[str] = []
        if self.auth == "bearer":
            codes += ["auth.required", "auth.invalid"]
        elif self.auth == "optional":
            codes += ["auth.invalid"]
        if self.params or self.message or self.auth != "none":
            codes += ["message.invalid", "bad.text", "bad.too_long"]
        if self.message and self.method in ("POST", "PATCH"):
            codes += ["frame.malformed", "frame.too_big"]
        return tuple(codes)
