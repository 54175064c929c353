"""The web client's files, sent compressed and revalidated: gzip where the request's
Accept-Encoding allows it (``Vary: Accept-Encoding``), a strong ETag from the content (a 304 to
a matching If-None-Match), and ``Cache-Control: no-cache``.

The file names carry no content hash (there is no build step), so a browser may keep a copy but
must ask before using it: after a deploy every player gets the new files at once, and an
unchanged file costs a 304 with no body. Each file version (path, size and mtime) is read and
compressed once, on its first request, and kept; a changed file is read again. The catalog
(server/rest.py ``games``) goes out the same way, from bytes made once (``pack``).

StaticFiles keeps its job of finding the file (an absolute path, ``..`` out of the folder, a
name the file system cannot hold: all 404); this module only answers with it. Brotli would need
a dependency the server does not have: gzip only.
"""

from __future__ import annotations

import asyncio
import gzip
import hashlib
import os
import re
from dataclasses import dataclass
from mimetypes import guess_type
from typing import Literal

import anyio.to_thread
from starlette.datastructures import Headers
from starlette.responses import FileResponse, Response
from starlette.staticfiles import PathLike, StaticFiles
from starlette.types import Receive, Scope, Send

CACHE_CONTROL = "no-cache"
#: smaller than this, gzip's own header and trailer eat the saving
MIN_GZIP = 256
TEXT = re.compile(r"^(text/|application/(javascript|json|xml|manifest\+json)|image/svg\+xml)")
RANGE = re.compile(r"^bytes=(\d*)-(\d*)$")


@dataclass(frozen=True)
class Version:
    """One version of one file: its bytes, their gzip (None where it would not be smaller)
    and the tags of both."""

    size: int
    mtime_ns: int
    media_type: str
    raw: bytes
    gzipped: bytes | None
    etag: str

    @property
    def gzip_etag(self) -> str:
        return self.etag[:-1] + '-gz"'


def read_version(path: str, media_type: str) -> Version:
    """The file as it is now: the size and mtime are the open file's, so they fit the bytes."""
    with open(path, "rb") as f:
        st = os.fstat(f.fileno())
        raw = f.read()
    return pack(raw, media_type, st.st_mtime_ns)


def pack(raw: bytes, media_type: str, mtime_ns: int = 0, text: bool | None = None) -> Version:
    """Bytes ready to send: their gzip (where the media type is ``text``, by default the
    TEXT pattern's, and gzip is smaller) and their tag, a digest of the bytes."""
    gzipped = None
    if (TEXT.match(media_type) if text is None else text) and len(raw) >= MIN_GZIP:
        packed = gzip.compress(raw, compresslevel=9, mtime=0)  # mtime 0: the same bytes each time
        gzipped = packed if len(packed) < len(raw) else None
    digest = hashlib.sha256(raw).hexdigest()[:32]
    return Version(len(raw), mtime_ns, media_type, raw, gzipped, f'"{digest}"')


def accepts_gzip(accept_encoding: str) -> bool:
    """Whether gzip may be sent: named (or ``*``) with a quality above 0 (RFC 9110 12.5.3)."""
    named: dict[str, float] = {}
    for item in accept_encoding.split(","):
        coding, *params = (p.strip() for p in item.split(";"))
        q = 1.0
        for p in params:
            name, _, value = p.partition("=")
            if name.strip().lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if coding:
            named[coding.lower()] = q
    q = named.get("gzip", named.get("x-gzip", named.get("*", 0.0)))
    return q > 0


def tag_matches(if_none_match: str, etag: str) -> bool:
    """If-None-Match's weak comparison: ``*`` or any listed tag, ``W/`` or not."""
    tags = [t.strip() for t in if_none_match.split(",")]
    return "*" in tags or etag in (t.removeprefix("W/") for t in tags)


def byte_range(header: str, size: int) -> tuple[int, int] | Literal[False] | None:
    """One range of a Range header as (start, end exclusive); None to send the whole file (a
    form not understood, or several ranges: RFC 9110 lets a server ignore Range); False when
    no byte of it is in the file (416)."""
    m = RANGE.match(header.strip())
    if not m or m.group(1) == m.group(2) == "":
        return None
    first, last = m.group(1), m.group(2)
    if first == "":  # the last n bytes
        n = int(last)
        return (max(0, size - n), size) if n > 0 and size > 0 else False
    start = int(first)
    end = size if last == "" else min(size, int(last) + 1)
    if last != "" and int(last) < start:
        return None  # not a valid range: ignored
    return (start, end) if start < size else False


