"""The catalog (GET /api/v1/games) over a real socket goes as the web client's files do: gzip
where Accept-Encoding allows it, a strong ETag from its content answered with a body-less 304,
``Cache-Control: no-cache``; the same for every caller, the token still checked first; hostile
If-None-Match headers get the catalog, not an error. Other JSON answers are left as they were."""

from __future__ import annotations

import gzip
import json
import socket
from typing import Any

import httpx
import msgpack
import pytest

from .client import Node

GAMES = "/api/v1/games"
GZ = {"accept-encoding": "gzip"}
PLAIN = {"accept-encoding": "identity"}
MSGPACK = {"accept": "application/msgpack"}


def token_for(node: Node, name: str) -> str:
    r = httpx.post(node.url + "/api/v1/players", json={"name": name, "kind": "bot"}, timeout=10)
    assert r.status_code == 201, r.text
    token: str = r.json()["token"]
    return token


@pytest.fixture
def token(node: Node) -> str:
    return token_for(node, "Catalog Reader")


def get(node: Node, token: str | None, method: str = "GET", path: str = GAMES,
        **headers: str) -> tuple[httpx.Response, bytes]:
    """The answer and its body as sent (not decoded)."""
    if token:
        headers["authorization"] = f"Bearer {token}"
    with httpx.Client(base_url=node.url, timeout=10) as c:
        r = c.send(c.build_request(method, path, headers=headers), stream=True)
        try:
            return r, b"".join(r.iter_raw())
        finally:
            r.close()


def test_the_catalog_goes_gzipped_with_a_strong_tag(node: Node, token: str) -> None:
    plain, plain_body = get(node, token, **PLAIN)
    packed, packed_body = get(node, token, **GZ)
    assert plain.status_code == packed.status_code == 200
    assert "content-encoding" not in plain.headers
    assert packed.headers["content-encoding"] == "gzip"
    assert gzip.decompress(packed_body) == plain_body
    catalog = json.loads(plain_body)
    assert catalog["count"] == len(catalog["rule_sets"]) > 10
    assert len(packed_body) < len(plain_body) * 0.3  # the layouts repeat a lot
    assert int(packed.headers["content-length"]) == len(packed_body)
    for r in (plain, packed):
        assert r.headers["cache-control"] == "no-cache"
        assert r.headers["vary"] == "Accept, Accept-Encoding"
        assert r.headers["content-type"].startswith("application/json")
        assert r.headers["x-content-type-options"] == "nosniff"
        assert r.headers["etag"].startswith('"') and r.headers["etag"].endswith('"')
    assert plain.headers["etag"] != packed.headers["etag"]


def test_msgpack_has_its_own_tag_and_gzip(node: Node, token: str) -> None:
    as_json, json_body = get(node, token, **PLAIN)
    plain, plain_body = get(node, token, **MSGPACK, **PLAIN)
    packed, packed_body = get(node, token, **MSGPACK, **GZ)
    assert plain.headers["content-type"] == "application/msgpack"
    assert msgpack.unpackb(plain_body) == json.loads(json_body)
    assert gzip.decompress(packed_body) == plain_body
    assert len({as_json.headers["etag"], plain.headers["etag"], packed.headers["etag"]}) == 3
    # a JSON tag does not validate the msgpack answer
    again, body = get(node, token, **MSGPACK, **PLAIN, **{"if-none-match": as_json.headers["etag"]})
    assert again.status_code == 200 and body == plain_body


@pytest.mark.parametrize("headers", [GZ, PLAIN])
def test_a_matching_tag_answers_304_without_a_body(node: Node, token: str,
                                                   headers: dict[str, str]) -> None:
    first, _ = get(node, token, **headers)
    tag = first.headers["etag"]
    for asked in (tag, f"W/{tag}", f'"other", {tag}', "*"):
        r, body = get(node, token, **headers, **{"if-none-match": asked})
        assert r.status_code == 304, asked
        assert body == b"" and "content-length" not in r.headers
        assert r.headers["etag"] == tag
        assert r.headers["cache-control"] == "no-cache"
    other = '"0123456789abcdef0123456789abcdef"'
    r, body = get(node, token, **headers, **{"if-none-match": other})
    assert r.status_code == 200 and body == get(node, token, **headers)[1]


