"""What the background loops (timers, sweeps) share: a sleep that stopping ends at once."""

from __future__ import annotations

import asyncio
import contextlib


async def pause(stop: asyncio.Event, seconds: float) -> bool:
    """Sleep up to ``seconds``; whether ``stop`` was set meanwhile (then at once). A loop
    that ends by this flag ends even if a cancellation was swallowed by a store call."""
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(stop.wait(), seconds)
    return stop.is_set()
