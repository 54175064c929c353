"""``samedeal bot`` as real processes against real servers: two bots race one deal to the
end, a newcomer registers and plays practice games with one command, and mistakes on the
command line are told plainly."""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import signal
import sys
from pathlib import Path

from clients.sdk import Client
from server import store
from tests.server.client import Node

ROOT = Path(__file__).resolve().parents[2]


async def samedeal(*args: str, timeout: float = 180,
                   env: dict[str, str] | None = None) -> tuple[int, str, str]:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "engine.cli", *args, cwd=ROOT,
        # Unbuffered, and every thread's stack on SIGABRT: a run that hangs shows how far it
        # got and where it waits in the failure report.
        env=os.environ | {"PYTHONUNBUFFERED": "1", "PYTHONFAULTHANDLER": "1"} | (env or {}),
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    # Read apart from the wait: what a process wrote before a timeout is kept.
    out = asyncio.ensure_future(proc.stdout.read())
    err = asyncio.ensure_future(proc.stderr.read())
    try:
        await asyncio.wait_for(proc.wait(), timeout)
    except TimeoutError:  # say where it stood, for the failure report
        proc.send_signal(signal.SIGABRT)
        try:
            await asyncio.wait_for(proc.wait(), 5)
        except TimeoutError:
            proc.kill()
            await proc.wait()
        raise AssertionError(f"samedeal {' '.join(args)} ran over {timeout} s:\n"
                             f"{(await out).decode()[-2000:]}\n"
                             f"{(await err).decode()[-6000:]}") from None
    assert proc.returncode is not None
    return proc.returncode, (await out).decode(), (await err).decode()


async def test_random_and_greedy_bots_race_to_the_end(nodes: list[Node]) -> None:
    random_bot, random_token = await Client.register(nodes[0].url, "Randy", "bot")
    greedy_bot, greedy_token = await Client.register(nodes[1].url, "Greta", "bot")
    _, host_token = await Client.register(nodes[0].url, "Host", "human")
    async with Client(nodes[0].url, host_token) as host:
        race = await host.create_race("golf", "easy", 2, countdown=1, time_limit=300,
                                      join=False)
        runs = await asyncio.gather(
            samedeal("bot", "clients.bots.random:RandomBot", "--server", nodes[0].url,
                     "--token", random_token, "--race", race.id, "-o", "seed=7"),
            samedeal("bot", "clients.bots.greedy:GreedyBot", "--server", nodes[1].url,
                     "--token", greedy_token, "--race", race.id, "--encoding", "msgpack"))
        for code, out, err in runs:
            assert code == 0, err
            assert f"race {race.id} (golf/easy) ended" in out
            assert "Randy" in out and "Greta" in out and "<- you" in out
            assert "race started" in err and "race ended" in err
        results = await host.race_results(race.id)
    ranking = {r["player"]: r for r in results.ranking}
    assert set(ranking) == {random_bot["id"], greedy_bot["id"]}
    for entry in ranking.values():
        assert entry["status"] in ("won", "lost", "finished") and entry["moves"] > 0
    assert f"--seed {results.seed} --commitment {results.commitment}" in runs[0][1]


async def test_a_newcomer_registers_and_plays_practice_games(node: Node) -> None:
    code, out, err = await samedeal(
        "bot", "clients.bots.random:RandomBot", "--server", node.url, "--register", "Newbie",
        "--solo", "golf", "easy", "--games", "5", "--seed", "10", "--parallel", "2", "--json")
    assert code == 0, err
    lines = out.strip().splitlines()
    token = lines[1]
    summary = json.loads(lines[-1])
    assert summary["games"] == 5 and sum(summary["statuses"].values()) == 5
    assert summary["player"]["name"] == "Newbie" and summary["player"]["kind"] == "bot"
    assert "5/5" in err, "the progress bar reaches the end"
    async with Client(node.url, token) as c:  # the printed token is the account's
        assert c.player == summary["player"]
        # Seeded deals and a seeded bot: a second run plays the very same games.
        again = await samedeal(
            "bot", "clients.bots.random:RandomBot", "--server", node.url, "--token", token,
            "--solo", "golf", "easy", "--games", "3", "--seed", "10", "-o", "seed=3", "--json")
        twice = await samedeal(
            "bot", "clients.bots.random:RandomBot", "--server", node.url, "--token", token,
            "--solo", "golf", "easy", "--games", "3", "--seed", "10", "-o", "seed=3", "--json")
        for code, _, err in (again, twice):
            assert code == 0, err
        one, two = (json.loads(run[1].strip().splitlines()[-1]) for run in (again, twice))
        assert one["mean_score"] == two["mean_score"] and one["mean_moves"] == two["mean_moves"]
        assert one["statuses"] == two["statuses"]