class WebFiles(StaticFiles):
    """StaticFiles that answers from a cache of compressed file versions."""

    def __init__(self, *, directory: PathLike, html: bool = True) -> None:
        super().__init__(directory=directory, html=html)
        self.versions: dict[str, Version] = {}
        self.loading = asyncio.Lock()

    def file_response(self, full_path: PathLike, stat_result: os.stat_result, scope: Scope,
                      status_code: int = 200) -> Response:
        # No 304 decided here: get_response decides it on this module's own tags.
        return FileResponse(full_path, status_code=status_code, stat_result=stat_result)

    async def get_response(self, path: str, scope: Scope) -> Response:
        found = await super().get_response(path, scope)
        if not isinstance(found, FileResponse) or found.stat_result is None:
            return found  # a redirect to the folder's "/"
        return VersionResponse(await self.version(found), found.status_code)

    async def version(self, found: FileResponse) -> Version:
        path, st = str(found.path), found.stat_result
        assert st is not None
        v = self.versions.get(path)
        if v is not None and (v.size, v.mtime_ns) == (st.st_size, st.st_mtime_ns):
            return v
        async with self.loading:  # one read and one compression per version, however many ask
            v = self.versions.get(path)
            if v is None or (v.size, v.mtime_ns) != (st.st_size, st.st_mtime_ns):
                media = found.media_type or guess_type(path)[0] or "application/octet-stream"
                v = await anyio.to_thread.run_sync(read_version, path, media)
                self.versions[path] = v
        return v


class VersionResponse(Response):
    """A file version as the request asks for it: whole or one byte range, gzip or not, or
    304. HEAD gets the headers GET would get, and no body. ``vary`` names the request headers
    the choice of version depends on besides Accept-Encoding (the catalog's Accept)."""

    def __init__(self, version: Version, status_code: int = 200, vary: str = "") -> None:
        self.version = version
        self.status_code = status_code
        self.vary = f"{vary}, Accept-Encoding" if vary else "Accept-Encoding"
        self.background = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        v = self.version
        asked = Headers(scope=scope)
        head = scope["method"] == "HEAD"
        gz = v.gzipped is not None and accepts_gzip(asked.get("accept-encoding", ""))
        etag = v.gzip_etag if gz else v.etag
        headers = [("etag", etag), ("cache-control", CACHE_CONTROL),
                   ("vary", self.vary)]
        status, body = self.status_code, v.gzipped if gz and v.gzipped is not None else v.raw
        if status == 200 and "if-none-match" in asked and tag_matches(asked["if-none-match"], etag):
            await self.send(send, 304, headers, b"", head=True)
            return
        if gz:
            headers.append(("content-encoding", "gzip"))
        if status == 200:
            headers.append(("accept-ranges", "bytes"))
            span = self.ranged(asked)
            if span is False:
                headers = [("content-range", f"bytes */{len(v.raw)}")]
                await self.send(send, 416, headers, b"", head)
                return
            if span:  # a range is of the file itself, never of its gzip
                start, end = span
                headers = [h for h in headers if h[0] != "content-encoding"]
                headers[0] = ("etag", v.etag)
                headers.append(("content-range", f"bytes {start}-{end - 1}/{len(v.raw)}"))
                status, body = 206, v.raw[start:end]
        headers.append(("content-type", content_type(v.media_type)))
        await self.send(send, status, headers, body, head)

    def ranged(self, asked: Headers) -> tuple[int, int] | Literal[False] | None:
        """The range to send, if the request asks for one that still fits: an If-Range
        naming another version (or a date) gets the whole file."""
        if "range" not in asked:
            return None
        if_range = asked.get("if-range")
        if if_range is not None and if_range.strip() != self.version.etag:
            return None
        return byte_range(asked["range"], len(self.version.raw))

    @staticmethod
    async def send(send: Send, status: int, headers: list[tuple[str, str]], body: bytes,
                   head: bool) -> None:
        if status != 304:
            headers = [*headers, ("content-length", str(len(body)))]
        await send({"type": "http.response.start", "status": status,
                    "headers": [(k.encode(), v.encode("latin-1")) for k, v in headers]})
        await send({"type": "http.response.body", "body": b"" if head else body})


def content_type(media_type: str) -> str:
    if media_type.startswith("text/") or media_type in ("application/javascript",
                                                         "application/json"):
        return f"{media_type}; charset=utf-8"
    return media_type
