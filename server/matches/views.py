"""What each viewer may see of a match: the summary everyone sees (never a card, nor a
Bowling placement, not yet everyone's: server/matches/lanes.py for the turns), what is one player's
alone, and the transcript published at the end."""

from __future__ import annotations

from redis.asyncio import Redis

import engine
from engine.cards import TEXT

from .. import store
from ..accounts import kind_of
from ..errors import ApiError
from ..transport.reply_types import Match as MatchPayload
from ..transport.reply_types import MatchScore, MatchTranscript, TimedMove, TimedTurn, Yours
from . import lanes
from .record import TURNS, Match

NO_STARTER = -1


def summary(m: Match, viewer: str | None = None) -> MatchPayload:
    """What anyone may see of a match, and as ``you`` what only the viewer may: a called-card
    player's grid, the player's own lane on their turn."""
    meta = m.meta
    out: MatchPayload = {
        "match": m.id, "kind": m.kind, "game": meta["game"], "variant": meta["variant"],
        "name": m.rules.name, "seats": meta["seats"], "start": meta["start"],
        "turn_time": meta["turn_time"], "grace": meta["grace"], "creator": meta["creator"],
        "state": meta["state"], "commitment": meta["commitment"], "created": meta.get("created"),
        "started_at": meta.get("started_at"), "ended_at": meta.get("ended_at"),
        "seq": meta["seq"], "rev": meta["rev"], "rematch": meta.get("rematch"),
        "rematch_by": meta.get("rematch_by"), "rematch_of": meta.get("rematch_of"),
        "players": [{
            "player": p, "name": m.players[p]["name"], "kind": kind_of(m.players[p]["kind"]),
            "seat": i + 1 if meta["state"] != "open" else None,
            "away": m.away_since(p) is not None and meta["state"] == "running",
            "forfeited": m.left(p)} for i, p in enumerate(m.order)]}
    if meta["state"] == "open":
        return out
    if m.state is not None:
        out["view"], out["turn"] = lanes.public(m)
        out["rev"] = lanes.shared_rev(m)
        out["frames"] = lanes.frames(m)
        lane = lanes.own(m, viewer) if viewer else None
        if lane is not None:
            out["you"] = lane
        mine = lanes.own_frame(m, viewer) if viewer else None
        if mine is not None:
            out["own_frame"] = mine
    else:
        out["round"] = meta["round"]
        card = m.called()
        out["card"] = TEXT[card] if card is not None else None
        out["deadline"] = meta["deadline"] if card is not None else None
        out["scores"] = {p: line_scores(m, p) for p in m.order}
        if viewer in m.grids:
            out["you"] = own_grid(m, viewer)
    if meta["state"] == "ended":
        out["seed"] = meta["seed"]
        out["results"] = m.recorded_results()
    return out


def own(m: Match, pid: str) -> Yours | None:
    """What only this player may see: a called-card player's grid, or their own lane on
    their turn; ``None`` when there is nothing of theirs to show."""
    if m.meta["state"] == "open":
        return None
    if m.state is not None:
        return lanes.own(m, pid)
    return own_grid(m, pid) if pid in m.grids else None


def starter(m: Match) -> int:
    """The card after the last one called, once the match is over: a common starter for the
    games that score with one (Cribbage Square), ignored by the others; before the end none
    (the next card is not shown before everyone has placed)."""
    if m.meta["state"] != "ended":
        return NO_STARTER
    return int(m.calls[m.meta["round"]])


def line_scores(m: Match, pid: str) -> MatchScore:
    """A player's running score line by line, as everyone sees it."""
    st = m.grids[pid]
    score, info = m.called_form.scored(st, starter(m))
    return {"score": score, "lines": info["lines"], "placed": len(st.history),
            "done": pid in m.meta["full"], "waiting": pid in m.awaited()}


def own_grid(m: Match, pid: str) -> Yours:
    """A called-card player's own grid. Their state has already turned up the next card
    once they placed this one; it stays hidden until everyone has placed."""
    st = m.grids[pid]
    view = st.view()
    waiting = pid in m.awaited()
    s = m.rules.pile_names[m.rules.stock_pile]
    view["piles"][s] = {"down": len(st.piles[m.rules.stock_pile]) - int(waiting),
                        "up": [TEXT[st.piles[m.rules.stock_pile][-1]]] if waiting else []}
    view["score"], view["info"] = m.called_form.scored(st, starter(m))
    if m.running:
        view["status"] = "finished" if pid in m.meta["full"] else "playing"
    legal = [engine.move_text(m.rules, mv) for mv in st.legal_moves()] if waiting else []
    return {"view": view, "legal": legal, "waiting": waiting, "as_of": m.meta["seq"]}


async def transcript(redis: Redis, m: Match) -> MatchTranscript:
    """Every placement with its server time, the seed and the results: public once the
    match is over, so anyone can replay it on the engine."""
    meta = m.meta
    started, ended = meta["started_at"], meta["ended_at"]
    if meta["state"] != "ended" or started is None or ended is None:
        raise ApiError("match.not_over", "the transcript is published when the match ends")
    moves: list[TimedTurn] | dict[str, list[TimedMove]]
    if m.kind == TURNS:
        moves = []
        for e in await redis.lrange(store.match_moves(m.id), 0, -1):
            t, who, text = store.text(e).split(" ", 2)
            moves.append({"t": int(t), "bowler": int(who) + 1,
                          "player": m.order[int(who)], "move": text})
    else:
        async with redis.pipeline(transaction=False) as pipe:
            for p in m.order:
                pipe.lrange(store.match_moves(m.id, p), 0, -1)
            lists = await pipe.execute()
        moves = {p: [{"t": int(t), "move": text} for t, _, text in
                     (store.text(e).partition(" ") for e in entries)]
                 for p, entries in zip(m.order, lists, strict=True)}
    return {"kind": m.kind, "game": meta["game"], "variant": meta["variant"],
            "seed": meta["seed"], "commitment": meta["commitment"], "started_at": started,
            "ended_at": ended, "match": m.id,
            "order": [{"player": p, "name": m.players[p]["name"],
                       "kind": kind_of(m.players[p]["kind"])} for p in m.order],
            "results": m.recorded_results(), "moves": moves}
