"""The web client's files over real sockets: gzip where Accept-Encoding allows it, a strong
ETag from the content answered with 304, Cache-Control, HEAD, byte ranges, each file version
compressed once; and the refusals that must stay: missing files, paths out of the folder,
hostile bytes in the path. Through nginx (deploy/nginx.conf) the same headers arrive."""

from __future__ import annotations

import gzip
import os
import shutil
import socket
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from server.transport.web_files import accepts_gzip, byte_range
from tests.conftest import FAST, start_node, stop_node
from tests.deploy.test_failover import Shape

from .client import Node

WEB = Path(__file__).resolve().parents[2] / "clients" / "web"
GZ = {"accept-encoding": "gzip"}
PLAIN = {"accept-encoding": "identity"}


class Answer:
    """An HTTP answer with its body as sent (not decoded)."""

    def __init__(self, r: httpx.Response, content: bytes) -> None:
        self.status_code, self.headers, self.content = r.status_code, r.headers, content


def get(node: Node, path: str, method: str = "GET", **headers: str) -> Answer:
    with httpx.Client(base_url=node.url, timeout=10) as c:
        r = c.send(c.build_request(method, path, headers=headers), stream=True)
        try:
            return Answer(r, b"".join(r.iter_raw()))
        finally:
            r.close()


def raw(node: Node, path: bytes, method: bytes = b"GET", extra: bytes = b"") -> tuple[int, bytes]:
    """The status and whole answer to a request line written byte by byte (no client's
    normalising of the path)."""
    host, port = node.url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), 10) as s:
        s.sendall(method + b" " + path + b" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
                  + extra + b"\r\n")
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    status = int(data.split(b" ", 2)[1]) if data.startswith(b"HTTP/1.1 ") else 0
    return status, data


@pytest.fixture(scope="module")
def own_web(redis_url: str, tmp_path_factory: pytest.TempPathFactory
            ) -> Iterator[tuple[Node, Path]]:
    """A node serving a copy of the web client, which the tests may change."""
    work = tmp_path_factory.mktemp("web-files")
    folder = work / "web"
    shutil.copytree(WEB, folder)
    node, proc = start_node(redis_url, work / "node.log", SAMEDEAL_WEB_ROOT=str(folder), **FAST)
    yield node, folder
    stop_node(proc)


@pytest.mark.parametrize("path", ["/", "/app.js", "/style.css"])
def test_a_text_file_goes_gzipped_with_its_tags(node: Node, path: str) -> None:
    source = (WEB / (path.strip("/") or "index.html")).read_bytes()
    plain, packed = get(node, path, **PLAIN), get(node, path, **GZ)
    assert plain.status_code == packed.status_code == 200
    assert plain.content == source and "content-encoding" not in plain.headers
    assert packed.headers["content-encoding"] == "gzip"
    assert gzip.decompress(packed.content) == source
    assert len(packed.content) < len(source) * 0.6
    assert int(packed.headers["content-length"]) == len(packed.content)
    for r in (plain, packed):
        assert r.headers["vary"] == "Accept-Encoding"
        assert r.headers["cache-control"] == "no-cache"
        assert r.headers["content-security-policy"].startswith("default-src 'self'")
        assert r.headers["x-content-type-options"] == "nosniff"
        assert r.headers["x-frame-options"] == "DENY"
    # strong tags, one per representation
    assert not any(r.headers["etag"].startswith("W/") for r in (plain, packed))
    assert plain.headers["etag"] != packed.headers["etag"]
    if path.endswith(".js"):
        assert packed.headers["content-type"].startswith("text/javascript")


@pytest.mark.parametrize("accept, gzipped", [
    ("gzip, deflate, br", True), ("br;q=1.0, gzip;q=0.8, *;q=0.1", True), ("*", True),
    ("gzip;q=0", False), ("*;q=0", False), ("deflate, br", False), ("", False),
    ("gzip;q=nonsense", False), ("GZIP", True)])
def test_accept_encoding_decides(node: Node, accept: str, gzipped: bool) -> None:
    assert accepts_gzip(accept) is gzipped
    r = get(node, "/app.js", **{"accept-encoding": accept})
    assert r.status_code == 200
    assert ("content-encoding" in r.headers) is gzipped


def test_the_etag_is_the_contents_and_answers_304(node: Node) -> None:
    for headers in (GZ, PLAIN):
        first = get(node, "/play.js", **headers)
        again = get(node, "/play.js", **headers)
        assert first.headers["etag"] == again.headers["etag"]
        tag = first.headers["etag"]
        for asked in (tag, f"W/{tag}", f'"other", {tag}', "*"):
            r = get(node, "/play.js", **headers, **{"if-none-match": asked})
            assert r.status_code == 304, asked
            assert r.content == b""
            assert r.headers["etag"] == tag
            assert r.headers["cache-control"] == "no-cache"
            assert r.headers["vary"] == "Accept-Encoding"
        stale = get(node, "/play.js", **headers, **{"if-none-match": '"stale"'})
        assert stale.status_code == 200 and stale.content == first.content
    # the other representation's tag is not this one's
    gz_tag = get(node, "/play.js", **GZ).headers["etag"]
    assert get(node, "/play.js", **PLAIN, **{"if-none-match": gz_tag}).status_code == 200


