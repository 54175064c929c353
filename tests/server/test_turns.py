"""Turns per session (server/sessions/turns.py): one holder at a time, waiters in arrival order, a
waiter cancelled in line or as its turn came never keeps the key, and a key nobody holds
leaves nothing behind. Real asyncio tasks on a real loop."""

from __future__ import annotations

import asyncio
import contextlib

from server.sessions.turns import Turns


async def hold(turns: Turns, key: str, log: list[str], name: str, gate: asyncio.Event) -> None:
    await turns.take(key)
    try:
        log.append(f"{name} in")
        await gate.wait()
        log.append(f"{name} out")
    finally:
        turns.give(key)


async def test_one_holder_at_a_time_in_arrival_order() -> None:
    turns, log, gate = Turns(), [], asyncio.Event()
    tasks = [asyncio.create_task(hold(turns, "s1", log, n, gate)) for n in "abc"]
    other = asyncio.create_task(hold(turns, "s2", log, "x", asyncio.Event()))
    await asyncio.sleep(0.01)
    assert log == ["a in", "x in"]  # another key does not wait
    gate.set()
    await asyncio.gather(*tasks)
    assert log == ["a in", "x in", "a out", "b in", "b out", "c in", "c out"]
    assert not turns.held("s1") and turns.held("s2")
    other.cancel()
    await asyncio.gather(other, return_exceptions=True)
    assert not turns.held("s2")


async def test_a_waiter_cancelled_in_line_is_skipped() -> None:
    turns, log, gate = Turns(), [], asyncio.Event()
    a = asyncio.create_task(hold(turns, "s", log, "a", gate))
    b = asyncio.create_task(hold(turns, "s", log, "b", gate))
    c = asyncio.create_task(hold(turns, "s", log, "c", gate))
    await asyncio.sleep(0.01)
    b.cancel()
    await asyncio.sleep(0.01)
    gate.set()
    await asyncio.gather(a, c)
    assert b.cancelled()
    assert log == ["a in", "a out", "c in", "c out"]
    assert not turns.held("s")


async def test_a_waiter_cancelled_as_its_turn_came_passes_it_on() -> None:
    turns, log = Turns(), []
    await turns.take("s")
    b = asyncio.create_task(hold(turns, "s", log, "b", asyncio.Event()))
    c = asyncio.create_task(hold(turns, "s", log, "c", asyncio.Event()))
    await asyncio.sleep(0.01)
    turns.give("s")  # b's turn: b is cancelled before it runs again
    b.cancel()
    await asyncio.sleep(0.01)
    assert b.cancelled() and log == ["c in"]
    c.cancel()
    await asyncio.gather(c, return_exceptions=True)
    assert not turns.held("s")


async def test_a_holder_that_fails_gives_the_key_back() -> None:
    turns = Turns()

    async def fail() -> None:
        await turns.take("s")
        try:
            raise ValueError("the move failed")
        finally:
            turns.give("s")

    for _ in range(3):
        with contextlib.suppress(ValueError):
            await fail()
    assert not turns.held("s")
    await asyncio.wait_for(turns.take("s"), 1)
