"""The browsable API at ``/docs``: the server's OpenAPI document (``/openapi.json``) in Swagger
UI, with a link to the AsyncAPI document of the WebSocket (``/asyncapi.json``).

The viewer is Swagger UI 5 (it reads OpenAPI 3.1), its files from the ``swagger-ui-py``
package, found where it is installed (its own Python code is not imported) and served by the
server itself: the page works with no internet access and loads nothing from elsewhere. It
runs under the web client's Content-Security-Policy, but for inline styles, which Swagger UI
sets on its elements; no script of its own is inline.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.types import Scope

from .headers import WithHeaders, page_headers
from .web_files import WebFiles

PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>SameDeal API</title>
<link rel="stylesheet" href="/docs/ui/swagger-ui.css">
</head>
<body>
<p style="font-family: sans-serif; margin: 1em 2em">The REST API below, from
<a href="/openapi.json">/openapi.json</a>. The WebSocket's messages:
<a href="/asyncapi.json">/asyncapi.json</a> (AsyncAPI 3.0), explained in the protocol guide
(docs/protocol.md).</p>
<div id="swagger-ui"></div>
<script src="/docs/ui/swagger-ui-bundle.js"></script>
<script src="/docs/start.js"></script>
</body>
</html>
"""
#: No validator badge (it would load an image from validator.swagger.io), no deep links.
START = """window.ui = SwaggerUIBundle({url: "/openapi.json", dom_id: "#swagger-ui",
  validatorUrl: null, deepLinking: false});
"""


def docs_headers(scope: Scope) -> list[tuple[str, str]]:
    """The web client's headers, its policy letting Swagger UI style its own elements."""
    return [(name, value.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'")
             if name == "Content-Security-Policy" else value)
            for name, value in page_headers(scope)]


async def page(request: Request) -> Response:
    return HTMLResponse(PAGE, headers=dict(docs_headers(request.scope)))


async def start(request: Request) -> Response:
    return Response(START, media_type="text/javascript",
                    headers=dict(docs_headers(request.scope)))


def viewer_files() -> Path:
    """Swagger UI's files: the ``static`` folder of the installed ``swagger_ui`` package."""
    spec = importlib.util.find_spec("swagger_ui")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("swagger-ui-py is not installed: pip install -e . installs it")
    return Path(next(iter(spec.submodule_search_locations))) / "static"


#: Where the pages are: beside the API, as the web client's are, and not among its operations.
PREFIX = "/docs"


def routes() -> list[BaseRoute]:
    """``/docs``, its start script, and Swagger UI's files under ``/docs/ui``."""
    files = WebFiles(directory=str(viewer_files()))
    return [Route(PREFIX, page), Route(f"{PREFIX}/start.js", start),
            Mount(f"{PREFIX}/ui", WithHeaders(files, docs_headers))]
