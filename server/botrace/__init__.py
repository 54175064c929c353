"""Racing a bot: a race on a fresh secret deal between a player and a server-run bot, made
and started in one request (``race.bot``), with its bounds, and the bot's task kept alive
across nodes.

- The bot is a real account (kind ``bot``), one per strength, made once for every node.
- Bounds against a hostile player: one live bot race per player (``race.bot_busy``),
  ``bot_races_per_hour`` in any hour (``race.bot_limit``, with ``retry_after``), both decided
  by one script; at most ``bot_tasks`` bots played by one node (``race.bot_capacity``).
- Each bot race's bot is played by one node at a time: the node holding the race's lease (a
  key with an expiry it refreshes while it plays). Every node's sweep takes over a bot race
  whose lease lapsed (SET NX: one node wins) and plays on from the session as stored.
- When the race ends (its recording, server/app.py), the player's live bot race is cleared.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from redis.asyncio import Redis

from .. import store
from ..accounts import Accounts, Player, new_id
from ..config import Settings
from ..errors import ApiError
from ..races import Races
from ..sessions import rules_for
from ..transport.messages import RaceBot
from ..transport.reply_types import Race, RaceResults
from .player import STRENGTHS, BotPlayer, Operations, Strength, strength_of

log = logging.getLogger("samedeal.bots")

#: The bot races whose bot may still have moves to make, by when they were made (ms).
BOT_RACES = "sd:races:bot"
HOUR_MS = 3_600_000


def live_key(pid: str) -> str:
    """The player's live bot race (its id; 'pending' while it is being made)."""
    return f"sd:{{{pid}}}:botrace"


def starts_key(pid: str) -> str:
    """When the player started their bot races within the last hour (a sorted set)."""
    return f"sd:{{{pid}}}:botraces"


def lease_key(rid: str) -> str:
    """The node playing the race's bot, until the key expires."""
    return f"sd:{{{rid}}}:botlease"


def account_key(strength: str) -> str:
    return f"sd:bot:{strength}"


# Admit a new bot race for a player. KEYS: live, starts; ARGV: now ms, window ms, limit,
# hold ms, a unique member. Refused: {0, code, detail}.
ADMIT = """
if redis.call('EXISTS', KEYS[1]) == 1 then return {0, 'race.bot_busy', ''} end
local now, window = tonumber(ARGV[1]), tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - window)
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[3]) then
  local oldest = redis.call('ZRANGE', KEYS[2], 0, 0, 'WITHSCORES')
  return {0, 'race.bot_limit', tostring(tonumber(oldest[2]) + window - now)}
end
redis.call('SET', KEYS[1], 'pending', 'PX', ARGV[4])
redis.call('ZADD', KEYS[2], now, ARGV[5])
redis.call('PEXPIRE', KEYS[2], window)
return {1, '', ''}
"""

# Delete KEYS[1] if it holds ARGV[1]; else refresh nothing. Returns 1 if it did.
DROP_IF = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""

