"""The SDK's exceptions. A refusal by the server keeps the server's stable code, so a caller
can branch on ``e.code`` while people read ``e.message``."""

from __future__ import annotations


class SdkError(Exception):
    """Base of every exception the SDK raises on its own account."""


class ServerError(SdkError):
    """The server refused a request: ``code`` is its stable dotted code (``build.tableau``,
    ``race.full``, ``auth.invalid``; docs/protocol.md#errors), ``message`` its sentence,
    ``status`` the HTTP status when the request went over REST."""

    def __init__(self, code: str, message: str, status: int | None = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.status = status


class ConnectionLost(SdkError):
    """The connection dropped and the SDK could not tell, or could not restore, the outcome:
    a request that may have been applied is never sent twice, so it surfaces here instead."""


class ProtocolError(SdkError):
    """The server sent something the documented protocol does not allow."""
