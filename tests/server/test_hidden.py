"""No message a race entrant receives, for any rule set, names a card hidden from them: every
view is exactly the engine's view of the true game, and nothing else names an unseen card."""

from __future__ import annotations

import random
from typing import Any

import pytest

import engine

from .client import Node, Ws, cards_in, player, view_cards

RULE_SETS = [f"{r.id}/{r.variant}" for r in engine.rule_sets() if r.players[0] == 1]


def reach_into_hidden(view: dict[str, Any], rng: random.Random) -> str | None:
    """A move that grabs one face-down card too many, or ``None`` if nothing is face down."""
    piles = view["piles"]
    covered = [name for name, p in piles.items() if p["down"]]
    if not covered:
        return None
    src = rng.choice(covered)
    dst = rng.choice([name for name in piles if name != src])
    return f"{src}:{len(piles[src]['up']) + 1}-{dst}"


def is_legal(rules: engine.RuleSet, move: str, legal: list[str]) -> bool:
    """Some face-down cards may be taken (a stock's top card, in Slide): that shows the card."""
    return engine.parse_move(rules, move) in [engine.parse_move(rules, m) for m in legal]


async def race_of_two(node_a: Node, node_b: Node, game: str, variant: str
                      ) -> tuple[Ws, Ws, str]:
    _, a_token = await player(node_a, "Ann")
    _, b_token = await player(node_b, "Bob")
    a = await Ws.open(node_a, a_token)
    b = await Ws.open(node_b, b_token)
    race = await a.request({"type": "race.create", "game": game, "variant": variant,
                            "seats": 2, "countdown": 0})
    assert race["type"] == "race", race
    joined = await b.request({"type": "race.join", "race": race["race"]})
    assert joined["type"] == "race", joined
    return a, b, race["race"]


@pytest.mark.parametrize("key", RULE_SETS)
async def test_no_message_names_a_hidden_card(nodes: list[Node], key: str) -> None:
    game, variant = key.split("/")
    rules = engine.get(game, variant)
    a, b, _ = await race_of_two(nodes[0], nodes[1], game, variant)
    rng = random.Random(key)
    played: dict[Ws, list[tuple[str, dict[str, Any]]]] = {a: [], b: []}
    first = {a: await a.expect("session"), b: await b.expect("session")}
    for _ in range(10):
        for ws in (a, b):
            last = played[ws][-1][1] if played[ws] else first[ws]
            probe = reach_into_hidden(last["view"], rng)
            if probe is not None and not is_legal(rules, probe, last["legal"]):
                refused = await ws.request({"type": "move", "session": last["session"],
                                            "move": probe})
                assert refused["type"] == "error" and refused["message"], refused
            if last["view"]["status"] != "playing":
                continue
            move = rng.choice(last["legal"])
            ack = await ws.request({"type": "move", "session": last["session"], "move": move})
            assert ack["type"] == "ack", ack
            played[ws].append((move, ack))
    for ws in (a, b):
        last = played[ws][-1][1] if played[ws] else first[ws]
        if last["view"]["status"] == "playing":
            assert (await ws.request({"type": "resign", "session": last["session"]}))[
                "type"] == "ack"
    seed = (await a.expect("race.ended"))["seed"]
    await b.expect("race.ended")

    for ws in (a, b):
        # Every view is the engine's view of the true game after the moves acknowledged.
        st = rules.deal(bytes.fromhex(seed), competitive=True)
        assert first[ws]["view"] == st.view()
        for move, ack in played[ws]:
            st.play(engine.parse_move(rules, move))
            assert ack["view"] == st.view()
            assert ack["legal"] == [engine.move_text(rules, m) for m in st.legal_moves()]
        # Everything else names only cards already shown to this player.
        seen: set[str] = set()
        for m in ws.received:
            if m.get("type") in ("session", "ack"):
                seen |= view_cards(m["view"])
            else:
                assert cards_in(m) <= seen, m
        await ws.close()