def test_head_sends_the_headers_alone(node: Node) -> None:
    for headers in (GZ, PLAIN):
        full = get(node, "/replay.js", **headers)
        head = get(node, "/replay.js", "HEAD", **headers)
        assert head.status_code == 200 and head.content == b""
        for name in ("etag", "content-length", "content-type", "vary", "cache-control",
                     "content-security-policy"):
            assert head.headers[name] == full.headers[name], name
        assert head.headers.get("content-encoding") == full.headers.get("content-encoding")
    status, answer = raw(node, b"/style.css", b"HEAD")
    assert status == 200 and answer.endswith(b"\r\n\r\n")  # nothing after the headers


def test_byte_ranges_are_of_the_file_itself(node: Node) -> None:
    source = (WEB / "style.css").read_bytes()
    size = len(source)
    tag = get(node, "/style.css", **PLAIN).headers["etag"]
    for asked, (start, end) in (("bytes=0-99", (0, 100)), ("bytes=100-", (100, size)),
                                ("bytes=-50", (size - 50, size)),
                                (f"bytes=10-{size * 2}", (10, size))):
        r = get(node, "/style.css", range=asked, **GZ)  # gzip asked: a range is never gzipped
        assert r.status_code == 206, asked
        assert r.content == source[start:end]
        assert r.headers["content-range"] == f"bytes {start}-{end - 1}/{size}"
        assert "content-encoding" not in r.headers
        assert r.headers["etag"] == tag
    r = get(node, "/style.css", range=f"bytes={size}-")
    assert r.status_code == 416 and r.headers["content-range"] == f"bytes */{size}"
    # ranges not understood, several ranges, or an If-Range of another version: the whole file
    for headers in ({"range": "lines=1-2"}, {"range": "bytes=5-1"}, {"range": "bytes=0-1,5-9"},
                    {"range": "bytes=0-9", "if-range": '"another"'}):
        r = get(node, "/style.css", **PLAIN, **headers)
        assert r.status_code == 200 and r.content == source, headers
    r = get(node, "/style.css", range="bytes=0-9", **{"if-range": tag})
    assert r.status_code == 206 and r.content == source[:10]


def test_each_file_version_is_read_once(own_web: tuple[Node, Path]) -> None:
    node, folder = own_web
    page = folder / "lobby.js"
    before = get(node, "/lobby.js", **GZ)
    text = page.read_bytes()
    st = page.stat()
    # The same size and mtime with other bytes: still the version read before (the cache's
    # key), which shows the server did not read or compress the file again.
    page.write_bytes(text.replace(b"lobby", b"LOBBY"))
    os.utime(page, ns=(st.st_atime_ns, st.st_mtime_ns))
    kept = get(node, "/lobby.js", **GZ)
    assert kept.content == before.content and kept.headers["etag"] == before.headers["etag"]
    # A new version (another mtime): read, compressed and tagged again.
    os.utime(page, ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))
    fresh = get(node, "/lobby.js", **GZ)
    assert gzip.decompress(fresh.content) == text.replace(b"lobby", b"LOBBY")
    assert fresh.headers["etag"] != before.headers["etag"]
    assert get(node, "/lobby.js", **GZ, **{"if-none-match": before.headers["etag"]}
               ).status_code == 200
    # a small or binary file goes as it is, still tagged
    (folder / "tiny.txt").write_bytes(b"small")
    (folder / "blob.png").write_bytes(bytes(range(256)) * 8)
    for name, body in (("tiny.txt", b"small"), ("blob.png", bytes(range(256)) * 8)):
        r = get(node, f"/{name}", **GZ)
        assert r.status_code == 200 and r.content == body and "content-encoding" not in r.headers
        assert r.headers["etag"] and r.headers["cache-control"] == "no-cache"


def test_missing_files_and_escapes_are_404(own_web: tuple[Node, Path]) -> None:
    node, folder = own_web
    (folder.parent / "secret.txt").write_text("not for the web")
    for path in (b"/no-such-file.js", b"/../secret.txt", b"/%2e%2e/secret.txt",
                 b"/..%2fsecret.txt", b"/%2e%2e%2fsecret.txt", b"//etc/passwd",
                 b"/%2Fetc%2Fpasswd", b"/..\\secret.txt", b"/%5c..%5csecret.txt",
                 b"/app.js/../../secret.txt", b"/%2e%2e%2f%2e%2e%2fetc/passwd"):
        status, answer = raw(node, path)
        assert status in (400, 404), (path, answer[:200])
        assert b"not for the web" not in answer and b"root:" not in answer, path


