"""Leagues: private groups with an invite code, and their boards (server/leagues/boards.py)."""

from __future__ import annotations

from ..accounts import Player
from ..api import Services
from ..feature import Feature, Operation
from ..transport.messages import (
    LeagueCode,
    LeagueCreate,
    LeagueGet,
    LeagueJoin,
    LeagueLeave,
    LeagueList,
    LeagueRemove,
)
from ..transport.reply_types import League, LeagueLeftReply, LeaguesReply
from ..transport.rest import get, post

LEAGUE_ERRORS = ("league.unknown",)


async def league_create(sv: Services, player: Player, body: LeagueCreate) -> League:
    return await sv.leagues.create(player.id, body["name"])


async def league_join(sv: Services, player: Player, body: LeagueJoin) -> League:
    return await sv.leagues.join(player.id, body["code"])


async def league_leave(sv: Services, player: Player, body: LeagueLeave) -> LeagueLeftReply:
    return await sv.leagues.leave(player.id, body["league"])


async def league_remove(sv: Services, player: Player, body: LeagueRemove) -> League:
    return await sv.leagues.remove(player.id, body["league"], body["player"])


async def league_code(sv: Services, player: Player, body: LeagueCode) -> League:
    return await sv.leagues.recode(player.id, body["league"])


async def league_get(sv: Services, player: Player, body: LeagueGet) -> League:
    return await sv.leagues.summary(player.id, body["league"])


async def league_list(sv: Services, player: Player, body: LeagueList) -> LeaguesReply:
    return {"leagues": await sv.leagues.mine(player.id)}


FEATURE = Feature(
    "leagues",
    operations={
        "league.create": Operation(league_create, "league"),
        "league.join": Operation(league_join, "league"),
        "league.leave": Operation(league_leave, "league.left"),
        "league.remove": Operation(league_remove, "league"),
        "league.code": Operation(league_code, "league"),
        "league.get": Operation(league_get, "league"),
        "league.list": Operation(league_list, "leagues"),
    },
    endpoints=[
        post("/leagues", "league.create", "Create a league; you own it and see its invite "
             "code", ("league.too_many",), 201),
        get("/leagues", "league.list", "The leagues you are in"),
        post("/leagues/join", "league.join", "Join a league with its invite code",
             ("league.unknown", "league.joined", "league.full", "league.too_many",
              "rate.limited")),
        get("/leagues/{league}", "league.get",
            "A league you are in: its name, owner, members and invite code", LEAGUE_ERRORS),
        post("/leagues/{league}/leave", "league.leave",
             "Leave a league (its owner leaving closes it)", LEAGUE_ERRORS),
        post("/leagues/{league}/remove", "league.remove", "Remove a member (the owner only)",
             (*LEAGUE_ERRORS, "league.not_owner", "league.not_member")),
        post("/leagues/{league}/code", "league.code",
             "A new invite code (the owner only); the old one stops working",
             (*LEAGUE_ERRORS, "league.not_owner")),
    ],
)
