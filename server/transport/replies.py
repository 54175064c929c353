"""What the server sends: every reply and event type, with a JSON Schema of its fields.

The inbound side is server/transport/schema.py, which checks every message; this side is declared
for the documents (the AsyncAPI document of the WebSocket, the OpenAPI document's replies) and
checked against real replies in the tests. A schema names the fields every message of its type has
and their types; fields that only some carry (a race session's ``race``) are listed as optional, and
unlisted fields are allowed, so a client can rely on what is named here.
"""

from __future__ import annotations

from typing import Any

STR: dict[str, Any] = {"type": "string"}
INT: dict[str, Any] = {"type": "integer"}
NUM: dict[str, Any] = {"type": "number"}
BOOL: dict[str, Any] = {"type": "boolean"}
OBJ: dict[str, Any] = {"type": "object"}
MS: dict[str, Any] = {"type": "integer", "description": "server time, ms since the epoch"}
MS_OR_NULL: dict[str, Any] = {"type": ["integer", "null"],
                              "description": "server time, ms since the epoch; null until known"}
STR_OR_NULL: dict[str, Any] = {"type": ["string", "null"]}
HEX: dict[str, Any] = {"type": "string", "pattern": "^([0-9a-fA-F]{2})*$"}
SEQ: dict[str, Any] = {"type": "integer", "minimum": 1, "description": "the event's number"}


def obj(required: dict[str, Any], optional: dict[str, Any] | None = None,
        doc: str = "") -> dict[str, Any]:
    """An object with these required and optional fields; others may follow."""
    out: dict[str, Any] = {"type": "object", "required": sorted(required),
                           "properties": {**required, **(optional or {})}}
    if doc:
        out["description"] = doc
    return out


PLAYER = obj({"id": STR, "name": STR, "kind": {"enum": ["human", "bot"]}})
PILE = obj({"down": {"type": "integer", "minimum": 0}, "up": {"type": "array", "items": STR}})
VIEW = obj({"game": STR, "variant": STR, "status": {"enum": ["playing", "won", "lost",
                                                             "finished"]},
            "score": NUM, "moves": INT,
            "piles": {"type": "object", "additionalProperties": PILE}}, {"info": OBJ},
           doc="what a player sees of a game: face-down cards are counts, never cards")
SESSION = obj({"session": STR, "rev": {"type": "integer", "minimum": 0},
               "mode": {"enum": ["practice", "race", "daily", "daily-replay"]},
               "view": VIEW, "legal": {"type": "array", "items": STR},
               "safe": {"type": "array", "items": STR}, "can_undo": BOOL,
               "commitment": HEX, "created": MS},
              {"race": STR, "daily": STR, "seed": HEX, "ranked": BOOL, "unranked_reason": STR,
               "repeated": {"const": True, "description": "the reply to a move, undo or "
                            "resign sent again with the rev it was made at: it was made "
                            "before and stands; nothing changed now"}},
              doc="the session payload (docs/protocol.md#the-session-payload)")
RATING = obj({"mu": NUM, "sigma": NUM, "ordinal": NUM, "races": INT},
             doc="a rating (OpenSkill): its mean, uncertainty, the ordinal boards rank by, and "
                 "the races it counts")
STREAK = obj({"days": INT, "best": INT}, doc="the days in a row so far, and the most ever")
RULE_SET_STATS = obj({"game": STR, "variant": STR, "played": INT, "won": INT,
                      "best_time_ms": {"type": ["integer", "null"]},
                      "best_score": {"type": ["integer", "null"]},
                      "average_score": {"type": ["number", "null"]}},
                     doc="a player's games of one rule set")
STATS = {"type": "array", "items": RULE_SET_STATS}
PROFILE = obj({"id": STR, "name": STR, "kind": {"enum": ["human", "bot"]}, "created": MS,
               "stats": STATS,
               "streaks": obj({"played": STREAK, "won": STREAK}),
               "ratings": {"type": "object", "additionalProperties": RATING,
                           "description": "per rule set (game/variant)"},
               "ratings_against_bots": {"type": "object", "additionalProperties": RATING,
                                        "description": "per rule set, from races against "
                                                       "the server's bots"}},
              doc="a player's public profile (docs/protocol.md)")
SESSION_TRANSCRIPT = obj(
    {"session": STR, "player": STR, "game": STR, "variant": STR, "competitive": BOOL,
     "commitment": HEX, "seed": {"oneOf": [HEX, {"type": "null"}],
                                 "description": "null while it is still secret"},
     "moves": {"type": "array", "items": STR,
               "description": "the game as it stands: undone moves are gone"},
     "times": {"type": "array", "items": MS,
               "description": "the server time each move was accepted"},
     "status": VIEW["properties"]["status"], "score": INT, "created": MS,
     "daily": STR_OR_NULL, "hints": {"type": "integer", "minimum": 0,
                                     "description": "hints served in it"}},
    doc="a session's move list with server times (docs/protocol.md)")
