"""The Redis connection (one Redis, or a Redis Cluster) and the key layout; the scripts that
change several keys at once are in server/store/scripts.py.

Keys carry a hash tag (``{...}``) so that everything one session or one race changes
together lives on one Redis Cluster shard and one Lua script can change it atomically:

    sd:player:{P}                 hash   name, kind, created
    sd:token:<sha256 of token>    string player id
    sd:{S}:session                hash   a solo session (S is its id)
    sd:{S}:moves                  list   "<server ms> <move>" per move
    sd:{S}:undos                  string a bit per revision, set where it was an undo
    sd:{R}:race                   hash   a race: rules, seats, state, seed, seq, results
    sd:{R}:entrants               hash   player id -> display name
    sd:{R}:session:<player>       hash   that entrant's session (id "R.<player>")
    sd:{R}:moves:<player>         list
    sd:{R}:undos:<player>         string
    sd:{R}:events                 list   "<seq>\\n<msgpack event>", the last few
    sd:{R}:ev                     channel the same entries, live
    sd:races:open, sd:races:running   sorted sets (by creation, by time limit)
    sd:{dYYYYMMDD-G-V-P}:session  hash   a ranked daily attempt (one id per player, day, rules)
    sd:daily:inflight             sorted set   ranked attempts not yet on the boards, by deadline
    sd:daily:secret               string the daily HMAC secret, when no setting gives one
                                         (days before the first chain)
    sd:{daily}:chains             list   the public chain history: JSON records
                                         (server/daily/chain.py)
    sd:{daily}:chain:roots        hash   chain anchor -> root secret (never published)
    sd:daily:beacon:<day>         string the day's beacon round (JSON), or "none", set NX
    sd:daily:reveal:<day>         string when the day's reveal was recorded (ms), set NX
    sd:{board:NAME}:rank, :entries    a leaderboard: sorted set + details (server/boards/)
    sd:{M}:match                  hash   a match: rules, seats, timers, state, seed, seq, rev,
                                         round counters, per player seat:/here:/away:/out:/full:
    sd:{M}:players                hash   player id -> {"name", "kind"}
    sd:{M}:moves                  list   Bowling: "<server ms> <bowler index> <move>|forfeit"
    sd:{M}:moves:<player>         list   called-card: "<server ms> <move>" per placed card
    sd:{M}:events, sd:{M}:ev      the match's events, as a race's
    sd:matches:open, sd:matches:due   sorted sets (by creation; by the next timer's deadline)
    sd:{due}                      sorted set   follow-ups still to do (of games that ended or
                                         may be ending; a running race's end at its time
                                         limit), by when any node may take one over
    sd:{due}:expected             hash   follow-up -> its latest expectation's stamp
                                         (server/followups.py)
    sd:nodes, sd:node:{N}:here    live nodes; a node's ledger of match presence

No script touches a key outside its game's hash tag (the global sets are written by single
commands, the due set by its own scripts), so every script runs on a Redis Cluster.
"""

from __future__ import annotations

import contextlib
from typing import Any
from urllib.parse import unquote, urlsplit

from redis.asyncio import BlockingConnectionPool, Redis
from redis.asyncio.cluster import ClusterNode, RedisCluster
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from . import link, scripts
from .durable import durably as durably  # re-exported: the `durable` setting's exchange
from .link import Client
from .link import call as call  # re-exported: services reach Redis through store
from .shard_links import ClusterClient, ShardScript, as_unavailable

#: The URL schemes of a Redis Cluster's seed nodes (docs/operations.md).
CLUSTER_SCHEMES = {"redis-cluster": False, "rediss-cluster": True}


def sharded(redis: Any) -> bool:
    """Whether ``redis`` is a Redis Cluster's client: events go by SPUBLISH and SSUBSCRIBE to
    the shard that owns the race, and scripts over a link per primary
    (server/store/shard_links.py)."""
    return isinstance(redis, RedisCluster)


