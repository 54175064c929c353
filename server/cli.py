"""``samedeal serve``: a subcommand the engine's command finds through an entry point, so
the engine never imports the server."""

from __future__ import annotations

import argparse
import contextlib
import copy
import errno
import importlib.util
import logging
import os
import signal
import socket
import sys
from pathlib import Path
from typing import Any

from engine.cli import at_least

LOG_LEVELS = ("critical", "error", "warning", "info", "debug", "trace")  # uvicorn's
#: A stopping node's wait, after its drain, for the requests and sockets still running.
STOP_GRACE_SECONDS = 10


def port(text: str) -> int:
    """An argument type: a TCP port number."""
    if not text.isdigit() or not 1 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(f"a port is a number from 1 to 65535, not {text!r}")
    return int(text)


#: The Redis URL forms the server reads (server/store/__init__.py ``connect``).
URL_SCHEMES = ("redis", "rediss", "unix", "redis-cluster", "rediss-cluster")


def data_dir() -> str:
    """Where a private redis-server keeps its data unless ``--data-dir`` says otherwise."""
    return os.environ.get("SAMEDEAL_DATA_DIR", "./var/redis")


def redis_url(text: str) -> str:
    """An argument type: a Redis URL of a form the server reads, or "" for none."""
    scheme = text.split("://", 1)[0] if "://" in text else None
    if text and scheme not in URL_SCHEMES:
        raise argparse.ArgumentTypeError(
            "a Redis URL is redis://HOST:PORT/DB, rediss:// (TLS), unix:///PATH/redis.sock or "
            f"redis-cluster://HOST:PORT,HOST:PORT, not {text!r}")
    return text


def no_url(prog: str, what: str) -> int:
    """``prog`` given no Redis URL: say where ``what`` lives and the private one's URL."""
    sock = (Path(data_dir()) / "redis.sock").resolve()
    print(f"{prog}: give --redis-url (or SAMEDEAL_REDIS_URL): {what} live in the servers' "
          f"Redis; a server started without one (make serve) keeps them at unix://{sock}",
          file=sys.stderr)
    return 2