async def test_command_line_mistakes_are_told(node: Node) -> None:
    code, _, err = await samedeal("bot", "clients.bots.random", "--server", node.url,
                                  "--token", "x", "--solo", "golf", "easy")
    assert code == 2 and "module:Class" in err
    code, _, err = await samedeal("bot", "clients.bots.random:RandomBot", "--server",
                                  node.url, "--solo", "golf", "easy")
    assert code == 2 and "--register NAME" in err
    code, _, err = await samedeal("bot", "clients.bots.random:RandomBot", "--server",
                                  node.url, "--token", "bad", "--solo", "golf", "easy")
    assert code == 1 and "auth.invalid" in err
    code, _, err = await samedeal("bot", "clients.bots.random:RandomBot", "--server", node.url,
                                  "--register", "Oops", "--race", "rnothere")
    assert code == 1 and "race.unknown" in err


async def test_bots_bowl_and_play_called_card_matches_to_the_end(nodes: list[Node]) -> None:
    _, host_token = await Client.register(nodes[0].url, "Host", "human")
    for game, seats in (("bowling", 2), ("poker-square", 2)):
        bots = [await Client.register(nodes[i].url, f"Bot{i}", "bot") for i in range(seats)]
        async with Client(nodes[0].url, host_token) as host:
            made = await host.create_match(game, "easy", seats, turn_time=60, join=False)
            runs = await asyncio.gather(*(
                samedeal("bot", cls, "--server", nodes[i].url, "--token", bots[i][1],
                         "--match", made.id)
                for i, cls in enumerate(("clients.bots.random:RandomBot",
                                         "clients.bots.greedy:GreedyBot"))))
            for code, out, err in runs:
                assert code == 0, err
                assert f"match {made.id} ended" in out
            summary = await host.match(made.id)
            transcript = await host.match_transcript(made.id)
        assert summary.state == "ended"
        results = summary.results
        assert {e["player"] for e in results["ranking"]} == {b[0]["id"] for b in bots}
        assert transcript["seed"] == results["seed"]
        moves = transcript["moves"]
        if game == "bowling":  # both bowled their frames
            assert {m["bowler"] for m in moves} == {1, 2}
        else:
            assert all(len(v) >= 25 for v in moves.values())  # every grid filled


async def test_register_makes_a_new_account_even_with_a_token_in_the_environment(
        node: Node) -> None:
    """docs/bots.md exports SAMEDEAL_TOKEN, then registers a second bot with --register."""
    first, token = await Client.register(node.url, "First", "bot")
    code, out, err = await samedeal(
        "bot", "clients.bots.random:RandomBot", "--server", node.url, "--register", "Second",
        "--solo", "golf", "easy", "--games", "1", "--json", env={"SAMEDEAL_TOKEN": token})
    assert code == 0, err
    summary = json.loads(out.strip().splitlines()[-1])
    assert summary["player"]["name"] == "Second" and summary["player"]["id"] != first["id"]


async def test_a_token_from_before_the_prefix_that_starts_with_a_dash_still_plays(
        node: Node, store_url: str) -> None:
    """One token in 64 issued before the ``sd_`` prefix starts with "-", which argparse would
    take for an option after ``--token``; the command line reads it as the token."""
    player, token = await Client.register(node.url, "Prefixed", "bot")
    assert token.startswith("sd_") and len(token) == 46
    old = "-" + token[4:]  # the shape of an old token: 43 URL-safe characters
    r = store.connect(store_url)
    try:
        await r.set(store.token_key(hashlib.sha256(old.encode()).hexdigest()), player["id"])
    finally:
        await r.aclose()
    code, out, err = await samedeal(
        "bot", "clients.bots.random:RandomBot", "--server", node.url, "--token", old,
        "--solo", "golf", "easy", "--games", "1", "--json")
    assert code == 0, err
    assert json.loads(out.strip().splitlines()[-1])["player"]["id"] == player["id"]
    code, _, err = await samedeal("bot", "clients.bots.random:RandomBot", "--server", node.url,
                                  "--token", "--json")
    assert code == 2 and "--token: expected one argument" in err


def test_a_resignation_shows_as_resigned_without_the_races_limit_for_a_time() -> None:
    from clients.runner import ranking_table

    rows = ranking_table([
        {"rank": 1, "player": "p1", "name": "Ann", "kind": "human", "status": "won",
         "score": 52, "moves": 90, "time_ms": 81_500},
        {"rank": 2, "player": "p2", "name": "Bot", "kind": "bot", "status": "lost",
         "score": 3, "moves": 12, "time_ms": 600_000, "resigned": True}], me="p2")
    assert rows[1].split()[3:] == ["won", "52", "90", "81.5s"]
    assert rows[2].split()[3:] == ["resigned", "3", "12", "-", "<-", "you"]