#: a move's ack: on v1 the whole session payload; on v2 the same, or only what changed since
#: the previous revision (docs/protocol.md#protocol-v2)
ACK = {**obj({"session": STR, "rev": {"type": "integer", "minimum": 1}},
             {**SESSION["properties"],
              "changes": obj({}, {**VIEW["properties"], "piles": {
                  "type": "object", "additionalProperties": PILE}},
                  doc="v2: the view's fields that changed; of the piles, those that changed"),
              "seq": {**SEQ, "description": "v2, a race session: the number of the "
                      "race.progress event this change made, which the ack stands in for"},
              "cards": {"type": "integer", "minimum": 0,
                        "description": "v2, a race session: cards on the foundations"}},
             doc="the session after the change: whole (v1; v2 when the socket did not have "
                 "the previous revision), or the changes from the previous revision (v2)"),
       "oneOf": [{"required": SESSION["required"], "not": {"required": ["changes"]}},
                 {"required": ["changes"], "not": {"required": ["view"]}}]}
STATE = {"enum": ["open", "running", "ended"]}
#: A race's or match's start: when the last seat fills, or when its creator says.
START = {"enum": ["full", "manual"]}
SCORING = {"enum": ["traditional", "points", "low"],
           "description": "traditional and points: higher is better; low: lower is better"}
ENTRANT = obj({"player": STR, "name": STR, "kind": {"enum": ["human", "bot"]}},
              {"session": STR, "status": VIEW["properties"]["status"], "score": INT,
               "moves": INT, "finished_at": MS_OR_NULL, "tie_break": INT, "resigned": BOOL},
              doc="an entrant; once the race started, their progress (docs/protocol.md#ranking)")
RACE_BOT = obj({"player": STR, "name": STR, "strength": STR})
RANKED = obj({"player": STR, "name": STR, "kind": PLAYER["properties"]["kind"],
              "status": VIEW["properties"]["status"], "score": INT, "moves": INT,
              "rank": {"type": "integer", "minimum": 1},
              "time_ms": {"type": "integer", "minimum": 0,
                          "description": "from the start to finishing (a resignation, or "
                          "playing at the time limit: the race's end)"}},
             {"session": STR, "finished_at": MS_OR_NULL, "tie_break": INT, "resigned": BOOL},
             doc="an entrant of an ended race, ranked (docs/protocol.md#ranking)")
RACE = obj({"race": STR, "game": STR, "variant": STR, "name": STR, "scoring": SCORING,
            "state": STATE, "commitment": HEX, "seats": INT,
            "start": START, "time_limit": INT, "countdown": INT,
            "creator": STR, "seq": {"type": "integer", "minimum": 0},
            "entrants": {"type": "array", "items": ENTRANT}},
           {"joined_seq": INT, "seed": HEX,
            "ghost": {**STR, "description": "a ghost race's run: the ghost race, which "
                      "reveals the seed"},
            "created": MS_OR_NULL, "starts_at": MS_OR_NULL,
            "ends_at": MS_OR_NULL, "ended_at": MS_OR_NULL, "rematch": STR_OR_NULL,
            "rematch_by": STR_OR_NULL, "rematch_of": STR_OR_NULL,
            "bot": {"oneOf": [RACE_BOT, {"type": "null"}],
                    "description": "a race against a server-run bot: the bot; else null"}},
           doc="the race summary (docs/protocol.md#the-race-summary)")
RACE_RESULTS = obj({"race": STR, "game": STR, "variant": STR, "commitment": HEX,
                    "starts_at": MS, "ended_at": MS,
                    "ranking": {"type": "array", "items": RANKED},
                    "bot": RACE["properties"]["bot"]},
                   {"seed": HEX,
                    "ghost": {**STR, "description": "a ghost race's run: the ghost race, which "
                              "reveals the seed (none here)"},
                    "arena": {**STR, "description": "an arena's round: the arena"}},
                   doc="an ended race's results (docs/protocol.md#ranking)")
SEAT = obj({"player": STR, "name": STR, "kind": PLAYER["properties"]["kind"],
            "seat": {"type": ["integer", "null"], "description": "1-based, once started"},
            "away": BOOL, "forfeited": BOOL}, doc="a player of a match, in seat order")
