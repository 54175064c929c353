"""What the background loops (timers, sweeps, jobs) share: a sleep that stopping ends at
once, and a job's loop that outlives the store's absences."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError


async def pause(stop: asyncio.Event, seconds: float) -> bool:
    """Sleep up to ``seconds``; whether ``stop`` was set meanwhile (then at once). A loop
    that ends by this flag ends even if a cancellation was swallowed by a store call."""
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(stop.wait(), seconds)
    return stop.is_set()


async def drain(stop: asyncio.Event, step: Callable[[], Awaitable[bool]], seconds: float,
                log: logging.Logger, what: str) -> None:
    """Run a job's ``step`` (whether it found work) until ``stop``, at once while there is
    work, else every ``seconds``; a store away or a step failing is logged, never the end."""
    while not stop.is_set():
        try:
            worked = await step()
        except (RedisConnectionError, RedisTimeoutError) as e:
            log.warning("%s: the store is unreachable (%s)", what, e)
            worked = False
        except Exception:
            log.exception("%s: the job failed", what)
            worked = False
        if not worked and await pause(stop, seconds):
            return
