"""The OpenAPI document of the REST API, built from the routes and the message schema so it
cannot drift from them (a test checks that every route is described and nothing else)."""

from __future__ import annotations

from typing import Any

from starlette.routing import Route

from . import schema
from .errors import STATUS
from .rest import API

P = API
#: (method, path) -> (summary, request body message type or None, success status)
OPERATIONS: dict[tuple[str, str], tuple[str, str | None, int]] = {
    ("POST", f"{P}/players"): ("Register; the token is shown once", "player.register", 201),
    ("GET", f"{P}/players/me"): ("The caller's profile", None, 200),
    ("GET", f"{P}/players/{{player}}"): (
        "A player's public profile: statistics, streaks, ratings", None, 200),
    ("GET", f"{P}/players/{{player}}/stats"): (
        "Per rule set: played, won, best time, best and average score", None, 200),
    ("GET", f"{P}/games"): ("The catalog: every rule set and its layout", None, 200),
    ("GET", f"{P}/games/{{game}}/{{variant}}"): ("One rule set", None, 200),
    ("POST", f"{P}/solo"): ("Start a practice game", "solo.start", 201),
    ("GET", f"{P}/sessions/{{session}}"): ("Your view of a session, with its legal moves",
                                           None, 200),
    ("POST", f"{P}/sessions/{{session}}/moves"): ("Play a move", "move", 200),
    ("GET", f"{P}/sessions/{{session}}/moves"): (
        "The move list with server times (a ranked game's is public after it, no token "
        "needed)",
        None, 200),
    ("POST", f"{P}/sessions/{{session}}/undo"): ("Take back the last move", "undo", 200),
    ("POST", f"{P}/sessions/{{session}}/resign"): ("Give up the game", "resign", 200),
    ("POST", f"{P}/races"): ("Create a race; its seed's commitment is shown now",
                             "race.create", 201),
    ("GET", f"{P}/races"): ("The open races", None, 200),
    ("GET", f"{P}/races/{{race}}"): ("A race and every entrant's progress", None, 200),
    ("POST", f"{P}/races/{{race}}/join"): ("Take a seat", "race.join", 200),
    ("POST", f"{P}/races/{{race}}/leave"): ("Give up a seat before the start", "race.leave",
                                            200),
    ("POST", f"{P}/races/{{race}}/start"): ("Start now (the creator only)", "race.start", 200),
    ("GET", f"{P}/races/{{race}}/results"): ("The ranking and the revealed seed", None, 200),
    ("POST", f"{P}/matches"): ("Create a Bowling or called-card match; its seed's "
                               "commitment is shown now", "match.create", 201),
    ("GET", f"{P}/matches"): ("The open matches", None, 200),
    ("GET", f"{P}/matches/{{match}}"): ("A match: players, scores, whose turn; your own grid",
                                        "match.get", 200),
    ("POST", f"{P}/matches/{{match}}/join"): ("Take a seat", "match.join", 200),
    ("POST", f"{P}/matches/{{match}}/leave"): ("Give up a seat, or leave a running match for "
                                               "good", "match.leave", 200),
    ("POST", f"{P}/matches/{{match}}/start"): ("Start now (the creator only)", "match.start",
                                               200),
    ("POST", f"{P}/matches/{{match}}/moves"): ("Place your card", "match.move", 200),
    ("GET", f"{P}/matches/{{match}}/transcript"): (
        "Every placement, the seed and the results, public once the match is over", None, 200),
    ("POST", f"{P}/daily"): ("Start (or resume) today's ranked attempt, or replay unranked",
                             "daily.start", 201),
    ("GET", f"{P}/daily"): ("Today's daily deals and their commitments", "daily.get", 200),
    ("GET", f"{P}/daily/{{day}}"): ("A day's deals: commitments, seeds once revealed",
                                    "daily.get", 200),
    ("GET", f"{P}/boards/{{board:path}}"): ("A leaderboard page (docs/protocol.md)",
                                            "board.get", 200),
    ("GET", "/healthz"): ("The process is alive", None, 200),
    ("GET", "/readyz"): ("The process can reach its store", None, 200),
    ("GET", "/metrics"): ("Prometheus metrics", None, 200),
    ("GET", "/openapi.json"): ("This document", None, 200),
}
PUBLIC = {f"{P}/players", f"{P}/matches/{{match}}/transcript", "/healthz", "/readyz",
          "/metrics", "/openapi.json"}
ERROR = {"$ref": "#/components/schemas/Error"}


def path_schema(body: str | None, name: str) -> dict[str, Any]:
    """A path parameter's schema: its field's (the message's, or ``schema.PARAMS``), never
    empty (an empty path segment is another route)."""
    field = (schema.MESSAGES[body].get(name) if body else None) or schema.PARAMS.get(name)
    if field is None:
        return {"type": "string", "minLength": 1}
    out = field.json_schema()
    out["minLength"] = max(1, out.get("minLength", 0))
    return out


def document(routes: list[Any]) -> dict[str, Any]:
    paths: dict[str, dict[str, Any]] = {}
    for route in routes:
        if not isinstance(route, Route):
            continue
        for method in sorted((route.methods or set()) - {"HEAD"}):
            summary, body, ok = OPERATIONS[(method, route.path)]
            op: dict[str, Any] = {"summary": summary, "responses": {
                str(ok): {"description": "done"},
                "default": {"description": "an error with a stable code",
                            "content": {"application/json": {"schema": ERROR}}}}}
            params = [part[1:-1].partition(":")[0] for part in route.path.split("/")
                      if part.startswith("{")]
            op["parameters"] = [{"name": n, "in": "path", "required": True,
                                 "schema": path_schema(body, n)} for n in params]
            if body and method == "GET":  # the message's other fields come as the query
                query = schema.json_schema(body, tuple(params))
                op["parameters"] += [{"name": n, "in": "query", "schema": f,
                                      "required": n in query["required"]}
                                     for n, f in query["properties"].items()]
            elif body:
                body_schema = schema.json_schema(body, tuple(params))
                op["requestBody"] = {"required": bool(body_schema["required"]), "content": {
                    "application/json": {"schema": body_schema},
                    "application/msgpack": {"schema": body_schema}}}
            if route.path.startswith(API) and route.path not in PUBLIC:
                op["security"] = [{"bearer": []}]
            if not op["parameters"]:
                del op["parameters"]
            path = route.path.replace(":path}", "}")
            paths.setdefault(path, {})[method.lower()] = op
    return {
        "openapi": "3.1.0",
        "info": {"title": "SameDeal", "version": "1",
                 "description": "Competitive solitaire: REST for request/response; live play "
                                "on the WebSocket /api/v1/ws (see docs/protocol.md). Every "
                                "body and reply also comes as application/msgpack."},
        "paths": paths,
        "components": {
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
            "schemas": {"Error": {
                "type": "object", "required": ["code", "message"],
                "properties": {"code": {"type": "string", "examples": sorted(STATUS)},
                               "message": {"type": "string"}}}},
        },
    }
