"""Challenges by name: one player invites another to race them on a rule set; accepted, it is
a race on a new deal that only those two may join.

A challenge is pending until it is accepted, declined, withdrawn by its sender or past its
time (``challenge_ttl``). Each change is one Lua script, so Redis decides between two nodes
answering at once (an accept and a decline, or two accepts): the first answer is the outcome,
and the script publishes it. The events go on each player's own channel (``channel``), which
every socket of that player follows on every node (server/challenges/notices.py). Every key
shares one hash tag, so the scripts run on a Redis Cluster too. Nothing about a deal exists
before the accept: the race, its secret seed and its commitment are made then.

    sd:{challenges}:c:<C>          hash   from/to (id, name, kind), game, variant, state,
                                          created, expires_at, race, answered_at
    sd:{challenges}:out:<P>        zset   P's pending challenges ("<to>|<C>") by expiry
    sd:{challenges}:in:<P>         zset   pending challenges to P ("<from>|<C>") by expiry
    sd:{challenges}:to:<P>         zset   challenges to P, by creation (the last KEEP)
    sd:{challenges}:from:<P>       zset   challenges from P, by creation (the last KEEP)
    sd:{challenges}:due            zset   pending challenges by expiry (the sweep)
    sd:{challenges}:blocks:<P>     set    players P declined with ``block``
    sd:{challenges}:refusing       set    players who take no challenges at all
    sd:{challenges}:ev:<P>         channel P's challenge events
"""

from __future__ import annotations

import contextlib
from typing import Any, cast

import msgpack
from redis.asyncio import Redis

from .. import store
from ..accounts import Accounts, Player, kind_of, new_id
from ..config import Settings
from ..errors import ApiError
from ..races import Races
from ..races.record import Terms
from ..sessions import rules_for
from ..store import scripts
from ..transport.messages import ChallengeSend
from ..transport.reply_types import (
    Challenge,
    ChallengeSettingsReply,
    ChallengesReply,
    ChallengeState,
    Race,
)
from ..transport.reply_types import Player as PlayerPayload

TAG = "sd:{challenges}"
DUE = f"{TAG}:due"
REFUSING = f"{TAG}:refusing"
KEEP = 50  # challenges listed per player and direction
ANSWERED_KEPT_MS = 7 * 24 * 3600 * 1000  # an answered challenge is forgotten a week later
BLOCKS_KEPT_S = 30 * 24 * 3600  # a player's blocks last 30 days after their latest


def key(cid: str) -> str:
    return f"{TAG}:c:{cid}"


def channel(pid: str) -> str:
    """The player's own channel of challenge events."""
    return f"{TAG}:ev:{pid}"


def _out(pid: str) -> str:
    return f"{TAG}:out:{pid}"


def _to(pid: str) -> str:
    return f"{TAG}:to:{pid}"


def _from(pid: str) -> str:
    return f"{TAG}:from:{pid}"


def _in(pid: str) -> str:
    return f"{TAG}:in:{pid}"


def _blocks(pid: str) -> str:
    return f"{TAG}:blocks:{pid}"


# Send a challenge. KEYS: challenge, sender's pending, target's inbox, sender's sent, due,
# target's blocks, target's pending, the refusing; ARGV: from, to, most pending, most pending
# to one player, now, expires, channel, event, keep, most pending to the target (0: any),
# then the challenge's fields. Returns {1} or {0, why}; for a limit, {0, why, when the first
# of the challenges counted against it expires}.
SEND = scripts.PUBLISHES + """
if redis.call('SISMEMBER', KEYS[6], ARGV[1]) == 1 then return {0, 'challenge.refused'} end
if redis.call('SISMEMBER', KEYS[8], ARGV[2]) == 1 then return {0, 'challenge.closed'} end
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[5])
local out = redis.call('ZRANGE', KEYS[2], 0, -1)
if #out >= tonumber(ARGV[3]) then
  return {0, 'challenge.too_many', redis.call('ZRANGE', KEYS[2], 0, 0, 'WITHSCORES')[2]}
end
local same, first = 0, nil
for _, m in ipairs(out) do
  if string.sub(m, 1, #ARGV[2] + 1) == ARGV[2] .. '|' then
    same = same + 1
    first = first or redis.call('ZSCORE', KEYS[2], m)
  end
end
if same >= tonumber(ARGV[4]) then return {0, 'challenge.too_many_to', first} end
redis.call('ZREMRANGEBYSCORE', KEYS[7], '-inf', ARGV[5])
local most_in = tonumber(ARGV[10])
if most_in > 0 and redis.call('ZCARD', KEYS[7]) >= most_in then
  return {0, 'challenge.busy', redis.call('ZRANGE', KEYS[7], 0, 0, 'WITHSCORES')[2]}
end
redis.call('HSET', KEYS[1], unpack(ARGV, 11))
redis.call('ZADD', KEYS[2], ARGV[6], ARGV[2] .. '|' .. ARGV[12])
redis.call('ZADD', KEYS[7], ARGV[6], ARGV[1] .. '|' .. ARGV[12])
redis.call('PEXPIREAT', KEYS[7], ARGV[6])
redis.call('ZADD', KEYS[3], ARGV[5], ARGV[12])
redis.call('ZADD', KEYS[4], ARGV[5], ARGV[12])
local keep = tonumber(ARGV[9])
redis.call('ZREMRANGEBYRANK', KEYS[3], 0, -keep - 1)
redis.call('ZREMRANGEBYRANK', KEYS[4], 0, -keep - 1)
redis.call('ZADD', KEYS[5], ARGV[6], ARGV[12])
redis.call(PUBLISH, ARGV[7], ARGV[8])
return {1}
"""

