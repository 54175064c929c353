"""What moderators read: a day's board sorted by the integrity signal, most suspicious first
(``samedeal moderate daily DAY GAME VARIANT``). The board's entries hash holds the signal
computed when each attempt was recorded (server/integrity.py); the public pages leave it out."""

from __future__ import annotations

import json
from datetime import date
from typing import Any

import engine

from . import store
from .boards import board_keys


async def daily_by_signal(redis_url: str, day: str, game: str, variant: str,
                          kind: str = "human") -> list[dict[str, Any]]:
    """Every entry of the day's board, highest foresight first (entries recorded before the
    signal existed last)."""
    try:
        rules = engine.get(game, variant)
        date.fromisoformat(day)
    except (engine.UnknownGame, ValueError) as e:
        raise ValueError(str(e) or "a day is written YYYY-MM-DD") from None
    redis = store.connect(redis_url)
    try:
        raw = await redis.hvals(board_keys(f"daily:{day}:{rules.id}:{rules.variant}:{kind}")[1])
    finally:
        await redis.aclose()
    entries = [json.loads(v) for v in raw]
    entries.sort(key=lambda e: (-(e.get("integrity") or {}).get("foresight", -1e9), e["key"]))
    return entries


def table(entries: list[dict[str, Any]], as_json: bool = False) -> str:
    if as_json:
        return "\n".join(json.dumps(e, sort_keys=True) for e in entries)
    lines = [f"{'foresight':>9} {'blind':>5} {'useful/exp':>10} {'ms/move':>8}  "
             f"{'status':<8} {'score':>5}  player        session"]
    for e in entries:
        s = e.get("integrity") or {}
        mark = "!" if s.get("flagged") else " "
        lines.append(
            f"{s.get('foresight', float('nan')):>8.2f}{mark} {s.get('blind', 0):>5} "
            f"{s.get('useful', 0):>4}/{s.get('expected', 0):<5.1f} "
            f"{s.get('median_move_ms') or 0:>8}  {e['status']:<8} {e['score']:>5}  "
            f"{e['player']:<13} {e['session']}  {e['name']}")
    lines.append(f"{len(entries)} entries; ! marks foresight at or above the flag "
                 "(docs/daily.md, Integrity signal)")
    return "\n".join(lines)
