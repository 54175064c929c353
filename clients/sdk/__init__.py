"""The SameDeal Python SDK: an asyncio client (``Client``) and a blocking one
(``BlockingClient``) over the documented protocol (docs/protocol.md), and helpers that play
whole games with a bot (``clients.sdk.play``). It imports nothing of the server or the engine,
so it works against any SameDeal server. Reference: docs/bots.md."""

from __future__ import annotations

from .analysis import Analysis, AnalysisPending, Position, TurningPoint
from .arenas import ArenaRounds
from .blocking import BlockingClient
from .board_updates import BoardUpdates
from .challenges import Challenge
from .client import Client, MatchState, RaceState, RequestTimeout
from .errors import ConnectionLost, ProtocolError, SdkError, ServerError
from .hints import Hint
from .messages import (
    Board,
    BoardUpdate,
    Daily,
    Event,
    Match,
    MatchAway,
    MatchBack,
    MatchCard,
    MatchEnded,
    MatchEvent,
    MatchForfeit,
    MatchJoined,
    MatchLeft,
    MatchMoved,
    MatchPlaced,
    MatchRematched,
    MatchStarted,
    MatchYou,
    Notice,
    Race,
    RaceEnded,
    RaceEvent,
    RaceJoined,
    RaceLeft,
    RaceProgress,
    RaceRematched,
    RaceResync,
    RaceStarted,
    Results,
    Session,
    SessionPushed,
)

__all__ = [
    "Analysis", "AnalysisPending", "ArenaRounds", "BlockingClient", "Board", "BoardUpdate",
    "BoardUpdates", "Challenge", "Client", "ConnectionLost", "Daily", "Event", "Hint", "Match",
    "MatchAway", "MatchBack", "MatchCard", "MatchEnded", "MatchEvent", "MatchForfeit",
    "MatchJoined", "MatchLeft", "MatchMoved", "MatchPlaced", "MatchRematched", "MatchStarted",
    "MatchState", "MatchYou", "Notice", "Position", "ProtocolError", "Race", "RaceEnded",
    "RaceEvent", "RaceJoined", "RaceLeft", "RaceProgress", "RaceRematched", "RaceResync",
    "RaceStarted", "RaceState", "RequestTimeout", "Results", "SdkError", "ServerError",
    "Session", "SessionPushed", "TurningPoint",
]
