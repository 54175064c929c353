"""The SDK's exceptions. A refusal by the server keeps the server's stable code, so a caller
can branch on ``e.code`` while people read ``e.message``."""

from __future__ import annotations


class SdkError(Exception):
    """Base of every exception the SDK raises on its own account."""


class ServerError(SdkError):
    """The server refused a request: ``code`` is its stable dotted code (``build.tableau``,
    ``race.full``, ``auth.invalid``; docs/protocol.md#errors), ``message`` its sentence,
    ``status`` the HTTP status when the request went over REST, ``retry_after`` the seconds
    to wait before trying again when the refusal says so (``rate.limited``)."""

    def __init__(self, code: str, message: str, status: int | None = None,
                 retry_after: float | None = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.status = status
        self.retry_after = retry_after


def retry_after(reply: dict[str, object], tries: int) -> float:
    """How long to wait before sending a rate-limited message again: the server's
    ``retry_after`` when it gives one (a number of seconds), else a doubling backoff."""
    wait = reply.get("retry_after")
    if isinstance(wait, int | float) and not isinstance(wait, bool) and 0 <= wait <= 3600:
        return float(wait)
    return 0.05 * 2.0**tries


class ConnectionLost(SdkError):
    """The connection dropped and the SDK could not tell, or could not restore, the outcome:
    a request that may have been applied is never sent twice, so it surfaces here instead."""


class ProtocolError(SdkError):
    """The server sent something the documented protocol does not allow."""