def script(redis: Redis, lua: str) -> Any:
    """A script bound to ``redis``: over the link on one Redis (server/store/link.py); on a Redis
    Cluster over the link to the primary that owns its keys, with redis-py's cluster client
    for redirections (server/store/shard_links.py), and SPUBLISH for its events."""
    if sharded(redis):
        return ShardScript(redis, scripts.sharded(lua))  # type: ignore[arg-type]
    return link.script(redis, lua)


def cluster(url: str, connections: int, timeout: float) -> RedisCluster:
    """redis-py's cluster client for ``redis-cluster://[user:password@]host:port,host:port``
    (``rediss-cluster://`` for TLS): any of the seed nodes will do, the rest is discovered."""
    parts = urlsplit(url)
    seeds = []
    for seed in parts.netloc.rpartition("@")[2].split(","):
        host, _, port = seed.rpartition(":")
        if not host or not port.isdigit():
            raise ValueError(f"a cluster seed node must be host:port, not {seed!r}")
        seeds.append(ClusterNode(host, int(port)))
    return ClusterClient(store_timeout=timeout, startup_nodes=seeds,
                         ssl=CLUSTER_SCHEMES[parts.scheme],
                         username=unquote(parts.username) if parts.username else None,
                         password=unquote(parts.password) if parts.password else None,
                         max_connections=connections, socket_timeout=timeout,
                         socket_connect_timeout=timeout, decode_responses=False)


def connect(url: str, connections: int = 64, timeout: float = 5.0) -> Redis:
    """The Redis at ``url`` (``redis://``, ``rediss://`` or ``unix://``), or the Redis
    Cluster whose seed nodes ``redis-cluster://`` names (``cluster``).

    At most ``connections`` to Redis at once; a request that finds them all busy waits for
    one (up to 10 s) rather than failing, so a burst of moves queues instead of erroring.
    Scripts and single commands on the hot paths go over the client's ``link`` instead
    (server/store/link.py). Every command, and every new connection, gets ``timeout`` seconds
    (the ``store_timeout`` setting) before it fails with redis-py's ``TimeoutError``.

    There is no store without a URL: ``samedeal serve`` given none runs a redis-server of its
    own and passes its URL (server/store/own_redis.py)."""
    if urlsplit(url).scheme in CLUSTER_SCHEMES:
        return cluster(url, connections, timeout)  # type: ignore[return-value]
    if url:
        pool = BlockingConnectionPool.from_url(url, max_connections=connections, timeout=10,
                                               health_check_interval=30,
                                               socket_timeout=timeout,
                                               socket_connect_timeout=timeout)
        return Client(connection_pool=pool, store_timeout=timeout, decode_responses=False)
    raise ValueError("no Redis URL: give one (redis://host:6379/0), or let `samedeal serve` "
                     "run its own redis-server")


async def close(redis: Redis) -> None:
    """The end of a process's store: redis-py's connections and the links beside them. (A
    cluster client's ``aclose`` leaves its links: redis-py calls it mid-failover too.)"""
    if isinstance(redis, ClusterClient):
        await redis.close_links()
    await redis.aclose()


def failed(e: BaseException) -> bool:
    """Whether ``e`` means the store cannot serve now (the request answers
    ``store.unavailable``): redis-py's ``ConnectionError`` and ``TimeoutError``, and what its
    clients raise instead while a connection is closed under a command or a cluster's shard
    changes hands (``shard_links.as_unavailable``)."""
    return isinstance(e, RedisConnectionError | RedisTimeoutError) or (
        as_unavailable(e) is not None)


async def forget_idle(redis: Redis) -> None:
    """After a failed connection: Redis restarted or the network broke, so the idle pooled
    connections are likely dead too. Drop them, so the next requests connect afresh instead of
    each failing once. (redis-py's cluster client renews its own after a failure.)"""
    if sharded(redis):
        return
    with contextlib.suppress(Exception):
        await redis.connection_pool.disconnect(inuse_connections=False)


def player_key(pid: str) -> str:
    return f"sd:player:{{{pid}}}"


