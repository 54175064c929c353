"""What moderators read and do: a day's board sorted by the integrity signal, most suspicious
first (``samedeal moderate daily DAY GAME VARIANT``), and the review queue of flagged results
(``samedeal moderate queue|clear|remove``, server/fairplay/review.py). The board's entries hash
holds the signal computed when each attempt was recorded (server/fairplay/integrity.py); the public
pages leave it out."""

from __future__ import annotations

import json
from datetime import date
from typing import Any

import engine

from .. import store
from ..boards import board_keys
from .review import Held, pending


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
        await store.close(redis)
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


async def queue(redis_url: str) -> list[Held]:
    """The flagged results waiting for review (server/fairplay/review.py), oldest first."""
    redis = store.connect(redis_url)
    try:
        return await pending(redis)
    finally:
        await store.close(redis)


async def decide(redis_url: str, sid: str, verdict: str) -> Held:
    """Clear or remove a held result, as a server would (the same services, on that Redis)."""
    from ..app import build_services
    from ..config import Settings

    sv = build_services(Settings.from_env(redis_url=redis_url))
    try:
        assert sv.daily.reviews is not None  # wired by build_services
        return await sv.daily.reviews.decide(sid, verdict)
    finally:
        await store.close(sv.redis)


def queue_table(records: list[Held], as_json: bool = False) -> str:
    if as_json:
        return "\n".join(json.dumps(r, sort_keys=True) for r in records)
    lines = [f"{'status':<8} {'day':<10} {'rule set':<24} {'result':<8} {'score':>5}  "
             "reasons            session"]
    for r in records:
        s = r["integrity"]
        reasons = ",".join(s["reasons"]) or "-"
        lines.append(f"{r['status']:<8} {r['day']:<10} {r['game'] + '/' + r['variant']:<24} "
                     f"{r['result']:<8} {r['score']:>5}  {reasons:<18} {r['session']}  "
                     f"{r['name']}")
        evidence = [f"foresight {s['foresight']}", f"follow {s['follow']} of "
                    f"{s['judged']} choices", f"pace corr {s['pace_corr']} cv {s['pace_cv']}"]
        for a in s["linked_attempts"]:
            evidence.append(f"earlier attempt {a['session']} by {a['player']} via "
                            f"{'+'.join(a['via'])}: {a['moves']} moves"
                            + (", ended early" if a["early"] else ""))
        lines += [f"    {e}" for e in evidence]
    lines.append(f"{len(records)} results; clear or remove one with samedeal moderate clear|"
                 "remove SESSION (docs/operations.md, Moderation)")
    return "\n".join(lines)
