"""A socket's outbox (server/transport/outbox.py): items leave in order, one writer at a time; a
frame written by another task (a reply) holds the writer back until it is done; a full outbox says
so. Real asyncio tasks on a real loop."""

from __future__ import annotations

import asyncio

from server.transport.outbox import Outbox


async def writer(box: Outbox, out: list[str], gate: asyncio.Event | None = None) -> None:
    while True:
        item = await box.next()
        try:
            if item[0] == "stop":
                return
            if gate is not None:
                await gate.wait()
            out.append(item[0])
        finally:
            box.done()


async def test_items_leave_in_order_in_one_wake_up() -> None:
    box, out = Outbox(8), []
    task = asyncio.create_task(writer(box, out))
    await asyncio.sleep(0)
    for name in ("a", "b", "c", "stop"):
        box.put((name,))
    await asyncio.wait_for(task, 1)
    assert out == ["a", "b", "c"] and box.idle


async def test_a_reply_written_by_another_task_is_not_overtaken() -> None:
    box, out = Outbox(8), []
    task = asyncio.create_task(writer(box, out))
    await asyncio.sleep(0)
    assert box.idle
    box.begin()  # a reply is being written by the reading task, which yields meanwhile
    box.put(("event",))
    await asyncio.sleep(0.01)
    assert out == [] and not box.idle  # the writer waits for the reply
    out.append("reply")
    box.done()
    box.put(("stop",))
    await asyncio.wait_for(task, 1)
    assert out == ["reply", "event"]


async def test_while_the_writer_writes_nobody_else_may() -> None:
    box, out, gate = Outbox(8), [], asyncio.Event()
    task = asyncio.create_task(writer(box, out, gate))
    box.put(("a",))
    await asyncio.sleep(0.01)
    assert not box.idle  # "a" is being written: a reply must queue behind it
    box.put(("reply",))
    gate.set()
    box.put(("stop",))
    await asyncio.wait_for(task, 1)
    assert out == ["a", "reply"]


def test_a_full_outbox_says_so() -> None:
    box = Outbox(2)
    box.put(("a",))
    assert not box.full
    box.put(("b",))
    assert box.full
    box.clear()
    assert not box.full and box.idle
