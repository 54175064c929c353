"""Ghost races through the SDK (clients/sdk/ghosts.py) and ``samedeal bot --ghost``, against
two real nodes: a first entrant's run played through the SDK is replayed to a bot that enters
after it, and the bot's run lands on the ghost race's ranking."""

from __future__ import annotations

import asyncio
import json
import time

from clients.bots.random import RandomBot
from clients.sdk import Client, ghosts
from clients.sdk import play as sdk_play
from tests.server.client import Node

from .test_runner import samedeal


async def test_an_sdk_run_is_the_ghost_a_bot_then_races(nodes: list[Node]) -> None:
    a, b = nodes
    _, token = await Client.register(a.url, "Hana", "human")
    _, bot_token = await Client.register(b.url, "Robo", "bot")
    async with Client(a.url, token) as hana:
        g = await ghosts.create(hana, "golf", "easy", countdown=0, time_limit=60, cap=3)
        assert g["state"] == "open" and "seed" not in g
        assert g["ghost"] in {x["ghost"] for x in await ghosts.list_open(hana)}
        run = await ghosts.enter(hana, g["ghost"])
        assert run.session.race == run.race
        done = await sdk_play.play_session(hana, RandomBot(seed=3), run.session,
                                           max_moves=6)
        run.close()
        assert done.status != "playing"
        # A second enter of a finished run is refused: one attempt each.
        try:
            await ghosts.enter(hana, g["ghost"])
            raise AssertionError("entered twice")
        except Exception as e:
            assert getattr(e, "code", "") == "ghost.entered", e

    async with Client(b.url, bot_token) as robo:  # the SDK sees Hana's run replayed
        # The loop held while Robo enters: the reply and Hana's first steps reach the reader
        # together, as on a busy machine, and a step right behind the reply is still his.
        asyncio.get_running_loop().call_soon(time.sleep, 2)
        watch = await ghosts.enter(robo, g["ghost"])
        # Hana's steps come at the moments of her run they were played at, which on a busy
        # machine can be seconds in; her 60 s limit bounds them all.
        step = await watch.next(timeout=60)
        assert step.ghost == g["ghost"] and step.name == "Hana" and step.moves >= 1
        await sdk_play.play_session(robo, RandomBot(seed=4), watch.session, max_moves=4)
        watch.close()

    _, other = await Client.register(b.url, "Rex", "bot")
    code, out, err = await samedeal("bot", "clients.bots.random:RandomBot", "--server", b.url,
                                    "--token", other, "--ghost", g["ghost"], "--json",
                                    "--max-moves", "5", timeout=120)
    assert code == 0, err
    result = json.loads(out.strip().splitlines()[-1])
    assert result["mode"] == "ghost" and result["you"]["name"] == "Rex"
    assert len(result["ranking"]) == 3  # Hana, Robo, Rex: the cap, so it closes