def token_key(digest: str) -> str:
    return f"sd:token:{digest}"


def session_keys(sid: str) -> tuple[str, str]:
    """The hash and the move list of session ``sid``: ``S`` (solo) or ``R.P`` (race entry)."""
    race, _, player = sid.partition(".")
    if player:
        return f"sd:{{{race}}}:session:{player}", f"sd:{{{race}}}:moves:{player}"
    return f"sd:{{{sid}}}:session", f"sd:{{{sid}}}:moves"


def analysis_key(sid: str) -> str:
    """Where session ``sid``'s analysis is kept (server/analyses/__init__.py): beside its moves."""
    race, _, player = sid.partition(".")
    return f"sd:{{{race}}}:analysis:{player}" if player else f"sd:{{{sid}}}:analysis"


def undos_key(sid: str) -> str:
    """Which of session ``sid``'s revisions were undos: a bit per revision (an undo takes its
    entry off the move list, so the list alone can't say which revision made which entry)."""
    race, _, player = sid.partition(".")
    return f"sd:{{{race}}}:undos:{player}" if player else f"sd:{{{sid}}}:undos"


def race_keys(rid: str) -> tuple[str, str, str]:
    """The race hash, its entrants and its event list."""
    return f"sd:{{{rid}}}:race", f"sd:{{{rid}}}:entrants", f"sd:{{{rid}}}:events"


def match_keys(mid: str) -> tuple[str, str, str]:
    """The match hash, its players and its event list."""
    return f"sd:{{{mid}}}:match", f"sd:{{{mid}}}:players", f"sd:{{{mid}}}:events"


def match_moves(mid: str, pid: str = "") -> str:
    """Bowling's one move list, or a called-card player's own."""
    return f"sd:{{{mid}}}:moves:{pid}" if pid else f"sd:{{{mid}}}:moves"


def channel(eid: str) -> str:
    """The pub/sub channel of a race's or a match's events."""
    return f"sd:{{{eid}}}:ev"


def events_key(eid: str) -> str:
    return f"sd:{{{eid}}}:events"


OPEN_RACES, RUNNING_RACES = "sd:races:open", "sd:races:running"
OPEN_MATCHES, DUE_MATCHES = "sd:matches:open", "sd:matches:due"
#: Live nodes by their last heartbeat (ms), and what each counts present in matches.
NODES = "sd:nodes"


def node_presence(node: str) -> str:
    """A node's ledger of match presence it counted: ``<match> <player>`` -> sockets."""
    return f"sd:node:{{{node}}}:here"
DAILY_INFLIGHT, DAILY_SECRET = "sd:daily:inflight", "sd:daily:secret"


def daily_beacon(day: str) -> str:
    return f"sd:daily:beacon:{day}"


def daily_reveal(day: str) -> str:
    return f"sd:daily:reveal:{day}"

#: Follow-ups of ended games still to do: ``race:R``, ``match:M``, ``daily:S``, ``game:S``,
#: scored by the server ms from which any node's sweep may take one over; and each one's
#: latest expectation's stamp (server/followups.py). One hash tag: one shard, one script.
DUE, EXPECTED = "sd:{due}", "sd:{due}:expected"


def follow_up(kind: str, ident: str) -> str:
    """The due-set member for the work that follows the end of a game of ``kind``."""
    return f"{kind}:{ident}"


async def now_ms(redis: Redis) -> int:
    """The store's clock: every node stamps races and moves with the same one."""
    seconds, micros = await redis.time()
    return int(seconds) * 1000 + int(micros) // 1000


def text(value: object) -> str:
    """A value as Redis returned it (bytes here; ``None`` for a missing one), as text."""
    if value is None:
        return ""
    return value.decode() if isinstance(value, bytes) else str(value)


def number(fields: dict[str, str], name: str) -> int | None:
    """Field ``name`` of a hash read as text, as a number; ``None`` where it is absent or
    empty (a time not reached yet)."""
    value = fields.get(name)
    return int(value) if value else None
