"""Settings, from arguments or ``SAMEDEAL_*`` environment variables (see docs/operations)."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, fields

from engine import winnable
from engine.drand import KNOWN_CHAINS, QUICKNET_CHAIN


@dataclass(frozen=True)
class Settings:
    #: Redis URL; ``samedeal serve`` given none sets its private redis-server's here.
    redis_url: str = ""
    #: Connections each process keeps to Redis at most; more requests at once wait their turn.
    redis_connections: int = 64
    #: Seconds a Redis command (or a new connection to Redis) may take before it fails and
    #: the request answers ``store.unavailable``: redis-py's own default socket timeout, far
    #: above a healthy Redis's milliseconds and far below a client's patience (the SDK's 30 s).
    store_timeout: float = 5.0
    #: Acknowledge a move only once a replica has it too (``WAIT 1``, on the move's own
    #: connection), for up to ``durable_wait`` seconds; past that it is acknowledged anyway and
    #: logged. Off: Redis replicates asynchronously, so a primary lost with its machine (not a
    #: planned failover) can take its last acknowledged moves with it (docs/operations.md).
    durable: bool = False
    durable_wait: float = 1.0
    #: Largest inbound WebSocket message or REST body, in bytes.
    max_message_bytes: int = 16384
    #: Per-socket rate limit: messages per second, and the burst allowed above it.
    rate_per_second: float = 100.0
    rate_burst: int = 200
    #: Messages refused for the rate limit within 10 s before the socket is closed as a flood.
    flood_after: int = 400
    #: Per-account limit (server/accounts/limits.py): requests a second over REST and every socket
    #: of the account together, on every node (a token bucket in Redis), and the burst above it;
    #: a burst of 0 turns it off. One socket's own limit and the SDK's pace (90 a second) fit
    #: under it with REST calls besides; so do a few bots of one account at full speed.
    account_per_second: float = 150.0
    account_burst: int = 300
    #: Requests without a token (registration, the daily page, transcripts, a bad token) one
    #: client address may make a second on every node together, and the burst above it (a
    #: burst of 0 turns it off): a classroom behind one NAT loading its pages stays well under.
    origin_per_second: float = 20.0
    origin_burst: int = 100
    #: Authenticated sockets one account may have open at once on every node together (0: no
    #: cap); each is a lease of ``socket_lease`` seconds its node renews, so the sockets of a
    #: node that died stop counting within that.
    sockets_per_account: int = 10
    socket_lease: float = 60.0
    #: No account, origin or socket limit for a client on this machine (loopback), as
    #: ``signup_local_free`` for registrations: ``samedeal serve`` without a Redis URL turns it
    #: on, so a private server's owner and their bots meet only the per-socket limit.
    limits_local_free: bool = False
    #: New accounts one client address may make at once, and how many it earns back an hour
    #: (a token bucket in Redis shared by every node; a burst of 0 turns the limit off). Ten
    #: at once lets a family, a classroom behind one NAT or a bot author's test rig sign up
    #: together; six an hour (one every ten minutes) is more than anyone makes by hand,
    #: while a script gets 144 a day instead of thousands a second.
    signup_burst: int = 10
    signup_per_hour: float = 6.0
    #: No registration limit for a client on this machine (a loopback address): a private
    #: server's owner and their bots, examples and tests. ``samedeal serve`` without a Redis
    #: URL turns it on (its default there); a shared deployment, on a Redis URL, keeps it off.
    signup_local_free: bool = False
    #: Reverse proxies (CIDRs, comma-separated) whose X-Forwarded-For names the client; empty:
    #: the connection's own address is the client's, and the header is ignored.
    trusted_proxies: str = ""
    #: Race events kept for reconnecting clients; older gaps get a full resync.
    event_window: int = 256
    #: Seconds an ended race's or match's event list is kept for reconnecting clients; after
    #: that it expires and a client catching up gets the summary (results and seed stay).
    replay_window: float = 600.0
    #: WebSocket per-message compression: off, since every move's reply is small and its CPU
    #: cost is on the hot path (bench/); turn on where bandwidth costs more than CPU.
    ws_compression: bool = False
    #: Run on uvloop's event loop (a dependency, so installed with the server); off: asyncio's
    #: own loop, the same behaviour at more CPU per message.
    uvloop: bool = True
    #: Boards published live (server/boards/watch.py): the fewest seconds between two reads
    #: of a watched board by one process, and how many boards one socket may watch at once.
    board_interval: float = 1.0
    board_watches: int = 16
    #: Leagues (server/leagues/__init__.py): members per league, leagues per player (owned ones
    #: included), and tries at joining with a code per player: a burst, earned back per hour.
    league_members: int = 50
    league_max: int = 10
    league_join_burst: int = 10
    league_join_per_hour: float = 30.0
    #: Seconds an unauthenticated socket may stay open.
    hello_timeout: float = 10.0
    #: Game states in play each process keeps (server/sessions/cache.py): at most this many,
    #: none finished, none unmoved for ``cache_idle`` seconds.
    cache_size: int = 4000
    cache_idle: float = 600.0
    #: Seconds between sweeps for races past their time limit and daily attempts past the day,
    #: and between a node's heartbeats.
    sweep_interval: float = 1.0
    #: Seconds the work that follows a game's end (ending the race, recording results and
    #: ratings, the daily board) is left to the node that started it before any node's sweep
    #: takes it over (a crash or a Redis failure cut it short).
    followup_grace: float = 2.0
    #: Seconds between the turn timer's placements for a match player away past the grace.
    absent_pace: float = 1.0
    #: Seconds without a heartbeat (one every ``sweep_interval``) after which a node counts as
    #: dead, and the match players it counted present (their sockets died with it) as away.
    node_timeout: float = 15.0
    #: The daily deals' HMAC secret for days before the first chain of day secrets; empty: a
    #: random one made once and kept in Redis.
    daily_secret: str = ""
    #: Derive each day's deals from its link of a pre-committed chain of day secrets
    #: (docs/fairness.md). Off: every day keeps ``daily_secret``; for a test rig only.
    daily_chain: bool = True
    #: Days a new chain covers (a century); ``samedeal chain rotate`` makes the next one.
    daily_chain_length: int = 36500
    #: Seconds after a day's close (24:00 UTC) that its ranked attempts may still finish.
    daily_grace: int = 3600
    #: Rank a day's attempts by accounts made during that day too (the default: scouting is
    #: caught by the integrity signal and the review queue instead, docs/daily.md). Off: such
    #: an account plays the day's deals under the ranked rules but off the boards.
    daily_rank_new_accounts: bool = True
    #: Days a daily board is kept after its day; weeks a weekly board is kept after its week.
    daily_board_days: int = 30
    weekly_board_weeks: int = 12
    #: The public randomness beacon: base URL of a drand HTTP API (https://api.drand.sh);
    #: empty: no beacon, and a day's seeds come from the day secret alone.
    beacon_url: str = ""
    #: The drand chain (its hash), public key (hex), scheme and round timing (genesis, Unix
    #: seconds; period, seconds): quicknet's by default. A genesis or period of 0 is read from
    #: the beacon's /info; set, they must match it, as the hash, key and scheme must.
    beacon_chain: str = QUICKNET_CHAIN
    beacon_public_key: str = KNOWN_CHAINS[QUICKNET_CHAIN][1]
    beacon_scheme: str = KNOWN_CHAINS[QUICKNET_CHAIN][0]
    beacon_genesis: int = KNOWN_CHAINS[QUICKNET_CHAIN][2]
    beacon_period: int = KNOWN_CHAINS[QUICKNET_CHAIN][3]
    #: Seconds one request to the beacon may take (each is tried up to three times).
    beacon_timeout: float = 5.0
    #: Winnable daily deals (docs/fairness.md, "Winnable daily deals"): each won-or-lost rule
    #: set's deal is its day's first candidate seed the solver proves winnable. Off: every
    #: day deals candidate 0, as before the rule.
    daily_winnable: bool = False
    #: The rule's first day (YYYY-MM-DD); empty: the day after the first node starts with it
    #: (kept in Redis), so no day already open changes its commitments.
    daily_winnable_from: str = ""
    #: The published budget (positions the solver searches per candidate) and the cap on
    #: candidates: engine/winnable.py's values; other values are published with each day.
    winnable_positions: int = winnable.POSITIONS
    winnable_cap: int = winnable.CAP
    #: Worker processes judging candidates on each node (the solver is CPU-bound), and how
    #: many steps behind the game traffic they run for the CPU (``nice``).
    winnable_workers: int = 1
    winnable_nice: int = 10
    #: How many steps behind the game traffic a ranked daily attempt's integrity signal is
    #: worked out (a bounded search, in a worker process): a result waits a little.
    integrity_nice: int = 5
    #: Seconds a node's claim on a (day, rule set) lasts without renewal: how long the work
    #: of a node killed mid-way waits before another node takes it over.
    winnable_lease: float = 60.0
    #: Seconds the job rests when nothing is left to decide.
    winnable_interval: float = 30.0
    #: Only these rule sets (``game/variant``, comma-separated); empty: every one it covers.
    winnable_only: str = ""
    #: The operator's token for the admin REST calls (``POST /api/v1/arenas``...), sent as
    #: ``Authorization: Bearer <token>``; empty (the default): those calls are refused.
    admin_token: str = ""
    #: Arenas (server/arenas/__init__.py): seconds between a round's deal and its first move, and
    #: the most players one arena takes.
    arena_countdown: int = 3
    arena_players: int = 500
    #: The daily's live edition (server/daily/live.py, docs/daily.md "The live edition"): on
    #: or off; its deal instant each UTC day (``HH:MM`` or ``HH:MM:SS``); its rule sets
    #: (``featured``: those the catalog offers a newcomer first; ``all``: every one-player
    #: rule set; or ``game/variant``, comma-separated); and its
    #: play window in seconds (the race's time limit). The window ends by midnight UTC.
    daily_live: bool = True
    daily_live_at: str = "19:00"
    daily_live_rules: str = "featured"
    daily_live_window: int = 600
    #: The web client's folder, served at ``/``; empty: the installed ``clients/web``.
    web_root: str = ""
    #: Racing a bot (server/botrace/__init__.py): seconds a server-run bot thinks before a move (at
    #: random between the two; a third of that for an obvious one), the moves after which
    #: it resigns, the seconds of its node's lease (another node takes the bot over once it
    #: lapses), the bots one node plays at most, the bot races a player may start in any
    #: hour, and a bot race's countdown and time limit (seconds).
    bot_think_min: float = 0.8
    bot_think_max: float = 2.5
    bot_max_moves: int = 400
    bot_lease: float = 10.0
    bot_tasks: int = 100
    bot_races_per_hour: int = 10
    bot_countdown: int = 3
    bot_time_limit: int = 600
    #: Hints in practice (server/hints/__init__.py): processes the solver runs in (its search is CPU
    #: work, never done on the event loop), and what one search may spend: seconds and
    #: positions (whichever runs out first); past that the hint is a likely move instead.
    hint_workers: int = 1
    hint_seconds: float = 0.3
    hint_positions: int = 500000
    #: Hints one player may ask for at once, and how many they earn back a minute (a token
    #: bucket in Redis shared by every node; a burst of 0 turns the limit off).
    hint_burst: int = 10
    hint_per_minute: float = 30.0
    #: Seconds a solver line is kept for the session it was found for (its next moves are the
    #: next hints, from any node, without a new search).
    hint_line_ttl: float = 3600.0
    #: Post-game analysis (server/analyses/__init__.py): on or off; whether ended races' and
    #: matches' games and a revealed day's ranked attempts are judged before anyone asks (off:
    #: a game is judged when someone first asks for its analysis); the positions the solver may
    #: search from each position of a game, and in all for one game (the rest is "unknown");
    #: the processes that judge games (one game each at a time) and how many steps behind
    #: the game traffic they run for the CPU (behind the winnable daily deals' job, 10); and
    #: the seconds a node's claim on a game lasts without renewal (a node killed mid-way
    #: leaves it to another after that).
    analysis: bool = True
    analysis_ahead: bool = True
    analysis_positions: int = 50000
    analysis_total: int = 1000000
    analysis_workers: int = 1
    analysis_nice: int = 15
    analysis_lease: float = 30.0
    #: Challenges by name (server/challenges/__init__.py): seconds a challenge waits for its answer,
    #: how many unanswered challenges one player may have out at once, and how many of those
    #: to the same player.
    challenge_ttl: float = 600.0
    challenges_pending: int = 5
    challenges_per_player: int = 1
    #: Unanswered challenges one player may be sent at once (from as many senders); past it
    #: a sender is told ``challenge.busy`` (0: no cap).
    challenges_incoming: int = 5
    #: A test hook, never set in production: stop the process at a store call of a request
    #: (``<operation>:<N>:before|after``; server/crash_points.py). Empty: off.
    crash_at: str = ""

    @property
    def move_wait(self) -> float | None:
        """Seconds a move's script waits for a replica (``durable``), or ``None``."""
        return self.durable_wait if self.durable else None

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None, **overrides: object) -> Settings:
        env = dict(os.environ) if env is None else env
        values: dict[str, object] = {}
        for f in fields(cls):
            raw = env.get("SAMEDEAL_" + f.name.upper())
            if raw is not None:
                kind: Callable[[str], object] = type(f.default)  # every setting has one
                values[f.name] = (raw.strip().lower() in ("1", "true", "yes", "on")
                                  if kind is bool else kind(raw))
        values.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**values)  # type: ignore[arg-type]
