"""``samedeal serve``: a subcommand the engine's command finds through an entry point, so
the engine never imports the server."""

from __future__ import annotations

import argparse
import os
import sys


def add_commands(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("serve", help="run the SameDeal server")
    p.add_argument("--host", default=os.environ.get("SAMEDEAL_HOST", "127.0.0.1"))
    p.add_argument("--port", type=int, default=int(os.environ.get("SAMEDEAL_PORT", "8000")))
    p.add_argument("--redis-url", default=os.environ.get("SAMEDEAL_REDIS_URL", ""),
                   help="Redis to share state through; none: the embedded in-memory store")
    p.add_argument("--workers", type=int, default=1, help="server processes (needs Redis)")
    p.add_argument("--log-level", default="info")
    p.set_defaults(run=serve)

    m = sub.add_parser("moderate", help="list a day's board by its integrity signal, most "
                       "suspicious first (docs/daily.md)")
    m.add_argument("what", choices=["daily"])
    m.add_argument("day", help="YYYY-MM-DD")
    m.add_argument("game")
    m.add_argument("variant")
    m.add_argument("--kind", choices=["human", "bot"], default="human")
    m.add_argument("--redis-url", default=os.environ.get("SAMEDEAL_REDIS_URL", ""),
                   help="the servers' Redis (SAMEDEAL_REDIS_URL)")
    m.add_argument("--json", action="store_true", help="one JSON object per entry")
    m.set_defaults(run=moderate)


def serve(args: argparse.Namespace) -> int:
    import uvicorn

    from .config import Settings

    if args.workers > 1 and not args.redis_url:
        print("samedeal serve: --workers needs --redis-url (the embedded store lives in one "
              "process)", file=sys.stderr)
        return 2
    os.environ["SAMEDEAL_REDIS_URL"] = args.redis_url
    settings = Settings.from_env()
    store = args.redis_url or "the embedded in-memory store (one process; data is lost on exit)"
    print(f"SameDeal on http://{args.host}:{args.port}, state in {store}", flush=True)
    uvicorn.run("server.app:create_app", factory=True, host=args.host, port=args.port,
                workers=args.workers, log_level=args.log_level, ws="websockets-sansio",
                ws_max_size=settings.max_message_bytes * 4,
                ws_per_message_deflate=settings.ws_compression, lifespan="on",
                # The client's address is the server's own business (``trusted_proxies``,
                # server/rest.py client_address): uvicorn would believe X-Forwarded-For from any
                # local peer, letting a client pick its own registration bucket.
                proxy_headers=False)
    return 0


def moderate(args: argparse.Namespace) -> int:
    import asyncio

    from .moderation import daily_by_signal, table

    if not args.redis_url:
        print("samedeal moderate: give --redis-url (or SAMEDEAL_REDIS_URL): the boards live "
              "in the servers' Redis", file=sys.stderr)
        return 2
    try:
        entries = asyncio.run(daily_by_signal(args.redis_url, args.day, args.game,
                                              args.variant, args.kind))
    except ValueError as e:
        print(f"samedeal moderate: {e}", file=sys.stderr)
        return 2
    print(table(entries, args.json))
    return 0
