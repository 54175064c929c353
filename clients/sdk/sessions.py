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

    async def _change(self, msg: dict[str, Any], rev: int | None) -> Session:
        """Send a move, undo or resign. If the connection drops before the ack: sent with
        ``rev``, it is simply sent again, since the server answers a change made already as
        made (``repeated``) and anything else after ``rev`` as a ``conflict``; without, the
        session is read again, and a revision past the one this client last had counts as
        the change applied."""
        if rev is not None:  # the default recovery: sent again
            return await self._whole(await self.request({**msg, "rev": rev}))
        sid = str(msg["session"])
        recover = self._changed_since(sid, self._revs.get(sid), str(msg["type"]))
        return await self._whole(await self.request(msg, recover))

    async def move(self, session_id: str, move: str | dict[str, Any], rev: int | None = None
                   ) -> Session:
        """Play a move (text notation or its JSON object). With ``rev`` a stale position gets
        ``conflict``, and a drop before the ack is settled by sending it again (the server
        answers as made a move it has already). It is never applied twice."""
        return await self._change({"type": "move", "session": session_id, "move": move}, rev)

    async def undo(self, session_id: str, rev: int | None = None) -> Session:
        """Take back the last move (within the rules of the mode; ``undo.*`` codes). With
        ``rev``, as ``move``: never two undos for one."""
        return await self._change({"type": "undo", "session": session_id}, rev)

    async def resign(self, session_id: str, rev: int | None = None) -> Session:
        """End the game as lost; ``rev`` as for ``move``."""
        return await self._change({"type": "resign", "session": session_id}, rev)

    async def _whole(self, ack: dict[str, Any]) -> Session:
        """The session after an ack: a v2 ack's changes are applied on arrival
        (``Following``); one whose previous revision this client never had (another tab
        moved meanwhile) is followed by a read of the session."""
        if "view" not in ack:
            return await self.session(str(ack["session"]))
        return Session.from_raw(ack)