BOWLED = obj({"card": STR, "move": STR}, doc="a card bowled and where it was placed")
PLAYER_IN_ORDER = obj({"player": STR, "name": STR, "kind": PLAYER["properties"]["kind"]},
                      doc="a match's player, in seat order")
MATCH_RANKED = obj({"player": STR, "name": STR, "kind": PLAYER["properties"]["kind"],
                    "score": INT, "forfeited": BOOL,
                    "time_ms": {"type": "integer", "minimum": 0,
                                "description": "the match's time, from its start"},
                    "rank": {"type": "integer", "minimum": 1},
                    "status": {"enum": ["won", "finished"],
                               "description": "won: the first rank, shared on a tie"}},
                   {"bowler": {"type": "integer", "minimum": 1,
                               "description": "a turns match: the bowler's number"}},
                   doc="a player of an ended match, ranked (a player who left ranks after "
                       "those who stayed)")
#: What an ended match's results and its transcript both begin with.
MATCH_ENDED = {"match": STR, "kind": STR, "game": STR, "variant": STR, "seed": HEX,
               "commitment": HEX, "started_at": MS, "ended_at": MS}
MATCH_RESULTS = obj({**MATCH_ENDED,
                     "ranking": {"type": "array", "items": MATCH_RANKED},
                     "winner": {"type": "array", "items": STR}},
                    {"scorecards": {"type": "array", "items": OBJ,
                                    "description": "a turns match: each bowler's scorecard, "
                                    "in seat order"},
                     "starter": {**STR_OR_NULL, "description": "a called-card match: the "
                                 "common starter, where its game scores with one"},
                     "lines": {"type": "object", "description": "a called-card match: each "
                               "player's score line by line"}},
                    doc="an ended match's results")
TIMED_TURN = obj({"t": MS, "bowler": {"type": "integer", "minimum": 1}, "player": STR,
                  "move": STR}, doc="a turns match's move, its bowler and its server time")
TIMED_MOVE = obj({"t": MS, "move": STR}, doc="a player's placement and its server time")
MATCH_TRANSCRIPT = obj(
    {**MATCH_ENDED, "order": {"type": "array", "items": PLAYER_IN_ORDER},
     "results": MATCH_RESULTS,
     "moves": {"oneOf": [{"type": "array", "items": TIMED_TURN},
                         {"type": "object", "additionalProperties": {
                             "type": "array", "items": TIMED_MOVE}}],
               "description": "a turns match: every move in turn; a called-card match: each "
                              "player's placements"}},
    doc="an ended match's every placement, seed and results (docs/protocol.md)")
#: what is one player's alone in a match: in the summary (``YOURS``) and its own event (``OWN``)
YOURS_FIELDS = {"view": VIEW, "legal": {"type": "array", "items": STR}, "waiting": BOOL,
                "as_of": INT}
YOURS_DEADLINE = {"deadline": MS | {"description": "Bowling: when the timer places your card"}}
YOURS = obj(YOURS_FIELDS, YOURS_DEADLINE, doc="your grid, or your lane on your turn")
MATCH_TURN = obj({"player": STR, "bowler": INT, "deadline": MS},
                 doc="whose turn it is, and its deadline as everyone sees it")
MATCH_FRAME = obj({"frame": INT, "bowlers": {"type": "array", "items": obj(
    {"bowler": INT, "player": STR, "cards": {"type": "array", "items": BOWLED}})}},
    doc="a frame every bowler still in has bowled: per bowler, each card and its placement, "
    "in the order bowled")
MATCH = obj({"match": STR, "kind": STR, "game": STR, "variant": STR, "name": STR,
             "state": STATE, "commitment": HEX, "seats": INT,
             "start": START, "turn_time": INT, "grace": INT,
             "creator": STR, "seq": {"type": "integer", "minimum": 0},
             "rev": {"type": "integer", "minimum": 0},
             "players": {"type": "array", "items": SEAT}},
            {"joined_seq": INT, "seed": HEX, "results": MATCH_RESULTS,
             "you": {"oneOf": [YOURS, {"type": "null"}]},
             "view": VIEW, "own_frame": obj({"frame": INT, "bowler": INT, "player": STR,
                                            "cards": {"type": "array", "items": BOWLED},
                                            "scorecard": OBJ}),
             "turn": {"oneOf": [MATCH_TURN, {"type": "null"}]},
             "frames": {"type": "array", "items": MATCH_FRAME},
             "round": INT, "card": STR_OR_NULL, "deadline": MS_OR_NULL,
             "scores": {"type": "object", "additionalProperties": obj(
                 {"score": NUM, "lines": {"description": "each row's and column's hand and "
                                          "points"},
                  "placed": INT, "done": BOOL, "waiting": BOOL})},
             "created": MS_OR_NULL, "started_at": MS_OR_NULL, "ended_at": MS_OR_NULL,
             "rematch": STR_OR_NULL, "rematch_by": STR_OR_NULL, "rematch_of": STR_OR_NULL},
            doc="the match summary (docs/protocol.md#the-match-summary); `kind` is the rule "
                "set's match kind from the catalog")
