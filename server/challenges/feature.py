"""Challenges by name: one player asks another to race them; the answer makes a race only the
two may join. A socket is told of challenges to its player (server/challenges/notices.py)."""

from __future__ import annotations

from ..accounts import Player
from ..api import Services
from ..feature import Feature, Operation
from ..transport.messages import (
    ChallengeAccept,
    ChallengeDecline,
    ChallengeList,
    ChallengeRefuse,
    ChallengeSend,
    ChallengeWithdraw,
)
from ..transport.reply_types import Challenge, ChallengeSettingsReply, ChallengesReply, Race
from ..transport.rest import get, post
from . import notices

CHALLENGE_ERRORS = ("challenge.unknown", "challenge.answered", "challenge.expired")


async def challenge_send(sv: Services, player: Player, body: ChallengeSend) -> Challenge:
    return await sv.challenges.send(player, body)


async def challenge_list(sv: Services, player: Player, body: ChallengeList) -> ChallengesReply:
    return await sv.challenges.list(player)


async def challenge_accept(sv: Services, player: Player,
                           body: ChallengeAccept) -> Race:
    return await sv.challenges.accept(player, body["challenge"])


async def challenge_decline(sv: Services, player: Player,
                            body: ChallengeDecline) -> Challenge:
    return await sv.challenges.decline(player, body["challenge"], body.get("block", False))


async def challenge_withdraw(sv: Services, player: Player,
                             body: ChallengeWithdraw) -> Challenge:
    return await sv.challenges.withdraw(player, body["challenge"])


async def challenge_refuse(sv: Services, player: Player,
                           body: ChallengeRefuse) -> ChallengeSettingsReply:
    return await sv.challenges.refuse(player, body["refuse"])


FEATURE = Feature(
    "challenges",
    operations={
        "challenge.send": Operation(challenge_send, "challenge"),
        "challenge.list": Operation(challenge_list, "challenges"),
        "challenge.accept": Operation(challenge_accept, "race"),
        "challenge.decline": Operation(challenge_decline, "challenge"),
        "challenge.withdraw": Operation(challenge_withdraw, "challenge"),
        "challenge.refuse": Operation(challenge_refuse, "challenge.settings"),
    },
    endpoints=[
        post("/challenges", "challenge.send",
             "Challenge a player, by name or id, to race you on a rule set",
             ("game.unknown", "player.unknown", "player.ambiguous", "challenge.self",
              "challenge.too_many", "challenge.refused", "challenge.closed", "challenge.busy"),
             201),
        post("/challenges/refuse", "challenge.refuse",
             "Refuse every challenge (refuse: true), or take them again (false)", ()),
        get("/challenges", "challenge.list",
            "Challenges to you and from you: the pending first, then the newest"),
        post("/challenges/{challenge}/accept", "challenge.accept",
             "Accept a challenge to you: a race on a new deal only the two of you may join, "
             "you seated in it", CHALLENGE_ERRORS),
        post("/challenges/{challenge}/decline", "challenge.decline",
             "Decline a challenge to you", CHALLENGE_ERRORS),
        post("/challenges/{challenge}/withdraw", "challenge.withdraw",
             "Withdraw a challenge you sent, before its answer", CHALLENGE_ERRORS),
    ],
    # challenges that waited too long for an answer expired
    sweeps=lambda sv: [sv.challenges.expire_due],
    greeted=notices.follow,  # a socket hears of its player's challenges
    closed=notices.leave,
)