@pytest.mark.parametrize("path", [
    b"/%ED%A0%80.js",              # a lone surrogate, UTF-8 encoded
    b"/%ED%A0%80%ED%B0%80",        # a surrogate pair written as two halves
    b"/%FF%FE.js",                 # not UTF-8 at all
    b"/a%00b.js", b"/%00",         # NUL
    b"/a%0D%0Aset-cookie:%20x=1",  # a header injection try
    b"/%01%1F%7F.js",              # control characters
    b"/" + b"a" * 5000,            # longer than any file name
    b"/" + b"a/" * 2000 + b"app.js",  # deeper than any folder
    b"/index.html%20",
])
def test_hostile_paths_are_refused_calmly(node: Node, path: bytes) -> None:
    status, answer = raw(node, path)
    assert status in (400, 404, 414), answer[:300]
    head = answer.split(b"\r\n\r\n", 1)[0].lower()
    assert b"set-cookie" not in head
    assert b"x-content-type-options: nosniff" in head or status in (400, 414)
    # and the node still serves
    assert get(node, "/app.js").status_code == 200


#: what a path part or a header value is made of when an attacker writes it
HOSTILE = st.lists(st.sampled_from([
    "a", ".", "/", "\\", "%", "\x00", "\x01", "\n", "\x7f", "\x85", "\ud800", "\udfff", "\u202e",
    "\ufeff", "é", "app.js", "..", "index.html", " ", ";", ",", "bytes=", "-", "0", "99", "*",
    "gzip", "q=0", "W/", '"']), max_size=20).map("".join)


@settings(max_examples=150)
@given(path=HOSTILE, range_=HOSTILE, tag=HOSTILE, accept=HOSTILE, long=st.integers(0, 3))
def test_generated_hostile_requests(nodes: list[Node], path: str, range_: str, tag: str,
                                    accept: str, long: int) -> None:
    """Any path (percent-encoded bytes, surrogates written as their UTF-8), any Range,
    If-None-Match and Accept-Encoding: a calm answer, never a server error."""
    target = b"/" + quote((path * (1 + long * 300)).encode("utf-8", "surrogatepass"),
                          safe="/").encode()
    headers = b"".join(name + b": " + value.encode("utf-8", "surrogatepass").translate(
        None, b"\r\n") + b"\r\n" for name, value in ((b"Range", range_),
                                                     (b"If-None-Match", tag),
                                                     (b"Accept-Encoding", accept)))
    status, answer = raw(nodes[0], target, extra=headers)
    assert status in (200, 206, 304, 307, 400, 404, 414, 416, 431), answer[:300]
    if status in (200, 206):  # whatever was found, from inside the folder
        assert b"content-security-policy" in answer.split(b"\r\n\r\n")[0].lower()


def test_byte_range_forms() -> None:
    assert byte_range("bytes=0-0", 10) == (0, 1)
    assert byte_range("bytes=-20", 10) == (0, 10)
    assert byte_range("bytes=-0", 10) is False
    assert byte_range("bytes=-", 10) is None
    assert byte_range("bytes=9-", 10) == (9, 10)
    assert byte_range("bytes=10-", 10) is False
    assert byte_range("bytes=a-b", 10) is None


def test_nginx_passes_compression_and_tags_on(tmp_path: Path) -> None:
    if shutil.which("nginx") is None and not Path("/usr/sbin/nginx").exists():
        pytest.fail("nginx is not installed: run the README's test command")
    shape = Shape(tmp_path)
    try:
        base = Node(shape.url, 0, tmp_path / "nginx.log")
        source = (WEB / "app.js").read_bytes()
        packed = get(base, "/app.js", **GZ)
        assert packed.status_code == 200 and packed.headers["content-encoding"] == "gzip"
        assert gzip.decompress(packed.content) == source
        assert packed.headers["vary"] == "Accept-Encoding"
        assert packed.headers["cache-control"] == "no-cache"
        tag = packed.headers["etag"]
        assert not tag.startswith("W/")
        assert get(base, "/app.js", **GZ, **{"if-none-match": tag}).status_code == 304
        plain = get(base, "/app.js", **PLAIN)
        assert plain.content == source and "content-encoding" not in plain.headers
        # what the nodes send as it is (JSON documents) nginx gzips itself
        doc = get(base, "/openapi.json", **GZ)
        assert doc.headers["content-encoding"] == "gzip"
        assert doc.headers["vary"] == "Accept-Encoding"
        assert gzip.decompress(doc.content).startswith(b'{"openapi"')
    finally:
        shape.close()

