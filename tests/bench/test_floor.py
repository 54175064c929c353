"""The move path's floor (bench/floor.py) does what bench/ws.py says it does: each message
is acknowledged after its script ran, and its event reaches the partner's socket alone."""

from __future__ import annotations

import asyncio
import json

import msgpack
import pytest
import redis
import websockets

from bench.common import start_server, stop


@pytest.mark.parametrize("wire", ["samedeal.v2.json", "samedeal.v2.msgpack"])
async def test_the_floor_acknowledges_and_relays_to_the_partner(redis_url: str,
                                                                wire: str) -> None:
    # Emptied first, so a database of its own: the worker's database 0 holds the state of
    # the nodes its other tests share (tests/e2e/test_front_door.py empties this one too).
    redis_url = redis_url.rsplit("/", 1)[0] + "/13"
    redis.Redis.from_url(redis_url).flushdb()
    proc, port = start_server("floor", redis_url=redis_url)
    url = f"ws://127.0.0.1:{port}/api/v1/ws"
    packb, loads = ((msgpack.packb, msgpack.unpackb) if wire.endswith("msgpack")
                    else (json.dumps, json.loads))
    try:
        async with websockets.connect(url, subprotocols=[wire]) as a, \
                websockets.connect(url, subprotocols=[wire]) as b, \
                websockets.connect(url, subprotocols=[wire]) as c:
            for n in (1, 2):
                await a.send(packb({"type": "move", "id": n, "move": f"t{n}-f1"}))
                assert loads(await a.recv()) == {"type": "ack", "id": n, "seq": n}
                assert loads(await b.recv()) == {"type": "event", "seq": 1, "move": f"t{n}-f1"}
            with pytest.raises(TimeoutError):  # the mover's own event is not sent to it
                await asyncio.wait_for(a.recv(), 0.3)
            await c.send(packb({"type": "move", "id": 7, "move": "w-t1"}))
            assert loads(await c.recv())["seq"] == 1  # a pair of its own
        assert redis.Redis.from_url(redis_url).lrange("floor:0:moves", 0, -1) == [
            b"t1-f1", b"t2-f1"]
    finally:
        stop(proc)