OWN = obj({"match": STR, **YOURS_FIELDS}, YOURS_DEADLINE,
          doc="what is yours alone in a match: your grid, or your lane on your turn")
CHAIN = obj({"anchor": HEX, "start": STR, "length": INT},
            {"created": MS, "reason": STR},
            doc="a chain of day secrets' public record (docs/fairness.md)")
BEACON_CHAIN = obj({"hash": HEX, "schemeID": STR, "public_key": HEX, "genesis_time": INT,
                    "period": INT},
                   doc="the drand chain the round is of (drand's /info names): what a checker "
                   "needs to verify the round's signature and that it is the day's")
ROUND = obj({"round": INT, "randomness": HEX, "signature": HEX},
            {"previous_signature": {"type": ["string", "null"]}, "chain": BEACON_CHAIN},
            doc="the public randomness beacon's round mixed into the day's seeds")
#: A daily deal's fields of the winnable-deal rule (docs/fairness.md, "Winnable daily deals").
WINNABLE_DEAL: dict[str, Any] = {
    "winnable_rule": {"type": "boolean", "description": "the deal is its day's first "
                      "candidate the solver proves winnable (which one: after the reveal)"},
    "pending": {"type": "boolean", "description": "the candidate is not decided yet: no "
                "commitment until it is"},
    "winnable": obj({"k": INT, "found": BOOL, "line": STR_OR_NULL,
                     "par": {"type": ["integer", "null"]},
                     "budget": obj({"positions": INT, "solver": INT}), "cap": INT,
                     "candidates": {"type": "array", "items": obj(
                         {"k": INT, "verdict": {"enum": ["won", "lost", "unknown"]},
                          "positions": INT})}},
                    doc="after the reveal: the candidate dealt and each one judged")}
#: The same fields as one object, as the server makes them before merging them into a deal.
WINNABLE_FIELDS = obj({}, WINNABLE_DEAL, doc="a daily deal's fields of the winnable-deal rule")
WINNABLE_CHOICE = WINNABLE_DEAL["winnable"]
#: A revealed daily board's par, and each entry's moves against it.
PAR = {"par": {"type": "integer", "description": "a revealed daily board: the moves of the "
               "day's winning line (docs/daily.md, par)"}}
VS_PAR = {"vs_par": {"type": "integer", "description": "with par: the entry's moves minus "
                     "par"}}
YOU_DEAL = obj({"ranked": BOOL, "played": BOOL},
               {"unranked_reason": STR,
                "review": {"enum": ["pending", "cleared", "removed"],
                           "description": "your flagged result's review: pending (off the "
                                          "boards for now), cleared or removed"}},
               doc="with a token: your attempt at this deal (docs/daily.md#who-ranks)")
LIVE_STATE = {"enum": ["open", "playing", "ended"]}
LIVE = obj({"day": STR, "at": MS, "ends_at": MS, "window": INT, "now": MS,
            "editions": {"type": "array", "items": obj(
                {"game": STR, "variant": STR, "name": STR, "state": LIVE_STATE,
                 "signed_up": INT, "board": STR, "race": STR_OR_NULL},
                {"commitment": HEX, "seed": HEX, "waiting": BOOL, "joined": BOOL,
                 "session": STR, **WINNABLE_DEAL})}},
           doc="the daily's live edition of a day (docs/protocol.md#the-dailys-live-edition)")
DAILY = obj({"day": STR, "state": {"enum": ["open", "closing", "revealed"]},
             "opens_at": MS, "closes_at": MS, "deadline": MS, "now": MS,
             "reveal_due": MS, "overdue": BOOL,
             "chain": {"oneOf": [CHAIN, {"type": "null"}]},
             "deals": {"type": "array", "items": obj(
                 {"game": STR, "variant": STR, "name": STR},
                 {"commitment": HEX, "seed": HEX, **WINNABLE_DEAL, "you": YOU_DEAL})}},
            {"beacon": {"oneOf": [ROUND, {"type": "null"}]}, "waiting": BOOL,
             "secret": HEX, "revealed_at": MS,
             "live": {"oneOf": [LIVE, {"type": "null"}]}})
#: Against a second account: everyone dealt at once (live), or whenever each started (open).
FORMAT = {"enum": ["live", "open"], "description": "live: everyone on the board was dealt at "
          "the same instant; open: each when they started, so a second account could play the "
          "deal first (docs/fairness.md)"}
