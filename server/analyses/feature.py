"""Post-game analysis: who may see a finished game's analysis, and when (the rule of its
transcript); the job that computes it is server/analyses/__init__.py."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from ..accounts import Player
from ..api import Services, moves_public
from ..ended import MatchEnded, RaceEnded
from ..errors import ApiError
from ..feature import Feature, Listen, Operation
from ..transport.endpoints import Endpoint
from ..transport.messages import AnalysisGet
from ..transport.reply_types import AnalysisReply
from ..transport.rest import API, caller, query_body, respond, services


async def analysis(sv: Services, player: Player | None, sid: str) -> AnalysisReply:
    """A finished game's analysis, to whoever may see its moves in full: a ranked game's to
    anyone once its transcript is public and to no one before, its own player included (no
    search reaches a game still being raced), a match player's game (a called-card grid, a
    bowler's frames) likewise once the match is over; a practice game's to its player once it
    is over. ``pending`` while it is being computed."""
    meta = await sv.analyses.meta(sid)
    race = "" if meta.get("match") else meta.get("race", "")
    mine = player is not None and meta["player"] == player.id
    over = meta["status"] != "playing"
    if meta.get("match"):  # a match player's game: public once the match is over
        if meta["ended"] != "1":
            raise ApiError("match.not_over", "a match's analysis is published when it ends, "
                           "as its transcript is")
    elif race or (meta.get("daily") and meta.get("competitive") == "1"):
        if not await moves_public(sv, race, meta.get("daily", "")):
            if mine and not over:
                raise not_over()
            raise ApiError("session.hidden" if player else "auth.required",
                           "a ranked game's analysis is public after the race or the day, "
                           "as its moves are")
    elif player is None:
        raise ApiError("auth.required", "send your bearer token (register at /api/v1/players)")
    elif not mine:
        raise ApiError("session.not_yours", "that session is another player's")
    elif not over:
        raise not_over()
    return await sv.analyses.serve(sid, int(meta["rev"]))


def not_over() -> ApiError:
    return ApiError("analysis.not_over", "the game is still being played: its analysis "
                    "comes once it is over")


async def analysis_get(sv: Services, player: Player, body: AnalysisGet) -> AnalysisReply:
    return await analysis(sv, player, body["session"])


async def analysis_of(request: Request) -> Response:
    """A finished game's analysis: public like its moves once they are, no token needed."""
    who = await caller(request) if "authorization" in request.headers else None
    body = query_body(request, "analysis.get", "session")
    return respond(request, await analysis(services(request), who, body["session"]))


async def stop(sv: Services) -> None:
    sv.analyses.close()  # an analysis under way stopped with its pool


async def race_ended(sv: Services, ended: RaceEnded) -> None:
    await sv.analyses.race_ended(ended.results)


async def match_ended(sv: Services, ended: MatchEnded) -> None:
    await sv.analyses.match_ended(ended.results)


FEATURE = Feature(
    "analyses",
    operations={"analysis.get": Operation(analysis_get, "analysis")},
    endpoints=[
        Endpoint("GET", f"{API}/sessions/{{session}}/analysis", analysis_of,
                 "A finished game's analysis: each position along the line played, won "
                 "(moves to go), proved lost or unknown, and its turning point; pending while "
                 "it is computed (public when its moves are)", "analysis.get", auth="optional",
                 errors=("auth.required", "session.unknown", "session.hidden",
                         "session.not_yours", "analysis.not_over", "analysis.match",
                         "analysis.off", "match.not_over"), operation="analysis.get"),
    ],
    # the ranked attempts on a day's boards queued once it is revealed
    sweeps=lambda sv: [sv.analyses.queue_revealed],
    loops=lambda sv, stop: [sv.analyses.run(stop)],
    stop=stop,
    # every race's and match's games queued (a ghost race's runs served once it reveals)
    listens=[Listen(RaceEnded, race_ended), Listen(MatchEnded, match_ended)],
)