# Answer a pending challenge. KEYS: challenge, sender's pending, due, target's pending;
# ARGV: outcome, caller
# ('' for the sweep), the caller's side ('to', 'from' or ''), race ('' but for an accept),
# now, the sender's channel, the target's channel, event, ms the answer is kept. Returns {1}
# or {0, why, state, race}.
ANSWER = scripts.PUBLISHES + """
local c = redis.call('HMGET', KEYS[1], 'state', 'expires_at', 'to', 'race', 'from')
if not c[1] then return {0, 'challenge.unknown', '', ''} end
if ARGV[3] == 'to' and c[3] ~= ARGV[2] then return {0, 'challenge.unknown', '', ''} end
if ARGV[3] == 'from' and c[5] ~= ARGV[2] then return {0, 'challenge.unknown', '', ''} end
if c[1] ~= 'pending' then return {0, 'challenge.answered', c[1], c[4] or ''} end
local due = tonumber(ARGV[5]) >= tonumber(c[2])
if ARGV[1] == 'expired' then
  if not due then return {0, 'challenge.pending', c[1], ''} end
elseif due then
  return {0, 'challenge.expired', c[1], ''}
end
redis.call('HSET', KEYS[1], 'state', ARGV[1], 'answered_at', ARGV[5])
if ARGV[4] ~= '' then redis.call('HSET', KEYS[1], 'race', ARGV[4]) end
local cid = string.match(KEYS[1], ':c:(.*)$')
redis.call('ZREM', KEYS[2], c[3] .. '|' .. cid)
redis.call('ZREM', KEYS[3], cid)
redis.call('ZREM', KEYS[4], c[5] .. '|' .. cid)
redis.call('PEXPIRE', KEYS[1], ARGV[9])
redis.call(PUBLISH, ARGV[6], ARGV[8])
redis.call(PUBLISH, ARGV[7], ARGV[8])
return {1}
"""

MESSAGES = {
    "challenge.unknown": "there is no such challenge to you (or from you)",
    "challenge.refused": "that player does not take challenges from you",
    "challenge.too_many": "you have too many challenges waiting for an answer: withdraw one "
                          "or wait for the answers",
    "challenge.too_many_to": "you already have a challenge waiting for that player's answer",
    "challenge.busy": "that player has as many challenges waiting for their answer as they may "
                      "be sent: try again once they answer one",
    "challenge.closed": "that player takes no challenges (they turned them off)",
    "challenge.expired": "that challenge has expired",
}


class Answered(ApiError):
    """``challenge.answered``: another answer came first (``race``: it was accepted)."""

    def __init__(self, state: str, race: str) -> None:
        super().__init__("challenge.answered", f"that challenge was already {state}")
        self.race = race


def _text(raw: dict[Any, Any]) -> dict[str, str]:
    return {store.text(k): store.text(v) for k, v in raw.items()}


def public(c: dict[str, str], cid: str) -> Challenge:
    """A challenge as both players see it: who, what rule set, its state; never a deal."""
    def who(side: str) -> PlayerPayload:
        return {"id": c[side], "name": c[f"{side}_name"], "kind": kind_of(c[f"{side}_kind"])}

    return {"challenge": cid, "from": who("from"), "to": who("to"), "game": c["game"],
            "variant": c["variant"], "name": c["name"],
            "state": cast(ChallengeState, c["state"]),  # as this module wrote it
            "created": int(c["created"]), "expires_at": int(c["expires_at"]),
            "race": c.get("race") or None,
            "answered_at": int(c["answered_at"]) if c.get("answered_at") else None}


