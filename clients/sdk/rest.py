"""REST calls with the standard library only, so the SDK needs nothing the server's own
dependencies do not already bring. Synchronous; the async client runs them in a thread."""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request
from typing import Any

from . import codec
from .errors import ConnectionLost, ServerError

API = "/api/v1"


def base_url(url: str) -> str:
    """``http://host:port`` from any of the forms a user may paste (with a trailing slash, the
    API prefix, or the WebSocket's own URL)."""
    url = url.strip().rstrip("/")
    if "://" not in url:
        url = "http://" + url
    scheme, rest = url.split("://", 1)
    scheme = {"ws": "http", "wss": "https"}.get(scheme, scheme)
    for suffix in (API + "/ws", API):
        if rest.endswith(suffix):
            rest = rest[: -len(suffix)]
    return f"{scheme}://{rest}"


def ws_url(url: str) -> str:
    base = base_url(url)
    return "ws" + base[4:] + API + "/ws" if base.startswith("http") else base + API + "/ws"


def query(params: dict[str, Any]) -> str:
    kept = {k: v for k, v in params.items() if v is not None}
    return "?" + urllib.parse.urlencode(kept) if kept else ""


def call(url: str, method: str, path: str, body: dict[str, Any] | None = None,
         token: str | None = None, encoding: str = "json", timeout: float = 30.0) -> Any:
    """One REST request under /api/v1; the decoded reply, or ``ServerError`` with the
    server's code and the HTTP status."""
    headers = {"accept": codec.CONTENT_TYPE[encoding]}
    if token:
        headers["authorization"] = f"Bearer {token}"
    data = None
    if body is not None or method == "POST":
        payload = body or {}
        data = (codec.encode(payload, "msgpack") if encoding == "msgpack"
                else json.dumps(payload).encode())
        headers["content-type"] = codec.CONTENT_TYPE[encoding]
    assert isinstance(data, bytes | None)
    request = urllib.request.Request(base_url(url) + API + path, data=data, method=method,
                                     headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as reply:
            return codec.decode_body(reply.read(), reply.headers.get("content-type", ""))
    except urllib.error.HTTPError as e:
        raw = e.read()
        try:
            err = codec.decode_body(raw, e.headers.get("content-type", ""))
        except ValueError:
            err = None
        if isinstance(err, dict) and "code" in err:
            wait = err.get("retry_after", e.headers.get("retry-after"))
            try:
                after = float(wait) if wait is not None else None
            except ValueError:
                after = None
            raise ServerError(err["code"], err.get("message", ""), e.code, after) from None
        raise ServerError("http.error", f"HTTP {e.code} from {path}", e.code) from None
    except (urllib.error.URLError, OSError) as e:
        raise ConnectionLost(f"cannot reach {base_url(url)}: {e}") from e
