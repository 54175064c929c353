"""Games of your own: practice sessions and the moves, undos and resignations of any
session, each safe to retry after a dropped connection."""

from __future__ import annotations

from typing import Any

from .connection import Connection, Recover
from .errors import ConnectionLost
from .messages import Session


class Sessions(Connection):
    """Practice and the moves of any session (practice, race or daily)."""

    # ----- practice and sessions -----------------------------------------------------------

    async def solo(self, game: str, variant: str, seed: str | None = None) -> Session:
        """A practice game; ``seed`` (hex) makes it reproducible, else the server picks one."""
        msg: dict[str, Any] = {"type": "solo.start", "game": game, "variant": variant}
        if seed is not None:
            msg["seed"] = seed
        return Session.from_raw(await self.request(msg))

    async def session(self, session_id: str) -> Session:
        """Your current view of a session (practice, race or daily)."""
        return Session.from_raw(await self.request({"type": "session.get",
                                                    "session": session_id}))

    def _changed_since(self, session_id: str, rev: int | None, what: str) -> Recover:
        """After a drop: the change was applied if the session moved past ``rev``; if not,
        send it again. Without a known ``rev`` the outcome cannot be told."""
        async def recover() -> dict[str, Any] | None:
            now = await self.session(session_id)
            if rev is None:
                raise ConnectionLost(f"the connection dropped before the reply to {what}; the "
                                     f"session is now at revision {now.rev}")
            return now.raw if now.rev > rev else None
        return recover

    async def move(self, session_id: str, move: str | dict[str, Any], rev: int | None = None
                   ) -> Session:
        """Play a move (text notation or its JSON object). With ``rev`` a stale position gets
        ``conflict``. If the connection drops before the ack, the session is read again after
        the reconnect: if its revision moved on, the move was applied and that is returned;
        otherwise the move is sent again. It is never applied twice."""
        known = rev if rev is not None else self._revs.get(session_id)
        msg: dict[str, Any] = {"type": "move", "session": session_id, "move": move}
        if rev is not None:
            msg["rev"] = rev
        reply = await self.request(msg, self._changed_since(session_id, known, "move"))
        return await self._whole(reply)

    async def undo(self, session_id: str) -> Session:
        """Take back the last move (within the rules of the mode; ``undo.*`` codes)."""
        return await self._whole(await self.request(
            {"type": "undo", "session": session_id},
            self._changed_since(session_id, self._revs.get(session_id), "undo")))

    async def resign(self, session_id: str) -> Session:
        """End the game as lost."""
        return await self._whole(await self.request(
            {"type": "resign", "session": session_id},
            self._changed_since(session_id, self._revs.get(session_id), "resign")))

    async def _whole(self, ack: dict[str, Any]) -> Session:
        """The session after an ack: a v2 ack's changes are applied on arrival
        (``Following``); one whose previous revision this client never had (another tab
        moved meanwhile) is followed by a read of the session."""
        if "view" not in ack:
            return await self.session(str(ack["session"]))
        return Session.from_raw(ack)

