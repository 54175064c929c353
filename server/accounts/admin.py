"""The operator's REST calls (``POST /api/v1/arenas``...): allowed only with the admin token
(the ``admin_token`` setting, off by default), sent as ``Authorization: Bearer <token>`` and
compared in constant time, so its bytes cannot be guessed one by one from response times."""

from __future__ import annotations

import hashlib
import hmac

from ..config import Settings
from ..errors import ApiError


def check(settings: Settings, authorization: str) -> None:
    """``arena.forbidden`` unless ``authorization`` carries the admin token."""
    if not settings.admin_token:
        raise ApiError("arena.forbidden", "this server takes no operator calls: its admin "
                       "token is not set (docs/operations.md)")
    given = authorization[7:].strip() if authorization.lower().startswith("bearer ") else ""
    # Hashed first: the comparison takes the same time whatever the lengths.
    if not hmac.compare_digest(hashlib.sha256(given.encode("utf-8", "surrogatepass")).digest(),
                               hashlib.sha256(settings.admin_token.encode()).digest()):
        raise ApiError("arena.forbidden", "that call is the operator's: send the admin token "
                       "as Authorization: Bearer <token>")
