"""docs/protocol.md "Protocol v2" shows real frames: this plays the same exchanges against a
real server and checks the doc still says what the server sends. The practice game (seed
00) is compared frame for frame (the session id and deal time aside); the race's frames, whose
deal is random, by their shape: the same fields, and the same fields in ``changes``, but for
those a change carries only when the deal made them change."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from .client import JSON, V2_JSON, Node, Ws, player

DOC = Path(__file__).parents[2] / "docs" / "protocol.md"
LINE = re.compile(r"^(?:(\w+) )?([<>]) (\{.*\})$")


def doc_blocks() -> list[list[tuple[str, str, dict[str, Any]]]]:
    """The ```text blocks of the v2 section, each as its frames: (who, direction, message)."""
    text = DOC.read_text()
    section = text[text.index("## Protocol v2"):]
    section = section[:section.index("\n## ", 3)]
    blocks = []
    for block in re.findall(r"```text\n(.*?)```", section, re.S):
        frames = []
        for line in block.splitlines():
            found = LINE.match(line.strip())
            if found:
                frames.append((found[1] or "", found[2], json.loads(found[3])))
        blocks.append(frames)
    return blocks


def shown(frames: list[tuple[str, str, dict[str, Any]]]) -> str:
    return "\n".join(f"{who} {d} {json.dumps(m, separators=(',', ':'), ensure_ascii=False)}"
                     for who, d, m in frames)


#: what a changes ack carries or leaves out by what the deal did (a new legal move, a score)
BY_THE_DEAL = {"legal", "safe", "can_undo", "seed", "score", "status", "info"}


def shape(m: dict[str, Any]) -> tuple[set[str], set[str]]:
    """A frame's fields, and its changes' fields, but for those the deal decides."""
    return set(m) - BY_THE_DEAL, set(m.get("changes", {})) - BY_THE_DEAL


async def practice(node: Node) -> list[tuple[str, str, dict[str, Any]]]:
    _, token = await player(node, "Ann", "human")
    ws = await Ws.open(node, token, V2_JSON)
    out = []

    async def say(m: dict[str, Any]) -> dict[str, Any]:
        rid = len(out) // 2 + 2
        out.append(("", ">", {**m, "id": rid}))
        await ws.send({**m, "id": rid})
        kind = "ack" if m["type"] in ("move", "undo", "resign") else "session"
        reply = await ws.expect(kind, id=rid)
        out.append(("", "<", reply))
        return reply

    s = await say({"type": "solo.start", "game": "klondike", "variant": "easy", "seed": "00"})
    await say({"type": "move", "session": s["session"], "move": "t7-t1", "rev": 0})
    await say({"type": "move", "session": s["session"], "move": "s", "rev": 1})
    await say({"type": "undo", "session": s["session"]})
    await ws.close()
    return out


async def race(nodes: list[Node]) -> list[tuple[str, str, dict[str, Any]]]:
    """Ann (v2) moves in a race, Bob (v1) sees her progress; then Ann's other tab (v2)
    moves, and her first socket's next ack is whole."""
    _, ta = await player(nodes[0], "Ann", "human")
    _, tb = await player(nodes[1], "Bob", "bot")
    ann, bob = await Ws.open(nodes[0], ta, V2_JSON), await Ws.open(nodes[1], tb, JSON)
    tab = await Ws.open(nodes[1], ta, V2_JSON)
    rid = (await ann.request({"type": "race.create", "game": "klondike", "variant": "easy",
                              "seats": 2, "countdown": 0}))["race"]
    await bob.request({"type": "race.join", "race": rid})
    s = await ann.expect("session")
    await bob.expect("session")
    out = []
    move = {"type": "move", "session": s["session"], "move": s["legal"][-1], "id": 7}
    out.append(("Ann", ">", move))
    await ann.send(move)
    ack = await ann.expect("ack", id=7)
    out.append(("Ann", "<", ack))
    out.append(("Bob", "<", await bob.expect("race.progress")))
    s = {**s, **ack}
    other = {"type": "move", "session": s["session"], "move": "s", "id": 3}
    out.append(("Tab", ">", other))
    await tab.send(other)
    out.append(("Tab", "<", await tab.expect("ack", id=3)))
    again = {"type": "move", "session": s["session"], "move": "s", "id": 8}
    out.append(("Ann", ">", again))
    await ann.send(again)
    out.append(("Ann", "<", await ann.expect("ack", id=8)))
    for ws in (ann, bob, tab):
        await ws.close()
    return out


async def test_the_docs_v2_practice_frames_are_the_servers(node: Node) -> None:
    doc = doc_blocks()[0]
    real = await practice(node)
    got = shown(real)
    assert len(doc) == len(real), got
    sid = real[0 + 1][2]["session"]
    doc_sid = doc[2][2]["session"]
    for (_, d, want), (_, r, have) in zip(doc, real, strict=True):
        assert d == r, got
        have = json.loads(json.dumps(have).replace(sid, doc_sid))
        if have["type"] == "session":  # shown shortened: its fields
            assert set(want) <= set(have) and want["rev"] == have["rev"], got
            continue
        assert want == have, got


async def test_the_docs_v2_race_frames_have_the_servers_shape(nodes: list[Node]) -> None:
    doc = doc_blocks()[1]
    real = await race(nodes)
    got = shown(real)
    assert [(w, d, m["type"]) for w, d, m in doc] == [(w, d, m["type"]) for w, d, m in real], got
    for (_, _, want), (_, _, have) in zip(doc, real, strict=True):
        assert shape(want) == shape(have), got
        assert ("view" in want) == ("view" in have) and ("changes" in want) == (
            "changes" in have), got
