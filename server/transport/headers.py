"""Security headers: ``nosniff`` on every HTTP response, and for the web client's pages a
Content-Security-Policy that lets them run only the client's own scripts and styles, talk only
to this server (its WebSocket too) and never be framed.

A player's name is the one thing other players control that every page shows; the pages put it
in as text, and this policy is the second line: a name that did slip into markup could neither
run a script nor load one from elsewhere.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from starlette.datastructures import Headers, MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

NOSNIFF = [("X-Content-Type-Options", "nosniff")]
#: a Host header fit to name in the policy: a name or address and a port, nothing else
HOST = re.compile(r"^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$")

Extra = Callable[[Scope], Iterable[tuple[str, str]]]


def page_policy(host: str | None) -> str:
    """The pages' policy. ``'self'`` covers the same origin's WebSocket in current browsers;
    the host's own ``ws:``/``wss:`` addresses say it again for older ones."""
    connect = "'self'"
    if host and HOST.match(host):
        connect += f" ws://{host} wss://{host}"
    return "; ".join([
        "default-src 'self'", "script-src 'self'", "style-src 'self'",
        "img-src 'self' data:", f"connect-src {connect}", "object-src 'none'",
        "base-uri 'self'", "form-action 'self'", "frame-ancestors 'none'"])


def page_headers(scope: Scope) -> list[tuple[str, str]]:
    """What the web client's responses carry: the policy, nosniff, and X-Frame-Options for
    browsers that know no ``frame-ancestors``."""
    return [("Content-Security-Policy", page_policy(Headers(scope=scope).get("host"))),
            ("X-Frame-Options", "DENY"), *NOSNIFF]


def api_headers(scope: Scope) -> list[tuple[str, str]]:
    return NOSNIFF


class WithHeaders:
    """Wraps an ASGI app (or, as a middleware, the whole server): its HTTP responses get
    ``extra``'s headers, unless the app set one of them itself."""

    def __init__(self, app: ASGIApp, extra: Extra = api_headers) -> None:
        self.app = app
        self.extra = extra

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        extra = list(self.extra(scope))

        async def send_with(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in extra:
                    if name not in headers:
                        headers[name] = value
            await send(message)

        await self.app(scope, receive, send_with)