ENTRY = obj({"rank": {"type": "integer", "minimum": 1}, "player": STR}, {
    "name": STR, "kind": {"enum": ["human", "bot"]},
    "status": VIEW["properties"]["status"], "score": NUM, "time_ms": INT, "moves": INT,
    "tie_break": {**INT, "description": "the game's own tie-break, lower first"},
    "finished_at": MS, "session": STR_OR_NULL,
    "walked_away": {**BOOL, "description": "a daily attempt left unfinished"},
    "resigned": BOOL,
    "race": {**STR, "description": "a ghost race's board: the race of the run"},
    "points": {**INT, "description": "a points board (weekly, all-time, an arena's, a "
               "league's weekly): the points so far"},
    "results": {**INT, "description": "a points board: the results counted"},
    "wins": {**INT, "description": "a points board: the games won"},
    "firsts": {**INT, "description": "a league's weekly board: the daily boards (a game on a "
               "day) where the member ranked first of the members"},
    "streak": {**INT, "description": "a league's weekly board: the member's current run of "
               "days played"},
    "days": {**INT, "description": "a streak board: the longest run of days"},
    "mu": {**NUM, "description": "a rating board: the rating's mean"},
    "sigma": {**NUM, "description": "a rating board: its uncertainty"},
    "ordinal": {**NUM, "description": "a rating board: what ranks it, mu less three sigma"},
    "races": {**INT, "description": "a rating board: the races rated"},
    **VS_PAR}, doc="a board's row: its rank and player, and what the board keeps of the "
    "player's result (which fields depends on the board: docs/protocol.md, board.get)")
BOARD = obj({"board": STR, "kind": {"enum": ["human", "bot"]}, "format": FORMAT,
             "total": {"type": "integer", "minimum": 0},
             "entries": {"type": "array", "items": ENTRY}},
            {"you": {"type": ["integer", "null"],
                     "description": "with around=me: your rank, or null: no entry yet"},
             **PAR})
ERROR = obj({"code": STR, "message": STR},
            {"retry_after": {"type": "number", "minimum": 0,
                             "description": "rate.limited: seconds to wait before trying "
                                            "again"},
             "limit": {"enum": ["socket", "account", "origin", "sockets", "registration",
                                 "hints", "league.join"],
                       "description": "rate.limited: which limit (docs/protocol.md#limits)"},
             "race": {**STR, "description": "race.bot_busy: the bot race you are in"},
             "rev": {"type": "integer", "minimum": 0,
                     "description": "conflict of a move, undo or resign sent with a stale "
                                    "rev: the session's revision now"}},
            doc="a refusal: a stable dotted code and a sentence for people")
WATCHED = {"board": STR, "kind": {"enum": ["human", "bot"]}}
BOARD_UPDATE = obj({**WATCHED, "format": FORMAT, "total": {"type": "integer", "minimum": 0},
                    "entries": {"type": "array", "items": ENTRY},
                    "you": {"oneOf": [ENTRY, {"type": "null"}],
                            "description": "your own entry, rank included; null: none yet"}},
                   PAR, doc="a watched board's top entries (as board.get shows them) and yours")
LEAGUE = obj({"league": STR, "name": STR, "code": STR, "created": MS,
              "owner": obj({"id": STR, "name": STR}),
              "members": {"type": "array", "items": obj({"player": STR, "name": STR,
                                                         "kind": STR, "joined": MS})}},
             doc="a league as its members see it; anyone else gets league.unknown")
ARENA_STATE = {"enum": ["scheduled", "running", "ended", "cancelled"]}
WINNER = {"oneOf": [obj({"player": STR, "name": STR, "points": INT}, {"kind": STR}),
                    {"type": "null"}], "description": "most points at the end; null: none"}
ARENA = obj({"arena": STR, "name": STR, "game": STR, "variant": STR, "state": ARENA_STATE,
             "starts_at": MS, "ends_at": MS, "duration": INT, "interval": INT, "repeat": INT,
             "round": {"type": "integer", "minimum": -1,
                       "description": "the round dealt last, from 0; -1: none yet"},
             "current": STR_OR_NULL, "rounds": {"type": "array", "items": STR},
             "players": {"type": "array", "items": obj({"player": STR, "name": STR},
                                                          {"kind": PLAYER["properties"]["kind"]})},
             "winner": WINNER, "board": STR,
             "points": obj({"places": {"type": "array", "items": INT}, "finished": INT,
                            "played": INT},
                           doc="a round's points: by place (first, second, third), for "
                               "finishing, for playing")},
            {"joined": BOOL, "created": MS, "ended_at": MS_OR_NULL, "next": STR_OR_NULL,
             "repeat_of": STR_OR_NULL},
            doc="the arena summary (docs/protocol.md#arenas)")
