"""Errors every client sees: a stable dotted code, a sentence, and an HTTP status for REST.

The codes are listed in docs/protocol.md; the engine's refusal codes (``move.*``,
``game.over``, ``undo.*``...) pass through unchanged.
"""

from __future__ import annotations

STATUS = {
    "frame.malformed": 400,
    "frame.too_big": 413,
    "message.unknown_type": 400,
    "message.invalid": 400,
    "bad.text": 400,
    "bad.too_long": 400,
    "auth.required": 401,
    "auth.invalid": 401,
    "game.unknown": 404,
    "player.unknown": 404,
    "session.unknown": 404,
    "session.not_yours": 403,
    "session.hidden": 403,
    "race.unknown": 404,
    "race.full": 409,
    "race.not_open": 409,
    "race.joined": 409,
    "race.not_entrant": 403,
    "race.not_creator": 403,
    "race.not_invited": 403,
    "race.too_few": 409,
    "race.not_started": 409,
    "race.over": 409,
    "race.not_over": 409,
    "race.bot_busy": 409,
    "race.bot_limit": 429,
    "race.bot_capacity": 503,
    "race.bot_rematch": 409,
    "bot.unknown_strength": 400,
    "match.unknown": 404,
    "match.game": 422,
    "match.full": 409,
    "match.not_open": 409,
    "match.joined": 409,
    "match.not_player": 403,
    "match.not_creator": 403,
    "match.not_invited": 403,
    "match.too_few": 409,
    "match.not_running": 409,
    "match.left": 409,
    "match.wait": 409,
    "match.done": 409,
    "match.not_over": 409,
    "daily.not_open": 409,
    "daily.closed": 409,
    "daily.played": 409,
    "review.unknown": 404,
    "review.decided": 409,
    "daily.not_revealed": 409,
    "daily.waiting": 503,
    "board.unknown": 404,
    "ghost.unknown": 404,
    "ghost.closed": 409,
    "ghost.entered": 409,
    "board.absent": 404,
    "board.too_many": 409,
    "league.unknown": 404,
    "league.not_member": 404,
    "league.not_owner": 403,
    "league.joined": 409,
    "league.full": 409,
    "league.too_many": 409,
    "arena.unknown": 404,
    "arena.not_running": 409,
    "arena.not_player": 403,
    "arena.full": 409,
    "arena.started": 409,
    "daily_live.off": 404,
    "daily_live.not_live": 404,
    "daily_live.started": 409,
    "daily_live.not_player": 403,
    "arena.forbidden": 403,
    "conflict": 409,
    "rate.limited": 429,
    "hint.not_allowed": 403,
    "analysis.not_over": 409,
    "analysis.match": 422,
    "analysis.off": 404,
    "rate.flood": 429,
    "not_found": 404,
    "method.not_allowed": 405,
    "server.error": 500,
    "store.unavailable": 503,
    "server.restarting": 503,
    # challenges (server/challenges/__init__.py)
    "player.ambiguous": 409,
    "challenge.unknown": 404,
    "challenge.self": 400,
    "challenge.too_many": 429,
    "challenge.refused": 403,
    "challenge.closed": 403,
    "challenge.busy": 409,
    "challenge.answered": 409,
    "challenge.expired": 409,
}

#: Any other code is a rule refusal from the engine: the request was understood and refused.
REFUSED = 422


class ApiError(Exception):
    """A refusal: its stable ``code``, a sentence for the player, and what else helps the
    client act on it (``retry_after`` seconds for one that passes with time; ``fields`` such
    as ``limit``, which limit refused, ``rev``, a session's revision now, ``race``, the race
    a ``race.bot_busy`` player is in; ``None`` ones left out), all in the error reply."""

    def __init__(self, code: str, message: str, retry_after: float | None = None,
                 **fields: str | int | None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.retry_after = retry_after
        self.fields = {k: v for k, v in fields.items() if v is not None}

    @property
    def status(self) -> int:
        return STATUS.get(self.code, REFUSED)

    def body(self) -> dict[str, str | float]:
        out: dict[str, str | float] = {"code": self.code, "message": self.message}
        if self.retry_after is not None:
            out["retry_after"] = self.retry_after
        out.update(self.fields)
        return out


def store_unavailable() -> ApiError:
    """Redis could not be reached (it is restarting, or the network failed): the client may
    retry. A change whose reply was lost may have been applied, so it is not said otherwise."""
    return ApiError("store.unavailable", "the game store is unreachable for a moment: try "
                    "again (read the game first: a change sent just now may have been applied)")
