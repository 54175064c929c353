"""Playing whole games with a bot: the loop every bot needs (choose, send with ``rev``, cope
with the countdown, a stale revision, the race's end) written once, for the runner and for
anyone scripting bots."""

from __future__ import annotations

import asyncio
import inspect
import logging
import re
from collections.abc import Callable
from typing import Any, Protocol

from .client import Client
from .errors import SdkError, ServerError
from .messages import Results, Session
from .payloads import View

# Codes after which the session can take no more moves from us, though it may say "playing"
# (a race that timed out leaves an unfinished game as it was).
STOPPED = {"race.over", "daily.closed", "game.over", "undo.finished"}
# Refusals of a match move that only mean "not now": wait for the next position.
WAIT_CODES = {"conflict", "match.not_started", "match.not_your_turn"}
RECHECK = 5.0  # seconds a match player waits for news before reading the match again
_IN_SECONDS = re.compile(r"in ([0-9.]+) ?s")
log = logging.getLogger("samedeal.sdk")


class Chooser(Protocol):
    def choose(self, view: View, legal: list[str]) -> Any: ...


async def choose(bot: Chooser, view: View, legal: list[str]) -> str:
    """The bot's move. A plain ``choose`` runs in a worker thread, so a slow bot never stalls
    the connection (pings, events); an ``async`` one runs on the loop."""
    if inspect.iscoroutinefunction(bot.choose):
        move = await bot.choose(view, legal)
    else:
        move = await asyncio.to_thread(bot.choose, view, legal)
        if inspect.isawaitable(move):
            move = await move
    return move  # type: ignore[no-any-return]


async def teach(client: Client, bot: Chooser, game: Any, variant: Any) -> None:
    """Tell a bot that has ``learn`` the rule set it is about to play (its catalog entry):
    general bots play by the layout, never by a game's name. A bot without ``learn``, or a
    rule set the server can't describe now, plays from the view alone."""
    learn = getattr(bot, "learn", None)
    if not callable(learn) or not isinstance(game, str) or not isinstance(variant, str):
        return
    try:
        rules = await client.rules(game, variant)
    except SdkError as e:
        log.warning("playing %s/%s without its description: %s", game, variant, e)
        return
    learn(rules)


def countdown_left(message: str) -> float:
    """How long to wait after ``race.not_started``: the sentence says it ("the race starts in
    1.5 s"); sentences may be reworded, so anything unreadable waits a fifth of a second."""
    found = _IN_SECONDS.search(message)
    return min(max(float(found.group(1)), 0.02), 5.0) if found else 0.2


async def give_up(client: Client, session: Session) -> Session:
    """Resign, unless the server takes no more moves anyway."""
    try:
        return await client.resign(session.id)
    except ServerError as e:
        if e.code in STOPPED or e.code == "race.not_started":
            return session
        raise


async def play_session(client: Client, bot: Chooser, session: Session,
                       on_move: Callable[[Session], Any] | None = None,
                       max_moves: int | None = None) -> Session:
    """Play ``session`` until its game is over or the server takes no more moves; the last
    payload. The game is resigned after ``max_moves`` moves (a random bot can walk in circles
    in a game with unlimited redeals), or when the bot sets ``stuck`` to ``True`` in
    ``choose``. An illegal move from the bot raises the server's ``ServerError``. A bot
    with ``learn`` is told the rule set first (``teach``)."""
    await teach(client, bot, session.view.get("game"), session.view.get("variant"))
    while session.status == "playing" and session.legal:
        if max_moves is not None and int(session.view.get("moves", 0)) >= max_moves:
            return await give_up(client, session)
        move = await choose(bot, session.view, list(session.legal))
        if getattr(bot, "stuck", False) is True:  # the bot sees no way forward any more
            return await give_up(client, session)
        try:
            session = await client.move(session.id, move, rev=session.rev)
        except ServerError as e:
            if e.code == "race.not_started":
                await asyncio.sleep(countdown_left(e.message))
                continue
            if e.code == "conflict":  # changed elsewhere (another tab, a retried move)
                session = await client.session(session.id)
                continue
            if e.code in STOPPED:
                return session
            raise
        if on_move is not None:
            on_move(session)
    return session