CHALLENGE = obj({"challenge": STR, "from": PLAYER, "to": PLAYER, "game": STR, "variant": STR,
                 "name": STR, "state": {"enum": ["pending", "accepted", "declined",
                                                 "withdrawn", "expired"]},
                 "created": MS, "expires_at": MS, "race": STR_OR_NULL,
                 "answered_at": MS_OR_NULL},
                doc="a challenge by name (docs/protocol.md#challenges): who challenged whom "
                    "on which rule set; its race once accepted; never anything of a deal")
RACE_EVENT = {"race": STR, "seq": SEQ}
MATCH_EVENT = {"match": STR, "seq": SEQ}
BY = {"enum": ["player", "timer"]}

GHOST = obj({"ghost": STR, "game": STR, "variant": STR, "name": STR, "scoring": SCORING,
             "creator": STR, "state": {"enum": ["open", "closed", "revealed"]},
             "commitment": HEX, "created": MS, "closes_at": MS, "cap": INT, "time_limit": INT,
             "countdown": INT, "entrants": INT,
             "finished": INT, "board": STR, "ranking": {"type": "array", "items": ENTRY},
             "to_beat": {"oneOf": [ENTRY, {"type": "null"}]}},
            {"closed_at": MS_OR_NULL, "revealed_at": MS_OR_NULL, "seed": HEX,
             "transcripts": {"type": "array", "items": obj(
                 {"player": STR, "name": STR, "session": STR,
                  "moves": {"type": "array", "items": STR},
                  "times": {"type": "array", "items": INT},
                  "status": VIEW["properties"]["status"], "score": INT})}},
            doc="the ghost race summary (docs/protocol.md#ghost-races): the seed and the "
                "transcripts only once revealed")
GHOST_ENTRY = obj({"ghost": GHOST, "race": STR, "joined_seq": INT, "session": SESSION},
                  doc="your run in a ghost race: its race and your session in it")

INT_OR_NULL: dict[str, Any] = {"type": ["integer", "null"]}
MOVES: dict[str, Any] = {"type": "array", "items": STR}
JUDGED = obj({"verdict": {"enum": ["won", "lost", "unknown", "best"]},
              "to_go": {**INT_OR_NULL, "description": "won: moves still to go"},
              "score": {**INT_OR_NULL, "description": "best: the best score found from here"},
              "complete": {**BOOL, "description": "decided: lost proved, a best score proved "
                           "the best"},
              "searched": {**INT, "description": "positions the search spent here (0: passed "
                           "along the line)"}},
             doc="one position of the game, the deal first, judged by the solver")
TURNING_POINT = obj({"move_number": {**INT, "description": "1-based"},
                     "move": {**STR, "description": "resign: resigned while still winnable"},
                     "words": STR, "after": {"enum": ["lost", "unknown", "resigned", "stopped"]},
                     "better": {**MOVES, "description": "a winning line from the position "
                                "before it, made short"},
                     "better_words": STR, "text": STR},
                    {"to_go": INT, "score_before": INT, "score_after": INT},
                    doc="the move after which the deal could no longer be won, or that cost "
                    "the most points")
ANALYSIS = obj({"version": INT, "moves": MOVES, "positions": {"type": "array", "items": JUDGED},
                "status": STR, "summary": STR, "game": STR, "variant": STR,
                "solver": {**INT, "description": "the solver's version that judged it"},
                "budget": {**INT, "description": "positions a position's search may spend"},
                "resigned": BOOL,
                "turning_point": {"oneOf": [TURNING_POINT, {"type": "null"}]},
                "last_winnable": {**INT_OR_NULL, "description": "the last position won"},
                "par": {**INT_OR_NULL, "description": "a won game: the length of its deal's "
                        "winning line made short"},
                "over_par": INT_OR_NULL, "searched": INT},
               doc="ready: each position along the line played judged, and the turning "
                   "point (docs/protocol.md#analysis)")