def test_every_caller_gets_the_same_catalog(node: Node, token: str) -> None:
    other = token_for(node, "Another Reader")
    mine, my_body = get(node, token, **GZ)
    theirs, their_body = get(node, other, **GZ)
    assert mine.headers["etag"] == theirs.headers["etag"]
    assert my_body == their_body
    r, _ = get(node, other, **GZ, **{"if-none-match": mine.headers["etag"]})
    assert r.status_code == 304


def test_the_token_is_checked_before_the_tag(node: Node, token: str) -> None:
    tag = get(node, token, **GZ)[0].headers["etag"]
    for bad, code in ((None, "auth.required"), ("not-a-token", "auth.invalid")):
        r, body = get(node, bad, **GZ, **{"if-none-match": tag})
        assert r.status_code == 401, bad
        assert json.loads(body)["code"] == code
        assert "etag" not in r.headers


def test_head_gets_the_headers_without_the_body(node: Node, token: str) -> None:
    full, body = get(node, token, **GZ)
    head, nothing = get(node, token, "HEAD", **GZ)
    assert head.status_code == 200 and nothing == b""
    assert head.headers["etag"] == full.headers["etag"]
    assert head.headers["content-encoding"] == "gzip"
    assert int(head.headers["content-length"]) == len(body)
    r, _ = get(node, token, "HEAD", **GZ, **{"if-none-match": full.headers["etag"]})
    assert r.status_code == 304


def test_a_long_list_of_tags_is_read_to_its_end(node: Node, token: str) -> None:
    tag = get(node, token, **GZ)[0].headers["etag"]
    many = ", ".join(f'"{n:032x}"' for n in range(200))  # about 7 KB
    r, _ = get(node, token, **GZ, **{"if-none-match": f"{many}, {tag}"})
    assert r.status_code == 304
    r, body = get(node, token, **GZ, **{"if-none-match": many})
    assert r.status_code == 200 and gzip.decompress(body)


def raw_get(node: Node, token: str, if_none_match: bytes) -> tuple[int, bytes]:
    """The status and body to a request written byte by byte (no client cleans the header)."""
    host, port = node.url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), 10) as s:
        s.sendall(b"GET " + GAMES.encode() + b" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
                  b"Authorization: Bearer " + token.encode() + b"\r\n"
                  b"If-None-Match: " + if_none_match + b"\r\n\r\n")
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split(b" ", 2)[1]), body


@pytest.mark.parametrize("hostile", [
    b"\xff\xfe\x80", b'"\xe9t\xe9"', b'W/"', b'"', b",,,", b"W/", b'"a"\t,\t"b"',
    b'"' + b"\xc3" * 4000 + b'"', b"*x", b'"*"'])
def test_odd_bytes_in_if_none_match_get_the_catalog(node: Node, token: str,
                                                    hostile: bytes) -> None:
    status, body = raw_get(node, token, hostile)
    assert status == 200, hostile
    catalog: dict[str, Any] = json.loads(body)
    assert catalog["count"] == len(catalog["rule_sets"])


def test_other_json_answers_are_left_alone(node: Node, token: str) -> None:
    r, body = get(node, token, path="/api/v1/players/me", **GZ)
    assert r.status_code == 200 and json.loads(body)["name"] == "Catalog Reader"
    assert "etag" not in r.headers and "content-encoding" not in r.headers
    assert "cache-control" not in r.headers
    r, _ = get(node, token, path="/api/v1/games/klondike/easy", **GZ)
    assert r.status_code == 200 and "etag" not in r.headers
