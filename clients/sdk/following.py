"""Reading what arrives: replies matched to their requests, pushed race and match events
deduplicated by their number across reconnects, and the state of every race and match the
client follows kept current from both. A v2 ack's changes are applied to the session the
client had, so callers see whole payloads, and a race ack stands for your own
``race.progress`` (v2 does not send it to you): the event is made from the ack."""

from __future__ import annotations

import asyncio
from typing import Any, cast

from websockets.asyncio.client import ClientConnection

from . import diffs
from .connection import Connection, _Lost
from .errors import ServerError, retry_after
from .messages import (
    BoardUpdate,
    Event,
    Match,
    Race,
    RaceEnded,
    RaceEvent,
    RaceResync,
    RaceStarted,
    Session,
    SessionPushed,
    event_from,
)
from .payloads import Yours
from .state import MatchState, RaceState


class Following(Connection):
    """Subscribing, and keeping what the client knows of races, matches and sessions."""

    async def _subscribe(self, kind: str, key: str, ident: str, after: int | None) -> None:
        """Subscribes have no reply on success: a ping after it answers once the server has
        handled it (one socket's messages are handled in order), and a refusal comes first.
        A subscribe refused for the rate is sent again at the turn the server gave it
        (subscribing twice is harmless: ``after`` and the event numbers keep it from repeating
        anything); the ping's own refusal says as much as its pong."""
        tries = 0
        turn = None
        while True:
            ws = await self._ready()
            msg: dict[str, Any] = {"type": kind, key: ident}
            if after:
                msg["after"] = after
            fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
            try:
                await self._send(ws, msg, fut, turn)
                await self._roundtrip({"type": "ping"}, ws)
            except _Lost:
                # The reconnect subscribes again by itself, from the last event seen.
                await self.wait_for(self._past(ws))
                await self._ready()
                return
            finally:
                if not fut.done():
                    fut.cancel()
            err = fut.result() if not fut.cancelled() else None
            if err is not None and err.get("code") == "rate.limited" and tries < self.rate_retries:
                tries += 1
                turn = self._back_off(retry_after(err, tries))
                state = (self._races if key == "race" else self._matches).get(ident)
                after = state.seq if state is not None else after
                continue
            if err is not None and err.get("type") == "error":
                (self._races if key == "race" else self._matches).pop(ident, None)
                raise ServerError(str(err["code"]), str(err.get("message", "")))
            return

    def _dispatch(self, msg: dict[str, Any], ws: ClientConnection | None = None) -> None:
        rid = msg.get("id")
        entry = self._pending.pop(rid, None) if isinstance(rid, int) else None
        kind = str(msg.get("type", ""))
        if entry is None and rid is None and kind == "error" and msg.get("code") == "rate.limited":
            # Refused before its id was read: it answers the oldest message still waiting on
            # this socket, since the server handles one socket's messages in order.
            oldest = next((k for k, (w, _) in self._pending.items() if w is ws), None)
            if oldest is not None:
                entry = self._pending.pop(oldest)
            self._rate = max(1.0, self._rate / 2) if self._rate else 0.0
        if entry is not None:
            msg = self._note_reply(kind, msg)
            if not entry[1].done():
                entry[1].set_result(msg)
            self._wake()
            return
        if kind in ("welcome", "pong"):
            return
        event = self._note_push(kind, msg)
        if event is not None:
            self._emit(event)

    def _note_session(self, raw: dict[str, Any]) -> Session:
        s = Session.from_raw(raw)
        if s.rev >= self._revs.get(s.id, -1):
            self._revs[s.id] = s.rev
            self._payloads.pop(s.id, None)
            self._payloads[s.id] = diffs.payload(raw)
            if len(self._payloads) > diffs.KEPT_SESSIONS:  # the oldest game goes
                del self._payloads[next(iter(self._payloads))]
        if s.race:
            rs = self._races.get(s.race)
            if rs is not None and (rs.session is None or s.rev >= rs.session.rev):
                rs.session = s
        return s

    def _note_ack(self, msg: dict[str, Any]) -> dict[str, Any]:
        """A v2 ack made whole from the session's payload before it; left as it came (with
        ``changes``) when the client did not have that revision (``Sessions`` reads the
        session then). In a race, your own progress event, made from the ack."""
        sid = str(msg.get("session"))
        known = self._payloads.get(sid)
        if "changes" in msg and known is not None and known["rev"] >= msg["rev"]:
            whole: dict[str, Any] | None = {**known, "type": "ack", "id": msg.get("id")}
        else:
            whole = diffs.apply(known, msg)
        if whole is not None:
            self._note_session(whole)
        # The race is the session's own word (its payload's ``race``), never cut from its id.
        seq, rid = msg.get("seq"), (whole or known or {}).get("race")
        rs = self._races.get(rid) if isinstance(rid, str) else next(
            (r for r in self._races.values() if r.session is not None and r.session.id == sid),
            None)
        if isinstance(seq, int) and rs is not None and seq > rs.seq and self.player:
            rs.seq = seq
            view = (whole or {}).get("view")
            if view is not None:  # else the session read next brings the numbers
                raw = {"type": "race.progress", "race": rs.id, "player": self.player["id"],
                       "moves": view["moves"], "score": view["score"],
                       "cards": msg.get("cards", 0), "status": view["status"], "seq": seq}
                self._emit(event_from(raw))
        return whole or msg

    def _note_reply(self, kind: str, msg: dict[str, Any]) -> dict[str, Any]:
        if kind == "ack":
            return self._note_ack(msg)
        if kind == "session":
            self._note_session(msg)
        elif kind == "race":
            rid = str(msg.get("race"))
            if "joined_seq" in msg:  # a seat taken: the server follows the race for us
                rs = self._races.setdefault(rid, RaceState(rid))
                rs.seq = max(rs.seq, int(msg["joined_seq"]))
            if rid in self._races:
                self._races[rid].summary = Race.from_raw(msg)
        elif kind == "match":
            mid = str(msg.get("match"))
            if "joined_seq" in msg:
                joined = self._matches.setdefault(mid, MatchState(mid))
                joined.seq = max(joined.seq, int(msg["joined_seq"]))
            ms = self._matches.get(mid)
            if ms is not None:
                ms.summary = Match.from_raw(msg)
                self._offer(ms, msg)
                if msg.get("state") == "ended" and ms.ended is None:  # its event was missed
                    ms.ended = {"type": "match.ended", "match": mid, "seed": msg.get("seed"),
                                "results": msg.get("results")}
        elif kind == "match.ack":
            acked = self._matches.get(str(msg.get("match")))
            if acked is not None:
                self._offer(acked, msg)
        return msg

    def _offer(self, ms: MatchState, msg: dict[str, Any]) -> None:
        """Keep the newest position offered to this player: a reply may reach us after an
        event that already moved the match on, so the match's event number decides."""
        you: Yours
        if isinstance(msg.get("you"), dict):
            you = msg["you"]
        elif "turn" in msg:  # played in turns: the shared view; legal moves on our turn only
            turn = msg["turn"]
            mine = (isinstance(turn, dict) and self.player is not None
                    and turn.get("player") == self.player["id"])
            you = cast(Yours, msg if mine else {**msg, "legal": []})  # an event, its shape
        elif "legal" in msg:
            you = cast(Yours, msg)
        else:
            return
        seq = you.get("as_of", msg.get("seq"))
        if not isinstance(seq, int) or seq >= ms.you_seq:
            ms.you = you
            ms.you_seq = seq if isinstance(seq, int) else ms.you_seq

    def _note_push(self, kind: str, msg: dict[str, Any]) -> Event | None:
        event = event_from(msg)
        if isinstance(event, RaceEvent):
            rs = self._races.get(event.race)
            if rs is not None:
                if event.seq is not None and event.seq <= rs.seq:
                    return None  # seen before a reconnect
                rs.seq = event.seq or rs.seq
                if isinstance(event, RaceEnded):
                    rs.ended = event
                if rs.summary is not None:  # keep the summary's state and times current
                    if isinstance(event, RaceStarted):
                        rs.summary.state = "running"
                        rs.summary.starts_at, rs.summary.ends_at = event.starts_at, event.ends_at
                    elif isinstance(event, RaceEnded):
                        rs.summary.state, rs.summary.seed = "ended", event.seed
        elif isinstance(event, RaceResync) and event.summary is not None:
            rs = self._races.get(event.summary.id)
            if rs is not None:
                rs.summary = event.summary  # replaces what was known, event number too
                rs.seq = event.summary.seq
        elif isinstance(event, SessionPushed):
            event.session = self._note_session(msg)
        elif kind == "board.update":
            watch = self._boards.get((str(msg.get("board")), str(msg.get("kind"))))
            if watch is not None:
                watch.offer(BoardUpdate.from_raw(msg))
            elif len(self._early_boards) < 64:  # before subscribe_board registered its watch
                self._early_boards[(str(msg.get("board")), str(msg.get("kind")))] = msg
        elif kind.startswith("match"):
            ms = self._matches.get(str(msg.get("match")))
            if ms is not None:
                seq = msg.get("seq")
                if isinstance(seq, int):
                    if seq <= ms.seq:
                        return None
                    ms.seq = seq
                self._offer(ms, msg)
                if kind == "match":
                    ms.summary = Match.from_raw(msg)
                    ms.seq = max(ms.seq, ms.summary.seq)
                elif kind == "match.ended":
                    ms.ended = msg
        return event