#: Replies to a request (they carry its ``id``), by type: (when it is sent, payload schema).
REPLIES: dict[str, tuple[str, dict[str, Any]]] = {
    "welcome": ("reply to hello; the first message after a good Authorization header",
                obj({"player": PLAYER})),
    "pong": ("reply to ping", obj({})),
    "player": ("reply to player.rename: you, under your new name", obj({"player": PLAYER})),
    "session": ("reply to solo.start, session.get, daily.start; pushed when your race starts",
                SESSION),
    "ack": ("reply to move, undo, resign: the session after the change (v2: what changed)",
            ACK),
    "race": ("reply to race.create/join/leave/start/rematch/bot; the resync on race.subscribe",
             RACE),
    "match": ("reply to match.create/join/leave/start/get/rematch; the resync on "
              "match.subscribe",
              MATCH),
    "match.ack": ("reply to match.move: the match after your card", MATCH),
    "unsubscribed": ("reply to race.unsubscribe, match.unsubscribe, board.unsubscribe and "
                     "arena.unsubscribe",
                     {**obj({}, {"race": STR, "match": STR, **WATCHED, "arena": STR}),
                      "oneOf": [{"required": ["race"]}, {"required": ["match"]},
                                {"required": ["board", "kind"]}, {"required": ["arena"]}]}),
    "subscribed": ("reply to board.subscribe: the board's name as its updates give it "
                   "('today', 'current' resolved)", obj(WATCHED)),
    "daily": ("reply to daily.get: the day and its deals", DAILY),
    "board": ("reply to board.get: a page of a leaderboard", BOARD),
    "error": ("any refusal; carries the request's id when it could be read", ERROR),
    "ghost": ("reply to ghost.create and ghost.get: the ghost race", GHOST),
    "ghost.entry": ("reply to ghost.enter: your run (new, or resumed while in progress)",
                    GHOST_ENTRY),
    "suggestion": ("reply to hint: the next move to play in a practice game, not played",
             obj({"session": STR, "rev": {"type": "integer", "minimum": 0},
                  "move": {"type": ["string", "null"],
                           "description": "as in the session's legal moves; null: none left"},
                  "source": {"enum": ["solver", "heuristic", "none"]},
                  "hints": {"type": "integer", "minimum": 1,
                            "description": "hints served in this session so far"}},
                 {"words": {"type": "string",
                            "description": "the move in card words, as the board before it "
                                           "shows it ('the 7♠ onto the 8♥'); with every move"},
                  "line_left": {"type": "integer", "minimum": 1,
                                "description": "solver: moves left in its line, this one "
                                               "included"},
                  "score": {"type": "integer",
                            "description": "solver, a game played for points: the score at "
                                           "the end of its line"},
                  "lost": {"const": True,
                           "description": "heuristic: the search proved that no line from "
                                          "here wins"}},
                 doc="a hint (docs/protocol.md#hints)")),
    "analysis": ("reply to analysis.get: a finished game's analysis, or pending while it "
                 "is computed", obj(
                     {"session": STR, "state": {"enum": ["ready", "pending"]}},
                     {"analysis": ANALYSIS,
                      "retry_ms": {"type": "integer", "minimum": 1,
                                   "description": "pending: ask again after this long"}},
                     doc="docs/protocol.md#analysis")),
    "league": ("reply to league.create/join/remove/code/get", LEAGUE),
    "league.left": ("reply to league.leave; closed: you owned it, and it is no more",
                    obj({"league": STR, "closed": BOOL})),
    "leagues": ("reply to league.list: the leagues you are in",
                obj({"leagues": {"type": "array", "items": obj(
                    {"league": STR, "name": STR, "owner": STR, "members": INT})}})),
    "arena": ("reply to arena.join/leave/get/subscribe: the arena", ARENA),
    "daily_live": ("reply to daily_live.join/leave/get: the day's live edition, yours marked",
                   LIVE),
    "challenge": ("reply to challenge.send, challenge.decline, challenge.withdraw: the "
                  "challenge as it is now", CHALLENGE),
    "challenges": ("reply to challenge.list: challenges to you and from you, the pending "
                   "first; whether you refuse every challenge",
                   obj({"challenges": {"type": "array", "items": CHALLENGE}, "refuse": BOOL})),
    "challenge.settings": ("reply to challenge.refuse: whether you refuse every challenge",
                           obj({"refuse": BOOL})),
}
#: What the server sends unasked, by type: (when, payload schema).
EVENTS: dict[str, tuple[str, dict[str, Any]]] = {
    "race.joined": ("someone took a seat", obj({**RACE_EVENT, "player": PLAYER})),
    "race.left": ("someone left before the start", obj({**RACE_EVENT, "player": STR})),
    "race.started": ("the race started", obj({
        **RACE_EVENT, "starts_at": MS, "ends_at": MS,
        "sessions": {"type": "object", "additionalProperties": STR}})),
    "race.progress": ("an entrant moved, undid or resigned", obj({
        **RACE_EVENT, "player": STR, "moves": INT, "score": NUM, "cards": INT,
        "status": STR})),
    "race.ended": ("everyone finished or time is up (a ghost race's run: no seed, its ghost "
                   "race reveals it)", obj({
        **RACE_EVENT, "ranking": {"type": "array", "items": RANKED}}, {"seed": HEX})),
    "race.rematched": ("an entrant of the ended race asked for a rematch: the same entrants on "
                     "a new deal", obj({**RACE_EVENT, "rematch": STR, "by": PLAYER})),
    "match.joined": ("someone took a seat", obj({**MATCH_EVENT, "player": PLAYER})),
    "match.left": ("someone gave up a seat before the start",
                   obj({**MATCH_EVENT, "player": STR})),
    "match.started": ("the match started", obj({
        **MATCH_EVENT, "kind": STR, "order": {"type": "array", "items": PLAYER_IN_ORDER},
        "started_at": MS}, {"view": VIEW, "turn": {"oneOf": [MATCH_TURN, {"type": "null"}]},
                            "round": INT, "card": STR, "deadline": MS})),
    "match.moved": ("a bowler's turn passed, or a frame or the match ended (a turns match)", obj({
        **MATCH_EVENT, "player": STR, "bowler": INT, "by": BY,
        "move": STR_OR_NULL | {"description": "the pin or ball pile; null for all but its "
                               "bowler until the frame is complete"}},
        {"view": VIEW, "turn": {"oneOf": [MATCH_TURN, {"type": "null"}]},
         "frames": {"type": "array", "items": MATCH_FRAME,
                    "description": "the frames this move completed"}})),
    "match.placed": ("a player placed the called card (a called match)", obj({
        **MATCH_EVENT, "player": STR, "round": INT, "by": BY, "score": NUM, "done": BOOL},
        {"lines": {"description": "their running line scores, no starter"}})),
    "match.card": ("everyone placed; the next card is called", obj({
        **MATCH_EVENT, "round": INT, "card": STR, "deadline": MS})),
    "match.forfeit": ("a player left for good", obj(
        {**MATCH_EVENT, "player": STR},
        {"view": VIEW, "turn": {"oneOf": [MATCH_TURN, {"type": "null"}]},
         "frames": {"type": "array", "items": MATCH_FRAME,
                    "description": "a turns match: the frames the forfeit completed"}})),
    "match.away": ("a player's last socket went away", obj({**MATCH_EVENT, "player": STR})),
    "match.back": ("a player who was away came back", obj({**MATCH_EVENT, "player": STR})),
    "match.ended": ("every placement is made, or everyone left", obj({
        **MATCH_EVENT, "seed": HEX, "results": MATCH_RESULTS})),
    "match.rematched": ("a player of the ended match asked for a rematch: the same players on "
                      "a new deal", obj({**MATCH_EVENT, "rematch": STR, "by": PLAYER})),
    "match.you": ("what is yours alone: your grid when a card is called, your lane on your "
                  "turn", OWN),
    "board.update": ("a watched board's top or your own entry changed (at most once a "
                     "second); the first follows board.subscribe", BOARD_UPDATE),
    "ghost.progress": ("an earlier entrant's recorded run moved, at the same moment of its "
                       "run as yours now (ghost races)", obj({
                           "ghost": STR, "race": STR, "player": STR, "name": STR,
                           "offset": INT, "moves": INT, "score": NUM, "cards": INT,
                           "status": STR})),
    "arena.round": ("a followed arena dealt a new round: its race (follow it with "
                    "race.subscribe) and each player's session in it", obj({
                        "arena": STR, "round": INT, "race": STR, "commitment": HEX,
                        "starts_at": MS, "ends_at": MS,
                        "sessions": {"type": "object", "additionalProperties": STR}})),
    "arena.ended": ("a followed arena ended (its winner) or was cancelled", obj({
        "arena": STR, "winner": WINNER, "cancelled": BOOL})),
    "daily_live.dealt": ("a live edition you joined was dealt: your session in its race",
                         obj({"day": STR, "game": STR, "variant": STR, "race": STR,
                              "commitment": HEX, "starts_at": MS, "ends_at": MS,
                              "session": {"type": ["string", "null"]}})),
    "daily_live.ended": ("a live edition you joined ended: its board is final",
                         obj({"day": STR, "game": STR, "variant": STR, "board": STR})),
    "challenge.received": ("someone challenged you: accept or decline before expires_at; "
                           "sent to every socket you have open", CHALLENGE),
    "challenge.answered": ("a challenge to you or from you was accepted (its race is in "
                           "race), declined, withdrawn or expired", CHALLENGE),
    "reconnect": ("the node is shutting down: reconnect and resume; the socket closes next "
                  "with code 1012", obj({"message": STR})),
}
