"""The check after each test (tests/server/stated.py) finds what the reply schema does not
state, wherever it lies, and nothing where the schema states it or leaves it open."""

from __future__ import annotations

from .stated import unstated, unstated_rest


def test_a_field_the_schema_does_not_state_is_found_at_any_depth() -> None:
    assert unstated({"type": "pong", "id": 3}) == set()
    assert unstated({"type": "pong", "late": 1}) == {"pong.late"}
    assert unstated({"type": "nonesuch"}) == {"type 'nonesuch'"}
    event = {"type": "match.moved", "match": "m", "seq": 4, "player": "p", "bowler": 1,
             "by": "timer", "move": None, "frames": [{"frame": 1, "bowlers": [
                 {"bowler": 1, "player": "p", "cards": [{"card": "Ah", "move": "p1"}],
                  "lane": 2}]}]}
    assert unstated(event) == {"match.moved.frames[].bowlers[].lane"}
    # A view's info is each rule set's own: left open.
    assert unstated({"type": "match.you", "match": "m", "view": {"info": {"frame": 2}}}) == set()


def test_a_rest_reply_is_held_to_its_route_s_schema() -> None:
    assert unstated_rest("GET", "/api/v1/matches/m1", 200, {"match": "m1", "bogus": 1}) == {
        "GET /api/v1/matches/m1.bogus"}
    page = {"board": "b", "entries": [{"rank": 1, "player": "p", "zz": 2}]}
    assert unstated_rest("GET", "/api/v1/boards/daily/today/golf/easy", 200, page) == {
        "GET /api/v1/boards/daily/today/golf/easy.entries[].zz"}
    assert unstated_rest("GET", "/api/v1/nothing", 404, {"code": "c", "message": "m"}) == set()
    assert unstated_rest("GET", "/api/v1/nothing", 200, {}) == {
        "GET /api/v1/nothing: no such route"}
    assert unstated_rest("GET", "/readyz", 200, {"store": "redis"}) == set()  # not the API's
