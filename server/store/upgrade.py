"""``samedeal upgrade``: bring a store written by an earlier version up to this one's layout.

Each step is idempotent and safe beside running nodes, so a run stopped half way (a crash, a
lost connection) is finished by running it again, and a store already upgraded is left as it
is.

- **Race entries name their race.** A race entry's session hash (``sd:{R}:session:P``) has
  held its race's id (``race``) since the race's start wrote it there; an entry stored before
  that reads as a practice game (its analysis kept to its player, no race in its replies),
  since nothing reads a race out of an id. The step writes ``race`` from the key's hash tag,
  which the key layout (server/store/__init__.py) makes the race's id.
"""

from __future__ import annotations

from redis.asyncio import Redis

from . import close, connect, script, text

#: The race entries' hashes, on every shard.
ENTRIES = "sd:{*}:session:*"

# KEYS: a race entry's hash; ARGV: its race. Only a hash still there and without ``race``:
# one that expired or was removed since it was listed is not made again.
NAME_RACE = """
if redis.call('EXISTS', KEYS[1]) == 0 or redis.call('HEXISTS', KEYS[1], 'race') == 1 then
  return 0
end
redis.call('HSET', KEYS[1], 'race', ARGV[1])
return 1
"""


async def name_races(redis: Redis) -> int:
    """Write ``race`` into every race entry's hash that lacks it; how many did."""
    name = script(redis, NAME_RACE)
    named = 0
    async for raw in redis.scan_iter(match=ENTRIES, count=1000, _type="hash"):
        key = text(raw)
        race = key[key.index("{") + 1:key.index("}")]
        named += int(await name(keys=[key], args=[race]))
    return named


async def upgrade(url: str) -> dict[str, int]:
    """Every step on the store at ``url``: what each changed."""
    redis = connect(url)
    try:
        return {"race entries named": await name_races(redis)}
    finally:
        await close(redis)