class Challenges:
    def __init__(self, redis: Redis, settings: Settings, accounts: Accounts,
                 races: Races) -> None:
        self.redis = redis
        self.settings = settings
        self.accounts = accounts
        self.races = races
        self._send = store.script(redis, SEND)
        self._answer = store.script(redis, ANSWER)

    async def _target(self, player: Player, body: ChallengeSend) -> Player:
        """The challenged player: ``player`` (an id, as a board row shows it) or ``to`` (a
        name, case aside; it must name one player)."""
        if ("to" in body) == ("player" in body):
            raise ApiError("message.invalid", "name the player to challenge: 'to' (their "
                           "name) or 'player' (their id), one of the two")
        if "player" in body:
            target = await self.accounts.get(body["player"])
        else:
            if not body["to"].strip():
                raise ApiError("message.invalid", "'to' needs a visible character")
            found = await self.accounts.named(body["to"])
            if not found:
                raise ApiError("player.unknown", "there is no player by that name")
            if len(found) > 1:
                raise ApiError("player.ambiguous", "more than one player goes by that name: "
                               "challenge them from a board row or their profile instead")
            target = found[0]
        if target.id == player.id:
            raise ApiError("challenge.self", "you cannot challenge yourself")
        return target

    async def send(self, player: Player, body: ChallengeSend) -> Challenge:
        rules = rules_for(body["game"], body["variant"])
        if rules.players[0] > 1:
            raise ApiError("game.unknown", f"{rules.name} is not a one-player game")
        target = await self._target(player, body)
        cid = new_id("c")
        now = await store.now_ms(self.redis)
        expires = now + int(self.settings.challenge_ttl * 1000)
        fields = {"challenge": cid, "from": player.id, "from_name": player.name,
                  "from_kind": player.kind, "to": target.id, "to_name": target.name,
                  "to_kind": target.kind, "game": rules.id, "variant": rules.variant,
                  "name": rules.name, "state": "pending", "created": str(now),
                  "expires_at": str(expires)}
        out = public(fields, cid)
        event = msgpack.packb({"type": "challenge.received", **out})
        pairs = [v for kv in fields.items() for v in kv]
        # ARGV[11] and [12] are the first field's name and value: 'challenge', its id.
        got = await self._send(keys=[key(cid), _out(player.id), _to(target.id),
                                     _from(player.id), DUE, _blocks(target.id), _in(target.id),
                                     REFUSING],
                               args=[player.id, target.id, self.settings.challenges_pending,
                                     self.settings.challenges_per_player, now, expires,
                                     channel(target.id), event, KEEP,
                                     self.settings.challenges_incoming, *pairs])
        if got[0] != 1:
            why = store.text(got[1])
            if len(got) > 2:  # a limit: it passes as the challenges counted expire
                wait = max(0.001, (int(float(store.text(got[2]))) - now) / 1000)
                code = "challenge.busy" if why == "challenge.busy" else "challenge.too_many"
                raise ApiError(code, MESSAGES[why], retry_after=wait)
            raise ApiError(why, MESSAGES[why])
        return out

    async def refuse(self, player: Player, refuse: bool) -> ChallengeSettingsReply:
        """``player`` refuses every challenge from now on (a sender is told
        ``challenge.closed``), or takes them again. Those already pending stay to answer."""
        if refuse:
            await self.redis.sadd(REFUSING, player.id)
        else:
            await self.redis.srem(REFUSING, player.id)
        return {"refuse": refuse}

    async def get(self, cid: str) -> dict[str, str]:
        raw = await self.redis.hgetall(key(cid))
        if not raw:
            raise ApiError("challenge.unknown", MESSAGES["challenge.unknown"])
        return _text(raw)

    async def list(self, player: Player) -> ChallengesReply:
        """Challenges to and from ``player``: the pending first, then the newest; at most
        ``KEEP`` each way; and whether ``player`` refuses every challenge. One past its time
        shows as expired before the sweep marks it."""
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.zrevrange(_to(player.id), 0, KEEP - 1)
            pipe.zrevrange(_from(player.id), 0, KEEP - 1)
            pipe.sismember(REFUSING, player.id)
            ids_to, ids_from, refusing = await pipe.execute()
        ids = [store.text(i) for i in [*ids_to, *ids_from]]
        async with self.redis.pipeline(transaction=False) as pipe:
            for cid in ids:
                pipe.hgetall(key(cid))
            rows = await pipe.execute() if ids else []
        now = await store.now_ms(self.redis)
        out: list[Challenge] = []
        for cid, raw in zip(ids, rows, strict=True):
            if raw:
                c = public(_text(raw), cid)
                if c["state"] == "pending" and now >= c["expires_at"]:
                    c["state"] = "expired"
                out.append(c)
        out.sort(key=lambda c: (c["state"] != "pending", -c["created"]))
        return {"challenges": out, "refuse": bool(refusing)}

    async def _decide(self, c: dict[str, str], cid: str, outcome: str, by: Player | None,
                      side: str, race: str = "") -> Challenge:
        """Record ``outcome`` if the challenge is still pending; the challenge as it is then.
        Refused: ``challenge.answered`` (naming the outcome), ``challenge.expired``..."""
        now = await store.now_ms(self.redis)
        after = public({**c, "state": outcome, "answered_at": str(now),
                        **({"race": race} if race else {})}, cid)
        event = msgpack.packb({"type": "challenge.answered", **after})
        got = await self._answer(keys=[key(cid), _out(c["from"]), DUE, _in(c["to"])], args=[
            outcome, by.id if by else "", side, race, now, channel(c["from"]),
            channel(c["to"]), event, ANSWERED_KEPT_MS])
        if got[0] == 1:
            return after
        why, state, won_race = (store.text(x) for x in got[1:4])
        if why == "challenge.answered":
            raise Answered(state, won_race)
        raise ApiError(why, MESSAGES.get(why, "that challenge cannot be answered now"))

    async def accept(self, player: Player, cid: str) -> Race:
        """A race on a new deal that only the two may join, the acceptor seated in it (over
        the WebSocket their socket follows it); the challenger is told by
        ``challenge.answered`` and joins it. Accepting again gives the same race."""
        c = await self._mine(cid, player, "to")
        if c["state"] == "accepted":
            return await self._seat(player, c["race"])
        if c["state"] != "pending":
            raise Answered(c["state"], "")
        body: Terms = {"game": c["game"], "variant": c["variant"], "seats": 2}
        rid = await self.races.open_invited(player, body, [c["from"], c["to"]], cid)
        # Seated before the answer is published: the challenger joins a race with its
        # accepter in it, and a race that loses to another answer is dropped unseen.
        seated = await self.races.join(player, rid)
        try:
            await self._decide(c, cid, "accepted", player, "to", rid)
        except ApiError as e:
            await self.races.drop(rid)
            if isinstance(e, Answered) and e.race:  # accepted first elsewhere: that race
                return await self._seat(player, e.race)
            raise
        return seated

    async def _seat(self, player: Player, rid: str) -> Race:
        try:
            return await self.races.join(player, rid)
        except ApiError as e:
            if e.code != "race.joined":
                raise
            return await self.races.summary(rid)

    async def decline(self, player: Player, cid: str, block: bool = False) -> Challenge:
        c = await self._mine(cid, player, "to")
        out = await self._decide(c, cid, "declined", player, "to")
        if block:
            async with self.redis.pipeline(transaction=False) as pipe:
                pipe.sadd(_blocks(player.id), c["from"])
                pipe.expire(_blocks(player.id), BLOCKS_KEPT_S)
                await pipe.execute()
        return out

    async def withdraw(self, player: Player, cid: str) -> Challenge:
        c = await self._mine(cid, player, "from")
        return await self._decide(c, cid, "withdrawn", player, "from")

    async def _mine(self, cid: str, player: Player, side: str) -> dict[str, str]:
        """The challenge, if ``player`` is on its ``side``: anyone else is told there is none
        (a challenge is no one else's business)."""
        c = await self.get(cid)
        if c[side] != player.id:
            raise ApiError("challenge.unknown", MESSAGES["challenge.unknown"])
        return c

    async def expire_due(self) -> None:
        """Every node's sweep: challenges past their time are expired, both players told
        (the script decides, so two nodes sweeping at once tell them once)."""
        now = await store.now_ms(self.redis)
        for raw in await self.redis.zrangebyscore(DUE, 0, now, start=0, num=100):
            cid = store.text(raw)
            c = _text(await self.redis.hgetall(key(cid)))
            if not c or c.get("state") != "pending":
                await self.redis.zrem(DUE, cid)
                continue
            with contextlib.suppress(ApiError):  # answered meanwhile, or expired elsewhere
                await self._decide(c, cid, "expired", None, "")
