"""The asyncio client: REST for request/response, one WebSocket for live play, and the
bookkeeping that lets a dropped connection resume where it was (docs/protocol.md#events-and-
reconnecting). It speaks only the documented protocol; it imports nothing of the server.

``Client`` is assembled from mixins, one job each: ``Connection`` (the socket, requests,
reconnecting, the event queue), ``Following`` (what arrives, races and matches followed),
``Accounts`` (REST reads), ``Sessions``, ``DailyAndBoards``, ``Leagues``, ``Races``,
``Matches``, ``Hints``, ``Analyses`` (a finished game's analysis), ``Arenas`` and
``Challenges``."""

from __future__ import annotations

from .analysis import Analyses
from .arenas import Arenas
from .bot_races import BotRaces
from .challenges import Challenges
from .connection import RequestTimeout
from .daily import DailyAndBoards
from .hints import Hints
from .leagues import Leagues
from .matches import Matches
from .races import Races
from .sessions import Sessions
from .state import MatchState, RaceState

__all__ = ["Client", "MatchState", "RaceState", "RequestTimeout"]


class Client(Challenges, Races, Matches, Arenas, Analyses, Sessions, Leagues, DailyAndBoards,
             BotRaces, Hints):
    """An asyncio SameDeal client for one player.

    ``url`` is the server's address (``http://127.0.0.1:8000``); ``token`` the bearer token
    from registration; ``encoding`` ``"json"`` or ``"msgpack"`` (the WebSocket and REST both).
    The WebSocket opens on ``async with`` or on the first call that needs it. When it drops the
    client reconnects with backoff, says hello again and re-subscribes every race and match it
    follows from the last event it saw; a request that may already have been applied is never
    blindly sent twice (see ``move``)."""