async def play_race(client: Client, bot: Chooser, race: str,
                    on_move: Callable[[Session], Any] | None = None,
                    max_moves: int | None = None) -> tuple[Session | None, Results]:
    """Join ``race`` (or take up again a seat already held, after a crash), wait for the
    start, play to the end of your game, then wait for the race's end: your last payload and
    the results."""
    try:
        await client.join_race(race)
    except ServerError as e:
        if e.code not in ("race.joined", "race.not_open"):
            raise
        state = await client.subscribe_race(race)  # an entrant gets its session now
        summary = state.summary or await client.race(race)
        if e.code == "race.not_open" and summary.entrant(client._me()) is None:
            raise
    session = await client.wait_race_session(race)
    if session is not None:
        session = await play_session(client, bot, session, on_move, max_moves)
    return session, await client.wait_race_end(race)


async def play_daily(client: Client, bot: Chooser, game: str, variant: str,
                     ranked: bool = True, on_move: Callable[[Session], Any] | None = None,
                     max_moves: int | None = None) -> Session:
    """Today's attempt at a rule set (resumed if it is in progress), played to its end."""
    session = await client.start_daily(game, variant, ranked=ranked)
    return await play_session(client, bot, session, on_move, max_moves)


def seed_for(base: str | None, i: int) -> str | None:
    """The ``i``-th seed of a reproducible series: ``base`` + i, as hex of the same width."""
    if base is None:
        return None
    width = max(len(base), 2)
    value = (int(base, 16) + i) % (16**width)
    return f"{value:0{width + width % 2}x}"


async def play_solo(client: Client, make_bot: Callable[[], Chooser], game: str,
                    variant: str, games: int, seed: str | None = None, parallel: int = 1,
                    on_game: Callable[[int, Session], Any] | None = None,
                    max_moves: int | None = None) -> list[Session]:
    """``games`` practice games, ``parallel`` at a time (one bot each), on seeds
    ``seed``, ``seed``+1, … when ``seed`` is given: the final payloads, in game order."""
    results: list[Session | None] = [None] * games
    queue = iter(range(games))

    async def lane() -> None:
        bot = make_bot()
        for i in queue:
            session = await client.solo(game, variant, seed_for(seed, i))
            session = await play_session(client, bot, session, max_moves=max_moves)
            results[i] = session
            if on_game is not None:
                on_game(i, session)

    await asyncio.gather(*(lane() for _ in range(max(1, min(parallel, games)))))
    return [s for s in results if s is not None]


async def play_match(client: Client, bot: Chooser, match: str,
                     on_event: Callable[[dict[str, Any]], Any] | None = None
                     ) -> dict[str, Any]:
    """Join a match and play each of your turns until ``match.ended`` (its message).

    Generic over both kinds of match: whenever the newest position offered to this player (a
    turn's event in a match played in turns, a called-card ``match.you``, a ``match.ack``) has
    legal moves not yet answered, the bot chooses and the move is sent. A bot with ``learn``
    is told the match's rule set first."""
    try:
        joined = await client.join_match(match)
        after = joined.joined_seq
    except ServerError as e:
        if e.code not in ("match.joined", "match.not_open"):
            raise
        after = None
        joined = await client.match(match)
    await teach(client, bot, joined.raw.get("game"), joined.raw.get("variant"))
    state = await client.subscribe_match(match, after)
    answered: str | None = None
    while state.ended is None:
        you = state.you
        if you and you.get("legal") and "view" in you:
            view, legal = you["view"], you["legal"]
            key: str | None = repr((view, legal))
        else:
            key = None
        if key is not None and key != answered:
            answered = key  # each position is answered once; a refusal waits for the next
            move = await choose(bot, view, list(legal))
            try:
                await client.match_move(match, move)
            except ServerError as e:
                if e.code not in WAIT_CODES and not e.code.startswith("turn."):
                    raise
                if e.code == "conflict":  # the match moved meanwhile: look again
                    answered = None
                    await client.match(match)
            continue
        mark = (state.seq, id(state.you))
        try:
            await client.wait_for(lambda m=mark: state.ended is not None  # type: ignore[misc]
                                  or (state.seq, id(state.you)) != m, RECHECK)
        except TimeoutError:
            # Nothing for a while: read the match, in case an event never reached us; the
            # position it offers may be answered again (a move that landed changed it).
            answered = None
            await client.match(match)
        if on_event is not None:
            on_event({"match": match, "seq": state.seq, "you": state.you})
    return state.ended
