"""Challenges from the SDK and the bot runner, on two real nodes over one real redis-server: a
player challenges a bot by name; ``samedeal bot --accept-challenges`` (the SDK's iterator of
incoming challenges) accepts it and races; the challenger hears the answer, joins the race,
and both see the one race to its end."""

from __future__ import annotations

import asyncio
import secrets

from clients.sdk import Client, ServerError
from tests.server.client import Node

from .test_runner import samedeal


async def test_a_bot_accepts_a_challenge_by_name_and_races_it(nodes: list[Node]) -> None:
    bot_name = f"Chally {secrets.token_hex(3)}"
    bot, bot_token = await Client.register(nodes[1].url, bot_name, "bot")
    _, token = await Client.register(nodes[0].url, f"Ann {secrets.token_hex(3)}", "human")
    async with Client(nodes[0].url, token) as ann:
        runner = asyncio.ensure_future(samedeal(
            "bot", "clients.bots.greedy:GreedyBot", "--server", nodes[1].url,
            "--token", bot_token, "--accept-challenges", "--json"))
        # The challenge may come before the bot listens: it lists those waiting first.
        sent = await ann.challenge(bot_name.lower(), "golf", "easy")
        assert sent.to["id"] == bot["id"] and sent.state == "pending"
        with_them = [c.id for c in await ann.challenges()]
        assert sent.id in with_them
        try:
            await ann.challenge(bot_name, "golf", "easy")  # one pending per player
            raise AssertionError("a second pending challenge to the same player")
        except ServerError as e:
            assert e.code == "challenge.too_many" and e.retry_after, e

        waiting = asyncio.ensure_future(ann.wait_challenge_answer(sent.id, timeout=60))
        await asyncio.wait({waiting, runner}, return_when=asyncio.FIRST_COMPLETED)
        assert waiting.done(), f"the bot stopped first: {runner.result()}"
        answer = waiting.result()
        assert answer.state == "accepted" and answer.race
        race = await ann.join_race(answer.race)
        assert {e["player"] for e in race.entrants} == {bot["id"], ann.player["id"]}
        session = await ann.wait_race_session(answer.race, timeout=30)
        assert session is not None
        await asyncio.sleep(3.5)  # the countdown (a race's default)
        await ann.resign(session.id)
        results = await ann.wait_race_end(answer.race, timeout=120)
        code, out, err = await runner
    assert code == 0, err
    assert "challenges you: " in err
    summary = out.strip().splitlines()[-1]
    assert answer.race in summary and results.seed in summary
    assert {r["player"] for r in results.ranking} == {bot["id"], ann.player["id"]}