def add_commands(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("serve", help="run the SameDeal server",
                       description="Run the SameDeal server: REST, WebSocket and the web "
                       "client on one port. Every setting is in docs/operations.md.")
    p.add_argument("--host", default=os.environ.get("SAMEDEAL_HOST", "127.0.0.1"),
                   help="the address to listen on (default $SAMEDEAL_HOST or 127.0.0.1)")
    p.add_argument("--port", metavar="PORT", type=port,
                   default=os.environ.get("SAMEDEAL_PORT", "8000"),
                   help="the port to listen on (default $SAMEDEAL_PORT or 8000)")
    p.add_argument("--redis-url", metavar="URL", type=redis_url,
                   default=os.environ.get("SAMEDEAL_REDIS_URL", ""),
                   help="Redis to share state through (default $SAMEDEAL_REDIS_URL; none: a "
                        "private redis-server on --data-dir)")
    p.add_argument("--data-dir", metavar="DIR",
                   default=data_dir(),
                   help="without a Redis URL: where the private redis-server keeps the data "
                        "(default $SAMEDEAL_DATA_DIR or ./var/redis)")
    p.add_argument("--redis-server", metavar="PATH",
                   default=os.environ.get("SAMEDEAL_REDIS_SERVER", ""),
                   help="without a Redis URL: the redis-server to run (default "
                        "$SAMEDEAL_REDIS_SERVER, else the one on PATH, else /usr/bin's)")
    p.add_argument("--workers", metavar="N", type=at_least(1), default=1,
                   help="server processes (default 1), sharing the one Redis")
    p.add_argument("--log-level", default="info", choices=LOG_LEVELS, metavar="LEVEL",
                   help=f"how much the server logs: {', '.join(LOG_LEVELS)} (default info)")
    p.set_defaults(run=serve)

    m = sub.add_parser("moderate", help="the integrity signal and the review queue of daily "
                       "results (docs/daily.md)",
                       description="Moderate the daily boards from the servers' Redis "
                       "(docs/daily.md, docs/operations.md): daily lists a day's board by its "
                       "integrity signal, most suspicious first; queue lists the flagged "
                       "results waiting for review, with their evidence; clear puts one on the "
                       "boards as it would have gone; remove keeps it off.")
    what = m.add_subparsers(dest="what", required=True, metavar="daily|queue|clear|remove",
                            help="what to do")
    url = argparse.ArgumentParser(add_help=False)
    url.add_argument("--redis-url", metavar="URL", type=redis_url,
                     default=os.environ.get("SAMEDEAL_REDIS_URL", ""),
                     help="the servers' Redis (default $SAMEDEAL_REDIS_URL)")
    url.add_argument("--json", action="store_true",
                     help="one JSON object per entry (default: a table)")
    d = what.add_parser("daily", parents=[url], help="a day's board by its integrity signal",
                        description="A day's board, most suspicious first (! marks a "
                        "flagged entry).")
    d.add_argument("day", help="the day, YYYY-MM-DD")
    d.add_argument("game", help="the game, e.g. golf")
    d.add_argument("variant", help="the variant, e.g. easy")
    d.add_argument("--kind", choices=["human", "bot"], default="human",
                   help="which board: human or bot (default human)")
    what.add_parser("queue", parents=[url], help="the flagged results waiting for review",
                    description="The flagged results waiting for review, oldest first, "
                    "each with its evidence.")
    for verdict, said in (("clear", "put a held result on the boards as it would have gone"),
                          ("remove", "keep a held result off the boards for good")):
        v = what.add_parser(verdict, parents=[url], help=said,
                            description=f"{said[0].upper()}{said[1:]}.")
        v.add_argument("session", help="the attempt's session id, as the queue lists it")
    m.set_defaults(run=moderate)

    c = sub.add_parser("chain", help="the daily chain of day secrets: init, show, rotate "
                       "(docs/fairness.md)",
                       description="The daily deals' chains of day secrets, in the servers' "
                       "Redis (docs/fairness.md). init: make the first chain (from the next UTC "
                       "day, or --start); show: print the anchors and start days to publish; "
                       "rotate: make a new chain from a future day, a public, logged event.")
    c.add_argument("action", choices=["init", "show", "rotate"],
                   help="init, show or rotate")
    c.add_argument("--redis-url", metavar="URL", type=redis_url,
                   default=os.environ.get("SAMEDEAL_REDIS_URL", ""),
                   help="the servers' Redis (default $SAMEDEAL_REDIS_URL)")
    c.add_argument("--start", metavar="DAY",
                   help="init, rotate: the new chain's first day, YYYY-MM-DD, after today "
                   "(init's default: tomorrow, UTC)")
    c.add_argument("--reason", metavar="TEXT",
                   help="rotate: why, published in the chain history (required)")
    c.add_argument("--length", metavar="DAYS", type=at_least(1),
                   help="init, rotate: days the chain covers (default the "
                   "daily_chain_length setting, 36500)")
    c.add_argument("--json", action="store_true", help="show: the history as JSON")
    c.set_defaults(run=chain)

    a = sub.add_parser("arena", help="arenas: create, list, cancel (docs/operations.md)",
                       description="Arenas, straight in the servers' Redis (docs/operations.md):"
                       " create one (a rule set, a start, a duration, a deal interval, a "
                       "repeat), list the upcoming and running ones, cancel one.")
    a.add_argument("action", choices=["create", "list", "cancel"],
                   help="create, list or cancel")
    a.add_argument("what", nargs="*", metavar="ARG",
                   help="create: GAME VARIANT (e.g. klondike easy); cancel: the arena's id")
    a.add_argument("--start", default="now", metavar="WHEN",
                   help="create: now (default), +10m, or an ISO time (UTC unless it says)")
    a.add_argument("--duration", default="30m", metavar="SPAN",
                   help="create: how long, e.g. 30m (default), 1h, 90s")
    a.add_argument("--interval", default="5m", metavar="SPAN",
                   help="create: a new deal every SPAN (default 5m)")
    a.add_argument("--repeat", default="", metavar="SPAN",
                   help="create: the next occurrence starts SPAN after this one's start "
                   "(e.g. 1h); default none")
    a.add_argument("--name", default="", help="create: the arena's name (default the rule "
                   "set's)")
    a.add_argument("--redis-url", metavar="URL", type=redis_url,
                   default=os.environ.get("SAMEDEAL_REDIS_URL", ""),
                   help="the servers' Redis (default $SAMEDEAL_REDIS_URL)")
    a.add_argument("--json", action="store_true", help="the arenas as JSON")
    a.set_defaults(run=arena)

    u = sub.add_parser("upgrade", help="bring a store written by an earlier version up to "
                       "this one's layout (docs/operations.md)",
                       description="Bring the servers' Redis, written by an earlier version, "
                       "up to this one's layout (server/store/upgrade.py, docs/operations.md). "
                       "Safe beside running servers and to run again: a store already "
                       "upgraded is left as it is.")
    u.add_argument("--redis-url", metavar="URL", type=redis_url,
                   default=os.environ.get("SAMEDEAL_REDIS_URL", ""),
                   help="the servers' Redis (default $SAMEDEAL_REDIS_URL)")
    u.set_defaults(run=upgrade)


def serve(args: argparse.Namespace) -> int:
    """With a Redis URL, the server on it; without, on a private redis-server of its own
    (server/store/own_redis.py), started here: the process that lives as long as the server (with
    ``--workers``, uvicorn's supervisor), so it is never left behind. A port already taken is
    told before anything starts; SIGTERM is a requested stop, as Ctrl-C is: exit 0."""
    taken = unusable(args.host, args.port)
    if taken:
        print(f"samedeal serve: {taken}", file=sys.stderr)
        return 1
    if args.redis_url:
        signal.signal(signal.SIGTERM, signal.default_int_handler)  # SIGTERM as Ctrl-C
        with contextlib.suppress(KeyboardInterrupt):
            run_server(args, args.redis_url, args.redis_url)
        return 0
    from .store import own_redis

    try:
        exe = own_redis.find(args.redis_server)
        # SIGTERM as Ctrl-C: after uvicorn's graceful shutdown, ``running`` stops Redis too.
        signal.signal(signal.SIGTERM, signal.default_int_handler)
        # A private server: its owner's registrations and requests are not limited
        # (docs/operations.md).
        os.environ.setdefault("SAMEDEAL_SIGNUP_LOCAL_FREE", "true")
        os.environ.setdefault("SAMEDEAL_LIMITS_LOCAL_FREE", "true")
        with own_redis.running(args.data_dir, exe) as private:
            where = f"a private redis-server keeping its data in {Path(args.data_dir).resolve()}"
            with contextlib.suppress(KeyboardInterrupt):
                run_server(args, private.url, where)
            if private.died.is_set():
                print(f"samedeal serve: its redis-server stopped (see {private.log}), so the "
                      "server stopped too", file=sys.stderr)
                return 1
            return 0
    except own_redis.Refused as e:
        print(f"samedeal serve: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:  # a stop before uvicorn took over the signals
        return 0


def unusable(host: str, port: int) -> str:
    """Why the server could not listen on ``host:port`` (bound as uvicorn binds it), or ""."""
    try:
        with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind((host, port))
    except OSError as e:
        if e.errno == errno.EADDRINUSE:
            return (f"port {port} on {host} is taken (another server is on it): stop that "
                    "one, or choose another port with --port")
        return f"cannot listen on {host}:{port}: {e.strerror or e}"
    return ""


def event_loop(fast: bool) -> str:
    """uvicorn's event loop: uvloop when ``fast`` (the uvloop setting) and installed, else
    asyncio's own. Chosen here, never by uvicorn's "auto", so the setting decides and a
    missing wheel falls back to a server that works.

    The HTTP parser stays uvicorn's h11 whatever is installed (its "auto" would take
    httptools): httptools answers a request with a control character in a header (a hostile
    bearer token) with a plain-text 400 of its own, where the server's answer is its JSON
    error, ``bad.text``; and it would save nothing on a move, whose frames websockets' own
    parser reads once the socket is open."""
    if fast and importlib.util.find_spec("uvloop") is not None:
        return "uvloop"
    return "asyncio"


def run_server(args: argparse.Namespace, url: str, where: str) -> int:
    """uvicorn, every worker on ``url`` (passed on in SAMEDEAL_REDIS_URL)."""
    import uvicorn

    from .config import Settings

    os.environ["SAMEDEAL_REDIS_URL"] = url
    settings = Settings.from_env()
    loop = event_loop(settings.uvloop)
    print(f"SameDeal on http://{args.host}:{args.port}, state in {where} ({loop} event "
          "loop)", flush=True)
    uvicorn.run("server.app:create_app", factory=True, host=args.host, port=args.port,
                workers=args.workers, log_level=args.log_level,
                log_config=log_config(args.log_level), ws="websockets-sansio",
                loop=loop, http="h11",
                ws_max_size=settings.max_message_bytes * 4,
                ws_per_message_deflate=settings.ws_compression, lifespan="on",
                # After the drain, what still runs (a request stuck on a slow store) is
                # cancelled after this long: a stop never waits on it.
                timeout_graceful_shutdown=STOP_GRACE_SECONDS,
                # The client's address is the server's own business (``trusted_proxies``,
                # server/transport/rest.py client_address): uvicorn would believe X-Forwarded-For
                # from any local peer, letting a client pick its own registration bucket.
                proxy_headers=False)
    return 0


class OneLineStop(logging.Filter):
    """A stop says so once: uvicorn's steps of a graceful shutdown, but its last line
    ("Finished server process [PID]"), are left out."""

    STEPS = frozenset({"Shutting down", "Waiting for application shutdown.",
                       "Application shutdown complete."})

    def filter(self, record: logging.LogRecord) -> bool:
        return record.msg not in self.STEPS


def log_config(level: str) -> dict[str, Any]:
    """uvicorn's logging, a stop in one line (``OneLineStop``), and the server's own (the
    ``samedeal`` logger: the winnable-daily job's batches, take-overs, failures) through the
    same handler at the same level; left to Python's defaults it would show warnings alone,
    unprefixed."""
    from uvicorn.config import LOGGING_CONFIG

    config = copy.deepcopy(LOGGING_CONFIG)
    config["filters"] = {"one_line_stop": {"()": OneLineStop}}
    config["handlers"]["default"]["filters"] = ["one_line_stop"]
    config["loggers"]["samedeal"] = {"handlers": ["default"], "level": level.upper(),
                                     "propagate": False}
    return config


def moderate(args: argparse.Namespace) -> int:
    import asyncio

    from redis.exceptions import RedisError

    from .errors import ApiError
    from .fairplay.moderation import daily_by_signal, decide, queue, queue_table, table

    if not args.redis_url:
        return no_url("samedeal moderate", "the boards")
    try:
        if args.what == "daily":
            entries = asyncio.run(daily_by_signal(args.redis_url, args.day, args.game,
                                                  args.variant, args.kind))
            print(table(entries, args.json))
        elif args.what == "queue":
            print(queue_table(asyncio.run(queue(args.redis_url)), args.json))
        else:
            record = asyncio.run(decide(args.redis_url, args.session, args.what))
            print(queue_table([record], args.json))
    except (ValueError, ApiError) as e:
        print(f"samedeal moderate: {e}", file=sys.stderr)
        return 2
    except (RedisError, OSError) as e:  # no Redis there: as any command that cannot connect
        print(f"samedeal moderate: cannot read the boards from {args.redis_url}: {e}",
              file=sys.stderr)
        return 1
    return 0


def chain(args: argparse.Namespace) -> int:
    import asyncio
    import json

    from redis.exceptions import RedisError

    from .daily.chain import ChainRefused
    from .daily.chain_admin import run

    if not args.redis_url:
        return no_url("samedeal chain", "the chains")
    if args.action == "rotate" and not (args.start and args.reason):
        print("samedeal chain rotate: give --start DAY and --reason TEXT (a rotation is "
              "public)", file=sys.stderr)
        return 2
    try:
        history = asyncio.run(run(args.redis_url, args.action, args.start, args.reason,
                                  args.length))
    except (ValueError, ChainRefused) as e:
        print(f"samedeal chain {args.action}: {e}", file=sys.stderr)
        return 2 if not isinstance(e, ChainRefused) else 1
    except (RedisError, OSError) as e:
        print(f"samedeal chain: cannot reach {args.redis_url}: {e}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps([r.public() for r in history], indent=2))
    elif not history:
        print("no chain yet: `samedeal chain init` makes one (or a server, at first use)")
    for r in [] if args.json else history:
        print(f"anchor {r.anchor}  start {r.start}  length {r.length}  ({r.reason})")
    return 0


def arena(args: argparse.Namespace) -> int:
    import asyncio
    import json

    from redis.exceptions import RedisError

    from .arenas.admin import run
    from .errors import ApiError

    if not args.redis_url:
        return no_url("samedeal arena", "arenas")
    need = {"create": 2, "cancel": 1, "list": 0}[args.action]
    if len(args.what) != need:
        print(f"samedeal arena {args.action}: give "
              f"{['nothing more', 'the arena id', 'GAME VARIANT'][need]}", file=sys.stderr)
        return 2
    opts = {"duration": args.duration, "interval": args.interval, "repeat": args.repeat,
            "start": args.start, "name": args.name}
    if args.action == "create":
        opts |= {"game": args.what[0], "variant": args.what[1]}
    elif args.action == "cancel":
        opts["arena"] = args.what[0]
    try:
        arenas = asyncio.run(run(args.redis_url, args.action, **opts))
    except (ValueError, ApiError) as e:
        print(f"samedeal arena {args.action}: {e}", file=sys.stderr)
        return 2
    except (RedisError, OSError) as e:
        print(f"samedeal arena: cannot reach {args.redis_url}: {e}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(arenas, indent=2))
    for x in [] if args.json else arenas:
        print(f"{x['arena']}  {x['state']:9}  {x['name']} ({x['game']}/{x['variant']})  "
              f"every {x['interval']} s for {x['duration']} s, repeat {x['repeat']} s, "
              f"{len(x['players'])} players")
    if not arenas and not args.json:
        print("no upcoming or running arena")
    return 0


def upgrade(args: argparse.Namespace) -> int:
    import asyncio

    from redis.exceptions import RedisError

    from .store.upgrade import upgrade as run

    if not args.redis_url:
        return no_url("samedeal upgrade", "the data")
    try:
        changed = asyncio.run(run(args.redis_url))
    except (RedisError, OSError) as e:
        print(f"samedeal upgrade: cannot reach {args.redis_url}: {e}", file=sys.stderr)
        return 1
    for step, n in changed.items():
        print(f"{step}: {n}")
    return 0
