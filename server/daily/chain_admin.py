"""The operator's side of the chains (``samedeal chain``): make, show and rotate, straight in
the servers' Redis, with the day taken from Redis's clock as the servers take it."""

from __future__ import annotations

import logging
from datetime import date, timedelta

from engine import fairness

from .. import store
from . import day_of
from .chain import ChainRecord, Chains

log = logging.getLogger("samedeal")


async def run(url: str, action: str, start: str | None, reason: str | None,
              length: int | None) -> list[ChainRecord]:
    """Do ``action``; the chain history after it (the new chain last)."""
    redis = store.connect(url)
    try:
        chains = Chains(redis, length or fairness.DEFAULT_LENGTH, log_new=False)
        today = day_of(await store.now_ms(redis))
        tomorrow = today + timedelta(1)
        first = date.fromisoformat(start) if start else tomorrow
        if action == "init":
            if await chains.history():
                return await chains.history()  # made already: init changes nothing
            await chains.add(first, tomorrow, "the first chain, made by samedeal chain init",
                             first=True, length=length)
        elif action == "rotate":
            record = await chains.add(first, tomorrow, reason or "", length=length)
            log.warning("daily chain rotated: %s from %s (%s)", record and record.anchor,
                        first, reason)
        return await chains.history()
    finally:
        await store.close(redis)