# Keep the lease KEYS[1] for ARGV[2] more ms if this node (ARGV[1]) holds it.
HOLD = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
"""

MESSAGES = {
    "race.bot_busy": "you are already racing a bot: finish or resign that race first",
    "race.bot_limit": "you have raced bots as often as an hour allows: try again later",
    "race.bot_capacity": "this server is running as many bots as it can: try again in a "
                         "minute",
}


class BotRaces:
    def __init__(self, redis: Redis, settings: Settings, races: Races, accounts: Accounts,
                 ops: Operations) -> None:
        self.redis = redis
        self.settings = settings
        self.races = races
        self.accounts = accounts
        self.ops = ops
        self.node = new_id("n")  # this process, as a lease holder
        self.tasks: dict[str, asyncio.Task[None]] = {}
        self._admit = store.script(redis, ADMIT)
        self._bots: dict[str, Player] = {}
        self._drop_if = store.script(redis, DROP_IF)
        self._hold = store.script(redis, HOLD)

    @property
    def lease_ms(self) -> int:
        return int(self.settings.bot_lease * 1000)

    # ----- making one -------------------------------------------------------------------

    async def start(self, player: Player, body: RaceBot) -> Race:
        """A race between ``player`` and a bot of the strength asked for, started: the
        player's ``race.join`` reply (the summary, with ``joined_seq``)."""
        strength = strength_of(body.get("strength"))
        rules = rules_for(body["game"], body["variant"])
        if rules.players[0] > 1:
            raise ApiError("game.unknown", f"{rules.name} is not a one-player game")
        if len(self.tasks) >= self.settings.bot_tasks:
            raise ApiError("race.bot_capacity", MESSAGES["race.bot_capacity"], 30.0)
        for _ in range(2):
            now = await store.now_ms(self.redis)
            admitted = await self._admit(
                keys=[live_key(player.id), starts_key(player.id)],
                args=[now, HOUR_MS, self.settings.bot_races_per_hour, 60_000, new_id("b")])
            ok, why, detail = int(admitted[0]), store.text(admitted[1]), store.text(admitted[2])
            if why != "race.bot_busy" or not await self._over(player):
                break
        if not ok:
            retry = max(1.0, float(detail) / 1000) if why == "race.bot_limit" else None
            raise ApiError(why, MESSAGES[why], retry, race=await self._live(player, why))
        try:
            return await self._make(player, body, rules.id, rules.variant, strength)
        except BaseException:
            await self._drop_if(keys=[live_key(player.id)], args=["pending"])
            raise

    async def _live(self, player: Player, why: str) -> str | None:
        """For ``race.bot_busy``: the player's live bot race, once it is made (their request
        that made it may have failed before its reply, a node dying: this is how they find
        it)."""
        if why != "race.bot_busy":
            return None
        rid = store.text(await self.redis.get(live_key(player.id)))
        if not rid or rid == "pending" or not await self.redis.exists(store.race_keys(rid)[0]):
            return None
        return rid

    async def _over(self, player: Player) -> bool:
        """Whether the player's live bot race has ended, its end not yet recorded (which
        clears it): then it no longer counts, and is cleared now."""
        rid = store.text(await self.redis.get(live_key(player.id)))
        if not rid or rid == "pending":
            return False
        try:
            ended = bool((await self.races.summary(rid))["state"] == "ended")
        except ApiError:  # not made: being made while its lease is held, else never will be
            ended = not await self.redis.exists(lease_key(rid))
        if ended:
            await self._drop_if(keys=[live_key(player.id)], args=[rid])
        return ended

    async def _make(self, player: Player, body: RaceBot, game: str, variant: str,
                    strength: Strength) -> Race:
        """Every step names the race before it is made, so a node dying at any of them leaves
        either no race (the live bot race names a race that isn't, whose lease lapses: the
        next ``race.bot`` clears it) or one with both seats taken, its start due to the
        sweep and its bot taken over by any node once the lease lapses."""
        bot = await self.account(strength)
        countdown, limit = self.settings.bot_countdown, self.settings.bot_time_limit
        rid = new_id("r")
        ttl = (countdown + limit) * 1000 + 60_000  # ended by then, even if nothing clears it
        await self.redis.set(lease_key(rid), self.node, px=self.lease_ms)  # being made
        await self.redis.set(live_key(player.id), rid, px=ttl)
        try:
            await self.redis.zadd(BOT_RACES, {rid: await store.now_ms(self.redis)})
            joined = await self.races.open_with_bot(player, {
                "game": game, "variant": variant, "seats": 2, "start": "full",
                "time_limit": limit, "countdown": countdown}, bot, strength.name, rid)
        except BaseException:  # a race not made is let go at once; one made plays on
            with contextlib.suppress(Exception):  # (its lease lapses: any node takes it over)
                if not await self.redis.exists(store.race_keys(rid)[0]):
                    await self._drop_if(keys=[live_key(player.id)], args=[rid])
                    await self._drop_if(keys=[lease_key(rid)], args=[self.node])
            raise
        self._spawn(rid, bot, strength)
        return joined

    async def account(self, strength: Strength) -> Player:
        """The bot account of ``strength``: one for every node, made at first need. A new
        account is written before its id is published (SET NX), so no node ever reads an id
        without its account; the loser of a race to make it drops its own."""
        if strength.name in self._bots:
            return self._bots[strength.name]
        key = account_key(strength.name)
        found = await self.redis.get(key)
        if found is None:
            pid = new_id("p")
            await self.redis.hset(store.player_key(pid), mapping={
                "name": strength.title, "kind": "bot",
                "created": await store.now_ms(self.redis)})
            if await self.redis.set(key, pid, nx=True):
                found = pid.encode()
            else:
                await self.redis.delete(store.player_key(pid))
                found = await self.redis.get(key)
        bot = await self.accounts.get(store.text(found))
        self._bots[strength.name] = bot
        return bot

    # ----- playing ----------------------------------------------------------------------

    def _spawn(self, rid: str, bot: Player, strength: Strength) -> None:
        async def hold() -> bool:
            return bool(await self._hold(keys=[lease_key(rid)],
                                         args=[self.node, self.lease_ms]))

        task = asyncio.create_task(self._play(BotPlayer(self.settings, self.ops, rid, bot,
                                                        strength, hold)))
        self.tasks[rid] = task
        task.add_done_callback(lambda _: self.tasks.pop(rid, None))

    async def _play(self, player: BotPlayer) -> None:
        rid = player.rid
        while True:
            try:
                why = await player.run()
                break
            except asyncio.CancelledError:
                raise
            except Exception:  # Redis away a moment: played on (a lost lease stops it)
                log.exception("bot %s in race %s failed; playing on", player.bot.id, rid)
                await asyncio.sleep(1.0)
        if why != "lost":  # nothing left for any node to play
            await self.redis.zrem(BOT_RACES, rid)
            await self._drop_if(keys=[lease_key(rid)], args=[self.node])

    async def take_over(self) -> None:
        """The sweep's job: play every bot race whose lease lapsed (its node died), up to
        this node's cap; one node wins each (SET NX)."""
        for raw in await self.redis.zrange(BOT_RACES, 0, 199):
            rid = store.text(raw)
            if rid in self.tasks:
                continue
            if len(self.tasks) >= self.settings.bot_tasks:
                return
            if not await self.redis.set(lease_key(rid), self.node, nx=True, px=self.lease_ms):
                continue
            try:
                race = await self.races.summary(rid)
                bot = race["bot"]
                if race["state"] == "ended" or not bot:
                    raise ApiError("race.over", "")
                player = await self.accounts.get(bot["player"])
            except ApiError:  # gone or over: nothing to play
                await self.redis.zrem(BOT_RACES, rid)
                await self._drop_if(keys=[lease_key(rid)], args=[self.node])
                continue
            log.info("taking over the bot of race %s", rid)
            self._spawn(rid, player, STRENGTHS.get(bot["strength"], strength_of(None)))

    async def ended(self, results: RaceResults) -> None:
        """A bot race's recording (idempotent): its player may race a bot again."""
        rid, bot = results["race"], results["bot"]
        for e in results["ranking"]:
            if bot is None or e["player"] != bot["player"]:
                await self._drop_if(keys=[live_key(e["player"])], args=[rid])
        await self.redis.zrem(BOT_RACES, rid)

    async def stop(self) -> None:
        """At shutdown: stop playing and hand every lease back, so another node's sweep
        takes the bots over at once."""
        tasks = list(self.tasks.items())
        for _, task in tasks:
            task.cancel()
        if tasks:  # a while, not for ever: a cancellation in a store call can be swallowed
            await asyncio.wait([task for _, task in tasks], timeout=5)
        for rid, _ in tasks:
            with contextlib.suppress(Exception):
                await self._drop_if(keys=[lease_key(rid)], args=[self.node])
