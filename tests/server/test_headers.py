"""The web client's pages carry a Content-Security-Policy (their own scripts only, no inline
script or style, never framed), X-Frame-Options and nosniff; API responses carry nosniff; and
nginx, as deploy/nginx.conf sets it up, passes them on."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import httpx
import pytest

from tests.deploy.test_failover import Shape

from .client import Node

WEB = Path(__file__).resolve().parents[2] / "clients" / "web"
PAGES = ["/", "/index.html", "/app.js", "/match.js", "/style.css"]


def policy(response: httpx.Response) -> dict[str, str]:
    """The Content-Security-Policy's directives, by name."""
    out = {}
    for part in response.headers["content-security-policy"].split(";"):
        name, _, value = part.strip().partition(" ")
        out[name] = value
    return out


def check_page(response: httpx.Response, origin: str) -> None:
    assert response.status_code == 200, response.url
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["x-frame-options"] == "DENY"
    csp = policy(response)
    assert csp["script-src"] == "'self'" and csp["style-src"] == "'self'"
    assert csp["default-src"] == "'self'" and csp["object-src"] == "'none'"
    assert csp["frame-ancestors"] == "'none'" and csp["base-uri"] == "'self'"
    host = origin.split("://", 1)[1]
    assert csp["connect-src"].split() == ["'self'", f"ws://{host}", f"wss://{host}"]


def check_api(response: httpx.Response) -> None:
    assert response.headers["x-content-type-options"] == "nosniff", response.url


@pytest.mark.parametrize("path", PAGES)
def test_the_web_clients_responses_carry_the_policy(node: Node, path: str) -> None:
    check_page(httpx.get(node.url + path, timeout=10), node.url)


def test_api_responses_carry_nosniff(node: Node) -> None:
    for path in ("/api/v1/games", "/healthz", "/openapi.json", "/api/v1/nothing",
                 "/no-such-file.js"):
        check_api(httpx.get(node.url + path, timeout=10))


def test_a_hostile_host_header_stays_out_of_the_policy(node: Node) -> None:
    r = httpx.get(node.url + "/", headers={"host": "evil.example; script-src *"}, timeout=10)
    assert policy(r)["connect-src"] == "'self'"
    assert policy(r)["script-src"] == "'self'"


class Markup(HTMLParser):
    """Every inline script, inline event handler and style attribute in a page."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = {k for k, _ in attrs}
        if tag == "script" and "src" not in names:
            self.found.append("inline <script>")
        if tag == "style":
            self.found.append("inline <style>")
        self.found += [f"{tag} {k}=" for k in names if k == "style" or k.startswith("on")]


@pytest.mark.parametrize("page", sorted(p.name for p in WEB.glob("*.html")))
def test_pages_have_no_inline_script_or_style(page: str) -> None:
    parser = Markup()
    parser.feed((WEB / page).read_text())
    assert parser.found == []
    for script in WEB.glob("*.js"):  # markup built from strings: no handlers or styles there
        text = script.read_text()
        assert not re.search(r"<[a-z][^>]*\s(on[a-z]+|style)=", text), script.name


def test_nginx_passes_the_headers_on(tmp_path: Path) -> None:
    shape = Shape(tmp_path)
    try:
        check_page(httpx.get(shape.url + "/", timeout=10), shape.url)
        check_api(httpx.get(shape.url + "/api/v1/games", timeout=10))
    finally:
        shape.close()
